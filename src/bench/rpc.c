/*
 * Sun RPC round trips through libtirpc, over UDP and TCP on loopback: the
 * lmbench "RPC/udp" and "RPC/tcp" latencies.  One iteration is a whole
 * clnt_call(): the client marshals an unsigned int, the kernel carries it to
 * a server peer (end 1), whose svc_run() dispatches it, and the reply comes
 * back.  So the figure is the kernel's round trip plus libtirpc's own work
 * on both sides, which is what an RPC user pays.
 *
 * No portmapper: none runs on a benchmark machine, and a lookup would add a
 * round trip to rpcbind.  The server registers with protocol 0 (no rpcbind
 * registration) and the client is given the server's port.  The server
 * answers argument + 1 and the argument changes on every call, so a call
 * that failed, or a reply that belongs to another call, cannot pass.  Every
 * call has a total timeout of two seconds, so a lost server fails the run
 * with a reason instead of hanging it until the watchdog.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/families.h"
#include "config.h"

#if KB_HAVE_TIRPC

#include <arpa/inet.h>
#include <dlfcn.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <rpc/rpc.h>

#include "bench/peer.h"
#include "plat/plat.h"

/*
 * A program number from the range Sun left to users (0x20000000 to
 * 0x3fffffff), so it cannot collide with a real service.
 */
#define RPC_PROG 0x20004b42u
#define RPC_VERS 1u
/* Procedure 0 is NULLPROC by convention; 1 answers its argument + 1. */
#define RPC_PROC_INC 1u

/*
 * xdr_void takes no arguments, unlike an xdrproc_t; going through
 * void (*)(void), which GCC lets match any function type, says the cast is
 * meant (-Wcast-function-type).
 */
#define RPC_XDR_VOID ((xdrproc_t)(void (*)(void))rpc_lib.xdr_void)

/* The argument of one call: an XDR unsigned int. */
#define RPC_MSG_SIZE 4

/* How long a call may take in all, and how often UDP resends meanwhile. */
static const struct timeval rpc_total = { 2, 0 };
static const struct timeval rpc_retry = { 0, 500000 };


/*
 * libtirpc is loaded when an RPC benchmark sets up, never linked: linked,
 * it maps itself and the Kerberos libraries it needs (seven more shared
 * objects) into every kbench process, and proc.fork, which forks such a
 * process, would pay for copying those mappings.  The macros (clnt_call,
 * svc_getargs, ...) go through the handles' own tables; these are the
 * functions called by name.
 */
#define RPC_LIBRARY "libtirpc.so.3"

static struct {
	__typeof__(&svc_sendreply) svc_sendreply;
	__typeof__(&svcerr_decode) svcerr_decode;
	__typeof__(&svcerr_noproc) svcerr_noproc;
	__typeof__(&svcudp_create) svcudp_create;
	__typeof__(&svctcp_create) svctcp_create;
	__typeof__(&svc_register) svc_register;
	__typeof__(&svc_run) svc_run;
	__typeof__(&clntudp_create) clntudp_create;
	__typeof__(&clnttcp_create) clnttcp_create;
	__typeof__(&clnt_spcreateerror) clnt_spcreateerror;
	__typeof__(&clnt_sperrno) clnt_sperrno;
	__typeof__(&xdr_u_int) xdr_u_int;
	__typeof__(&xdr_void) xdr_void;
} rpc_lib;

/*
 * Fill rpc_lib; NULL, or why it could not be loaded.  All or nothing: a
 * library that lacks one of the names leaves every slot empty, so a later
 * call cannot take a half-filled table for a loaded one.
 */
static const char *rpc_load(void)
{
	static int loaded;
	static const char *const names[] = {
		"svc_sendreply",
		"svcerr_decode",
		"svcerr_noproc",
		"svcudp_create",
		"svctcp_create",
		"svc_register",
		"svc_run",
		"clntudp_create",
		"clnttcp_create",
		"clnt_spcreateerror",
		"clnt_sperrno",
		"xdr_u_int",
		"xdr_void",
	};
	void **slots = (void **)&rpc_lib;
	void *h;

	_Static_assert(sizeof(rpc_lib) == sizeof(names) / sizeof(names[0]) * sizeof(void *),
		       "rpc_lib and its names must list the same functions");
	if (loaded)
		return NULL;
	h = dlopen(RPC_LIBRARY, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return dlerror();
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		slots[i] = dlsym(h, names[i]);
		if (!slots[i]) {
			/* dlerror's text lives until the next dl call: keep it past dlclose. */
			static char why[256];

			snprintf(why, sizeof(why), "%s", dlerror());
			memset(&rpc_lib, 0, sizeof(rpc_lib));
			dlclose(h);
			return why;
		}
	}
	loaded = 1;
	return NULL;
}

/* The client's state, from setup to teardown. */
struct rpc_state {
	CLIENT *clnt;		/* the connection to the server peer */
	pid_t server;		/* the server peer, end 1 */
	unsigned int next;	/* the next call's argument */
	const char *proto;	/* "udp" or "tcp", for messages */
};

/* What the server peer is handed: its socket, bound and (TCP) listening. */
struct rpc_server_arg {
	int sock;
	int type;		/* SOCK_DGRAM or SOCK_STREAM */
};

/*
 * The server's dispatch.  It runs in the peer, which must not print, so a
 * reply it cannot send ends the peer with PEER_IO: the client's call then
 * fails, and peer_failed() says why.
 */
static void rpc_dispatch(struct svc_req *req, SVCXPRT *xprt)
{
	unsigned int arg = 0, res;

	switch (req->rq_proc) {
	case NULLPROC:
		if (!rpc_lib.svc_sendreply(xprt, RPC_XDR_VOID, NULL))
			_exit(PEER_IO);
		return;
	case RPC_PROC_INC:
		/* A u_int decodes into arg itself: nothing to svc_freeargs. */
		if (!svc_getargs(xprt, (xdrproc_t)rpc_lib.xdr_u_int, (void *)&arg)) {
			rpc_lib.svcerr_decode(xprt);
			return;
		}
		res = arg + 1;
		if (!rpc_lib.svc_sendreply(xprt, (xdrproc_t)rpc_lib.xdr_u_int, (void *)&res))
			_exit(PEER_IO);
		return;
	default:
		rpc_lib.svcerr_noproc(xprt);
		return;
	}
}

/* The server peer: serve calls until killed. */
static int rpc_server(struct bench_ctx *ctx, void *arg)
{
	const struct rpc_server_arg *a = arg;
	SVCXPRT *xprt;

	(void)ctx;
	if (a->type == SOCK_DGRAM)
		xprt = rpc_lib.svcudp_create(a->sock);
	else
		xprt = rpc_lib.svctcp_create(a->sock, 0, 0);
	if (!xprt)
		return PEER_SETUP;
	/* Protocol 0: register with the dispatcher only, not with rpcbind. */
	if (!rpc_lib.svc_register(xprt, RPC_PROG, RPC_VERS, rpc_dispatch, 0))
		return PEER_SETUP;
	rpc_lib.svc_run();
	/* rpc_lib.svc_run() returns only when its poll() fails. */
	return PEER_IO;
}

/*
 * libtirpc's texts may end in a newline, which a one-line error must not
 * carry: the length to print.
 */
static int rpc_text_len(const char *s)
{
	size_t len = strlen(s);

	while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == ' '))
		len--;
	return len > ERRBUF_LEN ? ERRBUF_LEN : (int)len;
}

/*
 * A server socket on 127.0.0.1 and an ephemeral port, read back into sin.
 * Returns the socket, or -1 with ctx->err filled.
 */
static int rpc_listen(struct bench_ctx *ctx, int type, struct sockaddr_in *sin)
{
	socklen_t len = sizeof(*sin);
	int sock = plat_socket(AF_INET, type | SOCK_CLOEXEC, 0);

	if (sock < 0) {
		bench_fail(ctx, errno, "cannot make the server's socket");
		return -1;
	}
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (plat_bind(sock, (struct sockaddr *)sin, sizeof(*sin)) < 0) {
		bench_fail(ctx, errno, "cannot bind the server's socket to 127.0.0.1");
		goto fail;
	}
	if (getsockname(sock, (struct sockaddr *)sin, &len) < 0) {
		bench_fail(ctx, errno, "cannot read the server's port");
		goto fail;
	}
	/* Listening before the fork lets the client connect before rpc_lib.svc_run(). */
	if (type == SOCK_STREAM && plat_listen(sock, 8) < 0) {
		bench_fail(ctx, errno, "cannot listen on the server's socket");
		goto fail;
	}
	return sock;
fail:
	close(sock);
	return -1;
}

/*
 * The client, created after the fork so the server does not hold its
 * socket.  The port is given, so libtirpc asks no portmapper.
 */
static CLIENT *rpc_client(struct bench_ctx *ctx, int type, struct sockaddr_in *sin)
{
	int sock = RPC_ANYSOCK;
	CLIENT *clnt;
	const char *why;

	if (type == SOCK_DGRAM)
		clnt = rpc_lib.clntudp_create(sin, RPC_PROG, RPC_VERS, rpc_retry, &sock);
	else
		clnt = rpc_lib.clnttcp_create(sin, RPC_PROG, RPC_VERS, &sock, 0, 0);
	if (!clnt) {
		why = rpc_lib.clnt_spcreateerror("cannot create the RPC client");
		bench_fail(ctx, 0, "%.*s", rpc_text_len(why), why);
		return NULL;
	}
	/* Over the timeout given to each call: it says so once and for all. */
	if (!clnt_control(clnt, CLSET_TIMEOUT, (void *)&rpc_total)) {
		clnt_destroy(clnt);
		bench_fail(ctx, 0, "cannot set the RPC client's timeout");
		return NULL;
	}
	return clnt;
}

/* A failed call: what libtirpc says, then what became of the server. */
static enum bench_status rpc_call_failed(struct bench_ctx *ctx, struct rpc_state *s,
					 const char *call, enum clnt_stat stat)
{
	char what[ERRBUF_LEN];
	struct rpc_err e;
	const char *why = rpc_lib.clnt_sperrno(stat);
	int len;

	memset(&e, 0, sizeof(e));
	clnt_geterr(s->clnt, &e);
	len = snprintf(what, sizeof(what), "%s over %s: %.*s", call, s->proto,
		       rpc_text_len(why), why);
	if ((stat == RPC_CANTSEND || stat == RPC_CANTRECV) && e.re_errno && len >= 0 &&
	    (size_t)len < sizeof(what))
		snprintf(what + len, sizeof(what) - (size_t)len, " (%s)", strerror(e.re_errno));
	return peer_failed(ctx, &s->server, what);
}

static enum bench_status rpc_setup(struct bench_ctx *ctx, int type)
{
	struct rpc_server_arg a = { .type = type };
	struct sockaddr_in sin;
	struct rpc_state *s;
	enum clnt_stat stat;
	const char *why = rpc_load();

	if (why)
		return bench_skip(ctx, "cannot load %s: %s", RPC_LIBRARY, why);

	s = calloc(1, sizeof(*s));
	if (!s)
		return bench_fail(ctx, ENOMEM, "setup");
	s->proto = type == SOCK_DGRAM ? "udp" : "tcp";
	a.sock = rpc_listen(ctx, type, &sin);
	if (a.sock < 0)
		goto fail;
	s->server = peer_start(ctx, 1, rpc_server, &a);
	/* The server has its own copy now; ours is of no use. */
	close(a.sock);
	if (s->server < 0)
		goto fail;
	s->clnt = rpc_client(ctx, type, &sin);
	if (!s->clnt)
		goto fail;
	/*
	 * One empty call before any timing: a server that did not come up
	 * fails here, with the reason, rather than in the calibration.
	 */
	stat = clnt_call(s->clnt, NULLPROC, RPC_XDR_VOID, NULL, RPC_XDR_VOID,
			 NULL, rpc_total);
	if (stat != RPC_SUCCESS) {
		rpc_call_failed(ctx, s, "the first (empty) call", stat);
		clnt_destroy(s->clnt);
		goto fail;
	}
	ctx->priv = s;
	ctx->nends = 2;
	bench_value(ctx, "msg_size", RPC_MSG_SIZE);
	return BENCH_OK;
fail:
	peer_stop(s->server);
	free(s);
	return BENCH_FAIL;
}

static enum bench_status rpc_udp_setup(struct bench_ctx *ctx)
{
	return rpc_setup(ctx, SOCK_DGRAM);
}

static enum bench_status rpc_tcp_setup(struct bench_ctx *ctx)
{
	return rpc_setup(ctx, SOCK_STREAM);
}

static enum bench_status rpc_run(struct bench_ctx *ctx, uint64_t n)
{
	struct rpc_state *s = ctx->priv;
	char call[96];

	for (uint64_t i = 0; i < n; i++) {
		unsigned int arg = s->next++, res = arg;
		enum clnt_stat stat;

		stat = clnt_call(s->clnt, RPC_PROC_INC, (xdrproc_t)rpc_lib.xdr_u_int, (void *)&arg,
				 (xdrproc_t)rpc_lib.xdr_u_int, (void *)&res, rpc_total);
		if (stat != RPC_SUCCESS) {
			snprintf(call, sizeof(call), "call %llu of %llu (argument %u)",
				 (unsigned long long)i + 1, (unsigned long long)n, arg);
			return rpc_call_failed(ctx, s, call, stat);
		}
		if (res != arg + 1)
			return bench_fail(ctx, 0, "call %llu of %llu over %s: sent %u, the server "
					  "answered %u instead of %u", (unsigned long long)i + 1,
					  (unsigned long long)n, s->proto, arg, res, arg + 1);
	}
	return BENCH_OK;
}

static void rpc_teardown(struct bench_ctx *ctx)
{
	struct rpc_state *s = ctx->priv;

	/* The client was made with RPC_ANYSOCK, so this closes its socket too. */
	clnt_destroy(s->clnt);
	peer_stop(s->server);
	free(s);
	ctx->priv = NULL;
}

/* libtirpc finds its transports ("udp", "tcp") in this file, on both sides. */
static const char *rpc_unsupported(void)
{
	return access("/etc/netconfig", R_OK) == 0 ? NULL
						   : "no /etc/netconfig, which libtirpc needs";
}

#else /* !KB_HAVE_TIRPC */

/* The rows stay listed with their reason; the harness asks this first. */
static const char *rpc_unsupported(void)
{
	return "built without libtirpc";
}

/* Never called, since rpc_unsupported() answers; the registry wants them. */
static enum bench_status rpc_udp_setup(struct bench_ctx *ctx)
{
	return bench_skip(ctx, "%s", rpc_unsupported());
}

static enum bench_status rpc_tcp_setup(struct bench_ctx *ctx)
{
	return bench_skip(ctx, "%s", rpc_unsupported());
}

static enum bench_status rpc_run(struct bench_ctx *ctx, uint64_t n)
{
	(void)n;
	return bench_skip(ctx, "%s", rpc_unsupported());
}

static void rpc_teardown(struct bench_ctx *ctx)
{
	(void)ctx;
}

#endif /* KB_HAVE_TIRPC */

const struct bench rpc_benches[] = {
	{ .id = "ipc.rpc_udp.lat", .metric = METRIC_US, .better = BETTER_LOWER,
	  .suites = SUITE_QUICK | SUITE_STANDARD | SUITE_FULL | SUITE_LMBENCH,
	  .flags = BENCH_PLACED,
	  .summary = "Sun RPC call and reply over UDP on loopback (libtirpc)",
	  .unsupported = rpc_unsupported, .setup = rpc_udp_setup, .run = rpc_run,
	  .teardown = rpc_teardown },
	{ .id = "ipc.rpc_tcp.lat", .metric = METRIC_US, .better = BETTER_LOWER,
	  .suites = SUITE_QUICK | SUITE_STANDARD | SUITE_FULL | SUITE_LMBENCH,
	  .flags = BENCH_PLACED,
	  .summary = "Sun RPC call and reply over TCP on loopback (libtirpc)",
	  .unsupported = rpc_unsupported, .setup = rpc_tcp_setup, .run = rpc_run,
	  .teardown = rpc_teardown },
};
const size_t rpc_nbenches = sizeof(rpc_benches) / sizeof(rpc_benches[0]);

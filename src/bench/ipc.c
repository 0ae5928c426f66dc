/*
 * Local communication between two processes, lmbench's lat_pipe, lat_unix,
 * lat_udp, lat_tcp, lat_connect and bw_pipe, bw_unix, bw_tcp.
 *
 * Latency: end 0 sends a message, the peer (end 1) echoes it, end 0 checks
 * the echo byte for byte; one iteration is one round trip.  The first bytes
 * of each message carry a counter, so a lost or repeated message shows.
 *
 * Bandwidth: the peer writes an endless stream in chunks of --msg-size
 * bytes (64 KiB by default) and end 0 reads it, one chunk per iteration.
 * The stream is a fixed random pattern whose first word is replaced by the
 * chunk's sequence number, so end 0 knows the sum of every chunk without
 * being told: it sums what arrives and checks at the end of every sample
 * that every byte came, in order, undamaged.  The sum runs over data the
 * kernel has just copied into cache, a few per cent of the copy itself.
 *
 * Everything is on 127.0.0.1 with ephemeral ports; the peer is a child that
 * dies with its parent (bench/peer.c).
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "bench/families.h"
#include "bench/peer.h"
#include "plat/plat.h"

enum ipc_kind { IPC_PIPE, IPC_UNIX, IPC_UDP, IPC_TCP };

struct ipc_param {
	enum ipc_kind kind;
	const char *name;	/* for messages: "pipe", "AF_UNIX socket", ... */
	int stream;		/* 1: bandwidth, 0: latency */
};

/* Defaults when --msg-size is not given. */
#define IPC_LAT_MSG 1
#define IPC_BW_CHUNK (64 * 1024)
/* The most one UDP datagram can carry over IPv4. */
#define IPC_UDP_MAX 65507
/* A reply that takes longer than this was lost (UDP) or the peer is stuck. */
#define IPC_REPLY_TIMEOUT_S 2

struct ipc_state {
	int fd_in, fd_out;	/* end 0's: where replies or the stream arrive, where requests go */
	int peer_in, peer_out;	/* the peer's, closed here once it runs */
	pid_t pid;
	size_t msg;		/* message or chunk size */
	unsigned char *buf, *back;
	/* Bandwidth: the pattern's sum without its first word, the next chunk. */
	uint64_t rest_sum, seq;
	enum ipc_kind kind;
};

/* ------------------------------------------------------------------ */
/* Channels                                                            */
/* ------------------------------------------------------------------ */

/*
 * The channel helpers fill ctx->err with the call that failed and return
 * -1, closing whatever they made; each failing step is named, so a fault
 * in any of them says which call it was.
 */
static int ipc_fail(struct bench_ctx *ctx, int fd, const char *what)
{
	int e = errno;

	if (fd >= 0)
		close(fd);
	bench_fail(ctx, e, "%s", what);
	return -1;
}

/* A socket bound to 127.0.0.1 and an ephemeral port, read back into addr. */
static int ipc_loopback(struct bench_ctx *ctx, int type, struct sockaddr_in *addr)
{
	socklen_t len = sizeof(*addr);
	int fd = plat_socket(AF_INET, type, 0);

	if (fd < 0)
		return ipc_fail(ctx, fd, type == SOCK_STREAM ? "socket(AF_INET, SOCK_STREAM)"
							    : "socket(AF_INET, SOCK_DGRAM)");
	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	addr->sin_port = 0;	/* ephemeral */
	if (plat_bind(fd, (struct sockaddr *)addr, sizeof(*addr)) < 0)
		return ipc_fail(ctx, fd, "bind to 127.0.0.1");
	if (getsockname(fd, (struct sockaddr *)addr, &len) < 0)
		return ipc_fail(ctx, fd, "getsockname");
	return fd;
}

/*
 * A latency test measures the kernel, not Nagle's algorithm waiting: a
 * socket that cannot be told so would give another figure.
 */
static int ipc_nodelay(struct bench_ctx *ctx, int fd)
{
	int one = 1;

	if (plat_setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0)
		return ipc_fail(ctx, -1, "setsockopt(TCP_NODELAY)");
	return 0;
}

/*
 * Both ends of a connected TCP pair, made here: connect to our own
 * listener and accept, so the peer needs no handshake of its own.
 */
static int ipc_tcp_pair(struct bench_ctx *ctx, int fds[2])
{
	struct sockaddr_in addr;
	int lfd = ipc_loopback(ctx, SOCK_STREAM, &addr);

	fds[0] = fds[1] = -1;
	if (lfd < 0)
		return -1;
	if (plat_listen(lfd, 1) < 0)
		return ipc_fail(ctx, lfd, "listen");
	fds[0] = plat_socket(AF_INET, SOCK_STREAM, 0);
	if (fds[0] < 0) {
		ipc_fail(ctx, lfd, "socket(AF_INET, SOCK_STREAM)");
		return -1;
	}
	if (plat_connect(fds[0], (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		ipc_fail(ctx, fds[0], "connect to 127.0.0.1");
		close(lfd);
		return -1;
	}
	fds[1] = plat_accept(lfd, NULL, NULL);
	if (fds[1] < 0) {
		ipc_fail(ctx, fds[0], "accept");
		close(lfd);
		return -1;
	}
	close(lfd);
	return 0;
}

static int ipc_udp_pair(struct bench_ctx *ctx, int fds[2])
{
	struct sockaddr_in a, b;

	fds[0] = ipc_loopback(ctx, SOCK_DGRAM, &a);
	if (fds[0] < 0)
		return -1;
	fds[1] = ipc_loopback(ctx, SOCK_DGRAM, &b);
	if (fds[1] < 0) {
		close(fds[0]);
		return -1;
	}
	if (plat_connect(fds[0], (struct sockaddr *)&b, sizeof(b)) < 0 ||
	    plat_connect(fds[1], (struct sockaddr *)&a, sizeof(a)) < 0) {
		ipc_fail(ctx, fds[0], "connect of a UDP socket to 127.0.0.1");
		close(fds[1]);
		return -1;
	}
	return 0;
}

/* Open the channel: s->fd_* for end 0, s->peer_* for the peer. */
static enum bench_status ipc_open(struct bench_ctx *ctx, struct ipc_state *s,
				  const struct ipc_param *p)
{
	int a[2], b[2];

	switch (p->kind) {
	case IPC_PIPE:
		/* Requests (or nothing) go down a, replies or the stream come up b. */
		if (plat_pipe(a) < 0)
			return bench_fail(ctx, errno, "pipe");
		if (plat_pipe(b) < 0) {
			int e = errno;

			close(a[0]);
			close(a[1]);
			return bench_fail(ctx, e, "pipe");
		}
		s->fd_out = a[1];
		s->peer_in = a[0];
		s->peer_out = b[1];
		s->fd_in = b[0];
		return BENCH_OK;
	case IPC_UNIX:
		if (plat_socketpair(AF_UNIX, SOCK_STREAM, 0, a) < 0)
			return bench_fail(ctx, errno, "socketpair(AF_UNIX, SOCK_STREAM)");
		break;
	case IPC_UDP:
		if (ipc_udp_pair(ctx, a) < 0)
			return BENCH_FAIL;
		break;
	case IPC_TCP:
		if (ipc_tcp_pair(ctx, a) < 0)
			return BENCH_FAIL;
		if (ipc_nodelay(ctx, a[0]) < 0 || ipc_nodelay(ctx, a[1]) < 0) {
			close(a[0]);
			close(a[1]);
			return BENCH_FAIL;
		}
		break;
	}
	s->fd_in = s->fd_out = a[0];
	s->peer_in = s->peer_out = a[1];
	return BENCH_OK;
}

/* Move exactly len bytes; a datagram moves in one call.  0, or -1 with errno. */
static int ipc_full(int fd, void *buf, size_t len, int writing, int datagram)
{
	unsigned char *p = buf;

	while (len > 0) {
		ssize_t k = writing ? plat_write(fd, p, len) : plat_read(fd, p, len);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0) {
			errno = writing ? EIO : ECONNRESET;	/* nothing moved: the other end is gone */
			return -1;
		}
		if (datagram && (size_t)k != len) {
			errno = EMSGSIZE;
			return -1;
		}
		p += k;
		len -= (size_t)k;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Peers                                                               */
/* ------------------------------------------------------------------ */

/* Echo every message back, unchanged, until the other end goes away. */
static int ipc_echo_main(struct bench_ctx *ctx, void *arg)
{
	struct ipc_state *s = arg;
	int dgram = s->kind == IPC_UDP;

	(void)ctx;
	close(s->fd_in);
	if (s->fd_out != s->fd_in)
		close(s->fd_out);
	for (;;) {
		if (ipc_full(s->peer_in, s->buf, s->msg, 0, dgram) < 0) {
			/*
			 * A datagram that could not be read is lost, as UDP may lose
			 * any: drop it and go on; the sender's timeout must catch it.
			 */
			if (dgram && (errno == EIO || errno == ECONNREFUSED)) {
				recv(s->peer_in, s->buf, s->msg, 0);
				continue;
			}
			return errno == ECONNRESET ? PEER_OK : PEER_IO;
		}
		if (ipc_full(s->peer_out, s->buf, s->msg, 1, dgram) < 0)
			return errno == EPIPE ? PEER_OK : PEER_IO;
	}
}

/* Write the numbered stream until the reader goes away. */
static int ipc_writer_main(struct bench_ctx *ctx, void *arg)
{
	struct ipc_state *s = arg;
	uint64_t seq = 0;

	(void)ctx;
	close(s->fd_in);
	if (s->fd_out != s->fd_in)
		close(s->fd_out);
	for (;; seq++) {
		memcpy(s->buf, &seq, sizeof(seq));
		if (ipc_full(s->peer_out, s->buf, s->msg, 1, 0) < 0)
			return errno == EPIPE || errno == ECONNRESET ? PEER_OK : PEER_IO;
	}
}

/* ------------------------------------------------------------------ */
/* Set-up and tear-down, shared                                        */
/* ------------------------------------------------------------------ */

static void ipc_teardown(struct bench_ctx *ctx)
{
	struct ipc_state *s = ctx->priv;

	if (!s)
		return;
	if (s->fd_in >= 0)
		close(s->fd_in);
	if (s->fd_out >= 0 && s->fd_out != s->fd_in)
		close(s->fd_out);
	if (s->peer_in >= 0)
		close(s->peer_in);
	if (s->peer_out >= 0 && s->peer_out != s->peer_in)
		close(s->peer_out);
	peer_stop(s->pid);
	free(s->buf);
	free(s->back);
	free(s);
	ctx->priv = NULL;
}

/* The pattern: words from a fixed-seed generator, the same in both ends. */
static void ipc_pattern(unsigned char *buf, size_t len)
{
	uint64_t x = 0x2545f4914f6cdd1dull;

	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = (unsigned char)(x >> 56);
	}
}

static enum bench_status ipc_setup(struct bench_ctx *ctx)
{
	const struct ipc_param *p = ctx->arg;
	struct ipc_state *s = calloc(1, sizeof(*s));
	size_t dflt = p->stream ? IPC_BW_CHUNK : IPC_LAT_MSG;
	enum bench_status st;

	if (!s)
		return bench_fail(ctx, 0, "out of memory");
	s->fd_in = s->fd_out = s->peer_in = s->peer_out = -1;
	s->kind = p->kind;
	s->msg = ctx->msg_size ? ctx->msg_size : dflt;
	if (p->kind == IPC_UDP && s->msg > IPC_UDP_MAX) {
		free(s);
		return bench_skip(ctx, "a message of %zu bytes does not fit a UDP datagram (%d at most)",
				  ctx->msg_size, IPC_UDP_MAX);
	}
	/* A stream chunk must hold its sequence number. */
	if (p->stream && s->msg < sizeof(uint64_t)) {
		free(s);
		return bench_skip(ctx, "a stream chunk of %zu bytes cannot carry its sequence number "
				  "(8 bytes at least)", ctx->msg_size);
	}
	ctx->priv = s;
	s->buf = malloc(s->msg);
	s->back = malloc(s->msg);
	if (!s->buf || !s->back) {
		ipc_teardown(ctx);
		return bench_fail(ctx, 0, "cannot allocate two buffers of %zu bytes", s->msg);
	}
	ipc_pattern(s->buf, s->msg);
	if (p->stream) {
		uint64_t zero = 0;

		/* The chunk's sum with its first word 0; that word is the sequence number. */
		memcpy(s->back, s->buf, s->msg);
		memcpy(s->back, &zero, sizeof(zero));
		s->rest_sum = peer_sum(s->back, s->msg);
	}
	st = ipc_open(ctx, s, p);
	if (st != BENCH_OK) {
		ipc_teardown(ctx);
		return st;
	}
	if (p->kind == IPC_UDP) {
		struct timeval tv = { IPC_REPLY_TIMEOUT_S, 0 };

		/* A lost datagram must fail the run, not hang it until the watchdog. */
		if (plat_setsockopt(s->fd_in, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0) {
			st = bench_fail(ctx, errno, "setsockopt(SO_RCVTIMEO)");
			ipc_teardown(ctx);
			return st;
		}
	}
	s->pid = peer_start(ctx, 1, p->stream ? ipc_writer_main : ipc_echo_main, s);
	close(s->peer_in);
	if (s->peer_out != s->peer_in)
		close(s->peer_out);
	s->peer_in = s->peer_out = -1;
	if (s->pid < 0) {
		ipc_teardown(ctx);
		return BENCH_FAIL;
	}
	ctx->nends = 2;
	bench_value(ctx, "msg_size", (double)s->msg);
	if (p->stream)
		ctx->bytes_per_iter = (double)s->msg;
	return BENCH_OK;
}

/* ------------------------------------------------------------------ */
/* The timed loops                                                     */
/* ------------------------------------------------------------------ */

/*
 * A message or chunk did not move.  When the other end went away (end of
 * file, a reset, a broken pipe, a refused datagram) the peer says why;
 * otherwise this side's own call failed, and that is the failure.
 */
static enum bench_status ipc_lost(struct bench_ctx *ctx, struct ipc_state *s,
				  const char *peer_what, const char *call)
{
	if (errno == ECONNRESET || errno == EPIPE || errno == ECONNREFUSED)
		return peer_failed(ctx, &s->pid, peer_what);
	return bench_fail(ctx, errno, "%s", call);
}

static enum bench_status ipc_lat_run(struct bench_ctx *ctx, uint64_t n)
{
	const struct ipc_param *p = ctx->arg;
	struct ipc_state *s = ctx->priv;
	int dgram = s->kind == IPC_UDP;
	size_t tag = s->msg < sizeof(uint64_t) ? s->msg : sizeof(uint64_t);

	for (uint64_t i = 0; i < n; i++) {
		uint64_t count = s->seq++;

		memcpy(s->buf, &count, tag);
		if (ipc_full(s->fd_out, s->buf, s->msg, 1, dgram) < 0)
			return ipc_lost(ctx, s, "cannot send a message", "write of a message");
		if (ipc_full(s->fd_in, s->back, s->msg, 0, dgram) < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return bench_fail(ctx, 0, "no reply within %d s over %s: a message "
						  "was lost", IPC_REPLY_TIMEOUT_S, p->name);
			return ipc_lost(ctx, s, "the reply did not arrive", "read of the reply");
		}
		if (memcmp(s->buf, s->back, s->msg) != 0)
			return bench_fail(ctx, 0, "message %llu came back changed over %s",
					  (unsigned long long)count, p->name);
	}
	return BENCH_OK;
}

static enum bench_status ipc_bw_run(struct bench_ctx *ctx, uint64_t n)
{
	const struct ipc_param *p = ctx->arg;
	struct ipc_state *s = ctx->priv;
	uint64_t sum = 0, want;

	for (uint64_t i = 0; i < n; i++) {
		if (ipc_full(s->fd_in, s->back, s->msg, 0, 0) < 0)
			return ipc_lost(ctx, s, "the stream stopped", "read of the stream");
		sum += peer_sum(s->back, s->msg);
	}
	/*
	 * n chunks numbered seq .. seq + n - 1, each the pattern plus its
	 * number: in closed form, so the timed call does no second pass (all
	 * modulo 2^64, like the sum itself; n(n-1) is even before halving).
	 */
	want = n * s->rest_sum + n * s->seq + (n % 2 ? n * ((n - 1) / 2) : (n / 2) * (n - 1));
	s->seq += n;
	if (sum != want)
		return bench_fail(ctx, 0, "the %s stream arrived damaged or out of order: "
				  "checksum %016llx, expected %016llx", p->name,
				  (unsigned long long)sum, (unsigned long long)want);
	return BENCH_OK;
}

/* ------------------------------------------------------------------ */
/* TCP connection set-up                                               */
/* ------------------------------------------------------------------ */

struct ipc_conn {
	int lfd;
	struct sockaddr_in addr;
	pid_t pid;
};

/* Accept and close at once, for ever: the server side of a connection. */
static int ipc_acceptor_main(struct bench_ctx *ctx, void *arg)
{
	struct ipc_conn *c = arg;

	(void)ctx;
	for (;;) {
		int fd = plat_accept(c->lfd, NULL, NULL);

		if (fd < 0 && errno == EINTR)
			continue;
		if (fd < 0)
			return PEER_IO;
		close(fd);
	}
}

static void ipc_conn_teardown(struct bench_ctx *ctx)
{
	struct ipc_conn *c = ctx->priv;

	if (!c)
		return;
	peer_stop(c->pid);
	if (c->lfd >= 0)
		close(c->lfd);
	free(c);
	ctx->priv = NULL;
}

static enum bench_status ipc_conn_setup(struct bench_ctx *ctx)
{
	struct ipc_conn *c = calloc(1, sizeof(*c));

	if (!c)
		return bench_fail(ctx, 0, "out of memory");
	ctx->priv = c;
	c->lfd = ipc_loopback(ctx, SOCK_STREAM, &c->addr);
	if (c->lfd < 0) {
		ipc_conn_teardown(ctx);
		return BENCH_FAIL;
	}
	if (plat_listen(c->lfd, 64) < 0) {
		enum bench_status st = bench_fail(ctx, errno, "listen on 127.0.0.1");

		ipc_conn_teardown(ctx);
		return st;
	}
	c->pid = peer_start(ctx, 1, ipc_acceptor_main, c);
	if (c->pid < 0) {
		ipc_conn_teardown(ctx);
		return BENCH_FAIL;
	}
	ctx->nends = 2;
	return BENCH_OK;
}

/*
 * One connection: connect, wait for the server's close (end of file proves
 * it accepted this very connection), close.  The server closes first and
 * we close with a reset (SO_LINGER 0), so no TIME_WAIT is left on either
 * side: at tens of thousands of connections a second, TIME_WAIT would use
 * up the ephemeral ports within a sample or two.
 */
static enum bench_status ipc_conn_run(struct bench_ctx *ctx, uint64_t n)
{
	struct ipc_conn *c = ctx->priv;
	struct linger lin = { 1, 0 };
	char byte;

	for (uint64_t i = 0; i < n; i++) {
		int fd = plat_socket(AF_INET, SOCK_STREAM, 0);
		ssize_t k;

		if (fd < 0)
			return bench_fail(ctx, errno, "socket");
		if (plat_setsockopt(fd, SOL_SOCKET, SO_LINGER, &lin, sizeof(lin)) < 0) {
			int e = errno;

			close(fd);
			return bench_fail(ctx, e, "setsockopt(SO_LINGER)");
		}
		if (plat_connect(fd, (struct sockaddr *)&c->addr, sizeof(c->addr)) < 0) {
			int e = errno;

			close(fd);
			return bench_fail(ctx, e, "connect to 127.0.0.1:%u (connection %llu)",
					  ntohs(c->addr.sin_port), (unsigned long long)i);
		}
		while ((k = plat_read(fd, &byte, 1)) < 0 && errno == EINTR)
			;
		if (k < 0 && errno != ECONNRESET) {
			int e = errno;

			close(fd);
			return bench_fail(ctx, e, "read of the server's close");
		}
		close(fd);
		if (k != 0)
			return k < 0 ? peer_failed(ctx, &c->pid, "the server did not close the connection")
				     : bench_fail(ctx, 0, "the server sent data instead of closing");
	}
	return BENCH_OK;
}

/* ------------------------------------------------------------------ */
/* The table                                                           */
/* ------------------------------------------------------------------ */

static const struct ipc_param ipc_pipe_lat = { IPC_PIPE, "a pipe", 0 };
static const struct ipc_param ipc_unix_lat = { IPC_UNIX, "an AF_UNIX socket", 0 };
static const struct ipc_param ipc_udp_lat = { IPC_UDP, "UDP", 0 };
static const struct ipc_param ipc_tcp_lat = { IPC_TCP, "TCP", 0 };
static const struct ipc_param ipc_pipe_bw = { IPC_PIPE, "pipe", 1 };
static const struct ipc_param ipc_unix_bw = { IPC_UNIX, "AF_UNIX", 1 };
static const struct ipc_param ipc_tcp_bw = { IPC_TCP, "TCP", 1 };

#define ALL (SUITE_QUICK | SUITE_STANDARD | SUITE_FULL | SUITE_LMBENCH)
#define LAT(name, what)                                                                  \
	{ .id = "ipc." #name ".lat", .metric = METRIC_US, .better = BETTER_LOWER,          \
	  .suites = ALL, .flags = BENCH_PLACED | BENCH_MSG_SIZE,                           \
	  .summary = "round trip of a message (1 byte, --msg-size) over " what,           \
	  .setup = ipc_setup, .run = ipc_lat_run, .teardown = ipc_teardown,                \
	  .arg = &ipc_##name##_lat }
#define BW(name, what)                                                                   \
	{ .id = "ipc." #name ".bw", .metric = METRIC_MBPS, .better = BETTER_HIGHER,        \
	  .suites = ALL, .flags = BENCH_PLACED | BENCH_MSG_SIZE,                           \
	  .summary = "stream through " what " in 64 KiB writes (--msg-size), checksummed", \
	  .setup = ipc_setup, .run = ipc_bw_run, .teardown = ipc_teardown,                 \
	  .arg = &ipc_##name##_bw }

const struct bench ipc_benches[] = {
	LAT(pipe, "a pipe"),
	LAT(unix, "an AF_UNIX stream socket pair"),
	LAT(udp, "UDP on 127.0.0.1"),
	LAT(tcp, "TCP on 127.0.0.1"),
	{ .id = "ipc.tcp.connect", .metric = METRIC_US, .better = BETTER_LOWER, .suites = ALL,
	  .flags = BENCH_PLACED, .summary = "connect, accept and close of a TCP connection on 127.0.0.1",
	  .setup = ipc_conn_setup, .run = ipc_conn_run, .teardown = ipc_conn_teardown },
	BW(pipe, "a pipe"),
	BW(unix, "an AF_UNIX stream socket pair"),
	BW(tcp, "a TCP connection on 127.0.0.1"),
};
const size_t ipc_nbenches = sizeof(ipc_benches) / sizeof(ipc_benches[0]);

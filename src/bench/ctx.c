/*
 * Context switching, lmbench's lat_ctx: N processes in a ring of pipes pass
 * a token; on each turn a process first sums S KiB of its own private
 * array, so the switch also pays for refilling the caches with the next
 * process's data.  One iteration is one round of the ring, N switches; the
 * figure is per switch.
 *
 * What is not the switch is measured apart and subtracted: the overhead loop
 * is one process doing the same per-hop work (sum its array, write the
 * token into a pipe, read it back) without anyone to switch to.  Both the
 * raw and the corrected figures are stored (values "raw", "overhead_op").
 *
 * The token is a round counter that every member checks and forwards, so a
 * lost, duplicated or damaged token fails the run instead of timing it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/families.h"
#include "bench/peer.h"
#include "plat/plat.h"

struct ctx_param {
	int procs;	/* processes in the ring */
	int kib;	/* KiB each sums per turn */
};

struct ctx_state {
	int procs;
	size_t bytes;		/* of each process's array */
	uint64_t *data;		/* process 0's array */
	int in, out;		/* process 0: read from the last, write to the next */
	int self[2];		/* the overhead loop's pipe to itself */
	pid_t *pids;		/* peers 1..procs-1, at [k - 1] */
	uint64_t token;		/* the next round number */
	volatile uint64_t sink;	/* the sums go here, so they are not optimised away */
};

/* An array of `bytes` with every page written, so the sums touch real memory. */
static uint64_t *ctx_array(size_t bytes)
{
	uint64_t *a;

	if (bytes == 0)
		return NULL;
	a = malloc(bytes);
	if (a)
		for (size_t i = 0; i < bytes / sizeof(*a); i++)
			a[i] = i * 0x9e3779b97f4a7c15ull;
	return a;
}

/*
 * Move the token: 0, 1 at end of file, -1 when the call failed (errno) or
 * moved part of it (errno 0).
 */
static int ctx_move(int fd, uint64_t *token, int writing)
{
	ssize_t k = writing ? plat_write(fd, token, sizeof(*token))
			    : plat_read(fd, token, sizeof(*token));

	/* 8 bytes through a pipe move whole or not at all (PIPE_BUF). */
	if (k > 0 && k != (ssize_t)sizeof(*token))
		errno = 0;
	return k == (ssize_t)sizeof(*token) ? 0 : k == 0 ? 1 : -1;
}

/*
 * The timed side's token did not move.  Its own call failing is its own
 * failure, with the call and errno; end of file, a short count or EPIPE
 * mean the ring broke elsewhere, and the peers say where.
 */
static enum bench_status ctx_broke(struct bench_ctx *ctx, int rc, const char *call)
{
	const struct ctx_state *s = ctx->priv;

	if (rc < 0 && errno != 0 && errno != EPIPE)
		return bench_fail(ctx, errno, "the ring broke: %s of the token", call);
	return peer_failed_any(ctx, s->pids, s->procs - 1,
			       strcmp(call, "write") == 0 ? "the ring broke: cannot pass the token on"
							  : "the ring broke: the token did not come back");
}

/* The fds of the ring, [k][0] read end of pipe k (into process k). */
struct ctx_ring {
	int (*fds)[2];
	int procs;
};

static void ctx_close_ring(struct ctx_ring *r, int keep_in, int keep_out)
{
	for (int k = 0; k < r->procs; k++) {
		if (k != keep_in && r->fds[k][0] >= 0)
			close(r->fds[k][0]);
		if (k != keep_out && r->fds[k][1] >= 0)
			close(r->fds[k][1]);
	}
}

struct ctx_member {
	struct ctx_ring *ring;
	int k;
	size_t bytes;
};

/* A peer's sums go here, so that they are not optimised away. */
static volatile uint64_t ctx_member_sink;

/* Peer k: read the token, check it, sum, pass it on, until the ring closes. */
static int ctx_member_main(struct bench_ctx *ctx, void *arg)
{
	struct ctx_member *m = arg;
	int in = m->ring->fds[m->k][0], out = m->ring->fds[(m->k + 1) % m->ring->procs][1];
	uint64_t *data, token, expect = 0, sum = 0;
	int rc;

	(void)ctx;
	ctx_close_ring(m->ring, m->k, (m->k + 1) % m->ring->procs);
	data = ctx_array(m->bytes);
	if (m->bytes && !data)
		return PEER_SETUP;
	for (;;) {
		rc = ctx_move(in, &token, 0);
		if (rc == 1)
			return PEER_OK;		/* the ring is being taken down */
		if (rc < 0)
			return PEER_IO;
		if (token != expect)
			return PEER_BAD_DATA;
		expect = token + 1;
		if (data)
			sum += peer_sum(data, m->bytes);
		ctx_member_sink = sum;
		if (ctx_move(out, &token, 1) != 0)
			return PEER_IO;
	}
}

static void ctx_teardown(struct bench_ctx *ctx)
{
	struct ctx_state *s = ctx->priv;

	if (!s)
		return;
	/* Closing our ends first lets the peers see the ring end and exit. */
	if (s->in >= 0)
		close(s->in);
	if (s->out >= 0)
		close(s->out);
	for (int k = 0; k < s->procs - 1; k++)
		peer_stop(s->pids[k]);
	if (s->self[0] >= 0)
		close(s->self[0]);
	if (s->self[1] >= 0)
		close(s->self[1]);
	free(s->pids);
	free(s->data);
	free(s);
	ctx->priv = NULL;
}

static enum bench_status ctx_setup(struct bench_ctx *ctx)
{
	const struct ctx_param *p = ctx->arg;
	struct ctx_state *s = calloc(1, sizeof(*s));
	struct ctx_ring ring = { NULL, p->procs };
	struct ctx_member m = { &ring, 0, (size_t)p->kib * 1024 };
	enum bench_status st = BENCH_OK;

	if (!s)
		return bench_fail(ctx, 0, "out of memory");
	ctx->priv = s;
	s->procs = p->procs;
	s->bytes = m.bytes;
	s->in = s->out = s->self[0] = s->self[1] = -1;
	s->pids = calloc((size_t)p->procs, sizeof(*s->pids));
	ring.fds = calloc((size_t)p->procs, sizeof(*ring.fds));
	s->data = ctx_array(s->bytes);
	if (!s->pids || !ring.fds || (s->bytes && !s->data)) {
		free(ring.fds);
		ctx_teardown(ctx);
		return bench_fail(ctx, 0, "out of memory for a ring of %d", p->procs);
	}
	for (int k = 0; k < p->procs; k++)
		ring.fds[k][0] = ring.fds[k][1] = -1;
	for (int k = 0; k < p->procs && st == BENCH_OK; k++)
		if (plat_pipe(ring.fds[k]) < 0)
			st = bench_fail(ctx, errno, "pipe %d of the ring", k);
	if (st == BENCH_OK && plat_pipe(s->self) < 0)
		st = bench_fail(ctx, errno, "pipe for the overhead loop");
	/* Each peer closes every end but its own two; see ctx_member_main. */
	for (int k = 1; k < p->procs && st == BENCH_OK; k++) {
		m.k = k;
		s->pids[k - 1] = peer_start(ctx, k, ctx_member_main, &m);
		if (s->pids[k - 1] < 0)
			st = BENCH_FAIL;
	}
	s->in = ring.fds[0][0];
	s->out = ring.fds[1 % p->procs][1];
	ctx_close_ring(&ring, 0, 1 % p->procs);
	free(ring.fds);
	if (st != BENCH_OK) {
		ctx_teardown(ctx);
		return st;
	}
	ctx->ops_per_iter = p->procs;
	ctx->nends = p->procs;
	bench_value(ctx, "procs", p->procs);
	bench_value(ctx, "kib", p->kib);
	return BENCH_OK;
}

static enum bench_status ctx_run(struct bench_ctx *ctx, uint64_t n)
{
	struct ctx_state *s = ctx->priv;
	uint64_t sum = 0, back;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t token = s->token++;
		int rc;

		if (s->data)
			sum += peer_sum(s->data, s->bytes);
		if ((rc = ctx_move(s->out, &token, 1)) != 0)
			return ctx_broke(ctx, rc, "write");
		if ((rc = ctx_move(s->in, &back, 0)) != 0)
			return ctx_broke(ctx, rc, "read");
		if (back != token)
			return bench_fail(ctx, 0, "token %llu came back as %llu",
					  (unsigned long long)token, (unsigned long long)back);
	}
	s->sink = sum;
	return BENCH_OK;
}

/* The same per-hop work, all in this process: no switch. */
static enum bench_status ctx_overhead(struct bench_ctx *ctx, uint64_t n)
{
	struct ctx_state *s = ctx->priv;
	uint64_t sum = 0, token, back;

	for (uint64_t i = 0; i < n * (uint64_t)s->procs; i++) {
		token = i;
		if (s->data)
			sum += peer_sum(s->data, s->bytes);
		if (ctx_move(s->self[1], &token, 1) != 0)
			return bench_fail(ctx, errno, "write of the token into the overhead loop's pipe");
		if (ctx_move(s->self[0], &back, 0) != 0)
			return bench_fail(ctx, errno, "read of the token from the overhead loop's pipe");
		if (back != token)
			return bench_fail(ctx, 0, "the overhead loop's token came back damaged");
	}
	s->sink = sum;
	return BENCH_OK;
}

#define CTX_P(n, k) static const struct ctx_param ctx_##n##p_##k = { n, k }
CTX_P(2, 0); CTX_P(2, 16); CTX_P(2, 64);
CTX_P(4, 0); CTX_P(4, 16); CTX_P(4, 64);
CTX_P(8, 0); CTX_P(8, 16); CTX_P(8, 64);
CTX_P(16, 0); CTX_P(16, 16); CTX_P(16, 64);
CTX_P(32, 0); CTX_P(32, 16); CTX_P(32, 64);

/*
 * The rows lmbench's table shows are in every summary suite; 8p/0k and
 * 16p/0k complete the grid in standard; 4 and 32 processes only in full.
 */
#define Q (SUITE_QUICK | SUITE_STANDARD | SUITE_FULL | SUITE_LMBENCH)
#define S (SUITE_STANDARD | SUITE_FULL | SUITE_LMBENCH)
#define F SUITE_FULL
#define CTX_ROW(n, k, in)                                                          \
	{ .id = "ctx." #n "p." #k "k", .metric = METRIC_US, .better = BETTER_LOWER,      \
	  .suites = in, .flags = BENCH_PLACED,                                       \
	  .summary = "context switch in a ring of " #n " processes, each summing " #k " KiB", \
	  .setup = ctx_setup, .run = ctx_run, .teardown = ctx_teardown,                  \
	  .overhead = ctx_overhead, .arg = &ctx_##n##p_##k }

const struct bench ctx_benches[] = {
	CTX_ROW(2, 0, Q), CTX_ROW(2, 16, Q), CTX_ROW(2, 64, Q),
	CTX_ROW(4, 0, F), CTX_ROW(4, 16, F), CTX_ROW(4, 64, F),
	CTX_ROW(8, 0, S), CTX_ROW(8, 16, Q), CTX_ROW(8, 64, Q),
	CTX_ROW(16, 0, S), CTX_ROW(16, 16, Q), CTX_ROW(16, 64, Q),
	CTX_ROW(32, 0, F), CTX_ROW(32, 16, F), CTX_ROW(32, 64, F),
};
const size_t ctx_nbenches = sizeof(ctx_benches) / sizeof(ctx_benches[0]);

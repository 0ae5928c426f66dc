/*
 * Starting, checking and stopping peers; see peer.h.
 */
#include "bench/peer.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plat/plat.h"

pid_t peer_start(struct bench_ctx *ctx, int end, peer_fn fn, void *arg)
{
	pid_t parent = getpid(), pid;

	fflush(NULL);
	pid = plat_fork();
	if (pid < 0) {
		bench_fail(ctx, errno, "cannot fork process %d", end);
		return -1;
	}
	if (pid > 0) {
		if (ctx->npeers < BENCH_MAX_PEERS)
			ctx->peers[ctx->npeers++] = pid;
		return pid;
	}
	/*
	 * If the timed side (and so the runner) dies, so do we: nothing else
	 * would stop an echo server blocked in read.  A kill between fork and
	 * the request is caught by the parent check.
	 */
	if (plat_die_with_parent(SIGKILL) == 0 && getppid() != parent)
		_exit(PEER_SETUP);
	plat_inject_for_peer();
	if (bench_place(ctx, end) < 0)
		_exit(PEER_PLACE);
	_exit(fn(ctx, arg));
}

static const char *peer_exit_text(int code)
{
	switch (code) {
	case PEER_OK: return "exited normally";
	case PEER_IO: return "stopped: a read or write failed or came up short";
	case PEER_BAD_DATA: return "stopped: the data it received was corrupted";
	case PEER_PLACE: return "could not be pinned to its CPU";
	case PEER_SETUP: return "could not set itself up";
	}
	return "exited with an unexpected status";
}

enum bench_status peer_failed_any(struct bench_ctx *ctx, pid_t *pids, int n,
				  const char *what)
{
	int status = 0, alive = n;

	/*
	 * A peer that broke the exchange is on its way out; give the group a
	 * moment to finish dying, then name the first that did not exit cleanly.
	 */
	for (int tries = 0; tries < 100 && alive > 0; tries++) {
		alive = 0;
		for (int i = 0; i < n; i++) {
			pid_t got = pids[i] > 0 ? waitpid(pids[i], &status, WNOHANG) : -1;

			if (got == 0) {
				alive++;
				continue;
			}
			if (got != pids[i])
				continue;
			/* Reaped: its pid may be reused, so nobody may kill it now. */
			pids[i] = 0;
			if (WIFEXITED(status) && WEXITSTATUS(status) != PEER_OK)
				return bench_fail(ctx, 0, "%s; peer %d %s (status %d)", what, i + 1,
						  peer_exit_text(WEXITSTATUS(status)),
						  WEXITSTATUS(status));
			if (WIFSIGNALED(status))
				return bench_fail(ctx, 0, "%s; peer %d was killed by signal %d", what,
						  i + 1, WTERMSIG(status));
		}
		if (alive)
			usleep(1000);
	}
	return bench_fail(ctx, 0, "%s; %s", what, alive ? "the peer is still running"
						      : "the peer exited normally");
}

enum bench_status peer_failed(struct bench_ctx *ctx, pid_t *pid, const char *what)
{
	return peer_failed_any(ctx, pid, 1, what);
}

void peer_stop(pid_t pid)
{
	int status;

	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

/*
 * Four 32-byte accumulators: GCC's vector extension, so -O2 (which does not
 * vectorise a loop that needs a remainder) still sums 32 bytes per add.
 * With AVX2 that is one instruction; elsewhere two of SSE2.  On this
 * machine it sums 64 KiB in 0.7 us against 1.8 to 3 us word by word, and
 * on one CPU, where the sum cannot overlap the writer, every microsecond of
 * it is a microsecond less bandwidth.
 */
typedef uint64_t peer_v4 __attribute__((vector_size(32)));

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define PEER_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define PEER_CLONES
#endif

uint64_t peer_sum_words(const void *buf, size_t from, size_t len)
{
	const unsigned char *p = buf;
	uint64_t sum = 0, w;
	size_t i;

	for (i = from; i + sizeof(w) <= len; i += sizeof(w)) {
		memcpy(&w, p + i, sizeof(w));
		sum += w;
	}
	if (i < len) {
		w = 0;
		memcpy(&w, p + i, len - i);
		sum += w;
	}
	return sum;
}

PEER_CLONES uint64_t peer_sum(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	peer_v4 a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 }, x;
	uint64_t sum;
	size_t i = 0;

	for (; i + 4 * sizeof(x) <= len; i += 4 * sizeof(x)) {
		peer_v4 t0, t1, t2, t3;

		memcpy(&t0, p + i, sizeof(x));
		memcpy(&t1, p + i + sizeof(x), sizeof(x));
		memcpy(&t2, p + i + 2 * sizeof(x), sizeof(x));
		memcpy(&t3, p + i + 3 * sizeof(x), sizeof(x));
		a += t0;
		b += t1;
		c += t2;
		d += t3;
	}
	x = a + b + c + d;
	sum = x[0] + x[1] + x[2] + x[3];
	return sum + peer_sum_words(p, i, len);
}

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
	pid = fork();
	if (pid < 0) {
		bench_fail(ctx, errno, "cannot fork process %d", end);
		return -1;
	}
	if (pid > 0)
		return pid;
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

uint64_t peer_sum(const void *buf, size_t len)
{
	const uint64_t *w = buf;
	uint64_t a = 0, b = 0;
	size_t n = len / sizeof(*w), i;

	/* Two accumulators let the adds overlap; the compiler vectorises it. */
	for (i = 0; i + 1 < n; i += 2) {
		a += w[i];
		b += w[i + 1];
	}
	if (i < n)
		a += w[i];
	if (len % sizeof(*w)) {
		uint64_t tail = 0;

		memcpy(&tail, (const char *)buf + n * sizeof(*w), len % sizeof(*w));
		b += tail;
	}
	return a + b;
}

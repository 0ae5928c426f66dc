/*
 * Peers: the other processes of a benchmark between processes (the echo
 * server, the ring's other members, the stream's writer).  A peer is a child
 * of the process being timed, pinned as its end of the placement, in the
 * same process group (so the runner's kill reaches it), and it dies with
 * its parent even when kbench itself is killed.
 */
#ifndef KB_PEER_H
#define KB_PEER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/bench.h"

/* What a peer runs; its return value is the peer's exit status (0 = fine). */
typedef int (*peer_fn)(struct bench_ctx *ctx, void *arg);

/* Exit statuses a peer reports, so the timed side can say what went wrong. */
enum {
	PEER_OK = 0,
	PEER_IO = 10,		/* a read or write failed or came up short */
	PEER_BAD_DATA = 11,	/* what arrived was not what was sent */
	PEER_PLACE = 12,	/* the placement could not be applied */
	PEER_SETUP = 13,	/* its own setup (memory, a socket) failed */
};

/*
 * Fork a peer as end `end` (1, 2, ...; end 0 is the caller) and run
 * fn(ctx, arg) in it.  Returns its pid, or -1 with ctx->err filled.
 */
pid_t peer_start(struct bench_ctx *ctx, int end, peer_fn fn, void *arg);

/*
 * When the timed side saw the peer go quiet (end of file, a reset): fail
 * with what happened to the peer, e.g. "peer 1 exited: data arrived
 * corrupted".  Always returns BENCH_FAIL.  A peer found dead is reaped and
 * its pid set to 0, so a later peer_stop cannot hit a reused pid.
 */
enum bench_status peer_failed(struct bench_ctx *ctx, pid_t *pid, const char *what);
/* The same for a group of peers (a ring): names the first that failed. */
enum bench_status peer_failed_any(struct bench_ctx *ctx, pid_t *pids, int n,
				  const char *what);

/* Kill a peer and reap it; pid <= 0 is ignored. */
void peer_stop(pid_t pid);

/*
 * The sum of a buffer's 64-bit words, a last partial word zero-filled: the stream
 * check of the bandwidth benchmarks.  Out of line and cheap: the data is in
 * cache, having just been copied.
 */
uint64_t peer_sum(const void *buf, size_t len);
/*
 * The same, one word at a time, over bytes from..len of buf: the tail the
 * vector loops leave, and a second opinion on them.
 */
uint64_t peer_sum_words(const void *buf, size_t from, size_t len);

#endif

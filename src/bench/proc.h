/*
 * What the process benchmarks share with AIM9's (aim9_sys.c): waiting for
 * a child and checking how it ended, and finding kbench-tiny, the small
 * static program they exec.
 */
#ifndef KB_BENCH_PROC_H
#define KB_BENCH_PROC_H

#include <limits.h>
#include <sys/types.h>

#include "core/bench.h"

/* kbench-tiny's exit status (src/bench/tiny.c). */
#define PROC_TINY_STATUS 42

/* ctx->priv of a row that execs kbench-tiny, from proc_tiny_setup. */
struct proc_tiny {
	char path[PATH_MAX];
};

/*
 * Wait for pid into *status.  When the wait itself fails, the child is
 * still reaped, with the plain call, so that no zombie outlives the
 * instance's failure.
 */
enum bench_status proc_wait(struct bench_ctx *ctx, pid_t pid, int *status);
/* Wait for pid and check it exited with `want`; `what` names the child. */
enum bench_status proc_reap(struct bench_ctx *ctx, pid_t pid, int want, const char *what);
/* n fork()s of a child that exits 0 at once, each waited for and checked. */
enum bench_status proc_forks(struct bench_ctx *ctx, uint64_t n);
/*
 * Run argv[0] with an empty environment n times, each a fork and execve
 * waited for, and its exit status held to kbench-tiny's; `what` names it.
 */
enum bench_status proc_spawn(struct bench_ctx *ctx, uint64_t n, char *const argv[],
			     const char *what);
/*
 * Find kbench-tiny ($KBENCH_TINY, next to kbench, the libexec directory)
 * into a struct proc_tiny as ctx->priv; skip when it is nowhere, fail when
 * $KBENCH_TINY names a wrong one.  The teardown frees it.
 */
enum bench_status proc_tiny_setup(struct bench_ctx *ctx);
void proc_tiny_teardown(struct bench_ctx *ctx);

#endif

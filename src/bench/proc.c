/*
 * Processes: fork+exit+wait, fork+execve of a tiny program+wait, and the
 * same through /bin/sh -c (lmbench "fork proc", "exec proc", "sh proc").
 * Every child's exit status is checked: a child that failed to exec exits
 * 127 and fails the run instead of counting as a fast exec.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/families.h"
#include "bench/proc.h"
#include "config.h"
#include "core/companion.h"
#include "plat/plat.h"

/*
 * Wait for pid.  When the wait itself fails, the child is still reaped,
 * with the plain call, so that no zombie outlives the instance's failure.
 */
enum bench_status proc_wait(struct bench_ctx *ctx, pid_t pid, int *status)
{
	while (plat_waitpid(pid, status, 0) < 0) {
		if (errno != EINTR) {
			enum bench_status st = bench_fail(ctx, errno, "waitpid");

			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			return st;
		}
	}
	return BENCH_OK;
}

enum bench_status proc_reap(struct bench_ctx *ctx, pid_t pid, int want, const char *what)
{
	int status;

	if (proc_wait(ctx, pid, &status) != BENCH_OK)
		return BENCH_FAIL;
	if (!WIFEXITED(status))
		return bench_fail(ctx, 0, "%s child killed by signal %d", what, WTERMSIG(status));
	if (WEXITSTATUS(status) != want)
		return bench_fail(ctx, 0, "%s child exited %d, expected %d%s", what,
				  WEXITSTATUS(status), want,
				  WEXITSTATUS(status) == 127 ? " (execve failed)" : "");
	return BENCH_OK;
}

enum bench_status proc_forks(struct bench_ctx *ctx, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		pid_t pid = plat_fork();
		if (pid < 0)
			return bench_fail(ctx, errno, "fork");
		if (pid == 0)
			_exit(0);
		if (proc_reap(ctx, pid, 0, "fork") != BENCH_OK)
			return BENCH_FAIL;
	}
	return BENCH_OK;
}

enum bench_status proc_tiny_setup(struct bench_ctx *ctx)
{
	struct proc_tiny *t = malloc(sizeof(*t));
	const char *env = getenv("KBENCH_TINY");
	int found;

	if (!t)
		return bench_fail(ctx, ENOMEM, "setup");
	found = companion_find("kbench-tiny", "KBENCH_TINY", t->path, sizeof(t->path));
	/* A tiny the user named and got wrong is their mistake, not a missing part. */
	if (found != 0 && env && *env) {
		int e = errno;

		free(t);
		return bench_fail(ctx, e, "KBENCH_TINY '%s'", env);
	}
	if (found != 0) {
		free(t);
		return bench_skip(ctx, "kbench-tiny not found next to kbench nor in %s", KB_LIBEXECDIR);
	}
	ctx->priv = t;
	return BENCH_OK;
}

void proc_tiny_teardown(struct bench_ctx *ctx)
{
	free(ctx->priv);
}

enum bench_status proc_spawn(struct bench_ctx *ctx, uint64_t n, char *const argv[],
			     const char *what)
{
	char *const envp[] = { NULL };

	for (uint64_t i = 0; i < n; i++) {
		pid_t pid = plat_fork();
		if (pid < 0)
			return bench_fail(ctx, errno, "fork");
		if (pid == 0) {
			plat_execve(argv[0], argv, envp);
			_exit(127);
		}
		if (proc_reap(ctx, pid, PROC_TINY_STATUS, what) != BENCH_OK)
			return BENCH_FAIL;
	}
	return BENCH_OK;
}

static enum bench_status exec_run(struct bench_ctx *ctx, uint64_t n)
{
	struct proc_tiny *t = ctx->priv;
	char *const argv[] = { t->path, NULL };

	return proc_spawn(ctx, n, argv, "exec");
}

static enum bench_status shell_run(struct bench_ctx *ctx, uint64_t n)
{
	struct proc_tiny *t = ctx->priv;
	char sh[] = "/bin/sh", dash_c[] = "-c";
	char *const argv[] = { sh, dash_c, t->path, NULL };

	return proc_spawn(ctx, n, argv, "/bin/sh -c");
}

static const char *shell_unsupported(void)
{
	return access("/bin/sh", X_OK) == 0 ? NULL : "no /bin/sh";
}

const struct bench proc_benches[] = {
	{ .id = "proc.fork", .metric = METRIC_US, .better = BETTER_LOWER, .suites = SUITE_SUMMARY,
	  .summary = "fork() of a small process that exits at once, and wait for it",
	  .run = proc_forks },
	{ .id = "proc.exec", .metric = METRIC_US, .better = BETTER_LOWER, .suites = SUITE_SUMMARY,
	  .summary = "fork() and execve() of kbench-tiny (static, built with kbench), and wait",
	  .setup = proc_tiny_setup, .run = exec_run, .teardown = proc_tiny_teardown },
	{ .id = "proc.shell", .metric = METRIC_US, .better = BETTER_LOWER, .suites = SUITE_SUMMARY,
	  .summary = "fork() and /bin/sh -c kbench-tiny, and wait",
	  .unsupported = shell_unsupported, .setup = proc_tiny_setup, .run = shell_run,
	  .teardown = proc_tiny_teardown },
};
const size_t proc_nbenches = sizeof(proc_benches) / sizeof(proc_benches[0]);

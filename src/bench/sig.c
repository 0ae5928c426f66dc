/*
 * Signals: installing a handler (lmbench "sig inst") and catching a signal
 * sent to oneself (lmbench "sig hndl").  The handler counts what it caught,
 * so a signal that was never delivered makes the run fail.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "bench/families.h"
#include "plat/plat.h"

/* Written only by the handler, read after the loop. */
static volatile sig_atomic_t sig_caught;

static void sig_handler(int sig)
{
	(void)sig;
	sig_caught++;
}

static enum bench_status install_run(struct bench_ctx *ctx, uint64_t n)
{
	struct sigaction sa, now;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sig_handler;
	sigemptyset(&sa.sa_mask);
	for (uint64_t i = 0; i < n; i++)
		if (plat_sigaction(SIGUSR1, &sa, NULL) != 0)
			return bench_fail(ctx, errno, "sigaction");
	if (plat_sigaction(SIGUSR1, NULL, &now) != 0 || now.sa_handler != sig_handler)
		return bench_fail(ctx, errno, "sigaction did not install the handler");
	return BENCH_OK;
}

static enum bench_status catch_setup(struct bench_ctx *ctx)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sig_handler;
	sigemptyset(&sa.sa_mask);
	if (plat_sigaction(SIGUSR1, &sa, NULL) != 0)
		return bench_fail(ctx, errno, "sigaction");
	return BENCH_OK;
}

static enum bench_status catch_run(struct bench_ctx *ctx, uint64_t n)
{
	pid_t self = getpid();

	sig_caught = 0;
	for (uint64_t i = 0; i < n; i++)
		if (plat_kill(self, SIGUSR1) != 0)
			return bench_fail(ctx, errno, "kill");
	/* A signal sent to oneself and not blocked is delivered before kill() returns. */
	if ((uint64_t)sig_caught != n)
		return bench_fail(ctx, 0, "sent %llu signals, the handler caught %d",
				  (unsigned long long)n, (int)sig_caught);
	return BENCH_OK;
}

const struct bench sig_benches[] = {
	{ .id = "sig.install", .metric = METRIC_US, .better = BETTER_LOWER, .suites = SUITE_SUMMARY,
	  .flags = BENCH_CHEAP, .summary = "sigaction() installing a SIGUSR1 handler",
	  .run = install_run },
	{ .id = "sig.catch", .metric = METRIC_US, .better = BETTER_LOWER, .suites = SUITE_SUMMARY,
	  .flags = BENCH_CHEAP, .summary = "kill() of SIGUSR1 to oneself, caught by a handler",
	  .setup = catch_setup, .run = catch_run },
};
const size_t sig_nbenches = sizeof(sig_benches) / sizeof(sig_benches[0]);

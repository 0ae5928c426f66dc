/*
 * The processor's clock, measured: a chain of dependent adds runs at one
 * add per cycle on any core kbench knows, so adds per microsecond is the
 * clock in MHz.  /proc/cpuinfo's figure is the nominal one, and in a VM it
 * is whatever the host chose to say.  The chain is the one sysinfo uses
 * for its quick figure; here the harness times it, with a CI, as a result.
 */
#include "bench/families.h"
#include "core/sysinfo.h"

static enum bench_status cpu_mhz_setup(struct bench_ctx *ctx)
{
	/* The figure is per add: MHz = 1000 / (ns per add). */
	ctx->ops_per_iter = SYSINFO_MHZ_ADDS;
	bench_value(ctx, "adds_per_iter", SYSINFO_MHZ_ADDS);
	return BENCH_OK;
}

static enum bench_status cpu_mhz_run(struct bench_ctx *ctx, uint64_t n)
{
	(void)ctx;
	sysinfo_add_chain(n);
	return BENCH_OK;
}

const struct bench cpu_benches[] = {
	{ .id = "cpu.mhz", .metric = METRIC_MHZ, .better = BETTER_HIGHER, .suites = SUITE_SUMMARY,
	  .summary = "clock rate: dependent adds per microsecond (one add per cycle)",
	  .setup = cpu_mhz_setup, .run = cpu_mhz_run },
};
const size_t cpu_nbenches = sizeof(cpu_benches) / sizeof(cpu_benches[0]);

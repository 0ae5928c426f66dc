/* SKELETON: replaced by the real family; keeps the tree building meanwhile. */
#include "bench/families.h"

static enum bench_status memlat_todo(struct bench_ctx *ctx, uint64_t n)
{
	(void)n;
	return bench_skip(ctx, "not written yet");
}

const struct bench memlat_benches[] = {
	{ .id = "memlat.todo", .metric = METRIC_US, .better = BETTER_LOWER, .suites = SUITE_FULL,
	  .summary = "placeholder", .run = memlat_todo },
};
const size_t memlat_nbenches = sizeof(memlat_benches) / sizeof(memlat_benches[0]);

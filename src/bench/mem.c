/* SKELETON: replaced by the real family; keeps the tree building meanwhile. */
#include "bench/families.h"

static enum bench_status mem_todo(struct bench_ctx *ctx, uint64_t n)
{
	(void)n;
	return bench_skip(ctx, "not written yet");
}

const struct bench mem_benches[] = {
	{ .id = "mem.todo", .metric = METRIC_US, .better = BETTER_LOWER, .suites = SUITE_FULL,
	  .summary = "placeholder", .run = mem_todo },
};
const size_t mem_nbenches = sizeof(mem_benches) / sizeof(mem_benches[0]);

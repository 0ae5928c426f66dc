/* SKELETON: replaced by the real family; keeps the tree building meanwhile. */
#include "bench/families.h"

static enum bench_status fs_todo(struct bench_ctx *ctx, uint64_t n)
{
	(void)n;
	return bench_skip(ctx, "not written yet");
}

const struct bench fs_benches[] = {
	{ .id = "fs.todo", .metric = METRIC_US, .better = BETTER_LOWER, .suites = SUITE_FULL,
	  .summary = "placeholder", .run = fs_todo },
};
const size_t fs_nbenches = sizeof(fs_benches) / sizeof(fs_benches[0]);

/* SKELETON: replaced by the real family; keeps the tree building meanwhile. */
#include "bench/families.h"

static enum bench_status vm_todo(struct bench_ctx *ctx, uint64_t n)
{
	(void)n;
	return bench_skip(ctx, "not written yet");
}

const struct bench vm_benches[] = {
	{ .id = "vm.todo", .metric = METRIC_US, .better = BETTER_LOWER, .suites = SUITE_FULL,
	  .summary = "placeholder", .run = vm_todo },
};
const size_t vm_nbenches = sizeof(vm_benches) / sizeof(vm_benches[0]);

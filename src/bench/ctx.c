/* (Being written.) */
#include "bench/families.h"

const struct bench ctx_benches[] = {
	{ "ctx.placeholder", METRIC_US, BETTER_LOWER, SUITE_QUICK, 0, "placeholder", NULL, NULL, NULL, NULL, NULL },
};
const size_t ctx_nbenches = 0;

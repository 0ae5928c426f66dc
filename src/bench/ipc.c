/* (Being written.) */
#include "bench/families.h"

const struct bench ipc_benches[] = {
	{ "ipc.placeholder", METRIC_US, BETTER_LOWER, SUITE_QUICK, 0, "placeholder", NULL, NULL, NULL, NULL, NULL },
};
const size_t ipc_nbenches = 0;

/*
 * Sun RPC latency through libtirpc: ipc.rpc_udp.lat, ipc.rpc_tcp.lat.
 * (Being written.)
 */
#include "bench/families.h"

const struct bench rpc_benches[] = {
	{ "ipc.rpc_udp.lat", METRIC_US, BETTER_LOWER, SUITE_QUICK, BENCH_PLACED, "placeholder", NULL, NULL, NULL, NULL, NULL },
};
const size_t rpc_nbenches = 0;

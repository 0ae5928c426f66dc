/*
 * The benchmark families: each file in src/bench/ ends with a const table
 * of struct bench rows and exports it here.  src/core/registry.c lists them.
 */
#ifndef KB_FAMILIES_H
#define KB_FAMILIES_H

#include <stddef.h>

#include "core/bench.h"

extern const struct bench sys_benches[];
extern const size_t sys_nbenches;
extern const struct bench sig_benches[];
extern const size_t sig_nbenches;
extern const struct bench proc_benches[];
extern const size_t proc_nbenches;
extern const struct bench ctx_benches[];
extern const size_t ctx_nbenches;
extern const struct bench ipc_benches[];
extern const size_t ipc_nbenches;
extern const struct bench rpc_benches[];
extern const size_t rpc_nbenches;
extern const struct bench cpu_benches[];
extern const size_t cpu_nbenches;
extern const struct bench fs_benches[];
extern const size_t fs_nbenches;
extern const struct bench vm_benches[];
extern const size_t vm_nbenches;
extern const struct bench mem_benches[];
extern const size_t mem_nbenches;
extern const struct bench memlat_benches[];
extern const size_t memlat_nbenches;
extern const struct bench rate_benches[];
extern const size_t rate_nbenches;
extern const struct bench clock_benches[];
extern const size_t clock_nbenches;
extern const struct bench aim9_benches[];
extern const size_t aim9_nbenches;
extern const struct bench lock_benches[];
extern const size_t lock_nbenches;
extern const struct bench wake_benches[];
extern const size_t wake_nbenches;
/* Not const: made at start-up from the operations and the task counts (scale.c). */
extern struct bench scale_benches[];
extern const size_t scale_nbenches;

#endif

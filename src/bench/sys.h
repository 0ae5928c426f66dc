/*
 * One byte of device I/O, the path into the kernel and out: sys.read's and
 * sys.write's setup and timed bodies, which the rates of the same calls
 * (rate.c) use too, so both measure one operation, checked one way.
 */
#ifndef KB_BENCH_SYS_H
#define KB_BENCH_SYS_H

#include <stdint.h>

#include "core/bench.h"

/* /dev/zero opened for reading, /dev/null for writing, as ctx->priv. */
enum bench_status sys_read_setup(struct bench_ctx *ctx);
enum bench_status sys_write_setup(struct bench_ctx *ctx);
/* n reads of one byte, each checked to be 0; n writes of one byte. */
enum bench_status sys_read_run(struct bench_ctx *ctx, uint64_t n);
enum bench_status sys_write_run(struct bench_ctx *ctx, uint64_t n);
void sys_dev_teardown(struct bench_ctx *ctx);

#endif

/*
 * AIM Suite IX's tests (aim9.c's table, in AIM9's order), written in three
 * files by what they exercise: aim9_cpu.c (arithmetic, function calls and
 * the library routines), aim9_disk.c (files, links, directories) and
 * aim9_sys.c (memory, processes, signals, IPC, the shell).
 *
 * Each test is one struct aim9_test: aim9.c's rows lend it to the harness
 * as the row's arg, and call its functions through the three below.  One
 * iteration is what one call of the AIM9 test does; the row's factor (its
 * ops) turns iterations into AIM9's operations.  Each test checks its own
 * work and fails with bench_fail when the work did not happen.
 */
#ifndef KB_BENCH_AIM9_H
#define KB_BENCH_AIM9_H

#include <stdint.h>

#include "core/bench.h"

struct aim9_test {
	/* As struct bench's: setup and teardown optional; ctx->priv is the test's. */
	enum bench_status (*setup)(struct bench_ctx *ctx);
	enum bench_status (*run)(struct bench_ctx *ctx, uint64_t n);
	void (*teardown)(struct bench_ctx *ctx);
};

/* AIM9's FILESIZE: the disk tests' file when --size is not given. */
#define AIM9_FILESIZE (5u * 1024 * 1024)

/* The tests, each defined in one of the three files. */
#define AIM9_TESTS(X)                                                                    \
	X(add_double) X(add_float) X(add_long) X(add_int) X(add_short) X(creat_clo)      \
	X(page_test) X(brk_test) X(jmp_test) X(signal_test) X(exec_test) X(fork_test)    \
	X(link_test) X(disk_rr) X(disk_rw) X(disk_rd) X(disk_wrt) X(disk_cp)             \
	X(sync_disk_rw) X(sync_disk_wrt) X(sync_disk_cp) X(disk_src) X(div_double)       \
	X(div_float) X(div_long) X(div_int) X(div_short) X(fun_cal) X(fun_cal1)          \
	X(fun_cal2) X(fun_cal15) X(sieve) X(mul_double) X(mul_float) X(mul_long)         \
	X(mul_int) X(mul_short) X(num_rtns_1) X(new_raph) X(trig_rtns) X(matrix_rtns)    \
	X(array_rtns) X(string_rtns) X(mem_rtns_1) X(mem_rtns_2) X(sort_rtns_1)          \
	X(misc_rtns_1) X(dir_rtns_1) X(shell_rtns_1) X(shell_rtns_2) X(shell_rtns_3)     \
	X(series_1) X(shared_memory) X(tcp_test) X(udp_test) X(fifo_test)                \
	X(stream_pipe) X(dgram_pipe) X(pipe_cpy) X(ram_copy)

#define AIM9_DECLARE(name) extern const struct aim9_test aim9_##name;
AIM9_TESTS(AIM9_DECLARE)
#undef AIM9_DECLARE

/*
 * A number the compiler cannot know: the arithmetic tests start from these
 * (AIM9 parsed its operands from an argument string for the same reason),
 * so that no loop is folded into its answer at build time.
 */
double aim9_opaque_double(double v);
long aim9_opaque_long(long v);

#endif

/*
 * AIM Suite IX (AIM9, s9110): its 60 tests under its names, in its order,
 * each a rate in its own operations per second with its own unit text, so
 * that a figure reads like a published AIM9 line.  What one iteration does
 * is one call of the AIM9 test (aim9_cpu.c, aim9_disk.c, aim9_sys.c); the
 * row's ops is AIM9's factor, the operations that call counts for.  AIM9
 * ran each test once for a fixed period and had no notion of variance;
 * here the harness samples each like any other row, with an interval.
 *
 * The disk tests' factor is the file's size in KiB (AIM9's FILESIZE,
 * 5 MiB unless --size says otherwise, halved for the sync tests): their
 * setup sets ctx->ops_per_iter, and the row's ops is the default's.
 */
#include "bench/aim9.h"
#include "bench/families.h"

/* The row's test, lent as its arg; the harness calls these. */
static enum bench_status aim9_setup(struct bench_ctx *ctx)
{
	const struct aim9_test *t = ctx->arg;

	return t->setup ? t->setup(ctx) : BENCH_OK;
}

static enum bench_status aim9_run(struct bench_ctx *ctx, uint64_t n)
{
	const struct aim9_test *t = ctx->arg;

	return t->run(ctx, n);
}

static void aim9_teardown(struct bench_ctx *ctx)
{
	const struct aim9_test *t = ctx->arg;

	if (t->teardown)
		t->teardown(ctx);
}

/*
 * A volatile store and load: the compiler must assume any value comes
 * back, so the arithmetic started from it is done at run time.
 */
double aim9_opaque_double(double v)
{
	volatile double x = v;

	return x;
}

long aim9_opaque_long(long v)
{
	volatile long x = v;

	return x;
}

/* One row: AIM9's name (id), its factor, its unit text, more suites, flags, summary. */
#define AIM9_ROW(test, name, factor, unit_text, more, fl, what)                            \
	{ .id = "aim9." name, .metric = METRIC_OPS, .better = BETTER_HIGHER,             \
	  .unit = unit_text "/second", .suites = SUITE_AIM9 | (more), .flags = (fl),     \
	  .ops = (factor), .summary = what, .setup = aim9_setup, .run = aim9_run,        \
	  .teardown = aim9_teardown, .arg = &aim9_##test }

/* AIM9's 5 MiB file in 1 KiB blocks; the sync tests write half of it. */
#define AIM9_BLOCKS (AIM9_FILESIZE / 1024)
#define SHORT SUITE_AIM9_SHORT

const struct bench aim9_benches[] = {
	AIM9_ROW(add_double, "add_double", 18000, "Thousand Double Precision Additions", 0, 0,
		 "1.5 M rounds of 12 dependent double additions"),
	AIM9_ROW(add_float, "add_float", 12000, "Thousand Single Precision Additions", 0, 0,
		 "1 M rounds of 12 dependent float additions"),
	AIM9_ROW(add_long, "add_long", 60000, "Thousand Long Integer Additions", 0, 0,
		 "5 M rounds of 12 dependent long additions"),
	AIM9_ROW(add_int, "add_int", 60000, "Thousand Integer Additions", 0, 0,
		 "5 M rounds of 12 dependent int additions"),
	AIM9_ROW(add_short, "add_short", 24000, "Thousand Short Integer Additions", 0, 0,
		 "2 M rounds of 12 dependent short additions"),
	AIM9_ROW(creat_clo, "creat-clo", 1000, "File Creations and Closes", 0, 0,
		 "1000 creat() and close() of one file in the private directory"),
	AIM9_ROW(page_test, "page_test", 1700, "System Allocations & Pages", SHORT, 0,
		 "100 rounds of sbrk() giving back 16 pages and taking them again, each touched"),
	AIM9_ROW(brk_test, "brk_test", 17000, "System Memory Allocations", SHORT, 0,
		 "1000 rounds of sbrk() giving back 16 pages and taking them again, untouched"),
	AIM9_ROW(jmp_test, "jmp_test", 1000, "Non-local gotos", 0, 0,
		 "1000 setjmp() and longjmp() out of 10 nested calls"),
	AIM9_ROW(signal_test, "signal_test", 1000, "Signal Traps", 0, 0,
		 "1000 SIGUSR2 sent to itself with kill() and caught"),
	AIM9_ROW(exec_test, "exec_test", 5, "Program Loads", SHORT, 0,
		 "5 fork() and exec of kbench-tiny, each waited for"),
	AIM9_ROW(fork_test, "fork_test", 100, "Task Creations", SHORT, 0,
		 "100 fork() of a child that exits at once, each waited for"),
	AIM9_ROW(link_test, "link_test", 63, "Link/Unlink Pairs", 0, 0,
		 "63 unlink() and link() pairs among 8 names of one file"),
	AIM9_ROW(disk_rr, "disk_rr", AIM9_BLOCKS, "Random Disk Reads (K)", 0, BENCH_SIZED,
		 "a file of --size written, then read 1 KiB at a time at random blocks"),
	AIM9_ROW(disk_rw, "disk_rw", AIM9_BLOCKS, "Random Disk Writes (K)", 0, BENCH_SIZED,
		 "a file of --size written, then written 1 KiB at a time at random blocks"),
	AIM9_ROW(disk_rd, "disk_rd", AIM9_BLOCKS, "Sequential Disk Reads (K)", 0, BENCH_SIZED,
		 "a file of --size read through 1 KiB at a time"),
	AIM9_ROW(disk_wrt, "disk_wrt", AIM9_BLOCKS, "Sequential Disk Writes (K)", 0, BENCH_SIZED,
		 "a file of --size written 1 KiB at a time"),
	AIM9_ROW(disk_cp, "disk_cp", AIM9_BLOCKS, "Disk Copies (K)", 0, BENCH_SIZED,
		 "a file of --size copied 1 KiB at a time"),
	AIM9_ROW(sync_disk_rw, "sync_disk_rw", AIM9_BLOCKS / 2, "Sync Random Disk Writes (K)", 0,
		 BENCH_SIZED, "half a file of --size written with O_SYNC at random 1 KiB blocks"),
	AIM9_ROW(sync_disk_wrt, "sync_disk_wrt", AIM9_BLOCKS / 2, "Sync Sequential Disk Writes (K)",
		 0, BENCH_SIZED, "half a file of --size written with O_SYNC 1 KiB at a time"),
	AIM9_ROW(sync_disk_cp, "sync_disk_cp", AIM9_BLOCKS / 2, "Sync Disk Copies (K)", 0,
		 BENCH_SIZED, "half a file of --size copied 1 KiB at a time into an O_SYNC file"),
	AIM9_ROW(disk_src, "disk_src", 75, "Directory Searches", 0, 0,
		 "75 stat() or creat(), close() and unlink() in a tree kbench builds"),
	AIM9_ROW(div_double, "div_double", 3000, "Thousand Double Precision Divides", 0, 0,
		 "250 k rounds of 12 dependent double divisions"),
	AIM9_ROW(div_float, "div_float", 3000, "Thousand Single Precision Divides", 0, 0,
		 "250 k rounds of 12 dependent float divisions"),
	AIM9_ROW(div_long, "div_long", 900, "Thousand Long Integer Divides", 0, 0,
		 "75 k rounds of 12 dependent long divisions"),
	AIM9_ROW(div_int, "div_int", 900, "Thousand Integer Divides", 0, 0,
		 "75 k rounds of 12 dependent int divisions"),
	AIM9_ROW(div_short, "div_short", 900, "Thousand Short Integer Divides", 0, 0,
		 "75 k rounds of 12 dependent short divisions"),
	AIM9_ROW(fun_cal, "fun_cal", 512000, "Function Calls (no arguments)", 0, 0,
		 "512 k calls through a pointer of a function of no arguments"),
	AIM9_ROW(fun_cal1, "fun_cal1", 512000, "Function Calls (1 argument)", 0, 0,
		 "512 k calls through a pointer of a function of 1 argument"),
	AIM9_ROW(fun_cal2, "fun_cal2", 512000, "Function Calls (2 arguments)", 0, 0,
		 "512 k calls through a pointer of a function of 2 arguments"),
	AIM9_ROW(fun_cal15, "fun_cal15", 512000, "Function Calls (15 arguments)", 0, 0,
		 "512 k calls through a pointer of a function of 15 arguments"),
	AIM9_ROW(sieve, "sieve", 5, "Integer Sieves", 0, 0,
		 "5 sieves of Eratosthenes up to 1 M, the primes counted"),
	AIM9_ROW(mul_double, "mul_double", 12000, "Thousand Double Precision Multiplies", 0, 0,
		 "1 M rounds of 12 dependent double multiplications"),
	AIM9_ROW(mul_float, "mul_float", 12000, "Thousand Single Precision Multiplies", 0, 0,
		 "1 M rounds of 12 dependent float multiplications"),
	AIM9_ROW(mul_long, "mul_long", 240, "Thousand Long Integer Multiplies", 0, 0,
		 "20 k rounds of 12 dependent long multiplications"),
	AIM9_ROW(mul_int, "mul_int", 240, "Thousand Integer Multiplies", 0, 0,
		 "20 k rounds of 12 dependent int multiplications"),
	AIM9_ROW(mul_short, "mul_short", 300, "Thousand Short Integer Multiplies", 0, 0,
		 "25 k rounds of 12 dependent short multiplications"),
	AIM9_ROW(num_rtns_1, "num_rtns_1", 100, "Numeric Functions", 0, 0,
		 "100 rounds of exp, log, modf, frexp, ldexp, fmod, pow, sqrt and rand"),
	AIM9_ROW(new_raph, "new_raph", 200, "Zeros Found", 0, 0,
		 "200 zeros of 1000 sin x cos x found by Newton-Raphson"),
	AIM9_ROW(trig_rtns, "trig_rtns", 10000, "Trigonometric Functions", 0, 0,
		 "10000 rounds of sin, asin, cos, acos, tan, atan, tanh, sinh, cosh, atan2"),
	AIM9_ROW(matrix_rtns, "matrix_rtns", 100, "Point Transformations", 0, 0,
		 "100 points transformed by a 4x4 matrix"),
	AIM9_ROW(array_rtns, "array_rtns", 20, "Linear Systems Solved", 0, 0,
		 "20 linear systems of 5 to 100 unknowns solved by Gauss-Jordan and checked"),
	AIM9_ROW(string_rtns, "string_rtns", 100, "String Manipulations", 0, 0,
		 "100 rounds of number formatting and parsing, ctype tests and string calls"),
	AIM9_ROW(mem_rtns_1, "mem_rtns_1", 30000, "Dynamic Memory Operations", 0, 0,
		 "100 rounds of 300 malloc() and calloc() of mixed sizes, each freed"),
	AIM9_ROW(mem_rtns_2, "mem_rtns_2", 100, "Block Memory Operations", 0, 0,
		 "100 rounds of memset, memchr, memcmp, memcpy and memmove of mixed sizes"),
	AIM9_ROW(sort_rtns_1, "sort_rtns_1", 10, "Sort Operations", 0, 0,
		 "qsort() of 10000 ints up and down, and bsearch() in them"),
	AIM9_ROW(misc_rtns_1, "misc_rtns_1", 10, "Auxiliary Loops", 0, 0,
		 "10 rounds of getuid, getpwnam, getcwd, uname, times and other library calls"),
	AIM9_ROW(dir_rtns_1, "dir_rtns_1", 10000, "Directory Operations", 0, 0,
		 "10000 readdir() of a directory, rewound at its end"),
	AIM9_ROW(shell_rtns_1, "shell_rtns_1", 1, "Shell Scripts", 0, 0,
		 "/bin/sh running kbench's first small script, from a forked child"),
	AIM9_ROW(shell_rtns_2, "shell_rtns_2", 1, "Shell Scripts", 0, 0,
		 "/bin/sh running kbench's second small script, from a forked child"),
	AIM9_ROW(shell_rtns_3, "shell_rtns_3", 1, "Shell Scripts", 0, 0,
		 "/bin/sh running kbench's third small script, from a forked child"),
	AIM9_ROW(series_1, "series_1", 100, "Series Evaluations", 0, 0,
		 "100 Taylor series of sin x summed until they stop changing, checked"),
	AIM9_ROW(shared_memory, "shared_memory", 100, "Shared Memory Operations", 0, 0,
		 "100 copies in and out of System V shared memory under a semaphore"),
	AIM9_ROW(tcp_test, "tcp_test", 90, "TCP/IP Messages", 0, 0,
		 "90 messages of mixed sizes through a loopback TCP connection"),
	AIM9_ROW(udp_test, "udp_test", 100, "UDP/IP DataGrams", 0, 0,
		 "100 datagrams of mixed sizes through loopback UDP sockets"),
	AIM9_ROW(fifo_test, "fifo_test", 100, "FIFO Messages", 0, 0,
		 "100 messages of mixed sizes through a named FIFO"),
	AIM9_ROW(stream_pipe, "stream_pipe", 100, "Stream Pipe Messages", 0, 0,
		 "100 messages of mixed sizes through a Unix stream socket pair"),
	AIM9_ROW(dgram_pipe, "dgram_pipe", 100, "DataGram Pipe Messages", 0, 0,
		 "100 messages of mixed sizes through a Unix datagram socket pair"),
	AIM9_ROW(pipe_cpy, "pipe_cpy", 100, "Pipe Messages", 0, 0,
		 "100 messages of mixed sizes through a pipe"),
	AIM9_ROW(ram_copy, "ram_copy", 25020, "Memory to Memory Copy", 0, 0,
		 "64 memcpy() of mixed sizes, 25020 bytes in all"),
};
const size_t aim9_nbenches = sizeof(aim9_benches) / sizeof(aim9_benches[0]);

/*
 * Probe of the machine's states (issue 12): one process per CPU, pinned,
 * each measuring in back-to-back windows for a given time, and printing a
 * line per window:
 *
 *   t_s cpu getppid_ns add_ns chase_l2_ns chase_l3_ns steal_ms irq_d ctxt_d tsc_per_ns
 *   win_ms kdamond_ms compact_d
 *
 * getppid_ns  syscall(SYS_getppid), ns per call (the sentinel candidate)
 * add_ns      a chain of dependent adds, ns per add (the core clock)
 * chase_*_ns  a random pointer chase over 256 KiB (L2) and 8 MiB (L3), ns/load
 * steal_ms    this CPU's steal time during the window, from /proc/stat
 * irq_d       interrupts (all CPUs) during the window; ctxt_d context switches
 * tsc_per_ns  rdtsc ticks per CLOCK_MONOTONIC ns over the window (the host's
 *             clock against the guest's)
 * win_ms      the window's length (the counts above are per window)
 * kdamond_ms  CPU time DAMON's kdamond threads used during the window
 * compact_d   compaction stalls and THP collapses during the window
 *
 * The windows of the CPUs run at the same time, so whether both CPUs change
 * state together can be read off lines with the same t_s.
 *
 * usage: states SECONDS [WINDOW_MS] [CPUS]    (CPUS: count, default all)
 * build: cc -O2 -o states states.c
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include "pick.h"

static volatile uint64_t sink;

/* This CPU's steal (ms) and the machine's interrupts and switches. */
static void procstat(int cpu, double *steal_ms, double *irq, double *ctxt)
{
	char line[4096], name[16];
	FILE *f = fopen("/proc/stat", "r");
	unsigned long long v[10];

	*steal_ms = *irq = *ctxt = 0;
	if (!f)
		return;
	snprintf(name, sizeof(name), "cpu%d ", cpu);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, name, strlen(name)) == 0 &&
		    sscanf(line + strlen(name), "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
			   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8)
			*steal_ms = v[7] * 1000.0 / sysconf(_SC_CLK_TCK);
		else if (strncmp(line, "intr ", 5) == 0)
			*irq = strtod(line + 5, NULL);
		else if (strncmp(line, "ctxt ", 5) == 0)
			*ctxt = strtod(line + 5, NULL);
	}
	fclose(f);
}

/* CPU time of every kdamond thread, ms (DAMON pages out cold memory here). */
static double kdamond_ms(void)
{
	static int pids[8], npids = -1;
	double ms = 0;

	if (npids < 0) {
		FILE *f = popen("pgrep kdamond", "r");

		npids = 0;
		while (f && npids < 8 && fscanf(f, "%d", &pids[npids]) == 1)
			npids++;
		if (f)
			pclose(f);
	}
	for (int i = 0; i < npids; i++) {
		char path[64], buf[1024], *p;
		FILE *f;
		unsigned long long ut, st;

		snprintf(path, sizeof(path), "/proc/%d/stat", pids[i]);
		if (!(f = fopen(path, "r")))
			continue;
		if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) &&
		    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) == 2)
			ms += (ut + st) * 1000.0 / sysconf(_SC_CLK_TCK);
		fclose(f);
	}
	return ms;
}

/* Compaction stalls plus THP collapses so far. */
static double compactions(void)
{
	char line[256];
	double n = 0;
	FILE *f = fopen("/proc/vmstat", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "compact_stall ", 14) || !strncmp(line, "thp_collapse_alloc ", 19))
			n += strtod(strchr(line, ' '), NULL);
	if (f)
		fclose(f);
	return n;
}

static double t_getppid(long n)
{
	double t0 = ref_now_ns();

	for (long i = 0; i < n; i++)
		if (syscall(SYS_getppid) <= 0)
			abort();
	return (ref_now_ns() - t0) / n;
}

static double t_add(long n)
{
	uint64_t x = sink;
	double t0 = ref_now_ns();

	for (long i = 0; i < n; i++)
		__asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
				 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
				 "add $1, %0\n\tadd $1, %0" : "+r"(x));
	sink = x;
	return (ref_now_ns() - t0) / (n * 10.0);
}

static void **make_chase(size_t bytes)
{
	size_t n = bytes / 64, stride = 64 / sizeof(void *);
	void **a = aligned_alloc(64, bytes);
	size_t *perm = malloc(n * sizeof(*perm));

	for (size_t i = 0; i < n; i++)
		perm[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)random() % (i + 1), t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		a[perm[i] * stride] = &a[perm[(i + 1) % n] * stride];
	free(perm);
	return a;
}

static double t_chase(void **a, long n)
{
	void **p = a;
	double t0 = ref_now_ns();

	for (long i = 0; i < n; i++)
		p = *p;
	sink += (uintptr_t)p;
	return (ref_now_ns() - t0) / n;
}

static void probe(int cpu, double secs, double win_ms, double start)
{
	cpu_set_t set;
	void **l2 = make_chase(256 << 10), **l3 = make_chase(8 << 20);
	double s0, s1, i0, i1, c0, c1;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		perror("sched_setaffinity");
		exit(1);
	}
	/* Each measurement takes about a quarter of the window. */
	long ng = (long)(win_ms * 1e6 / 4 / 250), na = (long)(win_ms * 1e6 / 4 / 3.3);
	long nc2 = (long)(win_ms * 1e6 / 4 / 8 / 2), nc3 = (long)(win_ms * 1e6 / 4 / 20 / 2);
	t_chase(l2, nc2);
	t_chase(l3, nc3);
	while (ref_now_ns() - start < secs * 1e9) {
		double t = ref_now_ns(), kd0 = kdamond_ms(), cp0 = compactions();
		uint64_t k0 = __rdtsc();

		procstat(cpu, &s0, &i0, &c0);
		double g = t_getppid(ng), a = t_add(na);
		double m2 = t_chase(l2, nc2), m3 = t_chase(l3, nc3);
		procstat(cpu, &s1, &i1, &c1);
		uint64_t k1 = __rdtsc();
		double t1 = ref_now_ns();
		printf("%.3f %d %.1f %.4f %.2f %.2f %.0f %.0f %.0f %.4f %.2f %.0f %.0f\n",
		       (t - start) / 1e9, cpu, g, a, m2, m3, s1 - s0, i1 - i0, c1 - c0,
		       (double)(k1 - k0) / (t1 - t), (t1 - t) / 1e6, kdamond_ms() - kd0,
		       compactions() - cp0);
		fflush(stdout);
	}
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 60, win = argc > 2 ? atof(argv[2]) : 100;
	int ncpu = argc > 3 ? atoi(argv[3]) : (int)sysconf(_SC_NPROCESSORS_ONLN);
	double start = ref_now_ns();

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int c = 0; c < ncpu; c++)
		if (fork() == 0) {
			srandom(c + 1);
			probe(c, secs, win, start);
			_exit(0);
		}
	while (wait(NULL) > 0)
		;
	return 0;
}

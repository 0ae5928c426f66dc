/*
 * Slow spells of a known share: one process per CPU, pinned to it, that
 * spins for BUSY_MS of every PERIOD_MS and sleeps the rest, so that every
 * CPU is taken from whatever else runs there for that share of the time.
 * The phases of the CPUs are staggered (CPU k starts k/N of a period late),
 * as a neighbour's bursts would be.  Runs until killed (or for SECONDS).
 * Not a reference of a figure: the machine state that bench/levels.sh
 * measures kbench's levels under.
 *
 * usage: spells [BUSY_MS [PERIOD_MS [SECONDS]]]    (defaults 300, 1000, forever)
 * build: cc -O2 -o spells spells.c
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void nap_ms(double ms)
{
	struct timespec ts;

	if (ms <= 0)
		return;
	ts.tv_sec = (time_t)(ms / 1000);
	ts.tv_nsec = (long)((ms - ts.tv_sec * 1000.0) * 1e6);
	while (nanosleep(&ts, &ts) != 0)
		;
}

static void spin(int cpu, int ncpu, double busy, double period, double seconds)
{
	cpu_set_t set;
	double start = now_ms(), next = start + period * cpu / ncpu;
	volatile unsigned long sink = 0;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		perror("spells: sched_setaffinity");
	for (;;) {
		double t;

		nap_ms(next - now_ms());
		t = now_ms();
		while (now_ms() - t < busy)
			for (int i = 0; i < 1000; i++)
				sink += (unsigned long)i;
		next += period;
		if (seconds > 0 && now_ms() - start >= seconds * 1000)
			_exit(0);
	}
}

int main(int argc, char **argv)
{
	double busy = argc > 1 ? atof(argv[1]) : 300, period = argc > 2 ? atof(argv[2]) : 1000;
	double seconds = argc > 3 ? atof(argv[3]) : 0;
	int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);

	if (busy <= 0 || period <= busy || ncpu < 1) {
		fprintf(stderr, "usage: spells [BUSY_MS [PERIOD_MS [SECONDS]]], 0 < BUSY_MS < PERIOD_MS\n");
		return 2;
	}
	for (int cpu = 0; cpu < ncpu; cpu++) {
		pid_t pid = fork();

		if (pid == 0)
			spin(cpu, ncpu, busy, period, seconds);
		if (pid < 0) {
			perror("spells: fork");
			kill(0, SIGTERM);
			return 1;
		}
	}
	/* The children go with this process's group when it is killed. */
	while (wait(NULL) > 0)
		;
	return 0;
}

/*
 * Plain reference for kbench's ctx.<N>p.0k (lmbench's lat_ctx with no
 * data): PROCS processes in a ring of pipes pass an 8-byte token; the
 * parent times N rounds with clock_gettime(CLOCK_MONOTONIC), repeated R
 * times.  What is not a switch is taken off as kbench and lmbench take it:
 * one process writing the token into a pipe of its own and reading it back,
 * timed the same way, is a hop's cost without a switch.  Prints the median
 * of the R figures in microseconds per switch (a round over PROCS, less a
 * hop), and nothing else.
 *
 * With REF_BEST in the environment it prints the fastest of the R
 * instead: the fast state's figure, what kbench's level reads.
 * With REF_P5 it prints their 5th percentile instead (pick.h says why).
 *
 * Placement: same pins every process to the first CPU this process may
 * use; spread puts process k on the (k mod 2)-th, so neighbours differ;
 * none pins nothing.
 *
 * usage: ring PROCS same|spread|none [N [R]]   (defaults N=5000, R=11)
 * build: cc -O2 -o ring ring.c
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pick.h"

#define MAXPROCS 64

static int nth_cpu(int k)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set) && k-- == 0)
			return c;
	return -1;
}

static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		perror("sched_setaffinity");
		exit(1);
	}
}

/* Move the token from in to out, checking it is the one expected. */
static void hop(int in, int out, uint64_t *token)
{
	uint64_t got;

	if (write(out, token, sizeof(*token)) != sizeof(*token) ||
	    read(in, &got, sizeof(got)) != sizeof(got) || got != *token) {
		perror("token");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	int procs, n, r, fd[MAXPROCS][2], self[2], cpu[2];
	pid_t pid[MAXPROCS];
	double *t, *o;
	const char *place;

	if (argc < 3) {
		fprintf(stderr, "usage: ring PROCS same|spread|none [N [R]]\n");
		return 2;
	}
	procs = atoi(argv[1]);
	place = argv[2];
	n = argc > 3 ? atoi(argv[3]) : 5000;
	r = argc > 4 ? atoi(argv[4]) : 11;
	if (procs < 2 || procs > MAXPROCS || n < 1 || r < 1 || !(t = malloc(r * sizeof(*t))) ||
	    !(o = malloc(r * sizeof(*o))))
		return 2;
	cpu[0] = nth_cpu(0);
	cpu[1] = strcmp(place, "spread") == 0 ? nth_cpu(1) : cpu[0];
	if (strcmp(place, "none") == 0)
		cpu[0] = cpu[1] = -1;
	else if (strcmp(place, "same") != 0 && strcmp(place, "spread") != 0) {
		fprintf(stderr, "ring: unknown placement '%s'\n", place);
		return 2;
	}
	/* fd[k]: process k reads fd[k][0]; process k-1 writes fd[k][1]. */
	for (int k = 0; k < procs; k++)
		if (pipe(fd[k])) {
			perror("pipe");
			return 1;
		}
	if (pipe(self)) {
		perror("pipe");
		return 1;
	}
	for (int k = 1; k < procs; k++) {
		if ((pid[k] = fork()) < 0) {
			perror("fork");
			return 1;
		}
		if (pid[k] == 0) {
			uint64_t token;

			pin(cpu[k % 2]);
			for (;;) {
				if (read(fd[k][0], &token, sizeof(token)) != sizeof(token))
					_exit(0);
				if (write(fd[(k + 1) % procs][1], &token, sizeof(token)) != sizeof(token))
					_exit(1);
			}
		}
	}
	pin(cpu[0]);
	for (int k = -1; k < r; k++) {
		uint64_t token = 0;
		double t0 = ref_now_ns();

		for (int i = 0; i < n; i++, token++)
			hop(fd[0][0], fd[1][1], &token);
		if (k >= 0)
			t[k] = (ref_now_ns() - t0) / n;
		t0 = ref_now_ns();
		for (int i = 0; i < n; i++, token++)
			hop(self[0], self[1], &token);
		if (k >= 0)
			o[k] = (ref_now_ns() - t0) / n;
	}
	for (int k = 1; k < procs; k++)
		kill(pid[k], SIGKILL);
	while (wait(NULL) > 0)
		;
	for (int k = 0; k < r; k++)
		t[k] = (t[k] / procs - o[k]) / 1e3;
	printf("%.3f\n", ref_pick(t, r));
	return 0;
}

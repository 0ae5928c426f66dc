/*
 * Plain reference for kbench's proc.fork: fork(), the child calls _exit(0)
 * at once, the parent waitpid()s it and checks the status; N of these are
 * timed with clock_gettime(CLOCK_MONOTONIC), repeated R times; prints the
 * median of the R figures in microseconds per fork+exit+wait, and nothing
 * else, on stdout.  This is a minimal process (libc only): compare its
 * memory mappings with kbench's using -m.
 *
 * With REF_BEST in the environment it prints the fastest of the R
 * instead: the fast state's figure, what kbench's level reads.
 * With REF_P5 it prints their 5th percentile instead (pick.h says why).
 *
 * usage: fork_loop [N [R]]     (defaults N=200, R=21)
 *        fork_loop -m          print this process's size: the number of
 *                              mappings (lines of /proc/self/maps), then
 *                              VmRSS and VmPTE (kB) from /proc/self/status
 * build: cc -O2 -o fork_loop fork_loop.c
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pick.h"

static int count_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	int c, lines = 0;

	if (!f)
		return -1;
	while ((c = getc(f)) != EOF)
		lines += c == '\n';
	fclose(f);
	return lines;
}

/* A "Name:   123 kB" field of /proc/self/status, or -1. */
static long status_kb(const char *name)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	size_t len = strlen(name);
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, name, len) == 0 && line[len] == ':') {
			kb = atol(line + len + 1);
			break;
		}
	fclose(f);
	return kb;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "-m") == 0) {
		printf("%d %ld %ld\n", count_maps(), status_kb("VmRSS"), status_kb("VmPTE"));
		return 0;
	}
	long n = argc > 1 ? atol(argv[1]) : 200;
	int r = argc > 2 ? atoi(argv[2]) : 21;
	double *v;

	if (n < 1 || r < 1 || !(v = malloc(sizeof(*v) * r))) {
		fprintf(stderr, "usage: fork_loop [N [R]] | fork_loop -m\n");
		return 2;
	}
	for (int k = -1; k < r; k++) {	/* k = -1: warm-up, discarded */
		double t0 = ref_now_ns();
		for (long i = 0; i < n; i++) {
			int status;
			pid_t pid = fork();
			if (pid < 0) {
				perror("fork");
				return 1;
			}
			if (pid == 0)
				_exit(0);
			if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
			    WEXITSTATUS(status) != 0) {
				fprintf(stderr, "child did not exit 0\n");
				return 1;
			}
		}
		double t1 = ref_now_ns();
		if (k >= 0)
			v[k] = (t1 - t0) / n / 1e3;
	}
	printf("%.1f\n", ref_pick(v, r));
	return 0;
}

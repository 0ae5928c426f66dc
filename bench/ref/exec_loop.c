/*
 * Plain reference for kbench's proc.exec and proc.shell: fork(), the
 * child execve()s PROG (exec) or /bin/sh -c PROG (sh), the parent
 * waitpid()s it and checks that it exited by itself (126 and 127, the
 * shell's and our own "could not execute", fail); N of these are timed with
 * clock_gettime(CLOCK_MONOTONIC), repeated R times; prints the median of
 * the R figures in microseconds per fork+exec+wait, and nothing else.
 * PROG is kbench-tiny (build/kbench-tiny) to compare with kbench: a
 * static program that exits at once.  The environment is empty, as
 * kbench's is for these.  A minimal process (libc only), as
 * fork_loop is for proc.fork.
 *
 * With REF_BEST in the environment it prints the fastest of the R
 * instead: the fast state's figure, what kbench's level reads.
 * With REF_P5 it prints their 5th percentile instead (pick.h says why).
 *
 * usage: exec_loop exec|sh PROG [N [R]]     (defaults N=100, R=11)
 * build: cc -O2 -o exec_loop exec_loop.c
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pick.h"

int main(int argc, char **argv)
{
	char *const envp[] = { NULL };
	int sh, n, r;
	double *t;

	if (argc < 3 || (strcmp(argv[1], "exec") != 0 && strcmp(argv[1], "sh") != 0)) {
		fprintf(stderr, "usage: exec_loop exec|sh PROG [N [R]]\n");
		return 2;
	}
	sh = strcmp(argv[1], "sh") == 0;
	n = argc > 3 ? atoi(argv[3]) : 100;
	r = argc > 4 ? atoi(argv[4]) : 11;
	if (n < 1 || r < 1 || !(t = malloc(r * sizeof(*t))))
		return 2;
	for (int k = -1; k < r; k++) {
		double t0 = ref_now_ns();

		for (int i = 0; i < n; i++) {
			char *const xargv[] = { argv[2], NULL };
			char *const sargv[] = { "sh", "-c", argv[2], NULL };
			int status;
			pid_t pid = fork();

			if (pid < 0) {
				perror("fork");
				return 1;
			}
			if (pid == 0) {
				execve(sh ? "/bin/sh" : argv[2], sh ? sargv : xargv, envp);
				_exit(127);
			}
			if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
			    WEXITSTATUS(status) == 126 || WEXITSTATUS(status) == 127) {
				fprintf(stderr, "exec_loop: %s could not be run\n", argv[2]);
				return 1;
			}
		}
		/* The first repetition warms the caches and the page cache: not kept. */
		if (k >= 0)
			t[k] = (ref_now_ns() - t0) / n / 1e3;
	}
	printf("%.2f\n", ref_pick(t, r));
	return 0;
}

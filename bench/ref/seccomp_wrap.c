/*
 * A real change to the cost of every system call, made at runtime and
 * sized on its own: run a command under seccomp filters that let every
 * call through after N comparisons of its first argument in all (a filter
 * holds at most 2000, BPF's 4096 instructions; more are stacked, and each
 * filter's entry costs on its own).  Reading an
 * argument keeps the kernel from caching the filter's answer per call
 * number (the seccomp action cache, Linux 5.11), so every call of the
 * command and of everything it starts runs the N comparisons.  Used by
 * bench/ab_sensitivity.sh as kbench ab's --wrap-b; its size is measured
 * by getppid_loop run plain and under it.
 *
 * usage: seccomp_wrap N COMMAND [ARG...]     (N from 0 to 100000)
 *        seccomp_wrap none COMMAND [ARG...]  no filter: the control, so
 *        that A starts its command through the same program, with the
 *        same environment, as B, and the filter is all that differs
 * build: cc -O2 -o seccomp_wrap seccomp_wrap.c
 */
#define _GNU_SOURCE
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* One filter of n comparisons, installed: 0, or -1 with errno. */
static int install(long n)
{
	struct sock_filter *f = calloc((size_t)(2 * n + 1), sizeof(*f));
	struct sock_fprog prog;
	int rc;

	if (!f)
		return -1;
	for (long i = 0; i < n; i++) {
		f[2 * i] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
							offsetof(struct seccomp_data, args[0]));
		/* Never taken either way: both branches go on to the next comparison. */
		f[2 * i + 1] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							  0xdeadbeefu, 0, 0);
	}
	f[2 * n] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)(2 * n + 1);
	prog.filter = f;
	rc = prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
	free(f);
	return rc;
}

int main(int argc, char **argv)
{
	int none = argc > 2 && strcmp(argv[1], "none") == 0;
	char *end = NULL;
	long n = none ? 0 : argc > 2 ? strtol(argv[1], &end, 10) : -1;

	if (end && (end == argv[1] || *end))
		n = -1;

	if (n < 0 || n > 100000) {
		fprintf(stderr, "usage: seccomp_wrap N|none COMMAND [ARG...]   (N from 0 to 100000)\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		perror("seccomp_wrap: no_new_privs");
		return 1;
	}
	while (!none) {
		long k = n > 2000 ? 2000 : n;

		if (install(k) != 0) {
			perror("seccomp_wrap: seccomp");
			return 1;
		}
		n -= k;
		if (n <= 0)
			break;
	}
	execvp(argv[2], argv + 2);
	perror("seccomp_wrap: exec");
	return 127;
}

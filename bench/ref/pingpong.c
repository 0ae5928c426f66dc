/*
 * Plain reference for kbench's ipc.{pipe,unix,udp,tcp}.lat: a child echoes
 * one byte back over the channel, the parent times N round trips with
 * clock_gettime(CLOCK_MONOTONIC), repeated R times; prints the median of
 * the R figures in microseconds per round trip, and nothing else.
 *
 * Where the two ends run: same pins both to the first CPU this process may
 * use, spread the parent to the first and the child to the second, none
 * pins nothing (the scheduler decides, and on a VM the figure then depends
 * on whether it put them together: see kbench's placement modes).
 *
 * Channels: pipe (two pipes), unix (socketpair(AF_UNIX, SOCK_STREAM)), udp
 * and tcp (on 127.0.0.1, TCP_NODELAY so a one-byte message goes at once).
 *
 * With REF_BEST in the environment it prints the fastest of the R
 * instead: the fast state's figure, what kbench's level reads.
 * With REF_P5 it prints their 5th percentile instead (pick.h says why).
 *
 * usage: pingpong pipe|unix|udp|tcp same|spread|none [N [R]]   (defaults N=20000, R=11)
 * build: cc -O2 -o pingpong pingpong.c
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pick.h"

/* The k-th CPU this process may run on, or -1. */
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

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* A connected pair of UDP or TCP sockets on 127.0.0.1: fd[0] the parent's, fd[1] the child's. */
static void inet_pair(int type, int fd[2])
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in b = a;
	socklen_t len = sizeof(a);
	int one = 1, l;

	if (type == SOCK_DGRAM) {
		fd[0] = socket(AF_INET, SOCK_DGRAM, 0);
		fd[1] = socket(AF_INET, SOCK_DGRAM, 0);
		if (fd[0] < 0 || fd[1] < 0 || bind(fd[0], (void *)&a, sizeof(a)) ||
		    bind(fd[1], (void *)&b, sizeof(b)) || getsockname(fd[0], (void *)&a, &len) ||
		    (len = sizeof(b), getsockname(fd[1], (void *)&b, &len)) ||
		    connect(fd[0], (void *)&b, sizeof(b)) || connect(fd[1], (void *)&a, sizeof(a)))
			die("udp");
		return;
	}
	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || bind(l, (void *)&a, sizeof(a)) || listen(l, 1) ||
	    getsockname(l, (void *)&a, &len))
		die("tcp listen");
	fd[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (fd[0] < 0 || connect(fd[0], (void *)&a, sizeof(a)))
		die("tcp connect");
	if ((fd[1] = accept(l, NULL, NULL)) < 0)
		die("accept");
	close(l);
	setsockopt(fd[0], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(fd[1], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

int main(int argc, char **argv)
{
	int rd[2], wr[2], n, r, cpu0, cpu1;
	const char *ch, *place;
	double *t;
	pid_t pid;
	char c = 'x';

	if (argc < 3) {
		fprintf(stderr, "usage: pingpong pipe|unix|udp|tcp same|spread|none [N [R]]\n");
		return 2;
	}
	ch = argv[1];
	place = argv[2];
	n = argc > 3 ? atoi(argv[3]) : 20000;
	r = argc > 4 ? atoi(argv[4]) : 11;
	if (n < 1 || r < 1 || !(t = malloc(r * sizeof(*t))))
		return 2;
	/* rd[0]: the parent reads the echo; wr[1]: the parent writes; the child the other two. */
	if (strcmp(ch, "pipe") == 0) {
		if (pipe(rd) || pipe(wr))
			die("pipe");
	} else if (strcmp(ch, "unix") == 0 || strcmp(ch, "udp") == 0 || strcmp(ch, "tcp") == 0) {
		int s[2];

		if (strcmp(ch, "unix") == 0) {
			if (socketpair(AF_UNIX, SOCK_STREAM, 0, s))
				die("socketpair");
		} else {
			inet_pair(strcmp(ch, "udp") == 0 ? SOCK_DGRAM : SOCK_STREAM, s);
		}
		rd[0] = wr[1] = s[0];
		wr[0] = rd[1] = s[1];
	} else {
		fprintf(stderr, "pingpong: unknown channel '%s'\n", ch);
		return 2;
	}
	cpu0 = nth_cpu(0);
	cpu1 = strcmp(place, "spread") == 0 ? nth_cpu(1) : cpu0;
	if (strcmp(place, "none") == 0)
		cpu0 = cpu1 = -1;
	else if (strcmp(place, "same") != 0 && strcmp(place, "spread") != 0) {
		fprintf(stderr, "pingpong: unknown placement '%s'\n", place);
		return 2;
	} else if (cpu0 < 0 || cpu1 < 0) {
		fprintf(stderr, "pingpong: not enough CPUs for '%s'\n", place);
		return 2;
	}
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		pin(cpu1);
		for (;;) {
			if (read(wr[0], &c, 1) != 1)
				_exit(0);
			if (write(rd[1], &c, 1) != 1)
				_exit(1);
		}
	}
	pin(cpu0);
	for (int k = -1; k < r; k++) {
		double t0 = ref_now_ns();

		for (int i = 0; i < n; i++)
			if (write(wr[1], &c, 1) != 1 || read(rd[0], &c, 1) != 1)
				die("round trip");
		/* The first repetition warms up: not kept. */
		if (k >= 0)
			t[k] = (ref_now_ns() - t0) / n / 1e3;
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	printf("%.3f\n", ref_pick(t, r));
	return 0;
}

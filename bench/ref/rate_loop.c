/*
 * Plain reference for kbench's rate family: one call in a loop lasting
 * about MS milliseconds, timed with CLOCK_MONOTONIC, repeated R times;
 * prints the median of the R figures in calls per second, and nothing else.
 * The loop's length is found first by doubling it until one loop lasts MS.
 *
 * Every call's return value is checked, as kbench's loops check them, so no
 * call can be dropped and no sink adds its store to every call (an earlier
 * version's volatile sink cost about 0.6 ns of a 35 ns clock_gettime).  The
 * clocks' last reading must lie after their first.  MS 10 times windows
 * as long as kbench's samples are; a hand-written loop often times one long
 * window, which holds more of the timer ticks and the host's interruptions.
 *
 * With REF_BEST in the environment it prints the fastest of the R (the
 * most calls per second) instead, with REF_P5 their 5th percentile (pick.h
 * says why): the fast state's figure, what kbench's level reads.
 *
 * usage: rate_loop CALL [MS [R]]   (defaults MS=10, R=21)
 *   CALL: getppid write read socket select gettimeofday clock_gettime
 *         clock_gettime_coarse time
 * build: cc -O2 -o rate_loop rate_loop.c
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "pick.h"

static int fd = -1;			/* write's /dev/null, read's /dev/zero */
static int pipes[10][2];		/* select's, nothing ever written */
static int maxfd;

static int loop_getppid(long n)
{
	for (long i = 0; i < n; i++)
		if (syscall(SYS_getppid) <= 0)
			return -1;
	return 0;
}

static int loop_write(long n)
{
	char c = 0;

	for (long i = 0; i < n; i++)
		if (write(fd, &c, 1) != 1)
			return -1;
	return 0;
}

static int loop_read(long n)
{
	char c = 1;

	for (long i = 0; i < n; i++)
		if (read(fd, &c, 1) != 1 || c != 0)
			return -1;
	return 0;
}

static int loop_socket(long n)
{
	for (long i = 0; i < n; i++) {
		int s = socket(AF_INET, SOCK_STREAM, 0);

		if (s < 0 || close(s) != 0)
			return -1;
	}
	return 0;
}

static int loop_select(long n)
{
	for (long i = 0; i < n; i++) {
		fd_set set;
		struct timeval tv = { 0, 0 };

		FD_ZERO(&set);
		for (int p = 0; p < 10; p++)
			FD_SET(pipes[p][0], &set);
		if (select(maxfd + 1, &set, NULL, NULL, &tv) != 0)
			return -1;
	}
	return 0;
}

static int loop_gettimeofday(long n)
{
	struct timeval first, tv = { 0, 0 };

	if (gettimeofday(&first, NULL) != 0)
		return -1;
	for (long i = 1; i < n; i++)
		if (gettimeofday(&tv, NULL) != 0)
			return -1;
	return n > 1 && tv.tv_sec * 1000000L + tv.tv_usec < first.tv_sec * 1000000L + first.tv_usec;
}

static int clock_loop(clockid_t clock, long n)
{
	struct timespec first, ts = { 0, 0 };

	if (clock_gettime(clock, &first) != 0)
		return -1;
	for (long i = 1; i < n; i++)
		if (clock_gettime(clock, &ts) != 0)
			return -1;
	return n > 1 && ts.tv_sec * 1000000000L + ts.tv_nsec <
			first.tv_sec * 1000000000L + first.tv_nsec;
}

static int loop_clock_gettime(long n)
{
	return clock_loop(CLOCK_MONOTONIC, n);
}

static int loop_clock_gettime_coarse(long n)
{
	return clock_loop(CLOCK_MONOTONIC_COARSE, n);
}

static int loop_time(long n)
{
	time_t first = time(NULL), t = first;

	for (long i = 1; i < n; i++)
		if ((t = time(NULL)) == (time_t)-1)
			return -1;
	return first == (time_t)-1 || t < first;
}

static const struct {
	const char *name;
	int (*loop)(long n);
} calls[] = {
	{ "getppid", loop_getppid }, { "write", loop_write }, { "read", loop_read },
	{ "socket", loop_socket }, { "select", loop_select },
	{ "gettimeofday", loop_gettimeofday }, { "clock_gettime", loop_clock_gettime },
	{ "clock_gettime_coarse", loop_clock_gettime_coarse }, { "time", loop_time },
};

int main(int argc, char **argv)
{
	double ms = argc > 2 ? atof(argv[2]) : 10;
	long n = 1, r = argc > 3 ? atol(argv[3]) : 21;
	int (*loop)(long) = NULL;
	double *fig = malloc(sizeof(double) * (size_t)(r > 0 ? r : 1));

	for (size_t i = 0; argc > 1 && i < sizeof(calls) / sizeof(calls[0]); i++)
		if (strcmp(argv[1], calls[i].name) == 0)
			loop = calls[i].loop;
	if (!loop || !fig || !(ms > 0) || r < 1) {
		fprintf(stderr, "usage: rate_loop CALL [MS [R]]\n");
		return 2;
	}
	if (loop == loop_write)
		fd = open("/dev/null", O_WRONLY);
	else if (loop == loop_read)
		fd = open("/dev/zero", O_RDONLY);
	for (int p = 0; loop == loop_select && p < 10; p++) {
		if (pipe(pipes[p]) != 0)
			return 1;
		if (pipes[p][0] > maxfd)
			maxfd = pipes[p][0];
	}
	if ((loop == loop_write || loop == loop_read) && fd < 0)
		return 1;
	for (;;) {
		double t0 = ref_now_ns();

		if (loop(n) != 0)
			break;
		if (ref_now_ns() - t0 >= ms * 1e6 || n > (1L << 40))
			break;
		n *= 2;
	}
	for (long k = -1; k < r; k++) {
		double t0 = ref_now_ns(), t1;

		if (loop(n) != 0) {
			fprintf(stderr, "rate_loop: %s failed\n", argv[1]);
			return 1;
		}
		t1 = ref_now_ns();
		if (k >= 0)
			fig[k] = (t1 - t0) / 1e9 / (double)n;
	}
	/* A rate, picked as its time per operation is: the reciprocal. */
	printf("%.0f\n", 1.0 / ref_pick(fig, r));
	return 0;
}

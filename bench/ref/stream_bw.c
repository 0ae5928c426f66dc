/*
 * Plain reference for kbench's ipc.{pipe,unix,tcp}.bw: a child writes an
 * endless stream in chunks of 64 KiB (the same size kbench's peer writes),
 * the parent reads it with read() of one chunk at a time, and times how
 * long TOTAL_MB x 10^6 bytes take to arrive, with
 * clock_gettime(CLOCK_MONOTONIC); prints MB/s (MB = 10^6 bytes, as kbench)
 * and nothing else on stdout.  The first 64 chunks are read before the clock
 * starts, so fork, connect and the first page faults are not timed.  No
 * checksum, no check that every read was a whole chunk: the simplest
 * honest loop, which kbench (reading whole chunks and summing them) should
 * match, not beat by much.
 *
 * Channels: pipe (pipe()), unix (socketpair(AF_UNIX, SOCK_STREAM)), tcp (a
 * connection on 127.0.0.1, Nagle left on: a stream of full chunks does not
 * wait for it).  READER_CPU and WRITER_CPU pin the two ends with
 * sched_setaffinity (-1: leave it to the scheduler), so that the "spread"
 * placement, which taskset cannot express, can be reproduced.
 *
 * Two options add what kbench does differently, to measure what each costs:
 * -s reads whole chunks (looping on short reads) and sums each chunk's
 * 64-bit words with two accumulators, kbench's stream check; -n sets
 * TCP_NODELAY on both ends of the tcp connection, as kbench does for all its
 * TCP benchmarks.
 *
 * With REF_BEST in the environment it prints the fastest of the stream's
 * SLICES (20) slices of TOTAL_MB / SLICES each, timed one by one, instead
 * (the most MB/s): the fast state's figure, what kbench's level reads.
 * REF_P5 reads as REF_BEST: of 20 repetitions the 5th percentile is the
 * fastest but one, which this program does not keep.
 *
 * usage: stream_bw [-s] [-n] pipe|unix|tcp [TOTAL_MB [CHUNK_KIB [READER_CPU WRITER_CPU]]]
 *        (defaults 2000 MB, 64 KiB, -1 -1)
 * build: cc -O2 -o stream_bw stream_bw.c
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Chunks read before the clock starts. */
#define WARM_CHUNKS 64
/* REF_BEST's repetitions: the stream cut in this many, 100 MB each of 2000. */
#define SLICES 20

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* A connected TCP pair on 127.0.0.1: fds[0] reads, fds[1] writes. */
static int tcp_pair(int fds[2], int nodelay)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int lfd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&a, &len) < 0 || listen(lfd, 1) < 0)
		return -1;
	fds[1] = socket(AF_INET, SOCK_STREAM, 0);
	if (fds[1] < 0 || connect(fds[1], (struct sockaddr *)&a, sizeof(a)) < 0)
		return -1;
	fds[0] = accept(lfd, NULL, NULL);
	close(lfd);
	if (fds[0] < 0)
		return -1;
	if (nodelay && (setsockopt(fds[0], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0 ||
			setsockopt(fds[1], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0))
		return -1;
	return 0;
}

/* The sum kbench's reader takes of every chunk (bench/peer.c). */
static uint64_t sum_words(const void *buf, size_t len)
{
	const uint64_t *w = buf;
	uint64_t a = 0, b = 0;
	size_t n = len / sizeof(*w), i;

	for (i = 0; i + 1 < n; i += 2) {
		a += w[i];
		b += w[i + 1];
	}
	if (i < n)
		a += w[i];
	return a + b;
}

/* Read exactly len bytes: the byte count, or 0 when the stream stopped. */
static ssize_t read_full(int fd, unsigned char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t k = read(fd, buf + got, len - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return 0;
		got += (size_t)k;
	}
	return (ssize_t)got;
}

int main(int argc, char **argv)
{
	int summing = 0, nodelay = 0;
	volatile uint64_t sink = 0;

	for (; argc > 1 && argv[1][0] == '-' && argv[1][1] != '\0'; argc--, argv++) {
		if (strcmp(argv[1], "-s") == 0)
			summing = 1;
		else if (strcmp(argv[1], "-n") == 0)
			nodelay = 1;
		else
			break;
	}
	const char *mode = argc > 1 ? argv[1] : "";
	double total = (argc > 2 ? atof(argv[2]) : 2000) * 1e6;
	size_t chunk = (size_t)(argc > 3 ? atol(argv[3]) : 64) * 1024;
	int rcpu = argc > 5 ? atoi(argv[4]) : -1, wcpu = argc > 5 ? atoi(argv[5]) : -1;
	int fds[2], rc;
	unsigned char *buf;
	double got = 0, t0, t1, slice, from = 0, best = 0;
	pid_t pid;

	if (total <= 0 || chunk == 0 || !(buf = malloc(chunk))) {
		fprintf(stderr, "usage: stream_bw [-s] [-n] pipe|unix|tcp [TOTAL_MB [CHUNK_KIB [READER_CPU WRITER_CPU]]]\n");
		return 2;
	}
	/* Touch the buffer, so neither end copies from or to the zero page. */
	memset(buf, 0x5a, chunk);
	if (strcmp(mode, "pipe") == 0)
		rc = pipe(fds);
	else if (strcmp(mode, "unix") == 0)
		rc = socketpair(AF_UNIX, SOCK_STREAM, 0, fds);
	else if (strcmp(mode, "tcp") == 0)
		rc = tcp_pair(fds, nodelay);
	else {
		fprintf(stderr, "stream_bw: unknown mode '%s' (pipe, unix or tcp)\n", mode);
		return 2;
	}
	if (rc < 0) {
		perror(mode);
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		close(fds[0]);
		if (pin(wcpu) < 0)
			_exit(3);
		/* Write until the reader goes away (EPIPE, ECONNRESET). */
		for (;;)
			if (write(fds[1], buf, chunk) < 0 && errno != EINTR)
				_exit(0);
	}
	close(fds[1]);
	if (pin(rcpu) < 0) {
		perror("sched_setaffinity");
		kill(pid, SIGKILL);
		return 1;
	}
	for (int i = 0; i < WARM_CHUNKS; i++)
		if (read(fds[0], buf, chunk) <= 0) {
			fprintf(stderr, "stream_bw: the stream stopped during warm-up\n");
			return 1;
		}
	/*
	 * The clock is also read where each slice ends, so that REF_BEST has
	 * the fastest: one read every TOTAL_MB / SLICES costs nothing the whole
	 * stream's figure would see.  A slice ends at the first chunk past its
	 * share; its rate counts the bytes it did get.
	 */
	slice = total / SLICES;
	t0 = t1 = now_s();
	while (got < total) {
		ssize_t k = summing ? read_full(fds[0], buf, chunk) : read(fds[0], buf, chunk);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			fprintf(stderr, "stream_bw: the stream stopped\n");
			return 1;
		}
		if (summing)
			sink += sum_words(buf, chunk);
		got += (double)k;
		if (got - from >= slice || got >= total) {
			double end = now_s();

			if ((got - from) / (end - t1) > best)
				best = (got - from) / (end - t1);
			from = got;
			t1 = end;
		}
	}
	close(fds[0]);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	printf("%.1f\n", ((getenv("REF_BEST") || getenv("REF_P5")) ? best : got / (t1 - t0)) / 1e6);
	return 0;
}

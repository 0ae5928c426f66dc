/*
 * Plain reference for kbench's virtual memory rows; prints the median of
 * R figures and nothing else:
 *
 *   anon   vm.page_fault_anon: a fresh anonymous mapping of N pages without
 *          huge pages, one byte written in each; us per real fault (the
 *          minor faults counted by getrusage, as kbench counts them)
 *   file   vm.page_fault: a cached file of N pages mapped read-only, one
 *          byte read from each page; us per real fault (fault-around maps
 *          several pages a fault).  The whole file is walked, as kbench
 *          and lmbench's lat_pagefault walk theirs (64 MiB, N 16384): a
 *          fault costs more the more of the page cache's metadata the walk
 *          covers (2.3 us a fault over 16 MiB here, 3.4 over 64 MiB)
 *   prot   vm.prot_fault: a write to a read-only page, caught as SIGSEGV and
 *          jumped over with siglongjmp; us per write
 *   mmap   vm.mmap: mmap of an 8 MiB file MAP_SHARED, a byte written every
 *          16 KiB of its first tenth, munmap; us per cycle
 *
 * Files go in DIR (default /tmp) and are removed.  The first repetition is
 * not kept.
 *
 * With REF_BEST in the environment it prints the fastest of the R
 * instead: the fast state's figure, what kbench's level reads.
 * With REF_P5 it prints their 5th percentile instead (pick.h says why).
 *
 * usage: faults anon|file|prot|mmap [N [R [DIR]]]   (defaults N=4096 (file 16384, mmap 200,
 *        prot 100000), R=11)
 * build: cc -O2 -o faults faults.c
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "pick.h"

static long minflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* A file of size bytes in dir, written and so cached, unlinked at once: its descriptor. */
static int cached_file(const char *dir, size_t size)
{
	char path[4096], buf[65536];
	int fd;

	snprintf(path, sizeof(path), "%s/faults.XXXXXX", dir);
	if ((fd = mkstemp(path)) < 0)
		die("mkstemp");
	unlink(path);
	memset(buf, 0x5a, sizeof(buf));
	for (size_t done = 0; done < size; done += sizeof(buf))
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			die("write");
	return fd;
}

static sigjmp_buf env;
static volatile long caught;

static void on_segv(int sig)
{
	(void)sig;
	caught++;
	siglongjmp(env, 1);
}

/*
 * prot's repetition: n writes to a read-only page, ns per write.  Its own
 * function, so that sigsetjmp's second return cannot clobber main's
 * variables held in registers.
 */
static double prot_writes(long page, int n)
{
	volatile char *p = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct sigaction sa;
	volatile int i;
	double t0, per;

	if (p == MAP_FAILED)
		die("mmap");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	caught = 0;
	t0 = ref_now_ns();
	for (i = 0; i < n; i++)
		if (sigsetjmp(env, 0) == 0)
			p[0] = 1;
	per = (ref_now_ns() - t0) / n;
	if (caught != n)
		die("missed a SIGSEGV");
	munmap((void *)p, page);
	return per;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "", *dir;
	long page = sysconf(_SC_PAGESIZE);
	int n, r, fd = -1;
	double *t;

	if (strcmp(what, "anon") && strcmp(what, "file") && strcmp(what, "prot") && strcmp(what, "mmap")) {
		fprintf(stderr, "usage: faults anon|file|prot|mmap [N [R [DIR]]]\n");
		return 2;
	}
	n = argc > 2 ? atoi(argv[2]) : !strcmp(what, "mmap") ? 200 : !strcmp(what, "prot") ? 100000 :
	    !strcmp(what, "file") ? 16384 : 4096;
	r = argc > 3 ? atoi(argv[3]) : 11;
	dir = argc > 4 ? argv[4] : "/tmp";
	if (n < 1 || r < 1 || !(t = malloc(r * sizeof(*t))))
		return 2;
	if (!strcmp(what, "file"))
		fd = cached_file(dir, (size_t)n * page);
	if (!strcmp(what, "mmap"))
		fd = cached_file(dir, 8u << 20);
	for (int k = -1; k < r; k++) {
		double t0, per = 0;
		long f0;

		if (!strcmp(what, "anon") || !strcmp(what, "file")) {
			volatile char *p = !strcmp(what, "anon")
				? mmap(NULL, (size_t)n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
				: mmap(NULL, (size_t)n * page, PROT_READ, MAP_SHARED, fd, 0);
			long faults;
			char sink = 0;

			if (p == MAP_FAILED)
				die("mmap");
			if (!strcmp(what, "anon"))
				madvise((void *)p, (size_t)n * page, MADV_NOHUGEPAGE);
			f0 = minflt();
			t0 = ref_now_ns();
			for (long off = 0; off < (long)n * page; off += page) {
				if (!strcmp(what, "anon"))
					p[off] = 1;
				else
					sink += p[off];
			}
			per = ref_now_ns() - t0;
			faults = minflt() - f0;
			if (faults < 1)
				die("no fault");
			per /= faults;
			munmap((void *)p, (size_t)n * page);
			(void)sink;
		} else if (!strcmp(what, "prot")) {
			per = prot_writes(page, n);
		} else {
			size_t size = 8u << 20;

			t0 = ref_now_ns();
			for (int i = 0; i < n; i++) {
				volatile char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

				if (p == MAP_FAILED)
					die("mmap");
				for (size_t off = 0; off < size / 10; off += 16384)
					p[off] = (char)i;
				munmap((void *)p, size);
			}
			per = (ref_now_ns() - t0) / n;
		}
		if (k >= 0)
			t[k] = per / 1e3;
	}
	printf("%.4f\n", ref_pick(t, r));
	return 0;
}

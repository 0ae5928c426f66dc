/*
 * Plain reference for kbench's lock.* rows: one locking primitive in a
 * loop of N iterations of 8 operations each (a round trip for handoff),
 * timed with clock_gettime(CLOCK_MONOTONIC), repeated R times; prints the
 * median of the R figures in ns per operation, and nothing else.  No
 * calibration, no overhead subtraction, one discarded repetition.
 *
 * With REF_BEST in the environment it prints the fastest of the R
 * instead: the fast state's figure, what kbench's level reads.
 * With REF_P5 it prints their 5th percentile instead (pick.h says why).
 *
 * usage: locks OP [same|spread] [N [R]]   (N: 5000 handoffs, 2000 iterations of a
 *        futex call, 100000 of mfence, 500000 of the others; R: 21)
 *   OP: add xchg cas lfence sfence mfence mutex spin futex_wake futex_wait
 *       handoff (handoff takes same or spread: both processes on CPU 0, or
 *       on CPUs 0 and 1)
 * build: cc -O2 -o locks locks.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pick.h"

#define EIGHT(op) do { op; op; op; op; op; op; op; op; } while (0)

static void die(const char *what)
{
	fprintf(stderr, "locks: %s\n", what);
	exit(1);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		die("cannot pin to the CPU asked for");
}

static _Alignas(64) uint64_t word;
static _Alignas(64) uint32_t spin;
static _Alignas(64) uint32_t fword;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static volatile uint64_t *line;
static uint64_t turn;
/* Spins before a yield: at once on one CPU, where spinning waits for the tick. */
static unsigned limit = 256;

static void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("pause" ::: "memory");
#endif
}

static void loop(const char *op, long n)
{
	uint64_t next = word + 1, want;
	int e = 0;

	if (strcmp(op, "add") == 0) {
		for (long i = 0; i < n; i++)
			EIGHT(__atomic_fetch_add(&word, 1, __ATOMIC_SEQ_CST));
	} else if (strcmp(op, "xchg") == 0) {
		uint64_t bad = 0;
		for (long i = 0; i < n; i++) {
			EIGHT(bad |= __atomic_exchange_n(&word, next, __ATOMIC_SEQ_CST) ^ (next - 1); next++);
			if (bad)
				die("exchange chain broken");
		}
	} else if (strcmp(op, "cas") == 0) {
		int ok = 1;
		for (long i = 0; i < n && ok; i++)
			EIGHT(want = next - 1; ok &= __atomic_compare_exchange_n(&word, &want, next, 0,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); next++);
		if (!ok)
			die("compare-and-swap failed");
#if defined(__x86_64__) || defined(__i386__)
	} else if (strcmp(op, "lfence") == 0) {
		for (long i = 0; i < n; i++)
			EIGHT(__asm__ __volatile__("lfence" ::: "memory"));
	} else if (strcmp(op, "sfence") == 0) {
		for (long i = 0; i < n; i++)
			EIGHT(__asm__ __volatile__("sfence" ::: "memory"));
	} else if (strcmp(op, "mfence") == 0) {
		for (long i = 0; i < n; i++)
			EIGHT(__asm__ __volatile__("mfence" ::: "memory"));
#endif
	} else if (strcmp(op, "mutex") == 0) {
		for (long i = 0; i < n; i++)
			EIGHT(e |= pthread_mutex_lock(&mutex); word++; e |= pthread_mutex_unlock(&mutex));
		if (e)
			die("mutex failed");
	} else if (strcmp(op, "spin") == 0) {
		for (long i = 0; i < n; i++)
			EIGHT(while (__atomic_exchange_n(&spin, 1, __ATOMIC_ACQUIRE))
				      while (__atomic_load_n(&spin, __ATOMIC_RELAXED)) relax();
			      word++; __atomic_store_n(&spin, 0, __ATOMIC_RELEASE));
	} else if (strcmp(op, "futex_wake") == 0) {
		long r = 0;
		for (long i = 0; i < n; i++)
			EIGHT(r |= syscall(SYS_futex, &fword, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0));
		if (r)
			die("futex wake failed");
	} else if (strcmp(op, "futex_wait") == 0) {
		for (long i = 0; i < n; i++)
			for (int k = 0; k < 8; k++)
				if (syscall(SYS_futex, &fword, FUTEX_WAIT_PRIVATE, fword + 1, NULL, NULL, 0) != -1 ||
				    errno != EAGAIN)
					die("futex wait did not return EAGAIN");
	} else if (strcmp(op, "handoff") == 0) {
		for (long i = 0; i < n; i++) {
			uint64_t mine = turn + 1, t;
			unsigned spins = 0;

			__atomic_store_n(line, mine, __ATOMIC_RELEASE);
			while ((t = __atomic_load_n(line, __ATOMIC_ACQUIRE)) == mine)
				if (++spins % limit == 0)
					sched_yield();
				else
					relax();
			if (t != mine + 1)
				die("handoff turn wrong");
			turn = t;
		}
	} else {
		die("unknown operation (add xchg cas lfence sfence mfence mutex spin futex_wake futex_wait handoff)");
	}
}

int main(int argc, char **argv)
{
	const char *op = argc > 1 ? argv[1] : "";
	int handoff = strcmp(op, "handoff") == 0, a = 2, spread = 0;
	long n;
	int r;
	double *v;
	pid_t peer = -1;

	if (handoff && argc > 2 && (strcmp(argv[2], "same") == 0 || strcmp(argv[2], "spread") == 0))
		spread = strcmp(argv[a++], "spread") == 0;
	if (handoff && !spread)
		limit = 1;
	/* About 10 to 50 ms a repetition here: a system call is 100 times an atomic. */
	n = argc > a ? atol(argv[a]) : handoff ? 5000 : strncmp(op, "futex", 5) == 0 ? 2000
		: strcmp(op, "mfence") == 0 ? 100000 : 500000;
	r = argc > a + 1 ? atoi(argv[a + 1]) : 21;
	if (argc < 2 || n < 1 || r < 1 || !(v = malloc(sizeof(*v) * r))) {
		fprintf(stderr, "usage: locks OP [same|spread] [N [R]]\n");
		return 2;
	}
	if (handoff) {
		line = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (line == MAP_FAILED)
			die("mmap");
		pin(0);
		peer = fork();
		if (peer < 0)
			die("fork");
		if (peer == 0) {
			uint64_t seen = 0, t;
			unsigned spins = 0;

			pin(spread ? 1 : 0);
			for (;;) {
				while ((t = __atomic_load_n(line, __ATOMIC_ACQUIRE)) == seen || !(t & 1))
					if (++spins % limit == 0)
						sched_yield();
					else
						relax();
				if (t == UINT64_MAX)
					_exit(0);
				seen = t + 1;
				__atomic_store_n(line, seen, __ATOMIC_RELEASE);
			}
		}
	}
	for (int k = -1; k < r; k++) {	/* k = -1: warm-up, discarded */
		double t0 = ref_now_ns();
		loop(op, n);
		double t1 = ref_now_ns();
		if (k >= 0)
			v[k] = (t1 - t0) / n / (handoff ? 1 : 8);
	}
	if (peer > 0) {
		__atomic_store_n(line, UINT64_MAX, __ATOMIC_RELEASE);
		kill(peer, SIGKILL);
		waitpid(peer, NULL, 0);
	}
	printf("%.2f\n", ref_pick(v, r));
	return 0;
}

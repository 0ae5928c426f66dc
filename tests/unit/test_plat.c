/*
 * Tests of the platform layer, its fault injection and sysinfo.  They run
 * on the real machine, so checks are about sanity (monotonic, in range,
 * grows when work is done), not exact values.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/peer.h"
#include "config.h"
#include "core/bench.h"
#include "core/sysinfo.h"
#include "core/timer.h"
#include "plat/plat.h"

static const char *test_argv0;

/*
 * Skip, with the reason, a test of what this platform file does not offer
 * (ENOSYS: the posix platform has no /proc, affinity or pdeathsig).
 */
#define TEST_NEED(rc, what)                                                              \
	do {                                                                             \
		if ((rc) < 0 && errno == ENOSYS) {                                       \
			print_message("# %s: not on the %s platform\n", what, KB_PLATFORM); \
			skip();                                                          \
		}                                                                        \
	} while (0)

static uint64_t test_cpu_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Spin until this process (or thread) has used ms of CPU time. */
static void test_burn_ms(unsigned ms)
{
	uint64_t end = test_cpu_ns(CLOCK_PROCESS_CPUTIME_ID) + (uint64_t)ms * 1000000u;
	uint64_t x = 0;

	while (test_cpu_ns(CLOCK_PROCESS_CPUTIME_ID) < end)
		x++;
	timer_sink = x;
}

static void test_cpu_times_sane(void **state)
{
	struct plat_cpu_times a, b;

	(void)state;
	TEST_NEED(plat_cpu_times(&a), "machine-wide CPU times");
	assert_int_equal(plat_cpu_times(&a), 0);
	assert_true(a.busy_ns > 0);
	assert_true(a.total_ns >= a.busy_ns);
	assert_true(a.ncpu >= 1);
	test_burn_ms(30);
	assert_int_equal(plat_cpu_times(&b), 0);
	assert_true(b.busy_ns >= a.busy_ns);
	assert_true(b.total_ns >= a.total_ns);
	assert_int_equal(b.ncpu, a.ncpu);
}

static void test_group_cpu_self(void **state)
{
	uint64_t a, b;

	(void)state;
	TEST_NEED(plat_group_cpu_ns(&a), "the process group's CPU time");
	assert_int_equal(plat_group_cpu_ns(&a), 0);
	test_burn_ms(50);
	assert_int_equal(plat_group_cpu_ns(&b), 0);
	assert_true(b >= a + 40000000u);
}

/*
 * A live child in the same group burns CPU; it is counted through /proc
 * before it is reaped.  /proc counts in clock ticks, hence the margin.
 */
static void test_group_cpu_live_child(void **state)
{
	int done[2], release[2];
	uint64_t a, b;
	pid_t pid;
	char c;
	int st;

	(void)state;
	TEST_NEED(plat_group_cpu_ns(&a), "the process group's CPU time");
	assert_int_equal(pipe(done), 0);
	assert_int_equal(pipe(release), 0);
	assert_int_equal(plat_group_cpu_ns(&a), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(done[0]);
		close(release[1]);
		test_burn_ms(150);
		if (write(done[1], "x", 1) != 1)
			_exit(1);
		/* Stay alive, and unreaped, until the parent has measured. */
		if (read(release[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(done[1]);
	close(release[0]);
	assert_int_equal(read(done[0], &c, 1), 1);
	assert_int_equal(plat_group_cpu_ns(&b), 0);
	assert_int_equal(write(release[1], "x", 1), 1);
	close(done[0]);
	close(release[1]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_true(b >= a + 100000000u);
}

static void test_self_exe(void **state)
{
	const char *want = strrchr(test_argv0, '/');
	char path[4096];
	size_t n, w;

	(void)state;
	want = want != NULL ? want + 1 : test_argv0;
	TEST_NEED(plat_self_exe(path, sizeof(path)), "the running executable's path");
	assert_int_equal(plat_self_exe(path, sizeof(path)), 0);
	assert_true(path[0] == '/');
	n = strlen(path);
	w = strlen(want);
	assert_true(n >= w);
	assert_string_equal(path + n - w, want);
	/* Too small a buffer fails rather than returning a cut path. */
	assert_int_equal(plat_self_exe(path, 4), -1);
	assert_int_equal(errno, ENAMETOOLONG);
}

static void test_facts(void **state)
{
	char buf[1024], small[16];
	uint64_t total, avail;

	(void)state;
	assert_true(plat_ncpu_online() >= 1);
	assert_int_equal(plat_memory(&total, &avail), 0);
	assert_true(total > 0 && avail <= total);
	plat_cpu_model(buf, sizeof(buf));
	plat_clocksource(buf, sizeof(buf));
	plat_virt(buf, sizeof(buf));
	plat_mitigations(buf, sizeof(buf));
	plat_mitigations(small, sizeof(small));
	assert_true(strlen(small) < sizeof(small));
	assert_int_equal(plat_read_line("/proc/self/stat", buf, sizeof(buf)), 0);
	assert_null(strchr(buf, '\n'));
	assert_int_equal(plat_read_line("/nonexistent/kbench", buf, sizeof(buf)), -1);
	assert_string_equal(buf, "");
}

static int test_disarm(void **state)
{
	(void)state;
	plat_syscall_reset();
	unsetenv("KBENCH_INJECT");
	return 0;
}

/* A pipe whose ends are closed by the caller; fd[0] read, fd[1] write. */
static void test_pipe(int fd[2])
{
	assert_int_equal(pipe(fd), 0);
}

static void test_drain(int fd, size_t n)
{
	char buf[256];

	assert_true(n <= sizeof(buf));
	assert_int_equal(read(fd, buf, n), (ssize_t)n);
}

static void test_inject_eio_once(void **state)
{
	char buf[4];
	int fd[2];

	(void)state;
	test_pipe(fd);
	plat_inject("write", PLAT_FAULT_EIO, 0);
	errno = 0;
	assert_int_equal(plat_write(fd[1], "abcd", 4), -1);
	assert_int_equal(errno, EIO);
	assert_int_equal(plat_write(fd[1], "abcd", 4), 4);
	assert_int_equal(plat_write(fd[1], "abcd", 4), 4);
	test_drain(fd[0], 8);

	plat_inject("read", PLAT_FAULT_EIO, 0);
	assert_int_equal(write(fd[1], "abcd", 4), 4);
	errno = 0;
	assert_int_equal(plat_read(fd[0], buf, 4), -1);
	assert_int_equal(errno, EIO);
	assert_int_equal(plat_read(fd[0], buf, 4), 4);
	close(fd[0]);
	close(fd[1]);
}

static void test_inject_short(void **state)
{
	char data[100], buf[100];
	int fd[2];

	(void)state;
	memset(data, 'a', sizeof(data));
	test_pipe(fd);
	plat_inject("write", PLAT_FAULT_SHORT, 0);
	assert_int_equal(plat_write(fd[1], data, 100), 50);
	assert_int_equal(plat_write(fd[1], data, 100), 100);
	plat_inject("read", PLAT_FAULT_SHORT, 0);
	assert_int_equal(plat_read(fd[0], buf, 100), 50);
	assert_int_equal(plat_read(fd[0], buf, 100), 100);
	/* A 1-byte call cannot be halved: it moves nothing and returns 0. */
	plat_inject("write", PLAT_FAULT_SHORT, 0);
	assert_int_equal(plat_write(fd[1], data, 1), 0);
	assert_int_equal(plat_write(fd[1], data, 1), 1);
	test_drain(fd[0], 1);
	close(fd[0]);
	close(fd[1]);
}

static int test_bits_differ(const unsigned char *a, const unsigned char *b, size_t n)
{
	int bits = 0;
	size_t i;

	for (i = 0; i < n; i++)
		bits += __builtin_popcount((unsigned)(a[i] ^ b[i]));
	return bits;
}

static void test_inject_corrupt(void **state)
{
	unsigned char data[64], keep[64], buf[64];
	size_t i;
	int fd[2];

	(void)state;
	for (i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 37 + 11);
	memcpy(keep, data, sizeof(data));
	test_pipe(fd);

	plat_inject("read", PLAT_FAULT_CORRUPT, 0);
	assert_int_equal(write(fd[1], data, 64), 64);
	assert_int_equal(plat_read(fd[0], buf, 64), 64);
	assert_int_equal(test_bits_differ(data, buf, 64), 1);
	assert_int_equal(write(fd[1], data, 64), 64);
	assert_int_equal(plat_read(fd[0], buf, 64), 64);
	assert_int_equal(test_bits_differ(data, buf, 64), 0);

	plat_inject("write", PLAT_FAULT_CORRUPT, 0);
	assert_int_equal(plat_write(fd[1], data, 64), 64);
	assert_memory_equal(data, keep, 64);	/* caller's buffer untouched */
	assert_int_equal(read(fd[0], buf, 64), 64);
	assert_int_equal(test_bits_differ(data, buf, 64), 1);
	assert_int_equal(plat_write(fd[1], data, 64), 64);
	assert_int_equal(read(fd[0], buf, 64), 64);
	assert_int_equal(test_bits_differ(data, buf, 64), 0);
	close(fd[0]);
	close(fd[1]);
}

static void test_inject_after(void **state)
{
	int fd[2], i;
	char c;

	(void)state;
	test_pipe(fd);
	plat_inject("write", PLAT_FAULT_EIO, 3);
	for (i = 0; i < 3; i++)
		assert_int_equal(plat_write(fd[1], "x", 1), 1);
	assert_int_equal(plat_write(fd[1], "x", 1), -1);
	assert_int_equal(errno, EIO);
	for (i = 0; i < 3; i++)
		assert_int_equal(plat_write(fd[1], "x", 1), 1);
	test_drain(fd[0], 6);
	/* Reads are counted apart from writes, and re-arming replaces. */
	plat_inject("read", PLAT_FAULT_EIO, 1);
	plat_inject("read", PLAT_FAULT_EIO, 2);
	assert_int_equal(plat_write(fd[1], "xyz", 3), 3);
	assert_int_equal(plat_read(fd[0], &c, 1), 1);
	assert_int_equal(plat_read(fd[0], &c, 1), 1);
	assert_int_equal(plat_read(fd[0], &c, 1), -1);
	assert_int_equal(plat_read(fd[0], &c, 1), 1);
	/* NONE disarms, unknown call names are ignored. */
	plat_inject("write", PLAT_FAULT_EIO, 0);
	plat_inject("write", PLAT_FAULT_NONE, 0);
	plat_inject("ioctl", PLAT_FAULT_EIO, 0);
	plat_inject(NULL, PLAT_FAULT_EIO, 0);
	assert_int_equal(plat_write(fd[1], "x", 1), 1);
	test_drain(fd[0], 1);
	close(fd[0]);
	close(fd[1]);
}

/* How many of the next `calls` 1-byte writes fail; drains the pipe. */
static int test_count_write_faults(int fd[2], int calls)
{
	int i, bad = 0;
	char c;

	for (i = 0; i < calls; i++) {
		ssize_t n = plat_write(fd[1], "x", 1);

		if (n != 1)
			bad++;
		if (n > 0)
			assert_int_equal(read(fd[0], &c, 1), 1);
	}
	return bad;
}

static void test_inject_env(void **state)
{
	char c;
	int fd[2];

	(void)state;
	test_pipe(fd);
	setenv("KBENCH_INJECT", "write:eio:1", 1);
	plat_inject_from_env();
	assert_int_equal(plat_write(fd[1], "x", 1), 1);
	assert_int_equal(plat_write(fd[1], "x", 1), -1);
	assert_int_equal(errno, EIO);
	assert_int_equal(plat_write(fd[1], "x", 1), 1);
	test_drain(fd[0], 2);

	setenv("KBENCH_INJECT", "read:short:0,write:eio:0", 1);
	plat_inject_from_env();
	assert_int_equal(plat_write(fd[1], "x", 1), -1);
	assert_int_equal(plat_write(fd[1], "xy", 2), 2);
	assert_int_equal(plat_read(fd[0], &c, 1), 0);
	test_drain(fd[0], 2);

	/* A bad entry is skipped, good ones in the same list still arm. */
	setenv("KBENCH_INJECT", "bogus,write:corrupt:0", 1);
	plat_inject_from_env();
	assert_int_equal(plat_write(fd[1], "\x02", 1), 1);
	assert_int_equal(read(fd[0], &c, 1), 1);
	assert_int_equal(c, 3);
	close(fd[0]);
	close(fd[1]);
}

static void test_inject_env_bad(void **state)
{
	static const char *const bad[] = {
		"", ",", ",,,", "garbage", "write", "write:", "write:eio", "write:eio:",
		"write:eio:x", "write:eio:-1", "write:eio:+1", "write:eio: 1",
		"write:eio:1x", "write:eio:99999999999999999999999", "write:eio:4294967296",
		"foo:eio:0", "writer:eio:0", "write:bogus:0", "write:EIO:0",
		":eio:0", "write::0", "write:eio:0:1", "write:eio:0x1", "read",
		"averyveryverylongcallname:eio:0", "write:eioeio:0", "\x01\xff:\n:0",
	};
	size_t i;
	int fd[2];

	(void)state;
	test_pipe(fd);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv("KBENCH_INJECT", bad[i], 1);
		plat_inject_from_env();
		if (test_count_write_faults(fd, 3) != 0)
			fail_msg("KBENCH_INJECT=\"%s\" armed a fault", bad[i]);
	}
	unsetenv("KBENCH_INJECT");
	plat_inject_from_env();
	assert_int_equal(test_count_write_faults(fd, 3), 0);
	close(fd[0]);
	close(fd[1]);
}

/* The table's rows: named, unique, each with a function, in one walk. */
static void test_syscall_table(void **state)
{
	const char *names[64], *call;
	size_t n = 0;
	uint64_t calls;
	unsigned fired;

	(void)state;
	for (call = plat_syscall_next(NULL); call; call = plat_syscall_next(call)) {
		assert_true(n < 64);
		assert_true(call[0] != '\0');
		assert_non_null(plat_syscall_get(call));
		for (size_t i = 0; i < n; i++)
			assert_string_not_equal(names[i], call);
		names[n++] = call;
	}
	/* What issue 13 names, at least. */
	for (size_t i = 0; i < 11; i++) {
		static const char *const want[] = { "fork", "pipe", "socket", "mmap", "open", "write",
						    "read", "unlink", "sched_setaffinity", "socketpair",
						    "accept" };

		assert_non_null(plat_syscall_get(want[i]));
	}
	assert_null(plat_syscall_get("ioctl"));
	assert_null(plat_syscall_get(NULL));
	assert_null(plat_syscall_next("ioctl"));
	assert_int_equal(plat_syscall_set("ioctl", NULL), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(plat_syscall_counts("ioctl", &calls, &fired), -1);
}

static int test_fork_calls;

static pid_t test_fake_fork(void)
{
	test_fork_calls++;
	errno = EAGAIN;
	return -1;
}

/* SQLite's way: a row replaced by name, then put back. */
static void test_syscall_replace(void **state)
{
	plat_syscall_ptr sys = plat_syscall_get("fork");
	uint64_t calls;
	unsigned fired;
	pid_t pid;
	int st;

	(void)state;
	assert_int_equal(plat_syscall_set("fork", (plat_syscall_ptr)test_fake_fork), 0);
	assert_ptr_equal(plat_syscall_get("fork"), (plat_syscall_ptr)test_fake_fork);
	errno = 0;
	assert_int_equal(plat_fork(), -1);
	assert_int_equal(errno, EAGAIN);
	assert_int_equal(test_fork_calls, 1);
	/* A fault fires before the replacement is reached. */
	plat_inject("fork", PLAT_FAULT_EIO, 0);
	assert_int_equal(plat_fork(), -1);
	assert_int_equal(errno, EIO);
	assert_int_equal(test_fork_calls, 1);
	assert_int_equal(plat_syscall_counts("fork", &calls, &fired), 0);
	assert_true(calls == 2 && fired == 1);
	assert_int_equal(plat_syscall_set("fork", NULL), 0);
	assert_ptr_equal(plat_syscall_get("fork"), sys);
	pid = plat_fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(7);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 7);
	plat_syscall_reset();
	assert_int_equal(plat_syscall_counts("fork", &calls, &fired), 0);
	assert_true(calls == 0 && fired == 0);
}

/*
 * Every call that moves no data fails with EIO under any fault, without
 * being made: no directory, no socket, no mapping appears.
 */
static void test_syscall_faults(void **state)
{
	char dir[] = "/tmp/kbench-plat.XXXXXX", path[64];
	int fds = 0, fd[2];
	struct stat st;
	struct sigaction sa;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/x", dir);
	for (int k = 0; k < 1024; k++)
		fds += fcntl(k, F_GETFD) != -1;
	plat_inject("mkdir", PLAT_FAULT_SHORT, 0);
	assert_int_equal(plat_mkdir(path, 0700), -1);
	assert_int_equal(errno, EIO);
	assert_int_equal(stat(path, &st), -1);
	assert_int_equal(plat_mkdir(path, 0700), 0);
	plat_inject("stat", PLAT_FAULT_EIO, 1);
	assert_int_equal(plat_stat(path, &st), 0);
	assert_int_equal(plat_stat(path, &st), -1);
	assert_int_equal(errno, EIO);
	plat_inject("open", PLAT_FAULT_CORRUPT, 0);
	assert_int_equal(plat_open(path, O_RDONLY, 0), -1);
	assert_int_equal(errno, EIO);
	plat_inject("socket", PLAT_FAULT_EIO, 0);
	assert_int_equal(plat_socket(AF_INET, SOCK_STREAM, 0), -1);
	plat_inject("pipe", PLAT_FAULT_EIO, 0);
	assert_int_equal(plat_pipe(fd), -1);
	plat_inject("socketpair", PLAT_FAULT_EIO, 0);
	assert_int_equal(plat_socketpair(AF_UNIX, SOCK_STREAM, 0, fd), -1);
	plat_inject("mmap", PLAT_FAULT_EIO, 0);
	assert_true(plat_mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) ==
		    MAP_FAILED);
	assert_int_equal(errno, EIO);
	plat_inject("sigaction", PLAT_FAULT_EIO, 0);
	assert_int_equal(plat_sigaction(SIGUSR2, NULL, &sa), -1);
	assert_int_equal(plat_sigaction(SIGUSR2, NULL, &sa), 0);
	plat_inject("kill", PLAT_FAULT_EIO, 0);
	assert_int_equal(plat_kill(getpid(), 0), -1);
	assert_int_equal(plat_kill(getpid(), 0), 0);
	plat_inject("sched_setaffinity", PLAT_FAULT_EIO, 0);
	assert_int_equal(plat_pin_cpu(0), -1);
	assert_int_equal(errno, EIO);
	plat_inject("unlink", PLAT_FAULT_EIO, 0);
	assert_int_equal(plat_unlinkat(AT_FDCWD, path, AT_REMOVEDIR), -1);
	assert_int_equal(rmdir(path), 0);
	for (int k = 0; k < 1024; k++)
		fds -= fcntl(k, F_GETFD) != -1;
	assert_int_equal(fds, 0);
	assert_int_equal(rmdir(dir), 0);
	/* The long names parse from the environment too. */
	setenv("KBENCH_INJECT", "sched_setaffinity:eio:0,socketpair:eio:1", 1);
	plat_inject_from_env();
	assert_int_equal(plat_pin_cpu(0), -1);
	assert_int_equal(errno, EIO);
	assert_int_equal(plat_socketpair(AF_UNIX, SOCK_STREAM, 0, fd), 0);
	close(fd[0]);
	close(fd[1]);
	assert_int_equal(plat_socketpair(AF_UNIX, SOCK_STREAM, 0, fd), -1);
	/* A peer starts with nothing armed. */
	plat_inject("fork", PLAT_FAULT_EIO, 0);
	plat_inject_for_peer();
	assert_int_equal(plat_syscall_set("fork", (plat_syscall_ptr)test_fake_fork), 0);
	test_fork_calls = 0;
	assert_int_equal(plat_fork(), -1);
	assert_int_equal(test_fork_calls, 1);
}

/*
 * Placement: in a child (so this process keeps its mask), pin to each
 * allowed CPU in turn and read the affinity back; then bench_place maps
 * ends of a spread pair onto two CPUs and of a same pair onto one.
 */
static void test_pin_and_read_back(void **state)
{
	int cpus[64], n, status;
	pid_t pid;

	(void)state;
	n = plat_cpus_allowed(cpus, 64);
	TEST_NEED(n, "CPU affinity");
	assert_true(n >= 1);
	for (int i = 1; i < n; i++)
		assert_true(cpus[i] > cpus[i - 1]);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int got[2];
		struct bench_ctx ctx;

		for (int i = 0; i < n; i++)
			if (plat_pin_cpu(cpus[i]) != 0 || plat_cpus_allowed(got, 2) != 1 ||
			    got[0] != cpus[i])
				_exit(1);
		memset(&ctx, 0, sizeof(ctx));
		ctx.placement = PLACE_SAME;
		ctx.ncpus = n;
		memcpy(ctx.cpus, cpus, (size_t)n * sizeof(int));
		if (bench_cpu_for(&ctx, 0) != bench_cpu_for(&ctx, 1))
			_exit(2);
		if (bench_place(&ctx, 1) != 0 || plat_cpus_allowed(got, 2) != 1 ||
		    got[0] != bench_cpu_for(&ctx, 1))
			_exit(3);
		ctx.placement = PLACE_SPREAD;
		if (n >= 2 && bench_cpu_for(&ctx, 0) == bench_cpu_for(&ctx, 1))
			_exit(4);
		ctx.placement = PLACE_NONE;
		if (bench_cpu_for(&ctx, 1) != -1 || bench_place(&ctx, 1) != 0)
			_exit(5);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	/* Pinning an impossible CPU fails rather than pretending. */
	assert_int_equal(plat_pin_cpu(-1), -1);
}

/*
 * The bandwidth benchmarks' stream check against a word-by-word sum, for
 * every length around the vector block sizes, at odd offsets too.
 */
static void test_peer_sum(void **state)
{
	unsigned char buf[600];
	uint64_t x = 88172645463325252ull;

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = (unsigned char)x;
	}
	for (size_t off = 0; off < 3; off++)
		for (size_t len = 0; len + off <= sizeof(buf); len++) {
			uint64_t want = 0, w;
			size_t i;

			for (i = 0; i + 8 <= len; i += 8) {
				memcpy(&w, buf + off + i, 8);
				want += w;
			}
			w = 0;
			memcpy(&w, buf + off + i, len - i);
			want += w;
			assert_true(peer_sum(buf + off, len) == want);
		}
	/* A flipped bit anywhere changes the sum. */
	x = peer_sum(buf, 512);
	buf[300] ^= 4;
	assert_true(peer_sum(buf, 512) != x);
}

static void test_measure_mhz(void **state)
{
	double mhz;

	(void)state;
	mhz = sysinfo_measure_mhz();
	print_message("measured %.0f MHz\n", mhz);
	assert_true(mhz >= 100 && mhz <= 10000);
}

static void test_collect(void **state)
{
	struct sysinfo si;
	struct timer_info ti;
	char label[256];

	(void)state;
	timer_measure(&ti);
	sysinfo_collect(&si, &ti, sysinfo_measure_mhz());
	assert_true(si.os[0] != '\0');
	assert_true(si.release[0] != '\0');
	assert_true(si.arch[0] != '\0');
	assert_true(si.ncpu_online >= 1);
	assert_true(si.mhz > 0);
	assert_true(si.mem_total > 0);
	assert_true(si.kbench_version[0] != '\0');
	assert_true(si.build_type[0] != '\0');
	sysinfo_label(&si, label, sizeof(label));
	assert_int_equal(strncmp(label, si.os, strlen(si.os)), 0);
	assert_non_null(strstr(label, si.release));
}

/* Run sysinfo_warn into memory; returns its count and the text in *text. */
static int test_warn(const struct sysinfo *si, char **text)
{
	size_t size;
	FILE *f = open_memstream(text, &size);
	int n;

	assert_non_null(f);
	n = sysinfo_warn(si, f);
	assert_int_equal(fclose(f), 0);
	return n;
}

static int test_count_lines(const char *s, const char *prefix)
{
	int lines = 0;

	while (*s != '\0') {
		const char *nl = strchr(s, '\n');

		assert_non_null(nl);
		assert_int_equal(strncmp(s, prefix, strlen(prefix)), 0);
		lines++;
		s = nl + 1;
	}
	return lines;
}

static void test_warn_counts(void **state)
{
	struct sysinfo si;
	char *text = NULL;

	(void)state;
	memset(&si, 0, sizeof(si));
	strcpy(si.os, "Linux");
	strcpy(si.release, "6.18.44");
	strcpy(si.governor, "performance");
	strcpy(si.build_type, "release");
	si.ncpu_online = 2;
	assert_int_equal(test_warn(&si, &text), 0);
	assert_string_equal(text, "");
	free(text);

	/* A load average says what ran before, not beside: no warning of it. */
	strcpy(si.build_type, "sanitize");
	si.loadavg[0] = 10;
	assert_int_equal(test_warn(&si, &text), 1);
	assert_int_equal(test_count_lines(text, "kbench: warning: "), 1);
	assert_null(strstr(text, "load average"));
	assert_non_null(strstr(text, "sanitizer build"));
	free(text);

	strcpy(si.build_type, "debugoptimized");
	si.loadavg[0] = 0.9;	/* below 0.5 per CPU on 2 CPUs */
	strcpy(si.virt, "kvm");
	strcpy(si.governor, "powersave");
	assert_int_equal(test_warn(&si, &text), 2);
	assert_int_equal(test_count_lines(text, "kbench: warning: "), 2);
	assert_non_null(strstr(text, "running under kvm"));
	assert_non_null(strstr(text, "powersave"));
	free(text);
}

static void test_label(void **state)
{
	struct sysinfo si;
	char buf[8];

	(void)state;
	memset(&si, 0, sizeof(si));
	strcpy(si.os, "Linux");
	strcpy(si.release, "6.18.44");
	sysinfo_label(&si, buf, sizeof(buf));
	assert_string_equal(buf, "Linux 6");
}

/*
 * A real software event counted: the page faults of touching 64 fresh
 * pages while the counters run, none counted while they are stopped; an
 * event the machine lacks is absent (fd -1, its errno said), never a zero.
 */
static void test_events_page_faults(void **state)
{
	struct plat_events ev;
	uint64_t c[PLAT_NEV];
	long page = sysconf(_SC_PAGESIZE);
	size_t len = 64 * (size_t)page;
	volatile char *p;
	int n = plat_events_open(&ev);

	(void)state;
	TEST_NEED(n, "event counters");
	if (n == 0 || ev.fd[PLAT_EV_PAGE_FAULTS] < 0) {
		print_message("# no page fault counter here (errno %d)\n", ev.err[PLAT_EV_PAGE_FAULTS]);
		plat_events_close(&ev);
		skip();
	}
	for (int i = 0; i < PLAT_NEV; i++)
		assert_true(ev.fd[i] >= 0 || ev.err[i] != 0);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	p[0] = 1;	/* one fault before: not counted */
	plat_events_enable(&ev, 1);
	for (size_t off = (size_t)page; off < len; off += (size_t)page)
		p[off] = 1;
	plat_events_enable(&ev, 0);
	assert_int_equal(plat_events_read(&ev, c), 0);
	/*
	 * 63 pages; the counters' own start and stop may fault a page or two,
	 * and under AddressSanitizer the shadow of the 63 pages (one shadow
	 * byte for 8) faults 8 pages more: 71 was counted there.
	 */
	if (c[PLAT_EV_PAGE_FAULTS] < 63 || c[PLAT_EV_PAGE_FAULTS] > 80)
		fail_msg("%llu page faults counted for 63 pages touched",
			 (unsigned long long)c[PLAT_EV_PAGE_FAULTS]);
	munmap((void *)p, len);
	plat_events_close(&ev);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_times_sane),
		cmocka_unit_test(test_group_cpu_self),
		cmocka_unit_test(test_group_cpu_live_child),
		cmocka_unit_test(test_self_exe),
		cmocka_unit_test(test_facts),
		cmocka_unit_test(test_pin_and_read_back),
		cmocka_unit_test(test_peer_sum),
		cmocka_unit_test_setup_teardown(test_inject_eio_once, test_disarm, test_disarm),
		cmocka_unit_test_setup_teardown(test_inject_short, test_disarm, test_disarm),
		cmocka_unit_test_setup_teardown(test_inject_corrupt, test_disarm, test_disarm),
		cmocka_unit_test_setup_teardown(test_inject_after, test_disarm, test_disarm),
		cmocka_unit_test_setup_teardown(test_inject_env, test_disarm, test_disarm),
		cmocka_unit_test_setup_teardown(test_inject_env_bad, test_disarm, test_disarm),
		cmocka_unit_test_setup_teardown(test_syscall_table, test_disarm, test_disarm),
		cmocka_unit_test_setup_teardown(test_syscall_replace, test_disarm, test_disarm),
		cmocka_unit_test_setup_teardown(test_syscall_faults, test_disarm, test_disarm),
		cmocka_unit_test(test_measure_mhz),
		cmocka_unit_test(test_collect),
		cmocka_unit_test(test_warn_counts),
		cmocka_unit_test(test_label),
		cmocka_unit_test(test_events_page_faults),
	};

	(void)argc;
	test_argv0 = argv[0];
	return cmocka_run_group_tests(tests, NULL, NULL);
}

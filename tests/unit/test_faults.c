/*
 * Every benchmark with each of its system calls failing (issue 13).  A
 * row runs once through the harness, in this process, with nothing armed:
 * the table of replaceable calls (plat/sys.h) counts the calls it makes.
 * Then each of those calls is made to fail, at its first call and at one
 * half-way through, and the row must fail with a reason that names the
 * call (or, for the few failures harmless by design, succeed), and leave
 * no descriptor, child process or file behind; memory left behind is
 * LeakSanitizer's to report in the sanitizer build.
 *
 * Then the rate family's checks of what a call that succeeds returns:
 * each row with its call replaced by one that answers wrongly (a clock
 * that stands still or goes back, a select that finds a ready pipe).
 *
 * The command-line side (each instance a process of its own, the run going
 * on after a failure) is tests/cli_faults.sh.  KBENCH_TEST_VERBOSE=1 prints
 * every fault tried and what became of the row.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/harness.h"
#include "core/registry.h"
#include "core/result.h"
#include "plat/plat.h"

/* A family: the rows whose id matches glob and not `except`. */
struct test_family {
	const char *glob;
	const char *except;	/* NULL: none */
};

/*
 * How a failure message may name a call besides by its name: the verb the
 * message reads naturally with ("cannot create file 3", "writing 10240
 * bytes", "cannot pin process 0").
 */
static const struct {
	const char *call;
	const char *word;
} test_synonyms[] = {
	{ "open", "create" },
	{ "unlink", "remove" },
	{ "write", "writing" },
	{ "sched_setaffinity", "pin" },
};

/*
 * Failures a row survives by design, with the reason: mem.*'s huge pages
 * are asked for speed, and the result records whether they were granted;
 * wake.timer measures under SCHED_OTHER when SCHED_FIFO is refused, and
 * says so.
 */
static const struct {
	const char *glob;
	const char *call;
} test_harmless[] = {
	{ "mem.*.bw", "madvise" },
	{ "wake.timer", "sched_setscheduler" },
};

/*
 * Calls made only in a child the row forks (the exec of proc.exec): the
 * parent's counts never see them, so they are tried on every row that
 * forks, and only a failure that names them counts as a fault injected.
 */
static const char *const test_child_calls[] = { "execve" };

static char test_dir[PATH_MAX];		/* the rows' --tmpdir */
static unsigned test_injected;		/* faults that fired, over all families */
static unsigned test_rows;		/* rows that made a call that can fail */

static int test_open_fds(void)
{
	int n = 0;

	for (int fd = 0; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) != -1)
			n++;
	return n;
}

/* What is in the rows' directory; 0 when empty. */
static int test_dir_entries(void)
{
	DIR *d = opendir(test_dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

/* A child left behind: -1 when alive, its pid (now reaped) for a zombie, or 0. */
static pid_t test_child_left(void)
{
	int st;
	pid_t pid = waitpid(-1, &st, WNOHANG);

	return pid == 0 ? -1 : pid > 0 ? pid : 0;
}

static void test_cfg(struct harness_cfg *cfg, const struct bench *b)
{
	int cpus[1];

	harness_defaults(cfg);
	cfg->tmpdir = test_dir;
	cfg->sample_target_ns = 1e5;
	cfg->max_time_ns = 1e6;
	cfg->min_samples = 3;
	cfg->warmup_max = 1;
	cfg->iterations = 2;
	cfg->interference = 0;
	cfg->size = 64 * 1024;
	/* Pinned where the OS can pin, so that sched_setaffinity is called too. */
	cfg->placement = plat_cpus_allowed(cpus, 1) > 0 ? PLACE_SAME : PLACE_NONE;
	(void)b;
}

static int test_names(const char *reason, const char *call)
{
	if (strstr(reason, call) != NULL)
		return 1;
	for (size_t i = 0; i < sizeof(test_synonyms) / sizeof(test_synonyms[0]); i++)
		if (strcmp(test_synonyms[i].call, call) == 0 &&
		    strstr(reason, test_synonyms[i].word) != NULL)
			return 1;
	return 0;
}

static int test_is_harmless(const struct bench *b, const char *call)
{
	for (size_t i = 0; i < sizeof(test_harmless) / sizeof(test_harmless[0]); i++)
		if (strcmp(test_harmless[i].call, call) == 0 &&
		    fnmatch(test_harmless[i].glob, b->id, 0) == 0)
			return 1;
	return 0;
}

/*
 * Run b with `call` failing at its after-th call.  Returns 1 when the
 * fault fired (or, for a child's call, when the row failed naming it);
 * every leak or wrong outcome is a failure of the test.
 */
static int test_inject(const struct bench *b, const char *call, unsigned after, int in_child)
{
	struct harness_cfg cfg;
	struct result r;
	uint64_t calls;
	unsigned fired;
	int fds = test_open_fds(), fail;
	pid_t left;

	test_cfg(&cfg, b);
	plat_syscall_reset();
	plat_inject(call, PLAT_FAULT_EIO, after);
	assert_int_equal(harness_run(b, &cfg, &r), 0);
	assert_int_equal(plat_syscall_counts(call, &calls, &fired), 0);
	plat_syscall_reset();
	fail = r.status == RES_FAIL;
	if (getenv("KBENCH_TEST_VERBOSE"))
		print_message("# %s %s:%u fired %u: %s %s\n", b->id, call, after, fired,
			      result_status_name(r.status), r.reason);
	if (test_open_fds() != fds)
		fail_msg("%s with %s failing at call %u: %d descriptors open, %d before", b->id,
			 call, after, test_open_fds(), fds);
	if ((left = test_child_left()) != 0)
		fail_msg("%s with %s failing at call %u: child %ld left behind", b->id, call, after,
			 (long)left);
	if (test_dir_entries() != 0)
		fail_msg("%s with %s failing at call %u: files left in its directory", b->id, call,
			 after);
	if (in_child) {
		/*
		 * The parent cannot count a child's calls, so a row that never
		 * makes this one (a ring forks but never execs) is armed in vain:
		 * a failure of its own there, not naming the call, is the machine's
		 * once (a busy CI), and the row's bug only when it happens again.
		 */
		if (fail && !test_names(r.reason, call)) {
			char first[sizeof(r.reason)];

			snprintf(first, sizeof(first), "%s", r.reason);
			result_free(&r);
			plat_syscall_reset();
			plat_inject(call, PLAT_FAULT_EIO, after);
			assert_int_equal(harness_run(b, &cfg, &r), 0);
			plat_syscall_reset();
			fail = r.status == RES_FAIL;
			print_message("# %s with %s failing in a child failed without naming it (%s); "
				      "again: %s %s\n", b->id, call, first, result_status_name(r.status),
				      r.reason);
			if (fail && !test_names(r.reason, call))
				fail_msg("%s with %s failing in a child: the reason does not name it, "
					 "twice: %s", b->id, call, r.reason);
			assert_int_equal(test_open_fds(), fds);
			assert_int_equal(test_child_left(), 0);
			assert_int_equal(test_dir_entries(), 0);
		}
		result_free(&r);
		return fail;
	}
	if (fired == 0) {
		result_free(&r);
		return 0;
	}
	if (!fail && !(test_is_harmless(b, call) && r.status != RES_SKIP))
		fail_msg("%s with %s failing at call %u: status %s, not fail", b->id, call, after,
			 result_status_name(r.status));
	if (fail && !test_names(r.reason, call))
		fail_msg("%s with %s failing at call %u: the reason does not name it: %s", b->id,
			 call, after, r.reason);
	result_free(&r);
	return 1;
}

static void test_family(void **state)
{
	const struct test_family *f = *state;
	unsigned injected = 0, rows = 0;

	for (size_t i = 0; i < registry_count(); i++) {
		const struct bench *b = registry_at(i);
		uint64_t counts[64], forks = 0;
		struct harness_cfg cfg;
		struct result r;
		const char *call;
		size_t k = 0;
		int made = 0;

		if (fnmatch(f->glob, b->id, 0) != 0 || (f->except && fnmatch(f->except, b->id, 0) == 0))
			continue;
		/* The calls the row makes, with nothing armed. */
		test_cfg(&cfg, b);
		plat_syscall_reset();
		assert_int_equal(harness_run(b, &cfg, &r), 0);
		if (r.status == RES_SKIP || r.status == RES_FAIL) {
			print_message("# %s: %s, not tried: %s\n", b->id, result_status_name(r.status),
				      r.reason);
			assert_int_not_equal(r.status, RES_FAIL);
			result_free(&r);
			continue;
		}
		result_free(&r);
		for (call = plat_syscall_next(NULL); call; call = plat_syscall_next(call), k++) {
			unsigned fired;

			assert_true(k < 64);
			assert_int_equal(plat_syscall_counts(call, &counts[k], &fired), 0);
			if (strcmp(call, "fork") == 0)
				forks = counts[k];
		}
		plat_syscall_reset();
		assert_int_equal(test_child_left(), 0);
		assert_int_equal(test_dir_entries(), 0);
		k = 0;
		for (call = plat_syscall_next(NULL); call; call = plat_syscall_next(call), k++) {
			int child = 0;

			for (size_t c = 0; c < sizeof(test_child_calls) / sizeof(test_child_calls[0]); c++)
				child |= strcmp(test_child_calls[c], call) == 0;
			if (child && forks > 0) {
				injected += (unsigned)test_inject(b, call, 0, 1);
				continue;
			}
			if (counts[k] == 0)
				continue;
			made = 1;
			injected += (unsigned)test_inject(b, call, 0, 0);
			if (counts[k] > 2)
				injected += (unsigned)test_inject(b, call, (unsigned)(counts[k] / 2), 0);
		}
		rows += (unsigned)made;
	}
	print_message("# %s: %u faults injected over %u rows\n", f->glob, injected, rows);
	test_injected += injected;
	test_rows += rows;
}

/* Every row through cmocka's prestate: one test per family. */
static const struct test_family test_families[] = {
	{ "cpu.*", NULL }, { "sys.*", NULL }, { "sig.*", NULL }, { "proc.*", NULL },
	{ "ctx.*", NULL }, { "ipc.*", "ipc.rpc_*" }, { "ipc.rpc_*", NULL }, { "fs.*", NULL },
	{ "vm.*", NULL }, { "mem.*", "mem.lat.*" }, { "mem.lat.*", NULL }, { "rate.*", NULL },
	{ "aim9.*", NULL }, { "lock.*", NULL }, { "wake.*", NULL }, { "scale.*.1", NULL },
};

/* ------------------------------------------------------------------ */
/* The rates' checks: calls that succeed with the wrong answer          */
/* ------------------------------------------------------------------ */

/* Replacements for a row of the table of calls, each wrong in its own way. */
static int test_clock_stuck(clockid_t clock, struct timespec *ts)
{
	(void)clock;
	ts->tv_sec = 1000;
	ts->tv_nsec = 0;
	return 0;
}

static int64_t test_back_ns = 2000000000;

static int test_clock_back(clockid_t clock, struct timespec *ts)
{
	(void)clock;
	test_back_ns -= 1000;
	ts->tv_sec = test_back_ns / 1000000000;
	ts->tv_nsec = test_back_ns % 1000000000;
	return 0;
}

static int test_gettimeofday_stuck(struct timeval *tv)
{
	tv->tv_sec = 1000;
	tv->tv_usec = 0;
	return 0;
}

static pid_t test_getppid_other(void)
{
	return 1;
}

static int test_select_ready(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *tv)
{
	(void)nfds, (void)rd, (void)wr, (void)ex, (void)tv;
	return 1;
}

static int test_socket_none(int domain, int type, int protocol)
{
	(void)domain, (void)type, (void)protocol;
	errno = EMFILE;
	return -1;
}

/*
 * Each rate row with its call answering wrongly (a replaced function) or
 * moving too little or damaged data (a fault): the row fails, with a
 * reason that says what was wrong.  time()'s stuck clock is not tried: its
 * check needs two seconds of samples to be sure a second went by.
 */
/* A row run with one call wrong, and what its failure must say. */
struct test_wrong {
	const char *id, *call;
	plat_syscall_ptr fn;		/* replacement, or NULL: the fault */
	enum plat_fault fault;
	const char *reason;		/* what the reason must hold */
};

static void test_wrong_cfg(struct harness_cfg *cfg, const struct bench *b)
{
	test_cfg(cfg, b);
	/* Samples of 5 ms, at least 30: longer than the 100 ms and more a clock has to move in. */
	cfg->iterations = 0;
	cfg->sample_target_ns = 5e6;
	cfg->min_samples = 30;
	cfg->max_time_ns = 1e9;
}

/*
 * Each case's row with its call wrong fails, saying what was wrong, and
 * leaves no descriptor open; then, with nothing replaced, each passes.
 */
static void test_wrong_calls(const struct test_wrong *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct bench *b = registry_find(cases[i].id);
		struct harness_cfg cfg;
		struct result r;
		int fds = test_open_fds();

		assert_non_null(b);
		if (b->unsupported && b->unsupported()) {
			print_message("# %s: not tried: %s\n", b->id, b->unsupported());
			continue;
		}
		test_wrong_cfg(&cfg, b);
		plat_syscall_reset();
		if (cases[i].fn)
			assert_int_equal(plat_syscall_set(cases[i].call, cases[i].fn), 0);
		else
			plat_inject(cases[i].call, cases[i].fault, 0);
		assert_int_equal(harness_run(b, &cfg, &r), 0);
		plat_syscall_reset();
		if (getenv("KBENCH_TEST_VERBOSE"))
			print_message("# %s, %s wrong: %s %s\n", b->id, cases[i].call,
				      result_status_name(r.status), r.reason);
		if (r.status != RES_FAIL || strstr(r.reason, cases[i].reason) == NULL)
			fail_msg("%s with %s wrong: %s '%s', want a failure with '%s'", b->id,
				 cases[i].call, result_status_name(r.status), r.reason, cases[i].reason);
		assert_int_equal(test_open_fds(), fds);
		assert_int_equal(test_child_left(), 0);
		assert_int_equal(test_dir_entries(), 0);
		result_free(&r);
	}
	for (size_t i = 0; i < n; i++) {
		const struct bench *b = registry_find(cases[i].id);
		struct harness_cfg cfg;
		struct result r;

		if (b->unsupported && b->unsupported())
			continue;
		test_wrong_cfg(&cfg, b);
		assert_int_equal(harness_run(b, &cfg, &r), 0);
		if (r.status != RES_OK && r.status != RES_NOISY)
			fail_msg("%s with nothing wrong: %s '%s'", b->id, result_status_name(r.status),
				 r.reason);
		result_free(&r);
	}
}

static void test_rate_checks(void **state)
{
	static const struct test_wrong cases[] = {
		{ "rate.clock_gettime", "clock_gettime", (plat_syscall_ptr)test_clock_stuck, 0,
		  "clock_gettime(CLOCK_MONOTONIC) did not move forward in " },
		{ "rate.clock_gettime_coarse", "clock_gettime", (plat_syscall_ptr)test_clock_stuck, 0,
		  "clock_gettime(CLOCK_MONOTONIC_COARSE) did not move forward in " },
		{ "rate.clock_gettime", "clock_gettime", (plat_syscall_ptr)test_clock_back, 0,
		  "clock_gettime(CLOCK_MONOTONIC) went back " },
		{ "rate.gettimeofday", "gettimeofday", (plat_syscall_ptr)test_gettimeofday_stuck, 0,
		  "gettimeofday did not move forward in " },
		{ "rate.getppid", "getppid", (plat_syscall_ptr)test_getppid_other, 0,
		  "getppid returned 1, not the parent " },
		{ "rate.select", "select", (plat_syscall_ptr)test_select_ready, 0,
		  "select found 1 of 10 empty pipes ready" },
		{ "rate.socket", "socket", (plat_syscall_ptr)test_socket_none, 0,
		  "socket(AF_INET, SOCK_STREAM): " },
		{ "rate.write", "write", NULL, PLAT_FAULT_SHORT,
		  "write of 1 byte to /dev/null returned 0" },
		{ "rate.read", "read", NULL, PLAT_FAULT_SHORT,
		  "read of 1 byte from /dev/zero returned 0" },
		{ "rate.read", "read", NULL, PLAT_FAULT_CORRUPT,
		  "read from /dev/zero gave a nonzero byte" },
	};
	(void)state;
	test_wrong_calls(cases, sizeof(cases) / sizeof(cases[0]));
}

static int test_setup(void **state)
{
	const char *tmp = getenv("TMPDIR");

	(void)state;
	snprintf(test_dir, sizeof(test_dir), "%s/kbench-faults.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(test_dir) ? 0 : -1;
}

static int test_teardown(void **state)
{
	(void)state;
	print_message("# %u faults injected over %u rows that make a call that can fail\n",
		      test_injected, test_rows);
	return rmdir(test_dir);
}

/* kill() that says it sent the signal and sent nothing. */
static int test_kill_lost(pid_t pid, int sig)
{
	(void)pid, (void)sig;
	return 0;
}

/* execve() that fails, so the child exits 127 where kbench-tiny exits 42. */
static int test_execve_none(const char *path, char *const argv[], char *const envp[])
{
	(void)path, (void)argv, (void)envp;
	errno = ENOENT;
	return -1;
}

/*
 * AIM9's checks (issue 16): a signal not caught, a child's wrong exit
 * status, a short read and a damaged one each fail the test, saying so.
 */
static void test_aim9_checks(void **state)
{
	static const struct test_wrong cases[] = {
		{ "aim9.signal_test", "kill", (plat_syscall_ptr)test_kill_lost, 0,
		  "sent 1000 SIGUSR2, the handler caught 0" },
		{ "aim9.exec_test", "execve", (plat_syscall_ptr)test_execve_none, 0,
		  "exec child exited 127, expected 42 (execve failed)" },
		{ "aim9.disk_rd", "read", NULL, PLAT_FAULT_SHORT, "read of 1024 bytes at block 0 of " },
		{ "aim9.disk_rd", "read", NULL, PLAT_FAULT_CORRUPT, "does not hold what was written" },
		{ "aim9.pipe_cpy", "read", NULL, PLAT_FAULT_CORRUPT,
		  "came back from the pipe different" },
	};
	(void)state;
	test_wrong_calls(cases, sizeof(cases) / sizeof(cases[0]));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_prestate(test_family, (void *)&test_families[0]),
		cmocka_unit_test_prestate(test_family, (void *)&test_families[1]),
		cmocka_unit_test_prestate(test_family, (void *)&test_families[2]),
		cmocka_unit_test_prestate(test_family, (void *)&test_families[3]),
		cmocka_unit_test_prestate(test_family, (void *)&test_families[4]),
		cmocka_unit_test_prestate(test_family, (void *)&test_families[5]),
		cmocka_unit_test_prestate(test_family, (void *)&test_families[6]),
		cmocka_unit_test_prestate(test_family, (void *)&test_families[7]),
		cmocka_unit_test_prestate(test_family, (void *)&test_families[8]),
		cmocka_unit_test_prestate(test_family, (void *)&test_families[9]),
		cmocka_unit_test_prestate(test_family, (void *)&test_families[10]),
		cmocka_unit_test_prestate(test_family, (void *)&test_families[11]),
		cmocka_unit_test_prestate(test_family, (void *)&test_families[12]),
		cmocka_unit_test_prestate(test_family, (void *)&test_families[13]),
		cmocka_unit_test_prestate(test_family, (void *)&test_families[14]),
		cmocka_unit_test_prestate(test_family, (void *)&test_families[15]),
		cmocka_unit_test(test_rate_checks),
		cmocka_unit_test(test_aim9_checks),
	};
	char tiny[PATH_MAX], *slash;

	/*
	 * kbench-tiny is built next to this program, which the posix platform
	 * cannot find for itself.  The runner's child ignores SIGPIPE, so that
	 * a write to a dead peer fails instead of killing it; so must this.
	 */
	(void)argc;
	if (realpath(argv[0], tiny) != NULL && (slash = strrchr(tiny, '/')) != NULL) {
		snprintf(slash + 1, sizeof(tiny) - (size_t)(slash + 1 - tiny), "kbench-tiny");
		setenv("KBENCH_TINY", tiny, 1);
	}
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, test_setup, test_teardown);
}

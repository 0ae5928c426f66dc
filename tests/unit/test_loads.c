/*
 * The background loads of contest, run as the driver runs them: each in a
 * process group of its own with a shared page of counters, here for a
 * fraction of a second at a small scale.  Every visible load must get
 * ready, do work and use CPU at once, leave no process behind once its
 * group is killed, and write nothing outside its directory.  tick_load,
 * whose rate is known, checks that the counters can be read over a window
 * exactly; the failure tests check that a load that cannot go on says
 * which load, which call and which path.
 *
 * The test process makes itself a subreaper, as the driver does, so the
 * orphaned workers of a killed leader come back here to be reaped: where
 * init reaps slowly (in some containers, every two seconds or never) the
 * group would otherwise linger as zombies.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "load/load.h"
#include "plat/plat.h"

/* Small files, trees and buffers: the test is about behaviour, not speed. */
#define TEST_SCALE 0.01
/* How long a load may take to prepare before the test calls it stuck. */
#define TEST_READY_S 20.0
/* How long a visible load works before its counters are read. */
#define TEST_WORK_S 0.3

struct fixture {
	char top[256];			/* the test's own temporary directory */
	char dir[300];			/* top/load: the only thing a load may write in */
	struct load_shared *sh;		/* the shared page, fresh for each test */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->top, sizeof(f->top), "%s/kbench-loads.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(f->top))
		return -1;
	snprintf(f->dir, sizeof(f->dir), "%s/load", f->top);
	if (mkdir(f->dir, 0755) != 0)
		return -1;
	f->sh = mmap(NULL, sizeof(*f->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		     -1, 0);
	if (f->sh == MAP_FAILED)
		return -1;
	*state = f;
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	nftw(f->top, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	munmap(f->sh, sizeof(*f->sh));
	free(f);
	return 0;
}

/* Start ld as the driver does, on dir; the leader's pid, which is its group's id. */
static pid_t start(const struct load *ld, const char *dir, struct load_shared *sh)
{
	struct load_ctx ctx = { .dir = dir, .scale = TEST_SCALE, .sh = sh };
	uint64_t total;
	pid_t pid;

	ctx.ncpu = plat_ncpu_online();
	if (ctx.ncpu < 1)
		ctx.ncpu = 1;
	if (plat_memory(&total, &ctx.mem_available) != 0)
		ctx.mem_available = 1ull << 30;
	/* A missing dir (the failure test) has no free space to ask about. */
	if (plat_disk_free(dir, &ctx.disk_free) != 0)
		ctx.disk_free = 1ull << 30;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		setpgid(0, 0);
		(void)plat_die_with_parent(SIGKILL);
		ld->run(&ctx);
		_exit(2);	/* run must never return */
	}
	/* Both sides set the group, so it exists whichever runs first. */
	(void)setpgid(pid, pid);
	return pid;
}

/*
 * Wait until the load is ready, has failed, or its leader has gone: 1 for
 * ready, 0 otherwise (with *status set when the leader was reaped here).
 */
static int wait_ready(pid_t pid, struct load_shared *sh, int *status)
{
	double until = now_s() + TEST_READY_S;

	*status = -1;
	while (now_s() < until) {
		if (atomic_load(&sh->failed))
			return 0;
		if (atomic_load(&sh->ready))
			return 1;
		if (waitpid(pid, status, WNOHANG) == pid)
			return 0;
		sleep_s(0.001);
	}
	return 0;
}

static void sum(const struct load_shared *sh, uint64_t *work, uint64_t *cpu_ns)
{
	*work = 0;
	*cpu_ns = 0;
	for (size_t i = 0; i < LOAD_MAX_SLOTS; i++) {
		*work += atomic_load_explicit(&sh->slot[i].work, memory_order_relaxed);
		*cpu_ns += atomic_load_explicit(&sh->slot[i].cpu_ns, memory_order_relaxed);
	}
}

/*
 * Kill the group and reap it: the leader, then whatever comes back here as
 * subreaper.  1 once no process of the group is left, 0 after 3 s.
 */
static int stop(pid_t pgid, int leader_reaped)
{
	double until = now_s() + 3;
	int st;

	(void)kill(-pgid, SIGKILL);
	if (!leader_reaped)
		while (waitpid(pgid, &st, 0) < 0 && errno == EINTR)
			;
	while (now_s() < until) {
		while (waitpid(-pgid, &st, WNOHANG) > 0)
			;
		if (kill(-pgid, 0) != 0 && errno == ESRCH)
			return 1;
		sleep_s(0.005);
	}
	return 0;
}

/* The names in dir other than . and .., in one string "a b ", for messages. */
static int names(const char *dir, char *buf, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	buf[0] = '\0';
	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		n++;
		strncat(buf, e->d_name, len - strlen(buf) - 1);
		strncat(buf, " ", len - strlen(buf) - 1);
	}
	closedir(d);
	return n;
}

static void test_table(void **state)
{
	static const char *const order[] = {
		"noload", "cacherun", "process_load", "ctar_load", "xtar_load", "io_load",
		"read_load", "list_load", "mem_load", "dbench_load",
	};
	const struct load *t = load_table();
	size_t n = load_count(), visible = 0;

	(void)state;
	assert_true(n > 0);
	for (size_t i = 0; i < n; i++) {
		assert_non_null(t[i].name);
		assert_non_null(t[i].unit);
		assert_non_null(t[i].summary);
		assert_true(t[i].name[0] && t[i].unit[0] && t[i].summary[0]);
		for (size_t j = 0; j < i; j++)
			if (strcmp(t[i].name, t[j].name) == 0)
				fail_msg("%s is in the table twice", t[i].name);
		assert_ptr_equal(load_find(t[i].name), &t[i]);
		if (!(t[i].flags & LOAD_HIDDEN)) {
			/* contest's order, hidden loads aside. */
			assert_true(visible < sizeof(order) / sizeof(order[0]));
			assert_string_equal(t[i].name, order[visible]);
			visible++;
		}
		if (strcmp(t[i].name, "noload") == 0 || strcmp(t[i].name, "cacherun") == 0)
			assert_null(t[i].run);
		else
			assert_non_null(t[i].run);
	}
	assert_int_equal(visible, sizeof(order) / sizeof(order[0]));
	assert_null(load_find("nosuch"));
	assert_non_null(load_find("tick_load"));
	assert_true(load_find("tick_load")->flags & LOAD_HIDDEN);
}

/* One visible load: ready, working, using CPU, then gone without a trace outside its dir. */
static void works(void **state, const char *name)
{
	struct fixture *f = *state;
	const struct load *ld = load_find(name);
	uint64_t work, cpu_ns;
	char seen[256];
	int status;
	pid_t pid;

	assert_non_null(ld);
	pid = start(ld, f->dir, f->sh);
	if (!wait_ready(pid, f->sh, &status)) {
		stop(pid, status != -1);
		fail_msg("%s did not get ready: %s (status %d)", name,
			 atomic_load(&f->sh->failed) ? f->sh->why : "no reason", status);
	}
	sleep_s(TEST_WORK_S);
	sum(f->sh, &work, &cpu_ns);
	if (atomic_load(&f->sh->failed)) {
		stop(pid, 0);
		fail_msg("%s failed: %s", name, f->sh->why);
	}
	assert_true(stop(pid, 0));
	print_message("%s: %llu %s, %.3f s CPU in %.1f s\n", name, (unsigned long long)work,
		      ld->unit, (double)cpu_ns / 1e9, TEST_WORK_S);
	if (work == 0)
		fail_msg("%s did no work in %.1f s", name, TEST_WORK_S);
	if (cpu_ns == 0)
		fail_msg("%s published no CPU time", name);
	if (names(f->top, seen, sizeof(seen)) != 1 || strcmp(seen, "load ") != 0)
		fail_msg("%s wrote outside its directory: %s", name, seen);
}

static void test_process_load(void **state) { works(state, "process_load"); }
static void test_ctar_load(void **state) { works(state, "ctar_load"); }
static void test_xtar_load(void **state) { works(state, "xtar_load"); }
static void test_io_load(void **state) { works(state, "io_load"); }
static void test_read_load(void **state) { works(state, "read_load"); }
static void test_list_load(void **state) { works(state, "list_load"); }
static void test_mem_load(void **state) { works(state, "mem_load"); }
static void test_dbench_load(void **state) { works(state, "dbench_load"); }

/*
 * The window accounting: tick_load does one unit per 10 ms on an absolute
 * schedule, so the counters read at two instants differ by the time
 * between them / 10 ms, give or take one at each end and some slack for a
 * busy machine.
 */
static void test_tick_window(void **state)
{
	struct fixture *f = *state;
	uint64_t w0, w1, c0, c1;
	double t0, t1, expect;
	int status;
	pid_t pid;

	pid = start(load_find("tick_load"), f->dir, f->sh);
	assert_true(wait_ready(pid, f->sh, &status));
	sleep_s(0.05);
	sum(f->sh, &w0, &c0);
	t0 = now_s();
	sleep_s(0.5);
	sum(f->sh, &w1, &c1);
	t1 = now_s();
	assert_true(stop(pid, 0));
	expect = (t1 - t0) / 0.010;
	print_message("tick_load: %llu ticks in %.4f s (expected %.1f)\n",
		      (unsigned long long)(w1 - w0), t1 - t0, expect);
	assert_true((double)(w1 - w0) >= expect - 3 && (double)(w1 - w0) <= expect + 3);
	assert_true(c1 >= c0);
}

/* A load that fails: leader gone with status 1, failed set, and a why with the given words. */
static void fails(struct fixture *f, const char *name, const char *dir, const char *want1,
		  const char *want2)
{
	int status;
	pid_t pid;

	pid = start(load_find(name), dir, f->sh);
	/* It may fail while preparing or just after ready: give it a moment either way. */
	if (wait_ready(pid, f->sh, &status)) {
		for (int i = 0; i < 2000 && !atomic_load(&f->sh->failed); i++)
			sleep_s(0.001);
	}
	assert_true(atomic_load(&f->sh->failed));
	if (status == -1)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 1);
	assert_true(stop(pid, 1));
	print_message("%s\n", f->sh->why);
	if (!strstr(f->sh->why, name) || !strstr(f->sh->why, want1) ||
	    (want2 && !strstr(f->sh->why, want2)))
		fail_msg("why does not say '%s', '%s': %s", want1, want2 ? want2 : "", f->sh->why);
}

static void test_fail_no_dir(void **state)
{
	struct fixture *f = *state;
	char missing[400];

	snprintf(missing, sizeof(missing), "%s/nosuch", f->top);
	fails(f, "io_load", missing, missing, "no such file or directory");
}

/* A write that fails half-way through the work, through the platform layer. */
static void test_fail_write(void **state)
{
	struct fixture *f = *state;

	plat_inject("write", PLAT_FAULT_EIO, 3);
	fails(f, "io_load", f->dir, "write '", "io.dat': input/output error");
	plat_inject("write", PLAT_FAULT_NONE, 0);
}

/* Workers fail too: every dbench client's sixth unlink fails, the first to fail is reported. */
static void test_fail_worker(void **state)
{
	struct fixture *f = *state;

	plat_inject("unlink", PLAT_FAULT_EIO, 5);
	fails(f, "dbench_load", f->dir, "unlink '", "/f05': input/output error");
	plat_inject("unlink", PLAT_FAULT_NONE, 0);
}

static void test_fail_no_tar(void **state)
{
	struct fixture *f = *state;
	char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;

	setenv("PATH", f->top, 1);
	fails(f, "ctar_load", f->dir, "tar not found", NULL);
	if (path) {
		setenv("PATH", path, 1);
		free(path);
	} else {
		unsetenv("PATH");
	}
}

/* This process's children now, from /proc; their count (at most max). */
static size_t children(pid_t *pids, size_t max)
{
	char path[64];
	size_t n = 0;
	long pid;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
	fp = fopen(path, "r");
	if (!fp)
		return 0;
	while (n < max && fscanf(fp, "%ld", &pid) == 1)
		pids[n++] = (pid_t)pid;
	fclose(fp);
	return n;
}

/*
 * The driver dies between forking a load and telling its janitor of it:
 * the test switch load-orphan kills it there, and holds the load back
 * until then.  The load must see that it has lost its driver and leave,
 * also here, where its new parent is this process, a subreaper, and not
 * init: getppid() == 1, the old check, only held without a subreaper
 * (systemd --user, a container's init).  The janitor then removes the
 * private directory, and every process comes back here and ends.
 */
static void test_driver_orphan(void **state)
{
	struct fixture *f = *state;
	struct contest_cfg cfg = {
		.workload = "sleep 3", .size = 1, .jobs = 1, .tmproot = f->dir, .settle_s = 0.1,
		.scale = TEST_SCALE, .ncpu = 1, .mem_available = 1ull << 30,
	};
	char err[ERRBUF_LEN], left[512];
	pid_t driver, pids[16];
	double until;
	size_t n;
	int st;

	setenv("KBENCH_INJECT", "load-orphan", 1);
	driver = fork();
	assert_true(driver >= 0);
	if (driver == 0) {
		struct contest_measure m;

		(void)contest_measure(&cfg, load_find("tick_load"), &m, err);
		_exit(0);
	}
	unsetenv("KBENCH_INJECT");
	assert_int_equal(waitpid(driver, &st, 0), driver);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	/*
	 * The load and the janitor are ours now (without a subreaper, init's):
	 * every one of them must end, and the directory go.
	 */
	until = now_s() + 5;
	while (now_s() < until && ((waitpid(-1, &st, WNOHANG) >= 0 || errno != ECHILD) ||
				   names(f->dir, left, sizeof(left)) != 0))
		sleep_s(0.01);
	n = children(pids, sizeof(pids) / sizeof(pids[0]));
	for (size_t i = 0; i < n; i++) {
		(void)kill(-pids[i], SIGKILL);
		(void)kill(pids[i], SIGKILL);
		while (waitpid(pids[i], &st, 0) < 0 && errno == EINTR)
			;
	}
	assert_int_equal(n, 0);
	if (names(f->dir, left, sizeof(left)) != 0)
		fail_msg("the private directory was left: %s", left);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test_setup_teardown(test_process_load, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ctar_load, setup, teardown),
		cmocka_unit_test_setup_teardown(test_xtar_load, setup, teardown),
		cmocka_unit_test_setup_teardown(test_io_load, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_load, setup, teardown),
		cmocka_unit_test_setup_teardown(test_list_load, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mem_load, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dbench_load, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tick_window, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fail_no_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fail_write, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fail_worker, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fail_no_tar, setup, teardown),
		cmocka_unit_test_setup_teardown(test_driver_orphan, setup, teardown),
	};

	/* Orphaned workers of a killed load come back here, as to the driver. */
	(void)plat_subreaper();
	return cmocka_run_group_tests(tests, NULL, NULL);
}

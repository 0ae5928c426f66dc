/*
 * The guard (src/core/guard.c): a setting told to it is written back when
 * kbench dies without saying it is done (a child plays kbench and dies,
 * by _exit and by SIGKILL), the last change first, and nothing is written
 * when kbench says it is done.  Regular files stand for sysfs's.  And the
 * commands it runs (guard_run): killed with their process group at the
 * limit, run whatever becomes of their log, run by the guard at once when
 * kbench could not (guard_finish), and never twice at once when kbench
 * dies while running one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/guard.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/kbench-guard.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The file's text, once it is want or after tries x 10 ms. */
static void wait_for(const char *path, const char *want, char *got, size_t len, int tries)
{
	for (int i = 0; i < tries; i++) {
		FILE *f = fopen(path, "r");
		size_t n = 0;

		if (f) {
			n = fread(got, 1, len - 1, f);
			fclose(f);
		}
		got[n] = '\0';
		if (strcmp(got, want) == 0)
			return;
		struct timespec ts = { 0, 10 * 1000000L };
		nanosleep(&ts, NULL);
	}
}

/* A child starts a guard, changes a and b (a twice), and dies as told. */
static void play_kbench(const char *a, const char *b, int how)
{
	pid_t pid = fork();
	int st;

	assert_true(pid >= 0);
	if (pid == 0) {
		struct guard g;

		if (guard_start(&g) < 0)
			_exit(2);
		if (guard_add(&g, a, "a0") < 0 || guard_write(a, "a1") < 0 ||
		    guard_add(&g, b, "b0") < 0 || guard_write(b, "b1") < 0 ||
		    guard_add(&g, a, "a1") < 0 || guard_write(a, "a2") < 0)
			_exit(3);
		if (how == 0) {
			/* Done: kbench put everything back itself. */
			guard_write(a, "a0");
			guard_write(b, "b0-self");
			guard_done(&g);
			_exit(0);
		}
		if (how == 1)
			_exit(1);	/* a crash */
		raise(SIGKILL);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (how == 2)
		assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	else
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == how);
}

static void check_death(int how)
{
	char a[128], b[128], got[64];

	snprintf(a, sizeof(a), "%s/a%d", dir, how);
	snprintf(b, sizeof(b), "%s/b%d", dir, how);
	put(a, "a0");
	put(b, "b0");
	play_kbench(a, b, how);
	/* The last change first: a goes a2 -> a1 -> a0, b back to b0. */
	wait_for(a, "a0", got, sizeof(got), 500);
	assert_string_equal(got, "a0");
	wait_for(b, "b0", got, sizeof(got), 500);
	assert_string_equal(got, "b0");
}

static void test_crash(void **state)
{
	(void)state;
	check_death(1);
}

static void test_sigkill(void **state)
{
	(void)state;
	check_death(2);
}

static void test_done_writes_nothing(void **state)
{
	char a[128], b[128], got[64];

	(void)state;
	snprintf(a, sizeof(a), "%s/a-done", dir);
	snprintf(b, sizeof(b), "%s/b-done", dir);
	put(a, "a0");
	put(b, "b0");
	play_kbench(a, b, 0);
	/* kbench wrote b0-self; a guard that wrote anyway would have made it b0 (0.3 s to). */
	wait_for(b, "b0", got, sizeof(got), 30);
	assert_string_equal(got, "b0-self");
}

static void test_refuses_without_guard(void **state)
{
	struct guard g = { -1, -1, 0 };

	(void)state;
	assert_int_equal(guard_add(&g, "/nonexistent", "x"), -1);
	guard_done(&g);	/* nothing to do, no crash */
}

/* The file's text ("" when there is none). */
static void slurp(const char *path, char *got, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(got, 1, len - 1, f);
		fclose(f);
	}
	got[n] = '\0';
}

/* Whether any process's command line holds text (pgrep -f; [x] so the shell of system() does not). */
static int running(const char *text)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "pgrep -f '[%c]%s' >/dev/null", text[0], text + 1);
	return system(cmd) == 0;
}

static void test_run_limit_kills_the_group(void **state)
{
	struct guard_ran r;
	char cmd[160], mark[64], why[256];

	(void)state;
	/* A member that outlives the shell in its group is killed with it. */
	snprintf(mark, sizeof(mark), "sleep 3207.%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "%s & %s", mark, mark);
	assert_int_equal(guard_run(cmd, NULL, 0.3, NULL, &r), -1);
	assert_true(r.timed_out);
	assert_null(r.call);
	guard_ran_text(&r, why, sizeof(why));
	assert_string_equal(why, "ran past its limit of 0.3 s and was killed");
	for (int i = 0; i < 500 && running(mark); i++) {
		struct timespec ts = { 0, 10 * 1000000L };

		nanosleep(&ts, NULL);
	}
	assert_false(running(mark));
}

static void test_run_without_its_log(void **state)
{
	struct guard_ran r;
	char log[128], out[128], cmd[256], got[64], why[256];

	(void)state;
	snprintf(log, sizeof(log), "%s/gone/switch.log", dir);
	snprintf(out, sizeof(out), "%s/ran", dir);
	snprintf(cmd, sizeof(cmd), "echo ran >%s; exit 3", out);
	assert_int_equal(guard_run(cmd, log, 10, NULL, &r), -1);
	assert_true(r.ran);
	assert_int_equal(r.log_err, ENOENT);
	guard_ran_text(&r, why, sizeof(why));
	assert_string_equal(why, "exit status 3");
	slurp(out, got, sizeof(got));
	assert_string_equal(got, "ran\n");
}

/* A child starts a guard with cmd to run, and ends it with guard_finish: its answer is the exit status. */
static int finish_with(const char *cmd)
{
	pid_t pid = fork();
	int st;

	assert_true(pid >= 0);
	if (pid == 0) {
		struct guard g;

		if (guard_start(&g) < 0 || guard_add_command(&g, cmd, 10) < 0)
			_exit(2);
		_exit(guard_finish(&g) == 0 ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static void test_finish_runs_and_answers(void **state)
{
	char out[128], cmd[256], got[64];

	(void)state;
	snprintf(out, sizeof(out), "%s/finished", dir);
	snprintf(cmd, sizeof(cmd), "echo again >>%s", out);
	assert_int_equal(finish_with(cmd), 0);
	slurp(out, got, sizeof(got));
	assert_string_equal(got, "again\n");
	snprintf(cmd, sizeof(cmd), "echo again >>%s; false", out);
	assert_int_equal(finish_with(cmd), 1);
	slurp(out, got, sizeof(got));
	assert_string_equal(got, "again\nagain\n");
}

static void test_death_while_running_waits(void **state)
{
	char out[128], mark[128], cmd[512], got[128];
	struct stat sb;
	pid_t pid;
	int st;

	(void)state;
	snprintf(out, sizeof(out), "%s/order", dir);
	snprintf(mark, sizeof(mark), "%s/begun", dir);
	snprintf(cmd, sizeof(cmd), "echo start >>%s; : >%s; sleep 0.5; echo end >>%s", out, mark, out);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct guard g;
		struct guard_ran r;

		if (guard_start(&g) < 0 || guard_add_command(&g, cmd, 10) < 0)
			_exit(2);
		(void)guard_run(cmd, NULL, 10, &g, &r);
		_exit(3);
	}
	/* kbench dies while its run of the command is under way. */
	for (int i = 0; i < 1000 && stat(mark, &sb) != 0; i++) {
		struct timespec ts = { 0, 10 * 1000000L };

		nanosleep(&ts, NULL);
	}
	assert_int_equal(stat(mark, &sb), 0);
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	/* The guard's run comes after kbench's, never beside it. */
	wait_for(out, "start\nend\nstart\nend\n", got, sizeof(got), 1000);
	assert_string_equal(got, "start\nend\nstart\nend\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crash),
		cmocka_unit_test(test_sigkill),
		cmocka_unit_test(test_done_writes_nothing),
		cmocka_unit_test(test_refuses_without_guard),
		cmocka_unit_test(test_run_limit_kills_the_group),
		cmocka_unit_test(test_run_without_its_log),
		cmocka_unit_test(test_finish_runs_and_answers),
		cmocka_unit_test(test_death_while_running_waits),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

/*
 * The guard (src/core/guard.c): a setting told to it is written back when
 * kbench dies without saying it is done (a child plays kbench and dies,
 * by _exit and by SIGKILL), the last change first, and nothing is written
 * when kbench says it is done.  Regular files stand for sysfs's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crash),
		cmocka_unit_test(test_sigkill),
		cmocka_unit_test(test_done_writes_nothing),
		cmocka_unit_test(test_refuses_without_guard),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

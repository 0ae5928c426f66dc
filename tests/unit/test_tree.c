/*
 * contest's default job: the generated tree of C sources.  It must have the
 * size tree_nfiles promises, be the same byte for byte every time (or two
 * runs would time different jobs), build with make -j and run, and refuse
 * bad input with one clear message.  The build is skipped, saying so, where
 * make or cc is missing; a full disk is stood in for by RLIMIT_FSIZE, in a
 * child so the limit cannot touch the test's own output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/err.h"
#include "load/load.h"

/* Below 2 units for any calibration: the smallest tree there is. */
#define TINY 0.005

struct fixture {
	char a[256];	/* the tree under test */
	char b[256];	/* a second tree, to compare with the first */
};

static int make_tmp(char *buf, size_t len)
{
	snprintf(buf, len, "%s/kbench-tree.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(buf) ? 0 : -1;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f || make_tmp(f->a, sizeof(f->a)) < 0 || make_tmp(f->b, sizeof(f->b)) < 0) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	nftw(f->a, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	nftw(f->b, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(f);
	return 0;
}

/* Regular files under dir, counted recursively; those ending in suffix into *nsuffix. */
static size_t count_files(const char *dir, const char *suffix, size_t *nsuffix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;
	char path[1024];
	struct stat st;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		assert_int_equal(lstat(path, &st), 0);
		if (S_ISDIR(st.st_mode)) {
			n += count_files(path, suffix, nsuffix);
		} else {
			assert_true(S_ISREG(st.st_mode));
			n++;
			if (len >= strlen(suffix) && strcmp(e->d_name + len - strlen(suffix), suffix) == 0)
				(*nsuffix)++;
		}
	}
	closedir(d);
	return n;
}

/* The whole of a file, NUL-terminated; *len its size. */
static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long n;

	if (!fp)
		fail_msg("cannot open '%s': %s", path, strerror(errno));
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	assert_true(n >= 0);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = '\0';
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

/* Every file under a (at rel) has a byte-identical twin under b; their count. */
static size_t compare_trees(const char *a, const char *b, const char *rel)
{
	char pa[1024], pb[1024];
	DIR *d;
	struct dirent *e;
	size_t n = 0;

	snprintf(pa, sizeof(pa), "%s%s", a, rel);
	d = opendir(pa);
	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		char sub[512];
		struct stat st;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", rel, e->d_name);
		snprintf(pa, sizeof(pa), "%s%s", a, sub);
		snprintf(pb, sizeof(pb), "%s%s", b, sub);
		assert_int_equal(lstat(pa, &st), 0);
		if (S_ISDIR(st.st_mode)) {
			n += compare_trees(a, b, sub);
		} else {
			size_t la, lb;
			char *ta = slurp(pa, &la), *tb = slurp(pb, &lb);

			if (la != lb || memcmp(ta, tb, la) != 0)
				fail_msg("'%s' differs between two trees of the same size", sub);
			free(ta);
			free(tb);
			n++;
		}
	}
	closedir(d);
	return n;
}

/* Whether an executable called name is in a directory on PATH. */
static int on_path(const char *name)
{
	const char *p = getenv("PATH");
	char path[1024];

	while (p && *p) {
		size_t len = strcspn(p, ":");

		snprintf(path, sizeof(path), "%.*s/%s", (int)len, len ? p : ".", name);
		if (access(path, X_OK) == 0)
			return 1;
		p += len + (p[len] == ':');
	}
	return 0;
}

static void test_counts(void **state)
{
	struct fixture *f = *state;
	char err[ERRBUF_LEN] = "";
	size_t nc = 0;

	assert_int_equal(tree_make(f->a, TINY, err), 0);
	assert_int_equal(count_files(f->a, ".c", &nc), tree_nfiles(TINY));
	/* The smallest tree: two units and init/main.c. */
	assert_int_equal(nc, 3);
	assert_int_equal(tree_nfiles(TINY), tree_nfiles(1e-9));
	/* More size, more files: the default job is much bigger than the tiny one. */
	assert_true(tree_nfiles(0.5) > tree_nfiles(TINY));
	assert_true(tree_nfiles(1.0) > tree_nfiles(0.5));
	assert_true(tree_nfiles(2.0) >= 2 * tree_nfiles(1.0) - 10);
	/* Sizes tree_make refuses write nothing. */
	assert_int_equal(tree_nfiles(0), 0);
	assert_int_equal(tree_nfiles(-1), 0);
	assert_int_equal(tree_nfiles((double)NAN), 0);
	assert_int_equal(tree_nfiles(1e12), 0);
}

static void test_deterministic(void **state)
{
	struct fixture *f = *state;
	char err[ERRBUF_LEN] = "";
	char p0[512], p1[512];
	size_t l0, l1, nc = 0;
	char *t0, *t1;

	assert_int_equal(tree_make(f->a, 0.05, err), 0);
	assert_int_equal(tree_make(f->b, 0.05, err), 0);
	assert_int_equal(compare_trees(f->a, f->b, ""), tree_nfiles(0.05));
	assert_int_equal(compare_trees(f->b, f->a, ""), tree_nfiles(0.05));
	assert_int_equal(count_files(f->a, ".c", &nc), tree_nfiles(0.05));
	/* Units differ from each other, so no compile can reuse another's work. */
	snprintf(p0, sizeof(p0), "%s/kernel/file0.c", f->a);
	snprintf(p1, sizeof(p1), "%s/kernel/file4.c", f->a);
	t0 = slurp(p0, &l0);
	t1 = slurp(p1, &l1);
	assert_true(l0 != l1 || memcmp(t0, t1, l0) != 0);
	free(t0);
	free(t1);
}

static void test_builds_and_runs(void **state)
{
	struct fixture *f = *state;
	char err[ERRBUF_LEN] = "";
	char cmd[1024], prog[512];
	int st;

	if (!on_path("make") || !on_path("cc")) {
		print_message("# make or cc is not on PATH: the tree is not built\n");
		skip();
	}
	assert_int_equal(tree_make(f->a, TINY, err), 0);
	snprintf(cmd, sizeof(cmd), "make -s -j2 -C '%s' >/dev/null 2>&1", f->a);
	st = system(cmd);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("'%s' failed (status %d)", cmd, st);
	snprintf(prog, sizeof(prog), "%s/kbt", f->a);
	st = system(prog);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	/* clean leaves the sources, as they were. */
	snprintf(cmd, sizeof(cmd), "make -s -C '%s' clean >/dev/null 2>&1", f->a);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(access(prog, F_OK), -1);
	assert_int_equal(tree_make(f->b, TINY, err), 0);
	assert_int_equal(compare_trees(f->a, f->b, ""), tree_nfiles(TINY));
}

static void test_bad_dir(void **state)
{
	struct fixture *f = *state;
	char err[ERRBUF_LEN] = "";
	char missing[512], file[512];
	FILE *fp;

	snprintf(missing, sizeof(missing), "%s/missing", f->a);
	assert_int_equal(tree_make(missing, TINY, err), -1);
	assert_non_null(strstr(err, missing));
	assert_non_null(strstr(err, "no such file or directory"));

	/* A directory with something in it already. */
	snprintf(file, sizeof(file), "%s/precious", f->a);
	fp = fopen(file, "w");
	assert_non_null(fp);
	fclose(fp);
	assert_int_equal(tree_make(f->a, TINY, err), -1);
	assert_non_null(strstr(err, f->a));
	assert_non_null(strstr(err, "not empty"));
}

static void test_bad_size(void **state)
{
	static const double bad[] = { 0.0, -0.0, -1.0, -(double)INFINITY };
	struct fixture *f = *state;
	char err[ERRBUF_LEN];
	size_t nc = 0;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(tree_make(f->a, bad[i], err), -1);
		assert_non_null(strstr(err, "is not a positive number"));
	}
	err[0] = '\0';
	assert_int_equal(tree_make(f->a, (double)NAN, err), -1);
	assert_string_equal(err, "tree size nan is not a positive number");
	err[0] = '\0';
	assert_int_equal(tree_make(f->a, (double)INFINITY, err), -1);
	assert_non_null(strstr(err, "too large"));
	err[0] = '\0';
	assert_int_equal(tree_make(f->a, 1e12, err), -1);
	assert_non_null(strstr(err, "tree size 1e+12 is too large"));
	/* Refused before anything was written. */
	assert_int_equal(count_files(f->a, ".c", &nc), 0);
}

/*
 * A write that fails part-way (here files may not grow past 4 KiB, so the
 * headers fit and the first unit does not) is reported with the file's name
 * and the reason.  In a child: the limit must not reach the test's output.
 */
static void test_write_fails(void **state)
{
	struct fixture *f = *state;
	char err[ERRBUF_LEN] = "";
	char want[512];
	int fds[2], st;
	ssize_t n;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl;
		int rc;

		close(fds[0]);
		signal(SIGXFSZ, SIG_IGN);
		if (getrlimit(RLIMIT_FSIZE, &rl) != 0)
			_exit(2);
		rl.rlim_cur = 4096;
		if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
			_exit(2);
		rc = tree_make(f->a, TINY, err);
		if (write(fds[1], err, strlen(err)) < 0)
			_exit(2);
		_exit(rc == -1 ? 0 : 1);
	}
	close(fds[1]);
	n = read(fds[0], err, sizeof(err) - 1);
	close(fds[0]);
	assert_true(n >= 0);
	err[n] = '\0';
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) != 0)
		fail_msg("tree_make under a 4 KiB file limit: status %d, err '%s'", WEXITSTATUS(st), err);
	snprintf(want, sizeof(want), "cannot write '%s/kernel/file0.c': file too large", f->a);
	assert_string_equal(err, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_deterministic, setup, teardown),
		cmocka_unit_test_setup_teardown(test_builds_and_runs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_size, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_fails, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

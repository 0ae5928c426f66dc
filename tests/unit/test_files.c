/*
 * The file benchmarks clean up after themselves, also when they fail
 * half-way.  The runner removes each instance's private directory anyway,
 * so the command-line tests cannot see whether a benchmark's own teardown
 * did; here the rows are called directly, as the harness calls them, on a
 * directory the test owns, with a fault armed through the platform layer
 * in the middle of a sample: the sample fails with a reason naming the
 * call, and after teardown the directory is empty.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/bench.h"
#include "core/registry.h"
#include "plat/plat.h"

struct fixture {
	char dir[256];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "%s/kbench-files.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(f->dir))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	plat_inject("read", PLAT_FAULT_NONE, 0);
	plat_inject("write", PLAT_FAULT_NONE, 0);
	plat_inject("open", PLAT_FAULT_NONE, 0);
	plat_inject("unlink", PLAT_FAULT_NONE, 0);
	rmdir(f->dir);
	free(f);
	return 0;
}

/* Entries in dir other than . and .. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

/*
 * One sample of `id` as the harness does it (setup, prepare, run of n),
 * with `call` failing on its `after`-th use from the start of the run when
 * call is not NULL.  Returns run's status; ctx->err says why.
 */
static enum bench_status one_sample(const char *dir, const char *id, uint64_t n,
				    const char *call, enum plat_fault fault, unsigned after,
				    struct bench_ctx *ctx)
{
	const struct bench *b = registry_find(id);
	enum bench_status st = BENCH_OK;

	assert_non_null(b);
	memset(ctx, 0, sizeof(*ctx));
	ctx->tmpdir = dir;
	ctx->arg = b->arg;
	/* Small files: the test is about cleaning up, not about speed. */
	ctx->size = 1 << 20;
	if (b->setup)
		st = b->setup(ctx);
	assert_int_equal(st, BENCH_OK);
	if (b->prepare)
		assert_int_equal(b->prepare(ctx, n), BENCH_OK);
	if (call)
		plat_inject(call, fault, after);
	st = b->run(ctx, n);
	plat_inject(call ? call : "read", PLAT_FAULT_NONE, 0);
	if (b->teardown)
		b->teardown(ctx);
	return st;
}

static void test_clean_run_leaves_nothing(void **state)
{
	static const char *const ids[] = {
		"fs.create.0k", "fs.create.10k", "fs.delete.0k", "fs.delete.10k", "fs.reread.bw",
		"vm.mmap", "vm.mmap_reread.bw", "vm.page_fault",
	};
	struct fixture *f = *state;
	struct bench_ctx ctx;

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		if (one_sample(f->dir, ids[i], 20, NULL, PLAT_FAULT_NONE, 0, &ctx) != BENCH_OK)
			fail_msg("%s: %s", ids[i], ctx.err);
		if (entries(f->dir) != 0)
			fail_msg("%s left %d entries behind", ids[i], entries(f->dir));
	}
}

static void test_create_write_fails(void **state)
{
	struct fixture *f = *state;
	struct bench_ctx ctx;

	/* The 10th file's data cannot be written. */
	assert_int_equal(one_sample(f->dir, "fs.create.10k", 50, "write", PLAT_FAULT_EIO, 10, &ctx),
			 BENCH_FAIL);
	assert_non_null(strstr(ctx.err, "writing"));
	assert_int_equal(entries(f->dir), 0);
	/* A short write is a failure too, not a file of 9 KiB counted as 10. */
	assert_int_equal(one_sample(f->dir, "fs.create.10k", 50, "write", PLAT_FAULT_SHORT, 5, &ctx),
			 BENCH_FAIL);
	assert_int_equal(entries(f->dir), 0);
}

static void test_create_open_fails(void **state)
{
	struct fixture *f = *state;
	struct bench_ctx ctx;

	assert_int_equal(one_sample(f->dir, "fs.create.0k", 50, "open", PLAT_FAULT_EIO, 20, &ctx),
			 BENCH_FAIL);
	assert_non_null(strstr(ctx.err, "cannot create file"));
	assert_int_equal(entries(f->dir), 0);
}

static void test_delete_unlink_fails(void **state)
{
	struct fixture *f = *state;
	struct bench_ctx ctx;

	assert_int_equal(one_sample(f->dir, "fs.delete.10k", 50, "unlink", PLAT_FAULT_EIO, 25, &ctx),
			 BENCH_FAIL);
	assert_non_null(strstr(ctx.err, "cannot remove file"));
	/* Half the files were still there when it failed: teardown took them. */
	assert_int_equal(entries(f->dir), 0);
}

static void test_reread_damage_caught(void **state)
{
	struct fixture *f = *state;
	struct bench_ctx ctx;

	assert_int_equal(one_sample(f->dir, "fs.reread.bw", 2, "read", PLAT_FAULT_CORRUPT, 7, &ctx),
			 BENCH_FAIL);
	assert_non_null(strstr(ctx.err, "arrived damaged"));
	assert_int_equal(entries(f->dir), 0);
	assert_int_equal(one_sample(f->dir, "fs.reread.bw", 2, "read", PLAT_FAULT_SHORT, 3, &ctx),
			 BENCH_FAIL);
	assert_int_equal(entries(f->dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_clean_run_leaves_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_create_write_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_create_open_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_delete_unlink_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reread_damage_caught, setup, teardown),
	};

	registry_check();
	return cmocka_run_group_tests(tests, NULL, NULL);
}

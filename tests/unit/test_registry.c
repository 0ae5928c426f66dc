/*
 * The registry: every row valid, ids unique, lookups by id, glob and suite,
 * and the row checker rejecting the mistakes it exists to catch.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"

static enum bench_status nop(struct bench_ctx *ctx, uint64_t n)
{
	(void)ctx;
	(void)n;
	return BENCH_OK;
}

static void test_rows_valid(void **state)
{
	char err[ERRBUF_LEN];
	const struct bench *b;
	(void)state;
	registry_check();	/* aborts on a bad row */
	assert_true(registry_count() >= 12);
	for (size_t i = 0; (b = registry_at(i)) != NULL; i++) {
		assert_int_equal(registry_row_valid(b, err), 0);
		assert_ptr_equal(registry_find(b->id), b);
	}
	assert_null(registry_at(registry_count()));
}

static void test_catalogue_ids(void **state)
{
	/* The ids DESIGN.md promises for the "Processor, Processes" table. */
	static const char *const ids[] = {
		"sys.null", "sys.read", "sys.write", "sys.stat", "sys.fstat", "sys.open_close",
		"sys.select_tcp", "sig.install", "sig.catch", "proc.fork", "proc.exec", "proc.shell",
	};
	(void)state;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		const struct bench *b = registry_find(ids[i]);
		assert_non_null(b);
		assert_true(b->suites & SUITE_QUICK);
		assert_string_equal(bench_unit(b), "us");
	}
	assert_null(registry_find("sys.nul"));
}

static void test_select(void **state)
{
	char err[ERRBUF_LEN];
	size_t n;
	const struct bench **sel;
	(void)state;

	sel = registry_select(SUITE_QUICK, "sys.*,proc.fork", &n, err);
	assert_non_null(sel);
	assert_int_equal(n, 8);
	assert_string_equal(sel[0]->id, "sys.null");
	assert_string_equal(sel[7]->id, "proc.fork");
	free(sel);

	/* Every instance but the hidden suite's (kbench clocks' own rows). */
	sel = registry_select(0, NULL, &n, err);
	assert_non_null(sel);
	{
		size_t hidden = 0;

		for (size_t i = 0; i < registry_count(); i++)
			hidden += registry_at(i)->suites == SUITE_CLOCKS;
		assert_true(hidden > 0);
		assert_int_equal(n, registry_count() - hidden);
	}
	free(sel);
	sel = registry_select(SUITE_CLOCKS, NULL, &n, err);
	assert_non_null(sel);
	assert_true(n > 0 && sel[0]->suites == SUITE_CLOCKS);
	free(sel);
	assert_null(registry_select(0, "clockcall.*", &n, err));
	assert_int_equal(registry_suite_parse("clocks", &(unsigned){ 0 }), -1);

	sel = registry_select(SUITE_QUICK, "sys.null,nosuch.*", &n, err);
	assert_null(sel);
	assert_string_equal(err, "unknown benchmark 'nosuch.*' (see 'kbench list')");

	sel = registry_select(SUITE_QUICK, ",,", &n, err);
	assert_null(sel);
}

static void test_suites(void **state)
{
	unsigned bit;
	char buf[128];
	(void)state;
	assert_int_equal(registry_suite_parse("quick", &bit), 0);
	assert_int_equal(bit, SUITE_QUICK);
	assert_int_equal(registry_suite_parse("Quick", &bit), -1);
	registry_suite_names(SUITE_QUICK | SUITE_LMBENCH, buf, sizeof(buf));
	assert_string_equal(buf, "quick,lmbench");
}

static void test_bad_rows_rejected(void **state)
{
	char err[ERRBUF_LEN];
	const struct bench good = { .id = "x.y", .metric = METRIC_US, .suites = SUITE_QUICK,
				    .summary = "s", .run = nop };
	struct bench b;
	(void)state;
	assert_int_equal(registry_row_valid(&good, err), 0);

	b = good; b.id = "Sys.Null";
	assert_int_equal(registry_row_valid(&b, err), -1);
	b = good; b.id = "nodot";
	assert_int_equal(registry_row_valid(&b, err), -1);
	b = good; b.id = "a..b";
	assert_int_equal(registry_row_valid(&b, err), -1);
	b = good; b.run = NULL;
	assert_int_equal(registry_row_valid(&b, err), -1);
	b = good; b.summary = "";
	assert_int_equal(registry_row_valid(&b, err), -1);
	b = good; b.suites = 0;
	assert_int_equal(registry_row_valid(&b, err), -1);
	b = good; b.metric = METRIC_MBPS;	/* a bandwidth that is lower-better */
	assert_int_equal(registry_row_valid(&b, err), -1);
	assert_non_null(strstr(err, "higher-better"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_valid),
		cmocka_unit_test(test_catalogue_ids),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_suites),
		cmocka_unit_test(test_bad_rows_rejected),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

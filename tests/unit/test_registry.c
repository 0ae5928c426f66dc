/*
 * The registry: every row valid, ids unique, lookups by id, glob and suite,
 * and the row checker rejecting the mistakes it exists to catch; the
 * metric table the rows are held to, and the rate family's rows.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "core/result.h"

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
	/* '-' inside a word (AIM9's creat-clo), never at a word's ends. */
	b = good; b.id = "aim9.creat-clo";
	assert_int_equal(registry_row_valid(&b, err), 0);
	b = good; b.id = "aim9.-x";
	assert_int_equal(registry_row_valid(&b, err), -1);
	b = good; b.id = "aim9.x-";
	assert_int_equal(registry_row_valid(&b, err), -1);
	b = good; b.id = "a-.b";
	assert_int_equal(registry_row_valid(&b, err), -1);
	b = good; b.id = "x.y"; b.ops = -1;
	assert_int_equal(registry_row_valid(&b, err), -1);
	assert_non_null(strstr(err, "operations per iteration"));
	b = good; b.ops = 18000;
	assert_int_equal(registry_row_valid(&b, err), 0);
	b = good; b.run = NULL;
	assert_int_equal(registry_row_valid(&b, err), -1);
	b = good; b.summary = "";
	assert_int_equal(registry_row_valid(&b, err), -1);
	b = good; b.suites = 0;
	assert_int_equal(registry_row_valid(&b, err), -1);
	b = good; b.metric = METRIC_MBPS;	/* a bandwidth that is lower-better */
	assert_int_equal(registry_row_valid(&b, err), -1);
	assert_non_null(strstr(err, "higher-better"));
	b = good; b.metric = METRIC_CALLS;	/* a rate that is lower-better */
	assert_int_equal(registry_row_valid(&b, err), -1);
	assert_string_equal(err, "x.y: calls/s is higher-better, the row says lower");
	b = good; b.better = BETTER_HIGHER;	/* a time that is higher-better */
	assert_int_equal(registry_row_valid(&b, err), -1);
	assert_string_equal(err, "x.y: us is lower-better, the row says higher");
	b = good; b.metric = (enum bench_metric)99;
	assert_int_equal(registry_row_valid(&b, err), -1);
	assert_non_null(strstr(err, "bad metric"));
	b = good; b.metric = METRIC_CALLS; b.better = BETTER_HIGHER; b.flags = BENCH_CHEAP;
	assert_int_equal(registry_row_valid(&b, err), -1);
	assert_non_null(strstr(err, "times only"));
	b = good; b.unit = "";
	assert_int_equal(registry_row_valid(&b, err), -1);
	b = good; b.unit = "Thousand Double Precision Multiplications/second";	/* AIM9's longest */
	assert_int_equal(registry_row_valid(&b, err), 0);
	b = good; b.unit = "a unit text of sixty-four characters, one more than a result has";
	assert_int_equal((int)strlen(b.unit), 64);
	assert_int_equal(registry_row_valid(&b, err), -1);
	assert_non_null(strstr(err, "longer than 63 characters"));
}

/*
 * The metric table, row by row: each metric's unit, direction and how a
 * time per operation becomes its figure, known answers.
 */
static void test_metric_table(void **state)
{
	static const struct {
		enum bench_metric m;
		const char *unit;
		enum bench_better better;
		int time;
		double ns, bytes, figure;	/* one operation of ns moving bytes: figure */
	} want[] = {
		{ METRIC_US, "us", BETTER_LOWER, 1, 1500, 0, 1.5 },
		{ METRIC_NS, "ns", BETTER_LOWER, 1, 1500, 0, 1500 },
		/* 10^6 bytes in 1 ms: 1 GB/s. */
		{ METRIC_MBPS, "MB/s", BETTER_HIGHER, 0, 1e6, 1e6, 1000 },
		/* An add in 0.5 ns: 2000 million a second. */
		{ METRIC_MHZ, "MHz", BETTER_HIGHER, 0, 0.5, 0, 2000 },
		/* A call in 250 ns: 4 million a second. */
		{ METRIC_CALLS, "calls/s", BETTER_HIGHER, 0, 250, 0, 4e6 },
		/* AIM9's operations: one in 2 us, 500000 a second. */
		{ METRIC_OPS, "ops/s", BETTER_HIGHER, 0, 2000, 0, 5e5 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct metric *m = metric_get(want[i].m);

		assert_non_null(m);
		assert_string_equal(m->unit, want[i].unit);
		assert_int_equal(m->better, want[i].better);
		assert_int_equal(metric_is_time(m), want[i].time);
		assert_true(fabs(metric_figure(m, want[i].ns, want[i].bytes) - want[i].figure) <=
			    1e-9 * want[i].figure);
		/* A stored result knows its metric by the unit's text. */
		assert_int_equal(metric_unit_is_time(want[i].unit, BETTER_HIGHER), want[i].time);
		assert_int_equal(metric_unit_is_time(want[i].unit, BETTER_LOWER), want[i].time);
	}
	assert_null(metric_get((enum bench_metric)(METRIC_OPS + 1)));
	assert_null(metric_get((enum bench_metric)-1));
	/* A unit no metric has goes by its direction: a timed job's seconds, AIM9's rate. */
	assert_int_equal(metric_unit_is_time("s", BETTER_LOWER), 1);
	assert_int_equal(metric_unit_is_time("Signal Traps/second", BETTER_HIGHER), 0);
}

/* A row with a unit text of its own: listed, stored and checked with it. */
static void test_row_unit(void **state)
{
	char err[ERRBUF_LEN];
	const struct bench own = { .id = "aim9.signal_traps", .metric = METRIC_CALLS,
				   .better = BETTER_HIGHER, .unit = "Signal Traps/second",
				   .suites = SUITE_AIM9, .summary = "s", .run = nop };
	const struct bench plain = { .id = "x.y", .metric = METRIC_CALLS, .better = BETTER_HIGHER,
				     .suites = SUITE_QUICK, .summary = "s", .run = nop };
	struct result r;
	(void)state;
	assert_int_equal(registry_row_valid(&own, err), 0);
	assert_string_equal(bench_unit(&own), "Signal Traps/second");
	assert_string_equal(bench_unit(&plain), "calls/s");
	result_init(&r, &own);
	assert_string_equal(r.unit, "Signal Traps/second");
	assert_int_equal(r.better, BETTER_HIGHER);
	result_free(&r);
}

/* The rate family: nine rows in the table's order, calls/s, in rates and standard. */
static void test_rate_rows(void **state)
{
	static const char *const ids[] = {
		"rate.getppid", "rate.write", "rate.read", "rate.socket", "rate.select",
		"rate.gettimeofday", "rate.clock_gettime", "rate.clock_gettime_coarse", "rate.time",
	};
	char err[ERRBUF_LEN];
	const struct bench **sel;
	size_t n;
	(void)state;

	sel = registry_select(SUITE_RATES, NULL, &n, err);
	assert_non_null(sel);
	assert_int_equal(n, sizeof(ids) / sizeof(ids[0]));
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(sel[i]->id, ids[i]);
		assert_string_equal(bench_unit(sel[i]), "calls/s");
		assert_int_equal(sel[i]->better, BETTER_HIGHER);
		assert_true(sel[i]->suites & SUITE_STANDARD);
		assert_false(sel[i]->suites & SUITE_QUICK);
	}
	free(sel);
	sel = registry_select(SUITE_QUICK, "rate.*", &n, err);
	assert_non_null(sel);
	assert_int_equal(n, 0);
	free(sel);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_valid),
		cmocka_unit_test(test_catalogue_ids),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_suites),
		cmocka_unit_test(test_bad_rows_rejected),
		cmocka_unit_test(test_metric_table),
		cmocka_unit_test(test_row_unit),
		cmocka_unit_test(test_rate_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

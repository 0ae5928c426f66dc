/*
 * The catalogue of ids beyond the registry: its rows valid, each kind
 * knowing its own ids and refusing the rest, and catalog_known answering
 * for registry rows and kinds alike, with the unit and direction an import
 * checks a result against (clock.<source>.<call> taking its calls from the
 * clockcall.* rows); and compare giving each kind its section, after
 * lmbench's and before "Other".
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/catalog.h"
#include "core/registry.h"
#include "load/load.h"
#include "report/compare.h"

/* What catalog_known says of id: whether known, and then its unit and direction. */
static int known(const char *id, const char **unit, enum bench_better *better)
{
	*unit = "unset";
	*better = (enum bench_better)-1;
	return catalog_known(id, unit, better);
}

static void test_rows_valid(void **state)
{
	(void)state;
	catalog_check();	/* aborts on a bad row */
	assert_int_equal(catalog_count(), 3);
	/* compare prints the kinds' sections in this order, after lmbench's. */
	assert_string_equal(catalog_at(0)->prefix, "contest.");
	assert_string_equal(catalog_at(0)->title, "contest: the job's Time under each load (s)");
	assert_true(catalog_at(0)->own_tables);
	assert_string_equal(catalog_at(1)->prefix, "time.");
	assert_string_equal(catalog_at(1)->title, "Timed jobs: real time (s)");
	assert_true(catalog_at(1)->own_tables);
	assert_string_equal(catalog_at(2)->prefix, "clock.");
	assert_string_equal(catalog_at(2)->title, "Clock sources: ns per call");
	assert_true(catalog_at(2)->own_tables);
	/* The timed jobs' tables are made from the samples' usage: loaded always. */
	assert_false(catalog_at(0)->tables_need_samples);
	assert_true(catalog_at(1)->tables_need_samples);
	assert_false(catalog_at(2)->tables_need_samples);
	assert_null(catalog_at(catalog_count()));
}

static void test_registry_id(void **state)
{
	enum bench_better better;
	const char *unit;
	(void)state;
	/* A registry row is no kind's, but known, in the row's own unit. */
	assert_null(catalog_find("sys.null"));
	assert_null(catalog_prefixed("sys.null"));
	assert_int_equal(known("sys.null", &unit, &better), 1);
	assert_string_equal(unit, "us");
	assert_int_equal(better, BETTER_LOWER);
	assert_int_equal(known("mem.read.bw", &unit, &better), 1);
	assert_string_equal(unit, "MB/s");
	assert_int_equal(better, BETTER_HIGHER);
	/* Either pointer may be left out. */
	assert_int_equal(catalog_known("sys.null", NULL, NULL), 1);
}

static void test_contest(void **state)
{
	enum bench_better better;
	const char *unit;
	(void)state;
	assert_ptr_equal(catalog_find("contest.noload"), catalog_at(0));
	assert_int_equal(known("contest.noload", &unit, &better), 1);
	assert_string_equal(unit, "s");
	assert_int_equal(better, BETTER_LOWER);
	/* Every load, hidden ones included, is a contest id. */
	for (size_t i = 0; i < load_count(); i++) {
		char id[64];

		snprintf(id, sizeof(id), "contest.%s", load_table()[i].name);
		assert_non_null(catalog_find(id));
	}
	/* A load no one knows: contest's prefix, but no id of contest's. */
	assert_null(catalog_find("contest.bogus"));
	assert_ptr_equal(catalog_prefixed("contest.bogus"), catalog_at(0));
	assert_int_equal(known("contest.bogus", &unit, &better), 0);
	assert_string_equal(unit, "unset");
	assert_null(catalog_find("contest."));
}

static void test_time(void **state)
{
	char name[64];
	enum bench_better better;
	const char *unit;
	(void)state;
	assert_ptr_equal(catalog_find("time.make"), catalog_at(1));
	assert_int_equal(known("time.make", &unit, &better), 1);
	assert_string_equal(unit, "s");
	assert_int_equal(better, BETTER_LOWER);
	/* Every character a name may hold. */
	assert_non_null(catalog_find("time.Kernel-6.18_gcc+O2"));
	/* The empty name, a bad character, a space. */
	assert_null(catalog_find("time."));
	assert_int_equal(known("time.", &unit, &better), 0);
	assert_null(catalog_find("time.a/b"));
	assert_int_equal(known("time.a/b", &unit, &better), 0);
	assert_ptr_equal(catalog_prefixed("time.a/b"), catalog_at(1));
	assert_null(catalog_find("time.a b"));
	/* 40 bytes of name, and one more. */
	memset(name, 'x', sizeof(name));
	memcpy(name, "time.", 5);
	name[5 + 40] = '\0';
	assert_non_null(catalog_find(name));
	name[5 + 40] = 'x';
	name[5 + 41] = '\0';
	assert_null(catalog_find(name));
}

static void test_clock(void **state)
{
	static const char *const calls[] = { "monotonic", "realtime", "monotonic_raw",
					     "monotonic_coarse", "gettimeofday", "time" };
	static const char *const bad[] = {
		"clock.", "clock.tsc", "clock.tsc.", "clock..monotonic", "clock.tsc.bogus",
		"clock.tsc.Monotonic", "clock.t sc.time", "clock.t/sc.time", "clock.tsc.x.time",
		"clock.tsc.monotonic.", "clock.tsc.clockcall.time",
	};
	char id[96];
	enum bench_better better;
	const char *unit;
	(void)state;
	/* Each call the clockcall.* rows measure, under sources as kernels name them. */
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		snprintf(id, sizeof(id), "clock.tsc.%s", calls[i]);
		assert_ptr_equal(catalog_find(id), catalog_at(2));
		assert_int_equal(known(id, &unit, &better), 1);
		assert_string_equal(unit, "ns");
		assert_int_equal(better, BETTER_LOWER);
		snprintf(id, sizeof(id), "clock.kvm-clock.%s", calls[i]);
		assert_non_null(catalog_find(id));
		snprintf(id, sizeof(id), "clock.arch_sys_counter.%s", calls[i]);
		assert_non_null(catalog_find(id));
		snprintf(id, sizeof(id), "clock.ACPI-pm_2.%s", calls[i]);
		assert_non_null(catalog_find(id));
		/* The registry row itself is no stored id of the kind. */
		snprintf(id, sizeof(id), "clockcall.%s", calls[i]);
		assert_null(catalog_find(id));
		assert_non_null(registry_find(id));
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_null(catalog_find(bad[i]));
		assert_int_equal(known(bad[i], &unit, &better), 0);
	}
	/* A source of 32 characters, and one of 33. */
	memset(id, 0, sizeof(id));
	memcpy(id, "clock.", 6);
	memset(id + 6, 'x', 32);
	memcpy(id + 6 + 32, ".time", 6);
	assert_non_null(catalog_find(id));
	memset(id + 6, 'x', 33);
	memcpy(id + 6 + 33, ".time", 6);
	assert_null(catalog_find(id));
	assert_ptr_equal(catalog_prefixed("clock.bogus"), catalog_at(2));
	assert_null(catalog_prefixed("clockcall.time"));
}

static void test_unknown(void **state)
{
	enum bench_better better;
	const char *unit;
	static const char *const ids[] = { "bogus.x", "", "contest", "time", "Time.make",
					   "xtime.make", "sys.nul" };
	(void)state;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		assert_null(catalog_find(ids[i]));
		assert_int_equal(known(ids[i], &unit, &better), 0);
	}
	assert_null(catalog_prefixed("bogus.x"));
	assert_null(catalog_prefixed("xtime.make"));
}

/* The ids of the compare test, each in the section it must land in. */
static const struct {
	const char *id;
	const char *section;
} cmp_ids[] = {
	{ "sys.null", "Processor, processes (us)" },
	{ "contest.noload", "contest: the job's Time under each load (s)" },
	{ "contest.gone_load", "contest: the job's Time under each load (s)" },
	{ "time.make", "Timed jobs: real time (s)" },
	/* A job's name ending in .bw is still a job, not a bandwidth. */
	{ "time.x.bw", "Timed jobs: real time (s)" },
	{ "clock.tsc.monotonic", "Clock sources: ns per call" },
	{ "clock.kvm-clock.time", "Clock sources: ns per call" },
	{ "bogus.x", "Other" },
};
#define NCMP (sizeof(cmp_ids) / sizeof(cmp_ids[0]))

/* A result of id with samples 1, 2, 3 times scale, as a run would store it. */
static void cmp_result(struct result *r, const char *id, double scale)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->id, sizeof(r->id), "%s", id);
	snprintf(r->unit, sizeof(r->unit), "%s", strncmp(id, "sys.", 4) == 0 ? "us"
		 : strncmp(id, "clock.", 6) == 0 ? "ns" : "s");
	r->better = BETTER_LOWER;
	r->status = RES_OK;
	r->placement = PLACE_NA;
	r->parallel = 1;
	r->interference = -1;
	r->median = 2 * scale;
	r->ci_low = scale;
	r->ci_high = 3 * scale;
	r->n = 3;
	r->samples = malloc(3 * sizeof(*r->samples));
	assert_non_null(r->samples);
	for (size_t i = 0; i < 3; i++)
		r->samples[i] = (double)(i + 1) * scale;
}

static void test_compare_sections(void **state)
{
	struct result base[NCMP], other[NCMP];
	struct run_info runs[2] = { { .label = "base", .results = base, .nresults = NCMP },
				    { .label = "other", .results = other, .nresults = NCMP } };
	const struct judge_cmp_side sides[2] = { { "base", &runs[0], 1 },
						  { "other", &runs[1], 1 } };
	struct judge_cmp_row *rows;
	size_t nrows, len = 0;
	char *text = NULL;
	const char *at = NULL;
	FILE *out;
	(void)state;

	for (size_t i = 0; i < NCMP; i++) {
		cmp_result(&base[i], cmp_ids[i].id, 1);
		cmp_result(&other[i], cmp_ids[i].id, 1.5);
	}
	assert_int_equal(judge_compare_build(sides, 2, 0.02, 0, &rows, &nrows), 0);
	assert_int_equal(nrows, NCMP);
	out = open_memstream(&text, &len);
	assert_non_null(out);
	assert_int_equal(report_compare_text(out, sides, 2, rows, nrows, 0.02, 0), 0);
	assert_int_equal(fclose(out), 0);
	/* Each id under its section's title, the titles in the order of cmp_ids. */
	for (size_t i = 0; i < NCMP; i++) {
		char title[96];
		const char *t, *row;

		/* A title is a line of its own, the first one the text's first line. */
		snprintf(title, sizeof(title), "%s\n", cmp_ids[i].section);
		for (t = strstr(text, title); t && t != text && t[-1] != '\n'; t = strstr(t + 1, title))
			;
		row = strstr(text, cmp_ids[i].id);
		assert_non_null(t);
		assert_non_null(row);
		assert_true(t < row);
		assert_true(!at || at <= t);
		at = t;
		/* No other section's title between the id and its own. */
		for (const char *p = t + 1; p < row; p++)
			assert_false(p[0] == '\n' && p[1] == '\n');
	}
	free(text);
	free(rows);
	for (size_t i = 0; i < NCMP; i++) {
		result_free(&base[i]);
		result_free(&other[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_valid),
		cmocka_unit_test(test_registry_id),
		cmocka_unit_test(test_contest),
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_compare_sections),
	};
	registry_check();
	return cmocka_run_group_tests(tests, NULL, NULL);
}

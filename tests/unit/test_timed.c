/*
 * kbench time's pieces that can be checked against known answers: BSD
 * time's line (golden strings, as in the seeds), the stored form of a
 * configuration's runs (timed_result: the run figure is the median of its
 * copies, the interval comes from the runs), and the Timed jobs tables
 * (golden text for a fixed set of runs).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "load/timed.h"
#include "report/timed.h"

static void test_bsd_line(void **state)
{
	char buf[128];

	(void)state;
	/* The seeds' lines, byte for byte. */
	report_time_line(buf, sizeof(buf), 9611.42, 6149.87, 2613.20);
	assert_string_equal(buf, "     9611.42 real      6149.87 user      2613.20 sys");
	report_time_line(buf, sizeof(buf), 137.95, 277.44, 155.28);
	assert_string_equal(buf, "      137.95 real       277.44 user       155.28 sys");
	report_time_line(buf, sizeof(buf), 4207.85, 4869.90, 20673.71);
	assert_string_equal(buf, "     4207.85 real      4869.90 user     20673.71 sys");
	/* Below a second, tenths of a millisecond: a 4 ms job is not "0.00 real". */
	report_time_line(buf, sizeof(buf), 0.004, 0, 0.001);
	assert_string_equal(buf, "      0.0040 real       0.0000 user       0.0010 sys");
	report_time_line(buf, sizeof(buf), 1.004, 0.5, 0.001);
	assert_string_equal(buf, "        1.00 real         0.50 user         0.00 sys");
}

static struct timeval tv(double s)
{
	struct timeval t = { (time_t)s, (suseconds_t)((s - floor(s)) * 1e6 + 0.5) };

	return t;
}

/*
 * A series of nruns runs of copies copies: copy k of run r took
 * real[r] + 0.1 * k seconds, user 2 x real, sys 0.5.
 */
static void fill_series(struct timed_series *s, int jobs, int copies, const double *real,
			size_t nruns)
{
	memset(s, 0, sizeof(*s));
	s->jobs = jobs;
	s->copies = copies;
	s->nruns = nruns;
	s->interference = 0.01;
	s->done = calloc(nruns * (size_t)copies, sizeof(*s->done));
	s->release = calloc(nruns, sizeof(double));
	s->wall = calloc(nruns, sizeof(double));
	assert_non_null(s->done);
	for (size_t r = 0; r < nruns; r++) {
		s->release[r] = 100.0 * (double)r;
		s->wall[r] = real[r] + 1;
		for (int k = 0; k < copies; k++) {
			struct timed_copy *t = &s->done[r * (size_t)copies + (size_t)k];

			t->real = real[r] + 0.1 * k;
			t->start = 0.001 * k;
			t->ru.ru_utime = tv(2 * t->real);
			t->ru.ru_stime = tv(0.5);
			t->ru.ru_maxrss = 1000 + k;
			t->ru.ru_nvcsw = 10;
		}
	}
}

static void free_series(struct timed_series *s)
{
	free(s->done);
	free(s->release);
	free(s->wall);
}

static double value(const struct result *r, const char *key)
{
	const struct bench_value *v = result_value(r, key);

	assert_non_null(v);
	return v->num;
}

static void test_result_one_copy(void **state)
{
	static const double real[5] = { 12, 10, 14, 11, 13 };
	struct timed_series s;
	struct result r;

	(void)state;
	fill_series(&s, 4, 1, real, 5);
	timed_result(&s, "time.make", "make -j4", &r);
	assert_string_equal(r.id, "time.make");
	assert_string_equal(r.unit, "s");
	assert_int_equal(r.better, BETTER_LOWER);
	assert_int_equal(r.status, RES_OK);
	assert_int_equal(r.jobs, 4);
	assert_int_equal(r.parallel, 1);
	/* Five runs: the median 12, and (fewer than 6) the interval is their range. */
	assert_true(fabs(r.median - 12) < 1e-9);
	assert_true(fabs(r.ci_low - 10) < 1e-9 && fabs(r.ci_high - 14) < 1e-9);
	assert_int_equal(r.n, 5);
	assert_int_equal(r.nreplicas, 5);
	assert_true(fabs(r.replicas[2].median - 14) < 1e-9);
	/* Each sample carries its run and its usage. */
	assert_non_null(r.usage);
	assert_non_null(r.where);
	assert_int_equal(r.where[3].replica, 3);
	assert_true(fabs(r.where[3].t - (300 + 11)) < 1e-9);	/* copy 1 started at 0 */
	assert_true(fabs(r.usage[3].user_s - 22) < 1e-6);
	assert_true(fabs(r.usage[3].sys_s - 0.5) < 1e-6);
	assert_int_equal(r.usage[3].copy, 1);
	assert_true(fabs(value(&r, "user_s") - 24) < 1e-6);
	assert_true(fabs(value(&r, "sys_s") - 0.5) < 1e-6);
	/* CPU% of run 12 s: (24 + 0.5) / 12. */
	assert_true(fabs(value(&r, "cpu_share") - 24.5 / 12) < 1e-6);
	assert_true(fabs(r.wall_s - (60 + 5)) < 1e-9);
	result_free(&r);
	free_series(&s);
}

static void test_result_copies(void **state)
{
	static const double real[3] = { 20, 22, 21 };
	struct timed_series s;
	struct result r;

	(void)state;
	fill_series(&s, 0, 4, real, 3);
	timed_result(&s, "time.x", "x", &r);
	assert_int_equal(r.parallel, 4);
	assert_int_equal(r.jobs, 0);
	assert_int_equal(r.n, 12);
	assert_int_equal(r.nreplicas, 3);
	/* Run 22's copies took 22, 22.1, 22.2, 22.3: its figure is their median. */
	assert_true(fabs(r.replicas[1].median - 22.15) < 1e-9);
	assert_true(fabs(r.replicas[1].lo - 22) < 1e-9 && fabs(r.replicas[1].hi - 22.3) < 1e-9);
	assert_true(fabs(r.median - 21.15) < 1e-9);
	/* The makespan: from the first start (0) to the last end (copy 4: 0.003 + 21.3). */
	assert_true(fabs(value(&r, "makespan_s") - 21.303) < 1e-9);
	assert_true(fabs(value(&r, "spread_s") - 0.303) < 1e-9);
	/* Copy 2 of run 2 ended 0.001 + 22.1 s after its release at 100. */
	assert_true(fabs(r.where[5].t - (100 + 0.001 + 22.1)) < 1e-9);
	assert_int_equal(r.usage[5].copy, 2);
	assert_int_equal(r.where[5].replica, 1);
	result_free(&r);
	free_series(&s);
}

static void test_result_failed(void **state)
{
	static const double real[2] = { 1, 2 };
	struct timed_series s;
	struct result r;

	(void)state;
	fill_series(&s, 0, 1, real, 2);
	s.failed = 1;
	s.why = "run 3: exit status 2";
	timed_result(&s, "time.x", "x", &r);
	/* A run that failed makes the configuration a failure, not a figure. */
	assert_int_equal(r.status, RES_FAIL);
	assert_true(isnan(r.median));
	assert_string_equal(r.reason, "run 3: exit status 2");
	result_free(&r);
	free_series(&s);
}

/* The tables, golden: a -j sweep of 1 and 2, and 2 copies at -j2, under one label. */
static void test_tables_golden(void **state)
{
	static const double r1[5] = { 40, 41, 39, 40.5, 39.5 }, r2[5] = { 21, 20, 22, 20.5, 21.5 };
	static const double rc[5] = { 41, 42, 40, 41.5, 40.5 };
	struct timed_series s[3];
	struct run_info run;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	static const char want[] =
		"Timed jobs - seconds - smaller is better\n"
		"Label [runs]               Name             -j copies            real            user             sys        CPU%\n"
		"6.18 [5]                   build             1      1    40.00 +-2.5%    80.00 +-2.5%   0.5000 +-0.0%    201 +-0%\n"
		"6.18 [5]                   build             2      1    21.00 +-4.8%    42.00 +-4.8%   0.5000 +-0.0%    202 +-0%\n"
		"6.18 [5]                   build             2      2    41.05 +-2.4%    82.10 +-2.4%   0.5000 +-0.0%    201 +-0%\n"
		/* 40 / 21 = 1.905; the intervals +-4.8% and +-2.5%, log(1.05) and log(41 / 40), combined. */
		"relative: real time, the medians' ratio +- its 95% interval\n"
		"  time.build: -j2 ran 1.90 +- 0.11 times faster than -j1\n"
		"  time.build: -j2 ran 1.95 +- 0.11 times faster than -j2 x2\n"
		"\n"
		"Scaling of time.build -j1, 6.18: real against -j\n"
		"      -j       real   speedup  efficiency\n"
		"       1      40.00     1.00x        100%\n"
		"       2      21.00     1.90x         95%\n"
		"\n"
		"Copies of time.build -j2 x2, 6.18: each copy, median of its runs\n"
		"  copy       real       user        sys   CPU%\n"
		"     1      41.00      82.00     0.5000    201\n"
		"     2      41.10      82.20     0.5000    201\n"
		"makespan 41.10 s (first start to last end), ends spread over 0.1010 s, throughput 1.02x one copy (21.00 s alone)\n";

	(void)state;
	assert_non_null(out);
	fill_series(&s[0], 1, 1, r1, 5);
	fill_series(&s[1], 2, 1, r2, 5);
	fill_series(&s[2], 2, 2, rc, 5);
	memset(&run, 0, sizeof(run));
	snprintf(run.label, sizeof(run.label), "6.18");
	run.results = calloc(3, sizeof(*run.results));
	assert_non_null(run.results);
	run.nresults = 3;
	for (int i = 0; i < 3; i++)
		timed_result(&s[i], "time.build", "make", &run.results[i]);
	assert_int_equal(report_timed_has(&run, 1), 1);
	assert_int_equal(report_timed_text(out, &run, 1, 0), 0);
	fclose(out);
	if (strcmp(text, want) != 0)
		fprintf(stderr, "got:\n%s", text);
	assert_string_equal(text, want);
	free(text);
	for (int i = 0; i < 3; i++)
		free_series(&s[i]);
	run_info_free(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bsd_line),
		cmocka_unit_test(test_result_one_copy),
		cmocka_unit_test(test_result_copies),
		cmocka_unit_test(test_result_failed),
		cmocka_unit_test(test_tables_golden),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

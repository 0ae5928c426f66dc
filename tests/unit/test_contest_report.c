/*
 * contest's tables past the sizes that once had fixed limits (issue 13):
 * the table dropped every label after the eighth without a word, and
 * summarised a label from its first 256 results only.  Every label must
 * get its row, every result its part in the median, and the labels that
 * compare cannot mark (it takes eight sides at once) must be said to be
 * unmarked.  The golden tables of a few labels are test_report's.
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
#include "report/contest.h"

/* One contest run of label: a single contest.noload result of Time t. */
static void fill(struct run_info *run, int64_t id, const char *label, double t)
{
	struct result *r;
	struct bench_value *v;

	memset(run, 0, sizeof(*run));
	run->id = id;
	snprintf(run->label, sizeof(run->label), "%s", label);
	snprintf(run->host, sizeof(run->host), "kbhost");
	snprintf(run->os, sizeof(run->os), "Linux 6.1");
	snprintf(run->started, sizeof(run->started), "2026-12-01T00:00:00Z");
	run->results = calloc(1, sizeof(*run->results));
	assert_non_null(run->results);
	run->nresults = 1;
	r = &run->results[0];
	snprintf(r->id, sizeof(r->id), "contest.noload");
	snprintf(r->unit, sizeof(r->unit), "s");
	r->better = BETTER_LOWER;
	r->status = RES_OK;
	r->median = r->ci_low = r->ci_high = r->min = r->max = r->mean = r->p5 = r->p95 = t;
	r->n = 1;
	r->iterations = 1;
	r->stop = STOP_MAX_SAMPLES;
	r->interference = -1;
	r->placement = PLACE_NA;
	r->parallel = 1;
	r->aggregate = NAN;
	r->drift = NAN;
	r->samples = malloc(sizeof(double));
	assert_non_null(r->samples);
	r->samples[0] = t;
	v = &r->values[r->nvalues++];
	snprintf(v->key, sizeof(v->key), "cpu_share");
	v->num = 1;
	v = &r->values[r->nvalues++];
	snprintf(v->key, sizeof(v->key), "load_unit");
	v->num = NAN;
	snprintf(v->text, sizeof(v->text), "-");
}

/* The table of runs as text (malloc'd). */
static char *table(const struct run_info *runs, size_t n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(report_contest_text(f, runs, n, 0.02), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

/* Twelve labels: twelve rows, and the four compare cannot mark said to be unmarked. */
static void test_many_labels(void **state)
{
	struct run_info runs[12];
	char label[16], row[64], *text;
	(void)state;

	for (int i = 0; i < 12; i++) {
		snprintf(label, sizeof(label), "k%02d", i);
		fill(&runs[i], i + 1, label, 10 + i);
	}
	text = table(runs, 12);
	for (int i = 0; i < 12; i++) {
		snprintf(row, sizeof(row), "\nk%02d ", i);
		if (!strstr(text, row))
			fail_msg("label k%02d has no row:\n%s", i, text);
	}
	/* The Ratio is against the first label's noload, for the last label too. */
	assert_non_null(strstr(text, "\nk11 ") && strstr(strstr(text, "\nk11 "), " 2.10\n"));
	assert_non_null(strstr(text, "the last 4 labels, from k08 on, are not marked"));
	free(text);
	/* Eight labels: all compared, nothing to say. */
	text = table(runs, 8);
	assert_null(strstr(text, "not marked"));
	assert_non_null(strstr(text, "\nk07 "));
	free(text);
	for (int i = 0; i < 12; i++)
		run_info_free(&runs[i]);
}

/*
 * 300 runs of one label: 130 of 1 s, then 170 of 2 s.  The median of all
 * of them is 2 s; of the first 256 alone (130 ones, 126 twos) it was 1 s.
 */
static void test_many_results(void **state)
{
	struct run_info *runs = calloc(300, sizeof(*runs));
	char *text;
	(void)state;

	assert_non_null(runs);
	for (int i = 0; i < 300; i++)
		fill(&runs[i], i + 1, "L", i < 130 ? 1.0 : 2.0);
	text = table(runs, 300);
	if (!strstr(text, "\nL [300] ") || !strstr(strstr(text, "\nL [300] "), " 2.000"))
		fail_msg("the median is not that of the 300 runs:\n%s", text);
	free(text);
	for (int i = 0; i < 300; i++)
		run_info_free(&runs[i]);
	free(runs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_labels),
		cmocka_unit_test(test_many_results),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

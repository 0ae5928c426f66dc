/*
 * Unit tests of the scalability curves (report/curve.c) on fake rates
 * with known answers: ids taken apart and refused; a run's points
 * gathered by curve in task order whatever the stored order, the unusable
 * ones left out; the linear extension of the 1-task figure and the
 * efficiency at each point; none of either without a 1-task point; and
 * a point found within its run as the JSON and the CSV ask for it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/result.h"
#include "report/curve.h"

static void test_ids(void **state)
{
	size_t len;
	int tasks;

	(void)state;
	assert_int_equal(curve_id("scale.page_fault.proc.2", &len, &tasks), 0);
	assert_int_equal(len, strlen("scale.page_fault.proc"));
	assert_int_equal(tasks, 2);
	assert_int_equal(curve_id("scale.unlink.thread.64", &len, &tasks), 0);
	assert_int_equal(tasks, 64);
	assert_int_equal(len, strlen("scale.unlink.thread"));
	/* No count, a count of 0 or past the limit, another shape, another family. */
	assert_int_equal(curve_id("scale.pipe.proc", &len, &tasks), -1);
	assert_int_equal(curve_id("scale.pipe.proc.0", &len, &tasks), -1);
	assert_int_equal(curve_id("scale.pipe.proc.65", &len, &tasks), -1);
	assert_int_equal(curve_id("scale.pipe.proc.2x", &len, &tasks), -1);
	assert_int_equal(curve_id("scale.pipe.fibre.2", &len, &tasks), -1);
	assert_int_equal(curve_id("scale.proc.2", &len, &tasks), -1);
	assert_int_equal(curve_id("ipc.pipe.proc.2", &len, &tasks), -1);
	assert_true(curve_is("scale.fork.thread.1"));
	assert_false(curve_is("sys.null"));
}

/* A measured point: its figure and interval as the level. */
static void point(struct result *r, const char *id, double rate, enum result_status st)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->id, sizeof(r->id), "%s", id);
	snprintf(r->unit, sizeof(r->unit), "ops/s");
	r->better = BETTER_HIGHER;
	r->status = st;
	r->median = r->level = rate;
	r->ci_low = r->level_low = rate * 0.99;
	r->ci_high = r->level_high = rate * 1.01;
}

static void test_fill(void **state)
{
	/* 1000 ops/s alone; 1800 by 2 tasks; 2400 by 4: 90% and 60% of the line. */
	struct curve_point p[3] = { { .tasks = 1, .rate = 1000 }, { .tasks = 2, .rate = 1800 },
				    { .tasks = 4, .rate = 2400 } };

	(void)state;
	curve_fill(p, 3);
	assert_float_equal(p[0].linear, 1000, 1e-9);
	assert_float_equal(p[0].efficiency, 1, 1e-12);
	assert_float_equal(p[1].linear, 2000, 1e-9);
	assert_float_equal(p[1].efficiency, 0.9, 1e-12);
	assert_float_equal(p[2].linear, 4000, 1e-9);
	assert_float_equal(p[2].efficiency, 0.6, 1e-12);
	/* Better than linear (a cache shared warm) is said as it is: above 1. */
	p[1].rate = 2100;
	curve_fill(p, 3);
	assert_float_equal(p[1].efficiency, 1.05, 1e-12);
	/* Without the 1-task point, no line to measure against. */
	curve_fill(p + 1, 2);
	assert_true(isnan(p[1].linear) && isnan(p[1].efficiency));
	assert_true(isnan(p[2].linear) && isnan(p[2].efficiency));
}

static void test_points(void **state)
{
	struct result res[7];
	struct run_info run = { .results = res, .nresults = 7 };
	struct curve_point p[8], pt;
	size_t n;

	(void)state;
	/* Stored out of order, with another curve, a failed point and another figure among them. */
	point(&res[0], "scale.pipe.proc.3", 2700, RES_OK);
	point(&res[1], "scale.pipe.thread.1", 500, RES_OK);
	point(&res[2], "scale.pipe.proc.1", 1000, RES_OK);
	point(&res[3], "scale.pipe.proc.2", 1500, RES_NOISY);
	point(&res[4], "scale.pipe.proc.4", 0, RES_FAIL);
	point(&res[5], "sys.null", 0.1, RES_OK);
	point(&res[6], "scale.pipe.thread.2", 1000, RES_OK);
	n = curve_points(&run, "scale.pipe.proc", strlen("scale.pipe.proc"), p, 8);
	assert_int_equal(n, 3);
	assert_int_equal(p[0].tasks, 1);
	assert_int_equal(p[1].tasks, 2);
	assert_int_equal(p[2].tasks, 3);
	assert_ptr_equal(p[1].r, &res[3]);
	assert_float_equal(p[1].linear, 2000, 1e-9);
	assert_float_equal(p[1].efficiency, 0.75, 1e-12);
	assert_float_equal(p[2].linear, 3000, 1e-9);
	assert_float_equal(p[2].efficiency, 0.9, 1e-12);
	assert_float_equal(p[2].lo, 2673, 1e-9);
	assert_float_equal(p[2].hi, 2727, 1e-9);
	/* The threads' curve is its own: 2 threads at exactly the line. */
	assert_int_equal(curve_point_of(&run, &res[6], &pt), 0);
	assert_int_equal(pt.tasks, 2);
	assert_float_equal(pt.linear, 1000, 1e-9);
	assert_float_equal(pt.efficiency, 1, 1e-12);
	/* No point: another figure, or a failed point. */
	assert_int_equal(curve_point_of(&run, &res[5], &pt), -1);
	assert_int_equal(curve_point_of(&run, &res[4], &pt), -1);
	/* The 1-task point failing leaves the others without a line. */
	res[2].status = RES_FAIL;
	assert_int_equal(curve_point_of(&run, &res[0], &pt), 0);
	assert_true(isnan(pt.linear) && isnan(pt.efficiency));
	assert_float_equal(pt.rate, 2700, 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_fill),
		cmocka_unit_test(test_points),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

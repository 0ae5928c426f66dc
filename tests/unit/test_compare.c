/*
 * kbench compare's table (judge_compare_build) on runs built in memory,
 * where the truth is known.  test_signif.c checks the tests themselves;
 * this checks what compare does with them: which test a row gets, that the
 * correction and the rules around it (threshold, noisy sides) decide
 * "significant" as the manual says, and that an instance is matched by id,
 * placement and copies.
 *
 * The simulations put all SIM_ROWS instances in one table rather than each
 * in a table of its own: Benjamini-Hochberg adjusts over a table, and a
 * table of a few hundred rows is what a full suite compared against
 * another gives, so that is the case whose false alarms and misses matter.
 * (SIM_ROWS tables of one row would leave the p-values unadjusted and test
 * only the raw 5% level, which test_signif.c does.)  The seed is fixed, so
 * a failure is reproducible and not a matter of luck.
 *
 * Then known answers worked by hand: 3 runs with medians 1, 2, 3 against
 * 2, 4, 6 (Welch on the logs is then a pure shift by ln 2; t, p and the
 * ratio's CI from the formulas, the t distribution integrated numerically),
 * and 1 run a side whose samples 1, 2, 3 and 4, 5, 6 do not overlap
 * (Mann-Whitney's exact p is 2 of C(6,3) = 20 orderings), and the JSON of
 * the first: the same numbers, and null where a side has no figure.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"
#include "stats/stats.h"

#define assert_near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

#define SIM_ROWS 200
#define SIM_MAX_RUNS 5
#define SIM_SAMPLES 15
#define SIM_SEED 20261201

/* One side of a simulated comparison: nruns runs of the same instances. */
struct sim_side {
	struct run_info runs[SIM_MAX_RUNS];
	size_t nruns;
};

/*
 * A measured result: its figure and CI are its samples' median and CI,
 * as the harness would make them.  The samples are copied.
 */
static void fill_result(struct result *r, const char *id, enum bench_better better,
			const double *samples, size_t n)
{
	struct stats_summary ss;

	memset(r, 0, sizeof(*r));
	snprintf(r->id, sizeof(r->id), "%s", id);
	snprintf(r->unit, sizeof(r->unit), "%s", better == BETTER_LOWER ? "us" : "MB/s");
	r->better = better;
	r->status = RES_OK;
	r->placement = PLACE_NA;
	r->parallel = 1;
	r->interference = -1;
	r->aggregate = (double)NAN;
	assert_int_equal(stats_summarize(samples, n, &ss), 0);
	r->median = ss.median;
	r->ci_low = ss.ci_low;
	r->ci_high = ss.ci_high;
	r->n = n;
	r->samples = malloc(n * sizeof(*r->samples));
	assert_non_null(r->samples);
	memcpy(r->samples, samples, n * sizeof(*r->samples));
}

/*
 * nruns runs of ninst instances "sim.K".  A run's level is 100 x shift x
 * lognormal(run_noise): what differs from one run to the next (where the
 * kernel put things, the neighbours); its SIM_SAMPLES samples scatter
 * around it by lognormal(sample_noise).
 */
static void sim_make(gsl_rng *rng, struct sim_side *sd, size_t nruns, size_t ninst,
		     enum bench_better better, double shift, double run_noise, double sample_noise)
{
	double x[SIM_SAMPLES];
	char id[32];

	assert_true(nruns <= SIM_MAX_RUNS);
	memset(sd, 0, sizeof(*sd));
	sd->nruns = nruns;
	for (size_t i = 0; i < nruns; i++) {
		struct run_info *run = &sd->runs[i];

		run->results = calloc(ninst, sizeof(*run->results));
		assert_non_null(run->results);
		run->nresults = ninst;
		for (size_t k = 0; k < ninst; k++) {
			double level = 100 * shift * exp(gsl_ran_gaussian(rng, run_noise));

			for (size_t j = 0; j < SIM_SAMPLES; j++)
				x[j] = level * exp(gsl_ran_gaussian(rng, sample_noise));
			snprintf(id, sizeof(id), "sim.%zu", k);
			fill_result(&run->results[k], id, better, x, SIM_SAMPLES);
		}
	}
}

static void sim_free(struct sim_side *sd)
{
	for (size_t i = 0; i < sd->nruns; i++)
		run_info_free(&sd->runs[i]);
}

/*
 * Every result of a side marked as having missed its precision, and every
 * third (instance 0, 3, 6...) with an interval +-20% wide: looser than its
 * run's typical figure by far (judge_loose), the others not.
 */
static void sim_noisy(struct sim_side *sd)
{
	for (size_t i = 0; i < sd->nruns; i++)
		for (size_t k = 0; k < sd->runs[i].nresults; k++) {
			struct result *r = &sd->runs[i].results[k];

			r->status = RES_NOISY;
			if (k % 3 == 0) {
				r->ci_low = r->median * 0.8;
				r->ci_high = r->median * 1.2;
			}
		}
}

#define SIM_LOOSE ((SIM_ROWS + 2) / 3)

static void sim_build(struct sim_side *base, struct sim_side *other, double threshold,
		      unsigned flags, struct judge_cmp_row **rows, size_t *nrows)
{
	const struct judge_cmp_side sides[2] = {
		{ "base", base->runs, base->nruns },
		{ "other", other->runs, other->nruns },
	};

	assert_int_equal(judge_compare_build(sides, 2, threshold, flags, rows, nrows), 0);
}

/* What a simulated table says of other against base. */
struct sim_count {
	size_t rows, common, flagged, better, worse, welch, mw, below;	/* below: p_adj < 0.05 */
};

static void sim_count(const struct judge_cmp_row *rows, size_t nrows, struct sim_count *c)
{
	memset(c, 0, sizeof(*c));
	c->rows = nrows;
	for (size_t k = 0; k < nrows; k++) {
		const struct judge_cmp_cell *o = &rows[k].cell[1];

		c->common += (size_t)rows[k].common;
		c->flagged += (size_t)o->significant;
		c->better += (size_t)(o->significant && o->better);
		c->worse += (size_t)(o->significant && !o->better);
		c->welch += o->test == CMP_TEST_WELCH_RUNS;
		c->mw += o->test == CMP_TEST_MW_SAMPLES;
		c->below += o->p_adj < 0.05;
	}
}

/* One simulated table of SIM_ROWS instances, counted. */
static void sim_table(gsl_rng *rng, size_t base_runs, size_t other_runs, enum bench_better better,
		      double shift, double run_noise, double sample_noise, double threshold,
		      struct sim_count *c)
{
	struct sim_side base, other;
	struct judge_cmp_row *rows;
	size_t nrows;

	sim_make(rng, &base, base_runs, SIM_ROWS, better, 1.0, run_noise, sample_noise);
	sim_make(rng, &other, other_runs, SIM_ROWS, better, shift, run_noise, sample_noise);
	sim_build(&base, &other, threshold, 0, &rows, &nrows);
	sim_count(rows, nrows, c);
	free(rows);
	sim_free(&base);
	sim_free(&other);
	assert_int_equal(c->rows, SIM_ROWS);
	assert_int_equal(c->common, SIM_ROWS);
	/* The counts on the test's output, so a run shows the figures, not just a pass. */
	print_message("# %zu vs %zu runs, shift %.2f: %zu of %zu flagged (%zu better, %zu worse;"
		      " welch %zu, mann-whitney %zu)\n", base_runs, other_runs, shift, c->flagged,
		      c->rows, c->better, c->worse, c->welch, c->mw);
}

static int setup_rng(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	if (!rng)
		return -1;
	gsl_rng_set(rng, SIM_SEED);
	*state = rng;
	return 0;
}

static int teardown_rng(void **state)
{
	gsl_rng_free(*state);
	return 0;
}

/* Same distribution, 5 runs a side, 2% noise: at most 5% false alarms. */
static void test_same_welch(void **state)
{
	struct sim_count c;

	sim_table(*state, 5, 5, BETTER_LOWER, 1.0, 0.02, 0.01, 0.02, &c);
	assert_int_equal(c.welch, SIM_ROWS);
	assert_true(c.flagged <= SIM_ROWS / 20);
}

/*
 * A 10% shift, 5 runs a side, 2% noise: at least 90% found, and each in
 * the direction the unit says: slower is worse for a time, faster is
 * better for a bandwidth.
 */
static void test_shift_welch(void **state)
{
	struct sim_count c;

	sim_table(*state, 5, 5, BETTER_LOWER, 1.10, 0.02, 0.01, 0.02, &c);
	assert_int_equal(c.welch, SIM_ROWS);
	assert_true(c.flagged >= SIM_ROWS * 9 / 10);
	assert_int_equal(c.worse, c.flagged);
	sim_table(*state, 5, 5, BETTER_LOWER, 1 / 1.10, 0.02, 0.01, 0.02, &c);
	assert_true(c.flagged >= SIM_ROWS * 9 / 10);
	assert_int_equal(c.better, c.flagged);
	sim_table(*state, 5, 5, BETTER_HIGHER, 1.10, 0.02, 0.01, 0.02, &c);
	assert_true(c.flagged >= SIM_ROWS * 9 / 10);
	assert_int_equal(c.better, c.flagged);
}

/*
 * Fewer than 3 runs a side (2 against 1): the samples are compared, with
 * Mann-Whitney, and marked so.  Real samples within a run are not
 * independent (they share its level), which is why compare calls this the
 * weaker evidence; here they are drawn independently (no run-to-run
 * noise), so the test's own promise holds and what is checked is the code
 * path: the test chosen, no ratio claimed, and at most 5% false alarms.
 */
static void test_same_mw(void **state)
{
	struct sim_side base, other;
	struct judge_cmp_row *rows;
	struct sim_count c;
	size_t nrows;

	sim_make(*state, &base, 2, SIM_ROWS, BETTER_LOWER, 1.0, 0, 0.02);
	sim_make(*state, &other, 1, SIM_ROWS, BETTER_LOWER, 1.0, 0, 0.02);
	sim_build(&base, &other, 0.02, 0, &rows, &nrows);
	sim_count(rows, nrows, &c);
	assert_int_equal(c.mw, SIM_ROWS);
	assert_true(c.flagged <= SIM_ROWS / 20);
	for (size_t k = 0; k < nrows; k++) {
		assert_int_equal(rows[k].cell[0].nruns, 2);
		assert_int_equal(rows[k].cell[1].nruns, 1);
		assert_true(isnan(rows[k].cell[1].ratio) && isnan(rows[k].cell[1].ratio_lo) &&
			    isnan(rows[k].cell[1].ratio_hi));
	}
	free(rows);
	sim_free(&base);
	sim_free(&other);
}

/*
 * A side that missed its precision, a third of its figures loose: with 3
 * runs a side, Welch on the run medians already holds the variation
 * between runs, so a 50% shift it finds beyond doubt is called a change
 * (on a drifting machine nearly every figure is noisy at 1%, and a rule
 * that never marks one would hide any regression); with one run a side
 * and no replicas, Mann-Whitney on the samples of one block understates
 * that variation, so a loose figure is never called a change there, and
 * one merely noisy like the rest of its run is.
 */
static void test_noisy_runs_and_samples(void **state)
{
	for (int noisy_side = 0; noisy_side < 2; noisy_side++)
		for (size_t nruns = 1; nruns <= 5; nruns += 4) {
			struct sim_side base, other;
			struct judge_cmp_row *rows;
			struct sim_count c;
			size_t nrows;

			sim_make(*state, &base, nruns, SIM_ROWS, BETTER_LOWER, 1.0, 0.02, 0.01);
			sim_make(*state, &other, nruns, SIM_ROWS, BETTER_LOWER, 1.5, 0.02, 0.01);
			sim_noisy(noisy_side == 0 ? &base : &other);
			sim_build(&base, &other, 0.02, 0, &rows, &nrows);
			sim_count(rows, nrows, &c);
			assert_int_equal(c.below, SIM_ROWS);
			assert_int_equal(nruns == 1 ? c.mw : c.welch, SIM_ROWS);
			assert_int_equal(c.flagged, nruns == 1 ? SIM_ROWS - SIM_LOOSE : SIM_ROWS);
			for (size_t k = 0; k < nrows; k++) {
				int loose = strcmp(rows[k].key->id, "sim.0") == 0 ||
					    atoi(rows[k].key->id + 4) % 3 == 0;

				assert_int_equal(rows[k].cell[noisy_side].noisy, loose);
				assert_false(rows[k].cell[!noisy_side].noisy);
				assert_true(nruns > 1 || !loose || !rows[k].cell[1].significant);
			}
			free(rows);
			sim_free(&base);
			sim_free(&other);
		}
}

/*
 * A machine whose clock moves (issue 12): each replica of each run sits at
 * its own clock, c = lognormal(3%), which the sentinel's adds around it
 * see (with 0.5% of their own noise), and its figure follows c to the
 * power 1.3 (what the system calls did here), on top of its run's own
 * level (1%) and its samples' (1%).  The other side's machine is 4%
 * slower throughout.  8 replicas a run, 5 runs a side.
 */
#define DRIFT_REPS 8
static void sim_drift(gsl_rng *rng, struct sim_side *sd, double shift, double machine,
		      int with_adds)
{
	double x[DRIFT_REPS];
	char id[32];

	memset(sd, 0, sizeof(*sd));
	sd->nruns = 5;
	for (size_t i = 0; i < sd->nruns; i++) {
		struct run_info *run = &sd->runs[i];

		run->results = calloc(SIM_ROWS, sizeof(*run->results));
		assert_non_null(run->results);
		run->nresults = SIM_ROWS;
		for (size_t k = 0; k < SIM_ROWS; k++) {
			struct result *r = &run->results[k];
			struct result_replica *rep = calloc(DRIFT_REPS, sizeof(*rep));
			double level = 100 * shift * exp(gsl_ran_gaussian(rng, 0.01));

			assert_non_null(rep);
			for (size_t j = 0; j < DRIFT_REPS; j++) {
				double c = machine * exp(gsl_ran_gaussian(rng, 0.03));

				x[j] = level * pow(c, 1.3) * exp(gsl_ran_gaussian(rng, 0.01));
				rep[j].median = rep[j].lo = rep[j].hi = x[j];
				rep[j].sentinel_sys = (double)NAN;
				rep[j].sentinel_user = with_adds ?
					0.25 * c * exp(gsl_ran_gaussian(rng, 0.005)) : (double)NAN;
			}
			snprintf(id, sizeof(id), "sim.%zu", k);
			fill_result(r, id, BETTER_LOWER, x, DRIFT_REPS);
			r->replicas = rep;
			r->nreplicas = DRIFT_REPS;
		}
	}
}

static void sim_drift_table(gsl_rng *rng, double shift, int with_adds, struct sim_count *c,
			    size_t *adjusted)
{
	struct sim_side base, other;
	struct judge_cmp_row *rows;
	size_t nrows;

	sim_drift(rng, &base, 1.0, 1.0, with_adds);
	sim_drift(rng, &other, shift, 1.04, with_adds);
	sim_build(&base, &other, 0.02, 0, &rows, &nrows);
	sim_count(rows, nrows, c);
	*adjusted = 0;
	for (size_t k = 0; k < nrows; k++) {
		const struct judge_cmp_cell *o = &rows[k].cell[1];

		if (o->test != CMP_TEST_WELCH_ADJUSTED)
			continue;
		(*adjusted)++;
		/* At equal adds: the slope found near the 1.3 put in, the change the ratio's. */
		assert_true(o->slope > 1.0 && o->slope < 1.6);
		assert_near(o->change, o->ratio - 1, 1e-12);
	}
	print_message("# drifting machine, shift %.2f, %s: %zu of %zu flagged, %zu at equal adds\n",
		      shift, with_adds ? "adds around each replica" : "no adds", c->flagged, c->rows,
		      *adjusted);
	free(rows);
	sim_free(&base);
	sim_free(&other);
}

/*
 * The machine 4% slower on the other side and no kernel change: taken at
 * equal adds nothing is marked, where the medians as they are mark the
 * machine's move in most rows; a 5% change on top of it: found in nearly
 * every row at equal adds, the replicas' own clock noise taken out.
 */
static void test_drift_adjusted(void **state)
{
	struct sim_count c;
	size_t adjusted;

	sim_drift_table(*state, 1.0, 1, &c, &adjusted);
	assert_int_equal(adjusted, SIM_ROWS);
	assert_true(c.flagged <= SIM_ROWS / 50);
	sim_drift_table(*state, 1.0, 0, &c, &adjusted);
	assert_int_equal(adjusted, 0);
	assert_true(c.flagged >= SIM_ROWS / 2);
	sim_drift_table(*state, 1.05, 1, &c, &adjusted);
	assert_int_equal(adjusted, SIM_ROWS);
	assert_true(c.flagged >= SIM_ROWS * 95 / 100);
	assert_int_equal(c.worse, c.flagged);
}

/*
 * The adds' own row, cpu.mhz, is the machine's speed: taken at equal adds
 * its change would be nothing, so it is compared as measured, while the
 * rows beside it are taken at equal adds.
 */
static void test_drift_sentinel_row(void **state)
{
	struct sim_side base, other;
	struct judge_cmp_row *rows;
	size_t nrows;

	sim_drift(*state, &base, 1.0, 1.0, 1);
	sim_drift(*state, &other, 1.0, 1.04, 1);
	for (size_t i = 0; i < 5; i++) {
		snprintf(base.runs[i].results[0].id, sizeof(base.runs[i].results[0].id), "cpu.mhz");
		snprintf(other.runs[i].results[0].id, sizeof(other.runs[i].results[0].id), "cpu.mhz");
	}
	sim_build(&base, &other, 0.02, 0, &rows, &nrows);
	assert_int_equal(nrows, SIM_ROWS);
	assert_true(rows[0].sentinel && !rows[1].sentinel);
	assert_int_equal(rows[0].cell[1].test, CMP_TEST_WELCH_RUNS);
	assert_true(isnan(rows[0].cell[1].slope));
	/* As measured: the machine's 4% (to the power 1.3) is in its change. */
	assert_true(rows[0].cell[1].change > 0.03);
	assert_int_equal(rows[1].cell[1].test, CMP_TEST_WELCH_ADJUSTED);
	free(rows);
	sim_free(&base);
	sim_free(&other);
}

/*
 * --as-measured on the same machine, 4% slower on the other side and no
 * kernel change: nothing is taken at equal adds, and the machine's move
 * (4% to the power 1.3) is each figure's change, held to the threshold
 * alone, so nearly every row is marked worse; at equal adds the same rows
 * are unchanged (test_drift_adjusted).
 */
static void test_as_measured(void **state)
{
	struct sim_side base, other;
	struct judge_cmp_row *rows;
	struct sim_count c;
	size_t nrows;

	sim_drift(*state, &base, 1.0, 1.0, 1);
	sim_drift(*state, &other, 1.0, 1.04, 1);
	sim_build(&base, &other, 0.02, JUDGE_CMP_AS_MEASURED, &rows, &nrows);
	sim_count(rows, nrows, &c);
	for (size_t k = 0; k < nrows; k++) {
		assert_int_equal(rows[k].cell[1].test, CMP_TEST_WELCH_RUNS);
		assert_true(isnan(rows[k].cell[1].slope));
	}
	assert_true(c.flagged >= SIM_ROWS * 9 / 10);
	assert_int_equal(c.worse, c.flagged);
	free(rows);
	sim_free(&base);
	sim_free(&other);
}

/*
 * Sides of one boot each (kbench kernels): the boots' own difference
 * (lognormal 0.3) is what an A/A of one kernel shows, and the samples of
 * one boot cannot see it.  Without pairs, Mann-Whitney on the samples
 * marks most rows; with JUDGE_CMP_PAIRS_ONLY none is tested or marked:
 * cannot tell, every row.
 */
static void test_pairs_only(void **state)
{
	struct sim_side base, other;
	struct judge_cmp_row *rows;
	struct sim_count c;
	size_t nrows;

	sim_make(*state, &base, 1, SIM_ROWS, BETTER_LOWER, 1.0, 0.3, 0.02);
	sim_make(*state, &other, 1, SIM_ROWS, BETTER_LOWER, 1.0, 0.3, 0.02);
	sim_build(&base, &other, 0.02, 0, &rows, &nrows);
	sim_count(rows, nrows, &c);
	assert_true(c.flagged >= SIM_ROWS / 2);
	free(rows);
	sim_build(&base, &other, 0.02, JUDGE_CMP_PAIRS_ONLY, &rows, &nrows);
	sim_count(rows, nrows, &c);
	assert_int_equal(c.flagged, 0);
	for (size_t k = 0; k < nrows; k++) {
		assert_int_equal(rows[k].cell[1].test, CMP_TEST_NONE);
		assert_int_equal(rows[k].cell[1].verdict, CMP_CANNOT_TELL);
	}
	free(rows);
	sim_free(&base);
	sim_free(&other);
}

static void test_threshold(void **state)
{
	struct sim_side base, other;
	struct judge_cmp_row *rows;
	struct sim_count c;
	size_t nrows;

	sim_make(*state, &base, 5, SIM_ROWS, BETTER_LOWER, 1.0, 0.001, 0.001);
	sim_make(*state, &other, 5, SIM_ROWS, BETTER_LOWER, 1.01, 0.001, 0.001);
	sim_build(&base, &other, 0.02, 0, &rows, &nrows);
	sim_count(rows, nrows, &c);
	free(rows);
	assert_int_equal(c.below, SIM_ROWS);
	assert_int_equal(c.flagged, 0);
	sim_build(&base, &other, 0.005, 0, &rows, &nrows);
	sim_count(rows, nrows, &c);
	free(rows);
	assert_int_equal(c.flagged, SIM_ROWS);
	assert_int_equal(c.worse, SIM_ROWS);
	sim_free(&base);
	sim_free(&other);
}

/* A result of one sample, placed. */
static void one_result(struct result *r, const char *id, enum placement place, double median)
{
	fill_result(r, id, BETTER_LOWER, &median, 1);
	r->placement = place;
}

/*
 * mem.lat.l2 measured 3 times a side, the other 10x slower: with the level
 * found at 256K everywhere it is a real change (significant); with the
 * other side's curves finding "L2" at 4M (a run that missed a level), the
 * runs measured different things and the row is not tested at all.
 */
static void test_levels_differ(void **state)
{
	struct result b[3], o[3];
	struct run_info br[3], orun[3];
	const struct judge_cmp_side sides[2] = { { "base", br, 3 }, { "other", orun, 3 } };
	struct judge_cmp_row *rows;
	size_t nrows;
	(void)state;

	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < 3; i++) {
			one_result(&b[i], "mem.lat.l2", PLACE_NA, 3.0 + 0.01 * i);
			one_result(&o[i], "mem.lat.l2", PLACE_NA, 30.0 + 0.1 * i);
			b[i].nvalues = o[i].nvalues = 1;
			snprintf(b[i].values[0].key, sizeof(b[i].values[0].key), "detected");
			snprintf(o[i].values[0].key, sizeof(o[i].values[0].key), "detected");
			b[i].values[0].num = 262144;
			o[i].values[0].num = pass == 0 ? 262144 : 4194304;
			br[i] = (struct run_info){ .results = &b[i], .nresults = 1 };
			orun[i] = (struct run_info){ .results = &o[i], .nresults = 1 };
		}
		assert_int_equal(judge_compare_build(sides, 2, 0.02, 0, &rows, &nrows), 0);
		assert_int_equal(nrows, 1);
		assert_int_equal(rows[0].levels_differ, pass == 1);
		assert_int_equal(rows[0].cell[1].significant, pass == 0);
		assert_int_equal(rows[0].cell[1].test, pass == 0 ? CMP_TEST_WELCH_RUNS : CMP_TEST_NONE);
		/* The figures are still shown; only the verdict is withheld. */
		assert_near(rows[0].cell[1].change, 30.1 / 3.01 - 1, 1e-9);
		free(rows);
		for (int i = 0; i < 3; i++) {
			result_free(&b[i]);
			result_free(&o[i]);
		}
	}
}

/* A curve of 3 "page" points, its y scaled at the last point by last. */
static void curve_result(struct result *r, double noise, double last)
{
	static const double xs[3] = { 4096, 8192, 16384 }, ys[3] = { 2, 5, 50 };

	one_result(r, "mem.lat.curve", PLACE_NA, 50 * last * noise);
	snprintf(r->unit, sizeof(r->unit), "ns");
	r->points = calloc(3, sizeof(*r->points));
	assert_non_null(r->points);
	r->npoints = 3;
	for (int k = 0; k < 3; k++) {
		snprintf(r->points[k].series, sizeof(r->points[k].series), "page");
		r->points[k].x = xs[k];
		r->points[k].y = ys[k] * noise * (k == 2 ? last : 1);
	}
}

/*
 * compare --curves: 3 runs a side, the other twice as slow at 16K only;
 * that point alone is marked, each point's figure the median of its runs.
 */
static void test_curves(void **state)
{
	static const double noise[3] = { 1.0, 1.01, 0.99 };
	struct result b[3], o[3];
	struct run_info br[3], orun[3];
	const struct judge_cmp_side sides[2] = { { "base", br, 3 }, { "other", orun, 3 } };
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	(void)state;

	for (int i = 0; i < 3; i++) {
		curve_result(&b[i], noise[i], 1);
		curve_result(&o[i], noise[i], 2);
		br[i] = (struct run_info){ .results = &b[i], .nresults = 1 };
		orun[i] = (struct run_info){ .results = &o[i], .nresults = 1 };
	}
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(report_compare_curves(f, sides, 2, 0.02), 0);
	fclose(f);
	assert_non_null(strstr(text, "\nmem.lat.curve (ns): each point's median over the runs\n"));
	assert_non_null(strstr(text, "\n      4K page         2.000     2.000    +0.0%\n"));
	assert_non_null(strstr(text, "\n     16K page         50.00     100.0  +100.0%*\n"));
	free(text);
	/* One run on the other side: figures, but no test, so no mark. */
	f = open_memstream(&text, &len);
	assert_non_null(f);
	const struct judge_cmp_side one[2] = { { "base", br, 3 }, { "other", orun, 1 } };
	assert_int_equal(report_compare_curves(f, one, 2, 0.02), 0);
	fclose(f);
	assert_non_null(strstr(text, "\n     16K page         50.00     100.0  +100.0%\n"));
	free(text);
	for (int i = 0; i < 3; i++) {
		result_free(&b[i]);
		result_free(&o[i]);
	}
}

/*
 * An instance is (id, placement, copies).  The base has A, B, C (placed
 * same) and D (2 copies); the other has A, C placed spread, D with 1 copy
 * and E.  Only A is common; B, C and D are rows (the base measured them)
 * with no figure on the other side; E, which the base lacks, is no row.
 */
static void test_instances(void **state)
{
	struct result b[4], o[4];
	struct run_info br = { .results = b, .nresults = 4 }, orun = { .results = o, .nresults = 4 };
	const struct judge_cmp_side sides[2] = { { "base", &br, 1 }, { "other", &orun, 1 } };
	struct judge_cmp_row *rows;
	size_t nrows;
	(void)state;

	one_result(&b[0], "sys.null", PLACE_NA, 1);
	one_result(&b[1], "sys.fstat", PLACE_NA, 2);
	one_result(&b[2], "ipc.pipe.lat", PLACE_SAME, 3);
	one_result(&b[3], "ctx.2p.0k", PLACE_NONE, 4);
	b[3].parallel = 2;
	one_result(&o[0], "sys.null", PLACE_NA, 1.5);
	one_result(&o[1], "ipc.pipe.lat", PLACE_SPREAD, 3);
	one_result(&o[2], "ctx.2p.0k", PLACE_NONE, 4);
	one_result(&o[3], "sys.read", PLACE_NA, 5);
	assert_int_equal(judge_compare_build(sides, 2, 0.02, 0, &rows, &nrows), 0);
	assert_int_equal(nrows, 4);
	for (size_t k = 0; k < nrows; k++) {
		const struct judge_cmp_cell *c = &rows[k].cell[1];

		assert_ptr_equal(rows[k].key, &b[k]);
		assert_int_equal(rows[k].common, k == 0);
		assert_int_equal(c->present, k == 0);
		if (k == 0) {
			assert_near(c->change, 0.5, 1e-12);
			continue;
		}
		/* Absent: no figure at all, rather than a zero that reads as one. */
		assert_true(isnan(c->median) && isnan(c->change) && isnan(c->p) && isnan(c->p_adj));
		assert_false(c->significant);
	}
	free(rows);
	for (int i = 0; i < 4; i++) {
		result_free(&b[i]);
		result_free(&o[i]);
	}
}

/* 3 runs a side, run medians 1, 2, 3 and 2, 4, 6 of one sample each. */
struct known {
	struct result b[3], o[3];
	struct run_info br[3], orun[3];
};

static void known_make(struct known *kn)
{
	for (int i = 0; i < 3; i++) {
		const double x = i + 1, y = 2 * (i + 1);

		fill_result(&kn->b[i], "sys.null", BETTER_LOWER, &x, 1);
		fill_result(&kn->o[i], "sys.null", BETTER_LOWER, &y, 1);
		kn->br[i] = (struct run_info){ .results = &kn->b[i], .nresults = 1 };
		kn->orun[i] = (struct run_info){ .results = &kn->o[i], .nresults = 1 };
	}
}

static void known_free(struct known *kn)
{
	for (int i = 0; i < 3; i++) {
		result_free(&kn->b[i]);
		result_free(&kn->o[i]);
	}
}

/*
 * Welch on the logs: var(ln 1, ln 2, ln 3) = 0.308634, the same on the
 * other side, so se = sqrt(2 x 0.308634 / 3) = 0.453603, t = ln 2 / se =
 * 1.528091 on 4 degrees of freedom, p = 0.2012116; the ratio's CI is
 * exp(ln 2 -+ 2.776445 se) = 0.567646 .. 7.046647.  The median of 3 runs
 * has no 95% interval of its own, so its CI is the runs' range.
 */
static void test_known_welch(void **state)
{
	struct known kn;
	const struct judge_cmp_side sides[2] = { { "base", kn.br, 3 }, { "other", kn.orun, 3 } };
	struct judge_cmp_row *rows;
	size_t nrows;
	(void)state;

	known_make(&kn);
	assert_int_equal(judge_compare_build(sides, 2, 0.02, 0, &rows, &nrows), 0);
	assert_int_equal(nrows, 1);
	assert_int_equal(rows[0].section, 1);	/* Processor, processes: sys.* */
	assert_true(rows[0].common);
	const struct judge_cmp_cell *b = &rows[0].cell[0], *o = &rows[0].cell[1];
	assert_int_equal(b->nruns, 3);
	assert_true(b->median == 2 && b->lo == 1 && b->hi == 3 && !b->noisy);
	assert_int_equal(o->nruns, 3);
	assert_true(o->median == 4 && o->lo == 2 && o->hi == 6);
	assert_true(o->change == 1.0);
	assert_int_equal(o->test, CMP_TEST_WELCH_RUNS);
	assert_near(o->ratio, 2.0, 1e-12);
	assert_near(o->ratio_lo, 0.5676458270698576, 1e-9);
	assert_near(o->ratio_hi, 7.046647415075135, 1e-9);
	assert_near(o->p, 0.2012116143306656, 1e-7);
	/* One comparison in the table: nothing to adjust for. */
	assert_near(o->p_adj, o->p, 1e-15);
	assert_false(o->significant);
	/* Twice the time is worse, significant or not. */
	assert_false(o->better);
	/*
	 * The one row's level is 5%; the estimate must clear t.975 se (1.259,
	 * over the bar's -ln 0.98), and does 4 times in 5 at t.80 se more.
	 */
	double se = 0.4536026, t80 = gsl_cdf_tdist_Qinv(0.2, 4);
	assert_near(o->detectable, expm1((2.7764451 + t80) * se), 1e-4);
	assert_int_equal(o->verdict, CMP_CANNOT_TELL);
	assert_int_equal(o->needed, (size_t)ceil(3 * pow(stats_detectable(se, 4) / log(1.02), 2)));
	free(rows);
	known_free(&kn);
}

/* A simulated table's cells: how many unchanged, marked; the median detectable. */
static double sim_verdicts(gsl_rng *rng, double shift, double run_noise, size_t *unchanged,
			   size_t *marked, size_t *needed)
{
	struct sim_side base, other;
	struct judge_cmp_row *rows;
	double d[SIM_ROWS];
	size_t nrows;

	sim_make(rng, &base, 5, SIM_ROWS, BETTER_LOWER, 1.0, run_noise, 0.01);
	sim_make(rng, &other, 5, SIM_ROWS, BETTER_LOWER, shift, run_noise, 0.01);
	sim_build(&base, &other, 0.05, 0, &rows, &nrows);
	*unchanged = *marked = *needed = 0;
	for (size_t k = 0; k < nrows; k++) {
		const struct judge_cmp_cell *o = &rows[k].cell[1];

		d[k] = o->detectable;
		/* A change of the threshold is never marked 4 times in 5: it must clear it. */
		assert_true(o->detectable > 0.05);
		assert_true(!o->significant || o->verdict == CMP_CHANGED);
		*unchanged += o->verdict == CMP_UNCHANGED;
		*marked += o->significant;
		*needed += o->needed > 5;
	}
	free(rows);
	sim_free(&base);
	sim_free(&other);
	gsl_sort(d, 1, SIM_ROWS);
	return d[SIM_ROWS / 2];
}

/*
 * The detectable change a row printed, as the honesty check of
 * bench/sittings.sh takes it: tables of 20 figures, nothing changed, runs
 * 3% apart; row 0 of the other side then moved by the detectable change
 * its A/A table printed for it, and the table built again: row 0 is
 * marked at least 4 times in 5 over the tables (a little more, as t.80
 * on 8 degrees of freedom is above the normal's).
 */
static void test_detectable_found(void **state)
{
	const int tables = 400;
	int found = 0;

	for (int t = 0; t < tables; t++) {
		struct sim_side base, other;
		struct judge_cmp_row *rows;
		size_t nrows;
		double f;

		sim_make(*state, &base, 5, 20, BETTER_LOWER, 1.0, 0.03, 0.01);
		sim_make(*state, &other, 5, 20, BETTER_LOWER, 1.0, 0.03, 0.01);
		sim_build(&base, &other, 0.05, 0, &rows, &nrows);
		f = 1 + rows[0].cell[1].detectable;
		free(rows);
		for (size_t i = 0; i < other.nruns; i++) {
			struct result *r = &other.runs[i].results[0];

			r->median *= f;
			r->ci_low *= f;
			r->ci_high *= f;
			for (size_t j = 0; j < r->n; j++)
				r->samples[j] *= f;
		}
		sim_build(&base, &other, 0.05, 0, &rows, &nrows);
		found += rows[0].cell[1].significant && rows[0].cell[1].change > 0;
		free(rows);
		sim_free(&base);
		sim_free(&other);
	}
	print_message("# a row moved by its printed detectable change: marked in %d of %d tables\n",
		      found, tables);
	assert_true(found >= tables * 3 / 4);
}

/*
 * Verdicts and the detectable change on simulated tables of 200 figures,
 * 5 runs a side, threshold 5%: runs 0.5% apart, nothing changed: nearly
 * all unchanged (their intervals well inside +-5%).  Runs 5% apart: the
 * intervals reach past 5%, so cannot tell, and the runs a side that would
 * tell are counted; and a true change of the median detectable size the
 * A/A table printed is then marked at least 4 times in 5 (more, since
 * with every row moved the correction asks less of each).
 */
static void test_verdicts(void **state)
{
	size_t unchanged, marked, needed;
	double d;

	sim_verdicts(*state, 1.0, 0.005, &unchanged, &marked, &needed);
	print_message("# runs 0.5%% apart: %zu of %d unchanged, %zu marked\n", unchanged, SIM_ROWS,
		      marked);
	assert_true(unchanged >= SIM_ROWS * 95 / 100 && marked <= SIM_ROWS / 20);
	d = sim_verdicts(*state, 1.0, 0.05, &unchanged, &marked, &needed);
	print_message("# runs 5%% apart: %zu unchanged, %zu need more than 5 runs; detectable %.1f%%\n",
		      unchanged, needed, 100 * d);
	assert_true(unchanged <= SIM_ROWS / 10 && needed >= SIM_ROWS * 9 / 10);
	sim_verdicts(*state, 1 + d, 0.05, &unchanged, &marked, &needed);
	print_message("# a change of %.1f%%: %zu of %d marked\n", 100 * d, marked, SIM_ROWS);
	assert_true(marked >= SIM_ROWS * 8 / 10);
	assert_int_equal(unchanged, 0);
}

/*
 * One run a side, samples 1, 2, 3 and 4, 5, 6: Mann-Whitney, exact p =
 * 2/20; the figure and CI are the run's own.
 */
static void test_known_mw(void **state)
{
	static const double x[] = { 1, 2, 3 }, y[] = { 4, 5, 6 };
	struct result b, o;
	struct run_info br = { .results = &b, .nresults = 1 }, orun = { .results = &o, .nresults = 1 };
	const struct judge_cmp_side sides[2] = { { "base", &br, 1 }, { "other", &orun, 1 } };
	struct judge_cmp_row *rows;
	size_t nrows;
	(void)state;

	fill_result(&b, "mem.bcopy_libc.bw", BETTER_HIGHER, x, 3);
	fill_result(&o, "mem.bcopy_libc.bw", BETTER_HIGHER, y, 3);
	assert_int_equal(judge_compare_build(sides, 2, 0.02, 0, &rows, &nrows), 0);
	assert_int_equal(nrows, 1);
	const struct judge_cmp_cell *c0 = &rows[0].cell[0], *c = &rows[0].cell[1];
	assert_true(c0->median == 2 && c0->lo == b.ci_low && c0->hi == b.ci_high);
	assert_true(c->median == 5);
	assert_near(c->change, 1.5, 1e-12);
	assert_int_equal(c->test, CMP_TEST_MW_SAMPLES);
	assert_near(c->p, 0.1, 1e-12);
	assert_true(isnan(c->ratio) && isnan(c->ratio_lo) && isnan(c->ratio_hi));
	assert_false(c->significant);
	/* A bandwidth that grew. */
	assert_true(c->better);
	free(rows);
	result_free(&b);
	result_free(&o);
}

/*
 * The rates in a section of their own, higher-better: the seed's UP and
 * SMP figures, three runs a side that scatter by 0.5%.  gettimeofday (7x
 * fewer calls) and write (27% fewer) are significant and worse; getppid,
 * the same, is not.  The coarse clock's id is printed whole, the columns
 * widened for figures of hundreds of millions with their intervals.
 */
static void test_rates_section(void **state)
{
	static const struct {
		const char *id;
		double up, smp;
	} figs[] = {
		{ "rate.getppid", 2401234, 2398765 },
		{ "rate.write", 904427, 661312 },
		{ "rate.gettimeofday", 1734963, 252479 },
		{ "rate.clock_gettime_coarse", 198765432, 197654321 },
	};
	static const double run_scale[] = { 1.0, 1.005, 0.995 };
	enum { NF = sizeof(figs) / sizeof(figs[0]) };
	struct result b[3][NF], o[3][NF];
	struct run_info br[3], orun[3];
	const struct judge_cmp_side sides[2] = { { "UP", br, 3 }, { "SMP", orun, 3 } };
	struct judge_cmp_row *rows;
	size_t nrows, len;
	char *text = NULL, line[256];
	FILE *f;
	(void)state;

	for (int i = 0; i < 3; i++) {
		for (int k = 0; k < NF; k++) {
			double x[3], y[3];

			for (int j = 0; j < 3; j++) {
				x[j] = figs[k].up * run_scale[i] * (1 + 0.001 * (j - 1));
				y[j] = figs[k].smp * run_scale[(i + 1) % 3] * (1 + 0.001 * (j - 1));
			}
			fill_result(&b[i][k], figs[k].id, BETTER_HIGHER, x, 3);
			fill_result(&o[i][k], figs[k].id, BETTER_HIGHER, y, 3);
			snprintf(b[i][k].unit, sizeof(b[i][k].unit), "calls/s");
			snprintf(o[i][k].unit, sizeof(o[i][k].unit), "calls/s");
		}
		br[i] = (struct run_info){ .results = b[i], .nresults = NF };
		orun[i] = (struct run_info){ .results = o[i], .nresults = NF };
	}
	assert_int_equal(judge_compare_build(sides, 2, 0.02, 0, &rows, &nrows), 0);
	assert_int_equal(nrows, NF);
	for (size_t k = 0; k < nrows; k++) {
		const struct judge_cmp_cell *c = &rows[k].cell[1];
		int changed = strcmp(rows[k].key->id, "rate.write") == 0 ||
			      strcmp(rows[k].key->id, "rate.gettimeofday") == 0;

		assert_int_equal(c->test, CMP_TEST_WELCH_RUNS);
		assert_int_equal(c->significant, changed);
		if (changed)
			assert_false(c->better);
	}
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(report_compare_text(f, sides, 2, rows, nrows, 0.02, 0), 0);
	assert_int_equal(fclose(f), 0);
	if (getenv("KBENCH_TEST_VERBOSE"))
		print_message("%s", text);
	assert_non_null(strstr(text, "System call rates (calls/s)\n"));
	assert_non_null(strstr(text, "  SMP against UP: gain "));
	assert_non_null(strstr(text, "\n  0 better, 2 worse, 2 unchanged, 0 cannot tell\n"));
	/*
	 * Every row's columns where the others' are (its change ends in the
	 * same column; the marks after it, and so the line's end, differ), the
	 * longest id whole.
	 */
	{
		const char *p = strstr(text, "\nrate.getppid ");
		size_t width = 0;

		assert_non_null(p);
		for (p++; strncmp(p, "rate.", 5) == 0; p += strlen(line) + 1) {
			snprintf(line, sizeof(line), "%.*s", (int)strcspn(p, "\n"), p);
			assert_non_null(strrchr(line, '%'));
			if (width == 0)
				width = (size_t)(strrchr(line, '%') - line);
			assert_int_equal((size_t)(strrchr(line, '%') - line), width);
		}
		assert_non_null(strstr(text, "\nrate.clock_gettime_coarse 198765432 +-"));
		assert_non_null(strstr(text, "\nrate.gettimeofday "));
		p = strstr(text, "\nrate.gettimeofday ");
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(p + 1, "\n"), p + 1);
		assert_non_null(strstr(line, "-85.4% *"));
	}
	free(text);
	free(rows);
	for (int i = 0; i < 3; i++)
		for (int k = 0; k < NF; k++) {
			result_free(&b[i][k]);
			result_free(&o[i][k]);
		}
}

/* The JSON of a table, parsed back. */
static json_t *json_of(const struct judge_cmp_side *sides, size_t nsides,
		       const struct judge_cmp_row *rows, size_t nrows)
{
	FILE *f = tmpfile();
	json_error_t e;
	json_t *doc;

	assert_non_null(f);
	assert_int_equal(report_compare_json(f, sides, nsides, rows, nrows, 0.02, 0, 0), 0);
	rewind(f);
	doc = json_loadf(f, 0, &e);
	fclose(f);
	assert_non_null(doc);
	return doc;
}

static double jnum(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	assert_true(json_is_number(v));
	return json_number_value(v);
}

/*
 * The known Welch case as JSON, with a third side that never measured the
 * instance: its cell is there, absent, every figure null.  The section's
 * line: a time that doubled is a gain of 0.5, not significant.
 */
static void test_json(void **state)
{
	struct known kn;
	struct result none;
	struct run_info nrun = { .results = &none, .nresults = 1 };
	const struct judge_cmp_side sides[3] = {
		{ "base", kn.br, 3 }, { "other", kn.orun, 3 }, { "third", &nrun, 1 },
	};
	const double x = 1;
	struct judge_cmp_row *rows;
	size_t nrows;
	json_t *doc, *row, *cell, *sec;
	(void)state;

	known_make(&kn);
	fill_result(&none, "sys.read", BETTER_LOWER, &x, 1);
	assert_int_equal(judge_compare_build(sides, 3, 0.02, 0, &rows, &nrows), 0);
	doc = json_of(sides, 3, rows, nrows);
	assert_string_equal(json_string_value(json_object_get(doc, "base")), "base");
	assert_string_equal(json_string_value(json_object_get(doc, "correction")),
			    "benjamini-hochberg");
	assert_near(jnum(doc, "threshold"), 0.02, 1e-15);
	assert_near(jnum(doc, "alpha"), 0.05, 1e-15);
	assert_int_equal(json_array_size(json_object_get(doc, "sides")), 3);
	assert_near(jnum(json_array_get(json_object_get(doc, "sides"), 1), "nruns"), 3, 0);
	assert_int_equal(json_array_size(json_object_get(doc, "rows")), 1);
	row = json_array_get(json_object_get(doc, "rows"), 0);
	assert_string_equal(json_string_value(json_object_get(row, "id")), "sys.null");
	assert_true(json_is_null(json_object_get(row, "placement")));
	assert_string_equal(json_string_value(json_object_get(row, "better")), "lower");
	assert_string_equal(json_string_value(json_object_get(row, "section")),
			    "Processor, processes (us)");
	/* The base's cell has its figure and no test. */
	cell = json_array_get(json_object_get(row, "cells"), 0);
	assert_near(jnum(cell, "level"), 2, 0);
	assert_near(jnum(cell, "level_low"), 1, 0);
	assert_null(json_object_get(cell, "p_adj"));
	cell = json_array_get(json_object_get(row, "cells"), 1);
	assert_string_equal(json_string_value(json_object_get(cell, "side")), "other");
	assert_near(jnum(cell, "change"), 1, 1e-15);
	assert_near(jnum(cell, "ratio"), 2, 1e-12);
	assert_near(jnum(cell, "ratio_ci_high"), 7.046647415075135, 1e-9);
	assert_string_equal(json_string_value(json_object_get(cell, "test")), "welch-log-runs");
	assert_near(jnum(cell, "p_adj"), 0.2012116143306656, 1e-7);
	assert_true(json_is_false(json_object_get(cell, "significant")));
	assert_true(json_is_false(json_object_get(cell, "improved")));
	cell = json_array_get(json_object_get(row, "cells"), 2);
	assert_true(json_is_false(json_object_get(cell, "present")));
	assert_near(jnum(cell, "nruns"), 0, 0);
	static const char *const nulls[] = { "level", "level_low", "level_high", "change", "ratio",
					     "ratio_ci_low", "ratio_ci_high", "test", "p",
					     "p_adj", "improved" };
	for (size_t i = 0; i < sizeof(nulls) / sizeof(nulls[0]); i++)
		assert_true(json_is_null(json_object_get(cell, nulls[i])));
	/* One section, one entry per other side. */
	assert_int_equal(json_array_size(json_object_get(doc, "sections")), 2);
	sec = json_array_get(json_object_get(doc, "sections"), 0);
	assert_string_equal(json_string_value(json_object_get(sec, "side")), "other");
	assert_near(jnum(sec, "ncompared"), 1, 0);
	assert_near(jnum(sec, "geomean"), 0.5, 1e-15);
	/* Not marked, by a comparison that measured no interval: it cannot tell. */
	assert_near(jnum(sec, "nunchanged"), 0, 0);
	assert_near(jnum(sec, "ncannot_tell"), 1, 0);
	sec = json_array_get(json_object_get(doc, "sections"), 1);
	assert_near(jnum(sec, "ncompared"), 0, 0);
	assert_true(json_is_null(json_object_get(sec, "geomean")));
	json_decref(doc);
	free(rows);
	result_free(&none);
	known_free(&kn);
}

/* A result of one sitting's level lev with a +-within interval (in logs), usable by compare. */
static void level_result(struct result *r, const char *id, double lev, double within)
{
	double x[3] = { lev, lev, lev };

	fill_result(r, id, BETTER_LOWER, x, 3);
	r->level = lev;
	r->level_low = lev * exp(-within);
	r->level_high = lev * exp(within);
}

/*
 * The level's interval and the spread between sittings, on numbers worked
 * by hand: a side widened by s in quadrature, the figure's own spread
 * moderated by the host's typical one as JUDGE_PRIOR_DF sittings' worth,
 * widened once however often it is asked, and nothing without a spread.
 */
static void test_level_sittings_known(void **state)
{
	struct stats_sittings own = { 0.01, 0.02, 2, 3 }, prior = { 0.04, 0.04, 20, 20 }, none = { 0 };
	double lo = log(100.0 / 95), hi = log(104.0 / 100), s = log(1.1), t;
	struct result r;

	(void)state;
	level_result(&r, "sim.0", 100, 0.05);
	r.level_low = 95;
	r.level_high = 104;
	judge_level_widen(&r, s);
	assert_near(r.level_low, 100 * exp(-sqrt(lo * lo + s * s)), 1e-9);
	assert_near(r.level_high, 100 * exp(sqrt(hi * hi + s * s)), 1e-9);
	result_free(&r);

	/* (2 x 0.01 + 4 x 0.04) / 6 = 0.03 on 6 degrees of freedom: t.975(6) = 2.446912. */
	level_result(&r, "sim.0", 100, 0.02);
	judge_level_sittings(&r, &own, &prior);
	t = 2.446912 * sqrt(0.03);
	assert_non_null(result_value(&r, JUDGE_SITTINGS_VALUE));
	assert_near(result_value(&r, JUDGE_SITTINGS_VALUE)->num, t, 1e-5);
	assert_near(r.level_high, 100 * exp(sqrt(0.02 * 0.02 + t * t)), 1e-3);
	lo = r.level_low;
	judge_level_sittings(&r, &own, &prior);
	assert_true(r.level_low == lo);
	result_free(&r);

	level_result(&r, "sim.0", 100, 0.02);
	judge_level_sittings(&r, &none, NULL);
	assert_null(result_value(&r, JUDGE_SITTINGS_VALUE));
	assert_near(r.level_high, 100 * exp(0.02), 1e-9);
	result_free(&r);
}

/*
 * A simulated machine whose level moves between sittings by a known 10%
 * (log standard deviation) while each sitting's own interval says +-2%:
 * HIST sittings of SIM_FIGS figures as the host's history, then a new
 * sitting of each.  Its bare interval holds the figure's true level a
 * fraction of the time (a 2% interval on a 10% spread); widened by what the
 * history learnt (judge_compare_sittings, judge_sittings_prior,
 * judge_level_sittings) it holds it about 95% of the time.  And a machine
 * that does not move (A/A sittings) widens nothing much.
 */
#define LEV_HIST 4
#define LEV_FIGS 20
#define LEV_TRIALS 60
static double level_coverage(gsl_rng *rng, double tau, double *width)
{
	struct run_info hist[LEV_HIST];
	struct judge_cmp_side h = { "history", hist, LEV_HIST };
	size_t held = 0, n = 0;

	*width = 0;
	for (int trial = 0; trial < LEV_TRIALS; trial++) {
		struct stats_sittings prior;

		memset(hist, 0, sizeof(hist));
		for (size_t i = 0; i < LEV_HIST; i++) {
			hist[i].results = calloc(LEV_FIGS, sizeof(*hist[i].results));
			assert_non_null(hist[i].results);
			hist[i].nresults = LEV_FIGS;
			snprintf(hist[i].label, sizeof(hist[i].label), "k");
			snprintf(hist[i].set_uuid, sizeof(hist[i].set_uuid), "set%zu", i);
			for (size_t k = 0; k < LEV_FIGS; k++) {
				char id[16];

				snprintf(id, sizeof(id), "sim.%zu", k);
				level_result(&hist[i].results[k], id,
					     100 * exp(gsl_ran_gaussian(rng, tau)), 0.02);
			}
		}
		assert_int_equal(judge_sittings_prior(&h, &prior), 0);
		for (size_t k = 0; k < LEV_FIGS; k++) {
			struct stats_sittings st;
			struct result r;
			char id[16];

			snprintf(id, sizeof(id), "sim.%zu", k);
			level_result(&r, id, 100 * exp(gsl_ran_gaussian(rng, tau)), 0.02);
			assert_int_equal(judge_compare_sittings(&h, &r, LEVEL_FAST, &st), 0);
			judge_level_sittings(&r, &st, &prior);
			held += r.level_low <= 100 && 100 <= r.level_high;
			*width += log(r.level_high / r.level);
			n++;
			result_free(&r);
		}
		for (size_t i = 0; i < LEV_HIST; i++)
			run_info_free(&hist[i]);
	}
	*width /= (double)n;
	return (double)held / (double)n;
}

static void test_level_sittings_drift(void **state)
{
	double bare = 2 * gsl_cdf_ugaussian_P(0.02 / 0.10) - 1, width, moving, still;

	moving = level_coverage(*state, 0.10, &width);
	print_message("# a 10%% spread between sittings: the bare +-2%% interval would hold "
		      "%.0f%%, widened %.1f%% (mean half-width %.1f%%)\n", 100 * bare, 100 * moving,
		      100 * expm1(width));
	assert_true(moving >= 0.90 && moving <= 0.995);
	assert_true(width > 0.10 && width < 0.40);
	still = level_coverage(*state, 1e-9, &width);
	print_message("# no spread: held %.1f%%, mean half-width %.2f%%\n", 100 * still,
		      100 * expm1(width));
	assert_true(still == 1.0);
	assert_true(width < 0.021);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_welch),
		cmocka_unit_test(test_shift_welch),
		cmocka_unit_test(test_same_mw),
		cmocka_unit_test(test_drift_adjusted),
		cmocka_unit_test(test_drift_sentinel_row),
		cmocka_unit_test(test_as_measured),
		cmocka_unit_test(test_pairs_only),
		cmocka_unit_test(test_noisy_runs_and_samples),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_instances),
		cmocka_unit_test(test_levels_differ),
		cmocka_unit_test(test_curves),
		cmocka_unit_test(test_known_welch),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_detectable_found),
		cmocka_unit_test(test_known_mw),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_rates_section),
		cmocka_unit_test(test_level_sittings_known),
		cmocka_unit_test(test_level_sittings_drift),
	};
	return cmocka_run_group_tests(tests, setup_rng, teardown_rng);
}

/*
 * Tests for src/report: lmbench's number convention, the summary table and
 * its notes, sysinfo and list text, and the JSON documents read back.
 *
 * Text output is compared byte for byte with golden files in tests/golden/
 * (the tests run from the repository root).  After an intended change to a
 * report's look, regenerate them with
 *
 *     KBENCH_UPDATE_GOLDEN=1 <this test>
 *
 * and review the difference before committing: the golden files are the
 * specification of what users see.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/utf8.h"
#include "report/report.h"
#include "report/contest.h"
#include "report/export.h"
#include "report/fmt.h"
#include "judge/merge.h"
#include "golden.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---------------------------------------------------------------- helpers */

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		if (*s == '\n')
			n++;
	return n;
}

/* Compare text with tests/golden/NAME.txt, or rewrite it when asked to. */
static void check_golden(const char *name, const char *text)
{
	char file[128];

	snprintf(file, sizeof(file), "%s.txt", name);
	golden_check(file, text);
}

/* Every line of a table must fit an 80-column mail reader. */
static void assert_lines_fit(const char *text, size_t cols)
{
	const char *p = text;
	int no = 1;

	while (*p) {
		size_t len = strcspn(p, "\n");
		if (len > cols)
			fail_msg("line %d is %zu columns wide: %.*s", no, len, (int)len, p);
		p += len;
		if (*p)
			p++;
		no++;
	}
}

/* ------------------------------------------------------------- report_num */

struct num_case {
	int width;
	double v;
	const char *want;
};

static void check_num_cases(const struct num_case *cases, size_t n)
{
	char buf[32];

	for (size_t i = 0; i < n; i++) {
		memset(buf, 'x', sizeof(buf));
		report_num(buf, cases[i].width, cases[i].v);
		if (strcmp(buf, cases[i].want) != 0)
			fail_msg("report_num(width %d, %.17g) = \"%s\", want \"%s\"",
				 cases[i].width, cases[i].v, buf, cases[i].want);
	}
}

static void test_num_width4(void **state)
{
	static const struct num_case cases[] = {
		{ 4, 0.57, "0.57" },
		{ 4, 3.78, "3.78" },
		{ 4, 16.2, "16.2" },
		{ 4, 144.0, "144." },
		{ 4, 1434.0, "1434" },
		{ 4, 0.0, "0.00" },
		{ 4, 0.004, "0.00" },
		{ 4, 0.006, "0.01" },
		{ 4, 0.25, "0.25" },
		{ 4, 1.0, "1.00" },
		{ 4, 9.994, "9.99" },
		/* Rounding adds a digit: formatted and measured, never predicted. */
		{ 4, 9.996, "10.0" },
		{ 4, 99.94, "99.9" },
		{ 4, 99.96, "100." },
		{ 4, 157.4, "157." },
		{ 4, 999.4, "999." },
		{ 4, 999.7, "1000" },
		{ 4, 4692.0, "4692" },
		{ 4, 9999.0, "9999" },
		{ 4, 9999.4, "9999" },
		/* Over 9999: thousands with K, cut rather than rounded. */
		{ 4, 10000.0, "10.K" },
		{ 4, 12000.0, "12.K" },
		{ 4, 43500.0, "43.K" },
		{ 4, 43999.0, "43.K" },
		{ 4, 99999.0, "99.K" },
		{ 4, 100000.0, "100K" },
		{ 4, 123456.0, "123K" },
		{ 4, 999999.0, "999K" },
		{ 4, 1000000.0, "1.0M" },
		{ 4, 1234567.0, "1.2M" },
		{ 4, 12345678.0, "12.M" },
		{ 4, 123456789.0, "123M" },
		{ 4, 1234567890.0, "1.2G" },
		{ 4, -1.5, "-1.5" },
	};

	(void)state;
	check_num_cases(cases, NELEM(cases));
}

static void test_num_width5(void **state)
{
	static const struct num_case cases[] = {
		{ 5, 0.57, "0.570" },
		{ 5, 1.85, "1.850" },
		{ 5, 3.78, "3.780" },
		{ 5, 9.8899, "9.890" },
		{ 5, 9.9996, "10.00" },
		{ 5, 16.2, "16.20" },
		{ 5, 33.7, "33.70" },
		{ 5, 99.996, "100.0" },
		{ 5, 144.0, "144.0" },
		{ 5, 1434.0, "1434." },
		{ 5, 9999.7, "10000" },
		{ 5, 12000.0, "12000" },
		{ 5, 99999.0, "99999" },
		{ 5, 100000.0, "100.K" },
		{ 5, 123456.0, "123.K" },
		{ 5, 1234567.0, "1234K" },
		{ 5, 12345678.0, "12.3M" },
	};

	(void)state;
	check_num_cases(cases, NELEM(cases));
}

static void test_num_blank(void **state)
{
	static const struct num_case cases[] = {
		{ 4, NAN, "" },
		{ 4, INFINITY, "" },
		{ 4, -INFINITY, "" },
		{ 0, 1.0, "" },
		/* Too large for the cell in any unit: blank, never wider. */
		{ 2, 1e300, "" },
	};

	(void)state;
	check_num_cases(cases, NELEM(cases));
}

/* A sweep over many magnitudes: the cell width is never exceeded. */
static void test_num_never_wider(void **state)
{
	char buf[32];

	(void)state;
	for (int w = 1; w <= 8; w++)
		for (double v = 1e-4; v < 1e16; v *= 1.37) {
			const double vs[] = { v, -v, floor(v) + 0.5, ceil(v) - 0.0004 };
			for (size_t i = 0; i < NELEM(vs); i++) {
				report_num(buf, w, vs[i]);
				if (strlen(buf) > (size_t)w)
					fail_msg("report_num(width %d, %.17g) = \"%s\" is too wide",
						 w, vs[i], buf);
				if (w >= 4 && vs[i] > 0 && vs[i] < 1e15 && buf[0] == '\0')
					fail_msg("report_num(width %d, %.17g) left the cell blank",
						 w, vs[i]);
			}
		}
}

/* ------------------------------------------------------------ fixtures */

static void set_result(struct result *r, const char *id, double median)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->id, sizeof(r->id), "%s", id);
	snprintf(r->unit, sizeof(r->unit), "us");
	r->better = BETTER_LOWER;
	r->status = RES_OK;
	r->median = median;
	r->ci_low = median * 0.995;
	r->ci_high = median * 1.004;
	r->min = median * 0.98;
	r->max = median * 1.1;
	r->mean = median * 1.01;
	r->stddev = median * 0.02;
	r->cv = 0.02;
	r->p5 = median * 0.985;
	r->p95 = median * 1.05;
	r->n = 3;
	r->iterations = 1000;
	r->stop = STOP_PRECISION;
	r->interference = 0.02;
	r->overhead = 0.001;
	r->wall_s = 1.5;
	r->samples = malloc(3 * sizeof(double));
	assert_non_null(r->samples);
	r->samples[0] = median * 0.99;
	r->samples[1] = median;
	r->samples[2] = median * 1.01;
	r->parallel = 1;
	r->aggregate = NAN;
	r->drift = NAN;
	r->apart = NAN;
}

static void set_run(struct run_info *run, int64_t id, const char *host, const char *label,
		    double mhz)
{
	memset(run, 0, sizeof(*run));
	run->id = id;
	snprintf(run->label, sizeof(run->label), "%s", label);
	snprintf(run->os, sizeof(run->os), "%s", label);
	snprintf(run->host, sizeof(run->host), "%s", host);
	snprintf(run->started, sizeof(run->started), "2025-01-02T03:04:05Z");
	run->mhz = mhz;
}

/* A run with every figure of the Processor, Processes table. */
static void fill_full(struct run_info *run, double scale)
{
	static const struct {
		const char *id;
		double median;
	} figs[] = {
		{ "sys.null", 0.25 }, { "sys.read", 0.29 }, { "sys.write", 0.33 },
		{ "sys.stat", 0.89 }, { "sys.fstat", 0.31 }, { "sys.open_close", 1.95 },
		{ "sys.select_tcp", 3.61 }, { "sig.install", 0.11 }, { "sig.catch", 0.91 },
		{ "proc.fork", 215.3 }, { "proc.exec", 640.2 }, { "proc.shell", 1320.4 },
	};

	run->nresults = NELEM(figs);
	run->results = calloc(NELEM(figs), sizeof(struct result));
	assert_non_null(run->results);
	for (size_t i = 0; i < NELEM(figs); i++)
		set_result(&run->results[i], figs[i].id, figs[i].median * scale);
}

static struct result *find(struct run_info *run, const char *id)
{
	for (size_t i = 0; i < run->nresults; i++)
		if (strcmp(run->results[i].id, id) == 0)
			return &run->results[i];
	fail_msg("no result %s", id);
	return NULL;
}

/* Turn a measured result into a skipped or failed one, as the harness would. */
static void make_unmeasured(struct result *r, enum result_status st, const char *reason)
{
	free(r->samples);
	r->samples = NULL;
	r->status = st;
	r->n = 0;
	r->stop = STOP_NONE;
	r->interference = -1;
	r->median = r->ci_low = r->ci_high = NAN;
	snprintf(r->reason, sizeof(r->reason), "%s", reason);
}

/*
 * Run 3: stat noisy, fork busy, select failed, exec skipped, sig.catch
 * missing.  Run 4: no results at all.  Run 5: one null I/O half failed.
 */
static void fill_troubled(struct run_info runs[3])
{
	struct result *r;

	set_run(&runs[0], 3, "averyverylonghostname", "FreeBSD 5.0-CURRENT", 2394.6);
	fill_full(&runs[0], 1.0);
	r = find(&runs[0], "sys.stat");
	r->status = RES_NOISY;
	r->stop = STOP_MAX_TIME;
	r->ci_low = r->median * 0.99;
	r->ci_high = r->median * 1.032;
	r = find(&runs[0], "proc.fork");
	r->interference = 0.41;
	make_unmeasured(find(&runs[0], "sys.select_tcp"), RES_FAIL,
			"socket: too many open files");
	make_unmeasured(find(&runs[0], "proc.exec"), RES_SKIP, "no tiny program found");
	/* sig.catch is missing: drop it by moving the last result into its slot. */
	r = find(&runs[0], "sig.catch");
	result_free(r);
	*r = runs[0].results[--runs[0].nresults];

	set_run(&runs[1], 4, "empty", "Linux 6.1", 0);

	set_run(&runs[2], 0, "kbhost", "Linux 6.18.44", 3000);
	fill_full(&runs[2], 2.0);
	make_unmeasured(find(&runs[2], "sys.write"), RES_FAIL, "");
	/* Not in this table: no note even though it is noisy. */
	find(&runs[2], "sys.fstat")->status = RES_NOISY;
}

static void free_runs(struct run_info *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		run_info_free(&runs[i]);
}

/* -------------------------------------------------------- report_summary */

static void test_summary_full(void **state)
{
	struct run_info runs[2];
	struct capture c;
	char *text;

	(void)state;
	set_run(&runs[0], 1, "kbhost", "Linux 6.18.44", 3000.2);
	fill_full(&runs[0], 1.0);
	set_run(&runs[1], 2, "kbhost", "2.5.47-mm1-with-a-long-name", 2999.7);
	fill_full(&runs[1], 11.3);
	report_summary(capture_start(&c), runs, 2, 1);
	text = capture_end(&c);
	/* 80 columns, but what the whole label takes over lmbench's 13. */
	assert_lines_fit(text, 80 + 27 - 13);
	assert_non_null(strstr(text, "\nkbhost    2.5.47-mm1-with-a-long-name 3000 "));
	/* Full data: no notes, and the one figure without a column listed after. */
	assert_null(strstr(text, ": noisy"));
	assert_null(strstr(text, ": busy"));
	assert_non_null(strstr(text, "\nOther results - levels, each in its unit\n"));
	assert_non_null(strstr(text, " 0.3100 us 0.3085 to 0.3112\n"));
	check_golden("summary_full", text);
	free(text);
	free_runs(runs, 2);
}

static void test_summary_notes(void **state)
{
	struct run_info runs[3];
	struct capture c;
	char *text;

	(void)state;
	fill_troubled(runs);
	report_summary(capture_start(&c), runs, 3, 1);
	text = capture_end(&c);
	/* 80 columns, but what FreeBSD 5.0-CURRENT takes over lmbench's 13. */
	assert_lines_fit(text, 80 + 19 - 13);
	assert_non_null(strstr(text, "  run 3 sys.stat: noisy: 95% CI +-3.2% "
				     "(stopped at max-time)\n"));
	assert_non_null(strstr(text, "  run 3 proc.fork: busy: other work used 41% of the "
				     "other CPUs\n"));
	assert_non_null(strstr(text, "  run 3 sys.select_tcp: fail: socket: too many open "
				     "files\n"));
	assert_non_null(strstr(text, "  run 3 proc.exec: skip: no tiny program found\n"));
	assert_null(strstr(text, "sig.catch"));
	/* sys.fstat has no column: it is listed after the tables, with its note. */
	assert_non_null(strstr(text, "\nOther results"));
	check_golden("summary_notes", text);
	free(text);
	free_runs(runs, 3);
}

/*
 * The marks by default (not -v), on runs as a shared VM makes them: every
 * figure missed a 1% precision, its interval floored at the machine's
 * spread (+-2.9%) and the sentinel drifting 6% over its replicas.  Run 11
 * is that alone: no figure marked, no note but the line that says what the
 * machine allowed.  Run 12 the same, but stat's replicas spread +-9% and
 * the shell's +-30%: those two marked, stat giving its last digit to the
 * mark, the shell (whole to its last column) keeping its digits, both
 * named, widest first, in the table's one line.  -v gives every figure's
 * line as before.  Run 13 (fill_bimodal) has a figure in two modes.
 */
static void fill_machine(struct run_info *run, int64_t id, const char *label)
{
	set_run(run, id, "vm", label, 3000);
	fill_full(run, 1.0);
	for (size_t i = 0; i < run->nresults; i++) {
		struct result *r = &run->results[i];

		r->status = RES_NOISY;
		r->stop = STOP_MAX_TIME;
		r->ci_low = r->median / 1.029;
		r->ci_high = r->median * 1.029;
		r->drift = 0.06;
		r->drifted = 1;
		r->nreplicas = 4;
		r->values[r->nvalues++] = (struct bench_value){ .key = "machine_share",
								.num = log(1.029) };
	}
}

static struct result *add_result(struct run_info *run, const char *id, double median,
				 const char *unit, enum bench_better better);

/*
 * Run 13 is bimodal: its pipe latency, left to the scheduler, ended on one
 * CPU in four replicas (2.4 us) and on two in two (30 us): its figure is
 * the first mode's, marked, and a line gives both.
 */
static void fill_bimodal(struct run_info *run)
{
	static const double med[6] = { 2.38, 2.41, 29.5, 2.40, 31.0, 2.43 };
	struct result *r;

	fill_machine(run, 13, "bimodal");
	r = add_result(run, "ipc.pipe.lat", 2.405, "us", BETTER_LOWER);
	r->placement = PLACE_NONE;
	r->ci_low = 2.38;
	r->ci_high = 2.43;
	r->nreplicas = 6;
	r->replicas = calloc(6, sizeof(*r->replicas));
	assert_non_null(r->replicas);
	for (int k = 0; k < 6; k++)
		r->replicas[k] = (struct result_replica){
			.median = med[k], .lo = med[k] * 0.99, .hi = med[k] * 1.01, .n = 20,
			.t0 = k * 2.0, .t1 = k * 2.0 + 1, .stop = STOP_PRECISION,
			.sentinel_sys = NAN, .sentinel_user = NAN, .apart = med[k] > 10 ? 1 : 0 };
}

static void test_summary_marks(void **state)
{
	struct run_info runs[3];
	struct result *r;
	struct capture c;
	char *text;

	(void)state;
	fill_machine(&runs[0], 11, "steady");
	fill_machine(&runs[1], 12, "loose");
	fill_bimodal(&runs[2]);
	r = find(&runs[1], "sys.stat");
	r->ci_low = r->median * 0.91;
	r->ci_high = r->median * 1.09;
	r = find(&runs[1], "proc.shell");
	r->ci_low = r->median * 0.7;
	r->ci_high = r->median * 1.3;
	report_summary(capture_start(&c), runs, 3, 0);
	text = capture_end(&c);
	assert_lines_fit(text, 80);
	assert_null(strstr(text, "noisy"));
	assert_null(strstr(text, "drift"));
	assert_null(strstr(text, "run 11 !"));
	assert_null(strstr(text, "run 13 !"));
	/* Too long for one line within 80 columns: the modes on a line of their own. */
	assert_non_null(strstr(text, "\nvm              bimodal       2.40^\n"));
	assert_non_null(strstr(text, "  run 13 ipc.pipe.lat [none]^: two modes:\n    ends on one CPU "
				     "2.405 (4 of 6 replicas), several CPUs 30.25 (2)\n"));
	assert_non_null(strstr(text, " 0.9! "));
	assert_non_null(strstr(text, "  run 12 ! over twice typical: proc.shell +-30%, sys.stat +-9%\n"));
	check_golden("summary_marks", text);
	free(text);
	report_summary(capture_start(&c), runs, 3, 1);
	text = capture_end(&c);
	assert_non_null(strstr(text, "  run 11 sys.null: noisy: +-2.9% over 4 replicas; drift 6.0%\n"));
	assert_non_null(strstr(text, "  run 12 proc.shell: noisy: +-30.0% over 4 replicas; drift 6.0%\n"));
	assert_null(strstr(text, "! over twice"));
	free(text);
	free_runs(runs, 3);
}

/*
 * The three tables of communication between processes: run 7 measured
 * under placements same and none, run 8 with two copies at once.  Rows are
 * grouped by placement, each group under a line naming it; the aggregate of
 * parallel copies is a note; ctx rows not in lmbench's table are listed
 * after, with their placement.
 */
static void fill_ipc(struct run_info *run, enum placement place, double scale, int parallel)
{
	static const struct {
		const char *id;
		double median;
	} figs[] = {
		{ "ctx.2p.0k", 2.77 }, { "ctx.2p.16k", 2.5 }, { "ctx.2p.64k", 3.39 },
		{ "ctx.8p.16k", 10.24 }, { "ctx.8p.64k", 5.19 }, { "ctx.16p.16k", 6.77 },
		{ "ctx.16p.64k", 6.35 }, { "ctx.16p.0k", 4.1 }, { "ipc.pipe.lat", 8.96 },
		{ "ipc.unix.lat", 16.3 }, { "ipc.udp.lat", 18.7 }, { "ipc.rpc_udp.lat", 23.89 },
		{ "ipc.tcp.lat", 24.1 }, { "ipc.rpc_tcp.lat", 30.63 }, { "ipc.tcp.connect", 52.6 },
		{ "ipc.pipe.bw", 2327 }, { "ipc.unix.bw", 3031 }, { "ipc.tcp.bw", 19850 },
	};
	size_t base = run->nresults;
	struct result *more = realloc(run->results, (base + NELEM(figs)) * sizeof(*more));

	assert_non_null(more);
	run->results = more;
	run->nresults += NELEM(figs);
	for (size_t i = 0; i < NELEM(figs); i++) {
		struct result *r = &run->results[base + i];

		set_result(r, figs[i].id, figs[i].median * scale);
		r->placement = place;
		r->parallel = parallel;
		if (strstr(figs[i].id, ".bw")) {
			snprintf(r->unit, sizeof(r->unit), "MB/s");
			r->better = BETTER_HIGHER;
			r->aggregate = parallel > 1 ? r->median * 1.9 : (double)NAN;
		} else {
			r->aggregate = parallel > 1 ? r->median / 1.8 : (double)NAN;
		}
	}
}

static void test_summary_ipc(void **state)
{
	struct run_info runs[2];
	struct capture c;
	char *text;

	(void)state;
	set_run(&runs[0], 7, "kbhost", "Linux 6.18.44", 3000.2);
	fill_ipc(&runs[0], PLACE_SAME, 1.0, 1);
	fill_ipc(&runs[0], PLACE_NONE, 2.5, 1);
	find(&runs[0], "ipc.tcp.connect")->status = RES_NOISY;
	set_run(&runs[1], 8, "kbhost", "2.5.47-mm1", 2999.7);
	fill_ipc(&runs[1], PLACE_NONE, 3.0, 2);
	report_summary(capture_start(&c), runs, 2, 1);
	text = capture_end(&c);
	assert_lines_fit(text, 80);
	check_golden("summary_ipc", text);
	/* No single-process figure: the Processor, Processes table is left out. */
	assert_null(strstr(text, "Processor, Processes"));
	assert_non_null(strstr(text, "\nplacement same: each copy's processes share one CPU\n"
				     "kbhost    Linux 6.18.44 2.7700 2.5000"));
	assert_non_null(strstr(text, "  run 8 ipc.pipe.bw [none]: 2 copies: 6981 MB/s each, "
				     "together 13264 MB/s\n"));
	/* A figure without a column is a row of Other results, its placement in its id. */
	assert_non_null(strstr(text, "\nkbhost    Linux 6.18.44 ctx.16p.0k [same] "));
	assert_non_null(strstr(text, " 4.100 us 4.079 to 4.116\n"));
	
	free(text);
	free_runs(runs, 2);
}

static void test_summary_no_runs(void **state)
{
	struct capture c;
	char *text;

	(void)state;
	report_summary(capture_start(&c), NULL, 0, 1);
	text = capture_end(&c);
	/* No figure, so no table: an empty table would say nothing. */
	assert_int_equal(count_lines(text), 0);
	free(text);
}

/* ------------------------------------------------------ sysinfo and list */

static void fill_sysinfo(struct sysinfo *si)
{
	memset(si, 0, sizeof(*si));
	snprintf(si->os, sizeof(si->os), "Linux");
	snprintf(si->release, sizeof(si->release), "6.18.44");
	snprintf(si->version, sizeof(si->version), "#1 SMP PREEMPT_DYNAMIC");
	snprintf(si->arch, sizeof(si->arch), "x86_64");
	snprintf(si->host, sizeof(si->host), "kbhost");
	snprintf(si->cpu_model, sizeof(si->cpu_model), "AMD EPYC 7R13 Processor");
	si->ncpu_online = 4;
	si->mhz = 2994.63;
	snprintf(si->clocksource, sizeof(si->clocksource), "tsc");
	si->clock_cost_ns = 17.36;
	si->clock_res_ns = 10.0;
	si->loop_ns = 0.41;
	/* governor left empty: none */
	snprintf(si->smt, sizeof(si->smt), "on");
	snprintf(si->mitigations, sizeof(si->mitigations),
		 "meltdown: Not affected\n"
		 "spectre_v1: Mitigation: usercopy/swapgs barriers\n"
		 "spectre_v2: Mitigation: Retpolines; BHI: Not affected");
	snprintf(si->virt, sizeof(si->virt), "kvm");
	si->loadavg[0] = 0.5;
	si->loadavg[1] = 0.25;
	si->loadavg[2] = 0.125;
	si->mem_total = 16ull * 1024 * 1024 * 1024 + 512ull * 1024 * 1024;
	si->mem_available = 900ull * 1024 * 1024;
	si->ncaches = 4;
	si->caches[0] = (struct plat_cache){ 1, "Data", 32 << 10, 64 };
	si->caches[1] = (struct plat_cache){ 1, "Instruction", 32 << 10, 64 };
	si->caches[2] = (struct plat_cache){ 2, "Unified", 512 << 10, 64 };
	si->caches[3] = (struct plat_cache){ 3, "Unified", 32 << 20, 64 };
	snprintf(si->compiler, sizeof(si->compiler), "gcc 14.2.0");
	snprintf(si->cflags, sizeof(si->cflags), "-O2 -std=gnu11");
	snprintf(si->build_type, sizeof(si->build_type), "release");
	snprintf(si->kbench_version, sizeof(si->kbench_version), "0.1.0");
	snprintf(si->libc_tunables, sizeof(si->libc_tunables), "glibc.cpu.x86_non_temporal_threshold=25165824");
}

static void test_sysinfo_text(void **state)
{
	struct sysinfo si;
	struct capture c;
	char *text;

	(void)state;
	fill_sysinfo(&si);
	report_sysinfo_text(capture_start(&c), &si);
	text = capture_end(&c);
	assert_non_null(strstr(text, "16.5 GiB"));
	assert_non_null(strstr(text, "900 MiB"));
	assert_non_null(strstr(text, "17.4 ns"));
	assert_non_null(strstr(text, "0.50 0.25 0.12"));
	check_golden("sysinfo", text);
	free(text);
}

static enum bench_status dummy_run(struct bench_ctx *ctx, uint64_t n)
{
	(void)ctx;
	(void)n;
	return BENCH_OK;
}

static const struct bench list_benches[] = {
	{ .id = "sys.null", .metric = METRIC_US, .better = BETTER_LOWER,
	  .suites = SUITE_SUMMARY, .summary = "getppid via syscall()", .run = dummy_run },
	{ .id = "mem.read.bw", .metric = METRIC_MBPS, .better = BETTER_HIGHER,
	  .suites = SUITE_STANDARD, .summary = "read a buffer far larger than the LLC",
	  .run = dummy_run },
	{ .id = "ipc.rpc_udp.lat", .metric = METRIC_US, .better = BETTER_LOWER,
	  .suites = SUITE_STANDARD, .summary = "Sun RPC round trip over UDP",
	  .run = dummy_run },
	{ .id = "mem.lat.l1", .metric = METRIC_NS, .better = BETTER_LOWER,
	  .suites = SUITE_FULL, .summary = "dependent load hitting L1", .run = dummy_run },
};

static const struct report_list_row list_rows[] = {
	{ &list_benches[0], "quick,standard,full,lmbench", NULL },
	{ &list_benches[1], "standard", NULL },
	{ &list_benches[2], "standard,lmbench", "built without libtirpc" },
	{ &list_benches[3], "full", NULL },
};

static void test_list_text(void **state)
{
	struct capture c;
	char *text;

	(void)state;
	report_list_text(capture_start(&c), list_rows, NELEM(list_rows));
	text = capture_end(&c);
	/* A header, a line a benchmark, and what it measures under it (80 columns could not hold both). */
	assert_int_equal(count_lines(text), 9);
	assert_lines_fit(text, 80);
	assert_non_null(strstr(text, "[skip: built without libtirpc]\n"));
	check_golden("list", text);
	free(text);
}

/* ----------------------------------------------------------------- JSON */

static json_t *parse(const char *text)
{
	json_error_t err;
	json_t *j = json_loads(text, 0, &err);

	if (!j)
		fail_msg("bad JSON at line %d: %s\n%s", err.line, err.text, text);
	return j;
}

static void test_list_json(void **state)
{
	struct capture c;
	char *text;
	json_t *root, *arr, *o, *suites;

	(void)state;
	assert_int_equal(report_list_json(capture_start(&c), list_rows, NELEM(list_rows)), 0);
	text = capture_end(&c);
	assert_true(strlen(text) > 0 && text[strlen(text) - 1] == '\n');
	root = parse(text);
	assert_string_equal(json_string_value(json_object_get(root, "document")), "benchmarks");
	assert_int_equal(json_integer_value(json_object_get(root, "schema")), 2);
	arr = json_object_get(root, "benchmarks");
	assert_true(json_is_array(arr));
	assert_int_equal(json_array_size(arr), NELEM(list_rows));

	o = json_array_get(arr, 0);
	assert_string_equal(json_string_value(json_object_get(o, "id")), "sys.null");
	assert_string_equal(json_string_value(json_object_get(o, "unit")), "us");
	assert_string_equal(json_string_value(json_object_get(o, "better")), "lower");
	assert_string_equal(json_string_value(json_object_get(o, "summary")),
			    "getppid via syscall()");
	suites = json_object_get(o, "suites");
	assert_int_equal(json_array_size(suites), 4);
	assert_string_equal(json_string_value(json_array_get(suites, 3)), "lmbench");
	assert_true(json_is_true(json_object_get(o, "supported")));
	assert_true(json_is_null(json_object_get(o, "reason")));

	o = json_array_get(arr, 1);
	assert_string_equal(json_string_value(json_object_get(o, "unit")), "MB/s");
	assert_string_equal(json_string_value(json_object_get(o, "better")), "higher");
	assert_int_equal(json_array_size(json_object_get(o, "suites")), 1);

	o = json_array_get(arr, 2);
	assert_true(json_is_false(json_object_get(o, "supported")));
	assert_string_equal(json_string_value(json_object_get(o, "reason")),
			    "built without libtirpc");
	json_decref(root);
	free(text);
}

static void test_sysinfo_json(void **state)
{
	struct sysinfo si;
	char *text;
	json_t *o, *load;

	(void)state;
	fill_sysinfo(&si);
	/* Bytes from the OS that are not UTF-8 must not lose the document. */
	snprintf(si.host, sizeof(si.host), "h\xff\xfest");
	text = report_sysinfo_json(&si);
	assert_non_null(text);
	assert_null(strchr(text, '\n'));
	o = parse(text);
	assert_string_equal(json_string_value(json_object_get(o, "os")), "Linux");
	/* Each bad byte is U+FFFD (it was '?', and so was every valid "é" with it). */
	assert_string_equal(json_string_value(json_object_get(o, "host")),
			    "h\xef\xbf\xbd\xef\xbf\xbdst");
	assert_string_equal(json_string_value(json_object_get(o, "cpu_model")),
			    "AMD EPYC 7R13 Processor");
	assert_int_equal(json_integer_value(json_object_get(o, "ncpu_online")), 4);
	assert_true(fabs(json_real_value(json_object_get(o, "mhz")) - 2994.63) < 1e-9);
	assert_string_equal(json_string_value(json_object_get(o, "governor")), "");
	assert_int_equal(json_integer_value(json_object_get(o, "mem_total")),
			 (json_int_t)si.mem_total);
	assert_int_equal(json_integer_value(json_object_get(o, "mem_available")),
			 (json_int_t)si.mem_available);
	load = json_object_get(o, "loadavg");
	assert_int_equal(json_array_size(load), 3);
	assert_true(json_real_value(json_array_get(load, 2)) == 0.125);
	assert_string_equal(json_string_value(json_object_get(o, "kbench_version")), "0.1.0");
	/* The caches as the OS reports them, in order. */
	json_t *caches = json_object_get(o, "caches");
	assert_int_equal(json_array_size(caches), 4);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(caches, 3), "level")), 3);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(caches, 3), "size")),
			 32 << 20);
	assert_string_equal(json_string_value(json_object_get(json_array_get(caches, 1), "type")),
			    "Instruction");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(caches, 0), "line")), 64);
	assert_string_equal(json_string_value(json_object_get(o, "libc_tunables")),
			    "glibc.cpu.x86_non_temporal_threshold=25165824");
	assert_true(json_real_value(json_object_get(o, "loop_ns")) == 0.41);
	assert_int_equal(json_object_size(o), 32);	/* 6 about the CPUs and the boot command line, the clock sources */
	json_decref(o);
	free(text);
}

static json_t *result_by_id(json_t *run, const char *id)
{
	json_t *results = json_object_get(run, "results");

	for (size_t i = 0; i < json_array_size(results); i++) {
		json_t *r = json_array_get(results, i);
		if (strcmp(json_string_value(json_object_get(r, "id")), id) == 0)
			return r;
	}
	fail_msg("no result %s in JSON", id);
	return NULL;
}

static void test_runs_json(void **state)
{
	static const char *const stats[] = {
		"median", "ci_low", "ci_high", "min", "max", "mean", "stddev", "cv", "p5", "p95",
	};
	struct run_info runs[3];
	struct capture c;
	char *text, *si_text;
	struct sysinfo si;
	json_t *root, *run, *r;

	(void)state;
	fill_troubled(runs);
	/* A measured figure that came out NaN must become null, not break jansson. */
	find(&runs[2], "sys.null")->mean = NAN;
	find(&runs[2], "sys.null")->samples[1] = INFINITY;
	fill_sysinfo(&si);
	si_text = report_sysinfo_json(&si);
	assert_non_null(si_text);

	assert_int_equal(report_runs_json(capture_start(&c), si_text, runs, 3), 0);
	text = capture_end(&c);
	assert_true(text[strlen(text) - 1] == '\n');
	root = parse(text);
	assert_string_equal(json_string_value(json_object_get(root, "kbench")), "0.1.0");
	assert_string_equal(
		json_string_value(json_object_get(json_object_get(root, "sysinfo"), "host")),
		"kbhost");
	assert_int_equal(json_array_size(json_object_get(root, "runs")), 3);

	run = json_array_get(json_object_get(root, "runs"), 0);
	assert_int_equal(json_integer_value(json_object_get(run, "run_id")), 3);
	assert_string_equal(json_string_value(json_object_get(run, "label")),
			    "FreeBSD 5.0-CURRENT");
	assert_string_equal(json_string_value(json_object_get(run, "started")),
			    "2025-01-02T03:04:05Z");
	assert_string_equal(json_string_value(json_object_get(run, "host")),
			    "averyverylonghostname");
	assert_string_equal(json_string_value(json_object_get(run, "os")),
			    "FreeBSD 5.0-CURRENT");
	assert_true(json_real_value(json_object_get(run, "mhz")) == 2394.6);
	assert_int_equal(json_array_size(json_object_get(run, "results")), 11);

	/* An ok result: every field, the samples, no reason. */
	r = result_by_id(run, "sys.null");
	assert_string_equal(json_string_value(json_object_get(r, "unit")), "us");
	assert_string_equal(json_string_value(json_object_get(r, "better")), "lower");
	assert_string_equal(json_string_value(json_object_get(r, "status")), "ok");
	assert_true(json_real_value(json_object_get(r, "median")) == 0.25);
	for (size_t i = 0; i < NELEM(stats); i++)
		assert_true(json_is_real(json_object_get(r, stats[i])));
	assert_int_equal(json_integer_value(json_object_get(r, "n")), 3);
	assert_int_equal(json_integer_value(json_object_get(r, "iterations")), 1000);
	assert_string_equal(json_string_value(json_object_get(r, "stop")), "precision");
	assert_true(json_real_value(json_object_get(r, "interference")) == 0.02);
	assert_true(json_is_real(json_object_get(r, "overhead")));
	assert_true(json_real_value(json_object_get(r, "wall_s")) == 1.5);
	assert_int_equal(json_array_size(json_object_get(r, "samples")), 3);
	assert_true(json_is_null(json_object_get(r, "reason")));
	/* A single-process figure: no placement, one copy, no aggregate, no values. */
	assert_true(json_is_null(json_object_get(r, "placement")));
	assert_int_equal(json_integer_value(json_object_get(r, "parallel")), 1);
	assert_true(json_is_null(json_object_get(r, "aggregate")));
	assert_int_equal(json_object_size(json_object_get(r, "values")), 0);
	assert_int_equal(json_array_size(json_object_get(r, "points")), 0);
	/* Measured in one block: no replicas, drift unknown, nothing known of where. */
	assert_int_equal(json_array_size(json_object_get(r, "replicas")), 0);
	assert_true(json_is_null(json_object_get(r, "drift")));
	assert_true(json_is_false(json_object_get(r, "drifted")));
	assert_true(json_is_null(json_object_get(r, "where")));
	/* Not a timed job: no jobs (null, as placement) and no usage at all. */
	assert_true(json_is_null(json_object_get(r, "jobs")));
	assert_null(json_object_get(r, "usage"));
	/* Not between processes: nothing known of where ends ran, no modes. */
	assert_true(json_is_null(json_object_get(r, "apart")));
	assert_true(json_is_null(json_object_get(r, "modes")));
	/* Made by hand, as an older kbench's: no level (null, never 0), the median stands. */
	assert_true(json_is_null(json_object_get(r, "level")));
	assert_true(json_is_null(json_object_get(r, "level_low")));
	assert_true(json_is_null(json_object_get(r, "level_high")));
	assert_int_equal(json_object_size(r), 39);

	/* Noisy stays measured. */
	r = result_by_id(run, "sys.stat");
	assert_string_equal(json_string_value(json_object_get(r, "status")), "noisy");
	assert_string_equal(json_string_value(json_object_get(r, "stop")), "max-time");
	assert_true(json_is_real(json_object_get(r, "median")));

	/* Skip and fail: null statistics, no samples, the reason. */
	r = result_by_id(run, "proc.exec");
	assert_string_equal(json_string_value(json_object_get(r, "status")), "skip");
	for (size_t i = 0; i < NELEM(stats); i++)
		if (!json_is_null(json_object_get(r, stats[i])))
			fail_msg("skip result has non-null %s", stats[i]);
	assert_int_equal(json_array_size(json_object_get(r, "samples")), 0);
	assert_true(json_is_array(json_object_get(r, "samples")));
	assert_true(json_is_null(json_object_get(r, "interference")));
	assert_string_equal(json_string_value(json_object_get(r, "stop")), "none");
	assert_string_equal(json_string_value(json_object_get(r, "reason")),
			    "no tiny program found");
	r = result_by_id(run, "sys.select_tcp");
	assert_string_equal(json_string_value(json_object_get(r, "status")), "fail");
	assert_true(json_is_null(json_object_get(r, "median")));
	assert_string_equal(json_string_value(json_object_get(r, "reason")),
			    "socket: too many open files");

	/* The run with no results, and its unknown clock rate. */
	run = json_array_get(json_object_get(root, "runs"), 1);
	assert_int_equal(json_array_size(json_object_get(run, "results")), 0);
	assert_true(json_is_null(json_object_get(run, "mhz")));

	/* NaN and infinity become null. */
	run = json_array_get(json_object_get(root, "runs"), 2);
	r = result_by_id(run, "sys.null");
	assert_true(json_is_null(json_object_get(r, "mean")));
	assert_true(json_is_real(json_object_get(r, "median")));
	assert_int_equal(json_array_size(json_object_get(r, "samples")), 3);
	assert_true(json_is_null(json_array_get(json_object_get(r, "samples"), 1)));
	r = result_by_id(run, "sys.write");
	assert_true(json_is_null(json_object_get(r, "reason")));

	json_decref(root);
	free(text);
	free(si_text);
	free_runs(runs, 3);
}

static void test_runs_json_bad_sysinfo(void **state)
{
	struct capture c;
	char *text;
	json_t *root;

	(void)state;
	/* Stored sysinfo that does not parse is null, and so is none at all. */
	assert_int_equal(report_runs_json(capture_start(&c), "{not json", NULL, 0), 0);
	text = capture_end(&c);
	root = parse(text);
	assert_true(json_is_null(json_object_get(root, "sysinfo")));
	assert_int_equal(json_array_size(json_object_get(root, "runs")), 0);
	json_decref(root);
	free(text);

	assert_int_equal(report_runs_json(capture_start(&c), NULL, NULL, 0), 0);
	text = capture_end(&c);
	root = parse(text);
	assert_true(json_is_null(json_object_get(root, "sysinfo")));
	json_decref(root);
	free(text);
}

/* ------------------------------------------- all seven tables, and show */

/* Append a measured result to run and return it, for fixtures built id by id. */
static struct result *add_result(struct run_info *run, const char *id, double median,
				 const char *unit, enum bench_better better)
{
	struct result *more = realloc(run->results, (run->nresults + 1) * sizeof(*more));
	struct result *r;

	assert_non_null(more);
	run->results = more;
	r = &run->results[run->nresults++];
	set_result(r, id, median);
	snprintf(r->unit, sizeof(r->unit), "%s", unit);
	r->better = better;
	return r;
}

static void add_value(struct result *r, const char *key, double num, const char *text)
{
	struct bench_value *v;

	assert_true(r->nvalues < BENCH_MAX_VALUES);
	v = &r->values[r->nvalues++];
	snprintf(v->key, sizeof(v->key), "%s", key);
	v->num = num;
	snprintf(v->text, sizeof(v->text), "%s", text ? text : "");
}

/* The run's stored machine: fill_sysinfo's, with another model and caches if asked. */
static void set_machine(struct run_info *run, const char *model, uint64_t l2, int l3)
{
	struct sysinfo si;

	fill_sysinfo(&si);
	snprintf(si.cpu_model, sizeof(si.cpu_model), "%s", model);
	si.caches[2].size = l2;
	if (!l3)
		si.ncaches = 3;
	run->sysinfo_json = report_sysinfo_json(&si);
	assert_non_null(run->sysinfo_json);
}

/*
 * Every id of the File & VM, bandwidth and memory latency tables, scaled.
 * detected[] are the cache sizes found in the curve (0: that level absent),
 * os_size[] the OS's as the benchmark recorded them (0: unknown to it).
 */
static void fill_fsvm_bw_mem(struct run_info *run, double scale, const char *fs_type,
			     const double detected[3], const double os_size[3])
{
	static const struct {
		const char *id;
		double median;
	} fsvm[] = {
		{ "fs.create.0k", 11.52 }, { "fs.delete.0k", 5.31 }, { "fs.create.10k", 24.7 },
		{ "fs.delete.10k", 8.93 }, { "vm.mmap", 9.84 }, { "vm.prot_fault", 0.412 },
		{ "vm.page_fault", 0.987 }, { "vm.page_fault_random", 0.2153 },
		{ "vm.page_fault_anon", 0.1234 },
	}, bw[] = {
		{ "fs.reread.bw", 6123.4 }, { "vm.mmap_reread.bw", 9876.5 },
		{ "mem.bcopy_libc.bw", 11234 }, { "mem.bcopy_hand.bw", 8456.2 },
		{ "mem.read.bw", 14321 }, { "mem.write.bw", 9012.7 },
	};
	static const double lat[3] = { 1.234, 4.56, 15.8 };
	static const char *const lat_ids[3] = { "mem.lat.l1", "mem.lat.l2", "mem.lat.l3" };
	struct result *r;

	for (size_t i = 0; i < NELEM(fsvm); i++) {
		r = add_result(run, fsvm[i].id, fsvm[i].median * scale, "us", BETTER_LOWER);
		if (strncmp(fsvm[i].id, "fs.", 3) == 0)
			add_value(r, "fs_type", 0, fs_type);
		if (strcmp(fsvm[i].id, "vm.page_fault") == 0)
			add_value(r, "pages_per_fault", 16, NULL);
	}
	for (size_t i = 0; i < NELEM(bw); i++)
		add_result(run, bw[i].id, bw[i].median / scale, "MB/s", BETTER_HIGHER);
	add_result(run, "cpu.mhz", 2994.6, "MHz", BETTER_HIGHER);
	for (size_t i = 0; i < 3; i++) {
		if (!detected[i])
			continue;
		r = add_result(run, lat_ids[i], lat[i] * scale, "ns", BETTER_LOWER);
		add_value(r, "size", detected[i] / 2, NULL);
		add_value(r, "detected", detected[i], NULL);
		add_value(r, "os_size", os_size[i], NULL);
	}
	add_result(run, "mem.lat.main", 98.76 * scale, "ns", BETTER_LOWER);
	r = add_result(run, "mem.lat.curve", 98.76 * scale, "ns", BETTER_LOWER);
	r->points = calloc(3, sizeof(*r->points));
	assert_non_null(r->points);
	r->npoints = 3;
	for (size_t i = 0; i < 3; i++) {
		snprintf(r->points[i].series, sizeof(r->points[i].series), "random");
		r->points[i].x = 4096.0 * (double)(i + 1);
		r->points[i].y = r->points[i].lo = r->points[i].hi = 1.2;
	}
}

/*
 * Two runs with a figure for every column of all seven tables.  Run 1's
 * caches agree with its OS; run 2 found an L1 four times the OS's, an L2
 * of 256K where the OS reports 1.25M and no L3 where the OS has one, so
 * its guesses overflow their cell into notes.
 */
static void fill_all(struct run_info runs[2])
{
	static const double agree[3] = { 32 << 10, 512 << 10, 32 << 20 };
	static const double off[3] = { 128 << 10, 256 << 10, 0 };
	/* Run 2's L2 is unknown to the benchmark: the stored sysinfo's is used. */
	static const double os2[3] = { 32 << 10, 0, 32 << 20 };

	set_run(&runs[0], 1, "kbhost", "Linux 6.18.44", 3000.2);
	set_machine(&runs[0], "AMD EPYC 7R13 Processor", 512 << 10, 1);
	fill_full(&runs[0], 1.0);
	fill_ipc(&runs[0], PLACE_NONE, 1.0, 1);
	fill_fsvm_bw_mem(&runs[0], 1.0, "ext4", agree, agree);

	set_run(&runs[1], 2, "kbhost2", "FreeBSD 5.0-CURRENT", 2394.6);
	set_machine(&runs[1], "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz", 1280 << 10, 1);
	fill_full(&runs[1], 1.5);
	fill_ipc(&runs[1], PLACE_NONE, 1.5, 1);
	fill_fsvm_bw_mem(&runs[1], 0.1, "tmpfs", off, os2);
	find(&runs[1], "vm.page_fault_random")->status = RES_NOISY;
}

static void test_summary_all_tables(void **state)
{
	static const char *const titles[] = {
		"Basic system parameters\n",
		"Processor, Processes - times in microseconds - smaller is better\n",
		"Context switching - times in microseconds - smaller is better\n",
		"*Local* Communication latencies in microseconds - smaller is better\n",
		"File & VM system latencies in microseconds - smaller is better\n",
		"*Local* Communication bandwidths in MB/s - bigger is better\n",
		"Memory latencies in nanoseconds - smaller is better\n",
		"Other results - levels, each in its unit\n",
	};
	struct run_info runs[2];
	struct capture c;
	char *text;
	const char *prev = NULL;

	(void)state;
	fill_all(runs);
	report_summary(capture_start(&c), runs, 2, 1);
	text = capture_end(&c);
	/* 80 columns, but what FreeBSD 5.0-CURRENT takes over lmbench's 13. */
	assert_lines_fit(text, 80 + 19 - 13);
	/* All seven tables, in lmbench's order, then what no table shows. */
	for (size_t i = 0; i < NELEM(titles); i++) {
		const char *at = strstr(text, titles[i]);

		if (!at || (prev && at < prev))
			fail_msg("table '%.*s' missing or out of order", (int)strlen(titles[i]) - 1,
				 titles[i]);
		prev = at;
	}
	/* The model without marks and nominal clock; the vendor goes when it does not fit. */
	assert_non_null(strstr(text, "\nkbhost          Linux 6.18.44 AMD EPYC 7R13   2995    4"
				     "    64   32K  512K   32M\n"));
	assert_non_null(strstr(text, " Platinum 8375C "));
	assert_non_null(strstr(text, "1.25M"));
	/* The notes of File & VM: the file system, fault-around. */
	assert_non_null(strstr(text, "  run 1 fs.*: files on ext4\n"));
	assert_non_null(strstr(text, "  run 2 fs.*: files on tmpfs\n"));
	assert_non_null(strstr(text, "  run 1 vm.page_fault: each fault mapped 16 pages\n"));
	/* The fault with fault-around off has no column: a row of Other results. */
	assert_non_null(strstr(text, " vm.page_fault_random "));
	assert_non_null(strstr(text, " 0.2153 us 0.2142 to 0.2162\n"));
	assert_non_null(strstr(text, "  run 2 vm.page_fault_random: noisy: "));
	/* Guesses: none for run 1; run 2's overflow into one note each. */
	assert_non_null(strstr(text, "  run 2 guess: L1 128K/OS 32K\n"));
	assert_non_null(strstr(text, "  run 2 guess: L2 256K/OS 1.25M\n"));
	assert_non_null(strstr(text, "  run 2 guess: no L3, OS 32M\n"));
	assert_null(strstr(text, "run 1 guess"));
	/* The curve is one line in Other results; what a table shows is not there. */
	assert_non_null(strstr(text, "  run 1 mem.lat.curve: 3 points (kbench show "
				     "mem.lat.curve 1)\n"));
	assert_null(strstr(text, "cpu.mhz:"));
	assert_null(strstr(text, "vm.page_fault_random: 0.2153 us (95%"));
	check_golden("summary_all", text);
	free(text);
	free_runs(runs, 2);
}

/* Guesses that fit their cell stay in it, and need no note. */
static void test_summary_guess_in_cell(void **state)
{
	static const double missing_l3[3] = { 32 << 10, 512 << 10, 0 };
	static const double os[3] = { 32 << 10, 512 << 10, 0 };
	struct run_info run;
	struct capture c;
	char *text;

	(void)state;
	set_run(&run, 5, "kbhost", "Linux 6.1", 3000);
	set_machine(&run, "", 512 << 10, 1);
	fill_fsvm_bw_mem(&run, 1.0, "ext4", missing_l3, os);
	/* Main memory no slower than L2: one level seen twice. */
	find(&run, "mem.lat.main")->median = 4.6;
	report_summary(capture_start(&c), &run, 1, 1);
	text = capture_end(&c);
	assert_lines_fit(text, 80);
	assert_non_null(strstr(text, " 4.600 mem ~ L2; no L3, OS 32M\n"));
	assert_null(strstr(text, "guess:"));
	free(text);
	run_info_free(&run);

	/* An OS that lists no L3 agrees that there is none. */
	set_run(&run, 6, "kbhost", "Linux 6.1", 3000);
	set_machine(&run, "", 512 << 10, 0);
	fill_fsvm_bw_mem(&run, 1.0, "ext4", missing_l3, os);
	report_summary(capture_start(&c), &run, 1, 1);
	text = capture_end(&c);
	assert_null(strstr(text, "no L3"));
	free(text);
	run_info_free(&run);
}

static void test_sysinfo_parse(void **state)
{
	struct sysinfo si, back;
	char *text;

	(void)state;
	fill_sysinfo(&si);
	text = report_sysinfo_json(&si);
	assert_non_null(text);
	assert_int_equal(report_sysinfo_parse(text, &back), 0);
	assert_string_equal(back.cpu_model, "AMD EPYC 7R13 Processor");
	assert_string_equal(back.host, "kbhost");
	assert_string_equal(back.clocksource, "tsc");
	assert_int_equal(back.ncpu_online, 4);
	assert_true(back.mhz == si.mhz);
	assert_true(back.mem_total == si.mem_total);
	assert_int_equal(back.ncaches, 4);
	assert_int_equal(back.caches[3].level, 3);
	assert_string_equal(back.caches[1].type, "Instruction");
	assert_true(back.caches[3].size == 32u << 20);
	assert_int_equal(back.caches[0].line, 64);
	free(text);
	/* Nothing, or not an object: -1 and nothing known. */
	assert_int_equal(report_sysinfo_parse(NULL, &back), -1);
	assert_int_equal(report_sysinfo_parse("{not json", &back), -1);
	assert_int_equal(report_sysinfo_parse("[1, 2]", &back), -1);
	assert_int_equal(back.ncaches, 0);
	/* Fields of the wrong type are left unknown, not trusted. */
	assert_int_equal(report_sysinfo_parse("{\"cpu_model\": 7, \"ncpu_online\": -2, "
					      "\"caches\": [{\"level\": \"x\"}, 5, "
					      "{\"level\": 2, \"size\": 1024, \"type\": \"Unified\"}]}",
					      &back), 0);
	assert_string_equal(back.cpu_model, "");
	assert_int_equal(back.ncpu_online, 0);
	assert_int_equal(back.ncaches, 1);
	assert_int_equal(back.caches[0].level, 2);
}

/*
 * A latency curve of two series measured at 16 sizes from 512 bytes to
 * 128M: "stride64" everywhere, "random" from 1K on, one noisy point; and
 * the levels detected in it (no L3 found where the OS has 32M).
 */
static void fill_curve(struct run_info *run)
{
	static const double sizes[] = {
		512, 1024, 1536, 2048, 16384, 32768, 49152, 65536, 262144, 524288, 786432,
		1048576, 4194304, 33554432, 67108864, 134217728,
	};
	static const double ns[] = {
		1.21, 1.22, 1.22, 1.23, 1.23, 1.25, 3.9, 4.1, 4.3, 4.8, 12.7, 14.2, 15.1, 71.3,
		88.2, 94.6,
	};
	struct result *r;
	size_t n = 0;

	set_run(run, 9, "kbhost", "Linux 6.18.44", 3000.2);
	set_machine(run, "AMD EPYC 7R13 Processor", 512 << 10, 1);
	add_result(run, "sys.null", 0.25, "us", BETTER_LOWER);
	r = add_result(run, "mem.lat.curve", 94.6, "ns", BETTER_LOWER);
	r->points = calloc(2 * NELEM(sizes), sizeof(*r->points));
	assert_non_null(r->points);
	for (size_t s = 0; s < 2; s++)
		for (size_t i = s; i < NELEM(sizes); i++) {
			struct result_point *p = &r->points[n++];

			snprintf(p->series, sizeof(p->series), "%s", s ? "random" : "stride64");
			p->x = sizes[i];
			p->y = ns[i] * (s ? 1.9 : 1.0);
			p->lo = p->y * 0.99;
			p->hi = p->y * 1.01;
		}
	r->npoints = n;
	r->points[20].noisy = 1;
	r->status = RES_NOISY;
	add_value(r, "l1_detected", 32768, NULL);
	add_value(r, "l2_detected", 786432, NULL);
	add_value(r, "l3_detected", 0, NULL);
	add_value(r, "max_size", 134217728, NULL);
}

static void test_show_curve(void **state)
{
	struct run_info run;
	struct capture c;
	char *text;

	(void)state;
	fill_curve(&run);
	assert_int_equal(report_show_text(capture_start(&c), &run, "mem.lat.curve"), 1);
	text = capture_end(&c);
	assert_lines_fit(text, 80);
	assert_non_null(strstr(text, "mem.lat.curve - ns - smaller is better\n"
				     "run 9 'Linux 6.18.44' on kbhost, started 2025-01-02T03:04:05Z\n"));
	/* Sizes as people write them; a series without a point leaves a blank. */
	assert_non_null(strstr(text, "\n    512        1.210\n"));
	assert_non_null(strstr(text, "\n   1.5K        1.220         2.318\n"));
	assert_non_null(strstr(text, "\n    32K        1.250         2.375*\n"));
	assert_non_null(strstr(text, "\n   128M        94.60         179.7\n"));
	assert_non_null(strstr(text, "* noisy: "));
	assert_non_null(strstr(text, "\nL2         768K  512K\n"));
	assert_non_null(strstr(text, "\nL3         none  32M\n"));
	assert_non_null(strstr(text, "\nmax_size: 134217728 (128M)\n"));
	check_golden("show_curve", text);
	free(text);
	/* An id the run has not: nothing printed. */
	assert_int_equal(report_show_text(capture_start(&c), &run, "mem.lat.l1"), 0);
	text = capture_end(&c);
	assert_string_equal(text, "");
	free(text);
	run_info_free(&run);
}

/* Six series: the sixth wraps into a second block, each within 80 columns. */
static void test_show_curve_wraps(void **state)
{
	struct run_info run;
	struct result *r;
	struct capture c;
	char *text, *second;

	(void)state;
	set_run(&run, 3, "kbhost", "Linux 6.18.44", 3000);
	r = add_result(&run, "mem.lat.curve", 1, "ns", BETTER_LOWER);
	r->points = calloc(6, sizeof(*r->points));
	assert_non_null(r->points);
	r->npoints = 6;
	for (size_t i = 0; i < 6; i++) {
		snprintf(r->points[i].series, sizeof(r->points[i].series), "stride%zu", (size_t)64 << i);
		r->points[i].x = 1024;
		r->points[i].y = (double)i + 0.5;
	}
	assert_int_equal(report_show_text(capture_start(&c), &run, "mem.lat.curve"), 1);
	text = capture_end(&c);
	assert_lines_fit(text, 80);
	second = strstr(text, "stride2048");
	assert_non_null(second);
	assert_null(strstr(text, "stride1024      stride2048"));
	assert_non_null(strstr(text, "stride1024\n"));
	assert_non_null(strstr(second, "\n     1K        5.500\n"));
	free(text);
	run_info_free(&run);
}

/* A figure, under two placements: each block its figure, CI and values. */
/*
 * A figure measured as replicas on a machine that changed state between
 * them (issue 12): the summary's notes say noisy over the replicas and
 * drift, with the sentinel's movement; show lists the replicas with the
 * sentinel around each; show sentinel prints the run's timeline.
 */
static void test_replicas_drift(void **state)
{
	struct run_info run;
	struct result *r;
	struct capture c;
	char *text;
	static const double med[7] = { 0.190, 0.140, 0.188, 0.137, 0.192, 0.141, 0.139 };

	(void)state;
	set_run(&run, 4, "kbhost", "Linux 6.18.44", 3000.2);
	set_machine(&run, "AMD EPYC 7R13 Processor", 512 << 10, 1);
	r = add_result(&run, "sys.null", 0.141, "us", BETTER_LOWER);
	r->status = RES_NOISY;
	r->stop = STOP_MAX_TIME;
	r->ci_low = 0.137;
	r->ci_high = 0.192;
	r->nreplicas = 7;
	r->replicas = calloc(7, sizeof(*r->replicas));
	assert_non_null(r->replicas);
	for (int k = 0; k < 7; k++)
		r->replicas[k] = (struct result_replica){
			.median = med[k], .lo = med[k] * 0.99, .hi = med[k] * 1.01, .n = 20,
			.t0 = k * 35.0, .t1 = k * 35.0 + 0.4, .stop = STOP_PRECISION,
			.sentinel_sys = med[k] * 1000 + 4, .sentinel_user = 0.41 + (med[k] > 0.15) * 0.05 };
	r->drift = (0.192 - 0.137) / 0.141;
	r->drifted = 1;
	/* The timeline: a slow spell, then fast, in bins of 40 at most. */
	run.nsentinel = 10;
	run.sentinel = calloc(10, sizeof(*run.sentinel));
	assert_non_null(run.sentinel);
	for (int i = 0; i < 10; i++)
		run.sentinel[i] = (struct sentinel_point){ i * 25.0, i % 3 ? 0 : 1,
							   i < 4 ? 194.0 + i : 141.0 - i, 0.41 };
	report_summary(capture_start(&c), &run, 1, 1);
	text = capture_end(&c);
	assert_lines_fit(text, 80);
	assert_non_null(strstr(text, "  run 4 sys.null: noisy: +-36.2% over 7 replicas; drift 39.0%\n"));
	free(text);
	/* Apart, each its own line. */
	r->drifted = 0;
	report_summary(capture_start(&c), &run, 1, 1);
	text = capture_end(&c);
	assert_non_null(strstr(text, "  run 4 sys.null: noisy: 95% CI +-36.2% over 7 replicas\n"));
	assert_null(strstr(text, "drift"));
	free(text);
	/*
	 * The machine's floor (machine_share) set the interval: no confidence level
	 * claimed for it; a floor narrower than the replicas' range changes nothing.
	 */
	r->values[r->nvalues] = (struct bench_value){ .key = "machine_share",
						      .num = log(0.192 / 0.141) };
	r->nvalues++;
	report_summary(capture_start(&c), &run, 1, 1);
	text = capture_end(&c);
	assert_lines_fit(text, 80);
	assert_non_null(strstr(text, "  run 4 sys.null: noisy: +-36.2%, the machine's spread "
				     "(7 replicas)\n"));
	free(text);
	r->values[r->nvalues - 1].num = 0.05;
	report_summary(capture_start(&c), &run, 1, 1);
	text = capture_end(&c);
	assert_non_null(strstr(text, "  run 4 sys.null: noisy: 95% CI +-36.2% over 7 replicas\n"));
	free(text);
	r->nvalues--;
	r->drifted = 1;
	r->status = RES_OK;
	report_summary(capture_start(&c), &run, 1, 1);
	text = capture_end(&c);
	assert_non_null(strstr(text, "  run 4 sys.null: drift: the machine moved 39.0% over its "
				     "replicas\n"));
	assert_lines_fit(text, 80);
	assert_null(strstr(text, "noisy"));
	free(text);
	r->status = RES_NOISY;
	assert_int_equal(report_show_text(capture_start(&c), &run, "sys.null"), 1);
	text = capture_end(&c);
	assert_lines_fit(text, 80);
	check_golden("show_replicas", text);
	free(text);
	report_show_sentinel_text(capture_start(&c), &run);
	text = capture_end(&c);
	assert_lines_fit(text, 80);
	check_golden("show_sentinel", text);
	free(text);
	run_info_free(&run);
}

static void test_show_figure(void **state)
{
	struct run_info run;
	struct result *r;
	struct capture c;
	char *text;

	(void)state;
	set_run(&run, 4, "kbhost", "Linux 6.18.44", 3000.2);
	set_machine(&run, "AMD EPYC 7R13 Processor", 512 << 10, 1);
	fill_ipc(&run, PLACE_SAME, 1.0, 1);
	fill_ipc(&run, PLACE_NONE, 2.0, 2);
	r = find(&run, "ipc.pipe.bw");
	add_value(r, "msg_size", 65536, NULL);
	r = &run.results[run.nresults - 3];
	assert_string_equal(r->id, "ipc.pipe.bw");
	r->status = RES_NOISY;
	r->stop = STOP_MAX_TIME;
	r->interference = 0.41;
	add_value(r, "msg_size", 65536, NULL);
	add_value(r, "transport", 0, "pipe");
	r = add_result(&run, "sys.null", 0.25, "us", BETTER_LOWER);
	make_unmeasured(r, RES_SKIP, "not here");
	assert_int_equal(report_show_text(capture_start(&c), &run, "ipc.pipe.bw"), 2);
	text = capture_end(&c);
	assert_lines_fit(text, 80);
	assert_non_null(strstr(text, "ipc.pipe.bw [same] - MB/s - bigger is better\n"));
	assert_non_null(strstr(text, "ipc.pipe.bw [none] - MB/s - bigger is better\n"));
	assert_non_null(strstr(text, "\nmedian:       2327 MB/s\n"));
	assert_non_null(strstr(text, "\nmsg_size:     65536 (64K)\n"));
	assert_non_null(strstr(text, "\nstatus:       noisy, stopped at max-time\n"));
	assert_non_null(strstr(text, "\ninterference: 41% of the other CPUs (busy)\n"));
	assert_non_null(strstr(text, "\nparallel:     2 copies, together 8843 MB/s\n"));
	check_golden("show_figure", text);
	free(text);
	/* Skipped: the reason, no figure. */
	assert_int_equal(report_show_text(capture_start(&c), &run, "sys.null"), 1);
	text = capture_end(&c);
	assert_non_null(strstr(text, "\nstatus:    skip: not here\n"));
	assert_null(strstr(text, "median"));
	free(text);
	run_info_free(&run);
}

static void test_show_json(void **state)
{
	struct run_info run;
	struct capture c;
	char *text;
	json_t *root, *runs, *results, *points, *p;

	(void)state;
	fill_curve(&run);
	assert_int_equal(report_show_json(capture_start(&c), &run, "mem.lat.curve"), 1);
	text = capture_end(&c);
	root = parse(text);
	assert_string_equal(
		json_string_value(json_object_get(json_object_get(root, "sysinfo"), "cpu_model")),
		"AMD EPYC 7R13 Processor");
	runs = json_object_get(root, "runs");
	assert_int_equal(json_array_size(runs), 1);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(runs, 0), "run_id")), 9);
	/* Only the result asked for, with all its points. */
	results = json_object_get(json_array_get(runs, 0), "results");
	assert_int_equal(json_array_size(results), 1);
	points = json_object_get(json_array_get(results, 0), "points");
	assert_int_equal(json_array_size(points), 31);
	p = json_array_get(points, 20);
	assert_string_equal(json_string_value(json_object_get(p, "series")), "random");
	assert_true(json_is_true(json_object_get(p, "noisy")));
	assert_true(json_real_value(json_object_get(p, "x")) == 32768);
	assert_true(json_is_number(
		json_object_get(json_object_get(json_array_get(results, 0), "values"), "l2_detected")));
	json_decref(root);
	free(text);
	run_info_free(&run);
}

/* ----------------------------------------------- one row per label (merge) */

/* The merged result of id under placement in run, or a failed test. */
static const struct result *find_placed(const struct run_info *run, const char *id,
					enum placement place)
{
	for (size_t i = 0; i < run->nresults; i++)
		if (strcmp(run->results[i].id, id) == 0 && run->results[i].placement == place)
			return &run->results[i];
	fail_msg("no result %s under placement %d", id, (int)place);
	return NULL;
}

/*
 * Known answers: label "A" in runs 1, 3 and 4 (with "B", run 2, between
 * them, so first appearance decides the order), each run with a marker
 * value saying where a result came from.
 */
static void test_merge_labels(void **state)
{
	static const double null_med[] = { 1, 5, 3 }, stat_med[] = { 2, 4, 6 };
	static const double same_med[] = { 10, 20, 30 }, none_med[] = { 100, 200, 300 };
	static const double mhz[] = { 2900, 3100, 3000 };
	struct run_info runs[4], *m;
	const struct result *r;
	struct result *src;
	int n;

	(void)state;
	for (size_t k = 0, a = 0; k < NELEM(runs); k++) {
		struct run_info *run = &runs[k];

		if (k == 1) {
			set_run(run, 2, "bhost", "B", 2500);
			add_result(run, "sys.null", 0.7, "us", BETTER_LOWER);
			continue;
		}
		set_run(run, (int64_t)k + 1, a ? "otherhost" : "ahost", "A", mhz[a]);
		src = add_result(run, "sys.null", null_med[a], "us", BETTER_LOWER);
		add_value(src, "marker", (double)a, NULL);
		src->interference = 0.1 * (double)(a + 1);
		src = add_result(run, "sys.stat", stat_med[a], "us", BETTER_LOWER);
		if (a == 1) {
			src->status = RES_NOISY;
			src->stop = STOP_MAX_TIME;
		}
		src = add_result(run, "proc.exec", 1, "us", BETTER_LOWER);
		make_unmeasured(src, RES_SKIP, a ? "another reason" : "no tiny program found");
		/* sys.read: usable in the second run only, which keeps its own CI. */
		src = add_result(run, "sys.read", 4, "us", BETTER_LOWER);
		if (a != 1)
			make_unmeasured(src, RES_FAIL, "read failed");
		/* sys.write: 7 and 9 (the first run failed): 8, nearest the earlier. */
		src = add_result(run, "sys.write", a == 2 ? 9 : 7, "us", BETTER_LOWER);
		add_value(src, "marker", (double)a, NULL);
		if (a == 0)
			make_unmeasured(src, RES_FAIL, "write failed");
		src = add_result(run, "ipc.pipe.lat", same_med[a], "us", BETTER_LOWER);
		src->placement = PLACE_SAME;
		src = add_result(run, "ipc.pipe.lat", none_med[a], "us", BETTER_LOWER);
		src->placement = PLACE_NONE;
		src = add_result(run, "mem.lat.curve", null_med[a], "ns", BETTER_LOWER);
		src->points = calloc(2, sizeof(*src->points));
		assert_non_null(src->points);
		src->npoints = 2;
		src->points[1].y = 10 * null_med[a];
		a++;
	}
	set_machine(&runs[0], "AMD EPYC 7R13 Processor", 512 << 10, 1);

	n = judge_merge_labels(runs, NELEM(runs), &m);
	assert_int_equal(n, 2);
	assert_string_equal(m[0].label, "A");
	assert_string_equal(m[1].label, "B");
	assert_int_equal(m[0].nmerged, 3);
	assert_int_equal(m[1].nmerged, 1);
	/* Several runs are no stored run; one run keeps its id for the notes. */
	assert_int_equal(m[0].id, 0);
	assert_int_equal(m[1].id, 2);
	/* The first run's host and machine; the median of the clock rates. */
	assert_string_equal(m[0].host, "ahost");
	assert_non_null(m[0].sysinfo_json);
	assert_ptr_not_equal(m[0].sysinfo_json, runs[0].sysinfo_json);
	assert_string_equal(m[0].sysinfo_json, runs[0].sysinfo_json);
	assert_true(m[0].mhz == 3000);
	/* One result per instance, in the order first measured: the placements apart. */
	assert_int_equal(m[0].nresults, 8);
	assert_string_equal(m[0].results[5].id, "ipc.pipe.lat");
	assert_int_equal(m[0].results[5].placement, PLACE_SAME);
	assert_int_equal(m[0].results[6].placement, PLACE_NONE);

	/* Medians 1, 5, 3: 3, its CI (three runs) their whole range, the values the third's. */
	r = find_placed(&m[0], "sys.null", PLACE_NA);
	assert_int_equal(r->status, RES_OK);
	assert_true(r->median == 3);
	assert_true(r->ci_low == 1 && r->ci_high == 5);
	assert_true(result_value(r, "marker")->num == 2);
	assert_null(r->samples);
	assert_int_equal(r->n, 9);
	assert_true(fabs(r->interference - 0.3) < 1e-12);

	/* One noisy run makes the merged figure noisy, with that run's stop. */
	r = find_placed(&m[0], "sys.stat", PLACE_NA);
	assert_int_equal(r->status, RES_NOISY);
	assert_true(r->median == 4);
	assert_int_equal(r->stop, STOP_MAX_TIME);

	/* No run measured it: the first run's skip, with its reason. */
	r = find_placed(&m[0], "proc.exec", PLACE_NA);
	assert_int_equal(r->status, RES_SKIP);
	assert_string_equal(r->reason, "no tiny program found");

	/* One usable run: its figure and its own CI, not a range of one. */
	r = find_placed(&m[0], "sys.read", PLACE_NA);
	assert_int_equal(r->status, RES_OK);
	assert_true(r->median == 4);
	assert_true(r->ci_low == 4 * 0.995 && r->ci_high == 4 * 1.004);
	assert_string_equal(r->reason, "");

	/* 7 and 9: 8; both are 1 away, so the values are the earlier run's. */
	r = find_placed(&m[0], "sys.write", PLACE_NA);
	assert_int_equal(r->status, RES_OK);
	assert_true(r->median == 8);
	assert_true(result_value(r, "marker")->num == 1);

	/* Instances keyed on placement: 10, 20, 30 and 100, 200, 300 never mix. */
	assert_true(find_placed(&m[0], "ipc.pipe.lat", PLACE_SAME)->median == 20);
	assert_true(find_placed(&m[0], "ipc.pipe.lat", PLACE_NONE)->median == 200);

	/* A curve's points are the nearest run's, copied (run_info_free frees both). */
	r = find_placed(&m[0], "mem.lat.curve", PLACE_NA);
	assert_int_equal(r->npoints, 2);
	assert_ptr_not_equal(r->points, runs[3].results[7].points);
	assert_true(r->points[1].y == 30);

	/* A label of one run is that run, bar the samples. */
	r = find_placed(&m[1], "sys.null", PLACE_NA);
	assert_true(r->median == 0.7);
	assert_true(r->ci_low == runs[1].results[0].ci_low);
	assert_int_equal(r->n, 3);
	assert_null(r->samples);

	judge_merge_free(m, (size_t)n);
	free_runs(runs, NELEM(runs));

	assert_int_equal(judge_merge_labels(NULL, 0, &m), 0);
	assert_null(m);
}

/*
 * The summary with one row per label: "2.5.47" measured three times (runs
 * 11, 13, 14), "Linux 6.18.44" once (run 12) between them.  Each figure of
 * 2.5.47 is the median of its three: the proc table's base figures scaled
 * by 1.0, 1.2 and 0.9 have the first run's as their median, except
 * sys.null (0.25, 0.20, 0.225: 0.225), proc.fork (215.3, 258.36, 300:
 * 258.4) and proc.exec (640.2 and 768.24 with the third skipped: 704.2);
 * sys.stat's 0.89 is noisy (the first run was), its CI 0.801 to 1.068
 * +-20.0%; sig.catch failed in every run and keeps the first's reason; the
 * clock is the median of 2990, 3010 and 3000.
 */
static void fill_labels(struct run_info runs[4])
{
	struct result *r;

	set_run(&runs[0], 11, "kbhost", "2.5.47", 2990);
	fill_full(&runs[0], 1.0);
	r = find(&runs[0], "sys.stat");
	r->status = RES_NOISY;
	r->stop = STOP_MAX_TIME;
	make_unmeasured(find(&runs[0], "sig.catch"), RES_FAIL, "sigaction: invalid argument");

	set_run(&runs[1], 12, "kbhost", "Linux 6.18.44", 3000.2);
	fill_full(&runs[1], 2.0);

	/* Another host for the same label: the row shows the first run's. */
	set_run(&runs[2], 13, "kbhost2", "2.5.47", 3010);
	fill_full(&runs[2], 1.2);
	find(&runs[2], "sys.null")->median = 0.20;
	make_unmeasured(find(&runs[2], "sig.catch"), RES_FAIL, "another reason");

	set_run(&runs[3], 14, "kbhost", "2.5.47", 3000);
	fill_full(&runs[3], 0.9);
	find(&runs[3], "proc.fork")->median = 300;
	make_unmeasured(find(&runs[3], "proc.exec"), RES_SKIP, "no tiny program found");
	make_unmeasured(find(&runs[3], "sig.catch"), RES_SKIP, "a third reason");
}

static void test_summary_labels(void **state)
{
	struct run_info runs[4], *m;
	struct capture c;
	char *text;
	int n;

	(void)state;
	fill_labels(runs);
	n = judge_merge_labels(runs, NELEM(runs), &m);
	assert_int_equal(n, 2);
	report_summary(capture_start(&c), m, (size_t)n, 1);
	text = capture_end(&c);
	assert_lines_fit(text, 80);
	check_golden("summary_labels", text);
	assert_non_null(strstr(text, "\nkbhost       2.5.47 [3] 3000 0.23 0.31 0.89 1.95 3.61 0.11"
				     "      258. 704. 1320\n"));
	assert_non_null(strstr(text, "\nkbhost    Linux 6.18.44 3000 0.50 "));
	assert_non_null(strstr(text, "  label '2.5.47' (3 runs) sys.stat: noisy in a run; runs' CI "
				     "+-20.0%\n"));
	assert_non_null(strstr(text, "  label '2.5.47' (3 runs) sig.catch: fail: sigaction: "
				     "invalid argument\n"));
	/* A figure that some runs skipped is the others' median, without a note. */
	assert_null(strstr(text, "proc.exec"));
	assert_non_null(strstr(text, "\nkbhost       2.5.47 [3] sys.fstat "));
	assert_non_null(strstr(text, " 0.3100 us 0.2790 to 0.3720\n"));
	assert_non_null(strstr(text, "\nkbhost    Linux 6.18.44 sys.fstat "));
	free(text);
	judge_merge_free(m, (size_t)n);
	free_runs(runs, NELEM(runs));
}

/*
 * The rates table, golden: the seed's UP and SMP figures (write, socket,
 * select, gettimeofday) and the rest of the family's.  "UP" measured three
 * times (runs 21, 23, 24, scaled by 1.0, 1.012 and 0.992: the first run's
 * figure is the median, its interval the range, +-1.2%), "SMP" once (run
 * 22, between them): its figures alone, the coarse clock skipped and a
 * blank with the reason below.  UP's rate.time is noisy in one run.
 */
static void fill_rates(struct run_info runs[4])
{
	static const struct {
		const char *id;
		double up, smp;
	} figs[] = {
		{ "rate.getppid", 2401234, 2398765 },
		{ "rate.write", 904427, 661312 },
		{ "rate.read", 1012345, 702345 },
		{ "rate.socket", 1327692, 1067743 },
		{ "rate.select", 554131, 434390 },
		{ "rate.gettimeofday", 1734963, 252479 },
		{ "rate.clock_gettime", 1801234, 260123 },
		{ "rate.clock_gettime_coarse", 98765432, 0 },
		{ "rate.time", 345678901, 301234567 },
	};
	static const double scale[] = { 1.0, 1.012, 0.992 };
	static const int64_t up_ids[] = { 21, 23, 24 };

	for (size_t k = 0; k < 3; k++) {
		struct run_info *run = &runs[k == 0 ? 0 : k + 1];

		set_run(run, up_ids[k], "xeon", "UP", 2800);
		for (size_t i = 0; i < NELEM(figs); i++)
			add_result(run, figs[i].id, figs[i].up * scale[k], "calls/s", BETTER_HIGHER);
	}
	find(&runs[2], "rate.time")->status = RES_NOISY;
	set_run(&runs[1], 22, "xeon", "SMP", 2800);
	for (size_t i = 0; i < NELEM(figs); i++)
		add_result(&runs[1], figs[i].id, figs[i].smp, "calls/s", BETTER_HIGHER);
	make_unmeasured(find(&runs[1], "rate.clock_gettime_coarse"), RES_SKIP,
			"the OS has no CLOCK_MONOTONIC_COARSE");
}

/*
 * Kernels as they are named (6.19.0-rc1-next-a, 6.19.0-rc1-next-b, a
 * merged row's " [3]" after one): lmbench's tables widen the OS column to
 * the longest label and cut none, so two kernels never read alike, and
 * their other columns keep their widths; the rates' columns, a label each,
 * head themselves with a key (A, B) whose label is whole on a line above.
 */
static void test_summary_long_labels(void **state)
{
	static const char *const labels[] = { "6.19.0-rc1-next-a", "6.19.0-rc1-next-b",
					      "6.19.0-rc1-next-b", "6.19.0-rc1-next-b" };
	struct run_info runs[4], *m;
	struct capture c;
	char *text;
	int n;

	(void)state;
	for (size_t k = 0; k < NELEM(runs); k++) {
		set_run(&runs[k], (int64_t)k + 1, "box", labels[k], 2800);
		add_result(&runs[k], "sys.null", 0.2 + 0.001 * (double)k, "us", BETTER_LOWER);
		add_result(&runs[k], "proc.fork", 150, "us", BETTER_LOWER);
		add_result(&runs[k], "rate.getppid", 2400000, "calls/s", BETTER_HIGHER);
		add_result(&runs[k], "sys.fstat", 0.3, "us", BETTER_LOWER);
	}
	n = judge_merge_labels(runs, NELEM(runs), &m);
	assert_int_equal(n, 2);
	report_summary(capture_start(&c), m, (size_t)n, 0);
	text = capture_end(&c);
	/* 80 columns but the label's 21 ("6.19.0-rc1-next-b [3]") over lmbench's 13. */
	assert_lines_fit(text, 80 + 21 - 13);
	assert_non_null(strstr(text, "\nbox           6.19.0-rc1-next-a 2800 0.20 "));
	assert_non_null(strstr(text, "\nbox       6.19.0-rc1-next-b [3] 2800 0.20 "));
	/* Other results (sys.fstat) too. */
	assert_non_null(strstr(text, "\nbox       6.19.0-rc1-next-b [3] sys.fstat "));
	assert_null(strstr(text, "6.19.0-rc [3]"));
	assert_non_null(strstr(text, "\nA  6.19.0-rc1-next-a\n"));
	assert_non_null(strstr(text, "\nB  6.19.0-rc1-next-b [3]\n"));
	assert_non_null(strstr(text, "\nCall                                  A                  B\n"));
	free(text);
	judge_merge_free(m, (size_t)n);
	free_runs(runs, NELEM(runs));
}

static void test_summary_rates(void **state)
{
	struct run_info runs[4], *m;
	struct capture c;
	char *text;
	int n;

	(void)state;
	fill_rates(runs);
	n = judge_merge_labels(runs, NELEM(runs), &m);
	assert_int_equal(n, 2);
	report_summary(capture_start(&c), m, (size_t)n, 1);
	text = capture_end(&c);
	assert_lines_fit(text, 80);
	check_golden("summary_rates", text);
	/* A column per label in the order first seen, a row per call, the seed's figures. */
	assert_non_null(strstr(text, "System call rates - calls per second - bigger is better\n"));
	assert_non_null(strstr(text, "\nCall                             UP [3]                SMP\n"));
	assert_non_null(strstr(text, "\nwrite                    904427  +-1.2%             661312\n"));
	assert_non_null(strstr(text, "\ngettimeofday            1734963  +-1.2%             252479\n"));
	assert_non_null(strstr(text, "\nclock_gettime_coarse   98765432  +-1.2%\n"));
	assert_non_null(strstr(text, "  run 22 rate.clock_gettime_coarse: skip: the OS has no "
				     "CLOCK_MONOTONIC_COARSE\n"));
	assert_non_null(strstr(text, "  label 'UP' (3 runs) rate.time: noisy in a run; runs' CI "
				     "+-1.2%\n"));
	/* In a table of their own, not among "Other results". */
	assert_null(strstr(text, "Other results"));
	free(text);
	judge_merge_free(m, (size_t)n);
	free_runs(runs, NELEM(runs));

	/* --each: a column per run, no intervals, no counts. */
	fill_rates(runs);
	report_summary(capture_start(&c), runs, NELEM(runs), 1);
	text = capture_end(&c);
	assert_lines_fit(text, 80);
	assert_non_null(strstr(text, "\nCall                                 UP                SMP"
				     "                 UP\n"));
	assert_non_null(strstr(text, "\nwrite                            904427             661312"
				     "             915280\n"));
	assert_non_null(strstr(text, "\ngetppid                         2401234            2398765"
				     "            2430049\n"));
	free(text);
	free_runs(runs, NELEM(runs));
}

/*
 * AIM9's table, golden: published 2.5.60 figures (signal_test 122000,
 * fork_test 1532.82, page_test 67331.78, in AIM9's units) under label
 * "2.5.60", and the same three 1% lower under "2.5.61", which also failed
 * exec_test; stored out of AIM9's order, printed in it.  Each result has
 * two replicas of 10 samples whose first and last lie 1.2 s apart, so
 * Elapsed is 2.4 s and the count 2 x 9 x iterations.
 */
static struct result *add_aim9(struct run_info *run, const char *id, double ops,
			       const char *unit, uint64_t iterations)
{
	struct result *r = add_result(run, id, ops, unit, BETTER_HIGHER);

	r->iterations = iterations;
	r->nreplicas = 2;
	r->replicas = calloc(2, sizeof(*r->replicas));
	assert_non_null(r->replicas);
	for (size_t k = 0; k < 2; k++) {
		r->replicas[k].n = 10;
		r->replicas[k].t0 = 1.0 + 5.0 * (double)k;
		r->replicas[k].t1 = 2.2 + 5.0 * (double)k;
		r->replicas[k].median = ops;
	}
	return r;
}

static void fill_aim9(struct run_info runs[2])
{
	static const struct {
		const char *id, *unit;
		double ops;
		uint64_t iterations;
	} figs[] = {
		{ "aim9.signal_test", "Signal Traps/second", 122000, 12 },
		{ "aim9.page_test", "System Allocations & Pages/second", 67331.78, 4 },
		{ "aim9.fork_test", "Task Creations/second", 1532.82, 2 },
		{ "aim9.exec_test", "Program Loads/second", 310.5, 1 },
	};
	static const double scale[] = { 1.0, 0.99 };
	static const char *const labels[] = { "2.5.60", "2.5.61" };

	for (size_t k = 0; k < 2; k++) {
		set_run(&runs[k], (int64_t)k + 31, "pIII", labels[k], 868);
		for (size_t i = 0; i < NELEM(figs); i++)
			add_aim9(&runs[k], figs[i].id, figs[i].ops * scale[k], figs[i].unit,
				 figs[i].iterations);
	}
	find(&runs[0], "aim9.fork_test")->status = RES_NOISY;
	make_unmeasured(find(&runs[1], "aim9.exec_test"), RES_FAIL,
			"exec of kbench-tiny: no such file or directory");
}

static void test_summary_aim9(void **state)
{
	struct run_info runs[2];
	struct capture c;
	char *text;

	(void)state;
	fill_aim9(runs);
	report_summary(capture_start(&c), runs, NELEM(runs), 1);
	text = capture_end(&c);
	assert_lines_fit(text, 80);
	check_golden("summary_aim9", text);
	assert_non_null(strstr(text, "AIM Independent Resource Benchmark - Suite IX - 2.5.60\n"));
	/* AIM9's number, name, elapsed, count, loops/s (ops / factor 1000), ops/s, interval. */
	assert_non_null(strstr(text, "\n  10 signal_test         2.40        216      122.00000"
				     "      122000.00 +-0.5%\n     Signal Traps/second\n"));
	/* page_test (7) before signal_test (10) before exec_test (11) before fork_test (12). */
	assert_true(strstr(text, " page_test ") < strstr(text, " signal_test "));
	assert_true(strstr(text, " signal_test ") < strstr(text, " exec_test "));
	assert_true(strstr(text, " exec_test ") < strstr(text, " fork_test "));
	assert_non_null(strstr(text, "  12 fork_test           2.40         36       15.32820"
				     "        1532.82 +-0.5% !\n"));
	assert_non_null(strstr(text, "  11 exec_test     failed\n"));
	assert_non_null(strstr(text, "exec of kbench-tiny: no such file or directory"));
	assert_non_null(strstr(text, "! = loose: its interval over twice"));
	assert_null(strstr(text, "Other results"));
	free(text);
	free_runs(runs, NELEM(runs));
}

/* More labels than fit 80 columns: the next ones in a block below, the calls again. */
static void test_summary_rates_wrap(void **state)
{
	static const char *const labels[] = { "A", "B", "C", "D", "E" };
	struct run_info runs[NELEM(labels) + 1];
	struct capture c;
	char *text;
	const char *second;

	(void)state;
	for (size_t k = 0; k < NELEM(labels); k++) {
		set_run(&runs[k], (int64_t)k + 1, "h", labels[k], 2800);
		add_result(&runs[k], "rate.getppid", 1e6 * (double)(k + 1), "calls/s", BETTER_HIGHER);
		add_result(&runs[k], "rate.time", 3e8, "calls/s", BETTER_HIGHER);
	}
	/* A run without rates has no column. */
	set_run(&runs[NELEM(labels)], 9, "h", "none", 2800);
	add_result(&runs[NELEM(labels)], "sys.null", 0.25, "us", BETTER_LOWER);
	report_summary(capture_start(&c), runs, NELEM(runs), 1);
	text = capture_end(&c);
	assert_lines_fit(text, 80);
	assert_non_null(strstr(text, "\nCall                                  A                  B"
				     "                  C\n"));
	second = strstr(text, "\n\nCall                                  D                  E\n");
	assert_non_null(second);
	assert_non_null(strstr(second, "\ngetppid                         4000000            5000000\n"
				       "time                          300000000          300000000\n"));
	assert_null(strstr(text, "none  "));
	free(text);
	free_runs(runs, NELEM(runs));
}

/*
 * A merged row's label and count stay whole, the OS column as wide as they
 * take; its curve points the way to `kbench show` by label, quoted for the
 * shell.
 */
static void test_summary_merged_row(void **state)
{
	struct run_info run;
	struct capture c;
	struct result *r;
	char *text;

	(void)state;
	set_run(&run, 0, "kbhost", "2.5.47-mm1-with-a-long-name", 2999.7);
	fill_full(&run, 1.0);
	run.nmerged = 12;
	r = add_result(&run, "mem.lat.curve", 94.6, "ns", BETTER_LOWER);
	r->points = calloc(3, sizeof(*r->points));
	assert_non_null(r->points);
	r->npoints = 3;
	report_summary(capture_start(&c), &run, 1, 1);
	text = capture_end(&c);
	assert_non_null(strstr(text, "\nkbhost    2.5.47-mm1-with-a-long-name [12] 3000 0.25 "));
	assert_non_null(strstr(text, "mem.lat.curve: 3 points (kbench show mem.lat.curve "
				     "2.5.47-mm1-with-a-long-name)\n"));
	free(text);

	snprintf(run.label, sizeof(run.label), "Linux 6.18.44");
	run.nmerged = 2;
	report_summary(capture_start(&c), &run, 1, 1);
	text = capture_end(&c);
	assert_non_null(strstr(text, "\nkbhost    Linux 6.18.44 [2] 3000 "));
	assert_non_null(strstr(text, "(kbench show mem.lat.curve 'Linux 6.18.44')\n"));
	free(text);
	run_info_free(&run);
}

/* ------------------------------------------------------------ contest */

/*
 * One contest run: noload, io_load and a failed mem_load, the Times given
 * (io_load's Loads and LCPU% scaled with the run, so medians are checkable).
 */
static void fill_contest(struct run_info *run, int64_t id, const char *label, double noload,
			 double io, double io_loads)
{
	struct result *r;

	set_run(run, id, "kbhost", label, 3000);
	r = add_result(run, "contest.noload", noload, "s", BETTER_LOWER);
	r->n = 1;
	r->samples[0] = noload;
	add_value(r, "cpu_share", 1.8, NULL);
	add_value(r, "loads", 0, NULL);
	add_value(r, "load_unit", NAN, "-");
	add_value(r, "lcpu_share", 0, NULL);
	r = add_result(run, "contest.io_load", io, "s", BETTER_LOWER);
	r->n = 1;
	r->samples[0] = io;
	add_value(r, "cpu_share", 0.9, NULL);
	add_value(r, "loads", io_loads, NULL);
	add_value(r, "load_unit", NAN, "MB written");
	add_value(r, "lcpu_share", io_loads / 1e4, NULL);
	r = add_result(run, "contest.mem_load", 0, "s", BETTER_LOWER);
	make_unmeasured(r, RES_FAIL, "the job ran past its timeout of 400 s and was stopped");
}

/*
 * contest's tables, golden: two labels of three runs, io_load 50% slower
 * in the second (significant), noload the same (not); the first label's
 * noload median (40) is the Ratio's base, so its io_load reads 60/40.
 * Medians by hand: 2.5.47 noload 39, 40, 41 -> 40; io_load 58, 60, 62 ->
 * 60, Loads 900, 1000, 1100 -> 1000, LCPU 10; 2.5.48 noload 40.2, 40.0,
 * 39.8 -> 40.0; io_load 91, 90, 89 -> 90 (Ratio 2.25).
 */
static void test_contest_text(void **state)
{
	struct run_info runs[6];
	struct capture c;
	char *text;
	(void)state;

	fill_contest(&runs[0], 1, "2.5.47", 39, 58, 900);
	fill_contest(&runs[1], 2, "2.5.48", 40.2, 91, 800);
	fill_contest(&runs[2], 3, "2.5.47", 40, 60, 1000);
	fill_contest(&runs[3], 4, "2.5.48", 40.0, 90, 700);
	fill_contest(&runs[4], 5, "2.5.47", 41, 62, 1100);
	fill_contest(&runs[5], 6, "2.5.48", 39.8, 89, 750);
	/* A baseline another program competed with gets a note; a load's row does not. */
	find(&runs[3], "contest.noload")->interference = 0.4;
	find(&runs[3], "contest.io_load")->interference = 0.9;
	assert_int_equal(report_contest_has(runs, 6), 1);
	assert_int_equal(report_contest_text(capture_start(&c), runs, 6, 0.02), 0);
	text = capture_end(&c);
	assert_lines_fit(text, 80);
	check_golden("contest_labels", text);
	assert_non_null(strstr(text, "\nio_load (Loads: MB written):\n"));
	assert_non_null(strstr(text, "\nnoload:\n"));
	assert_non_null(strstr(text, "\n2.5.47 [3]              40.00  +-2.5%   180        0      0   1.00\n"));
	assert_non_null(strstr(text, "\n2.5.48 [3]              40.00  +-0.5%   180        0      0   1.00\n"));
	assert_non_null(strstr(text, "\n2.5.47 [3]              60.00  +-3.3%    90     1000     10   1.50\n"));
	assert_non_null(strstr(text, "\n2.5.48 [3]              90.00  +-1.1%    90      750      8   2.25 *\n"));
	assert_non_null(strstr(text, "fail: the job ran past its timeout of 400 s and was stopped"));
	assert_non_null(strstr(text, " 1.00\n  2.5.48: busy: other work used up to 40% of the CPUs "
				     "during the job\n"));
	assert_null(strstr(text, "up to 90%"));
	free(text);
	free_runs(runs, 6);
	/* No contest result, no table. */
	set_run(&runs[0], 1, "kbhost", "x", 3000);
	add_result(&runs[0], "sys.null", 0.5, "us", BETTER_LOWER);
	assert_int_equal(report_contest_has(runs, 1), 0);
	assert_int_equal(report_contest_text(capture_start(&c), runs, 1, 0.02), 0);
	text = capture_end(&c);
	assert_string_equal(text, "");
	free(text);
	free_runs(runs, 1);
}


/* ------------------------------------------- labels: escaped, aligned */

/* The columns line no (1-based) of text takes on a terminal, as utf8.h counts. */
static int line_cols(const char *text, int no)
{
	char line[1024];
	const char *p = text;
	size_t len;

	for (int i = 1; i < no; i++) {
		p = strchr(p, '\n');
		assert_non_null(p);
		p++;
	}
	len = strcspn(p, "\n");
	assert_true(len < sizeof(line));
	memcpy(line, p, len);
	line[len] = '\0';
	return utf8_width(line);
}

/* No byte of text is a control character but the newlines between lines. */
static void assert_no_controls(const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
			fail_msg("control byte 0x%02x at offset %zu", *p,
				 (size_t)(p - (const unsigned char *)text));
	assert_true(utf8_is_plain("ok", NULL));
}

static void test_cell_escapes(void **state)
{
	char buf[128];

	(void)state;
	/* Controls: C0 named or \xNN, DEL, C1 and the bidi controls as \uNNNN. */
	assert_string_equal(report_cell(buf, sizeof(buf), "a\nb\tc\rd", -1, 0), "a\\nb\\tc\\rd");
	assert_string_equal(report_cell(buf, sizeof(buf), "\x1b[31mred\a", -1, 0),
			    "\\x1b[31mred\\x07");
	assert_string_equal(report_cell(buf, sizeof(buf), "del\x7f", -1, 0), "del\\x7f");
	assert_string_equal(report_cell(buf, sizeof(buf), "c1\xc2\x85", -1, 0), "c1\\u0085");
	assert_string_equal(report_cell(buf, sizeof(buf), "\xc2\x9b" "2J", -1, 0), "\\u009b2J");
	assert_string_equal(report_cell(buf, sizeof(buf), "abc\xe2\x80\xae" "fed", -1, 0),
			    "abc\\u202efed");
	/* Bytes that are not UTF-8: stray, overlong, surrogate, past U+10FFFF, cut short. */
	assert_string_equal(report_cell(buf, sizeof(buf), "x\xffy\x80", -1, 0), "x\\xffy\\x80");
	assert_string_equal(report_cell(buf, sizeof(buf), "\xc0\xaf", -1, 0), "\\xc0\\xaf");
	assert_string_equal(report_cell(buf, sizeof(buf), "\xed\xa0\x80", -1, 0),
			    "\\xed\\xa0\\x80");
	assert_string_equal(report_cell(buf, sizeof(buf), "\xf4\x90\x80\x80", -1, 0),
			    "\\xf4\\x90\\x80\\x80");
	assert_string_equal(report_cell(buf, sizeof(buf), "noyau-\xc3", -1, 0), "noyau-\\xc3");
	/* Valid UTF-8 and a backslash are kept: escaping escaped text changes nothing. */
	assert_string_equal(report_cell(buf, sizeof(buf), "noyau-é カーネル a\\nb", -1, 0),
			    "noyau-é カーネル a\\nb");
	report_cell(buf, sizeof(buf), "\x1b]0;title\a\xff", -1, 0);
	{
		char again[128];

		assert_string_equal(report_cell(again, sizeof(again), buf, -1, 0), buf);
	}
}

static void test_cell_width(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(utf8_width("2.5.47"), 6);
	assert_int_equal(utf8_width("noyau-é"), 7);
	assert_int_equal(utf8_width("noyau-e\xcc\x81"), 7);	/* e and a combining acute */
	assert_int_equal(utf8_width("カーネル"), 8);
	assert_int_equal(utf8_width("内核"), 4);
	assert_int_equal(utf8_width("\xef\xbc\xa1"), 2);	/* fullwidth A */
	assert_int_equal(utf8_width("a\n"), 3);		/* as escaped: a\n */
	/* Padded by columns, right or left; cut by columns, never inside a character. */
	assert_string_equal(report_cell(buf, sizeof(buf), "noyau-é", 9, 1), "  noyau-é");
	assert_string_equal(report_cell(buf, sizeof(buf), "カーネル", 10, -1), "カーネル  ");
	assert_string_equal(report_cell(buf, sizeof(buf), "カーネル", 5, 1), " カー");
	assert_string_equal(report_cell(buf, sizeof(buf), "カーネル", 5, 0), "カー");
	/* Nor inside an escape: \x1b takes 4 columns or none. */
	assert_string_equal(report_cell(buf, sizeof(buf), "ab\x1b", 5, -1), "ab   ");
	assert_string_equal(report_cell(buf, sizeof(buf), "ab\x1b", 6, -1), "ab\\x1b");
	/* A combining mark stays with its letter. */
	assert_string_equal(report_cell(buf, sizeof(buf), "e\xcc\x81t", 1, 0), "e\xcc\x81");
	/* A buffer too small cuts between characters and pads what it can. */
	assert_string_equal(report_cell(buf, 5, "カーネル", 8, 0), "カ");
	assert_string_equal(report_cell(buf, 6, "ab", 9, 1), "   ab");
}

static void test_utf8_decode(void **state)
{
	char buf[64];
	uint32_t cp;

	(void)state;
	assert_int_equal(utf8_next("\xc3\xa9", &cp), 2);
	assert_int_equal(cp, 0xe9);
	assert_int_equal(utf8_next("\xe3\x82\xab", &cp), 3);
	assert_int_equal(cp, 0x30ab);
	assert_int_equal(utf8_next("\xf0\x9f\x98\x80", &cp), 4);
	assert_int_equal(cp, 0x1f600);
	assert_int_equal(utf8_cp_width(cp), 2);
	assert_int_equal(utf8_next("\xe0\x80\xaf", &cp), 0);	/* overlong '/' */
	assert_int_equal(utf8_next("\xe3\x82", &cp), 0);	/* cut short */
	assert_int_equal(utf8_next("", &cp), 0);
	assert_true(utf8_is_control(0x1b) && utf8_is_control(0x7f) && utf8_is_control(0x85));
	assert_true(utf8_is_control(0x202e) && utf8_is_control(0x2066) && !utf8_is_control(0xe9));
	/* Exports repair each bad byte with U+FFFD and keep the rest. */
	assert_int_equal(utf8_repair(buf, sizeof(buf), "noyau-\xc3\xa9\xff!"), 1);
	assert_string_equal(buf, "noyau-\xc3\xa9\xef\xbf\xbd!");
	assert_int_equal(utf8_repair(buf, 8, "ab\xff\xfe"), 1);
	assert_string_equal(buf, "ab\xef\xbf\xbd");	/* the second would not fit whole */
}

/* Labels from a hostile export and from three scripts, in the summary. */
static void fill_hostile(struct run_info runs[4])
{
	set_run(&runs[0], 1, "kbhost", "2.5.47", 3000);
	fill_full(&runs[0], 1.0);
	set_run(&runs[1], 2, "kbhost", "noyau-é", 3000);
	fill_full(&runs[1], 1.1);
	set_run(&runs[2], 3, "ホスト", "カーネル", 3000);
	fill_full(&runs[2], 1.2);
	set_run(&runs[3], 4, "h\x1b[2Jst", "evil\x1b[31m\nrow\a", 3000);
	fill_full(&runs[3], 1.3);
	make_unmeasured(find(&runs[3], "proc.exec"), RES_SKIP, "no\nsuch\x1b[0m thing");
}

static void test_summary_hostile_labels(void **state)
{
	struct run_info runs[4];
	struct capture c;
	char *text, *p;
	int first = 0;

	(void)state;
	fill_hostile(runs);
	report_summary(capture_start(&c), runs, NELEM(runs), 1);
	text = capture_end(&c);
	assert_no_controls(text);
	check_golden("summary_utf8", text);
	/* Every row of the table is one line, its figures in the header's columns. */
	/* The OS column as wide as the widest label, escaped: evil\x1b[31m\nrow\x07, 21. */
	assert_non_null(strstr(text, "\nkbhost                   2.5.47 3000 0.25 0.31 "));
	assert_non_null(strstr(text, "\nkbhost                  noyau-é 3000 0.28 0.34 "));
	assert_non_null(strstr(text, "\nホスト                 カーネル 3000 0.30 0.37 "));
	assert_non_null(strstr(text, "\nh\\x1b[2Js evil\\x1b[31m\\nrow\\x07 3000 0.33 0.40 "));
	assert_non_null(strstr(text, "  run 4 proc.exec: skip: no\\nsuch\\x1b[0m thing\n"));
	/* The rows of the Processor table are as wide as its dashes, column for column. */
	p = strstr(text, "Processor, Processes");
	assert_non_null(p);
	for (int no = 1, n = count_lines(p); no <= n; no++) {
		int cols = line_cols(p, no);

		if (no == 5)
			first = cols;		/* the dashes */
		else if (no > 5 && no <= 9)
			assert_int_equal(cols, first);
	}
	assert_int_equal(first, 78 + 21 - 13);
	free(text);

	/* A row merged from runs keeps a wide label whole, and its count after it. */
	snprintf(runs[2].label, sizeof(runs[2].label), "カーネルカーネル");
	runs[2].nmerged = 3;
	report_summary(capture_start(&c), &runs[2], 1, 1);
	text = capture_end(&c);
	assert_non_null(strstr(text, "\nホスト    カーネルカーネル [3] 3000 "));
	assert_non_null(strstr(text, "\nホスト    カーネルカーネル [3] sys.fstat "));
	free(text);
	free_runs(runs, NELEM(runs));
}

static void test_contest_hostile_labels(void **state)
{
	struct run_info runs[3];
	struct capture c;
	char *text;

	(void)state;
	fill_contest(&runs[0], 1, "カーネル", 40, 60, 1000);
	fill_contest(&runs[1], 2, "noyau-é", 40, 60, 1000);
	fill_contest(&runs[2], 3, "evil\x1b[31m\nrow\a", 40, 60, 1000);
	snprintf(find(&runs[2], "contest.mem_load")->reason, sizeof(runs[2].results[0].reason),
		 "bad\nreason\x1b[0m");
	assert_int_equal(report_contest_text(capture_start(&c), runs, 3, 0.02), 0);
	text = capture_end(&c);
	assert_no_controls(text);
	assert_non_null(strstr(text, "Ratio = Time / カーネル's noload Time"));
	/*
	 * The label's column as wide on the screen as the widest label takes
	 * (evil\x1b[31m\nrow\x07, 21) and a blank, whatever their bytes.
	 */
	assert_non_null(strstr(text, "\nカーネル                  40.00           180        0      0   1.00\n"));
	assert_non_null(strstr(text, "\nnoyau-é                   40.00           180        0      0   1.00\n"));
	assert_non_null(strstr(text, "\nevil\\x1b[31m\\nrow\\x07     40.00           180        0      0   1.00\n"));
	assert_non_null(strstr(text, "\nevil\\x1b[31m\\nrow\\x07  fail: bad\\nreason\\x1b[0m\n"));
	free(text);
	free_runs(runs, 3);
}

/* Invalid UTF-8 from an old database: valid JSON, good characters kept. */
static void test_json_bad_utf8(void **state)
{
	struct run_info run;
	struct capture c;
	char *text;
	json_t *root, *r;

	(void)state;
	set_run(&run, 1, "h\xffst", "noyau-\xc3\xa9\xe9", 3000);
	fill_full(&run, 1.0);
	assert_int_equal(report_export_json(capture_start(&c), &run, 1), 0);
	text = capture_end(&c);
	root = parse(text);
	r = json_array_get(json_object_get(root, "runs"), 0);
	assert_string_equal(json_string_value(json_object_get(r, "label")),
			    "noyau-\xc3\xa9\xef\xbf\xbd");
	assert_string_equal(json_string_value(json_object_get(r, "host")), "h\xef\xbf\xbdst");
	json_decref(root);
	free(text);
	assert_int_equal(report_runs_json(capture_start(&c), NULL, &run, 1), 0);
	text = capture_end(&c);
	root = parse(text);
	r = json_array_get(json_object_get(root, "runs"), 0);
	assert_string_equal(json_string_value(json_object_get(r, "label")),
			    "noyau-\xc3\xa9\xef\xbf\xbd");
	json_decref(root);
	free(text);
	/* The CSV export too. */
	assert_int_equal(report_export_csv(capture_start(&c), &run, 1), 0);
	text = capture_end(&c);
	assert_true(utf8_is_valid(text));
	assert_non_null(strstr(text, ",noyau-\xc3\xa9\xef\xbf\xbd,h\xef\xbf\xbdst,"));
	free(text);
	run_info_free(&run);
}

/* Equal, counting two NaNs as equal (NaN goes out as null and comes back). */
static void assert_same_or_nan(double a, double b)
{
	if (isnan(a) || isnan(b))
		assert_true(isnan(a) && isnan(b));
	else
		assert_true(a == b);
}

/* A copy of doc with result 1's key set to val (a jansson reference, stolen); malloc'd text. */
static char *with_key(const char *doc, const char *key, json_t *val)
{
	json_t *root = parse(doc);
	json_t *r = json_array_get(json_object_get(json_array_get(json_object_get(root, "runs"), 0),
						   "results"), 0);
	char *text;

	assert_int_equal(json_object_set_new(r, key, val), 0);
	text = json_dumps(root, 0);
	assert_non_null(text);
	json_decref(root);
	return text;
}

/* Import text, which must be refused with a message holding want. */
static void assert_import_refused(const char *text, const char *want)
{
	char err[ERRBUF_LEN] = "";
	struct run_info *runs = NULL;
	size_t n = 0;

	assert_int_equal(report_import_buf("t.json", text, strlen(text), &runs, &n, err), -1);
	if (!strstr(err, want))
		fail_msg("import said \"%s\", not \"%s\"", err, want);
	assert_null(runs);
}

/*
 * Issue 14: a timed job's jobs and per-copy usage go out in an export and
 * come back unchanged, an unknown figure as null and back to NaN; a result
 * without them has "jobs" null and no "usage", and reads back without.
 * sys.null stands in for a time.* id, which import knows only from the
 * catalogue.  Then what import refuses of them, in one line naming the
 * run, the result and the field.
 */
static void test_timed_export_import(void **state)
{
	char err[ERRBUF_LEN] = "", what[64];
	struct run_info run, *back = NULL;
	struct result *t;
	struct capture c;
	char *text, *again, *bad;
	size_t nback = 0;
	json_t *root, *res, *u;

	(void)state;
	set_run(&run, 1, "box", "timed", 3000);
	snprintf(run.uuid, sizeof(run.uuid), "0123456789abcdef0123456789abcdef");
	snprintf(run.set_uuid, sizeof(run.set_uuid), "%s", run.uuid);
	snprintf(run.finished, sizeof(run.finished), "2025-01-02T03:14:05Z");
	run.nresults = 2;
	run.results = calloc(2, sizeof(*run.results));
	assert_non_null(run.results);
	set_result(&run.results[1], "sys.read", 0.29);
	t = &run.results[0];
	set_result(t, "sys.null", 0.25);
	/* Two copies a run, two runs: four samples, each with its copy's usage and where. */
	t->n = 4;
	t->samples = realloc(t->samples, 4 * sizeof(*t->samples));
	t->usage = calloc(4, sizeof(*t->usage));
	t->where = calloc(4, sizeof(*t->where));
	assert_non_null(t->samples);
	assert_non_null(t->usage);
	assert_non_null(t->where);
	t->samples[3] = 0.26;
	t->parallel = 2;
	t->jobs = 4;
	for (int i = 0; i < 4; i++) {
		t->where[i] = (struct result_sample){ .t = 40.0 * (i / 2) + 0.1 * i, .cpu = -1,
						      .steal_ns = NAN, .replica = i / 2 };
		t->usage[i] = (struct result_usage){
			.copy = i % 2 + 1, .status = i == 3 ? 256 : 0, .start = 40.0 * (i / 2) + 1e-3 * i,
			.user_s = 50.25 + i / 3.0, .sys_s = 7.5 + i, .maxrss_kb = i ? 123456 + i : 1e12,
			.minflt = 1e6 + i, .majflt = i, .nvcsw = 20000 + i, .nivcsw = 3000 + i,
			.inblock = i % 2 ? 8.0 * i : (double)NAN, .oublock = 16.0 * i, .orphans = i == 2 };
	}

	assert_int_equal(report_export_json(capture_start(&c), &run, 1), 0);
	text = capture_end(&c);
	root = parse(text);
	res = json_array_get(json_object_get(json_array_get(json_object_get(root, "runs"), 0),
					     "results"), 0);
	assert_int_equal(json_integer_value(json_object_get(res, "jobs")), 4);
	u = json_object_get(res, "usage");
	assert_int_equal(json_array_size(u), 4);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(u, 1), "copy")), 2);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(u, 3), "wait_status")), 256);
	assert_true(json_is_null(json_object_get(json_array_get(u, 0), "inblock")));
	assert_int_equal(json_object_size(json_array_get(u, 0)), 13);
	res = json_array_get(json_object_get(json_array_get(json_object_get(root, "runs"), 0),
					     "results"), 1);
	assert_true(json_is_null(json_object_get(res, "jobs")));
	assert_null(json_object_get(res, "usage"));
	json_decref(root);

	/* Back in: every field as it was, and the same document out again. */
	assert_int_equal(report_import_buf("t.json", text, strlen(text), &back, &nback, err), 1);
	assert_int_equal(back[0].nresults, 2);
	assert_int_equal(back[0].results[0].jobs, 4);
	assert_int_equal(back[0].results[0].parallel, 2);
	assert_non_null(back[0].results[0].usage);
	assert_non_null(back[0].results[0].where);
	for (int i = 0; i < 4; i++) {
		const struct result_usage *a = &t->usage[i], *b = &back[0].results[0].usage[i];

		assert_int_equal(b->copy, a->copy);
		assert_int_equal(b->status, a->status);
		assert_same_or_nan(b->start, a->start);
		assert_same_or_nan(b->user_s, a->user_s);
		assert_same_or_nan(b->sys_s, a->sys_s);
		assert_same_or_nan(b->maxrss_kb, a->maxrss_kb);
		assert_same_or_nan(b->minflt, a->minflt);
		assert_same_or_nan(b->majflt, a->majflt);
		assert_same_or_nan(b->nvcsw, a->nvcsw);
		assert_same_or_nan(b->nivcsw, a->nivcsw);
		assert_same_or_nan(b->inblock, a->inblock);
		assert_same_or_nan(b->oublock, a->oublock);
		assert_same_or_nan(b->orphans, a->orphans);
		assert_same_or_nan(back[0].results[0].where[i].t, t->where[i].t);
		assert_int_equal(back[0].results[0].where[i].replica, t->where[i].replica);
	}
	assert_int_equal(back[0].results[1].jobs, 0);
	assert_null(back[0].results[1].usage);
	assert_int_equal(report_run_differs(&run, &back[0], what, sizeof(what)), 0);
	assert_int_equal(report_export_json(capture_start(&c), back, 1), 0);
	again = capture_end(&c);
	assert_string_equal(again, text);
	free(again);
	run_info_free(&back[0]);
	free(back);

	/* An export of an older kbench, without the keys, reads as none. */
	bad = with_key(text, "jobs", json_null());
	assert_int_equal(report_import_buf("t.json", bad, strlen(bad), &back, &nback, err), 1);
	assert_int_equal(back[0].results[0].jobs, 0);
	run_info_free(&back[0]);
	free(back);
	free(bad);

	/* Refused: each names the run, the result and the field. */
	bad = with_key(text, "jobs", json_integer(0));
	assert_import_refused(bad, "run 1, result 1 (sys.null): \"jobs\" is 0, outside 1 to 1000000");
	free(bad);
	bad = with_key(text, "jobs", json_string("4"));
	assert_import_refused(bad, "run 1, result 1 (sys.null): \"jobs\" is of another type");
	free(bad);
	bad = with_key(text, "usage", json_object());
	assert_import_refused(bad, "run 1, result 1 (sys.null): \"usage\" is of another type, not an array");
	free(bad);
	bad = with_key(text, "usage", json_pack("[{}]"));
	assert_import_refused(bad, "run 1, result 1 (sys.null): \"usage\" has 1 entries, but \"n\" is 4");
	free(bad);
	bad = with_key(text, "usage", json_pack("[{s:i, s:i}, i, i, i]", "copy", 3, "wait_status", 0, 1, 2, 3));
	assert_import_refused(bad, "usage 1: \"copy\" is 3, outside 1 to 2 (\"parallel\")");
	free(bad);
	bad = with_key(text, "usage", json_pack("[{s:i, s:i, s:s}, i, i, i]", "copy", 1, "wait_status", 0,
						"start", "soon", 1, 2, 3));
	assert_import_refused(bad, "usage 1: \"start\" is of another type, not a number or null");
	free(bad);
	bad = with_key(text, "usage", json_pack("[{s:i, s:f}, i, i, i]", "copy", 1, "wait_status", 0.5, 1, 2, 3));
	assert_import_refused(bad, "usage 1: \"wait_status\" is of another type, not a whole number");
	free(bad);
	free(text);
	run_info_free(&run);
}

/* summary --json: each run described by its own machine, not the first run's. */
static void test_runs_json_each_machine(void **state)
{
	struct run_info runs[2];
	struct sysinfo si;
	struct capture c;
	char *text;
	json_t *root, *list;

	(void)state;
	fill_sysinfo(&si);
	set_run(&runs[0], 1, "kbhost", "2.5.47", 3000);
	runs[0].sysinfo_json = report_sysinfo_json(&si);
	snprintf(si.host, sizeof(si.host), "otherbox");
	snprintf(si.cpu_model, sizeof(si.cpu_model), "Intel Xeon");
	set_run(&runs[1], 2, "otherbox", "2.5.48", 3000);
	runs[1].sysinfo_json = report_sysinfo_json(&si);
	assert_non_null(runs[0].sysinfo_json);
	assert_non_null(runs[1].sysinfo_json);
	assert_int_equal(report_runs_json(capture_start(&c), runs[0].sysinfo_json, runs, 2), 0);
	text = capture_end(&c);
	root = parse(text);
	list = json_object_get(root, "runs");
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(json_array_get(list, 0), "sysinfo"), "host")), "kbhost");
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(json_array_get(list, 1), "sysinfo"), "host")), "otherbox");
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(json_array_get(list, 1), "sysinfo"), "cpu_model")), "Intel Xeon");
	json_decref(root);
	free(text);
	free_runs(runs, 2);
}

/* The system's messages lowercased as kbench's are, acronyms left alone. */
static void test_err_lower(void **state)
{
	char buf[64];

	(void)state;
	snprintf(buf, sizeof(buf), "I/O error");	/* musl's EIO */
	assert_string_equal(err_lower(buf), "I/O error");
	snprintf(buf, sizeof(buf), "RFS specific error");
	assert_string_equal(err_lower(buf), "RFS specific error");
	snprintf(buf, sizeof(buf), "No such file or directory");
	assert_string_equal(err_lower(buf), "no such file or directory");
	snprintf(buf, sizeof(buf), "A");
	assert_string_equal(err_lower(buf), "A");
	assert_string_equal(err_errno_text(ENOENT, buf, sizeof(buf)), "no such file or directory");
	assert_string_equal(err_errno_text(ENOENT, buf, 4), "no ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_num_width4),
		cmocka_unit_test(test_num_width5),
		cmocka_unit_test(test_num_blank),
		cmocka_unit_test(test_num_never_wider),
		cmocka_unit_test(test_summary_full),
		cmocka_unit_test(test_summary_notes),
		cmocka_unit_test(test_summary_marks),
		cmocka_unit_test(test_summary_no_runs),
		cmocka_unit_test(test_summary_ipc),
		cmocka_unit_test(test_sysinfo_text),
		cmocka_unit_test(test_list_text),
		cmocka_unit_test(test_list_json),
		cmocka_unit_test(test_sysinfo_json),
		cmocka_unit_test(test_runs_json),
		cmocka_unit_test(test_runs_json_bad_sysinfo),
		cmocka_unit_test(test_summary_all_tables),
		cmocka_unit_test(test_summary_guess_in_cell),
		cmocka_unit_test(test_sysinfo_parse),
		cmocka_unit_test(test_show_curve),
		cmocka_unit_test(test_show_curve_wraps),
		cmocka_unit_test(test_show_figure),
		cmocka_unit_test(test_replicas_drift),
		cmocka_unit_test(test_show_json),
		cmocka_unit_test(test_merge_labels),
		cmocka_unit_test(test_summary_labels),
		cmocka_unit_test(test_summary_merged_row),
		cmocka_unit_test(test_summary_rates),
		cmocka_unit_test(test_summary_long_labels),
		cmocka_unit_test(test_summary_aim9),
		cmocka_unit_test(test_summary_rates_wrap),
		cmocka_unit_test(test_contest_text),
		cmocka_unit_test(test_cell_escapes),
		cmocka_unit_test(test_cell_width),
		cmocka_unit_test(test_utf8_decode),
		cmocka_unit_test(test_summary_hostile_labels),
		cmocka_unit_test(test_contest_hostile_labels),
		cmocka_unit_test(test_json_bad_utf8),
		cmocka_unit_test(test_timed_export_import),
		cmocka_unit_test(test_runs_json_each_machine),
		cmocka_unit_test(test_err_lower),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * kbench clocks' pieces.  The clocks table (report_clocks_text) against
 * tests/golden/clocks.txt, from runs built here: two labels, one measured
 * twice; a source with every call answered by the vDSO, one where a call
 * enters the kernel, one not measured for want of root, and a call that
 * failed.  Rewrite the golden file after an intended change with
 *
 *     KBENCH_UPDATE_GOLDEN=1 build/test_clocks
 *
 * (from the repository root) and review the difference.  Then the probe
 * that tells a system call from a vDSO answer, on calls whose answer is
 * known, and the clockcall.* rows through the harness: they work, record
 * how they were answered and their resolution, and stay hidden.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/catalog.h"
#include "core/harness.h"
#include "core/registry.h"
#include "core/result.h"
#include "plat/plat.h"
#include "report/html.h"
#include "report/model.h"
#include "report/clocks.h"
#include "golden.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const char *const calls[] = { "monotonic", "realtime", "monotonic_raw",
				     "monotonic_coarse", "gettimeofday", "time" };

/* One call's figures under a source: ns, its interval's ends, how answered, resolution, step. */
struct fix {
	const char *source;
	double ns[6];
	const char *answered[6];
	double res[6], step[6];
	const char *skip;	/* every call skipped with this reason */
	int fail;		/* this call (1-based) failed */
};

static const struct fix tsc = {
	"tsc", { 21.3, 21.9, 22.4, 5.12, 23.7, 3.48 },
	{ "vdso", "vdso", "vdso", "vdso", "vdso", "vdso" },
	{ 1, 1, 1, 4e6, 1e3, 1e9 }, { 20, 21, 22, 4e6, 1e3, NAN }, NULL, 0,
};
static const struct fix kvm = {
	"kvm-clock", { 36.1, 35.8, 612.5, 5.2, 37.4, 3.5 },
	{ "vdso", "vdso", "kernel", "vdso", "vdso", "vdso" },
	{ 1, 1, 1, 4e6, 1e3, 1e9 }, { 34, 35, 600, 4e6, 1e3, 1e9 }, NULL, 5,
};
static const struct fix hpet = { "hpet", { 0 }, { 0 }, { 0 }, { 0 }, "needs root", 0 };

static void add_value(struct result *r, const char *key, double num, const char *text)
{
	struct bench_value *v = &r->values[r->nvalues++];

	snprintf(v->key, sizeof(v->key), "%s", key);
	v->num = num;
	snprintf(v->text, sizeof(v->text), "%s", text ? text : "");
}

/* The six results of f into r, figures scaled by scale (another run's). */
static void fill_source(struct result *r, const struct fix *f, double scale)
{
	for (size_t c = 0; c < NELEM(calls); c++, r++) {
		memset(r, 0, sizeof(*r));
		snprintf(r->id, sizeof(r->id), "%s%s.%s", CATALOG_CLOCK, f->source, calls[c]);
		snprintf(r->unit, sizeof(r->unit), "ns");
		r->better = BETTER_LOWER;
		r->interference = -1;
		r->placement = PLACE_NA;
		r->parallel = 1;
		r->aggregate = NAN;
		r->drift = NAN;
		if (f->skip || f->fail == (int)c + 1) {
			r->status = f->skip ? RES_SKIP : RES_FAIL;
			snprintf(r->reason, sizeof(r->reason), "%s",
				 f->skip ? f->skip : "gettimeofday failed: invalid argument");
			r->median = r->ci_low = r->ci_high = NAN;
			continue;
		}
		r->status = RES_OK;
		r->median = f->ns[c] * scale;
		r->ci_low = r->median * 0.99;
		r->ci_high = r->median * 1.02;
		r->n = 48;
		r->nreplicas = 8;
		add_value(r, "res_ns", f->res[c], NULL);
		add_value(r, "answered", NAN, f->answered[c]);
		if (isfinite(f->step[c]))
			add_value(r, "step_ns", f->step[c], NULL);
	}
}

static void fill_run(struct run_info *run, int64_t id, const char *label,
		     const struct fix *const *srcs, size_t nsrcs, double scale)
{
	memset(run, 0, sizeof(*run));
	run->id = id;
	snprintf(run->label, sizeof(run->label), "%s", label);
	snprintf(run->host, sizeof(run->host), "kbhost");
	snprintf(run->os, sizeof(run->os), "Linux 6.18");
	run->results = calloc(nsrcs * NELEM(calls), sizeof(*run->results));
	assert_non_null(run->results);
	for (size_t s = 0; s < nsrcs; s++)
		fill_source(&run->results[s * NELEM(calls)], srcs[s], scale);
	run->nresults = nsrcs * NELEM(calls);
}

static char *table(const struct run_info *runs, size_t n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(report_clocks_text(f, runs, n), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

/* Compare text with tests/golden/NAME.txt, or rewrite it when asked to. */
static void check_golden(const char *name, const char *text)
{
	char file[128];

	snprintf(file, sizeof(file), "%s.txt", name);
	golden_check(file, text);
}

/* Two labels, the first measured twice: the golden table. */
static void test_golden(void **state)
{
	const struct fix *const all[] = { &tsc, &kvm, &hpet };
	const struct fix *const one[] = { &tsc };
	struct run_info runs[3];
	char *text;
	(void)state;

	fill_run(&runs[0], 1, "Linux 6.18", all, 3, 1.0);
	fill_run(&runs[1], 2, "Linux 6.1 UP", one, 1, 0.9);
	fill_run(&runs[2], 3, "Linux 6.18", all, 3, 1.1);
	assert_true(report_clocks_has(runs, 3));
	text = table(runs, 3);
	check_golden("clocks", text);
	free(text);
	for (size_t i = 0; i < 3; i++)
		run_info_free(&runs[i]);
}

/*
 * The same runs as the table model, which the page and summary --json
 * render: a table of costs and one of resolutions, a row per source and
 * label, the unmeasured source's reason one cell over every call's
 * column, marked missing; the page's tables are those.
 */
static void test_model(void **state)
{
	const struct fix *const all[] = { &tsc, &kvm, &hpet };
	struct rm_doc doc = { 0 };
	struct run_info run;
	size_t rows = 0;
	char *page = NULL;
	size_t len = 0;
	FILE *f;
	(void)state;

	fill_run(&run, 1, "Linux 6.18", all, 3, 1.0);
	assert_int_equal(report_clocks_model(&doc, &run, 1), 0);
	assert_int_equal(doc.ntables, 2);
	assert_string_equal(doc.tables[0].id, "clocks");
	assert_string_equal(doc.tables[1].id, "clocks-res");
	for (size_t i = 0; i < doc.tables[0].nlines; i++) {
		const struct rm_line *l = &doc.tables[0].lines[i];

		if (l->kind != RM_ROW)
			continue;
		rows++;
		if (strcmp(l->cells[0].text, "hpet") == 0) {
			assert_int_equal(l->ncells, 2);
			assert_string_equal(l->cells[1].text, "skip: needs root");
			assert_true(l->cells[1].flags & RM_MISSING);
			assert_int_equal(l->cells[1].span, (int)NELEM(calls));
		} else {
			assert_int_equal(l->ncells, 1 + NELEM(calls));
		}
	}
	assert_int_equal(rows, 3);
	f = open_memstream(&page, &len);
	assert_non_null(f);
	report_html_tables(f, &doc);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(page, "<table class=\"model\" data-table=\"clocks\">"));
	assert_non_null(strstr(page, "<table class=\"model\" data-table=\"clocks-res\">"));
	assert_non_null(strstr(page, "skip: needs root"));
	free(page);
	rm_doc_free(&doc);
	run_info_free(&run);
}

/* No clock result: nothing printed, and has says so. */
static void test_none(void **state)
{
	struct result r = { .id = "sys.null", .status = RES_OK, .median = 1 };
	struct run_info run = { .label = "x", .results = &r, .nresults = 1 };
	char *text;
	(void)state;

	assert_false(report_clocks_has(&run, 1));
	text = table(&run, 1);
	assert_string_equal(text, "");
	free(text);
}

/* A source not measured alone: its reason, and no resolution table. */
static void test_only_skipped(void **state)
{
	const struct fix *const only[] = { &hpet };
	struct run_info run;
	char *text;
	(void)state;

	fill_run(&run, 1, "Linux 6.18", only, 1, 1.0);
	text = table(&run, 1);
	assert_non_null(strstr(text, "hpet             skip: needs root\n"));
	assert_null(strstr(text, "resolution"));
	free(text);
	run_info_free(&run);
}

/* A time system call made directly: no vDSO can answer it. */
static int call_syscall(void *arg)
{
	struct timespec ts;
	(void)arg;
	return syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts) == 0 ? 0 : -1;
}

/* A system call that is no time call: the filter lets it through. */
static int call_getppid(void *arg)
{
	(void)arg;
	return getppid() > 0 ? 0 : -1;
}

/* A call that fails by itself. */
static int call_fails(void *arg)
{
	(void)arg;
	errno = EINVAL;
	return -1;
}

static void test_probe(void **state)
{
	int k;
	(void)state;

	k = plat_time_syscall(call_syscall, NULL);
	if (k < 0 && errno == ENOSYS)
		skip();		/* the posix platform, or a kernel without seccomp */
	assert_int_equal(k, 1);
	assert_int_equal(plat_time_syscall(call_getppid, NULL), 0);
	assert_int_equal(plat_time_syscall(call_fails, NULL), -1);
	assert_int_equal(errno, EIO);
}

/* Every clockcall row through the harness, briefly: a figure, how, the resolution. */
static void test_rows(void **state)
{
	char err[ERRBUF_LEN];
	size_t n, sel0;
	const struct bench **sel = registry_select(SUITE_CLOCKS, NULL, &n, err);
	(void)state;

	assert_non_null(sel);
	assert_int_equal(n, NELEM(calls));
	for (size_t i = 0; i < n; i++) {
		struct harness_cfg cfg;
		struct result r;
		const struct bench_value *v;
		char id[64];

		snprintf(id, sizeof(id), "%s%s", CATALOG_CLOCK_CALL, calls[i]);
		assert_string_equal(sel[i]->id, id);
		snprintf(id, sizeof(id), "%stsc.%s", CATALOG_CLOCK, calls[i]);
		assert_non_null(catalog_find(id));
		harness_defaults(&cfg);
		cfg.sample_target_ns = 1e5;
		cfg.max_time_ns = 2e6;
		cfg.min_samples = 3;
		cfg.warmup_max = 1;
		cfg.interference = 0;
		assert_int_equal(harness_run(sel[i], &cfg, &r), 0);
		if (r.status == RES_SKIP) {
			print_message("# %s: skip: %s\n", sel[i]->id, r.reason);
			result_free(&r);
			continue;
		}
		assert_true(r.status == RES_OK || r.status == RES_NOISY);
		assert_string_equal(r.unit, "ns");
		v = result_value(&r, "answered");
		assert_non_null(v);
		assert_true(strcmp(v->text, "vdso") == 0 || strcmp(v->text, "kernel") == 0);
		v = result_value(&r, "res_ns");
		assert_non_null(v);
		assert_true(v->num >= 1);
		if (strcmp(calls[i], "time") == 0)
			assert_true(v->num >= 1e9);
		if (strcmp(calls[i], "gettimeofday") == 0)
			assert_true(v->num >= 1e3);
		/* A step, when seen, is no finer than the clock's resolution says. */
		if ((v = result_value(&r, "step_ns")) != NULL && strcmp(calls[i], "time") == 0)
			assert_true(v->num >= 1e9);
		result_free(&r);
	}
	free(sel);
	/* Hidden: no suite, glob or "every instance" selection reaches them. */
	sel = registry_select(0, NULL, &sel0, err);
	assert_non_null(sel);
	for (size_t i = 0; i < sel0; i++)
		assert_false(sel[i]->suites & SUITE_CLOCKS);
	free(sel);
	assert_null(registry_select(0, "clockcall.*", &sel0, err));
	assert_int_equal(registry_suite_parse("clocks", &(unsigned){ 0 }), -1);
	assert_null(strstr(registry_suite_list(), "clocks"));
	assert_non_null(registry_find("clockcall.monotonic"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_model),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_only_skipped),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_rows),
	};
	registry_check();
	return cmocka_run_group_tests(tests, NULL, NULL);
}

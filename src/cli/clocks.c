/*
 * kbench clocks: what each clock source costs.  For each clock source the
 * kernel offers (or --sources names), switch to it, check that it took,
 * have the harness time the clock calls of src/bench/clock.c under it as
 * run times any row (each call's replicas in fresh processes), store each
 * as clock.<source>.<call> once merged, and put the original source back.
 *
 * The original comes back after the last source, after Ctrl-C, SIGTERM or
 * SIGHUP (the measuring stops at the next call and what finished is kept),
 * after a failed switch, and, through the guard (core/guard.h), after any
 * death of kbench that leaves no chance to do it: die(), a crash, SIGKILL.
 * The guard is told the original before the first switch; no switch is
 * made without a guard.  Switching takes root: without it only the current
 * source is measured, and every other is stored as a skip with the reason,
 * so that its row says why it has no figures.
 *
 * The clock the harness times with is CLOCK_MONOTONIC, itself read from
 * the source measured: its cost and step (timer_measure), which the
 * harness subtracts and sizes samples by, are measured again after each
 * switch.  The run's sentinel is not taken, since its timeline would move
 * with the clock that times it, which is what this command changes.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/label.h"
#include "cli/session.h"
#include "core/catalog.h"
#include "core/engine.h"
#include "core/err.h"
#include "core/parse.h"
#include "core/guard.h"
#include "core/registry.h"
#include "core/replica.h"
#include "core/runner.h"
#include "core/timer.h"
#include "plat/plat.h"
#include "report/report.h"
#include "report/clocks.h"

/* At most this many clock sources (a kernel offers two to four). */
#define CLOCKS_MAX 32

struct clocks_opts {
	const char *sources, *label, *db, *tmpdir;
	int replicas, no_store, json, quiet;
	double max_time;
};

/* One clock source to measure, or to list with the reason it is not. */
struct clocks_source {
	char name[CATALOG_CLOCK_SOURCE_MAX + 1];
	char why[160];		/* "" to measure, else why not ("needs root") */
};

/* Whether name can go into clock.<name>.<call>: the catalogue's rule, with any call. */
static int clocks_name_ok(const char *name, const struct bench *call)
{
	char id[96];

	return snprintf(id, sizeof(id), "%s%s.%s", CATALOG_CLOCK, name,
			call->id + strlen(CATALOG_CLOCK_CALL)) < (int)sizeof(id) &&
	       catalog_find(id) != NULL;
}

/*
 * The sources the kernel offers, current among them, into out; their
 * count.  Where the OS offers no choice, the current one alone (named
 * "unknown" when the OS does not say).  A name no id can hold is left
 * out with a warning: nothing of it could be stored.
 */
static size_t clocks_offered(const char *current, const struct bench *call, int quiet,
			     struct clocks_source *out)
{
	char list[1024], *save = NULL;
	size_t n = 0;
	int have_current = 0;

	if (plat_clocksources(list, sizeof(list)) < 0)
		list[0] = '\0';
	for (char *w = strtok_r(list, " \t", &save); w && n < CLOCKS_MAX;
	     w = strtok_r(NULL, " \t", &save)) {
		if (!clocks_name_ok(w, call)) {
			if (!quiet)
				warning("clocks: clock source '%.64s' has a name kbench cannot store, "
					"left out", w);
			continue;
		}
		snprintf(out[n].name, sizeof(out[n].name), "%s", w);
		out[n++].why[0] = '\0';
		have_current |= strcmp(w, current) == 0;
	}
	if (!have_current && n < CLOCKS_MAX && clocks_name_ok(current, call)) {
		snprintf(out[n].name, sizeof(out[n].name), "%s", current);
		out[n++].why[0] = '\0';
	}
	return n;
}

/* --sources all, or a list of offered names: the sources picked, in the order given. */
static size_t clocks_pick(const char *list, const struct clocks_source *offered, size_t noffered,
			  struct clocks_source *out)
{
	char known[CLOCKS_MAX * (CATALOG_CLOCK_SOURCE_MAX + 3)] = "", w[CATALOG_CLOCK_SOURCE_MAX + 1];
	size_t n = 0, used = 0, len;
	const char *item, *rest = list;

	if (!list || strcmp(list, "all") == 0) {
		memcpy(out, offered, noffered * sizeof(*out));
		return noffered;
	}
	for (size_t i = 0; i < noffered; i++) {
		int k = snprintf(known + used, sizeof(known) - used, "%s%.*s", i ? ", " : "",
				 CATALOG_CLOCK_SOURCE_MAX, offered[i].name);

		if (k < 0 || (size_t)k >= sizeof(known) - used)
			break;
		used += (size_t)k;
	}
	while ((item = parse_item(&rest, &len))) {
		size_t k;

		if (len == 0)
			die_usage("clocks: --sources '%.64s': an empty name (a comma first, last or twice)", list);
		if (len >= sizeof(w))
			die_usage("clocks: --sources: unknown clock source '%.*s...' (this kernel offers: %s)",
				  (int)(sizeof(w) - 1), item, known[0] ? known : "none");
		memcpy(w, item, len);
		w[len] = '\0';

		for (k = 0; k < noffered && strcmp(offered[k].name, w) != 0; k++)
			;
		if (k == noffered)
			die_usage("clocks: --sources: unknown clock source '%.64s' (this kernel offers: %s)",
				  w, known[0] ? known : "none");
		for (size_t j = 0; j < n; j++)
			if (strcmp(out[j].name, w) == 0)
				die_usage("clocks: --sources: '%s' is named twice", w);
		out[n++] = offered[k];
	}
	if (n == 0)
		die_usage("clocks: --sources names no clock source");
	return n;
}

/*
 * Whether this process may switch the clock source: the file that selects
 * it (into file) is writable.  0 with why filled when not.
 */
static int clocks_switchable(char *file, size_t len, char *why, size_t whylen)
{
	char e[128];

	if (plat_clocksource_file(file, len) < 0) {
		snprintf(why, whylen, errno == ENOSYS ? "the OS offers no choice of clock source"
						      : "cannot find where the clock source is chosen");
		return 0;
	}
	if (access(file, W_OK) == 0)
		return 1;
	if (errno == EACCES || errno == EPERM)
		snprintf(why, whylen, "needs root");
	else
		snprintf(why, whylen, "cannot switch clock sources: %s",
			 err_errno_text(errno, e, sizeof(e)));
	return 0;
}

/* The harness's settings, as run's runner_setup makes them (the engine adds the clock's). */
static void clocks_runner(const struct clocks_opts *o, struct runner_cfg *rc)
{
	memset(rc, 0, sizeof(*rc));
	harness_defaults(&rc->harness);
	rc->harness.max_time_ns = o->max_time * 1e9 / o->replicas;
	/* As run: each replica only needs a median and its own interval. */
	if (o->replicas > 1)
		rc->harness.min_samples = 6;
	rc->harness.suite = SUITE_CLOCKS;
}

/* Set r's value key to num, replacing the one a replica gave. */
static void clocks_value_set(struct result *r, const char *key, double num)
{
	for (size_t i = 0; i < r->nvalues; i++)
		if (strcmp(r->values[i].key, key) == 0) {
			r->values[i].num = num;
			r->values[i].text[0] = '\0';
			return;
		}
	result_value_add(r, key, num, NULL);
}

/* The stored id of call under source: clock.<source>.<call>. */
static void clocks_id(struct result *r, const char *source, const struct bench *call)
{
	snprintf(r->id, sizeof(r->id), "%s%s.%s", CATALOG_CLOCK, source,
		 call->id + strlen(CATALOG_CLOCK_CALL));
}

/*
 * The merged result of call's n replicas under source: its id, the
 * smallest step any replica saw (the merge keeps one replica's values),
 * and calls per second beside the ns per call.
 */
static void clocks_merge(const struct bench *call, const struct result *reps, size_t n,
			 const char *source, struct result *out)
{
	struct replica_cfg cfg = { .precision = 0.01 };
	double step = -1;

	if (replica_merge(call, reps, n, &cfg, out) < 0)
		die("clocks: out of memory merging the replicas of %s", call->id);
	clocks_id(out, source, call);
	for (size_t i = 0; i < n; i++) {
		const struct bench_value *v = result_value(&reps[i], "step_ns");

		if (v && v->num > 0 && (step < 0 || v->num < step))
			step = v->num;
	}
	if (step > 0)
		clocks_value_set(out, "step_ns", step);
	if ((out->status == RES_OK || out->status == RES_NOISY) && result_figure(out) > 0)
		clocks_value_set(out, "calls_per_s", 1e9 / result_figure(out));
}

/* Store every call of source as a skip with the reason: the table lists it so. */
static void clocks_skip(struct session *ses, struct run_info *run, const char *source,
			const char *why, const struct bench **calls, size_t ncalls)
{
	for (size_t c = 0; c < ncalls && ses->state != SESSION_UNSTORED; c++) {
		struct result *r = &run->results[run->nresults++];

		result_init(r, calls[c]);
		clocks_id(r, source, calls[c]);
		r->status = RES_SKIP;
		r->stop = STOP_NONE;
		snprintf(r->reason, sizeof(r->reason), "%s", why);
		(void)session_put(ses, run, NULL, r);
	}
}

/*
 * Measure the calls under the source now current: the engine's rounds
 * over the calls, each call's merged result stored after every round it
 * took a replica in (a later round rewrites it), so that Ctrl-C keeps
 * what finished.  The results go to the end of run->results, those of
 * calls never reached left out.
 */
static void clocks_measure(const struct clocks_opts *o, const char *source,
			   const struct bench **calls, size_t ncalls, struct engine *e,
			   struct session *ses, struct run_info *run)
{
	struct engine_job *jobs = calloc(ncalls, sizeof(*jobs));
	struct result *merged = calloc(ncalls, sizeof(*merged));
	int64_t *stored = calloc(ncalls, sizeof(*stored));
	enum engine_state st = ENGINE_MORE;
	int stop = 0;

	if (!jobs || !merged || !stored)
		die("clocks: out of memory");
	for (size_t c = 0; c < ncalls; c++)
		jobs[c] = (struct engine_job){ .b = calls[c], .place = PLACE_NA };
	engine_begin(e, jobs, ncalls, o->replicas);
	while (st == ENGINE_MORE && !stop) {
		st = engine_round(e, NULL, NULL);
		if (st == ENGINE_INTERRUPTED) {
			session_stop(ses);
			stop = 1;
		}
		for (size_t c = 0; c < ncalls; c++) {
			if (!engine_fresh(e, c))
				continue;
			result_free(&merged[c]);
			clocks_merge(calls[c], e->jr[c].reps, e->jr[c].n, source, &merged[c]);
			if (session_put(ses, run, &stored[c], &merged[c]) < 0)
				stop = 1;
		}
	}
	for (size_t c = 0; c < ncalls; c++)
		if (e->jr[c].n)
			run->results[run->nresults++] = merged[c];
	engine_end(e, NULL, NULL);
	free(jobs);
	free(merged);
	free(stored);
}

/*
 * Put the original source back when it is not current.  0, or -1 with
 * the error said: the guard then writes it back as kbench exits.
 */
static int clocks_restore(const char *original, const char *current)
{
	char e[128];

	if (strcmp(original, current) == 0)
		return 0;
	if (plat_clocksource_switch(original) == 0)
		return 0;
	return error("clocks: cannot put clock source '%s' back: %s; the guard tries again as "
		     "kbench exits", original, err_errno_text(errno, e, sizeof(e)));
}

int cmd_clocks(int argc, char **argv)
{
	struct clocks_opts o = { .replicas = REPLICA_DEFAULT, .max_time = 1.0 };
	const struct opt opts[] = {
		{ "sources", OPT_STRING, &o.sources, "all|LIST", "the clock sources, comma-separated (default: all the kernel offers)", 0, 0, 0 },
		{ "label", OPT_STRING, &o.label, "L", "name what is measured (default: OS and release)", 0, 0, 0 },
		{ "max-time", OPT_DOUBLE, &o.max_time, "SECONDS", "sampling budget per call and source (1)", 0.01, 3600, 0 },
		{ "replicas", OPT_INT, &o.replicas, "N", "measure each call N times in fresh processes (8)", 1, 100, 0 },
		{ "tmpdir", OPT_STRING, &o.tmpdir, "DIR", "where private temporary directories go ($TMPDIR or /tmp)", 0, 0, 0 },
		OPT_ROW_DB(o.db),
		OPT_ROW_NO_STORE(o.no_store),
		{ "json", OPT_FLAG, &o.json, NULL, "print one JSON document (as run --json) instead of tables", 0, 0, 0 },
		{ "quiet", OPT_FLAG, &o.quiet, NULL, "no warnings or progress on stderr", 0, 0, 0 },
		{ 0 },
	};
	struct clocks_source offered[CLOCKS_MAX], src[CLOCKS_MAX];
	char original[CATALOG_CLOCK_SOURCE_MAX + 1], current[CATALOG_CLOCK_SOURCE_MAX + 1];
	char file[PATH_MAX], why[160], err[ERRBUF_LEN], e[128];
	const struct bench **calls;
	size_t ncalls, noffered, nsrc, nfail = 0;
	struct guard guard = { .pid = -1, .ctl = -1 };
	struct session ses;
	struct engine eng;
	struct runner_cfg rc;
	struct run_info *run;
	int can_switch, need_switch = 0, guarded = 0, restore_failed = 0;

	if (opt_parse(cli_find("clocks"), opts, argc, argv) > 0)
		die_usage("clocks: unexpected argument '%s'", argv[0]);
	if (o.no_store && o.db)
		die_usage("clocks: --db and --no-store contradict each other");
	if (o.label)
		cli_label_check("clocks", "--label", o.label);
	calls = registry_select(SUITE_CLOCKS, NULL, &ncalls, err);
	if (!calls || ncalls == 0)
		BUG("clocks: no clockcall.* rows in the registry");
	plat_clocksource(original, sizeof(original));
	if (!original[0])
		snprintf(original, sizeof(original), "unknown");
	noffered = clocks_offered(original, calls[0], o.quiet, offered);
	nsrc = clocks_pick(o.sources, offered, noffered, src);
	if (nsrc == 0)
		die("clocks: no clock source here has a name kbench can store");
	o.tmpdir = cli_tmpdir("clocks", o.tmpdir);

	/* Whom to measure: without the right to switch, the current source alone. */
	can_switch = clocks_switchable(file, sizeof(file), why, sizeof(why));
	for (size_t i = 0; i < nsrc; i++)
		if (strcmp(src[i].name, original) != 0) {
			if (!can_switch)
				snprintf(src[i].why, sizeof(src[i].why), "%s", why);
			else
				need_switch = 1;
		}

	/* Everything that can refuse has, before anything is switched. */
	clocks_runner(&o, &rc);
	rc.tmproot = o.tmpdir;
	rc.watchdog_s = 10 * o.max_time + 30;
	cli_engine_open(&eng, "clocks", &rc, 0, NULL);
	session_open(&ses, "clocks", o.db, o.no_store, o.label, &eng.pre, !o.quiet, 1);
	if (need_switch) {
		if (guard_start(&guard) < 0 || guard_add(&guard, file, original) < 0) {
			snprintf(why, sizeof(why), "not switched: the guard that puts the clock source "
				 "back cannot start: %s", err_errno_text(errno, e, sizeof(e)));
			for (size_t i = 0; i < nsrc; i++)
				if (strcmp(src[i].name, original) != 0)
					snprintf(src[i].why, sizeof(src[i].why), "%s", why);
			guard_done(&guard);
		} else {
			guarded = 1;
		}
	}
	runner_catch_signals();
	runner_catch_stop();

	snprintf(current, sizeof(current), "%s", original);
	run = session_begin(&ses, nsrc * ncalls);
	for (size_t i = 0; i < nsrc && ses.state == SESSION_GOING; i++) {
		if (runner_interrupted()) {
			session_stop(&ses);
			break;
		}
		if (src[i].why[0]) {
			clocks_skip(&ses, run, src[i].name, src[i].why, calls, ncalls);
			continue;
		}
		if (strcmp(src[i].name, current) != 0) {
			if (plat_clocksource_switch(src[i].name) < 0) {
				int saved = errno;

				plat_clocksource(current, sizeof(current));
				if (saved == EINVAL)
					snprintf(why, sizeof(why), "cannot switch to it: the kernel kept '%s'",
						 current);
				else
					snprintf(why, sizeof(why), "cannot switch to it: %s",
						 err_errno_text(saved, e, sizeof(e)));
				clocks_skip(&ses, run, src[i].name, why, calls, ncalls);
				continue;
			}
			snprintf(current, sizeof(current), "%s", src[i].name);
		}
		if (!o.quiet && isatty(STDERR_FILENO))
			fprintf(stderr, "kbench: clocks: %s (%zu of %zu)...\n", src[i].name, i + 1, nsrc);
		/* The harness's clock is read from this source now: its cost and step anew. */
		if (engine_reclock(&eng, err) < 0) {
			if (runner_interrupted()) {
				session_stop(&ses);
				break;
			}
			clocks_skip(&ses, run, src[i].name, err, calls, ncalls);
			continue;
		}
		clocks_measure(&o, src[i].name, calls, ncalls, &eng, &ses, run);
	}
	if (guarded) {
		restore_failed = clocks_restore(original, current) < 0;
		/* Failed: the guard, left waiting, writes the original back when kbench exits. */
		if (!restore_failed)
			guard_done(&guard);
	}
	for (size_t i = 0; i < run->nresults; i++)
		nfail += run->results[i].status == RES_FAIL;
	session_end(&ses, run);
	session_close(&ses);

	if (o.json ? report_runs_json(stdout, ses.si_json, ses.runs, ses.nruns) < 0
		   : report_clocks_text(stdout, ses.runs, ses.nruns) < 0)
		die("clocks: cannot print the results");
	fflush(stdout);
	free(calls);
	return session_finish(&ses, nfail + (size_t)restore_failed, "", o.quiet);
}

/*
 * kbench run: select instances, measure each in its own child process,
 * store each result as soon as it is finished, print the report.
 *
 * Order of work matters for the reliability rules: everything that can
 * refuse (bad options, an unusable database or temporary directory) is
 * checked before the first benchmark starts, and a result is stored the
 * moment it exists, so Ctrl-C loses only the instance in progress.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/err.h"
#include "core/registry.h"
#include "core/runner.h"
#include "core/sysinfo.h"
#include "core/timer.h"
#include "plat/plat.h"
#include "report/report.h"
#include "store/store.h"

/* Exit status after Ctrl-C, as shells report a SIGINT death. */

struct run_opts {
	const char *suite, *only, *label, *db, *tmpdir, *placement;
	int runs, no_store, json, quiet, parallel;
	double precision, max_time, watchdog, sample_ms;
	size_t msg_size, size;
	enum placement places[3];	/* parsed --placement, or the suite's */
	int nplaces;
};

/* One thing to measure: an instance, under one placement when it has ends. */
struct job {
	const struct bench *b;
	enum placement place;
};

/* The largest --msg-size and --size accepted before memory is even looked at. */
#define MSG_SIZE_MAX (1024.0 * 1024 * 1024)
#define SIZE_MAX_BYTES (1024.0 * 1024 * 1024 * 1024)

/* The progress line: only on a terminal, only to stderr. */
struct progress {
	int on;
	size_t done, total;
	uint64_t start;
	double per_instance_s;	/* guess for the ETA before anything finished */
};

static void progress_show(struct progress *p, const char *id, enum placement place)
{
	char what[96];

	double elapsed, eta;

	if (!p->on)
		return;
	elapsed = (double)(timer_now() - p->start) / 1e9;
	eta = p->done ? elapsed / (double)p->done * (double)(p->total - p->done)
		      : p->per_instance_s * (double)p->total;
	snprintf(what, sizeof(what), "%s%s%s", id, place == PLACE_NA ? "" : " ", place_name(place));
	fprintf(stderr, "\r\033[K[%zu/%zu] %-22s elapsed %.0f s, about %.0f s to go",
		p->done + 1, p->total, what, elapsed, eta);
	fflush(stderr);
}

static void progress_clear(const struct progress *p)
{
	if (p->on)
		fputs("\r\033[K", stderr);
}

static void now_iso(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/*
 * --placement same,spread,none (any of them, in that order of listing), or
 * the suite's choice: full measures all three, the others let the
 * scheduler decide, as a user's programs would.
 */
static void parse_placements(struct run_opts *o, unsigned suite_bits)
{
	char buf[64], *save = NULL;

	if (!o->placement) {
		o->nplaces = 0;
		if (suite_bits == SUITE_FULL) {
			o->places[o->nplaces++] = PLACE_SAME;
			o->places[o->nplaces++] = PLACE_SPREAD;
		}
		o->places[o->nplaces++] = PLACE_NONE;
		return;
	}
	if (snprintf(buf, sizeof(buf), "%s", o->placement) >= (int)sizeof(buf))
		die_usage("run: --placement: '%s' is too long (same, spread, none)", o->placement);
	o->nplaces = 0;
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		enum placement p;
		int dup = 0;

		if (place_parse(w, &p) < 0)
			die_usage("run: --placement: unknown placement '%s' (same, spread or none)", w);
		for (int i = 0; i < o->nplaces; i++)
			dup |= o->places[i] == p;
		if (!dup)
			o->places[o->nplaces++] = p;
	}
	if (o->nplaces == 0)
		die_usage("run: --placement: name at least one of same, spread, none");
}

/*
 * A size the machine can hold: `bufs` buffers of `bytes` per copy must fit
 * in half of the memory available, or the OOM killer would end the run
 * instead of a message.  --msg-size: each copy's two ends keep two
 * buffers; --size: a copy's source and destination.
 */
static void check_fits(const struct run_opts *o, const char *opt, size_t bytes, int bufs)
{
	uint64_t total = 0, avail = 0;
	double need = (double)bufs * (double)bytes * o->parallel;

	if (!bytes)
		return;
	if (plat_memory(&total, &avail) == 0 && avail > 0 && need > (double)avail / 2)
		die_usage("run: --%s %zu bytes: %d cop%s need %.0f MiB of buffers, more than "
			  "half of the %.0f MiB available", opt, bytes, o->parallel,
			  o->parallel == 1 ? "y" : "ies", need / 1048576.0, (double)avail / 1048576.0);
}

static void validate(struct run_opts *o, unsigned *suite_bits)
{
	if (registry_suite_parse(o->suite ? o->suite : "standard", suite_bits) < 0)
		die_usage("run: unknown suite '%s' (one of %s)", o->suite, registry_suite_list());
	if (o->no_store && o->db)
		die_usage("run: --db and --no-store contradict each other");
	if (o->label && (!o->label[0] || strlen(o->label) >= sizeof(((struct run_info *)0)->label)))
		die_usage("run: --label must be 1 to 127 characters");
	if (o->max_time == 0)
		o->max_time = *suite_bits == SUITE_QUICK ? 1.0 : 3.0;
	if (o->watchdog == 0)
		o->watchdog = 10 * o->max_time + 30;
	o->tmpdir = cli_tmpdir("run", o->tmpdir);
	parse_placements(o, *suite_bits);
	check_fits(o, "msg-size", o->msg_size, 4);
	check_fits(o, "size", o->size, 2);
}

static void runner_setup(const struct run_opts *o, unsigned suite_bits,
			 const struct timer_info *ti, struct runner_cfg *rc)
{
	harness_defaults(&rc->harness);
	rc->harness.precision = o->precision / 100.0;
	rc->harness.max_time_ns = o->max_time * 1e9;
	rc->harness.sample_target_ns = o->sample_ms * 1e6;
	rc->harness.granularity_ns = ti->granularity_ns;
	rc->harness.loop_ns = ti->loop_ns;
	rc->harness.clock_cost_ns = ti->cost_ns;
	rc->harness.parallel = o->parallel;
	rc->harness.msg_size = o->msg_size;
	rc->harness.size = o->size;
	rc->harness.suite = suite_bits;
	rc->tmproot = o->tmpdir;
	rc->watchdog_s = o->watchdog;
}

static int job_listed(const struct job *jobs, size_t njobs, const struct bench *b)
{
	for (size_t i = 0; i < njobs; i++)
		if (jobs[i].b == b)
			return 1;
	return 0;
}

/*
 * Every selected instance once, those between processes once per
 * placement.  A row that needs another's result (the cache levels need
 * the latency curve) gets that row measured just before it, once.
 */
static struct job *make_jobs(const struct run_opts *o, const struct bench **sel, size_t nsel,
			     size_t *njobs)
{
	struct job *jobs = calloc(nsel * 4 + 1, sizeof(*jobs));

	if (!jobs)
		die("run: out of memory");
	*njobs = 0;
	for (size_t i = 0; i < nsel; i++) {
		const struct bench *need = sel[i]->needs ? registry_find(sel[i]->needs) : NULL;

		if (need && !job_listed(jobs, *njobs, need))
			jobs[(*njobs)++] = (struct job){ need, PLACE_NA };
		if (!(sel[i]->flags & BENCH_PLACED)) {
			if (!job_listed(jobs, *njobs, sel[i]))
				jobs[(*njobs)++] = (struct job){ sel[i], PLACE_NA };
			continue;
		}
		for (int k = 0; k < o->nplaces; k++)
			jobs[(*njobs)++] = (struct job){ sel[i], o->places[k] };
	}
	return jobs;
}

/* The tables, one row per label: the median over --runs N repetitions, "[N]". */
static void run_summary(const struct run_info *runs, size_t nruns)
{
	struct run_info *rows;
	int nrows = report_merge_labels(runs, nruns, &rows);

	if (nrows < 0)
		die("run: out of memory merging the runs");
	report_summary(stdout, rows, (size_t)nrows);
	report_merge_free(rows, (size_t)nrows);
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = { .runs = 1, .precision = 1.0, .sample_ms = 10, .parallel = 1 };
	const struct opt opts[] = {
		{ "suite", OPT_STRING, &o.suite, "S", "quick, standard (default), full, lmbench, ...", 0, 0 },
		{ "only", OPT_STRING, &o.only, "GLOB,...", "only instances whose id matches a glob", 0, 0 },
		{ "label", OPT_STRING, &o.label, "L", "name what is measured (default: OS and release)", 0, 0 },
		{ "runs", OPT_INT, &o.runs, "N", "repeat the selection N times, interleaved", 1, 1000 },
		{ "precision", OPT_DOUBLE, &o.precision, "PCT", "wanted 95% CI half-width, % of the median (1)", 0.01, 50 },
		{ "max-time", OPT_DOUBLE, &o.max_time, "SECONDS", "sampling budget per instance (quick 1, else 3)", 0.01, 3600 },
		{ "placement", OPT_STRING, &o.placement, "P,...", "same, spread or none: where the ends of a benchmark between processes run", 0, 0 },
		{ "parallel", OPT_INT, &o.parallel, "P", "run P copies of each instance at once (1)", 1, 128 },
		{ "msg-size", OPT_SIZE, &o.msg_size, "SIZE", "message (latency) or chunk (bandwidth) size, e.g. 64k", 1, MSG_SIZE_MAX },
		{ "size", OPT_SIZE, &o.size, "SIZE", "buffer, file or mapping size of memory, file and VM benchmarks, e.g. 64m", 4096, SIZE_MAX_BYTES },
		{ "sample-time", OPT_DOUBLE, &o.sample_ms, "MS", "length of one sample (10)", 0.1, 10000 },
		{ "watchdog", OPT_DOUBLE, &o.watchdog, "SECONDS", "kill an instance running longer (10x max-time + 30)", 0.1, 86400 },
		{ "tmpdir", OPT_STRING, &o.tmpdir, "DIR", "where private temporary directories go ($TMPDIR or /tmp)", 0, 0 },
		{ "db", OPT_STRING, &o.db, "PATH", "results database (default $KBENCH_DB, then ~/.local/share/kbench/results.db)", 0, 0 },
		{ "no-store", OPT_FLAG, &o.no_store, NULL, "do not store the results", 0, 0 },
		{ "json", OPT_FLAG, &o.json, NULL, "print one JSON document instead of tables", 0, 0 },
		{ "quiet", OPT_FLAG, &o.quiet, NULL, "no warnings or progress on stderr", 0, 0 },
		{ 0 },
	};
	unsigned suite_bits;
	size_t nsel, njobs, nruns = 0, nfail = 0, nstored = 0;
	struct job *jobs;
	char path[PATH_MAX], err[ERRBUF_LEN], label[128];
	struct store *st = NULL;
	struct sysinfo si;
	struct timer_info ti;
	struct runner_cfg rc;
	struct progress prog = { 0 };
	const struct bench **sel;
	struct run_info *runs;
	char *si_json;
	int stopped = 0, rc_exit;

	if (opt_parse(cli_find("run"), opts, argc, argv) > 0)
		die_usage("run: unexpected argument '%s'", argv[0]);
	validate(&o, &suite_bits);
	/* --only without --suite looks at every instance, so any id can be named. */
	sel = registry_select(o.only && !o.suite ? 0 : suite_bits, o.only, &nsel, err);
	if (!sel)
		die_usage("run: %s", err);
	if (nsel == 0 && o.only)
		die_usage("run: no benchmark of suite '%s' matches '%s'", o.suite, o.only);
	if (nsel == 0)
		die_usage("run: suite '%s' has no benchmarks yet", o.suite);
	if (!o.no_store) {
		if (store_default_path(o.db, path, sizeof(path), err) < 0)
			die("%s", err);
		st = store_open(path, err);
		if (!st)
			die("%s", err);
	}

	jobs = make_jobs(&o, sel, nsel, &njobs);
	sysinfo_collect(&si);
	timer_measure(&ti);
	if (!o.quiet)
		sysinfo_warn(&si, stderr);
	si_json = report_sysinfo_json(&si);
	if (!si_json)
		die("run: cannot encode the system description");
	sysinfo_label(&si, label, sizeof(label));
	runner_setup(&o, suite_bits, &ti, &rc);
	runner_catch_signals();

	runs = calloc((size_t)o.runs, sizeof(*runs));
	if (!runs)
		die("run: out of memory");
	prog.on = !o.quiet && isatty(STDERR_FILENO);
	prog.total = njobs * (size_t)o.runs;
	prog.start = timer_now();
	prog.per_instance_s = o.max_time + 0.3;

	/* Repetitions outside, instances inside: drift hits every instance alike. */
	for (int rep = 0; rep < o.runs && !stopped; rep++) {
		struct run_info *run = &runs[nruns++];

		now_iso(run->started, sizeof(run->started));
		cli_run_begin(st, run, o.label ? o.label : label, &si, si_json, rep ? &runs[0] : NULL,
			      njobs);
		if (!st)
			run->id = rep + 1;
		for (size_t i = 0; i < njobs; i++) {
			struct result *r = &run->results[run->nresults];
			progress_show(&prog, jobs[i].b->id, jobs[i].place);
			rc.harness.placement = jobs[i].place;
			/* A later row may read an earlier one's result (ctx->prior). */
			rc.harness.prior = run->results;
			rc.harness.nprior = run->nresults;
			if (runner_run(jobs[i].b, &rc, r) < 0) {
				stopped = 1;
				break;
			}
			run->nresults++;
			prog.done++;
			if (r->status == RES_FAIL)
				nfail++;
			if (st) {
				if (store_result_add(st, run->id, r, err) < 0) {
					progress_clear(&prog);
					die("%s", err);
				}
				nstored++;
			}
		}
		if (st && store_run_end(st, run->id, err) < 0)
			die("%s", err);
	}
	progress_clear(&prog);
	if (st)
		store_close(st);

	if (o.json)
		report_runs_json(stdout, si_json, runs, nruns);
	else
		run_summary(runs, nruns);
	/* The table first, then what happened to it, when both go to a terminal. */
	fflush(stdout);

	rc_exit = nfail ? EXIT_FAIL : EXIT_DONE;
	if (stopped) {
		fprintf(stderr, "kbench: interrupted by signal %d: %zu result%s stored, %zu not measured\n",
			runner_interrupted(), nstored, nstored == 1 ? "" : "s", prog.total - prog.done);
		rc_exit = EXIT_INTERRUPTED;
	} else if (!o.quiet && st) {
		cli_run_stored(nstored, runs, nruns, path);
	}
	for (size_t i = 0; i < nruns; i++)
		run_info_free(&runs[i]);
	free(runs);
	free(si_json);
	free(sel);
	free(jobs);
	return rc_exit;
}

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
#include "cli/cpus.h"
#include "cli/label.h"
#include "cli/session.h"
#include "core/engine.h"
#include "core/err.h"
#include "core/parse.h"
#include "core/registry.h"
#include "core/replica.h"
#include "core/sysinfo.h"
#include "core/timer.h"
#include "plat/plat.h"
#include "report/report.h"
#include "store/store.h"

/* Exit status after Ctrl-C, as shells report a SIGINT death. */

struct run_opts {
	const char *suite, *only, *label, *db, *tmpdir, *placement, *cpus;
	int runs, replicas, no_store, json, quiet, parallel, offline_cpus;
	double precision, max_time, watchdog, sample_ms;
	size_t msg_size, size;
	enum placement places[3];	/* parsed --placement, or the suite's */
	int nplaces;
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

static void progress_show(void *arg, const struct engine_job *job, int measured)
{
	struct progress *p = arg;
	const char *id = job->b->id;
	enum placement place = job->place;
	char what[96];
	double elapsed, eta;

	if (!measured) {
		p->done++;
		return;
	}
	if (!p->on) {
		p->done++;
		return;
	}
	elapsed = (double)(timer_now() - p->start) / 1e9;
	eta = p->done ? elapsed / (double)p->done * (double)(p->total - p->done)
		      : p->per_instance_s * (double)p->total;
	snprintf(what, sizeof(what), "%s%s%s", id, place == PLACE_NA ? "" : " ", place_name(place));
	fprintf(stderr, "\r\033[K[%zu/%zu] %-22s elapsed %.0f s, about %.0f s to go",
		p->done + 1, p->total, what, elapsed, eta);
	fflush(stderr);
	p->done++;
}

static void progress_clear(const struct progress *p)
{
	if (p->on)
		fputs("\r\033[K", stderr);
}

/*
 * The suite's placements, when --placement names none.  Both ends pinned,
 * on one CPU and on two, side by side: each figure then means one thing.
 * Left to the scheduler, a pipe's ends share a CPU or not as the rest of
 * the machine decides, and on a VM the two are different figures (2.4 us
 * and 25 to 75 us), so a run's replicas fell in either and its median
 * meant neither; none is still there to ask for, and its replicas are
 * sorted into those two modes (core/replica.h).  The quick suite measures
 * same alone, to stay within its 90 s; full measures all three.  What the
 * machine cannot honour is left out rather than measured as a skip: spread
 * where kbench may use one CPU (after --cpus), and both pinned placements
 * where the OS offers no CPU affinity, which leaves the scheduler's.
 */
static void default_placements(struct run_opts *o, unsigned suite_bits)
{
	static int cpus[BENCH_MAX_CPUS];
	int n = plat_cpus_allowed(cpus, BENCH_MAX_CPUS);

	if (o->nplaces)
		return;
	if (n > 0)
		o->places[o->nplaces++] = PLACE_SAME;
	if (n > 1 && suite_bits != SUITE_QUICK)
		o->places[o->nplaces++] = PLACE_SPREAD;
	if (n <= 0 || suite_bits == SUITE_FULL)
		o->places[o->nplaces++] = PLACE_NONE;
}

/* --placement same,spread,none: any of them, in that order of listing. */
static void parse_placements(struct run_opts *o)
{
	const char *item, *rest = o->placement;
	char w[16];
	size_t len;

	o->nplaces = 0;
	if (!o->placement)
		return;
	while ((item = parse_item(&rest, &len))) {
		enum placement p;
		int dup = 0;

		if (len == 0)
			die_usage("run: --placement '%s': an empty name (a comma first, last or twice)",
				  o->placement);
		snprintf(w, sizeof(w), "%.*s", (int)len, item);
		if (len >= sizeof(w) || place_parse(w, &p) < 0)
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
		die_usage("run: --%s %zu bytes: %d cop%s %.0f MiB of buffers, more than "
			  "half of the %.0f MiB available", opt, bytes, o->parallel,
			  o->parallel == 1 ? "y needs" : "ies need", need / 1048576.0, (double)avail / 1048576.0);
}

/*
 * An instance's sampling budget, shared by its replicas.  2.25 s: the
 * standard suite must fit in 5 minutes, and measuring both pinned
 * placements of every row between processes took it to 299 s here at
 * 2.5 s (293-310 s at 3 s with one placement).  A replica's own sampling
 * is a twentieth of the variance between a run's replicas, so 10% fewer
 * samples widen that by about a quarter of a percent (doc/performance.md).
 */
#define RUN_MAX_TIME 2.25
#define RUN_MAX_TIME_QUICK 0.8

static void validate(struct run_opts *o, unsigned *suite_bits)
{
	if (registry_suite_parse(o->suite ? o->suite : "standard", suite_bits) < 0)
		die_usage("run: unknown suite '%s' (one of %s)", o->suite, registry_suite_list());
	if (o->no_store && o->db)
		die_usage("run: --db and --no-store contradict each other");
	if (o->label)
		cli_label_check("run", "--label", o->label);
	if (o->max_time == 0)
		o->max_time = *suite_bits == SUITE_QUICK ? RUN_MAX_TIME_QUICK : RUN_MAX_TIME;
	/* The quick suite is a smoke test within 90 s: fewer replicas, a wider interval. */
	if (o->replicas == 0)
		o->replicas = *suite_bits == SUITE_QUICK ? REPLICA_QUICK : REPLICA_DEFAULT;
	if (o->watchdog == 0)
		o->watchdog = 10 * o->max_time + 30;
	o->tmpdir = cli_tmpdir("run", o->tmpdir);
	parse_placements(o);
	check_fits(o, "msg-size", o->msg_size, 4);
	check_fits(o, "size", o->size, 2);
}

static void runner_setup(const struct run_opts *o, unsigned suite_bits, struct runner_cfg *rc)
{
	harness_defaults(&rc->harness);
	rc->harness.precision = o->precision / 100.0;
	/* --max-time is an instance's budget, shared by its replicas. */
	rc->harness.max_time_ns = o->max_time * 1e9 / o->replicas;
	/*
	 * A replica needs only enough samples for a median and its own 95% CI
	 * (6, from order statistics); the figure's interval comes from the
	 * replicas.  A single block keeps the 10 of DESIGN.md.
	 */
	if (o->replicas > 1)
		rc->harness.min_samples = 6;
	rc->harness.sample_target_ns = o->sample_ms * 1e6;
	rc->harness.parallel = o->parallel;
	rc->harness.msg_size = o->msg_size;
	rc->harness.size = o->size;
	rc->harness.suite = suite_bits;
	rc->tmproot = o->tmpdir;
	rc->watchdog_s = o->watchdog;
}

static int job_listed(const struct engine_job *jobs, size_t njobs, const struct bench *b)
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
static struct engine_job *make_jobs(const struct run_opts *o, const struct bench **sel, size_t nsel,
			     size_t *njobs)
{
	struct engine_job *jobs = calloc(nsel * 4 + 1, sizeof(*jobs));

	if (!jobs)
		die("run: out of memory");
	*njobs = 0;
	for (size_t i = 0; i < nsel; i++) {
		const struct bench *need = sel[i]->needs ? registry_find(sel[i]->needs) : NULL;

		if (need && !job_listed(jobs, *njobs, need))
			jobs[(*njobs)++] = (struct engine_job){ need, PLACE_NA };
		if (!(sel[i]->flags & BENCH_PLACED)) {
			if (!job_listed(jobs, *njobs, sel[i]))
				jobs[(*njobs)++] = (struct engine_job){ sel[i], PLACE_NA };
			continue;
		}
		for (int k = 0; k < o->nplaces; k++)
			jobs[(*njobs)++] = (struct engine_job){ sel[i], o->places[k] };
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

/*
 * Merge job i's replicas into the run's result for it and store that,
 * rewriting what an earlier round stored (stored[i]); its interval takes
 * in the machine's movement over the run so far (the engine's timeline),
 * the whole run's in the last round.  -1 when the store fails: a run that
 * cannot keep its results must not go on measuring for nothing, but what
 * it measured is still merged and printed.
 */
static int run_merge(const struct engine *e, size_t i, const struct run_opts *o,
		     struct session *ses, struct run_info *run, int64_t *stored)
{
	struct replica_cfg cfg = { .precision = o->precision / 100.0, .timeline = e->tl,
				   .ntimeline = e->ntl };
	struct result merged, *slot = &run->results[i];

	if (replica_merge(e->jobs[i].b, e->jr[i].reps, e->jr[i].n, &cfg, &merged) < 0)
		die("run: out of memory merging the replicas of %s", e->jobs[i].b->id);
	result_free(slot);
	*slot = merged;
	return session_put(ses, run, &stored[i], slot);
}

/*
 * One run: the engine's rounds over the jobs, each job's result merged and
 * stored after every round it took a replica in, with the sentinel's
 * timeline so far.  A signal stops it (session_stop) after storing what
 * was measured; a failed store stops it after merging what was measured,
 * to be printed.
 */
static void run_rounds(const struct run_opts *o, struct engine *e, const struct engine_job *jobs,
		       size_t njobs, struct session *ses, struct run_info *run, struct progress *prog)
{
	int64_t *stored = calloc(njobs ? njobs : 1, sizeof(*stored));
	enum engine_state st = ENGINE_MORE;

	if (!stored)
		die("run: out of memory");
	engine_begin(e, jobs, njobs, o->replicas);
	while (st == ENGINE_MORE && ses->state == SESSION_GOING) {
		st = engine_round(e, progress_show, prog);
		if (st == ENGINE_INTERRUPTED)
			session_stop(ses);
		/* Only what took a replica this round: a rested job's result stands. */
		/* After the store failed, the rest is still merged, to be printed. */
		for (size_t i = 0; i < njobs; i++)
			if (engine_fresh(e, i))
				(void)run_merge(e, i, o, ses, run, stored);
		if (ses->st && ses->state != SESSION_UNSTORED &&
		    store_sentinel_put(ses->st, run->id, e->tl, e->ntl, ses->err) < 0)
			session_store_failed(ses, run);
	}
	/* Stopped by a signal: a figure from fewer replicas than planned says so, stored too. */
	for (size_t i = 0; st == ENGINE_INTERRUPTED && i < njobs; i++) {
		struct result *r = &run->results[i];

		if (!e->jr[i].n || e->jr[i].n >= engine_planned(e, i) ||
		    (r->status != RES_OK && r->status != RES_NOISY))
			continue;
		snprintf(r->reason, sizeof(r->reason), "partial: %zu of %zu replicas, the run was interrupted",
			 e->jr[i].n, engine_planned(e, i));
		if (ses->state != SESSION_UNSTORED)
			(void)session_put(ses, run, &stored[i], r);
	}
	/* The jobs measured, in order; a job never reached (Ctrl-C) is left out. */
	run->nresults = 0;
	for (size_t i = 0; i < njobs; i++)
		if (e->jr[i].n)
			run->results[run->nresults++] = run->results[i];
	engine_end(e, &run->sentinel, &run->nsentinel);
	free(stored);
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = { .runs = 1, .precision = 1.0,
			      .sample_ms = 10, .parallel = 1 };
	const struct opt opts[] = {
		{ "suite", OPT_STRING, &o.suite, "S", "quick, standard (default), full, lmbench, ...", 0, 0, 0 },
		{ "only", OPT_STRING, &o.only, "GLOB,...", "only instances whose id matches a glob", 0, 0, 0 },
		{ "label", OPT_STRING, &o.label, "L", "name what is measured (default: OS and release)", 0, 0, 0 },
		{ "runs", OPT_INT, &o.runs, "N", "repeat the selection N times, interleaved", 1, 1000, 0 },
		{ "replicas", OPT_INT, &o.replicas, "N", "measure each instance N times spread over the run (quick 4, else 8)", 1, 100, 0 },
		{ "precision", OPT_DOUBLE, &o.precision, "PCT", "wanted 95% CI half-width, % of the median (1)", 0.01, 50, 0 },
		{ "max-time", OPT_DOUBLE, &o.max_time, "SECONDS", "sampling budget per instance (quick 0.8, else 2.25)", 0.01, 3600, 0 },
		{ "placement", OPT_STRING, &o.placement, "P,...", "same, spread or none: where the ends of a benchmark between processes run (quick same, full all three, else same,spread)", 0, 0, 0 },
		{ "parallel", OPT_INT, &o.parallel, "P", "run P copies of each instance at once (1)", 1, 128, 0 },
		{ "msg-size", OPT_SIZE, &o.msg_size, "SIZE", "message (latency) or chunk (bandwidth) size, e.g. 64k", 1, MSG_SIZE_MAX, 0 },
		{ "size", OPT_SIZE, &o.size, "SIZE", "buffer, file or mapping size of memory, file and VM benchmarks, e.g. 64m", 4096, SIZE_MAX_BYTES, 0 },
		{ "sample-time", OPT_DOUBLE, &o.sample_ms, "MS", "length of one sample (10)", 0.1, 10000, 0 },
		{ "watchdog", OPT_DOUBLE, &o.watchdog, "SECONDS", "kill an instance running longer (10x max-time + 30)", 0.1, 86400, 0 },
		{ "cpus", OPT_STRING, &o.cpus, "LIST", "kbench and all it starts run only on these CPUs: 0, 0,2-3", 0, 0, 0 },
		{ "offline-cpus", OPT_FLAG, &o.offline_cpus, NULL, "with --cpus: take the other CPUs offline meanwhile (root)", 0, 0, 0 },
		{ "tmpdir", OPT_STRING, &o.tmpdir, "DIR", "where private temporary directories go ($TMPDIR or /tmp)", 0, 0, 0 },
		{ "db", OPT_STRING, &o.db, "PATH", "results database (default $KBENCH_DB, then ~/.local/share/kbench/results.db)", 0, 0, 0 },
		{ "no-store", OPT_FLAG, &o.no_store, NULL, "do not store the results", 0, 0, 0 },
		{ "json", OPT_FLAG, &o.json, NULL, "print one JSON document instead of tables", 0, 0, 0 },
		{ "quiet", OPT_FLAG, &o.quiet, NULL, "no warnings or progress on stderr", 0, 0, 0 },
		{ 0 },
	};
	unsigned suite_bits;
	size_t nsel, njobs, nfail = 0;
	struct engine_job *jobs;
	char err[ERRBUF_LEN], more[96];
	struct session ses;
	struct cli_cpus cpus;
	struct engine eng;
	struct runner_cfg rc;
	struct progress prog = { 0 };
	const struct bench **sel;

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

	/*
	 * Before anything is measured: the clock's cost and the machine's
	 * description too.  Signals first, so that a Ctrl-C once CPUs are
	 * offline ends the run the orderly way and brings them back.
	 */
	runner_catch_signals();
	runner_catch_stop();
	cli_cpus_apply("run", o.cpus, o.offline_cpus, &cpus);
	default_placements(&o, suite_bits);
	jobs = make_jobs(&o, sel, nsel, &njobs);
	/* Measured once, by the worker: the clock cost subtracted is the one recorded. */
	runner_setup(&o, suite_bits, &rc);
	cli_engine_open(&eng, "run", &rc, 1, &cpus);
	session_open(&ses, "run", o.db, o.no_store, o.label, &eng.pre, !o.quiet, (size_t)o.runs);

	prog.on = !o.quiet && isatty(STDERR_FILENO);
	prog.total = njobs * (size_t)o.runs * (size_t)o.replicas;
	prog.start = timer_now();
	prog.per_instance_s = o.max_time / o.replicas + 0.1;

	/* Repetitions outside, then the engine's rounds, instances inside. */
	for (int rep = 0; rep < o.runs && ses.state == SESSION_GOING; rep++) {
		struct run_info *run = session_begin(&ses, njobs);

		run_rounds(&o, &eng, jobs, njobs, &ses, run, &prog);
		for (size_t i = 0; i < run->nresults; i++)
			nfail += run->results[i].status == RES_FAIL;
		session_end(&ses, run);
	}
	progress_clear(&prog);
	cli_cpus_restore(&cpus);
	session_close(&ses);

	if (o.json)
		report_runs_json(stdout, ses.si_json, ses.runs, ses.nruns);
	else
		run_summary(ses.runs, ses.nruns);
	/* The table first, then what happened to it, when both go to a terminal. */
	fflush(stdout);
	snprintf(more, sizeof(more), ", %zu of %zu replicas not measured", prog.total - prog.done,
		 prog.total);
	free(sel);
	free(jobs);
	return session_finish(&ses, nfail, more, o.quiet);
}

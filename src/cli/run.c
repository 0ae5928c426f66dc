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
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/scale.h"
#include "cli/cli.h"
#include "cli/cpus.h"
#include "cli/label.h"
#include "cli/run.h"
#include "cli/session.h"
#include "core/engine.h"
#include "core/err.h"
#include "core/guard.h"
#include "core/parse.h"
#include "core/registry.h"
#include "core/replica.h"
#include "core/sysinfo.h"
#include "core/timer.h"
#include "load/group.h"
#include "load/load.h"
#include "plat/plat.h"
#include "report/report.h"
#include "report/compare.h"
#include "judge/compare.h"
#include "judge/merge.h"
#include "stats/stats.h"
#include "store/store.h"


/*
 * --runs auto: the runs before the first look (a comparison's test needs
 * 3 a side), the most without --max-runs, and the target without --target.
 */
#define AUTO_MIN_RUNS 3
#define AUTO_MAX_RUNS 20
#define AUTO_TARGET 5.0

/* The largest --msg-size and --size accepted before memory is even looked at. */
#define MSG_SIZE_MAX (1024.0 * 1024 * 1024)
#define SIZE_MAX_BYTES (1024.0 * 1024 * 1024 * 1024)

/* The progress line: only on a terminal, only to stderr. */
struct progress {
	int on;
	int plain;		/* a terminal without ESC[K (TERM dumb or unset): spaces erase */
	int last;		/* the width of the line last written, for those spaces */
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
	char line[256];
	int len = snprintf(line, sizeof(line), "[%zu/%zu] %-22s elapsed %.0f s, about %.0f s to go",
			   p->done + 1, p->total, what, elapsed, eta);

	if (p->plain)
		fprintf(stderr, "\r%-*s", p->last > len ? p->last : len, line);
	else
		fprintf(stderr, "\r\033[K%s", line);
	p->last = len;
	fflush(stderr);
	p->done++;
}

static void progress_clear(const struct progress *p)
{
	if (p->on && p->plain)
		fprintf(stderr, "\r%*s\r", p->last, "");
	else if (p->on)
		fputs("\r\033[K", stderr);
}

/* Whether the terminal may take ESC[K: not one TERM calls dumb, nor one without TERM. */
static int progress_plain(void)
{
	const char *term = getenv("TERM");

	return !term || !term[0] || strcmp(term, "dumb") == 0;
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
			die_usage("%s: --placement '%s': an empty name (a comma first, last or twice)",
				  o->cmd, o->placement);
		snprintf(w, sizeof(w), "%.*s", (int)len, item);
		if (len >= sizeof(w) || place_parse(w, &p) < 0)
			die_usage("%s: --placement: unknown placement '%s' (same, spread or none)", o->cmd, w);
		for (int i = 0; i < o->nplaces; i++)
			dup |= o->places[i] == p;
		if (!dup)
			o->places[o->nplaces++] = p;
	}
	if (o->nplaces == 0)
		die_usage("%s: --placement: name at least one of same, spread, none", o->cmd);
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
		die_usage("%s: --%s %zu bytes: %d cop%s %.0f MiB of buffers, more than "
			  "half of the %.0f MiB available", o->cmd, opt, bytes, o->parallel,
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

void run_validate(struct run_opts *o, unsigned *suite_bits)
{
	long n;

	o->fmt = cli_format(o->cmd, o->format, o->json, 0,
			    1u << CLI_TEXT | 1u << CLI_JSON | 1u << CLI_GBENCH);
	/* A document instead of the tables, whichever. */
	o->json = o->fmt != CLI_TEXT;

	if (o->runs_arg && !strcmp(o->runs_arg, "auto")) {
		o->runs_auto = 1;
		o->runs = o->max_runs ? o->max_runs : AUTO_MAX_RUNS;
	} else if (o->runs_arg) {
		if (parse_whole(o->runs_arg, strlen(o->runs_arg), 0, LONG_MAX, &n) < 0)
			die_usage("%s: --runs: '%s' is neither a count from 1 to 1000 nor auto",
				  o->cmd, o->runs_arg);
		if (n < 1 || n > 1000)
			die_usage("%s: --runs: %s is out of range (1 to 1000, or auto)", o->cmd,
				  o->runs_arg);
		o->runs = (int)n;
	}
	if (!o->runs_auto && (o->target > 0 || o->max_runs))
		die_usage("%s: --target and --max-runs go with --runs auto", o->cmd);
	if (o->target == 0)
		o->target = AUTO_TARGET;
	if (registry_suite_parse(o->suite ? o->suite : "standard", suite_bits) < 0)
		die_usage("%s: unknown suite '%s' (one of %s)", o->cmd, o->suite, registry_suite_list());
	if (o->no_store && o->db)
		die_usage("%s: --db and --no-store contradict each other", o->cmd);
	if (o->label)
		cli_label_check(o->cmd, "--label", o->label);
	if (o->max_time == 0)
		o->max_time = *suite_bits == SUITE_QUICK ? RUN_MAX_TIME_QUICK : RUN_MAX_TIME;
	/* The quick suite is a smoke test within 90 s: fewer replicas, a wider interval. */
	if (o->replicas == 0)
		o->replicas = *suite_bits == SUITE_QUICK ? REPLICA_QUICK : REPLICA_DEFAULT;
	if (o->watchdog == 0)
		o->watchdog = 10 * o->max_time + 30;
	o->tmpdir = cli_tmpdir(o->cmd, o->tmpdir);
	parse_placements(o);
	check_fits(o, "msg-size", o->msg_size, 4);
	check_fits(o, "size", o->size, 2);
}

void run_harness(const struct run_opts *o, unsigned suite_bits, struct runner_cfg *rc)
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
	rc->harness.events = o->events;
	rc->harness.suite = suite_bits;
	rc->tmproot = o->tmpdir;
	rc->watchdog_s = o->watchdog;
}

/*
 * --events: the events this machine cannot count, said once for the run
 * (not a zero in every result): those it has no such event for, those it
 * does not permit (kernel.perf_event_paranoid), or none at all.  What it
 * can count is counted.
 */
static void events_absent(const struct run_opts *o)
{
	static const char *const names[PLAT_NEV] = {
		"context switches", "migrations", "page faults", "cycles", "instructions",
		"cache misses", "branch misses",
	};
	struct plat_events ev;
	char none[256] = "", denied[256] = "", paranoid[64] = "?";
	int n = plat_events_open(&ev);

	if (o->quiet)
		goto out;
	if (n < 0) {
		fprintf(stderr, "kbench %s: --events: this OS gives kbench no event counters; measured "
			"without them\n", o->cmd);
		return;
	}
	for (int i = 0; i < PLAT_NEV; i++) {
		char *list = ev.err[i] == EACCES || ev.err[i] == EPERM ? denied : none;

		if (ev.fd[i] >= 0)
			continue;
		snprintf(list + strlen(list), 256 - strlen(list), "%s%s", list[0] ? ", " : "", names[i]);
	}
	plat_read_line("/proc/sys/kernel/perf_event_paranoid", paranoid, sizeof(paranoid));
	if (none[0] && denied[0])
		fprintf(stderr, "kbench %s: --events: %s absent here (no such event: no PMU the kernel "
			"offers); %s not permitted (perf_event_paranoid %s)\n", o->cmd, none, denied,
			paranoid);
	else if (none[0])
		fprintf(stderr, "kbench %s: --events: %s absent here (no such event: no PMU the kernel "
			"offers)\n", o->cmd, none);
	else if (denied[0])
		fprintf(stderr, "kbench %s: --events: %s not permitted (perf_event_paranoid %s)\n",
			o->cmd, denied, paranoid);
out:
	if (n > 0)
		plat_events_close(&ev);
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
		die("%s: out of memory", o->cmd);
	*njobs = 0;
	for (size_t i = 0; i < nsel; i++) {
		const struct bench *need = sel[i]->needs ? registry_find(sel[i]->needs) : NULL;

		if (need && !job_listed(jobs, *njobs, need))
			jobs[(*njobs)++] = (struct engine_job){ .b = need, .place = PLACE_NA };
		if (!(sel[i]->flags & BENCH_PLACED)) {
			if (!job_listed(jobs, *njobs, sel[i]))
				jobs[(*njobs)++] = (struct engine_job){ .b = sel[i], .place = PLACE_NA };
			continue;
		}
		for (int k = 0; k < o->nplaces; k++)
			jobs[(*njobs)++] = (struct engine_job){ .b = sel[i], .place = o->places[k] };
	}
	return jobs;
}

struct engine_job *run_jobs(struct run_opts *o, unsigned suite_bits, const struct bench **sel,
			    size_t nsel, size_t *njobs)
{
	default_placements(o, suite_bits);
	return make_jobs(o, sel, nsel, njobs);
}

/*
 * The tables, one row per label (the median over --runs N repetitions,
 * "[N]"), and under them what their intervals hold: the spread between
 * sittings of this host where its history knew it (judge_level_sittings),
 * or this sitting's alone, said once, where a database could have taught it.
 */
static void run_summary(const struct run_info *runs, size_t nruns, int verbose, int stored)
{
	struct run_info *rows;
	int nrows = judge_merge_labels(runs, nruns, &rows);
	size_t wide = 0, levels = 0;

	if (nrows < 0)
		die("run: out of memory merging the runs");
	report_summary(stdout, rows, (size_t)nrows, verbose);
	for (int i = 0; i < nrows; i++)
		for (size_t k = 0; k < rows[i].nresults; k++) {
			levels += result_level_known(&rows[i].results[k]);
			wide += result_value(&rows[i].results[k], JUDGE_SITTINGS_VALUE) != NULL;
		}
	if (wide)
		printf("intervals: %zu of %zu levels take in how far sittings differed on this "
		       "host (its earlier runs)\n", wide, levels);
	else if (stored && levels)
		printf("intervals: this sitting's alone; how far sittings differ on this host is "
		       "learnt once a label\nis measured in two (run again), and widens them\n");
	judge_merge_free(rows, (size_t)nrows);
}

/*
 * Where job i's result goes: with one condition, slot i of the only run;
 * with sides (kbench ab, jobs in pairs A, B; kbench kernels, in groups of
 * a job a kernel), slot i / nsides of its side's.
 */
struct run_sides {
	struct run_info *run[ENGINE_MAX_SIDES];	/* [0] the run (A), [1] B's, ... */
	int64_t *stored[ENGINE_MAX_SIDES];	/* the store's row of each slot, 0 before storing */
	int paired;			/* the number of sides; 0 with one condition */
	/* The host's history, read before this invocation measured: each level's
	   interval takes in its spread between sittings (judge_level_sittings).
	   NULL for ab, whose sides are told apart by pairs, not by sittings. */
	const struct judge_cmp_side *hist;
	const struct stats_sittings *prior;	/* the host's typical spread (judge_sittings_prior) */
};

static struct run_info *run_of(const struct run_sides *rs, const struct engine *e, size_t i,
			       size_t *slot)
{
	*slot = rs->paired ? i / (size_t)rs->paired : i;
	return rs->run[rs->paired ? e->jobs[i].side - 1 : 0];
}

static int run_point_cmp(const void *a, const void *b)
{
	double x = ((const struct sentinel_point *)a)->t, y = ((const struct sentinel_point *)b)->t;

	return (x > y) - (x < y);
}

/*
 * A side's own timeline (kbench ab): the sentinel around its replicas, in
 * time order, malloc'd into *pts.  Each side keeps what its condition did
 * to the sentinel: a condition that slows system calls slows getppid too,
 * and the machine's drift between the two is what the pairs cancel.
 */
static void run_side_timeline(const struct engine *e, int side, struct sentinel_point **pts,
			      size_t *n)
{
	size_t cap = 0;

	*n = 0;
	for (size_t i = 0; i < e->njobs; i++)
		cap += e->jobs[i].side == side ? 2 * e->jr[i].n : 0;
	if (!(*pts = malloc((cap ? cap : 1) * sizeof(**pts))))
		die("ab: out of memory");
	for (size_t i = 0; i < e->njobs; i++)
		for (size_t k = 0; e->jobs[i].side == side && k < e->jr[i].n; k++)
			for (int w = 0; w < 2; w++)
				if (isfinite(e->jr[i].reps[k].around[w].t))
					(*pts)[(*n)++] = e->jr[i].reps[k].around[w];
	qsort(*pts, *n, sizeof(**pts), run_point_cmp);
}

/* Store run s's timeline so far: the engine's, or with two sides its side's. */
static void run_put_timeline(const struct engine *e, struct session *ses, struct run_sides *rs, int s)
{
	struct sentinel_point *pts = e->tl;
	size_t n = e->ntl;

	if (!ses->st || ses->state == SESSION_UNSTORED)
		return;
	if (rs->paired)
		run_side_timeline(e, s + 1, &pts, &n);
	if (store_sentinel_put(ses->st, rs->run[s]->id, pts, n, ses->err) < 0)
		session_store_failed(ses, rs->run[s]);
	if (rs->paired)
		free(pts);
}

/*
 * Merge job i's replicas into its run's result and store that, rewriting
 * what an earlier round stored; its interval takes in the machine's
 * movement over the run so far (the engine's timeline), the whole run's in
 * the last round.  -1 when the store fails: a run that cannot keep its
 * results must not go on measuring for nothing, but what it measured is
 * still merged and printed.
 */
static int run_merge(const struct engine *e, size_t i, const struct run_opts *o,
		     struct session *ses, struct run_sides *rs)
{
	struct replica_cfg cfg = { .precision = o->precision / 100.0, .timeline = e->tl,
				   .ntimeline = e->ntl };
	size_t k;
	struct run_info *run = run_of(rs, e, i, &k);
	struct result merged, *slot = &run->results[k];

	if (replica_merge(e->jobs[i].b, e->jr[i].reps, e->jr[i].n, &cfg, &merged) < 0)
		die("%s: out of memory merging the replicas of %s", o->cmd, e->jobs[i].b->id);
	if (rs->hist) {
		struct stats_sittings st;

		if (judge_compare_sittings(rs->hist, &merged, LEVEL_FAST, &st) < 0)
			die("%s: out of memory", o->cmd);
		judge_level_sittings(&merged, &st, rs->prior);
	}
	/* Said in the result: a figure under a load is not the machine's alone. */
	if (o->load && (merged.status == RES_OK || merged.status == RES_NOISY) &&
	    merged.nvalues < BENCH_MAX_VALUES && !result_value(&merged, "load"))
		result_value_add(&merged, "load", (double)NAN, o->load);
	result_free(slot);
	*slot = merged;
	return session_put(ses, run, &rs->stored[rs->paired ? e->jobs[i].side - 1 : 0][k], slot);
}

/*
 * One run (with two conditions, a run of each side): the engine's rounds
 * over the jobs, each job's result merged and stored after every round it
 * took a replica in, with the sentinel's timeline so far.  A signal stops
 * it (session_stop) after storing what was measured; a failed store, or a
 * switch of condition that failed, stops it after merging what was
 * measured, to be printed.
 */
static enum engine_state run_rounds(const struct run_opts *o, struct engine *e,
				    const struct engine_job *jobs, size_t njobs, struct session *ses,
				    struct run_sides *rs, struct progress *prog)
{
	enum engine_state st = ENGINE_MORE;
	int nruns = rs->paired ? rs->paired : 1;

	for (int s = 0; s < nruns; s++)
		if (!(rs->stored[s] = calloc(njobs ? njobs : 1, sizeof(*rs->stored[s]))))
			die("%s: out of memory", o->cmd);
	engine_begin(e, jobs, njobs, o->replicas);
	while (st == ENGINE_MORE && ses->state == SESSION_GOING) {
		st = engine_round(e, progress_show, prog);
		if (st == ENGINE_INTERRUPTED || st == ENGINE_STOPPED)
			session_stop(ses);
		/* Only what took a replica this round: a rested job's result stands. */
		/* After the store failed, the rest is still merged, to be printed. */
		for (size_t i = 0; i < njobs; i++)
			if (engine_fresh(e, i))
				(void)run_merge(e, i, o, ses, rs);
		for (int s = 0; s < nruns; s++)
			run_put_timeline(e, ses, rs, s);
	}
	/* Stopped early: a figure from fewer replicas than planned says so, stored too. */
	for (size_t i = 0; (st == ENGINE_INTERRUPTED || st == ENGINE_STOPPED) && i < njobs; i++) {
		size_t k;
		struct run_info *run = run_of(rs, e, i, &k);
		struct result *r = &run->results[k];

		if (!e->jr[i].n || e->jr[i].n >= engine_planned(e, i) ||
		    (r->status != RES_OK && r->status != RES_NOISY))
			continue;
		snprintf(r->reason, sizeof(r->reason), "partial: %zu of %zu replicas, the run was %s",
			 e->jr[i].n, engine_planned(e, i),
			 st == ENGINE_STOPPED ? "stopped" : "interrupted");
		if (ses->state != SESSION_UNSTORED)
			(void)session_put(ses, run, &rs->stored[rs->paired ? jobs[i].side - 1 : 0][k], r);
	}
	/* The jobs measured, in order; a job never reached (Ctrl-C) is left out. */
	for (int s = 0; s < nruns; s++)
		rs->run[s]->nresults = 0;
	for (size_t i = 0; i < njobs; i++) {
		size_t k;
		struct run_info *run = run_of(rs, e, i, &k);

		if (e->jr[i].n)
			run->results[run->nresults++] = run->results[k];
	}
	if (rs->paired) {
		for (int s = 0; s < nruns; s++)
			run_side_timeline(e, s + 1, &rs->run[s]->sentinel, &rs->run[s]->nsentinel);
		engine_end(e, NULL, NULL);
	} else {
		engine_end(e, &rs->run[0]->sentinel, &rs->run[0]->nsentinel);
	}
	for (int s = 0; s < nruns; s++) {
		free(rs->stored[s]);
		rs->stored[s] = NULL;
	}
	return st;
}

/*
 * The options run and ab share, into t (room for RUN_NOPTS); what only one
 * of them takes is named by the command.  The number filled.
 */
#define RUN_NOPTS 40
static size_t run_options(struct run_opts *o, struct opt *t)
{
	const struct opt shared[] = {
		{ "suite", OPT_STRING, &o->suite, "S", "quick, standard (default), full, lmbench, ...", 0, 0, 0 },
		{ "only", OPT_STRING, &o->only, "GLOB,...", "only instances whose id matches a glob", 0, 0, 0 },
		{ "precision", OPT_DOUBLE, &o->precision, "PCT", "wanted 95% CI half-width, % of the median (1)", 0.01, 50, 0 },
		{ "max-time", OPT_DOUBLE, &o->max_time, "SECONDS", "sampling budget per instance (quick 0.8, else 2.25)", 0.01, 3600, 0 },
		{ "placement", OPT_STRING, &o->placement, "P,...", "same, spread or none: where the ends of a benchmark between processes run (quick same, full all three, else same,spread)", 0, 0, 0 },
		{ "parallel", OPT_INT, &o->parallel, "P", "run P copies of each instance at once (1)", 1, 128, 0 },
		{ "max-tasks", OPT_INT, &o->max_tasks, "N", "scale.* curves: 1 to N tasks (the online CPUs)", 1, SCALE_MAX_TASKS, 0 },
		{ "msg-size", OPT_SIZE, &o->msg_size, "SIZE", "message (latency) or chunk (bandwidth) size, e.g. 64k", 1, MSG_SIZE_MAX, 0 },
		{ "size", OPT_SIZE, &o->size, "SIZE", "buffer, file or mapping size of memory, file and VM benchmarks, e.g. 64m", 4096, SIZE_MAX_BYTES, 0 },
		{ "sample-time", OPT_DOUBLE, &o->sample_ms, "MS", "length of one sample (10)", 0.1, 10000, 0 },
		{ "watchdog", OPT_DOUBLE, &o->watchdog, "SECONDS", "kill an instance running longer (10x max-time + 30)", 0.1, 86400, 0 },
		OPT_ROW_CPUS(o->cpus),
		OPT_ROW_OFFLINE_CPUS(o->offline_cpus),
		{ "tmpdir", OPT_STRING, &o->tmpdir, "DIR", "where private temporary directories go ($TMPDIR or /tmp)", 0, 0, 0 },
		OPT_ROW_DB(o->db),
		OPT_ROW_NO_STORE(o->no_store),
		OPT_ROW_FORMAT(o->format, "text, json or gbench (Google Benchmark's JSON)"),
		{ "json", OPT_FLAG, &o->json, NULL, "print one JSON document instead of tables", 0, 0, 0 },
		{ "quiet", OPT_FLAG, &o->quiet, NULL, "no warnings or progress on stderr", 0, 0, 0 },
		{ "verbose", OPT_FLAG, &o->verbose, NULL, "every note on every figure, not only the marked ones", 0, 0, 'v' },
	};
	const struct opt run_only[] = {
		{ "label", OPT_STRING, &o->label, "L", "name what is measured (default: OS and release)", 0, 0, 0 },
		{ "runs", OPT_STRING, &o->runs_arg, "N|auto", "repeat the selection N times; auto: until a comparison could see --target", 0, 0, 0 },
		{ "target", OPT_DOUBLE, &o->target, "PCT", "with --runs auto: the change a comparison of two such sides should see (5)", 0.1, 50, 0 },
		{ "max-runs", OPT_INT, &o->max_runs, "N", "with --runs auto: at most N runs (20)", AUTO_MIN_RUNS, 1000, 0 },
		{ "replicas", OPT_INT, &o->replicas, "N", "measure each instance N times spread over the run (quick 4, else 8)", 1, 100, 0 },
		{ "load", OPT_STRING, &o->load, "NAME", "measure under one of contest's loads (process_load, io_load, ...), working through the whole run: wake.* under a stress", 0, 0, 0 },
		{ "events", OPT_FLAG, &o->events, NULL, "count context switches, migrations, page faults (and cycles, instructions, misses where a PMU is) per operation", 0, 0, 0 },
	};
	const struct opt ab_only[] = {
		{ "a", OPT_STRING, &o->cond[1], "CMD", "shell command that puts the machine in condition A, run at every switch to A", 0, 0, 0 },
		{ "b", OPT_STRING, &o->cond[2], "CMD", "shell command that puts the machine in condition B, run at every switch to B", 0, 0, 0 },
		{ "wrap-a", OPT_STRING, &o->wrap[1], "CMD", "command prefix A's measuring process runs through: nice -n 5, taskset -c 0, env X=1", 0, 0, 0 },
		{ "wrap-b", OPT_STRING, &o->wrap[2], "CMD", "command prefix B's measuring process runs through", 0, 0, 0 },
		{ "restore", OPT_STRING, &o->restore, "CMD", "shell command run once at the end, also after Ctrl-C or a kill of kbench", 0, 0, 0 },
		{ "timeout", OPT_DOUBLE, &o->timeout, "SECONDS", "stop a switch or the restore that takes longer (120)", 0.1, 86400, 0 },
		{ "label-a", OPT_STRING, &o->labels[1], "L", "A's label (default: OS and release, then \" A\")", 0, 0, 0 },
		{ "label-b", OPT_STRING, &o->labels[2], "L", "B's label (default: OS and release, then \" B\")", 0, 0, 0 },
		{ "rounds", OPT_INT, &o->replicas, "N", "rounds: each measures every instance once under A and once under B (10)", 2, 100, 0 },
		{ "seed", OPT_INT, &o->seed, "N", "the seed of each round's order of A and B (default: drawn, and printed)", 0, 2147483647, 0 },
		OPT_ROW_PERCENTILE(o->percentile_arg),
	};
	int ab = strcmp(o->cmd, "ab") == 0;
	const struct opt *own = ab ? ab_only : run_only;
	size_t nown = ab ? sizeof(ab_only) / sizeof(*ab_only) : sizeof(run_only) / sizeof(*run_only);
	size_t n = 0;

	for (size_t k = 0; k < nown; k++)
		t[n++] = own[k];
	for (size_t k = 0; k < sizeof(shared) / sizeof(*shared); k++)
		t[n++] = shared[k];
	if (n >= RUN_NOPTS)
		BUG("run: %zu options, room for %d", n, RUN_NOPTS - 1);
	t[n] = (struct opt){ 0 };
	return n;
}

/*
 * The scalability rows up to --max-tasks tasks, the online CPUs when it is
 * not given: a curve beyond the CPUs is asked for, not run by default.
 * When --only named scale rows and all were beyond it, one line says so.
 */
static void run_select_tasks(const struct run_opts *o, const struct bench **sel, size_t *nsel)
{
	int max = o->max_tasks, online = plat_ncpu_online(), dropped = 0;
	size_t kept = 0;

	if (max == 0)
		max = online > 0 ? (online < SCALE_MAX_TASKS ? online : SCALE_MAX_TASKS) : 1;
	for (size_t i = 0; i < *nsel; i++) {
		if (sel[i]->tasks > max) {
			dropped++;
			continue;
		}
		sel[kept++] = sel[i];
	}
	*nsel = kept;
	if (kept == 0 && dropped)
		die_usage("%s: --only '%s': every scale point it names has more tasks than %d (%s); "
			  "--max-tasks up to %d runs them", o->cmd, o->only ? o->only : "",
			  max, o->max_tasks ? "--max-tasks" : "the online CPUs", SCALE_MAX_TASKS);
}

/* The selection, as run and ab take it from --only and --suite: dies when it is empty. */
const struct bench **run_select(const struct run_opts *o, unsigned suite_bits, size_t *nsel)
{
	char err[ERRBUF_LEN];
	/* --only without --suite looks at every instance, so any id can be named. */
	const struct bench **sel = registry_select(o->only && !o->suite ? 0 : suite_bits, o->only,
						   nsel, err);

	if (!sel)
		die_usage("%s: %s", o->cmd, err);
	run_select_tasks(o, sel, nsel);
	if (*nsel == 0 && o->only)
		die_usage("%s: no benchmark of suite '%s' matches '%s'", o->cmd, o->suite, o->only);
	if (*nsel == 0)
		die_usage("%s: suite '%s' has no benchmarks yet", o->cmd, o->suite);
	return sel;
}

/*
 * --runs auto.  After AUTO_MIN_RUNS runs, and after each one since, every
 * job is looked at: its run medians so far, as one side of a comparison
 * with another side measured the same way in another sitting (Welch's on
 * the runs, widened by the spread between sittings the host's history
 * shows: stats_detectable_side), would see a change of the target or not.
 * The next run measures only the jobs that would not yet (and what they
 * need); a job whose sittings alone hide the target is left, as no count
 * of runs can help it.
 */
enum auto_state { AUTO_MORE, AUTO_THERE, AUTO_FLOOR, AUTO_NONE };

struct run_auto {
	const struct judge_cmp_side *hist;	/* the host's history (cli_history) */
	size_t known;			/* jobs whose spread between sittings the history knew */
	enum auto_state *state;		/* a job each */
	double *d, *floor;		/* the detectable change and its sittings' part, fractions */
	size_t *n;			/* the job's runs with a figure */
};

/* Job j's figures over the session's runs into meds (room for ses->nruns), and its first result. */
static size_t auto_figures(const struct session *ses, const struct engine_job *job, double *meds,
			   const struct result **key)
{
	size_t n = 0;

	*key = NULL;
	for (size_t i = 0; i < ses->nruns; i++)
		for (size_t k = 0; k < ses->runs[i].nresults; k++) {
			const struct result *r = &ses->runs[i].results[k];

			if (strcmp(r->id, job->b->id) != 0 || r->placement != job->place ||
			    (*key && !result_same_instance(r, *key)) ||
			    (r->status != RES_OK && r->status != RES_NOISY) || !(result_figure(r) > 0))
				continue;
			*key = *key ? *key : r;
			meds[n++] = result_figure(r);
		}
	return n;
}

static void run_auto_look(const struct run_opts *o, struct session *ses,
			  const struct engine_job *jobs, size_t njobs, struct run_auto *au)
{
	const double target = log1p(o->target / 100);
	double *meds = malloc((ses->nruns + 1) * sizeof(*meds));

	if (!meds)
		die("%s: out of memory", o->cmd);
	au->known = 0;
	for (size_t j = 0; j < njobs; j++) {
		struct stats_sittings st;
		const struct result *key;
		double fl, d;

		au->n[j] = auto_figures(ses, &jobs[j], meds, &key);
		if (au->n[j] < 2) {
			au->state[j] = au->n[j] ? AUTO_MORE : AUTO_NONE;
			continue;
		}
		if (judge_compare_sittings(au->hist, key, LEVEL_FAST, &st) < 0)
			die("%s: out of memory", o->cmd);
		au->known += st.df > 0;
		d = stats_detectable_side(meds, au->n[j], &st, &fl);
		au->d[j] = expm1(d);
		au->floor[j] = expm1(fl);
		au->state[j] = d <= target ? AUTO_THERE : fl > target ? AUTO_FLOOR : AUTO_MORE;
	}
	free(meds);
}

/* The jobs the next run measures into left: those short of the target, and what they need. */
static size_t run_auto_jobs(const struct engine_job *jobs, size_t njobs, const struct run_auto *au,
			    struct engine_job *left)
{
	size_t n = 0;

	for (size_t i = 0; i < njobs; i++) {
		int keep = au->state[i] == AUTO_MORE;

		for (size_t k = 0; k < njobs && !keep; k++)
			keep = au->state[k] == AUTO_MORE && jobs[k].b->needs &&
			       !strcmp(jobs[k].b->needs, jobs[i].b->id);
		if (keep)
			left[n++] = jobs[i];
	}
	return n;
}

/* The jobs in one state, as "id place (d%)", the first few. */
static void auto_list(FILE *out, const char *head, const struct engine_job *jobs, size_t njobs,
		      const struct run_auto *au, enum auto_state want, int floor)
{
	size_t n = 0, shown = 0;

	for (size_t j = 0; j < njobs; j++)
		n += au->state[j] == want;
	if (!n)
		return;
	fprintf(out, "%s (%zu):", head, n);
	for (size_t j = 0; j < njobs && shown < 8; j++)
		if (au->state[j] == want)
			fprintf(out, "%s %s%s%s (%.1f%%)", shown++ ? "," : "", jobs[j].b->id,
				jobs[j].place == PLACE_NA ? "" : " ", place_name(jobs[j].place),
				100 * (floor ? au->floor[j] : au->d[j]));
	fprintf(out, "%s\n", n > shown ? ", ..." : "");
}

/* What --runs auto got to, under the tables. */
static void run_auto_report(FILE *out, const struct run_opts *o, const struct engine_job *jobs,
			    size_t njobs, const struct run_auto *au, int runs)
{
	size_t there = 0, measured = 0;

	for (size_t j = 0; j < njobs; j++) {
		there += au->state[j] == AUTO_THERE;
		measured += au->state[j] != AUTO_NONE;
	}
	fprintf(out, "\nruns auto: %zu of %zu figures would see a change of %g%% against a side "
		"measured the same way,\nafter %d runs (from the %dth on, only those short of it "
		"were measured)\n", there, measured, o->target, runs, AUTO_MIN_RUNS + 1);
	auto_list(out, "not there yet, within --max-runs", jobs, njobs, au, AUTO_MORE, 0);
	auto_list(out, "not there in any number of runs, as sittings on this host differ by more",
		  jobs, njobs, au, AUTO_FLOOR, 1);
	if (!au->known)
		fprintf(out, "how far sittings differ on this host is not known (no label measured "
			"twice): the runs'\nspread alone, which a comparison with another sitting "
			"may find too narrow\n");
}

/*
 * run --load NAME: the load, checked before anything is touched; dies
 * with one line for a name that is no load with a body.  NULL without it.
 */
static const struct load *run_load_find(const struct run_opts *o)
{
	const struct load *ld = o->load ? load_find(o->load) : NULL;
	char known[512] = "";

	/* A hidden one (tick_load) is the tests': taken by name, never listed. */
	if (!o->load || (ld && ld->run))
		return ld;
	for (size_t i = 0; i < load_count(); i++)
		if (load_table()[i].run && !(load_table()[i].flags & LOAD_HIDDEN))
			snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s",
				 known[0] ? ", " : "", load_table()[i].name);
	die_usage("run: --load: '%s' is no load that runs (loads: %s)", o->load, known);
}

/*
 * The load started before the first figure and working until the last
 * (contest_bg_start), its processes on the CPUs kbench may use; dies with
 * one line when it cannot start.
 */
static void run_load_start(const struct run_opts *o, const struct load *ld, struct contest_bg *bg)
{
	struct contest_cfg cfg = { .tmproot = o->tmpdir, .scale = 1.0, .settle_s = 0.5 };
	char err[ERRBUF_LEN];
	uint64_t total, avail;

	cfg.ncpu = cli_cpus_count();
	if (plat_memory(&total, &avail) == 0)
		cfg.mem_available = avail;
	if (contest_bg_start(&cfg, ld, bg, err) < 0)
		die("run: --load %s: %s", o->load, err);
	if (!o->quiet)
		fprintf(stderr, "run: under %s, working through the whole run\n", ld->name);
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = { .cmd = "run", .runs = 1, .precision = 1.0,
			      .sample_ms = 10, .parallel = 1 };
	struct opt opts[RUN_NOPTS];
	unsigned suite_bits;
	size_t nsel, njobs, nfail = 0;
	struct engine_job *jobs;
	char more[96];
	struct session ses;
	struct cli_cpus cpus;
	struct engine eng;
	struct runner_cfg rc;
	struct progress prog = { 0 };
	const struct bench **sel;
	struct run_auto au = { 0 };
	struct run_info *hruns = NULL;
	struct judge_cmp_side hist = { "history", NULL, 0 };
	struct stats_sittings prior;
	struct engine_job *left = NULL;
	struct contest_bg bg;
	const struct load *ld;
	int rep;

	run_options(&o, opts);
	if (opt_parse(cli_find("run"), opts, argc, argv) > 0)
		die_usage("run: unexpected argument '%s'", argv[0]);
	run_validate(&o, &suite_bits);
	sel = run_select(&o, suite_bits, &nsel);
	ld = run_load_find(&o);

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
	run_harness(&o, suite_bits, &rc);
	if (o.events)
		events_absent(&o);
	cli_engine_open(&eng, "run", &rc, 1, &cpus);
	session_open(&ses, "run", o.db, o.no_store, o.label, &eng.pre, !o.quiet, (size_t)o.runs);
	if (ld)
		run_load_start(&o, ld, &bg);
	/* Before anything of this invocation is stored: the sittings it learns from are others. */
	if (ses.st) {
		const char *host = ses.si.host;
		char err[ERRBUF_LEN];
		int nh = cli_history(ses.st, &host, 1, &hruns, err);

		/* Unreadable: the intervals are this sitting's alone, as said under the tables. */
		hist.nruns = nh > 0 ? (size_t)nh : 0;
		hist.runs = nh > 0 ? hruns : NULL;
	}
	if (judge_sittings_prior(&hist, &prior) < 0)
		die("run: out of memory");
	au.hist = &hist;

	prog.on = !o.quiet && isatty(STDERR_FILENO);
	prog.plain = progress_plain();
	/* --runs auto: the first runs planned; each later one adds what it measures. */
	prog.total = njobs * (size_t)(o.runs_auto ? AUTO_MIN_RUNS : o.runs) * (size_t)o.replicas;
	prog.start = timer_now();
	prog.per_instance_s = o.max_time / o.replicas + 0.1;
	if (o.runs_auto &&
	    (!(au.state = calloc(njobs, sizeof(*au.state))) || !(au.d = calloc(njobs, sizeof(*au.d))) ||
	     !(au.floor = calloc(njobs, sizeof(*au.floor))) || !(au.n = calloc(njobs, sizeof(*au.n))) ||
	     !(left = calloc(njobs, sizeof(*left)))))
		die("run: out of memory");

	/* Repetitions outside, then the engine's rounds, instances inside. */
	for (rep = 0; rep < o.runs && ses.state == SESSION_GOING; rep++) {
		const struct engine_job *now = jobs;
		size_t nnow = njobs;

		if (o.runs_auto && rep >= AUTO_MIN_RUNS) {
			run_auto_look(&o, &ses, jobs, njobs, &au);
			if (!(nnow = run_auto_jobs(jobs, njobs, &au, left)))
				break;
			now = left;
			prog.total += nnow * (size_t)o.replicas;
		}
		struct run_sides rs = { { session_begin(&ses, nnow) }, { 0 }, 0, &hist, &prior };

		(void)run_rounds(&o, &eng, now, nnow, &ses, &rs, &prog);
		for (size_t i = 0; i < rs.run[0]->nresults; i++)
			nfail += rs.run[0]->results[i].status == RES_FAIL;
		session_end(&ses, rs.run[0]);
	}
	/* Where the last run left each figure (with what the history knew before it). */
	if (o.runs_auto)
		run_auto_look(&o, &ses, jobs, njobs, &au);
	progress_clear(&prog);
	if (ld) {
		char err[ERRBUF_LEN];

		/* The figures stand as measured, but not as measured under the load throughout. */
		if (contest_bg_stop(&bg, err) < 0)
			fprintf(stderr, "kbench: run: warning: --load %s: %s; the figures after it were "
				"not all measured under it\n", o.load, err);
	}
	cli_cpus_restore(&cpus);
	session_close(&ses);

	if (o.json)
		cli_runs_out("run", o.fmt, &ses, 0);
	else
		run_summary(ses.runs, ses.nruns, o.verbose, ses.stores);
	if (o.runs_auto && !o.json)
		run_auto_report(stdout, &o, jobs, njobs, &au, rep);
	/* The table first, then what happened to it, when both go to a terminal. */
	fflush(stdout);
	snprintf(more, sizeof(more), ", %zu of %zu replicas not measured", prog.total - prog.done,
		 prog.total);
	store_runs_free(hruns, hist.nruns);
	free(au.state);
	free(au.d);
	free(au.floor);
	free(au.n);
	free(left);
	free(sel);
	free(jobs);
	return session_finish(&ses, nfail, more, o.quiet);
}

/* ---- kbench ab ---- */

/* Rounds when --rounds is not given: each a replica of every instance a side. */
#define AB_ROUNDS 10
/* The longest a switch or the restore may take without --timeout: it writes a setting, not a build. */
#define AB_SWITCH_TIMEOUT 120.0
/* The smallest change the comparison calls significant, as compare's default. */
#define AB_THRESHOLD 0.02

/* What switching between the conditions needs (the engine's cond). */
struct ab {
	const struct run_opts *o;
	struct session *ses;
	struct runner_cfg *rc;		/* the engine's: its wrap is the side's */
	char root[PATH_MAX];		/* the private directory: the commands' TMPDIR and log */
	char tmp[PATH_MAX + 8], log[PATH_MAX + 16];
	struct runner_janitor jan;
	struct guard guard;
	int switches;			/* switch commands run */
};

/* The engine's cond: the machine into side (1 A, 2 B), by its command; its wrap for what follows. */
static int ab_switch(void *arg, int side)
{
	struct ab *a = arg;
	char what[8];

	a->rc->wrap = a->o->wrap[side];
	if (!a->o->cond[side])
		return 0;
	snprintf(what, sizeof(what), "%c", side == 1 ? 'a' : 'b');
	a->switches++;
	return session_untimed(a->ses, what, a->o->cond[side], a->log, a->tmp, a->o->timeout,
			       &a->jan) == 0 ? 0 : -1;
}

/*
 * The shell's control operators outside quotes, which end the prefix: with
 * one (nice -n 5 &, env X=1; ...) the worker would run after the wrap, or
 * beside it, not through it, and be measured unwrapped.  The first found,
 * or NULL.
 */
static const char *ab_wrap_operator(const char *wrap)
{
	static const char *const ops[] = { "&", ";", "|", "(", ")", "\n", "`" };
	char quote = 0;

	for (const char *p = wrap; *p; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
			else if (quote == '"' && *p == '\\' && p[1])
				p++;
			continue;
		}
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p == '\'' || *p == '"') {
			quote = *p;
			continue;
		}
		for (size_t i = 0; i < sizeof(ops) / sizeof(*ops); i++)
			if (*p == ops[i][0])
				return ops[i];
	}
	return NULL;
}

/*
 * A wrap must execute what follows it, in the process kbench started, as
 * the worker is: tried once before anything is measured, so that a
 * mistyped one is a line now rather than every replica failing, and a
 * wrap that forks what follows (a script without exec) is refused rather
 * than measured as something else.  What follows it here is a shell that
 * prints its own process id: a wrap that executes it prints kbench's
 * child's.  0, or -1 with why filled.
 */
static int ab_try_wrap(const char *wrap, char *why, size_t len)
{
	char script[1100], out[64] = "", e[128];
	int p[2], st = 0;
	ssize_t got = 0, k;
	pid_t pid;

	snprintf(script, sizeof(script), "exec %s /bin/sh -c 'echo $$'", wrap);
	if (plat_pipe_cloexec(p) < 0) {
		snprintf(why, len, "cannot make a pipe: %s", err_errno_text(errno, e, sizeof(e)));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(why, len, "cannot fork: %s", err_errno_text(errno, e, sizeof(e)));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		int in = open("/dev/null", O_RDWR);

		plat_child_signals();
		if (in < 0 || dup2(in, 0) < 0 || dup2(p[1], 1) < 0 || dup2(in, 2) < 0)
			_exit(126);
		execl("/bin/sh", "sh", "-c", script, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	while ((size_t)got < sizeof(out) - 1 &&
	       ((k = read(p[0], out + got, sizeof(out) - 1 - (size_t)got)) > 0 || (k < 0 && errno == EINTR)))
		got += k > 0 ? k : 0;
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	out[got] = '\0';
	if (WIFSIGNALED(st)) {
		snprintf(why, len, "it was killed by signal %d on a command after it", WTERMSIG(st));
		return -1;
	}
	if (WEXITSTATUS(st) != 0) {
		snprintf(why, len, "it exited %d on a command after it", WEXITSTATUS(st));
		return -1;
	}
	if (strtol(out, NULL, 10) != (long)pid) {
		snprintf(why, len, "it ran the command after it in another process, not by exec");
		return -1;
	}
	return 0;
}

static void ab_check_wrap(const char *opt, const char *wrap)
{
	char why[ERRBUF_LEN];
	const char *op;

	if (!wrap)
		return;
	if (strlen(wrap) > 900)
		die_usage("ab: --%s: longer than 900 characters", opt);
	if (!*wrap || strspn(wrap, " \t") == strlen(wrap))
		die_usage("ab: --%s: empty; give a command prefix such as 'nice -n 5'", opt);
	if ((op = ab_wrap_operator(wrap)) != NULL)
		die_usage("ab: --%s '%s': '%s' ends the prefix, so the worker would not run through it: "
			  "give a prefix such as 'nice -n 5' or 'taskset -c 0'", opt, wrap,
			  op[0] == '\n' ? "a newline" : op);
	if (ab_try_wrap(wrap, why, sizeof(why)) < 0)
		die_usage("ab: --%s '%s' does not run a command after it (%s): give a prefix such "
			  "as 'nice -n 5' or 'taskset -c 0'", opt, wrap, why);
}

static void ab_validate(struct run_opts *o)
{
	if (!o->cond[1] && !o->cond[2] && !o->wrap[1] && !o->wrap[2])
		die_usage("ab: no condition: give --a/--b (a command that switches the machine) or "
			  "--wrap-a/--wrap-b (a prefix the measuring process runs through)");
	for (int s = 1; s <= 2; s++) {
		if (o->cond[s] && (!*o->cond[s] || strspn(o->cond[s], " \t") == strlen(o->cond[s])))
			die_usage("ab: --%c: empty; give a shell command", s == 1 ? 'a' : 'b');
		if (o->labels[s])
			cli_label_check("ab", s == 1 ? "--label-a" : "--label-b", o->labels[s]);
	}
	if (o->labels[1] && o->labels[2] && strcmp(o->labels[1], o->labels[2]) == 0)
		die_usage("ab: --label-a and --label-b are both '%s': the two sides need two labels",
			  o->labels[1]);
	ab_check_wrap("wrap-a", o->wrap[1]);
	ab_check_wrap("wrap-b", o->wrap[2]);
}

/*
 * The jobs of run's, each nsides times in a row: under A (side 1), then
 * under B (side 2), and so on (the engine orders each group).
 */
struct engine_job *ab_jobs(const struct engine_job *one, size_t n, int nsides)
{
	struct engine_job *jobs = calloc((size_t)nsides * n + 1, sizeof(*jobs));

	if (!jobs)
		die("ab: out of memory");
	for (size_t i = 0; i < n; i++)
		for (int s = 0; s < nsides; s++) {
			jobs[(size_t)nsides * i + (size_t)s] = one[i];
			jobs[(size_t)nsides * i + (size_t)s].side = s + 1;
		}
	return jobs;
}

/*
 * The end of a session, whatever ended it: the restore command (guard_run:
 * a second Ctrl-C does not cut it short), then, once it worked, the guard
 * told that nothing is left to undo.  One that failed is the guard's to
 * run again at once, as after a kill of kbench, and is waited for; one
 * line says how both went.  0, or -1 when the restore failed (said).
 */
static int ab_restore(struct ab *a)
{
	char why[ERRBUF_LEN], tail[ERRBUF_LEN] = "";
	struct guard_ran ran;
	int again;

	if (!a->o->restore) {
		guard_done(&a->guard);
		return 0;
	}
	if (guard_run(a->o->restore, a->log, a->o->timeout, &a->guard, &ran) == 0) {
		if (ran.log_err && !a->o->quiet)
			fprintf(stderr, "kbench: ab: warning: --restore's output was not kept: cannot open "
				"'%s': %s\n", a->log, err_errno_text(ran.log_err, why, sizeof(why)));
		guard_done(&a->guard);
		return 0;
	}
	guard_ran_text(&ran, why, sizeof(why));
	if (ran.ran && !ran.log_err)
		group_log_tail(a->log, 3, tail, sizeof(tail));
	again = guard_finish(&a->guard);
	error("ab: --restore '%s' failed: %s%s%s; %s", a->o->restore, why,
	      tail[0] ? "; its last output: " : "", tail,
	      again == 0 ? "the guard ran it again, and that worked"
			 : "the guard ran it again, and that failed too: the machine may be left as the "
			   "last switch set it");
	return -1;
}

/*
 * Why a figure of both sides was not tested in pairs, in one line under
 * the comparison: ab's point is the pairs, and the table's "~" alone would
 * say only that fewer than 3 runs a side made replicas the test.
 */
static void ab_unpaired(const struct run_opts *o, const struct judge_cmp_row *rows, size_t nrows,
			size_t nsides, unsigned flags)
{
	const char *instead = flags & JUDGE_CMP_PAIRS_ONLY ?
			      "each round boots anew, so they cannot tell" :
			      "their replicas were compared instead";

	size_t both = 0, unpaired = 0;

	for (size_t i = 0; i < nrows; i++)
		for (size_t s = 1; s < nsides; s++)
			if (rows[i].cell[0].present && rows[i].cell[s].present) {
				both++;
				unpaired += rows[i].cell[s].test != CMP_TEST_PAIRED;
			}
	if (!unpaired)
		return;
	if (o->replicas < 3)
		printf("not compared in pairs: a paired test needs 3 rounds or more, and --rounds %d "
		       "gives %d; %s\n", o->replicas, o->replicas,
		       flags & JUDGE_CMP_PAIRS_ONLY ? "each round boots anew, so they cannot tell" :
		       "the sides' replicas were compared instead");
	else
		printf("%zu of %zu figures not compared in pairs: fewer than 3 of the %d rounds had a "
		       "replica of both sides within the machine's state (a replica left out or failed "
		       "takes its round with it); %s\n", unpaired, both, o->replicas, instead);
}

/*
 * What ab prints at its end: the two sides' tables, then B against A
 * instance by instance, as `compare A B` would.
 */
void ab_report(const struct run_opts *o, const struct session *ses, unsigned flags)
{
	struct judge_cmp_side sides[ENGINE_MAX_SIDES];
	struct judge_cmp_row *rows = NULL;
	size_t nrows = 0, n = ses->nruns;

	run_summary(ses->runs, ses->nruns, o->verbose, 0);
	if (n < 2 || n > ENGINE_MAX_SIDES)
		return;
	/* After the tables and the store: they keep the distributions whole. */
	if (o->percentile > 0) {
		struct run_info *r[ENGINE_MAX_SIDES];
		size_t each[ENGINE_MAX_SIDES];

		for (size_t s = 0; s < n; s++) {
			r[s] = &ses->runs[s];
			each[s] = 1;
		}
		cli_percentile_apply(o->cmd, o->percentile, r, each, n, o->quiet);
	}
	for (size_t s = 0; s < n; s++)
		sides[s] = (struct judge_cmp_side){ ses->runs[s].label, &ses->runs[s], 1 };
	if (judge_compare_build(sides, n, AB_THRESHOLD, flags, &rows, &nrows) < 0)
		die("%s: out of memory", o->cmd);
	printf("\n");
	if (report_compare_text(stdout, sides, n, rows, nrows, AB_THRESHOLD, 0) < 0)
		die("%s: out of memory", o->cmd);
	ab_unpaired(o, rows, nrows, n, flags);
	free(rows);
}

size_t ab_rounds(const struct run_opts *o, struct engine *e, const struct engine_job *jobs,
		 size_t njobs, struct session *ses, struct run_info *const *runs, int nsides,
		 char *more, size_t len)
{
	struct run_sides rs = { { NULL }, { NULL }, nsides, NULL, NULL };
	struct progress prog = { 0 };
	size_t nfail = 0;

	if (nsides < 2 || nsides > ENGINE_MAX_SIDES)
		BUG("%s: rounds of %d sides", o->cmd, nsides);
	for (int s = 0; s < nsides; s++)
		rs.run[s] = runs[s];
	prog.on = !o->quiet && isatty(STDERR_FILENO);
	prog.plain = progress_plain();
	prog.total = njobs * (size_t)o->replicas;
	prog.start = timer_now();
	prog.per_instance_s = o->max_time / o->replicas + 0.1;
	/* A switch that failed said so and stopped the session: a failure, what finished stored. */
	nfail += run_rounds(o, e, jobs, njobs, ses, &rs, &prog) == ENGINE_STOPPED;
	for (int s = 0; s < nsides; s++)
		for (size_t i = 0; i < rs.run[s]->nresults; i++)
			nfail += rs.run[s]->results[i].status == RES_FAIL;
	/* The last side's first: an interrupted run with nothing stored is dropped only when it is the last. */
	for (int s = nsides - 1; s >= 0; s--)
		session_end(ses, rs.run[s]);
	progress_clear(&prog);
	snprintf(more, len, ", %zu of %zu replicas not measured", prog.total - prog.done, prog.total);
	return nfail;
}

int cmd_ab(int argc, char **argv)
{
	struct run_opts o = { .cmd = "ab", .runs = 1, .precision = 1.0, .sample_ms = 10,
			      .parallel = 1, .replicas = AB_ROUNDS, .seed = -1,
			      .timeout = AB_SWITCH_TIMEOUT };
	struct opt opts[RUN_NOPTS];
	unsigned suite_bits;
	size_t nsel, none, njobs, nfail = 0;
	struct engine_job *one, *jobs;
	char more[96], labels[2][128];
	struct session ses;
	struct cli_cpus cpus;
	struct engine eng;
	struct runner_cfg rc;
	struct ab a = { 0 };
	struct run_info *side_a, *side_b;
	const struct bench **sel;
	uint64_t seed;

	run_options(&o, opts);
	if (opt_parse(cli_find("ab"), opts, argc, argv) > 0)
		die_usage("ab: unexpected argument '%s'", argv[0]);
	run_validate(&o, &suite_bits);
	ab_validate(&o);
	o.percentile = cli_percentile("ab", o.percentile_arg);
	sel = run_select(&o, suite_bits, &nsel);
	seed = o.seed >= 0 ? (uint64_t)o.seed : (timer_now() ^ ((uint64_t)getpid() << 32)) % 2147483648u;

	runner_catch_signals();
	runner_catch_stop();
	/* The guard first: a restore command must run even if kbench is killed from now on. */
	a.o = &o;
	a.ses = &ses;
	a.rc = &eng.rc;
	if (o.restore && (guard_start(&a.guard) < 0 ||
			  guard_add_command(&a.guard, o.restore, o.timeout) < 0)) {
		char e[128];

		die("ab: cannot start the guard that runs --restore should kbench be killed: %s",
		    err_errno_text(errno, e, sizeof(e)));
	}
	if (!o.restore)
		a.guard = (struct guard){ -1, -1, 0 };
	cli_cpus_apply("ab", o.cpus, o.offline_cpus, &cpus);
	default_placements(&o, suite_bits);
	one = make_jobs(&o, sel, nsel, &none);
	jobs = ab_jobs(one, none, 2);
	njobs = 2 * none;
	run_harness(&o, suite_bits, &rc);
	/*
	 * The instance's budget is shared by both sides, so that a session
	 * costs what a run of twice the replicas does rather than two runs:
	 * a pair's ratio needs its two replicas next to each other, not long.
	 */
	rc.harness.max_time_ns /= 2;
	cli_engine_open(&eng, "ab", &rc, 1, &cpus);
	eng.paired = 1;
	eng.seed = seed;
	eng.cond = ab_switch;
	eng.cond_arg = &a;
	session_open(&ses, "ab", o.db, o.no_store, NULL, &eng.pre, !o.quiet, 2);
	for (int s = 0; s < 2; s++)
		if (o.labels[s + 1])
			snprintf(labels[s], sizeof(labels[s]), "%s", o.labels[s + 1]);
		else
			snprintf(labels[s], sizeof(labels[s]), "%.120s %c", ses.label, s ? 'B' : 'A');
	/* The switches' private directory: their TMPDIR and log; the janitor removes it. */
	snprintf(a.root, sizeof(a.root), "%s/kbench-ab.XXXXXX", o.tmpdir);
	if (runner_janitor_start(a.root, sizeof(a.root), 1, &a.jan) < 0)
		die("ab: cannot make a directory in '%s': %s", o.tmpdir, strerror(errno));
	snprintf(a.tmp, sizeof(a.tmp), "%s/tmp", a.root);
	snprintf(a.log, sizeof(a.log), "%s/switch.log", a.root);
	if (mkdir(a.tmp, 0700) != 0) {
		runner_janitor_wait(&a.jan, a.root);
		die("ab: cannot make '%s': %s", a.tmp, strerror(errno));
	}
	if (!o.quiet)
		fprintf(stderr, "ab: %d rounds of %zu instance%s, A '%s' and B '%s' in an order drawn "
			"from seed %llu\n", o.replicas, none, none == 1 ? "" : "s", labels[0], labels[1],
			(unsigned long long)seed);

	side_a = session_begin_as(&ses, none, labels[0]);
	side_b = session_begin_as(&ses, none, labels[1]);
	nfail = ab_rounds(&o, &eng, jobs, njobs, &ses, (struct run_info *const[]){ side_a, side_b }, 2,
			  more, sizeof(more));
	nfail += ab_restore(&a) < 0;
	runner_janitor_wait(&a.jan, a.root);
	cli_cpus_restore(&cpus);
	session_close(&ses);

	if (o.json)
		cli_runs_out("ab", o.fmt, &ses, 1);
	else
		ab_report(&o, &ses, 0);
	fflush(stdout);
	free(sel);
	free(one);
	free(jobs);
	return session_finish(&ses, nfail, more, o.quiet);
}

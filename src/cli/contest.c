/*
 * kbench contest: a real job timed under each background load, contest's
 * tables printed, each measurement stored as contest.<load> the moment it
 * is taken (so Ctrl-C loses only the one in progress).
 *
 * The loads of one repetition run in the table's order with noload first,
 * and --runs N repeats the whole list N times, interleaved, so drift (a
 * warming machine, a neighbour starting) hits every load alike.  Unless
 * --timeout is given, a job is stopped after 10 times the first noload
 * Time of this contest.
 *
 * Interrupted (Ctrl-C, SIGTERM, SIGHUP), it stores what finished and leaves
 * the run without a finish time, which is what marks a run interrupted in
 * runs, show and the JSON; a run interrupted before its first result is
 * not kept at all.  Stopped (Ctrl-Z) while a job ran, it takes that
 * measurement again once continued.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cpus.h"
#include "cli/label.h"
#include "cli/session.h"
#include "core/wire.h"
#include "core/catalog.h"
#include "core/engine.h"
#include "core/err.h"
#include "core/parse.h"
#include "core/result.h"
#include "core/runner.h"
#include "core/sysinfo.h"
#include "load/load.h"
#include "plat/plat.h"
#include "report/report.h"
#include "report/contest.h"
#include "store/store.h"

/* At most this many loads named in --loads. */
#define CONTEST_MAX_LOADS 32

struct contest_opts {
	const char *workload, *loads, *label, *db, *tmpdir, *cpus;
	int runs, no_store, quiet, json, jobs, offline_cpus;
	double size, timeout, settle, scale;
};

/* The loads named in --loads (default: every visible one), noload first. */
static size_t contest_pick(const char *list, const struct load **out)
{
	size_t n = 0, len;

	if (!list) {
		for (size_t i = 0; i < load_count(); i++)
			if (!(load_table()[i].flags & LOAD_HIDDEN))
				out[n++] = &load_table()[i];
		return n;
	}
	for (const char *s, *rest = list; (s = parse_item(&rest, &len));) {
		char name[64];
		const struct load *ld;

		if (len == 0 || len >= sizeof(name))
			die_usage("contest: --loads '%s': empty or overlong name", list);
		memcpy(name, s, len);
		name[len] = '\0';
		ld = load_find(name);
		if (!ld) {
			char known[512] = "";
			for (size_t i = 0; i < load_count(); i++)
				if (!(load_table()[i].flags & LOAD_HIDDEN))
					snprintf(known + strlen(known), sizeof(known) - strlen(known),
						 "%s%s", i ? ", " : "", load_table()[i].name);
			die_usage("contest: unknown load '%s' (loads: %s)", name, known);
		}
		for (size_t k = 0; k < n; k++)
			if (out[k] == ld)
				die_usage("contest: load '%s' is named twice", name);
		if (n == CONTEST_MAX_LOADS)
			die_usage("contest: at most %d loads", CONTEST_MAX_LOADS);
		out[n++] = ld;
	}
	/* noload first: its Time sets the timeout of the others. */
	for (size_t k = 1; k < n; k++)
		if (strcmp(out[k]->name, "noload") == 0) {
			const struct load *t = out[k];
			memmove(&out[1], &out[0], k * sizeof(*out));
			out[0] = t;
		}
	return n;
}

/* The stored form of one measurement: contest.<load>, a Time and its side figures. */
static void contest_result(const struct load *ld, const struct contest_cfg *cfg,
			   const struct contest_measure *m, enum contest_status st,
			   const char *why, struct result *r)
{
	memset(r, 0, sizeof(*r));
	r->level = r->level_low = r->level_high = r->slow_share = r->slow_depth = NAN;
	snprintf(r->id, sizeof(r->id), "%s%s", CATALOG_CONTEST, ld->name);
	snprintf(r->unit, sizeof(r->unit), "s");
	r->better = BETTER_LOWER;
	r->interference = -1;
	r->placement = PLACE_NA;
	r->parallel = 1;
	r->aggregate = NAN;
	r->wall_s = m->wall_s;
	if (st != CONTEST_OK) {
		r->status = RES_FAIL;
		r->median = r->ci_low = r->ci_high = r->min = r->max = r->mean = NAN;
		r->stddev = r->cv = r->p5 = r->p95 = r->overhead = NAN;
		r->stop = STOP_NONE;
		snprintf(r->reason, sizeof(r->reason), "%s", why);
		/* The block's heading still names the unit of its load. */
		result_value_add(r, "load_unit", NAN, ld->unit);
		return;
	}
	r->status = RES_OK;
	r->interference = m->interference;
	/* One job, one sample: the spread of Time comes from --runs, across runs. */
	r->median = r->ci_low = r->ci_high = r->min = r->max = r->mean = m->time_s;
	r->p5 = r->p95 = m->time_s;
	result_level_is_median(r);
	r->stddev = r->cv = 0;
	r->n = 1;
	r->iterations = 1;
	r->stop = STOP_MAX_SAMPLES;
	r->samples = malloc(sizeof(double));
	if (!r->samples)
		die("contest: out of memory");
	r->samples[0] = m->time_s;
	/* time_s again as a value, so a script reading values finds every metric there. */
	result_value_add(r, "time_s", m->time_s, NULL);
	result_value_add(r, "cpu_share", m->cpu_pct / 100, NULL);
	result_value_add(r, "loads", (double)m->loads, NULL);
	result_value_add(r, "load_unit", NAN, ld->unit);
	result_value_add(r, "lcpu_share", ld->run ? m->lcpu_pct / 100 : 0, NULL);
	result_value_add(r, "user_s", m->user_s, NULL);
	result_value_add(r, "sys_s", m->sys_s, NULL);
	if (ld->run) {
		result_value_add(r, "old_loads", m->old_loads, NULL);
		result_value_add(r, "load_life_s", m->load_life_s, NULL);
	}
	if (cfg->workload)
		result_value_add(r, "workload", NAN, cfg->workload);
	else {
		result_value_add(r, "tree_size", cfg->size, NULL);
		result_value_add(r, "jobs", cfg->jobs, NULL);
	}
}

/* What a repetition's steps share: a step measures one load and stores it. */
struct contest_step {
	const struct contest_opts *o;
	struct contest_cfg *cfg;
	const struct load *const *loads;
	struct session *ses;
	struct run_info *run;
	int rep;
	size_t *nfail;
	double *first_noload;
};

static enum engine_step contest_step(void *arg, size_t i, int round)
{
	struct contest_step *a = arg;
	const struct load *ld = a->loads[i];
	struct result *r = &a->run->results[a->run->nresults];
	struct contest_measure m;
	enum contest_status cs;
	char err[ERRBUF_LEN];

	(void)round;
	/* Progress only on a terminal, as for run; a job takes a minute. */
	if (!a->o->quiet && isatty(STDERR_FILENO))
		fprintf(stderr, "kbench: contest run %d/%d: %s...\n", a->rep + 1, a->o->runs, ld->name);
	while ((cs = contest_measure(a->cfg, ld, &m, err)) == CONTEST_SUSPENDED)
		if (!a->o->quiet)
			fprintf(stderr, "kbench: contest %s: %s: measured again\n", ld->name, err);
	if (cs == CONTEST_INTERRUPTED) {
		session_stop(a->ses);
		return ENGINE_STEP_INTERRUPTED;
	}
	if (cs == CONTEST_ERROR) {
		session_close(a->ses);
		die("contest: %s: %s", ld->name, err);
	}
	contest_result(ld, a->cfg, &m, cs, err, r);
	a->run->nresults++;
	*a->nfail += cs != CONTEST_OK;
	if (cs == CONTEST_OK && strcmp(ld->name, "noload") == 0 && *a->first_noload == 0) {
		*a->first_noload = m.time_s;
		if (a->o->timeout == 0)
			a->cfg->timeout_s = 10 * *a->first_noload;
	}
	if (cs != CONTEST_OK && !a->o->quiet)
		fprintf(stderr, "kbench: contest %s failed: %s\n", ld->name, err);
	(void)session_put(a->ses, a->run, NULL, r);
	return a->ses->state == SESSION_GOING ? ENGINE_STEP_OK : ENGINE_STEP_STOP;
}

int cmd_contest(int argc, char **argv)
{
	struct contest_opts o = { .runs = 1, .size = 1.0, .settle = 1.0, .scale = 1.0 };
	const struct opt opts[] = {
		{ "workload", OPT_STRING, &o.workload, "CMD", "time this shell command instead of the generated compile", 0, 0, 0 },
		{ "loads", OPT_STRING, &o.loads, "LIST", "the loads, comma-separated (default: all)", 0, 0, 0 },
		{ "runs", OPT_INT, &o.runs, "N", "repeat the loads N times, interleaved", 1, 100, 0 },
		{ "label", OPT_STRING, &o.label, "L", "name what is measured (default: OS and release)", 0, 0, 0 },
		{ "size", OPT_DOUBLE, &o.size, "X", "scale the generated compile (1: 30-60 s on 2 CPUs)", 0.0001, 100, 0 },
		{ "jobs", OPT_INT, &o.jobs, "N", "make -j N for the generated compile (default 2 x CPUs)", 1, 1024, 0 },
		{ "timeout", OPT_DOUBLE, &o.timeout, "SECONDS", "stop a job after this long (default 10 x noload)", 0.1, 1e6, 0 },
		{ "settle", OPT_DOUBLE, &o.settle, "SECONDS", "let a load work this long before the job starts (1)", 0, 60, 0 },
		{ "load-scale", OPT_DOUBLE, &o.scale, "X", "scale the loads' files and buffers (1)", 0.0001, 1, 0 },
		OPT_ROW_CPUS(o.cpus),
		OPT_ROW_OFFLINE_CPUS(o.offline_cpus),
		{ "tmpdir", OPT_STRING, &o.tmpdir, "DIR", "where the job and the loads write (default $TMPDIR, /tmp)", 0, 0, 0 },
		OPT_ROW_DB(o.db),
		OPT_ROW_NO_STORE(o.no_store),
		{ "json", OPT_FLAG, &o.json, NULL, "print one JSON document (as run --json) instead of tables", 0, 0, 0 },
		{ "quiet", OPT_FLAG, &o.quiet, NULL, "no progress on stderr", 0, 0, 0 },
		{ 0 },
	};
	const struct load *loads[CONTEST_MAX_LOADS];
	struct contest_cfg cfg = { 0 };
	struct session ses;
	struct wire_prelude pre;
	struct cli_cpus cpus;
	size_t nloads, nfail = 0;
	uint64_t total, avail;
	int rc_exit;
	double first_noload = 0;

	if (opt_parse(cli_find("contest"), opts, argc, argv) > 0)
		die_usage("contest: unexpected argument '%s'", argv[0]);
	if (o.workload && strspn(o.workload, " \t\n") == strlen(o.workload))
		die_usage("contest: --workload is empty");
	if (o.label)
		cli_label_check("contest", "--label", o.label);
	if (o.no_store && o.db)
		die_usage("contest: --db and --no-store contradict each other");
	nloads = contest_pick(o.loads, loads);
	if (nloads == 0)
		die_usage("contest: --loads names no load");
	o.tmpdir = cli_tmpdir("contest", o.tmpdir);
	/* Signals first: a Ctrl-C once CPUs are offline must bring them back. */
	runner_catch_signals();
	runner_catch_stop();
	cli_cpus_apply("contest", o.cpus, o.offline_cpus, &cpus);
	cli_prelude("contest", o.tmpdir, &cpus, &pre);
	session_open(&ses, "contest", o.db, o.no_store, o.label, &pre, 0, (size_t)o.runs);
	cfg.workload = o.workload;
	cfg.size = o.size;
	cfg.ncpu = cli_cpus_count();
	cfg.jobs = o.jobs ? o.jobs : 2 * cfg.ncpu;
	cfg.tmproot = o.tmpdir;
	cfg.timeout_s = o.timeout;
	cfg.settle_s = o.settle;
	cfg.scale = o.scale;
	if (plat_memory(&total, &avail) == 0)
		cfg.mem_available = avail;

	for (int rep = 0; rep < o.runs && ses.state == SESSION_GOING; rep++) {
		struct contest_step cs = { &o, &cfg, loads, &ses, session_begin(&ses, nloads), rep, &nfail,
					   &first_noload };
		struct engine_steps sch = { nloads, 0, 1, contest_step, &cs };

		(void)engine_steps(&sch);
		session_end(&ses, cs.run);
	}
	cli_cpus_restore(&cpus);
	session_close(&ses);
	if (o.json ? report_runs_json(stdout, ses.si_json, ses.runs, ses.nruns) < 0
		   : report_contest_text(stdout, ses.runs, ses.nruns, 0.02) < 0)
		die("contest: cannot print the results");
	fflush(stdout);
	rc_exit = session_finish(&ses, nfail, "", o.quiet);
	return rc_exit;
}

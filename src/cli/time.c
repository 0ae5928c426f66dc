/*
 * kbench time: a whole job timed as kernel developers time buildworld.
 *
 *   kbench time [--runs N] [--jobs LIST] [--copies LIST] ... [-- COMMAND [ARG...]]
 *
 * Each configuration (a {jobs} value of --jobs, a number of copies of
 * --copies) is run --runs times after --warmup discarded runs, and every
 * copy of every run prints BSD time's line as it finishes.  The runs of the
 * configurations are interleaved (4, 48, 4, 48, ...), so that a machine
 * that drifts (doc/performance.md, issue 12) does not land on one side.
 * Each configuration is one stored result, time.<name>, with jobs and
 * copies as instance keys: its runs are its replicas, the copies of a run
 * that replica's samples, so its interval comes from the runs, the level
 * where the variation is, and compare tests one kernel's runs against
 * another's.  A result is stored again after each of its runs, so Ctrl-C
 * loses only the run in progress.
 *
 * Everything that can refuse (the options, the command, the database) is
 * refused before the first run.  The command runs directly (no shell
 * unless the user writes sh -c), its output in a log in kbench's private
 * directory, which the janitor removes even if kbench is killed.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
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
#include "load/group.h"
#include "load/load.h"
#include "load/timed.h"
#include "plat/plat.h"
#include "report/report.h"
#include "report/timed.h"
#include "stats/stats.h"

/* At most this many values in --jobs and in --copies, and copies at once. */
#define TIME_MAX_VALUES 16
#define TIME_MAX_COPIES 64
/* Placeholders, replaced in every word of the command. */
#define TIME_JOBS "{jobs}"
#define TIME_COPY "{copy}"
/* The generated tree's size by default: a build of a few seconds on 2 CPUs (contest's 1.0 is 30-60 s). */
#define TIME_TREE_SIZE 0.1

struct time_opts {
	const char *jobs, *copies, *name, *label, *prepare, *setup, *cleanup, *db, *tmpdir, *cpus;
	int runs, warmup, keep_going, show_output, longfmt, no_store, json, quiet, offline_cpus;
	const char *format;		/* --format: text, json or gbench */
	double timeout, size;
};

/* One configuration: a {jobs} value and a number of copies, and what its runs did. */
struct time_conf {
	struct timed_series s;		/* its runs so far, as timed_result takes them */
	char ***argv;			/* copies argvs, placeholders replaced */
	struct timed_job *job;		/* copies of them */
	char why[ERRBUF_LEN + 32];	/* the first failure (s.why) */
	int64_t row;			/* its stored result, 0 before */
	size_t slot;			/* its result in the run */
};

/* "4,48" into values (each in [1, max]); their count.  Dies with one line on anything else. */
static int time_list(const char *opt, const char *text, int max, int *values)
{
	const char *item, *rest = text;
	size_t len;
	int n = 0;
	long v;

	while ((item = parse_item(&rest, &len))) {
		if (parse_whole(item, len, 1, max, &v) < 0)
			die_usage("time: --%s '%s': give whole numbers from 1 to %d, comma-separated",
				  opt, text, max);
		if (n == TIME_MAX_VALUES)
			die_usage("time: --%s: at most %d values", opt, TIME_MAX_VALUES);
		for (int k = 0; k < n; k++)
			if (values[k] == (int)v)
				die_usage("time: --%s: %ld is named twice", opt, v);
		values[n++] = (int)v;
	}
	return n;
}

/* word with every "{jobs}" and "{copy}" replaced; malloc'd. */
static char *time_subst(const char *word, int jobs, int copy)
{
	char num[2][16], *out;
	size_t len = 0, cap = strlen(word) + 1;

	snprintf(num[0], sizeof(num[0]), "%d", jobs);
	snprintf(num[1], sizeof(num[1]), "%d", copy);
	/* Each placeholder is at least as long as what replaces it (up to 6 digits). */
	cap += 16 * (strlen(word) / 6 + 1);
	out = malloc(cap);
	if (!out)
		die("time: out of memory");
	for (const char *s = word; *s;) {
		if (strncmp(s, TIME_JOBS, strlen(TIME_JOBS)) == 0) {
			len += (size_t)snprintf(out + len, cap - len, "%s", num[0]);
			s += strlen(TIME_JOBS);
		} else if (strncmp(s, TIME_COPY, strlen(TIME_COPY)) == 0) {
			len += (size_t)snprintf(out + len, cap - len, "%s", num[1]);
			s += strlen(TIME_COPY);
		} else {
			out[len++] = *s++;
		}
	}
	out[len] = '\0';
	return out;
}

static int time_has(char *const *argv, int argc, const char *what)
{
	for (int i = 0; i < argc; i++)
		if (strstr(argv[i], what))
			return 1;
	return 0;
}

/*
 * The name results are stored under: --name, else the command's first
 * word without its directory (a character the catalogue refuses in a name
 * made '_'), else "build" for the generated tree.
 */
static void time_name(const struct time_opts *o, char *const *argv, int argc, char *name,
		      size_t len)
{
	char id[64];
	const char *base;

	if (o->name) {
		snprintf(id, sizeof(id), "%s%s", CATALOG_TIME, o->name);
		if (strlen(o->name) >= len || !catalog_find(id))
			die_usage("time: --name '%s': use up to %zu letters, digits and _.+-", o->name,
				  len - 1);
		snprintf(name, len, "%s", o->name);
		return;
	}
	if (argc == 0) {
		snprintf(name, len, "build");
		return;
	}
	base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	snprintf(name, len, "%s", base);
	for (char *c = name; *c; c++) {
		char one[16];

		snprintf(one, sizeof(one), "%sa%c", CATALOG_TIME, *c);
		if (!catalog_find(one))
			*c = '_';
	}
	if (!name[0])
		snprintf(name, len, "job");
}

/* The configuration as the order and the lines name it: "-j4 x2", "x4", "-j4", "". */
static void time_conf_name(const struct time_conf *c, int show_copies, char *buf, size_t len)
{
	char j[24] = "", x[24] = "";

	if (c->s.jobs)
		snprintf(j, sizeof(j), "-j%d", c->s.jobs);
	if (show_copies)
		snprintf(x, sizeof(x), "%sx%d", c->s.jobs ? " " : "", c->s.copies);
	snprintf(buf, len, "%s%s", j, x);
}

static double time_tv(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* h:mm:ss of a long job, as zsh's time prints a total. */
static void time_hms(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);

	snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

/*
 * A command that takes a few milliseconds is mostly its process's start
 * and the clock's steps: said once a configuration, on stderr, with what
 * times such an operation better.
 */
#define TIME_SHORT_S 0.005
static void time_too_short(const struct run_info *run)
{
	for (size_t i = 0; i < run->nresults; i++) {
		const struct result *r = &run->results[i];
		int said = 0;

		for (size_t k = 0; k < i; k++)
			said |= !strcmp(run->results[k].id, r->id);
		if (!said && (r->status == RES_OK || r->status == RES_NOISY) && r->median > 0 &&
		    r->median < TIME_SHORT_S)
			warning("time: %s runs for %.2f ms: under %.0f ms, its process's start is much "
				"of what is timed (kbench run times an operation)", r->id,
				r->median * 1e3, TIME_SHORT_S * 1e3);
	}
}

/*
 * One copy's line, BSD time's "%12.2f real %12.2f user %12.2f sys" (as in
 * the seeds), then what it was: the configuration and, for a job of an hour
 * or more, its real time as h:mm:ss.
 */
static void time_line(FILE *out, const struct time_conf *c, const struct timed_copy *t,
		      const char *conf, size_t run, int runs)
{
	char hms[32] = "", line[128];

	if (t->real >= 3600) {
		hms[0] = ' ';
		hms[1] = ' ';
		time_hms(t->real, hms + 2, sizeof(hms) - 2);
	}
	report_time_line(line, sizeof(line), t->real, time_tv(&t->ru.ru_utime), time_tv(&t->ru.ru_stime));
	fprintf(out, "%s  %s%srun %zu/%d", line, conf, conf[0] ? " " : "", run, runs);
	if (c->s.copies > 1)
		fprintf(out, " copy %d/%d", (int)(t - &c->s.done[(run - 1) * (size_t)c->s.copies]) + 1,
			c->s.copies);
	if (t->killed)
		fprintf(out, " (%d left running, killed)", t->killed);
	fprintf(out, "%s\n", hms);
	fflush(out);
}

/* The generated build's words: make -s -j{jobs} -C tree{copy} all, and clean. */
static char time_make[] = "make", time_silent[] = "-s", time_j[] = "-j" TIME_JOBS,
	    time_dash_c[] = "-C", time_treedir[] = "tree" TIME_COPY, time_all[] = "all",
	    time_clean_word[] = "clean";

/* What time's steps share: a step is one run of one configuration, all its copies at once. */
struct time_step {
	const struct time_opts *o;
	struct time_conf *confs;
	const char *root, *tmp, *id, *cmdline;
	int tree, show_copies;
	struct runner_janitor *jan;
	struct session *ses;
	struct run_info *run;
	double t0;			/* the first run's start: release times count from it */
	size_t nfail;			/* configurations that failed */
};

/*
 * The generated trees of c's copies made clean, untimed: 0; 1 when a
 * signal stopped it (the session is stopped); -1 when make failed, said.
 */
static int time_clean(struct time_step *a, const struct time_conf *c)
{
	for (int k = 0; k < c->s.copies; k++) {
		char tdir[32], *clean_argv[] = { time_make, time_silent, time_dash_c, tdir, time_clean_word, NULL };
		struct timed_job cj = { clean_argv, a->root, c->job[0].log };
		struct timed_cfg cc = { 1, &cj, a->tmp, 0, a->jan };
		struct timed_copy ct;
		enum timed_status st;
		double rel, busy;
		char why[ERRBUF_LEN];

		snprintf(tdir, sizeof(tdir), "tree%d", k + 1);
		st = timed_run(&cc, &ct, &rel, &busy, why);
		if (st == TIMED_INTERRUPTED) {
			session_stop(a->ses);
			return 1;
		}
		if (st != TIMED_OK) {
			error("time: make clean in the generated tree failed: %s", why);
			return -1;
		}
	}
	return 0;
}

/*
 * One run of configuration i (a warm-up when round < 0): its copies
 * started together, each line printed as it ends, and the configuration's
 * result stored again, so that Ctrl-C loses only the run in progress.
 */
static enum engine_step time_step(void *arg, size_t i, int round)
{
	struct time_step *a = arg;
	const struct time_opts *o = a->o;
	struct time_conf *c = &a->confs[i];
	struct timed_cfg tc = { (size_t)c->s.copies, c->job, a->tmp, o->timeout, a->jan };
	struct timed_copy *t;
	enum timed_status st;
	enum engine_step next = ENGINE_STEP_OK;
	double busy, rel, w0 = group_now();
	char why[ERRBUF_LEN], conf[48];
	int stop;

	time_conf_name(c, a->show_copies, conf, sizeof(conf));
	/* The generated tree starts clean every run; then the user's --prepare. */
	stop = a->tree ? time_clean(a, c) : 0;
	if (!stop && o->prepare)
		stop = session_untimed(a->ses, "prepare", o->prepare, o->show_output ? NULL : c->job[0].log,
					a->tmp, o->timeout, a->jan);
	if (stop)
		return stop > 0 ? ENGINE_STEP_INTERRUPTED : ENGINE_STEP_STOP;
	if (!o->quiet && isatty(STDERR_FILENO))
		fprintf(stderr, "kbench: time: %s%s%s...\n", round < 0 ? "warm-up " : "", conf,
			conf[0] ? " " : "");
	t = round < 0 ? calloc((size_t)c->s.copies, sizeof(*t)) : &c->s.done[c->s.nruns * (size_t)c->s.copies];
	if (!t)
		die("time: out of memory");
	while ((st = timed_run(&tc, t, &rel, &busy, why)) == TIMED_SUSPENDED)
		if (!o->quiet)
			fprintf(stderr, "kbench: time: %s: %s: run again\n", a->id, why);
	if (round < 0) {
		free(t);
		t = NULL;
		if (st == TIMED_OK)
			return ENGINE_STEP_OK;
	}
	if (st == TIMED_INTERRUPTED) {
		session_stop(a->ses);
		return ENGINE_STEP_INTERRUPTED;
	}
	if (st == TIMED_ERROR) {
		error("time: %s", why);
		return ENGINE_STEP_STOP;
	}
	if (st != TIMED_OK) {
		/* The run failed or ran too long: no figure; the configuration fails. */
		if (round < 0)
			fprintf(stderr, "kbench: time: warm-up of %s%s%s failed: %s\n", a->id, conf[0] ? " " : "",
				conf, why);
		else
			fprintf(stderr, "kbench: time: %s%s%s run %zu failed: %s\n", a->id, conf[0] ? " " : "",
				conf, c->s.nruns + 1, why);
		/* The table's reason is one line: the log's tail was said above. */
		if (!c->s.failed) {
			snprintf(c->why, sizeof(c->why), "run %zu: %s", c->s.nruns + 1, why);
			c->why[strcspn(c->why, "\n")] = '\0';
			if (strstr(c->why, "; its last output:"))
				*strstr(c->why, "; its last output:") = '\0';
		}
		c->s.failed = 1;
		a->nfail++;
		next = o->keep_going ? ENGINE_STEP_RETIRE : ENGINE_STEP_STOP;
	} else {
		c->s.release[c->s.nruns] = rel - a->t0;
		c->s.wall[c->s.nruns] = group_now() - w0;
		if (busy > c->s.interference)
			c->s.interference = busy;
		/* Progress, as hyperfine's: the tables alone go to stdout. */
		if (!o->json && !o->quiet)
			for (int k = 0; k < c->s.copies; k++)
				time_line(stderr, c, &t[k], conf, c->s.nruns + 1, o->runs);
		c->s.nruns++;
	}
	/* Stored again after each of its runs; a warm-up that failed is stored too, as the failure. */
	if (round >= 0 || c->s.failed) {
		struct run_info *run = a->run;

		result_free(&run->results[c->slot]);
		c->s.why = c->why;
		timed_result(&c->s, a->id, a->cmdline, &run->results[c->slot]);
		if (run->nresults < c->slot + 1)
			run->nresults = c->slot + 1;
		if (session_put(a->ses, run, &c->row, &run->results[c->slot]) < 0)
			return ENGINE_STEP_STOP;
	}
	return next;
}

int cmd_time(int argc, char **argv)
{
	struct time_opts o = { .runs = 5 };
	const struct opt opts[] = {
		{ "runs", OPT_INT, &o.runs, "N", "time each configuration N times (5)", 1, 10000, 0 },
		{ "warmup", OPT_INT, &o.warmup, "N", "run each configuration N times first, untimed (0)", 0, 100, 0 },
		{ "jobs", OPT_STRING, &o.jobs, "LIST", "replace {jobs} in COMMAND by each value: 4,48", 0, 0, 0 },
		{ "copies", OPT_STRING, &o.copies, "LIST", "start K copies at once, {copy} = 1..K: 1,4", 0, 0, 0 },
		{ "name", OPT_STRING, &o.name, "NAME", "store as time.NAME (default: the command's first word)", 0, 0, 0 },
		{ "label", OPT_STRING, &o.label, "L", "name what is measured (default: OS and release)", 0, 0, 0 },
		{ "prepare", OPT_STRING, &o.prepare, "CMD", "shell command run untimed before every run", 0, 0, 0 },
		{ "setup", OPT_STRING, &o.setup, "CMD", "shell command run once before all runs", 0, 0, 0 },
		{ "cleanup", OPT_STRING, &o.cleanup, "CMD", "shell command run once after all runs", 0, 0, 0 },
		{ "timeout", OPT_DOUBLE, &o.timeout, "SECONDS", "stop a run (or --setup, --prepare, --cleanup) that takes longer", 0.001, 1e7, 0 },
		{ "keep-going", OPT_FLAG, &o.keep_going, NULL, "go on after a run fails or times out", 0, 0, 0 },
		{ "show-output", OPT_FLAG, &o.show_output, NULL, "pass the command's output through", 0, 0, 0 },
		{ "long", OPT_FLAG, &o.longfmt, NULL, "also the rusage figures, as BSD time -l", 0, 0, 'l' },
		{ "size", OPT_DOUBLE, &o.size, "X", "scale the generated compile (0.1: seconds on 2 CPUs)", 0.0001, 100, 0 },
		OPT_ROW_CPUS(o.cpus),
		OPT_ROW_OFFLINE_CPUS(o.offline_cpus),
		{ "tmpdir", OPT_STRING, &o.tmpdir, "DIR", "where the private directory goes ($TMPDIR or /tmp)", 0, 0, 0 },
		OPT_ROW_DB(o.db),
		OPT_ROW_NO_STORE(o.no_store),
		OPT_ROW_FORMAT(o.format, "text, json or gbench (Google Benchmark's JSON)"),
		{ "json", OPT_FLAG, &o.json, NULL, "print one JSON document (as run --json) instead of lines and tables", 0, 0, 0 },
		{ "quiet", OPT_FLAG, &o.quiet, NULL, "no progress on stderr", 0, 0, 0 },
		{ 0 },
	};
	int jobs[TIME_MAX_VALUES], copies[TIME_MAX_VALUES], njobs = 1, ncopies = 1, nargs;
	int tree, ncpu, show_copies;
	char name[41], id[64], err[ERRBUF_LEN], root[PATH_MAX], tmp[PATH_MAX + 8];
	char cmdline[256] = "", path[PATH_MAX], conf[48];
	char *tree_argv[] = { time_make, time_silent, time_j, time_dash_c, time_treedir, time_all, NULL };
	char **cmd;
	struct runner_janitor jan;
	struct cli_cpus cpus;
	struct time_conf *confs;
	struct session ses;
	struct wire_prelude pre;
	struct run_info *run;
	size_t nconfs, nfail = 0;
	int rc_exit, stop = 0;
	enum cli_format fmt;

	o.size = TIME_TREE_SIZE;
	nargs = opt_parse(cli_find("time"), opts, argc, argv);
	fmt = cli_format("time", o.format, o.json, 0,
			 1u << CLI_TEXT | 1u << CLI_JSON | 1u << CLI_GBENCH);
	o.json = fmt != CLI_TEXT;
	/*
	 * First: the CPUs it may use are the generated build's default -j.
	 * Signals are caught before any CPU goes offline, so that a Ctrl-C
	 * from then on ends the run the orderly way, CPUs brought back.
	 */
	runner_catch_signals();
	runner_catch_stop();
	cli_cpus_apply("time", o.cpus, o.offline_cpus, &cpus);
	ncpu = cli_cpus_count();
	tree = nargs == 0;
	cmd = tree ? tree_argv : argv;
	if (tree)
		nargs = (int)(sizeof(tree_argv) / sizeof(tree_argv[0])) - 1;
	if (o.label)
		cli_label_check("time", "--label", o.label);
	if (o.no_store && o.db)
		die_usage("time: --db and --no-store contradict each other");
	if (o.jobs)
		njobs = time_list("jobs", o.jobs, 1000000, jobs);
	else if (tree) {
		/* The build benchmark: one job, one per CPU, and four per CPU. */
		int want[3] = { 1, ncpu, 4 * ncpu };

		njobs = 0;
		for (int i = 0; i < 3; i++)
			if (njobs == 0 || jobs[njobs - 1] != want[i])
				jobs[njobs++] = want[i];
	} else
		jobs[0] = 0;
	if (o.copies)
		ncopies = time_list("copies", o.copies, TIME_MAX_COPIES, copies);
	else
		copies[0] = 1;
	if (!tree) {
		int has_jobs = time_has(argv, nargs, TIME_JOBS);

		if (o.jobs && !has_jobs)
			die_usage("time: --jobs is given but the command has no %s to replace", TIME_JOBS);
		if (!o.jobs && has_jobs)
			die_usage("time: the command has %s but no --jobs gives its values", TIME_JOBS);
		if (!o.copies && time_has(argv, nargs, TIME_COPY))
			die_usage("time: the command has %s but no --copies says how many", TIME_COPY);
		if (!argv[0][0])
			die_usage("time: the command is empty");
		/* The program is looked for now, not after the set-up. */
		{
			char *first = time_subst(argv[0], jobs[0], 1);

			if (timed_find(first, path, sizeof(path), err) < 0)
				die("time: %s", err);
			free(first);
		}
	} else if (timed_find("make", path, sizeof(path), err) < 0) {
		die("time: the generated build needs make and a C compiler: %s", err);
	}
	for (int i = 0; i < nargs; i++) {
		size_t l = strlen(cmdline);

		snprintf(cmdline + l, sizeof(cmdline) - l, "%s%s", i ? " " : "", cmd[i]);
	}
	time_name(&o, cmd, tree ? 0 : nargs, name, sizeof(name));
	snprintf(id, sizeof(id), "%s%s", CATALOG_TIME, name);
	o.tmpdir = cli_tmpdir("time", o.tmpdir);
	cli_prelude("time", o.tmpdir, &cpus, &pre);
	session_open(&ses, "time", o.db, o.no_store, o.label, &pre, 0, 1);

	/* The configurations, -j outside, copies inside; run in this order in every round. */
	nconfs = (size_t)njobs * (size_t)ncopies;
	confs = calloc(nconfs, sizeof(*confs));
	if (!confs)
		die("time: out of memory");
	show_copies = o.copies != NULL;
	for (int a = 0; a < njobs; a++)
		for (int b = 0; b < ncopies; b++) {
			struct time_conf *c = &confs[a * ncopies + b];

			c->s.jobs = jobs[a];
			c->s.copies = copies[b];
			c->s.interference = -1;
			c->slot = (size_t)(a * ncopies + b);
			c->argv = calloc((size_t)c->s.copies, sizeof(*c->argv));
			c->job = calloc((size_t)c->s.copies, sizeof(*c->job));
			c->s.done = calloc((size_t)o.runs * (size_t)c->s.copies, sizeof(*c->s.done));
			c->s.release = calloc((size_t)o.runs, sizeof(*c->s.release));
			c->s.wall = calloc((size_t)o.runs, sizeof(*c->s.wall));
			if (!c->argv || !c->job || !c->s.done || !c->s.release || !c->s.wall)
				die("time: out of memory");
		}

	/* The private directory: logs, TMPDIR, the generated trees; the janitor removes it. */
	(void)plat_subreaper();
	snprintf(root, sizeof(root), "%s/kbench-time.XXXXXX", o.tmpdir);
	if (runner_janitor_start(root, sizeof(root), 1, &jan) < 0)
		die("time: cannot make a directory in '%s': %s", o.tmpdir, strerror(errno));
	snprintf(tmp, sizeof(tmp), "%s/tmp", root);
	if (mkdir(tmp, 0700) != 0) {
		runner_janitor_wait(&jan, root);
		die("time: cannot make '%s': %s", tmp, strerror(errno));
	}
	for (size_t i = 0; i < nconfs; i++) {
		struct time_conf *c = &confs[i];

		for (int k = 0; k < c->s.copies; k++) {
			char log[PATH_MAX + 32], dir[PATH_MAX + 32];

			c->argv[k] = calloc((size_t)nargs + 1, sizeof(char *));
			if (!c->argv[k])
				die("time: out of memory");
			for (int w = 0; w < nargs; w++)
				c->argv[k][w] = time_subst(cmd[w], c->s.jobs, k + 1);
			snprintf(log, sizeof(log), "%s/copy%d.log", root, k + 1);
			c->job[k].argv = c->argv[k];
			c->job[k].log = o.show_output ? NULL : strdup(log);
			c->job[k].dir = NULL;
			if (tree) {
				snprintf(dir, sizeof(dir), "%s", root);
				c->job[k].dir = strdup(dir);
			}
		}
	}
	/* The generated trees: one per copy, so that copies build apart. */
	if (tree) {
		int most = 0;

		for (int b = 0; b < ncopies; b++)
			most = copies[b] > most ? copies[b] : most;
		for (int k = 1; k <= most && !stop; k++) {
			char dir[PATH_MAX + 32];

			snprintf(dir, sizeof(dir), "%s/tree%d", root, k);
			if (mkdir(dir, 0700) != 0)
				errbuf_set(err, "cannot make '%s': %s", dir, strerror(errno));
			if (access(dir, F_OK) != 0 || tree_make(dir, o.size, err) < 0) {
				error("time: cannot write the generated tree: %s", err);
				stop = -1;
			}
		}
	}

	if (!stop && o.setup)
		stop = session_untimed(&ses, "setup", o.setup, o.show_output ? NULL : confs[0].job[0].log,
				       tmp, o.timeout, &jan);
	if (!stop && nconfs > 1 && !o.quiet) {
		fprintf(stderr, "kbench: time: each round runs ");
		for (size_t i = 0; i < nconfs; i++) {
			time_conf_name(&confs[i], show_copies, conf, sizeof(conf));
			fprintf(stderr, "%s%s", i ? ", " : "", conf);
		}
		fprintf(stderr, "; %d round%s, interleaved against drift\n", o.runs, o.runs == 1 ? "" : "s");
	}
	/* The run begins once everything before the first timed run has worked. */
	run = stop ? NULL : session_begin(&ses, nconfs);
	if (!stop) {
		struct time_step ts = { &o, confs, root, tmp, id, cmdline, tree, show_copies, &jan, &ses, run,
					group_now(), 0 };
		struct engine_steps sch = { nconfs, o.warmup, o.runs, time_step, &ts };
		enum engine_state st = engine_steps(&sch);

		stop = st == ENGINE_STOPPED ? -1 : st == ENGINE_INTERRUPTED;
		nfail = ts.nfail;
	}
	if (stop <= 0 && o.cleanup && !runner_interrupted() &&
	    session_untimed(&ses, "cleanup", o.cleanup, o.show_output ? NULL : confs[0].job[0].log,
			    tmp, o.timeout, &jan) < 0)
		nfail++;
	runner_janitor_wait(&jan, root);
	cli_cpus_restore(&cpus);
	if (run) {
		session_end(&ses, run);
		time_too_short(run);
	}
	session_close(&ses);
	if (o.json)
		cli_runs_out("time", fmt, &ses, 0);
	else if (ses.nruns && report_timed_text(stdout, ses.runs, ses.nruns, o.longfmt) < 0)
		die("time: out of memory");
	fflush(stdout);
	rc_exit = session_finish(&ses, nfail + (stop < 0 && !nfail), "", o.quiet);
	for (size_t i = 0; i < nconfs; i++) {
		for (int k = 0; k < confs[i].s.copies; k++) {
			for (int w = 0; confs[i].argv[k] && w < nargs; w++)
				free(confs[i].argv[k][w]);
			free(confs[i].argv[k]);
			free((char *)confs[i].job[k].log);
			free((char *)confs[i].job[k].dir);
		}
		free(confs[i].argv);
		free(confs[i].job);
		free(confs[i].s.done);
		free(confs[i].s.release);
		free(confs[i].s.wall);
	}
	free(confs);
	return rc_exit;
}

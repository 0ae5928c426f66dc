/*
 * The subcommands and the option parser they share.  Each subcommand has an
 * option table that both parses argv and prints its help, so --help cannot
 * drift from what the code accepts.
 */
#ifndef KB_CLI_H
#define KB_CLI_H

#include <stddef.h>
#include <stdio.h>

enum opt_type {
	OPT_END = 0,
	OPT_FLAG,	/* int, set to 1 */
	OPT_STRING,	/* const char * */
	OPT_INT,	/* int, within [min, max] */
	OPT_DOUBLE,	/* double, within [min, max] */
	OPT_SIZE,	/* size_t bytes, "64k" "1m" "1g" accepted, within [min, max] */
	OPT_LIST,	/* struct opt_list: given again, each value kept in order, at most max */
};

/* An option given once per thing it names (kernels' --label, one a kernel). */
#define OPT_LIST_MAX 8
struct opt_list {
	const char *v[OPT_LIST_MAX];
	int n;
};

struct opt {
	const char *name;	/* long name without the dashes */
	enum opt_type type;
	void *value;		/* where the parsed value goes */
	const char *arg;	/* argument name in help, e.g. "PCT" */
	const char *help;	/* one line */
	double min, max;	/* accepted range for numbers */
	char short_name;	/* a one-letter spelling, as BSD time's -l; 0: none */
};

/* Where a synopsis wants the options its usage line lists from the table. */
#define CMD_OPTIONS "[OPTION...]"

/*
 * The option rows several commands share, spelled once: a help line that
 * says the same thing the same way in every command.
 */
#define OPT_ROW_DB(v)                                                                   \
	{ "db", OPT_STRING, &(v), "PATH",                                               \
	  "results database (default $KBENCH_DB, then ~/.local/share/kbench/results.db)", \
	  0, 0, 0 }
#define OPT_ROW_CPUS(v)                                                                  \
	{ "cpus", OPT_STRING, &(v), "LIST",                                              \
	  "kbench and all it starts run only on these CPUs: 0, 0,2-3", 0, 0, 0 }
#define OPT_ROW_OFFLINE_CPUS(v)                                                          \
	{ "offline-cpus", OPT_FLAG, &(v), NULL,                                          \
	  "with --cpus: take the other CPUs offline meanwhile (root)", 0, 0, 0 }
/*
 * --percentile P (compare, ab, history): a distribution (wake.*) tested at
 * its Pth percentile instead of its median.  Taken as text, so that every
 * wrong value (0, 100.5, abc) gets the one line cli_percentile reads.
 */
#define OPT_ROW_PERCENTILE(v)                                                           \
	{ "percentile", OPT_STRING, &(v), "P",                                           \
	  "test the wake.* distributions at their Pth percentile (99, 99.9, 50); other figures as usual", \
	  0, 0, 0 }
#define OPT_ROW_NO_STORE(v) { "no-store", OPT_FLAG, &(v), NULL, "do not store the results", 0, 0, 0 }

struct cmd {
	const char *name;
	/*
	 * The usage line's operands and subcommands after "kbench NAME"; the
	 * options are listed from the command's table, where it says
	 * CMD_OPTIONS or after the rest.
	 */
	const char *synopsis;
	const char *summary;	/* one line for the command list */
	int (*fn)(int argc, char **argv);
	const char *examples;	/* two command lines, '\n' between, for --help */
};

/*
 * Parse options from argv[1..]; positional arguments are moved to the front
 * of argv and their count returned.  Bad input dies with exit 2 naming the
 * option; --help prints the help and exits 0.
 */
int opt_parse(const struct cmd *cmd, const struct opt *opts, int argc, char **argv);
void opt_help(FILE *out, const struct cmd *cmd, const struct opt *opts);
/*
 * --tmpdir checked by making a directory in it (default $TMPDIR, then
 * /tmp): dies with one line naming cmd when it cannot be used.
 */
const char *cli_tmpdir(const char *cmd, const char *dir);
/*
 * The one output format of a command that has several: --format NAME
 * (format, NULL when not given) or its short forms --json and --html;
 * offered, a bit (1u << CLI_*) for each the command has.  Dies with one
 * line, exit 2, naming cmd, on an unknown name, one the command does not
 * have, or two formats at once.
 */
enum cli_format { CLI_TEXT, CLI_JSON, CLI_HTML, CLI_CSV, CLI_GBENCH, CLI_KCIDB };
enum cli_format cli_format(const char *cmd, const char *format, int json, int html,
			   unsigned offered);
#define OPT_ROW_FORMAT(v, says) { "format", OPT_STRING, &(v), "FMT", says, 0, 0, 0 }

/* Flush stdout and die with one line if anything written to it was lost. */
void cli_stdout_check(void);

struct session;
/*
 * A measuring command's runs as its --format asked: run --json's document
 * (CLI_JSON) or Google Benchmark's (CLI_GBENCH; sides: ab's two).  Dies
 * with one line, naming cmd, when it cannot be written.
 */
void cli_runs_out(const char *cmd, enum cli_format f, const struct session *ses, int sides);

struct engine;
struct runner_cfg;
struct cli_cpus;
/*
 * engine_open for command cmd: the worker found, checked and its prelude
 * measured, or one line and exit 1 (exit 130 after a signal), nothing
 * measured or stored, the CPUs that --offline-cpus took (cpus, or NULL)
 * back online first.  Called before the store is opened, so that a
 * worker that cannot be had leaves no database behind.
 */
void cli_engine_open(struct engine *e, const char *cmd, const struct runner_cfg *rc, int sentinel,
		     struct cli_cpus *cpus);
/*
 * The prelude alone (the clock and the MHz, measured by the worker with a
 * private directory in tmpdir), for a command that measures no rows.
 */
struct wire_prelude;
void cli_prelude(const char *cmd, const char *tmpdir, struct cli_cpus *cpus, struct wire_prelude *pre);

/*
 * The database a command uses: --db (db, NULL when not given), else the
 * default place (store_default_path).  Dies with one line, exit 2, on an
 * empty --db rather than take it for "not given" and quietly use the
 * default database; dies on a path that cannot be made.
 */
void cli_db_path(const char *cmd, const char *db, char *path, size_t len);
struct run_info;
/*
 * --percentile's value: NaN when not given (text NULL); dies with one line
 * when it is no number above 0 and up to 100.
 */
double cli_percentile(const char *cmd, const char *text);
/*
 * The runs of the sides taken at --percentile p (judge_pct_apply), when it
 * was given; says once on stderr, unless quiet, that the figures which are
 * no distribution are compared as usual, and that none is when none is.
 */
void cli_percentile_apply(const char *cmd, double p, struct run_info *const *runs,
			  const size_t *nruns, size_t nsides, int quiet);
/* The database's name for a message (store_shown: no password); valid until the next call. */
const char *cli_db_shown(const char *path);

struct run_info;
struct store;
struct sysinfo;
/*
 * The store failed where the command cannot go on: when a signal cut its
 * wait short, "interrupted" and the signal's exit status (128 + it);
 * otherwise err, as die.
 */
_Noreturn void cli_store_died(const char *cmd, const char *err);
/*
 * Start a stored run (st may be NULL for --no-store): its label, host, OS
 * and machine description from si, room for nresults results, and, for a
 * repetition of --runs, the set of first.  Dies on failure.
 */
void cli_run_begin(struct store *st, struct run_info *run, const char *label,
		   const struct sysinfo *si, const char *si_json, const struct run_info *first,
		   size_t nresults);
/* The time now, ISO 8601 UTC, as runs record their start and finish. */
void cli_now_iso(char *buf, size_t len);
/*
 * Delete a run interrupted before any of its results was stored: it would
 * list as a run with nothing in it.  Nothing when st is NULL (--no-store).
 */
void cli_run_drop(const char *cmd, struct store *st, const struct run_info *run);
/* "kbench: stored N results as runs ID... in PATH", on stderr. */
void cli_run_stored(size_t nstored, const struct run_info *runs, size_t nruns, const char *path);

int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_ab(int argc, char **argv);
int cmd_kernels(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_summary(int argc, char **argv);
int cmd_show(int argc, char **argv);
/*
 * The runs the spread between sittings is learnt from (cli/history.c): on
 * the hosts named, those of every label measured in two sittings or more,
 * its newest sittings, bounded; malloc'd into *runs (store_runs_free).  The
 * count, or -1 with err filled.
 */
int cli_history(struct store *st, const char *const *hosts, size_t nhosts, struct run_info **runs,
		char *err);
int cmd_compare(int argc, char **argv);
int cmd_sysinfo(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_contest(int argc, char **argv);
int cmd_time(int argc, char **argv);
int cmd_clocks(int argc, char **argv);
int cmd_history(int argc, char **argv);

/* The subcommand table, in main.c. */
const struct cmd *cli_find(const char *name);

#endif

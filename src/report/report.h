/*
 * Everything kbench shows a person or a script: the lmbench-style tables,
 * the footnotes on noisy or missing figures, sysinfo, and JSON.  Reports
 * read results; they never measure and never touch the database.  Only
 * src/report/ includes jansson.h.
 */
#ifndef KB_REPORT_H
#define KB_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "core/bench.h"
#include "core/result.h"
#include "core/sysinfo.h"

/*
 * lmbench's number convention for a cell `width` characters wide: as many
 * significant digits as fit (0.57, 16.2, 691., 1434), then thousands with a
 * K suffix (12.K).  Never wider than width; buf needs width + 1 bytes.
 */
void report_num(char *buf, int width, double v);
/*
 * Four significant digits, keeping trailing zeros but not a bare point:
 * "7.500", "2374"; whole numbers from 10000 on, never an exponent.  For
 * notes and lines, where a figure need not fit a column.
 */
void report_fig(char *buf, size_t size, double v);
/*
 * A size in bytes as people write it, binary multiples: 512, 1K, 1.5K,
 * 32K, 128M; decimals dropped, last first, until it fits maxw characters.
 */
void report_size(char *buf, size_t size, double bytes, int maxw);

/*
 * Text that came from a run (a label, a host, a reason: typed by a user,
 * or read from someone else's export) as it is safe to show on a terminal,
 * into buf (size bytes): control characters and bytes that are not UTF-8
 * escaped (\n, \x1b, \u202e; see utf8_escape), cut to width columns and
 * padded with spaces to width columns by what each character takes on the
 * screen ("é" one, "カ" two), so a row stays one line and lines up.  align
 * > 0 pads on the left (right-aligned), < 0 on the right, 0 not at all;
 * width < 0 neither cuts nor pads.  Returns buf.
 */
const char *report_cell(char *buf, size_t size, const char *s, int width, int align);

/*
 * lmbench's summary tables, in its order: Basic system parameters;
 * Processor, Processes; Context switching; *Local* Communication latencies;
 * File & VM system latencies; *Local* Communication bandwidths; Memory
 * latencies.  One row per run (and placement) that has figures for a
 * table, labelled "LABEL [N]" for a run merged from N (report_merge_labels);
 * each table followed by one line per noisy, busy, failed or skipped figure
 * saying which and why; then "System call rates", turned around (a row per
 * rate.* call, a column per run, a merged run's figures with their
 * interval); then "Other results", the figures no table has a column for.
 * A table without a figure is left out.
 */
void report_summary(FILE *out, const struct run_info *runs, size_t nruns, int verbose);
/*
 * The figure ids a summary table shows (its model id: "proc", "ctx"...),
 * columns and notes, in its order: up to max into ids; how many.
 */
size_t report_table_ids(const char *table, const char **ids, size_t max);

struct rm_doc;
/* The seven tables of report_summary, with their notes, as a model (report/model.h). */
void report_summary_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns);
/*
 * Whether any run holds a result for lmbench's tables or "Other results",
 * not only those of a kind with tables of its own (contest's): without
 * one, summary shows those kinds' tables alone, no empty lmbench ones.
 */
int report_summary_has(const struct run_info *runs, size_t nruns);

/*
 * `kbench show`: every result of `id` in run (one per placement measured).
 * A curve is a table of sizes by series, the cache levels detected in it
 * next to the sizes the OS reports; any other result its figure, CI,
 * sampling and values, one per line.  Returns how many results were shown
 * (0: the run has none for id, and nothing was printed).
 */
int report_show_text(FILE *out, const struct run_info *run, const char *id);
/*
 * `kbench show sentinel`: the run's sentinel timeline (issue 12), its
 * medians and spread, then the points in at most 40 bins of time, each with
 * its CPU (or "both"), its medians and how far the system call stood from
 * the run's median.  A run from before replicas says it has none.
 */
void report_show_sentinel_text(FILE *out, const struct run_info *run);
/*
 * The same as JSON, in `summary --json`'s shape: {"kbench", "sysinfo",
 * "runs": [run]}, the run holding only the results of id, points, values
 * and samples (when loaded) included.  Returns how many results, or -1.
 */
int report_show_json(FILE *out, const struct run_info *run, const char *id);

/*
 * The machine description stored with a run (report_sysinfo_json's text)
 * read back into si: the names (os, release, version, arch, host,
 * cpu_model, clocksource, governor, smt, virt), ncpu_online, mhz, memory
 * and the caches; mitigations and the build fields are left empty.  0, or
 * -1 with si zeroed when json is NULL or not such an object.
 */
int report_sysinfo_parse(const char *json, struct sysinfo *si);

/* `kbench sysinfo` as text, aligned "key: value" lines. */
void report_sysinfo_text(FILE *out, const struct sysinfo *si);
/* The same as a JSON object text, malloc'd (caller frees); NULL on failure. */
char *report_sysinfo_json(const struct sysinfo *si);

/* One row of `kbench list`. */
struct report_list_row {
	const struct bench *bench;
	const char *suites;	/* "quick,standard,lmbench" */
	const char *reason;	/* NULL when supported here */
};
void report_list_text(FILE *out, const struct report_list_row *rows, size_t n);
/* JSON array of {id, unit, better, summary, suites[], supported, reason}. */
int report_list_json(FILE *out, const struct report_list_row *rows, size_t n);

/*
 * `kbench run --json`: {"kbench": version, "sysinfo": {...}, "runs": [{label,
 * started, host, sysinfo, results: [...]}]}.  sysinfo_json is the stored
 * text of the top-level "sysinfo" (one machine's, the one measured; NULL:
 * null); each run's "sysinfo" is its own machine, null when it has none.
 */
int report_runs_json(FILE *out, const char *sysinfo_json, const struct run_info *runs,
		     size_t nruns);
/*
 * `kbench summary --json`: report_runs_json's document and "tables", the
 * summary's tables (contest's, the timed jobs' and the clock sources'
 * too) as the table model holds them (report/model.h): each
 * with "id", "title", "header" (its lines of labels), "rows" ({"cells",
 * "marks"}, or {"group"} heading the rows below) and "notes".
 */
int report_summary_json(FILE *out, const char *sysinfo_json, const struct run_info *runs,
			size_t nruns, const struct rm_doc *tables);

struct store_run_row;
/*
 * `kbench runs --json`: an array of {"id", "set", "uuid", "label",
 * "started", "finished" (null if interrupted), "host", "os", "results",
 * "skipped_or_failed"}, one per row.  0 or -1.
 */
int report_runs_list_json(FILE *out, const struct store_run_row *rows, size_t n);

/* ------------------------------------------------------------------ */
/* export and import (src/report/json.c, csv.c, import.c)              */
/* ------------------------------------------------------------------ */

/*
 * An export names its format and version, so an import can refuse a file
 * that is not one, or that a newer kbench wrote, before reading further.
 * Bump the version when a key changes meaning or goes; adding keys does
 * not need it (the importer ignores keys it does not know).
 */
#define REPORT_EXPORT_FORMAT "kbench-export"
#define REPORT_EXPORT_VERSION 1

/*
 * `kbench export`: {"format", "version", "kbench", "runs": [{"uuid", "set",
 * "label", "host", "os", "started", "finished", "mhz", "sysinfo": {...},
 * "results": [as in `run --json`, samples included]}]}.  No database ids:
 * a run is known by its uuid wherever it is imported.  0 or -1.
 */
int report_export_json(FILE *out, const struct run_info *runs, size_t nruns);
/*
 * The same runs as CSV (RFC 4180), one row per result, with a header row;
 * numbers to 17 significant digits, a missing figure as an empty field.
 * Samples, values and curve points are left to the JSON.  0 or -1.
 */
int report_export_csv(FILE *out, const struct run_info *runs, size_t nruns);
/*
 * Read an export (path, or "-" for stdin) into runs, every field checked:
 * a file that is not JSON, not an export, from a newer kbench, larger than
 * REPORT_IMPORT_MAX_BYTES, or with a field missing, of the wrong type, out
 * of range or contradicting another is refused whole, with one line in err
 * naming the file and where.  The count, or -1.
 */
#define REPORT_IMPORT_MAX_BYTES (64 * 1024 * 1024)
int report_import_json(const char *path, struct run_info **runs, size_t *nruns, char *err);
/* The same from len bytes at buf (not NUL-terminated), name standing for the file in err. */
int report_import_buf(const char *name, const char *buf, size_t len, struct run_info **runs,
		      size_t *nruns, char *err);
/*
 * Whether two runs of one uuid hold the same measurement: all export
 * writes of them but the label (a run filed under another label is still
 * that run).  0 alike; 1 different, with what the first difference is in
 * (`"median" of result 3 (sys.null)`) written into what; -1 without memory.
 */
int report_run_differs(const struct run_info *a, const struct run_info *b, char *what,
		       size_t size);

/* ------------------------------------------------------------------ */
/* merge (src/report/merge.c)                                          */
/* ------------------------------------------------------------------ */

/*
 * The runs merged into one run per label, in the order the labels first
 * appear, for a summary with one row per label.  Each instance (id,
 * placement, copies) gets one result: the median of the runs' usable
 * medians (ok or noisy) with its 95% CI over the runs, noisy when any of
 * them was, its values and curve points from the run nearest that median;
 * one usable run's result is kept as it is, and with none the first run's
 * (a skip keeps its reason).  samples is NULL in every merged result and
 * n counts the samples behind the figure.  A merged run's nmerged is the
 * number of runs of its label; with more than one its id is 0.  Returns
 * the number of merged runs in *merged (free with report_merge_free), or
 * -1 without memory and *merged NULL.
 */
int report_merge_labels(const struct run_info *runs, size_t nruns, struct run_info **merged);
void report_merge_free(struct run_info *merged, size_t n);
/*
 * A label that runs of several hosts share becomes LABEL@HOST in each of
 * them (in memory), so that the tables keep each host's runs apart and
 * name them as a selector would (issue 18: "6.18@box1").  A label of one
 * host is left as it is.
 */
void report_qualify_hosts(struct run_info *runs, size_t nruns);
/*
 * Runs of one label held to different CPUs (--cpus 0, --cpus 1, all of
 * them) are not one figure: each such run's label gains " cpus 0" (or
 * " cpus all"), in memory, so that the tables keep them apart.
 */
void report_qualify_cpus(struct run_info *runs, size_t nruns);

/* ------------------------------------------------------------------ */
/* contest (src/report/contest.c)                                      */
/* ------------------------------------------------------------------ */

/*
 * contest's tables for the contest.* results of runs: a block per load, a
 * row per label (the median over its runs, [N]), Time with its CI, CPU%,
 * Loads, LCPU% and Ratio against the first label's noload Time; with two
 * labels or more, significance marks as compare gives them (threshold as
 * there, 0.02).  Prints nothing when the runs hold no contest result.
 * 0, or -1 without memory.
 */
int report_contest_text(FILE *out, const struct run_info *runs, size_t nruns, double threshold);
/* Whether the runs hold any contest result. */
int report_contest_has(const struct run_info *runs, size_t nruns);
/* report_contest_text's tables as a model (report/model.h), for the text and the HTML.  0 or -1. */
int report_contest_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns,
			 double threshold);
/* contest's Ratio per load, grouped by label, as an SVG chart (report/svg.h).  0 or -1. */
int report_contest_chart(FILE *out, const struct run_info *runs, size_t nruns);

/* ------------------------------------------------------------------ */
/* timed jobs (src/report/timed.c)                                     */
/* ------------------------------------------------------------------ */

/*
 * The tables of the time.* results of runs: "Timed jobs" (a row per label
 * and configuration: real, user, sys and CPU% with their intervals over
 * the runs), the scaling of a -j sweep, each copy of a run of copies, and
 * with longfmt BSD time -l's rusage figures.  Nothing when there are none;
 * -1 without memory.
 */
int report_timed_text(FILE *out, const struct run_info *runs, size_t nruns, int longfmt);
/*
 * BSD time's line for one job, right-aligned as in the threads kbench grew
 * from: "     9611.42 real      6149.87 user      2613.20 sys".
 */
void report_time_line(char *buf, size_t len, double real, double user, double sys);
/*
 * One note per run that ran on fewer CPUs than the machine has (--cpus,
 * --offline-cpus, or a restriction kbench inherited), saying which way:
 * under every kind of table, so a UP-like figure is never read as the
 * machine's.
 */
void report_cpus_notes(FILE *out, const struct run_info *runs, size_t nruns);
/* Whether the runs hold any timed job's result. */
int report_timed_has(const struct run_info *runs, size_t nruns);
/* report_timed_text's tables as a model (report/model.h), for the text and the HTML.  0 or -1. */
int report_timed_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns,
		       int longfmt);
/* The timed jobs' real time per configuration, grouped by job and label, as SVG.  0 or -1. */
int report_timed_chart(FILE *out, const struct run_info *runs, size_t nruns);

/* ------------------------------------------------------------------ */
/* clock sources (src/report/clocks.c)                                 */
/* ------------------------------------------------------------------ */

/*
 * The tables of the clock.<source>.<call> results of runs (kbench clocks):
 * per label, one row per clock source and one column per call, the ns per
 * call with its interval and whether the vDSO answered it (v) or the
 * kernel (k); a source with no figure gets its reason instead, a call
 * without one a line below; then each call's resolution, clock_getres's
 * and the smallest step seen.  Nothing when there are none; 0, or -1
 * without memory.
 */
int report_clocks_text(FILE *out, const struct run_info *runs, size_t nruns);
/* The same tables appended to doc (the table model, for the page and the JSON).  0 or -1. */
int report_clocks_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns);
/* Whether the runs hold any clock source's result. */
int report_clocks_has(const struct run_info *runs, size_t nruns);

/* ------------------------------------------------------------------ */
/* compare (src/report/compare.c)                                      */
/* ------------------------------------------------------------------ */

#define REPORT_CMP_MAX_SIDES 8

/* One side of a comparison: a label's runs, or one run. */
struct report_cmp_side {
	const char *name;		/* as the user gave it */
	const struct run_info *runs;
	size_t nruns;
};

/*
 * A compared cell's three-way verdict: changed (marked *); unchanged, not
 * marked where a change of the threshold would have been (detectable at
 * most the threshold); or cannot tell, not marked by a comparison that
 * could not have seen that much.
 */
enum { CMP_CANNOT_TELL = 0, CMP_CHANGED, CMP_UNCHANGED };

enum { CMP_TEST_NONE = 0, CMP_TEST_WELCH_RUNS, CMP_TEST_MW_SAMPLES, CMP_TEST_WELCH_REPLICAS,
       CMP_TEST_ANCOVA_RUNS, CMP_TEST_WELCH_ADJUSTED, CMP_TEST_PAIRED };

/*
 * A side's machine as its sentinel saw it (issue 12): the median of each
 * operation over its runs' timelines, and against the base's (0.03: 3%
 * slower).  NaN where a side has no timeline.
 */
struct report_cmp_machine {
	double sys_ns, user_ns;
	double sys_shift, user_shift;
};
void report_compare_machine(const struct report_cmp_side *sides, size_t nsides,
			    struct report_cmp_machine *m);

/*
 * One side's figure for one instance, and against the base.  A figure that
 * does not exist (the side lacks the instance, no test could be made) is
 * NaN, never 0.
 */
struct report_cmp_cell {
	int present;
	size_t nruns;			/* runs with a usable figure */
	double median, lo, hi;		/* median of run medians and its 95% CI */
	int noisy;			/* loose in a run (report_loose): its interval over
					   twice its run's typical one */
	/* Others only: */
	double change;			/* median / base median - 1; ratio - 1 where
					   the test's level is not the medians' (the
					   common state, state_all > 0; ANCOVA; replicas
					   adjusted) */
	double ratio;			/* ratio of the geometric means of the run
					   (or replica) medians, Welch (with ANCOVA at
					   equal sentinel adds), else NaN */
	double ratio_lo, ratio_hi;	/* its 95% CI, else NaN */
	int test;			/* CMP_TEST_* */
	size_t pairs, pairs_all;	/* CMP_TEST_PAIRED: the rounds paired (kbench ab),
					   those within the machine's state (tested), of all */
	/* With states (compare.c): the runs compared in the state both sides
	   share, change then that state's; the replicas inside it, of all. 0: not. */
	size_t state_in, state_all;
	/* CMP_TEST_WELCH_ADJUSTED: how the figure's logarithm follows its replicas'
	   sentinel adds' within runs, each replica taken at the adds of all; else NaN */
	double slope;
	double df;			/* the test's degrees of freedom (t's; the pairs
					   tested less one), NaN without a t or pairs */
	/*
	 * The smallest change this comparison would mark 4 times in 5 with the
	 * spread it had: the estimate must clear the larger of its bar
	 * (threshold and the machine's shift) and its interval at the level
	 * this row had in the table's correction (Benjamini-Hochberg: 5% times
	 * the rows marked besides it, plus one, over the rows tested), and
	 * does so that often once the change is that much plus t.80 times
	 * the spread the estimate may have (the spread between sittings at
	 * its upper bound: stats_detectable_at).  Always above the threshold.
	 * NaN where no interval was measured (samples' Mann-Whitney, levels
	 * that differ).
	 */
	double detectable;
	/*
	 * How many a side of what the test compared (runs, replicas, or
	 * rounds for pairs) would bring the test's (t.975 + t.80) times its
	 * spread (the sittings' part at its upper bound) to the threshold, as
	 * the runs' part shrinks with their square root: with that many an
	 * unchanged figure is called unchanged, and a change of twice the
	 * threshold marked, most of the time; 0 where no interval was measured.
	 */
	size_t needed;
	/*
	 * The spread between sittings (stats_sittings) that the host's
	 * history showed for this figure, as a log standard deviation, and
	 * the variance it added to the test (squared logs; 0: none added, as
	 * between the two halves of one ab session or without a history);
	 * floor_bound: no count of runs a side would bring the detectable
	 * change to the threshold, only more sittings.
	 */
	double sitting_sd, sitting_var;
	double sitting_sd_hi;		/* the spread's upper 80% bound, as sitting_sd */
	double sitting_var_hi;		/* the same at the spread's upper 80% bound (stats_sittings'
					   tau2_hi): what the detectable change assumes */
	size_t sittings;		/* the history's sittings it was learnt from */
	int floor_bound;
	size_t sets;			/* this side's sittings (sets of runs) with the figure */
	int apart;			/* measured in other sittings than the base's */
	int verdict;			/* CMP_CHANGED (significant), CMP_UNCHANGED (not: the
					   change's 95% interval, the sittings' spread at its
					   upper bound, inside +-threshold), CMP_CANNOT_TELL */
	double p, p_adj;		/* two-sided; adjusted over the table */
	int significant;		/* p_adj < 0.05, |change| >= threshold + the machine's
					   shift; on samples also neither side noisy */
	int better;			/* the change is in the unit's good direction */
};

/* One instance, (id, placement, copies), in the order the base measured it. */
struct report_cmp_row {
	const struct result *key;	/* the base's first result of it */
	size_t section;			/* lmbench's table order */
	int common;			/* some other side has it too */
	int levels_differ;		/* a cache-level figure (mem.lat.l2) whose runs found
					   that level at sizes more than 2x apart: the
					   runs measured different things, so no test */
	int sentinel;			/* the sentinel adds' own row (cpu.mhz): the
					   machine's speed is its figure, so it is never
					   taken at equal adds (its change there would be
					   nothing); its move is held to the bar as the
					   machine's */
	struct report_cmp_cell cell[REPORT_CMP_MAX_SIDES];
};

/*
 * Figures compared as measured (compare --as-measured): never moved to
 * equal sentinel adds, nor the machine's move added to the bar.  For a
 * machine whose clock the kernel sets (bare metal, a frequency governor):
 * there the adds' move may be the kernel's own doing, and at equal adds it
 * would be taken out with the machine.
 */
#define REPORT_CMP_AS_MEASURED 1u

/*
 * Compare sides[1..] against sides[0]: rows malloc'd.  threshold is the
 * smallest change called significant (0.02); flags REPORT_CMP_* or 0.  0,
 * or -1 without memory or with a bad number of sides.
 */
int report_compare_build(const struct report_cmp_side *sides, size_t nsides, double threshold,
			 unsigned flags, struct report_cmp_row **rows, size_t *nrows);
/*
 * The same with the host's history: runs of conditions (labels) measured
 * in more than one sitting (a set of runs, one invocation), from which
 * each instance's spread between sittings is learnt (stats_sittings) and
 * added to the test of two sides measured in different sittings, which
 * their own runs cannot show.  history NULL: none, as report_compare_build.
 */
int report_compare_build_history(const struct report_cmp_side *sides, size_t nsides,
				 double threshold, unsigned flags,
				 const struct report_cmp_side *history,
				 struct report_cmp_row **rows, size_t *nrows);
/*
 * The spread between sittings of key's instance in the history's runs:
 * grouped into sittings (a label's runs of one set), each sitting's
 * condition its label (stats_sittings); nothing learnt from a history
 * NULL or without the instance.  0, or -1 without memory.
 */
struct stats_sittings;
int report_compare_sittings(const struct report_cmp_side *history, const struct result *key,
			    struct stats_sittings *st);
/*
 * `compare --curves`: each curve the base and another side measured
 * (mem.lat.curve), point by point: the median of the runs' y at each size
 * and series, the change against the base, and * where Welch on the runs'
 * logarithms (3 runs a side or more), corrected with Benjamini-Hochberg
 * over the curve's points, finds it significant (as for the rows: at least
 * the threshold, neither side noisy, marked !).  0, or -1 without memory.
 */
int report_compare_curves(FILE *out, const struct report_cmp_side *sides, size_t nsides,
			  double threshold);
/*
 * The comparison's tables (one model, compare.c's cmp_model, which the
 * text, the page and the JSON's "tables" render): the legend, then a
 * section at a time, a row per instance.  0, or -1 without memory.
 */
int report_compare_text(FILE *out, const struct report_cmp_side *sides, size_t nsides,
			const struct report_cmp_row *rows, size_t nrows, double threshold,
			unsigned flags);
/*
 * The same table as one JSON document, rows in the text's order and only
 * the rows the text prints (instances the base shares with some other):
 *   {"kbench": version, "base": name, "sides": [{"name", "runs", "sentinel_sys_ns",
 *    "sentinel_user_ns", "sentinel_sys_shift", "sentinel_user_shift"}],
 *    "threshold": 0.02, "as_measured": false, "correction": "benjamini-hochberg", "alpha": 0.05,
 *    "rows": [{"id", "placement" (null: none), "parallel", "unit", "better",
 *              "section": title, "cells": [cell, base's first]}],
 *    "sections": [{"title", "side", "compared", "geomean", "better",
 *                  "worse", "unchanged"}],
 *    "tables": the tables the text prints, as summary --json's, with curves
 *              (--curves) report_compare_curves' after them}
 * A cell is {"side", "present", "runs", "median", "ci_low", "ci_high",
 * "noisy"}, and for an other also "change", "ratio", "ratio_ci_low",
 * "ratio_ci_high", "test" ("welch-log-runs", "welch-log-replicas",
 * "mann-whitney-samples" or null), "p", "p_adj", "significant", "better".  "sections" has one entry
 * per printed section and other side: the text's closing line, which
 * speaks of the first other only, for each.  A figure that does not exist
 * is null.  0, or -1 when the document cannot be built or written.
 */
/*
 * `compare --html`: the page of the same tables, a forest plot per
 * section, with curves the curves' tables after them (report/html.h).  0, or -1.
 */
int report_compare_html(FILE *out, const struct report_cmp_side *sides, size_t nsides,
			const struct report_cmp_row *rows, size_t nrows, double threshold,
			unsigned flags, int curves);
int report_compare_json(FILE *out, const struct report_cmp_side *sides, size_t nsides,
			const struct report_cmp_row *rows, size_t nrows, double threshold,
			unsigned flags, int curves);

#endif

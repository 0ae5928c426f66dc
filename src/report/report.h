/*
 * What kbench shows a person or a script of a set of runs: the summary,
 * `kbench show`, sysinfo, list, and the JSON documents of run and summary.
 * Reports read results; they never measure and never touch the database.
 * Only src/report/ includes jansson.h.  The other reports have headers of
 * their own: report/compare.h, contest.h, timed.h, clocks.h, export.h
 * (export and import), merge.h, html.h; the formatting of figures is
 * report/fmt.h's.
 */
#ifndef KB_REPORT_H
#define KB_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "core/bench.h"
#include "core/result.h"
#include "core/sysinfo.h"

/*
 * lmbench's summary tables, in its order: Basic system parameters;
 * Processor, Processes; Context switching; *Local* Communication latencies;
 * File & VM system latencies; *Local* Communication bandwidths; Memory
 * latencies.  One row per run (and placement) that has figures for a
 * table, labelled "LABEL [N]" for a run merged from N (judge_merge_labels);
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
 * The same as JSON, in `summary --json`'s shape (doc/json.md's "show"):
 * {header, "sysinfo", "runs": [run]}, the run holding only the results of id, points, values
 * and samples (when loaded) included.  Returns how many results, or -1.
 */
int report_show_json(FILE *out, const struct run_info *run, const char *id);

/*
 * The machine description stored with a run (report_sysinfo_json's text)
 * read back into si: the names (os, release, version, arch, host,
 * cpu_model, clocksource, governor, smt, virt, build_type), ncpu_online,
 * mhz, the load averages (NaN unknown), memory and the caches;
 * mitigations and the other build fields are left empty.  0, or
 * -1 with si zeroed when json is NULL or not such an object.
 */
int report_sysinfo_parse(const char *json, struct sysinfo *si);

/* `kbench sysinfo` as text, aligned "key: value" lines. */
void report_sysinfo_text(FILE *out, const struct sysinfo *si);
/* The same as a JSON object text, malloc'd (caller frees); NULL on failure. */
char *report_sysinfo_json(const struct sysinfo *si);
/* `kbench sysinfo --json`: the same object in a document (doc/json.md); 0 or -1. */
int report_sysinfo_doc(FILE *out, const struct sysinfo *si);

/*
 * `--format gbench` of run, ab and time: the runs' figures in Google
 * Benchmark's JSON (report/gbench.c), for the tools that read it; sides:
 * the runs are ab's, run i named side 'A' + i.  0 or -1.
 */
int report_gbench(FILE *out, const char *sysinfo_json, const struct run_info *runs, size_t nruns,
		  int sides);

/* One row of `kbench list`. */
struct report_list_row {
	const struct bench *bench;
	const char *suites;	/* "quick,standard,lmbench" */
	const char *reason;	/* NULL when supported here */
};
void report_list_text(FILE *out, const struct report_list_row *rows, size_t n);
/* {header, "benchmarks": [{id, unit, better, summary, suites[], supported, reason}]}. */
int report_list_json(FILE *out, const struct report_list_row *rows, size_t n);

/*
 * `kbench run --json` (doc/json.md's "runs"): {header (jsonw.h),
 * "sysinfo": {...}, "runs": [{run_id, label, started, host, sysinfo,
 * results: [...]}]}.  sysinfo_json is the stored
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
 * `kbench runs --json` (doc/json.md's "run-list"): {header, "runs":
 * [{"run_id", "set_id", "uuid", "label", "started", "finished" (null if
 * interrupted), "state", "host", "os", "nresults", "skipped_or_failed"}]},
 * one per row.  0 or -1.
 */
int report_runs_list_json(FILE *out, const struct store_run_row *rows, size_t n);

#endif

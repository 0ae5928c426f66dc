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
 * lmbench's summary tables, in its order: Basic system parameters;
 * Processor, Processes; Context switching; *Local* Communication latencies;
 * File & VM system latencies; *Local* Communication bandwidths; Memory
 * latencies.  One row per run (and placement) that has figures for a
 * table, each table followed by one line per noisy, busy, failed or skipped
 * figure saying which and why; then "Other results", the figures no table
 * has a column for.  A table without a figure is left out.
 */
void report_summary(FILE *out, const struct run_info *runs, size_t nruns);

/*
 * `kbench show`: every result of `id` in run (one per placement measured).
 * A curve is a table of sizes by series, the cache levels detected in it
 * next to the sizes the OS reports; any other result its figure, CI,
 * sampling and values, one per line.  Returns how many results were shown
 * (0: the run has none for id, and nothing was printed).
 */
int report_show_text(FILE *out, const struct run_info *run, const char *id);
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
 * started, host, results: [...]}]}.  sysinfo_json is the stored text.
 */
int report_runs_json(FILE *out, const char *sysinfo_json, const struct run_info *runs,
		     size_t nruns);

#endif

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
 * The "Processor, Processes" table, one row per run, followed by one line
 * per noisy, busy, failed or skipped figure saying which and why.
 */
void report_summary(FILE *out, const struct run_info *runs, size_t nruns);

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

/*
 * The notes under the summary's tables (report/notes.c): a line of text
 * per figure that should not be taken at face value, and why.  Internal
 * to src/report/.
 */
#ifndef KB_REPORT_NOTES_H
#define KB_REPORT_NOTES_H

#include <stddef.h>
#include <stdio.h>

#include "core/result.h"

/*
 * The mark of a figure whose replicas split between their ends on one CPU
 * and on several (replica_modes): the figure is the mode of most replicas,
 * and a note gives both.
 */
#define NOTE_MODES_MARK "^"
/* The mark of a loose figure (judge_loose): its interval is over twice its run's typical one. */
#define NOTE_LOOSE_MARK "!"

/*
 * The mark of a figure some of whose replicas fell in slower spells of the
 * machine (the level leaves them out: stats_fast_level): a line under the
 * table names them, with their share and how much slower they were.
 */
#define NOTE_SLOW_MARK "+"
/* Whether r is such a figure. */
int note_slow_marked(const struct result *r);
/* The n such figures of one run in one table, on one line, deepest first (rs reordered). */
void note_slow(FILE *out, const struct run_info *run, const struct result **rs, size_t n);

/* r's own note lines (failed, interrupted; with verbose noisy, drift, busy); 1 if any. */
int note_result(FILE *out, const struct run_info *run, const struct result *r, int verbose);
/* Both modes of a figure marked NOTE_MODES_MARK. */
void note_modes(FILE *out, const struct run_info *run, const struct result *r);
/* A figure of --parallel copies: each copy's and all copies' together. */
void note_parallel(FILE *out, const struct run_info *run, const struct result *r);
/* The n loose figures of one run in one table, on one line, widest first (rs reordered). */
void note_loose(FILE *out, const struct run_info *run, const struct result **rs, size_t n);
struct rm_doc;
/* The notes on n figures of one run as the last table's NOTE lines; parallel: note_parallel's too. */
void note_model(struct rm_doc *doc, const struct run_info *run, const struct result *const *rs,
		size_t n, int parallel);

/*
 * One note per run that ran on fewer CPUs than the machine has (--cpus,
 * --offline-cpus, or a restriction kbench inherited), saying which way:
 * under every kind of table, so a UP-like figure is never read as the
 * machine's.
 */
void report_cpus_notes(FILE *out, const struct run_info *runs, size_t nruns);

#endif

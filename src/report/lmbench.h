/*
 * lmbench's part of the summary, a file a part: the seven tables
 * (lmbench.c), "System call rates" (rates.c), AIM9 (aim9.c) and "Other
 * results" (other.c), put together by report_summary_model (summary.c).
 * Each adds its tables, notes included, to the model.  Internal to
 * src/report/.
 */
#ifndef KB_REPORT_LMBENCH_H
#define KB_REPORT_LMBENCH_H

#include <stddef.h>

#include "core/result.h"
#include "core/sysinfo.h"

struct rm_doc;

/* Every lmbench table starts with these two columns: Host (left) and OS (right-aligned). */
#define LM_HOST_W 9
#define LM_OS_W 13

/* The seven tables on doc; si[k] is run k's machine or NULL (si NULL: none known). */
void lm_tables_model(struct rm_doc *doc, const struct run_info *runs,
		     const struct sysinfo *const *si, size_t nruns);
/* Whether one of the seven tables has a column for id. */
int lm_has_id(const char *id);
/*
 * A run's label in at most width columns (whole when width < 0), " [N]"
 * after it for a row merged from N runs; buf of LM_LABEL_CELL bytes holds
 * any (a label's 127 bytes escaped, 4 a column, and the count).
 */
#define LM_LABEL_CELL 576
void lm_label_cell(const struct run_info *run, int width, char *buf, size_t size);
/*
 * The OS column's width for these runs: lmbench's LM_OS_W, or the widest
 * label cell's, so that no label is cut: kernels are named like
 * 6.19.0-rc1-00042-gdeadbeef, and two that differ at the end must not read
 * alike.  The rest of the row keeps lmbench's widths.
 */
int lm_os_width(const struct run_info *runs, size_t nruns);

/* Whether id is a system call rate (rate.*), and the rates' table when any run has one. */
int rates_is(const char *id);
void rates_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns);
/* Whether id is an AIM9 test (aim9.*), and AIM9's table for each run that has one. */
int aim9_is(const char *id);
void aim9_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns);
/* The locking and wakeup latency tables (probes.c): whether id is theirs, and the tables. */
int probes_is(const char *id);
void probes_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns);
/* "Other results": the figures no table has a column for. */
void other_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns);

#endif

/*
 * Export and import (src/report/json.c, csv.c, import.c): runs written
 * whole to a file another kbench reads back, and what two copies of a
 * run have in common.
 */
#ifndef KB_REPORT_EXPORT_H
#define KB_REPORT_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "core/result.h"

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

#endif

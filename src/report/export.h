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
 * An export names what it is and its schema ("document": "export",
 * "schema": REPORT_JSON_SCHEMA, jsonw.h), so an import can refuse a file
 * that is not one, or that a newer kbench wrote, before reading further.
 * Exports of schema 1 named themselves by "format": this, and "version":
 * 1; the import still reads them.
 */
#define REPORT_EXPORT_FORMAT "kbench-export"

/*
 * `kbench export`: {"kbench", "schema", "document", "runs": [{"uuid", "set",
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
 * The same runs in KernelCI's KCIDB report format (version 5.3): a
 * checkout and a build a kernel release, a test a result, path
 * "kbench.<id>", its level as the number, its interval, unit and whether
 * it is emulation's in misc; ids start with origin (the schema's
 * [a-z0-9_]+, checked by the caller).  0 or -1.
 */
int report_export_kcidb(FILE *out, const struct run_info *runs, size_t nruns, const char *origin);
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

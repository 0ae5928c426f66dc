/*
 * Writing JSON (report/jsonw.c), shared by the files of src/report/ that
 * write it (json.c, compare.c, series.c) and the key tables import.c reads
 * it back by.  Includes jansson.h, so nothing outside src/report/ may
 * include it.  Each constructor returns NULL only without memory, and
 * report_jset/report_jpush count that (or any failure) in *bad, so a
 * document is built without a check after every call and refused whole.
 */
#ifndef KB_REPORT_JSONW_H
#define KB_REPORT_JSONW_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/*
 * The version of the shape of every --json document and the export
 * (doc/json.md, doc/kbench.schema.json): raised when a key is renamed,
 * changes type or meaning, or a document changes shape; adding a key
 * keeps it.  1 was the export's alone, before the documents shared one.
 */
#define REPORT_JSON_SCHEMA 2

/* A string; bytes that are not UTF-8 become '?' (names come from the OS and users). */
json_t *report_jstr(const char *s);
/* A double, or null when it is not a number JSON can hold (NaN, infinities). */
json_t *report_jreal(double v);
void report_jset(json_t *obj, const char *key, json_t *val, int *bad);
void report_jpush(json_t *arr, json_t *val, int *bad);

/*
 * A document's root, every --json output's: {"kbench": the program's
 * version, "schema": REPORT_JSON_SCHEMA, "document": what follows, by the
 * name doc/json.md gives it ("runs", "compare", ...)}.
 */
json_t *report_jdoc(const char *document, int *bad);
/*
 * Write root as every document ends: indented, a newline, numbers in
 * digits digits (17 reads back as the same double; 15 keeps 0.05 from
 * printing as 0.050000000000000003 where nothing reads it back).  0 or -1.
 */
int report_jdump(FILE *out, json_t *root, int digits);

struct rm_doc;
/*
 * The table model's tables as JSON (summary's and compare's "tables"):
 * each its id, title, header, rows (cells, marks) and notes.
 */
json_t *report_model_json(const struct rm_doc *doc, int *bad);

#endif

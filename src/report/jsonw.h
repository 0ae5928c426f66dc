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

/* A string; bytes that are not UTF-8 become '?' (names come from the OS and users). */
json_t *report_jstr(const char *s);
/* A double, or null when it is not a number JSON can hold (NaN, infinities). */
json_t *report_jreal(double v);
void report_jset(json_t *obj, const char *key, json_t *val, int *bad);
void report_jpush(json_t *arr, json_t *val, int *bad);

struct rm_doc;
/*
 * The table model's tables as JSON (summary's and compare's "tables"):
 * each its id, title, header, rows (cells, marks) and notes.
 */
json_t *report_model_json(const struct rm_doc *doc, int *bad);

#endif

/*
 * The pieces every JSON writer of src/report/ builds with (json.c's
 * documents, compare's, the history's): strings that are always valid
 * UTF-8, numbers that are null where JSON has none, sets and pushes that
 * count their failures, and the table model's tables as JSON.  It calls
 * only jansson, the UTF-8 repair and the model, never a report.
 *
 * Two things jansson will not do for us: it refuses NaN and infinities (a
 * figure that does not exist becomes null here), and it refuses strings that
 * are not UTF-8.  Host names and uname text come from the OS, and a label
 * from a database an older kbench wrote, so each byte that is not UTF-8 is
 * replaced by U+FFFD, the replacement character, and everything else is
 * kept: "noyau-\xe9" is written "noyau-\ufffd", never refused, and its
 * valid characters ("é" elsewhere in it) are not touched.
 */
#include "report/jsonw.h"
#include "report/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "core/utf8.h"

/* A string as JSON, never NULL for a bad encoding (NULL without memory). */
json_t *report_jstr(const char *s)
{
	json_t *j;
	char *copy;
	size_t size;

	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	/* Each bad byte becomes the three of U+FFFD. */
	size = 3 * strlen(s) + 1;
	copy = malloc(size);
	if (!copy)
		return NULL;
	utf8_repair(copy, size, s);
	j = json_string(copy);
	free(copy);
	return j;
}

/* A double, or null when it is not a number jansson can write. */
json_t *report_jreal(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/*
 * Setting a NULL value fails (and is how an allocation failure shows up),
 * so each set counts its own failure instead of checking every constructor.
 */
void report_jset(json_t *obj, const char *key, json_t *val, int *bad)
{
	if (json_object_set_new(obj, key, val) != 0)
		*bad = 1;
}

void report_jpush(json_t *arr, json_t *val, int *bad)
{
	if (json_array_append_new(arr, val) != 0)
		*bad = 1;
}

json_t *report_jdoc(const char *document, int *bad)
{
	json_t *root = json_object();

	if (!root) {
		*bad = 1;
		return NULL;
	}
	report_jset(root, "kbench", report_jstr(KB_VERSION), bad);
	report_jset(root, "schema", json_integer(REPORT_JSON_SCHEMA), bad);
	report_jset(root, "document", report_jstr(document), bad);
	return root;
}

int report_jdump(FILE *out, json_t *root, int digits)
{
	if (!root || json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(digits)) != 0)
		return -1;
	return fputc('\n', out) == EOF ? -1 : 0;
}

/* A cell's text without the padding the text aligns it with. */
static json_t *model_text(const char *s, int *bad)
{
	char *t = rm_trimmed(s);
	json_t *j;

	if (!t) {
		*bad = 1;
		return NULL;
	}
	j = report_jstr(t);
	free(t);
	return j;
}

/*
 * The table model as JSON: each table with its title, its header lines,
 * its rows (cells as the text prints them, and what the notes say of
 * each: noisy, busy, missing), the lines heading groups of rows, and its
 * notes; the same the text and the HTML show.
 */
json_t *report_model_json(const struct rm_doc *doc, int *bad)
{
	json_t *arr = json_array();

	if (!arr) {
		*bad = 1;
		return NULL;
	}
	for (size_t t = 0; t < doc->ntables && !*bad; t++) {
		const struct rm_table *tb = &doc->tables[t];
		json_t *o = json_object(), *head = json_array(), *rows = json_array(),
		       *notes = json_array();

		if (!o || !head || !rows || !notes) {
			*bad = 1;
			json_decref(o), json_decref(head), json_decref(rows), json_decref(notes);
			break;
		}
		report_jset(o, "id", report_jstr(tb->id), bad);
		report_jset(o, "title", report_jstr(tb->title), bad);
		for (size_t i = 0; i < tb->nlines && !*bad; i++) {
			const struct rm_line *l = &tb->lines[i];
			json_t *cells, *row;

			switch (l->kind) {
			case RM_HEAD:
			case RM_ROW:
				cells = json_array();
				row = l->kind == RM_ROW ? json_object() : NULL;
				if (!cells || (l->kind == RM_ROW && !row)) {
					*bad = 1;
					json_decref(cells);
					json_decref(row);
					break;
				}
				for (size_t c = 0; c < l->ncells; c++)
					report_jpush(cells, model_text(l->cells[c].text, bad), bad);
				if (l->kind == RM_HEAD) {
					report_jpush(head, cells, bad);
					break;
				}
				report_jset(row, "cells", cells, bad);
				{
					json_t *marks = json_array();

					for (size_t c = 0; marks && c < l->ncells; c++) {
						unsigned f = l->cells[c].flags;

						report_jpush(marks, report_jstr(f & RM_MISSING ? "missing" :
										f & RM_NOISY ? "loose" :
										f & RM_BUSY ? "busy" :
										f & RM_SIGNIF ? "significant" : ""), bad);
					}
					report_jset(row, "marks", marks ? marks : json_null(), bad);
				}
				report_jpush(rows, row, bad);
				break;
			case RM_GROUP:
			case RM_CONT:
				if (!l->text[0])
					break;
				row = json_object();
				report_jset(row, l->kind == RM_GROUP ? "group" : "continued",
					    model_text(l->text, bad), bad);
				report_jpush(rows, row, bad);
				break;
			case RM_NOTE:
				report_jpush(notes, model_text(l->text, bad), bad);
				break;
			case RM_PARA: {
				char *para = rm_joined(l->text);

				if (!para)
					*bad = 1;
				else
					report_jpush(notes, model_text(para, bad), bad);
				free(para);
				break;
			}
			case RM_RULE:
				break;
			}
		}
		report_jset(o, "header", head, bad);
		report_jset(o, "rows", rows, bad);
		report_jset(o, "notes", notes, bad);
		report_jpush(arr, o, bad);
	}
	return arr;
}

/*
 * libFuzzer harness for the two writers that put a user's text where
 * another program parses it: the CSV export (report_export_csv, read by
 * spreadsheets) and the HTML page's data block (report_html_data, read by
 * the page's script with JSON.parse).  The input, cut at its first NUL, is
 * a run's label, host and OS at once (a label and host hold at most 127
 * bytes, an OS 255, as the store keeps them).  The properties:
 *   - the CSV parses back (RFC 4180) into a header and one row of as many
 *     fields, and the label, host and OS fields read back as the text, a
 *     byte that is not UTF-8 as U+FFFD, with a quote before a text that a
 *     spreadsheet would take for a formula (=, +, -, @, tab, CR);
 *   - the data block holds no '<' at all, so no "</script" or "<!--" can
 *     end or hide the element, and JSON.parse of it (jansson here) gives
 *     the text back.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "core/result.h"
#include "core/utf8.h"
#include "fuzz/fuzz.h"
#include "report/export.h"
#include "report/html.h"

/* The next CSV field at *p (RFC 4180), into out (malloc'd); *end set when the record ended. */
static char *fz_csv_field(const char **p, int *end)
{
	size_t cap = strlen(*p) + 1, n = 0;
	char *out = malloc(cap);
	const char *s = *p;

	FZ_CHECK(out != NULL, "out of memory");
	if (*s == '"') {
		for (s++;; s++) {
			FZ_CHECK(*s, "a quoted field never closes");
			if (*s == '"' && s[1] == '"') {
				out[n++] = '"';
				s++;
			} else if (*s == '"') {
				s++;
				break;
			} else {
				out[n++] = *s;
			}
		}
	} else {
		while (*s && *s != ',' && *s != '\n') {
			FZ_CHECK(*s != '"' && *s != '\r', "a bare field holds a quote or a CR");
			out[n++] = *s++;
		}
	}
	out[n] = '\0';
	FZ_CHECK(*s == ',' || *s == '\n', "a field is followed by neither a comma nor a line end");
	*end = *s == '\n';
	*p = s + 1;
	return out;
}

/* A record's fields, into f (at most max); their count. */
static size_t fz_csv_record(const char **p, char **f, size_t max)
{
	size_t n = 0;
	int end = 0;

	while (!end) {
		FZ_CHECK(n < max, "more than %zu fields in a record", max);
		f[n++] = fz_csv_field(p, &end);
	}
	return n;
}

/*
 * Whether a spreadsheet would take s for a formula, as the manual says:
 * it starts with a tab or a carriage return, or it or a part after a ';'
 * starts, once blanks (ASCII's, a no-break space, U+3000) are skipped, with
 * = + - @ or their fullwidth forms.
 */
static int fz_formula(const char *s)
{
	static const char *const blanks[] = { " ", "\t", "\r", "\n", "\xc2\xa0", "\xe3\x80\x80" };
	static const char *const signs[] = { "=", "+", "-", "@", "\xef\xbc\x9d", "\xef\xbc\x8b",
					     "\xef\xbc\x8d", "\xef\xbc\xa0" };

	if (s[0] == '\t' || s[0] == '\r')
		return 1;
	for (const char *part = s; part; part = *part ? strchr(part + 1, ';') : NULL) {
		const char *q = part + (*part == ';');
		int more = 1;

		while (more) {
			more = 0;
			for (size_t i = 0; i < sizeof(blanks) / sizeof(*blanks); i++)
				if (strncmp(q, blanks[i], strlen(blanks[i])) == 0) {
					q += strlen(blanks[i]);
					more = 1;
				}
		}
		for (size_t i = 0; i < sizeof(signs) / sizeof(*signs); i++)
			if (strncmp(q, signs[i], strlen(signs[i])) == 0)
				return 1;
	}
	return 0;
}

/* What the CSV must give back for s: repaired, and quoted where it starts as a formula. */
static void fz_csv_want(const char *s, char *want, size_t len)
{
	char fixed[3 * 256 + 1];

	utf8_repair(fixed, sizeof(fixed), s);
	snprintf(want, len, "%s%s", fz_formula(fixed) ? "'" : "", fixed);
}

static int fz_json_label(FILE *out, const void *arg)
{
	json_t *o = json_pack("{s:s}", "label", (const char *)arg);
	int rc;

	FZ_CHECK(o != NULL, "a repaired text is not a JSON string");
	rc = json_dumpf(o, out, JSON_COMPACT);
	json_decref(o);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_info run;
	struct result r;
	char *csv = NULL, *html = NULL, *f[256], *g[256], want[1024], fixed[3 * 256 + 1];
	const char *p, *col[] = { "label", "host", "os" }, *got[3];
	size_t csvlen = 0, htmllen = 0, nh, nr;
	FILE *out;

	memset(&run, 0, sizeof(run));
	memset(&r, 0, sizeof(r));
	snprintf(run.label, sizeof(run.label), "%.*s", (int)size, (const char *)data);
	snprintf(run.host, sizeof(run.host), "%s", run.label);
	snprintf(run.os, sizeof(run.os), "%.*s", (int)size, (const char *)data);
	snprintf(run.uuid, sizeof(run.uuid), "0123456789abcdef0123456789abcdef");
	snprintf(run.set_uuid, sizeof(run.set_uuid), "%s", run.uuid);
	snprintf(run.started, sizeof(run.started), "2026-12-03T20:00:00Z");
	result_init(&r, registry_find("sys.null"));
	r.status = RES_OK;
	r.median = r.min = r.max = r.mean = r.ci_low = r.ci_high = 1;
	run.results = &r;
	run.nresults = 1;

	/* The CSV: one header, one row, as many fields; the texts back. */
	out = open_memstream(&csv, &csvlen);
	FZ_CHECK(out != NULL, "open_memstream");
	FZ_CHECK(report_export_csv(out, &run, 1) == 0, "the CSV export failed");
	fclose(out);
	p = csv;
	nh = fz_csv_record(&p, f, 256);
	nr = fz_csv_record(&p, g, 256);
	FZ_CHECK(*p == '\0', "more than one row for one result");
	FZ_CHECK(nh == nr, "%zu fields in the header, %zu in the row", nh, nr);
	got[0] = got[1] = got[2] = NULL;
	for (size_t i = 0; i < nh; i++)
		for (size_t c = 0; c < 3; c++)
			if (strcmp(f[i], col[c]) == 0)
				got[c] = g[i];
	for (size_t c = 0; c < 3; c++) {
		FZ_CHECK(got[c] != NULL, "no %s column", col[c]);
		fz_csv_want(c == 0 ? run.label : c == 1 ? run.host : run.os, want, sizeof(want));
		FZ_CHECK(strcmp(got[c], want) == 0, "%s reads back as \"%s\", not \"%s\"", col[c], got[c], want);
	}
	for (size_t i = 0; i < nh; i++)
		free(f[i]);
	for (size_t i = 0; i < nr; i++)
		free(g[i]);
	free(csv);

	/* The data block: no '<' inside, and JSON.parse gives the text back. */
	utf8_repair(fixed, sizeof(fixed), run.label);
	out = open_memstream(&html, &htmllen);
	FZ_CHECK(out != NULL, "open_memstream");
	report_html_data(out, fz_json_label, fixed);
	fclose(out);
	{
		const char *open = "<script type=\"application/json\" id=\"kbench-data\">\n";
		char *body = html + strlen(open), *close;
		json_error_t e;
		json_t *doc;

		FZ_CHECK(strncmp(html, open, strlen(open)) == 0, "the block does not open as it should");
		close = strstr(body, "</script>\n");
		FZ_CHECK(close != NULL && close[strlen("</script>\n")] == '\0', "the block does not end once, at the end");
		*close = '\0';
		FZ_CHECK(strchr(body, '<') == NULL, "a '<' inside the data block");
		doc = json_loads(body, 0, &e);
		FZ_CHECK(doc != NULL, "the data block is no JSON: %s", e.text);
		FZ_CHECK(strcmp(json_string_value(json_object_get(doc, "label")), fixed) == 0,
			 "the label does not read back");
		json_decref(doc);
	}
	free(html);
	return 0;
}

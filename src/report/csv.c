/*
 * `kbench export --format csv`: one row per result, for spreadsheets and
 * scripts that want a flat table.  RFC 4180: comma-separated, CRLF is not
 * required by the tools that read it, so rows end in LF; a field holding a
 * comma, quote or line break is quoted, its quotes doubled.  A figure that
 * does not exist (a skipped result's median) is an empty field, never 0.
 * Samples, values, curve points and a timed job's usage do not fit one
 * row: the JSON has them.  A distribution's percentiles (wake.*) are the
 * last columns, empty for every other result.
 */
#include "report/curve.h"
#include "report/export.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fields.h"
#include "core/utf8.h"
#include "stats/hist.h"

/* The run's columns; the result's after them are core/fields.h's, in its order. */
static const char *const csv_run_columns[] = {
	"run_uuid", "set_uuid", "label", "host", "os", "started",
};

/*
 * A text field.  A byte that is not UTF-8 (a host name from the OS, a label
 * an older kbench stored) is written as U+FFFD, as the JSON export does, so
 * a spreadsheet reading UTF-8 never refuses the file.  A text that starts
 * as a spreadsheet's formula does (=, +, -, @, a tab or a carriage return:
 * a label "=HYPERLINK(...)" would run when the file is opened) gets a
 * quote before it, in a quoted field, as OWASP's advice on CSV injection
 * says: the cell then reads as text, the quote shown.  Numbers are never
 * texts here (csv_num), so a negative figure keeps its sign.  A spreadsheet
 * also trims blanks before a formula (" =1+1", a no-break space), reads the
 * fullwidth signs (U+FF1D "＝" and its kin) as the ASCII ones, and in a
 * locale whose separator is ';' splits ";=1+1" into a formula cell: each of
 * those counts as a formula too.
 */

/* The blanks a spreadsheet skips before a formula: ASCII's, NBSP, U+3000. */
static const char *const csv_blanks[] = { " ", "\t", "\r", "\n", "\xc2\xa0", "\xe3\x80\x80" };
/* What starts a formula: ASCII's, and their fullwidth forms U+FF1D, U+FF0B, U+FF0D, U+FF20. */
static const char *const csv_signs[] = { "=", "+", "-", "@", "\xef\xbc\x9d", "\xef\xbc\x8b",
					 "\xef\xbc\x8d", "\xef\xbc\xa0" };

static int csv_starts(const char *s, const char *const *set, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strncmp(s, set[i], strlen(set[i])) == 0)
			return (int)strlen(set[i]);
	return 0;
}

/* Whether s, or a part of it after a ';', starts as a formula once its blanks are skipped. */
static int csv_formula(const char *s)
{
	/* A tab or carriage return first: a cell some spreadsheets run as they trim it. */
	if (s[0] == '\t' || s[0] == '\r')
		return 1;
	for (const char *p = s; p; p = strchr(p, ';')) {
		int k;

		p += *p == ';';
		while ((k = csv_starts(p, csv_blanks, sizeof(csv_blanks) / sizeof(*csv_blanks))))
			p += k;
		if (csv_starts(p, csv_signs, sizeof(csv_signs) / sizeof(*csv_signs)))
			return 1;
	}
	return 0;
}

static void csv_text(FILE *out, const char *s, int first)
{
	char fixed[3 * 256 + 1];
	int formula;

	if (!first)
		fputc(',', out);
	if (!utf8_is_valid(s)) {
		utf8_repair(fixed, sizeof(fixed), s);
		s = fixed;
	}
	formula = csv_formula(s);
	if (!formula && !strpbrk(s, ",;\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	if (formula)
		fputc('\'', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/*
 * The fewest significant digits (up to 17) that read back as the same
 * double: 1.634715, not 1.6347149999999999, which a spreadsheet shows and a
 * reader must not round.
 */
static void csv_num(FILE *out, double v)
{
	char buf[40];

	fputc(',', out);
	if (!isfinite(v))
		return;
	for (int digits = 1; digits <= 17; digits++) {
		snprintf(buf, sizeof(buf), "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, out);
}

/* One of r's fields, after a comma: empty where it says none. */
static void csv_field(FILE *out, const struct field *f, const struct result *r)
{
	const char *p = (const char *)r + f->off;
	double d;
	int i;

	switch (f->type) {
	case FIELD_TEXT:
		csv_text(out, p, 0);
		break;
	case FIELD_REAL:
		d = *(const double *)(const void *)p;
		csv_num(out, ((f->flags & FIELD_NEG_NONE) && d < 0) || ((f->flags & FIELD_POSITIVE) && !(d > 0))
				     ? (double)NAN : d);
		break;
	case FIELD_SIZE:
		fprintf(out, ",%zu", *(const size_t *)(const void *)p);
		break;
	case FIELD_U64:
		fprintf(out, ",%llu", (unsigned long long)*(const uint64_t *)(const void *)p);
		break;
	case FIELD_INT:
	case FIELD_BOOL:
		i = *(const int *)(const void *)p;
		if ((f->flags & FIELD_ZERO_NONE) && i == 0)
			fputc(',', out);
		else
			fprintf(out, ",%d", f->type == FIELD_BOOL ? i != 0 : i);
		break;
	case FIELD_BETTER:
		csv_text(out, bench_better_name(r->better), 0);
		break;
	case FIELD_STATUS:
		csv_text(out, result_status_name(r->status), 0);
		break;
	case FIELD_STOP:
		csv_text(out, result_stop_name(r->stop), 0);
		break;
	case FIELD_PLACE:
		/* place_name(PLACE_NA) is "": empty, as a missing figure is. */
		csv_text(out, place_name(r->placement), 0);
		break;
	}
}

int report_export_csv(FILE *out, const struct run_info *runs, size_t nruns)
{
	struct curve_point pt;

	for (size_t i = 0; i < sizeof(csv_run_columns) / sizeof(csv_run_columns[0]); i++)
		csv_text(out, csv_run_columns[i], i == 0);
	for (size_t k = 0; k < field_nresult; k++)
		csv_text(out, field_result[k].key, 0);
	for (size_t k = 0; k < HIST_NPCT; k++)
		csv_text(out, hist_pct_keys[k], 0);
	/* A scalability point's place on its curve (report/curve.h), empty elsewhere. */
	csv_text(out, "tasks", 0);
	csv_text(out, "linear", 0);
	csv_text(out, "efficiency", 0);
	fputc('\n', out);
	for (size_t i = 0; i < nruns; i++)
		for (size_t j = 0; j < runs[i].nresults; j++) {
			const struct run_info *run = &runs[i];

			csv_text(out, run->uuid, 1);
			csv_text(out, run->set_uuid, 0);
			csv_text(out, run->label, 0);
			csv_text(out, run->host, 0);
			csv_text(out, run->os, 0);
			csv_text(out, run->started, 0);
			for (size_t k = 0; k < field_nresult; k++)
				csv_field(out, &field_result[k], &run->results[j]);
			for (size_t k = 0; k < HIST_NPCT; k++) {
				const struct bench_value *v = result_value(&run->results[j], hist_pct_keys[k]);

				csv_num(out, v && !v->text[0] ? v->num : (double)NAN);
			}
			if (curve_point_of(run, &run->results[j], &pt) == 0) {
				fprintf(out, ",%d", pt.tasks);
				csv_num(out, pt.linear);
				csv_num(out, pt.efficiency);
			} else {
				fputs(",,,", out);
			}
			fputc('\n', out);
		}
	return ferror(out) ? -1 : 0;
}

/*
 * `kbench export --format csv`: one row per result, for spreadsheets and
 * scripts that want a flat table.  RFC 4180: comma-separated, CRLF is not
 * required by the tools that read it, so rows end in LF; a field holding a
 * comma, quote or line break is quoted, its quotes doubled.  A figure that
 * does not exist (a skipped result's median) is an empty field, never 0.
 * Samples, values, curve points and a timed job's usage do not fit one
 * row: the JSON has them.
 */
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/utf8.h"

/* The columns, in order; the header row is this list. */
static const char *const csv_columns[] = {
	"run_uuid", "set_uuid", "label", "host", "os", "started", "id", "unit", "better", "status",
	"placement", "parallel", "jobs", "median", "ci_low", "ci_high", "min", "max", "mean", "stddev",
	"cv", "p5", "p95", "n", "iterations", "stop", "interference", "overhead", "wall_s",
	"aggregate", "replicas", "drift", "drifted", "reason",
};

/*
 * A text field.  A byte that is not UTF-8 (a host name from the OS, a label
 * an older kbench stored) is written as U+FFFD, as the JSON export does, so
 * a spreadsheet reading UTF-8 never refuses the file.
 */
static void csv_text(FILE *out, const char *s, int first)
{
	char fixed[3 * 256 + 1];

	if (!first)
		fputc(',', out);
	if (!utf8_is_valid(s)) {
		utf8_repair(fixed, sizeof(fixed), s);
		s = fixed;
	}
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* 17 significant digits: read back, the number is the same double. */
static void csv_num(FILE *out, double v)
{
	fputc(',', out);
	if (isfinite(v))
		fprintf(out, "%.17g", v);
}

int report_export_csv(FILE *out, const struct run_info *runs, size_t nruns)
{
	for (size_t i = 0; i < sizeof(csv_columns) / sizeof(csv_columns[0]); i++)
		csv_text(out, csv_columns[i], i == 0);
	fputc('\n', out);
	for (size_t i = 0; i < nruns; i++)
		for (size_t j = 0; j < runs[i].nresults; j++) {
			const struct run_info *run = &runs[i];
			const struct result *r = &run->results[j];

			csv_text(out, run->uuid, 1);
			csv_text(out, run->set_uuid, 0);
			csv_text(out, run->label, 0);
			csv_text(out, run->host, 0);
			csv_text(out, run->os, 0);
			csv_text(out, run->started, 0);
			csv_text(out, r->id, 0);
			csv_text(out, r->unit, 0);
			csv_text(out, bench_better_name(r->better), 0);
			csv_text(out, result_status_name(r->status), 0);
			csv_text(out, r->placement == PLACE_NA ? "" : place_name(r->placement), 0);
			fprintf(out, ",%d", r->parallel);
			/* Empty, as a missing figure is, for a result that is not one of a -j sweep. */
			if (r->jobs > 0)
				fprintf(out, ",%d", r->jobs);
			else
				fputc(',', out);
			csv_num(out, r->median);
			csv_num(out, r->ci_low);
			csv_num(out, r->ci_high);
			csv_num(out, r->min);
			csv_num(out, r->max);
			csv_num(out, r->mean);
			csv_num(out, r->stddev);
			csv_num(out, r->cv);
			csv_num(out, r->p5);
			csv_num(out, r->p95);
			fprintf(out, ",%zu,%llu", r->n, (unsigned long long)r->iterations);
			csv_text(out, result_stop_name(r->stop), 0);
			csv_num(out, r->interference < 0 ? (double)NAN : r->interference);
			csv_num(out, r->overhead);
			csv_num(out, r->wall_s);
			csv_num(out, r->aggregate);
			fprintf(out, ",%zu", r->nreplicas);
			csv_num(out, r->drift);
			fprintf(out, ",%d", r->drifted != 0);
			csv_text(out, r->reason, 0);
			fputc('\n', out);
		}
	return ferror(out) ? -1 : 0;
}

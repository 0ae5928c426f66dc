/*
 * `kbench list` as text: a line per benchmark, its id, unit, which way is
 * better, its suites and what it measures, and why it is skipped here when
 * it is.  The JSON of the same rows is json.c's.
 */
#include "report/report.h"
#include "report/fmt.h"

#include <stdio.h>
#include <string.h>

void report_list_text(FILE *out, const struct report_list_row *rows, size_t n)
{
	/* The unit column is at least lmbench's "MB/s" wide, wider for "calls/s". */
	int idw = 9, suitew = 6, unitw = 4;

	for (size_t i = 0; i < n; i++) {
		int l = (int)strlen(rows[i].bench->id);
		int s = rows[i].suites ? (int)strlen(rows[i].suites) : 0;
		int u = (int)strlen(bench_unit(rows[i].bench));
		if (l > idw)
			idw = l;
		if (s > suitew)
			suitew = s;
		/* AIM9's units ("System Memory Allocations/second") push their own line only. */
		if (u > unitw && u <= 10)
			unitw = u;
	}
	if (n)
		fprintf(out, "%-*s  %-*s  %-6s  %s\n", idw, "benchmark", unitw, "unit", "better",
			"suites, then what it measures");
	for (size_t i = 0; i < n; i++) {
		const struct bench *b = rows[i].bench;
		char what[512];
		int at;

		snprintf(what, sizeof(what), "%s%s%s%s", b->summary ? b->summary : "",
			 rows[i].reason ? "  [skip: " : "", rows[i].reason ? rows[i].reason : "",
			 rows[i].reason ? "]" : "");
		const char *suites = rows[i].suites ? rows[i].suites : "";
		/* A unit wider than its column (AIM9's) takes its line as it comes, unaligned. */
		int wide = (int)strlen(bench_unit(b)) > unitw;

		at = fprintf(out, "%-*s  %-*s  %-6s  %s", wide ? 0 : idw, b->id, unitw, bench_unit(b),
			     bench_better_name(b->better), suites);
		/*
		 * What it measures after its suites where the line holds it, else
		 * on lines of its own, the benchmark's line still marked [skip] so
		 * that a grep of it says so.
		 */
		if (!what[0]) {
			fputc('\n', out);
		} else if (at + (suitew - (int)strlen(suites)) + 2 + (int)strlen(what) <= REPORT_COLS) {
			fprintf(out, "%*s  %s\n", suitew - (int)strlen(suites), "", what);
		} else {
			fprintf(out, "%s\n    ", rows[i].reason ? "  [skip]" : "");
			report_wrap(out, 4, what);
		}
	}
}

/*
 * `kbench list` as text: a line per benchmark, its id, unit, which way is
 * better, its suites and what it measures, and why it is skipped here when
 * it is.  The JSON of the same rows is json.c's.
 */
#include "report/report.h"

#include <stdio.h>
#include <string.h>

void report_list_text(FILE *out, const struct report_list_row *rows, size_t n)
{
	/* The unit column is at least lmbench's "MB/s" wide, wider for "calls/s". */
	int idw = 0, suitew = 0, unitw = 4;

	for (size_t i = 0; i < n; i++) {
		int l = (int)strlen(rows[i].bench->id);
		int s = rows[i].suites ? (int)strlen(rows[i].suites) : 0;
		int u = (int)strlen(bench_unit(rows[i].bench));
		if (l > idw)
			idw = l;
		if (s > suitew)
			suitew = s;
		if (u > unitw)
			unitw = u;
	}
	for (size_t i = 0; i < n; i++) {
		const struct bench *b = rows[i].bench;

		fprintf(out, "%-*s  %-*s  %-6s  %-*s  %s", idw, b->id, unitw, bench_unit(b),
			bench_better_name(b->better), suitew,
			rows[i].suites ? rows[i].suites : "", b->summary ? b->summary : "");
		if (rows[i].reason)
			fprintf(out, "  [skip: %s]", rows[i].reason);
		fputc('\n', out);
	}
}

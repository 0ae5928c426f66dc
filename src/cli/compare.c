/*
 * kbench compare BASE OTHER ...: each argument a label (all its runs) or a
 * run id, compared instance by instance against the first.  Opens the
 * database read-only, without creating it.  Everything that can be wrong
 * with the arguments (a name given twice, a run on two sides, nothing in
 * common) is one line before any table is printed, with --json too: a
 * script then finds either one document on stdout or one line on stderr.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/err.h"
#include "report/compare.h"
#include "store/store.h"

int cmd_compare(int argc, char **argv)
{
	const char *db = NULL, *format = NULL;
	enum cli_format fmt;
	double threshold = JUDGE_CMP_THRESHOLD * 100;
	double pct;
	const char *pct_arg = NULL;
	int json = 0, html = 0, curves = 0, measured = 0, no_history = 0, nhist = 0;
	struct run_info *hist = NULL;
	struct judge_cmp_side history;
	const char *hosts[JUDGE_CMP_MAX_SIDES];
	size_t nhosts = 0;
	const struct opt opts[] = {
		OPT_ROW_DB(db),
		{ "threshold", OPT_DOUBLE, &threshold, "PCT", "smallest change called significant (2)", 0, 100, 0 },
		OPT_ROW_FORMAT(format, "text (the table), json (p-values included) or html (a page)"),
		{ "json", OPT_FLAG, &json, NULL, "print the table as one JSON document, p-values included", 0, 0, 0 },
		{ "html", OPT_FLAG, &html, NULL, "print one self-contained HTML page: the tables and a forest plot per section", 0, 0, 0 },
		{ "curves", OPT_FLAG, &curves, NULL, "also compare curves (mem.lat.curve) point by point", 0, 0, 0 },
		{ "as-measured", OPT_FLAG, &measured, NULL, "never at equal machine speed: where the kernel sets the clock (bare metal), its move is the kernel's", 0, 0, 0 },
		{ "no-history", OPT_FLAG, &no_history, NULL, "learn nothing from the host's other sittings: the sides' runs only", 0, 0, 0 },
		OPT_ROW_PERCENTILE(pct_arg),
		{ 0 },
	};
	struct judge_cmp_side sides[JUDGE_CMP_MAX_SIDES];
	struct run_info *runs[JUDGE_CMP_MAX_SIDES] = { 0 };
	struct judge_cmp_row *rows = NULL;
	char path[PATH_MAX], err[ERRBUF_LEN];
	size_t nrows = 0, common = 0;
	struct store *st;
	unsigned flags;
	int nsides;

	nsides = opt_parse(cli_find("compare"), opts, argc, argv);
	if (nsides < 2)
		die_usage("compare: name a base and at least one other (labels or run ids)");
	pct = cli_percentile("compare", pct_arg);
	fmt = cli_format("compare", format, json, html, 1u << CLI_TEXT | 1u << CLI_JSON | 1u << CLI_HTML);
	json = fmt == CLI_JSON;
	html = fmt == CLI_HTML;
	if (nsides > JUDGE_CMP_MAX_SIDES)
		die_usage("compare: at most %d sides", JUDGE_CMP_MAX_SIDES);
	for (int i = 0; i < nsides; i++)
		for (int j = 0; j < i; j++)
			if (strcmp(argv[i], argv[j]) == 0)
				die_usage("compare: '%s' is named twice; compare it with something else",
					  argv[i]);
	cli_db_path("compare", db, path, sizeof(path));
	st = store_open_readonly(path, err);
	if (!st)
		die("%s", err);
	for (int i = 0; i < nsides; i++) {
		const char *sel = argv[i];
		int n = store_runs_load(st, &sel, 1, 1, &runs[i], err);

		if (n < 0) {
			store_close(st);
			die("compare: %s", err);
		}
		sides[i] = (struct judge_cmp_side){ argv[i], runs[i], (size_t)n };
		/* '1' and 'A' where A is run 1: the run would be compared with itself. */
		for (int j = 0; j < i; j++)
			for (size_t a = 0; a < sides[i].nruns; a++)
				for (size_t b = 0; b < sides[j].nruns; b++)
					if (runs[i][a].id == runs[j][b].id)
						die_usage("compare: run %lld is in both '%s' and '%s'; "
							  "compare it with something else",
							  (long long)runs[i][a].id, argv[j], argv[i]);
	}
	for (int i = 0; i < nsides; i++)
		for (size_t j = 0; j < sides[i].nruns && nhosts < JUDGE_CMP_MAX_SIDES; j++) {
			int seen = 0;

			for (size_t h = 0; h < nhosts && !seen; h++)
				seen = !strcmp(hosts[h], sides[i].runs[j].host);
			if (!seen)
				hosts[nhosts++] = sides[i].runs[j].host;
		}
	if (!no_history && (nhist = cli_history(st, hosts, nhosts, &hist, err)) < 0) {
		store_close(st);
		die("compare: the host's history: %s", err);
	}
	store_close(st);
	{
		size_t n[JUDGE_CMP_MAX_SIDES], nh = (size_t)nhist;

		for (int i = 0; i < nsides; i++)
			n[i] = sides[i].nruns;
		cli_percentile_apply("compare", pct, runs, n, (size_t)nsides, 0);
		/* The history is read without samples: it teaches no percentile's spread. */
		cli_percentile_apply("compare", pct, &hist, &nh, nhist > 0, 1);
	}
	history = (struct judge_cmp_side){ "history", hist, (size_t)nhist };
	flags = measured ? JUDGE_CMP_AS_MEASURED : 0;
	if (judge_compare_build_history(sides, (size_t)nsides, threshold / 100, flags,
					 nhist ? &history : NULL, &rows, &nrows) < 0)
		die("compare: out of memory");
	for (size_t k = 0; k < nrows; k++)
		common += rows[k].common;
	if (common == 0)
		die("compare: '%s' and the others have no benchmark instance in common "
		    "(same id, placement and copies)", argv[0]);
	if (json) {
		if (report_compare_json(stdout, sides, (size_t)nsides, rows, nrows, threshold / 100,
					flags, curves) < 0)
			die("compare: cannot encode the comparison as JSON");
	} else if (html) {
		if (report_compare_html(stdout, sides, (size_t)nsides, rows, nrows, threshold / 100,
					flags, curves) < 0)
			die("compare: cannot write the page");
	} else {
		if (report_compare_text(stdout, sides, (size_t)nsides, rows, nrows, threshold / 100,
					flags) < 0)
			die("compare: out of memory");
		if (curves && report_compare_curves(stdout, sides, (size_t)nsides, threshold / 100) < 0)
			die("compare: out of memory");
	}
	free(rows);
	store_runs_free(hist, (size_t)nhist);
	for (int i = 0; i < nsides; i++)
		store_runs_free(runs[i], sides[i].nruns);
	return EXIT_DONE;
}

/*
 * kbench show: one stored result in full.  A curve (mem.lat.curve) is
 * printed as a table of sizes by series, with the cache levels detected in
 * it; any other result as its figure, CI, sampling and values, then its
 * replicas.  `kbench show sentinel` prints a run's sentinel timeline.  Like
 * summary, it opens the database without creating it, so asking about an
 * empty place never leaves a file behind.
 */
#include <limits.h>
#include <string.h>

#include "cli/cli.h"
#include "core/registry.h"
#include "core/catalog.h"
#include "core/err.h"
#include "report/report.h"
#include "report/html.h"
#include "store/store.h"

static int run_has(const struct run_info *run, const char *id)
{
	for (size_t i = 0; i < run->nresults; i++)
		if (strcmp(run->results[i].id, id) == 0)
			return 1;
	return 0;
}

int cmd_show(int argc, char **argv)
{
	const char *db = NULL, *format = NULL, *id, *sel;
	int json = 0, html = 0, npos, nruns;
	enum cli_format fmt;
	const struct opt opts[] = {
		OPT_ROW_DB(db),
		OPT_ROW_FORMAT(format, "text, json (points and samples included) or html (a page)"),
		{ "json", OPT_FLAG, &json, NULL, "print the result as JSON, points and samples included", 0, 0, 0 },
		{ "html", OPT_FLAG, &html, NULL, "print one self-contained HTML page: the samples or the curve drawn", 0, 0, 0 },
		{ 0 },
	};
	char path[PATH_MAX], err[ERRBUF_LEN];
	const struct run_info *pick = NULL;
	const struct bench *b;
	struct run_info *runs;
	struct store *st;

	npos = opt_parse(cli_find("show"), opts, argc, argv);
	if (npos == 0)
		die_usage("show: name the result to show, e.g. 'kbench show sys.null'");
	if (npos > 2)
		die_usage("show: unexpected argument '%s'", argv[2]);
	fmt = cli_format("show", format, json, html, 1u << CLI_TEXT | 1u << CLI_JSON | 1u << CLI_HTML);
	json = fmt == CLI_JSON;
	html = fmt == CLI_HTML;
	id = argv[0];
	sel = npos == 2 ? argv[1] : NULL;
	/* Checked before the database, so a typo is named as one. */
	if (strcmp(id, "sentinel") != 0 && !catalog_known(id, NULL, NULL))
		die("show: unknown benchmark '%s' ('kbench list' shows the ids)", id);
	cli_db_path("show", db, path, sizeof(path));
	st = store_open_readonly(path, err);
	if (!st)
		die("%s", err);
	/* A distribution's percentiles' intervals are over its replicas' samples. */
	b = registry_find(id);
	nruns = store_runs_load(st, sel ? &sel : NULL, sel ? 1 : 0,
				json || html || (b && (b->flags & BENCH_OBSERVED)), &runs, err);
	store_close(st);
	if (nruns < 0)
		die("%s", err);
	/* Runs come oldest first: the latest that measured id is the last that has it. */
	for (int i = nruns - 1; i >= 0 && !pick; i--)
		if (strcmp(id, "sentinel") == 0 ? runs[i].nsentinel > 0 : run_has(&runs[i], id))
			pick = &runs[i];
	if (!pick && strcmp(id, "sentinel") == 0 && nruns > 0)
		pick = &runs[nruns - 1];	/* it says it has none */
	if (!pick) {
		store_runs_free(runs, (size_t)nruns);
		if (sel)
			die("show: no result for '%s' in run or label '%s' of db '%s'", id, sel, cli_db_shown(path));
		die("show: '%s' was never measured in db '%s'", id, cli_db_shown(path));
	}
	if (html) {
		if (report_html_show(stdout, pick, id) < 0) {
			store_runs_free(runs, (size_t)nruns);
			die("show: cannot write the page");
		}
	} else if (strcmp(id, "sentinel") == 0 && !json) {
		report_show_sentinel_text(stdout, pick);
	} else if (json) {
		/* For the sentinel: the run with no result and its timeline. */
		if (report_show_json(stdout, pick, id) < 0) {
			store_runs_free(runs, (size_t)nruns);
			die("show: cannot encode the result as JSON");
		}
	} else {
		report_show_text(stdout, pick, id);
	}
	store_runs_free(runs, (size_t)nruns);
	return EXIT_DONE;
}

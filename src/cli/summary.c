/*
 * kbench summary: stored runs as lmbench's tables, one row per label (the
 * median of its runs, "LABEL [N]"), or per run with --each.  Opens the
 * database read-only, without creating it, so asking about an empty place
 * never leaves a file behind and a database someone else owns is readable.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/err.h"
#include "report/report.h"
#include "judge/compare.h"
#include "judge/merge.h"
#include "report/sections.h"
#include "report/html.h"
#include "report/model.h"
#include "store/store.h"

/*
 * The machine description for the top of the JSON document: the first
 * run's when every run comes from the same machine (host and OS), else
 * NULL -- each run carries its own description, and one machine's must not
 * stand for the others'.
 */
static const char *summary_shared_sysinfo(const struct run_info *runs, size_t nruns)
{
	for (size_t i = 1; i < nruns; i++)
		if (strcmp(runs[i].host, runs[0].host) != 0 || strcmp(runs[i].os, runs[0].os) != 0)
			return NULL;
	return runs[0].sysinfo_json;
}

/* The hosts' history, as compare loads it for its sides (cli_history): the count, or -1. */
static int summary_history(struct store *st, const struct run_info *runs, size_t nruns,
			   struct run_info **hist, char *err)
{
	const char *hosts[JUDGE_CMP_MAX_SIDES];
	size_t nhosts = 0;

	for (size_t i = 0; i < nruns && nhosts < JUDGE_CMP_MAX_SIDES; i++) {
		int seen = 0;

		for (size_t h = 0; h < nhosts && !seen; h++)
			seen = !strcmp(hosts[h], runs[i].host);
		if (!seen)
			hosts[nhosts++] = runs[i].host;
	}
	return cli_history(st, hosts, nhosts, hist, err);
}

int cmd_summary(int argc, char **argv)
{
	const char *db = NULL, *format = NULL;
	enum cli_format fmt;
	int json = 0, html = 0, each = 0, verbose = 0, nsel, nruns, nrows = 0;
	const struct opt opts[] = {
		OPT_ROW_DB(db),
		{ "each", OPT_FLAG, &each, NULL, "one row per run, not per label", 0, 0, 0 },
		OPT_ROW_FORMAT(format, "text (the tables), json (the runs, samples included) or html (a page)"),
		{ "json", OPT_FLAG, &json, NULL, "print the runs as JSON, samples included", 0, 0, 0 },
		{ "html", OPT_FLAG, &html, NULL, "print one self-contained HTML page: the tables and charts", 0, 0, 0 },
		{ "verbose", OPT_FLAG, &verbose, NULL, "every note on every figure, not only the marked ones", 0, 0, 'v' },
		{ 0 },
	};
	char path[PATH_MAX], err[ERRBUF_LEN];
	struct run_info *runs, *rows = NULL, *hist = NULL, *sampled = NULL;
	struct judge_cmp_side history;
	int nhist = 0, nsampled = 0;
	char (*stored_labels)[sizeof(runs->label)] = NULL;
	struct store *st;

	nsel = opt_parse(cli_find("summary"), opts, argc, argv);
	fmt = cli_format("summary", format, json, html, 1u << CLI_TEXT | 1u << CLI_JSON | 1u << CLI_HTML);
	json = fmt == CLI_JSON;
	html = fmt == CLI_HTML;
	cli_db_path("summary", db, path, sizeof(path));
	st = store_open_readonly(path, err);
	if (!st)
		die("%s", err);
	nruns = store_runs_load(st, (const char *const *)argv, (size_t)nsel, json, &runs, err);
	if (nruns < 0) {
		store_close(st);
		die("%s", err);
	}
	/*
	 * The page judges its labels as compare does: their runs with their
	 * samples (which the page's JSON leaves out), and what the hosts' other
	 * sittings show.
	 */
	if (html && ((nsampled = store_runs_load(st, (const char *const *)argv, (size_t)nsel,
						 STORE_LOAD_SAMPLES, &sampled, err)) < 0 ||
		     (nhist = summary_history(st, runs, (size_t)nruns, &hist, err)) < 0)) {
		store_close(st);
		store_runs_free(runs, (size_t)nruns);
		die("summary: the labels compared: %s", err);
	}
	store_close(st);
	/* Each run's label as stored, for the JSON's runs: the tables' are qualified below. */
	if (json && nruns > 0 && (stored_labels = malloc((size_t)nruns * sizeof(*stored_labels))))
		for (int i = 0; i < nruns; i++)
			memcpy(stored_labels[i], runs[i].label, sizeof(runs[i].label));
	if (json && nruns > 0 && !stored_labels)
		die("summary: out of memory");
	judge_qualify_hosts(runs, (size_t)nruns);
	judge_qualify_cpus(runs, (size_t)nruns);
	judge_qualify_hosts(sampled, (size_t)nsampled);
	judge_qualify_cpus(sampled, (size_t)nsampled);
	if (nruns == 0) {
		store_runs_free(runs, 0);
		die("no runs in db '%s' yet: 'kbench run' makes some", cli_db_shown(path));
	}
	/* The page is the whole report: the summary's tables, the others', the charts. */
	if (html) {
		int rc;

		history = (struct judge_cmp_side){ "history", hist, (size_t)nhist };
		if (each) {
			rc = report_html_summary(stdout, runs, (size_t)nruns, runs, (size_t)nruns, verbose,
						 sampled, (size_t)nsampled, nhist ? &history : NULL);
		} else {
			nrows = judge_merge_labels(runs, (size_t)nruns, &rows);
			if (nrows < 0) {
				store_runs_free(runs, (size_t)nruns);
				die("summary: out of memory merging the runs of each label");
			}
			rc = report_html_summary(stdout, rows, (size_t)nrows, runs, (size_t)nruns, verbose,
						 sampled, (size_t)nsampled, nhist ? &history : NULL);
			judge_merge_free(rows, (size_t)nrows);
		}
		store_runs_free(runs, (size_t)nruns);
		store_runs_free(hist, (size_t)nhist);
		store_runs_free(sampled, (size_t)nsampled);
		if (rc < 0)
			die("summary: cannot write the page");
		return EXIT_DONE;
	}
	/* The tables of the label rows, or of each run with --each. */
	if (!each && (nrows = judge_merge_labels(runs, (size_t)nruns, &rows)) < 0) {
		store_runs_free(runs, (size_t)nruns);
		die("summary: out of memory merging the runs of each label");
	}
	const struct run_info *trows = each ? runs : rows;
	size_t ntrows = each ? (size_t)nruns : (size_t)nrows;
	int rc;

	/* JSON is for scripts: they get the runs themselves and merge as they like. */
	if (json) {
		/* The runs, and the tables the text shows of them, every section's. */
		struct rm_doc doc = { .verbose = verbose };

		rc = report_sections_model(&doc, trows, ntrows, runs, (size_t)nruns);
		/* The tables name a shared label LABEL@HOST; the runs keep the label they have. */
		for (int i = 0; i < nruns && stored_labels; i++)
			memcpy(runs[i].label, stored_labels[i], sizeof(runs[i].label));
		if (rc == 0)
			rc = report_summary_json(stdout, summary_shared_sysinfo(runs, (size_t)nruns),
						 runs, (size_t)nruns, &doc);
		rm_doc_free(&doc);
	} else {
		rc = report_sections_text(stdout, trows, ntrows, runs, (size_t)nruns, verbose);
	}
	if (!each)
		judge_merge_free(rows, (size_t)nrows);
	if (rc < 0) {
		store_runs_free(runs, (size_t)nruns);
		die(json ? "summary: cannot encode the runs as JSON" : "summary: out of memory");
	}
	store_runs_free(runs, (size_t)nruns);
	free(stored_labels);
	return EXIT_DONE;
}

/*
 * The host's history: the stored runs from which compare and run --runs
 * auto learn how far sittings of one label differ (stats_sittings), and
 * `kbench history`, each figure over them with the steps in it.
 */
#include <fnmatch.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <limits.h>

#include "cli/cli.h"
#include "core/err.h"
#include "core/parse.h"
#include "judge/history.h"
#include "report/series.h"
#include "store/store.h"

/*
 * The host's history for a comparison: the runs judge_history_pick chooses
 * of each host's, loaded.
 */
int cli_history(struct store *st, const char *const *hosts, size_t nhosts, struct run_info **runs,
		char *err)
{
	int64_t *pick = malloc(JUDGE_HISTORY_RUNS * sizeof(*pick));
	char (*ids)[24] = malloc(JUDGE_HISTORY_RUNS * sizeof(*ids));
	const char **sel = malloc(JUDGE_HISTORY_RUNS * sizeof(*sel));
	size_t npick = 0;
	int n = 0;

	*runs = NULL;
	if (!pick || !ids || !sel) {
		snprintf(err, ERRBUF_LEN, "out of memory");
		n = -1;
		goto out;
	}
	for (size_t h = 0; h < nhosts; h++) {
		struct store_run_row *rows;
		int nr = store_runs_list(st, NULL, 0, hosts[h], &rows, err);

		/* A host with no run stored (yet): nothing to learn from. */
		if (nr < 0)
			continue;
		if (judge_history_pick(rows, nr, pick, JUDGE_HISTORY_RUNS, &npick) < 0) {
			free(rows);
			snprintf(err, ERRBUF_LEN, "out of memory");
			n = -1;
			goto out;
		}
		free(rows);
	}
	for (size_t i = 0; i < npick; i++) {
		snprintf(ids[i], sizeof(ids[i]), "%lld", (long long)pick[i]);
		sel[i] = ids[i];
	}
	if (npick)
		n = store_runs_load(st, sel, npick, 0, runs, err);
out:
	free(pick);
	free(ids);
	free(sel);
	return n;
}

/*
 * kbench history [SELECTOR...] [--only IDS] [--host H] [--by time|label]
 * [--level fast|median] [--control LABEL] [--fail-on regression|change]
 * [--threshold PCT]:
 * each figure over the stored runs (those selected, on the host named or
 * each host apart), the levels a run's fast ones or its medians, read
 * against the control's drift when one is named, the steps found
 * (report/series.c), the noticed lines first.  --fail-on: exit
 * EXIT_STEPPED when the newest point brought a step of that kind, for CI
 * and `git bisect run`.
 */
#define EXIT_STEPPED 3
#define HISTORY_MAX_ONLY 64

int cmd_history(int argc, char **argv)
{
	const char *db = NULL, *format = NULL, *only = NULL, *host = NULL, *by = "time",
		   *fail_on = NULL, *level = "fast", *control = NULL;
	int json = 0, html = 0, nsel, nruns, stepped = 0, by_label;
	double threshold = 2.0, pct;
	const char *pct_arg = NULL;
	enum result_level lev;
	enum cli_format fmt;
	const struct opt opts[] = {
		OPT_ROW_DB(db),
		{ "only", OPT_STRING, &only, "GLOB,...", "these figures only (ids, globs: 'proc.*,sys.null')", 0, 0, 0 },
		{ "host", OPT_STRING, &host, "H", "this host's runs only (default: each host apart)", 0, 0, 0 },
		{ "by", OPT_STRING, &by, "time|label", "a point a run in time order, or a label's runs in version order", 0, 0, 0 },
		{ "level", OPT_STRING, &level, "fast|median", "a run's level (the fast state's; default) or its median", 0, 0, 0 },
		{ "control", OPT_STRING, &control, "LABEL", "a label measured again every few labels: the others read against its drift", 0, 0, 0 },
		{ "fail-on", OPT_STRING, &fail_on, "regression|change", "exit 3 when the newest point brought a step of that kind", 0, 0, 0 },
		{ "threshold", OPT_DOUBLE, &threshold, "PCT", "smallest step called one (2, as compare's)", 0, 100, 0 },
		OPT_ROW_PERCENTILE(pct_arg),
		OPT_ROW_FORMAT(format, "text (the noticed lines, then the figures that stepped), json or html"),
		{ "json", OPT_FLAG, &json, NULL, "print one JSON document: figures, points, changes", 0, 0, 0 },
		{ "html", OPT_FLAG, &html, NULL, "print one self-contained HTML page: each figure that stepped drawn", 0, 0, 0 },
		{ 0 },
	};
	const char *globs[HISTORY_MAX_ONLY];
	char gbuf[HISTORY_MAX_ONLY][96];
	size_t nglobs = 0, len, nhosts = 0;
	char path[PATH_MAX], err[ERRBUF_LEN];
	struct run_info *runs;
	struct store *st;

	nsel = opt_parse(cli_find("history"), opts, argc, argv);
	pct = cli_percentile("history", pct_arg);
	fmt = cli_format("history", format, json, html,
			 1u << CLI_TEXT | 1u << CLI_JSON | 1u << CLI_HTML);
	if (strcmp(by, "time") != 0 && strcmp(by, "label") != 0)
		die_usage("history: --by must be time or label, not '%s'", by);
	by_label = strcmp(by, "label") == 0;
	if (strcmp(level, "fast") != 0 && strcmp(level, "median") != 0)
		die_usage("history: --level must be fast or median, not '%s'", level);
	lev = strcmp(level, "fast") == 0 ? LEVEL_FAST : LEVEL_MEDIAN;
	if (control && !by_label)
		die_usage("history: --control needs --by label");
	if (fail_on && strcmp(fail_on, "regression") != 0 && strcmp(fail_on, "change") != 0)
		die_usage("history: --fail-on must be regression or change, not '%s'", fail_on);
	for (const char *rest = only, *item; rest && (item = parse_item(&rest, &len));) {
		if (len == 0 || len >= sizeof(gbuf[0]) || nglobs == HISTORY_MAX_ONLY)
			die_usage("history: --only takes up to %d ids or globs, none empty",
				  HISTORY_MAX_ONLY);
		snprintf(gbuf[nglobs], sizeof(gbuf[nglobs]), "%.*s", (int)len, item);
		globs[nglobs] = gbuf[nglobs];
		nglobs++;
	}
	cli_db_path("history", db, path, sizeof(path));
	st = store_open_readonly(path, err);
	if (!st)
		die("%s", err);
	/*
	 * The runs' figures alone: a history draws levels, not replicas; at a
	 * percentile, a distribution's level is made from its samples.
	 */
	nruns = store_runs_load(st, (const char *const *)argv, (size_t)nsel,
				isnan(pct) ? STORE_LOAD_LEVELS : STORE_LOAD_SAMPLES, &runs, err);
	if (nruns < 0) {
		store_close(st);
		die("%s", err);
	}
	{
		size_t n = (size_t)nruns;

		cli_percentile_apply("history", pct, &runs, &n, 1, 0);
	}
	/* The hosts, each its own history: one machine's steps are not another's. */
	const char **hosts = calloc((size_t)nruns + 1, sizeof(*hosts));
	struct judge_series *ser = calloc((size_t)nruns + 1, sizeof(*ser));
	struct run_info *mine = calloc((size_t)nruns + 1, sizeof(*mine));
	struct run_info **hist = calloc((size_t)nruns + 1, sizeof(*hist));
	int *nhist = calloc((size_t)nruns + 1, sizeof(*nhist));

	if (!hosts || !ser || !mine || !hist || !nhist)
		die("history: out of memory");
	for (int i = 0; i < nruns; i++) {
		size_t h = 0;

		if (host && strcmp(runs[i].host, host) != 0)
			continue;
		while (h < nhosts && strcmp(hosts[h], runs[i].host) != 0)
			h++;
		if (h == nhosts)
			hosts[nhosts++] = runs[i].host;
	}
	if (nhosts == 0) {
		store_close(st);
		store_runs_free(runs, (size_t)nruns);
		die("history: no runs%s%s in db '%s'", host ? " on host " : "", host ? host : "",
		    cli_db_shown(path));
	}
	/* Every glob must name a figure of the runs, or a typo would judge nothing and say so quietly. */
	for (size_t g = 0; g < nglobs; g++) {
		int hit = 0;

		for (int i = 0; i < nruns && !hit; i++)
			for (size_t j = 0; j < runs[i].nresults && !hit && (!host ||
			     strcmp(runs[i].host, host) == 0); j++)
				hit = fnmatch(globs[g], runs[i].results[j].id, 0) == 0;
		if (!hit) {
			store_close(st);
			store_runs_free(runs, (size_t)nruns);
			die_usage("history: --only '%s' matches no figure of the runs%s%s", globs[g],
				  host ? " on host " : "", host ? host : "");
		}
	}
	for (size_t h = 0; h < nhosts; h++) {
		size_t n = 0;

		/* The host's runs, shallow copies: the results stay the store's. */
		for (int i = 0; i < nruns; i++)
			if (strcmp(runs[i].host, hosts[h]) == 0)
				mine[n++] = runs[i];
		struct judge_cmp_side hs = { "history", NULL, 0 };

		if (judge_series_build(mine, n, by_label, lev, globs, nglobs, &hs, control,
					&ser[h]) < 0)
			die("history: out of memory");
		/*
		 * A series too short to show its own spread between sittings takes
		 * the host's (its labels measured twice): read only when one needs
		 * it, as it is hundreds of runs more.
		 */
		if (judge_series_short(&ser[h]) &&
		    (nhist[h] = cli_history(st, &hosts[h], 1, &hist[h], err)) > 0) {
			size_t nh = (size_t)nhist[h];

			/* Read without samples: it teaches no percentile's spread. */
			cli_percentile_apply("history", pct, &hist[h], &nh, 1, 1);
			hs = (struct judge_cmp_side){ "history", hist[h], (size_t)nhist[h] };
			judge_series_free(&ser[h]);
			if (judge_series_build(mine, n, by_label, lev, globs, nglobs, &hs, control,
					&ser[h]) < 0)
				die("history: out of memory");
			store_runs_free(hist[h], (size_t)nhist[h]);
		}
		(void)judge_series_threshold(&ser[h], threshold / 100);
		/* A control measured once says nothing of the machine's drift. */
		if (control && ser[h].control_sittings == 0)
			die("history: no label '%s' among the runs%s%s for --control", control,
			    nhosts > 1 ? " on host " : "", nhosts > 1 ? hosts[h] : "");
		if (control && ser[h].control_sittings < 2)
			die("history: the control '%s' has %zu sitting%s%s%s; it needs two or more, "
			    "between the labels", control, ser[h].control_sittings,
			    ser[h].control_sittings == 1 ? "" : "s", nhosts > 1 ? " on host " : "",
			    nhosts > 1 ? hosts[h] : "");
		if (fail_on)
			stepped |= judge_series_newest(&ser[h], strcmp(fail_on, "regression") == 0);
	}
	store_close(st);
	if (fmt == CLI_JSON) {
		if (report_series_json(stdout, ser, hosts, nhosts) < 0)
			die("history: cannot write the JSON");
	} else if (fmt == CLI_HTML) {
		if (report_series_html(stdout, ser, hosts, nhosts) < 0)
			die("history: cannot write the page");
	} else {
		for (size_t h = 0; h < nhosts; h++) {
			if (h)
				putchar('\n');
			report_series_text(stdout, &ser[h], nhosts > 1 ? hosts[h] : NULL);
		}
	}
	/* The series point into the runs' results: freed before them. */
	for (size_t h = 0; h < nhosts; h++)
		judge_series_free(&ser[h]);
	free(ser);
	free(mine);
	free(hist);
	free(nhist);
	free(hosts);
	store_runs_free(runs, (size_t)nruns);
	return stepped ? EXIT_STEPPED : EXIT_DONE;
}

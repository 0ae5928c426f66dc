/*
 * kbench runs: what the database holds, and keeping it tidy.
 *   kbench runs [LABEL|RUN ...] [--host H] [--json] one line per run: its set, label,
 *                                        time, results, host
 *   kbench runs rename LABEL|RUN NEW     file runs under another label
 *   kbench runs delete LABEL|RUN ...     delete runs with everything they hold
 * A set is the runs of one `kbench run --runs N`, numbered by its first run;
 * "set:N" selects it here and wherever runs are named (summary, compare,
 * export).
 * Opens the database without creating it, read-only for the list; a
 * selector that matches nothing changes nothing, and a run being measured
 * is deleted only with --force.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/label.h"
#include "core/err.h"
#include "core/utf8.h"
#include "report/report.h"
#include "report/fmt.h"
#include "store/store.h"

/*
 * The columns of the widest label among the rows, at least the header's,
 * as report_cell prints it (escaped, wide characters two).
 */
static int runs_label_width(const struct store_run_row *rows, size_t n)
{
	int w = (int)strlen("label");

	for (size_t i = 0; i < n; i++)
		if (utf8_width(rows[i].label) > w)
			w = utf8_width(rows[i].label);
	return w > 40 ? 40 : w;
}

static int runs_cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int runs_cmp_label(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * How many sets and labels the rows hold, sorted rather than each row
 * looked for among those before it: 50,000 runs were 1.25 billion
 * comparisons.
 */
static void runs_distinct(const struct store_run_row *rows, size_t n, size_t *nsets, size_t *nlabels)
{
	int64_t *sets = malloc((n ? n : 1) * sizeof(*sets));
	const char **labels = malloc((n ? n : 1) * sizeof(*labels));

	if (!sets || !labels)
		die("runs: out of memory");
	for (size_t i = 0; i < n; i++) {
		sets[i] = rows[i].set_id;
		labels[i] = rows[i].label;
	}
	qsort(sets, n, sizeof(*sets), runs_cmp_id);
	qsort(labels, n, sizeof(*labels), runs_cmp_label);
	*nsets = *nlabels = 0;
	for (size_t i = 0; i < n; i++) {
		*nsets += i == 0 || sets[i] != sets[i - 1];
		*nlabels += i == 0 || strcmp(labels[i], labels[i - 1]) != 0;
	}
	free(sets);
	free(labels);
}

/* The runs selected (store_runs_list reads the selectors), of host H only with --host. */
static void runs_list(struct store *st, const char *path, char **sel, int nsel, const char *host,
		      int json)
{
	char err[ERRBUF_LEN];
	struct store_run_row *rows;
	size_t nsets = 0, nlabels = 0;
	int n, lw;

	n = store_runs_list(st, (const char *const *)sel, (size_t)nsel, host, &rows, err);
	if (n < 0)
		die("runs: %s", err);
	if (json) {
		if (report_runs_list_json(stdout, rows, (size_t)n) < 0)
			die("runs: cannot encode the list");
		free(rows);
		return;
	}
	if (n == 0) {
		char shown[4 * 256];

		free(rows);
		/* A host that matches nothing is an error, as a selector that matches nothing is. */
		if (host) {
			report_cell(shown, sizeof(shown), host, -1, 0);
			die("runs: no runs of host '%s' in db '%s'", shown, cli_db_shown(path));
		}
		printf("no runs in db '%s' yet: 'kbench run' makes some\n", cli_db_shown(path));
		return;
	}
	lw = runs_label_width(rows, (size_t)n);
	printf("%5s %5s  %-*s  %-20s %7s  %s\n", "run", "set", lw, "label", "started", "results",
	       "host, os");
	runs_distinct(rows, (size_t)n, &nsets, &nlabels);
	for (int i = 0; i < n; i++) {
		char label[4 * 40 + 1], started[4 * 20 + 1], hostc[4 * sizeof(rows[i].host)];
		char os[4 * sizeof(rows[i].os)];

		/* What another's export brought is printed escaped: one run, one line. */
		printf("%5lld %5lld  %s  %s %7zu  %s, %s", (long long)rows[i].id,
		       (long long)rows[i].set_id, report_cell(label, sizeof(label), rows[i].label, lw, -1),
		       report_cell(started, sizeof(started), rows[i].started, 20, -1), rows[i].nresults,
		       report_cell(hostc, sizeof(hostc), rows[i].host, -1, 0),
		       report_cell(os, sizeof(os), rows[i].os, -1, 0));
		if (rows[i].nmissing)
			printf("; %zu skipped or failed", rows[i].nmissing);
		if (rows[i].running)
			printf("; being measured");
		else if (!rows[i].finished[0])
			printf("; interrupted");
		putchar('\n');
	}
	printf("%d run%s in %zu set%s under %zu label%s\n", n, n == 1 ? "" : "s", nsets,
	       nsets == 1 ? "" : "s", nlabels, nlabels == 1 ? "" : "s");
	free(rows);
}

int cmd_runs(int argc, char **argv)
{
	const char *db = NULL, *host = NULL;
	int json = 0, force = 0, change;
	const struct opt opts[] = {
		OPT_ROW_DB(db),
		{ "json", OPT_FLAG, &json, NULL, "list the runs as one JSON document", 0, 0, 0 },
		{ "host", OPT_STRING, &host, "H", "list only the runs of host H", 0, 0, 0 },
		{ "force", OPT_FLAG, &force, NULL, "delete: even a run being measured, which then fails", 0, 0, 0 },
		{ 0 },
	};
	char path[PATH_MAX], err[ERRBUF_LEN];
	struct store *st;
	int npos, n;

	npos = opt_parse(cli_find("runs"), opts, argc, argv);
	if (npos > 0 && strcmp(argv[0], "rename") == 0) {
		if (npos != 3)
			die_usage("runs: rename takes a label or run id, then the new label");
		cli_label_check("runs", "the new label", argv[2]);
	} else if (npos > 0 && strcmp(argv[0], "delete") == 0 && npos < 2) {
		die_usage("runs: delete takes the labels or run ids to delete");
	}
	if (force && !(npos > 0 && strcmp(argv[0], "delete") == 0))
		die_usage("runs: --force is for delete only");
	if (host && npos > 0 && (strcmp(argv[0], "rename") == 0 || strcmp(argv[0], "delete") == 0))
		die_usage("runs: --host is for the list only (name LABEL@HOST to rename or delete)");
	cli_db_path("runs", db, path, sizeof(path));
	/* Listing only reads: a database someone else owns, or on a read-only mount, lists too. */
	change = npos > 0 && (strcmp(argv[0], "rename") == 0 || strcmp(argv[0], "delete") == 0);
	st = change ? store_open_existing(path, err) : store_open_readonly(path, err);
	if (!st)
		die("%s", err);
	if (npos > 0 && strcmp(argv[0], "rename") == 0) {
		n = store_runs_rename(st, (const char *const *)&argv[1], 1, argv[2], err);
		store_close(st);
		if (n < 0)
			die("runs: %s", err);
		printf("renamed %d run%s from '%s' to '%s'\n", n, n == 1 ? "" : "s", argv[1], argv[2]);
	} else if (npos > 0 && strcmp(argv[0], "delete") == 0) {
		n = (force ? store_runs_delete_force : store_runs_delete)(st, (const char *const *)&argv[1],
									   (size_t)npos - 1, err);
		store_close(st);
		if (n < 0)
			die("runs: %s", err);
		printf("deleted %d run%s\n", n, n == 1 ? "" : "s");
	} else {
		runs_list(st, path, argv, npos, host, json);
		store_close(st);
	}
	return EXIT_DONE;
}

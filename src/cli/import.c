/*
 * kbench import FILE ...: merge exports (`kbench export`) into the
 * database.  Each file is read and checked whole before the database is
 * opened, so a truncated or damaged file changes nothing, not even by
 * creating an empty database; then its runs go in one transaction.  A run
 * the database already has (the same uuid) is left out, so importing a
 * file twice adds nothing the second time.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/label.h"
#include "core/err.h"
#include "report/report.h"
#include "store/store.h"

int cmd_import(int argc, char **argv)
{
	const char *db = NULL, *label = NULL;
	const struct opt opts[] = {
		{ "label", OPT_STRING, &label, "L", "file the imported runs under this label instead of their own", 0, 0 },
		{ "db", OPT_STRING, &db, "PATH", "results database (default $KBENCH_DB, then ~/.local/share/kbench/results.db)", 0, 0 },
		{ 0 },
	};
	char path[PATH_MAX], err[ERRBUF_LEN];
	struct run_info **runs;
	size_t *nruns, total = 0, added;
	struct store *st;
	int nfiles;

	nfiles = opt_parse(cli_find("import"), opts, argc, argv);
	if (nfiles < 1)
		die_usage("import: name the file(s) 'kbench export' wrote ('-' for stdin)");
	if (label)
		cli_label_check("import", "--label", label);
	if (store_default_path(db, path, sizeof(path), err) < 0)
		die("%s", err);
	runs = calloc((size_t)nfiles, sizeof(*runs));
	nruns = calloc((size_t)nfiles, sizeof(*nruns));
	if (!runs || !nruns)
		die("import: out of memory");
	/* Every file read before the database is touched: one bad file, nothing imported. */
	for (int i = 0; i < nfiles; i++) {
		if (report_import_json(argv[i], &runs[i], &nruns[i], err) < 0)
			die("%s", err);
		for (size_t k = 0; label && k < nruns[i]; k++)
			snprintf(runs[i][k].label, sizeof(runs[i][k].label), "%s", label);
	}
	st = store_open(path, err);
	if (!st)
		die("%s", err);
	for (int i = 0; i < nfiles; i++) {
		if (store_import(st, runs[i], nruns[i], &added, err) < 0) {
			store_close(st);
			die("import: %s", err);
		}
		fprintf(stderr, "kbench: imported %zu run%s from '%s'", added, added == 1 ? "" : "s",
			argv[i]);
		if (added < nruns[i])
			fprintf(stderr, " (%zu already in the db)", nruns[i] - added);
		fputc('\n', stderr);
		total += added;
		store_runs_free(runs[i], nruns[i]);
	}
	store_close(st);
	free(runs);
	free(nruns);
	fprintf(stderr, "kbench: %zu run%s added to %s\n", total, total == 1 ? "" : "s", path);
	return EXIT_DONE;
}

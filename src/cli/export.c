/*
 * kbench export [--format json|csv] [LABEL|RUN ...]: stored runs, all of
 * them unless named, on stdout: JSON with everything (for `kbench import`
 * on another machine) or CSV, one row per result (for a spreadsheet).
 * Opens the database without creating it.
 */
#include <limits.h>
#include <string.h>

#include "cli/cli.h"
#include "core/err.h"
#include "report/export.h"
#include "store/store.h"

int cmd_export(int argc, char **argv)
{
	const char *db = NULL, *format = NULL;
	const struct opt opts[] = {
		OPT_ROW_FORMAT(format, "json (everything, for import; the default) or csv (one row per result)"),
		OPT_ROW_DB(db),
		{ 0 },
	};
	char path[PATH_MAX], err[ERRBUF_LEN];
	struct run_info *runs;
	struct store *st;
	int nsel, nruns, csv, rc;

	nsel = opt_parse(cli_find("export"), opts, argc, argv);
	csv = cli_format("export", format ? format : "json", 0, 0, 1u << CLI_JSON | 1u << CLI_CSV) ==
	      CLI_CSV;
	cli_db_path("export", db, path, sizeof(path));
	st = store_open_readonly(path, err);
	if (!st)
		die("%s", err);
	nruns = store_runs_load(st, (const char *const *)argv, (size_t)nsel, 1, &runs, err);
	store_close(st);
	if (nruns < 0)
		die("export: %s", err);
	if (nruns == 0) {
		store_runs_free(runs, 0);
		die("export: no runs in db '%s' yet: 'kbench run' makes some", cli_db_shown(path));
	}
	rc = csv ? report_export_csv(stdout, runs, (size_t)nruns)
		 : report_export_json(stdout, runs, (size_t)nruns);
	store_runs_free(runs, (size_t)nruns);
	if (rc < 0)
		die("export: cannot write the export");
	return EXIT_DONE;
}

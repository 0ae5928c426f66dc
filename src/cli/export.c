/*
 * kbench export [--format json|csv|kcidb] [LABEL|RUN ...]: stored runs, all
 * of them unless named, on stdout: JSON with everything (for `kbench
 * import` on another machine), CSV, one row per result (for a
 * spreadsheet), or KernelCI's KCIDB report (report/kcidb.c), one test per
 * result, for a lab that sends its kernels' results there.
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
	const char *db = NULL, *format = NULL, *origin = "kbench";
	const struct opt opts[] = {
		OPT_ROW_FORMAT(format, "json (everything, for import; the default), csv (one row per result) or kcidb (KernelCI's KCIDB, a test per result)"),
		{ "origin", OPT_STRING, &origin, "NAME", "kcidb: the CI system's name the ids start with (kbench)", 0, 0, 0 },
		OPT_ROW_DB(db),
		{ 0 },
	};
	char path[PATH_MAX], err[ERRBUF_LEN];
	struct run_info *runs;
	struct store *st;
	enum cli_format f;
	int nsel, nruns, rc;

	nsel = opt_parse(cli_find("export"), opts, argc, argv);
	f = cli_format("export", format ? format : "json", 0, 0,
		       1u << CLI_JSON | 1u << CLI_CSV | 1u << CLI_KCIDB);
	/* KCIDB's origin pattern: a lab's ids start with it, so a bad one is refused here, not by the lab. */
	if (!*origin || strspn(origin, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(origin))
		die_usage("export: --origin '%s': KCIDB names an origin with a-z, 0-9 and _ only", origin);
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
	rc = f == CLI_CSV ? report_export_csv(stdout, runs, (size_t)nruns)
	     : f == CLI_KCIDB ? report_export_kcidb(stdout, runs, (size_t)nruns, origin)
			      : report_export_json(stdout, runs, (size_t)nruns);
	store_runs_free(runs, (size_t)nruns);
	if (rc < 0)
		die("export: cannot write the export");
	return EXIT_DONE;
}

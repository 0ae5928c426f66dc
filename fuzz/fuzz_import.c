/*
 * libFuzzer harness for import: the JSON reader and validator of
 * src/report/import.c, then the store behind it.  The input is a file as
 * `kbench import` would read it.
 *
 * Besides not crashing (under ASan and UBSan), what must hold:
 *   - a refusal is one line with nothing a terminal acts on;
 *   - what is accepted, exported again, is accepted again and exports to
 *     the same text (the importer takes everything the exporter writes of
 *     it, and reads it back to the same runs);
 *   - what is accepted goes into a fresh database, and the database's
 *     export is that same text again (the store neither refuses nor
 *     changes what the importer let through);
 *   - importing it a second time adds nothing, and each run is "the same"
 *     as its stored copy (report_run_differs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/result.h"
#include "fuzz/fuzz.h"
#include "report/export.h"
#include "store/store.h"

/* An export of runs as text (malloc'd). */
static char *fz_export(const struct run_info *runs, size_t n, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	FZ_CHECK(f != NULL, "open_memstream");
	FZ_CHECK(report_export_json(f, runs, n) == 0, "export of %zu accepted runs failed", n);
	FZ_CHECK(fclose(f) == 0, "fclose of the memory stream");
	return text;
}

static void fz_free_runs(struct run_info *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		run_info_free(&runs[i]);
	free(runs);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* Made now, so that the first input is not also the one that makes it. */
	(void)fz_path("import.db");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[ERRBUF_LEN] = "", what[160];
	struct run_info *runs, *again, *stored;
	size_t n, n2, len1, len2, len3, added;
	char *text1, *text2, *text3;
	const char *db = fz_path("import.db");
	struct store *st;
	int loaded;

	if (report_import_buf("input", (const char *)data, size, &runs, &n, err) < 0) {
		fz_check_line("a refused import", err);
		return 0;
	}
	text1 = fz_export(runs, n, &len1);
	FZ_CHECK(report_import_buf("export", text1, len1, &again, &n2, err) >= 0,
		 "the export of accepted input is refused: %s", err);
	FZ_CHECK(n2 == n, "%zu runs read back from the export of %zu", n2, n);
	text2 = fz_export(again, n2, &len2);
	FZ_CHECK(len1 == len2 && memcmp(text1, text2, len1) == 0,
		 "export -> import -> export changed the document");
	for (size_t i = 0; i < n; i++)
		FZ_CHECK(report_run_differs(&runs[i], &again[i], what, sizeof(what)) == 0,
			 "run %zu differs from itself read back, in %s", i + 1, what);

	fz_unlink_db(db);
	st = store_open(db, err);
	FZ_CHECK(st != NULL, "store_open: %s", err);
	FZ_CHECK(store_import(st, runs, n, &added, err) == 0, "the store refused accepted runs: %s",
		 err);
	FZ_CHECK(added == n, "%zu of %zu runs added to an empty database", added, n);
	FZ_CHECK(store_import(st, again, n2, &added, err) == 0 && added == 0,
		 "importing the same runs again added %zu (%s)", added, err);
	if (n > 0) {
		loaded = store_runs_load(st, NULL, 0, 1, &stored, err);
		FZ_CHECK(loaded == (int)n, "%d runs loaded of %zu stored: %s", loaded, n, err);
		text3 = fz_export(stored, n, &len3);
		FZ_CHECK(len3 == len1 && memcmp(text1, text3, len1) == 0,
			 "the database's export differs from the import's");
		for (size_t i = 0; i < n; i++)
			FZ_CHECK(report_run_differs(&stored[i], &runs[i], what, sizeof(what)) == 0,
				 "stored run %zu differs in %s", i + 1, what);
		store_runs_free(stored, n);
		free(text3);
	}
	store_close(st);
	free(text1);
	free(text2);
	fz_free_runs(runs, n);
	fz_free_runs(again, n2);
	return 0;
}

/*
 * kbench import FILE ...: merge exports (`kbench export`) into the
 * database.  Each file is read and checked whole before the database is
 * opened, so a truncated or damaged file changes nothing, not even by
 * creating an empty database; then its runs go in one transaction.  A run
 * the database already has (the same uuid, the same content) is left out,
 * so importing a file twice adds nothing the second time.  The same uuid
 * with other content, in the database or in two of the files, refuses the
 * import whole: a uuid names one measurement, and which of two is right is
 * for a person to say, not for the importer to guess or to hide.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/label.h"
#include "core/err.h"
#include "report/export.h"
#include "store/store.h"

/* One run read from the files, for finding a uuid given twice. */
struct imp_ref {
	const struct run_info *run;
	int file;		/* index into the files named */
	size_t idx;		/* the run's place in its file, from 0 */
};

static int imp_ref_cmp(const void *pa, const void *pb)
{
	const struct imp_ref *a = pa, *b = pb;
	int c = strcmp(a->run->uuid, b->run->uuid);

	if (c)
		return c;
	return a->file != b->file ? (a->file < b->file ? -1 : 1) : (a->idx > b->idx) - (a->idx < b->idx);
}

static int imp_run_cmp(const void *pa, const void *pb)
{
	return strcmp(((const struct run_info *)pa)->uuid, ((const struct run_info *)pb)->uuid);
}

/* Die with one line when two runs of one uuid differ; the message names both. */
static void imp_same_or_die(const struct run_info *a, const struct run_info *b, const char *file,
			    size_t idx, const char *other)
{
	char what[160];
	int rc = report_run_differs(a, b, what, sizeof(what));

	if (rc < 0)
		die("import: out of memory");
	if (rc > 0)
		die("cannot import '%s': run %zu: uuid %s is %s, with a different %s", file, idx + 1,
		    b->uuid, other, what);
}

/*
 * The runs of every file against each other and against the database, by
 * uuid, before anything is written: a uuid met twice must hold the same
 * content (then the later copy is the "already in the db" one).  Sorted,
 * so a large import costs a sort, not a comparison of every pair.
 */
static void imp_check_uuids(struct store *st, const char *path, char **files, int nfiles,
			    struct run_info **runs, const size_t *nruns)
{
	struct run_info *stored = NULL;
	struct imp_ref *refs;
	char err[ERRBUF_LEN], other[ERRBUF_LEN], (*ids)[24];
	const char **sel;
	size_t total = 0, k = 0, j, nsel = 0;
	int n;

	for (int i = 0; i < nfiles; i++)
		total += nruns[i];
	refs = calloc(total + 1, sizeof(*refs));
	if (!refs)
		die("import: out of memory");
	for (int i = 0; i < nfiles; i++)
		for (size_t r = 0; r < nruns[i]; r++)
			refs[k++] = (struct imp_ref){ &runs[i][r], i, r };
	if (total > 1)
		qsort(refs, total, sizeof(*refs), imp_ref_cmp);
	for (k = 1; k < total; k++)
		if (strcmp(refs[k - 1].run->uuid, refs[k].run->uuid) == 0) {
			snprintf(other, sizeof(other), "also run %zu of '%.200s'", refs[k - 1].idx + 1,
				 files[refs[k - 1].file]);
			imp_same_or_die(refs[k - 1].run, refs[k].run, files[refs[k].file], refs[k].idx,
					other);
		}
	/* The runs the database has already, loaded in one go: their ids as selectors. */
	sel = calloc(total + 1, sizeof(*sel));
	ids = calloc(total + 1, sizeof(*ids));
	if (!sel || !ids)
		die("import: out of memory");
	for (k = 0; k < total; k++) {
		int64_t id;
		int got = store_run_find(st, refs[k].run->uuid, &id, err);

		if (got < 0)
			die("import: %s", err);
		if (got == 0)
			continue;
		snprintf(ids[nsel], sizeof(ids[nsel]), "%" PRId64, id);
		sel[nsel] = ids[nsel];
		nsel++;
	}
	n = nsel ? store_runs_load(st, sel, nsel, 1, &stored, err) : 0;
	if (n < 0)
		die("import: %s", err);
	/* Both sorted by uuid, then walked in step. */
	if (n > 1)
		qsort(stored, (size_t)n, sizeof(*stored), imp_run_cmp);
	for (k = 0, j = 0; k < total && j < (size_t)n; k++) {
		int c = 0;

		while (j < (size_t)n && (c = strcmp(stored[j].uuid, refs[k].run->uuid)) < 0)
			j++;
		if (j == (size_t)n || c > 0)
			continue;
		snprintf(other, sizeof(other), "run %" PRId64 " of db '%.200s'", stored[j].id, cli_db_shown(path));
		imp_same_or_die(&stored[j], refs[k].run, files[refs[k].file], refs[k].idx, other);
	}
	store_runs_free(stored, (size_t)n);
	free(sel);
	free(ids);
	free(refs);
}

int cmd_import(int argc, char **argv)
{
	const char *db = NULL, *label = NULL;
	const struct opt opts[] = {
		{ "label", OPT_STRING, &label, "L", "file the imported runs under this label instead of their own", 0, 0, 0 },
		OPT_ROW_DB(db),
		{ 0 },
	};
	char path[PATH_MAX], err[ERRBUF_LEN];
	/*
	 * Static: a refusal found deep in imp_check_uuids exits with the files'
	 * runs still held, and only from a root that LeakSanitizer always scans
	 * are they held rather than leaked (from the stack it saw them one exit
	 * in three).
	 */
	static struct run_info **runs;
	static size_t *nruns;
	size_t total = 0, added;
	struct store *st;
	int nfiles, fresh;

	nfiles = opt_parse(cli_find("import"), opts, argc, argv);
	if (nfiles < 1)
		die_usage("import: name the file(s) 'kbench export' wrote ('-' for stdin)");
	if (label)
		cli_label_check("import", "--label", label);
	cli_db_path("import", db, path, sizeof(path));
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
	fresh = !store_is_uri(path) && access(path, F_OK) != 0;
	st = store_open(path, err);
	if (!st)
		die("%s", err);
	imp_check_uuids(st, path, argv, nfiles, runs, nruns);
	for (int i = 0; i < nfiles; i++) {
		if (store_import(st, runs[i], nruns[i], &added, err) < 0) {
			store_close(st);
			/* A database this import made is not left behind, half filled or empty. */
			if (fresh)
				store_discard(path);
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
	fprintf(stderr, "kbench: %zu run%s added to %s\n", total, total == 1 ? "" : "s", cli_db_shown(path));
	return EXIT_DONE;
}

/*
 * libFuzzer harness for the selector grammar: how summary, compare, show,
 * export and runs rename/delete name runs (store_runs_load, store_select in
 * src/store/store.c).  The input is up to eight selectors separated by NUL
 * bytes, tried on a database made once with seven runs whose labels are
 * the hard cases: a label shared by a set's two runs, labels of digits
 * ("2024", "3") and one that looks like a set ("set:1"), as an old
 * database or an import can hold them, a UTF-8 one, and one that looks
 * like LABEL@HOST ("x@fuzzbox"); the last run is another host's.
 *
 * The grammar, as the manual states it: digits are a run id (a number, so
 * "007" is run 7) and then, when no run has that id, a label; "set:N" is
 * every run of the set whose first run is N, and then a label; anything
 * else is a label, and when no run has that label, LABEL@HOST (split at the
 * last '@') is the runs of that label on that host.  A selector that selects nothing is an error, one line.
 * The harness holds a model of that grammar and checks the store against
 * it: the same runs, each once, oldest first, or an error exactly when
 * some selector selects nothing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/result.h"
#include "fuzz/fuzz.h"
#include "store/store.h"

#define FZ_MAX_SEL 8

/* The database's runs: ids 1 to 7 in this order, and the first run of each one's set. */
static const struct {
	const char *label;
	int set;		/* the id of the first run of its set */
	const char *host;
} fz_runs[] = {
	{ "base", 1, "fuzzbox" }, { "base", 1, "fuzzbox" }, { "2024", 3, "fuzzbox" },
	{ "set:1", 4, "fuzzbox" }, { "x@fuzzbox", 5, "fuzzbox" }, { "3", 5, "fuzzbox" },
	{ "noyau-\xc3\xa9", 7, "box2" },
};
#define FZ_NRUNS (sizeof(fz_runs) / sizeof(fz_runs[0]))

static struct store *fz_st;

static int fz_digits(const char *s)
{
	return s[0] && strspn(s, "0123456789") == strlen(s);
}

/* A number of digits, or -1 when it does not fit (then it is no run id and no set). */
static long long fz_number(const char *s)
{
	long long v;

	errno = 0;
	v = strtoll(s, NULL, 10);
	return errno ? -1 : v;
}

/* The model: the runs sel selects, as bit i for run id i + 1. */
static unsigned fz_model(const char *sel)
{
	unsigned m = 0;

	if (fz_digits(sel)) {
		long long v = fz_number(sel);

		for (size_t i = 0; i < FZ_NRUNS; i++)
			if (v == (long long)i + 1)
				m |= 1u << i;
	}
	if (strncmp(sel, "set:", 4) == 0 && fz_digits(sel + 4)) {
		long long v = fz_number(sel + 4);

		for (size_t i = 0; i < FZ_NRUNS; i++)
			if (v == fz_runs[i].set)
				m |= 1u << i;
	}
	if (m)
		return m;
	for (size_t i = 0; i < FZ_NRUNS; i++)
		if (strcmp(sel, fz_runs[i].label) == 0)
			m |= 1u << i;
	if (m == 0 && strrchr(sel, '@') && strrchr(sel, '@')[1]) {
		const char *at = strrchr(sel, '@');

		for (size_t i = 0; i < FZ_NRUNS; i++)
			if (strlen(fz_runs[i].label) == (size_t)(at - sel) &&
			    strncmp(sel, fz_runs[i].label, (size_t)(at - sel)) == 0 &&
			    strcmp(at + 1, fz_runs[i].host) == 0)
				m |= 1u << i;
	}
	return m;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct run_info runs[FZ_NRUNS];
	char err[ERRBUF_LEN];
	const char *db = fz_path("select.db");
	size_t added;

	(void)argc;
	(void)argv;
	memset(runs, 0, sizeof(runs));
	for (size_t i = 0; i < FZ_NRUNS; i++) {
		snprintf(runs[i].uuid, sizeof(runs[i].uuid), "%032zx", i + 1);
		snprintf(runs[i].set_uuid, sizeof(runs[i].set_uuid), "%032x", fz_runs[i].set);
		snprintf(runs[i].label, sizeof(runs[i].label), "%s", fz_runs[i].label);
		snprintf(runs[i].started, sizeof(runs[i].started), "2026-12-01T10:00:0%zuZ", i);
		snprintf(runs[i].finished, sizeof(runs[i].finished), "2026-12-01T10:01:0%zuZ", i);
		snprintf(runs[i].host, sizeof(runs[i].host), "%s", fz_runs[i].host);
		snprintf(runs[i].os, sizeof(runs[i].os), "Linux 6.18");
	}
	fz_unlink_db(db);
	fz_st = store_open(db, err);
	FZ_CHECK(fz_st != NULL, "store_open: %s", err);
	FZ_CHECK(store_import(fz_st, runs, FZ_NRUNS, &added, err) == 0 && added == FZ_NRUNS,
		 "the harness's runs: %s", err);
	for (size_t i = 0; i < FZ_NRUNS; i++)
		FZ_CHECK(runs[i].id == (int64_t)i + 1, "run %zu stored as %" PRId64, i + 1, runs[i].id);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *sel[FZ_MAX_SEL];
	char err[ERRBUF_LEN] = "", *copy;
	struct run_info *runs = NULL;
	unsigned want = 0, got = 0;
	size_t nsel = 0, i = 0;
	int empty = 0, n;

	copy = malloc(size + 1);
	FZ_CHECK(copy != NULL, "out of memory");
	memcpy(copy, data, size);
	copy[size] = '\0';
	while (i <= size && nsel < FZ_MAX_SEL) {
		unsigned m;

		sel[nsel] = copy + i;
		i += strlen(sel[nsel]) + 1;
		m = fz_model(sel[nsel]);
		empty |= m == 0;
		want |= m;
		nsel++;
	}
	n = store_runs_load(fz_st, sel, nsel, 0, &runs, err);
	if (empty) {
		FZ_CHECK(n < 0, "a selector selects nothing in the model, but %d runs were loaded", n);
		fz_check_line("a selector refused", err);
	} else {
		FZ_CHECK(n >= 0, "the model selects runs 0x%x, the store refused: %s", want, err);
		for (int k = 0; k < n; k++) {
			FZ_CHECK(runs[k].id >= 1 && runs[k].id <= (int64_t)FZ_NRUNS, "run id %" PRId64,
				 runs[k].id);
			FZ_CHECK(k == 0 || runs[k].id > runs[k - 1].id, "runs not in order, or twice");
			got |= 1u << (runs[k].id - 1);
		}
		FZ_CHECK(got == want, "selected runs 0x%x, the model 0x%x (first selector '%s')", got,
			 want, sel[0]);
	}
	store_runs_free(runs, n > 0 ? (size_t)n : 0);
	free(copy);
	return 0;
}

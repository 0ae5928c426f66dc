/*
 * The host's history: the stored runs from which compare and run --runs
 * auto learn how far sittings of one label differ (stats_sittings).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/err.h"
#include "store/store.h"

/*
 * The history a comparison learns the spread between sittings from
 * (report_compare_build_history): on the hosts named, the runs of every
 * label measured in two sittings (sets) or more, its newest
 * HISTORY_SITTINGS sets, HISTORY_RUNS runs in all, newest first:
 * enough for the spread, and bounded in time however large the store.
 */
#define HISTORY_SITTINGS 20
#define HISTORY_RUNS 400

/* A label of the history: its newest set seen so far, and how many sets. */
struct history_label {
	const char *label;
	int64_t last;
	size_t all;
};

int cli_history(struct store *st, const char *const *hosts, size_t nhosts, struct run_info **runs,
		char *err)
{
	char (*ids)[24] = malloc(HISTORY_RUNS * sizeof(*ids));
	const char **sel = malloc(HISTORY_RUNS * sizeof(*sel));
	size_t nsel = 0;
	int n = 0;

	*runs = NULL;
	if (!ids || !sel) {
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
		/*
		 * Each label's sets counted newest first (a set's runs are
		 * stored together): a run is taken when its label has 2 sets
		 * or more and its set is among the label's newest.
		 */
		struct history_label *lab = calloc((size_t)nr + 1, sizeof(*lab));
		size_t nlab = 0, *rank = calloc((size_t)nr + 1, sizeof(*rank)),
		       *of = calloc((size_t)nr + 1, sizeof(*of));

		for (int r = nr - 1; lab && rank && of && r >= 0; r--) {
			size_t l = 0;

			while (l < nlab && strcmp(lab[l].label, rows[r].label) != 0)
				l++;
			if (l == nlab)
				lab[nlab++] = (struct history_label){ rows[r].label, -1, 0 };
			if (lab[l].last != rows[r].set_id) {
				lab[l].last = rows[r].set_id;
				lab[l].all++;
			}
			rank[r] = lab[l].all;
			of[r] = l;
		}
		for (int r = nr - 1; lab && rank && of && r >= 0 && nsel < HISTORY_RUNS; r--)
			if (lab[of[r]].all >= 2 && rank[r] <= HISTORY_SITTINGS) {
				snprintf(ids[nsel], sizeof(ids[nsel]), "%lld",
					 (long long)rows[r].id);
				sel[nsel] = ids[nsel];
				nsel++;
			}
		free(lab);
		free(rank);
		free(of);
		free(rows);
	}
	if (nsel)
		n = store_runs_load(st, sel, nsel, 0, runs, err);
out:
	free(ids);
	free(sel);
	return n;
}


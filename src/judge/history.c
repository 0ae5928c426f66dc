/*
 * The runs a comparison learns the spread between sittings from
 * (judge/history.h).
 */
#include "judge/history.h"

#include <stdlib.h>
#include <string.h>

/* A label of the history: its newest set seen so far, and how many sets. */
struct history_label {
	const char *label;
	int64_t last;
	size_t all;
};

int judge_history_pick(const struct store_run_row *rows, int nr, int64_t *ids, size_t max, size_t *n)
{
	/*
	 * Each label's sets counted newest first (a set's runs are stored
	 * together): a run is taken when its label has 2 sets or more and its
	 * set is among the label's newest.
	 */
	struct history_label *lab = calloc((size_t)nr + 1, sizeof(*lab));
	size_t nlab = 0, *rank = calloc((size_t)nr + 1, sizeof(*rank)), *of = calloc((size_t)nr + 1, sizeof(*of));
	int rc = lab && rank && of ? 0 : -1;

	for (int r = nr - 1; rc == 0 && r >= 0; r--) {
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
	for (int r = nr - 1; rc == 0 && r >= 0 && *n < max; r--)
		if (lab[of[r]].all >= 2 && rank[r] <= JUDGE_HISTORY_SITTINGS)
			ids[(*n)++] = rows[r].id;
	free(lab);
	free(rank);
	free(of);
	return rc;
}

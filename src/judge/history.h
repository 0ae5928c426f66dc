/*
 * Which stored runs a comparison learns the spread between sittings from
 * (judge_compare_build_history, run --runs auto): of one host's runs,
 * those of every label measured in two sittings (sets of runs, one
 * invocation each) or more, its newest JUDGE_HISTORY_SITTINGS sets,
 * JUDGE_HISTORY_RUNS runs in all, newest first: enough for the spread,
 * and bounded in time however large the store.  The store is read by the
 * caller (cli_history); this only chooses.
 */
#ifndef KB_JUDGE_HISTORY_H
#define KB_JUDGE_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

#define JUDGE_HISTORY_SITTINGS 20
#define JUDGE_HISTORY_RUNS 400

/*
 * Of a host's nr runs (as store_runs_list gives them, oldest first), the
 * ids of those chosen, newest first, appended to ids (room for max, *n
 * filled so far, so several hosts can share it).  0, or -1 without memory.
 */
int judge_history_pick(const struct store_run_row *rows, int nr, int64_t *ids, size_t max, size_t *n);

#endif

/*
 * Runs merged and named for the tables (src/judge/merge.c): one run per
 * label, and labels told apart by host or by CPUs, in memory.
 */
#ifndef KB_JUDGE_MERGE_H
#define KB_JUDGE_MERGE_H

#include <stddef.h>

#include "core/result.h"

/*
 * The runs merged into one run per label, in the order the labels first
 * appear, for a summary with one row per label.  Each instance (id,
 * placement, copies) gets one result: the median of the runs' usable
 * medians (ok or noisy) with its 95% CI over the runs, noisy when any of
 * them was, its values and curve points from the run nearest that median;
 * one usable run's result is kept as it is, and with none the first run's
 * (a skip keeps its reason).  samples is NULL in every merged result and
 * n counts the samples behind the figure.  A merged run's nmerged is the
 * number of runs of its label; with more than one its id is 0.  Returns
 * the number of merged runs in *merged (free with judge_merge_free), or
 * -1 without memory and *merged NULL.
 */
int judge_merge_labels(const struct run_info *runs, size_t nruns, struct run_info **merged);
void judge_merge_free(struct run_info *merged, size_t n);
/*
 * A label that runs of several hosts share becomes LABEL@HOST in each of
 * them (in memory), so that the tables keep each host's runs apart and
 * name them as a selector would (issue 18: "6.18@box1").  A label of one
 * host is left as it is.
 */
void judge_qualify_hosts(struct run_info *runs, size_t nruns);
/*
 * Runs of one label held to different CPUs (--cpus 0, --cpus 1, all of
 * them) are not one figure: each such run's label gains " cpus 0" (or
 * " cpus all"), in memory, so that the tables keep them apart.
 */
void judge_qualify_cpus(struct run_info *runs, size_t nruns);

#endif

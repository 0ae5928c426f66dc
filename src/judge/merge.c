/*
 * One row per label for the summary tables: the runs of a label merged
 * into one run_info, as `kbench compare` merges a side.  Each instance
 * (id, placement, copies) becomes one result whose figure is the median of
 * the runs' medians: the runs are the independent repetitions, and their
 * median ignores one run spoiled by a neighbour where a mean would not.
 *
 * Everything here reads runs and makes copies; it never changes its input,
 * never prints and never touches the database.
 */
#include "judge/merge.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "judge/compare.h"
#include "stats/stats.h"

/* A figure that can be merged: measured, even if noisy (skip and fail have none). */
static int merge_usable(const struct result *r)
{
	return (r->status == RES_OK || r->status == RES_NOISY) && isfinite(r->median);
}

/*
 * dst as a copy of src that owns its points, so that run_info_free frees
 * each copy once.  The samples stay behind: the merged figure is not made
 * from pooled samples (a long run would outweigh a short one), and the
 * tables never read them.  0, or -1 without memory with dst owning nothing.
 */
static int merge_copy(struct result *dst, const struct result *src)
{
	*dst = *src;
	dst->samples = NULL;
	dst->where = NULL;
	dst->usage = NULL;
	dst->buckets = NULL;
	dst->nbuckets = 0;
	dst->points = NULL;
	dst->npoints = 0;
	dst->replicas = NULL;
	dst->nreplicas = 0;
	if (src->nreplicas && src->replicas) {
		dst->replicas = malloc(src->nreplicas * sizeof(*dst->replicas));
		if (!dst->replicas)
			return -1;
		memcpy(dst->replicas, src->replicas, src->nreplicas * sizeof(*dst->replicas));
		dst->nreplicas = src->nreplicas;
	}
	if (src->npoints == 0 || !src->points)
		return 0;
	dst->points = malloc(src->npoints * sizeof(*dst->points));
	if (!dst->points)
		return -1;
	memcpy(dst->points, src->points, src->npoints * sizeof(*dst->points));
	dst->npoints = src->npoints;
	return 0;
}

/* The median of n values, in *out.  0, or -1 without memory. */
static int merge_median(const double *v, size_t n, double *out)
{
	struct stats_summary ss;

	if (stats_summarize(v, n, &ss) < 0)
		return -1;
	*out = ss.median;
	return 0;
}

/*
 * The instance of key over the runs of one label (the members of runs),
 * into out.  With two usable figures or more: the median of their medians
 * and its 95% CI (order statistics over the runs, so with fewer than six
 * runs it is their whole range), and the same of their levels; the spread
 * fields (min to p95) describe the medians too.  With one, that run's result as it is, CI included.
 * With none, the first run's, so a skip or a failure keeps its reason.
 */
static int merge_instance(const struct run_info *runs, const size_t *members, size_t nmembers,
			  const struct result *key, struct result *out)
{
	const struct result **got = NULL, *first = NULL, *rep;
	int64_t *got_run = NULL, rep_run;
	double *meds = NULL, *aggs = NULL, *levs = NULL, *shares = NULL, *depths = NULL, dist;
	double interference = -1, wall = 0, drift = NAN, between = 0;
	size_t nused = 0, naggs = 0, nsamples = 0, cap = 0, nlevels = 0, nshares = 0, ndepths = 0;
	struct stats_summary ss, ls;
	int noisy = 0, drifted = 0, rc = -1;

	for (size_t m = 0; m < nmembers; m++)
		cap += runs[members[m]].nresults;
	got = malloc(cap * sizeof(*got));
	meds = malloc(cap * sizeof(*meds));
	aggs = malloc(cap * sizeof(*aggs));
	got_run = malloc(cap * sizeof(*got_run));
	levs = malloc(cap * sizeof(*levs));
	shares = malloc(cap * sizeof(*shares));
	depths = malloc(cap * sizeof(*depths));
	if (!got || !meds || !aggs || !got_run || !levs || !shares || !depths)
		goto out;
	for (size_t m = 0; m < nmembers; m++) {
		const struct run_info *run = &runs[members[m]];

		for (size_t i = 0; i < run->nresults; i++) {
			const struct result *r = &run->results[i];

			if (!result_same_instance(r, key))
				continue;
			if (!first)
				first = r;
			if (r->wall_s > 0 && isfinite(r->wall_s))
				wall += r->wall_s;
			if (!merge_usable(r))
				continue;
			got[nused] = r;
			got_run[nused] = run->id;
			meds[nused++] = r->median;
			if (result_level_known(r))
				levs[nlevels++] = r->level;
			if (result_value(r, JUDGE_SITTINGS_VALUE) &&
			    isfinite(result_value(r, JUDGE_SITTINGS_VALUE)->num))
				between = fmax(between, result_value(r, JUDGE_SITTINGS_VALUE)->num);
			if (isfinite(r->slow_share))
				shares[nshares++] = r->slow_share;
			if (isfinite(r->slow_depth) && r->slow_depth > 0)
				depths[ndepths++] = r->slow_depth;
			noisy |= r->status == RES_NOISY;
			drifted |= r->drifted;
			if (isfinite(r->drift))
				drift = isfinite(drift) ? fmax(drift, r->drift) : r->drift;
			nsamples += r->n;
			if (r->interference > interference && isfinite(r->interference))
				interference = r->interference;
			if (r->parallel > 1 && isfinite(r->aggregate))
				aggs[naggs++] = r->aggregate;
		}
	}
	if (!first)
		BUG("merge: instance %s in none of the label's runs", key->id);
	if (nused <= 1) {
		rc = merge_copy(out, nused ? got[0] : first);
		goto out;
	}
	if (stats_summarize(meds, nused, &ss) < 0)
		goto out;
	/* Levels where every run has one (an older kbench's have none: the medians stand). */
	if (nlevels == nused && stats_summarize(levs, nlevels, &ls) < 0)
		goto out;
	/*
	 * The values (a curve's detected cache sizes, the file system, pages per
	 * fault) and a curve's points describe one measurement, so they come
	 * whole from one run: the run whose median is nearest the merged one,
	 * the earliest on a tie.  With an odd number of runs it is the run whose
	 * median is the row's figure, so the values shown beside a figure are
	 * that figure's own, which the first run's would not be.
	 */
	rep = got[0];
	rep_run = got_run[0];
	dist = fabs(result_figure(got[0]) - (nlevels == nused ? ls.median : ss.median));
	for (size_t i = 1; i < nused; i++)
		if (fabs(result_figure(got[i]) - (nlevels == nused ? ls.median : ss.median)) < dist) {
			rep = got[i];
			rep_run = got_run[i];
			dist = fabs(result_figure(got[i]) - (nlevels == nused ? ls.median : ss.median));
		}
	if (merge_copy(out, rep) < 0)
		goto out;
	/* Replicas belong to one run; the merged figure is made of the runs. */
	free(out->replicas);
	out->replicas = NULL;
	out->nreplicas = 0;
	/* So the summary can name the run whose curve it shows: `kbench show ID RUN`. */
	out->from_run = rep_run;
	out->status = noisy ? RES_NOISY : RES_OK;
	/* Drifted in any run, as noisy: the largest movement stands for the row. */
	out->drifted = drifted;
	out->drift = drift;
	out->median = ss.median;
	out->ci_low = ss.ci_low;
	out->ci_high = ss.ci_high;
	out->min = ss.min;
	out->max = ss.max;
	out->mean = ss.mean;
	out->stddev = ss.stddev;
	out->cv = ss.cv;
	out->p5 = ss.p5;
	out->p95 = ss.p95;
	/*
	 * The level: the runs' levels' median and its interval over the runs;
	 * the slow spells, the runs' mean share and median depth.
	 */
	out->level = out->level_low = out->level_high = NAN;
	out->slow_share = out->slow_depth = NAN;
	if (nlevels == nused) {
		out->level = ls.median;
		out->level_low = ls.ci_low;
		out->level_high = ls.ci_high;
		/* Runs of one invocation share its sitting: what the sittings add, they cannot show. */
		judge_level_widen(out, between);
	}
	if (nshares) {
		out->slow_share = 0;
		for (size_t i = 0; i < nshares; i++)
			out->slow_share += shares[i] / (double)nshares;
		out->slow_depth = 0;
	}
	if (ndepths && merge_median(depths, ndepths, &out->slow_depth) < 0) {
		result_free(out);
		goto out;
	}
	/* Every sample behind the figure, though none is kept (see merge_copy). */
	out->n = nsamples;
	/* A noisy row's stop is a noisy run's: it says why the precision was missed. */
	for (size_t i = 0; i < nused; i++)
		if (got[i]->status == out->status) {
			out->stop = got[i]->stop;
			break;
		}
	/* The busiest run: a figure that had company in any run is flagged, as noisy is. */
	out->interference = interference;
	out->wall_s = wall;
	out->aggregate = NAN;
	if (naggs && merge_median(aggs, naggs, &out->aggregate) < 0) {
		result_free(out);
		goto out;
	}
	out->reason[0] = '\0';
	rc = 0;
out:
	free(got);
	free(got_run);
	free(meds);
	free(aggs);
	free(levs);
	free(shares);
	free(depths);
	return rc;
}

/*
 * The label of runs[first] merged into out: the header of its first run
 * (host, OS, machine), the median of the runs' clock rates, and one result
 * per instance in the order first measured.
 */
static int merge_label(const struct run_info *runs, size_t nruns, size_t first,
		       struct run_info *out)
{
	const struct run_info *head = &runs[first];
	size_t *members, nmembers = 0, nmhz = 0;
	double *mhz;
	int rc = -1;

	members = malloc((nruns - first) * sizeof(*members));
	mhz = malloc((nruns - first) * sizeof(*mhz));
	if (!members || !mhz)
		goto fail;
	for (size_t k = first; k < nruns; k++)
		if (strcmp(runs[k].label, head->label) == 0) {
			members[nmembers++] = k;
			if (runs[k].mhz > 0 && isfinite(runs[k].mhz))
				mhz[nmhz++] = runs[k].mhz;
		}

	*out = *head;
	out->results = NULL;
	out->nresults = 0;
	out->sysinfo_json = NULL;
	/* A timeline is one run's; the results keep what it said of them (drift). */
	out->sentinel = NULL;
	out->nsentinel = 0;
	out->nmerged = nmembers;
	/* A row of several runs is no stored run: the notes name it by its label. */
	if (nmembers > 1)
		out->id = 0;
	if (head->sysinfo_json && !(out->sysinfo_json = strdup(head->sysinfo_json)))
		goto fail;
	out->mhz = 0;
	if (nmhz && merge_median(mhz, nmhz, &out->mhz) < 0)
		goto fail;

	for (size_t m = 0; m < nmembers; m++) {
		const struct run_info *run = &runs[members[m]];

		for (size_t i = 0; i < run->nresults; i++) {
			const struct result *key = &run->results[i];
			struct result *more;
			int seen = 0;

			for (size_t j = 0; j < out->nresults && !seen; j++)
				seen = result_same_instance(&out->results[j], key);
			if (seen)
				continue;
			more = realloc(out->results, (out->nresults + 1) * sizeof(*more));
			if (!more)
				goto fail;
			out->results = more;
			if (merge_instance(runs, members, nmembers, key, &out->results[out->nresults]) < 0)
				goto fail;
			out->nresults++;
		}
	}
	rc = 0;
fail:
	if (rc < 0)
		run_info_free(out);
	free(members);
	free(mhz);
	return rc;
}

/* For merge_firsts' sort: by label, then by position. */
static const struct run_info *merge_sorting;

static int merge_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(merge_sorting[x].label, merge_sorting[y].label);

	return c ? c : (x > y) - (x < y);
}

/*
 * Which runs come first under their label (malloc'd flags, NULL when out
 * of memory): sorted, where looking for each label among the runs before
 * it took 1.25 billion comparisons for 50,000 runs.
 */
static unsigned char *merge_firsts(const struct run_info *runs, size_t nruns)
{
	size_t *order = malloc(nruns * sizeof(*order));
	unsigned char *first = calloc(nruns, 1);

	if (!order || !first) {
		free(order);
		free(first);
		return NULL;
	}
	for (size_t k = 0; k < nruns; k++)
		order[k] = k;
	merge_sorting = runs;
	qsort(order, nruns, sizeof(*order), merge_cmp);
	for (size_t i = 0; i < nruns; i++)
		first[order[i]] = i == 0 || strcmp(runs[order[i]].label, runs[order[i - 1]].label) != 0;
	free(order);
	return first;
}

int judge_merge_labels(const struct run_info *runs, size_t nruns, struct run_info **merged)
{
	struct run_info *out;
	unsigned char *first;
	size_t n = 0;

	*merged = NULL;
	if (nruns == 0)
		return 0;
	if (nruns > INT_MAX)
		return -1;
	out = calloc(nruns, sizeof(*out));
	first = merge_firsts(runs, nruns);
	if (!out || !first) {
		free(out);
		free(first);
		return -1;
	}
	for (size_t k = 0; k < nruns; k++) {
		if (!first[k])
			continue;
		if (merge_label(runs, nruns, k, &out[n]) < 0) {
			judge_merge_free(out, n);
			free(first);
			return -1;
		}
		n++;
	}
	free(first);
	*merged = out;
	return (int)n;
}

void judge_merge_free(struct run_info *merged, size_t n)
{
	for (size_t i = 0; merged && i < n; i++)
		run_info_free(&merged[i]);
	free(merged);
}

void judge_qualify_hosts(struct run_info *runs, size_t nruns)
{
	unsigned char *shared = calloc(nruns ? nruns : 1, 1);
	size_t *order = malloc((nruns ? nruns : 1) * sizeof(*order));

	/* Without memory the labels stay as stored: the tables merge hosts, as before. */
	if (!shared || !order) {
		free(shared);
		free(order);
		return;
	}
	/* A label is shared when its runs (sorted together) name more than one host. */
	for (size_t k = 0; k < nruns; k++)
		order[k] = k;
	merge_sorting = runs;
	qsort(order, nruns, sizeof(*order), merge_cmp);
	for (size_t g = 0, e; g < nruns; g = e) {
		int hosts = 1;

		for (e = g + 1; e < nruns && strcmp(runs[order[e]].label, runs[order[g]].label) == 0; e++)
			hosts += strcmp(runs[order[e]].host, runs[order[g]].host) != 0;
		for (size_t i = g; i < e && hosts > 1; i++)
			shared[order[i]] = 1;
	}
	free(order);
	for (size_t i = 0; i < nruns; i++) {
		char q[sizeof(runs[i].label)];

		if (!shared[i])
			continue;
		/* Cut in the label, never in the host: LABEL@HOST must select what it names. */
		snprintf(q, sizeof(q), "%.*s@%s",
			 (int)(sizeof(q) - 2 - strnlen(runs[i].host, sizeof(q) - 2)), runs[i].label,
			 runs[i].host);
		memcpy(runs[i].label, q, sizeof(q));
	}
	free(shared);
}

/*
 * The text of the top-level key of a sysinfo JSON object, copied into buf
 * ("" when absent or not a plain string).  A quoted key can only be a key
 * here: inside a string every quote is escaped.  Scanned rather than
 * parsed, since summary asks it of every run (parsing 50,000 of them took
 * seconds).
 */
static void merge_sysinfo_text(const char *json, const char *key, char *buf, size_t len)
{
	char pat[64];
	const char *p;
	size_t n = 0;

	buf[0] = '\0';
	snprintf(pat, sizeof(pat), "\"%s\"", key);
	if (!json || !(p = strstr(json, pat)))
		return;
	p += strlen(pat);
	while (*p == ' ' || *p == ':')
		p++;
	if (*p++ != '"')
		return;
	while (p[n] && p[n] != '"' && p[n] != '\\' && n + 1 < len)
		n++;
	if (p[n] != '"')
		return;
	memcpy(buf, p, n);
	buf[n] = '\0';
}

/* The CPUs a run was held to ("" when all): from its stored description. */
static void merge_cpus_of(const struct run_info *run, char *buf, size_t len)
{
	char mode[16];

	buf[0] = '\0';
	merge_sysinfo_text(run->sysinfo_json, "cpus_mode", mode, sizeof(mode));
	if (strcmp(mode, "affinity") == 0 || strcmp(mode, "offline") == 0)
		merge_sysinfo_text(run->sysinfo_json, "cpus", buf, len);
}

void judge_qualify_cpus(struct run_info *runs, size_t nruns)
{
	size_t *order = malloc((nruns ? nruns : 1) * sizeof(*order));
	char (*cpus)[256] = calloc(nruns ? nruns : 1, sizeof(*cpus));
	unsigned char *mixed = calloc(nruns ? nruns : 1, 1);

	/* Without memory the labels stay as stored, and the note says what the first run had. */
	if (!order || !cpus || !mixed)
		goto out;
	for (size_t k = 0; k < nruns; k++) {
		order[k] = k;
		merge_cpus_of(&runs[k], cpus[k], sizeof(cpus[k]));
	}
	merge_sorting = runs;
	qsort(order, nruns, sizeof(*order), merge_cmp);
	for (size_t g = 0, e; g < nruns; g = e) {
		int differ = 0;

		for (e = g + 1; e < nruns && strcmp(runs[order[e]].label, runs[order[g]].label) == 0; e++)
			differ |= strcmp(cpus[order[e]], cpus[order[g]]) != 0;
		for (size_t i = g; i < e && differ; i++)
			mixed[order[i]] = 1;
	}
	for (size_t k = 0; k < nruns; k++) {
		char q[sizeof(runs[k].label)];
		const char *tail = cpus[k][0] ? cpus[k] : "all";
		int room = (int)(sizeof(q) - strlen(" cpus ") - 1 - strnlen(tail, sizeof(q) / 2));

		if (!mixed[k])
			continue;
		/* Cut in the label, never in the CPUs: the row must say which it is. */
		snprintf(q, sizeof(q), "%.*s cpus %s", room > 0 ? room : 0, runs[k].label, tail);
		memcpy(runs[k].label, q, sizeof(q));
	}
out:
	free(order);
	free(cpus);
	free(mixed);
}

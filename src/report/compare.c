/*
 * kbench compare: the same benchmark instances measured under a base and
 * one or more others (labels or runs), side by side, with the change and
 * whether it is real.
 *
 * An instance is (id, placement, copies): a pipe round trip on one CPU and
 * across two are different things and are never compared with each other.
 * A side's figure is the median of its runs' medians, and its interval is
 * the 95% CI of that median (order statistics, so with fewer than 6 runs
 * it is their whole range), or with one run that run's own CI.
 *
 * Which test: with 3 runs or more a side, Welch's t on the logarithms of
 * the run medians (runs are the independent repetitions: samples within
 * one run share its warm caches and its neighbours, and would call every
 * difference real); with fewer, Mann-Whitney on the samples of all runs,
 * marked as the weaker evidence it is.  The p-values of one table are
 * adjusted together (Benjamini-Hochberg: a table of fifty rows corrected
 * with Holm would need p < 0.001 a row, which 3 runs a side almost never
 * give, see tests/unit/test_signif.c).  A change is marked significant when
 * its adjusted p is below 0.05, it is at least --threshold, and neither
 * side missed its precision: a noisy figure is never called a change.
 */
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* The sections, in lmbench's order; an id goes to the first that matches. */
static const struct {
	const char *title;
	const char *prefixes[6];
} cmp_sections[] = {
	{ "Processor, processes (us)", { "cpu.", "sys.", "sig.", "proc." } },
	{ "Context switching (us)", { "ctx." } },
	{ "Local communication latencies (us)", { "ipc.pipe.lat", "ipc.unix.lat", "ipc.udp.lat",
						  "ipc.tcp.lat", "ipc.rpc_", "ipc.tcp.connect" } },
	{ "File & VM latencies (us)", { "fs.create", "fs.delete", "vm.mmap", "vm.prot",
					"vm.page" } },
	/* Every id ending in .bw, whatever its family: see cmp_section_of. */
	{ "Bandwidths (MB/s)", { NULL } },
	{ "Memory latencies (ns)", { "mem.lat." } },
};

#define CMP_SECTION_BW 4

static size_t cmp_section_of(const char *id)
{
	size_t len = strlen(id);

	/* Bandwidths by their unit's suffix, before the prefixes (mem., vm.mmap) claim them. */
	if (len > 3 && strcmp(id + len - 3, ".bw") == 0)
		return CMP_SECTION_BW;
	for (size_t s = 0; s < NELEM(cmp_sections); s++)
		for (size_t k = 0; k < NELEM(cmp_sections[s].prefixes) && cmp_sections[s].prefixes[k]; k++)
			if (strncmp(id, cmp_sections[s].prefixes[k],
				    strlen(cmp_sections[s].prefixes[k])) == 0)
				return s;
	return NELEM(cmp_sections);
}

static int cmp_usable(const struct result *r)
{
	return (r->status == RES_OK || r->status == RES_NOISY) && isfinite(r->median) &&
	       r->median > 0 && r->npoints == 0;
}

static int cmp_same_instance(const struct result *a, const struct result *b)
{
	return strcmp(a->id, b->id) == 0 && a->placement == b->placement &&
	       a->parallel == b->parallel;
}

/* Gather one side's figures for the instance of `key`. */
static void cmp_gather(const struct report_cmp_side *side, const struct result *key,
		       struct report_cmp_cell *c, double **meds, double **samples, size_t *ns)
{
	size_t cap = 0;

	memset(c, 0, sizeof(*c));
	*meds = NULL;
	*samples = NULL;
	*ns = 0;
	for (size_t i = 0; i < side->nruns; i++)
		for (size_t j = 0; j < side->runs[i].nresults; j++) {
			const struct result *r = &side->runs[i].results[j];

			if (!cmp_same_instance(r, key) || !cmp_usable(r))
				continue;
			double *m = realloc(*meds, (c->nruns + 1) * sizeof(*m));
			if (!m)
				return;
			*meds = m;
			m[c->nruns++] = r->median;
			c->noisy |= r->status == RES_NOISY;
			c->lo = r->ci_low;
			c->hi = r->ci_high;
			if (r->samples && r->n) {
				if (*ns + r->n > cap) {
					cap = 2 * (*ns + r->n);
					double *s = realloc(*samples, cap * sizeof(*s));
					if (!s)
						continue;
					*samples = s;
				}
				memcpy(*samples + *ns, r->samples, r->n * sizeof(double));
				*ns += r->n;
			}
		}
	if (c->nruns == 0)
		return;
	c->present = 1;
	if (c->nruns == 1) {
		c->median = (*meds)[0];
		return;
	}
	struct stats_summary ss;
	stats_summarize(*meds, c->nruns, &ss);
	c->median = ss.median;
	c->lo = ss.ci_low;
	c->hi = ss.ci_high;
}

/* The test of other against base for one instance; fills p and test. */
static void cmp_test(struct report_cmp_cell *base, const double *bm, const double *bs, size_t bns,
		     struct report_cmp_cell *o, const double *om, const double *os, size_t ons)
{
	struct stats_welch w;
	struct stats_mw mw;

	o->p = NAN;
	o->test = CMP_TEST_NONE;
	if (base->nruns >= 3 && o->nruns >= 3 &&
	    stats_welch_log(bm, base->nruns, om, o->nruns, &w) == 0) {
		o->p = w.p;
		o->test = CMP_TEST_WELCH_RUNS;
		o->ratio_lo = exp(w.diff_lo);
		o->ratio_hi = exp(w.diff_hi);
	} else if (bns >= 2 && ons >= 2 && stats_mann_whitney(bs, bns, os, ons, &mw) == 0) {
		o->p = mw.p;
		o->test = CMP_TEST_MW_SAMPLES;
		o->ratio_lo = o->ratio_hi = NAN;
	}
}

int report_compare_build(const struct report_cmp_side *sides, size_t nsides, double threshold,
			 struct report_cmp_row **rows_out, size_t *nrows_out)
{
	struct report_cmp_row *rows = NULL;
	size_t nrows = 0, np = 0;
	double *p = NULL, *adj = NULL;

	*rows_out = NULL;
	*nrows_out = 0;
	if (nsides < 2 || nsides > REPORT_CMP_MAX_SIDES)
		return -1;
	/* Every instance the base has, in the order it was measured, once. */
	for (size_t i = 0; i < sides[0].nruns; i++)
		for (size_t j = 0; j < sides[0].runs[i].nresults; j++) {
			const struct result *key = &sides[0].runs[i].results[j];
			int seen = 0;

			if (!cmp_usable(key))
				continue;
			for (size_t k = 0; k < nrows && !seen; k++)
				seen = cmp_same_instance(rows[k].key, key);
			if (seen)
				continue;
			struct report_cmp_row *more = realloc(rows, (nrows + 1) * sizeof(*rows));
			if (!more)
				goto fail;
			rows = more;
			memset(&rows[nrows], 0, sizeof(rows[nrows]));
			rows[nrows].key = key;
			rows[nrows].section = cmp_section_of(key->id);
			nrows++;
		}
	for (size_t k = 0; k < nrows; k++) {
		double *bm, *bs, *om, *os;
		size_t bns, ons, common = 0;
		struct report_cmp_row *row = &rows[k];

		cmp_gather(&sides[0], row->key, &row->cell[0], &bm, &bs, &bns);
		for (size_t s = 1; s < nsides; s++) {
			struct report_cmp_cell *o = &row->cell[s];

			cmp_gather(&sides[s], row->key, o, &om, &os, &ons);
			if (o->present) {
				common++;
				o->change = o->median / row->cell[0].median - 1;
				cmp_test(&row->cell[0], bm, bs, bns, o, om, os, ons);
			}
			free(om);
			free(os);
		}
		free(bm);
		free(bs);
		row->common = common > 0;
	}
	/* One correction over the whole table. */
	p = malloc((nrows * nsides + 1) * sizeof(*p));
	adj = malloc((nrows * nsides + 1) * sizeof(*adj));
	if (!p || !adj)
		goto fail;
	for (size_t k = 0; k < nrows; k++)
		for (size_t s = 1; s < nsides; s++)
			if (rows[k].cell[s].present && isfinite(rows[k].cell[s].p))
				p[np++] = rows[k].cell[s].p;
	if (stats_bh(p, np, adj) < 0)
		goto fail;
	np = 0;
	for (size_t k = 0; k < nrows; k++)
		for (size_t s = 1; s < nsides; s++) {
			struct report_cmp_cell *o = &rows[k].cell[s];
			int lower = rows[k].key->better == BETTER_LOWER;

			if (!o->present || !isfinite(o->p)) {
				o->p_adj = NAN;
				continue;
			}
			o->p_adj = adj[np++];
			o->significant = o->p_adj < 0.05 && fabs(o->change) >= threshold &&
					 !o->noisy && !rows[k].cell[0].noisy;
			o->better = (o->change < 0) == lower;
		}
	free(p);
	free(adj);
	*rows_out = rows;
	*nrows_out = nrows;
	return 0;
fail:
	free(p);
	free(adj);
	free(rows);
	return -1;
}

/* "2.060 +-0.5%": the figure and its CI half-width in percent. */
static void cmp_cell_text(char *buf, size_t size, const struct report_cmp_cell *c)
{
	char fig[32];
	double hw = fmax(c->median - c->lo, c->hi - c->median) / c->median * 100;

	report_fig(fig, sizeof(fig), c->median);
	if (isfinite(hw))
		snprintf(buf, size, "%s %s%.1f%%", fig, "+-", hw);
	else
		snprintf(buf, size, "%s", fig);
}

void report_compare_text(FILE *out, const struct report_cmp_side *sides, size_t nsides,
			 const struct report_cmp_row *rows, size_t nrows, double threshold)
{
	char cell[64], change[32];

	fprintf(out, "Base %s; change = other / base - 1; * = significant (Benjamini-Hochberg "
		"adjusted p < 0.05,\nat least %.0f%%, neither side noisy); ~ = fewer than 3 runs a "
		"side, samples compared;\n! = a side missed its precision\n", sides[0].name,
		threshold * 100);
	for (size_t sec = 0; sec <= NELEM(cmp_sections); sec++) {
		int header = 0;
		double logsum = 0;
		size_t nratio = 0, nbetter = 0, nworse = 0, nsame = 0;

		for (size_t k = 0; k < nrows; k++) {
			const struct report_cmp_row *row = &rows[k];

			if (row->section != sec || !row->common)
				continue;
			if (!header++) {
				fprintf(out, "\n%s\n%-22s", sec < NELEM(cmp_sections) ?
					cmp_sections[sec].title : "Other", "");
				for (size_t s = 0; s < nsides; s++)
					fprintf(out, s == 0 ? " %16.16s" : " %26.26s", sides[s].name);
				fputc('\n', out);
			}
			char name[96];
			snprintf(name, sizeof(name), "%s%s%s", row->key->id,
				 row->key->placement == PLACE_NA ? "" : " ",
				 place_name(row->key->placement));
			fprintf(out, "%-22.22s", name);
			cmp_cell_text(cell, sizeof(cell), &row->cell[0]);
			fprintf(out, " %15s%s", cell, row->cell[0].noisy ? "!" : " ");
			for (size_t s = 1; s < nsides; s++) {
				const struct report_cmp_cell *o = &row->cell[s];

				if (!o->present) {
					fprintf(out, " %26s", "-");
					continue;
				}
				cmp_cell_text(cell, sizeof(cell), o);
				snprintf(change, sizeof(change), "%+.1f%%", o->change * 100);
				fprintf(out, " %14s%s %7s %c%c", cell, o->noisy ? "!" : " ", change,
					o->significant ? '*' : ' ',
					o->test == CMP_TEST_MW_SAMPLES ? '~' : ' ');
				/* The section's line speaks of the first other. */
				if (s == 1) {
					double gain = row->key->better == BETTER_LOWER ? 1 / (1 + o->change)
										       : 1 + o->change;
					logsum += log(gain);
					nratio++;
					if (!o->significant)
						nsame++;
					else if (o->better)
						nbetter++;
					else
						nworse++;
				}
			}
			fputc('\n', out);
		}
		if (nratio)
			fprintf(out, "  %s against %s: geometric mean %.3fx (above 1 is better); %zu "
				"better, %zu worse, %zu unchanged\n", sides[1].name, sides[0].name,
				exp(logsum / (double)nratio), nbetter, nworse, nsame);
	}
}

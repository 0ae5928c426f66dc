/*
 * What the text reports share: how a run, a placement and a text from a
 * run are named in a note, which figures are worth a cell, and a cache's
 * size as the OS reports it.  The summary's tables (lmbench.c, rates.c,
 * aim9.c, other.c), their notes (notes.c) and `kbench show` (show.c) all
 * name things through here, so that a run is called the same everywhere.
 * Everything here reads results; nothing prints a table.
 */
#include "report/text.h"
#include "report/fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Text from a run (a label, a host, a reason) safe to print whole, into buf. */
const char *text_esc(char *buf, size_t size, const char *s)
{
	return report_cell(buf, size, s, -1, 0);
}

/* A figure worth printing: measured, even if noisy.  Skip and fail are blank. */
int text_usable(const struct result *r)
{
	return r && (r->status == RES_OK || r->status == RES_NOISY) && isfinite(result_figure(r));
}

/* The number a result stored under key, or NaN when it has none (or a text). */
double text_value_num(const struct result *r, const char *key)
{
	const struct bench_value *v = r ? result_value(r, key) : NULL;

	return v && !v->text[0] ? v->num : (double)NAN;
}

/*
 * The size of the level's data (or unified) cache the OS reports, in
 * bytes; 0 when unknown.  The instruction cache says nothing about loads.
 */
double text_os_cache_bytes(const struct sysinfo *si, int level)
{
	for (int i = 0; si && i < si->ncaches && i < (int)NELEM(si->caches); i++)
		if (si->caches[i].level == level && strcmp(si->caches[i].type, "Instruction") != 0)
			return (double)si->caches[i].size;
	return 0;
}

/*
 * Whether a result's interval is the machine's floor (core/replica.h, the
 * value machine_share) rather than its replicas' range: hw, its half-width,
 * no wider than the floor.
 */
int text_floored(const struct result *r, double hw)
{
	const struct bench_value *v = result_value(r, "machine_share");

	return v && v->num > 0 && hw <= expm1(v->num) * fabs(result_figure(r)) * (1 + 1e-9);
}

/* " [same]" after an id measured under a placement; "" otherwise. */
const char *text_place_tag(const struct result *r)
{
	switch (r->placement) {
	case PLACE_SAME: return " [same]";
	case PLACE_SPREAD: return " [spread]";
	case PLACE_NONE: return " [none]";
	case PLACE_NA: return "";
	}
	return "";
}

/*
 * How a run is named in the notes: "run 12" by its store id; a run not
 * stored (--no-store) has no id, so its label names it instead.  Its place
 * in the list would read like an id and could name another run.  A row
 * merged from several runs is no one run: "label '2.5.47' (3 runs)".
 */
void text_run_name(const struct run_info *run, char *buf, size_t size)
{
	char label[101];

	/* Cut so that the count fits the callers' 160 bytes whatever the label. */
	report_cell(label, sizeof(label), run->label, 100, 0);
	if (run->nmerged > 1)
		snprintf(buf, size, "label '%s' (%zu runs)", label, run->nmerged);
	else if (run->id > 0)
		snprintf(buf, size, "run %lld", (long long)run->id);
	else
		snprintf(buf, size, "run '%s'", label);
}

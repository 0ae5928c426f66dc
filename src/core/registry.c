/*
 * The registry: one list naming the family tables, and the lookups over
 * them.  Rows are checked at start-up (registry_check) so that a bad row
 * fails at once, not when someone first runs it.
 *
 * To add a family: write src/bench/NAME.c ending in
 *   const struct bench NAME_benches[] = { {...}, ... };
 *   const size_t NAME_nbenches = sizeof(NAME_benches) / sizeof(NAME_benches[0]);
 * declare both in src/bench/families.h, add a line to `families` below, and
 * add the file to meson.build.  Order here is the order of `kbench list` and
 * of a run.
 */
#include "core/registry.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/families.h"
#include "core/parse.h"
#include "core/result.h"

static const struct family {
	const struct bench *rows;
	const size_t *n;
} families[] = {
	{ cpu_benches, &cpu_nbenches },
	{ sys_benches, &sys_nbenches },
	{ sig_benches, &sig_nbenches },
	{ proc_benches, &proc_nbenches },
	{ ctx_benches, &ctx_nbenches },
	{ ipc_benches, &ipc_nbenches },
	{ rpc_benches, &rpc_nbenches },
	{ fs_benches, &fs_nbenches },
	{ vm_benches, &vm_nbenches },
	{ mem_benches, &mem_nbenches },
	{ memlat_benches, &memlat_nbenches },
	{ rate_benches, &rate_nbenches },
	{ aim9_benches, &aim9_nbenches },
	{ clock_benches, &clock_nbenches },
	{ lock_benches, &lock_nbenches },
	{ wake_benches, &wake_nbenches },
	{ scale_benches, &scale_nbenches },
};

/*
 * A hidden suite holds a command's own rows (kbench clocks'): --suite does
 * not take its name, and a row only in hidden suites is left out of every
 * selection that does not ask for one of them by its bit.
 */
static const struct suite_name {
	const char *name;
	unsigned bit;
	int hidden;
} suites[] = {
	{ "quick", SUITE_QUICK, 0 }, { "standard", SUITE_STANDARD, 0 }, { "full", SUITE_FULL, 0 },
	{ "lmbench", SUITE_LMBENCH, 0 }, { "aim9", SUITE_AIM9, 0 }, { "rates", SUITE_RATES, 0 },
	{ "clocks", SUITE_CLOCKS, 1 }, { "aim9-short", SUITE_AIM9_SHORT, 0 },
	{ "scale", SUITE_SCALE, 0 },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Whether b is in no suite but hidden ones, none of which `asked` names. */
static int registry_hidden(const struct bench *b, unsigned asked)
{
	unsigned hidden = 0;

	for (size_t i = 0; i < NELEM(suites); i++)
		if (suites[i].hidden)
			hidden |= suites[i].bit;
	return (b->suites & ~hidden) == 0 && (b->suites & asked) == 0;
}

size_t registry_count(void)
{
	size_t total = 0;

	for (size_t f = 0; f < NELEM(families); f++)
		total += *families[f].n;
	return total;
}

const struct bench *registry_at(size_t i)
{
	for (size_t f = 0; f < NELEM(families); f++) {
		if (i < *families[f].n)
			return &families[f].rows[i];
		i -= *families[f].n;
	}
	return NULL;
}

const struct bench *registry_find(const char *id)
{
	const struct bench *b;

	for (size_t i = 0; (b = registry_at(i)) != NULL; i++)
		if (strcmp(b->id, id) == 0)
			return b;
	return NULL;
}

/*
 * Ids are dot-separated words of [a-z0-9_], and '-' inside a word for
 * AIM9's "creat-clo"; the JSON and the db key on them.
 */
static int id_valid(const char *id)
{
	int word = 0;

	for (const char *p = id; *p; p++) {
		if (*p == '.') {
			if (word == 0)
				return 0;
			word = 0;
		} else if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' ||
			   (*p == '-' && word > 0 && p[1] && p[1] != '.')) {
			word++;
		} else {
			return 0;
		}
	}
	return word > 0 && strchr(id, '.') != NULL && strlen(id) < 64;
}

int registry_row_valid(const struct bench *b, char *err)
{
	const struct metric *m = metric_get(b->metric);
	unsigned all = 0;

	for (size_t i = 0; i < NELEM(suites); i++)
		all |= suites[i].bit;
	if (!b->id || !id_valid(b->id))
		return errbuf_set(err, "bad id '%s'", b->id ? b->id : "(null)"), -1;
	if (!b->run)
		return errbuf_set(err, "%s: no run function", b->id), -1;
	if (!b->summary || !b->summary[0])
		return errbuf_set(err, "%s: no summary", b->id), -1;
	if (b->suites == 0 || (b->suites & ~all))
		return errbuf_set(err, "%s: bad suites 0x%x", b->id, b->suites), -1;
	if (!m)
		return errbuf_set(err, "%s: bad metric %d", b->id, (int)b->metric), -1;
	if (b->better != m->better)
		return errbuf_set(err, "%s: %s is %s-better, the row says %s", b->id, m->unit,
				  bench_better_name(m->better), bench_better_name(b->better)), -1;
	if (!(b->ops >= 0) || b->ops > 1e12)
		return errbuf_set(err, "%s: bad operations per iteration %g", b->id, b->ops), -1;
	if ((b->flags & BENCH_CHEAP) && !metric_is_time(m))
		return errbuf_set(err, "%s: overhead subtraction applies to times only", b->id), -1;
	/* A row's own unit is stored whole with every result, or it would be cut. */
	if (b->unit && (!b->unit[0] || strlen(b->unit) >= sizeof(((struct result *)0)->unit)))
		return errbuf_set(err, "%s: unit text '%s' is empty or longer than %zu characters",
				  b->id, b->unit, sizeof(((struct result *)0)->unit) - 1), -1;
	if (b->needs && !registry_find(b->needs))
		return errbuf_set(err, "%s: needs '%s', which is no row", b->id, b->needs), -1;
	if ((b->flags & BENCH_OBSERVED) &&
	    (!metric_is_time(m) || (b->flags & BENCH_CHEAP) || b->points || b->overhead))
		return errbuf_set(err, "%s: a distribution is of times, observed whole: no overhead, "
				  "no curve", b->id), -1;
	if (b->points && (b->flags & BENCH_PLACED))
		return errbuf_set(err, "%s: a curve runs in one process, it cannot be placed", b->id), -1;
	return 0;
}

static int registry_by_id(const void *a, const void *b)
{
	return strcmp((*(const struct bench *const *)a)->id, (*(const struct bench *const *)b)->id);
}

void registry_check(void)
{
	char err[ERRBUF_LEN];
	size_t n = registry_count();
	const struct bench **rows = malloc((n ? n : 1) * sizeof(*rows));

	if (!rows)
		BUG("registry: no memory to check %zu rows", n);
	for (size_t i = 0; i < n; i++) {
		rows[i] = registry_at(i);
		if (registry_row_valid(rows[i], err) < 0)
			BUG("registry row %zu: %s", i, err);
	}
	/* Sorted, a duplicate is a neighbour: every start checks the scale rows'
	   hundreds too, so not each row against all before it. */
	qsort(rows, n, sizeof(*rows), registry_by_id);
	for (size_t i = 1; i < n; i++)
		if (strcmp(rows[i - 1]->id, rows[i]->id) == 0)
			BUG("registry: duplicate id '%s'", rows[i]->id);
	free(rows);
}

int registry_suite_parse(const char *name, unsigned *bit)
{
	for (size_t i = 0; i < NELEM(suites); i++) {
		if (!suites[i].hidden && strcmp(suites[i].name, name) == 0) {
			*bit = suites[i].bit;
			return 0;
		}
	}
	return -1;
}

void registry_suite_names(unsigned bits, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NELEM(suites); i++) {
		if (!(bits & suites[i].bit))
			continue;
		int w = snprintf(buf + used, len - used, "%s%s", used ? "," : "", suites[i].name);
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
	}
}

const char *registry_suite_list(void)
{
	static char list[128];

	/* Built from the table, so a new suite cannot be missing from messages. */
	if (!list[0])
		for (size_t i = 0, used = 0; i < NELEM(suites) && used < sizeof(list); i++)
			if (!suites[i].hidden)
				used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
							 used ? ", " : "", suites[i].name);
	return list;
}

static int matches_any(const char *id, char *const *globs, size_t nglobs)
{
	for (size_t g = 0; g < nglobs; g++)
		if (fnmatch(globs[g], id, 0) == 0)
			return 1;
	return 0;
}

/*
 * Split "a,b" into words (text's commas become NULs): their count, or
 * (size_t)-1 when one is empty ("a,", "a,,b"), which names nothing.
 */
static size_t split_globs(char *text, char **out, size_t max)
{
	const char *item, *rest = text;
	size_t n = 0, len;

	while ((item = parse_item(&rest, &len)) && n < max) {
		if (len == 0)
			return (size_t)-1;
		out[n] = (char *)item;
		out[n++][len] = '\0';
	}
	return n;
}

const struct bench **registry_select(unsigned suite_bits, const char *globs, size_t *n, char *err)
{
	size_t total = registry_count(), nglobs = 0;
	const struct bench **sel = calloc(total ? total : 1, sizeof(*sel));
	char *copy = globs ? strdup(globs) : NULL;
	char *words[256];
	const struct bench *b;

	*n = 0;
	if (!sel || (globs && !copy)) {
		errbuf_set(err, "out of memory");
		goto fail;
	}
	if (copy) {
		nglobs = split_globs(copy, words, NELEM(words));
		if (nglobs == (size_t)-1) {
			errbuf_set(err, "--only '%s': an empty name (a comma first, last or twice)", globs);
			goto fail;
		}
		if (nglobs == 0) {
			errbuf_set(err, "--only: no benchmark named");
			goto fail;
		}
		/* Every glob must name something, or a typo would silently run less. */
		for (size_t g = 0; g < nglobs; g++) {
			int hit = 0;
			for (size_t i = 0; (b = registry_at(i)) != NULL && !hit; i++)
				hit = !registry_hidden(b, suite_bits) && fnmatch(words[g], b->id, 0) == 0;
			if (!hit) {
				errbuf_set(err, "unknown benchmark '%s' (see 'kbench list')", words[g]);
				goto fail;
			}
		}
	}
	for (size_t i = 0; (b = registry_at(i)) != NULL; i++) {
		if (registry_hidden(b, suite_bits))
			continue;
		if (suite_bits && !(b->suites & suite_bits))
			continue;
		if (nglobs && !matches_any(b->id, words, nglobs))
			continue;
		sel[(*n)++] = b;
	}
	free(copy);
	return sel;
fail:
	free(copy);
	free(sel);
	return NULL;
}

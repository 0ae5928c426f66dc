/*
 * Every benchmark instance kbench knows, from the family tables, checked
 * once at start-up; lookup by id, glob and suite.
 */
#ifndef KB_REGISTRY_H
#define KB_REGISTRY_H

#include <stddef.h>

#include "core/bench.h"

/* Check every row; a bad row is a programmer's mistake and aborts (BUG). */
void registry_check(void);

size_t registry_count(void);
const struct bench *registry_at(size_t i);
const struct bench *registry_find(const char *id);

/* "quick" -> SUITE_QUICK; -1 for an unknown name or a hidden suite's. */
int registry_suite_parse(const char *name, unsigned *bit);
/* "quick,standard,lmbench" for a set of suite bits. */
void registry_suite_names(unsigned suites, char *buf, size_t len);
/* All suite names but the hidden ones, comma-separated, for messages and help. */
const char *registry_suite_list(void);

/*
 * Select, in catalogue order, the instances in `suites` (any bit; 0 = every
 * instance but a hidden suite's) whose id matches one of the comma-separated
 * `globs` (NULL = all); a hidden suite's rows only when `suites` has its bit.
 * Returns a malloc'd array and its length in *n, or NULL with err filled when
 * a glob matches nothing ("unknown benchmark 'x'").
 */
const struct bench **registry_select(unsigned suites, const char *globs, size_t *n, char *err);

/* Row checker, exposed for tests: 0 when valid, else -1 with err filled. */
int registry_row_valid(const struct bench *b, char *err);

#endif

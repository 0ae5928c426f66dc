/*
 * The one way every option reads a number or a list, so that what one
 * option takes another does not refuse: a count is decimal digits and
 * nothing else (no blank, sign, point or exponent: ' 2', '2 ', '+2' and
 * '1e2' are refused alike); a real is a decimal number, with a point or
 * an exponent if it likes, but never a blank, hex, inf or nan; a list is
 * comma-separated items, none of them empty ('0,' and 'a,,b' refused).
 */
#ifndef KB_PARSE_H
#define KB_PARSE_H

#include <stddef.h>
#include <time.h>

/*
 * The next item of the list at *s: its start, its length in *len, and *s
 * past it and its comma (NULL once the last is taken); NULL at the end.
 * An empty item comes back with *len 0, for the caller to refuse, so that
 * a list that is empty, or starts, ends or doubles a comma, cannot pass.
 */
const char *parse_item(const char **s, size_t *len);
/* The len bytes at text as a count in [min, max] (digits only): 0, or -1. */
int parse_whole(const char *text, size_t len, long min, long max, long *out);
/* text (all of it) as a decimal real number: 0, or -1. */
int parse_real(const char *text, double *out);
/*
 * The decimal real number at the start of text (digits, a point, an
 * exponent), its end in *end: 0, or -1 when text does not start with one.
 * For what a suffix follows, as sizes ("64k").
 */
int parse_real_prefix(const char *text, double *out, const char **end);

/*
 * Two versions (labels) in version order, as strcmp answers: runs of
 * digits compare as numbers, words as bytes, separators (. - _ + ~) only
 * part them; where one ends, a pre-release word after it (rc, pre, alpha,
 * beta) sorts before its end and any other after: 2.4.18 < 2.4.19 <
 * 2.5.46 < 2.5.46-mm1 < 2.5.47, 6.18.9 < 6.18.10 < 6.19-rc1 < 6.19.
 */
int parse_version_cmp(const char *a, const char *b);

/*
 * "2026-12-01T13:46:59Z", the one form kbench writes its times in (store.c,
 * run.c), into *t: 0, or -1 for any other text or a date that is not one
 * (February 30, 25 o'clock).
 */
int parse_utc(const char *s, time_t *t);

#endif

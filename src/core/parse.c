/*
 * Numbers and lists of the command line (parse.h).  strtol and strtod
 * alone take a leading blank, a sign, hex, inf and nan; each of those is
 * refused here before they are called.
 */
#include "core/parse.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdio.h>
#include <time.h>

const char *parse_item(const char **s, size_t *len)
{
	const char *item = *s, *comma;

	if (!item)
		return NULL;
	comma = strchr(item, ',');
	if (comma) {
		*len = (size_t)(comma - item);
		*s = comma + 1;
	} else {
		*len = strlen(item);
		*s = NULL;
	}
	return item;
}

int parse_whole(const char *text, size_t len, long min, long max, long *out)
{
	long v = 0;

	if (len == 0 || len > 18)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (text[i] < '0' || text[i] > '9')
			return -1;
		v = v * 10 + (text[i] - '0');
	}
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* Whether text starts as a decimal number does: a digit, or a point and a digit. */
static int parse_starts(const char *text)
{
	return (text[0] >= '0' && text[0] <= '9') || (text[0] == '.' && text[1] >= '0' && text[1] <= '9');
}

int parse_real_prefix(const char *text, double *out, const char **end)
{
	char *e;
	double d;

	if (!parse_starts(text))
		return -1;
	/* strtod would read "0x10" as sixteen: its x ends the number here instead. */
	errno = 0;
	d = strtod(text, &e);
	if (errno || e == text || !isfinite(d))
		return -1;
	for (const char *p = text; p < e; p++)
		if (*p == 'x' || *p == 'X' || *p == 'p' || *p == 'P')
			return -1;
	*out = d;
	*end = e;
	return 0;
}

int parse_real(const char *text, double *out)
{
	const char *end;

	return parse_real_prefix(text, out, &end) == 0 && !*end ? 0 : -1;
}

/* The next token of a version at *s, separators skipped: its start, length in *len; NULL at the end. */
static const char *version_token(const char **s, size_t *len)
{
	const char *t = *s;

	while (*t && strchr(".-_+~", *t))
		t++;
	if (!*t) {
		*s = t;
		return NULL;
	}
	*len = 0;
	if (isdigit((unsigned char)*t))
		while (isdigit((unsigned char)t[*len]))
			(*len)++;
	else
		while (t[*len] && !isdigit((unsigned char)t[*len]) && !strchr(".-_+~", t[*len]))
			(*len)++;
	*s = t + *len;
	return t;
}

/* Whether the word of len bytes at w marks a pre-release: rc, pre, alpha, beta. */
static int version_pre(const char *w, size_t len)
{
	static const char *const pre[] = { "rc", "pre", "alpha", "beta" };

	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (len == strlen(pre[i]) && strncasecmp(w, pre[i], len) == 0)
			return 1;
	return 0;
}

int parse_version_cmp(const char *a, const char *b)
{
	for (;;) {
		size_t la = 0, lb = 0;
		const char *ta = version_token(&a, &la), *tb = version_token(&b, &lb);
		int da, db, c;

		if (!ta || !tb) {
			if (!ta && !tb)
				return 0;
			/* The one that goes on is earlier only when it goes on into a pre-release. */
			if (!ta)
				return isdigit((unsigned char)*tb) || !version_pre(tb, lb) ? -1 : 1;
			return isdigit((unsigned char)*ta) || !version_pre(ta, la) ? 1 : -1;
		}
		da = isdigit((unsigned char)*ta);
		db = isdigit((unsigned char)*tb);
		if (da && db) {
			/* As numbers: leading zeros aside, the longer is larger. */
			while (la > 1 && *ta == '0')
				ta++, la--;
			while (lb > 1 && *tb == '0')
				tb++, lb--;
			if (la != lb)
				return la < lb ? -1 : 1;
			c = strncmp(ta, tb, la);
		} else if (da != db) {
			/* A pre-release word before a number, a number before any other word. */
			const char *w = da ? tb : ta;
			size_t lw = da ? lb : la;
			int word_first = version_pre(w, lw);

			c = (da ? 1 : -1) * (word_first ? 1 : -1);
		} else {
			c = strncmp(ta, tb, la < lb ? la : lb);
			if (c == 0 && la != lb)
				c = la < lb ? -1 : 1;
		}
		if (c)
			return c < 0 ? -1 : 1;
	}
}

/*
 * "2026-12-01T13:46:59Z", the one form kbench writes (store.c, run.c): a
 * real UTC date and time, so "yesterday" or February 30 is refused.
 */
int parse_utc(const char *s, time_t *t)
{
	static const char form[] = "dddd-dd-ddTdd:dd:ddZ";
	struct tm tm = { 0 }, back;
	char again[32];

	if (strlen(s) != sizeof(form) - 1)
		return -1;
	for (size_t i = 0; form[i]; i++)
		if (form[i] == 'd' ? s[i] < '0' || s[i] > '9' : s[i] != form[i])
			return -1;
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	*t = timegm(&tm);
	/* Read back: out-of-range fields (month 13, 25 o'clock) normalise to another text. */
	if (!gmtime_r(t, &back) || strftime(again, sizeof(again), "%Y-%m-%dT%H:%M:%SZ", &back) == 0 ||
	    strcmp(again, s) != 0)
		return -1;
	return 0;
}

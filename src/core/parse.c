/*
 * Numbers and lists of the command line (parse.h).  strtol and strtod
 * alone take a leading blank, a sign, hex, inf and nan; each of those is
 * refused here before they are called.
 */
#include "core/parse.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

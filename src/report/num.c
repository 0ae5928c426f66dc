/*
 * lmbench's way of writing a number into a narrow table cell: as many
 * significant digits as the cell holds (0.57, 16.2, 144., 1434), then
 * thousands or millions with a K or M suffix (12.K, 123K).  The point is a
 * fixed-width column a person can scan, so a figure is never wider than its
 * cell; precision lives in the CI notes and the JSON, not here.  Sizes in
 * bytes and text from a run (report_cell) are put in cells here too: every
 * writer of src/report/ formats through this file, and it calls none of
 * them.
 */
#include "report/fmt.h"
#include "core/utf8.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/*
 * Write v with the most decimals that fit in width, into buf (width + 1
 * bytes).  Rounding can add a digit (9.996 -> "10.00"), so each candidate is
 * formatted and measured rather than predicted.  A whole number that leaves
 * room keeps lmbench's trailing point ("144.") so it reads as rounded.
 * Returns 0, or -1 when not even the integer part fits.
 */
static int num_fit(char *buf, int width, double v)
{
	char tmp[64];
	int len;

	for (int d = width - 2; d >= 1; d--) {
		len = snprintf(tmp, sizeof(tmp), "%.*f", d, v);
		if (len > 0 && len <= width) {
			memcpy(buf, tmp, (size_t)len + 1);
			return 0;
		}
	}
	len = snprintf(tmp, sizeof(tmp), "%#.0f", v);
	if (len > 0 && len <= width) {
		memcpy(buf, tmp, (size_t)len + 1);
		return 0;
	}
	len = snprintf(tmp, sizeof(tmp), "%.0f", v);
	if (len > 0 && len <= width) {
		memcpy(buf, tmp, (size_t)len + 1);
		return 0;
	}
	return -1;
}

/*
 * Like num_fit, but cuts digits off instead of rounding, as lmbench did for
 * its K figures (43500 -> "43.K", never "44.K"): a scaled figure must not
 * claim a thousand it does not have.  The small epsilon keeps values such
 * as 4.35, stored as 4.34999..., from losing their last digit.
 */
static int num_fit_trunc(char *buf, int width, double v)
{
	char tmp[64];
	int len;

	for (int d = width - 2; d >= 0; d--) {
		double scale = pow(10.0, d);
		double t = trunc(v * scale + copysign(1e-9, v)) / scale;

		if (d > 0)
			len = snprintf(tmp, sizeof(tmp), "%.*f", d, t);
		else
			len = snprintf(tmp, sizeof(tmp), "%#.0f", t);
		if (len > 0 && len <= width) {
			memcpy(buf, tmp, (size_t)len + 1);
			return 0;
		}
	}
	len = snprintf(tmp, sizeof(tmp), "%.0f", trunc(v));
	if (len > 0 && len <= width) {
		memcpy(buf, tmp, (size_t)len + 1);
		return 0;
	}
	return -1;
}

void report_num(char *buf, int width, double v)
{
	static const char suffix[] = "KMGTPE";
	size_t len;

	if (width < 1) {
		if (width == 0)
			buf[0] = '\0';
		return;
	}
	buf[0] = '\0';
	/* An unknown figure is a blank cell, as in lmbench. */
	if (!isfinite(v))
		return;
	if (num_fit(buf, width, v) == 0)
		return;
	for (size_t i = 0; i < sizeof(suffix) - 1 && width >= 2; i++) {
		v /= 1000.0;
		if (num_fit_trunc(buf, width - 1, v) == 0) {
			len = strlen(buf);
			buf[len] = suffix[i];
			buf[len + 1] = '\0';
			return;
		}
	}
	/* Too large for the cell even in exa: leave it blank, never overflow. */
	buf[0] = '\0';
}

void report_fig(char *buf, size_t size, double v)
{
	size_t len;

	if (fabs(v) >= 1e4)
		snprintf(buf, size, "%.0f", v);
	else
		snprintf(buf, size, "%#.4g", v);
	len = strlen(buf);
	if (len > 0 && buf[len - 1] == '.')
		buf[len - 1] = '\0';
}

const char *report_cell(char *buf, size_t size, const char *s, int width, int align)
{
	int cols;
	size_t len, pad;

	if (size == 0)
		return buf;
	cols = utf8_escape(buf, size, s ? s : "", width);
	if (width < 0 || align == 0 || cols >= width)
		return buf;
	/* Padded by the columns the text takes, not its bytes: "é" is one column. */
	len = strlen(buf);
	pad = (size_t)(width - cols);
	if (len + pad >= size)
		pad = size - 1 - len;
	if (align > 0) {
		memmove(buf + pad, buf, len + 1);
		memset(buf, ' ', pad);
	} else {
		memset(buf + len, ' ', pad);
		buf[len + pad] = '\0';
	}
	return buf;
}

/*
 * A size in bytes the way people write it, with binary multiples: 512, 1K,
 * 1.5K, 32K, 1M, 128M.  Decimals are dropped, last first, until the text
 * fits maxw characters, so a cache of 36608K reads 35.75M, or 35.8M in a
 * narrow cell.
 */
void report_size(char *buf, size_t size, double bytes, int maxw)
{
	static const char unit[] = "KMGTP";
	double v = bytes;
	int u = -1;

	if (!isfinite(bytes) || bytes < 0) {
		snprintf(buf, size, "?");
		return;
	}
	while (v >= 1024 && u < (int)sizeof(unit) - 2) {
		v /= 1024;
		u++;
	}
	for (int d = 2; d >= 0; d--) {
		char tmp[48];
		size_t len;

		snprintf(tmp, sizeof(tmp), "%.*f", d, v);
		len = strlen(tmp);
		if (d > 0) {
			while (len > 0 && tmp[len - 1] == '0')
				tmp[--len] = '\0';
			if (len > 0 && tmp[len - 1] == '.')
				tmp[--len] = '\0';
		}
		if (u >= 0 && len + 1 < sizeof(tmp)) {
			tmp[len++] = unit[u];
			tmp[len] = '\0';
		}
		if ((int)len <= maxw || d == 0) {
			snprintf(buf, size, "%s", tmp);
			return;
		}
	}
}

void report_wrap_at(FILE *out, int col, int indent, const char *text)
{
	int fresh = 1;		/* no word yet on this line */

	text += strspn(text, " ");
	while (*text) {
		int word = (int)strcspn(text, " ");

		if (!fresh && col + 1 + word > REPORT_COLS) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (!fresh) {
			fputc(' ', out);
			col++;
		}
		col += fprintf(out, "%.*s", word, text);
		fresh = 0;
		text += word;
		text += strspn(text, " ");
	}
	fputc('\n', out);
}

void report_wrap(FILE *out, int indent, const char *text)
{
	report_wrap_at(out, indent, indent, text);
}

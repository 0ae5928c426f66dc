/*
 * The HTML report's charts, drawn as inline SVG (see svg.h for what each
 * shows and the classes it carries).  This file only writes: it reads no
 * result, measures nothing and keeps no state between charts.
 *
 * Two rules keep every chart safe to put in a page.  A number reaches the
 * output only through svg_n (or a tick label made from a finite value), and
 * every value is checked with svg_ok first, so "nan" and "inf" cannot
 * appear; and text reaches it only through svg_text, which escapes it.
 * The layout guesses a character of the 11-unit font at SVG_CHAR wide,
 * which is close for the sans-serif faces browsers pick; names longer than
 * a column holds are cut in the middle with an ellipsis, their whole text
 * kept in data-name.  No axis is scaled to one extreme value: the forest's
 * and the strip's span what is typical, and what lies beyond is drawn at
 * the axis's end with its value written beside it.
 */
#include "report/svg.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "report/fmt.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* The viewBox's width; the page scales it to its own. */
#define SVG_W 720.0
/* The estimated width of one character of the 11-unit font. */
#define SVG_CHAR 6.5
/* The most characters a row's name shows before it is cut. */
#define SVG_NAME_MAX 36
/* A forest or bar row's height. */
#define SVG_ROW 18.0
/* The most ticks an axis has; more octaves or decades are thinned. */
#define SVG_MAXTICKS 64
/* The most octave labels under a curve: 24 fit 720 units at "128K" each. */
#define SVG_MAXLABELS 24

/*
 * Okabe and Ito's palette without its yellow, which vanishes on white
 * paper; series cycle through it, and through the dashes and shapes below
 * at other periods, so that neighbours differ in all three.
 */
static const char *const svg_colours[] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000",
};
static const char *const svg_dashes[] = { NULL, "6 3", "2 2", "8 3 2 3", "4 4", "1 3" };
/* Marker shapes, drawn by svg_marker. */
enum { SVG_CIRCLE, SVG_SQUARE, SVG_TRIANGLE, SVG_DIAMOND, SVG_TRIANGLE_DOWN, SVG_NSHAPES,
       SVG_ARROW /* pointing right, as a forest's off-scale row: not one a series cycles through */ };

#define SVG_GREY "#555555"
#define SVG_C_BETTER "#0072b2"
#define SVG_C_WORSE "#d55e00"

/* ------------------------------------------------------------ writing */

/*
 * The output and a ring of buffers for formatted numbers, so that one
 * fprintf can take several svg_n results; 16 is more than any call uses.
 */
struct svg_w {
	FILE *out;
	char ring[16][32];
	unsigned next;
};

/*
 * v rounded to 0.01 as short text ("12.5", "0"): coordinates need no more,
 * and rounding keeps the bytes the same for the same input.  Never passed
 * a value that is not finite; if a bug does, "0" goes out rather than
 * "nan".
 */
static const char *svg_n(struct svg_w *w, double v)
{
	char *buf = w->ring[w->next++ % NELEM(w->ring)];
	size_t len;

	if (!isfinite(v))
		v = 0;
	snprintf(buf, sizeof(w->ring[0]), "%.2f", v);
	len = strlen(buf);
	while (len > 0 && buf[len - 1] == '0')
		buf[--len] = '\0';
	if (len > 0 && buf[len - 1] == '.')
		buf[--len] = '\0';
	if (strcmp(buf, "-0") == 0)
		strcpy(buf, "0");
	return buf;
}

/* The characters of s, each byte that is not UTF-8 counted as one. */
static size_t svg_chars(const char *s)
{
	size_t n = 0, len;
	uint32_t cp;

	for (; s && *s; s += len ? len : 1, n++)
		len = utf8_next(s, &cp);
	return n;
}

/* Whether cp may appear in XML text as it is (XML 1.0's Char, minus the controls). */
static int svg_char_ok(uint32_t cp)
{
	return !utf8_is_control(cp) && cp != 0xfffe && cp != 0xffff;
}

/*
 * s XML-escaped, for text or an attribute in double quotes: at most maxch
 * characters, an ellipsis in the middle standing for what is cut when s is
 * longer, so that both ends show: names alike to their last characters
 * ("6.19.0-rc1-next-20251201-a" and "-b") stay told apart.  A byte that is
 * not UTF-8 and a control character (a newline in a label, a bidirectional
 * override that would reorder the chart's text) become U+FFFD.
 */
static void svg_text(struct svg_w *w, const char *s, size_t maxch)
{
	size_t total = svg_chars(s), n = 0, len, head = total, tail = total;
	uint32_t cp;

	if (total > maxch) {
		head = maxch / 2;
		tail = total - (maxch > 0 ? maxch - 1 - head : 0);
	}
	for (; s && *s; s += len ? len : 1, n++) {
		len = utf8_next(s, &cp);
		if (n == head && head < tail)
			fputs("\xe2\x80\xa6", w->out);
		if (n >= head && n < tail)
			continue;
		if (len == 0 || !svg_char_ok(cp)) {
			fputs("\xef\xbf\xbd", w->out);
			continue;
		}
		switch (*s) {
		case '&': fputs("&amp;", w->out); break;
		case '<': fputs("&lt;", w->out); break;
		case '>': fputs("&gt;", w->out); break;
		case '"': fputs("&quot;", w->out); break;
		case '\'': fputs("&#39;", w->out); break;
		default: fwrite(s, 1, len, w->out); break;
		}
	}
}

/* Whole text, as an attribute or a title holds it. */
#define SVG_ALL ((size_t)-1)

/* A text element: cls, at (x, y), anchored ("start", "middle", "end"), then s. */
static void svg_label(struct svg_w *w, const char *cls, double x, double y, const char *anchor,
		      const char *s, size_t maxch)
{
	fprintf(w->out, "<text class=\"%s\" x=\"%s\" y=\"%s\"", cls, svg_n(w, x), svg_n(w, y));
	if (strcmp(anchor, "start") != 0)
		fprintf(w->out, " text-anchor=\"%s\"", anchor);
	fputs(">", w->out);
	svg_text(w, s, maxch);
	fputs("</text>\n", w->out);
}

/* The paragraph that stands in for a chart with nothing to draw. */
static int svg_nochart(FILE *out, const struct svg_chart *c)
{
	struct svg_w w = { .out = out };

	fputs("<p class=\"nochart\">", out);
	svg_text(&w, c->empty ? c->empty : "no points", SVG_ALL);
	fputs("</p>\n", out);
	return ferror(out) ? -1 : 0;
}

/* The root element (fonts as attributes the page's CSS overrides) and the title. */
static void svg_open(struct svg_w *w, const char *kind, double height, const struct svg_chart *c)
{
	fprintf(w->out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" class=\"chart %s\""
		" viewBox=\"0 0 %s %s\" width=\"100%%\" font-family=\"sans-serif\" font-size=\"11\""
		" role=\"img\">\n", kind, svg_n(w, SVG_W), svg_n(w, height));
	if (!c->title)
		return;
	fputs("<title>", w->out);
	svg_text(w, c->title, SVG_ALL);
	fputs("</title>\n", w->out);
	fprintf(w->out, "<text class=\"title\" x=\"%s\" y=\"18\" text-anchor=\"middle\""
		" font-size=\"13\" font-weight=\"bold\">", svg_n(w, SVG_W / 2));
	svg_text(w, c->title, SVG_ALL);
	fputs("</text>\n", w->out);
}

/* Where the plot starts below the title. */
static double svg_top(const struct svg_chart *c)
{
	return c->title ? 34 : 12;
}

static int svg_close(struct svg_w *w)
{
	fputs("</svg>\n", w->out);
	return ferror(w->out) ? -1 : 0;
}

/*
 * A marker of shape centred at (x, y), about 7 units across.  fill and
 * stroke NULL inherit the enclosing group's; cls NULL gives none.
 */
static void svg_marker(struct svg_w *w, int shape, double x, double y, const char *fill,
		       const char *stroke, const char *cls)
{
	FILE *out = w->out;

	switch (shape == SVG_ARROW ? shape : shape % SVG_NSHAPES) {
	case SVG_ARROW:
		fprintf(out, "<path d=\"M%s %sl-8-4.5v9z\"", svg_n(w, x + 4), svg_n(w, y));
		break;
	case SVG_CIRCLE:
		fprintf(out, "<circle cx=\"%s\" cy=\"%s\" r=\"3.5\"", svg_n(w, x), svg_n(w, y));
		break;
	case SVG_SQUARE:
		fprintf(out, "<rect x=\"%s\" y=\"%s\" width=\"6\" height=\"6\"", svg_n(w, x - 3),
			svg_n(w, y - 3));
		break;
	case SVG_TRIANGLE:
		fprintf(out, "<path d=\"M%s %sl3.5 6h-7z\"", svg_n(w, x), svg_n(w, y - 4));
		break;
	case SVG_DIAMOND:
		fprintf(out, "<path d=\"M%s %sl4 4l-4 4l-4-4z\"", svg_n(w, x), svg_n(w, y - 4));
		break;
	default:
		fprintf(out, "<path d=\"M%s %sl3.5-6h-7z\"", svg_n(w, x), svg_n(w, y + 4));
		break;
	}
	if (cls)
		fprintf(out, " class=\"%s\"", cls);
	if (fill)
		fprintf(out, " fill=\"%s\"", fill);
	if (stroke)
		fprintf(out, " stroke=\"%s\"", stroke);
	fputs("/>\n", out);
}

/* ------------------------------------------------------------- legend */

/* How a legend entry is drawn. */
enum svg_leg_kind {
	SVG_LEG_LINE,			/* a line in colour and dash, with its marker */
	SVG_LEG_MARKER,			/* a marker alone */
	SVG_LEG_SWATCH,			/* a filled square, as a bar or band is */
	SVG_LEG_BAND,			/* a pale swatch, as an interval band is */
};

struct svg_leg {
	enum svg_leg_kind kind;
	const char *text;		/* the entry's words */
	const char *suffix;		/* after them (" (no points)"); NULL: none */
	const char *colour;
	const char *dash;		/* SVG_LEG_LINE's dash; NULL: solid */
	int shape;			/* the marker; -1: none */
	int hollow;			/* nonzero: the marker is white inside */
};

/* An entry's width: its sample, its words, and the gap to the next. */
static double svg_leg_width(const struct svg_leg *l)
{
	size_t ch = svg_chars(l->text) + svg_chars(l->suffix);

	if (ch > SVG_NAME_MAX)
		ch = SVG_NAME_MAX;
	return 30 + (double)ch * SVG_CHAR + 16;
}

/*
 * Lay out (and when w is not NULL, draw) the legend: entries left to right
 * from x0, a new line of 16 units when one would pass the right margin.
 * Returns the lines used.
 */
static int svg_legend(struct svg_w *w, const struct svg_leg *legs, size_t n, double x0, double y0)
{
	double x = x0, y = y0 + 8;
	int lines = n ? 1 : 0;

	if (w && n)
		fputs("<g class=\"legend\">\n", w->out);
	for (size_t i = 0; i < n; i++) {
		const struct svg_leg *l = &legs[i];
		double width = svg_leg_width(l);

		if (x > x0 && x + width > SVG_W - 8) {
			x = x0;
			y += 16;
			lines++;
		}
		if (!w) {
			x += width;
			continue;
		}
		if (l->kind == SVG_LEG_LINE) {
			fprintf(w->out, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\""
				" stroke-width=\"1.5\"", svg_n(w, x), svg_n(w, y), svg_n(w, x + 24),
				svg_n(w, y), l->colour);
			if (l->dash)
				fprintf(w->out, " stroke-dasharray=\"%s\"", l->dash);
			fputs("/>\n", w->out);
		}
		if (l->kind == SVG_LEG_SWATCH || l->kind == SVG_LEG_BAND)
			fprintf(w->out, "<rect x=\"%s\" y=\"%s\" width=\"12\" height=\"10\" fill=\"%s\"%s/>\n",
				svg_n(w, x + 6), svg_n(w, y - 5), l->colour,
				l->kind == SVG_LEG_BAND ? " fill-opacity=\"0.3\"" : "");
		else if (l->shape >= 0)
			svg_marker(w, l->shape, x + 12, y, l->hollow ? "#ffffff" : l->colour, l->colour,
				   NULL);
		fprintf(w->out, "<text class=\"legend\" x=\"%s\" y=\"%s\">", svg_n(w, x + 30),
			svg_n(w, y + 4));
		svg_text(w, l->text, SVG_NAME_MAX);
		if (l->suffix)
			svg_text(w, l->suffix, SVG_ALL);
		fputs("</text>\n", w->out);
		x += width;
	}
	if (w && n)
		fputs("</g>\n", w->out);
	return lines;
}

/* -------------------------------------------------------------- axes */

/* How an axis maps values to positions. */
enum svg_scale {
	SVG_LIN,			/* the value itself */
	SVG_LOG10,			/* by decades */
	SVG_LOG2,			/* by octaves: sizes */
	SVG_LOGR,			/* natural log of a ratio, symmetric about 1 */
};

struct svg_axis {
	enum svg_scale scale;
	double lo, hi;			/* the ends, transformed (log2 of bytes for SVG_LOG2) */
	double p0, p1;			/* the ends' positions in the viewBox */
};

struct svg_ticks {
	size_t n;
	double v[SVG_MAXTICKS];		/* where, in the data's units */
	char label[SVG_MAXTICKS][24];	/* "" for a tick left without a label */
};

static double svg_tf(enum svg_scale scale, double v)
{
	switch (scale) {
	case SVG_LOG10: return log10(v);
	case SVG_LOG2: return log2(v);
	case SVG_LOGR: return log(v);
	default: return v;
	}
}

/* Whether v can be drawn on an axis of this scale. */
static int svg_ok(enum svg_scale scale, double v)
{
	return isfinite(v) && (scale == SVG_LIN || v > 0);
}

static double svg_pos(const struct svg_axis *a, double v)
{
	return a->p0 + (svg_tf(a->scale, v) - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
}

static void svg_tick(struct svg_ticks *t, double v, const char *label)
{
	if (t->n >= SVG_MAXTICKS)
		return;
	t->v[t->n] = v;
	snprintf(t->label[t->n], sizeof(t->label[0]), "%s", label);
	t->n++;
}

/* Widen an empty range [*lo, *hi] so a lone value sits inside it, not on its edge. */
static void svg_widen(double *lo, double *hi)
{
	double d;

	if (*hi > *lo)
		return;
	d = *lo != 0 ? fabs(*lo) * 0.1 : 1;
	*lo -= d;
	*hi += d;
}

/*
 * Ticks at 1, 2 or 5 times a power of ten, about five over [lo, hi]
 * (hi > lo), the axis widened to the outer ticks; labels with the decimals
 * the step needs, in millions (1.4M) or billions (2G) from there on, so
 * that neighbours do not overlap, and never with an exponent.
 */
static void svg_lin_ticks(struct svg_axis *a, double lo, double hi, struct svg_ticks *t)
{
	double raw = (hi - lo) / 5, mag = pow(10, floor(log10(raw))), norm = raw / mag, step;
	double i0, i1, big = fmax(fabs(lo), fabs(hi)), unit = big >= 1e9 ? 1e9 : big >= 1e6 ? 1e6 : 1;
	const char *suffix = unit == 1e9 ? "G" : unit == 1e6 ? "M" : "";
	int dec;

	step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
	i0 = floor(lo / step + 1e-9);
	i1 = ceil(hi / step - 1e-9);
	dec = step / unit >= 1 ? 0 : (int)ceil(-log10(step / unit) - 1e-9);
	a->scale = SVG_LIN;
	a->lo = i0 * step;
	a->hi = i1 * step;
	t->n = 0;
	for (double i = i0; i <= i1 && t->n < SVG_MAXTICKS; i++) {
		char buf[24];
		double v = i * step;

		if (v == 0)
			snprintf(buf, sizeof(buf), "0");
		else
			snprintf(buf, sizeof(buf), "%.*f%s", dec, v / unit, suffix);
		svg_tick(t, v, buf);
	}
}

/*
 * Decades from below lo to above hi (both > 0), every k-th when there are
 * more than a dozen; within two decades also the 2s and 5s between.
 */
static void svg_log10_ticks(struct svg_axis *a, double lo, double hi, struct svg_ticks *t)
{
	int d0 = (int)floor(log10(lo)), d1 = (int)ceil(log10(hi));
	int every;

	if (d0 >= d1) {
		d0--;
		d1++;
	}
	every = 1 + (d1 - d0 - 1) / 12;
	a->scale = SVG_LOG10;
	a->lo = d0;
	a->hi = d1;
	t->n = 0;
	for (int d = d0; d <= d1; d++) {
		static const int mult[] = { 1, 2, 5 };

		if ((d - d0) % every != 0)
			continue;
		for (size_t m = 0; m < NELEM(mult); m++) {
			double v = mult[m] * pow(10, d);
			char buf[24];

			if (m > 0 && (d1 - d0 > 2 || d == d1))
				break;
			if (d >= 7 || d <= -7)
				snprintf(buf, sizeof(buf), "%de%d", mult[m], d);
			else
				snprintf(buf, sizeof(buf), "%.*f", d < 0 ? -d : 0, v);
			svg_tick(t, v, buf);
		}
	}
}

/*
 * A tick at every octave from the power of two at or below lo to the one
 * at or above hi (both > 0), labelled as sizes are (4K, 1M); with more than
 * SVG_MAXLABELS, only every second (or third) is labelled.
 */
static void svg_log2_ticks(struct svg_axis *a, double lo, double hi, struct svg_ticks *t)
{
	int k0 = (int)floor(log2(lo)), k1 = (int)ceil(log2(hi));
	int stride, every, nt;

	if (k0 >= k1) {
		k0--;
		k1++;
	}
	stride = 1 + (k1 - k0) / SVG_MAXTICKS;
	nt = (k1 - k0) / stride + 1;
	every = (nt + SVG_MAXLABELS - 1) / SVG_MAXLABELS;
	a->scale = SVG_LOG2;
	a->lo = k0;
	a->hi = k1;
	t->n = 0;
	for (int k = k0, i = 0; k <= k1; k += stride, i++) {
		char buf[24] = "";

		if (i % every == 0) {
			if (k >= 0)
				report_size(buf, sizeof(buf), ldexp(1, k), 6);
			else
				snprintf(buf, sizeof(buf), "%g", ldexp(1, k));
		}
		svg_tick(t, ldexp(1, k), buf);
	}
}

/* A change in percent, with the digits that keep it readable: 25, 4.8, 0.99, 99.9. */
static void svg_pct(char *buf, size_t size, double pct, int sign)
{
	double mag = fabs(pct);
	int dec = mag >= 10 ? 0 : 1 - (int)floor(log10(mag));
	size_t len;

	/* -99.95% must not read as -100%, which no ratio reaches. */
	while (dec < 6) {
		snprintf(buf, size, "%.*f", dec, mag);
		if (strtod(buf, NULL) < 100 || mag >= 100)
			break;
		dec++;
	}
	snprintf(buf, size, "%c%.*f", sign, dec, mag);
	len = strlen(buf);
	if (strchr(buf, '.')) {
		while (len > 0 && buf[len - 1] == '0')
			buf[--len] = '\0';
		if (len > 0 && buf[len - 1] == '.')
			buf[--len] = '\0';
	}
	if (len + 1 < size) {
		buf[len] = '%';
		buf[len + 1] = '\0';
	}
}

/*
 * The forest's axis, -a..a in log ratio where a covers `reach` (the largest
 * |log ratio| to draw): ticks in pairs at r and 1/r for the largest three
 * ratios of a fixed list that are not crowded against 0, and 0 itself.
 */
static void svg_ratio_ticks(struct svg_axis *a, double reach, struct svg_ticks *t)
{
	static const double nice[] = {
		1.01, 1.02, 1.05, 1.1, 1.25, 1.5, 2, 3, 5, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e9, 1e12,
	};
	size_t first = NELEM(nice), last = 0, n = 0;

	if (reach < log(1.05))
		reach = log(1.05);
	for (size_t i = 0; i < NELEM(nice); i++) {
		double l = log(nice[i]);

		if (l <= reach && l >= 0.15 * reach) {
			if (first == NELEM(nice))
				first = i;
			last = i;
			n++;
		}
	}
	if (n > 3)
		first = last - 2;
	a->scale = SVG_LOGR;
	a->hi = reach * 1.1;
	a->lo = -a->hi;
	t->n = 0;
	if (n == 0) {
		svg_tick(t, 1, "0");
		return;
	}
	for (size_t i = last + 1; i-- > first;) {
		char buf[24];

		svg_pct(buf, sizeof(buf), (1 / nice[i] - 1) * 100, '-');
		svg_tick(t, 1 / nice[i], buf);
	}
	svg_tick(t, 1, "0");
	for (size_t i = first; i <= last; i++) {
		char buf[24];

		svg_pct(buf, sizeof(buf), (nice[i] - 1) * 100, '+');
		svg_tick(t, nice[i], buf);
	}
}

/*
 * A horizontal axis at y: its line from p0 to p1, a tick and label per
 * tick, a pale grid line up to top, and its label under it all.
 */
static void svg_axis_x(struct svg_w *w, const struct svg_axis *a, const struct svg_ticks *t,
		       double y, double top, const char *label)
{
	fputs("<g class=\"axis x\">\n", w->out);
	fputs("<path class=\"grid\" stroke=\"#dddddd\" d=\"", w->out);
	for (size_t i = 0; i < t->n; i++)
		fprintf(w->out, "M%s %sV%s", svg_n(w, svg_pos(a, t->v[i])), svg_n(w, top), svg_n(w, y));
	fputs("\"/>\n", w->out);
	fprintf(w->out, "<path stroke=\"#000000\" fill=\"none\" d=\"M%s %sH%s", svg_n(w, a->p0),
		svg_n(w, y), svg_n(w, a->p1));
	for (size_t i = 0; i < t->n; i++)
		fprintf(w->out, "M%s %sv4", svg_n(w, svg_pos(a, t->v[i])), svg_n(w, y));
	fputs("\"/>\n", w->out);
	for (size_t i = 0; i < t->n; i++)
		if (t->label[i][0])
			svg_label(w, "tick", svg_pos(a, t->v[i]), y + 15, "middle", t->label[i], SVG_ALL);
	if (label)
		svg_label(w, "label", (a->p0 + a->p1) / 2, y + 32, "middle", label, SVG_ALL);
	fputs("</g>\n", w->out);
}

/* A vertical axis at x, its grid to right, its label turned along it at lx. */
static void svg_axis_y(struct svg_w *w, const struct svg_axis *a, const struct svg_ticks *t,
		       double x, double right, double lx, const char *label)
{
	fputs("<g class=\"axis y\">\n", w->out);
	fputs("<path class=\"grid\" stroke=\"#dddddd\" d=\"", w->out);
	for (size_t i = 0; i < t->n; i++)
		fprintf(w->out, "M%s %sH%s", svg_n(w, x), svg_n(w, svg_pos(a, t->v[i])), svg_n(w, right));
	fputs("\"/>\n", w->out);
	fprintf(w->out, "<path stroke=\"#000000\" fill=\"none\" d=\"M%s %sV%s", svg_n(w, x),
		svg_n(w, a->p0), svg_n(w, a->p1));
	for (size_t i = 0; i < t->n; i++)
		fprintf(w->out, "M%s %sh-4", svg_n(w, x), svg_n(w, svg_pos(a, t->v[i])));
	fputs("\"/>\n", w->out);
	for (size_t i = 0; i < t->n; i++)
		if (t->label[i][0])
			svg_label(w, "tick", x - 6, svg_pos(a, t->v[i]) + 4, "end", t->label[i], SVG_ALL);
	if (label) {
		fprintf(w->out, "<text class=\"label\" transform=\"translate(%s %s) rotate(-90)\""
			" text-anchor=\"middle\">", svg_n(w, lx), svg_n(w, (a->p0 + a->p1) / 2));
		svg_text(w, label, SVG_ALL);
		fputs("</text>\n", w->out);
	}
	fputs("</g>\n", w->out);
}

/* The left margin a vertical axis needs: its widest tick label and its own label. */
static double svg_margin_y(const struct svg_ticks *t, const char *label)
{
	size_t widest = 0;

	for (size_t i = 0; i < t->n; i++)
		if (strlen(t->label[i]) > widest)
			widest = strlen(t->label[i]);
	return (label ? 24 : 8) + (double)widest * SVG_CHAR + 8;
}

/* A whisker from (x, lo) to (x, hi), capped, as path data; vertical, or horizontal when across. */
static void svg_whisker(struct svg_w *w, double c, double lo, double hi, int across)
{
	if (across)
		fprintf(w->out, "M%s %sH%sM%s %sv6M%s %sv6", svg_n(w, lo), svg_n(w, c), svg_n(w, hi),
			svg_n(w, lo), svg_n(w, c - 3), svg_n(w, hi), svg_n(w, c - 3));
	else
		fprintf(w->out, "M%s %sV%sM%s %sh6M%s %sh6", svg_n(w, c), svg_n(w, lo), svg_n(w, hi),
			svg_n(w, c - 3), svg_n(w, lo), svg_n(w, c - 3), svg_n(w, hi));
}

/* ------------------------------------------------------------- curve */

/* Whether point i of s can be drawn: a size above 0, a figure the y axis holds. */
static int svg_pt_ok(const struct svg_series *s, size_t i, enum svg_scale ys)
{
	return svg_ok(SVG_LOG2, s->x[i]) && svg_ok(ys, s->y[i]);
}

/* Whether point i has an interval to draw: both ends drawable and in order. */
static int svg_iv_ok(const struct svg_series *s, size_t i, enum svg_scale ys)
{
	return s->lo && s->hi && svg_ok(ys, s->lo[i]) && svg_ok(ys, s->hi[i]) && s->lo[i] <= s->hi[i];
}

static int svg_missed(const struct svg_series *s, size_t i)
{
	return s->missed && s->missed[i];
}

/* One series: its band or whiskers, its line, its markers. */
static void svg_curve_series(struct svg_w *w, const struct svg_series *s, size_t k,
			     const struct svg_axis *xa, const struct svg_axis *ya, int band)
{
	const char *colour = svg_colours[k % NELEM(svg_colours)];
	const char *dash = svg_dashes[k % NELEM(svg_dashes)];
	int shape = (int)(k % SVG_NSHAPES), open = 0;

	if (band) {
		/* A band per run of neighbours with intervals: upper edge out, lower back. */
		fprintf(w->out, "<path class=\"band\" fill=\"%s\" fill-opacity=\"0.2\" stroke=\"none\" d=\"",
			colour);
		for (size_t i = 0; i < s->n; i++) {
			size_t j = i;

			while (j < s->n && svg_pt_ok(s, j, ya->scale) && svg_iv_ok(s, j, ya->scale))
				j++;
			if (j - i >= 2) {
				for (size_t p = i; p < j; p++)
					fprintf(w->out, "%c%s %s", p == i ? 'M' : 'L',
						svg_n(w, svg_pos(xa, s->x[p])), svg_n(w, svg_pos(ya, s->hi[p])));
				for (size_t p = j; p-- > i;)
					fprintf(w->out, "L%s %s", svg_n(w, svg_pos(xa, s->x[p])),
						svg_n(w, svg_pos(ya, s->lo[p])));
				fputs("Z", w->out);
			}
			i = j;
		}
		fputs("\"/>\n", w->out);
	}
	/* Whiskers, and with a band the intervals of points it could not join. */
	fprintf(w->out, "<path class=\"whisker\" fill=\"none\" stroke=\"%s\" d=\"", colour);
	for (size_t i = 0; i < s->n; i++) {
		int alone = !(i > 0 && svg_pt_ok(s, i - 1, ya->scale) && svg_iv_ok(s, i - 1, ya->scale)) &&
			    !(i + 1 < s->n && svg_pt_ok(s, i + 1, ya->scale) &&
			      svg_iv_ok(s, i + 1, ya->scale));

		if (svg_pt_ok(s, i, ya->scale) && svg_iv_ok(s, i, ya->scale) && (!band || alone))
			svg_whisker(w, svg_pos(xa, s->x[i]), svg_pos(ya, s->lo[i]), svg_pos(ya, s->hi[i]), 0);
	}
	fputs("\"/>\n", w->out);

	fputs("<path class=\"series\" data-series=\"", w->out);
	svg_text(w, s->name, SVG_ALL);
	fprintf(w->out, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"", colour);
	if (dash)
		fprintf(w->out, " stroke-dasharray=\"%s\"", dash);
	fputs(" d=\"", w->out);
	for (size_t i = 0; i < s->n; i++) {
		if (!svg_pt_ok(s, i, ya->scale)) {
			open = 0;
			continue;
		}
		fprintf(w->out, "%c%s %s", open ? 'L' : 'M', svg_n(w, svg_pos(xa, s->x[i])),
			svg_n(w, svg_pos(ya, s->y[i])));
		open = 1;
	}
	fputs("\"/>\n", w->out);

	fprintf(w->out, "<g class=\"points\" fill=\"%s\" stroke=\"%s\">\n", colour, colour);
	for (size_t i = 0; i < s->n; i++)
		if (svg_pt_ok(s, i, ya->scale))
			svg_marker(w, shape, svg_pos(xa, s->x[i]), svg_pos(ya, s->y[i]),
				   svg_missed(s, i) ? "#ffffff" : NULL, NULL,
				   svg_missed(s, i) ? "missed" : NULL);
	fputs("</g>\n", w->out);
}

/* The marks inside the x axis, each a line across the plot and its label along it. */
static void svg_curve_marks(struct svg_w *w, const struct svg_mark *marks, size_t nmarks,
			    const struct svg_axis *xa, double top, double bottom)
{
	for (size_t i = 0; i < nmarks; i++) {
		const struct svg_mark *m = &marks[i];
		int os = m->kind == SVG_MARK_OS;
		double x;

		if (!svg_ok(SVG_LOG2, m->x) || log2(m->x) < xa->lo || log2(m->x) > xa->hi)
			continue;
		x = svg_pos(xa, m->x);
		fprintf(w->out, "<line class=\"mark %s\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\""
			" stroke=\"%s\" stroke-dasharray=\"%s\"/>\n", os ? "os" : "found", svg_n(w, x),
			svg_n(w, top), svg_n(w, x), svg_n(w, bottom), SVG_GREY, os ? "6 4" : "2 3");
		if (!m->label)
			continue;
		/* Turned to run up the line: the OS's from the top on its left, the
		   levels found from the bottom on its right, so that a level found
		   where the OS says the cache ends does not cover its label. */
		fprintf(w->out, "<text class=\"marklabel\" fill=\"%s\" transform=\"translate(%s %s)"
			" rotate(-90)\" text-anchor=\"%s\">", SVG_GREY, svg_n(w, os ? x - 3 : x + 11),
			svg_n(w, os ? top + 4 : bottom - 4), os ? "end" : "start");
		svg_text(w, m->label, SVG_NAME_MAX);
		fputs("</text>\n", w->out);
	}
}

int svg_curve(FILE *out, const struct svg_chart *c, const struct svg_series *series,
	      size_t nseries, const struct svg_mark *marks, size_t nmarks)
{
	enum svg_scale ys = (c->flags & SVG_YLOG) ? SVG_LOG10 : SVG_LIN;
	double xmin = HUGE_VAL, xmax = -HUGE_VAL, ymin = HUGE_VAL, ymax = -HUGE_VAL;
	double top = svg_top(c), bottom = top + 300, left, legy, height;
	struct svg_axis xa, ya;
	struct svg_ticks *xt, *yt;
	struct svg_leg *legs;
	struct svg_w w = { .out = out };
	size_t nlegs = 0, npoints = 0;
	int missed = 0, os = 0, found = 0, lines, rc;

	for (size_t k = 0; k < nseries; k++) {
		const struct svg_series *s = &series[k];

		for (size_t i = 0; i < s->n; i++) {
			if (!svg_pt_ok(s, i, ys))
				continue;
			npoints++;
			missed |= svg_missed(s, i);
			xmin = fmin(xmin, s->x[i]);
			xmax = fmax(xmax, s->x[i]);
			ymin = fmin(ymin, s->y[i]);
			ymax = fmax(ymax, s->y[i]);
			if (svg_iv_ok(s, i, ys)) {
				ymin = fmin(ymin, s->lo[i]);
				ymax = fmax(ymax, s->hi[i]);
			}
		}
	}
	if (npoints == 0)
		return svg_nochart(out, c);

	xt = malloc(sizeof(*xt));
	yt = malloc(sizeof(*yt));
	legs = calloc(nseries + 3, sizeof(*legs));
	if (!xt || !yt || !legs) {
		free(xt);
		free(yt);
		free(legs);
		return -1;
	}
	if (ys == SVG_LIN) {
		/* Latencies from 0, so that twice the height is twice the time. */
		ymin = fmin(ymin, 0);
		svg_widen(&ymin, &ymax);
		svg_lin_ticks(&ya, ymin, ymax, yt);
	} else {
		svg_log10_ticks(&ya, ymin, ymax, yt);
	}
	ya.p0 = bottom;
	ya.p1 = top;
	svg_log2_ticks(&xa, xmin, xmax, xt);
	left = svg_margin_y(yt, c->ylabel);
	xa.p0 = left;
	xa.p1 = SVG_W - 16;

	for (size_t i = 0; i < nmarks; i++) {
		double l = svg_ok(SVG_LOG2, marks[i].x) ? log2(marks[i].x) : xa.lo - 1;

		if (l >= xa.lo && l <= xa.hi) {
			os |= marks[i].kind == SVG_MARK_OS;
			found |= marks[i].kind != SVG_MARK_OS;
		}
	}
	for (size_t k = 0; k < nseries; k++) {
		struct svg_leg *l = &legs[nlegs++];
		size_t drawn = 0;

		for (size_t i = 0; i < series[k].n; i++)
			drawn += (size_t)svg_pt_ok(&series[k], i, ys);
		*l = (struct svg_leg){ .kind = SVG_LEG_LINE, .text = series[k].name ? series[k].name : "",
			.suffix = drawn ? NULL : " (no points)",
			.colour = svg_colours[k % NELEM(svg_colours)],
			.dash = svg_dashes[k % NELEM(svg_dashes)], .shape = (int)(k % SVG_NSHAPES) };
	}
	if (missed)
		legs[nlegs++] = (struct svg_leg){ .kind = SVG_LEG_MARKER, .text = "missed its precision",
			.colour = SVG_GREY, .shape = SVG_CIRCLE, .hollow = 1 };
	if (os)
		legs[nlegs++] = (struct svg_leg){ .kind = SVG_LEG_LINE, .text = "cache size the OS reports",
			.colour = SVG_GREY, .dash = "6 4", .shape = -1 };
	if (found)
		legs[nlegs++] = (struct svg_leg){ .kind = SVG_LEG_LINE, .text = "level detected",
			.colour = SVG_GREY, .dash = "2 3", .shape = -1 };

	legy = bottom + (c->xlabel ? 42 : 26);
	lines = svg_legend(NULL, legs, nlegs, left, legy);
	height = legy + lines * 16 + 8;

	svg_open(&w, "curve", height, c);
	svg_axis_y(&w, &ya, yt, left, xa.p1, 14, c->ylabel);
	svg_axis_x(&w, &xa, xt, bottom, top, c->xlabel);
	svg_curve_marks(&w, marks, nmarks, &xa, top, bottom);
	for (size_t k = 0; k < nseries; k++) {
		if (legs[k].suffix)
			continue;
		svg_curve_series(&w, &series[k], k, &xa, &ya, (c->flags & SVG_BAND) != 0);
	}
	svg_legend(&w, legs, nlegs, left, legy);
	rc = svg_close(&w);
	free(xt);
	free(yt);
	free(legs);
	return rc;
}

/* ------------------------------------------------------------ forest */

static int svg_row_ok(const struct svg_row *r)
{
	return svg_ok(SVG_LOGR, r->ratio);
}

static int svg_row_iv(const struct svg_row *r)
{
	return svg_ok(SVG_LOGR, r->lo) && svg_ok(SVG_LOGR, r->hi) && r->lo <= r->hi;
}

/* How far from 0 the row reaches on the log-ratio axis (0 when it cannot be drawn). */
static double svg_row_reach(const struct svg_row *r)
{
	double reach;

	if (!svg_row_ok(r))
		return 0;
	reach = fabs(log(r->ratio));
	if (svg_row_iv(r))
		reach = fmax(reach, fmax(fabs(log(r->lo)), fabs(log(r->hi))));
	return reach;
}

static int svg_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* How much further than the typical row's reach a row may be and still set the axis. */
#define SVG_FOREST_SPAN 3.0

/*
 * The forest's reach: the rows' typical one, the upper quartile of their
 * reaches (at least 5%, so that unchanged rows are not drawn as moves),
 * widened to every row within SVG_FOREST_SPAN times it.  Not the largest:
 * one change of +259% among changes of 1% would put every 1% on the zero
 * line.  A row beyond is drawn at the axis's end.  0 with no row to draw.
 */
static double svg_forest_reach(const struct svg_row *rows, size_t nrows)
{
	double *e = malloc((nrows ? nrows : 1) * sizeof(*e)), core, reach;
	size_t n = 0;

	if (!e)
		return -1;
	for (size_t i = 0; i < nrows; i++)
		if (svg_row_ok(&rows[i]))
			e[n++] = svg_row_reach(&rows[i]);
	if (n == 0) {
		free(e);
		return 0;
	}
	qsort(e, n, sizeof(*e), svg_cmp_double);
	core = fmax(e[3 * (n - 1) / 4], log(1.05));
	reach = core;
	for (size_t i = 0; i < n; i++)
		if (e[i] <= SVG_FOREST_SPAN * core)
			reach = fmax(reach, e[i]);
	free(e);
	return reach;
}

/* Each verdict as the page draws it: colour, marker, filled, the text's mark, the legend's words. */
struct svg_look {
	const char *colour;
	int shape;			/* svg_marker's */
	int filled;			/* marked: filled; else hollow */
	const char *mark;		/* the text's mark, after the change */
	const char *legend;		/* the legend's words, and the row's data-verdict */
};
static const struct svg_look svg_verdicts[] = {
	[SVG_UNTOLD] = { SVG_GREY, SVG_DIAMOND, 0, "", "cannot tell (unmarked)" },
	[SVG_BETTER] = { SVG_C_BETTER, SVG_CIRCLE, 1, "*", "* better" },
	[SVG_WORSE] = { SVG_C_WORSE, SVG_SQUARE, 1, "*", "* worse" },
	[SVG_CHANGED] = { "#000000", SVG_CIRCLE, 1, "*", "* changed" },
	[SVG_UNCHANGED] = { SVG_GREY, SVG_CIRCLE, 0, "=", "= unchanged" },
	[SVG_NOT_COMPARED] = { "#999999", SVG_TRIANGLE, 0, "?", "? not compared" },
};

static size_t svg_verdict_of(const struct svg_row *r)
{
	return (size_t)r->verdict < NELEM(svg_verdicts) ? (size_t)r->verdict : SVG_UNTOLD;
}

/* The change and the text's mark at a row's right ("+10.0% *"), or its note where the point would be. */
static void svg_row_text(struct svg_w *w, const struct svg_row *r, const struct svg_axis *a,
			 double cy)
{
	char buf[48];
	const char *mark = svg_verdicts[svg_verdict_of(r)].mark;

	if (!svg_row_ok(r)) {
		fprintf(w->out, "<text class=\"na\" x=\"%s\" y=\"%s\" fill=\"%s\" font-style=\"italic\">",
			svg_n(w, a->p0 + 4), svg_n(w, cy + 4), SVG_GREY);
		svg_text(w, r->note ? r->note : "no figure", SVG_NAME_MAX);
		fputs("</text>\n", w->out);
		return;
	}
	snprintf(buf, sizeof(buf), "%+.1f%%%s%s", (r->ratio - 1) * 100, mark[0] ? " " : "", mark);
	svg_label(w, "value", a->p1 + 8, cy + 4, "start", buf, SVG_ALL);
}

static void svg_forest_row(struct svg_w *w, const struct svg_row *r, const struct svg_axis *a,
			   double cy, size_t namech)
{
	size_t v = svg_verdict_of(r);
	const char *colour = svg_verdicts[v].colour;
	const char *fill = svg_verdicts[v].filled ? colour : "#ffffff";

	fputs("<g class=\"row\" data-name=\"", w->out);
	svg_text(w, r->name, SVG_ALL);
	fprintf(w->out, "\" data-verdict=\"%s\">\n", svg_verdicts[v].legend);
	svg_label(w, "name", 8, cy + 4, "start", r->name ? r->name : "", namech);
	if (svg_row_ok(r)) {
		double l = log(r->ratio);

		if (svg_row_iv(r)) {
			/* Cut at the axis's ends, without the cap there: it goes on. */
			double lo = fmax(log(r->lo), a->lo), hi = fmin(log(r->hi), a->hi);
			double x0 = svg_pos(a, exp(lo)), x1 = svg_pos(a, exp(hi));

			if (lo < hi) {
				fprintf(w->out, "<path class=\"whisker\" fill=\"none\" stroke=\"%s\" d=\"M%s %sH%s",
					colour, svg_n(w, x0), svg_n(w, cy), svg_n(w, x1));
				if (log(r->lo) >= a->lo)
					fprintf(w->out, "M%s %sv6", svg_n(w, x0), svg_n(w, cy - 3));
				if (log(r->hi) <= a->hi)
					fprintf(w->out, "M%s %sv6", svg_n(w, x1), svg_n(w, cy - 3));
				fputs("\"/>\n", w->out);
			}
		}
		if (l > a->hi || l < a->lo) {
			/* Off the axis: a triangle at its end pointing out, the change beside it, inside. */
			int right = l > a->hi;
			double x = right ? a->p1 : a->p0;
			char buf[48];

			fprintf(w->out, "<path class=\"offscale\" fill=\"%s\" stroke=\"%s\" d=\"M%s %sl%s-5v10z\"/>\n",
				fill, colour, svg_n(w, x), svg_n(w, cy), right ? "-9 " : "9 ");
			snprintf(buf, sizeof(buf), "%+.1f%%", (r->ratio - 1) * 100);
			fprintf(w->out, "<text class=\"offscale\" x=\"%s\" y=\"%s\"%s fill=\"%s\""
				" font-weight=\"bold\">", svg_n(w, right ? x - 12 : x + 12), svg_n(w, cy + 4),
				right ? " text-anchor=\"end\"" : "", colour);
			svg_text(w, buf, SVG_ALL);
			fputs("</text>\n", w->out);
		} else {
			svg_marker(w, svg_verdicts[v].shape, svg_pos(a, r->ratio), cy, fill, colour,
				   svg_verdicts[v].filled ? "point signif" : "point");
		}
	}
	svg_row_text(w, r, a, cy);
	fputs("</g>\n", w->out);
}

/* The bytes a foot's line holds: the chart's width, less its margins. */
#define SVG_FOOT_CH ((size_t)((SVG_W - 16) / SVG_CHAR))

/*
 * How much of s goes on one line of at most width bytes: all of it, or up
 * to its last space that fits (the space itself left out), or where a word
 * longer than a line must be cut, never inside a UTF-8 character.
 */
static size_t svg_wrap(const char *s, size_t width)
{
	size_t len = strlen(s), cut = width;

	if (len <= width)
		return len;
	while (cut > 0 && s[cut] != ' ')
		cut--;
	if (cut > 0)
		return cut;
	for (cut = width; cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80; cut--)
		;
	return cut ? cut : len;
}

int svg_forest(FILE *out, const struct svg_chart *c, const struct svg_row *rows, size_t nrows,
	       const char *const *foot, size_t nfoot)
{
	struct svg_w w = { .out = out };
	struct svg_axis a;
	struct svg_ticks *t;
	struct svg_leg legs[NELEM(svg_verdicts) + 1];
	size_t drawn = 0, namech = 0, nlegs = 0, nlines = 0;
	double reach, top = svg_top(c), bottom, legy, footy, height;
	int kinds[NELEM(svg_verdicts)] = { 0 }, off = 0;
	int lines, rc;
	/* The legend's order: the marked first, as the text's legend has them. */
	static const enum svg_verdict order[] = { SVG_BETTER, SVG_WORSE, SVG_CHANGED, SVG_UNCHANGED,
						  SVG_UNTOLD, SVG_NOT_COMPARED };

	for (size_t i = 0; i < nrows; i++) {
		const struct svg_row *r = &rows[i];

		namech = namech > svg_chars(r->name) ? namech : svg_chars(r->name);
		if (!svg_row_ok(r))
			continue;
		drawn++;
		kinds[svg_verdict_of(r)] = 1;
	}
	if (drawn == 0)
		return svg_nochart(out, c);
	reach = svg_forest_reach(rows, nrows);
	t = malloc(sizeof(*t));
	if (!t || reach < 0) {
		free(t);
		return -1;
	}
	if (namech > SVG_NAME_MAX)
		namech = SVG_NAME_MAX;
	svg_ratio_ticks(&a, reach, t);
	for (size_t i = 0; i < nrows; i++)
		off |= svg_row_ok(&rows[i]) && fabs(log(rows[i].ratio)) > a.hi;
	a.p0 = 8 + (double)namech * SVG_CHAR + 12;
	a.p1 = SVG_W - 72;
	bottom = top + (double)nrows * SVG_ROW + 4;
	legy = bottom + (c->xlabel ? 42 : 26);

	for (size_t i = 0; i < NELEM(order); i++)
		if (kinds[order[i]]) {
			const struct svg_look *v = &svg_verdicts[order[i]];

			legs[nlegs++] = (struct svg_leg){ .kind = SVG_LEG_MARKER, .text = v->legend,
				.colour = v->colour, .shape = v->shape, .hollow = !v->filled };
		}
	if (off)
		legs[nlegs++] = (struct svg_leg){ .kind = SVG_LEG_MARKER,
			.text = "off the axis: its change beside", .colour = SVG_GREY,
			.shape = SVG_ARROW };
	lines = svg_legend(NULL, legs, nlegs, a.p0, legy);
	footy = legy + lines * 16 + (nfoot ? 12 : 0);
	for (size_t i = 0; i < nfoot; i++)
		for (const char *p = foot[i] ? foot[i] : ""; ; ) {
			size_t len = svg_wrap(p, SVG_FOOT_CH);

			nlines++;
			p += len;
			if (!*p)
				break;
			p++;
		}
	height = footy + (double)nlines * 16 + 8;

	svg_open(&w, "forest", height, c);
	/* Every second row shaded, under the grid, so the eye keeps a name and its point together. */
	fputs("<path class=\"stripes\" fill=\"#f2f2f2\" d=\"", w.out);
	for (size_t i = 1; i < nrows; i += 2)
		fprintf(w.out, "M4 %sh%sv%sH4Z", svg_n(&w, top + (double)i * SVG_ROW), svg_n(&w, SVG_W - 8),
			svg_n(&w, SVG_ROW));
	fputs("\"/>\n", w.out);
	svg_axis_x(&w, &a, t, bottom, top, c->xlabel);
	for (size_t i = 0; i < nrows; i++)
		svg_forest_row(&w, &rows[i], &a, top + SVG_ROW / 2 + (double)i * SVG_ROW, namech);
	/* Over the rows' stripes, so that no change hides which side of 0 it is on. */
	fprintf(w.out, "<line class=\"zero\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"#000000\"/>\n",
		svg_n(&w, svg_pos(&a, 1)), svg_n(&w, top), svg_n(&w, svg_pos(&a, 1)), svg_n(&w, bottom));
	svg_legend(&w, legs, nlegs, a.p0, legy);
	if (nfoot) {
		fputs("<g class=\"foot\">\n", w.out);
		fprintf(w.out, "<line class=\"sep\" x1=\"4\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"#000000\"/>\n",
			svg_n(&w, footy - 8), svg_n(&w, SVG_W - 4), svg_n(&w, footy - 8));
		/* A line too long for the chart goes on at the next, broken at a space. */
		nlines = 0;
		for (size_t i = 0; i < nfoot; i++)
			for (const char *p = foot[i] ? foot[i] : ""; ; ) {
				size_t len = svg_wrap(p, SVG_FOOT_CH);
				char *part = strndup(p, len);

				svg_label(&w, "foot", 8, footy + 6 + (double)nlines++ * 16, "start",
					  part ? part : "", SVG_ALL);
				free(part);
				p += len;
				if (!*p)
					break;
				p++;
			}
		fputs("</g>\n", w.out);
	}
	rc = svg_close(&w);
	free(t);
	return rc;
}

/* -------------------------------------------------------------- bars */

static int svg_bar_ok(const struct svg_bar *b)
{
	return isfinite(b->value) && b->value >= 0;
}

static int svg_bar_iv(const struct svg_bar *b)
{
	return isfinite(b->lo) && isfinite(b->hi) && b->lo <= b->hi && b->hi >= 0;
}

/* Whether the group's bars are named, so that its name heads them instead of labelling one. */
static int svg_group_heads(const struct svg_bar_group *g)
{
	if (!g->name)
		return 0;
	for (size_t i = 0; i < g->n; i++)
		if (g->bars[i].name)
			return 1;
	return 0;
}

/* The index of name among the first n of names, or n. */
static size_t svg_find(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	return n;
}

static void svg_bar_row(struct svg_w *w, const struct svg_bar *b, const char *label,
			const char *colour, const struct svg_axis *a, double cy, size_t namech)
{
	char buf[48];
	double end;

	svg_label(w, "name", 8, cy + 4, "start", label ? label : "", namech);
	if (!svg_bar_ok(b)) {
		fprintf(w->out, "<text class=\"na\" x=\"%s\" y=\"%s\" fill=\"%s\" font-style=\"italic\">",
			svg_n(w, a->p0 + 4), svg_n(w, cy + 4), SVG_GREY);
		svg_text(w, b->note ? b->note : "no figure", SVG_NAME_MAX);
		fputs("</text>\n", w->out);
		return;
	}
	end = svg_pos(a, b->value);
	fprintf(w->out, "<rect class=\"bar\" x=\"%s\" y=\"%s\" width=\"%s\" height=\"12\" fill=\"%s\"/>\n",
		svg_n(w, a->p0), svg_n(w, cy - 6), svg_n(w, end - a->p0), colour);
	if (svg_bar_iv(b)) {
		double hi = svg_pos(a, b->hi);

		fputs("<path class=\"whisker\" fill=\"none\" stroke=\"#000000\" d=\"", w->out);
		svg_whisker(w, cy, svg_pos(a, fmax(b->lo, 0)), hi, 1);
		fputs("\"/>\n", w->out);
		end = fmax(end, hi);
	}
	report_fig(buf, sizeof(buf), b->value);
	svg_label(w, "value", end + 4, cy + 4, "start", buf, SVG_ALL);
}

int svg_bars(FILE *out, const struct svg_chart *c, const struct svg_bar_group *groups,
	     size_t ngroups)
{
	struct svg_w w = { .out = out };
	struct svg_axis a;
	struct svg_ticks *t;
	struct svg_leg *legs;
	const char **names;
	size_t total = 0, drawn = 0, nnames = 0, namech = 0;
	double vmax = 0, top = svg_top(c), y, bottom, legy, height;
	int lines, rc;

	for (size_t g = 0; g < ngroups; g++)
		total += groups[g].n;
	names = malloc((total ? total : 1) * sizeof(*names));
	legs = calloc(total ? total : 1, sizeof(*legs));
	t = malloc(sizeof(*t));
	if (!names || !legs || !t) {
		free(names);
		free(legs);
		free(t);
		return -1;
	}
	/* Rows, the widest label, the value axis's reach, the names in order of appearance. */
	y = top;
	for (size_t g = 0; g < ngroups; g++) {
		const struct svg_bar_group *gr = &groups[g];

		if (g > 0)
			y += 6;
		if (svg_group_heads(gr))
			y += 16;
		for (size_t i = 0; i < gr->n; i++) {
			const struct svg_bar *b = &gr->bars[i];
			const char *label = b->name ? b->name : gr->name;
			size_t ch = svg_chars(label);

			namech = ch > namech ? ch : namech;
			y += SVG_ROW;
			if (b->name && svg_find(names, nnames, b->name) == nnames)
				names[nnames++] = b->name;
			if (!svg_bar_ok(b))
				continue;
			drawn++;
			vmax = fmax(vmax, b->value);
			if (svg_bar_iv(b))
				vmax = fmax(vmax, b->hi);
		}
	}
	if (drawn == 0) {
		free(names);
		free(legs);
		free(t);
		return svg_nochart(out, c);
	}
	bottom = y + 4;
	if (namech > SVG_NAME_MAX)
		namech = SVG_NAME_MAX;
	svg_lin_ticks(&a, 0, vmax > 0 ? vmax : 1, t);
	a.p0 = 8 + (double)namech * SVG_CHAR + 12;
	a.p1 = SVG_W - 72;
	for (size_t i = 0; i < nnames; i++)
		legs[i] = (struct svg_leg){ .kind = SVG_LEG_SWATCH, .text = names[i],
			.colour = svg_colours[i % NELEM(svg_colours)], .shape = -1 };
	legy = bottom + (c->xlabel ? 42 : 26);
	lines = svg_legend(NULL, legs, nnames, a.p0, legy);
	height = legy + lines * 16 + 8;

	svg_open(&w, "bars", height, c);
	svg_axis_x(&w, &a, t, bottom, top, c->xlabel);
	fprintf(w.out, "<line class=\"base\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"#000000\"/>\n",
		svg_n(&w, a.p0), svg_n(&w, top), svg_n(&w, a.p0), svg_n(&w, bottom));
	y = top;
	for (size_t g = 0; g < ngroups; g++) {
		const struct svg_bar_group *gr = &groups[g];

		if (g > 0)
			y += 6;
		fputs("<g class=\"group\" data-name=\"", w.out);
		svg_text(&w, gr->name, SVG_ALL);
		fputs("\">\n", w.out);
		if (svg_group_heads(gr)) {
			fprintf(w.out, "<text class=\"group\" x=\"8\" y=\"%s\" font-weight=\"bold\">",
				svg_n(&w, y + 12));
			svg_text(&w, gr->name, SVG_NAME_MAX * 2);
			fputs("</text>\n", w.out);
			y += 16;
		}
		for (size_t i = 0; i < gr->n; i++) {
			const struct svg_bar *b = &gr->bars[i];
			size_t k = b->name ? svg_find(names, nnames, b->name) : 0;

			svg_bar_row(&w, b, b->name ? b->name : gr->name,
				    svg_colours[k % NELEM(svg_colours)], &a, y + SVG_ROW / 2, namech);
			y += SVG_ROW;
		}
		fputs("</g>\n", w.out);
	}
	svg_legend(&w, legs, nnames, a.p0, legy);
	rc = svg_close(&w);
	free(names);
	free(legs);
	free(t);
	return rc;
}

/* ------------------------------------------------------------- strip */

/* The most replicas drawn as columns; a group past it is not drawn. */
#define SVG_MAXGROUPS 1024
/* How many interquartile ranges beyond the quartiles a sample may be and still set the axis. */
#define SVG_STRIP_FENCE 3.0

static double svg_sample_x(const struct svg_samples *s, size_t i)
{
	return s->x ? s->x[i] : (double)i;
}

/* Whether sample i is drawn: a value, and a place along x (its replica, or its x). */
static int svg_sample_ok(const struct svg_samples *s, size_t i)
{
	if (!isfinite(s->y[i]))
		return 0;
	if (s->group)
		return s->group[i] >= 0 && s->group[i] < SVG_MAXGROUPS;
	return isfinite(svg_sample_x(s, i));
}

/*
 * The samples' typical range: the lowest and highest within SVG_STRIP_FENCE
 * interquartile ranges of the quartiles (the range at least half a percent
 * of the median, so that equal samples do not make every other an outlier).
 * -1 without memory.
 */
static int svg_strip_range(const struct svg_samples *s, double *lo, double *hi)
{
	double *v = malloc((s->n ? s->n : 1) * sizeof(*v)), q1, q3, iqr, flo, fhi;
	size_t n = 0;

	if (!v)
		return -1;
	for (size_t i = 0; i < s->n; i++)
		if (svg_sample_ok(s, i))
			v[n++] = s->y[i];
	qsort(v, n, sizeof(*v), svg_cmp_double);
	q1 = v[(n - 1) / 4];
	q3 = v[3 * (n - 1) / 4];
	iqr = fmax(q3 - q1, 0.005 * fabs(v[(n - 1) / 2]));
	flo = q1 - SVG_STRIP_FENCE * iqr;
	fhi = q3 + SVG_STRIP_FENCE * iqr;
	*lo = HUGE_VAL;
	*hi = -HUGE_VAL;
	for (size_t i = 0; i < n; i++)
		if (v[i] >= flo && v[i] <= fhi) {
			*lo = fmin(*lo, v[i]);
			*hi = fmax(*hi, v[i]);
		}
	free(v);
	return 0;
}

/* The samples off one end of the axis, in one column (or across the plot). */
struct svg_off {
	size_t n;			/* how many */
	double far;			/* the farthest value */
	double x;			/* where its triangle goes */
};

static void svg_off_add(struct svg_off *o, double v, double x, int up)
{
	if (o->n == 0 || (up ? v > o->far : v < o->far)) {
		o->far = v;
		if (isfinite(x))
			o->x = x;
	}
	o->n++;
}

/* A triangle at the axis's end pointing out, with how many it stands for and the farthest. */
static void svg_off_draw(struct svg_w *w, const struct svg_off *o, double y, int up)
{
	char fig[32], buf[64];

	if (o->n == 0)
		return;
	fprintf(w->out, "<path class=\"offscale\" fill=\"%s\" stroke=\"%s\" d=\"M%s %sl4.5 %sh-9z\"/>\n",
		svg_colours[1], svg_colours[1], svg_n(w, o->x), svg_n(w, y), up ? "9" : "-9");
	report_fig(fig, sizeof(fig), o->far);
	if (o->n == 1)
		snprintf(buf, sizeof(buf), "%s", fig);
	else
		snprintf(buf, sizeof(buf), "%zu, to %s", o->n, fig);
	svg_label(w, "offscale", o->x + 7, up ? y + 9 : y - 1, "start", buf, SVG_ALL);
}

/*
 * Each replica's median (of its samples, as show's table of replicas has
 * it) as a dark line across its column, where the axis holds it: a replica
 * that ran slow or fast shows as a step.  0, or -1 without memory.
 */
static int svg_strip_medians(struct svg_w *w, const struct svg_samples *s, size_t ngroups,
			     const struct svg_axis *xa, const struct svg_axis *ya, double cw)
{
	double *v = malloc((s->n ? s->n : 1) * sizeof(*v));

	if (!v)
		return -1;
	fputs("<path class=\"replica-median\" stroke=\"#000000\" stroke-width=\"1.5\" d=\"", w->out);
	for (size_t g = 0; g < ngroups; g++) {
		size_t n = 0;
		double m;

		for (size_t i = 0; i < s->n; i++)
			if (svg_sample_ok(s, i) && (size_t)s->group[i] == g)
				v[n++] = s->y[i];
		if (n == 0)
			continue;
		qsort(v, n, sizeof(*v), svg_cmp_double);
		m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
		if (m < ya->lo || m > ya->hi)
			continue;
		fprintf(w->out, "M%s %sh%s", svg_n(w, xa->p0 + cw * ((double)g + 0.1)),
			svg_n(w, svg_pos(ya, m)), svg_n(w, cw * 0.8));
	}
	fputs("\"/>\n", w->out);
	free(v);
	return 0;
}

int svg_strip(FILE *out, const struct svg_chart *c, const struct svg_samples *s)
{
	struct svg_w w = { .out = out };
	struct svg_axis xa, ya;
	struct svg_ticks *xt, *yt;
	struct svg_leg legs[5];
	struct svg_off *offs = NULL;	/* per column (or one), top then bottom */
	double xmin = HUGE_VAL, xmax = -HUGE_VAL, ymin, ymax;
	double top = svg_top(c), bottom = top + 220, left, legy, height, cw = 0;
	int median = isfinite(s->median);
	int band = isfinite(s->lo) && isfinite(s->hi) && s->lo <= s->hi;
	size_t drawn = 0, nlegs = 0, ngroups = 0, noff = 0, *seen = NULL, *count = NULL;
	int lines, rc = -1;

	for (size_t i = 0; i < s->n; i++) {
		if (!svg_sample_ok(s, i))
			continue;
		drawn++;
		if (s->group) {
			ngroups = (size_t)s->group[i] + 1 > ngroups ? (size_t)s->group[i] + 1 : ngroups;
			continue;
		}
		xmin = fmin(xmin, svg_sample_x(s, i));
		xmax = fmax(xmax, svg_sample_x(s, i));
	}
	if (drawn == 0)
		return svg_nochart(out, c);
	xt = malloc(sizeof(*xt));
	yt = malloc(sizeof(*yt));
	offs = calloc(2 * (ngroups ? ngroups : 1), sizeof(*offs));
	count = calloc(ngroups ? ngroups : 1, sizeof(*count));
	seen = calloc(ngroups ? ngroups : 1, sizeof(*seen));
	if (!xt || !yt || !offs || !count || !seen || svg_strip_range(s, &ymin, &ymax) < 0)
		goto out;
	if (median) {
		ymin = fmin(ymin, s->median);
		ymax = fmax(ymax, s->median);
	}
	/* The band as far as the typical samples go: a wide one must not stretch the axis either. */
	if (band) {
		ymin = fmin(ymin, fmax(s->lo, ymin - (ymax - ymin)));
		ymax = fmax(ymax, fmin(s->hi, ymax + (ymax - ymin)));
	}
	/* Not from 0: the spread of the samples is what this chart is for. */
	svg_widen(&ymin, &ymax);
	svg_lin_ticks(&ya, ymin, ymax, yt);
	ya.p0 = bottom;
	ya.p1 = top;
	left = svg_margin_y(yt, c->ylabel);
	if (s->group) {
		/* The x axis is the replicas' columns, numbered from 1 (every k-th past 24). */
		size_t every = ngroups > SVG_MAXLABELS ? (ngroups + SVG_MAXLABELS - 1) / SVG_MAXLABELS : 1;

		xa = (struct svg_axis){ SVG_LIN, 0, (double)ngroups, left, SVG_W - 16 };
		cw = (xa.p1 - xa.p0) / (double)ngroups;
		xt->n = 0;
		for (size_t g = 0; g < ngroups; g++) {
			char buf[24] = "";

			if (g % every == 0)
				snprintf(buf, sizeof(buf), "%zu", g + 1);
			svg_tick(xt, (double)g + 0.5, buf);
		}
		for (size_t i = 0; i < s->n; i++)
			if (svg_sample_ok(s, i))
				count[s->group[i]]++;
	} else {
		svg_widen(&xmin, &xmax);
		svg_lin_ticks(&xa, xmin, xmax, xt);
		xa.p0 = left;
		xa.p1 = SVG_W - 16;
	}
	/* Which samples are off the axis, and where each end's triangle goes. */
	for (size_t i = 0; i < s->n; i++) {
		size_t k = s->group && svg_sample_ok(s, i) ? (size_t)s->group[i] : 0;
		double x;

		if (!svg_sample_ok(s, i))
			continue;
		x = s->group ? xa.p0 + cw * ((double)k + 0.5) : svg_pos(&xa, svg_sample_x(s, i));
		if (s->y[i] > ya.hi)
			svg_off_add(&offs[2 * k], s->y[i], x, 1);
		else if (s->y[i] < ya.lo)
			svg_off_add(&offs[2 * k + 1], s->y[i], x, 0);
	}
	for (size_t k = 0; k < 2 * (ngroups ? ngroups : 1); k++)
		noff += offs[k].n;

	legs[nlegs++] = (struct svg_leg){ .kind = SVG_LEG_MARKER, .text = "sample",
		.colour = svg_colours[0], .shape = SVG_CIRCLE };
	if (median)
		legs[nlegs++] = (struct svg_leg){ .kind = SVG_LEG_LINE, .text = "median",
			.colour = svg_colours[1], .shape = -1 };
	if (band)
		legs[nlegs++] = (struct svg_leg){ .kind = SVG_LEG_BAND, .text = "interval of the median",
			.colour = svg_colours[5], .shape = -1 };
	if (s->group)
		legs[nlegs++] = (struct svg_leg){ .kind = SVG_LEG_LINE, .text = "a replica's median",
			.colour = "#000000", .shape = -1 };
	if (noff)
		legs[nlegs++] = (struct svg_leg){ .kind = SVG_LEG_MARKER,
			.text = "off the axis: how many, the farthest", .colour = svg_colours[1],
			.shape = SVG_TRIANGLE };
	legy = bottom + (c->xlabel ? 42 : 26);
	lines = svg_legend(NULL, legs, nlegs, left, legy);
	height = legy + lines * 16 + 8;

	svg_open(&w, "strip", height, c);
	svg_axis_y(&w, &ya, yt, left, xa.p1, 14, c->ylabel);
	svg_axis_x(&w, &xa, xt, bottom, top, c->xlabel);
	if (s->group) {
		/* Each column's edges, so that a replica's samples are seen together. */
		fputs("<path class=\"columns\" stroke=\"#bbbbbb\" stroke-dasharray=\"2 3\" d=\"", w.out);
		for (size_t g = 1; g < ngroups; g++)
			fprintf(w.out, "M%s %sV%s", svg_n(&w, xa.p0 + cw * (double)g), svg_n(&w, top),
				svg_n(&w, bottom));
		fputs("\"/>\n", w.out);
	}
	if (band) {
		double hi = svg_pos(&ya, fmin(s->hi, ya.hi)), lo = svg_pos(&ya, fmax(s->lo, ya.lo));

		fprintf(w.out, "<rect class=\"band\" x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\""
			" fill=\"%s\" fill-opacity=\"0.3\"/>\n", svg_n(&w, xa.p0), svg_n(&w, hi),
			svg_n(&w, xa.p1 - xa.p0), svg_n(&w, lo - hi), svg_colours[5]);
	}
	/* Each sample a round cap on an empty stroke: a dot in a tenth of a circle's bytes. */
	fprintf(w.out, "<path class=\"samples\" fill=\"none\" stroke=\"%s\" stroke-width=\"4\""
		" stroke-linecap=\"round\" d=\"", svg_colours[0]);
	for (size_t i = 0; i < s->n; i++) {
		double x;

		if (!svg_sample_ok(s, i) || s->y[i] > ya.hi || s->y[i] < ya.lo)
			continue;
		if (s->group) {
			/* Across the middle 70% of its column, in the order taken. */
			size_t k = (size_t)s->group[i], j = seen[k]++;

			x = xa.p0 + cw * ((double)k + 0.15 + 0.7 * ((double)j + 0.5) / (double)count[k]);
		} else {
			x = svg_pos(&xa, svg_sample_x(s, i));
		}
		fprintf(w.out, "M%s %sh0", svg_n(&w, x), svg_n(&w, svg_pos(&ya, s->y[i])));
	}
	fputs("\"/>\n", w.out);
	if (median)
		fprintf(w.out, "<line class=\"median\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\""
			" stroke-width=\"1.5\"/>\n", svg_n(&w, xa.p0), svg_n(&w, svg_pos(&ya, s->median)),
			svg_n(&w, xa.p1), svg_n(&w, svg_pos(&ya, s->median)), svg_colours[1]);
	if (s->group && svg_strip_medians(&w, s, ngroups, &xa, &ya, cw) < 0)
		goto out;
	if (noff) {
		fputs("<g class=\"offscale\">\n", w.out);
		for (size_t k = 0; k < (ngroups ? ngroups : 1); k++) {
			svg_off_draw(&w, &offs[2 * k], top, 1);
			svg_off_draw(&w, &offs[2 * k + 1], bottom, 0);
		}
		fputs("</g>\n", w.out);
	}
	svg_legend(&w, legs, nlegs, left, legy);
	rc = svg_close(&w);
out:
	free(xt);
	free(yt);
	free(offs);
	free(count);
	free(seen);
	return rc;
}

/* ----------------------------------------------------------- history */

int svg_history(FILE *out, const struct svg_chart *c, const struct svg_point *pts, size_t n,
		const struct svg_step *steps, size_t nsteps)
{
	struct svg_w w = { .out = out };
	struct svg_axis ya;
	struct svg_ticks *yt;
	double ymin = HUGE_VAL, ymax = -HUGE_VAL, top = svg_top(c) + 14, bottom = top + 200;
	double left, right = SVG_W - 16, dx, height;
	size_t drawn = 0, every;
	int first = 1, rc;

	for (size_t i = 0; i < n; i++) {
		if (!isfinite(pts[i].y))
			continue;
		drawn++;
		ymin = fmin(ymin, isfinite(pts[i].lo) ? fmin(pts[i].lo, pts[i].y) : pts[i].y);
		ymax = fmax(ymax, isfinite(pts[i].hi) ? fmax(pts[i].hi, pts[i].y) : pts[i].y);
	}
	if (drawn == 0)
		return svg_nochart(out, c);
	yt = malloc(sizeof(*yt));
	if (!yt)
		return -1;
	/* Not from 0: the steps are what this chart is for. */
	svg_widen(&ymin, &ymax);
	svg_lin_ticks(&ya, ymin, ymax, yt);
	ya.p0 = bottom;
	ya.p1 = top;
	left = svg_margin_y(yt, c->ylabel);
	dx = (right - left) / (double)n;
	every = n > SVG_MAXLABELS ? (n + SVG_MAXLABELS - 1) / SVG_MAXLABELS : 1;
	height = bottom + 30 + (c->xlabel ? 18 : 0) + 8;

	svg_open(&w, "history", height, c);
	svg_axis_y(&w, &ya, yt, left, right, 14, c->ylabel);
	/* The x axis: a line, and each point's name under it (every k-th). */
	fputs("<g class=\"axis x\">\n", w.out);
	fprintf(w.out, "<path stroke=\"#000000\" fill=\"none\" d=\"M%s %sH%s\"/>\n", svg_n(&w, left),
		svg_n(&w, bottom), svg_n(&w, right));
	for (size_t i = 0; i < n; i += every)
		svg_label(&w, "tick", left + dx * ((double)i + 0.5), bottom + 15, "middle",
			  pts[i].name ? pts[i].name : "", (size_t)(dx * (double)every / SVG_CHAR));
	if (c->xlabel)
		svg_label(&w, "label", (left + right) / 2, bottom + 32, "middle", c->xlabel, SVG_ALL);
	fputs("</g>\n", w.out);
	/* The steps first, under the points. */
	for (size_t k = 0; k < nsteps; k++) {
		double x = left + dx * (double)steps[k].at;
		const char *colour = steps[k].worse ? SVG_C_WORSE : SVG_C_BETTER;

		if (steps[k].at == 0 || steps[k].at >= n)
			continue;
		fprintf(w.out, "<line class=\"step\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\""
			" stroke-dasharray=\"6 3\" stroke-width=\"1.5\"/>\n", svg_n(&w, x),
			svg_n(&w, top - 10), svg_n(&w, x), svg_n(&w, bottom), colour);
		if (steps[k].label)
			svg_label(&w, "step", x, top - 13, "middle", steps[k].label, SVG_ALL);
	}
	/* A line through the levels, then each point with its whisker. */
	fprintf(w.out, "<path class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"1\" d=\"",
		SVG_GREY);
	for (size_t i = 0; i < n; i++)
		if (isfinite(pts[i].y)) {
			fprintf(w.out, "%s%s %s", first ? "M" : "L", svg_n(&w, left + dx * ((double)i + 0.5)),
				svg_n(&w, svg_pos(&ya, pts[i].y)));
			first = 0;
		}
	fputs("\"/>\n", w.out);
	for (size_t i = 0; i < n; i++) {
		double x = left + dx * ((double)i + 0.5);

		if (!isfinite(pts[i].y))
			continue;
		fputs("<g class=\"point\" data-name=\"", w.out);
		svg_text(&w, pts[i].name ? pts[i].name : "", SVG_ALL);
		fputs("\">\n", w.out);
		if (isfinite(pts[i].lo) && isfinite(pts[i].hi)) {
			fprintf(w.out, "<path class=\"whisker\" fill=\"none\" stroke=\"%s\" d=\"", svg_colours[0]);
			svg_whisker(&w, x, svg_pos(&ya, pts[i].lo), svg_pos(&ya, pts[i].hi), 0);
			fputs("\"/>\n", w.out);
		}
		svg_marker(&w, SVG_CIRCLE, x, svg_pos(&ya, pts[i].y), svg_colours[0], svg_colours[0], NULL);
		fputs("</g>\n", w.out);
	}
	rc = svg_close(&w);
	free(yt);
	return rc;
}

/*
 * Charts as inline SVG 1.1 for the HTML report (issue 17): the memory-latency
 * curve, compare's forest plot, grouped bars and one result's samples.  The
 * writers take plain arrays, so they know nothing of results or the
 * database, and they draw only: no script, no id (a page holds many charts,
 * and ids would clash), nothing fetched, no font but the page's.
 *
 * Output is deterministic: the same input gives the same bytes (coordinates
 * rounded to 0.01 px, no locale, no clock).  A value that cannot be drawn (NaN,
 * an infinity, a non-positive value on a log axis) is left out, never
 * written; a chart left with no point at all is not drawn, and a paragraph
 * <p class="nochart"> with the caller's reason stands in its place, so a page
 * never shows an empty frame or "NaN".  Text is XML-escaped; bytes that are
 * not UTF-8 and control characters become U+FFFD.
 *
 * Every chart is 720 units wide (its viewBox) and scales to the page's width
 * (width="100%").  Elements carry classes the page's CSS styles and tests
 * look for: svg.chart, g.axis, text.title, text.label, text.tick,
 * path.series (one per drawn series, data-series="NAME"), g.row (one per
 * forest row, data-name="NAME", data-verdict="* better" and so on), g.foot,
 * path.offscale and text.offscale (what lies beyond an axis), rect.bar,
 * line.mark, line.zero, line.median, path.replica-median, rect.band,
 * path.band, path.whisker, g.legend.  Fonts, sizes and
 * colours are set as presentation attributes, which the page's CSS overrides.
 * Colours come from a fixed palette (Okabe and Ito's, safe for colour
 * blindness) and each series also differs in dash and marker shape, so a
 * chart still reads when printed in grey.
 *
 * Each function returns 0, or -1 when writing failed (ferror on out) or
 * memory ran out; it never prints anything but the chart.
 */
#ifndef KB_REPORT_SVG_H
#define KB_REPORT_SVG_H

#include <stddef.h>
#include <stdio.h>

/* svg_chart.flags: the y axis of svg_curve is logarithmic (base 10). */
#define SVG_YLOG 1u
/* svg_chart.flags: svg_curve draws intervals as a band instead of whiskers. */
#define SVG_BAND 2u

/* What every chart has. */
struct svg_chart {
	const char *title;		/* drawn above the plot; NULL: none */
	const char *xlabel;		/* under the x axis ("size (bytes)"); NULL: none */
	const char *ylabel;		/* along the y axis ("ns"); NULL: none */
	/* The nochart paragraph's text when nothing can be drawn: why, as the
	   reader should see it ("no points: the figure failed"). */
	const char *empty;
	unsigned flags;			/* SVG_YLOG, SVG_BAND (svg_curve) */
};

/*
 * One line of svg_curve: n points in x order.  Any of lo, hi and missed may
 * be NULL (no intervals; no point missed).
 */
struct svg_series {
	const char *name;		/* legend text and data-series ("random") */
	size_t n;			/* points in each array */
	const double *x;		/* sizes in bytes: the x axis is their log2 */
	const double *y;		/* the figures (ns) */
	const double *lo, *hi;		/* each point's interval; both needed for it to show */
	/* Nonzero: the point missed its precision, and is drawn hollow. */
	const unsigned char *missed;
};

/* svg_mark.kind: how a vertical line got there, which sets its dash. */
enum svg_mark_kind {
	SVG_MARK_OS,			/* a cache size the OS reports: dashed */
	SVG_MARK_FOUND,			/* a level detected in the curve: dotted */
};

/* A vertical line across svg_curve's plot, labelled along it. */
struct svg_mark {
	double x;			/* where, in x's units (bytes) */
	const char *label;		/* "L1d 32K", "L2 found 512K" */
	enum svg_mark_kind kind;
};

/*
 * The memory-latency curve: x the log2 of a size, ticks at each octave in
 * the range the points span, labelled 4K 8K ... 1M ... 1G (every second one
 * when there are more than 24); y linear from 0, or by decades with
 * SVG_YLOG.  One path.series per series that has a point to draw, broken
 * where a point is left out; each point a marker of the series' shape,
 * hollow when it missed its precision (the legend then says so), with its
 * interval as a whisker or, with SVG_BAND, a band.  Marks outside the x
 * axis are left out.  A series with no point is not drawn and its legend
 * entry says "no points".
 */
int svg_curve(FILE *out, const struct svg_chart *c, const struct svg_series *series,
	      size_t nseries, const struct svg_mark *marks, size_t nmarks);

/*
 * A forest row's verdict: compare's, as its text marks it (report/compare.h
 * says which mark each is), never one the chart makes up.  The colour and
 * shape of each are the same on every page.
 */
enum svg_verdict {
	SVG_UNTOLD = 0,			/* unmarked: cannot tell (a hollow diamond) */
	SVG_BETTER,			/* * in the good direction (a filled circle) */
	SVG_WORSE,			/* * in the bad direction (a filled square) */
	SVG_CHANGED,			/* * without a direction (filled, black) */
	SVG_UNCHANGED,			/* =: inside the threshold (a hollow circle) */
	SVG_NOT_COMPARED,		/* ?: not compared (a cross) */
};

/* One row of svg_forest: a figure's change against the base. */
struct svg_row {
	const char *name;		/* "sys.null", at the row's left and in data-name */
	double ratio;			/* other / base: 1.10 is a change of +10% */
	double lo, hi;			/* the ratio's interval; NaN: none */
	enum svg_verdict verdict;	/* compare's, which sets shape, fill and colour */
	/* Shown in place of the point when ratio cannot be drawn ("failed");
	   NULL: "no figure". */
	const char *note;
};

/*
 * compare's forest plot: one g.row per row in the given order, its name at
 * the left and its change and mark at the right, the point with its
 * interval on a log-ratio axis symmetric about 0 (line.zero), ticks in
 * pairs at r and 1/r labelled with their change (+25% and -20%), so equal
 * distances are equal factors.  The axis spans the rows' typical changes,
 * not the largest: their upper quartile (at least 5%), widened to take in
 * every row within three times that; a row beyond it is drawn as a triangle
 * at the axis's end pointing out (path.offscale), its change written
 * beside it, and an interval that leaves the axis is cut at its end, so
 * that one change of +259% leaves the +-1% rows readable.  Each row's
 * shape, fill and colour say its verdict, and the legend names the marks.
 * The lines of foot (compare's closing line, "X against Y: gain 0.891x
 * ...") are written under the rows, set apart by a line.  xlabel goes
 * under the axis; ylabel is not used.
 */
int svg_forest(FILE *out, const struct svg_chart *c, const struct svg_row *rows, size_t nrows,
	       const char *const *foot, size_t nfoot);

/* One bar of svg_bars. */
struct svg_bar {
	/* The bar's label and colour: bars of the same name have the same
	   colour in every group, and the legend names them.  NULL: the bar is
	   labelled with its group's name. */
	const char *name;
	double value;			/* from 0: negative or not finite is not drawn */
	double lo, hi;			/* its interval, a whisker; NaN: none */
	const char *note;		/* shown for a bar not drawn; NULL: "no figure" */
};

/* A group of bars drawn together under the group's name. */
struct svg_bar_group {
	const char *name;		/* "2.5.47", "-j4"; NULL: no heading */
	size_t n;
	const struct svg_bar *bars;
};

/*
 * Horizontal bars (rect.bar) on an axis from 0, one row per bar, groups in
 * the given order and a gap between them, each bar's value written at its
 * end and its interval as a whisker.  xlabel names the value axis; ylabel
 * is not used.
 */
int svg_bars(FILE *out, const struct svg_chart *c, const struct svg_bar_group *groups,
	     size_t ngroups);

/* The samples of one result, for svg_strip. */
struct svg_samples {
	size_t n;
	const double *x;		/* time of each sample; NULL: its index, from 0 */
	const double *y;		/* the values */
	double median;			/* line.median; NaN: none */
	double lo, hi;			/* the median's interval, rect.band; NaN: none */
	/* Which replica took each sample, from 0: a column per replica, in
	   their order, and x is not used; NULL: none, x across the plot. */
	const int *group;
};

/*
 * A strip plot: each sample a dot, the median a line across, its interval
 * a band.  With groups, a column per replica (its number under it), its
 * samples in their order across it and their median a dark line across it
 * (path.replica-median), so that a replica that ran slow stands apart.  The y axis spans the samples'
 * typical range, not their extremes: those within three interquartile
 * ranges of the quartiles (and the median's band).  A sample beyond is
 * drawn as a triangle at the axis's end pointing out (path.offscale), one
 * per column and end, with how many it stands for and the farthest value
 * written beside it, so that one 5.5 us sample leaves the 0.57 us ones
 * readable.
 */
int svg_strip(FILE *out, const struct svg_chart *c, const struct svg_samples *s);

/* One point of svg_history: a label's (or run's) level and its interval. */
struct svg_point {
	const char *name;		/* the x axis's label under it, and data-name */
	double y;			/* the level; not finite: not drawn */
	double lo, hi;			/* its interval, a whisker; NaN: none */
};

/* A step of svg_history: between points at - 1 and at. */
struct svg_step {
	size_t at;
	const char *label;		/* written at its top ("+26.2%") */
	int worse;			/* the unit's bad way: the worse colour, else the better */
};

/*
 * A figure's history: the points evenly along x in their order, their
 * names under the axis (every k-th where there are more than 24), each a
 * marker on a linear y axis with its whisker, a line through them; each
 * step a dashed vertical line (line.step) between its two points, coloured
 * by its direction and labelled at the top.  xlabel under the names, ylabel
 * along y (the unit).
 */
int svg_history(FILE *out, const struct svg_chart *c, const struct svg_point *pts, size_t n,
		const struct svg_step *steps, size_t nsteps);

#endif

/*
 * Tests for src/report/svg.c, the HTML report's charts: each chart of known
 * input against a golden SVG file in tests/golden/ (the tests run from the
 * repository root), and the promises svg.h makes, checked on the text: one
 * path.series per series, no "nan" or "inf", a value that cannot be drawn
 * left out, a lone point drawn, the nochart paragraph when nothing can be,
 * the octave and percent tick labels, escaping, and the same bytes twice.
 *
 * After an intended change to a chart's look, regenerate the golden files
 * with
 *
 *     KBENCH_UPDATE_GOLDEN=1 <this test>
 *
 * and look at them in a browser before committing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/svg.h"
#include "golden.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---------------------------------------------------------------- helpers */

/* Compare text with tests/golden/NAME.svg, or rewrite it when asked to. */
static void check_golden(const char *name, const char *text)
{
	char file[128];

	snprintf(file, sizeof(file), "%s.svg", name);
	golden_check(file, text);
}

/* How often needle occurs in text. */
static int count(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* The part of text from the first `from` to the first `to` after it, malloc'd. */
static char *section(const char *text, const char *from, const char *to)
{
	const char *a = strstr(text, from), *b;
	char *s;

	if (!a)
		fail_msg("no %s in the output", from);
	b = strstr(a, to);
	if (!b)
		fail_msg("no %s after %s", to, from);
	s = strndup(a, (size_t)(b - a));
	assert_non_null(s);
	return s;
}

/* The tick labels of the x axis, space-separated, and their x positions. */
static void x_ticks(const char *text, char *labels, size_t size, double *xs, size_t *n)
{
	char *axis = section(text, "<g class=\"axis x\">", "</g>");
	const char *tag = "<text class=\"tick\" x=\"";

	labels[0] = '\0';
	*n = 0;
	for (const char *p = strstr(axis, tag); p; p = strstr(p + 1, tag)) {
		const char *gt = strchr(p, '>');
		size_t len = strcspn(gt + 1, "<");

		xs[(*n)++] = strtod(p + strlen(tag), NULL);
		if (labels[0])
			strncat(labels, " ", size - strlen(labels) - 1);
		strncat(labels, gt + 1, len < size - strlen(labels) - 1 ? len : size - strlen(labels) - 1);
	}
	free(axis);
}

/* Where needle (lowercase) occurs in text in any case; strcasestr is GNU's only. */
static const char *find_nocase(const char *text, const char *needle)
{
	size_t n = strlen(needle);

	for (; *text; text++)
		if (strncasecmp(text, needle, n) == 0)
			return text;
	return NULL;
}

/* No spelling of a number that is not one, in any case. */
static void assert_no_nan(const char *text)
{
	if (find_nocase(text, "nan"))
		fail_msg("\"nan\" in the output: %.40s", find_nocase(text, "nan"));
	if (find_nocase(text, "inf"))
		fail_msg("\"inf\" in the output: %.40s", find_nocase(text, "inf"));
}

/* ------------------------------------------------------------ fixtures */

/* Sizes 4K ... 1G, an octave apart. */
#define CURVE_N 19
static double curve_x[CURVE_N];

/* A latency curve of three levels and memory, scaled per series. */
static void curve_fill(double *y, double *lo, double *hi, double scale)
{
	for (size_t i = 0; i < CURVE_N; i++) {
		double x = curve_x[i];
		double ns = x <= 32768 ? 1.2 : x <= 524288 ? 4.1 : x <= 16777216 ? 13.5 : 88;

		y[i] = ns * scale;
		lo[i] = y[i] * 0.97;
		hi[i] = y[i] * 1.04;
	}
}

static double page_y[CURVE_N], page_lo[CURVE_N], page_hi[CURVE_N];
static double random_y[CURVE_N], random_lo[CURVE_N], random_hi[CURVE_N];
static double stride_y[CURVE_N], stride_lo[CURVE_N], stride_hi[CURVE_N];
static unsigned char random_missed[CURVE_N];

static const struct svg_mark curve_marks[] = {
	{ 32768, "L1d 32K", SVG_MARK_OS },
	{ 524288, "L2 512K", SVG_MARK_OS },
	{ 16777216, "L3 16M", SVG_MARK_OS },
	{ 524288, "L2 found 512K", SVG_MARK_FOUND },
	{ 12582912, "L3 found 12M", SVG_MARK_FOUND },
	{ 1024, "left out: below the points", SVG_MARK_OS },
};

static void curve_setup(struct svg_series *s)
{
	for (size_t i = 0; i < CURVE_N; i++)
		curve_x[i] = ldexp(1, 12 + (int)i);
	curve_fill(page_y, page_lo, page_hi, 1.0);
	curve_fill(random_y, random_lo, random_hi, 1.6);
	curve_fill(stride_y, stride_lo, stride_hi, 0.7);
	memset(random_missed, 0, sizeof(random_missed));
	random_missed[13] = random_missed[17] = 1;
	stride_y[9] = NAN;		/* a failed point: left out, the line broken */
	stride_lo[4] = NAN;		/* an interval without its lower end: no whisker */
	stride_hi[15] = INFINITY;
	s[0] = (struct svg_series){ "page", CURVE_N, curve_x, page_y, page_lo, page_hi, NULL };
	s[1] = (struct svg_series){ "random", CURVE_N, curve_x, random_y, random_lo, random_hi,
				    random_missed };
	s[2] = (struct svg_series){ "stride64", CURVE_N, curve_x, stride_y, stride_lo, stride_hi, NULL };
}

static const struct svg_chart curve_chart = {
	.title = "Memory latency (mem.lat)", .xlabel = "size (bytes)", .ylabel = "ns per load",
	.empty = "no points: the figure failed",
};

static char *curve_text(unsigned flags)
{
	struct svg_series s[3];
	struct svg_chart c = curve_chart;
	struct capture cap;

	curve_setup(s);
	c.flags = flags;
	assert_int_equal(svg_curve(capture_start(&cap), &c, s, 3, curve_marks, NELEM(curve_marks)), 0);
	return capture_end(&cap);
}

static const struct svg_row forest_rows[] = {
	{ "sys.null", 3.595, 3.57, 3.62, SVG_WORSE, NULL },
	{ "sys.read", 0.997, 0.99, 1.004, SVG_UNCHANGED, NULL },
	{ "sys.write", 0.993, 0.985, 1.001, SVG_UNCHANGED, NULL },
	{ "ctx.2p.0k none", 0.851, 0.84, 0.862, SVG_BETTER, NULL },
	{ "proc.fork", 1.014, 1.004, 1.024, SVG_UNTOLD, NULL },
	{ "ipc.rpc_udp.lat none", NAN, NAN, NAN, SVG_UNTOLD, "failed: no rpcbind" },
	{ "ipc.pipe.lat none <&\">", 1.255, 1.21, INFINITY, SVG_WORSE, NULL },
	{ "a figure whose name is far longer than any column holds", 1.0, 0.98, 1.02, SVG_UNCHANGED, NULL },
	{ "mem.lat.l2", 1.5, NAN, NAN, SVG_NOT_COMPARED, NULL },
};
/* The section's closing lines, compare's: written under the rows. */
static const char *const forest_foot[] = {
	"2.5.47-mm1 against 2.5.47: gain 0.891x (geometric mean, above 1 is better)",
	"0 better, 1 worse, 9 unchanged, 1 cannot tell",
};

static const struct svg_chart forest_chart = {
	.title = "Processor, processes: 2.5.47-mm1 against 2.5.47",
	.xlabel = "change against 2.5.47 (log scale)", .empty = "no figures compared",
};

static char *forest_text(const struct svg_row *rows, size_t n, const char *const *foot)
{
	struct capture cap;

	assert_int_equal(svg_forest(capture_start(&cap), &forest_chart, rows, n, foot, foot ? 2 : 0), 0);
	return capture_end(&cap);
}

static const struct svg_bar bars_a[] = {
	{ "no_load", 1.00, 0.98, 1.02, NULL },
	{ "cpu_load", 1.42, 1.38, 1.47, NULL },
	{ "io_load", 3.18, 2.90, 3.52, NULL },
};
static const struct svg_bar bars_b[] = {
	{ "no_load", 1.01, 0.99, 1.03, NULL },
	{ "cpu_load", 1.39, NAN, NAN, NULL },
	{ "io_load", NAN, NAN, NAN, "failed: the load died" },
	{ "mem_load", 2.2, 2.1, 2.3, NULL },
};
static const struct svg_bar_group bar_groups[] = {
	{ "2.5.47", NELEM(bars_a), bars_a },
	{ "2.5.47-mm1", NELEM(bars_b), bars_b },
};

static const struct svg_chart bars_chart = {
	.title = "contest: ratio to no_load", .xlabel = "ratio (smaller is better)",
	.empty = "no contest results",
};

static char *bars_text(void)
{
	struct capture cap;

	assert_int_equal(svg_bars(capture_start(&cap), &bars_chart, bar_groups, NELEM(bar_groups)), 0);
	return capture_end(&cap);
}

#define STRIP_N 40
static double strip_y[STRIP_N];

static char *strip_text(void)
{
	struct svg_samples s = { STRIP_N, NULL, strip_y, 0.5713, 0.5690, 0.5741, NULL };
	struct svg_chart c = { .title = "sys.null: samples", .xlabel = "sample",
			       .ylabel = "us", .empty = "no samples stored" };
	struct capture cap;
	uint32_t seed = 12345;

	/* A fixed generator, not rand(), so the golden file holds on every libc. */
	for (size_t i = 0; i < STRIP_N; i++) {
		seed = seed * 1103515245u + 12345u;
		strip_y[i] = 0.5713 + ((double)(seed >> 16 & 0x7fff) / 32768.0 - 0.5) * 0.012;
	}
	strip_y[7] = 0.6102;		/* an outlier */
	strip_y[20] = NAN;		/* a sample that cannot be drawn */
	assert_int_equal(svg_strip(capture_start(&cap), &c, &s), 0);
	return capture_end(&cap);
}

/*
 * A figure's history: five labels, a step up after the second (worse) and
 * down after the fourth (better), the third without an interval and one
 * level that cannot be drawn.
 */
static char *history_text(void)
{
	static const struct svg_point pts[] = {
		{ "6.18.9", 100, 98, 102 }, { "6.18.10", 101, 99, 103 }, { "6.19-rc1", 120, NAN, NAN },
		{ "6.19", 121, 118, 124 }, { "6.19.1", 104, 102, 106 }, { "6.20-rc1", NAN, NAN, NAN },
	};
	static const struct svg_step steps[] = { { 2, "+19.3%", 1 }, { 4, "-14.0%", 0 } };
	struct svg_chart c = { .title = "proc.fork", .xlabel = "label", .ylabel = "us",
			       .empty = "no point to draw" };
	struct capture cap;

	assert_int_equal(svg_history(capture_start(&cap), &c, pts, NELEM(pts), steps, NELEM(steps)),
			 0);
	return capture_end(&cap);
}

/* ---------------------------------------------------------------- golden */

static void test_history_golden(void **state)
{
	char *text = history_text();

	(void)state;
	check_golden("svg_history", text);
	assert_no_nan(text);
	/* A point a level drawn, a whisker where it has an interval, a dashed line a step. */
	assert_int_equal(count(text, "<g class=\"point\""), 5);
	assert_int_equal(count(text, "<path class=\"whisker\""), 4);
	assert_int_equal(count(text, "<line class=\"step\""), 2);
	assert_non_null(strstr(text, "stroke=\"#d55e00\" stroke-dasharray"));
	assert_non_null(strstr(text, "stroke=\"#0072b2\" stroke-dasharray"));
	free(text);
}

static void test_curve_golden(void **state)
{
	char *text = curve_text(0);

	(void)state;
	check_golden("svg_curve", text);
	assert_no_nan(text);
	free(text);
}

static void test_forest_golden(void **state)
{
	char *text = forest_text(forest_rows, NELEM(forest_rows), forest_foot);

	(void)state;
	check_golden("svg_forest", text);
	assert_no_nan(text);
	free(text);
}

static void test_bars_golden(void **state)
{
	char *text = bars_text();

	(void)state;
	check_golden("svg_bars", text);
	assert_no_nan(text);
	free(text);
}

static void test_strip_golden(void **state)
{
	char *text = strip_text();

	(void)state;
	check_golden("svg_strip", text);
	assert_no_nan(text);
	free(text);
}

/* ----------------------------------------------------------------- curve */

/* One path.series per series, named; every mark in range drawn, the one below left out. */
static void test_curve_elements(void **state)
{
	char *text = curve_text(0);

	(void)state;
	assert_int_equal(count(text, "<path class=\"series\""), 3);
	assert_int_equal(count(text, "data-series=\"page\""), 1);
	assert_int_equal(count(text, "data-series=\"random\""), 1);
	assert_int_equal(count(text, "data-series=\"stride64\""), 1);
	assert_int_equal(count(text, "<g class=\"axis x\">"), 1);
	assert_int_equal(count(text, "<g class=\"axis y\">"), 1);
	assert_int_equal(count(text, "<line class=\"mark os\""), 3);
	assert_int_equal(count(text, "<line class=\"mark found\""), 2);
	assert_null(strstr(text, "left out: below"));
	/* The two points that missed their precision, and the legend saying so. */
	assert_int_equal(count(text, "class=\"missed\""), 2);
	assert_non_null(strstr(text, "missed its precision"));
	assert_int_equal(strncmp(text, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39), 0);
	assert_non_null(strstr(text, "width=\"100%\""));
	assert_null(strstr(text, "<script"));
	assert_null(strstr(text, " id=\""));
	assert_null(strstr(text, "href"));
	assert_int_equal(count(text, "<svg"), 1);
	assert_int_equal(count(text, "</svg>"), 1);
	free(text);
}

/* The x axis of a 4K ... 1G curve is labelled at each octave, as sizes are written. */
static void test_curve_octaves(void **state)
{
	char *text = curve_text(0);
	char labels[512];
	double xs[64];
	size_t n;

	(void)state;
	x_ticks(text, labels, sizeof(labels), xs, &n);
	assert_string_equal(labels, "4K 8K 16K 32K 64K 128K 256K 512K 1M 2M 4M 8M 16M 32M 64M "
				    "128M 256M 512M 1G");
	/* An octave is the same width everywhere. */
	for (size_t i = 2; i < n; i++)
		assert_true(fabs((xs[i] - xs[i - 1]) - (xs[1] - xs[0])) < 0.02);
	free(text);
}

/* With more octaves than fit, every second is labelled; none is left out of the ticks. */
static void test_curve_many_octaves(void **state)
{
	static const double x[] = { 512, 1099511627776.0 };	/* 512 bytes to 1T: 32 octaves */
	static const double y[] = { 1, 100 };
	struct svg_series s = { "wide", 2, x, y, NULL, NULL, NULL };
	struct capture cap;
	char labels[512], *text;
	double xs[64];
	size_t n;

	(void)state;
	assert_int_equal(svg_curve(capture_start(&cap), &curve_chart, &s, 1, NULL, 0), 0);
	text = capture_end(&cap);
	x_ticks(text, labels, sizeof(labels), xs, &n);
	assert_string_equal(labels, "512 2K 8K 32K 128K 512K 2M 8M 32M 128M 512M 2G 8G 32G 128G "
				    "512G");
	free(text);
}

/* A NaN figure is left out and breaks the line; its neighbours still draw. */
static void test_curve_nan_point(void **state)
{
	static const double x[] = { 4096, 8192, 16384 };
	static const double y[] = { 1.5, NAN, 3.5 };
	static const double lo[] = { 1.4, 1.0, -INFINITY };
	static const double hi[] = { 1.6, 2.0, 3.7 };
	struct svg_series s = { "random", 3, x, y, lo, hi, NULL };
	struct capture cap;
	char *text, *path, *points, *whisker;

	(void)state;
	assert_int_equal(svg_curve(capture_start(&cap), &curve_chart, &s, 1, NULL, 0), 0);
	text = capture_end(&cap);
	assert_no_nan(text);
	path = section(text, "<path class=\"series\"", "/>");
	assert_int_equal(count(path, "M"), 2);
	assert_int_equal(count(path, "L"), 0);
	points = section(text, "<g class=\"points\"", "</g>");
	assert_int_equal(count(points, "<circle"), 2);
	/* The NaN point's interval, and the one with an infinite end, are not drawn. */
	whisker = section(text, "<path class=\"whisker\"", "/>");
	assert_int_equal(count(whisker, "V"), 1);
	free(whisker);
	free(points);
	free(path);
	free(text);
}

/* A curve of one point draws: one path, one marker, an axis of two octaves around it. */
static void test_curve_one_point(void **state)
{
	static const double x[] = { 65536 };
	static const double y[] = { 4.2 };
	struct svg_series s = { "page", 1, x, y, NULL, NULL, NULL };
	struct capture cap;
	char labels[512], *text, *points;
	double xs[64];
	size_t n;

	(void)state;
	assert_int_equal(svg_curve(capture_start(&cap), &curve_chart, &s, 1, NULL, 0), 0);
	text = capture_end(&cap);
	assert_no_nan(text);
	assert_int_equal(count(text, "<path class=\"series\""), 1);
	points = section(text, "<g class=\"points\"", "</g>");
	assert_int_equal(count(points, "<circle"), 1);
	x_ticks(text, labels, sizeof(labels), xs, &n);
	assert_string_equal(labels, "32K 64K 128K");
	free(points);
	free(text);
}

/* Nothing to draw: the caller's reason in a paragraph, no SVG at all. */
static void test_curve_all_nan(void **state)
{
	static const double x[] = { 4096, 0, -8192, NAN };
	static const double y[] = { NAN, 2, 3, 4 };
	struct svg_series s[2] = {
		{ "page", 4, x, y, NULL, NULL, NULL },
		{ "empty", 0, NULL, NULL, NULL, NULL, NULL },
	};
	struct capture cap;
	char *text;

	(void)state;
	assert_int_equal(svg_curve(capture_start(&cap), &curve_chart, s, 2, curve_marks,
				   NELEM(curve_marks)), 0);
	text = capture_end(&cap);
	assert_string_equal(text, "<p class=\"nochart\">no points: the figure failed</p>\n");
	free(text);
	/* No reason given: a plain one. */
	assert_int_equal(svg_curve(capture_start(&cap), &(struct svg_chart){ 0 }, s, 2, NULL, 0), 0);
	text = capture_end(&cap);
	assert_string_equal(text, "<p class=\"nochart\">no points</p>\n");
	free(text);
}

/* A series with no point is not drawn, and its legend entry says so. */
static void test_curve_empty_series(void **state)
{
	static const double x[] = { 4096, 8192 };
	static const double y[] = { 1, 2 };
	static const double bad[] = { NAN, INFINITY };
	struct svg_series s[2] = {
		{ "page", 2, x, y, NULL, NULL, NULL },
		{ "random", 2, x, bad, NULL, NULL, NULL },
	};
	struct capture cap;
	char *text;

	(void)state;
	assert_int_equal(svg_curve(capture_start(&cap), &curve_chart, s, 2, NULL, 0), 0);
	text = capture_end(&cap);
	assert_int_equal(count(text, "<path class=\"series\""), 1);
	assert_null(strstr(text, "data-series=\"random\""));
	assert_non_null(strstr(text, ">random (no points)</text>"));
	free(text);
}

/* On a log y axis, 0 and negative figures are left out, and the ticks are decades. */
static void test_curve_ylog(void **state)
{
	static const double x[] = { 4096, 8192, 16384, 32768 };
	static const double y[] = { 1.2, 0, -3, 95 };
	struct svg_series s = { "page", 4, x, y, NULL, NULL, NULL };
	struct svg_chart c = curve_chart;
	struct capture cap;
	char *text, *points, *axis;

	(void)state;
	c.flags = SVG_YLOG;
	assert_int_equal(svg_curve(capture_start(&cap), &c, &s, 1, NULL, 0), 0);
	text = capture_end(&cap);
	assert_no_nan(text);
	points = section(text, "<g class=\"points\"", "</g>");
	assert_int_equal(count(points, "<circle"), 2);
	axis = section(text, "<g class=\"axis y\">", "</g>");
	assert_non_null(strstr(axis, ">1</text>"));
	assert_non_null(strstr(axis, ">10</text>"));
	assert_non_null(strstr(axis, ">100</text>"));
	free(axis);
	free(points);
	free(text);
}

/* Bands instead of whiskers: one band per series, no whisker where the band reaches. */
static void test_curve_band(void **state)
{
	char *text = curve_text(SVG_BAND);

	(void)state;
	assert_no_nan(text);
	assert_int_equal(count(text, "<path class=\"band\""), 3);
	assert_int_equal(count(text, "<path class=\"series\""), 3);
	free(text);
}

/* Names are escaped, and text that is not UTF-8 or holds controls is replaced. */
static void test_curve_escapes(void **state)
{
	static const double x[] = { 4096, 8192 };
	static const double y[] = { 1, 2 };
	struct svg_series s = { "a<b>&\"c'\xff\n\xe2\x80\xae", 2, x, y, NULL, NULL, NULL };
	struct svg_mark m = { 4096, "L1 <&>", SVG_MARK_OS };
	struct svg_chart c = { .title = "T & <t>", .ylabel = "\"y\"" };
	struct capture cap;
	char *text;

	(void)state;
	assert_int_equal(svg_curve(capture_start(&cap), &c, &s, 1, &m, 1), 0);
	text = capture_end(&cap);
	assert_non_null(strstr(text, "data-series=\"a&lt;b&gt;&amp;&quot;c&#39;\xef\xbf\xbd\xef\xbf\xbd"
				     "\xef\xbf\xbd\""));
	assert_non_null(strstr(text, ">T &amp; &lt;t&gt;</text>"));
	assert_non_null(strstr(text, ">L1 &lt;&amp;&gt;</text>"));
	assert_non_null(strstr(text, ">&quot;y&quot;</text>"));
	assert_null(strstr(text, "\xff"));
	assert_null(strstr(text, "<b>"));
	free(text);
}

/* ---------------------------------------------------------------- forest */

/* One g.row per figure, the failed one too, with its note; compare's closing lines under them. */
static void test_forest_rows(void **state)
{
	char *text = forest_text(forest_rows, NELEM(forest_rows), forest_foot);

	(void)state;
	assert_int_equal(count(text, "<g class=\"row\""), (int)NELEM(forest_rows));
	assert_int_equal(count(text, "data-name=\"sys.null\""), 1);
	assert_int_equal(count(text, "data-name=\"ipc.pipe.lat none &lt;&amp;&quot;&gt;\""), 1);
	assert_non_null(strstr(text, ">failed: no rpcbind</text>"));
	assert_int_equal(count(text, "<g class=\"foot\">"), 1);
	assert_non_null(strstr(text, ">2.5.47-mm1 against 2.5.47: gain 0.891x (geometric mean, above 1 is better)</text>"));
	assert_non_null(strstr(text, ">0 better, 1 worse, 9 unchanged, 1 cannot tell</text>"));
	assert_int_equal(count(text, "<line class=\"zero\""), 1);
	/* Each row's verdict, compare's: its mark after the change, its name in data-verdict. */
	assert_int_equal(count(text, "data-verdict=\"* worse\""), 2);
	assert_int_equal(count(text, "data-verdict=\"* better\""), 1);
	assert_int_equal(count(text, "data-verdict=\"= unchanged\""), 3);
	assert_int_equal(count(text, "data-verdict=\"cannot tell (unmarked)\""), 2);
	assert_int_equal(count(text, "data-verdict=\"? not compared\""), 1);
	assert_non_null(strstr(text, ">-14.9% *</text>"));
	assert_non_null(strstr(text, ">-0.3% =</text>"));
	assert_non_null(strstr(text, ">+1.4%</text>"));
	assert_non_null(strstr(text, ">+50.0% ?</text>"));
	/* sys.null (+259.5%) is off the axis the others set: a triangle at its end, its change beside. */
	assert_int_equal(count(text, "<path class=\"offscale\""), 1);
	assert_non_null(strstr(text, "<text class=\"offscale\""));
	assert_non_null(strstr(text, ">+259.5%</text>"));
	assert_non_null(strstr(text, ">+259.5% *</text>"));
	/* Two marked rows filled (the one off the axis is a triangle); the rest hollow. */
	assert_int_equal(count(text, "class=\"point signif\""), 2);
	assert_int_equal(count(text, "class=\"point\""), 5);
	/* The long name cut, whole in its attribute. */
	assert_non_null(strstr(text, "data-name=\"a figure whose name is far longer than any column holds\""));
	assert_non_null(strstr(text, ">a figure whose nam\xe2\x80\xa6 any column holds</text>"));
	free(text);
}

/* The x of the point (or offscale triangle) of the row named name, and of the zero line. */
static double row_x(const char *text, const char *name)
{
	char needle[160];
	const char *p, *m;

	snprintf(needle, sizeof(needle), "data-name=\"%s\"", name);
	p = strstr(text, needle);
	assert_non_null(p);
	m = strstr(p, "class=\"point");
	/* The marker's centre: a circle's cx, else the path's M x (a diamond's top). */
	while (m > p && strncmp(m, "<circle", 7) != 0 && strncmp(m, "<path", 5) != 0 &&
	       strncmp(m, "<rect", 5) != 0)
		m--;
	if (strncmp(m, "<circle", 7) == 0)
		return strtod(strstr(m, "cx=\"") + 4, NULL);
	if (strncmp(m, "<rect", 5) == 0)
		return strtod(strstr(m, "x=\"") + 3, NULL) + 3;
	return strtod(strstr(m, "d=\"M") + 4, NULL);
}

static double zero_x(const char *text)
{
	const char *z = strstr(text, "<line class=\"zero\" x1=\"");

	assert_non_null(z);
	return strtod(z + strlen("<line class=\"zero\" x1=\""), NULL);
}

/*
 * One change of +259% among changes of +-1%, the names long and alike to
 * their last characters: the axis is the +-1% rows', each of them drawn
 * well away from 0 (a reader tells +0.8% from -0.5% at a glance), the
 * +259% row a triangle at the axis's right end with its change written
 * beside it.  An axis scaled to the largest change put every +-1% row
 * within a pixel or two of 0.
 */
static char *outlier_text(void)
{
	static const struct svg_row rows[] = {
		{ "sys.null on 6.19.0-rc1-next-20251201-a", 3.595, 3.57, 3.62, SVG_WORSE, NULL },
		{ "sys.read on 6.19.0-rc1-next-20251201-a", 0.997, 0.984, 1.007, SVG_UNCHANGED, NULL },
		{ "sys.write on 6.19.0-rc1-next-20251201-a", 0.993, 0.985, 1.008, SVG_UNCHANGED, NULL },
		{ "proc.fork on 6.19.0-rc1-next-20251201-a", 1.014, 1.001, 1.025, SVG_UNTOLD, NULL },
		{ "proc.exec on 6.19.0-rc1-next-20251201-a", 1.008, 0.994, 1.020, SVG_UNCHANGED, NULL },
		{ "proc.shell on 6.19.0-rc1-next-20251201-a", 0.995, 0.992, 0.998, SVG_UNCHANGED, NULL },
		{ "sig.catch on 6.19.0-rc1-next-20251201-b", 0.990, 0.982, 1.008, SVG_UNCHANGED, NULL },
	};
	static const char *const foot[] = {
		"6.19.0-rc1-next-20251201-b against 6.19.0-rc1-next-20251201-a: gain 0.891x "
		"(geometric mean, above 1 is better)",
		"0 better, 1 worse, 5 unchanged, 1 cannot tell",
	};
	struct capture cap;

	assert_int_equal(svg_forest(capture_start(&cap), &forest_chart, rows, NELEM(rows), foot, 2), 0);
	return capture_end(&cap);
}

static void test_forest_outlier(void **state)
{
	char *text = outlier_text(), labels[512];
	double xs[64], z;
	size_t n;

	(void)state;
	check_golden("svg_forest_outlier", text);
	assert_no_nan(text);
	/* The axis: the 5% floor, not +259%. */
	x_ticks(text, labels, sizeof(labels), xs, &n);
	assert_string_equal(labels, "-4.8% -2% -0.99% 0 +1% +2% +5%");
	assert_int_equal(count(text, "<path class=\"offscale\""), 1);
	assert_non_null(strstr(text, "font-weight=\"bold\">+259.5%</text>"));
	/* Each +-1% row at least 20 units (of 720) from 0, on its own side. */
	z = zero_x(text);
	assert_true(row_x(text, "proc.exec on 6.19.0-rc1-next-20251201-a") - z > 20);
	assert_true(z - row_x(text, "proc.shell on 6.19.0-rc1-next-20251201-a") > 15);
	assert_true(z - row_x(text, "sig.catch on 6.19.0-rc1-next-20251201-b") > 20);
	/* Names alike to their last characters, cut in the middle: their ends still tell them apart. */
	assert_non_null(strstr(text, ">sig.catch on 6.19.\xe2\x80\xa6" "1-next-20251201-b</text>"));
	/* compare's closing line whole, on two lines where the chart is too narrow for it. */
	assert_non_null(strstr(text, ">6.19.0-rc1-next-20251201-b against 6.19.0-rc1-next-20251201-a: gain 0.891x (geometric mean, above 1 is</text>"));
	assert_non_null(strstr(text, ">better)</text>"));
	free(text);
}

/* A change off the axis to the left: its triangle points left, at the axis's left end. */
static void test_forest_outlier_left(void **state)
{
	static const struct svg_row rows[] = {
		{ "a", 0.2, 0.18, 0.22, SVG_BETTER, NULL },
		{ "b", 1.01, 1.0, 1.02, SVG_UNCHANGED, NULL },
		{ "c", 0.99, 0.98, 1.0, SVG_UNCHANGED, NULL },
		{ "d", 1.004, 0.99, 1.02, SVG_UNCHANGED, NULL },
	};
	char *text = forest_text(rows, NELEM(rows), NULL);
	const char *tri = strstr(text, "<path class=\"offscale\"");

	(void)state;
	assert_non_null(tri);
	assert_non_null(strstr(tri, "l9 -5v10z"));
	assert_non_null(strstr(text, ">-80.0%</text>"));
	assert_null(strstr(text, "class=\"foot\""));
	free(text);
}

/*
 * The ticks come in pairs at r and 1/r about 0: their positions mirror each
 * other, the labels are -X% and +Y% with (1 - X/100)(1 + Y/100) = 1, and for
 * changes within -20%..+25% they are those of the list the axis picks from.
 */
static void test_forest_ticks(void **state)
{
	static const struct svg_row rows[] = {
		{ "a", 0.82, 0.80, 0.84, SVG_BETTER, NULL },
		{ "b", 1.2, 1.15, 1.25, SVG_WORSE, NULL },
	};
	char labels[512], *text, *p;
	double xs[64], pct[64];
	size_t n, i = 0;

	(void)state;
	text = forest_text(rows, NELEM(rows), NULL);
	x_ticks(text, labels, sizeof(labels), xs, &n);
	assert_string_equal(labels, "-20% -9.1% -4.8% 0 +5% +10% +25%");
	free(text);

	text = forest_text(forest_rows, NELEM(forest_rows), forest_foot);
	x_ticks(text, labels, sizeof(labels), xs, &n);
	assert_int_equal(n % 2, 1);
	for (p = strtok(labels, " "); p; p = strtok(NULL, " "))
		pct[i++] = strtod(p, NULL);
	assert_int_equal(i, n);
	assert_true(pct[n / 2] == 0);
	for (i = 0; i < n / 2; i++) {
		double a = pct[i], b = pct[n - 1 - i];

		assert_true(a < 0 && b > 0);
		assert_true(fabs((1 + a / 100) * (1 + b / 100) - 1) < 0.02);
		assert_true(fabs(xs[i] + xs[n - 1 - i] - 2 * xs[n / 2]) < 0.05);
	}
	free(text);
}

/* Tiny changes still get an axis of some width, and percent labels never say -100%. */
static void test_forest_extremes(void **state)
{
	static const struct svg_row tiny[] = { { "t", 1.0, 1.0, 1.0, SVG_UNCHANGED, NULL } };
	static const struct svg_row huge[] = { { "h", 2000, 1500, 2500, SVG_WORSE, NULL } };
	char labels[512], *text;
	double xs[64];
	size_t n;

	(void)state;
	text = forest_text(tiny, 1, NULL);
	x_ticks(text, labels, sizeof(labels), xs, &n);
	assert_string_equal(labels, "-4.8% -2% -0.99% 0 +1% +2% +5%");
	assert_no_nan(text);
	free(text);
	text = forest_text(huge, 1, NULL);
	x_ticks(text, labels, sizeof(labels), xs, &n);
	assert_string_equal(labels, "-99.9% -99% -90% 0 +900% +9900% +99900%");
	assert_no_nan(text);
	free(text);
}

/* No row drawable (and no mean): the paragraph. */
static void test_forest_nochart(void **state)
{
	static const struct svg_row rows[] = {
		{ "a", NAN, NAN, NAN, SVG_UNTOLD, NULL },
		{ "b", 0, 0, 0, SVG_UNTOLD, NULL },
		{ "c", -1, -2, 0, SVG_UNTOLD, NULL },
		{ "d", INFINITY, 1, 2, SVG_UNTOLD, NULL },
	};
	char *text;

	(void)state;
	text = forest_text(rows, NELEM(rows), NULL);
	assert_string_equal(text, "<p class=\"nochart\">no figures compared</p>\n");
	free(text);
	text = forest_text(NULL, 0, NULL);
	assert_string_equal(text, "<p class=\"nochart\">no figures compared</p>\n");
	free(text);
}

/* ------------------------------------------------------------------ bars */

static void test_bars_elements(void **state)
{
	char *text = bars_text();
	char labels[512];
	double xs[64];
	size_t n;

	(void)state;
	/* Every bar with a figure, and the failed one's reason. */
	assert_int_equal(count(text, "<rect class=\"bar\""), 6);
	assert_non_null(strstr(text, ">failed: the load died</text>"));
	assert_int_equal(count(text, "<g class=\"group\""), 2);
	assert_int_equal(count(text, "<text class=\"group\""), 2);
	/* A name has one legend entry and the same colour in each group. */
	assert_int_equal(count(text, ">io_load</text>"), 3);
	assert_int_equal(count(text, ">mem_load</text>"), 2);
	assert_int_equal(count(text, "fill=\"#009e73\"/>"), 2);	/* io_load's bar and swatch */
	assert_non_null(strstr(text, ">3.180</text>"));
	/* The axis starts at 0. */
	x_ticks(text, labels, sizeof(labels), xs, &n);
	assert_int_equal(strncmp(labels, "0 ", 2), 0);
	free(text);
}

/* Bars without names (calls/s per label): each labelled by its group, no heading, no legend. */
static void test_bars_unnamed(void **state)
{
	static const struct svg_bar a[] = { { NULL, 1253000, 1249000, 1258000, NULL } };
	static const struct svg_bar b[] = { { NULL, 987600, 981000, 990100, NULL } };
	static const struct svg_bar_group g[] = { { "2.5.47", 1, a }, { "2.5.47-mm1", 1, b } };
	struct svg_chart c = { .title = "rate.getppid", .xlabel = "calls/s" };
	struct capture cap;
	char *text;

	(void)state;
	assert_int_equal(svg_bars(capture_start(&cap), &c, g, NELEM(g)), 0);
	text = capture_end(&cap);
	assert_no_nan(text);
	assert_int_equal(count(text, "<rect class=\"bar\""), 2);
	assert_non_null(strstr(text, "<text class=\"name\" x=\"8\" y=\"47\">2.5.47</text>"));
	assert_non_null(strstr(text, ">1.4M</text>"));
	assert_null(strstr(text, "<text class=\"group\""));
	assert_null(strstr(text, "<g class=\"legend\""));
	assert_non_null(strstr(text, ">1253000</text>"));
	assert_null(strstr(text, "e+"));
	free(text);
}

static void test_bars_nochart(void **state)
{
	static const struct svg_bar bad[] = {
		{ "x", NAN, 1, 2, NULL }, { "y", -1, -2, 0, NULL }, { "z", INFINITY, 0, 0, NULL },
	};
	static const struct svg_bar_group g[] = { { "only", NELEM(bad), bad }, { "none", 0, NULL } };
	struct capture cap;
	char *text;

	(void)state;
	assert_int_equal(svg_bars(capture_start(&cap), &bars_chart, g, NELEM(g)), 0);
	text = capture_end(&cap);
	assert_string_equal(text, "<p class=\"nochart\">no contest results</p>\n");
	free(text);
}

/* ----------------------------------------------------------------- strip */

static void test_strip_elements(void **state)
{
	char *text = strip_text();
	char *path;

	(void)state;
	path = section(text, "<path class=\"samples\"", "/>");
	/* All but the sample that cannot be drawn and the outlier, which is off the axis. */
	assert_int_equal(count(path, "h0"), STRIP_N - 2);
	assert_int_equal(count(text, "<line class=\"median\""), 1);
	assert_int_equal(count(text, "<rect class=\"band\""), 1);
	assert_int_equal(count(text, "<path class=\"offscale\""), 1);
	assert_non_null(strstr(text, ">0.6102</text>"));
	free(path);
	free(text);
}

/*
 * 158 samples of four replicas of about 0.57 us, one of them 5.5 us: a
 * column per replica, in order, on an axis of the 0.57s (the outlier a
 * triangle at the top of its column, its value beside it), where an axis
 * to 5.5 put all 157 others on one line.
 */
static char *replicas_text(int *group, double *y, size_t n)
{
	struct svg_samples s = { n, NULL, y, 0.5713, 0.5702, 0.5724, group };
	struct svg_chart c = { .title = "sys.null: 158 samples in 4 replicas",
			       .xlabel = "replica, its samples in the order taken", .ylabel = "us" };
	struct capture cap;
	uint32_t seed = 4242;

	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		group[i] = (int)(i * 4 / n);
		/* The third replica a little slower: a step the columns show. */
		y[i] = 0.5713 * (group[i] == 2 ? 1.01 : 1) +
		       ((double)(seed >> 16 & 0x7fff) / 32768.0 - 0.5) * 0.004;
	}
	y[100] = 5.5;
	assert_int_equal(svg_strip(capture_start(&cap), &c, &s), 0);
	return capture_end(&cap);
}

static void test_strip_replicas(void **state)
{
	int group[158];
	double y[158], top = HUGE_VAL, bottom = -HUGE_VAL;
	char *text = replicas_text(group, y, 158), labels[256], *yaxis, *path, *cols, *meds;
	double my[4];
	size_t nm = 0;
	const char *tag = "<text class=\"tick\"";
	double xs[64];
	size_t n;

	(void)state;
	check_golden("svg_strip_replicas", text);
	assert_no_nan(text);
	/* A column per replica, numbered under it, and the lines between them. */
	x_ticks(text, labels, sizeof(labels), xs, &n);
	assert_string_equal(labels, "1 2 3 4");
	cols = section(text, "<path class=\"columns\"", "/>");
	assert_int_equal(count(cols, "M"), 3);
	/* The outlier off the axis, its value beside its triangle; the others drawn. */
	assert_int_equal(count(text, "<path class=\"offscale\""), 1);
	assert_non_null(strstr(text, ">5.500</text>"));
	path = section(text, "<path class=\"samples\"", "/>");
	assert_int_equal(count(path, "h0"), 157);
	/* The y axis spans the 0.57s: every tick between 0.5 and 1 us. */
	yaxis = section(text, "<g class=\"axis y\">", "</g>");
	for (const char *p = strstr(yaxis, tag); p; p = strstr(p + 1, tag)) {
		double v = strtod(strchr(p, '>') + 1, NULL);

		top = fmin(top, v);
		bottom = fmax(bottom, v);
	}
	assert_true(bottom < 1 && top > 0.5);
	/* Each replica's median a line across its column; the third's, 1% slower, above the others'. */
	meds = section(text, "<path class=\"replica-median\"", "/>");
	assert_int_equal(count(meds, "M"), 4);
	for (const char *p = strstr(meds, "d=\"") + 3; (p = strchr(p, 'M')) != NULL; p++)
		my[nm++] = strtod(strchr(p, ' ') + 1, NULL);
	assert_true(my[2] < my[0] - 10 && my[2] < my[1] - 10 && my[2] < my[3] - 10);
	free(meds);
	free(cols);
	free(path);
	free(yaxis);
	free(text);
}

static void test_strip_nochart(void **state)
{
	static const double y[] = { NAN, INFINITY };
	struct svg_samples s = { 2, NULL, y, 1, 0.9, 1.1, NULL };
	struct svg_chart c = { .empty = "no samples: the result was skipped" };
	struct capture cap;
	char *text;

	(void)state;
	assert_int_equal(svg_strip(capture_start(&cap), &c, &s), 0);
	text = capture_end(&cap);
	assert_string_equal(text, "<p class=\"nochart\">no samples: the result was skipped</p>\n");
	free(text);
}

/* One sample, all of one value, without a median: a chart of some height all the same. */
static void test_strip_one_sample(void **state)
{
	static const double y[] = { 7 };
	struct svg_samples s = { 1, NULL, y, NAN, NAN, NAN, NULL };
	struct svg_chart c = { .title = "one" };
	struct capture cap;
	char *text;

	(void)state;
	assert_int_equal(svg_strip(capture_start(&cap), &c, &s), 0);
	text = capture_end(&cap);
	assert_no_nan(text);
	assert_int_equal(count(text, "h0"), 1);
	assert_null(strstr(text, "class=\"median\""));
	assert_null(strstr(text, "class=\"band\""));
	free(text);
}

/* ---------------------------------------------------------------- common */

/* The same input, the same bytes: every chart drawn twice. */
static void test_deterministic(void **state)
{
	char *a[4] = { curve_text(SVG_BAND), forest_text(forest_rows, NELEM(forest_rows), forest_foot),
		       bars_text(), strip_text() };
	char *b[4] = { curve_text(SVG_BAND), forest_text(forest_rows, NELEM(forest_rows), forest_foot),
		       bars_text(), strip_text() };

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		assert_string_equal(a[i], b[i]);
		free(a[i]);
		free(b[i]);
	}
}

/* A stream that cannot be written: -1 from every chart, and from the paragraph. */
static void test_write_error(void **state)
{
	struct svg_series s[3];
	FILE *f = fopen("/dev/null", "r");
	static const double nan1[] = { NAN };
	struct svg_series none = { "x", 1, nan1, nan1, NULL, NULL, NULL };
	struct svg_samples smp = { 2, NULL, (const double[]){ 1, 2 }, 1.5, 1, 2, NULL };

	(void)state;
	assert_non_null(f);
	curve_setup(s);
	assert_int_equal(svg_curve(f, &curve_chart, s, 3, curve_marks, NELEM(curve_marks)), -1);
	clearerr(f);
	assert_int_equal(svg_curve(f, &curve_chart, &none, 1, NULL, 0), -1);
	clearerr(f);
	assert_int_equal(svg_forest(f, &forest_chart, forest_rows, NELEM(forest_rows), forest_foot, 2), -1);
	clearerr(f);
	assert_int_equal(svg_bars(f, &bars_chart, bar_groups, NELEM(bar_groups)), -1);
	clearerr(f);
	assert_int_equal(svg_strip(f, &curve_chart, &smp), -1);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_curve_golden),
		cmocka_unit_test(test_forest_golden),
		cmocka_unit_test(test_bars_golden),
		cmocka_unit_test(test_strip_golden),
		cmocka_unit_test(test_history_golden),
		cmocka_unit_test(test_curve_elements),
		cmocka_unit_test(test_curve_octaves),
		cmocka_unit_test(test_curve_many_octaves),
		cmocka_unit_test(test_curve_nan_point),
		cmocka_unit_test(test_curve_one_point),
		cmocka_unit_test(test_curve_all_nan),
		cmocka_unit_test(test_curve_empty_series),
		cmocka_unit_test(test_curve_ylog),
		cmocka_unit_test(test_curve_band),
		cmocka_unit_test(test_curve_escapes),
		cmocka_unit_test(test_forest_rows),
		cmocka_unit_test(test_forest_ticks),
		cmocka_unit_test(test_forest_extremes),
		cmocka_unit_test(test_forest_nochart),
		cmocka_unit_test(test_forest_outlier),
		cmocka_unit_test(test_forest_outlier_left),
		cmocka_unit_test(test_bars_elements),
		cmocka_unit_test(test_bars_unnamed),
		cmocka_unit_test(test_bars_nochart),
		cmocka_unit_test(test_strip_elements),
		cmocka_unit_test(test_strip_replicas),
		cmocka_unit_test(test_strip_nochart),
		cmocka_unit_test(test_strip_one_sample),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_write_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

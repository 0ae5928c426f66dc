/*
 * Figures and text as the reports put them in cells and lines
 * (report/num.c): lmbench's numbers, four significant digits, sizes in
 * bytes, and text from a run made safe for a terminal.  Every writer of
 * src/report/ formats through these.
 */
#ifndef KB_REPORT_FMT_H
#define KB_REPORT_FMT_H

#include <stddef.h>
#include <stdio.h>

/*
 * lmbench's number convention for a cell `width` characters wide: as many
 * significant digits as fit (0.57, 16.2, 691., 1434), then thousands with a
 * K suffix (12.K).  Never wider than width; buf needs width + 1 bytes.
 */
void report_num(char *buf, int width, double v);
/*
 * Four significant digits, keeping trailing zeros but not a bare point:
 * "7.500", "2374"; whole numbers from 10000 on, never an exponent.  For
 * notes and lines, where a figure need not fit a column.
 */
void report_fig(char *buf, size_t size, double v);
/*
 * A size in bytes as people write it, binary multiples: 512, 1K, 1.5K,
 * 32K, 128M; decimals dropped, last first, until it fits maxw characters.
 */
void report_size(char *buf, size_t size, double bytes, int maxw);
/*
 * text from column indent, where the caller left its line, its words one
 * blank apart and broken before REPORT_COLS columns onto lines indented as
 * much; then a newline.  For help and listings that keep to mail's width.
 */
#define REPORT_COLS 80
void report_wrap(FILE *out, int indent, const char *text);
/* The same from column col, where the caller left its line, lines after it indented indent. */
void report_wrap_at(FILE *out, int col, int indent, const char *text);

/*
 * Text that came from a run (a label, a host, a reason: typed by a user,
 * or read from someone else's export) as it is safe to show on a terminal,
 * into buf (size bytes): control characters and bytes that are not UTF-8
 * escaped (\n, \x1b, \u202e; see utf8_escape), cut to width columns and
 * padded with spaces to width columns by what each character takes on the
 * screen ("é" one, "カ" two), so a row stays one line and lines up.  align
 * > 0 pads on the left (right-aligned), < 0 on the right, 0 not at all;
 * width < 0 neither cuts nor pads.  Returns buf.
 */
const char *report_cell(char *buf, size_t size, const char *s, int width, int align);

#endif

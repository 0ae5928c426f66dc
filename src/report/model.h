/*
 * The table model: what a report shows, built once and rendered by each
 * writer (the text tables, the HTML page), so that a column added once
 * appears in both and the HTML cannot disagree with the text.
 *
 * A document is a list of tables; a table a title and its lines in order:
 * header lines of cells, the rule under them, rows of cells, lines that
 * head a group of rows (a placement) and notes, free text about a figure
 * that should not be taken at face value.  A cell carries the text the
 * text report prints, its width there and its alignment, and nothing a
 * writer could compute differently.  Building never fails half-way: out
 * of memory is remembered (doc->oom) and the writers say so.
 */
#ifndef KB_REPORT_MODEL_H
#define KB_REPORT_MODEL_H

#include <stddef.h>
#include <stdio.h>

enum rm_kind {
	RM_HEAD,	/* a line of column labels */
	RM_RULE,	/* the dashes under them: each cell its column's */
	RM_ROW,		/* a row of figures */
	RM_GROUP,	/* a line heading the rows below it ("placement same: ...") */
	RM_NOTE,	/* a note line under the table, as printed (its indent too) */
	RM_CONT,	/* the row above continued on a line of its own (AIM9's unit) */
	RM_PARA,	/* a paragraph, broken into lines (its '\n') where the text
			   breaks it and joined by the page (compare's legend) */
};

/* What a cell's figure is, which the text says in its notes and the HTML marks. */
enum {
	RM_NOISY = 1u << 0,	/* loose: missed its precision, and its interval is over
				   twice its run's typical one (text.c) */
	RM_BUSY = 1u << 1,	/* other work competed */
	RM_MISSING = 1u << 2,	/* failed or skipped */
	RM_SIGNIF = 1u << 3,	/* a significant change (compare's *) */
};

struct rm_cell {
	char *text;	/* as the text report prints it, escaped, not padded */
	int width;	/* its column's width there */
	int right;	/* right-aligned */
	unsigned flags;	/* RM_NOISY, ...: the notes under the table say why */
	int gap;	/* the text's spaces before it: 1, 0 for a mark glued to
			   its figure ("2.06!"), more to set a column apart */
	int span;	/* the page's columns it takes: 1, or more (a side's
			   heading, a "-" for a side's figure, mark, change and
			   marks); a glued cell (gap 0) is its figure's column */
};

struct rm_line {
	enum rm_kind kind;
	struct rm_cell *cells;	/* HEAD, RULE, ROW */
	size_t ncells;
	char *text;		/* GROUP, NOTE */
};

struct rm_table {
	char *title;		/* "" for none: a preamble of notes (compare's legend) */
	char *id;		/* a short name for the writers' anchors: "proc" */
	struct rm_line *lines;
	size_t nlines;
	int rule;		/* the dashes under the title: 0 as long as it */
	int plain;		/* a list, not a table: no dashes, no blank line after */
	int lead;		/* a blank line before the title (contest's blocks) */
};

struct rm_doc {
	struct rm_table *tables;
	size_t ntables;
	int oom;		/* something could not be added */
	int verbose;		/* every note on every figure (-v), not only the marks' */
};

/* A new table at the end of doc; the lines below go to it. */
void rm_table(struct rm_doc *doc, const char *id, const char *title);
/* The dashes under the last table's title, when not the title's length. */
void rm_rule(struct rm_doc *doc, int width);
/* The last table is a plain list of lines under its title (plain 1). */
void rm_plain(struct rm_doc *doc);
/* The last table's title has a blank line before it in the text (lead 1). */
void rm_lead(struct rm_doc *doc);
/* A new line of cells (HEAD, RULE or ROW) in the last table. */
void rm_line(struct rm_doc *doc, enum rm_kind kind);
/* A cell at the end of the last line. */
void rm_cell(struct rm_doc *doc, int width, int right, const char *text);
/* A figure's cell, right-aligned, as report_fig writes it; "-" when not finite. */
void rm_num(struct rm_doc *doc, int width, double v);
/* The last cell's spaces before it in the text (1 unless said). */
void rm_gap(struct rm_doc *doc, int gap);
/* The page's columns the last cell takes (1 unless said). */
void rm_span(struct rm_doc *doc, int span);
/* Flags on the last cell of the last line. */
void rm_flags(struct rm_doc *doc, unsigned flags);
/* A GROUP, NOTE, CONT or PARA line in the last table. */
void rm_text(struct rm_doc *doc, enum rm_kind kind, const char *text);
/*
 * The column at which the text ends cell (from 0) of the last line, as
 * rm_write_text writes it: where a line below can put a word under it.
 */
int rm_cell_end(const struct rm_doc *doc, size_t cell);
/* Each line of what a function printed into a memory stream, as a NOTE line. */
void rm_notes(struct rm_doc *doc, const char *printed);
void rm_doc_free(struct rm_doc *doc);
/* A cell's text without the padding the text aligns it with: malloc'd, NULL without memory. */
char *rm_trimmed(const char *s);
/* A PARA's text as one line, its line breaks spaces: malloc'd, NULL without memory. */
char *rm_joined(const char *s);

/*
 * The text writer: each table as the summary prints it, its title
 * underlined, cells padded to their widths and a blank line after it.
 */
void rm_write_text(FILE *out, const struct rm_doc *doc);

#endif

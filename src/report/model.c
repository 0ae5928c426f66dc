/*
 * The table model (report/model.h) and its text writer.
 */
#include "report/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "report/fmt.h"

static struct rm_table *last_table(struct rm_doc *doc)
{
	return doc->ntables ? &doc->tables[doc->ntables - 1] : NULL;
}

static struct rm_line *new_line(struct rm_doc *doc, enum rm_kind kind)
{
	struct rm_table *t = last_table(doc);
	struct rm_line *more;

	if (!t || doc->oom)
		return NULL;
	more = realloc(t->lines, (t->nlines + 1) * sizeof(*more));
	if (!more) {
		doc->oom = 1;
		return NULL;
	}
	t->lines = more;
	memset(&t->lines[t->nlines], 0, sizeof(t->lines[0]));
	t->lines[t->nlines].kind = kind;
	return &t->lines[t->nlines++];
}

void rm_table(struct rm_doc *doc, const char *id, const char *title)
{
	struct rm_table *more;

	if (doc->oom)
		return;
	more = realloc(doc->tables, (doc->ntables + 1) * sizeof(*more));
	if (!more) {
		doc->oom = 1;
		return;
	}
	doc->tables = more;
	memset(&doc->tables[doc->ntables], 0, sizeof(doc->tables[0]));
	doc->tables[doc->ntables].title = strdup(title);
	doc->tables[doc->ntables].id = strdup(id);
	if (!doc->tables[doc->ntables].title || !doc->tables[doc->ntables].id)
		doc->oom = 1;
	doc->ntables++;
}

void rm_rule(struct rm_doc *doc, int width)
{
	struct rm_table *t = last_table(doc);

	if (t)
		t->rule = width;
}

void rm_plain(struct rm_doc *doc)
{
	struct rm_table *t = last_table(doc);

	if (t)
		t->plain = 1;
}

void rm_lead(struct rm_doc *doc)
{
	struct rm_table *t = last_table(doc);

	if (t)
		t->lead = 1;
}

void rm_line(struct rm_doc *doc, enum rm_kind kind)
{
	new_line(doc, kind);
}

void rm_cell(struct rm_doc *doc, int width, int right, const char *text)
{
	struct rm_table *t = last_table(doc);
	struct rm_line *l;
	struct rm_cell *more;

	if (!t || !t->nlines || doc->oom)
		return;
	l = &t->lines[t->nlines - 1];
	more = realloc(l->cells, (l->ncells + 1) * sizeof(*more));
	if (!more) {
		doc->oom = 1;
		return;
	}
	l->cells = more;
	l->cells[l->ncells] = (struct rm_cell){ strdup(text), width, right, 0, 1, 1 };
	if (!l->cells[l->ncells].text)
		doc->oom = 1;
	l->ncells++;
}

void rm_num(struct rm_doc *doc, int width, double v)
{
	char cell[64];

	if (isfinite(v))
		report_fig(cell, sizeof(cell), v);
	else
		snprintf(cell, sizeof(cell), "-");
	rm_cell(doc, width, 1, cell);
}

static struct rm_cell *last_cell(struct rm_doc *doc)
{
	struct rm_table *t = last_table(doc);
	struct rm_line *l = t && t->nlines ? &t->lines[t->nlines - 1] : NULL;

	return l && l->ncells ? &l->cells[l->ncells - 1] : NULL;
}

void rm_gap(struct rm_doc *doc, int gap)
{
	struct rm_cell *c = last_cell(doc);

	if (c)
		c->gap = gap;
}

void rm_span(struct rm_doc *doc, int span)
{
	struct rm_cell *c = last_cell(doc);

	if (c)
		c->span = span;
}

void rm_flags(struct rm_doc *doc, unsigned flags)
{
	struct rm_cell *c = last_cell(doc);

	if (c)
		c->flags |= flags;
}

void rm_text(struct rm_doc *doc, enum rm_kind kind, const char *text)
{
	struct rm_line *l = new_line(doc, kind);

	if (l && !(l->text = strdup(text)))
		doc->oom = 1;
}

void rm_notes(struct rm_doc *doc, const char *printed)
{
	const char *p = printed;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = malloc(len + 1);

		if (!line) {
			doc->oom = 1;
			return;
		}
		memcpy(line, p, len);
		line[len] = '\0';
		rm_text(doc, RM_NOTE, line);
		free(line);
		p = nl ? nl + 1 : NULL;
	}
}

void rm_doc_free(struct rm_doc *doc)
{
	for (size_t t = 0; t < doc->ntables; t++) {
		struct rm_table *tb = &doc->tables[t];

		for (size_t i = 0; i < tb->nlines; i++) {
			for (size_t c = 0; c < tb->lines[i].ncells; c++)
				free(tb->lines[i].cells[c].text);
			free(tb->lines[i].cells);
			free(tb->lines[i].text);
		}
		free(tb->lines);
		free(tb->title);
		free(tb->id);
	}
	free(doc->tables);
	memset(doc, 0, sizeof(*doc));
}

char *rm_trimmed(const char *s)
{
	size_t len;

	while (*s == ' ')
		s++;
	len = strlen(s);
	while (len > 0 && s[len - 1] == ' ')
		len--;
	return strndup(s, len);
}

char *rm_joined(const char *s)
{
	char *j = strdup(s);

	for (char *p = j; p && *p; p++)
		if (*p == '\n')
			*p = ' ';
	return j;
}

/* A line of cells, each padded to its width, blanks at the end dropped. */
/* l's first upto cells as the text writes them, into line (2048 bytes); its length. */
static size_t cells_text(char *line, size_t size, const struct rm_line *l, size_t upto)
{
	size_t pos = 0;

	line[0] = '\0';
	for (size_t c = 0; c < l->ncells && c < upto && pos + 1 < size; c++) {
		for (int g = 0; pos > 0 && g < l->cells[c].gap && pos + 1 < size; g++)
			line[pos++] = ' ';
		int w = l->cells[c].width;

		/*
		 * A row's figure is never cut, since "0.0008841 +-8.9%" cut to its
		 * column reads "+-8.9": one wider pushes the rest of its line right.
		 */
		if (l->kind == RM_ROW && l->cells[c].right && w >= 0) {
			int cols = utf8_escape(line + pos, size - pos, l->cells[c].text, -1);

			w = cols > w ? cols : w;
		}
		report_cell(line + pos, size - pos, l->cells[c].text, w, l->cells[c].right ? 1 : -1);
		pos += strlen(line + pos);
	}
	return pos;
}

static void write_cells(FILE *out, const struct rm_line *l)
{
	/* A cell may take 4 bytes a column (UTF-8), and a line several. */
	char line[2048];
	size_t len;

	cells_text(line, sizeof(line), l, l->ncells);
	len = strlen(line);
	while (len > 0 && line[len - 1] == ' ')
		line[--len] = '\0';
	fprintf(out, "%s\n", line);
}

int rm_cell_end(const struct rm_doc *doc, size_t cell)
{
	const struct rm_table *tb = doc->ntables ? &doc->tables[doc->ntables - 1] : NULL;
	char line[2048];

	if (!tb || !tb->nlines)
		return 0;
	cells_text(line, sizeof(line), &tb->lines[tb->nlines - 1], cell + 1);
	return utf8_width(line);
}

void rm_write_text(FILE *out, const struct rm_doc *doc)
{
	for (size_t t = 0; t < doc->ntables; t++) {
		const struct rm_table *tb = &doc->tables[t];
		size_t tl;

		/* A table whose title could not be copied is one oom says is missing. */
		if (!tb->title || !tb->id)
			continue;
		tl = tb->rule > 0 ? (size_t)tb->rule : strlen(tb->title);

		if (tb->lead)
			fputc('\n', out);
		/* An untitled table is its lines alone. */
		if (tb->title[0])
			fprintf(out, "%s\n", tb->title);
		for (size_t i = 0; i < tl && !tb->plain; i++)
			fputc('-', out);
		if (!tb->plain && tb->title[0])
			fputc('\n', out);
		for (size_t i = 0; i < tb->nlines; i++) {
			const struct rm_line *l = &tb->lines[i];

			if (l->kind == RM_GROUP || l->kind == RM_CONT)
				fprintf(out, "%s\n", l->text);
			else if (l->kind == RM_NOTE || l->kind == RM_PARA)
				fprintf(out, "%s\n", l->text);
			else
				write_cells(out, l);
		}
		if (!tb->plain)
			fputc('\n', out);
	}
	if (doc->oom)
		fputs("(some tables not shown: out of memory)\n\n", out);
}

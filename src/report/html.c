/*
 * The HTML page (`--html`): one self-contained document on stdout, inline
 * CSS and inline SVG, no script to run and nothing fetched, so that it
 * opens from a file, goes by mail and prints on A4.  The tables are the
 * table model's (report/model.h), the same the text report prints, so the
 * two cannot disagree; the charts are drawn by report/svg.c; the data
 * shown is embedded as JSON for whoever wants it.  The same runs give the
 * same bytes: nothing here reads the clock or the machine.
 *
 * This file holds the pieces every page is made of (its head and CSS,
 * escaped text, the model's tables, a run's system, the embedded data);
 * pages.c puts summary's and show's together, compare.c compare's.  The
 * pieces call no report, so that every page can use them.
 */
#include "report/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/model.h"
#include "report/report.h"
#include "report/fmt.h"

/* Printed in the page and on A4: system fonts, figures in tabular digits. */
static const char html_css[] =
	"body{font-family:sans-serif;margin:1.5em;max-width:60em;color:#111}"
	"h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.6em}"
	"table{border-collapse:collapse;margin:.4em 0;font-size:.85em}"
	"th,td{padding:.15em .5em;border-bottom:1px solid #ccc;white-space:nowrap}"
	"th{text-align:left;background:#eee;vertical-align:bottom}"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}"
	"tr.group td{font-style:italic;background:#f6f6f6}"
	"tr.cont td{font-size:.85em;color:#555;border-bottom:1px solid #ccc}"
	"tr.row:has(+tr.cont) td{border-bottom:none}"
	"ul.notes{font-size:.8em;color:#444;margin:.2em 0 1em}"
	"p.warn{color:#8a4b00;margin:.2em 0}"
	"table.sys th{background:none;font-weight:normal;color:#555}"
	/* A column per label: long labels and values wrap, so that the table fits the page. */
	"table.sys td,table.sys th.label{white-space:normal;overflow-wrap:anywhere}"
	"table.sys th.label{color:#111;font-weight:bold}tr.differs th,tr.differs td{background:#fff4e0}"
	"svg{width:100%;height:auto;max-width:60em}"
	"p.nochart{font-style:italic;color:#555}"
	"sup.mark{color:#b00;font-weight:bold;padding-left:.1em}td.noisy,td.missing{background:#fff4e0}"
	"p.legend{font-size:.8em;color:#444}td.sig{font-weight:bold}"
	/* Print: compare's three sides with their changes' intervals must fit A4's width. */
	"@media print{body{margin:0;max-width:none}h2{break-after:avoid}table,svg{break-inside:avoid}"
	"table.model{font-size:.75em}table.model th,table.model td{padding:.15em .25em}"
	/* A side's long name over its columns wraps rather than widen them past the paper. */
	"table.model th{white-space:normal;overflow-wrap:anywhere}}";

void report_html_text(FILE *out, const char *s)
{
	/* report_cell's escapes of a control character take at most 6 bytes. */
	size_t size = 6 * strlen(s) + 1;
	char *safe = malloc(size);

	if (!safe) {
		fputs("(out of memory)", out);
		return;
	}
	report_cell(safe, size, s, -1, 0);
	for (const char *p = safe; *p; p++)
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*p, out);
		}
	free(safe);
}

/*
 * A cell's text without the padding the text report aligns it with; a
 * newline in it is the text report's wrapping (whatever a label held was
 * escaped when the model was built), a space on a page.
 */
static void html_trimmed(FILE *out, const char *s)
{
	char *j = rm_joined(s), *t = j ? rm_trimmed(j) : NULL;

	free(j);

	if (!t) {
		fputs("(out of memory)", out);
		return;
	}
	report_html_text(out, t);
	free(t);
}

void report_html_begin(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
	report_html_text(out, title);
	fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", html_css);
	report_html_text(out, title);
	fputs("</h1>\n", out);
}

void report_html_end(FILE *out)
{
	fputs("</body>\n</html>\n", out);
}

/* A cell's marks: what its notes below say, at a glance. */
static void html_marks(FILE *out, unsigned f)
{
	if (f & RM_NOISY)
		fputs("<sup class=\"mark\" title=\"loose\">!</sup>", out);
	if (f & RM_BUSY)
		fputs("<sup class=\"mark\" title=\"busy\">b</sup>", out);
	if (f & RM_MISSING)
		fputs("<sup class=\"mark\" title=\"failed or skipped\">x</sup>", out);
}

static unsigned flags_of(const struct rm_line *l)
{
	unsigned f = 0;

	for (size_t c = 0; c < l->ncells; c++)
		f |= l->cells[c].flags;
	return f;
}

/* The legend of the marks a table used. */
static void html_legend(FILE *out, unsigned f)
{
	if (!f)
		return;
	fputs("<p class=\"legend\">", out);
	if (f & RM_NOISY)
		fputs("<sup class=\"mark\">!</sup> loose: its interval over twice its run's typical one ", out);
	if (f & RM_BUSY)
		fputs("<sup class=\"mark\">b</sup> busy: other work competed ", out);
	if (f & RM_MISSING)
		fputs("<sup class=\"mark\">x</sup> failed or skipped ", out);
	fputs("(the notes above say which and why)</p>\n", out);
}

void report_html_table(FILE *out, const struct rm_doc *doc, size_t t,
		       void (*chart)(FILE *, const void *), const void *arg)
{
	const struct rm_table *tb = &doc->tables[t];
	size_t ncols = 0, cells = 0, same = 0;
	int notes = 0;
	unsigned marked = 0;

	if (!tb->title || !tb->id)
		return;
	for (size_t i = 0; i < tb->nlines; i++) {
		size_t n = 0;

		/* A cell takes span columns; a glued one is its figure's. */
		for (size_t c = 0; c < tb->lines[i].ncells; c++)
			if (c == 0 || tb->lines[i].cells[c].gap != 0)
				n += (size_t)tb->lines[i].cells[c].span;
		if (n > ncols)
			ncols = n;
		cells += tb->lines[i].kind == RM_ROW;
	}
	/* An id a table shares with earlier ones (AIM9's, a block per label) gets -N. */
	for (size_t u = 0; u < t; u++)
		same += doc->tables[u].id && strcmp(doc->tables[u].id, tb->id) == 0;
	/* An untitled table (compare's legend) has no heading to anchor. */
	if (tb->title[0]) {
		fputs("<h2 id=\"", out);
		report_html_text(out, tb->id);
		if (same)
			fprintf(out, "-%zu", same + 1);
		fputs("\">", out);
		report_html_text(out, tb->title);
		fputs("</h2>\n", out);
	}
	if (chart)
		chart(out, arg);
	for (size_t i = 0; i < tb->nlines; i++) {
		char *para;

		if (tb->lines[i].kind != RM_PARA)
			continue;
		fputs("<p class=\"legend\">", out);
		if ((para = rm_joined(tb->lines[i].text)) != NULL)
			report_html_text(out, para);
		else
			fputs("(out of memory)", out);
		free(para);
		fputs("</p>\n", out);
	}
	/* A plain list (Other results) is its notes alone. */
	for (size_t i = 0; cells && i < tb->nlines; i++) {
		const struct rm_line *l = &tb->lines[i];

		if (i == 0) {
			fputs("<table class=\"model\" data-table=\"", out);
			report_html_text(out, tb->id);
			fputs("\">\n", out);
		}
		switch (l->kind) {
		case RM_HEAD:
			fputs("<tr>", out);
			for (size_t c = 0; c < l->ncells; c++) {
				if (l->cells[c].span > 1)
					fprintf(out, "<th colspan=\"%d\">", l->cells[c].span);
				else
					fputs("<th>", out);
				html_trimmed(out, l->cells[c].text);
				fputs("</th>", out);
			}
			fputs("</tr>\n", out);
			break;
		case RM_ROW:
			fputs("<tr class=\"row\">", out);
			for (size_t c = 0, g; c < l->ncells; c = g) {
				unsigned f = l->cells[c].flags;

				/* A cell glued to this one in the text (its ! mark) shares its td. */
				for (g = c + 1; g < l->ncells && l->cells[g].gap == 0; g++)
					f |= l->cells[g].flags;
				if (l->cells[c].span > 1)
					fprintf(out, "<td colspan=\"%d\"", l->cells[c].span);
				else
					fputs("<td", out);
				fprintf(out, " class=\"%s%s%s%s%s\">", l->cells[c].right ? "num" : "text",
					f & RM_NOISY ? " noisy" : "", f & RM_BUSY ? " busy" : "",
					f & RM_MISSING ? " missing" : "", f & RM_SIGNIF ? " sig" : "");
				for (size_t k = c; k < g; k++)
					html_trimmed(out, l->cells[k].text);
				html_marks(out, f);
				fputs("</td>", out);
			}
			fputs("</tr>\n", out);
			marked |= flags_of(l) & (RM_NOISY | RM_BUSY | RM_MISSING);
			break;
		case RM_GROUP:
			/* A blank one parts blocks of columns in the text; a table needs none. */
			if (!l->text[0])
				break;
			fprintf(out, "<tr class=\"group\"><td colspan=\"%zu\">", ncols ? ncols : 1);
			html_trimmed(out, l->text);
			fputs("</td></tr>\n", out);
			break;
		case RM_CONT:
			fprintf(out, "<tr class=\"cont\"><td></td><td colspan=\"%zu\">",
				ncols > 1 ? ncols - 1 : 1);
			html_trimmed(out, l->text);
			fputs("</td></tr>\n", out);
			break;
		case RM_RULE:
		case RM_NOTE:
		case RM_PARA:
			break;
		}
	}
	if (cells)
		fputs("</table>\n", out);
	for (size_t i = 0; i < tb->nlines; i++) {
		if (tb->lines[i].kind != RM_NOTE)
			continue;
		if (!notes++)
			fputs("<ul class=\"notes\">\n", out);
		fputs("<li>", out);
		html_trimmed(out, tb->lines[i].text);
		fputs("</li>\n", out);
	}
	if (notes)
		fputs("</ul>\n", out);
	html_legend(out, marked);
}

void report_html_tables(FILE *out, const struct rm_doc *doc)
{
	for (size_t t = 0; t < doc->ntables; t++)
		report_html_table(out, doc, t, NULL, NULL);
	if (doc->oom)
		fputs("<p class=\"warn\">Some tables are not shown: out of memory.</p>\n", out);
}

/* One row of the system table: a label and a value, when there is one. */
static void sys_row(FILE *out, const char *name, const char *value)
{
	if (!value || !value[0])
		return;
	fputs("<tr><th>", out);
	report_html_text(out, name);
	fputs("</th><td>", out);
	report_html_text(out, value);
	fputs("</td></tr>\n", out);
}

/* The fields of a system table, in its order. */
enum { SYS_HOST, SYS_STARTED, SYS_RUNS, SYS_OS, SYS_CPU, SYS_CPUS, SYS_MHZ, SYS_CLOCK, SYS_VIRT,
       SYS_GOVERNOR, SYS_LOAD, SYS_BUILT, SYS_NFIELDS };

static const char *const sys_names[SYS_NFIELDS] = {
	"Host", "Started", "Runs", "OS and release", "CPU", "CPUs", "Measured MHz", "Clock source",
	"Virtualisation", "Governor", "Load average", "Built with",
};

/* One run's (or label's) system: a value per field, "" for none. */
struct sys_values {
	char v[SYS_NFIELDS][256];
	char *warn;		/* the warnings the text report prints, malloc'd, or NULL */
};

static void sys_values(const struct run_info *run, struct sys_values *sv)
{
	struct sysinfo si;
	size_t len = 0;
	FILE *mem;

	memset(sv, 0, sizeof(*sv));
	snprintf(sv->v[SYS_HOST], sizeof(sv->v[0]), "%s", run->host);
	snprintf(sv->v[SYS_STARTED], sizeof(sv->v[0]), "%s", run->started);
	if (run->nmerged > 1)
		snprintf(sv->v[SYS_RUNS], sizeof(sv->v[0]), "%zu runs of this label, merged", run->nmerged);
	if (report_sysinfo_parse(run->sysinfo_json, &si) < 0) {
		snprintf(sv->v[SYS_OS], sizeof(sv->v[0]), "%s", run->os);
		return;
	}
	snprintf(sv->v[SYS_OS], sizeof(sv->v[0]), "%s %s %s", si.os, si.release, si.arch);
	snprintf(sv->v[SYS_CPU], sizeof(sv->v[0]), "%s", si.cpu_model);
	snprintf(sv->v[SYS_CPUS], sizeof(sv->v[0]), "%d online", si.ncpu_online);
	if (run->mhz > 0 || si.mhz > 0)
		snprintf(sv->v[SYS_MHZ], sizeof(sv->v[0]), "%.0f", run->mhz > 0 ? run->mhz : si.mhz);
	snprintf(sv->v[SYS_CLOCK], sizeof(sv->v[0]), "%s", si.clocksource);
	snprintf(sv->v[SYS_VIRT], sizeof(sv->v[0]), "%s", si.virt[0] ? si.virt : "none found");
	snprintf(sv->v[SYS_GOVERNOR], sizeof(sv->v[0]), "%s", si.governor[0] ? si.governor : "none");
	snprintf(sv->v[SYS_LOAD], sizeof(sv->v[0]), "%.2f %.2f %.2f", si.loadavg[0], si.loadavg[1],
		 si.loadavg[2]);
	snprintf(sv->v[SYS_BUILT], sizeof(sv->v[0]), "%s", si.compiler);
	if ((mem = open_memstream(&sv->warn, &len)) == NULL)
		return;
	sysinfo_warn(&si, mem);
	if (fclose(mem) != 0 || (sv->warn && !sv->warn[0])) {
		free(sv->warn);
		sv->warn = NULL;
	}
}

/* The warnings, each a paragraph. */
static void sys_warnings(FILE *out, char *warn)
{
	for (char *line = warn ? strtok(warn, "\n") : NULL; line; line = strtok(NULL, "\n")) {
		fputs("<p class=\"warn\">", out);
		report_html_text(out, line);
		fputs("</p>\n", out);
	}
}

void report_html_system(FILE *out, const struct run_info *run)
{
	struct sys_values *sv = malloc(sizeof(*sv));

	fputs("<h2>", out);
	report_html_text(out, run->label);
	fputs("</h2>\n<table class=\"sys\">\n", out);
	if (!sv) {
		fputs("</table>\n<p class=\"warn\">The system is not shown: out of memory.</p>\n", out);
		return;
	}
	sys_values(run, sv);
	for (size_t f = 0; f < SYS_NFIELDS; f++)
		sys_row(out, sys_names[f], sv->v[f]);
	fputs("</table>\n", out);
	sys_warnings(out, sv->warn);
	free(sv->warn);
	free(sv);
}

/* Whether warn holds the line line (len bytes) as one of its lines. */
static int sys_has(const char *warn, const char *line, size_t len)
{
	for (const char *p = warn; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (strncmp(p, line, len) == 0 && (p[len] == '\n' || p[len] == '\0'))
			return 1;
	return 0;
}

/* Whether a row before k said the line already (with k's, among its labels). */
static int sys_said(const struct sys_values *sv, size_t k, const char *line, size_t len)
{
	for (size_t j = 0; j < k; j++)
		if (sys_has(sv[j].warn, line, len))
			return 1;
	return 0;
}

/* The first len bytes of s, as report_html_text writes them. */
static void html_text_n(FILE *out, const char *s, size_t len)
{
	char *t = strndup(s, len);

	report_html_text(out, t ? t : "(out of memory)");
	free(t);
}

/* The labels the Systems table has a column for; more are counted after it. */
#define HTML_SYS_MAX 16

void report_html_systems(FILE *out, const struct run_info *rows, size_t nrows)
{
	size_t all = nrows;

	/* A column a label reads across a screen for a few; thousands, a page no one reads. */
	nrows = nrows > HTML_SYS_MAX ? HTML_SYS_MAX : nrows;
	struct sys_values *sv = calloc(nrows ? nrows : 1, sizeof(*sv));

	if (nrows == 1 || !sv) {
		free(sv);
		for (size_t k = 0; k < nrows; k++)
			report_html_system(out, &rows[k]);
		return;
	}
	for (size_t k = 0; k < nrows; k++)
		sys_values(&rows[k], &sv[k]);
	fputs("<h2 id=\"systems\">Systems</h2>\n<table class=\"sys\">\n<tr><th></th>", out);
	for (size_t k = 0; k < nrows; k++) {
		int shared = 0;

		/* Runs of one label (summary --each) are told apart by their ids. */
		for (size_t j = 0; j < nrows && !shared; j++)
			shared = j != k && strcmp(rows[j].label, rows[k].label) == 0;
		fputs("<th class=\"label\">", out);
		report_html_text(out, rows[k].label);
		if (shared)
			fprintf(out, " (run %lld)", (long long)rows[k].id);
		fputs("</th>", out);
	}
	fputs("</tr>\n", out);
	/* A field no row has is left out; one the rows differ in is marked, as it may explain a change. */
	for (size_t f = 0; f < SYS_NFIELDS; f++) {
		int any = 0, differ = 0;

		for (size_t k = 0; k < nrows; k++) {
			any |= sv[k].v[f][0] != '\0';
			differ |= strcmp(sv[k].v[f], sv[0].v[f]) != 0;
		}
		/* When each run started always differs; so do a label's merged runs. */
		if (f == SYS_STARTED || f == SYS_RUNS || f == SYS_LOAD)
			differ = 0;
		if (!any)
			continue;
		fprintf(out, "<tr%s><th>", differ ? " class=\"differs\"" : "");
		report_html_text(out, sys_names[f]);
		fputs("</th>", out);
		for (size_t k = 0; k < nrows; k++) {
			fputs("<td>", out);
			report_html_text(out, sv[k].v[f]);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	if (all > nrows)
		fprintf(out, "<p class=\"note\">The first %zu of %zu; summary --json describes each "
			"one's system.</p>\n", nrows, all);
	/* Each warning once, after the labels it is of: most are every label's. */
	for (size_t k = 0; k < nrows; k++)
		for (char *line = sv[k].warn, *nl; line && *line; line = nl ? nl + 1 : NULL) {
			size_t len;

			nl = strchr(line, '\n');
			len = nl ? (size_t)(nl - line) : strlen(line);
			if (!len || sys_said(sv, k, line, len))
				continue;
			fputs("<p class=\"warn\">", out);
			for (size_t j = k, n = 0; j < nrows; j++)
				if (j == k || sys_has(sv[j].warn, line, len)) {
					fputs(n++ ? ", " : "", out);
					report_html_text(out, rows[j].label);
				}
			fputs(": ", out);
			html_text_n(out, line, len);
			fputs("</p>\n", out);
		}
	for (size_t k = 0; k < nrows; k++)
		free(sv[k].warn);
	free(sv);
}

/* The most JSON a page embeds: a hundred runs with their samples take about 2 MiB. */
#define HTML_DATA_MAX (8 << 20)

void report_html_data(FILE *out, int (*write)(FILE *, const void *), const void *arg)
{
	char *json = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&json, &len);

	if (!mem)
		return;
	if (write(mem, arg) < 0 || fclose(mem) != 0) {
		if (json)
			free(json);
		return;
	}
	/* A page of thousands of runs is carried by a browser, not by its data: --json has it. */
	if (len > HTML_DATA_MAX) {
		fprintf(out, "<p class=\"note\">The page's data, %.0f MiB of JSON, is not in it: more "
			"than the %d MiB a page carries. The same command with --json writes it.</p>\n",
			(double)len / (1 << 20), HTML_DATA_MAX >> 20);
		free(json);
		return;
	}
	/*
	 * Inert data, not a script, but the HTML parser still reads it: "</"
	 * would end the element early, and "<!--" followed by "<script" puts
	 * the parser in a state where "</script>" no longer ends it, so the
	 * page's data is lost.  JSON has '<' only inside strings, where
	 * \u003c means the same character: every one is written so.
	 */
	fputs("<script type=\"application/json\" id=\"kbench-data\">\n", out);
	for (const char *p = json; p && *p; p++) {
		if (*p == '<')
			fputs("\\u003c", out);
		else
			fputc(*p, out);
	}
	fputs("</script>\n", out);
	free(json);
}

/*
 * Text reports for people: lmbench's summary tables, the notes that say
 * which figures to distrust and why, `kbench sysinfo` and `kbench list`.
 * Everything here reads results and prints; nothing measures, nothing
 * touches the database.  Tables stay within 80 columns so they survive
 * being pasted into mail.
 */
#include "report/report.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Widest table line; lmbench's tables fit an 80-column terminal. */
#define LINE_MAX_COLS 80

/* ------------------------------------------------------------------ */
/* Summary tables                                                      */
/* ------------------------------------------------------------------ */

struct table_col;

/* What a row shows: one run's results under one placement. */
struct row {
	const struct run_info *run;
	enum placement place;	/* PLACE_NA for a table of single-process figures */
};

/* Writes one cell's text (at most col->width characters) into buf. */
typedef void (*cell_fn)(const struct table_col *col, const struct row *row, char *buf);

/*
 * One column of a summary table.  A column made of results names them in
 * ids; those ids are also the figures the notes under the table speak
 * about.  A column that is not a result (Mhz) has no ids.
 */
struct table_col {
	const char *h1, *h2;	/* two header lines, as lmbench prints them */
	int width;		/* cell width; figures are right-aligned in it */
	int head_right;		/* right-align the header labels too */
	const char *ids[3];	/* results the cell is made of, NULL-terminated */
	cell_fn cell;		/* NULL: the median of ids[0] */
};

/*
 * One lmbench-style table.  Every table starts with the Host (9, left) and
 * OS (13, right-aligned) columns, so those are not listed in cols.
 */
struct table {
	const char *title;
	const struct table_col *cols;
	size_t ncols;
};

#define HOST_W 9
#define OS_W 13

static const struct result *find_result(const struct row *row, const char *id)
{
	for (size_t i = 0; i < row->run->nresults; i++)
		if (strcmp(row->run->results[i].id, id) == 0 &&
		    row->run->results[i].placement == row->place)
			return &row->run->results[i];
	return NULL;
}

/* A figure worth printing: measured, even if noisy.  Skip and fail are blank. */
static int result_usable(const struct result *r)
{
	return r && (r->status == RES_OK || r->status == RES_NOISY) && isfinite(r->median);
}

static void cell_median(const struct table_col *col, const struct row *row, char *buf)
{
	const struct result *r = find_result(row, col->ids[0]);

	buf[0] = '\0';
	if (result_usable(r))
		report_num(buf, col->width, r->median);
}

/* The mean of the medians of all ids, blank unless every one is usable. */
static void cell_mean(const struct table_col *col, const struct row *row, char *buf)
{
	double sum = 0;
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NELEM(col->ids) && col->ids[i]; i++) {
		const struct result *r = find_result(row, col->ids[i]);
		if (!result_usable(r))
			return;
		sum += r->median;
		n++;
	}
	if (n)
		report_num(buf, col->width, sum / (double)n);
}

/* The run's measured clock rate as a whole number; blank when unknown. */
static void cell_mhz(const struct table_col *col, const struct row *row, char *buf)
{
	buf[0] = '\0';
	if (row->run->mhz > 0 && isfinite(row->run->mhz))
		report_num(buf, col->width, round(row->run->mhz));
}

/*
 * lmbench 2's "Processor, Processes" table.  To add a column, add a row:
 * its two header words, its width (Host + OS + all columns, one space
 * between each, must stay within 80), the result ids it shows, and a cell
 * function if it is not simply the median of one id.
 */
static const struct table_col proc_cols[] = {
	{ "Mhz", "", 4, 1, { NULL }, cell_mhz },
	{ "null", "call", 4, 0, { "sys.null" }, NULL },
	/* lmbench's "null I/O" is the mean of a 1-byte read and write. */
	{ "null", "I/O", 4, 0, { "sys.read", "sys.write" }, cell_mean },
	{ "", "stat", 4, 0, { "sys.stat" }, NULL },
	{ "open", "clos", 4, 0, { "sys.open_close" }, NULL },
	{ "slct", "TCP", 4, 0, { "sys.select_tcp" }, NULL },
	{ "sig", "inst", 4, 0, { "sig.install" }, NULL },
	{ "sig", "hndl", 4, 0, { "sig.catch" }, NULL },
	{ "fork", "proc", 4, 0, { "proc.fork" }, NULL },
	{ "exec", "proc", 4, 0, { "proc.exec" }, NULL },
	{ "sh", "proc", 4, 0, { "proc.shell" }, NULL },
};

static const struct table proc_table = {
	"Processor, Processes - times in microseconds - smaller is better",
	proc_cols, NELEM(proc_cols),
};

/* lmbench's context switch table: ring size / KiB summed per turn. */
static const struct table_col ctx_cols[] = {
	{ "2p/0K", "ctxsw", 6, 1, { "ctx.2p.0k" }, NULL },
	{ "2p/16K", "ctxsw", 6, 1, { "ctx.2p.16k" }, NULL },
	{ "2p/64K", "ctxsw", 6, 1, { "ctx.2p.64k" }, NULL },
	{ "8p/16K", "ctxsw", 6, 1, { "ctx.8p.16k" }, NULL },
	{ "8p/64K", "ctxsw", 6, 1, { "ctx.8p.64k" }, NULL },
	{ "16p/16K", "ctxsw", 7, 1, { "ctx.16p.16k" }, NULL },
	{ "16p/64K", "ctxsw", 7, 1, { "ctx.16p.64k" }, NULL },
};

static const struct table ctx_table = {
	"Context switching - times in microseconds - smaller is better",
	ctx_cols, NELEM(ctx_cols),
};

static const struct table_col lat_cols[] = {
	{ "2p/0K", "ctxsw", 5, 0, { "ctx.2p.0k" }, NULL },
	{ "Pipe", "", 5, 0, { "ipc.pipe.lat" }, NULL },
	{ "AF", "UNIX", 4, 0, { "ipc.unix.lat" }, NULL },
	{ "UDP", "", 5, 1, { "ipc.udp.lat" }, NULL },
	{ "RPC/", "UDP", 5, 1, { "ipc.rpc_udp.lat" }, NULL },
	{ "TCP", "", 5, 1, { "ipc.tcp.lat" }, NULL },
	{ "RPC/", "TCP", 5, 1, { "ipc.rpc_tcp.lat" }, NULL },
	{ "TCP", "conn", 4, 0, { "ipc.tcp.connect" }, NULL },
};

static const struct table lat_table = {
	"*Local* Communication latencies in microseconds - smaller is better",
	lat_cols, NELEM(lat_cols),
};

/* The file, mmap and memory columns of lmbench's table follow with their benchmarks. */
static const struct table_col bw_cols[] = {
	{ "Pipe", "", 4, 0, { "ipc.pipe.bw" }, NULL },
	{ "AF", "UNIX", 4, 0, { "ipc.unix.bw" }, NULL },
	{ "TCP", "", 4, 0, { "ipc.tcp.bw" }, NULL },
};

static const struct table bw_table = {
	"*Local* Communication bandwidths in MB/s - bigger is better",
	bw_cols, NELEM(bw_cols),
};

/* Drop trailing blanks (empty last cells, short last labels) and print. */
static void put_line(FILE *out, char *line)
{
	size_t len = strlen(line);

	while (len > 0 && line[len - 1] == ' ')
		line[--len] = '\0';
	fprintf(out, "%s\n", line);
}

/* Append at most width characters of s, padded to width, at *pos. */
static void put_cell(char *line, size_t size, size_t *pos, int width, int right,
		     const char *s)
{
	int n;

	if (*pos >= size)
		return;
	if (*pos > 0) {
		line[(*pos)++] = ' ';
		line[*pos] = '\0';
	}
	if (right)
		n = snprintf(line + *pos, size - *pos, "%*.*s", width, width, s);
	else
		n = snprintf(line + *pos, size - *pos, "%-*.*s", width, width, s);
	if (n > 0)
		*pos += (size_t)n < size - *pos ? (size_t)n : size - *pos - 1;
}

/* The first (second = 0) or second line of the column labels. */
static void header_labels(FILE *out, const struct table *t, int second)
{
	char line[256];
	size_t pos = 0;

	line[0] = '\0';
	put_cell(line, sizeof(line), &pos, HOST_W, 0, second ? "" : "Host");
	put_cell(line, sizeof(line), &pos, OS_W, 1, second ? "" : "OS");
	for (size_t i = 0; i < t->ncols; i++)
		put_cell(line, sizeof(line), &pos, t->cols[i].width, t->cols[i].head_right,
			 second ? t->cols[i].h2 : t->cols[i].h1);
	put_line(out, line);
}

static void table_header(FILE *out, const struct table *t)
{
	char line[256];
	size_t pos;

	fprintf(out, "%s\n", t->title);
	memset(line, '-', strlen(t->title));
	line[strlen(t->title) < sizeof(line) ? strlen(t->title) : sizeof(line) - 1] = '\0';
	fprintf(out, "%s\n", line);

	header_labels(out, t, 0);
	header_labels(out, t, 1);

	pos = 0;
	line[0] = '\0';
	{
		char dash[64];
		int w;

		for (size_t i = 0; i < t->ncols + 2; i++) {
			w = i == 0 ? HOST_W : i == 1 ? OS_W : t->cols[i - 2].width;
			if (w >= (int)sizeof(dash))
				w = (int)sizeof(dash) - 1;
			memset(dash, '-', (size_t)w);
			dash[w] = '\0';
			put_cell(line, sizeof(line), &pos, w, 0, dash);
		}
	}
	put_line(out, line);
}

static void table_row(FILE *out, const struct table *t, const struct row *row)
{
	const struct run_info *run = row->run;
	char line[256], cell[64];
	size_t pos = 0;

	line[0] = '\0';
	put_cell(line, sizeof(line), &pos, HOST_W, 0, run->host);
	/* lmbench right-aligns the OS, so a cut label keeps its start visible. */
	snprintf(cell, sizeof(cell), "%.*s", OS_W, run->label);
	put_cell(line, sizeof(line), &pos, OS_W, 1, cell);
	for (size_t i = 0; i < t->ncols; i++) {
		const struct table_col *c = &t->cols[i];
		int w = c->width < (int)sizeof(cell) ? c->width : (int)sizeof(cell) - 1;

		cell[0] = '\0';
		if (c->cell)
			c->cell(c, row, cell);
		else if (c->ids[0])
			cell_median(c, row, cell);
		put_cell(line, sizeof(line), &pos, w, 1, cell);
	}
	put_line(out, line);
}

/*
 * How a run is named in the notes: "run 12" by its store id; a run not
 * stored (--no-store) has no id, so its label names it instead.  Its place
 * in the list would read like an id and could name another run.
 */
static void run_name(const struct run_info *run, char *buf, size_t size)
{
	if (run->id > 0)
		snprintf(buf, size, "run %lld", (long long)run->id);
	else
		snprintf(buf, size, "run '%s'", run->label);
}

/*
 * Four significant digits, keeping trailing zeros but not a bare point:
 * "7.500", "2374"; whole numbers from 10000 on, never an exponent.
 */
static void fig(char *buf, size_t size, double v)
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

/* " [same]" after an id measured under a placement; "" otherwise. */
static const char *place_tag(const struct result *r)
{
	switch (r->placement) {
	case PLACE_SAME: return " [same]";
	case PLACE_SPREAD: return " [spread]";
	case PLACE_NONE: return " [none]";
	case PLACE_NA: return "";
	}
	return "";
}

/*
 * One note line for a figure that should not be taken at face value:
 * noisy (the CI missed the precision), busy (other work competed), failed
 * or skipped.  Returns 1 when a line was printed.
 */
static int note_result(FILE *out, const struct run_info *run, const struct result *r)
{
	char name[160];
	int lines = 0;

	run_name(run, name, sizeof(name));
	if (r->status == RES_SKIP || r->status == RES_FAIL) {
		fprintf(out, "  %s %s%s: %s: %s\n", name, r->id, place_tag(r),
			result_status_name(r->status), r->reason[0] ? r->reason : "no reason given");
		return 1;
	}
	/* Noisy and busy each get a line, so that a line stays within 80 columns. */
	if (r->status == RES_NOISY) {
		double hw = fmax(r->median - r->ci_low, r->ci_high - r->median);

		if (r->median > 0 && isfinite(hw / r->median))
			fprintf(out, "  %s %s%s: noisy: 95%% CI +-%.1f%% (stopped at %s)\n", name,
				r->id, place_tag(r), 100.0 * hw / r->median, result_stop_name(r->stop));
		else
			fprintf(out, "  %s %s%s: noisy: (stopped at %s)\n", name, r->id, place_tag(r),
				result_stop_name(r->stop));
		lines++;
	}
	if (result_busy(r)) {
		fprintf(out, "  %s %s%s: busy: other work used %.0f%% of the other CPUs\n", name,
			r->id, place_tag(r), 100.0 * r->interference);
		lines++;
	}
	return lines > 0;
}

/*
 * With --parallel the table shows the figure per copy; the note gives all
 * copies together, so contention between copies can be read off.
 */
static void note_parallel(FILE *out, const struct run_info *run, const struct result *r)
{
	char name[160], per[32], all[32];

	if (r->parallel <= 1 || !result_usable(r) || !isfinite(r->aggregate))
		return;
	run_name(run, name, sizeof(name));
	fig(per, sizeof(per), r->median);
	fig(all, sizeof(all), r->aggregate);
	/* Together: the copies' total rate, or the time per operation of all of them. */
	fprintf(out, "  %s %s%s: %d copies: %s %s each, together %s %s%s\n", name, r->id,
		place_tag(r), r->parallel, per, r->unit, all, r->unit,
		r->better == BETTER_HIGHER ? "" : "/op");
}

/* Whether the row has any figure of the table, usable or not. */
static int row_has_results(const struct table *t, const struct row *row)
{
	for (size_t i = 0; i < t->ncols; i++)
		for (size_t j = 0; j < NELEM(t->cols[i].ids) && t->cols[i].ids[j]; j++)
			if (find_result(row, t->cols[i].ids[j]))
				return 1;
	return 0;
}

static void table_notes(FILE *out, const struct table *t, const struct row *row)
{
	for (size_t i = 0; i < t->ncols; i++)
		for (size_t j = 0; j < NELEM(t->cols[i].ids) && t->cols[i].ids[j]; j++) {
			const struct result *r = find_result(row, t->cols[i].ids[j]);
			if (r) {
				note_result(out, row->run, r);
				note_parallel(out, row->run, r);
			}
		}
}

/* The order placements are shown in, and what each means. */
static const struct {
	enum placement place;
	const char *says;
} place_order[] = {
	{ PLACE_NA, NULL },
	{ PLACE_SAME, "placement same: each copy's processes share one CPU" },
	{ PLACE_SPREAD, "placement spread: neighbouring processes on different CPUs" },
	{ PLACE_NONE, "placement none: the scheduler chose the CPUs" },
};

/*
 * A table has a row per run that has any of its figures.  Figures between
 * processes are grouped by placement under a line that names it, since the
 * same pipe round trip is 8 or 55 us depending on it.  A table without a
 * single figure is left out.
 */
static void table_print(FILE *out, const struct table *t, const struct run_info *runs,
			size_t nruns)
{
	int header = 0;

	for (size_t p = 0; p < NELEM(place_order); p++) {
		int sub = 0;

		for (size_t k = 0; k < nruns; k++) {
			struct row row = { &runs[k], place_order[p].place };

			if (!row_has_results(t, &row))
				continue;
			if (!header++)
				table_header(out, t);
			if (!sub++ && place_order[p].says)
				fprintf(out, "%s\n", place_order[p].says);
			table_row(out, t, &row);
		}
	}
	for (size_t p = 0; p < NELEM(place_order); p++)
		for (size_t k = 0; k < nruns; k++) {
			struct row row = { &runs[k], place_order[p].place };
			table_notes(out, t, &row);
		}
	if (header)
		fputc('\n', out);
}

/* The tables of the summary, in lmbench's order. */
static const struct table *const summary_tables[] = {
	&proc_table, &ctx_table, &lat_table, &bw_table,
};

static int in_a_table(const char *id)
{
	for (size_t t = 0; t < NELEM(summary_tables); t++)
		for (size_t i = 0; i < summary_tables[t]->ncols; i++)
			for (size_t j = 0; j < NELEM(summary_tables[t]->cols[i].ids) && summary_tables[t]->cols[i].ids[j]; j++)
				if (strcmp(summary_tables[t]->cols[i].ids[j], id) == 0)
					return 1;
	return 0;
}

/*
 * Results that no table has a column for (sys.fstat, or a family whose
 * table does not exist yet) are listed after the tables, so that nothing
 * measured goes unshown.
 */
static void other_results(FILE *out, const struct run_info *runs, size_t nruns)
{
	int header = 0;
	char name[160];

	for (size_t k = 0; k < nruns; k++) {
		for (size_t i = 0; i < runs[k].nresults; i++) {
			const struct result *r = &runs[k].results[i];
			if (in_a_table(r->id))
				continue;
			if (!header++)
				fputs("Other results - median of the samples\n", out);
			if (result_usable(r)) {
				run_name(&runs[k], name, sizeof(name));
				fprintf(out, "  %s %s%s: %#.4g %s (95%% CI %#.4g to %#.4g)\n", name, r->id,
					place_tag(r), r->median, r->unit, r->ci_low, r->ci_high);
			}
			note_result(out, &runs[k], r);
			note_parallel(out, &runs[k], r);
		}
	}
}

void report_summary(FILE *out, const struct run_info *runs, size_t nruns)
{
	for (size_t t = 0; t < NELEM(summary_tables); t++)
		table_print(out, summary_tables[t], runs, nruns);
	other_results(out, runs, nruns);
}

/* ------------------------------------------------------------------ */
/* sysinfo                                                             */
/* ------------------------------------------------------------------ */

static void fmt_str(char *buf, size_t size, const char *s, const char *empty)
{
	snprintf(buf, size, "%s", s[0] ? s : empty);
}

static void fmt_bytes(char *buf, size_t size, uint64_t bytes)
{
	const double mib = 1024.0 * 1024.0;

	if (bytes == 0)
		snprintf(buf, size, "unknown");
	else if (bytes >= 1024ull * 1024 * 1024)
		snprintf(buf, size, "%.1f GiB", (double)bytes / (mib * 1024.0));
	else
		snprintf(buf, size, "%.0f MiB", (double)bytes / mib);
}

static void fmt_ns(char *buf, size_t size, double ns)
{
	if (ns > 0 && isfinite(ns))
		snprintf(buf, size, "%.1f ns", ns);
	else
		snprintf(buf, size, "unknown");
}

/* "L1d 32K, L1i 32K, L2 512K, L3 32M, 64 B lines" as the OS reports them. */
static void fmt_caches(char *buf, size_t size, const struct sysinfo *si)
{
	size_t used = 0;
	int line = 0;

	buf[0] = '\0';
	for (int i = 0; i < si->ncaches && used < size; i++) {
		const struct plat_cache *c = &si->caches[i];
		const char *t = strcmp(c->type, "Data") == 0 ? "d" :
				strcmp(c->type, "Instruction") == 0 ? "i" : "";
		uint64_t kib = c->size >> 10;

		if (kib >= 1024 && kib % 1024 == 0)
			used += (size_t)snprintf(buf + used, size - used, "%sL%d%s %lluM", used ? ", " : "",
						 c->level, t, (unsigned long long)(kib >> 10));
		else
			used += (size_t)snprintf(buf + used, size - used, "%sL%d%s %lluK", used ? ", " : "",
						 c->level, t, (unsigned long long)kib);
		line = c->line ? c->line : line;
	}
	if (line && used < size)
		snprintf(buf + used, size - used, ", %d B lines", line);
	if (!buf[0])
		snprintf(buf, size, "unknown");
}

/*
 * The vulnerabilities that are mitigated, one per line, and a count of the
 * rest: "Not affected" is most of the list and says nothing about speed.
 */
static void fmt_mitigations(char *buf, size_t size, const char *lines)
{
	size_t used = 0, unaffected = 0;
	const char *p = lines;

	buf[0] = '\0';
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *colon = memchr(p, ':', len);
		static const char na[] = ": Not affected";

		/* The whole state, not its end: spectre_v2's ends "BHI: Not affected". */
		if (colon && (size_t)(p + len - colon) == sizeof(na) - 1 &&
		    memcmp(colon, na, sizeof(na) - 1) == 0)
			unaffected++;
		else if (used < size)
			used += (size_t)snprintf(buf + used, size - used, "%s%.*s", used ? "\n" : "",
						 (int)len, p);
		p += len + (nl != NULL);
	}
	if (unaffected && used < size)
		snprintf(buf + used, size - used, "%s(%zu more not affected)", used ? "\n" : "", unaffected);
	if (!buf[0])
		snprintf(buf, size, "unknown");
}

/* One "key: value" line; values are formatted first so keys can be aligned. */
struct kv {
	const char *key;
	char val[1100];		/* fits the longest sysinfo field, mitigations */
};

#define SYSINFO_LINES 23

/* The next line's value buffer, after naming it key. */
static char *kv_add(struct kv *rows, size_t *n, const char *key)
{
	if (*n >= SYSINFO_LINES)
		BUG("more sysinfo lines than SYSINFO_LINES");
	rows[*n].key = key;
	return rows[(*n)++].val;
}

void report_sysinfo_text(FILE *out, const struct sysinfo *si)
{
	struct kv rows[SYSINFO_LINES];
	const size_t vs = sizeof(rows[0].val);
	size_t n = 0, keyw = 0;

	fmt_str(kv_add(rows, &n, "os"), vs, si->os, "unknown");
	fmt_str(kv_add(rows, &n, "release"), vs, si->release, "unknown");
	fmt_str(kv_add(rows, &n, "version"), vs, si->version, "unknown");
	fmt_str(kv_add(rows, &n, "arch"), vs, si->arch, "unknown");
	fmt_str(kv_add(rows, &n, "host"), vs, si->host, "unknown");
	fmt_str(kv_add(rows, &n, "cpu model"), vs, si->cpu_model, "unknown");
	snprintf(kv_add(rows, &n, "cpus online"), vs, "%d", si->ncpu_online);
	if (si->mhz > 0 && isfinite(si->mhz))
		snprintf(kv_add(rows, &n, "mhz"), vs, "%.0f", si->mhz);
	else
		snprintf(kv_add(rows, &n, "mhz"), vs, "unknown");
	fmt_str(kv_add(rows, &n, "clock source"), vs, si->clocksource, "unknown");
	fmt_ns(kv_add(rows, &n, "clock cost"), vs, si->clock_cost_ns);
	fmt_ns(kv_add(rows, &n, "clock resolution"), vs, si->clock_res_ns);
	fmt_str(kv_add(rows, &n, "governor"), vs, si->governor, "none");
	fmt_str(kv_add(rows, &n, "smt"), vs, si->smt, "unknown");
	fmt_mitigations(kv_add(rows, &n, "mitigations"), vs, si->mitigations);
	fmt_str(kv_add(rows, &n, "virtualisation"), vs, si->virt, "none found");
	snprintf(kv_add(rows, &n, "load average"), vs, "%.2f %.2f %.2f",
		 si->loadavg[0], si->loadavg[1], si->loadavg[2]);
	fmt_bytes(kv_add(rows, &n, "memory total"), vs, si->mem_total);
	fmt_bytes(kv_add(rows, &n, "memory available"), vs, si->mem_available);
	fmt_caches(kv_add(rows, &n, "caches"), vs, si);
	fmt_str(kv_add(rows, &n, "compiler"), vs, si->compiler, "unknown");
	fmt_str(kv_add(rows, &n, "cflags"), vs, si->cflags, "unknown");
	fmt_str(kv_add(rows, &n, "build type"), vs, si->build_type, "unknown");
	fmt_str(kv_add(rows, &n, "kbench version"), vs, si->kbench_version, "unknown");

	for (size_t i = 0; i < n; i++)
		if (strlen(rows[i].key) > keyw)
			keyw = strlen(rows[i].key);
	/* A value of several lines continues under the first, aligned. */
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s:%*s", rows[i].key, (int)(keyw - strlen(rows[i].key) + 1), "");
		for (const char *c = rows[i].val; *c; c++) {
			fputc(*c, out);
			if (*c == '\n')
				fprintf(out, "%*s", (int)keyw + 2, "");
		}
		fputc('\n', out);
	}
}

/* ------------------------------------------------------------------ */
/* list                                                                */
/* ------------------------------------------------------------------ */

void report_list_text(FILE *out, const struct report_list_row *rows, size_t n)
{
	int idw = 0, suitew = 0;

	for (size_t i = 0; i < n; i++) {
		int l = (int)strlen(rows[i].bench->id);
		int s = rows[i].suites ? (int)strlen(rows[i].suites) : 0;
		if (l > idw)
			idw = l;
		if (s > suitew)
			suitew = s;
	}
	for (size_t i = 0; i < n; i++) {
		const struct bench *b = rows[i].bench;

		fprintf(out, "%-*s  %-4s  %-6s  %-*s  %s", idw, b->id, bench_unit(b),
			bench_better_name(b->better), suitew,
			rows[i].suites ? rows[i].suites : "", b->summary ? b->summary : "");
		if (rows[i].reason)
			fprintf(out, "  [skip: %s]", rows[i].reason);
		fputc('\n', out);
	}
}

/*
 * Text reports for people: lmbench's summary tables, the notes that say
 * which figures to distrust and why, `kbench show`, `kbench sysinfo` and
 * `kbench list`.  Everything here reads results and prints; nothing
 * measures, nothing touches the database.  Tables stay within 80 columns
 * so they survive being pasted into mail.
 */
#include "report/report.h"
#include "report/loose.h"
#include "report/model.h"
#include "core/catalog.h"
#include "core/registry.h"
#include "core/replica.h"
#include "core/utf8.h"
#include "stats/stats.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Widest table line; lmbench's tables fit an 80-column terminal. */
#define LINE_MAX_COLS 80
/* lmbench's seven tables, basic to memory latencies (summary_tables). */
#define SUMMARY_TABLES 7

/* ------------------------------------------------------------------ */
/* Small helpers shared by the tables and `show`                      */
/* ------------------------------------------------------------------ */

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

/* Text from a run (a label, a host, a reason) safe to print whole, into buf. */
static const char *esc(char *buf, size_t size, const char *s)
{
	return report_cell(buf, size, s, -1, 0);
}

/* A figure worth printing: measured, even if noisy.  Skip and fail are blank. */
static int result_usable(const struct result *r)
{
	return r && (r->status == RES_OK || r->status == RES_NOISY) && isfinite(r->median);
}

/* The number a result stored under key, or NaN when it has none (or a text). */
static double value_num(const struct result *r, const char *key)
{
	const struct bench_value *v = r ? result_value(r, key) : NULL;

	return v && !v->text[0] ? v->num : (double)NAN;
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

/*
 * The size of the level's data (or unified) cache the OS reports, in
 * bytes; 0 when unknown.  The instruction cache says nothing about loads.
 */
static double os_cache_bytes(const struct sysinfo *si, int level)
{
	for (int i = 0; si && i < si->ncaches && i < (int)NELEM(si->caches); i++)
		if (si->caches[i].level == level && strcmp(si->caches[i].type, "Instruction") != 0)
			return (double)si->caches[i].size;
	return 0;
}

/* " [same]" after an id measured under a placement; "" otherwise. */
/*
 * Whether a result's interval is the machine's floor (core/replica.h, the
 * value machine_pct) rather than its replicas' range: hw, its half-width,
 * no wider than the floor.
 */
static int text_floored(const struct result *r, double hw)
{
	const struct bench_value *v = result_value(r, "machine_pct");

	return v && v->num > 0 && hw <= expm1(v->num / 100) * fabs(r->median) * (1 + 1e-9);
}

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
 * How a run is named in the notes: "run 12" by its store id; a run not
 * stored (--no-store) has no id, so its label names it instead.  Its place
 * in the list would read like an id and could name another run.  A row
 * merged from several runs is no one run: "label '2.5.47' (3 runs)".
 */
static void run_name(const struct run_info *run, char *buf, size_t size)
{
	char label[101];

	/* Cut so that the count fits the callers' 160 bytes whatever the label. */
	report_cell(label, sizeof(label), run->label, 100, 0);
	if (run->nmerged > 1)
		snprintf(buf, size, "label '%s' (%zu runs)", label, run->nmerged);
	else if (run->id > 0)
		snprintf(buf, size, "run %lld", (long long)run->id);
	else
		snprintf(buf, size, "run '%s'", label);
}

/* ------------------------------------------------------------------ */
/* Summary tables                                                      */
/* ------------------------------------------------------------------ */

struct table_col;

/* What a row shows: one run's results under one placement. */
struct row {
	const struct run_info *run;
	enum placement place;	/* PLACE_NA for a table of single-process figures */
	const struct sysinfo *si;	/* the run's stored machine description, or NULL */
	const struct report_spread *sp;	/* its intervals, for the loose mark */
	int verbose;			/* every note (-v), not only the marks' */
};

/* Writes one cell's text (at most col->width characters) into buf. */
typedef void (*cell_fn)(const struct table_col *col, const struct row *row, char *buf);

/*
 * One column of a summary table.  A column made of results names them in
 * ids; those ids are also the figures the notes under the table speak
 * about.  A column that is not a result (the processor model) has no ids.
 */
struct table_col {
	const char *h1, *h2;	/* two header lines, as lmbench prints them */
	int width;		/* cell width; figures are right-aligned in it */
	int head_right;		/* right-align the header labels too */
	const char *ids[3];	/* results the cell is made of, NULL-terminated */
	cell_fn cell;		/* NULL: the median of ids[0] */
	int numw;		/* a figure's width when less than the cell's (0): a
				   wide header must not buy digits that mean nothing */
	int left;		/* left-align the cells: text, not figures */
};

/*
 * One lmbench-style table.  Every table starts with the Host (9, left) and
 * OS (13, right-aligned) columns, so those are not listed in cols.
 */
struct table {
	const char *id;		/* a short name, the HTML's anchor: "proc" */
	const char *title;
	const struct table_col *cols;
	size_t ncols;
	/* Whether the table has a row for row; NULL: when it holds any of the ids. */
	int (*has_row)(const struct row *row);
	/* The table's own note lines about a row, before its figures' notes; optional. */
	void (*notes)(FILE *out, const struct row *row);
};

#define HOST_W 9
#define OS_W 13

/* The row's result for id measured under exactly the row's placement, or NULL. */
static const struct result *find_exact(const struct row *row, const char *id)
{
	for (size_t i = 0; i < row->run->nresults; i++)
		if (strcmp(row->run->results[i].id, id) == 0 &&
		    row->run->results[i].placement == row->place)
			return &row->run->results[i];
	return NULL;
}

/*
 * The figure a cell of the row shows for id.  A table can mix figures
 * between processes with single-process ones (the bandwidths of a pipe and
 * of bcopy): a single-process figure does not depend on the placement, so
 * it is shown in each of the run's placement rows.
 */
static const struct result *find_result(const struct row *row, const char *id)
{
	const struct result *r = find_exact(row, id);
	struct row na = *row;

	if (r || row->place == PLACE_NA)
		return r;
	na.place = PLACE_NA;
	return find_exact(&na, id);
}

/*
 * The mark of a figure whose replicas split between their ends on one CPU
 * and on several (replica_modes): the figure is the mode of most replicas,
 * and a note gives both.
 */
#define MODES_MARK "^"

/*
 * A figure and its mark in w columns: the mark takes the place of the
 * figure's last decimal (a loose figure did not hold that digit anyway),
 * or of lmbench's dot after a whole number ("183." becomes "183!"); a
 * figure with neither, whole to its last column, keeps its digits and
 * goes without: the note under the table names it.  Never a figure cut
 * to thousands ("1.K") for the mark's sake.
 */
static void cell_marked(char *buf, int w, double v, const char *mark)
{
	char less[64];
	size_t len;

	report_num(buf, w, v);
	len = strlen(buf);
	if (len == 0)
		return;
	if (buf[len - 1] == '.') {
		snprintf(buf + len - 1, (size_t)w + 1 - (len - 1), "%s", mark);
		return;
	}
	if (!strchr(buf, '.') || !isdigit((unsigned char)buf[len - 1]))
		return;
	report_num(less, w - (int)strlen(mark), v);
	len = strlen(less);
	if (len == 0 || strpbrk(less, "KMGTPE"))
		return;
	/* "228.4" in one column less is "228.": the mark takes the dot. */
	if (less[len - 1] == '.')
		less[--len] = '\0';
	snprintf(buf, (size_t)w + 1, "%s%s", less, mark);
}

static void cell_median(const struct table_col *col, const struct row *row, char *buf)
{
	const struct result *r = find_result(row, col->ids[0]);
	struct replica_mode modes[2];
	int w = col->numw ? col->numw : col->width;

	buf[0] = '\0';
	if (!result_usable(r))
		return;
	if (replica_modes(r, modes) == 2)
		cell_marked(buf, w, r->median, MODES_MARK);
	else if (row->sp && report_loose(r, row->sp))
		cell_marked(buf, w, r->median, REPORT_LOOSE_MARK);
	else
		report_num(buf, w, r->median);
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

/*
 * The run's clock rate: cpu.mhz when the run measured it as a benchmark
 * (sampled like any other, with a CI), else the rate measured at the start
 * of every run; NaN when neither is known.  Every table's Mhz is this one
 * figure, so two tables of one report never disagree.
 */
static double row_mhz(const struct row *row)
{
	const struct row na = { row->run, PLACE_NA, row->si, row->sp, row->verbose };
	const struct result *r = find_result(&na, "cpu.mhz");

	if (result_usable(r) && r->median > 0)
		return r->median;
	if (row->run->mhz > 0 && isfinite(row->run->mhz))
		return row->run->mhz;
	return NAN;
}

/* The clock rate as a whole number; blank when unknown. */
static void cell_mhz(const struct table_col *col, const struct row *row, char *buf)
{
	double mhz = row_mhz(row);

	buf[0] = '\0';
	if (isfinite(mhz))
		report_num(buf, col->width, round(mhz));
}

/* ---------------------------------------------- Basic system parameters */

/* Remove every copy of mark from s ("(R)" from "Intel(R)"). */
static void strip_mark(char *s, const char *mark)
{
	size_t n = strlen(mark);
	char *p;

	while ((p = strstr(s, mark)))
		memmove(p, p + n, strlen(p + n) + 1);
}

/*
 * The processor model in at most width characters.  Trademark marks, the
 * words "CPU" and "Processor", core counts and the nominal clock ("@
 * 2.90GHz", which the Mhz column measures) say nothing the row needs; what
 * is still too long loses its first words (the vendor) before its last (the
 * model number): "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz" is
 * "Xeon Platinum 8375C".
 */
static void short_model(char *buf, size_t size, const char *model, int width)
{
	static const char *const marks[] = { "(R)", "(r)", "(TM)", "(tm)" };
	char copy[sizeof(((struct sysinfo *)0)->cpu_model)], out[sizeof(copy)], *save = NULL;
	const char *start;
	size_t used = 0;

	snprintf(copy, sizeof(copy), "%s", model);
	for (size_t i = 0; i < NELEM(marks); i++)
		strip_mark(copy, marks[i]);
	out[0] = '\0';
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		size_t len = strlen(w);

		if (w[0] == '@')
			break;
		if (strcmp(w, "CPU") == 0 || strcmp(w, "Processor") == 0 ||
		    (len > 5 && strcmp(w + len - 5, "-Core") == 0))
			continue;
		used += (size_t)snprintf(out + used, sizeof(out) - used, "%s%s", used ? " " : "", w);
		if (used >= sizeof(out))
			break;
	}
	start = out;
	while (utf8_width(start) > width && strchr(start, ' '))
		start = strchr(start, ' ') + 1;
	report_cell(buf, size, start, width, 0);
}

static void cell_model(const struct table_col *col, const struct row *row, char *buf)
{
	buf[0] = '\0';
	if (row->si)
		short_model(buf, (size_t)col->width + 1, row->si->cpu_model, col->width);
}

/* A count: no decimals, unlike a measured figure; blank when it does not fit. */
static void cell_int(const struct table_col *col, long v, char *buf)
{
	char tmp[32];

	buf[0] = '\0';
	if (snprintf(tmp, sizeof(tmp), "%ld", v) <= col->width)
		snprintf(buf, (size_t)col->width + 1, "%s", tmp);
}

static void cell_ncpu(const struct table_col *col, const struct row *row, char *buf)
{
	buf[0] = '\0';
	if (row->si && row->si->ncpu_online > 0)
		cell_int(col, row->si->ncpu_online, buf);
}

/* The cache line in bytes: the first the OS reports a line size for. */
static void cell_line(const struct table_col *col, const struct row *row, char *buf)
{
	buf[0] = '\0';
	for (int i = 0; row->si && i < row->si->ncaches && i < (int)NELEM(row->si->caches); i++)
		if (row->si->caches[i].line > 0) {
			cell_int(col, row->si->caches[i].line, buf);
			return;
		}
}

static void cell_os_cache(const struct table_col *col, const struct row *row, int level,
			  char *buf)
{
	double bytes = os_cache_bytes(row->si, level);

	buf[0] = '\0';
	if (bytes > 0)
		report_size(buf, (size_t)col->width + 1, bytes, col->width);
}

static void cell_l1(const struct table_col *col, const struct row *row, char *buf)
{
	cell_os_cache(col, row, 1, buf);
}

static void cell_l2(const struct table_col *col, const struct row *row, char *buf)
{
	cell_os_cache(col, row, 2, buf);
}

static void cell_l3(const struct table_col *col, const struct row *row, char *buf)
{
	cell_os_cache(col, row, 3, buf);
}

/*
 * lmbench's first table, made of what the OS says about the machine (the
 * sysinfo stored with the run) rather than of results: the processor, its
 * measured clock, how many CPUs are online, and the cache line and data
 * cache sizes the OS reports.  lmbench's TLB and memory-parallelism
 * columns are not measured by kbench.
 */
static const struct table_col basic_cols[] = {
	{ "Description", "", 22, 0, { NULL }, cell_model, 0, 1 },
	{ "Mhz", "", 4, 1, { NULL }, cell_mhz, 0, 0 },
	{ "CPUs", "", 4, 1, { NULL }, cell_ncpu, 0, 0 },
	{ "cache", "line", 5, 1, { NULL }, cell_line, 0, 0 },
	{ "L1d", "cache", 5, 1, { NULL }, cell_l1, 0, 0 },
	{ "L2", "cache", 5, 1, { NULL }, cell_l2, 0, 0 },
	{ "L3", "cache", 5, 1, { NULL }, cell_l3, 0, 0 },
};

/* A row for every run that stored its machine's description (or measured cpu.mhz). */
static int basic_has_row(const struct row *row)
{
	return row->place == PLACE_NA && (row->si || find_result(row, "cpu.mhz"));
}

/*
 * The machine's state over the run, once for all its figures: how wide
 * their intervals typically are, and the machine's own spread (the
 * sentinel's) that none is narrower than.  A figure is marked only where
 * it is looser than that (result_loose).
 */
static void basic_notes(FILE *out, const struct row *row)
{
	char name[160], floor[80] = "";

	if (!row->sp || !(row->sp->n > 0) || !isfinite(row->sp->typical))
		return;
	run_name(row->run, name, sizeof(name));
	if (isfinite(row->sp->machine))
		snprintf(floor, sizeof(floor), ", none under +-%.1f%% (the machine's spread)",
			 100 * row->sp->machine);
	fprintf(out, "  %s: intervals +-%.1f%% typically%s\n", name, 100 * row->sp->typical, floor);
	/* Other work beside the figures: how many and how much, once (-v names each). */
	size_t busy = 0;
	double lo = 1, hi = 0;
	for (size_t i = 0; i < row->run->nresults; i++) {
		const struct result *r = &row->run->results[i];

		if (!result_busy(r))
			continue;
		busy++;
		lo = fmin(lo, r->interference);
		hi = fmax(hi, r->interference);
	}
	if (busy)
		fprintf(out, "  %s: busy: other work used %.0f-%.0f%% of the other CPUs during %zu "
			"figure%s\n", name, 100 * lo, 100 * hi, busy, busy == 1 ? "" : "s");
}

static const struct table basic_table = {
	"basic", "Basic system parameters",
	basic_cols, NELEM(basic_cols), basic_has_row, basic_notes,
};

/* ------------------------------------------------- Processor, Processes */

/*
 * lmbench 2's "Processor, Processes" table.  To add a column, add a row:
 * its two header words, its width (Host + OS + all columns, one space
 * between each, must stay within 80), the result ids it shows, a cell
 * function if it is not simply the median of one id, a figure width if a
 * wide header would otherwise buy meaningless digits, and 1 to left-align
 * a cell of text.  To add a table, add it to summary_tables.
 */
static const struct table_col proc_cols[] = {
	{ "Mhz", "", 4, 1, { NULL }, cell_mhz, 0, 0 },
	{ "null", "call", 4, 0, { "sys.null" }, NULL, 0, 0 },
	/* lmbench's "null I/O" is the mean of a 1-byte read and write. */
	{ "null", "I/O", 4, 0, { "sys.read", "sys.write" }, cell_mean, 0, 0 },
	{ "", "stat", 4, 0, { "sys.stat" }, NULL, 0, 0 },
	{ "open", "clos", 4, 0, { "sys.open_close" }, NULL, 0, 0 },
	{ "slct", "TCP", 4, 0, { "sys.select_tcp" }, NULL, 0, 0 },
	{ "sig", "inst", 4, 0, { "sig.install" }, NULL, 0, 0 },
	{ "sig", "hndl", 4, 0, { "sig.catch" }, NULL, 0, 0 },
	{ "fork", "proc", 4, 0, { "proc.fork" }, NULL, 0, 0 },
	{ "exec", "proc", 4, 0, { "proc.exec" }, NULL, 0, 0 },
	{ "sh", "proc", 4, 0, { "proc.shell" }, NULL, 0, 0 },
};

static const struct table proc_table = {
	"proc", "Processor, Processes - times in microseconds - smaller is better",
	proc_cols, NELEM(proc_cols), NULL, NULL,
};

/* lmbench's context switch table: ring size / KiB summed per turn. */
static const struct table_col ctx_cols[] = {
	{ "2p/0K", "ctxsw", 6, 1, { "ctx.2p.0k" }, NULL, 0, 0 },
	{ "2p/16K", "ctxsw", 6, 1, { "ctx.2p.16k" }, NULL, 0, 0 },
	{ "2p/64K", "ctxsw", 6, 1, { "ctx.2p.64k" }, NULL, 0, 0 },
	{ "8p/16K", "ctxsw", 6, 1, { "ctx.8p.16k" }, NULL, 0, 0 },
	{ "8p/64K", "ctxsw", 6, 1, { "ctx.8p.64k" }, NULL, 0, 0 },
	{ "16p/16K", "ctxsw", 7, 1, { "ctx.16p.16k" }, NULL, 0, 0 },
	{ "16p/64K", "ctxsw", 7, 1, { "ctx.16p.64k" }, NULL, 0, 0 },
};

static const struct table ctx_table = {
	"ctx", "Context switching - times in microseconds - smaller is better",
	ctx_cols, NELEM(ctx_cols), NULL, NULL,
};

static const struct table_col lat_cols[] = {
	{ "2p/0K", "ctxsw", 5, 0, { "ctx.2p.0k" }, NULL, 0, 0 },
	{ "Pipe", "", 5, 0, { "ipc.pipe.lat" }, NULL, 0, 0 },
	{ "AF", "UNIX", 4, 0, { "ipc.unix.lat" }, NULL, 0, 0 },
	{ "UDP", "", 5, 1, { "ipc.udp.lat" }, NULL, 0, 0 },
	{ "RPC/", "UDP", 5, 1, { "ipc.rpc_udp.lat" }, NULL, 0, 0 },
	{ "TCP", "", 5, 1, { "ipc.tcp.lat" }, NULL, 0, 0 },
	{ "RPC/", "TCP", 5, 1, { "ipc.rpc_tcp.lat" }, NULL, 0, 0 },
	{ "TCP", "conn", 4, 0, { "ipc.tcp.connect" }, NULL, 0, 0 },
};

static const struct table lat_table = {
	"lat", "*Local* Communication latencies in microseconds - smaller is better",
	lat_cols, NELEM(lat_cols), NULL, NULL,
};

/* ------------------------------------------- File & VM system latencies */

/*
 * "0K File" and "10K File" each head two columns: the halves of the label
 * lean towards each other (the first right-aligned, the second left).
 */
static const struct table_col fsvm_cols[] = {
	{ "0K", "Create", 6, 1, { "fs.create.0k" }, NULL, 5, 0 },
	{ "File", "Delete", 6, 0, { "fs.delete.0k" }, NULL, 5, 0 },
	{ "10K", "Create", 6, 1, { "fs.create.10k" }, NULL, 5, 0 },
	{ "File", "Delete", 6, 0, { "fs.delete.10k" }, NULL, 5, 0 },
	{ "Mmap", "Latency", 7, 0, { "vm.mmap" }, NULL, 5, 0 },
	{ "Prot", "Fault", 5, 0, { "vm.prot_fault" }, NULL, 0, 0 },
	{ "Page", "Fault", 6, 0, { "vm.page_fault" }, NULL, 0, 0 },
	{ "Anon", "Fault", 6, 0, { "vm.page_fault_anon" }, NULL, 0, 0 },
};

/*
 * What the File & VM figures cannot be read without: the file system the
 * files were made on (tmpfs creates a file ten times faster than ext4), how
 * many pages each page fault mapped (fault-around maps several at once).
 * The fault with fault-around off has no column: it is among Other results.
 */
static void fsvm_notes(FILE *out, const struct row *row)
{
	static const char *const fs_ids[] = {
		"fs.create.0k", "fs.delete.0k", "fs.create.10k", "fs.delete.10k",
	};
	const struct result *r;
	char name[160], f[200];
	double pages;

	run_name(row->run, name, sizeof(name));
	for (size_t i = 0; i < NELEM(fs_ids); i++) {
		const struct bench_value *v;

		const struct bench_value *spread;

		r = find_result(row, fs_ids[i]);
		v = r ? result_value(r, "fs_type") : NULL;
		spread = r ? result_value(r, "dirs_spread") : NULL;
		/* What the figure depends on: the file system, and whether each replica had
		 * a block group of its own (ext4 pays for reusing inodes freed recently). */
		if (v && v->text[0]) {
			fprintf(out, "  %s fs.*: files on %s%s\n", name, esc(f, sizeof(f), v->text),
				spread && strcmp(spread->text, "yes") == 0 ?
				", each replica's in a block group of its own" : "");
			break;
		}
	}
	r = find_result(row, "vm.page_fault");
	pages = value_num(r, "pages_per_fault");
	/* How the figure is made, for -v: kbench list and show say it too. */
	if (row->verbose && result_usable(r) && pages > 0)
		fprintf(out, "  %s vm.page_fault: each fault mapped %.3g page%s\n", name, pages,
			pages == 1 ? "" : "s");
}

static const struct table fsvm_table = {
	"fsvm", "File & VM system latencies in microseconds - smaller is better",
	fsvm_cols, NELEM(fsvm_cols), NULL, fsvm_notes,
};

/* ------------------------------------------ *Local* Communication bandwidths */

/* Pipe, AF UNIX and TCP keep lmbench 2's narrow cells; the rest are lmbench 3's. */
static const struct table_col bw_cols[] = {
	{ "Pipe", "", 4, 0, { "ipc.pipe.bw" }, NULL, 0, 0 },
	{ "AF", "UNIX", 4, 0, { "ipc.unix.bw" }, NULL, 0, 0 },
	{ "TCP", "", 4, 0, { "ipc.tcp.bw" }, NULL, 0, 0 },
	{ "File", "reread", 6, 0, { "fs.reread.bw" }, NULL, 5, 0 },
	{ "Mmap", "reread", 6, 0, { "vm.mmap_reread.bw" }, NULL, 5, 0 },
	{ "Bcopy", "(libc)", 6, 0, { "mem.bcopy_libc.bw" }, NULL, 5, 0 },
	{ "Bcopy", "(hand)", 6, 0, { "mem.bcopy_hand.bw" }, NULL, 5, 0 },
	{ "Mem", "read", 5, 0, { "mem.read.bw" }, NULL, 0, 0 },
	{ "Mem", "write", 5, 0, { "mem.write.bw" }, NULL, 0, 0 },
};

static const struct table bw_table = {
	"bw", "*Local* Communication bandwidths in MB/s - bigger is better",
	bw_cols, NELEM(bw_cols), NULL, NULL,
};

/* ---------------------------------------------------- Memory latencies */

/* A detected cache size this many times off the OS's is worth a guess. */
#define GUESS_SIZE_RATIO 2.0
/* A level less than this much slower than the one before it is not a level. */
#define GUESS_SLOWER 1.1
/* The Guesses column: Host to Main mem take 55 of the 80 columns. */
#define GUESSES_W 24

/* Append one guess to buf, "; " between guesses. */
__attribute__((format(printf, 4, 5)))
static void guess_add(char *buf, size_t size, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used >= size)
		return;
	if (*used > 0) {
		n = snprintf(buf + *used, size - *used, "; ");
		*used += n > 0 ? (size_t)n : 0;
		if (*used >= size)
			return;
	}
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, size - *used, fmt, ap);
	va_end(ap);
	*used += n > 0 ? (size_t)n : 0;
}

/*
 * lmbench's Guesses column: what in a row of memory latencies looks wrong,
 * "" when nothing does.  A cache size detected from the latency curve more
 * than 2x off the size the OS reports ("L2 256K/OS 512K": the step was
 * misplaced, or the OS's figure is per cluster); a level hardly slower than
 * the one before it ("L3 ~ L2": one level detected twice); main memory no
 * slower than the last cache ("mem ~ L3"); no third level where the first
 * two were found ("no L3", with the OS's L3 when it reports one).
 */
static void memlat_guesses(const struct row *row, char *buf, size_t size)
{
	static const char *const ids[] = { "mem.lat.l1", "mem.lat.l2", "mem.lat.l3" };
	const struct result *lv[NELEM(ids)], *mem = find_result(row, "mem.lat.main");
	const struct result *last = NULL;
	int any = mem != NULL, lastn = 0;
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NELEM(ids); i++) {
		lv[i] = find_result(row, ids[i]);
		any |= lv[i] != NULL;
	}
	if (!any)
		return;
	for (int i = 0; i < (int)NELEM(ids); i++) {
		double det = value_num(lv[i], "detected"), os = value_num(lv[i], "os_size");

		if (!result_usable(lv[i]))
			continue;
		if (!(os > 0))
			os = os_cache_bytes(row->si, i + 1);
		if (det > 0 && os > 0 && (det > GUESS_SIZE_RATIO * os || os > GUESS_SIZE_RATIO * det)) {
			char d[16], o[16];

			report_size(d, sizeof(d), det, 5);
			report_size(o, sizeof(o), os, 5);
			guess_add(buf, size, &used, "L%d %s/OS %s", i + 1, d, o);
		}
		if (last && lv[i]->median < GUESS_SLOWER * last->median)
			guess_add(buf, size, &used, "L%d ~ L%d", i + 1, lastn);
		last = lv[i];
		lastn = i + 1;
	}
	if (result_usable(mem) && last && mem->median < GUESS_SLOWER * last->median)
		guess_add(buf, size, &used, "mem ~ L%d", lastn);
	if (result_usable(lv[0]) && result_usable(lv[1]) && !result_usable(lv[2])) {
		double os3 = os_cache_bytes(row->si, 3);
		char o[16];

		/* An OS that lists its caches without an L3 agrees: nothing to guess. */
		if (os3 > 0) {
			report_size(o, sizeof(o), os3, 5);
			guess_add(buf, size, &used, "no L3, OS %s", o);
		} else if (!row->si || row->si->ncaches == 0) {
			guess_add(buf, size, &used, "no L3");
		}
	}
}

/*
 * The guesses that fit the cell; when some do not, those that do and a
 * "..." that says the note under the table has them all.
 */
static void cell_guesses(const struct table_col *col, const struct row *row, char *buf)
{
	char g[256];
	size_t keep = 0;

	memlat_guesses(row, g, sizeof(g));
	if ((int)strlen(g) <= col->width) {
		snprintf(buf, (size_t)col->width + 1, "%s", g);
		return;
	}
	for (const char *p = strstr(g, "; "); p; p = strstr(p + 2, "; "))
		if ((int)(p - g) + 5 <= col->width)
			keep = (size_t)(p - g);
	if (keep)
		snprintf(buf, (size_t)col->width + 1, "%.*s; ...", (int)keep, g);
	else
		snprintf(buf, (size_t)col->width + 1, "see below");
}

/* The guesses the Guesses cell had no room for, one a line. */
static void memlat_notes(FILE *out, const struct row *row)
{
	char g[256], name[160];
	const char *p = g;

	memlat_guesses(row, g, sizeof(g));
	if (strlen(g) <= GUESSES_W)
		return;
	run_name(row->run, name, sizeof(name));
	while (*p) {
		size_t len = strcspn(p, ";");

		fprintf(out, "  %s guess: %.*s\n", name, (int)len, p);
		p += len;
		while (*p == ';' || *p == ' ')
			p++;
	}
}

/* lmbench 3's memory latency table, with an L3 column. */
static const struct table_col memlat_cols[] = {
	{ "Mhz", "", 4, 1, { "cpu.mhz" }, cell_mhz, 0, 0 },
	{ "L1 $", "", 5, 1, { "mem.lat.l1" }, NULL, 0, 0 },
	{ "L2 $", "", 5, 1, { "mem.lat.l2" }, NULL, 0, 0 },
	{ "L3 $", "", 5, 1, { "mem.lat.l3" }, NULL, 0, 0 },
	{ "Main mem", "", 8, 1, { "mem.lat.main" }, NULL, 5, 0 },
	/* memlat_notes spells out what does not fit. */
	{ "Guesses", "", GUESSES_W, 0, { NULL }, cell_guesses, 0, 1 },
};

static const struct table memlat_table = {
	"memlat", "Memory latencies in nanoseconds - smaller is better",
	memlat_cols, NELEM(memlat_cols), NULL, memlat_notes,
};

/* ---------------------------------------------------------- printing */

/* Drop trailing blanks (empty last cells, short last labels) and print. */
static void put_line(FILE *out, char *line)
{
	size_t len = strlen(line);

	while (len > 0 && line[len - 1] == ' ')
		line[--len] = '\0';
	fprintf(out, "%s\n", line);
}

/* The first (second = 0) or second line of the column labels. */
static void header_labels(struct rm_doc *doc, const struct table *t, int second)
{
	rm_line(doc, RM_HEAD);
	rm_cell(doc, HOST_W, 0, second ? "" : "Host");
	rm_cell(doc, OS_W, 1, second ? "" : "OS");
	for (size_t i = 0; i < t->ncols; i++)
		rm_cell(doc, t->cols[i].width, t->cols[i].head_right,
			second ? t->cols[i].h2 : t->cols[i].h1);
}

/* Whether any column has a second header line; lmbench's memory table has none. */
static int has_second_labels(const struct table *t)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (t->cols[i].h2[0])
			return 1;
	return 0;
}

static void table_header(struct rm_doc *doc, const struct table *t)
{
	/* Dashes enough for any column; the cell is cut to its width. */
	static const char dash[] = "---------------------------------------------------------------";

	rm_table(doc, t->id, t->title);
	header_labels(doc, t, 0);
	if (has_second_labels(t))
		header_labels(doc, t, 1);
	rm_line(doc, RM_RULE);
	for (size_t i = 0; i < t->ncols + 2; i++)
		rm_cell(doc, i == 0 ? HOST_W : i == 1 ? OS_W : t->cols[i - 2].width, 0, dash);
}

/*
 * A label in at most width columns (the OS cell, a rates column's head):
 * the label, and " [N]" for a row merged from N runs, as contest shows
 * them.  lmbench right-aligns the OS, so a cut label keeps its start
 * visible; the count is cut never, the label before it instead
 * ("2.5.47-m [12]"), since a row of twelve runs is not a row of one.
 */
static void label_cell(const struct run_info *run, int width, char *buf, size_t size)
{
	char count[32] = "";
	size_t clen;
	int keep;

	if (run->nmerged > 1)
		snprintf(count, sizeof(count), " [%zu]", run->nmerged);
	clen = strlen(count);
	keep = width - (int)clen;
	if (size <= clen)
		BUG("no room for the label cell");
	/* Cut by the columns the label takes, escaped, never inside a character. */
	report_cell(buf, size - clen, run->label, keep > 0 ? keep : 0, 0);
	strcat(buf, count);
}

static void os_cell(const struct run_info *run, char *buf, size_t size)
{
	label_cell(run, OS_W, buf, size);
}

/* What the notes will say of the cell's figures: noisy, busy, missing. */
static unsigned cell_flags(const struct table_col *c, const struct row *row)
{
	unsigned flags = 0;

	for (size_t j = 0; j < NELEM(c->ids) && c->ids[j]; j++) {
		const struct result *r = find_result(row, c->ids[j]);

		if (!r)
			continue;
		if (row->sp && report_loose(r, row->sp))
			flags |= RM_NOISY;
		if (r->status == RES_FAIL || r->status == RES_SKIP)
			flags |= RM_MISSING;
		if (result_busy(r))
			flags |= RM_BUSY;
	}
	return flags;
}

static void table_row(struct rm_doc *doc, const struct table *t, const struct row *row)
{
	const struct run_info *run = row->run;
	/* A cell of text may take 4 bytes a column (UTF-8). */
	char cell[128];

	rm_line(doc, RM_ROW);
	rm_cell(doc, HOST_W, 0, run->host);
	os_cell(run, cell, sizeof(cell));
	rm_cell(doc, OS_W, 1, cell);
	for (size_t i = 0; i < t->ncols; i++) {
		const struct table_col *c = &t->cols[i];
		int w = c->width < (int)sizeof(cell) ? c->width : (int)sizeof(cell) - 1;

		cell[0] = '\0';
		if (c->cell)
			c->cell(c, row, cell);
		else if (c->ids[0])
			cell_median(c, row, cell);
		rm_cell(doc, w, !c->left, cell);
		rm_flags(doc, cell_flags(c, row));
	}
}

/*
 * One note line for a figure that should not be taken at face value:
 * failed or skipped, interrupted, busy (other work competed), and with
 * verbose noisy (the CI missed the precision) and drift, which on a
 * machine like ours every figure is: by default a loose figure is named
 * in its table's one line of them instead (note_loose).  Returns 1 when a
 * line was printed.
 */
static int note_result(FILE *out, const struct run_info *run, const struct result *r,
		       int verbose)
{
	char name[160], why[4 * sizeof(r->reason)];
	int lines = 0, drift;

	run_name(run, name, sizeof(name));
	if (r->status == RES_SKIP || r->status == RES_FAIL) {
		fprintf(out, "  %s %s%s: %s: %s\n", name, r->id, place_tag(r),
			result_status_name(r->status),
			r->reason[0] ? esc(why, sizeof(why), r->reason) : "no reason given");
		return 1;
	}
	/* A figure that says more of itself (partial: the run was interrupted) says it first. */
	if (r->reason[0]) {
		fprintf(out, "  %s %s%s: %s\n", name, r->id, place_tag(r), esc(why, sizeof(why), r->reason));
		lines++;
	}
	/*
	 * Noisy and busy each get a line, so that a line stays within 80
	 * columns; drift shares noisy's when both are there.
	 */
	drift = verbose && r->drifted && isfinite(r->drift);
	if (verbose && r->status == RES_NOISY) {
		double hw = fmax(r->median - r->ci_low, r->ci_high - r->median);
		double level = stats_median_ci_level(r->nreplicas);

		/* A merged row's interval is the spread of its runs, not of one run's samples. */
		if (run->nmerged > 1 && r->median > 0 && isfinite(hw / r->median))
			fprintf(out, "  %s %s%s: noisy in a run; runs' CI +-%.1f%%\n", name, r->id,
				place_tag(r), 100.0 * hw / r->median);
		else if (r->nreplicas > 1 && r->median > 0 && isfinite(hw / r->median) && drift)
			/* One line for both: the machine moving is why the replicas disagree. */
			fprintf(out, "  %s %s%s: noisy: +-%.1f%% over %zu replicas; drift %.1f%%\n", name,
				r->id, place_tag(r), 100.0 * hw / r->median, r->nreplicas, 100.0 * r->drift);
		else if (r->nreplicas > 1 && r->median > 0 && isfinite(hw / r->median) &&
			 text_floored(r, hw))
			/* The machine's spread set it: no confidence level to claim. */
			fprintf(out, "  %s %s%s: noisy: +-%.1f%%, the machine's spread (%zu replicas)\n",
				name, r->id, place_tag(r), 100.0 * hw / r->median, r->nreplicas);
		else if (r->nreplicas > 1 && r->median > 0 && isfinite(hw / r->median))
			/* Below six replicas the interval is their range: say what it holds. */
			fprintf(out, "  %s %s%s: noisy: %.*f%% CI +-%.1f%% over %zu replicas\n", name,
				r->id, place_tag(r), level < 0.95 ? 1 : 0, 100.0 * (level < 0.95 ? level : 0.95),
				100.0 * hw / r->median, r->nreplicas);
		else if (r->median > 0 && isfinite(hw / r->median))
			fprintf(out, "  %s %s%s: noisy: 95%% CI +-%.1f%% (stopped at %s)\n", name,
				r->id, place_tag(r), 100.0 * hw / r->median, result_stop_name(r->stop));
		else
			fprintf(out, "  %s %s%s: noisy: (stopped at %s)\n", name, r->id, place_tag(r),
				result_stop_name(r->stop));
		lines++;
		drift = 0;
	}
	if (drift) {
		/* Short enough for 80 columns with the longest ids and two digits of drift. */
		fprintf(out, "  %s %s%s: drift: the machine moved %.1f%% over its replicas\n", name,
			r->id, place_tag(r), 100.0 * r->drift);
		lines++;
	}
	/* Busy is the machine's state, said once for the run (basic_notes) but with -v. */
	if (verbose && result_busy(r)) {
		fprintf(out, "  %s %s%s: busy: other work used %.0f%% of the other CPUs\n", name,
			r->id, place_tag(r), 100.0 * r->interference);
		lines++;
	}
	return lines > 0;
}

/*
 * A figure whose replicas split between ends on one CPU and on several
 * (its cell marked MODES_MARK): both modes, each with its level and its
 * replicas, the figure's first.
 */
static void note_modes(FILE *out, const struct run_info *run, const struct result *r)
{
	struct replica_mode m[2];
	char name[160], a[32], b[32];

	if (!result_usable(r) || replica_modes(r, m) != 2)
		return;
	run_name(run, name, sizeof(name));
	report_fig(a, sizeof(a), m[0].median);
	report_fig(b, sizeof(b), m[1].median);
	fprintf(out, "  %s %s%s" MODES_MARK ": two modes: ends on %s %s (%zu of %zu replicas), "
		"on %s %s (%zu)\n", name, r->id, place_tag(r), replica_ends_name(m[0].ends), a,
		m[0].n, r->nreplicas, replica_ends_name(m[1].ends), b, m[1].n);
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
	report_fig(per, sizeof(per), r->median);
	report_fig(all, sizeof(all), r->aggregate);
	/* Together: the copies' total rate, or the time per operation of all of them. */
	fprintf(out, "  %s %s%s: %d copies: %s %s each, together %s %s%s\n", name, r->id,
		place_tag(r), r->parallel, per, r->unit, all, r->unit,
		metric_unit_is_time(r->unit, r->better) ? "/op" : "");
}

/* The table's i-th id: its columns' in order; NULL past the last. */
static const char *table_id(const struct table *t, size_t i)
{
	for (size_t c = 0; c < t->ncols; c++)
		for (size_t j = 0; j < NELEM(t->cols[c].ids) && t->cols[c].ids[j]; j++)
			if (i-- == 0)
				return t->cols[c].ids[j];
	return NULL;
}

/* Whether the run has any of the table's figures under exactly the row's placement. */
static int row_has_exact(const struct table *t, const struct row *row)
{
	const char *id;

	for (size_t i = 0; (id = table_id(t, i)); i++)
		if (find_exact(row, id))
			return 1;
	return 0;
}

/*
 * Whether the table has a row for this run and placement: a row per
 * placement the run measured the table's figures under, the single-process
 * figures shown in each (find_result); a row of single-process figures
 * alone only when there is no such row to show them in.
 */
static int row_has_results(const struct table *t, const struct row *row)
{
	static const enum placement placed[] = { PLACE_SAME, PLACE_SPREAD, PLACE_NONE };

	if (t->has_row)
		return t->has_row(row);
	if (row->place != PLACE_NA)
		return row_has_exact(t, row);
	for (size_t p = 0; p < NELEM(placed); p++) {
		struct row other = *row;

		other.place = placed[p];
		if (row_has_exact(t, &other))
			return 0;
	}
	return row_has_exact(t, row);
}

static const struct table *const summary_tables[SUMMARY_TABLES];

/* Whether an earlier table of the summary shows id too (lat's 2p/0K is ctx's): named there. */
static int shown_before(const struct table *t, const char *id)
{
	const char *other;

	for (size_t k = 0; summary_tables[k] != t && k < SUMMARY_TABLES; k++)
		for (size_t i = 0; (other = table_id(summary_tables[k], i)); i++)
			if (strcmp(other, id) == 0)
				return 1;
	return 0;
}

/*
 * The loose figures of one run in one table (result_loose), on one line
 * within 80 columns: each with its interval, widest first, and how many
 * more did not fit (-v and kbench show give each its own line).
 */
static void note_loose(FILE *out, const struct run_info *run, const struct result **rs, size_t n)
{
	char name[160], line[512], item[200];
	size_t len, shown = 0;

	if (n == 0)
		return;
	/* Widest first: a table holds a few. */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0; j--) {
			const struct result *t = rs[j];

			if (report_rel_halfwidth(t) <= report_rel_halfwidth(rs[j - 1]))
				break;
			rs[j] = rs[j - 1];
			rs[j - 1] = t;
		}
	run_name(run, name, sizeof(name));
	len = (size_t)snprintf(line, sizeof(line), "  %s " REPORT_LOOSE_MARK " over twice typical:", name);
	for (size_t i = 0; i < n; i++) {
		double h = report_rel_halfwidth(rs[i]);
		char more[32];
		size_t room = LINE_MAX_COLS - len;

		if (isfinite(h))
			snprintf(item, sizeof(item), "%s %s%s +-%.0f%%", i ? "," : "", rs[i]->id,
				 place_tag(rs[i]), fmin(100 * h, 9999));
		else
			snprintf(item, sizeof(item), "%s %s%s", i ? "," : "", rs[i]->id, place_tag(rs[i]));
		/* What is left must still fit: ", 3 more". */
		snprintf(more, sizeof(more), ", %zu more", n - i);
		if (strlen(item) + (i + 1 < n ? strlen(more) : 0) > room && shown) {
			snprintf(line + len, sizeof(line) - len, "%s", more);
			len = strlen(line);
			break;
		}
		snprintf(line + len, sizeof(line) - len, "%s", item);
		len = strlen(line);
		shown++;
	}
	fprintf(out, "%s\n", line);
}

/*
 * The notes on one run's figures under one placement.  Exact matches only:
 * a single-process figure shown in several placement rows gets its notes
 * once, from the PLACE_NA pass.
 */
static void table_notes(FILE *out, const struct table *t, const struct row *row)
{
	int verbose = row->verbose;
	const struct result *loose[64];
	size_t nloose = 0;
	const char *id;

	/* A table with a rule of its own for its rows (basic's) has its notes by it. */
	if (t->notes && (t->has_row ? t->has_row(row) : row_has_exact(t, row)))
		t->notes(out, row);
	for (size_t i = 0; (id = table_id(t, i)); i++) {
		const struct result *r = find_exact(row, id);
		if (r) {
			note_result(out, row->run, r, verbose);
			note_modes(out, row->run, r);
			note_parallel(out, row->run, r);
			if (!verbose && report_loose(r, row->sp) && nloose < NELEM(loose) &&
			    !shown_before(t, id))
				loose[nloose++] = r;
		}
	}
	note_loose(out, row->run, loose, nloose);
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
 * single figure is left out.  si[k] is run k's machine, or NULL (si may
 * be NULL: none known).
 */
static void table_print(struct rm_doc *doc, const struct table *t, const struct run_info *runs,
			const struct sysinfo *const *si, size_t nruns)
{
	int header = 0;
	char *notes = NULL;
	size_t len = 0;
	FILE *mem;
	struct report_spread *sp = calloc(nruns ? nruns : 1, sizeof(*sp));

	if (!sp) {
		doc->oom = 1;
		return;
	}
	for (size_t k = 0; k < nruns; k++)
		sp[k] = report_run_spread(&runs[k]);
	for (size_t p = 0; p < NELEM(place_order); p++) {
		int sub = 0;

		for (size_t k = 0; k < nruns; k++) {
			struct row row = { &runs[k], place_order[p].place, si ? si[k] : NULL, &sp[k],
					   doc->verbose };

			if (!row_has_results(t, &row))
				continue;
			if (!header++)
				table_header(doc, t);
			if (!sub++ && place_order[p].says)
				rm_text(doc, RM_GROUP, place_order[p].says);
			table_row(doc, t, &row);
		}
	}
	/* The notes are printed by functions the other reports share: caught here. */
	if (!header || !(mem = open_memstream(&notes, &len))) {
		doc->oom |= header != 0;
		free(sp);
		return;
	}
	for (size_t p = 0; p < NELEM(place_order); p++)
		for (size_t k = 0; k < nruns; k++) {
			struct row row = { &runs[k], place_order[p].place, si ? si[k] : NULL, &sp[k],
					   doc->verbose };
			table_notes(mem, t, &row);
		}
	if (fclose(mem) != 0)
		doc->oom = 1;
	else
		rm_notes(doc, notes);
	free(notes);
	free(sp);
}

/* The tables of the summary, in lmbench's order. */
static const struct table *const summary_tables[SUMMARY_TABLES] = {
	&basic_table, &proc_table, &ctx_table, &lat_table, &fsvm_table, &bw_table,
	&memlat_table,
};

size_t report_table_ids(const char *table, const char **ids, size_t max)
{
	size_t n = 0;
	const char *id;

	for (size_t t = 0; t < NELEM(summary_tables); t++) {
		if (strcmp(summary_tables[t]->id, table) != 0)
			continue;
		for (size_t i = 0; (id = table_id(summary_tables[t], i)) && n < max; i++)
			ids[n++] = id;
	}
	return n;
}

/* ------------------------------------------------ System call rates */

/*
 * The rates table turns lmbench's shape around, as the FreeBSD thread it
 * comes from did: a row per call and a column per label (UP, SMP), so that
 * the kernels compared stand side by side and a row reads across.  Its
 * rows are the rate.* results in the order first measured; its columns the
 * runs that have any (a label's runs merged, or each run with --each), in
 * the order given.  A label of several runs gives each figure its interval
 * over the runs ("+-1.2%"); one run's figure is its median alone, as in
 * the other tables, its precision in the notes.
 */
#define RATE_PREFIX "rate."
/* The call column: "clock_gettime_coarse" whole. */
#define RATE_CALL_W 20
/* A figure: calls per second, whole, up to 9,999,999,999. */
#define RATE_FIG_W 10
/* Its interval: " +-0.8%", " +-12.3%", " +-123%". */
#define RATE_CI_W 8
#define RATE_COL_W (RATE_FIG_W + RATE_CI_W)
/* Labels side by side: 20 + 3 x (1 + 18) = 77 columns; more follow in a block below. */
#define RATE_LABELS 3
_Static_assert(RATE_CALL_W + RATE_LABELS * (1 + RATE_COL_W) <= LINE_MAX_COLS,
	       "the rates table must fit 80 columns");
_Static_assert(RATE_CALL_W <= 30 && RATE_COL_W <= 30, "rate_block's dashes must cover a column");

static int is_rate(const char *id)
{
	return strncmp(id, RATE_PREFIX, strlen(RATE_PREFIX)) == 0;
}

/* The run's result for id, or NULL; a rate is measured in one process, never placed. */
static const struct result *rate_find(const struct run_info *run, const char *id)
{
	for (size_t i = 0; i < run->nresults; i++)
		if (strcmp(run->results[i].id, id) == 0)
			return &run->results[i];
	return NULL;
}

static int rate_has(const struct run_info *run)
{
	for (size_t i = 0; i < run->nresults; i++)
		if (is_rate(run->results[i].id))
			return 1;
	return 0;
}

/*
 * One cell: the figure, whole (a rate of millions has no use for
 * decimals), right-aligned under the label; in a label of several runs
 * with its interval after it.  Blank when not measured: a note says why.
 */
static void rate_cell(const struct run_info *run, const struct result *r, char *buf,
		      size_t size)
{
	char fig[32], ci[16] = "";
	double hw;

	buf[0] = '\0';
	if (!result_usable(r))
		return;
	if (snprintf(fig, sizeof(fig), "%.0f", r->median) > RATE_FIG_W)
		report_num(fig, RATE_FIG_W, r->median);
	if (run->nmerged <= 1) {
		snprintf(buf, size, "%*s", RATE_COL_W, fig);
		return;
	}
	hw = 100.0 * fmax(r->median - r->ci_low, r->ci_high - r->median) / r->median;
	if (r->median > 0 && isfinite(hw))
		snprintf(ci, sizeof(ci), hw < 99.95 ? " +-%.1f%%" : " +-%.0f%%", fmin(hw, 9999));
	snprintf(buf, size, "%*s%*s", RATE_FIG_W, fig, RATE_CI_W, ci);
}

/* The header, its dashes and the rows of one block of at most RATE_LABELS columns. */
static void rate_block(struct rm_doc *doc, const struct run_info *const *cols, size_t ncols,
		       const char *const *ids, size_t nids)
{
	/* A label may take 4 bytes a column (UTF-8). */
	char cell[4 * RATE_COL_W + 1];
	/* Dashes enough for either column; the cell is cut to its width. */
	static const char dash[] = "------------------------------";

	rm_line(doc, RM_HEAD);
	rm_cell(doc, RATE_CALL_W, 0, "Call");
	for (size_t c = 0; c < ncols; c++) {
		label_cell(cols[c], RATE_COL_W, cell, sizeof(cell));
		rm_cell(doc, RATE_COL_W, 1, cell);
	}
	rm_line(doc, RM_RULE);
	rm_cell(doc, RATE_CALL_W, 0, dash);
	for (size_t c = 0; c < ncols; c++)
		rm_cell(doc, RATE_COL_W, 0, dash);
	for (size_t i = 0; i < nids; i++) {
		rm_line(doc, RM_ROW);
		rm_cell(doc, RATE_CALL_W, 0, ids[i] + strlen(RATE_PREFIX));
		for (size_t c = 0; c < ncols; c++) {
			const struct result *r = rate_find(cols[c], ids[i]);
			struct report_spread sp = report_run_spread(cols[c]);

			rate_cell(cols[c], r, cell, sizeof(cell));
			rm_cell(doc, RATE_COL_W, 1, cell);
			if (r)
				rm_flags(doc, (report_loose(r, &sp) ? RM_NOISY : 0) |
					      (result_busy(r) ? RM_BUSY : 0) |
					      (!result_usable(r) ? RM_MISSING : 0));
		}
	}
}

/*
 * The notes on n figures of one run, as the table's notes (the text and
 * HTML share them): each figure's own, then one line naming the loose.
 */
static void model_notes(struct rm_doc *doc, const struct run_info *run,
			const struct result *const *rs, size_t n, int parallel)
{
	char *notes = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&notes, &len);
	struct report_spread sp = report_run_spread(run);
	const struct result *loose[64];
	size_t nloose = 0;

	if (!mem) {
		doc->oom = 1;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		note_result(mem, run, rs[i], doc->verbose);
		if (parallel)
			note_parallel(mem, run, rs[i]);
		if (!doc->verbose && report_loose(rs[i], &sp) && nloose < NELEM(loose))
			loose[nloose++] = rs[i];
	}
	note_loose(mem, run, loose, nloose);
	if (fclose(mem) != 0)
		doc->oom = 1;
	else
		rm_notes(doc, notes);
	free(notes);
}

/* "System call rates", when any run has a rate; then its notes, as every table's. */
static void rates_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns)
{
	static const char title[] = "System call rates - calls per second - bigger is better";
	const struct run_info **cols = calloc(nruns ? nruns : 1, sizeof(*cols));
	const char **ids = NULL;
	size_t ncols = 0, nids = 0, total = 0;

	for (size_t k = 0; cols && k < nruns; k++)
		if (rate_has(&runs[k])) {
			cols[ncols++] = &runs[k];
			total += runs[k].nresults;
		}
	if (cols && ncols == 0) {
		free(cols);
		return;
	}
	ids = calloc(total ? total : 1, sizeof(*ids));
	if (!cols || !ids) {
		doc->oom = 1;
		free(cols);
		free(ids);
		return;
	}
	for (size_t c = 0; c < ncols; c++)
		for (size_t i = 0; i < cols[c]->nresults; i++) {
			const char *id = cols[c]->results[i].id;
			size_t j = 0;

			while (j < nids && strcmp(ids[j], id) != 0)
				j++;
			if (j == nids && is_rate(id))
				ids[nids++] = id;
		}
	rm_table(doc, "rates", title);
	for (size_t c = 0; c < ncols; c += RATE_LABELS) {
		if (c)
			rm_text(doc, RM_GROUP, "");
		rate_block(doc, cols + c, ncols - c < RATE_LABELS ? ncols - c : RATE_LABELS, ids,
			   nids);
	}
	for (size_t c = 0; c < ncols; c++)
		for (size_t i = 0; i < nids; i++) {
			const struct result *r = rate_find(cols[c], ids[i]);

			if (r)
				model_notes(doc, cols[c], &r, 1, 1);
		}
	free(ids);
	free(cols);
}

/* ------------------------------------------------ AIM Suite IX */

/*
 * AIM9's table, a block per label (each run with --each) in the shape
 * AIM9 printed: test number, name, elapsed time, iteration count, loops
 * and operations per second, the unit on a line of its own below, and
 * kbench's addition, the interval of the operation rate.  The test number
 * and factor come from the registry's aim9 rows, whose order is AIM9's.
 *
 * Elapsed and count are what the samples spanned: in each replica from the
 * end of its first sample to the end of its last, and the iterations timed
 * in between, so that count / elapsed is a throughput with the harness's
 * gaps in it, as AIM9's was.  The rates are kbench's figure, the median
 * of the samples (its interval over the replicas), which the gaps do not
 * touch; the two can differ by the gaps.
 */
#define AIM9_PREFIX "aim9."
#define AIM9_NUM_W 4
#define AIM9_NAME_W 13
#define AIM9_ELAPSED_W 10
#define AIM9_COUNT_W 10
#define AIM9_RATE_W 14
#define AIM9_CI_W 8
_Static_assert(AIM9_NUM_W + 1 + AIM9_NAME_W + 1 + AIM9_ELAPSED_W + 1 + AIM9_COUNT_W + 1 +
	       AIM9_RATE_W + 1 + AIM9_RATE_W + AIM9_CI_W + 2 <= LINE_MAX_COLS,
	       "AIM9's table, its noisy mark too, must fit 80 columns");

static int is_aim9(const char *id)
{
	return strncmp(id, AIM9_PREFIX, strlen(AIM9_PREFIX)) == 0;
}

static int aim9_has(const struct run_info *run)
{
	for (size_t i = 0; i < run->nresults; i++)
		if (is_aim9(run->results[i].id))
			return 1;
	return 0;
}

/* AIM9's number for row b (its place among the aim9 rows), or 0 for none. */
static int aim9_number(const struct bench *b)
{
	const struct bench *r;
	int num = 0;

	for (size_t i = 0; b && (r = registry_at(i)) != NULL; i++)
		if (r->suites & SUITE_AIM9) {
			num++;
			if (r == b)
				return num;
		}
	return 0;
}

/* What the replicas' samples spanned, and the iterations timed in it. */
static void aim9_span(const struct result *r, double *elapsed, double *count)
{
	*elapsed = 0;
	*count = 0;
	for (size_t k = 0; k < r->nreplicas; k++) {
		const struct result_replica *rep = &r->replicas[k];

		if (rep->n < 2 || !(rep->t1 > rep->t0))
			continue;
		*elapsed += rep->t1 - rep->t0;
		*count += (double)(rep->n - 1) * (double)r->iterations;
	}
}

static void aim9_row(struct rm_doc *doc, const struct run_info *run, const struct result *r,
		     const struct report_spread *sp)
{
	const struct bench *b = registry_find(r->id);
	int num = aim9_number(b);
	double elapsed, count, hw;
	/* The unit's line: an indent and up to 63 characters. */
	char buf[96], ci[16] = "";

	snprintf(buf, sizeof(buf), num ? "%d" : "", num);
	rm_line(doc, RM_ROW);
	rm_cell(doc, AIM9_NUM_W, 1, buf);
	rm_cell(doc, AIM9_NAME_W, 0, r->id + strlen(AIM9_PREFIX));
	if (!result_usable(r)) {
		rm_cell(doc, -1, 0, r->status == RES_SKIP ? "skipped" : "failed");
		model_notes(doc, run, &r, 1, 0);
		return;
	}
	aim9_span(r, &elapsed, &count);
	hw = 100.0 * fmax(r->median - r->ci_low, r->ci_high - r->median) / r->median;
	if (r->median > 0 && isfinite(hw))
		snprintf(ci, sizeof(ci), hw < 99.95 ? "+-%.1f%%" : "+-%.0f%%", fmin(hw, 9999));
	snprintf(buf, sizeof(buf), elapsed > 0 ? "%.2f" : "-", elapsed);
	rm_cell(doc, AIM9_ELAPSED_W, 1, buf);
	snprintf(buf, sizeof(buf), elapsed > 0 ? "%.0f" : "-", count);
	rm_cell(doc, AIM9_COUNT_W, 1, buf);
	/* The loops from the factor of today's row; a row since removed has none. */
	snprintf(buf, sizeof(buf), b && b->ops > 0 ? "%.5f" : "-", b && b->ops > 0 ? r->median / b->ops : 0);
	rm_cell(doc, AIM9_RATE_W, 1, buf);
	snprintf(buf, sizeof(buf), "%.2f", r->median);
	rm_cell(doc, AIM9_RATE_W, 1, buf);
	snprintf(buf, sizeof(buf), "%s%s", ci, report_loose(r, sp) ? " " REPORT_LOOSE_MARK : "");
	rm_cell(doc, -1, 0, buf);
	snprintf(buf, sizeof(buf), "%*s %s", AIM9_NUM_W, "", r->unit);
	rm_text(doc, RM_CONT, buf);
}

/* AIM9's table for each run (or label) that has aim9 results, then the notes. */
static void aim9_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns)
{
	static const char *const head[2][6] = {
		{ "Test", "Test", "Elapsed", "Iteration", "Iteration", "Operation" },
		{ "Num", "Name", "Time (sec)", "Count", "Rate (loops/s)", "Rate (ops/s)" },
	};
	static const int width[6] = { AIM9_NUM_W, AIM9_NAME_W, AIM9_ELAPSED_W, AIM9_COUNT_W,
				      AIM9_RATE_W, AIM9_RATE_W };
	static const char rule[] = "-----------------------------------------------------------"
				   "-------------------";
	int noisy = 0;

	for (size_t k = 0; k < nruns; k++) {
		const struct run_info *run = &runs[k];
		char lab[4 * 40 + 1], title[4 * 40 + 64];

		if (!aim9_has(run))
			continue;
		struct report_spread sp = report_run_spread(run);

		label_cell(run, 40, lab, sizeof(lab));
		snprintf(title, sizeof(title), "AIM Independent Resource Benchmark - Suite IX - %s", lab);
		rm_table(doc, "aim9", title);
		rm_rule(doc, (int)strlen(rule));
		for (int h = 0; h < 2; h++) {
			rm_line(doc, RM_HEAD);
			for (int c = 0; c < 6; c++)
				rm_cell(doc, width[c], c != 1, head[h][c]);
		}
		rm_line(doc, RM_RULE);
		rm_cell(doc, -1, 0, rule);
		/* In AIM9's order, whatever order the run stored them in. */
		for (size_t i = 0; registry_at(i); i++) {
			const struct bench *b = registry_at(i);

			if (!(b->suites & SUITE_AIM9))
				continue;
			for (size_t j = 0; j < run->nresults; j++)
				if (strcmp(run->results[j].id, b->id) == 0) {
					aim9_row(doc, run, &run->results[j], &sp);
					noisy |= report_loose(&run->results[j], &sp);
				}
		}
		/* Results of rows this kbench no longer has, after the others. */
		for (size_t j = 0; j < run->nresults; j++)
			if (is_aim9(run->results[j].id) && !registry_find(run->results[j].id))
				aim9_row(doc, run, &run->results[j], &sp);
	}
	if (noisy)
		rm_text(doc, RM_NOTE, REPORT_LOOSE_MARK " = loose: its interval over twice its run's typical one");
}

static int in_a_table(const char *id)
{
	const struct catalog_kind *k = catalog_prefixed(id);
	const char *tid;

	if (is_rate(id) || is_aim9(id))
		return 1;

	/* contest's results have tables of their own (report_contest_text). */
	if (k && k->own_tables)
		return 1;
	for (size_t t = 0; t < NELEM(summary_tables); t++)
		for (size_t i = 0; (tid = table_id(summary_tables[t], i)); i++)
			if (strcmp(tid, id) == 0)
				return 1;
	return 0;
}

/*
 * " LABEL" as an argument to type after `kbench show ID`: quoted when the
 * shell would split or expand it ("Linux 6.18.44").
 */
static void show_label(const char *label, char *buf, size_t size)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789._+-/:=@,%";

	char text[4 * 128];

	if (label[0] && strspn(label, plain) == strlen(label))
		snprintf(buf, size, " %s", label);
	else
		snprintf(buf, size, " '%s'", esc(text, sizeof(text), label));
}

/* Other results' columns after Host and OS: wide enough for any id with its placement. */
#define OTHER_FIG_W 23
#define OTHER_MED_W 12
#define OTHER_CI_W 18

/* Whether r is listed among Other results: a figure no table has a column for. */
static int other_result(const struct result *r)
{
	return !in_a_table(r->id);
}

/* Other results' header: Host, OS, the figure's id, its median, its interval. */
static void other_header(struct rm_doc *doc)
{
	static const char dash[] = "------------------------";
	static const int widths[] = { HOST_W, OS_W, OTHER_FIG_W, OTHER_MED_W, OTHER_CI_W };

	rm_table(doc, "other", "Other results - median of the samples");
	rm_line(doc, RM_HEAD);
	rm_cell(doc, HOST_W, 0, "Host");
	rm_cell(doc, OS_W, 1, "OS");
	rm_cell(doc, OTHER_FIG_W, 0, "Figure");
	rm_cell(doc, OTHER_MED_W, 1, "Median");
	rm_cell(doc, OTHER_CI_W, 0, "95% CI");
	rm_line(doc, RM_RULE);
	for (size_t i = 0; i < NELEM(widths); i++)
		rm_cell(doc, widths[i], 0, dash);
}

/* One figure's row: its run's Host and OS, the id, the median with its unit, the interval. */
static void other_row(struct rm_doc *doc, const struct run_info *run, const struct result *r,
		      const struct report_spread *sp)
{
	char cell[192], fig[64], lo[64], hi[64];

	rm_line(doc, RM_ROW);
	rm_cell(doc, HOST_W, 0, run->host);
	os_cell(run, cell, sizeof(cell));
	rm_cell(doc, OS_W, 1, cell);
	snprintf(cell, sizeof(cell), "%s%s", r->id, place_tag(r));
	rm_cell(doc, OTHER_FIG_W, 0, cell);
	report_fig(fig, sizeof(fig), r->median);
	snprintf(cell, sizeof(cell), "%s%s %s", fig, report_loose(r, sp) ? "!" : "", r->unit);
	rm_cell(doc, OTHER_MED_W, 1, cell);
	if (report_loose(r, sp))
		rm_flags(doc, RM_NOISY);
	report_fig(lo, sizeof(lo), r->ci_low);
	report_fig(hi, sizeof(hi), r->ci_high);
	snprintf(cell, sizeof(cell), "%s to %s", lo, hi);
	rm_cell(doc, OTHER_CI_W, 0, cell);
}

/*
 * Results that no table has a column for (sys.fstat, the page fault with
 * fault-around off) are a table of their own after the others, a row a
 * figure, so that nothing measured goes unshown and a figure is not a
 * note.  A curve (mem.lat.curve) has no single figure worth a row: a line
 * under the table says how to see it, with the notes of every figure.
 */
static void other_results(struct rm_doc *doc, const struct run_info *runs, size_t nruns)
{
	int header = 0;
	char name[160], line[1024];

	for (size_t k = 0; k < nruns; k++) {
		struct report_spread sp = report_run_spread(&runs[k]);

		for (size_t i = 0; i < runs[k].nresults; i++) {
			const struct result *r = &runs[k].results[i];

			if (!other_result(r))
				continue;
			if (!header++)
				other_header(doc);
			if (result_usable(r) && r->npoints == 0)
				other_row(doc, &runs[k], r, &sp);
		}
	}
	for (size_t k = 0; k < nruns; k++) {
		const struct result **rs = calloc(runs[k].nresults + 1, sizeof(*rs));
		size_t n = 0;

		if (!rs) {
			doc->oom = 1;
			return;
		}
		for (size_t i = 0; i < runs[k].nresults; i++) {
			const struct result *r = &runs[k].results[i];

			if (!other_result(r))
				continue;
			rs[n++] = r;
			run_name(&runs[k], name, sizeof(name));
			if (result_usable(r) && r->npoints > 0) {
				char show[160] = "";

				/* A merged row's points are one of its runs': name that run. */
				if (runs[k].nmerged > 1 && r->from_run > 0)
					snprintf(show, sizeof(show), " %lld", (long long)r->from_run);
				else if (runs[k].nmerged > 1)
					show_label(runs[k].label, show, sizeof(show));
				else if (runs[k].id > 0)
					snprintf(show, sizeof(show), " %lld", (long long)runs[k].id);
				snprintf(line, sizeof(line), "  %s %s%s: %zu points, see kbench show %s%s",
					 name, r->id, place_tag(r), r->npoints, r->id, show);
				rm_text(doc, RM_NOTE, line);
			}
		}
		model_notes(doc, &runs[k], rs, n, 1);
		free(rs);
	}
}

void report_cpus_notes(FILE *out, const struct run_info *runs, size_t nruns)
{
	for (size_t k = 0; k < nruns; k++) {
		struct sysinfo si;
		char lab[4 * 40 + 1], who[4 * 40 + 32];

		if (report_sysinfo_parse(runs[k].sysinfo_json, &si) < 0 || !si.cpus_mode[0] ||
		    strcmp(si.cpus_mode, "all") == 0)
			continue;
		report_cell(lab, sizeof(lab), runs[k].label, 40, 0);
		/* A label's merged row has no run id of its own: it is named by its label. */
		if (runs[k].id > 0)
			snprintf(who, sizeof(who), "run %lld (%s)", (long long)runs[k].id, lab);
		else
			snprintf(who, sizeof(who), "label %s", lab);
		if (strcmp(si.cpus_mode, "offline") == 0)
			fprintf(out, "note: %s ran on cpus %s with the others offline (online %s of %s): an "
				"SMP kernel on fewer CPUs, not a UP kernel\n", who, si.cpus, si.cpus_online,
				si.cpus_present);
		else
			fprintf(out, "note: %s ran on cpus %s only (affinity: the other CPUs of %s kept "
				"running, their interrupts and kernel threads too)\n", who, si.cpus,
				si.cpus_online);
	}
}

int report_summary_has(const struct run_info *runs, size_t nruns)
{
	for (size_t i = 0; i < nruns; i++)
		for (size_t j = 0; j < runs[i].nresults; j++) {
			const struct catalog_kind *k = catalog_prefixed(runs[i].results[j].id);

			if (!k || !k->own_tables)
				return 1;
		}
	return 0;
}

void report_summary_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns)
{
	/* Each run's machine, parsed once; without memory the tables go without it. */
	struct sysinfo *si = nruns ? calloc(nruns, sizeof(*si)) : NULL;
	const struct sysinfo **sip = nruns ? calloc(nruns, sizeof(*sip)) : NULL;

	for (size_t k = 0; si && sip && k < nruns; k++)
		if (report_sysinfo_parse(runs[k].sysinfo_json, &si[k]) == 0)
			sip[k] = &si[k];
	for (size_t t = 0; t < NELEM(summary_tables); t++)
		table_print(doc, summary_tables[t], runs, sip, nruns);
	rates_model(doc, runs, nruns);
	aim9_model(doc, runs, nruns);
	other_results(doc, runs, nruns);
	free(sip);
	free(si);
}

void report_summary(FILE *out, const struct run_info *runs, size_t nruns, int verbose)
{
	struct rm_doc doc = { .verbose = verbose };

	report_summary_model(&doc, runs, nruns);
	rm_write_text(out, &doc);
	rm_doc_free(&doc);
	report_cpus_notes(out, runs, nruns);
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

#define SYSINFO_LINES 40

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
	fmt_str(kv_add(rows, &n, "cpus"), vs, si->cpus, "unknown");
	fmt_str(kv_add(rows, &n, "cpus mode"), vs, si->cpus_mode, "unknown");
	fmt_str(kv_add(rows, &n, "cpus present"), vs, si->cpus_present, "unknown");
	fmt_str(kv_add(rows, &n, "cpus possible"), vs, si->cpus_possible, "unknown");
	fmt_str(kv_add(rows, &n, "kernel cmdline"), vs, si->cmdline, "unknown");
	if (si->mhz > 0 && isfinite(si->mhz))
		snprintf(kv_add(rows, &n, "mhz"), vs, "%.0f", si->mhz);
	else
		snprintf(kv_add(rows, &n, "mhz"), vs, "unknown");
	fmt_str(kv_add(rows, &n, "clock source"), vs, si->clocksource, "unknown");
	fmt_str(kv_add(rows, &n, "clock sources"), vs, si->clocksources, "unknown");
	fmt_ns(kv_add(rows, &n, "clock cost"), vs, si->clock_cost_ns);
	fmt_ns(kv_add(rows, &n, "clock resolution"), vs, si->clock_res_ns);
	fmt_ns(kv_add(rows, &n, "loop cost"), vs, si->loop_ns);
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
	fmt_str(kv_add(rows, &n, "libc tunables"), vs, si->libc_tunables, "none");

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
	/* The unit column is at least lmbench's "MB/s" wide, wider for "calls/s". */
	int idw = 0, suitew = 0, unitw = 4;

	for (size_t i = 0; i < n; i++) {
		int l = (int)strlen(rows[i].bench->id);
		int s = rows[i].suites ? (int)strlen(rows[i].suites) : 0;
		int u = (int)strlen(bench_unit(rows[i].bench));
		if (l > idw)
			idw = l;
		if (s > suitew)
			suitew = s;
		if (u > unitw)
			unitw = u;
	}
	for (size_t i = 0; i < n; i++) {
		const struct bench *b = rows[i].bench;

		fprintf(out, "%-*s  %-*s  %-6s  %-*s  %s", idw, b->id, unitw, bench_unit(b),
			bench_better_name(b->better), suitew,
			rows[i].suites ? rows[i].suites : "", b->summary ? b->summary : "");
		if (rows[i].reason)
			fprintf(out, "  [skip: %s]", rows[i].reason);
		fputc('\n', out);
	}
}

/* ------------------------------------------------------------------ */
/* show                                                                */
/* ------------------------------------------------------------------ */

/* A curve's size column: "128M", "1.5K". */
#define SHOW_SIZE_W 7
/* A series column: a figure right-aligned in this many, then its noisy mark. */
#define SHOW_FIG_W 12
/*
 * Series side by side: 7 + 5 x (1 + 12 + 1) = 77 columns.  A curve with
 * more series is wrapped: the next five follow in a block of their own,
 * with the size column again.
 */
#define SHOW_SERIES 5
_Static_assert(SHOW_SIZE_W + SHOW_SERIES * (SHOW_FIG_W + 2) <= LINE_MAX_COLS,
	       "show's curve table must fit 80 columns");

/* One "key: value" line of show; the values are aligned when printed. */
struct show_line {
	char key[32];
	char val[320];
};

/* Fixed lines of a figure, and one for each value. */
#define SHOW_LINES (16 + BENCH_MAX_VALUES)

__attribute__((format(printf, 4, 5)))
static void line_add(struct show_line *l, size_t *n, const char *key, const char *fmt, ...)
{
	va_list ap;

	if (*n >= SHOW_LINES)
		BUG("more show lines than SHOW_LINES");
	snprintf(l[*n].key, sizeof(l[*n].key), "%s", key);
	va_start(ap, fmt);
	vsnprintf(l[*n].val, sizeof(l[*n].val), fmt, ap);
	va_end(ap);
	(*n)++;
}

static void lines_print(FILE *out, const struct show_line *l, size_t n)
{
	size_t w = 0;

	for (size_t i = 0; i < n; i++)
		if (strlen(l[i].key) > w)
			w = strlen(l[i].key);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s:%*s%s\n", l[i].key, (int)(w - strlen(l[i].key) + 1), "", l[i].val);
}

/*
 * A value as text: a whole number without decimals, other numbers to four
 * digits, and a size in bytes (a key ending in "size" or "detected") also
 * the way people write it: "262144 (256K)".
 */
static void value_text(char *buf, size_t size, const struct bench_value *v)
{
	size_t klen = strlen(v->key), used;
	char sz[32];

	if (v->text[0]) {
		esc(buf, size, v->text);
		return;
	}
	if (!isfinite(v->num)) {
		snprintf(buf, size, "unknown");
		return;
	}
	if (v->num == floor(v->num) && fabs(v->num) < 1e15)
		snprintf(buf, size, "%.0f", v->num);
	else
		report_fig(buf, size, v->num);
	used = strlen(buf);
	if (v->num >= 1024 && used < size &&
	    ((klen >= 4 && strcmp(v->key + klen - 4, "size") == 0) ||
	     (klen >= 8 && strcmp(v->key + klen - 8, "detected") == 0))) {
		report_size(sz, sizeof(sz), v->num, 16);
		snprintf(buf + used, size - used, " (%s)", sz);
	}
}

/* The id, its unit and direction, and which run it is from. */
static void show_head(FILE *out, const struct run_info *run, const struct result *r)
{
	char name[160], label[4 * sizeof(run->label)], host[4 * sizeof(run->host)];
	char started[4 * sizeof(run->started)];

	run_name(run, name, sizeof(name));
	fprintf(out, "%s%s - %s - %s is better\n", r->id, place_tag(r), r->unit,
		r->better == BETTER_HIGHER ? "bigger" : "smaller");
	fprintf(out, "%s%s%s%s on %s, started %s\n", name, run->id > 0 ? " '" : "",
		run->id > 0 ? esc(label, sizeof(label), run->label) : "", run->id > 0 ? "'" : "",
		esc(host, sizeof(host), run->host), esc(started, sizeof(started), run->started));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The point of series s at size x, or NULL. */
static const struct result_point *curve_point(const struct result *r, size_t n, const char *s,
					      double x)
{
	for (size_t i = 0; i < n; i++)
		if (r->points[i].x == x &&
		    strncmp(r->points[i].series, s, sizeof(r->points[i].series)) == 0)
			return &r->points[i];
	return NULL;
}

/*
 * A curve as a table: a line per size, ascending, a column per series in
 * the order they were measured, each cell the median with '*' after it when
 * the point was noisy.  A series without a point at a size leaves a blank.
 */
static void show_curve(FILE *out, const struct result *r)
{
	const char *series[BENCH_MAX_POINTS];
	double xs[BENCH_MAX_POINTS];
	size_t n = r->npoints < BENCH_MAX_POINTS ? r->npoints : BENCH_MAX_POINTS;
	size_t nseries = 0, nx = 0;
	int noisy = 0;

	for (size_t i = 0; i < n; i++) {
		const struct result_point *p = &r->points[i];
		size_t j;

		for (j = 0; j < nseries; j++)
			if (strncmp(series[j], p->series, sizeof(p->series)) == 0)
				break;
		if (j == nseries)
			series[nseries++] = p->series;
		for (j = 0; j < nx; j++)
			if (xs[j] == p->x)
				break;
		if (j == nx)
			xs[nx++] = p->x;
	}
	qsort(xs, nx, sizeof(xs[0]), cmp_double);

	for (size_t b = 0; b < nseries; b += SHOW_SERIES) {
		size_t e = b + SHOW_SERIES < nseries ? b + SHOW_SERIES : nseries;
		/* A series name may take 4 bytes a column (UTF-8): room for five. */
		char line[512], dash[SHOW_FIG_W + 2];
		size_t pos;

		if (b)
			fputc('\n', out);
		pos = (size_t)snprintf(line, sizeof(line), "%*s", SHOW_SIZE_W, "size");
		for (size_t s = b; s < e; s++) {
			char cell[4 * SHOW_FIG_W + 1];

			pos += (size_t)snprintf(line + pos, sizeof(line) - pos, " %s ",
						report_cell(cell, sizeof(cell), series[s], SHOW_FIG_W, 1));
		}
		put_line(out, line);
		/* The dashes cover the noisy mark's place too. */
		memset(dash, '-', SHOW_FIG_W + 1);
		dash[SHOW_FIG_W + 1] = '\0';
		pos = (size_t)snprintf(line, sizeof(line), "%.*s", SHOW_SIZE_W, "-----------");
		for (size_t s = b; s < e; s++)
			pos += (size_t)snprintf(line + pos, sizeof(line) - pos, " %s", dash);
		put_line(out, line);
		for (size_t k = 0; k < nx; k++) {
			char sz[32];

			report_size(sz, sizeof(sz), xs[k], SHOW_SIZE_W);
			pos = (size_t)snprintf(line, sizeof(line), "%*s", SHOW_SIZE_W, sz);
			for (size_t s = b; s < e; s++) {
				const struct result_point *p = curve_point(r, n, series[s], xs[k]);
				char f[32] = "";

				if (p && isfinite(p->y))
					report_fig(f, sizeof(f), p->y);
				noisy |= p && p->noisy;
				pos += (size_t)snprintf(line + pos, sizeof(line) - pos, " %*.*s%c",
							SHOW_FIG_W, SHOW_FIG_W, f,
							p && p->noisy ? '*' : ' ');
			}
			put_line(out, line);
		}
	}
	if (noisy)
		fputs("* noisy: the point's 95% CI missed the precision asked for\n", out);
}

/* The value keys of the cache levels found in a curve, in bytes. */
static const char *const level_keys[] = { "l1_detected", "l2_detected", "l3_detected" };

static int is_level_key(const char *key)
{
	for (size_t i = 0; i < NELEM(level_keys); i++)
		if (strcmp(key, level_keys[i]) == 0)
			return 1;
	return 0;
}

/*
 * The cache levels found in the curve next to the sizes the OS reports:
 * "none" where the curve showed no such level (its value is 0 or absent),
 * or the OS lists caches without it; "unknown" where the OS did not say.
 */
static void show_levels(FILE *out, const struct result *r, const struct sysinfo *si)
{
	int any = 0;

	for (size_t i = 0; i < NELEM(level_keys); i++)
		any |= result_value(r, level_keys[i]) != NULL;
	if (!any)
		return;
	fputs("\ncache  detected  OS reports\n-----  --------  ----------\n", out);
	for (int i = 0; i < (int)NELEM(level_keys); i++) {
		double det = value_num(r, level_keys[i]), os = os_cache_bytes(si, i + 1);
		char d[32], o[32];

		if (!isfinite(det) && !(os > 0))
			continue;
		if (det > 0)
			report_size(d, sizeof(d), det, 8);
		else
			snprintf(d, sizeof(d), "none");
		if (os > 0)
			report_size(o, sizeof(o), os, 10);
		else
			snprintf(o, sizeof(o), si && si->ncaches > 0 ? "none" : "unknown");
		fprintf(out, "L%d     %8s  %s\n", i + 1, d, o);
	}
}

/* The values a curve's table and levels have not shown, one a line. */
static void show_curve_values(FILE *out, const struct result *r)
{
	struct show_line l[SHOW_LINES];
	size_t n = 0;
	char v[300];

	for (size_t i = 0; i < r->nvalues && i < BENCH_MAX_VALUES; i++) {
		if (is_level_key(r->values[i].key))
			continue;
		value_text(v, sizeof(v), &r->values[i]);
		line_add(l, &n, r->values[i].key, "%s", v);
	}
	if (n) {
		fputc('\n', out);
		lines_print(out, l, n);
	}
}

/* A single figure: the median, its CI, how it was sampled, its values. */
static void show_figure(FILE *out, const struct result *r)
{
	struct show_line l[SHOW_LINES];
	size_t n = 0;
	int usable = result_usable(r);
	/* why fits a show line's value whole, so it is never cut inside an escape. */
	char a[32], b[32], c[32], v[300], why[300];

	if (usable) {
		double hw = fmax(r->median - r->ci_low, r->ci_high - r->median);

		report_fig(a, sizeof(a), r->median);
		line_add(l, &n, "median", "%s %s", a, r->unit);
		if (isfinite(r->ci_low) && isfinite(r->ci_high)) {
			report_fig(a, sizeof(a), r->ci_low);
			report_fig(b, sizeof(b), r->ci_high);
			if (r->median != 0 && isfinite(hw / r->median))
				line_add(l, &n, "95% CI", "%s to %s %s (+-%.1f%%)", a, b, r->unit,
					 100.0 * hw / fabs(r->median));
			else
				line_add(l, &n, "95% CI", "%s to %s %s", a, b, r->unit);
		}
		line_add(l, &n, "status", "%s, stopped at %s", result_status_name(r->status),
			 result_stop_name(r->stop));
	} else {
		line_add(l, &n, "status", "%s: %s", result_status_name(r->status),
			 r->reason[0] ? esc(why, sizeof(why), r->reason) : "no reason given");
	}
	if (r->n > 0)
		line_add(l, &n, "samples", "%zu, each of %" PRIu64 " iteration%s", r->n,
			 r->iterations, r->iterations == 1 ? "" : "s");
	if (usable && isfinite(r->min) && isfinite(r->max)) {
		report_fig(a, sizeof(a), r->min);
		report_fig(b, sizeof(b), r->max);
		line_add(l, &n, "min to max", "%s to %s %s", a, b, r->unit);
	}
	if (usable && isfinite(r->mean) && isfinite(r->stddev) && isfinite(r->cv)) {
		report_fig(a, sizeof(a), r->mean);
		report_fig(b, sizeof(b), r->stddev);
		line_add(l, &n, "mean", "%s %s, stddev %s (cv %.1f%%)", a, r->unit, b, 100.0 * r->cv);
	}
	if (usable && isfinite(r->p5) && isfinite(r->p95)) {
		report_fig(a, sizeof(a), r->p5);
		report_fig(b, sizeof(b), r->p95);
		line_add(l, &n, "p5 to p95", "%s to %s %s", a, b, r->unit);
	}
	if (usable && r->overhead > 0 && isfinite(r->overhead)) {
		report_fig(a, sizeof(a), r->overhead);
		line_add(l, &n, "overhead", "%s %s per iteration, subtracted", a, r->unit);
	}
	if (r->interference >= 0 && isfinite(r->interference))
		line_add(l, &n, "interference", "%.0f%% of the other CPUs%s", 100.0 * r->interference,
			 result_busy(r) ? " (busy)" : "");
	if (isfinite(r->drift))
		line_add(l, &n, "drift", "%.1f%%, the sentinel across the replicas%s",
			 100.0 * r->drift, r->drifted ? " (more than the precision)" : "");
	if (r->placement != PLACE_NA)
		line_add(l, &n, "placement", "%s", place_name(r->placement));
	if (r->parallel > 1) {
		if (usable && isfinite(r->aggregate)) {
			report_fig(c, sizeof(c), r->aggregate);
			line_add(l, &n, "parallel", "%d copies, together %s %s%s", r->parallel, c,
				 r->unit, metric_unit_is_time(r->unit, r->better) ? "/op" : "");
		} else {
			line_add(l, &n, "parallel", "%d copies", r->parallel);
		}
	}
	if (r->wall_s > 0 && isfinite(r->wall_s)) {
		double sampling = 0;

		/* Where a row's time went: sampling, or what precedes it in every replica. */
		for (size_t i = 0; i < r->nreplicas; i++)
			if (isfinite(r->replicas[i].t0) && isfinite(r->replicas[i].t1) &&
			    r->replicas[i].t1 > r->replicas[i].t0)
				sampling += r->replicas[i].t1 - r->replicas[i].t0;
		if (sampling > 0 && sampling < r->wall_s)
			line_add(l, &n, "wall time", "%.1f s (%.1f s sampling, %.1f s set-up, warm-up, sentinel)",
				 r->wall_s, sampling, r->wall_s - sampling);
		else
			line_add(l, &n, "wall time", "%.1f s", r->wall_s);
	}
	for (size_t i = 0; i < r->nvalues && i < BENCH_MAX_VALUES; i++) {
		value_text(v, sizeof(v), &r->values[i]);
		line_add(l, &n, r->values[i].key, "%s", v);
	}
	lines_print(out, l, n);
}

/*
 * Where each replica's ends ran, for a figure between processes whose
 * replicas know: "ends on one CPU in replicas 1 2 5; on several CPUs in 3 4".
 */
static void show_ends(FILE *out, const struct result *r)
{
	const char *sep = "\nends";

	if (r->placement == PLACE_NA)
		return;
	for (int e = REPLICA_ONE_CPU; e <= REPLICA_SEVERAL_CPUS; e++) {
		int any = 0;

		for (size_t k = 0; k < r->nreplicas; k++) {
			double a = r->replicas[k].apart;

			if (!isfinite(a) || (a >= REPLICA_APART) != (e == REPLICA_SEVERAL_CPUS))
				continue;
			if (!any++)
				fprintf(out, "%s on %s in replicas", sep,
					replica_ends_name((enum replica_ends)e));
			fprintf(out, " %zu", k + 1);
			sep = ";";
		}
	}
	if (strcmp(sep, ";") == 0)
		fputc('\n', out);
}

/*
 * The replicas behind a figure, one a line, in the order taken: when each
 * ran, its median and CI, its samples, and the sentinel around it, so a
 * replica that sat in a slow spell of the machine can be seen as one.
 */
static void show_replicas(FILE *out, const struct result *r)
{
	char m[32], lo[32], hi[32];

	if (r->nreplicas < 2 || !r->replicas)
		return;
	fprintf(out, "\nreplica  at (s)       median   95%% CI               samples  "
		"getppid   adds (ns)\n");
	for (size_t k = 0; k < r->nreplicas; k++) {
		const struct result_replica *p = &r->replicas[k];
		char at[32], sys[16], user[16];

		report_fig(m, sizeof(m), p->median);
		report_fig(lo, sizeof(lo), p->lo);
		report_fig(hi, sizeof(hi), p->hi);
		if (isfinite(p->t0) && isfinite(p->t1))
			snprintf(at, sizeof(at), "%.1f-%.1f", p->t0, p->t1);
		else
			snprintf(at, sizeof(at), "-");
		if (isfinite(p->sentinel_sys))
			snprintf(sys, sizeof(sys), "%.1f", p->sentinel_sys);
		else
			snprintf(sys, sizeof(sys), "-");
		if (isfinite(p->sentinel_user))
			snprintf(user, sizeof(user), "%.3f", p->sentinel_user);
		else
			snprintf(user, sizeof(user), "-");
		fprintf(out, "%7zu  %-11s %8s %9s to %-9s %7zu  %7s %10s\n", k + 1, at, m, lo, hi,
			p->n, sys, user);
	}
	show_ends(out, r);
}

/* Bins of the sentinel's timeline that `show sentinel` prints at most. */
#define SHOW_SENTINEL_ROWS 40

void report_show_sentinel_text(FILE *out, const struct run_info *run)
{
	size_t n = run->nsentinel, per = (n + SHOW_SENTINEL_ROWS - 1) / SHOW_SENTINEL_ROWS;
	double *sys = malloc((n ? n : 1) * sizeof(*sys)), *user = malloc((n ? n : 1) * sizeof(*user));
	struct stats_summary ssys, suser;
	char name[160], label[4 * sizeof(run->label)], host[4 * sizeof(run->host)];
	char started[4 * sizeof(run->started)];
	size_t ns = 0, nu = 0;

	if (!sys || !user)
		BUG("out of memory for %zu sentinel points", n);
	run_name(run, name, sizeof(name));
	fprintf(out, "sentinel - the machine's speed through the run: getppid and a dependent "
		"add, ns\n%s '%s' on %s, started %s\n", name, esc(label, sizeof(label), run->label),
		esc(host, sizeof(host), run->host), esc(started, sizeof(started), run->started));
	for (size_t i = 0; i < n; i++) {
		if (isfinite(run->sentinel[i].sys_ns))
			sys[ns++] = run->sentinel[i].sys_ns;
		if (isfinite(run->sentinel[i].user_ns))
			user[nu++] = run->sentinel[i].user_ns;
	}
	if (ns == 0 || nu == 0 || stats_summarize(sys, ns, &ssys) < 0 ||
	    stats_summarize(user, nu, &suser) < 0) {
		fprintf(out, "\nno timeline: the run was measured before kbench kept one\n");
		free(sys);
		free(user);
		return;
	}
	fprintf(out, "\n%zu points over %.0f s\ngetppid: median %.1f ns, p5 %.1f, p95 %.1f (%.2fx)\n"
		"adds:    median %.3f ns, p5 %.3f, p95 %.3f (%.2fx)\n", n, run->sentinel[n - 1].t,
		ssys.median, ssys.p5, ssys.p95, ssys.p95 / ssys.p5, suser.median, suser.p5, suser.p95,
		suser.p95 / suser.p5);
	fprintf(out, "\n    from      to  points cpus  getppid      adds  getppid against the median\n");
	for (size_t i = 0; i < n; i += per) {
		size_t m = i + per < n ? per : n - i, ks = 0, ku = 0;
		struct stats_summary a, b;
		char cpus[8] = "", bar[32];
		int c0 = run->sentinel[i].cpu, mixed = 0, len;

		for (size_t k = i; k < i + m; k++) {
			mixed |= run->sentinel[k].cpu != c0;
			if (isfinite(run->sentinel[k].sys_ns))
				sys[ks++] = run->sentinel[k].sys_ns;
			if (isfinite(run->sentinel[k].user_ns))
				user[ku++] = run->sentinel[k].user_ns;
		}
		snprintf(cpus, sizeof(cpus), mixed ? "both" : c0 < 0 ? "-" : "%d", c0);
		if (!ks || !ku || stats_summarize(sys, ks, &a) < 0 || stats_summarize(user, ku, &b) < 0)
			continue;
		/* One mark a percent away from the run's median, up to 20. */
		len = (int)fmin(20, fabs(a.median / ssys.median - 1) * 100 + 0.5);
		memset(bar, a.median >= ssys.median ? '+' : '-', (size_t)len);
		bar[len] = '\0';
		fprintf(out, "%8.1f %7.1f %7zu %4s %8.1f %9.3f  %+5.1f%%%s%s\n", run->sentinel[i].t,
			run->sentinel[i + m - 1].t, m, cpus, a.median, b.median,
			100 * (a.median / ssys.median - 1), len ? " " : "", bar);
	}
	free(sys);
	free(user);
}

int report_show_text(FILE *out, const struct run_info *run, const char *id)
{
	struct sysinfo si;
	int have_si = report_sysinfo_parse(run->sysinfo_json, &si) == 0, shown = 0;

	for (size_t i = 0; i < run->nresults; i++) {
		const struct result *r = &run->results[i];

		if (strcmp(r->id, id) != 0)
			continue;
		if (shown++)
			fputc('\n', out);
		show_head(out, run, r);
		fputc('\n', out);
		if (r->npoints > 0 && r->points) {
			show_curve(out, r);
			show_levels(out, r, have_si ? &si : NULL);
			show_curve_values(out, r);
		} else {
			show_figure(out, r);
		}
		show_replicas(out, r);
	}
	return shown;
}

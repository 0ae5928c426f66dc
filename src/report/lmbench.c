/*
 * lmbench's seven summary tables, basic system parameters to memory
 * latencies: each table's columns and the cells they are made of, and the
 * row builder that lays a table out on the model (report/model.h), a row
 * per run and placement, with the notes under it.  Tables stay within 80
 * columns so they survive being pasted into mail.  The rates, AIM9 and
 * the other results, and the summary that puts them together, are files
 * of their own (report/lmbench.h).
 */
#include "report/lmbench.h"
#include "report/report.h"
#include "report/fmt.h"
#include "judge/loose.h"
#include "report/model.h"
#include "report/notes.h"
#include "report/text.h"
#include "core/replica.h"
#include "core/utf8.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* lmbench's seven tables, basic to memory latencies (summary_tables). */
#define SUMMARY_TABLES 7

struct table_col;

/* What a row shows: one run's results under one placement. */
struct row {
	const struct run_info *run;
	enum placement place;	/* PLACE_NA for a table of single-process figures */
	const struct sysinfo *si;	/* the run's stored machine description, or NULL */
	const struct judge_spread *sp;	/* its intervals, for the loose mark */
	int verbose;			/* every note (-v), not only the marks' */
	int osw;			/* the OS column's width (lm_os_width) */
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
	cell_fn cell;		/* NULL: the figure of ids[0] */
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

static void cell_figure(const struct table_col *col, const struct row *row, char *buf)
{
	const struct result *r = find_result(row, col->ids[0]);
	struct replica_mode modes[2];
	int w = col->numw ? col->numw : col->width;

	buf[0] = '\0';
	if (!text_usable(r))
		return;
	if (replica_modes(r, modes) == 2)
		cell_marked(buf, w, result_figure(r), NOTE_MODES_MARK);
	else if (row->sp && judge_loose(r, row->sp))
		cell_marked(buf, w, result_figure(r), NOTE_LOOSE_MARK);
	else if (note_slow_marked(r))
		cell_marked(buf, w, result_figure(r), NOTE_SLOW_MARK);
	else
		report_num(buf, w, result_figure(r));
}

/* The mean of the figures of all ids, blank unless every one is usable. */
static void cell_mean(const struct table_col *col, const struct row *row, char *buf)
{
	double sum = 0;
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NELEM(col->ids) && col->ids[i]; i++) {
		const struct result *r = find_result(row, col->ids[i]);
		if (!text_usable(r))
			return;
		sum += result_figure(r);
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
	const struct row na = { row->run, PLACE_NA, row->si, row->sp, row->verbose, row->osw };
	const struct result *r = find_result(&na, "cpu.mhz");

	if (text_usable(r) && result_figure(r) > 0)
		return result_figure(r);
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
	double bytes = text_os_cache_bytes(row->si, level);

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
 * columns are not measured by kbench.  The processor's name gets 15
 * columns ("AMD EPYC 7R13", "Platinum 8375C": short_model drops words from
 * the left), so that the row with its cache columns stays in 80.
 */
static const struct table_col basic_cols[] = {
	{ "Description", "", 15, 0, { NULL }, cell_model, 0, 1 },
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
	text_run_name(row->run, name, sizeof(name));
	if (isfinite(row->sp->machine))
		snprintf(floor, sizeof(floor), ", none under +-%.1f%% (the machine's spread)",
			 100 * row->sp->machine);
	/* Too few figures for a typical interval: the machine's spread is what a ! is held to. */
	if (!judge_loose_typical(row->sp) && isfinite(row->sp->machine))
		fprintf(out, "  %s: too few figures (%zu) for a typical interval; the machine's"
			" +-%.1f%%\n", name, row->sp->n, 100 * row->sp->machine);
	else if (judge_loose_typical(row->sp))
		fprintf(out, "  %s: intervals +-%.1f%% typically%s\n", name, 100 * row->sp->typical,
			floor);
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

	text_run_name(row->run, name, sizeof(name));
	for (size_t i = 0; i < NELEM(fs_ids); i++) {
		const struct bench_value *v;

		const struct bench_value *spread;

		r = find_result(row, fs_ids[i]);
		v = r ? result_value(r, "fs_type") : NULL;
		spread = r ? result_value(r, "dirs_spread") : NULL;
		/* What the figure depends on: the file system, and whether each replica had
		 * a block group of its own (ext4 pays for reusing inodes freed recently). */
		if (v && v->text[0]) {
			fprintf(out, "  %s fs.*: files on %s%s\n", name, text_esc(f, sizeof(f), v->text),
				spread && strcmp(spread->text, "yes") == 0 ?
				", each replica's in a block group of its own" : "");
			break;
		}
	}
	r = find_result(row, "vm.page_fault");
	pages = text_value_num(r, "pages_per_fault");
	/* How the figure is made, for -v: kbench list and show say it too. */
	if (row->verbose && text_usable(r) && pages > 0)
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
/* The Guesses column: Host to Main mem and the blank after take 57 of the 80 columns. */
#define GUESSES_W 23

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
		double det = text_value_num(lv[i], "detected"), os = text_value_num(lv[i], "os_size");

		if (!text_usable(lv[i]))
			continue;
		if (!(os > 0))
			os = text_os_cache_bytes(row->si, i + 1);
		if (det > 0 && os > 0 && (det > GUESS_SIZE_RATIO * os || os > GUESS_SIZE_RATIO * det)) {
			char d[16], o[16];

			report_size(d, sizeof(d), det, 5);
			report_size(o, sizeof(o), os, 5);
			guess_add(buf, size, &used, "L%d %s/OS %s", i + 1, d, o);
		}
		if (last && result_figure(lv[i]) < GUESS_SLOWER * result_figure(last))
			guess_add(buf, size, &used, "L%d ~ L%d", i + 1, lastn);
		last = lv[i];
		lastn = i + 1;
	}
	if (text_usable(mem) && last && result_figure(mem) < GUESS_SLOWER * result_figure(last))
		guess_add(buf, size, &used, "mem ~ L%d", lastn);
	if (text_usable(lv[0]) && text_usable(lv[1]) && !text_usable(lv[2])) {
		double os3 = text_os_cache_bytes(row->si, 3);
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
	text_run_name(row->run, name, sizeof(name));
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

/* The first (second = 0) or second line of the column labels. */
static void header_labels(struct rm_doc *doc, const struct table *t, int second, int osw)
{
	rm_line(doc, RM_HEAD);
	rm_cell(doc, LM_HOST_W, 0, second ? "" : "Host");
	rm_cell(doc, osw, 1, second ? "" : "OS");
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

static void table_header(struct rm_doc *doc, const struct table *t, int osw)
{
	char dash[LM_LABEL_CELL];

	/* Dashes enough for any column; the cell is cut to its width. */
	memset(dash, '-', sizeof(dash) - 1);
	dash[sizeof(dash) - 1] = '\0';
	rm_table(doc, t->id, t->title);
	header_labels(doc, t, 0, osw);
	if (has_second_labels(t))
		header_labels(doc, t, 1, osw);
	rm_line(doc, RM_RULE);
	for (size_t i = 0; i < t->ncols + 2; i++)
		rm_cell(doc, i == 0 ? LM_HOST_W : i == 1 ? osw : t->cols[i - 2].width, 0, dash);
}

/*
 * A label in at most width columns (the OS cell, a rates column's head):
 * the label, and " [N]" for a row merged from N runs, as contest shows
 * them.  lmbench right-aligns the OS, so a cut label keeps its start
 * visible; the count is cut never, the label before it instead
 * ("2.5.47-m [12]"), since a row of twelve runs is not a row of one.
 */
void lm_label_cell(const struct run_info *run, int width, char *buf, size_t size)
{
	char count[32] = "";
	size_t clen;
	int keep;

	if (run->nmerged > 1)
		snprintf(count, sizeof(count), " [%zu]", run->nmerged);
	clen = strlen(count);
	keep = width < 0 ? -1 : width - (int)clen > 0 ? width - (int)clen : 0;
	if (size <= clen)
		BUG("no room for the label cell");
	/* Cut by the columns the label takes, escaped, never inside a character. */
	report_cell(buf, size - clen, run->label, keep, 0);
	strcat(buf, count);
}

int lm_os_width(const struct run_info *runs, size_t nruns)
{
	char cell[LM_LABEL_CELL];
	int w = LM_OS_W;

	for (size_t k = 0; k < nruns; k++) {
		lm_label_cell(&runs[k], -1, cell, sizeof(cell));
		if (utf8_width(cell) > w)
			w = utf8_width(cell);
	}
	return w;
}

/* What the notes will say of the cell's figures: noisy, busy, missing. */
static unsigned cell_flags(const struct table_col *c, const struct row *row)
{
	unsigned flags = 0;

	for (size_t j = 0; j < NELEM(c->ids) && c->ids[j]; j++) {
		const struct result *r = find_result(row, c->ids[j]);

		if (!r)
			continue;
		if (row->sp && judge_loose(r, row->sp))
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
	char cell[LM_LABEL_CELL];

	rm_line(doc, RM_ROW);
	rm_cell(doc, LM_HOST_W, 0, run->host);
	lm_label_cell(run, row->osw, cell, sizeof(cell));
	rm_cell(doc, row->osw, 1, cell);
	for (size_t i = 0; i < t->ncols; i++) {
		const struct table_col *c = &t->cols[i];
		int w = c->width < 128 ? c->width : 127;

		cell[0] = '\0';
		if (c->cell)
			c->cell(c, row, cell);
		else if (c->ids[0])
			cell_figure(c, row, cell);
		rm_cell(doc, w, !c->left, cell);
		rm_flags(doc, cell_flags(c, row));
	}
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

/* A run's loose figures and those with slow spells left out, over its placements. */
struct table_marked {
	const struct result *loose[64], *slow[64];
	size_t nloose, nslow;
};

/*
 * The notes on one run's figures under one placement; its loose and slow
 * figures go into m, for one line each over all the run's placements.
 * Exact matches only: a single-process figure shown in several placement
 * rows gets its notes once, from the PLACE_NA pass.
 */
static void table_notes(FILE *out, const struct table *t, const struct row *row, struct table_marked *m)
{
	int verbose = row->verbose;
	const char *id;
	struct replica_mode modes[2];

	/* A table with a rule of its own for its rows (basic's) has its notes by it. */
	if (t->notes && (t->has_row ? t->has_row(row) : row_has_exact(t, row)))
		t->notes(out, row);
	for (size_t i = 0; (id = table_id(t, i)); i++) {
		const struct result *r = find_exact(row, id);
		if (r) {
			note_result(out, row->run, r, verbose);
			note_modes(out, row->run, r);
			note_parallel(out, row->run, r);
			if (!verbose && judge_loose(r, row->sp) && m->nloose < NELEM(m->loose) &&
			    !shown_before(t, id))
				m->loose[m->nloose++] = r;
			else if (replica_modes(r, modes) != 2 && !(row->sp && judge_loose(r, row->sp)) &&
				 note_slow_marked(r) && m->nslow < NELEM(m->slow) && !shown_before(t, id))
				m->slow[m->nslow++] = r;
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
 * single figure is left out.  si[k] is run k's machine, or NULL (si may
 * be NULL: none known).
 */
static void table_print(struct rm_doc *doc, const struct table *t, const struct run_info *runs,
			const struct sysinfo *const *si, size_t nruns)
{
	int header = 0, osw = lm_os_width(runs, nruns);
	char *notes = NULL;
	size_t len = 0;
	FILE *mem;
	struct judge_spread *sp = calloc(nruns ? nruns : 1, sizeof(*sp));

	if (!sp) {
		doc->oom = 1;
		return;
	}
	for (size_t k = 0; k < nruns; k++)
		sp[k] = judge_run_spread(&runs[k]);
	for (size_t p = 0; p < NELEM(place_order); p++) {
		int sub = 0;

		for (size_t k = 0; k < nruns; k++) {
			struct row row = { &runs[k], place_order[p].place, si ? si[k] : NULL, &sp[k],
					   doc->verbose, osw };

			if (!row_has_results(t, &row))
				continue;
			if (!header++)
				table_header(doc, t, osw);
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
	for (size_t k = 0; k < nruns; k++) {
		struct table_marked m = { .nloose = 0 };

		for (size_t p = 0; p < NELEM(place_order); p++) {
			struct row row = { &runs[k], place_order[p].place, si ? si[k] : NULL, &sp[k],
					   doc->verbose, osw };
			table_notes(mem, t, &row, &m);
		}
		note_loose(mem, &runs[k], m.loose, m.nloose);
		note_slow(mem, &runs[k], m.slow, m.nslow);
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

/* The seven tables of the summary, each with its notes, on doc; si as for table_print. */
void lm_tables_model(struct rm_doc *doc, const struct run_info *runs,
		     const struct sysinfo *const *si, size_t nruns)
{
	for (size_t t = 0; t < NELEM(summary_tables); t++)
		table_print(doc, summary_tables[t], runs, si, nruns);
}

int lm_has_id(const char *id)
{
	const char *tid;

	for (size_t t = 0; t < NELEM(summary_tables); t++)
		for (size_t i = 0; (tid = table_id(summary_tables[t], i)); i++)
			if (strcmp(tid, id) == 0)
				return 1;
	return 0;
}

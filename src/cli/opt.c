/*
 * A small long-option parser driven by the option tables, in the spirit of
 * git's parse-options: the table is the single source of truth for parsing
 * and for --help.  Also the few helpers the subcommands share: --tmpdir
 * checked once, and a stored run started the same way by run and contest.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "judge/pct.h"
#include "core/err.h"
#include "core/parse.h"
#include "core/result.h"
#include "core/runner.h"
#include "core/sysinfo.h"
#include "core/utf8.h"
#include "plat/plat.h"
#include "report/fmt.h"
#include "store/store.h"

/*
 * One word of the usage line at col, wrapped before 80 columns under the
 * first word after the command's name; the column after it.
 */
static size_t usage_word(FILE *out, size_t col, size_t indent, const char *word, size_t len)
{
	if (col > indent && col + 1 + len > 80) {
		fprintf(out, "\n%*s", (int)indent, "");
		col = indent;
	} else if (col > indent) {
		fputc(' ', out);
		col++;
	}
	fprintf(out, "%.*s", (int)len, word);
	return col + len;
}

/*
 * The usage line, made from the option table so that it names every option
 * the command accepts: the synopsis's words (operands, subcommands), every
 * option where it says CMD_OPTIONS, or after them.
 */
static void opt_usage(FILE *out, const struct cmd *cmd, const struct opt *opts)
{
	const char *p = cmd->synopsis, *at = strstr(p, CMD_OPTIONS);
	size_t indent = strlen("usage: kbench ") + strlen(cmd->name) + 1, col = indent;
	char word[96];

	fprintf(out, "usage: kbench %s ", cmd->name);
	for (int pass = 0; pass < 2; pass++) {
		const char *end = pass == 0 ? (at ? at : p + strlen(p)) : (at ? p + strlen(p) : p);

		/* The synopsis's words, a bracketed group kept whole. */
		while (p < end) {
			const char *w = p;
			int depth = 0;

			while (w < end && *w == ' ')
				w++;
			p = w;
			while (p < end && (*p != ' ' || depth > 0)) {
				depth += (*p == '[') - (*p == ']');
				p++;
			}
			if (p > w)
				col = usage_word(out, col, indent, w, (size_t)(p - w));
		}
		if (pass == 0) {
			for (const struct opt *o = opts; o->name; o++) {
				char alias[8] = "";
				int n;

				if (o->short_name)
					snprintf(alias, sizeof(alias), "-%c|", o->short_name);
				if (o->type == OPT_FLAG)
					n = snprintf(word, sizeof(word), "[%s--%s]", alias, o->name);
				else
					n = snprintf(word, sizeof(word), "[%s--%s %s]%s", alias, o->name,
						     o->arg ? o->arg : "VALUE", o->type == OPT_LIST ? "..." : "");
				col = usage_word(out, col, indent, word, (size_t)n);
			}
			if (at)
				p = at + strlen(CMD_OPTIONS);
		}
	}
	fputc('\n', out);
}

/* An option's help column: the option and its value in 22 columns, the help after. */
#define OPT_HELP_COL 25

void opt_help(FILE *out, const struct cmd *cmd, const struct opt *opts)
{
	opt_usage(out, cmd, opts);
	fputc('\n', out);
	report_wrap(out, 0, cmd->summary);
	fputc('\n', out);
	for (const struct opt *o = opts; o->name; o++) {
		char left[64], alias[8] = "";

		if (o->short_name)
			snprintf(alias, sizeof(alias), "-%c, ", o->short_name);
		if (o->type == OPT_FLAG)
			snprintf(left, sizeof(left), "%s--%s", alias, o->name);
		else
			snprintf(left, sizeof(left), "%s--%s %s", alias, o->name, o->arg ? o->arg : "VALUE");
		/* The help on the option's line, wrapped at 80 under its column (a long option: below). */
		if (strlen(left) > OPT_HELP_COL - 3) {
			fprintf(out, "  %s\n%*s", left, OPT_HELP_COL, "");
		} else {
			fprintf(out, "  %-22s ", left);
		}
		report_wrap(out, OPT_HELP_COL, o->help);
	}
	fprintf(out, "  %-22s %s\n", "--help", "show this help");
	if (cmd->examples) {
		const char *e = cmd->examples;

		fputs("\nexamples:\n", out);
		while (*e) {
			size_t len = strcspn(e, "\n");

			fprintf(out, "  %.*s\n", (int)len, e);
			e += len;
			e += *e == '\n';
		}
	}
}

static const struct opt *find(const struct opt *opts, const char *name, size_t len)
{
	for (const struct opt *o = opts; o->name; o++)
		if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
			return o;
	return NULL;
}

/*
 * A word of argv as the one error line may show it: a newline or an escape
 * sequence in an argument must not split the line or reach the terminal
 * (utf8_escape).  One static buffer: each message shows one word, then dies.
 */
static const char *opt_shown(const char *text, size_t len)
{
	static char buf[256];
	char raw[256];

	snprintf(raw, sizeof(raw), "%.*s", (int)(len < sizeof(raw) ? len : sizeof(raw) - 1), text);
	utf8_escape(buf, sizeof(buf), raw, 80);
	return buf;
}

/* "4096", "64k", "1.5m", "1g": bytes, with binary suffixes as sizes are spoken of. */
static size_t size_value(const struct cmd *cmd, const struct opt *o, const char *text)
{
	const char *end;
	double d, scale = 1;

	if (parse_real_prefix(text, &d, &end) < 0)
		die_usage("%s: --%s: '%s' is not a size (bytes, or with k, m or g)", cmd->name,
			  o->name, opt_shown(text, strlen(text)));
	switch (*end) {
	case 'k': case 'K': scale = 1024.0; end++; break;
	case 'm': case 'M': scale = 1024.0 * 1024; end++; break;
	case 'g': case 'G': scale = 1024.0 * 1024 * 1024; end++; break;
	}
	if (*end)
		die_usage("%s: --%s: '%s' is not a size (bytes, or with k, m or g)", cmd->name,
			  o->name, opt_shown(text, strlen(text)));
	d *= scale;
	if (d != floor(d))
		die_usage("%s: --%s: %s is not a whole number of bytes", cmd->name, o->name,
			  opt_shown(text, strlen(text)));
	/* A max of SIZE_MAX is 2^64 as a double, which no size_t holds. */
	if (d < o->min || d > o->max || d >= (double)SIZE_MAX)
		die_usage("%s: --%s: %s is out of range (%.0f to %.0f bytes)", cmd->name, o->name,
			  opt_shown(text, strlen(text)), o->min, o->max);
	return (size_t)d;
}

/*
 * Whether text is a number these options do not read as one: signed
 * ("-5"), or whole with more digits than a long holds: out of range, not
 * "not a number", is what to say of it.
 */
static int opt_number_beyond(const char *text, int whole)
{
	const char *p = text + (text[0] == '-' || text[0] == '+');
	double d;

	if (whole)
		return p[0] && strspn(p, "0123456789") == strlen(p);
	return p > text && parse_real(p, &d) == 0;
}

static void set_value(const struct cmd *cmd, const struct opt *o, const char *text)
{
	double d;
	long whole;
	int bad;

	switch (o->type) {
	case OPT_STRING:
		*(const char **)o->value = text;
		return;
	case OPT_INT:
	case OPT_DOUBLE:
		/* One reading for every option (core/parse.h): ' 2', '2 ' and '1e2' are no count. */
		bad = o->type == OPT_INT ? parse_whole(text, strlen(text), 0, LONG_MAX, &whole) < 0
					 : parse_real(text, &d) < 0;
		if (bad && opt_number_beyond(text, o->type == OPT_INT))
			d = -INFINITY;	/* a number still: out of range, said below */
		else if (bad)
			die_usage(o->type == OPT_INT ? "%s: --%s: '%s' is not a whole number (digits alone)"
						     : "%s: --%s: '%s' is not a number",
				  cmd->name, o->name, opt_shown(text, strlen(text)));
		else if (o->type == OPT_INT)
			d = (double)whole;
		if (d < o->min || d > o->max)
			die_usage("%s: --%s: %s is out of range (%.15g to %.15g)", cmd->name, o->name,
				  opt_shown(text, strlen(text)),
				  o->min, o->max);
		if (o->type == OPT_INT)
			*(int *)o->value = (int)d;
		else
			*(double *)o->value = d;
		return;
	case OPT_SIZE:
		*(size_t *)o->value = size_value(cmd, o, text);
		return;
	case OPT_LIST: {
		struct opt_list *l = o->value;

		if (l->n >= OPT_LIST_MAX || l->n >= (int)o->max)
			die_usage("%s: --%s: given more than %d times", cmd->name, o->name,
				  (int)o->max < OPT_LIST_MAX ? (int)o->max : OPT_LIST_MAX);
		l->v[l->n++] = text;
		return;
	}
	case OPT_FLAG:
	case OPT_END:
		break;
	}
	BUG("option --%s has no value type", o->name);
}

int opt_parse(const struct cmd *cmd, const struct opt *opts, int argc, char **argv)
{
	int npos = 0, i;

	for (i = 1; i < argc; i++) {
		char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			opt_help(stdout, cmd, opts);
			cli_stdout_check();
			exit(EXIT_DONE);
		}
		if (a[0] == '-' && a[1] != '-' && a[1] != '\0' && a[2] == '\0') {
			const struct opt *o = opts;

			while (o->name && o->short_name != a[1])
				o++;
			if (o->name && o->type == OPT_FLAG) {
				*(int *)o->value = 1;
				continue;
			}
			if (o->name) {
				if (i + 1 >= argc)
					die_usage("%s: -%c needs a value (%s)", cmd->name, o->short_name,
						  o->arg ? o->arg : "VALUE");
				set_value(cmd, o, argv[++i]);
				continue;
			}
		}
		if (strncmp(a, "--", 2) != 0 || a[2] == '\0') {
			if (a[0] == '-' && a[1] != '\0')
				die_usage("%s: unknown option '%s'", cmd->name, opt_shown(a, strlen(a)));
			argv[npos++] = a;
			continue;
		}
		const char *name = a + 2, *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		const struct opt *o = find(opts, name, len);
		if (!o)
			die_usage("%s: unknown option '--%s'", cmd->name, opt_shown(name, len));
		if (o->type == OPT_FLAG) {
			if (eq)
				die_usage("%s: --%s takes no value", cmd->name, o->name);
			*(int *)o->value = 1;
			continue;
		}
		if (eq) {
			set_value(cmd, o, eq + 1);
		} else {
			if (i + 1 >= argc)
				die_usage("%s: --%s needs a value (%s)", cmd->name, o->name,
					  o->arg ? o->arg : "VALUE");
			set_value(cmd, o, argv[++i]);
		}
	}
	for (; i < argc; i++)
		argv[npos++] = argv[i];
	return npos;
}

/*
 * The temporary directory, tried the way the benchmarks and loads will use
 * it: a file made in it (plat_dir_probe, which leaves no name behind even
 * if kbench is killed in the middle).  Every way that can go wrong
 * (absent, not a directory, read-only, no permission, full) is one line
 * here rather than a failure in every file benchmark later.
 */
const char *cli_tmpdir(const char *cmd, const char *dir)
{
	struct stat sb;
	/* Say where a bad directory came from: the option or the environment. */
	const char *from = "--tmpdir";

	if (!dir) {
		dir = getenv("TMPDIR");
		from = "TMPDIR";
		if (!dir || !dir[0]) {
			dir = "/tmp";
			from = "the default temporary directory";
		}
	}
	if (stat(dir, &sb) < 0)
		die("%s: %s '%s': %s", cmd, from, dir, strerror(errno));
	if (!S_ISDIR(sb.st_mode))
		die("%s: %s '%s' is not a directory", cmd, from, dir);
	/* The longest private directory's name made in it must fit. */
	if (strlen(dir) + sizeof("/kbench-contest.XXXXXX") > PATH_MAX)
		die("%s: %s '%s': the path is too long", cmd, from, dir);
	if (plat_dir_probe(dir) < 0) {
		/* /proc, /sys: a directory that makes none, where mkdir says ENOENT. */
		if (errno == ENOENT)
			die("%s: %s '%s' takes no new directories (as /proc and /sys): %s", cmd, from, dir,
			    strerror(errno));
		die("%s: %s '%s' is not writable: %s", cmd, from, dir, strerror(errno));
	}
	return dir;
}

/*
 * A report or a help text cut short (a full disk, a closed pipe, /dev/full)
 * must not exit 0 as if it had been written.
 */
void cli_stdout_check(void)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		die("cannot write the output: %s", strerror(errno ? errno : EIO));
}

void cli_db_path(const char *cmd, const char *db, char *path, size_t len)
{
	char err[ERRBUF_LEN];

	if (db && !db[0])
		die_usage("%s: --db is empty: name a file, or leave --db out for the default", cmd);
	if (store_default_path(db, path, len, err) < 0)
		die("%s", err);
}

void cli_store_died(const char *cmd, const char *err)
{
	if (runner_interrupted()) {
		fprintf(stderr, "kbench: %s: interrupted by signal %d while waiting for the store: nothing stored\n",
			cmd, runner_interrupted());
		exit(EXIT_SIGNAL(runner_interrupted()));
	}
	die("%s", err);
}

void cli_run_begin(struct store *st, struct run_info *run, const char *label,
		   const struct sysinfo *si, const char *si_json, const struct run_info *first,
		   size_t nresults)
{
	char err[ERRBUF_LEN];

	snprintf(run->label, sizeof(run->label), "%s", label);
	snprintf(run->host, sizeof(run->host), "%s", si->host);
	snprintf(run->os, sizeof(run->os), "%s %s", si->os, si->release);
	run->mhz = si->mhz;
	/* The repetitions are one set: they share the first run's uuid. */
	if (first)
		snprintf(run->set_uuid, sizeof(run->set_uuid), "%s", first->uuid);
	run->sysinfo_json = strdup(si_json);
	run->results = calloc(nresults ? nresults : 1, sizeof(*run->results));
	if (!run->sysinfo_json || !run->results)
		die("out of memory");
	if (st && store_run_begin(st, run, err) < 0)
		cli_store_died("run", err);
}

const char *cli_db_shown(const char *path)
{
	static char shown[PATH_MAX];

	store_shown(path, shown, sizeof(shown));
	return shown;
}

void cli_run_stored(size_t nstored, const struct run_info *runs, size_t nruns, const char *path)
{
	fprintf(stderr, "kbench: stored %zu result%s as run%s %lld%s in %s\n", nstored,
		nstored == 1 ? "" : "s", nruns > 1 ? "s" : "", (long long)runs[0].id,
		nruns > 1 ? "..." : "", cli_db_shown(path));
}

void cli_now_iso(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/*
 * A failure to delete is only said: the interrupt is what the user is
 * told about.
 */
void cli_run_drop(const char *cmd, struct store *st, const struct run_info *run)
{
	char id[32], err[ERRBUF_LEN];
	const char *sel[1] = { id };

	if (!st)
		return;
	snprintf(id, sizeof(id), "%lld", (long long)run->id);
	if (store_runs_delete(st, sel, 1, err) < 0)
		error("%s: cannot drop the empty interrupted run %s: %s", cmd, id, err);
}

enum cli_format cli_format(const char *cmd, const char *format, int json, int html,
			   unsigned offered)
{
	static const char *const names[] = { [CLI_TEXT] = "text", [CLI_JSON] = "json",
					     [CLI_HTML] = "html", [CLI_CSV] = "csv",
					     [CLI_GBENCH] = "gbench", [CLI_KCIDB] = "kcidb" };
	enum cli_format f = CLI_TEXT;
	char list[64] = "";
	int given = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (offered & (1u << i))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 list[0] ? ", " : "", names[i]);
	if (format) {
		size_t i = 0;

		while (i < sizeof(names) / sizeof(names[0]) &&
		       (strcmp(format, names[i]) != 0 || !(offered & (1u << i))))
			i++;
		if (i == sizeof(names) / sizeof(names[0]))
			die_usage("%s: --format must be one of %s, not '%s'", cmd, list,
				  opt_shown(format, strlen(format)));
		f = (enum cli_format)i;
		given++;
	}
	if (json && (!format || f != CLI_JSON)) {
		f = CLI_JSON;
		given++;
	}
	if (html && (!format || f != CLI_HTML)) {
		f = CLI_HTML;
		given++;
	}
	if (given > 1)
		die_usage("%s: one output format at a time (--format, --json, --html)", cmd);
	return f;
}

double cli_percentile(const char *cmd, const char *text)
{
	double p;

	if (!text)
		return (double)NAN;
	if (parse_real(text, &p) < 0 || !judge_pct_valid(p))
		die_usage("%s: --percentile: '%s' is no percentile: a number above 0 and up to 100 "
			  "(99, 99.9, 50)", cmd, opt_shown(text, strlen(text)));
	return p;
}

void cli_percentile_apply(const char *cmd, double p, struct run_info *const *runs,
			  const size_t *nruns, size_t nsides, int quiet)
{
	struct judge_pct_count all = { 0 }, c;

	if (isnan(p))
		return;
	for (size_t s = 0; s < nsides; s++) {
		if (judge_pct_apply(runs[s], nruns[s], p, &c) < 0)
			die("%s: out of memory", cmd);
		all.taken += c.taken;
		all.levels += c.levels;
		all.unread += c.unread;
	}
	if (quiet)
		return;
	if (all.levels)
		fprintf(stderr, "kbench: %s: --percentile applies to the wake.* distributions only; "
			"the other figures are compared by their level, as usual\n", cmd);
	if (!all.taken)
		fprintf(stderr, "kbench: %s: no distribution (wake.*) among the runs to take at its "
			"%gth percentile\n", cmd, p);
	if (all.unread)
		fprintf(stderr, "kbench: %s: %zu distribution%s without the samples of %s replicas "
			"left out: no %gth percentile of %s own\n", cmd, all.unread,
			all.unread == 1 ? "" : "s", all.unread == 1 ? "its" : "their", p,
			all.unread == 1 ? "its" : "their");
}

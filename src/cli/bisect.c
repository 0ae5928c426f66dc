/*
 * kbench bisect: the first of a list of kernel images, oldest to newest,
 * whose figure is worse than the good one's, found by halving.  Each
 * candidate is compared with GOOD as kbench kernels compares two kernels
 * (cli/kernels.h): rounds that boot both once each in a drawn order, the
 * figure tested in pairs of rounds; good or bad is history's --fail-on
 * rule on that comparison's verdict (a regression, or any change, beyond
 * the threshold), and "cannot tell" stops the search there in one line
 * rather than guess a side: a bisection that guesses once ends anywhere.
 * BAD is compared first, so that a list whose ends do not differ is said
 * before any halving.
 *
 * --run-step is one such comparison for `git bisect run`: GOOD against the
 * image just built, its exit status git's (0 good, 1 bad, 125 skip when the
 * candidate does not boot, 128 to stop the bisection when it cannot tell
 * or anything else failed, since git reads 1 and 2 as "bad").
 *
 * Every comparison is stored as kernels stores one (two runs, one set:
 * its pairs are found by the set the store gives, so there is no
 * --no-store);
 * nothing is stored before every named image was checked to be a kernel
 * and GOOD and BAD booted once.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/kernels.h"
#include "cli/run.h"
#include "cli/session.h"
#include "core/err.h"
#include "core/runner.h"
#include "core/timer.h"
#include "judge/compare.h"

/* Rounds of a comparison without --rounds: 3, the fewest a paired test takes. */
#define BISECT_ROUNDS 3
/*
 * The statuses: the first bad image found (0); none found, because a
 * comparison could not tell or BAD is not worse than GOOD (4, apart from
 * a refusal's 1 and 2); --run-step's are git bisect run's.
 */
#define EXIT_NOT_FOUND 4
#define BISECT_GIT_GOOD 0
#define BISECT_GIT_BAD 1
#define BISECT_GIT_SKIP 125
#define BISECT_GIT_ABORT 128

/* A candidate's comparison with GOOD, for the figure followed. */
enum bisect_verdict { BISECT_GOOD, BISECT_BAD, BISECT_CANNOT_TELL };

struct bisect_seen {
	int done;
	enum bisect_verdict v;
	double base, level;		/* GOOD's figure and the candidate's in that comparison */
	double change, lo, hi;		/* the change and its 95% interval, fractions */
	char why[160];			/* cannot tell: why not */
};

struct bisect {
	struct kern k;
	int regressions_only;		/* --fail-on regression (else change) */
	double threshold;
	char unit[64];
	char (*labels)[160];		/* each image's side label */
	struct bisect_seen *seen;
};

/* The images of a list file: a path a line, oldest first; '#' and blank lines passed over. */
static char **bisect_read_list(const char *file, int *n)
{
	FILE *f = fopen(file, "r");
	char *line = NULL, **v = NULL;
	size_t cap = 0;
	ssize_t len;

	*n = 0;
	if (!f)
		die("bisect: cannot read --images '%s': %s", file, strerror(errno));
	while ((len = getline(&line, &cap, f)) >= 0) {
		char *p = line, **more;

		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' ' ||
				   line[len - 1] == '\t'))
			line[--len] = '\0';
		p += strspn(p, " \t");
		if (!*p || *p == '#')
			continue;
		if (*n == KERN_FILES)
			die("bisect: --images '%s': more than %d images", file, KERN_FILES);
		if (!(more = realloc(v, (size_t)(*n + 1) * sizeof(*v))) || !(more[*n] = strdup(p)))
			die("bisect: out of memory");
		v = more;
		(*n)++;
	}
	free(line);
	fclose(f);
	if (*n < 2)
		die("bisect: --images '%s' lists %d image%s: a bisection needs GOOD, BAD and the images "
		    "between, oldest first", file, *n, *n == 1 ? "" : "s");
	return v;
}

/* Where name is in the list: the line itself, or a line whose file has that base name; -1. */
static int bisect_find(char *const *v, int n, const char *name, const char *what)
{
	int at = -1;

	for (int i = 0; i < n && at < 0; i++)
		if (strcmp(v[i], name) == 0)
			at = i;
	for (int i = 0; i < n && at < 0; i++) {
		const char *slash = strrchr(v[i], '/');

		if (slash && strcmp(slash + 1, name) == 0)
			at = i;
	}
	if (at < 0)
		die("bisect: %s '%s' is not in the --images list", what, name);
	for (int i = at + 1; i < n; i++)
		if (strcmp(v[i], v[at]) == 0)
			die("bisect: %s '%s' is in the --images list twice (lines' images %d and %d)", what,
			    name, at + 1, i + 1);
	return at;
}

/* The row of the followed figure in a comparison of GOOD (0) and the candidate (1). */
static void bisect_judge(struct bisect *b, const struct session *ses, struct bisect_seen *s)
{
	struct judge_cmp_side sides[2];
	struct judge_cmp_row *rows = NULL;
	const struct judge_cmp_cell *c = NULL;
	size_t nrows = 0;

	memset(s, 0, sizeof(*s));
	s->done = 1;
	s->v = BISECT_CANNOT_TELL;
	s->base = s->level = s->change = s->lo = s->hi = NAN;
	if (ses->nruns != 2) {
		snprintf(s->why, sizeof(s->why), "the comparison did not finish");
		return;
	}
	for (int i = 0; i < 2; i++)
		sides[i] = (struct judge_cmp_side){ ses->runs[i].label, &ses->runs[i], 1 };
	if (judge_compare_build(sides, 2, b->threshold, JUDGE_CMP_PAIRS_ONLY, &rows, &nrows) < 0)
		die("bisect: out of memory");
	for (size_t i = 0; i < nrows && !c; i++)
		if (!rows[i].sentinel && rows[i].cell[0].present && rows[i].cell[1].present) {
			c = &rows[i].cell[1];
			s->base = rows[i].cell[0].median;
			snprintf(b->unit, sizeof(b->unit), "%s", rows[i].key->unit);
		}
	if (!c) {
		snprintf(s->why, sizeof(s->why), "the figure was not measured on both sides (skipped or "
			 "failed in a guest)");
		free(rows);
		return;
	}
	s->level = c->median;
	s->change = isfinite(c->ratio) ? c->ratio - 1 : c->change;
	s->lo = c->ratio_lo - 1;
	s->hi = c->ratio_hi - 1;
	if (c->verdict == CMP_UNCHANGED || (c->verdict == CMP_CHANGED && b->regressions_only && c->better))
		s->v = BISECT_GOOD;
	else if (c->verdict == CMP_CHANGED)
		s->v = BISECT_BAD;
	else if (c->test != CMP_TEST_PAIRED && b->k.o->replicas < 3)
		snprintf(s->why, sizeof(s->why), "--rounds %d gives fewer than the 3 pairs of boots a "
			 "paired test needs", b->k.o->replicas);
	else if (c->test != CMP_TEST_PAIRED)
		snprintf(s->why, sizeof(s->why), "fewer than 3 of the %d rounds gave a pair within the "
			 "machine's state (the figure moved by more than %.0f%% between boots)",
			 b->k.o->replicas, JUDGE_CMP_STATE_WIDTH * 100);
	else
		snprintf(s->why, sizeof(s->why), "its interval reaches past the %.3g%% threshold on both "
			 "sides of nothing (more --rounds would tell)", b->threshold * 100);
	free(rows);
}

/* "+23.4% (+20.1..+26.0)" */
static void bisect_change(const struct bisect_seen *s, char *buf, size_t len)
{
	if (isfinite(s->lo) && isfinite(s->hi))
		snprintf(buf, len, "%+.1f%% (%+.1f..%+.1f)", s->change * 100, s->lo * 100, s->hi * 100);
	else if (isfinite(s->change))
		snprintf(buf, len, "%+.1f%% (no interval)", s->change * 100);
	else
		snprintf(buf, len, "no change measured");
}

/*
 * Image i's label, once it booted: its release, or, where an image
 * labelled before has that release (builds of one version), the release
 * and its place in the range.
 */
static void bisect_label(struct bisect *b, int i, int n)
{
	const char *rel = kern_release(&b->k, i);
	size_t len = strlen(rel);
	int twice = 0;

	for (int j = 0; j < n; j++)
		twice |= j != i && strncmp(b->labels[j], rel, len) == 0 &&
			 (b->labels[j][len] == '\0' || b->labels[j][len] == '@');
	if (twice)
		snprintf(b->labels[i], sizeof(b->labels[i]), "%.120s@%d", kern_release(&b->k, i), i + 1);
	else
		snprintf(b->labels[i], sizeof(b->labels[i]), "%.150s", kern_release(&b->k, i));
}

/*
 * Image i against GOOD (g): booted once plainly first, then compared.
 * Its verdict in b->seen[i]; a candidate that will not boot cannot be
 * told, with why.
 */
static void bisect_step(struct bisect *b, int g, int i, const char *id)
{
	struct bisect_seen *s = &b->seen[i];
	const char *labels[2] = { b->labels[g], b->labels[i] };
	int which[2] = { g, i };
	char err[ERRBUF_LEN], more[96], ch[96];
	struct session ses;
	size_t nfail;
	int rc;

	if (kern_ready(&b->k, i, err) < 0) {
		memset(s, 0, sizeof(*s));
		s->done = 1;
		s->v = BISECT_CANNOT_TELL;
		snprintf(s->why, sizeof(s->why), "it does not boot: %.120s", err);
		return;
	}
	if (!b->labels[i][0])
		bisect_label(b, i, b->k.nk);
	nfail = kern_compare(&b->k, which, 2, labels, &ses, more, sizeof(more));
	if (nfail == 0 && ses.state == SESSION_GOING)
		bisect_judge(b, &ses, s);
	else {
		memset(s, 0, sizeof(*s));
		s->done = 1;
		s->v = BISECT_CANNOT_TELL;
		snprintf(s->why, sizeof(s->why), "its comparison failed or was stopped (said above)");
	}
	rc = session_finish(&ses, nfail, more, 1);
	if (runner_interrupted()) {
		kern_end(&b->k);
		exit(rc ? rc : EXIT_SIGNAL(runner_interrupted()));
	}
	bisect_change(s, ch, sizeof(ch));
	printf("%s (%s): %s %s against %s: %s\n", b->k.paths[i], b->labels[i], id, ch, b->labels[g],
	       s->v == BISECT_GOOD ? "good" : s->v == BISECT_BAD ? "bad" : "cannot tell");
	fflush(stdout);
}

/* The end of a bisection, whatever its verdict: the guests' directory gone, the lists freed; rc. */
static int bisect_end(struct bisect *b, char **all, int nall, int rc)
{
	kern_end(&b->k);
	free(b->labels);
	free(b->seen);
	for (int i = 0; i < nall; i++)
		free(all[i]);
	free(all);
	return rc;
}

int cmd_bisect(int argc, char **argv)
{
	struct run_opts o = { .cmd = "bisect", .runs = 1, .precision = 1.0, .sample_ms = 10,
			      .parallel = 1, .replicas = BISECT_ROUNDS, .seed = -1, .quiet = 0 };
	struct kern_ask ask = { 0 };
	const char *images = NULL, *fail_on = "regression";
	double threshold = JUDGE_CMP_THRESHOLD * 100;
	int run_step = 0;
	const struct opt opts[] = {
		{ "only", OPT_STRING, &o.only, "ID", "the figure followed: one instance", 0, 0, 0 },
		{ "images", OPT_STRING, &images, "FILE", "the images, a path a line, oldest first; GOOD and BAD name two of them", 0, 0, 0 },
		{ "run-step", OPT_FLAG, &run_step, NULL, "GOOD CANDIDATE: one comparison for git bisect run (exit 0 good, 1 bad, 125 no boot, 128 cannot tell)", 0, 0, 0 },
		{ "fail-on", OPT_STRING, &fail_on, "regression|change", "what makes an image bad (regression)", 0, 0, 0 },
		{ "threshold", OPT_DOUBLE, &threshold, "PCT", "the smallest change that counts, % (2)", 0.1, 100, 0 },
		{ "rounds", OPT_INT, &o.replicas, "N", "rounds of each comparison: each boots GOOD and the candidate once (3)", 2, 100, 0 },
		{ "accel", OPT_STRING, &ask.accel, "kvm|tcg", "how the guests run: kvm (default), or tcg, whose figures are never a kernel's", 0, 0, 0 },
		{ "boot", OPT_STRING, &ask.boot, "qemu|kexec", "how each image boots: in a QEMU guest (qemu, the only one built)", 0, 0, 0 },
		{ "timeout", OPT_DOUBLE, &ask.timeout, "SECONDS", "kill a boot that gave no result by then (tcg 120, kvm 60, and more a figure)", 1, 86400, 0 },
		{ "append", OPT_STRING, &ask.append, "ARGS", "more of the kernel command line, the same for every image", 0, 0, 0 },
		{ "modules", OPT_STRING, &ask.modules, "DIR", "a module tree put into every guest's initramfs", 0, 0, 0 },
		{ "modprobe", OPT_STRING, &ask.modprobe, "MOD,...", "modules of --modules the guest's init loads", 0, 0, 0 },
		{ "seed", OPT_INT, &o.seed, "N", "the seed of the rounds' orders (default: drawn, and printed)", 0, 2147483647, 0 },
		{ "max-time", OPT_DOUBLE, &o.max_time, "SECONDS", "sampling budget per instance (2.25)", 0.01, 3600, 0 },
		{ "tmpdir", OPT_STRING, &o.tmpdir, "DIR", "where the private directory goes ($TMPDIR or /tmp)", 0, 0, 0 },
		OPT_ROW_DB(o.db),
		{ "quiet", OPT_FLAG, &o.quiet, NULL, "no progress on stderr", 0, 0, 0 },
		{ 0 },
	};
	struct bisect b = { 0 };
	char **list = NULL, **all = NULL, err[ERRBUF_LEN], ch[96];
	int npos, n, nall = 0, g, bad;
	uint64_t seed;

	/* Under git bisect run every status is a verdict: a refusal must stop the bisection, not mark a commit. */
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--run-step") == 0)
			err_exits(BISECT_GIT_ABORT, BISECT_GIT_ABORT);
	npos = opt_parse(cli_find("bisect"), opts, argc, argv);
	if (!o.only)
		die_usage("bisect: --only ID: name the one figure the bisection follows");
	if (strcmp(fail_on, "regression") != 0 && strcmp(fail_on, "change") != 0)
		die_usage("bisect: --fail-on must be regression or change, not '%s'", fail_on);
	if (run_step && images)
		die_usage("bisect: --run-step compares GOOD with one candidate: no --images");
	if ((run_step || images) && npos != 2)
		die_usage("bisect: give GOOD and %s", run_step ? "the candidate image (--run-step)" :
			  "BAD, two images of the --images list");
	if (!run_step && !images && npos < 2)
		die_usage("bisect: give the images oldest first, GOOD first and BAD last, or GOOD BAD "
			  "--images FILE");
	if (images) {
		all = list = bisect_read_list(images, &nall);
		n = nall;
		g = bisect_find(list, n, argv[0], "GOOD");
		bad = bisect_find(list, n, argv[1], "BAD");
		if (g == bad)
			die_usage("bisect: GOOD and BAD are the same image '%s'", list[g]);
		if (g > bad)
			die_usage("bisect: GOOD '%s' comes after BAD '%s' in the list: list the images "
				  "oldest first", list[g], list[bad]);
		/* Only the range is booted; the rest of the list is not looked at. */
		list += g;
		n = bad - g + 1;
	} else {
		list = argv;
		n = npos;
		if (n > KERN_FILES)
			die_usage("bisect: more than %d images", KERN_FILES);
		if (strcmp(list[0], list[n - 1]) == 0)
			die_usage("bisect: GOOD and BAD are the same image '%s'", list[0]);
	}
	g = 0;
	bad = n - 1;
	b.regressions_only = strcmp(fail_on, "regression") == 0;
	b.threshold = threshold / 100;
	kern_setup(&b.k, &o, &ask, list, n);
	if (b.k.none != 1)
		kern_die(&b.k, "bisect: --only '%s' selects %zu instances: a bisection follows one "
			 "figure", o.only, b.k.none);
	if (!(b.labels = calloc((size_t)n, sizeof(*b.labels))) || !(b.seen = calloc((size_t)n, sizeof(*b.seen))))
		die("bisect: out of memory");
	seed = o.seed >= 0 ? (uint64_t)o.seed : (timer_now() ^ ((uint64_t)getpid() << 32)) % 2147483648u;
	b.k.eng.seed = seed;
	/* GOOD and BAD boot before anything is stored: a list whose ends do not boot is refused. */
	if (kern_ready(&b.k, g, err) < 0)
		kern_die(&b.k, "bisect: GOOD %s", err);
	if (kern_ready(&b.k, bad, err) < 0) {
		if (run_step) {
			fprintf(stderr, "kbench: bisect: the candidate does not boot (git bisect skips "
				"it): %s\n", err);
			return bisect_end(&b, all, nall, BISECT_GIT_SKIP);
		}
		kern_die(&b.k, "bisect: BAD %s", err);
	}
	bisect_label(&b, g, n);
	bisect_label(&b, bad, n);
	if (!o.quiet)
		fprintf(stderr, "bisect: %s in %d images, each compared with '%s' in %d rounds, orders "
			"drawn from seed %llu\n", o.only, n, b.labels[g], o.replicas,
			(unsigned long long)seed);
	kern_mark(&b.k, stdout);

	bisect_step(&b, g, bad, o.only);
	if (run_step) {
		int rc = b.seen[bad].v == BISECT_GOOD ? BISECT_GIT_GOOD
			 : b.seen[bad].v == BISECT_BAD ? BISECT_GIT_BAD : BISECT_GIT_ABORT;

		if (rc == BISECT_GIT_ABORT)
			printf("cannot tell: %s; git bisect run stops here\n", b.seen[bad].why);
		kern_mark(&b.k, stdout);
		return bisect_end(&b, all, nall, rc);
	}
	if (b.seen[bad].v != BISECT_BAD) {
		if (b.seen[bad].v == BISECT_GOOD)
			printf("nothing to bisect: BAD '%s' is not worse than GOOD for %s\n", b.labels[bad],
			       o.only);
		else
			printf("cannot tell: BAD '%s' against GOOD: %s\n", b.labels[bad], b.seen[bad].why);
		kern_mark(&b.k, stdout);
		return bisect_end(&b, all, nall, EXIT_NOT_FOUND);
	}
	/* Halving: g is good (GOOD, or an image compared good with it), bad is bad. */
	for (int lo = g, hi = bad; hi - lo > 1;) {
		int m = lo + (hi - lo) / 2;

		bisect_step(&b, g, m, o.only);
		if (b.seen[m].v == BISECT_CANNOT_TELL) {
			printf("cannot tell: %s (%s) against GOOD: %s; the first bad image is after '%s' "
			       "and at or before '%s'\n", list[m], b.labels[m], b.seen[m].why, b.labels[lo],
			       b.labels[hi]);
			kern_mark(&b.k, stdout);
			return bisect_end(&b, all, nall, EXIT_NOT_FOUND);
		}
		if (b.seen[m].v == BISECT_GOOD)
			lo = m;
		else
			hi = m;
		bad = hi;
	}
	bisect_change(&b.seen[bad], ch, sizeof(ch));
	printf("first bad: %s (%s): %s %.4g %s against %.4g %s in GOOD '%s', %s\n", list[bad],
	       b.labels[bad], o.only, b.seen[bad].level, b.unit, b.seen[bad].base, b.unit, b.labels[g],
	       ch);
	if (bad - 1 == g) {
		printf("last good: GOOD itself, '%s'\n", b.labels[g]);
	} else {
		bisect_change(&b.seen[bad - 1], ch, sizeof(ch));
		printf("last good: %s (%s): %s %.4g %s against %.4g %s in GOOD, %s\n", list[bad - 1],
		       b.labels[bad - 1], o.only, b.seen[bad - 1].level, b.unit, b.seen[bad - 1].base,
		       b.unit, ch);
	}
	kern_mark(&b.k, stdout);
	return bisect_end(&b, all, nall, EXIT_DONE);
}

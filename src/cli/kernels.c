/*
 * kbench kernels: kernels compared as ab compares two conditions.
 * Each side is a guest of one fixed shape booted from a kernel
 * (src/guest/); a round boots each kernel once, in an order drawn from
 * the seed, and the guest's init runs one replica of every figure of the
 * selection in the statically linked worker and sends the replies back
 * over a serial port.  The engine's rounds, the storing after every
 * round, the paired comparison and its report are ab's (cli/run.h): only
 * what starts a side differs.  With more than two kernels every kernel is
 * compared with the first, as `compare A B C` does; kbench bisect
 * (cli/bisect.c) runs the same comparisons two kernels at a time.
 *
 * Everything that can refuse is refused before anything is stored: the
 * kernels' files, qemu and the guest programs, the accelerator, and one
 * plain boot of each kernel, which also describes its guest (release,
 * CPUs, clock source, the clock's cost the requests then carry).  Under
 * TCG every figure is QEMU's emulation's, not the kernel's: the runs are
 * stored with their virtualisation "tcg (emulated)" and every table says so.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build_id.h"
#include "cli/cli.h"
#include "cli/kernels.h"
#include "cli/label.h"
#include "cli/run.h"
#include "cli/session.h"
#include "core/engine.h"
#include "core/err.h"
#include "core/runner.h"
#include "core/timer.h"
#include "guest/guest.h"
#include "judge/compare.h"
#include "report/report.h"

/* Rounds without --rounds: each boots every kernel once; 3 is the fewest a paired test takes. */
#define KERN_ROUNDS 3
/*
 * A boot's deadline without --timeout: the boot itself, then a share a
 * figure of the selection (its budget, and the worker's start, many
 * times slower under emulation).
 */
#define KERN_TIMEOUT_TCG 120.0
#define KERN_TIMEOUT_TCG_JOB 20.0
#define KERN_TIMEOUT_KVM 60.0
#define KERN_TIMEOUT_KVM_JOB 5.0
/* What the figures under TCG are: said with every table, stored with every run. */
#define KERN_EMULATED "figures under TCG are emulation's, never a kernel's"
#define KERN_VIRT_TCG "tcg (emulated)"

/*
 * The boot the engine's replicas are read from.  The engine's measure takes
 * no argument of its own; one comparison of kernels runs at a time.
 */
static struct kern *kern_now;

/* Whatever the boot left unread. */
static void kern_forget(struct kern *k)
{
	for (size_t i = 0; k->got && i < k->eng.njobs; i++)
		if (k->have[i]) {
			result_free(&k->got[i]);
			k->have[i] = 0;
		}
	k->side = 0;
}

/* Job i's result from a record of the boot: the worker's reply, or how it died. */
static void kern_take(struct kern *k, size_t i, const struct console_rec *r)
{
	const struct bench *b = k->eng.jobs[i].b;
	struct result *res = &k->got[i];
	char why[ERRBUF_LEN];

	if (k->have[i])
		result_free(res);
	k->have[i] = 1;
	if (strcmp(r->tag, CONSOLE_RES) == 0 &&
	    wire_reply_check((const char *)r->data, r->len, KB_BUILD_ID, why, sizeof(why)) == 0 &&
	    wire_result_decode((const char *)r->data + sizeof(struct wire_reply),
			       r->len - sizeof(struct wire_reply), res) == 0)
		return;
	if (strcmp(r->tag, CONSOLE_RES) == 0 && r->len >= sizeof(struct wire_reply) &&
	    wire_reply_check((const char *)r->data, r->len, KB_BUILD_ID, why, sizeof(why)) == 0)
		snprintf(why, sizeof(why), "its reply from the guest could not be read");
	else if (strcmp(r->tag, CONSOLE_RES) != 0)
		snprintf(why, sizeof(why), "in the guest, %.200s", (const char *)r->data);
	result_init(res, b);
	res->status = RES_FAIL;
	res->placement = k->eng.jobs[i].place;
	snprintf(res->reason, sizeof(res->reason), "%s", why);
}

/*
 * The engine's cond: boot side's kernel with a request for every job of
 * that side, and keep what its guest sent for the replicas that follow.
 * 0, or -1 when the boot gave nothing (said in one line) or a signal came.
 */
static int kern_switch(void *arg, int side)
{
	struct kern *k = arg;
	struct engine *e = &k->eng;
	struct guest_req *reqs = calloc(e->njobs + 1, sizeof(*reqs));
	size_t *job = calloc(e->njobs + 1, sizeof(*job)), n = 0;
	char err[ERRBUF_LEN];
	struct guest_out out;
	int rc = 0;

	if (!reqs || !job)
		die("kernels: out of memory");
	kern_forget(k);
	for (size_t i = 0; i < e->njobs && rc == 0; i++) {
		struct harness_cfg hc = k->hc[side - 1];

		if (e->jobs[i].side != side)
			continue;
		hc.placement = e->jobs[i].place;
		hc.replica = e->round;
		job[n] = i;
		rc = guest_request(e->jobs[i].b, &hc, KB_BUILD_ID, k->root, &reqs[n++], err);
	}
	if (rc == 0)
		rc = guest_boot(&k->cfg, &k->k[k->which[side - 1]], reqs, n, &out, err);
	for (size_t i = 0; i < n; i++)
		guest_request_free(&reqs[i]);
	free(reqs);
	if (rc == 1) {
		free(job);
		return -1;
	}
	if (rc < 0) {
		error("%s: round %d, %s (%s): %s", k->o->cmd, e->round + 1, k->labels[side - 1],
		      k->paths[k->which[side - 1]], err);
		free(job);
		return -1;
	}
	k->side = side;
	for (size_t r = 0; r < out.nrecs; r++)
		if (out.recs[r].index < n && (strcmp(out.recs[r].tag, CONSOLE_RES) == 0 ||
					      strcmp(out.recs[r].tag, CONSOLE_DIED) == 0))
			kern_take(k, job[out.recs[r].index], &out.recs[r]);
	if (!k->o->quiet)
		fprintf(stderr, "%s: round %d of %d, %s (%s): booted, measured and powered off "
			"in %.1f s\n", k->o->cmd, e->round + 1, e->rounds, k->labels[side - 1],
			k->k[k->which[side - 1]].release, out.seconds);
	guest_out_free(&out);
	free(job);
	return 0;
}

/* The engine's measure: the job's replica, as the side's last boot gave it. */
static int kern_measure(const struct bench *b, const struct runner_cfg *cfg, struct result *r)
{
	struct kern *k = kern_now;

	for (size_t i = 0; i < k->eng.njobs; i++) {
		const struct engine_job *j = &k->eng.jobs[i];

		if (j->b != b || j->place != cfg->harness.placement || j->side != k->side)
			continue;
		if (k->have[i]) {
			*r = k->got[i];
			k->have[i] = 0;
			return 0;
		}
		break;
	}
	result_init(r, b);
	r->status = RES_FAIL;
	r->placement = cfg->harness.placement;
	snprintf(r->reason, sizeof(r->reason), "the guest gave no result for it");
	return 0;
}

_Noreturn void kern_die(struct kern *k, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (k->root[0])
		runner_janitor_wait(&k->jan, k->root);
	k->root[0] = '\0';
	if (runner_interrupted()) {
		fprintf(stderr, "kbench: %s: interrupted by signal %d: nothing measured\n", k->o->cmd,
			runner_interrupted());
		exit(EXIT_SIGNAL(runner_interrupted()));
	}
	die("%s", line);
}

/* The first kernel named by the same path as i, or i: an A/A boots one file. */
static int kern_same(const struct kern *k, int i)
{
	for (int j = 0; j < i; j++)
		if (strcmp(k->paths[j], k->paths[i]) == 0)
			return j;
	return i;
}

int kern_ready(struct kern *k, int i, char *err)
{
	char dir[PATH_MAX + 16];
	struct guest_out out;
	int j = kern_same(k, i), rc;

	if (k->ready[i])
		return 0;
	if (j != i) {
		if (kern_ready(k, j, err) < 0)
			return -1;
		k->k[i] = k->k[j];
		k->k[i].arg = k->paths[i];
		k->sys[i] = k->sys[j];
		k->ready[i] = 1;
		return 0;
	}
	/* A package's image taken out into a directory of its own. */
	snprintf(dir, sizeof(dir), "%s/kernel%d", k->root, i);
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		errbuf_set(err, "cannot make '%s': %s", dir, strerror(errno));
		return -1;
	}
	if ((rc = guest_kernel_open(&k->k[i], k->paths[i], dir, err)) == 1)
		kern_die(k, "%s: interrupted", k->o->cmd);
	if (rc != 0)
		return -1;
	/* One plain boot, no request: that it boots at all, under this accelerator, before anything is stored. */
	rc = guest_boot(&k->cfg, &k->k[i], NULL, 0, &out, err);
	if (rc == 1)
		kern_die(k, "%s: interrupted", k->o->cmd);
	if (rc < 0 && k->cfg.accel == GUEST_KVM) {
		char why[ERRBUF_LEN];

		snprintf(why, sizeof(why), "%s", err);
		errbuf_set(err, "'%s' does not run under kvm here: %s (--accel tcg runs it under "
			   "emulation, whose figures are emulation's, never a kernel's)", k->paths[i], why);
		return -1;
	}
	if (rc < 0) {
		char why[ERRBUF_LEN];

		snprintf(why, sizeof(why), "%s", err);
		errbuf_set(err, "'%s': %s", k->paths[i], why);
		return -1;
	}
	if (strcmp(out.sys.build_id, KB_BUILD_ID) != 0) {
		errbuf_set(err, "the guest's init is another build's (%.12s, this kbench's %.12s): "
			   "build them together", out.sys.build_id, KB_BUILD_ID);
		guest_out_free(&out);
		return -1;
	}
	k->sys[i] = out.sys;
	k->ready[i] = 1;
	if (!k->o->quiet)
		fprintf(stderr, "%s: %s boots under %s: %.1f s from qemu's start to its power-off; "
			"%d CPUs, clock source %s\n", k->o->cmd, kern_release(k, i),
			guest_accel_name(k->cfg.accel), out.seconds, out.sys.si.ncpu_online,
			out.sys.si.clocksource[0] ? out.sys.si.clocksource : "unknown");
	guest_out_free(&out);
	return 0;
}

const char *kern_release(const struct kern *k, int i)
{
	const char *slash;

	if (k->ready[i] && k->sys[i].si.release[0])
		return k->sys[i].si.release;
	if (k->k[i].release[0])
		return k->k[i].release;
	slash = strrchr(k->paths[i], '/');
	return slash ? slash + 1 : k->paths[i];
}

void kern_mark(const struct kern *k, FILE *out)
{
	if (k->cfg.accel == GUEST_TCG)
		fprintf(out, "emulated: every kernel ran under QEMU's TCG; " KERN_EMULATED "\n");
}

void kern_setup(struct kern *k, struct run_opts *o, const struct kern_ask *ask, char *const *paths,
		int n)
{
	char err[ERRBUF_LEN];
	const struct bench **sel;
	unsigned suite_bits;
	size_t nsel;

	memset(k, 0, sizeof(*k));
	k->o = o;
	run_validate(o, &suite_bits);
	sel = run_select(o, suite_bits, &nsel);
	if (ask->accel && strcmp(ask->accel, "kvm") != 0 && strcmp(ask->accel, "tcg") != 0)
		die_usage("%s: --accel: '%s' is neither kvm nor tcg", o->cmd, ask->accel);
	/* Bare metal by kexec is designed (doc/kernels.md), not built: the option says so rather than vanish. */
	if (ask->boot && strcmp(ask->boot, "qemu") != 0 && strcmp(ask->boot, "kexec") != 0)
		die_usage("%s: --boot: '%s' is neither qemu nor kexec", o->cmd, ask->boot);
	if (ask->boot && strcmp(ask->boot, "kexec") == 0)
		die("%s: --boot kexec is designed, not built: this kbench boots kernels only in QEMU "
		    "guests (doc/kernels.md, 'Bare metal')", o->cmd);
	if (ask->modprobe && !ask->modules)
		die_usage("%s: --modprobe: give --modules DIR, the module tree the modules come from",
			  o->cmd);
	for (int i = 0; i < n; i++)
		if (guest_kernel_check(paths[i], err) < 0)
			die("%s: %s", o->cmd, err);
	if (ask->modules && guest_modules_check(ask->modules, err) < 0)
		die("%s: --modules: %s", o->cmd, err);
	/* Every module asked for is in the tree, with what it needs, before any boot. */
	if (ask->modprobe) {
		char **plan;
		size_t nplan;

		if (guest_modules_plan(ask->modules, ask->modprobe, &plan, &nplan, err) < 0)
			die("%s: --modprobe: %s", o->cmd, err);
		guest_modules_free(plan, nplan);
	}
	k->nk = n;
	k->paths = paths;
	k->cfg.accel = ask->accel && strcmp(ask->accel, "tcg") == 0 ? GUEST_TCG : GUEST_KVM;
	k->cfg.append = ask->append;
	k->cfg.modules = ask->modules;
	k->cfg.modprobe = ask->modprobe;
	if (guest_find(&k->cfg, err) < 0)
		die("%s: %s", o->cmd, err);
	if (k->cfg.accel == GUEST_KVM && guest_kvm_check(err) < 0)
		die("%s: kvm cannot run a guest here: %s (--accel tcg runs the guests under "
		    "emulation, whose figures are emulation's, never a kernel's)", o->cmd, err);
	if (!(k->k = calloc((size_t)n, sizeof(*k->k))) || !(k->sys = calloc((size_t)n, sizeof(*k->sys))) ||
	    !(k->ready = calloc((size_t)n, 1)))
		die("%s: out of memory", o->cmd);

	runner_catch_signals();
	runner_catch_stop();
	/* The private directory: the janitor removes it, and kills qemu, whatever ends kbench. */
	snprintf(k->root, sizeof(k->root), "%s/kbench-kernels.XXXXXX", o->tmpdir);
	if (runner_janitor_start(k->root, sizeof(k->root), 0, &k->jan) < 0)
		die("%s: cannot make a directory in '%s': %s", o->cmd, o->tmpdir, strerror(errno));
	k->cfg.dir = k->root;
	k->cfg.jan = &k->jan;

	k->one = run_jobs(o, suite_bits, sel, nsel, &k->none);
	free(sel);
	k->cfg.timeout_s = ask->timeout > 0 ? ask->timeout
		: k->cfg.accel == GUEST_TCG ? KERN_TIMEOUT_TCG + KERN_TIMEOUT_TCG_JOB * (double)k->none
					    : KERN_TIMEOUT_KVM + KERN_TIMEOUT_KVM_JOB * (double)k->none;
	run_harness(o, suite_bits, &k->rc);
	/* As ab: the instance's budget is shared by the sides. */
	k->rc.harness.max_time_ns /= 2;
	/* The host's worker, checked as every measuring command checks it; its clock is the host's. */
	cli_engine_open(&k->eng, o->cmd, &k->rc, 0, NULL);
}

size_t kern_compare(struct kern *k, const int *which, int n, const char *const *labels,
		    struct session *ses, char *more, size_t len)
{
	const struct run_opts *o = k->o;
	struct engine *e = &k->eng;
	struct engine_job *jobs = ab_jobs(k->one, k->none, n);
	struct run_info *runs[KERN_MAX];
	char *si_json[KERN_MAX];
	size_t nfail;

	if (n < 2 || n > KERN_MAX)
		BUG("%s: a comparison of %d kernels", o->cmd, n);
	k->nsides = n;
	for (int s = 0; s < n; s++) {
		const struct guest_sys *g = &k->sys[which[s]];

		if (!k->ready[which[s]])
			BUG("%s: kernel %d compared before its plain boot", o->cmd, which[s]);
		k->which[s] = which[s];
		k->labels[s] = labels[s];
		/* The guest's clock figures, which its harness subtracts; its run's own times. */
		k->hc[s] = k->rc.harness;
		k->hc[s].granularity_ns = g->pre.ti.granularity_ns;
		k->hc[s].loop_ns = g->pre.ti.loop_ns;
		k->hc[s].clock_cost_ns = g->pre.ti.cost_ns;
		k->hc[s].run_start_ns = 0;
		k->hc[s].sentinel_sys = k->hc[s].sentinel_user = NULL;
	}
	e->paired = 1;
	e->blocks = 1;
	e->nsides = n;
	e->side_now = 0;
	e->cond = kern_switch;
	e->cond_arg = k;
	e->ops.measure = kern_measure;
	kern_now = k;
	if (!(k->got = calloc((size_t)n * k->none + 1, sizeof(*k->got))) ||
	    !(k->have = calloc((size_t)n * k->none + 1, 1)))
		die("%s: out of memory", o->cmd);
	session_open(ses, o->cmd, o->db, o->no_store, NULL, &e->pre, 0, (size_t)n);
	for (int s = 0; s < n; s++) {
		struct sysinfo si = k->sys[which[s]].si;

		/* The guest runs on this host: its runs are this host's, their machine the guest's. */
		snprintf(si.host, sizeof(si.host), "%s", ses->si.host);
		snprintf(si.virt, sizeof(si.virt), "%s",
			 k->cfg.accel == GUEST_TCG ? KERN_VIRT_TCG : "kvm");
		if (!(si_json[s] = report_sysinfo_json(&si)))
			die("%s: cannot encode the guest's description", o->cmd);
		runs[s] = session_begin_on(ses, k->none, labels[s], &si, si_json[s]);
	}
	nfail = ab_rounds(o, e, jobs, (size_t)n * k->none, ses, runs, n, more, len);
	kern_forget(k);
	session_close(ses);
	kern_now = NULL;
	free(k->got);
	free(k->have);
	k->got = NULL;
	k->have = NULL;
	for (int s = 0; s < n; s++)
		free(si_json[s]);
	free(jobs);
	return nfail;
}

void kern_end(struct kern *k)
{
	if (k->root[0])
		runner_janitor_wait(&k->jan, k->root);
	k->root[0] = '\0';
	free(k->one);
	free(k->k);
	free(k->sys);
	free(k->ready);
}

int cmd_kernels(int argc, char **argv)
{
	struct run_opts o = { .cmd = "kernels", .runs = 1, .precision = 1.0, .sample_ms = 10,
			      .parallel = 1, .replicas = KERN_ROUNDS, .seed = -1 };
	struct opt_list labels = { { NULL }, 0 };
	struct kern_ask ask = { 0 };
	const struct opt opts[] = {
		{ "rounds", OPT_INT, &o.replicas, "N", "rounds: each boots every kernel once and measures every figure in each (3)", 2, 100, 0 },
		{ "suite", OPT_STRING, &o.suite, "S", "quick, standard (default), full, lmbench, ...", 0, 0, 0 },
		{ "only", OPT_STRING, &o.only, "GLOB,...", "only instances whose id matches a glob", 0, 0, 0 },
		{ "label", OPT_LIST, &labels, "L", "name a kernel's side, once for each in order (default: its release)", 0, KERN_MAX, 0 },
		{ "accel", OPT_STRING, &ask.accel, "kvm|tcg", "how the guests run: kvm (default), or tcg, QEMU's emulation, whose figures are never a kernel's", 0, 0, 0 },
		{ "boot", OPT_STRING, &ask.boot, "qemu|kexec", "how each kernel boots: in a QEMU guest (qemu, the only one built)", 0, 0, 0 },
		{ "timeout", OPT_DOUBLE, &ask.timeout, "SECONDS", "kill a boot that gave no result by then (tcg 120, kvm 60, and 20 or 5 more a figure)", 1, 86400, 0 },
		{ "append", OPT_STRING, &ask.append, "ARGS", "more of the kernel command line, the same for every kernel", 0, 0, 0 },
		{ "modules", OPT_STRING, &ask.modules, "DIR", "a module tree (lib/modules/RELEASE) put into every guest's initramfs", 0, 0, 0 },
		{ "modprobe", OPT_STRING, &ask.modprobe, "MOD,...", "modules of --modules the guest's init loads before measuring, in order", 0, 0, 0 },
		{ "seed", OPT_INT, &o.seed, "N", "the seed of each round's order of the kernels (default: drawn, and printed)", 0, 2147483647, 0 },
		{ "max-time", OPT_DOUBLE, &o.max_time, "SECONDS", "sampling budget per instance (quick 0.8, else 2.25)", 0.01, 3600, 0 },
		{ "precision", OPT_DOUBLE, &o.precision, "PCT", "wanted 95% CI half-width, % of the median (1)", 0.01, 50, 0 },
		{ "tmpdir", OPT_STRING, &o.tmpdir, "DIR", "where the private directory goes: images, initramfs, ports ($TMPDIR or /tmp)", 0, 0, 0 },
		OPT_ROW_DB(o.db),
		OPT_ROW_NO_STORE(o.no_store),
		{ "json", OPT_FLAG, &o.json, NULL, "print one JSON document instead of tables", 0, 0, 0 },
		{ "quiet", OPT_FLAG, &o.quiet, NULL, "no progress on stderr", 0, 0, 0 },
		{ "verbose", OPT_FLAG, &o.verbose, NULL, "every note on every figure, not only the marked ones", 0, 0, 'v' },
		{ 0 },
	};
	struct kern k;
	struct session ses;
	char err[ERRBUF_LEN], more[96], label[KERN_MAX][128];
	const char *lab[KERN_MAX];
	int which[KERN_MAX];
	size_t nfail;
	uint64_t seed;
	int npos;

	npos = opt_parse(cli_find("kernels"), opts, argc, argv);
	if (npos < 2 || npos > KERN_MAX)
		die_usage("kernels: give two kernels or more (at most %d), each a vmlinuz (bzImage) or "
			  "a Debian package (.deb)", KERN_MAX);
	if (labels.n && labels.n != npos)
		die_usage("kernels: --label: give one for each kernel, in order (%d), or none", npos);
	for (int i = 0; i < labels.n; i++) {
		cli_label_check("kernels", "--label", labels.v[i]);
		for (int j = 0; j < i; j++)
			if (strcmp(labels.v[i], labels.v[j]) == 0)
				die_usage("kernels: --label: two kernels are '%s': each side needs its own "
					  "label", labels.v[i]);
	}
	kern_setup(&k, &o, &ask, argv, npos);
	seed = o.seed >= 0 ? (uint64_t)o.seed : (timer_now() ^ ((uint64_t)getpid() << 32)) % 2147483648u;
	for (int i = 0; i < npos; i++)
		if (kern_ready(&k, i, err) < 0)
			kern_die(&k, "kernels: %s", err);
	for (int s = 0; s < npos; s++) {
		snprintf(label[s], sizeof(label[s]), "%s", labels.n ? labels.v[s] : kern_release(&k, s));
		lab[s] = label[s];
		which[s] = s;
		for (int j = 0; !labels.n && j < s; j++)
			if (strcmp(label[j], label[s]) == 0)
				kern_die(&k, "kernels: two kernels are release '%s': name the sides with "
					 "--label, once for each kernel", label[s]);
	}
	k.eng.seed = seed;
	if (!o.quiet) {
		fprintf(stderr, "kernels: %d rounds of %zu instance%s, %d kernels booted in an order "
			"drawn from seed %llu:", o.replicas, k.none, k.none == 1 ? "" : "s", npos,
			(unsigned long long)seed);
		for (int s = 0; s < npos; s++)
			fprintf(stderr, " '%s'", label[s]);
		fprintf(stderr, "\n");
		kern_mark(&k, stderr);
	}
	nfail = kern_compare(&k, which, npos, lab, &ses, more, sizeof(more));
	kern_end(&k);

	if (o.json) {
		cli_runs_out("kernels", o.fmt, &ses, 1);
	} else {
		kern_mark(&k, stdout);
		if (npos > 2)
			printf("each kernel against the first, '%s', in pairs of rounds\n", label[0]);
		ab_report(&o, &ses, JUDGE_CMP_PAIRS_ONLY);
		kern_mark(&k, stdout);
	}
	fflush(stdout);
	return session_finish(&ses, nfail, more, o.quiet);
}

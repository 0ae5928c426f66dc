/*
 * kbench kernels: two kernels compared as ab compares two conditions.
 * Each side is a guest of one fixed shape booted from a kernel
 * (src/guest/); a round boots each kernel once, in an order drawn from
 * the seed, and the guest's init runs one replica of every figure of the
 * selection in the statically linked worker and sends the replies back
 * over a serial port.  The engine's rounds, the storing after every
 * round, the paired comparison and its report are ab's (cli/run.h): only
 * what starts a side differs.
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

/* Rounds without --rounds: each boots both kernels once; 3 is the fewest a paired test takes. */
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

/* A session of kernels: what the engine's cond and measure work on. */
struct kern {
	const struct run_opts *o;
	struct guest_cfg cfg;
	struct guest_kernel k[2];
	struct guest_sys sys[2];	/* each guest, from its plain boot */
	struct harness_cfg hc[2];	/* each side's requests: the guest's clock figures */
	const char *labels[2];
	struct engine *e;
	int side;			/* the side whose boot the results are from, 0 none */
	struct result *got;		/* that boot's result for each job (e->njobs) */
	unsigned char *have;		/* which of got are there, not yet taken */
	char root[PATH_MAX];		/* the private directory, the janitor's */
	struct runner_janitor jan;
};

/*
 * The boot the engine's replicas are read from.  The engine's measure takes
 * no argument of its own; one session of kernels is there at a time.
 */
static struct kern *kern_now;

/* Whatever the boot left unread. */
static void kern_forget(struct kern *k)
{
	for (size_t i = 0; k->got && i < k->e->njobs; i++)
		if (k->have[i]) {
			result_free(&k->got[i]);
			k->have[i] = 0;
		}
	k->side = 0;
}

/* Job i's result from a record of the boot: the worker's reply, or how it died. */
static void kern_take(struct kern *k, size_t i, const struct console_rec *r)
{
	const struct bench *b = k->e->jobs[i].b;
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
	res->placement = k->e->jobs[i].place;
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
	struct engine *e = k->e;
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
		rc = guest_boot(&k->cfg, &k->k[side - 1], reqs, n, &out, err);
	for (size_t i = 0; i < n; i++)
		guest_request_free(&reqs[i]);
	free(reqs);
	if (rc == 1) {
		free(job);
		return -1;
	}
	if (rc < 0) {
		error("kernels: round %d, %s (%s): %s", e->round + 1, k->labels[side - 1],
		      k->k[side - 1].arg, err);
		free(job);
		return -1;
	}
	k->side = side;
	for (size_t r = 0; r < out.nrecs; r++)
		if (out.recs[r].index < n && (strcmp(out.recs[r].tag, CONSOLE_RES) == 0 ||
					      strcmp(out.recs[r].tag, CONSOLE_DIED) == 0))
			kern_take(k, job[out.recs[r].index], &out.recs[r]);
	if (!k->o->quiet)
		fprintf(stderr, "kernels: round %d of %d, %s (%s): booted, measured and powered off "
			"in %.1f s\n", e->round + 1, e->rounds, k->labels[side - 1], k->k[side - 1].release,
			out.seconds);
	guest_out_free(&out);
	free(job);
	return 0;
}

/* The engine's measure: the job's replica, as the side's last boot gave it. */
static int kern_measure(const struct bench *b, const struct runner_cfg *cfg, struct result *r)
{
	struct kern *k = kern_now;

	for (size_t i = 0; i < k->e->njobs; i++) {
		const struct engine_job *j = &k->e->jobs[i];

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

/* One line and exit 1, the private directory gone first. */
static _Noreturn void kern_die(struct kern *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static _Noreturn void kern_die(struct kern *k, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (k->root[0])
		runner_janitor_wait(&k->jan, k->root);
	if (runner_interrupted()) {
		fprintf(stderr, "kbench: kernels: interrupted by signal %d: nothing measured\n",
			runner_interrupted());
		exit(EXIT_SIGNAL(runner_interrupted()));
	}
	die("%s", line);
}

/*
 * Each kernel's file made bootable: a package's image taken out into a
 * directory of its own; the same file named twice (an A/A) is one.
 */
static void kern_open(struct kern *k, char *const *args)
{
	char err[ERRBUF_LEN], dir[PATH_MAX + 16];

	for (int i = 0; i < 2; i++) {
		int rc;

		if (i == 1 && strcmp(args[1], args[0]) == 0) {
			k->k[1] = k->k[0];
			k->k[1].arg = args[1];
			continue;
		}
		snprintf(dir, sizeof(dir), "%s/kernel%d", k->root, i);
		if (mkdir(dir, 0700) != 0)
			kern_die(k, "kernels: cannot make '%s': %s", dir, strerror(errno));
		if ((rc = guest_kernel_open(&k->k[i], args[i], dir, err)) != 0)
			kern_die(k, "kernels: %s", err);
	}
}

/*
 * One plain boot of each kernel, no request: that it boots at all, under
 * this accelerator, before anything is stored; and its guest described.
 */
static void kern_plain(struct kern *k)
{
	char err[ERRBUF_LEN];
	struct guest_out out;

	for (int i = 0; i < 2; i++) {
		int rc;

		if (i == 1 && strcmp(k->k[1].arg, k->k[0].arg) == 0) {
			k->sys[1] = k->sys[0];
			continue;
		}
		rc = guest_boot(&k->cfg, &k->k[i], NULL, 0, &out, err);
		if (rc == 1)
			kern_die(k, "kernels: interrupted");
		if (rc < 0 && k->cfg.accel == GUEST_KVM)
			kern_die(k, "kernels: '%s' does not run under kvm here: %s (--accel tcg runs it "
				 "under emulation, whose figures are emulation's, never a kernel's)",
				 k->k[i].arg, err);
		if (rc < 0)
			kern_die(k, "kernels: '%s': %s", k->k[i].arg, err);
		if (strcmp(out.sys.build_id, KB_BUILD_ID) != 0)
			kern_die(k, "kernels: the guest's init is another build's (%.12s, this kbench's "
				 "%.12s): build them together", out.sys.build_id, KB_BUILD_ID);
		k->sys[i] = out.sys;
		if (!k->o->quiet)
			fprintf(stderr, "kernels: %s boots under %s: %.1f s from qemu's start to its "
				"power-off; %d CPUs, clock source %s\n", out.sys.si.release,
				guest_accel_name(k->cfg.accel), out.seconds, out.sys.si.ncpu_online,
				out.sys.si.clocksource[0] ? out.sys.si.clocksource : "unknown");
		guest_out_free(&out);
	}
}

/* Say, with every table, that its figures are emulation's. */
static void kern_mark(const struct kern *k, FILE *out)
{
	if (k->cfg.accel == GUEST_TCG)
		fprintf(out, "emulated: both kernels ran under QEMU's TCG; " KERN_EMULATED "\n");
}

int cmd_kernels(int argc, char **argv)
{
	struct run_opts o = { .cmd = "kernels", .runs = 1, .precision = 1.0, .sample_ms = 10,
			      .parallel = 1, .replicas = KERN_ROUNDS, .seed = -1 };
	struct opt_list labels = { { NULL }, 0 };
	const char *accel = NULL, *append = NULL;
	double timeout = 0;
	const struct opt opts[] = {
		{ "rounds", OPT_INT, &o.replicas, "N", "rounds: each boots both kernels once and measures every figure in each (3)", 2, 100, 0 },
		{ "suite", OPT_STRING, &o.suite, "S", "quick, standard (default), full, lmbench, ...", 0, 0, 0 },
		{ "only", OPT_STRING, &o.only, "GLOB,...", "only instances whose id matches a glob", 0, 0, 0 },
		{ "label", OPT_LIST, &labels, "L", "name a kernel's side, once for each in order (default: its release)", 0, 2, 0 },
		{ "accel", OPT_STRING, &accel, "kvm|tcg", "how the guests run: kvm (default), or tcg, QEMU's emulation, whose figures are never a kernel's", 0, 0, 0 },
		{ "timeout", OPT_DOUBLE, &timeout, "SECONDS", "kill a boot that gave no result by then (tcg 120, kvm 60, and 20 or 5 more a figure)", 1, 86400, 0 },
		{ "append", OPT_STRING, &append, "ARGS", "more of the kernel command line, the same for both kernels", 0, 0, 0 },
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
	struct kern k = { 0 };
	struct engine eng;
	struct session ses;
	struct runner_cfg rc;
	struct engine_job *one, *jobs;
	const struct bench **sel;
	char err[ERRBUF_LEN], more[96], label[2][128], *si_json[2];
	struct run_info *side[2];
	unsigned suite_bits;
	size_t nsel, none, nfail;
	uint64_t seed;
	int npos;

	npos = opt_parse(cli_find("kernels"), opts, argc, argv);
	if (npos != 2)
		die_usage("kernels: give two kernels, each a vmlinuz (bzImage) or a Debian package "
			  "(.deb)%s", npos > 2 ? "; more than two is not done yet" : "");
	run_validate(&o, &suite_bits);
	sel = run_select(&o, suite_bits, &nsel);
	if (labels.n && labels.n != 2)
		die_usage("kernels: --label: give one for each kernel, in order (2), or none");
	for (int i = 0; i < labels.n; i++)
		cli_label_check("kernels", "--label", labels.v[i]);
	if (labels.n == 2 && strcmp(labels.v[0], labels.v[1]) == 0)
		die_usage("kernels: --label: both kernels are '%s': the two sides need two labels",
			  labels.v[0]);
	if (accel && strcmp(accel, "kvm") != 0 && strcmp(accel, "tcg") != 0)
		die_usage("kernels: --accel: '%s' is neither kvm nor tcg", accel);
	for (int i = 0; i < 2; i++)
		if (guest_kernel_check(argv[i], err) < 0)
			die("kernels: %s", err);
	k.o = &o;
	k.cfg.accel = accel && strcmp(accel, "tcg") == 0 ? GUEST_TCG : GUEST_KVM;
	k.cfg.append = append;
	if (guest_find(&k.cfg, err) < 0)
		die("kernels: %s", err);
	if (k.cfg.accel == GUEST_KVM && guest_kvm_check(err) < 0)
		die("kernels: kvm cannot run a guest here: %s (--accel tcg runs the guests under "
		    "emulation, whose figures are emulation's, never a kernel's)", err);
	seed = o.seed >= 0 ? (uint64_t)o.seed : (timer_now() ^ ((uint64_t)getpid() << 32)) % 2147483648u;

	runner_catch_signals();
	runner_catch_stop();
	/* The private directory: the janitor removes it, and kills qemu, whatever ends kbench. */
	snprintf(k.root, sizeof(k.root), "%s/kbench-kernels.XXXXXX", o.tmpdir);
	if (runner_janitor_start(k.root, sizeof(k.root), 0, &k.jan) < 0)
		die("kernels: cannot make a directory in '%s': %s", o.tmpdir, strerror(errno));
	k.cfg.dir = k.root;
	k.cfg.jan = &k.jan;
	kern_open(&k, argv);

	one = run_jobs(&o, suite_bits, sel, nsel, &none);
	jobs = ab_jobs(one, none);
	k.cfg.timeout_s = timeout > 0 ? timeout
		: k.cfg.accel == GUEST_TCG ? KERN_TIMEOUT_TCG + KERN_TIMEOUT_TCG_JOB * (double)none
					   : KERN_TIMEOUT_KVM + KERN_TIMEOUT_KVM_JOB * (double)none;
	run_harness(&o, suite_bits, &rc);
	/* As ab: the instance's budget is shared by both sides. */
	rc.harness.max_time_ns /= 2;
	/* The host's worker, checked as every measuring command checks it; its clock is the host's. */
	cli_engine_open(&eng, "kernels", &rc, 0, NULL);
	kern_plain(&k);

	for (int s = 0; s < 2; s++) {
		struct sysinfo *si = &k.sys[s].si;

		if (labels.n)
			snprintf(label[s], sizeof(label[s]), "%s", labels.v[s]);
		else
			snprintf(label[s], sizeof(label[s]), "%s", si->release[0] ? si->release : k.k[s].release);
		k.labels[s] = label[s];
		/* The guest's clock figures, which its harness subtracts; its run's own times. */
		k.hc[s] = rc.harness;
		k.hc[s].granularity_ns = k.sys[s].pre.ti.granularity_ns;
		k.hc[s].loop_ns = k.sys[s].pre.ti.loop_ns;
		k.hc[s].clock_cost_ns = k.sys[s].pre.ti.cost_ns;
		k.hc[s].run_start_ns = 0;
		k.hc[s].sentinel_sys = k.hc[s].sentinel_user = NULL;
	}
	if (!labels.n && strcmp(label[0], label[1]) == 0)
		kern_die(&k, "kernels: both kernels are release '%s': name the sides with --label A "
			 "--label B", label[0]);

	eng.paired = 1;
	eng.blocks = 1;
	eng.seed = seed;
	eng.cond = kern_switch;
	eng.cond_arg = &k;
	eng.ops.measure = kern_measure;
	k.e = &eng;
	kern_now = &k;
	if (!(k.got = calloc(2 * none + 1, sizeof(*k.got))) || !(k.have = calloc(2 * none + 1, 1)))
		die("kernels: out of memory");
	session_open(&ses, "kernels", o.db, o.no_store, NULL, &eng.pre, 0, 2);
	for (int s = 0; s < 2; s++) {
		struct sysinfo *si = &k.sys[s].si;

		/* The guest runs on this host: its runs are this host's, their machine the guest's. */
		snprintf(si->host, sizeof(si->host), "%s", ses.si.host);
		snprintf(si->virt, sizeof(si->virt), "%s",
			 k.cfg.accel == GUEST_TCG ? KERN_VIRT_TCG : "kvm");
		if (!(si_json[s] = report_sysinfo_json(si)))
			die("kernels: cannot encode the guest's description");
	}
	if (!o.quiet) {
		fprintf(stderr, "kernels: %d rounds of %zu instance%s, '%s' and '%s' booted in an order "
			"drawn from seed %llu\n", o.replicas, none, none == 1 ? "" : "s", label[0],
			label[1], (unsigned long long)seed);
		kern_mark(&k, stderr);
	}
	side[0] = session_begin_on(&ses, none, label[0], &k.sys[0].si, si_json[0]);
	side[1] = session_begin_on(&ses, none, label[1], &k.sys[1].si, si_json[1]);
	nfail = ab_rounds(&o, &eng, jobs, 2 * none, &ses, side[0], side[1], more, sizeof(more));
	kern_forget(&k);
	runner_janitor_wait(&k.jan, k.root);
	session_close(&ses);

	if (o.json) {
		cli_runs_out("kernels", o.fmt, &ses, 1);
	} else {
		kern_mark(&k, stdout);
		ab_report(&o, &ses, JUDGE_CMP_PAIRS_ONLY);
		kern_mark(&k, stdout);
	}
	fflush(stdout);
	kern_now = NULL;
	free(k.got);
	free(k.have);
	free(si_json[0]);
	free(si_json[1]);
	free(sel);
	free(one);
	free(jobs);
	return session_finish(&ses, nfail, more, o.quiet);
}

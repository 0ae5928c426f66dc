/*
 * One instance, one child process.  The parent waits on a pipe for the
 * child's result with the watchdog's deadline; on a timeout or Ctrl-C it
 * kills the child's whole process group (the benchmark's own children
 * included) and reaps it.  The child dies with the parent if kbench itself
 * is killed (plat_die_with_parent).
 *
 * The child sends its result as the raw struct followed by the samples and
 * a curve's points: both ends are the same binary.
 */
#include "core/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/registry.h"
#include "core/timer.h"
#include "plat/plat.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

void runner_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: poll() must return so the run can stop at once. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int runner_interrupted(void)
{
	return interrupted;
}

/*
 * Ctrl-Z.  The instance runs in a process group of its own, so the
 * terminal's SIGTSTP stops kbench alone and the benchmark would go on
 * measuring, unseen.  kbench catches it instead and, where it waits for an
 * instance (collect), stops that instance's group and then itself.
 */
static volatile sig_atomic_t stop_asked;

static void on_stop(int sig)
{
	stop_asked = sig;
}

int runner_stop_pending(void)
{
	return stop_asked;
}

void runner_catch_stop(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTSTP, &sa, NULL);
}

uint64_t runner_stop_group(pid_t pgid)
{
	uint64_t t0 = timer_now();

	stop_asked = 0;
	if (pgid > 0)
		kill(-pgid, SIGSTOP);
	/*
	 * SIGSTOP, not SIGTSTP: a process group without a parent outside it
	 * in the session (kbench started by a script) has SIGTSTP discarded
	 * by the kernel, which would leave the instance stopped for good.
	 */
	kill(getpid(), SIGSTOP);
	if (pgid > 0)
		kill(-pgid, SIGCONT);
	return timer_now() - t0;
}

static int rm_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

int runner_rmtree(const char *path)
{
	return nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * What an instance's process does once it is set up: measure, send the
 * result, exit.  The same in a freshly executed worker and in the forked
 * child that could not execute one.
 */
static _Noreturn void child_measure(const struct bench *b, const struct harness_cfg *hc, int fd)
{
	struct result r;
	const char *hang = getenv("KBENCH_TEST_HANG");
	int code = 0;

	plat_inject_from_env();
	/* Test hook: make one benchmark hang so the watchdog can be seen at work. */
	if (hang && strcmp(hang, b->id) == 0)
		for (;;)
			pause();
	if (harness_run(b, hc, &r) < 0)
		_exit(3);
	if (plat_full_io(fd, &r, sizeof(r), 1) < 0 ||
	    (r.n && plat_full_io(fd, r.samples, r.n * sizeof(*r.samples), 1) < 0) ||
	    (r.npoints && plat_full_io(fd, r.points, r.npoints * sizeof(*r.points), 1) < 0) ||
	    (r.n && r.where && plat_full_io(fd, r.where, r.n * sizeof(*r.where), 1) < 0))
		code = 4;
	result_free(&r);
	_exit(code);
}

static void child_signals(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
}

/*
 * A fresh process for every replica.  A forked child carries kbench's heap,
 * which grows with every result the run keeps, and copying an address
 * space costs ~65 us a MiB here: fork, and the exec and shell rows that
 * fork, got slower pass after pass of --runs (proc.fork 460 us in a
 * set's first run, 630 us in its fifth, back to 453 in the next set's
 * first).  So the child writes what the instance needs into an unlinked
 * file and executes kbench's own file with --kbench-worker; the new image
 * rebuilds the configuration and measures, the same process every time.
 * Only what makes sense in another image crosses: the bench and the
 * sentinel's rows by id (they must be the registry's own), the prior
 * results' figures and curve points (not their samples), the real clock.
 * Anything else, or a system that cannot exec kbench again, and the child
 * measures in place as before.
 */
#define WORKER_ARG "--kbench-worker"
#define WORKER_MAGIC 0x6b627731u	/* "kbw1" */

struct worker_head {
	uint32_t magic;
	uint32_t cfg_size, result_size, point_size;	/* both ends the same binary */
	char id[sizeof(((struct result *)0)->id)];
	char sentinel_sys[sizeof(((struct result *)0)->id)];
	char sentinel_user[sizeof(((struct result *)0)->id)];
	char tmpdir[PATH_MAX];
	struct harness_cfg hc;		/* its pointers are rebuilt from the above */
	size_t nprior;			/* then each: struct result, its points */
};

static const char **saved_argv;

void runner_remember_argv(char **argv)
{
	saved_argv = (const char **)argv;
}

static int worker_exportable(const struct bench *b, const struct harness_cfg *hc)
{
	if (hc->clock.now != timer_monotonic.now || registry_find(b->id) != b)
		return 0;
	if (hc->sentinel_sys && registry_find(hc->sentinel_sys->id) != hc->sentinel_sys)
		return 0;
	if (hc->sentinel_user && registry_find(hc->sentinel_user->id) != hc->sentinel_user)
		return 0;
	return strlen(b->id) < sizeof(((struct worker_head *)0)->id);
}

static void worker_name(char *dst, size_t len, const struct bench *b)
{
	snprintf(dst, len, "%s", b ? b->id : "");
}

/* The request, into an unlinked file in the instance's directory: its descriptor, or -1. */
static int worker_request(const struct bench *b, const struct harness_cfg *hc)
{
	struct worker_head *h = calloc(1, sizeof(*h));
	char path[PATH_MAX];
	int fd = -1, ok;

	if (!h || snprintf(path, sizeof(path), "%s/.worker.XXXXXX", hc->tmpdir) >= (int)sizeof(path) ||
	    snprintf(h->tmpdir, sizeof(h->tmpdir), "%s", hc->tmpdir) >= (int)sizeof(h->tmpdir) ||
	    (fd = mkstemp(path)) < 0) {
		free(h);
		return -1;
	}
	unlink(path);
	h->magic = WORKER_MAGIC;
	h->cfg_size = sizeof(h->hc);
	h->result_size = sizeof(struct result);
	h->point_size = sizeof(struct result_point);
	worker_name(h->id, sizeof(h->id), b);
	worker_name(h->sentinel_sys, sizeof(h->sentinel_sys), hc->sentinel_sys);
	worker_name(h->sentinel_user, sizeof(h->sentinel_user), hc->sentinel_user);
	h->hc = *hc;
	h->nprior = hc->nprior;
	ok = plat_full_io(fd, h, sizeof(*h), 1) == 0;
	for (size_t i = 0; ok && i < hc->nprior; i++) {
		const struct result *p = &hc->prior[i];

		ok = plat_full_io(fd, (void *)p, sizeof(*p), 1) == 0 &&
		     (!p->npoints || plat_full_io(fd, p->points, p->npoints * sizeof(*p->points), 1) == 0);
	}
	free(h);
	if (!ok || lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * In the forked child: execute a worker, or return (the child then measures
 * in place).  The lifeline must cross the exec, so it loses close-on-exec
 * until the worker has it back.
 */
static void worker_exec(const struct bench *b, const struct harness_cfg *hc, int fd, int lifeline,
			pid_t parent)
{
	char sreq[16], sfd[16], slife[16], sparent[24];
	const char *argv[64] = { "kbench", WORKER_ARG, sreq, sfd, slife, sparent, "--" };
	size_t n = 7;
	int req;

	if (!worker_exportable(b, hc) || (req = worker_request(b, hc)) < 0)
		return;
	/* After the fixed ones, kbench's own command line, for ps and for the tests' leftover checks. */
	for (size_t i = 1; saved_argv && saved_argv[i] && n < sizeof(argv) / sizeof(*argv) - 1; i++)
		argv[n++] = saved_argv[i];
	argv[n] = NULL;
	snprintf(sreq, sizeof(sreq), "%d", req);
	snprintf(sfd, sizeof(sfd), "%d", fd);
	snprintf(slife, sizeof(slife), "%d", lifeline);
	snprintf(sparent, sizeof(sparent), "%ld", (long)parent);
	if (lifeline >= 0)
		fcntl(lifeline, F_SETFD, 0);
	plat_exec_self((char *const *)argv);
	if (lifeline >= 0)
		fcntl(lifeline, F_SETFD, FD_CLOEXEC);
	close(req);
}

static int worker_number(const char *s, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return errno || end == s || *end ? -1 : 0;
}

int runner_is_worker(int argc, char **argv)
{
	return argc > 1 && strcmp(argv[1], WORKER_ARG) == 0;
}

int runner_worker_main(int argc, char **argv)
{
	struct worker_head *h = calloc(1, sizeof(*h));
	struct result *prior = NULL;
	const struct bench *b;
	long req, fd, life, parent;
	int ok;

	child_signals();
	if (argc < 6 || !h || worker_number(argv[2], &req) < 0 || worker_number(argv[3], &fd) < 0 ||
	    worker_number(argv[4], &life) < 0 || worker_number(argv[5], &parent) < 0) {
		fprintf(stderr, "kbench: %s is kbench's own, not to be run by hand\n", WORKER_ARG);
		free(h);
		return 2;
	}
	/* The parent-death signal survived the exec; kbench may have died before it. */
	if (getppid() != (pid_t)parent)
		_exit(1);
	if (life >= 0)
		fcntl((int)life, F_SETFD, FD_CLOEXEC);
	ok = plat_full_io((int)req, h, sizeof(*h), 0) == 0 && h->magic == WORKER_MAGIC &&
	     h->cfg_size == sizeof(h->hc) && h->result_size == sizeof(struct result) &&
	     h->point_size == sizeof(struct result_point) && h->nprior <= 4096 &&
	     memchr(h->id, 0, sizeof(h->id)) && memchr(h->tmpdir, 0, sizeof(h->tmpdir)) &&
	     memchr(h->sentinel_sys, 0, sizeof(h->sentinel_sys)) &&
	     memchr(h->sentinel_user, 0, sizeof(h->sentinel_user));
	if (ok && h->nprior)
		ok = (prior = calloc(h->nprior, sizeof(*prior))) != NULL;
	for (size_t i = 0; ok && i < h->nprior; i++) {
		struct result *p = &prior[i];

		ok = plat_full_io((int)req, p, sizeof(*p), 0) == 0 && p->npoints <= BENCH_MAX_POINTS;
		/* What another image's pointers pointed to: only the points came. */
		p->samples = NULL;
		p->n = 0;
		p->where = NULL;
		p->usage = NULL;
		p->replicas = NULL;
		p->nreplicas = 0;
		p->points = NULL;
		if (ok && p->npoints) {
			p->points = malloc(p->npoints * sizeof(*p->points));
			ok = p->points &&
			     plat_full_io((int)req, p->points, p->npoints * sizeof(*p->points), 0) == 0;
		}
	}
	close((int)req);
	b = ok ? registry_find(h->id) : NULL;
	if (!b)
		_exit(5);
	h->hc.clock = timer_monotonic;
	h->hc.tmpdir = h->tmpdir;
	h->hc.prior = prior;
	h->hc.sentinel_sys = h->sentinel_sys[0] ? registry_find(h->sentinel_sys) : NULL;
	h->hc.sentinel_user = h->sentinel_user[0] ? registry_find(h->sentinel_user) : NULL;
	child_measure(b, &h->hc, (int)fd);
}

static _Noreturn void child_main(const struct bench *b, const struct runner_cfg *cfg,
				 const char *tmpdir, int fd, int lifeline, pid_t parent)
{
	struct harness_cfg hc = cfg->harness;

	child_signals();
	/* If kbench died before the request took effect, nobody will reap us. */
	if (plat_die_with_parent(SIGKILL) == 0 && getppid() != parent)
		_exit(1);
	hc.tmpdir = tmpdir;
	worker_exec(b, &hc, fd, lifeline, parent);
	child_measure(b, &hc, fd);
}

/*
 * The janitor outlives whatever happens to an instance, to clean up after
 * it.  It is kbench's child, not the instance's, so the group kill spares
 * it, and it leaves kbench's session and process group at once: a SIGKILL
 * of kbench's whole group (timeout -s KILL, a CI job cancelled, a systemd
 * stop) must spare the one process that cleans up after such a kill, and
 * the terminal's signals no longer reach it.  It watches two pipes:
 * - the lifeline, whose write end only the instance's processes hold: end
 *   of file means the last of them died, and it removes the instance's
 *   private directory, even when kbench itself was killed with SIGKILL;
 * - the control pipe from kbench, which gives it the instance's process
 *   groups (contest gives two: the load's and the job's), takes back those
 *   that kbench has already killed and reaped (their ids may be reused),
 *   and says "done" at the end: end of file without "done" means kbench
 *   died, and it kills the groups, which is also how it ends with kbench.
 *   Linux kills the instance through PR_SET_PDEATHSIG as well; elsewhere
 *   this pipe is the only way.
 */
struct janitor_msg {
	char tag;		/* 'G': the group is pgid; 'U': pgid is gone; 'D': done */
	pid_t pgid;
};

/* After kbench died: how long the janitor waits for the instance to go. */
#define JANITOR_GRACE_MS 5000
/* How often it kills the groups again meanwhile, and tries the removal again. */
#define JANITOR_RETRY_MS 50

static void janitor_nap(int ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static void janitor_kill(const pid_t *group, size_t n)
{
	for (size_t i = 0; i < n; i++)
		kill(-group[i], SIGKILL);
}

void runner_detach(void)
{
	int null;

	if (setsid() < 0)
		(void)setpgid(0, 0);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGTSTP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	/*
	 * It never prints, and must not keep kbench's output open after
	 * kbench died (a pipe's reader would wait for it).
	 */
	null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		for (int fd = 0; fd <= 2; fd++)
			(void)dup2(null, fd);
		if (null > 2)
			close(null);
	}
}

static _Noreturn void janitor_main(const char *tmpdir, int life, int ctl)
{
	struct pollfd p[2] = { { .fd = life, .events = POLLIN }, { .fd = ctl, .events = POLLIN } };
	struct janitor_msg m;
	pid_t group[RUNNER_JANITOR_GROUPS];
	size_t ngroups = 0;
	int orphaned = 0, waited = 0;
	char c;

	runner_detach();
	/*
	 * Until both have spoken: the instance gone (lifeline at end of file)
	 * and kbench done or dead (the control pipe).  Leaving on the first
	 * alone would let kbench's "done" hit a closed pipe.  poll skips an
	 * entry whose fd is negative.  Once kbench is dead, the groups are
	 * killed again every JANITOR_RETRY_MS, and after the grace period the
	 * directory goes whoever still holds the lifeline.
	 */
	while (p[0].fd >= 0 || p[1].fd >= 0) {
		int rc = poll(p, 2, orphaned ? JANITOR_RETRY_MS : -1);

		if (rc < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (rc == 0) {
			janitor_kill(group, ngroups);
			if ((waited += JANITOR_RETRY_MS) >= JANITOR_GRACE_MS)
				break;
			continue;
		}
		if (p[0].fd >= 0 && p[0].revents && read(life, &c, 1) <= 0)
			p[0].fd = -1;
		if (p[1].fd >= 0 && p[1].revents) {
			ssize_t k = read(ctl, &m, sizeof(m));

			if (k == (ssize_t)sizeof(m) && m.tag == 'G') {
				if (ngroups < RUNNER_JANITOR_GROUPS)
					group[ngroups++] = m.pgid;
				continue;
			}
			if (k == (ssize_t)sizeof(m) && m.tag == 'U') {
				for (size_t i = 0; i < ngroups;)
					if (group[i] == m.pgid)
						group[i] = group[--ngroups];
					else
						i++;
				continue;
			}
			/* kbench is gone without saying done: what it started must go too. */
			if (!(k == (ssize_t)sizeof(m) && m.tag == 'D')) {
				orphaned = 1;
				janitor_kill(group, ngroups);
			}
			p[1].fd = -1;
		}
	}
	/*
	 * A killed process not holding the lifeline (a program the job
	 * exec'd) may still finish the system call it was in: a file it makes
	 * while the tree is walked keeps the directory, and the walk is done
	 * again; once the directory is gone, nothing can be made in it.
	 * Waiting for such processes instead would wait for their new parent
	 * to reap them, which some inits do only every few seconds.
	 */
	for (int i = 0; runner_rmtree(tmpdir) != 0 && access(tmpdir, F_OK) == 0 &&
			i < JANITOR_GRACE_MS / JANITOR_RETRY_MS; i++)
		janitor_nap(JANITOR_RETRY_MS);
	_exit(0);
}

void runner_janitor_start(const char *tmpdir, struct runner_janitor *j)
{
	int life[2], ctl[2];

	j->pid = -1;
	j->lifeline = j->ctl = -1;
	/* Close-on-exec: a program a benchmark execs must not keep them open. */
	if (plat_pipe_cloexec(life) < 0)
		return;
	if (plat_pipe_cloexec(ctl) < 0) {
		close(life[0]);
		close(life[1]);
		return;
	}
	j->pid = fork();
	if (j->pid == 0) {
		close(life[1]);
		close(ctl[1]);
		janitor_main(tmpdir, life[0], ctl[0]);
	}
	close(life[0]);
	close(ctl[0]);
	if (j->pid < 0) {
		close(life[1]);
		close(ctl[1]);
		return;
	}
	j->lifeline = life[1];
	j->ctl = ctl[1];
}

static void janitor_tell(struct runner_janitor *j, char tag, pid_t pgid)
{
	struct janitor_msg m = { tag, pgid };
	ssize_t k;

	/*
	 * A pipe write of a few bytes to a live reader does not fail; if the
	 * janitor is dead, the directory is still removed by janitor_wait.
	 */
	if (j->ctl >= 0) {
		k = write(j->ctl, &m, sizeof(m));
		(void)k;
	}
}

void runner_janitor_group(struct runner_janitor *j, pid_t pgid)
{
	janitor_tell(j, 'G', pgid);
}

void runner_janitor_ungroup(struct runner_janitor *j, pid_t pgid)
{
	janitor_tell(j, 'U', pgid);
}

/*
 * Returns when the janitor has removed the directory, which is when the
 * last process of the instance has died.  Without a janitor, remove it here.
 */
void runner_janitor_wait(struct runner_janitor *j, const char *tmpdir)
{
	int status;

	if (j->lifeline >= 0)
		close(j->lifeline);
	janitor_tell(j, 'D', 0);
	if (j->ctl >= 0)
		close(j->ctl);
	if (j->pid > 0)
		while (waitpid(j->pid, &status, 0) < 0 && errno == EINTR)
			;
	/* Normally gone already; without a janitor, or if it died, it is ours. */
	runner_rmtree(tmpdir);
}

/*
 * Read everything the child writes, until EOF, the deadline or a signal.
 * A Ctrl-Z stops the child's group pgid with kbench (*paused set), and the
 * time stopped does not count against the deadline.
 */
enum wait_outcome { WAIT_EOF, WAIT_TIMEOUT, WAIT_SIGNAL, WAIT_ERROR };

static enum wait_outcome collect(int fd, uint64_t deadline, pid_t pgid, int *paused, char **buf,
				 size_t *len)
{
	size_t cap = 0;

	*buf = NULL;
	*len = 0;
	for (;;) {
		uint64_t t = timer_now();
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int ms, rc;

		if (interrupted)
			return WAIT_SIGNAL;
		if (stop_asked) {
			deadline += runner_stop_group(pgid);
			*paused = 1;
			continue;
		}
		if (t >= deadline)
			return WAIT_TIMEOUT;
		ms = (int)((deadline - t) / 1000000u) + 1;
		rc = poll(&p, 1, ms);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc < 0)
			return WAIT_ERROR;
		if (rc == 0)
			continue;
		if (*len == cap) {
			char *more = realloc(*buf, cap ? 2 * cap : 65536);
			if (!more)
				return WAIT_ERROR;
			*buf = more;
			cap = cap ? 2 * cap : 65536;
		}
		ssize_t got = read(fd, *buf + *len, cap - *len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return WAIT_ERROR;
		if (got == 0)
			return WAIT_EOF;
		*len += (size_t)got;
	}
}

static void failed(struct result *r, const struct bench *b, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void failed(struct result *r, const struct bench *b, const char *fmt, ...)
{
	va_list ap;

	result_init(r, b);
	r->status = RES_FAIL;
	va_start(ap, fmt);
	vsnprintf(r->reason, sizeof(r->reason), fmt, ap);
	va_end(ap);
}

/*
 * Turn the child's bytes into a result; 0 when they hold one whole result:
 * the struct, its samples, a curve's points, and where each sample ran
 * (sent when the struct's pointer to them was set; its value means
 * nothing here).
 */
static int decode(const char *buf, size_t len, struct result *r)
{
	size_t nwhere;

	if (len < sizeof(*r))
		return -1;
	memcpy(r, buf, sizeof(*r));
	nwhere = r->where ? r->n : 0;
	r->samples = NULL;
	r->points = NULL;
	r->where = NULL;
	r->usage = NULL;	/* a benchmark has none; never the child's pointer */
	r->replicas = NULL;
	r->nreplicas = 0;
	if (r->npoints > BENCH_MAX_POINTS ||
	    len != sizeof(*r) + r->n * sizeof(double) + r->npoints * sizeof(*r->points) +
			   nwhere * sizeof(*r->where))
		return -1;
	if (nwhere) {
		r->where = malloc(nwhere * sizeof(*r->where));
		if (!r->where)
			return -1;
		memcpy(r->where, buf + len - nwhere * sizeof(*r->where), nwhere * sizeof(*r->where));
	}
	if (r->n) {
		r->samples = malloc(r->n * sizeof(double));
		if (!r->samples)
			return -1;
		memcpy(r->samples, buf + sizeof(*r), r->n * sizeof(double));
	}
	if (r->npoints) {
		r->points = malloc(r->npoints * sizeof(*r->points));
		if (!r->points)
			return -1;
		memcpy(r->points, buf + sizeof(*r) + r->n * sizeof(double),
		       r->npoints * sizeof(*r->points));
	}
	return 0;
}

static void describe_exit(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
}

/*
 * How long the instance may run: the watchdog's limit, and for a curve as
 * much again for every point, since each point is set up and sampled like
 * an instance of its own (on a quarter of the budget; the rest is room for
 * setting up arrays of hundreds of MiB).  The points are counted the way
 * the harness will count them.
 */
static double runner_limit_s(const struct bench *b, const struct runner_cfg *cfg)
{
	struct bench_ctx ctx = { .arg = b->arg, .suite = cfg->harness.suite };
	struct bench_point *pts;
	size_t np = 0;

	if (!b->points)
		return cfg->watchdog_s;
	if (b->flags & BENCH_SIZED)
		ctx.size = cfg->harness.size;
	pts = calloc(BENCH_MAX_POINTS, sizeof(*pts));
	if (pts)
		np = b->points(&ctx, pts, BENCH_MAX_POINTS);
	free(pts);
	return cfg->watchdog_s * (1 + (double)np / 4);
}

/* One replica in a fresh child; *paused when a Ctrl-Z stopped it meanwhile. */
static int runner_run_once(const struct bench *b, const struct runner_cfg *cfg, struct result *r,
			   int *paused)
{
	struct runner_janitor jan;
	char tmpdir[PATH_MAX], how[128];
	int fds[2], status = 0, rc = 0;
	char *buf = NULL;
	size_t len = 0;
	uint64_t start = timer_now();
	double limit_s;
	pid_t pid, parent;
	enum wait_outcome out;

	memset(r, 0, sizeof(*r));
	*paused = 0;
	if (stop_asked)
		runner_stop_group(0);
	if (interrupted)
		return -1;
	if (snprintf(tmpdir, sizeof(tmpdir), "%s/kbench.XXXXXX", cfg->tmproot) >= (int)sizeof(tmpdir)) {
		failed(r, b, "temporary directory path too long");
		return 0;
	}
	if (!mkdtemp(tmpdir)) {
		failed(r, b, "cannot make a temporary directory in '%s': %s", cfg->tmproot,
		       strerror(errno));
		return 0;
	}
	/* Before the result pipe, so the janitor does not hold its write end. */
	fflush(NULL);
	runner_janitor_start(tmpdir, &jan);
	if (pipe(fds) < 0) {
		failed(r, b, "pipe: %s", strerror(errno));
		runner_janitor_wait(&jan, tmpdir);
		return 0;
	}
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		failed(r, b, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		runner_janitor_wait(&jan, tmpdir);
		return 0;
	}
	if (pid == 0) {
		close(fds[0]);
		/* Only kbench may hold the control pipe, or its death goes unseen. */
		if (jan.ctl >= 0)
			close(jan.ctl);
		setpgid(0, 0);
		child_main(b, cfg, tmpdir, fds[1], jan.lifeline, parent);
	}
	/* Both sides set the group, so a kill right after fork still reaches it. */
	setpgid(pid, pid);
	close(fds[1]);
	janitor_tell(&jan, 'G', pid);
	/* The instance holds it now; -1, so janitor_wait does not close a reused number. */
	if (jan.lifeline >= 0)
		close(jan.lifeline);
	jan.lifeline = -1;
	jan.lifeline = -1;
	limit_s = runner_limit_s(b, cfg);
	out = collect(fds[0], start + (uint64_t)(limit_s * 1e9), pid, paused, &buf, &len);
	close(fds[0]);
	if (out != WAIT_EOF)
		kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	/* Anything the benchmark left behind in its group goes too. */
	kill(-pid, SIGKILL);
	runner_janitor_wait(&jan, tmpdir);

	switch (out) {
	case WAIT_SIGNAL:
		rc = -1;
		break;
	case WAIT_TIMEOUT:
		failed(r, b, "watchdog: still running after %.0f s, killed", limit_s);
		break;
	case WAIT_ERROR:
		failed(r, b, "lost contact with the benchmark process: %s", strerror(errno));
		break;
	case WAIT_EOF:
		if (decode(buf, len, r) == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
			break;
		result_free(r);
		describe_exit(status, how, sizeof(how));
		failed(r, b, "benchmark process %s before reporting a result", how);
		break;
	}
	free(buf);
	return rc;
}

int runner_run(const struct bench *b, const struct runner_cfg *cfg, struct result *r)
{
	int paused, rc;

	/*
	 * A replica stopped by Ctrl-Z has a sample that lasted as long as the
	 * user kept it stopped: it is measured again rather than kept.
	 */
	while ((rc = runner_run_once(b, cfg, r, &paused)) == 0 && paused)
		result_free(r);
	return rc;
}

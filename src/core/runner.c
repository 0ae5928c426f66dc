/*
 * One replica, one worker process (kbench-worker, core/worker.h).  kbench
 * writes the request into a file of the replica's private directory,
 * forks, and the child executes the worker; kbench waits on a pipe for the
 * reply with the watchdog's deadline, and on a timeout or Ctrl-C kills the
 * worker's whole process group (the benchmark's own children included) and
 * reaps it.  The worker dies with kbench if kbench itself is killed
 * (plat_die_with_parent, and the janitor).  kbench never measures in its
 * own process: what it cannot have the worker measure fails, saying why.
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

#include "config.h"
#include "core/companion.h"
#include "core/err.h"
#include "core/timer.h"
#include "core/wire.h"
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
 * The worker (core/worker.h): kbench-worker, found once, as kbench-tiny is
 * (companion.h), and executed afresh for every replica.  A fresh process
 * every time, rather than a child forked from kbench: a forked child
 * carries kbench's heap, which grows with every result a run keeps, and
 * proc.fork got slower pass after pass of --runs (460 us in a set's first
 * run, 630 us in its fifth); and a fresh image of a program that maps
 * only the C library and libm, rather than kbench's own, since a fork or
 * an exec costs more the more the process has mapped (kbench's 26 shared
 * libraries took proc.fork to 2.3 times a plain program's).
 */
static const char *runner_build_id = "";
static const char **saved_argv;

void runner_remember_argv(char **argv)
{
	saved_argv = (const char **)argv;
}

static char runner_worker_path[PATH_MAX];

void runner_set_build_id(const char *id)
{
	runner_build_id = id;
}

static int runner_worker_find(char *err, size_t len)
{
	const char *env = getenv(RUNNER_WORKER_ENV);

	if (runner_worker_path[0])
		return 0;
	if (companion_find(RUNNER_WORKER, RUNNER_WORKER_ENV, runner_worker_path,
			   sizeof(runner_worker_path)) == 0)
		return 0;
	if (env && *env)
		snprintf(err, len, "%s '%.160s': %s", RUNNER_WORKER_ENV, env, strerror(errno));
	else
		snprintf(err, len, "%s not found next to kbench nor in %s (it is built and "
			 "installed with kbench)", RUNNER_WORKER, KB_LIBEXECDIR);
	runner_worker_path[0] = '\0';
	return -1;
}

const char *runner_worker(void)
{
	return runner_worker_path;
}

/*
 * In the forked child: execute the worker with the request, or exit 127.
 * The lifeline must cross the exec, so it loses close-on-exec (the worker
 * gives it back).  With a wrap, sh -c 'exec WRAP "$@"' executes it, "$@"
 * its path and arguments; its parent is then kbench only if the wrapper
 * execs it, so it is told none (0) to check.
 */
static _Noreturn void child_main(int req, int fd, int lifeline, pid_t parent, const char *wrap)
{
	char sreq[16], sfd[16], slife[16], sparent[24], script[1024];
	const char *argv[72] = { "sh", "-c", script, RUNNER_WORKER };
	/* The worker's own argv: after sh's four words with a wrap ($0 is RUNNER_WORKER). */
	const char **w = wrap ? argv + 4 : argv;
	size_t n = (size_t)(w - argv) + 7;

	w[0] = wrap ? runner_worker_path : RUNNER_WORKER;
	w[1] = WIRE_ARG;
	w[2] = sreq;
	w[3] = sfd;
	w[4] = slife;
	w[5] = sparent;
	w[6] = "--";
	if (wrap)
		snprintf(script, sizeof(script), "exec %s \"$@\"", wrap);
	/* The worker ignores SIGPIPE itself; a wrap and what it starts get the defaults. */
	plat_child_signals();
	/* If kbench died before the request took effect, nobody will reap us. */
	if (plat_die_with_parent(SIGKILL) == 0 && getppid() != parent)
		_exit(1);
	/* After the fixed ones, kbench's own command line, for ps and for the tests' leftover checks. */
	for (size_t i = 1; saved_argv && saved_argv[i] && n < sizeof(argv) / sizeof(*argv) - 1; i++)
		argv[n++] = saved_argv[i];
	argv[n] = NULL;
	snprintf(sreq, sizeof(sreq), "%d", req);
	snprintf(sfd, sizeof(sfd), "%d", fd);
	snprintf(slife, sizeof(slife), "%d", lifeline);
	snprintf(sparent, sizeof(sparent), "%ld", wrap ? 0L : (long)parent);
	if (lifeline >= 0)
		fcntl(lifeline, F_SETFD, 0);
	fcntl(req, F_SETFD, 0);
	execv(wrap ? "/bin/sh" : runner_worker_path, (char *const *)argv);
	_exit(RUNNER_EXIT_NOEXEC);
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

static void janitor_kill(const pid_t *group, size_t n, const char *cgroup)
{
	for (size_t i = 0; i < n; i++)
		kill(-group[i], SIGKILL);
	if (cgroup[0])
		(void)plat_cgroup_kill(cgroup);
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

static _Noreturn void janitor_main(const char *tmpdir, const char *cgroup, int life, int ctl)
{
	struct pollfd p[2] = { { .fd = life, .events = POLLIN }, { .fd = ctl, .events = POLLIN } };
	struct janitor_msg m;
	pid_t group[RUNNER_JANITOR_GROUPS];
	size_t ngroups = 0;
	int orphaned = 0, waited = 0;
	char c;

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
			janitor_kill(group, ngroups, cgroup);
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
				janitor_kill(group, ngroups, cgroup);
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
	/* kbench dead: the jobs' cgroup is the janitor's to empty and remove (done: kbench's). */
	for (int i = 0; orphaned && cgroup[0] && i < JANITOR_GRACE_MS / JANITOR_RETRY_MS; i++) {
		if (plat_cgroup_kill(cgroup) <= 0 && plat_cgroup_remove(cgroup) == 0)
			break;
		janitor_nap(JANITOR_RETRY_MS);
	}
	_exit(0);
}

/*
 * What the janitor says back once it has made the directory (and the
 * cgroup): errno, 0 when the directory was made, and the names made.
 */
struct janitor_made {
	int err;			/* errno of mkdtemp, 0: made */
	char dir[PATH_MAX];		/* the directory's name, the template filled in */
	char cgroup[RUNNER_CGROUP_LEN];	/* the jobs' cgroup, "" when none */
};

/*
 * In the janitor, before it watches anything: make what kbench asked for
 * and say so on rep.  Made by the janitor rather than by kbench, so that
 * at no moment does something exist that no live process would remove: a
 * SIGKILL of kbench before the fork leaves nothing, one after it leaves
 * the janitor to clean up.  The cgroup's name carries kbench's pid.
 */
static void janitor_make(struct janitor_made *m, int cgroup, pid_t owner, unsigned serial, int rep)
{
	m->err = mkdtemp(m->dir) ? 0 : errno;
	m->cgroup[0] = '\0';
	if (!m->err && cgroup) {
		char name[64];

		snprintf(name, sizeof(name), "kbench-%d-%u", (int)owner, serial);
		(void)plat_cgroup_make(name, m->cgroup, sizeof(m->cgroup));
	}
	/* kbench dead already: EPIPE (SIGPIPE is ignored), and the main loop cleans up. */
	(void)plat_full_io(rep, m, sizeof(*m), 1);
	close(rep);
}

/* A janitor that made nothing: let it go and reap it; kbench is then on its own. */
static void janitor_forget(struct runner_janitor *j)
{
	int status;

	close(j->lifeline);
	close(j->ctl);
	j->lifeline = j->ctl = -1;
	while (waitpid(j->pid, &status, 0) < 0 && errno == EINTR)
		;
	j->pid = -1;
}

int runner_janitor_start(char *dir, size_t len, int cgroup, struct runner_janitor *j)
{
	static unsigned made;
	struct janitor_made m;
	int life[2], ctl[2], rep[2];
	unsigned serial = made++;
	pid_t owner = getpid();

	j->pid = -1;
	j->lifeline = j->ctl = -1;
	j->cgroup[0] = '\0';
	if (len > sizeof(m.dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memset(&m, 0, sizeof(m));
	snprintf(m.dir, sizeof(m.dir), "%s", dir);
	/* KBENCH_INJECT=no-cgroup: the tests of what the process groups do alone. */
	if (plat_test_switch("no-cgroup"))
		cgroup = 0;
	/* Close-on-exec: a program a benchmark execs must not keep them open. */
	if (plat_pipe_cloexec(life) < 0)
		goto alone;
	if (plat_pipe_cloexec(ctl) < 0) {
		close(life[0]);
		close(life[1]);
		goto alone;
	}
	if (plat_pipe_cloexec(rep) < 0) {
		close(life[0]);
		close(life[1]);
		close(ctl[0]);
		close(ctl[1]);
		goto alone;
	}
	j->pid = fork();
	if (j->pid == 0) {
		close(life[1]);
		close(ctl[1]);
		close(rep[0]);
		runner_detach();
		janitor_make(&m, cgroup, owner, serial, rep[1]);
		if (m.err)
			_exit(0);
		janitor_main(m.dir, m.cgroup, life[0], ctl[0]);
	}
	close(life[0]);
	close(ctl[0]);
	close(rep[1]);
	if (j->pid < 0) {
		close(life[1]);
		close(ctl[1]);
		close(rep[0]);
		goto alone;
	}
	j->lifeline = life[1];
	j->ctl = ctl[1];
	/* A janitor that died before it spoke (killed, out of memory): kbench makes the directory. */
	if (plat_full_io(rep[0], &m, sizeof(m), 0) < 0) {
		close(rep[0]);
		janitor_forget(j);
		goto alone;
	}
	close(rep[0]);
	if (m.err) {
		janitor_forget(j);
		errno = m.err;
		return -1;
	}
	snprintf(dir, len, "%s", m.dir);
	snprintf(j->cgroup, sizeof(j->cgroup), "%s", m.cgroup);
	return 0;
alone:
	/* Without a janitor: kbench makes it, and runner_janitor_wait removes it. */
	j->pid = -1;
	return mkdtemp(dir) ? 0 : -1;
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

void runner_janitor_enter(const struct runner_janitor *j)
{
	/* A cgroup that cannot be joined leaves the job to its process group. */
	if (j && j->cgroup[0])
		(void)plat_cgroup_enter(j->cgroup);
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
	/* Normally empty by now (group_sweep); whatever is not goes, for at most 5 s. */
	for (int i = 0; j->cgroup[0] && i < JANITOR_GRACE_MS / JANITOR_RETRY_MS; i++) {
		if (plat_cgroup_kill(j->cgroup) <= 0 && plat_cgroup_remove(j->cgroup) == 0)
			break;
		janitor_nap(JANITOR_RETRY_MS);
	}
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

/* What one exchange with a worker came to. */
struct exchange {
	enum wait_outcome out;
	int status;			/* the worker's wait status */
	char *buf;			/* everything it wrote, malloc'd */
	size_t len;
	int paused;			/* a Ctrl-Z stopped it meanwhile */
	int err;			/* errno of a set-up that failed (out WAIT_ERROR) */
	const char *what;		/* what failed, "" when none did */
};

/*
 * One request (kind, b under hc) in a fresh worker, in its own process
 * group and private directory, within limit_s: everything it wrote, and
 * how it ended.  Whatever happens, every process of it is killed and
 * reaped and the directory removed before this returns.
 */
static void runner_exchange(enum wire_kind kind, const struct bench *b, const struct harness_cfg *tmpl,
			    const struct runner_cfg *cfg, double limit_s, struct exchange *x)
{
	struct runner_janitor jan;
	struct harness_cfg hc = *tmpl;
	char tmpdir[PATH_MAX];
	int fds[2], req;
	uint64_t start = timer_now();
	pid_t pid, parent;

	memset(x, 0, sizeof(*x));
	x->what = "";
	x->out = WAIT_ERROR;
	if (snprintf(tmpdir, sizeof(tmpdir), "%s/kbench.XXXXXX", cfg->tmproot) >= (int)sizeof(tmpdir)) {
		x->err = ENAMETOOLONG;
		x->what = "temporary directory";
		return;
	}
	/* Before the result pipe, so the janitor does not hold its write end. */
	fflush(NULL);
	if (runner_janitor_start(tmpdir, sizeof(tmpdir), 0, &jan) < 0) {
		x->err = errno;
		x->what = "cannot make a temporary directory";
		return;
	}
	hc.tmpdir = tmpdir;
	if ((req = wire_request_write(tmpdir, kind, runner_build_id, b, &hc)) < 0) {
		x->err = errno;
		x->what = "cannot write the worker's request";
		runner_janitor_wait(&jan, tmpdir);
		return;
	}
	if (pipe(fds) < 0) {
		x->err = errno;
		x->what = "pipe";
		close(req);
		runner_janitor_wait(&jan, tmpdir);
		return;
	}
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		x->err = errno;
		x->what = "fork";
		close(req);
		close(fds[0]);
		close(fds[1]);
		runner_janitor_wait(&jan, tmpdir);
		return;
	}
	if (pid == 0) {
		close(fds[0]);
		/* Only kbench may hold the control pipe, or its death goes unseen. */
		if (jan.ctl >= 0)
			close(jan.ctl);
		setpgid(0, 0);
		child_main(req, fds[1], jan.lifeline, parent, kind == WIRE_MEASURE ? cfg->wrap : NULL);
	}
	/* Both sides set the group, so a kill right after fork still reaches it. */
	setpgid(pid, pid);
	close(req);
	close(fds[1]);
	janitor_tell(&jan, 'G', pid);
	/* The instance holds it now; -1, so janitor_wait does not close a reused number. */
	if (jan.lifeline >= 0)
		close(jan.lifeline);
	jan.lifeline = -1;
	x->out = collect(fds[0], start + (uint64_t)(limit_s * 1e9), pid, &x->paused, &x->buf, &x->len);
	x->err = errno;
	close(fds[0]);
	if (x->out != WAIT_EOF)
		kill(-pid, SIGKILL);
	while (waitpid(pid, &x->status, 0) < 0 && errno == EINTR)
		;
	/* Anything the benchmark left behind in its group goes too. */
	kill(-pid, SIGKILL);
	runner_janitor_wait(&jan, tmpdir);
}

/*
 * Why an exchange that ended at end of file brought no reply of this
 * build's worker: into why (len bytes).  0 when it did.
 */
static int runner_reply(const struct exchange *x, char *why, size_t len)
{
	char how[128], whose[192];

	if (WIFEXITED(x->status) && WEXITSTATUS(x->status) == RUNNER_EXIT_NOEXEC) {
		snprintf(why, len, "cannot execute %s '%.160s'", RUNNER_WORKER, runner_worker_path);
		return -1;
	}
	if (wire_reply_check(x->buf, x->len, runner_build_id, whose, sizeof(whose)) < 0) {
		if (x->len >= sizeof(struct wire_reply)) {
			snprintf(why, len, "%s '%.160s': %s", RUNNER_WORKER, runner_worker_path, whose);
			return -1;
		}
		describe_exit(x->status, how, sizeof(how));
		snprintf(why, len, "%s '%.160s' %s before reporting a result", RUNNER_WORKER,
			 runner_worker_path, how);
		return -1;
	}
	return 0;
}

/* One replica in a fresh worker; *paused when a Ctrl-Z stopped it meanwhile. */
static int runner_run_once(const struct bench *b, const struct runner_cfg *cfg, struct result *r,
			   int *paused)
{
	struct exchange x;
	char how[128], why[2 * ERRBUF_LEN], e[128];
	double limit_s = runner_limit_s(b, cfg);
	int rc = 0;

	memset(r, 0, sizeof(*r));
	*paused = 0;
	if (stop_asked)
		runner_stop_group(0);
	if (interrupted)
		return -1;
	if (runner_worker_find(why, sizeof(why)) < 0) {
		failed(r, b, "%s", why);
		return 0;
	}
	runner_exchange(WIRE_MEASURE, b, &cfg->harness, cfg, limit_s, &x);
	*paused = x.paused;
	switch (x.out) {
	case WAIT_SIGNAL:
		rc = -1;
		break;
	case WAIT_TIMEOUT:
		failed(r, b, "watchdog: still running after %.0f s, killed", limit_s);
		break;
	case WAIT_ERROR:
		if (x.what[0])
			failed(r, b, "%s: %s", x.what, err_errno_text(x.err, e, sizeof(e)));
		else
			failed(r, b, "lost contact with the benchmark process: %s",
			       err_errno_text(x.err, e, sizeof(e)));
		break;
	case WAIT_EOF:
		if (runner_reply(&x, why, sizeof(why)) < 0) {
			failed(r, b, "%s", why);
			break;
		}
		if (wire_result_decode(x.buf + sizeof(struct wire_reply),
				       x.len - sizeof(struct wire_reply), r) == 0 &&
		    WIFEXITED(x.status) && WEXITSTATUS(x.status) == 0)
			break;
		result_free(r);
		describe_exit(x.status, how, sizeof(how));
		failed(r, b, "benchmark process %s before reporting a result", how);
		break;
	}
	free(x.buf);
	return rc;
}

int runner_prelude(const struct runner_cfg *cfg, enum wire_kind kind, const struct harness_cfg *hc,
		   struct wire_prelude *p, char *err)
{
	struct exchange x;
	char why[2 * ERRBUF_LEN], e[128];
	int rc = -1;

	if (runner_worker_find(err, ERRBUF_LEN) < 0)
		return -1;
	do {
		if (stop_asked)
			runner_stop_group(0);
		if (interrupted) {
			errbuf_set(err, "interrupted by signal %d", (int)interrupted);
			return -1;
		}
		runner_exchange(kind, NULL, hc, cfg, cfg->watchdog_s, &x);
		if (x.paused)
			free(x.buf);
	} while (x.paused);
	switch (x.out) {
	case WAIT_SIGNAL:
		errbuf_set(err, "interrupted by signal %d", (int)interrupted);
		break;
	case WAIT_TIMEOUT:
		errbuf_set(err, "%s '%.160s' did not answer within %.0f s", RUNNER_WORKER,
			   runner_worker_path, cfg->watchdog_s);
		break;
	case WAIT_ERROR:
		errbuf_set(err, "%s: %s", x.what[0] ? x.what : "lost contact with the worker",
			   err_errno_text(x.err, e, sizeof(e)));
		break;
	case WAIT_EOF:
		if (runner_reply(&x, why, sizeof(why)) < 0) {
			errbuf_set(err, "%s", why);
			break;
		}
		if (x.len != sizeof(struct wire_reply) + sizeof(*p) || !WIFEXITED(x.status) ||
		    WEXITSTATUS(x.status) != 0) {
			errbuf_set(err, "%s '%.160s' sent a broken reply", RUNNER_WORKER, runner_worker_path);
			break;
		}
		memcpy(p, x.buf + sizeof(struct wire_reply), sizeof(*p));
		rc = 0;
		break;
	}
	free(x.buf);
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

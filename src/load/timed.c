/*
 * kbench time's driver (timed.h): fork the copies, hold them at the
 * barrier, release them, wait for each to end, kill what each left.
 *
 * The order of one run, and why:
 *   1. every copy forked into a process group of its own, told to the
 *      janitor, its output and directory set up, blocked reading the
 *      barrier pipe: all the costs of starting are paid before the clock
 *   2. the machine's CPU counters read, the clock read, the barrier's write
 *      end closed: every copy's read returns at once, it reports when it
 *      got through and execs the command.  The copy waiting there is
 *      kbench-worker, the launcher (core/wire.h), which the child forked
 *      from kbench has executed before the barrier: the exec in the timed
 *      window then replaces a process that maps the C library and libm,
 *      not a copy of kbench with its 26 libraries.  Without a worker the
 *      child waits and execs itself.
 *   3. kbench sleeps in poll on a pipe its SIGCHLD handler writes, so a
 *      copy's end is seen within microseconds rather than at the next tick
 *      of a polling loop (which would add up to its period to /bin/true's
 *      real time), and wakes at least every 50 ms for a timeout, Ctrl-C
 *      and Ctrl-Z
 *   4. a copy's end is its leader's reap; its members that are left are
 *      killed and reaped with their rusage (group_kill); after the last
 *      copy, the children that left their group (setsid) are found and
 *      killed too
 * The report pipe is close-on-exec: the copy writes its start there (a
 * struct wire_launch), and an exec that fails writes its errno; a
 * successful exec of the job closes it, so its end of file says every copy
 * is running its job.
 */
#include "load/timed.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/result.h"
#include "core/runner.h"
#include "core/wire.h"
#include "load/group.h"
#include "plat/plat.h"
#include "stats/stats.h"

/* Most children of kbench looked at when sweeping up escaped descendants. */
#define TIMED_MAX_CHILDREN GROUP_MAX_CHILDREN

/* The SIGCHLD handler's pipe: written (a byte, never blocking) on every child's exit. */
static int timed_chld_fd = -1;

static void timed_on_chld(int sig)
{
	int saved = errno;
	char c = 0;

	(void)sig;
	if (timed_chld_fd >= 0)
		(void)write(timed_chld_fd, &c, 1);
	errno = saved;
}

/*
 * The copy, once it is set up: executes the launcher with the barrier and
 * the report pipe, which lose close-on-exec for it (it gives the report's
 * back); should that fail, waits and execs the job itself.
 */
static void timed_launch(const struct timed_cfg *cfg, size_t k, int barrier, int report)
{
	const char *worker = runner_worker();
	char scopy[24], sbar[16], srep[16];
	const char **argv;
	size_t n = 0;

	if (!worker[0])
		return;
	for (n = 0; cfg->job[k].argv[n]; n++)
		;
	argv = calloc(n + 7, sizeof(*argv));
	if (!argv)
		return;
	snprintf(scopy, sizeof(scopy), "%zu", k);
	snprintf(sbar, sizeof(sbar), "%d", barrier);
	snprintf(srep, sizeof(srep), "%d", report);
	argv[0] = RUNNER_WORKER;
	argv[1] = WIRE_LAUNCH_ARG;
	argv[2] = scopy;
	argv[3] = sbar;
	argv[4] = srep;
	argv[5] = "--";
	memcpy(argv + 6, cfg->job[k].argv, (n + 1) * sizeof(*argv));
	(void)fcntl(barrier, F_SETFD, 0);
	(void)fcntl(report, F_SETFD, 0);
	execv(worker, (char *const *)argv);
	(void)fcntl(report, F_SETFD, FD_CLOEXEC);
	free(argv);
}

static _Noreturn void timed_child(const struct timed_cfg *cfg, size_t k, int barrier, int report)
{
	struct wire_launch m;
	char c;

	memset(&m, 0, sizeof(m));
	m.copy = (int)k;
	(void)setpgid(0, 0);
	plat_child_signals();
	if (cfg->job[k].log) {
		int fd = open(cfg->job[k].log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd >= 0)
			close(fd);
		/* Its log's directory gone (the job before deleted it): said, not a bare 126. */
		if (group_redirect_try(cfg->job[k].log) < 0) {
			m.err = errno;
			m.stage = WIRE_LAUNCH_LOG;
			(void)write(report, &m, sizeof(m));
			_exit(126);
		}
	} else {
		/* Passed through, but never reading kbench's terminal. */
		int in = open("/dev/null", O_RDONLY);

		if (in < 0 || dup2(in, 0) < 0)
			_exit(126);
		close(in);
	}
	if (cfg->tmp && setenv("TMPDIR", cfg->tmp, 1) != 0)
		_exit(126);
	if (cfg->job[k].dir && chdir(cfg->job[k].dir) != 0) {
		m.err = errno;
		m.stage = WIRE_LAUNCH_DIR;
		(void)write(report, &m, sizeof(m));
		_exit(126);
	}
	timed_launch(cfg, k, barrier, report);
	/* The barrier: end of file once kbench closes its end, for every copy at once. */
	while (read(barrier, &c, 1) < 0 && errno == EINTR)
		;
	m.start = group_now();
	close(barrier);
	(void)getrusage(RUSAGE_SELF, &m.before);
	if (write(report, &m, sizeof(m)) != (ssize_t)sizeof(m))
		_exit(126);
	execvp(cfg->job[k].argv[0], cfg->job[k].argv);
	m.err = errno;
	(void)write(report, &m, sizeof(m));
	_exit(127);
}

/*
 * Read what the copies reported so far: their starts into start[] and
 * what each used before its job into before[], and the first exec that
 * failed into err (1 then; 0 otherwise).  At end of file (every copy
 * executed its job, or ended) *fd becomes -1.
 */
static int timed_reports(int *fd, const struct timed_cfg *cfg, double *start,
			 struct rusage *before, char *err)
{
	struct wire_launch m;
	char text[128];
	ssize_t got;

	while (*fd >= 0 && (got = read(*fd, &m, sizeof(m))) != 0) {
		if (got < 0)
			return 0;	/* nothing more for now (non-blocking) */
		if (got != (ssize_t)sizeof(m) || m.copy < 0 || (size_t)m.copy >= cfg->copies)
			continue;
		if (m.err == 0) {
			start[m.copy] = m.start;
			before[m.copy] = m.before;
			continue;
		}
		err_errno_text(m.err, text, sizeof(text));
		if (m.stage == WIRE_LAUNCH_LOG)
			errbuf_set(err, "cannot open its log '%s': %s%s", cfg->job[m.copy].log, text,
				   m.err == ENOENT ? " (its private directory is gone: did the job "
				   "before delete it?)" : "");
		else if (m.stage == WIRE_LAUNCH_DIR)
			errbuf_set(err, "cannot enter its directory '%s': %s", cfg->job[m.copy].dir,
				   text);
		else
			errbuf_set(err, "cannot run '%s': %s", cfg->job[m.copy].argv[0], text);
		return 1;
	}
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
	return 0;
}

/* Stop every copy's group and kbench (Ctrl-Z); go on together once continued. */
static void timed_stop(const struct group *g, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (g[k].pid > 0 && !g[k].reaped)
			(void)kill(-g[k].pid, SIGSTOP);
	(void)runner_stop_group(0);
	for (size_t k = 0; k < n; k++)
		if (g[k].pid > 0 && !g[k].reaped)
			(void)kill(-g[k].pid, SIGCONT);
}

static double timed_tv(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* Why copy k ended badly, with the last lines of its log. */
static void timed_why(const struct timed_cfg *cfg, size_t k, int status, char *err)
{
	char tail[ERRBUF_LEN] = "", what[128];
	/* "copy 64: killed by signal 9; its last output:\n": what the tail leaves room for. */
	size_t room = ERRBUF_LEN - 64;

	if (WIFEXITED(status))
		snprintf(what, sizeof(what), "exit status %d", WEXITSTATUS(status));
	else
		snprintf(what, sizeof(what), "killed by signal %d", WTERMSIG(status));
	/* As many of the last lines as fit the message: the last one says why. */
	if (cfg->job[k].log)
		group_log_tail(cfg->job[k].log, 5, tail, room);
	/* A full file system takes the log's last lines with it: say so, or they read as all. */
	struct statvfs vfs;

	if (cfg->job[k].log && statvfs(cfg->job[k].log, &vfs) == 0 && vfs.f_bavail == 0)
		snprintf(what + strlen(what), sizeof(what) - strlen(what), "%s",
			 "; its log's file system is full, so its last lines may be lost");
	if (cfg->copies > 1)
		errbuf_set(err, "copy %zu: %s%s%s", k + 1, what, tail[0] ? "; its last output:\n" : "",
			   tail);
	else
		errbuf_set(err, "%s%s%s", what, tail[0] ? "; its last output:\n" : "", tail);
}

enum timed_status timed_run(const struct timed_cfg *cfg, struct timed_copy *out,
			    double *release_at, double *interference, char *err)
{
	size_t n = cfg->copies, ended = 0;
	struct group *g = calloc(n, sizeof(*g));
	double *start = calloc(n, sizeof(*start));
	struct rusage *before_ru = calloc(n, sizeof(*before_ru));
	int barrier[2] = { -1, -1 }, errp[2] = { -1, -1 }, chld[2] = { -1, -1 };
	struct sigaction sa, old_sa;
	struct plat_cpu_times cpu0, cpu1;
	enum timed_status rc = TIMED_OK;
	int have_cpu = 0, escaped = 0, nbefore;
	static pid_t before[TIMED_MAX_CHILDREN];
	struct rusage escaped_ru;
	double release = 0;

	memset(out, 0, n * sizeof(*out));
	memset(&escaped_ru, 0, sizeof(escaped_ru));
	*interference = -1;
	*release_at = group_now();
	err[0] = '\0';
	if (!g || !start || !before_ru) {
		free(g);
		free(start);
		free(before_ru);
		errbuf_set(err, "out of memory for %zu copies", n);
		return TIMED_ERROR;
	}
	if (pipe(barrier) < 0 || plat_pipe_cloexec(errp) < 0 || plat_pipe_cloexec(chld) < 0) {
		errbuf_set(err, "cannot make a pipe: %s", strerror(errno));
		rc = TIMED_ERROR;
		goto out;
	}
	(void)fcntl(errp[0], F_SETFL, O_NONBLOCK);
	(void)fcntl(chld[0], F_SETFL, O_NONBLOCK);
	(void)fcntl(chld[1], F_SETFL, O_NONBLOCK);
	(void)fcntl(barrier[1], F_SETFD, FD_CLOEXEC);
	timed_chld_fd = chld[1];
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = timed_on_chld;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, &old_sa);
	fflush(NULL);
	/* kbench's own children, before the copies: never swept as the job's. */
	nbefore = plat_children(before, TIMED_MAX_CHILDREN);
	for (size_t k = 0; k < n; k++) {
		pid_t pid = fork();

		if (pid < 0) {
			errbuf_set(err, "cannot start copy %zu: fork: %s", k + 1, strerror(errno));
			rc = TIMED_ERROR;
			goto kill;
		}
		if (pid == 0) {
			/* Into the jobs' cgroup before anything runs: nothing it starts can leave it. */
			runner_janitor_enter(cfg->jan);
			close(barrier[1]);
			close(errp[0]);
			if (cfg->jan && cfg->jan->ctl >= 0)
				close(cfg->jan->ctl);
			timed_child(cfg, k, barrier[0], errp[1]);
		}
		(void)setpgid(pid, pid);	/* both sides, so no signal can come before it */
		g[k].pid = pid;
		if (cfg->jan)
			runner_janitor_group(cfg->jan, pid);
	}
	close(barrier[0]);
	barrier[0] = -1;
	close(errp[1]);
	errp[1] = -1;
	have_cpu = plat_cpu_times(&cpu0) == 0;
	release = group_now();
	*release_at = release;
	close(barrier[1]);
	barrier[1] = -1;
	while (ended < n) {
		struct pollfd p[2] = { { .fd = chld[0], .events = POLLIN },
				       { .fd = errp[0], .events = POLLIN } };
		char drain[64];
		double now;

		(void)poll(p, 2, 50);
		while (read(chld[0], drain, sizeof(drain)) > 0)
			;
		for (size_t k = 0; k < n; k++)
			group_log_bound(cfg->job[k].log);
		if (timed_reports(&errp[0], cfg, start, before_ru, err)) {
			rc = TIMED_ERROR;
			break;
		}
		now = group_now();
		for (size_t k = 0; k < n; k++) {
			if (g[k].pid <= 0 || g[k].reaped || !group_poll(&g[k]))
				continue;
			/* Its start was reported before it could end: read it now if it came since. */
			if (timed_reports(&errp[0], cfg, start, before_ru, err)) {
				rc = TIMED_ERROR;
				break;
			}
			/*
			 * From the moment it passed the barrier: the wake-up of a copy
			 * blocked on the pipe (tens of microseconds in a VM, where it is
			 * another CPU's interrupt) is kbench's, not the job's.
			 */
			out[k].real = now - (start[k] >= release ? start[k] : release);
			/*
			 * A copy that passed the barrier and ended after now was read
			 * (kbench off its CPU meanwhile, on a busy machine): its end is
			 * known only now, and never before its start ("-0.00 real").
			 */
			if (out[k].real < 0)
				out[k].real = group_now() - start[k];
			ended++;
			/* What it left running goes now, counted with it. */
			group_kill(&g[k], cfg->jan);
		}
		if (ended == n || rc != TIMED_OK)
			break;
		/*
		 * A copy that stopped itself (kill -STOP $$) would never end:
		 * as a timeout would, it is killed and the run fails, said.
		 */
		for (size_t k = 0; k < n && rc == TIMED_OK; k++)
			if (g[k].pid > 0 && !g[k].reaped && g[k].stopped) {
				if (n == 1)
					errbuf_set(err, "stopped itself (signal %d, %s) and would never end: killed, "
						   "as a timeout would", g[k].stopped, strsignal(g[k].stopped));
				else
					errbuf_set(err, "copy %zu stopped itself (signal %d, %s) and would never end: "
						   "killed, as a timeout would", k + 1, g[k].stopped,
						   strsignal(g[k].stopped));
				rc = TIMED_TIMEOUT;
			}
		if (rc != TIMED_OK)
			break;
		if (runner_interrupted()) {
			errbuf_set(err, "interrupted by signal %d", runner_interrupted());
			rc = TIMED_INTERRUPTED;
			break;
		}
		if (runner_stop_pending()) {
			timed_stop(g, n);
			errbuf_set(err, "stopped (SIGTSTP) while the job ran");
			rc = TIMED_SUSPENDED;
			break;
		}
		if (cfg->timeout_s > 0 && now - release > cfg->timeout_s) {
			errbuf_set(err, "ran past its timeout of %.3g s and was stopped", cfg->timeout_s);
			rc = TIMED_TIMEOUT;
			break;
		}
	}
	have_cpu = have_cpu && plat_cpu_times(&cpu1) == 0;
	/* A copy that could not exec may end before its errno was read: it is there. */
	if (rc == TIMED_OK && timed_reports(&errp[0], cfg, start, before_ru, err))
		rc = TIMED_ERROR;
kill:
	for (size_t k = 0; k < n; k++)
		group_kill(&g[k], cfg->jan);
	escaped = group_sweep(cfg->jan, before, nbefore, &escaped_ru);
	sigaction(SIGCHLD, &old_sa, NULL);
	timed_chld_fd = -1;
	if (rc == TIMED_OK) {
		double used = 0;

		for (size_t k = 0; k < n; k++) {
			out[k].ru = g[k].ru;
			/* The copy's set-up and the launcher's start are not the job's. */
			group_rusage_sub(&out[k].ru, &before_ru[k]);
			group_rusage_add(&out[k].ru, &g[k].orphans_ru);
			/* One copy: whatever escaped its group is its own. */
			if (n == 1 && escaped) {
				group_rusage_add(&out[k].ru, &escaped_ru);
				g[k].orphans += escaped;
				g[k].killed += escaped;
			}
			out[k].status = g[k].status;
			out[k].orphans = g[k].orphans;
			out[k].killed = g[k].killed;
			out[k].start = start[k] > 0 ? start[k] - release : (double)NAN;
			used += timed_tv(&out[k].ru.ru_utime) + timed_tv(&out[k].ru.ru_stime);
			if ((!WIFEXITED(g[k].status) || WEXITSTATUS(g[k].status) != 0) && rc == TIMED_OK) {
				timed_why(cfg, k, g[k].status, err);
				rc = TIMED_FAILED;
			}
		}
		if (have_cpu && cpu1.total_ns > cpu0.total_ns) {
			double other = (double)(cpu1.busy_ns - cpu0.busy_ns) - used * 1e9;

			*interference = fmin(fmax(other, 0) / (double)(cpu1.total_ns - cpu0.total_ns), 1);
		}
	}
out:
	for (int i = 0; i < 2; i++) {
		if (barrier[i] >= 0)
			close(barrier[i]);
		if (errp[i] >= 0)
			close(errp[i]);
		if (chld[i] >= 0)
			close(chld[i]);
	}
	free(start);
	free(before_ru);
	free(g);
	return rc;
}

int timed_find(const char *name, char *path, size_t len, char *err)
{
	const char *dirs = getenv("PATH");
	int saw_denied = 0;

	if (!name[0]) {
		errbuf_set(err, "the command is empty");
		return -1;
	}
	if (strchr(name, '/')) {
		struct stat sb;

		if (stat(name, &sb) != 0) {
			errbuf_set(err, "no such command '%s': %s", name, strerror(errno));
			err_lower(err);
			return -1;
		}
		if (S_ISDIR(sb.st_mode) || access(name, X_OK) != 0) {
			errbuf_set(err, "cannot run '%s': %s", name,
				   S_ISDIR(sb.st_mode) ? "is a directory" : "permission denied");
			return -1;
		}
		snprintf(path, len, "%s", name);
		return 0;
	}
	/* As execvp searches: each directory of PATH in turn, "" meaning the current one. */
	if (!dirs)
		dirs = "/usr/local/bin:/bin:/usr/bin";
	for (const char *d = dirs;; d++) {
		const char *colon = strchr(d, ':');
		size_t dl = colon ? (size_t)(colon - d) : strlen(d);
		struct stat sb;

		snprintf(path, len, "%.*s%s%s", (int)dl, d, dl ? "/" : "", name);
		if (stat(path, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
			if (access(path, X_OK) == 0)
				return 0;
			saw_denied = 1;
		}
		if (!colon)
			break;
		d = colon;
	}
	if (saw_denied)
		errbuf_set(err, "cannot run '%s': permission denied", name);
	else
		errbuf_set(err, "no such command '%s': not found in PATH", name);
	return -1;
}

/* The median of n values (NaN when none); v is sorted in place. */
static double timed_median(double *v, size_t n)
{
	struct stats_summary ss;

	return n && stats_summarize(v, n, &ss) == 0 ? ss.median : (double)NAN;
}

void timed_result(const struct timed_series *c, const char *id, const char *cmdline,
		  struct result *r)
{
	size_t k = (size_t)c->copies, n = c->nruns * k;
	double *runs_real = calloc(c->nruns + 1, sizeof(double));
	double *per[5], *copy = calloc(k, sizeof(double));
	struct stats_summary ss;
	double orphans = 0;

	for (int i = 0; i < 5; i++)
		per[i] = calloc(c->nruns + 1, sizeof(double));
	memset(r, 0, sizeof(*r));
	r->level = r->level_low = r->level_high = r->slow_share = r->slow_depth = NAN;
	snprintf(r->id, sizeof(r->id), "%s", id);
	snprintf(r->unit, sizeof(r->unit), "s");
	r->better = BETTER_LOWER;
	r->placement = PLACE_NA;
	r->parallel = c->copies;
	r->jobs = c->jobs;
	r->aggregate = NAN;
	r->drift = NAN;
	r->interference = c->interference;
	r->iterations = 1;
	r->stop = STOP_MAX_SAMPLES;
	r->n = n;
	r->samples = calloc(n + 1, sizeof(*r->samples));
	r->where = calloc(n + 1, sizeof(*r->where));
	r->usage = calloc(n + 1, sizeof(*r->usage));
	r->nreplicas = c->nruns;
	r->replicas = calloc(c->nruns + 1, sizeof(*r->replicas));
	if (!runs_real || !copy || !per[0] || !per[1] || !per[2] || !per[3] || !per[4] ||
	    !r->samples || !r->where || !r->usage || !r->replicas)
		die("time: out of memory for a result");
	for (size_t run = 0; run < c->nruns; run++) {
		const struct timed_copy *t = &c->done[run * k];
		double first = INFINITY, last = -INFINITY, end_lo = INFINITY;

		r->wall_s += c->wall[run];
		for (int f = 0; f < 3; f++) {
			for (size_t j = 0; j < k; j++) {
				double u = timed_tv(&t[j].ru.ru_utime), s = timed_tv(&t[j].ru.ru_stime);

				copy[j] = f == 0 ? t[j].real : f == 1 ? u : s;
			}
			(f == 0 ? runs_real : per[f - 1])[run] = timed_median(copy, k);
		}
		for (size_t j = 0; j < k; j++)
			copy[j] = t[j].real > 0 ? 100 * (timed_tv(&t[j].ru.ru_utime) +
							 timed_tv(&t[j].ru.ru_stime)) / t[j].real : (double)NAN;
		per[2][run] = timed_median(copy, k);
		for (size_t j = 0; j < k; j++) {
			size_t i = run * k + j;
			double start = isfinite(t[j].start) ? t[j].start : 0;

			/* Its end, from the release: it started when it passed the barrier. */
			first = fmin(first, start);
			last = fmax(last, start + t[j].real);
			end_lo = fmin(end_lo, start + t[j].real);
			r->samples[i] = t[j].real;
			r->where[i] = (struct result_sample){ .t = c->release[run] + start + t[j].real,
							      .steal_ns = NAN, .cpu = -1,
							      .replica = (int)run };
			r->usage[i] = (struct result_usage){
				.copy = (int)j + 1, .status = t[j].status, .start = t[j].start,
				.user_s = timed_tv(&t[j].ru.ru_utime), .sys_s = timed_tv(&t[j].ru.ru_stime),
				.maxrss_kb = (double)t[j].ru.ru_maxrss,
				.minflt = (double)t[j].ru.ru_minflt, .majflt = (double)t[j].ru.ru_majflt,
				.nvcsw = (double)t[j].ru.ru_nvcsw, .nivcsw = (double)t[j].ru.ru_nivcsw,
				.inblock = (double)t[j].ru.ru_inblock, .oublock = (double)t[j].ru.ru_oublock,
				.orphans = t[j].killed,
			};
			orphans += t[j].killed;
			copy[j] = t[j].real;
		}
		per[3][run] = last - first;	/* the makespan */
		per[4][run] = last - end_lo;	/* the spread of the ends */
		r->replicas[run] = (struct result_replica){
			.median = runs_real[run], .n = k, .t0 = c->release[run] + first,
			.t1 = c->release[run] + last, .sentinel_sys = NAN, .sentinel_user = NAN,
			.stop = STOP_MAX_SAMPLES,
		};
		stats_summarize(copy, k, &ss);
		r->replicas[run].lo = ss.min;
		r->replicas[run].hi = ss.max;
	}
	result_value_add(r, "cmd", NAN, cmdline);
	if (c->failed || c->nruns == 0) {
		r->status = RES_FAIL;
		r->median = r->ci_low = r->ci_high = r->min = r->max = r->mean = NAN;
		r->stddev = r->cv = r->p5 = r->p95 = r->overhead = NAN;
		snprintf(r->reason, sizeof(r->reason), "%s",
			 c->failed && c->why ? c->why : c->failed ? "a run failed" : "no run finished");
	} else {
		r->status = RES_OK;
		stats_summarize(runs_real, c->nruns, &ss);
		r->median = ss.median;
		r->ci_low = ss.ci_low;
		r->ci_high = ss.ci_high;
		r->min = ss.min;
		r->max = ss.max;
		r->mean = ss.mean;
		r->stddev = ss.stddev;
		r->cv = ss.cv;
		r->p5 = ss.p5;
		r->p95 = ss.p95;
		/* A whole job: its runs' median is its level, as time users read one. */
		result_level_is_median(r);
		r->overhead = 0;
		result_value_add(r, "user_s", timed_median(per[0], c->nruns), NULL);
		result_value_add(r, "sys_s", timed_median(per[1], c->nruns), NULL);
		result_value_add(r, "cpu_share", timed_median(per[2], c->nruns) / 100, NULL);
		result_value_add(r, "makespan_s", timed_median(per[3], c->nruns), NULL);
		result_value_add(r, "spread_s", timed_median(per[4], c->nruns), NULL);
		result_value_add(r, "orphans", orphans, NULL);
	}
	for (int i = 0; i < 5; i++)
		free(per[i]);
	free(copy);
	free(runs_real);
}

/*
 * The contest driver: one job timed while one load works, the load's work
 * and CPU time read at the two instants that bound the job.
 *
 * The order of one measurement, and why:
 *   1. a private directory under --tmpdir: job/ for the generated tree,
 *      load/ for the load's files, tmp/ for the TMPDIR of the job and the
 *      load (a compiler's cc*.s, which a killed cc cannot remove, go with
 *      the directory); nothing is written anywhere else
 *   2. the load forked into a process group of its own (dying with kbench),
 *      which prepares its files and says ready; then it works for settle_s,
 *      so the job meets a load at speed, not one still starting
 *   3. the counters summed, the job forked into its own group, waited for
 *      with wait4 (its time and CPU, children included), the counters summed
 *      again the moment it is reaped: the difference is the work done in
 *      the job's window, and nothing else
 *   4. the load's group killed with SIGKILL and every process of it waited
 *      for (kbench is their subreaper, so orphaned workers come back here);
 *      the job's group too, in case the job left something running; the
 *      directory removed
 * A janitor process (runner.h) knows both groups and the directory: if
 * kbench itself is killed, even with SIGKILL, even with its whole process
 * group, it kills them and removes it.  A Ctrl-Z stops both groups with
 * kbench and continues them with it; a job stopped in its window is no
 * measurement (CONTEST_SUSPENDED), and is taken again.
 * The driver polls every 10 ms instead of blocking, so a timeout, a failing
 * load or Ctrl-C is acted on at once; the poll is outside the window's
 * arithmetic (the two readings are taken next to the job's fork and reap).
 */
#include "load/load.h"
#include "load/group.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "core/runner.h"
#include "plat/plat.h"

/* How long a load may take to prepare its files before it is called stuck. */
#define CONTEST_READY_S 300.0

/* The load's counters, summed over its slots. */
static void contest_read(const struct load_shared *sh, uint64_t *work, uint64_t *cpu_ns)
{
	uint64_t w = 0, c = 0;

	for (size_t i = 0; i < LOAD_MAX_SLOTS; i++) {
		w += atomic_load_explicit(&sh->slot[i].work, memory_order_relaxed);
		c += atomic_load_explicit(&sh->slot[i].cpu_ns, memory_order_relaxed);
	}
	*work = w;
	*cpu_ns = c;
}

/*
 * Ctrl-Z: the groups (load, job: 0 for none) stop with kbench and go on
 * with it, so nothing works un-timed while the contest is stopped.
 */
static void contest_stop(pid_t load, pid_t job)
{
	if (load > 0)
		(void)kill(-load, SIGSTOP);
	(void)runner_stop_group(job);
	if (load > 0)
		(void)kill(-load, SIGCONT);
}

/*
 * In a child about to run the job or the load: TMPDIR in the private
 * directory, whatever the user's is, so that the temporary files of what
 * it runs (cc's cc*.s) are removed with the directory even when they are
 * killed before they can remove them.
 */
static void contest_child_env(const char *tmp)
{
	if (setenv("TMPDIR", tmp, 1) != 0)
		_exit(126);
}

/* Start the job (the tree's make in dir, or the user's command) in a group of its own. */
static int contest_job_start(const struct contest_cfg *cfg, const char *dir, const char *log,
			     const char *tmp, const char *target, struct runner_janitor *jan,
			     struct group *g, char *err)
{
	char jobs[32];
	pid_t pid;

	memset(g, 0, sizeof(*g));
	snprintf(jobs, sizeof(jobs), "-j%d", cfg->jobs > 0 ? cfg->jobs : 2 * cfg->ncpu);
	pid = fork();
	if (pid < 0) {
		errbuf_set(err, "cannot start the job: fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		(void)setpgid(0, 0);
		runner_janitor_enter(jan);
		/* The job's own signals back to their defaults: it must be killable. */
		plat_child_signals();
		group_redirect(log);
		contest_child_env(tmp);
		/*
		 * The generated compile is the same job everywhere: the
		 * system's cc at -O2, whatever the environment says, and not
		 * a part of a make that ran kbench (its MAKEFLAGS would hand
		 * this make another's jobserver).
		 */
		if (!cfg->workload) {
			static const char *const vars[] = { "MAKEFLAGS", "MFLAGS", "MAKELEVEL",
							    "MAKEFILES", "CC", "CFLAGS", "GNUMAKEFLAGS" };
			for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
				unsetenv(vars[i]);
		}
		if (cfg->workload)
			execl("/bin/sh", "sh", "-c", cfg->workload, (char *)NULL);
		else
			execlp("make", "make", "-s", jobs, "-C", dir, target, (char *)NULL);
		_exit(127);
	}
	(void)setpgid(pid, pid);	/* both sides, so no signal can come before it */
	g->pid = pid;
	runner_janitor_group(jan, pid);
	return 0;
}

/* Why the job ended badly, from its wait status, with the log's last line. */
static void contest_job_why(const struct contest_cfg *cfg, int status, const char *log,
			    char *err)
{
	char tail[121];

	group_log_tail(log, 1, tail, sizeof(tail));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !cfg->workload)
		errbuf_set(err, "the job failed: make not found (install make and a C compiler, or "
			   "give --workload)");
	else if (WIFEXITED(status))
		errbuf_set(err, "the job failed: exit status %d%s%s", WEXITSTATUS(status),
			   tail[0] ? ": " : "", tail);
	else
		errbuf_set(err, "the job failed: killed by signal %d%s%s", WTERMSIG(status),
			   tail[0] ? ": " : "", tail);
}

/*
 * Run the job to its end, polling for a timeout, a failed load, Ctrl-C and
 * Ctrl-Z.  With sh (a load's shared page) the counters are read right
 * after the fork and right after the reap.  Returns the status; m gets
 * time and CPU.
 */
static enum contest_status contest_job(const struct contest_cfg *cfg, const char *dir,
				       const char *log, const char *tmp, const char *target,
				       struct runner_janitor *jan, const struct load_shared *sh,
				       int stop_load, pid_t load_pgid, struct contest_measure *m,
				       uint64_t w[2], uint64_t c[2], char *err)
{
	struct group job;
	struct plat_cpu_times cpu0, cpu1;
	int have_cpu;
	double t0, t1;
	enum contest_status rc = CONTEST_OK;

	/* The test switch: a load that is stopped during the job must count nothing. */
	if (stop_load && load_pgid > 0)
		(void)kill(-load_pgid, SIGSTOP);
	if (sh)
		contest_read(sh, &w[0], &c[0]);
	have_cpu = plat_cpu_times(&cpu0) == 0;
	t0 = group_now();
	if (contest_job_start(cfg, dir, log, tmp, target, jan, &job, err) < 0)
		return CONTEST_ERROR;
	for (;;) {
		/*
		 * Before the timeout: the time stopped would count against it.
		 * The job's Time would hold the stop too: this is no figure.
		 */
		if (runner_stop_pending()) {
			contest_stop(load_pgid, job.pid);
			rc = CONTEST_SUSPENDED;
			errbuf_set(err, "stopped (SIGTSTP) while the job ran");
			break;
		}
		if (group_poll(&job)) {
			t1 = group_now();
			if (sh)
				contest_read(sh, &w[1], &c[1]);
			have_cpu = have_cpu && plat_cpu_times(&cpu1) == 0;
			break;
		}
		if (runner_interrupted()) {
			rc = CONTEST_INTERRUPTED;
			errbuf_set(err, "interrupted by signal %d", runner_interrupted());
			break;
		}
		if (cfg->timeout_s > 0 && group_now() - t0 > cfg->timeout_s) {
			rc = CONTEST_FAILED;
			errbuf_set(err, "the job ran past its timeout of %.3g s and was stopped",
				   cfg->timeout_s);
			break;
		}
		if (sh && atomic_load(&sh->failed)) {
			rc = CONTEST_FAILED;
			errbuf_set(err, "the load failed during the job: %.180s", sh->why);
			break;
		}
		/* A job that stopped itself would never end: failed, as a timeout would. */
		if (job.stopped) {
			rc = CONTEST_FAILED;
			errbuf_set(err, "the job stopped itself (signal %d, %s) and would never end: killed",
				   job.stopped, strsignal(job.stopped));
			break;
		}
		group_log_bound(log);
		group_sleep_ms(10);
	}
	if (stop_load && load_pgid > 0)
		(void)kill(-load_pgid, SIGCONT);
	group_kill(&job, jan);
	if (rc != CONTEST_OK)
		return rc;
	if (!WIFEXITED(job.status) || WEXITSTATUS(job.status) != 0) {
		contest_job_why(cfg, job.status, log, err);
		return CONTEST_ERROR;
	}
	m->time_s = t1 - t0;
	m->user_s = (double)job.ru.ru_utime.tv_sec + (double)job.ru.ru_utime.tv_usec / 1e6;
	m->sys_s = (double)job.ru.ru_stime.tv_sec + (double)job.ru.ru_stime.tv_usec / 1e6;
	m->cpu_pct = m->time_s > 0 ? 100 * (m->user_s + m->sys_s) / m->time_s : (double)NAN;
	m->interference = -1;
	if (have_cpu && cpu1.total_ns > cpu0.total_ns) {
		/* What the machine did besides the job and the load (and this poll loop). */
		double other = (double)(cpu1.busy_ns - cpu0.busy_ns) -
			       (m->user_s + m->sys_s) * 1e9 - (sh ? (double)(c[1] - c[0]) : 0);

		m->interference = fmin(fmax(other, 0) / (double)(cpu1.total_ns - cpu0.total_ns), 1);
	}
	return CONTEST_OK;
}

/* Start the load: its group, its shared page; wait until it works. */
static enum contest_status contest_load_start(const struct contest_cfg *cfg, const struct load *ld,
					      const char *dir, const char *tmp, struct load_shared *sh,
					      struct runner_janitor *jan, struct group *g,
					      char *err)
{
	struct load_ctx ctx = {
		.dir = dir, .ncpu = cfg->ncpu, .mem_available = cfg->mem_available,
		.scale = cfg->scale, .sh = sh,
	};
	double t0, settle_end = 0;
	pid_t pid, driver = getpid();
	/* The test switch: the driver dies between the fork and telling the janitor. */
	int orphan = plat_test_switch("load-orphan");

	memset(g, 0, sizeof(*g));
	if (plat_disk_free(dir, &ctx.disk_free) < 0) {
		errbuf_set(err, "cannot see the free space of '%s': %s", dir, strerror(errno));
		return CONTEST_ERROR;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		errbuf_set(err, "cannot start %s: fork: %s", ld->name, strerror(errno));
		return CONTEST_ERROR;
	}
	if (pid == 0) {
		(void)setpgid(0, 0);
		runner_janitor_enter(jan);
		if (orphan)
			group_sleep_ms(200);
		(void)plat_die_with_parent(SIGKILL);
		/*
		 * The driver may have died between fork and prctl: then so do
		 * we.  Not getppid() == 1: under a subreaper (systemd --user, a
		 * container's init, a test harness) the orphan's new parent is
		 * that, not init.
		 */
		if (getppid() != driver)
			_exit(1);
		/* Only the driver may hold the janitor's control pipe, or its death goes unseen. */
		if (jan->ctl >= 0)
			close(jan->ctl);
		signal(SIGINT, SIG_IGN);	/* the driver decides when it stops */
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGTSTP, SIG_DFL);
		group_redirect(NULL);
		contest_child_env(tmp);
		ld->run(&ctx);
		_exit(0);
	}
	if (orphan)
		raise(SIGKILL);
	(void)setpgid(pid, pid);
	g->pid = pid;
	runner_janitor_group(jan, pid);
	t0 = group_now();
	for (;;) {
		if (atomic_load(&sh->failed)) {
			errbuf_set(err, "%.200s", sh->why);
			return CONTEST_FAILED;
		}
		if (group_poll(g)) {
			errbuf_set(err, "%s stopped before the job started (status %d)", ld->name,
				   g->status);
			return CONTEST_FAILED;
		}
		if (runner_interrupted()) {
			errbuf_set(err, "interrupted by signal %d", runner_interrupted());
			return CONTEST_INTERRUPTED;
		}
		/* Stopped while preparing or settling: it goes on once continued. */
		if (runner_stop_pending())
			contest_stop(pid, 0);
		if (atomic_load(&sh->ready) && settle_end == 0)
			settle_end = group_now() + cfg->settle_s;
		if (settle_end > 0 && group_now() >= settle_end)
			return CONTEST_OK;
		if (settle_end == 0 && group_now() - t0 > CONTEST_READY_S) {
			errbuf_set(err, "%s did not get ready within %.0f s", ld->name, CONTEST_READY_S);
			return CONTEST_FAILED;
		}
		group_sleep_ms(5);
	}
}

/* mkdir with a message; 0 or -1 with err filled. */
static int contest_mkdir(const char *path, char *err)
{
	if (mkdir(path, 0700) != 0) {
		errbuf_set(err, "cannot make '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

enum contest_status contest_measure(const struct contest_cfg *cfg, const struct load *ld,
				    struct contest_measure *m, char *err)
{
	char root[4096], job[4200], loaddir[4200], log[4200], tmp[4200];
	struct load_shared *sh = MAP_FAILED;
	struct group load = { 0 };
	struct runner_janitor jan;
	enum contest_status rc;
	uint64_t w[2] = { 0, 0 }, c[2] = { 0, 0 }, wend, cend;
	double load_start = 0;
	int is_cache = strcmp(ld->name, "cacherun") == 0;
	double start = group_now();
	static pid_t before[GROUP_MAX_CHILDREN];
	int nbefore;

	memset(m, 0, sizeof(*m));
	(void)plat_subreaper();	/* orphaned workers come back here to be reaped */
	snprintf(root, sizeof(root), "%s/kbench-contest.XXXXXX", cfg->tmproot);
	/* Even if kbench is killed outright, the janitor kills the groups and removes root. */
	if (runner_janitor_start(root, sizeof(root), 1, &jan) < 0) {
		errbuf_set(err, "cannot make a directory in '%s': %s", cfg->tmproot, strerror(errno));
		return CONTEST_ERROR;
	}
	/* kbench's own children (the janitor, the guard): never swept as the job's. */
	nbefore = plat_children(before, GROUP_MAX_CHILDREN);
	snprintf(job, sizeof(job), "%s/job", root);
	snprintf(loaddir, sizeof(loaddir), "%s/load", root);
	snprintf(log, sizeof(log), "%s/job.log", root);
	snprintf(tmp, sizeof(tmp), "%s/tmp", root);
	if (contest_mkdir(job, err) < 0 || contest_mkdir(loaddir, err) < 0 ||
	    contest_mkdir(tmp, err) < 0) {
		rc = CONTEST_ERROR;
		goto out;
	}
	if (!cfg->workload && tree_make(job, cfg->size, err) < 0) {
		rc = CONTEST_ERROR;
		goto out;
	}
	/* cacherun: the job once untimed, so the timed one finds every cache warm. */
	if (is_cache) {
		struct contest_measure warm;

		rc = contest_job(cfg, job, log, tmp, "all", &jan, NULL, 0, 0, &warm, w, c, err);
		if (rc != CONTEST_OK)
			goto out;
		if (!cfg->workload) {
			rc = contest_job(cfg, job, log, tmp, "clean", &jan, NULL, 0, 0, &warm, w, c, err);
			if (rc != CONTEST_OK)
				goto out;
		}
	}
	if (ld->run) {
		sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (sh == MAP_FAILED) {
			errbuf_set(err, "cannot map the load's counters: %s", strerror(errno));
			rc = CONTEST_ERROR;
			goto out;
		}
		load_start = group_now();
		rc = contest_load_start(cfg, ld, loaddir, tmp, sh, &jan, &load, err);
		if (rc != CONTEST_OK)
			goto out;
	}
	rc = contest_job(cfg, job, log, tmp, "all", &jan, ld->run ? sh : NULL,
			 plat_test_switch("load-stop"), load.pid, m, w, c, err);
	/*
	 * A job that fails under a load may have been failed by it (io_load
	 * filling the disk): that measurement fails, the contest goes on.
	 * Without a load the job itself is broken, and nothing can be timed.
	 */
	if (rc == CONTEST_ERROR && ld->run)
		rc = CONTEST_FAILED;
	if (rc != CONTEST_OK)
		goto out;
	if (ld->run) {
		m->loads = w[1] - w[0];
		m->lcpu_pct = m->time_s > 0 ? 100 * (double)(c[1] - c[0]) / 1e9 / m->time_s : (double)NAN;
		/* contest's way: everything the load did in its life, scaled by time. */
		group_kill(&load, &jan);
		m->load_life_s = group_now() - load_start;
		contest_read(sh, &wend, &cend);
		m->load_total = wend;
		m->old_loads = m->load_life_s > 0 ? (double)wend * m->time_s / m->load_life_s : (double)NAN;
	}
out:
	group_kill(&load, &jan);
	/* What left the job's and the load's groups (setsid, a daemon of a daemon) goes too. */
	(void)group_sweep(&jan, before, nbefore, NULL);
	if (sh != MAP_FAILED)
		munmap(sh, sizeof(*sh));
	runner_janitor_wait(&jan, root);
	if (access(root, F_OK) == 0 && rc == CONTEST_OK) {
		errbuf_set(err, "cannot remove '%s'", root);
		rc = CONTEST_ERROR;
	}
	m->wall_s = group_now() - start;
	return rc;
}

/* What contest_bg keeps behind its opaque pointers. */
struct group_bg {
	struct group g;
};

int contest_bg_start(const struct contest_cfg *cfg, const struct load *ld, struct contest_bg *bg,
		     char *err)
{
	char loaddir[4200], tmp[4200];

	memset(bg, 0, sizeof(*bg));
	bg->sh = MAP_FAILED;
	bg->ld = ld;
	if (!ld->run) {
		errbuf_set(err, "%s starts no load", ld->name);
		return -1;
	}
	if (!(bg->g = calloc(1, sizeof(*bg->g))) || !(bg->jan = calloc(1, sizeof(*bg->jan)))) {
		free(bg->g);
		errbuf_set(err, "out of memory");
		return -1;
	}
	(void)plat_subreaper();
	snprintf(bg->root, sizeof(bg->root), "%s/kbench-load.XXXXXX", cfg->tmproot);
	if (runner_janitor_start(bg->root, sizeof(bg->root), 1, bg->jan) < 0) {
		errbuf_set(err, "cannot make a directory in '%s': %s", cfg->tmproot, strerror(errno));
		free(bg->g);
		free(bg->jan);
		bg->g = NULL;
		bg->jan = NULL;
		return -1;
	}
	snprintf(loaddir, sizeof(loaddir), "%s/load", bg->root);
	snprintf(tmp, sizeof(tmp), "%s/tmp", bg->root);
	if (contest_mkdir(loaddir, err) < 0 || contest_mkdir(tmp, err) < 0)
		goto fail;
	bg->sh = mmap(NULL, sizeof(*bg->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (bg->sh == MAP_FAILED) {
		errbuf_set(err, "cannot map the load's counters: %s", strerror(errno));
		goto fail;
	}
	if (contest_load_start(cfg, ld, loaddir, tmp, bg->sh, bg->jan, &bg->g->g, err) != CONTEST_OK)
		goto fail;
	return 0;
fail:
	(void)contest_bg_stop(bg, NULL);
	return -1;
}

int contest_bg_stop(struct contest_bg *bg, char *err)
{
	int rc = 0;

	if (!bg->g)
		return 0;
	if (bg->sh != MAP_FAILED && atomic_load(&bg->sh->failed)) {
		if (err)
			errbuf_set(err, "%.200s", bg->sh->why);
		rc = -1;
	} else if (bg->g->g.pid && group_poll(&bg->g->g)) {
		if (err)
			errbuf_set(err, "%s stopped during the run (status %d)", bg->ld->name,
				   bg->g->g.status);
		rc = -1;
	}
	group_kill(&bg->g->g, bg->jan);
	if (bg->sh != MAP_FAILED)
		munmap(bg->sh, sizeof(*bg->sh));
	runner_janitor_wait(bg->jan, bg->root);
	free(bg->g);
	free(bg->jan);
	bg->g = NULL;
	bg->jan = NULL;
	bg->sh = MAP_FAILED;
	return rc;
}

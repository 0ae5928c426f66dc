/*
 * Runs one replica in a worker process (kbench-worker, core/worker.h), so
 * that a benchmark that hangs, crashes or leaks cannot take the run with
 * it, and so that what is measured runs in a small process of its own,
 * not in kbench.  The worker gets its own process group and a private
 * temporary directory; whatever happens, the runner kills the group and
 * removes the directory before returning.
 */
#ifndef KB_RUNNER_H
#define KB_RUNNER_H

#include <sys/types.h>

#include "core/bench.h"
#include "core/harness.h"
#include "core/result.h"

#include "core/wire.h"

struct runner_cfg {
	struct harness_cfg harness;	/* template; tmpdir is set per instance */
	const char *tmproot;		/* where private directories are made */
	double watchdog_s;		/* kill an instance that runs longer than this */
	const char *wrap;		/* a shell command prefix a measuring worker is
					   executed through ("nice -n 5"), or NULL: it
					   must exec what follows, as nice, taskset,
					   chrt, numactl and env do */
};

/*
 * Catch SIGINT, SIGTERM and SIGHUP: the run stops at the next instance
 * boundary (killing the one in progress), and the caller stores what finished.
 */
void runner_catch_signals(void);
/* The signal that interrupted the run, or 0. */
int runner_interrupted(void);
/*
 * Catch Ctrl-Z (SIGTSTP) for runner_run: the instance being measured is
 * stopped with kbench and measured again once continued.
 */
void runner_catch_stop(void);
/*
 * Stop process group pgid (none if 0), then kbench itself; once kbench is
 * continued, continue the group.  Returns the nanoseconds spent stopped.
 */
uint64_t runner_stop_group(pid_t pgid);
/* A Ctrl-Z caught and not yet acted on (runner_stop_group acts on it). */
int runner_stop_pending(void);

/*
 * The worker: kbench-worker, found as kbench-tiny is (companion.h), from
 * $KBENCH_WORKER, next to kbench, or in the libexec directory.  main()
 * gives the runner its build id (build_id.h), which every request carries
 * and a worker of another build refuses, and its argv, which the worker's
 * command line repeats for ps.
 */
#define RUNNER_WORKER "kbench-worker"
#define RUNNER_WORKER_ENV "KBENCH_WORKER"
/* The child's status when the worker could not be executed. */
#define RUNNER_EXIT_NOEXEC 127
void runner_set_build_id(const char *id);
void runner_remember_argv(char **argv);
/* The worker's path once one was found, else "". */
const char *runner_worker(void);

/*
 * A prelude in a fresh worker (kind WIRE_PRELUDE: the clock's cost and
 * step and the machine's MHz; WIRE_SENTINEL: the sentinel's iterations
 * and first point, under hc).  A session's first exchange with the worker,
 * so it is also where a missing worker, or one of another build, is
 * found: 0, or -1 with err (ERRBUF_LEN) saying what is wrong, nothing
 * measured; -1 as well when a signal came first (runner_interrupted then
 * says which).
 */
int runner_prelude(const struct runner_cfg *cfg, enum wire_kind kind, const struct harness_cfg *hc,
		   struct wire_prelude *p, char *err);

/*
 * Measure b in a worker.  Returns 0 with r filled (any status; a watchdog
 * kill, a crash or a worker that cannot be had as fail), or -1 when
 * interrupted (r is then empty).
 */
int runner_run(const struct bench *b, const struct runner_cfg *cfg, struct result *r);

/*
 * The janitor: a process of kbench's, in a session of its own, that removes
 * a private directory once every process holding its lifeline has died,
 * and kills the process groups it was told of if kbench dies without
 * saying it is done, so that even a SIGKILL of kbench, or of kbench's
 * whole process group, leaves nothing behind.  pid -1: none could be
 * started, and runner_janitor_wait cleans up by itself.
 *
 * time's and contest's janitors also hold a control group (plat_cgroup_*)
 * that every job joins as it starts: a process can leave its process
 * group (setsid) and its parent (a double fork), not its cgroup, so
 * killing the cgroup's members reaches a daemon at any depth, whether
 * kbench sweeps at the end of a run or the janitor after kbench died.
 * Where the machine gives none (not root, no cgroup2), the process groups
 * and the subreaper's sweep (group_sweep) do what they can while kbench
 * lives.
 */
#define RUNNER_JANITOR_GROUPS 72	/* time --copies 64, and the untimed commands */
#define RUNNER_CGROUP_LEN 4096
struct runner_janitor {
	pid_t pid;		/* -1: none, kbench cleans up itself */
	int lifeline;		/* write end: children forked while it is open hold it */
	int ctl;		/* write end of the control pipe */
	char cgroup[RUNNER_CGROUP_LEN];	/* the jobs' cgroup, "" when none */
};
/*
 * Start the janitor, which makes the private directory: dir (len bytes)
 * holds a mkdtemp template ("/tmp/kbench-time.XXXXXX") and comes back as
 * the directory's name.  cgroup: the janitor makes the jobs' control group
 * too (where the machine gives one: j->cgroup says whether it did).  The
 * janitor makes both, and kbench waits until it has, so that a SIGKILL of
 * kbench at any moment leaves neither behind.  0, or -1 with errno when
 * the directory cannot be made (then nothing is left to wait for).
 */
int runner_janitor_start(char *dir, size_t len, int cgroup, struct runner_janitor *j);
/*
 * In a helper process of kbench's (the janitor, the guard): leave kbench's
 * session and process group, ignore the terminal's signals and SIGPIPE,
 * and put /dev/null on stdin, stdout and stderr, so that a signal to
 * kbench's whole group spares the one process that cleans up after it.
 */
void runner_detach(void);
/* A process group to kill should kbench die (at most RUNNER_JANITOR_GROUPS). */
void runner_janitor_group(struct runner_janitor *j, pid_t pgid);
/* That group is gone (killed and reaped): forget it, its id may be reused. */
void runner_janitor_ungroup(struct runner_janitor *j, pid_t pgid);
/* In a job's child, before it runs anything: join the jobs' cgroup, if any. */
void runner_janitor_enter(const struct runner_janitor *j);
/*
 * Done: close the lifeline, kill what is left in the jobs' cgroup and
 * remove it, wait for the janitor, and remove dir.
 */
void runner_janitor_wait(struct runner_janitor *j, const char *dir);

/* Remove a directory tree; used for private temporary directories. */
int runner_rmtree(const char *path);

#endif

/*
 * A job's process group, as contest and time start, watch and kill it:
 * the pieces both drivers share, so that "kill the whole tree and wait for
 * every process of it" is written once.
 *
 * Every job runs as the leader of a process group of its own, so one
 * kill(-pgid) reaches whatever it started that stayed in the group; kbench
 * is the subreaper (plat_subreaper), so members orphaned by their parent's
 * death come back to kbench, which waits for them and counts what they used.
 */
#ifndef KB_GROUP_H
#define KB_GROUP_H

#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

struct runner_janitor;

/* One started process group: its leader's pid is the group's id. */
struct group {
	pid_t pid;			/* 0 when not started (or killed and forgotten) */
	int reaped;			/* the leader has been waited for */
	int status;			/* its wait status, once reaped */
	struct rusage ru;		/* its rusage from wait4, once reaped: the leader
					   and every descendant its family waited for */
	struct rusage orphans_ru;	/* summed over members reaped by kbench */
	int orphans;			/* members reaped by kbench */
	int killed;			/* of those, killed by group_kill, still running */
	int stopped;			/* a member stopped (SIGSTOP, SIGTTIN...) by no
					   doing of kbench's: the signal, else 0 */
};

/* The monotonic clock in seconds. */
double group_now(void);
/* Sleep ms milliseconds, cut short by a signal that interrupts kbench. */
void group_sleep_ms(int ms);
/*
 * Reap what has exited of the group without blocking: orphaned members
 * (their rusage into orphans_ru) and the leader; a member that stopped
 * is noted in stopped.  1 once the leader has been reaped.
 */
int group_poll(struct group *g);
/*
 * Kill the whole group and wait for every process of it: the leader (with
 * its rusage kept) and any member that comes back to kbench as subreaper
 * (counted in orphans, and in killed when the kill ended it).  Members that
 * are not kbench's children cannot be waited for; they are killed again
 * until the group is empty, for at most 5 s.  Then the janitor (NULL: none)
 * forgets the group, whose id may now be reused.
 */
void group_kill(struct group *g, struct runner_janitor *jan);
/* Most children of kbench looked at in a sweep (and kept as kbench's own before a job). */
#define GROUP_MAX_CHILDREN 1024
/*
 * After a job's groups are killed, what left them: kbench's children
 * that were not its children before the job started (before, nbefore:
 * the janitor, the guard of --offline-cpus) came back to kbench as
 * subreaper; each is killed and reaped, its rusage into ru (NULL: not
 * kept), pass after pass, since each one's death hands its own children
 * to kbench; and jan's cgroup (if it has one) is killed until empty,
 * which reaches what never comes back (a daemon's daemon whose parent
 * lives on in it).  Until a pass finds nothing and the cgroup is empty,
 * for at most 5 s.  The count reaped.
 */
int group_sweep(const struct runner_janitor *jan, const pid_t *before, int nbefore, struct rusage *ru);
/*
 * A job's log kept bounded while the job runs: past GROUP_LOG_MAX bytes,
 * all but its last GROUP_LOG_KEEP are dropped, so that a job that prints
 * without end cannot fill the temporary directory, and its last lines,
 * which say why it failed, are still there.  Where the file system punches
 * holes, the dropped part becomes one (its blocks freed, the size kept, no
 * write of the job lost); elsewhere the file is cut to its tail after a
 * line that says how much went, and a job's writes in the instant of the
 * cut may be lost.  Called from the drivers' polling loops.
 */
#define GROUP_LOG_MAX (8u << 20)
#define GROUP_LOG_KEEP (256u << 10)
void group_log_bound(const char *log);
/* In a child: stdin from /dev/null, stdout and stderr to log (NULL: /dev/null). */
void group_redirect(const char *log);
/* The same, -1 with errno set instead of the exit: for a child that says why first. */
int group_redirect_try(const char *log);
/*
 * The last lines (at most nlines, as many of the last as fit in len bytes)
 * of a job's log, for a message; "" when there are none.  Lines are joined by "\n", each
 * escaped as labels are (utf8_escape: an escape sequence never reaches
 * the terminal), and a NUL byte in one is written \x00, so that a line
 * after it is not lost.
 */
void group_log_tail(const char *log, int nlines, char *buf, size_t len);
/* Add b's user and system time, faults, blocks and switches to a; max RSS the larger. */
void group_rusage_add(struct rusage *a, const struct rusage *b);
/*
 * b's times and counts out of a's, none below zero: what a copy used
 * before its job's exec, out of the copy's whole rusage (maxrss kept).
 */
void group_rusage_sub(struct rusage *a, const struct rusage *b);

#endif

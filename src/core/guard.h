/*
 * The guard: a process of kbench's that puts the machine's settings back
 * if kbench dies without doing it itself.  `kbench clocks` switches the
 * clock source, `--offline-cpus` takes CPUs offline; both write a file of
 * sysfs, and both must be undone after a normal end, Ctrl-C, a crash or a
 * SIGKILL of kbench or of kbench's whole process group.  kbench ab's
 * --restore is a shell command that does the same for its switches.
 *
 * kbench tells the guard, before it changes a setting, the file and the
 * value to write back; it undoes the change itself when it is done and
 * then says so.  If the guard's pipe reaches end of file without that,
 * kbench is dead, and the guard writes every value back, in the reverse
 * order of the changes (a shell command where one was given instead), and
 * exits.  Like the janitor (runner.h), it leaves kbench's session at once,
 * so a signal to kbench's group spares it; unlike the janitor it keeps
 * kbench's stderr, to say there what it could not put back once kbench is
 * no longer there to say it.
 *
 * A shell command that puts a setting back runs the same way whoever runs
 * it (guard_run): in a session of its own, so that neither the terminal's
 * Ctrl-C nor a signal to kbench's group cuts it short; with every signal
 * at its default, so that a daemon it starts can be stopped; within a
 * time limit, its process group killed there; and what it starts is left
 * running, since putting the machine back may mean starting a daemon.
 */
#ifndef KB_GUARD_H
#define KB_GUARD_H

#include <stddef.h>
#include <sys/types.h>

/* The most settings one guard puts back (a CPU each, and the clock source). */
#define GUARD_MAX 1100

struct guard {
	pid_t pid;		/* the guard, -1 before guard_start or when none could start */
	int ctl;		/* write end of its pipe, -1 without a guard */
	int n;			/* settings it knows of */
};

/* Start a guard; 0, or -1 with errno (then nothing is guarded: refuse to change settings). */
int guard_start(struct guard *g);
/*
 * Before changing the file at path: should kbench die, write value there.
 * 0, or -1 (no guard, too many, or the guard is gone).
 */
int guard_add(struct guard *g, const char *path, const char *value);
/* The longest command guard_add_command keeps. */
#define GUARD_CMD_MAX 511
/*
 * Before changing a setting some other way (kbench ab's switches): should
 * kbench die, run the shell command cmd (guard_run, limit_s seconds at
 * most), in order with the files.  0, or -1 (no guard, too many, too
 * long, or the guard is gone).
 */
int guard_add_command(struct guard *g, const char *cmd, double limit_s);
/*
 * kbench has put everything back itself, and it worked: the guard ends
 * without writing; waited for.  Only after success: what kbench could not
 * put back is guard_finish's.
 */
void guard_done(struct guard *g);
/*
 * kbench could not put everything back itself: the guard does it now,
 * as it would after kbench's death, and is waited for.  0 when all of it
 * worked, -1 when something did not (or there is no guard).
 */
int guard_finish(struct guard *g);

/* Write value to the sysfs file at path, as the guard will; 0, or -1 with errno. */
int guard_write(const char *path, const char *value);

/* How a command run by guard_run went. */
struct guard_ran {
	int ran;		/* it ran and ended: status is its wait status */
	int status;
	int timed_out;		/* it ran past the limit and its group was killed */
	double limit;		/* the limit, seconds (0: none) */
	const char *call;	/* the call that failed ("fork", "execve", "waitpid",
				   "kill"), NULL when none did */
	int err;		/* that call's errno */
	int log_err;		/* its log could not be opened (errno): its output
				   went to /dev/null instead; 0 when it could */
};

/*
 * Run the shell command cmd (sh -c) to put a setting back, its output in
 * log (NULL: /dev/null; a log that cannot be opened never keeps it from
 * running), and wait for it whatever signals come meanwhile, for at most
 * limit_s seconds (0: no limit) before its process group is killed.  g,
 * when not NULL, is told its process group, so that a guard that sees
 * kbench die meanwhile waits for it before running it again.  0 when it
 * exited 0; -1 otherwise, r saying why (guard_ran_text).
 */
int guard_run(const char *cmd, const char *log, double limit_s, struct guard *g,
	      struct guard_ran *r);
/* Why r was not a success, in words: "exit status 3", "ran past its limit of 120 s and was killed". */
void guard_ran_text(const struct guard_ran *r, char *buf, size_t len);

#endif

/*
 * The guard: a process of kbench's that puts the machine's settings back
 * if kbench dies without doing it itself.  `kbench clocks` switches the
 * clock source, `--offline-cpus` takes CPUs offline; both write a file of
 * sysfs, and both must be undone after a normal end, Ctrl-C, a crash or a
 * SIGKILL of kbench or of kbench's whole process group.
 *
 * kbench tells the guard, before it changes a setting, the file and the
 * value to write back; it undoes the change itself when it is done and
 * then says so.  If the guard's pipe reaches end of file without that,
 * kbench is dead, and the guard writes every value back, in the reverse
 * order of the changes (a shell command where one was given instead), and
 * exits.  Like the janitor (runner.h), it leaves
 * kbench's session at once, so a signal to kbench's group spares it.
 */
#ifndef KB_GUARD_H
#define KB_GUARD_H

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
 * kbench die, run the shell command cmd (sh -c), in order with the files.
 * 0, or -1 (no guard, too many, too long, or the guard is gone).
 */
int guard_add_command(struct guard *g, const char *cmd);
/* kbench has put everything back itself: the guard ends without writing; waited for. */
void guard_done(struct guard *g);

/* Write value to the sysfs file at path, as the guard will; 0, or -1 with errno. */
int guard_write(const char *path, const char *value);

#endif

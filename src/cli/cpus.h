/*
 * --cpus LIST and --offline-cpus, shared by run, time and contest: kbench
 * and everything it starts run only on the CPUs listed (affinity, which
 * every child inherits), and with --offline-cpus every other CPU is taken
 * offline by hotplug for the measurement and brought back at its end, or
 * by the guard (core/guard.h) if kbench dies first.
 *
 * The two measure different things, and the run records which it was (the
 * system description's cpus and cpus_mode): with affinity alone the other
 * CPUs, their interrupts and kernel threads keep running; offline, the
 * kernel schedules, and takes its locks, as on fewer CPUs, though it is
 * still an SMP kernel (only CONFIG_SMP=n, maxcpus=1 or nosmp boot a UP one).
 */
#ifndef KB_CLI_CPUS_H
#define KB_CLI_CPUS_H

#include "core/guard.h"

/* The most CPUs kbench takes offline or lists at once. */
#define CLI_CPUS_MAX 1024

struct cli_cpus {
	struct guard guard;		/* puts the CPUs back should kbench die */
	int off[CLI_CPUS_MAX];		/* the CPUs kbench took offline */
	int noff;
};

/*
 * Apply --cpus list (NULL: nothing to do) and, with offline, --offline-cpus.
 * Refuses with one line (exit 2 for a bad list, 1 for what the machine
 * refuses) a CPU that does not exist or is not allowed, --offline-cpus
 * without --cpus or without root; says on stderr which CPUs could not be
 * taken offline and stay online.  cmd names the command in messages.
 */
void cli_cpus_apply(const char *cmd, const char *list, int offline, struct cli_cpus *c);
/* Bring back online what cli_cpus_apply took offline, and end the guard. */
void cli_cpus_restore(struct cli_cpus *c);
/* The CPUs kbench may run on now (its affinity), at least 1: the default -j. */
int cli_cpus_count(void);

#endif

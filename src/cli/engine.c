/*
 * The command line's door to the engine: a session opened, or the command
 * ended with one line (and the CPUs it had taken given back); and the
 * prelude alone, for the commands that measure no replica of their own
 * (time, contest, sysinfo) but still want the clock and the MHz measured
 * in the worker.  Kept out of opt.c, which the option fuzzer links alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cpus.h"
#include "core/engine.h"
#include "core/err.h"

void cli_engine_open(struct engine *e, const char *cmd, const struct runner_cfg *rc, int sentinel,
		     struct cli_cpus *cpus)
{
	char err[ERRBUF_LEN];

	if (engine_open(e, cmd, rc, sentinel, err) == 0)
		return;
	if (cpus)
		cli_cpus_restore(cpus);
	if (runner_interrupted()) {
		fprintf(stderr, "kbench: %s: interrupted by signal %d: nothing measured\n", cmd,
			runner_interrupted());
		exit(EXIT_SIGNAL(runner_interrupted()));
	}
	die("%s: %s", cmd, err);
}

/* The prelude's own watchdog: it measures for a few milliseconds. */
#define CLI_PRELUDE_WATCHDOG 30

void cli_prelude(const char *cmd, const char *tmpdir, struct cli_cpus *cpus, struct wire_prelude *pre)
{
	struct runner_cfg rc;
	struct engine e;

	memset(&rc, 0, sizeof(rc));
	harness_defaults(&rc.harness);
	rc.tmproot = tmpdir;
	rc.watchdog_s = CLI_PRELUDE_WATCHDOG;
	cli_engine_open(&e, cmd, &rc, 0, cpus);
	*pre = e.pre;
}

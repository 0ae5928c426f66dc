/*
 * kbench: measure what the kernel does for programs, with honest precision.
 * main() checks the benchmark table, finds the subcommand in the table below
 * and runs it; it then checks that stdout was written whole, since a report
 * cut short by a full disk must not exit 0.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_id.h"
#include "cli/cli.h"
#include "report/fmt.h"
#include "config.h"
#include "core/err.h"
#include "core/catalog.h"
#include "core/companion.h"
#include "core/registry.h"
#include "core/runner.h"
#include "plat/plat.h"
#include "store/db.h"

/* $KBENCH_STORE_TIMEOUT when it is a number of seconds in (0, 1e6], else DB_ANSWER_S. */
static double store_timeout(void)
{
	const char *e = getenv("KBENCH_STORE_TIMEOUT");
	char *end;
	double s = e ? strtod(e, &end) : 0;

	if (!e || !*e)
		return DB_ANSWER_S;
	if (*end || !(s > 0 && s <= 1e6))
		die_usage("KBENCH_STORE_TIMEOUT '%s' is not a number of seconds in (0, 1000000]", e);
	return s;
}

/* The subcommands, in the order `kbench --help` lists them, each with two examples for its --help. */
static const struct cmd cmds[] = {
	{ "list", "", "list every benchmark instance: id, unit, better, what it measures", cmd_list,
	  "kbench list --suite quick\nkbench list --json" },
	{ "run", "", "measure the selected benchmarks, store and print the results", cmd_run,
	  "kbench run --suite quick\nkbench run --only 'proc.*,sys.null' --runs 5 --label 6.19.0-rc1" },
	{ "ab", "",
	  "measure the selection under two conditions, interleaved round by round, and compare",
	  cmd_ab,
	  "kbench ab --only 'sys.*' --wrap-a 'taskset -c 0' --wrap-b 'taskset -c 1'\n"
	  "kbench ab --suite quick --label-a thp-never --label-b thp-always \\\n"
	  "    --a 'echo never >/sys/kernel/mm/transparent_hugepage/enabled' \\\n"
	  "    --b 'echo always >/sys/kernel/mm/transparent_hugepage/enabled'" },
	{ "kernels", "KERNEL KERNEL [KERNEL...]",
	  "boot each kernel in a guest of one shape, round by round, measure inside, and compare",
	  cmd_kernels,
	  "kbench kernels --only 'sys.*' linux-image-6.1.0-50-*.deb linux-image-6.12*.deb\n"
	  "kbench kernels --accel tcg --rounds 2 --label A --label B vmlinuz vmlinuz" },
	{ "bisect", "GOOD [IMAGE...] BAD | GOOD BAD --images FILE | GOOD CANDIDATE --run-step",
	  "find the first of a list of kernel images whose figure is worse than GOOD's, by halving",
	  cmd_bisect,
	  "kbench bisect --accel tcg --only sys.null --images builds.txt v6.1 v6.2\n"
	  "kbench bisect --run-step --only proc.fork good.bzImage arch/x86/boot/bzImage" },
	{ "summary", "[LABEL|RUN ...]",
	  "print stored runs as lmbench's summary tables, one row per label", cmd_summary,
	  "kbench summary 6.19.0-rc1 6.19.0-rc1-next-a\nkbench summary --html >summary.html" },
	{ "compare", "BASE OTHER ...",
	  "compare labels or runs instance by instance: change and significance", cmd_compare,
	  "kbench compare 6.19.0-rc1 6.19.0-rc1-next-a\n"
	  "kbench compare 6.19.0-rc1 6.19.0-rc1-next-a --html >compare.html" },
	{ "history", "[LABEL|RUN ...]",
	  "each figure over the stored runs, and the steps in it: where, by how much, how sure",
	  cmd_history,
	  "kbench history --by label --only 'proc.*'\n"
	  "kbench history --by label --threshold 5 --fail-on regression" },
	{ "show", "ID|sentinel [RUN|LABEL]",
	  "print one stored result in full, or a run's sentinel timeline", cmd_show,
	  "kbench show proc.fork 6.19.0-rc1\nkbench show sentinel 12" },
	{ "runs", "[LABEL|RUN ...] | rename LABEL|RUN NEW | delete LABEL|RUN ...",
	  "list the stored runs with their sets and labels; rename or delete them", cmd_runs,
	  "kbench runs\nkbench runs rename 12 6.19.0-rc1-next-a" },
	{ "export", "[LABEL|RUN ...]",
	  "write stored runs to stdout: JSON with everything, or CSV one row per result",
	  cmd_export, "kbench export 6.19.0-rc1 >6.19.json\nkbench export --format csv >all.csv" },
	{ "import", "FILE ...",
	  "add the runs of exports to the db; runs it already has are left out", cmd_import,
	  "kbench import 6.19.json\nkbench import --label otherbox-6.19 6.19.json" },
	{ "contest", "", "time a real job under background loads: Time, CPU%, Loads, LCPU%, Ratio",
	  cmd_contest, "kbench contest --runs 3\nkbench contest --loads io_load,mem_load" },
	{ "time", CMD_OPTIONS " [-- COMMAND [ARG...]]",
	  "time a whole job (default: a generated build) as BSD time does: runs, copies, -j sweeps",
	  cmd_time, "kbench time --jobs 1,2,4\nkbench time --runs 10 -- make -C linux -j{jobs} vmlinux" },
	{ "clocks", "", "what each clock source costs: clock_gettime, gettimeofday, time; vDSO or kernel",
	  cmd_clocks, "kbench clocks\nkbench clocks --sources tsc,hpet" },
	{ "sysinfo", "", "describe the machine and what makes its figures noisy",
	  cmd_sysinfo, "kbench sysinfo\nkbench sysinfo --json" },
};

const struct cmd *cli_find(const char *name)
{
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(cmds[i].name, name) == 0)
			return &cmds[i];
	return NULL;
}

static void usage(FILE *out)
{
	fputs("usage: kbench COMMAND [OPTIONS]\n\n", out);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		fprintf(out, "  %-9s ", cmds[i].name);
		report_wrap(out, 12, cmds[i].summary);
	}
	fputs("\n'kbench COMMAND --help' shows a command's options; 'man kbench' the rest.\n", out);
}

int main(int argc, char **argv)
{
	const struct cmd *cmd;
	int rc;

	runner_set_build_id(KB_BUILD_ID);
	runner_remember_argv(argv);
	companion_remember(argv[0]);
	registry_check();
	catalog_check();
	/*
	 * Over a file-size limit (ulimit -f) a write then fails with EFBIG,
	 * which the benchmark or the store reports, instead of the signal
	 * killing kbench without a word.
	 */
	signal(SIGXFSZ, SIG_IGN);
	/* Test hook: faults for kbench's own calls through the plat layer (plat/sys.h). */
	plat_inject_from("KBENCH_INJECT_SELF");
	/*
	 * Every wait on a store bounded, and cut short by the signals the
	 * measuring commands catch (the others die of them at once).
	 * KBENCH_STORE_TIMEOUT: seconds to wait for a server's answer.
	 */
	db_waits(DB_LOCK_S, store_timeout(), runner_interrupted);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		cli_stdout_check();
		return EXIT_DONE;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("kbench %s\n", KB_VERSION);
		cli_stdout_check();
		return EXIT_DONE;
	}
	cmd = cli_find(argv[1]);
	if (!cmd)
		die_usage("unknown command '%s'", argv[1]);
	rc = cmd->fn(argc - 1, argv + 1);
	cli_stdout_check();
	return rc;
}

/*
 * kbench sysinfo: the machine, and what makes its figures noisy.
 */
#include <stdlib.h>

#include "cli/cli.h"
#include "core/err.h"
#include "core/sysinfo.h"
#include "core/wire.h"
#include "report/report.h"

int cmd_sysinfo(int argc, char **argv)
{
	int json = 0;
	const struct opt opts[] = {
		{ "json", OPT_FLAG, &json, NULL, "print one JSON document", 0, 0, 0 },
		{ 0 },
	};
	struct sysinfo si;
	struct wire_prelude pre;

	if (opt_parse(cli_find("sysinfo"), opts, argc, argv) > 0)
		die_usage("sysinfo: takes no arguments");
	cli_prelude("sysinfo", cli_tmpdir("sysinfo", NULL), NULL, &pre);
	sysinfo_collect(&si, &pre.ti, pre.mhz);
	if (json) {
		if (report_sysinfo_doc(stdout, &si) < 0)
			die("sysinfo: cannot encode JSON");
	} else {
		report_sysinfo_text(stdout, &si);
	}
	return EXIT_DONE;
}

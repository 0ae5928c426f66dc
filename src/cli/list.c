/*
 * kbench list: the catalogue, with whether each instance can run here.
 */
#include <stdlib.h>

#include "cli/cli.h"
#include "core/err.h"
#include "core/registry.h"
#include "plat/plat.h"
#include "report/report.h"

int cmd_list(int argc, char **argv)
{
	const char *suite = NULL;
	int json = 0;
	const struct opt opts[] = {
		{ "suite", OPT_STRING, &suite, "S", "only this suite's instances", 0, 0, 0 },
		{ "json", OPT_FLAG, &json, NULL, "print one JSON document", 0, 0, 0 },
		{ 0 },
	};
	unsigned bits = 0;
	size_t n;
	char err[ERRBUF_LEN];

	if (opt_parse(cli_find("list"), opts, argc, argv) > 0)
		die_usage("list: takes no arguments");
	if (suite && registry_suite_parse(suite, &bits) < 0)
		die_usage("list: unknown suite '%s' (one of %s)", suite, registry_suite_list());

	const struct bench **sel = registry_select(bits, NULL, &n, err);
	if (!sel)
		die("list: %s", err);
	struct report_list_row *rows = calloc(n ? n : 1, sizeof(*rows));
	char (*names)[96] = calloc(n ? n : 1, sizeof(*names));
	if (!rows || !names)
		die("list: out of memory");
	/* The scale points up to the online CPUs, as a run takes them without --max-tasks:
	   the rest, up to SCALE_MAX_TASKS, would be hundreds of lines saying the same. */
	size_t kept = 0;
	int online = plat_ncpu_online();

	for (size_t i = 0; i < n; i++)
		if (sel[i]->tasks <= (online > 0 ? online : 1))
			sel[kept++] = sel[i];
	n = kept;
	for (size_t i = 0; i < n; i++) {
		registry_suite_names(sel[i]->suites, names[i], sizeof(names[i]));
		rows[i].bench = sel[i];
		rows[i].suites = names[i];
		rows[i].reason = sel[i]->unsupported ? sel[i]->unsupported() : NULL;
	}
	if (json)
		report_list_json(stdout, rows, n);
	else
		report_list_text(stdout, rows, n);
	free(names);
	free(rows);
	free(sel);
	return EXIT_DONE;
}

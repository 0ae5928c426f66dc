/*
 * lmbench's part of `kbench summary`: its seven tables (lmbench.c), the
 * system call rates, AIM9 and the other results, in that order, on one
 * model, each run's machine parsed once for all of them.  The summary's
 * other sections are listed in sections.c, which calls this.
 */
#include "report/curve.h"
#include "report/lmbench.h"
#include "report/model.h"
#include "report/report.h"
#include "report/notes.h"
#include "core/catalog.h"

#include <stdio.h>
#include <stdlib.h>

int report_summary_has(const struct run_info *runs, size_t nruns)
{
	for (size_t i = 0; i < nruns; i++)
		for (size_t j = 0; j < runs[i].nresults; j++) {
			const struct catalog_kind *k = catalog_prefixed(runs[i].results[j].id);

			if (!k || !k->own_tables)
				return 1;
		}
	return 0;
}

void report_summary_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns)
{
	/* Each run's machine, parsed once; without memory the tables go without it. */
	struct sysinfo *si = nruns ? calloc(nruns, sizeof(*si)) : NULL;
	const struct sysinfo **sip = nruns ? calloc(nruns, sizeof(*sip)) : NULL;

	for (size_t k = 0; si && sip && k < nruns; k++)
		if (report_sysinfo_parse(runs[k].sysinfo_json, &si[k]) == 0)
			sip[k] = &si[k];
	lm_tables_model(doc, runs, sip, nruns);
	rates_model(doc, runs, nruns);
	aim9_model(doc, runs, nruns);
	probes_model(doc, runs, nruns);
	curve_model(doc, runs, nruns);
	other_model(doc, runs, nruns);
	free(sip);
	free(si);
}

void report_summary(FILE *out, const struct run_info *runs, size_t nruns, int verbose)
{
	struct rm_doc doc = { .verbose = verbose };

	report_summary_model(&doc, runs, nruns);
	rm_write_text(out, &doc);
	rm_doc_free(&doc);
	report_cpus_notes(out, runs, nruns);
}

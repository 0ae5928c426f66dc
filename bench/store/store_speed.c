/*
 * How long the store takes to keep a run, as `kbench run` keeps one: the
 * run row, then each result committed on its own as it finishes (with its
 * samples, values, replicas and points), then the end time; nothing
 * measured, so that the figure is the store's alone.  The run is a real
 * one, read from an export (`kbench export`), stored afresh each round
 * under a new uuid.  bench/store_figures.sh runs it on SQLite and on
 * PostgreSQL, alternating.
 *
 *   store_speed EXPORT DB ROUNDS   prints one line per round: "ms results samples"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/err.h"
#include "report/export.h"
#include "store/store.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	char err[ERRBUF_LEN];
	struct run_info *runs;
	size_t nruns;
	int rounds;

	if (argc != 4 || (rounds = atoi(argv[3])) < 1) {
		fprintf(stderr, "usage: store_speed EXPORT DB ROUNDS\n");
		return 2;
	}
	if (report_import_json(argv[1], &runs, &nruns, err) < 0 || nruns == 0) {
		fprintf(stderr, "store_speed: %s\n", nruns == 0 ? "no run in the export" : err);
		return 1;
	}
	for (int k = 0; k < rounds; k++) {
		struct run_info run = runs[0];
		struct store *st;
		size_t samples = 0;
		double t0 = now_ms();

		/* A new run each round: kbench makes its uuid, as for one measured. */
		run.uuid[0] = run.set_uuid[0] = '\0';
		run.finished[0] = '\0';
		if (!(st = store_open(argv[2], err)) || store_run_begin(st, &run, err) < 0) {
			fprintf(stderr, "store_speed: %s\n", err);
			return 1;
		}
		for (size_t i = 0; i < run.nresults; i++) {
			if (store_result_add(st, run.id, &run.results[i], err) < 0) {
				fprintf(stderr, "store_speed: %s\n", err);
				return 1;
			}
			samples += run.results[i].samples ? run.results[i].n : 0;
		}
		if (store_run_end(st, run.id, err) < 0) {
			fprintf(stderr, "store_speed: %s\n", err);
			return 1;
		}
		store_close(st);
		printf("%.1f %zu %zu\n", now_ms() - t0, run.nresults, samples);
	}
	store_runs_free(runs, nruns);
	return 0;
}

/*
 * Stored runs in KernelCI's KCIDB report format (schema 5.3), for a lab
 * that already sends its kernels' builds and tests there: one checkout
 * and one build a kernel release, one test a figure.  kbench knows no
 * source tree: a checkout is named by the release the guest or the host
 * reported, which is all a run records of its kernel.  A test's path is
 * "kbench.<id>" (".<placement>", ".x<copies>", ".j<jobs>" after it where
 * the instance has them, so that a run's tests never share an id), its
 * number the level in the figure's unit, its misc the interval, the unit,
 * which way is better, the run's label and uuid, and whether the figure
 * is emulation's (kbench kernels under TCG): a dashboard must not take a
 * TCG figure for a kernel's.  The schema forbids nulls, so an unknown
 * number is left out, never written as null.  Nothing is judged here:
 * PASS is a figure measured, FAIL one whose benchmark failed on that
 * kernel, SKIP one that could not run there.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench.h"
#include "report/export.h"
#include "report/jsonw.h"

#define KCIDB_MAJOR 5
#define KCIDB_MINOR 3

/* What a run's description says of its kernel, from its sysinfo JSON (or its os string). */
struct kcidb_kernel {
	char release[128], arch[32], virt[64];
};

static void kcidb_kernel_of(const struct run_info *r, struct kcidb_kernel *k)
{
	const char *sp = strchr(r->os, ' ');
	json_t *si = r->sysinfo_json ? json_loads(r->sysinfo_json, 0, NULL) : NULL;
	const char *v;

	memset(k, 0, sizeof(*k));
	snprintf(k->release, sizeof(k->release), "%s", sp ? sp + 1 : r->os);
	if (si && (v = json_string_value(json_object_get(si, "release"))) && *v)
		snprintf(k->release, sizeof(k->release), "%s", v);
	if (si && (v = json_string_value(json_object_get(si, "arch"))))
		snprintf(k->arch, sizeof(k->arch), "%s", v);
	if (si && (v = json_string_value(json_object_get(si, "virt"))))
		snprintf(k->virt, sizeof(k->virt), "%s", v);
	json_decref(si);
	/* The schema's architecture is [a-z0-9_]*: "x86_64" as it is, anything else made so. */
	for (char *p = k->arch; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			*p = '_';
}

/* A path segment or an id's tail: the schema's paths are dot-separated words. */
static void kcidb_word(const char *in, char *out, size_t len, int dots)
{
	size_t i = 0;

	for (; *in && i + 1 < len; in++)
		out[i++] = (*in >= 'a' && *in <= 'z') || (*in >= 'A' && *in <= 'Z') ||
			   (*in >= '0' && *in <= '9') || *in == '_' || *in == '-' || (dots && *in == '.') ?
			   *in : '_';
	out[i] = '\0';
}

static void kcidb_set_num(json_t *o, const char *key, double v, int *bad)
{
	if (isfinite(v))
		report_jset(o, key, json_real(v), bad);
}

static json_t *kcidb_test(const char *origin, const struct run_info *run, const struct result *r,
			  const char *build_id, const struct kcidb_kernel *k, int *bad)
{
	json_t *t = json_object(), *misc = json_object(), *env = json_object(), *envmisc = json_object();
	char id[512], path[160], word[96], place[32];
	const char *pl = place_name(r->placement);
	int emulated = strstr(k->virt, "emulated") != NULL;

	kcidb_word(r->id, word, sizeof(word), 1);
	kcidb_word(pl, place, sizeof(place), 0);
	snprintf(path, sizeof(path), "kbench.%s%s%s", word, place[0] ? "." : "", place);
	/* The rest of an instance's key, so that no two tests of a run share an id: copies, time's jobs. */
	if (r->parallel > 1)
		snprintf(path + strlen(path), sizeof(path) - strlen(path), ".x%d", r->parallel);
	if (r->jobs > 0)
		snprintf(path + strlen(path), sizeof(path) - strlen(path), ".j%d", r->jobs);
	snprintf(id, sizeof(id), "%s:%s:%s", origin, run->uuid[0] ? run->uuid : "run", path + 7);
	report_jset(t, "id", report_jstr(id), bad);
	report_jset(t, "origin", report_jstr(origin), bad);
	report_jset(t, "build_id", report_jstr(build_id), bad);
	report_jset(t, "path", report_jstr(path), bad);
	report_jset(t, "status", report_jstr(r->status == RES_SKIP ? "SKIP" :
					      r->status == RES_FAIL ? "FAIL" : "PASS"), bad);
	if (run->started[0])
		report_jset(t, "start_time", report_jstr(run->started), bad);
	if (isfinite(r->wall_s) && r->wall_s >= 0)
		report_jset(t, "duration", json_real(r->wall_s), bad);
	if ((r->status == RES_OK || r->status == RES_NOISY) && isfinite(r->level)) {
		json_t *num = json_object();

		report_jset(num, "value", json_real(r->level), bad);
		if (r->unit[0])
			report_jset(num, "unit", report_jstr(r->unit), bad);
		report_jset(t, "number", num, bad);
	}
	if (r->reason[0])
		report_jset(t, "comment", report_jstr(r->reason), bad);
	kcidb_set_num(misc, "value", r->level, bad);
	report_jset(misc, "unit", report_jstr(r->unit), bad);
	if (isfinite(r->level_low) && isfinite(r->level_high)) {
		json_t *iv = json_array();

		report_jpush(iv, json_real(r->level_low), bad);
		report_jpush(iv, json_real(r->level_high), bad);
		report_jset(misc, "interval", iv, bad);
		report_jset(misc, "interval_level", json_real(0.95), bad);
	}
	report_jset(misc, "better", report_jstr(r->better == BETTER_HIGHER ? "higher" : "lower"), bad);
	report_jset(misc, "replicas", json_integer((json_int_t)r->nreplicas), bad);
	report_jset(misc, "kernel_release", report_jstr(k->release), bad);
	report_jset(misc, "label", report_jstr(run->label), bad);
	report_jset(misc, "run_uuid", report_jstr(run->uuid), bad);
	report_jset(misc, "emulated", json_boolean(emulated), bad);
	if (r->status == RES_NOISY)
		report_jset(misc, "noisy", json_true(), bad);
	report_jset(t, "misc", misc, bad);
	snprintf(id, sizeof(id), "%s%s%s", run->host, k->virt[0] ? ", " : "", k->virt);
	report_jset(env, "comment", report_jstr(id), bad);
	report_jset(envmisc, "host", report_jstr(run->host), bad);
	report_jset(envmisc, "virt", report_jstr(k->virt), bad);
	report_jset(envmisc, "emulated", json_boolean(emulated), bad);
	report_jset(env, "misc", envmisc, bad);
	report_jset(t, "environment", env, bad);
	return t;
}

int report_export_kcidb(FILE *out, const struct run_info *runs, size_t nruns, const char *origin)
{
	json_t *root = json_object(), *ver = json_object(), *co = json_array(), *bu = json_array(),
	       *te = json_array();
	char (*seen)[128] = calloc(nruns ? nruns : 1, sizeof(*seen));
	size_t nseen = 0;
	int bad = !root || !ver || !co || !bu || !te || !seen, rc;

	report_jset(ver, "major", json_integer(KCIDB_MAJOR), &bad);
	report_jset(ver, "minor", json_integer(KCIDB_MINOR), &bad);
	report_jset(root, "version", ver, &bad);
	for (size_t i = 0; !bad && i < nruns; i++) {
		struct kcidb_kernel k;
		char word[128], cid[256], bid[256];
		size_t j;

		kcidb_kernel_of(&runs[i], &k);
		kcidb_word(k.release, word, sizeof(word), 1);
		snprintf(cid, sizeof(cid), "%s:%s", origin, word);
		snprintf(bid, sizeof(bid), "%s:%s%s%s", origin, word, k.arch[0] ? "-" : "", k.arch);
		/* A checkout and a build a release, once however many runs measured it. */
		for (j = 0; j < nseen && strcmp(seen[j], k.release) != 0; j++)
			;
		if (j == nseen) {
			json_t *c = json_object(), *b = json_object(), *m = json_object(), *bm = json_object();

			snprintf(seen[nseen++], sizeof(*seen), "%s", k.release);
			report_jset(c, "id", report_jstr(cid), &bad);
			report_jset(c, "origin", report_jstr(origin), &bad);
			report_jset(c, "comment", report_jstr(k.release), &bad);
			report_jset(m, "kernel_release", report_jstr(k.release), &bad);
			report_jset(c, "misc", m, &bad);
			report_jpush(co, c, &bad);
			report_jset(b, "id", report_jstr(bid), &bad);
			report_jset(b, "origin", report_jstr(origin), &bad);
			report_jset(b, "checkout_id", report_jstr(cid), &bad);
			if (k.arch[0])
				report_jset(b, "architecture", report_jstr(k.arch), &bad);
			report_jset(b, "comment", report_jstr(k.release), &bad);
			report_jset(b, "status", report_jstr("PASS"), &bad);
			report_jset(bm, "kernel_release", report_jstr(k.release), &bad);
			report_jset(b, "misc", bm, &bad);
			report_jpush(bu, b, &bad);
		}
		for (size_t r = 0; r < runs[i].nresults; r++)
			report_jpush(te, kcidb_test(origin, &runs[i], &runs[i].results[r], bid, &k, &bad), &bad);
	}
	report_jset(root, "checkouts", co, &bad);
	report_jset(root, "builds", bu, &bad);
	report_jset(root, "tests", te, &bad);
	free(seen);
	rc = bad ? -1 : report_jdump(out, root, 17);
	json_decref(root);
	return rc;
}

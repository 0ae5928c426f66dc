/*
 * The machine description stored with a run: read back from the JSON it is
 * stored as (report_sysinfo_parse), and `kbench sysinfo`'s aligned "key:
 * value" lines.  The reports that show a run's machine (the tables, the
 * page, the notes on CPUs) read it through here; writing the JSON is
 * json.c's.
 */
#include "report/report.h"
#include "report/jsonw.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The string at key into dst (size bytes); left empty when it is not a string. */
static void get_str(json_t *o, const char *key, char *dst, size_t size)
{
	const char *v = json_string_value(json_object_get(o, key));

	snprintf(dst, size, "%s", v ? v : "");
}

/* A count or size in bytes; 0 when absent, not a number or negative. */
static uint64_t get_uint(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (json_is_integer(v) && json_integer_value(v) > 0)
		return (uint64_t)json_integer_value(v);
	if (json_is_real(v) && json_real_value(v) > 0 && json_real_value(v) < 1.8e19)
		return (uint64_t)json_real_value(v);
	return 0;
}

int report_sysinfo_parse(const char *text, struct sysinfo *si)
{
#define SI_STR(f) { #f, offsetof(struct sysinfo, f), sizeof(((struct sysinfo *)0)->f) }
	static const struct {
		const char *key;
		size_t off, size;
	} strs[] = {
		SI_STR(os), SI_STR(release), SI_STR(version), SI_STR(arch), SI_STR(host),
		SI_STR(cpu_model), SI_STR(clocksource), SI_STR(governor), SI_STR(smt), SI_STR(virt),
		SI_STR(clocksources), SI_STR(cpus), SI_STR(cpus_mode), SI_STR(cpus_online), SI_STR(cpus_present),
		SI_STR(cpus_possible), SI_STR(cmdline), SI_STR(build_type),
	};
#undef SI_STR
	json_t *o, *caches, *c;
	uint64_t ncpu;
	size_t i;

	memset(si, 0, sizeof(*si));
	if (!text)
		return -1;
	o = json_loads(text, 0, NULL);
	if (!json_is_object(o)) {
		json_decref(o);
		return -1;
	}
	for (i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		get_str(o, strs[i].key, (char *)si + strs[i].off, strs[i].size);
	ncpu = get_uint(o, "ncpu_online");
	si->ncpu_online = ncpu > INT32_MAX ? 0 : (int)ncpu;
	if (json_is_number(json_object_get(o, "mhz")))
		si->mhz = json_number_value(json_object_get(o, "mhz"));
	for (i = 0; i < 3; i++) {
		json_t *l = json_array_get(json_object_get(o, "loadavg"), i);

		si->loadavg[i] = json_is_number(l) ? json_number_value(l) : (double)NAN;
	}
	si->mem_total = get_uint(o, "mem_total");
	si->mem_available = get_uint(o, "mem_available");
	caches = json_object_get(o, "caches");
	json_array_foreach(caches, i, c) {
		struct plat_cache *pc;
		uint64_t level = get_uint(c, "level"), line = get_uint(c, "line");

		if (si->ncaches >= (int)(sizeof(si->caches) / sizeof(si->caches[0])))
			break;
		if (!json_is_object(c) || level == 0 || level > 9)
			continue;
		pc = &si->caches[si->ncaches++];
		pc->level = (int)level;
		get_str(c, "type", pc->type, sizeof(pc->type));
		pc->size = get_uint(c, "size");
		pc->line = line > 65536 ? 0 : (int)line;
	}
	json_decref(o);
	return 0;
}

static void fmt_str(char *buf, size_t size, const char *s, const char *empty)
{
	snprintf(buf, size, "%s", s[0] ? s : empty);
}

static void fmt_bytes(char *buf, size_t size, uint64_t bytes)
{
	const double mib = 1024.0 * 1024.0;

	if (bytes == 0)
		snprintf(buf, size, "unknown");
	else if (bytes >= 1024ull * 1024 * 1024)
		snprintf(buf, size, "%.1f GiB", (double)bytes / (mib * 1024.0));
	else
		snprintf(buf, size, "%.0f MiB", (double)bytes / mib);
}

static void fmt_ns(char *buf, size_t size, double ns)
{
	if (ns > 0 && isfinite(ns))
		snprintf(buf, size, "%.1f ns", ns);
	else
		snprintf(buf, size, "unknown");
}

/* "L1d 32K, L1i 32K, L2 512K, L3 32M, 64 B lines" as the OS reports them. */
static void fmt_caches(char *buf, size_t size, const struct sysinfo *si)
{
	size_t used = 0;
	int line = 0;

	buf[0] = '\0';
	for (int i = 0; i < si->ncaches && used < size; i++) {
		const struct plat_cache *c = &si->caches[i];
		const char *t = strcmp(c->type, "Data") == 0 ? "d" :
				strcmp(c->type, "Instruction") == 0 ? "i" : "";
		uint64_t kib = c->size >> 10;

		if (kib >= 1024 && kib % 1024 == 0)
			used += (size_t)snprintf(buf + used, size - used, "%sL%d%s %lluM", used ? ", " : "",
						 c->level, t, (unsigned long long)(kib >> 10));
		else
			used += (size_t)snprintf(buf + used, size - used, "%sL%d%s %lluK", used ? ", " : "",
						 c->level, t, (unsigned long long)kib);
		line = c->line ? c->line : line;
	}
	if (line && used < size)
		snprintf(buf + used, size - used, ", %d B lines", line);
	if (!buf[0])
		snprintf(buf, size, "unknown");
}

/*
 * The vulnerabilities that are mitigated, one per line, and a count of the
 * rest: "Not affected" is most of the list and says nothing about speed.
 */
static void fmt_mitigations(char *buf, size_t size, const char *lines)
{
	size_t used = 0, unaffected = 0;
	const char *p = lines;

	buf[0] = '\0';
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *colon = memchr(p, ':', len);
		static const char na[] = ": Not affected";

		/* The whole state, not its end: spectre_v2's ends "BHI: Not affected". */
		if (colon && (size_t)(p + len - colon) == sizeof(na) - 1 &&
		    memcmp(colon, na, sizeof(na) - 1) == 0)
			unaffected++;
		else if (used < size)
			used += (size_t)snprintf(buf + used, size - used, "%s%.*s", used ? "\n" : "",
						 (int)len, p);
		p += len + (nl != NULL);
	}
	if (unaffected && used < size)
		snprintf(buf + used, size - used, "%s(%zu more not affected)", used ? "\n" : "", unaffected);
	if (!buf[0])
		snprintf(buf, size, "unknown");
}

/* One "key: value" line; values are formatted first so keys can be aligned. */
struct kv {
	const char *key;
	char val[1100];		/* fits the longest sysinfo field, mitigations */
};

#define SYSINFO_LINES 40

/* The next line's value buffer, after naming it key. */
static char *kv_add(struct kv *rows, size_t *n, const char *key)
{
	if (*n >= SYSINFO_LINES)
		BUG("more sysinfo lines than SYSINFO_LINES");
	rows[*n].key = key;
	return rows[(*n)++].val;
}

void report_sysinfo_text(FILE *out, const struct sysinfo *si)
{
	struct kv rows[SYSINFO_LINES];
	const size_t vs = sizeof(rows[0].val);
	size_t n = 0, keyw = 0;

	fmt_str(kv_add(rows, &n, "os"), vs, si->os, "unknown");
	fmt_str(kv_add(rows, &n, "release"), vs, si->release, "unknown");
	fmt_str(kv_add(rows, &n, "version"), vs, si->version, "unknown");
	fmt_str(kv_add(rows, &n, "arch"), vs, si->arch, "unknown");
	fmt_str(kv_add(rows, &n, "host"), vs, si->host, "unknown");
	fmt_str(kv_add(rows, &n, "cpu model"), vs, si->cpu_model, "unknown");
	snprintf(kv_add(rows, &n, "cpus online"), vs, "%d", si->ncpu_online);
	fmt_str(kv_add(rows, &n, "cpus"), vs, si->cpus, "unknown");
	fmt_str(kv_add(rows, &n, "cpus mode"), vs, si->cpus_mode, "unknown");
	fmt_str(kv_add(rows, &n, "cpus present"), vs, si->cpus_present, "unknown");
	fmt_str(kv_add(rows, &n, "cpus possible"), vs, si->cpus_possible, "unknown");
	fmt_str(kv_add(rows, &n, "kernel cmdline"), vs, si->cmdline, "unknown");
	if (si->mhz > 0 && isfinite(si->mhz))
		snprintf(kv_add(rows, &n, "mhz"), vs, "%.0f", si->mhz);
	else
		snprintf(kv_add(rows, &n, "mhz"), vs, "unknown");
	fmt_str(kv_add(rows, &n, "clock source"), vs, si->clocksource, "unknown");
	fmt_str(kv_add(rows, &n, "clock sources"), vs, si->clocksources, "unknown");
	fmt_ns(kv_add(rows, &n, "clock cost"), vs, si->clock_cost_ns);
	fmt_ns(kv_add(rows, &n, "clock resolution"), vs, si->clock_res_ns);
	fmt_ns(kv_add(rows, &n, "loop cost"), vs, si->loop_ns);
	fmt_str(kv_add(rows, &n, "governor"), vs, si->governor, "none");
	fmt_str(kv_add(rows, &n, "smt"), vs, si->smt, "unknown");
	fmt_mitigations(kv_add(rows, &n, "mitigations"), vs, si->mitigations);
	fmt_str(kv_add(rows, &n, "virtualisation"), vs, si->virt, "none found");
	snprintf(kv_add(rows, &n, "load average"), vs, "%.2f %.2f %.2f",
		 si->loadavg[0], si->loadavg[1], si->loadavg[2]);
	fmt_bytes(kv_add(rows, &n, "memory total"), vs, si->mem_total);
	fmt_bytes(kv_add(rows, &n, "memory available"), vs, si->mem_available);
	fmt_caches(kv_add(rows, &n, "caches"), vs, si);
	fmt_str(kv_add(rows, &n, "compiler"), vs, si->compiler, "unknown");
	fmt_str(kv_add(rows, &n, "cflags"), vs, si->cflags, "unknown");
	fmt_str(kv_add(rows, &n, "build type"), vs, si->build_type, "unknown");
	fmt_str(kv_add(rows, &n, "kbench version"), vs, si->kbench_version, "unknown");
	fmt_str(kv_add(rows, &n, "libc tunables"), vs, si->libc_tunables, "none");

	for (size_t i = 0; i < n; i++)
		if (strlen(rows[i].key) > keyw)
			keyw = strlen(rows[i].key);
	/* A value of several lines continues under the first, aligned. */
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s:%*s", rows[i].key, (int)(keyw - strlen(rows[i].key) + 1), "");
		for (const char *c = rows[i].val; *c; c++) {
			fputc(*c, out);
			if (*c == '\n')
				fprintf(out, "%*s", (int)keyw + 2, "");
		}
		fputc('\n', out);
	}
}

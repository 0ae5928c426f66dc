/*
 * What the machine is, and what about it makes figures noisy.  Reads the OS
 * only through src/plat and POSIX (uname, gethostname, getloadavg); never
 * fails, leaving unknown facts empty or 0.  sysinfo_warn() is the only
 * function that prints, and only to the stream it is given.
 */
#include "core/sysinfo.h"

#include "config.h"
#include "core/timer.h"
#include "plat/plat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Copy a string into a fixed field, cut to fit, always terminated. */
static void sysinfo_copy(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

#define SYSINFO_SET(field, src) sysinfo_copy((field), sizeof(field), (src))

void sysinfo_cpus_text(const int *cpus, int n, char *buf, size_t len)
{
	size_t at = 0;

	if (len)
		buf[0] = '\0';
	for (int i = 0; i < n && at + 1 < len;) {
		int j = i;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (j > i)
			at += (size_t)snprintf(buf + at, len - at, "%s%d-%d", at ? "," : "", cpus[i], cpus[j]);
		else
			at += (size_t)snprintf(buf + at, len - at, "%s%d", at ? "," : "", cpus[i]);
		i = j + 1;
	}
}

/* The CPU lists of si and which way fewer than all are used. */
static void sysinfo_cpus(struct sysinfo *si)
{
	enum { MAX = 4096 };
	static int allowed[MAX], online[MAX], present[MAX], possible[MAX];
	int na = plat_cpus_allowed(allowed, MAX);
	int no = plat_cpu_list("online", online, MAX);
	int np = plat_cpu_list("present", present, MAX);
	int nq = plat_cpu_list("possible", possible, MAX);

	sysinfo_cpus_text(allowed, na > MAX ? MAX : na, si->cpus, sizeof(si->cpus));
	sysinfo_cpus_text(online, no > MAX ? MAX : no, si->cpus_online, sizeof(si->cpus_online));
	sysinfo_cpus_text(present, np > MAX ? MAX : np, si->cpus_present, sizeof(si->cpus_present));
	sysinfo_cpus_text(possible, nq > MAX ? MAX : nq, si->cpus_possible, sizeof(si->cpus_possible));
	if (no > 0 && np > no)
		SYSINFO_SET(si->cpus_mode, "offline");
	else if (na > 0 && ((no > 0 && na < no) || (no <= 0 && na < si->ncpu_online)))
		SYSINFO_SET(si->cpus_mode, "affinity");
	else
		SYSINFO_SET(si->cpus_mode, "all");
}

void sysinfo_collect(struct sysinfo *si, const struct timer_info *ti, double mhz)
{
	struct utsname u;

	memset(si, 0, sizeof(*si));
	if (uname(&u) == 0) {
		SYSINFO_SET(si->os, u.sysname);
		SYSINFO_SET(si->release, u.release);
		SYSINFO_SET(si->version, u.version);
		SYSINFO_SET(si->arch, u.machine);
	}
	/* gethostname may leave the name unterminated when it is cut. */
	if (gethostname(si->host, sizeof(si->host)) != 0)
		si->host[0] = '\0';
	si->host[sizeof(si->host) - 1] = '\0';

	plat_cpu_model(si->cpu_model, sizeof(si->cpu_model));
	si->ncpu_online = plat_ncpu_online();
	sysinfo_cpus(si);
	plat_boot_cmdline(si->cmdline, sizeof(si->cmdline));
	si->mhz = isfinite(mhz) ? mhz : 0;
	plat_clocksource(si->clocksource, sizeof(si->clocksource));
	if (plat_clocksources(si->clocksources, sizeof(si->clocksources)) < 0)
		si->clocksources[0] = '\0';
	/* sysfs ends the list with a blank. */
	for (size_t l = strlen(si->clocksources); l && si->clocksources[l - 1] == ' ';)
		si->clocksources[--l] = '\0';
	si->clock_cost_ns = ti->cost_ns;
	si->clock_res_ns = ti->granularity_ns;
	si->loop_ns = ti->loop_ns;
	plat_governor(si->governor, sizeof(si->governor));
	plat_smt(si->smt, sizeof(si->smt));
	plat_mitigations(si->mitigations, sizeof(si->mitigations));
	plat_virt(si->virt, sizeof(si->virt));
	if (getloadavg(si->loadavg, 3) != 3)
		si->loadavg[0] = si->loadavg[1] = si->loadavg[2] = 0;
	if (plat_memory(&si->mem_total, &si->mem_available) != 0)
		si->mem_total = si->mem_available = 0;
	si->ncaches = plat_caches(si->caches, (int)(sizeof(si->caches) / sizeof(si->caches[0])));
	if (si->ncaches < 0)
		si->ncaches = 0;

	SYSINFO_SET(si->compiler, KB_COMPILER);
	SYSINFO_SET(si->cflags, KB_CFLAGS);
	SYSINFO_SET(si->build_type, KB_BUILD_TYPE);
	SYSINFO_SET(si->kbench_version, KB_VERSION);
	if (getenv("GLIBC_TUNABLES"))
		SYSINFO_SET(si->libc_tunables, getenv("GLIBC_TUNABLES"));
}

void sysinfo_label(const struct sysinfo *si, char *buf, size_t len)
{
	if (len == 0)
		return;
	if (si->os[0] == '\0')
		snprintf(buf, len, "unknown");
	else if (si->release[0] == '\0')
		snprintf(buf, len, "%s", si->os);
	else
		snprintf(buf, len, "%s %s", si->os, si->release);
	/*
	 * On some CPUs only (--cpus, CPUs offline): said in the label, so that
	 * runs on cpu 0, on cpu 1 and on both are not one row of the summary.
	 */
	if ((strcmp(si->cpus_mode, "affinity") == 0 || strcmp(si->cpus_mode, "offline") == 0) && si->cpus[0]) {
		size_t used = strlen(buf);

		snprintf(buf + used, len - used, " cpus %s", si->cpus);
	}
}

/* One run of the chain lasts about this long: far above clock cost and noise. */
#define SYSINFO_MHZ_TARGET_NS 20000000ull
#define SYSINFO_MHZ_TRIES 5

/* Read through a volatile so the addend is a register the compiler cannot know. */
static volatile uint64_t sysinfo_one = 1;

/*
 * Ten dependent adds, to be repeated.  The empty asm claims to change x, so each add is a
 * separate instruction waiting for the one before: one add per cycle on
 * any core, with the loop's own counter running alongside in parallel.
 * The addend is a register, not an immediate, because recent cores (Intel
 * Golden Cove) can fold chains of add-immediate in the renamer and would
 * run faster than one per cycle.
 */
#define SYSINFO_ADD1 do { x += k; __asm__ volatile("" : "+r"(x)); } while (0)
#define SYSINFO_ADD10 do { SYSINFO_ADD1; SYSINFO_ADD1; SYSINFO_ADD1; SYSINFO_ADD1; \
	SYSINFO_ADD1; SYSINFO_ADD1; SYSINFO_ADD1; SYSINFO_ADD1; SYSINFO_ADD1; \
	SYSINFO_ADD1; } while (0)

/*
 * n iterations of SYSINFO_MHZ_ADDS dependent adds, one cycle each; the
 * result goes to timer_sink so the chain cannot be removed.  `register`
 * keeps x in a register even in GCC's unoptimised builds, where each add
 * would otherwise go through memory and take several cycles.
 */
void sysinfo_add_chain(uint64_t n)
{
	register uint64_t x = 0, k = sysinfo_one;

	for (uint64_t i = 0; i < n; i++) {
		SYSINFO_ADD10; SYSINFO_ADD10; SYSINFO_ADD10; SYSINFO_ADD10; SYSINFO_ADD10;
		SYSINFO_ADD10; SYSINFO_ADD10; SYSINFO_ADD10; SYSINFO_ADD10; SYSINFO_ADD10;
	}
	timer_sink = x;
}

/* The chain timed, for sysinfo's quick figure; nanoseconds. */
static uint64_t sysinfo_chain(uint64_t n)
{
	uint64_t t0 = timer_now();

	sysinfo_add_chain(n);
	return timer_now() - t0;
}

/*
 * The best of several tries: interruptions and a shared host only ever
 * make the chain slower, so the fastest try is the closest to the clock.
 * Clang without optimisation ignores `register`, and then the figure comes
 * out about ten times too low.
 */
double sysinfo_measure_mhz(void)
{
	uint64_t n = 1000, ns;
	double best = 0, mhz;
	int i;

	/* Grow the count until one run lasts at least a tenth of the target. */
	for (;;) {
		ns = sysinfo_chain(n);
		if (ns >= SYSINFO_MHZ_TARGET_NS / 10 || n >= (UINT64_MAX >> 8))
			break;
		n *= ns > 0 && ns < SYSINFO_MHZ_TARGET_NS / 1000 ? 100 : 4;
	}
	if (ns > 0)
		n = (uint64_t)((double)n * (double)SYSINFO_MHZ_TARGET_NS / (double)ns) + 1;
	for (i = 0; i < SYSINFO_MHZ_TRIES; i++) {
		ns = sysinfo_chain(n);
		if (ns == 0)
			continue;
		/* adds per ns is GHz; times 1000 is MHz. */
		mhz = (double)n * SYSINFO_MHZ_ADDS / (double)ns * 1000.0;
		if (mhz > best)
			best = mhz;
	}
	return best;
}

#define SYSINFO_WARN "kbench: warning: "

int sysinfo_warn(const struct sysinfo *si, FILE *out)
{
	int count = 0;

	/*
	 * No word on the load average: it says what ran before (kbench's own
	 * build, the last run), not beside; what other work used while the
	 * figures were taken is said at the end (core/others.h).
	 */
	if (si->governor[0] != '\0' && strcmp(si->governor, "performance") != 0) {
		fprintf(out, SYSINFO_WARN "cpufreq governor is \"%s\", not \"performance\": "
			"the clock rate may change during a run\n", si->governor);
		count++;
	}
	if (si->virt[0] != '\0') {
		fprintf(out, SYSINFO_WARN "running under %s: figures include virtualisation "
			"overhead and neighbours' noise\n", si->virt);
		count++;
	}
	if (si->libc_tunables[0] != '\0') {
		fprintf(out, SYSINFO_WARN "GLIBC_TUNABLES is set (%s): the C library's memory "
			"and thread figures may differ from a default run\n", si->libc_tunables);
		count++;
	}
	if (strcmp(si->build_type, "debug") == 0) {
		fprintf(out, SYSINFO_WARN "this is a debug build: figures are not "
			"representative\n");
		count++;
	} else if (strcmp(si->build_type, "sanitize") == 0) {
		fprintf(out, SYSINFO_WARN "this is a sanitizer build: figures are not "
			"representative\n");
		count++;
	}
	return count;
}

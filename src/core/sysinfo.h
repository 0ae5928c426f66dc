/*
 * What the machine is, and what about it makes results noisy.  Collected at
 * the start of every run and stored with it, so a figure can always be read
 * next to the clock source, governor, mitigations and load it was taken
 * under.  Reads the OS through src/plat only.
 */
#ifndef KB_SYSINFO_H
#define KB_SYSINFO_H

#include <stdint.h>
#include <stdio.h>

#include "plat/plat.h"

struct sysinfo {
	char os[64];			/* uname sysname, e.g. "Linux" */
	char release[128];		/* uname release */
	char version[256];		/* uname version */
	char arch[32];			/* uname machine */
	char host[128];			/* hostname */
	char cpu_model[128];		/* e.g. "AMD EPYC 7R13 Processor" */
	int ncpu_online;
	/*
	 * The CPUs as lists ("0-1", "0,2"): those kbench may run on (its
	 * affinity, which --cpus sets and every process it starts inherits),
	 * and those online, present and possible.  Which way a UP-like run
	 * was made follows from them: cpus_mode "offline" when CPUs present
	 * are offline (--offline-cpus, or the machine's own), "affinity" when
	 * kbench may run on fewer than are online, else "all".
	 */
	char cpus[256];
	char cpus_online[256], cpus_present[256], cpus_possible[256];
	char cpus_mode[16];
	char cmdline[512];		/* the kernel's boot command line (maxcpus=, nosmp) */
	double mhz;			/* measured with a timed dependent chain */
	char clocksource[64];		/* e.g. "tsc"; "" unknown */
	char clocksources[256];		/* those the kernel offers: "tsc kvm-clock acpi_pm" */
	double clock_cost_ns;		/* cost of one clock_gettime(CLOCK_MONOTONIC) */
	double clock_res_ns;		/* granularity: smallest observed nonzero step */
	double loop_ns;			/* an empty counted loop's iteration, subtracted
					   from cheap rows' samples */
	char governor[64];		/* cpufreq governor of cpu0; "" none */
	char smt[32];			/* "on", "off", "notsupported", ""... */
	char mitigations[1024];		/* "name: state" per line (the states hold ";") */
	char virt[64];			/* hypervisor/virtualisation, "" none found */
	double loadavg[3];
	uint64_t mem_total;		/* bytes */
	uint64_t mem_available;		/* bytes */
	int ncaches;			/* CPU 0's caches as the OS reports them */
	struct plat_cache caches[8];
	char compiler[128];		/* compiler kbench was built with */
	char cflags[256];		/* its flags */
	char build_type[32];		/* "release", "debug", "sanitize" */
	char kbench_version[32];
	/* $GLIBC_TUNABLES: it changes how the C library copies memory (the
	 * non-temporal threshold moved mem.bcopy_libc.bw by 50% here). */
	char libc_tunables[256];
};

/*
 * Fill everything that can be found; never fails, leaves unknowns empty/0.
 * It reads, and measures nothing: ti is the clock's cost as the worker
 * measured it and the harness subtracts it, so that the figure recorded is
 * the figure used, and mhz the worker's sysinfo_measure_mhz (NaN unknown).
 */
struct timer_info;
void sysinfo_collect(struct sysinfo *si, const struct timer_info *ti, double mhz);
/* n CPUs (ascending) as a list of ranges, "0-3,6"; "" for none. */
void sysinfo_cpus_text(const int *cpus, int n, char *buf, size_t len);
/* "Linux 6.18.44", and " cpus 0" after it when the run was held to some CPUs: the default run label. */
void sysinfo_label(const struct sysinfo *si, char *buf, size_t len);
/*
 * One-line warnings that results will be noisy: high load average, governor
 * not "performance", a virtual machine, a debug or sanitizer build.  Returns
 * how many were printed.
 */
int sysinfo_warn(const struct sysinfo *si, FILE *out);
/* The measured clock rate in MHz (dependent add chain, not /proc/cpuinfo). */
double sysinfo_measure_mhz(void);
/* Dependent adds per iteration of sysinfo_add_chain. */
#define SYSINFO_MHZ_ADDS 100
/* n iterations of SYSINFO_MHZ_ADDS dependent adds, one cycle each (cpu.mhz). */
void sysinfo_add_chain(uint64_t n);

#endif

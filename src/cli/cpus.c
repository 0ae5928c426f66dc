/*
 * --cpus and --offline-cpus (cpus.h).
 */
#include "cli/cpus.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/parse.h"
#include "core/sysinfo.h"
#include "plat/plat.h"

/* "0", "0-1", "0,2-3" into cpus (ascending, no repeats); the count.  Dies on a bad list. */
static int cli_cpus_parse(const char *cmd, const char *list, int *cpus)
{
	char seen[CLI_CPUS_MAX] = { 0 };
	const char *item, *rest = list;
	size_t len;
	int n = 0;

	while ((item = parse_item(&rest, &len))) {
		const char *dash = memchr(item, '-', len);
		long a, b;

		/* "2" or "2-3": a CPU, or a range of them. */
		if (parse_whole(item, dash ? (size_t)(dash - item) : len, 0, CLI_CPUS_MAX - 1, &a) < 0)
			goto bad;
		b = a;
		if (dash && (parse_whole(dash + 1, len - (size_t)(dash + 1 - item), a, CLI_CPUS_MAX - 1, &b) < 0))
			goto bad;
		for (long c = a; c <= b; c++)
			seen[c] = 1;
	}
	for (int c = 0; c < CLI_CPUS_MAX; c++)
		if (seen[c])
			cpus[n++] = c;
	return n;
bad:
	die_usage("%s: --cpus '%s': give CPU numbers and ranges, e.g. 0 or 0,2-3", cmd, list);
}

static int cli_cpus_has(const int *cpus, int n, int cpu)
{
	for (int i = 0; i < n; i++)
		if (cpus[i] == cpu)
			return 1;
	return 0;
}

void cli_cpus_apply(const char *cmd, const char *list, int offline, struct cli_cpus *c)
{
	static int want[CLI_CPUS_MAX], allowed[CLI_CPUS_MAX], online[CLI_CPUS_MAX];
	char text[256];
	int nw, na, no;

	memset(c, 0, sizeof(*c));
	c->guard.pid = -1;
	c->guard.ctl = -1;
	if (offline && !list)
		die_usage("%s: --offline-cpus needs --cpus: name the CPUs that stay online", cmd);
	if (!list)
		return;
	nw = cli_cpus_parse(cmd, list, want);
	na = plat_cpus_allowed(allowed, CLI_CPUS_MAX);
	if (na < 0)
		die("%s: --cpus: this system cannot say which CPUs kbench may use: %s", cmd,
		    strerror(errno));
	sysinfo_cpus_text(allowed, na > CLI_CPUS_MAX ? CLI_CPUS_MAX : na, text, sizeof(text));
	for (int i = 0; i < nw; i++)
		if (!cli_cpus_has(allowed, na, want[i]))
			die_usage("%s: --cpus: cpu %d does not exist or is not allowed (allowed: %s)", cmd,
				  want[i], text);
	if (offline && geteuid() != 0)
		die("%s: --offline-cpus takes CPUs offline by hotplug, which needs root", cmd);
	/* First the affinity: nothing of kbench's is left on a CPU about to go. */
	if (plat_set_cpus(want, nw) < 0)
		die("%s: --cpus '%s': cannot restrict kbench to them: %s", cmd, list, strerror(errno));
	if (!offline)
		return;
	no = plat_cpu_list("online", online, CLI_CPUS_MAX);
	if (no < 0)
		die("%s: --offline-cpus: cannot list the CPUs online: %s", cmd, strerror(errno));
	if (guard_start(&c->guard) < 0)
		die("%s: --offline-cpus: cannot start the process that would bring them back: %s", cmd,
		    strerror(errno));
	for (int i = 0; i < no && i < CLI_CPUS_MAX; i++) {
		char path[128];
		int cpu = online[i];

		if (cli_cpus_has(want, nw, cpu))
			continue;
		if (plat_cpu_online_path(cpu, path, sizeof(path)) < 0) {
			fprintf(stderr, "kbench: %s: cpu%d cannot be taken offline (it has no hotplug "
				"file): it stays online\n", cmd, cpu);
			continue;
		}
		/* Told first: should kbench die between the two, it comes back. */
		if (guard_add(&c->guard, path, "1") < 0) {
			cli_cpus_restore(c);
			die("%s: --offline-cpus: cannot tell the guard about cpu%d", cmd, cpu);
		}
		if (guard_write(path, "0") < 0) {
			fprintf(stderr, "kbench: %s: cpu%d cannot be taken offline (%s): it stays online\n",
				cmd, cpu, strerror(errno));
			continue;
		}
		c->off[c->noff++] = cpu;
	}
}

void cli_cpus_restore(struct cli_cpus *c)
{
	for (int i = c->noff - 1; i >= 0; i--) {
		char path[128];

		if (plat_cpu_online_path(c->off[i], path, sizeof(path)) == 0 &&
		    guard_write(path, "1") < 0)
			error("cannot bring cpu%d back online: %s (the guard tries again)", c->off[i],
			      strerror(errno));
	}
	/* A CPU that did not come back is left to the guard, which writes it as kbench ends. */
	for (int i = 0; i < c->noff; i++) {
		char path[128], now[8] = "";

		if (plat_cpu_online_path(c->off[i], path, sizeof(path)) == 0 &&
		    plat_read_line(path, now, sizeof(now)) == 0 && strcmp(now, "1") != 0)
			return;
	}
	c->noff = 0;
	guard_done(&c->guard);
}

int cli_cpus_count(void)
{
	static int cpus[CLI_CPUS_MAX];
	int n = plat_cpus_allowed(cpus, CLI_CPUS_MAX);

	return n > 0 ? n : plat_ncpu_online();
}

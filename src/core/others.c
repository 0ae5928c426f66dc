/*
 * What other work used the CPUs for while kbench measured (others.h).
 * kbench's own: this process and everything it reaped (its workers, a
 * timed job and its orphans, which it reaps as subreaper), and its
 * descendants still alive at the end (the janitor).
 */
#include "core/others.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/bench.h"
#include "core/timer.h"

/* At most this many processes are looked at: a machine with more is told in part. */
#define OTHERS_MAX_PROCS 65536

static uint64_t others_tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000u + (uint64_t)tv->tv_usec * 1000u;
}

/* kbench's own CPU time: this process and the children it reaped. */
static int others_own(uint64_t *ns)
{
	struct rusage self, kids;

	if (getrusage(RUSAGE_SELF, &self) < 0 || getrusage(RUSAGE_CHILDREN, &kids) < 0)
		return -1;
	*ns = others_tv_ns(&self.ru_utime) + others_tv_ns(&self.ru_stime) +
	      others_tv_ns(&kids.ru_utime) + others_tv_ns(&kids.ru_stime);
	return 0;
}

static uint64_t others_steal(void)
{
	uint64_t v[BENCH_MAX_CPUS], sum = 0;
	int n = plat_steal_ns(v, BENCH_MAX_CPUS);

	for (int i = 0; i < n && i < BENCH_MAX_CPUS; i++)
		sum += v[i];
	return sum;
}

/* Every process now, malloc'd into *out: the count, or -1. */
static int others_list(struct plat_proc **out)
{
	int max = 1024, n;

	for (;;) {
		struct plat_proc *p = malloc((size_t)max * sizeof(*p));

		if (!p)
			return -1;
		n = plat_procs(p, max);
		if (n < 0) {
			free(p);
			return -1;
		}
		if (n <= max || max >= OTHERS_MAX_PROCS) {
			*out = p;
			return n < max ? n : max;
		}
		free(p);
		max *= 4;
	}
}

int others_begin(struct others *o)
{
	memset(o, 0, sizeof(*o));
	o->wall_ns = timer_now();
	if (plat_cpu_times(&o->machine) < 0 || others_own(&o->own_ns) < 0)
		return -1;
	o->steal_ns = others_steal();
	o->nprocs = others_list(&o->procs);
	if (o->nprocs < 0) {
		o->procs = NULL;
		return -1;
	}
	o->ok = 1;
	return 0;
}

/* Whether pid is this process or descends from it, by the parents in list. */
static int others_mine(const struct plat_proc *list, int n, pid_t pid)
{
	pid_t me = getpid();

	/* A chain longer than the list is a loop: pid reused meanwhile. */
	for (int hops = 0; pid > 1 && hops <= n; hops++) {
		int i;

		if (pid == me)
			return 1;
		for (i = 0; i < n && list[i].pid != pid; i++)
			;
		if (i == n)
			return 0;
		pid = list[i].ppid;
	}
	return 0;
}

/* Where p is in list, -1 when it is not (it started since, or ended). */
static int others_find(const struct plat_proc *list, int n, const struct plat_proc *p)
{
	for (int i = 0; i < n; i++)
		if (list[i].pid == p->pid && strcmp(list[i].comm, p->comm) == 0)
			return i;
	return -1;
}

/*
 * Each process's CPU time in the window, into d[] beside now[].  A
 * process's count holds its reaped children's, so a child that ended in
 * the window adds all its time to its parent's, the part before the
 * window too: that part, what the child had used at the snapshot, is
 * taken back from the parent.
 */
static void others_deltas(const struct others *o, const struct plat_proc *now, int n, double *d)
{
	for (int i = 0; i < n; i++) {
		int was = others_find(o->procs, o->nprocs, &now[i]);
		uint64_t before = was < 0 ? 0 : o->procs[was].cpu_ns;

		d[i] = now[i].cpu_ns > before ? (double)(now[i].cpu_ns - before) / 1e9 : 0;
	}
	for (int j = 0; j < o->nprocs; j++) {
		const struct plat_proc *gone = &o->procs[j];

		if (others_find(now, n, gone) >= 0)
			continue;
		for (int i = 0; i < n; i++)
			if (now[i].pid == gone->ppid) {
				d[i] -= (double)gone->cpu_ns / 1e9;
				d[i] = d[i] > 0 ? d[i] : 0;
				break;
			}
	}
}

/* Add name's CPU time to the totals by name (at most max names, the rest dropped). */
static void others_add(const char *comm, double s, char (*names)[16], double *cpu, size_t *n, size_t max)
{
	size_t i;

	for (i = 0; i < *n && strcmp(names[i], comm) != 0; i++)
		;
	if (i == *n) {
		if (*n == max)
			return;
		snprintf(names[i], sizeof(names[i]), "%s", comm);
		cpu[i] = 0;
		(*n)++;
	}
	cpu[i] += s;
}

int others_since(const struct others *o, struct others_use *u)
{
	struct plat_cpu_times m;
	struct plat_proc *now;
	uint64_t own, steal;
	char (*names)[16];
	double *cpu, *d, busy;
	size_t nnames = 0;
	pid_t me = getpid();
	int n;

	memset(u, 0, sizeof(*u));
	if (!o->ok || plat_cpu_times(&m) < 0 || others_own(&own) < 0)
		return -1;
	steal = others_steal();
	u->wall_s = (double)(timer_now() - o->wall_ns) / 1e9;
	u->ncpu = m.ncpu;
	u->steal_s = steal > o->steal_ns ? (double)(steal - o->steal_ns) / 1e9 : 0;
	busy = m.busy_ns > o->machine.busy_ns ? (double)(m.busy_ns - o->machine.busy_ns) / 1e9 : 0;
	n = others_list(&now);
	if (n < 0)
		return -1;
	names = malloc((size_t)(n ? n : 1) * sizeof(*names));
	cpu = malloc((size_t)(n ? n : 1) * sizeof(*cpu));
	d = malloc((size_t)(n ? n : 1) * sizeof(*d));
	if (!names || !cpu || !d) {
		free(names);
		free(cpu);
		free(d);
		free(now);
		return -1;
	}
	others_deltas(o, now, n, d);
	/*
	 * kbench's own that are still alive (the janitor) count as kbench's;
	 * this process and what it reaped are counted by getrusage below, not
	 * here a second time.
	 */
	for (int i = 0; i < n; i++) {
		if (now[i].pid == me)
			continue;
		if (others_mine(now, n, now[i].pid))
			busy -= d[i];
		else if (d[i] > 0)
			others_add(now[i].comm, d[i], names, cpu, &nnames, (size_t)n);
	}
	/* What is left of the machine's busy time once kbench's and the steal are out. */
	busy -= (double)(own - o->own_ns) / 1e9 + u->steal_s;
	u->cpu_s = busy > 0 ? busy : 0;
	/* The names that used most, most first. */
	for (size_t k = 0; k < OTHERS_TOP; k++) {
		size_t best = nnames;

		for (size_t i = 0; i < nnames; i++)
			if (cpu[i] > 0 && (best == nnames || cpu[i] > cpu[best]))
				best = i;
		if (best == nnames)
			break;
		snprintf(u->top[k].comm, sizeof(u->top[k].comm), "%s", names[best]);
		u->top[k].cpu_s = cpu[best];
		cpu[best] = 0;
		u->ntop++;
	}
	free(names);
	free(cpu);
	free(d);
	free(now);
	return 0;
}

int others_worth_saying(const struct others_use *u)
{
	return u->wall_s > 0 && u->cpu_s + u->steal_s >= 0.1 * u->wall_s && u->cpu_s + u->steal_s >= 0.2;
}

void others_line(const struct others_use *u, char *buf, size_t len)
{
	size_t at;

	at = (size_t)snprintf(buf, len, "other work used %.2f of the %d CPU%s while kbench measured "
			      "(%.1f s of CPU in %.1f s)", u->cpu_s / u->wall_s, u->ncpu,
			      u->ncpu == 1 ? "" : "s", u->cpu_s, u->wall_s);
	for (size_t k = 0; k < u->ntop && at < len; k++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s %.1f s", k ? ", " : ": ", u->top[k].comm,
				       u->top[k].cpu_s);
	if (u->steal_s >= 0.05 * u->wall_s && at < len)
		snprintf(buf + at, len - at, "; the hypervisor gave others %.1f s of the CPUs (steal)",
			 u->steal_s);
}

void others_free(struct others *o)
{
	free(o->procs);
	o->procs = NULL;
	o->ok = 0;
}

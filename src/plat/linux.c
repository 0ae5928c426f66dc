/*
 * plat.h for Linux: the only file that knows about /proc, /sys and prctl.
 * Everything here reads what an unprivileged user may read, so kbench runs
 * without root; a fact that cannot be read is left empty, never guessed.
 * It never prints and never exits: callers decide what a failure means.
 * Files are read with plain open/read, not plat_read, so that an armed
 * fault injection hits the benchmark under test and not this bookkeeping.
 */
#include "plat/plat.h"
#include "plat/os.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/futex.h>
#include <linux/perf_event.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#define PLAT_NS_PER_SEC 1000000000ull

/* Clock ticks (USER_HZ) to nanoseconds without overflowing the product. */
static uint64_t plat_ticks_ns(uint64_t ticks, uint64_t hz)
{
	return ticks / hz * PLAT_NS_PER_SEC + ticks % hz * PLAT_NS_PER_SEC / hz;
}

static uint64_t plat_clk_tck(void)
{
	long hz = sysconf(_SC_CLK_TCK);

	/* USER_HZ has been 100 on every Linux port for decades. */
	return hz > 0 ? (uint64_t)hz : 100;
}

/* A fact for sysinfo: the file's first line, or "" when it cannot be read. */
static void plat_fact(const char *path, char *buf, size_t len)
{
	if (len == 0)
		return;
	if (plat_read_line(path, buf, len) < 0)
		buf[0] = '\0';
}

int plat_cpu_times(struct plat_cpu_times *t)
{
	unsigned long long v[8] = { 0 };
	uint64_t hz = plat_clk_tck(), busy, total;
	char line[512];
	int have = 0, ncpu = 0;
	FILE *f;

	f = fopen("/proc/stat", "re");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "cpu", 3) != 0)
			continue;
		if (isdigit((unsigned char)line[3])) {
			ncpu++;
		} else if (line[3] == ' ' && !have) {
			/* Older kernels print fewer fields; missing ones stay 0. */
			if (sscanf(line + 3, "%llu %llu %llu %llu %llu %llu %llu %llu",
				   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
				   &v[7]) >= 4)
				have = 1;
		}
	}
	fclose(f);
	if (!have) {
		errno = EIO;
		return -1;
	}
	/* user nice system idle iowait irq softirq steal; guest is in user. */
	busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	total = busy + v[3] + v[4];
	t->busy_ns = plat_ticks_ns(busy, hz);
	t->total_ns = plat_ticks_ns(total, hz);
	t->ncpu = ncpu > 0 ? ncpu : 1;
	return 0;
}

int plat_dir_spread(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), flags = 0, rc = -1, e;

	if (fd < 0)
		return -1;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
		flags |= FS_TOPDIR_FL;
		rc = ioctl(fd, FS_IOC_SETFLAGS, &flags);
	}
	e = errno;
	close(fd);
	errno = e;
	return rc;
}

int plat_current_cpu(void)
{
	int cpu = sched_getcpu();

	return cpu >= 0 ? cpu : -1;
}

int plat_task_cpu(pid_t pid)
{
	char path[64], buf[1024], *p;
	int fd, field = 3;
	ssize_t got;
	long cpu;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got <= 0)
		return -1;
	buf[got] = '\0';
	/* The name (field 2) may hold anything, spaces and ')' included: after its last ')'. */
	if (!(p = strrchr(buf, ')')))
		return -1;
	for (p++; *p && field < 39; field++) {
		p += strspn(p, " ");
		p += strcspn(p, " ");
	}
	if (field != 39 || *p != ' ')
		return -1;
	cpu = strtol(p + 1, NULL, 10);
	return cpu >= 0 && cpu < 1 << 20 ? (int)cpu : -1;
}

/*
 * One pread of /proc/stat (about 6 us here) per call, from a descriptor
 * kept open: the harness calls this after every sample.  The descriptor is
 * opened close-on-exec and reopened in a child (a fork shares the offset,
 * harmless with pread, but a benchmark may close every descriptor).
 */
int plat_steal_ns(uint64_t *steal_ns, int max)
{
	static int fd = -1;
	static pid_t owner;
	static char buf[1 << 16];
	uint64_t hz = plat_clk_tck();
	ssize_t len;
	int n = 0;

	if (fd < 0 || owner != getpid()) {
		if (fd >= 0 && owner != getpid())
			close(fd);
		fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
		owner = getpid();
		if (fd < 0)
			return -1;
	}
	len = pread(fd, buf, sizeof(buf) - 1, 0);
	if (len <= 0) {
		close(fd);
		fd = -1;
		errno = len < 0 ? errno : EIO;
		return -1;
	}
	buf[len] = '\0';
	/* The per-CPU lines come first, after the total "cpu " line. */
	for (char *line = strstr(buf, "\ncpu"); line; line = strstr(line, "\ncpu")) {
		unsigned long long v[8];
		int cpu;

		line += 4;
		/* cpuN user nice system idle iowait irq softirq steal */
		if (!isdigit((unsigned char)*line) ||
		    sscanf(line, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1], &v[2],
			   &v[3], &v[4], &v[5], &v[6], &v[7]) != 9 || cpu < 0 || cpu >= max)
			continue;
		steal_ns[cpu] = plat_ticks_ns(v[7], hz);
		if (cpu + 1 > n)
			n = cpu + 1;
	}
	return n;
}

static uint64_t plat_tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * PLAT_NS_PER_SEC + (uint64_t)tv->tv_usec * 1000u;
}

/*
 * CPU time of a process in process group pgrp, in nanoseconds; 0 when it
 * is in another group or vanished meanwhile.  /proc/PID/stat gives the group
 * and the times in ticks, each process's rounded down to 10 ms: a ring of 32
 * processes sampled for a second would lose up to a third of a CPU that way
 * and look like other work.  So the process's own time comes from
 * /proc/PID/schedstat (nanoseconds on the CPU) where the kernel keeps it,
 * and only its reaped children's (cutime, cstime) from the ticks.  The comm
 * field of stat may hold spaces and parentheses, so fields are counted from
 * the last ')'.
 */
/* What /proc/PID/stat says of a process: its parent, group, name and times in ticks. */
struct plat_stat {
	int ppid, pgrp;
	char comm[16];
	unsigned long long ut, st, cut, cst;
};

static int plat_pid_stat(const char *pid, struct plat_stat *ps)
{
	char path[64], buf[1024], *open, *close;
	size_t len;

	if (snprintf(path, sizeof(path), "/proc/%s/stat", pid) >= (int)sizeof(path))
		return -1;
	if (plat_read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	open = strchr(buf, '(');
	close = strrchr(buf, ')');
	if (open == NULL || close == NULL || close < open)
		return -1;
	len = (size_t)(close - open - 1);
	if (len >= sizeof(ps->comm))
		len = sizeof(ps->comm) - 1;
	memcpy(ps->comm, open + 1, len);
	ps->comm[len] = '\0';
	/* Fields 3 (state) to 17 (cstime); 4 is ppid, 5 pgrp, 14-17 the times. */
	if (sscanf(close + 1, " %*c %d %d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu",
		   &ps->ppid, &ps->pgrp, &ps->ut, &ps->st, &ps->cut, &ps->cst) != 6)
		return -1;
	return 0;
}

static uint64_t plat_pid_group_ns(const char *pid, pid_t pgrp)
{
	char path[64], buf[1024];
	unsigned long long run;
	uint64_t hz = plat_clk_tck();
	struct plat_stat ps;

	if (plat_pid_stat(pid, &ps) < 0 || ps.pgrp != (int)pgrp)
		return 0;
	if (snprintf(path, sizeof(path), "/proc/%s/schedstat", pid) < (int)sizeof(path) &&
	    plat_read_file(path, buf, sizeof(buf)) > 0 && sscanf(buf, "%llu", &run) == 1)
		return run + plat_ticks_ns(ps.cut + ps.cst, hz);
	return plat_ticks_ns(ps.ut + ps.st + ps.cut + ps.cst, hz);
}

int plat_procs(struct plat_proc *out, int max)
{
	uint64_t hz = plat_clk_tck();
	struct dirent *de;
	struct plat_stat ps;
	int n = 0;
	DIR *d = opendir("/proc");

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		/* Gone between the listing and the read: not counted. */
		if (!isdigit((unsigned char)de->d_name[0]) || plat_pid_stat(de->d_name, &ps) < 0)
			continue;
		if (n < max) {
			out[n].pid = (pid_t)atol(de->d_name);
			out[n].ppid = (pid_t)ps.ppid;
			memcpy(out[n].comm, ps.comm, sizeof(out[n].comm));
			out[n].cpu_ns = plat_ticks_ns(ps.ut + ps.st + ps.cut + ps.cst, hz);
		}
		n++;
	}
	closedir(d);
	return n;
}

int plat_group_cpu_ns(uint64_t *ns)
{
	struct rusage self, children;
	uint64_t others = 0;
	pid_t me = getpid(), pgrp = getpgrp();
	struct dirent *de;
	DIR *d;
	char mypid[32];

	if (getrusage(RUSAGE_SELF, &self) < 0 || getrusage(RUSAGE_CHILDREN, &children) < 0)
		return -1;
	d = opendir("/proc");
	if (d == NULL)
		return -1;
	snprintf(mypid, sizeof(mypid), "%ld", (long)me);
	while ((de = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		/* This process is counted, more precisely, by getrusage. */
		if (strcmp(de->d_name, mypid) == 0)
			continue;
		others += plat_pid_group_ns(de->d_name, pgrp);
	}
	closedir(d);
	*ns = plat_tv_ns(&self.ru_utime) + plat_tv_ns(&self.ru_stime) +
	      plat_tv_ns(&children.ru_utime) + plat_tv_ns(&children.ru_stime) + others;
	return 0;
}

/*
 * The race where the parent dies before prctl() is left to the caller,
 * which knows the parent's pid and can compare getppid() with it.
 */
int plat_subreaper(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0, 0, 0) < 0 ? -1 : 0;
}

/*
 * /proc/self/task/<tid>/children (CONFIG_PROC_CHILDREN, which Debian's and
 * the other distributions' kernels have) lists a thread's children; kbench
 * forks from its main thread only, whose tid is its pid.
 */
int plat_children(pid_t *out, int max)
{
	char path[64], buf[8192], *p, *end;
	ssize_t len;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
	len = plat_read_file(path, buf, sizeof(buf));
	if (len < 0)
		return -1;
	for (p = buf; *p; p = end) {
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		if (pid > 0 && n < max)
			out[n] = (pid_t)pid;
		n += pid > 0;
	}
	return n;
}

/*
 * Where cgroup2 is mounted: /sys/fs/cgroup on a unified machine,
 * /sys/fs/cgroup/unified on a hybrid one (cgroup v1 controllers beside);
 * the first cgroup2 line of /proc/self/mounts.  0 or -1.
 */
static int plat_cgroup_root(char *root, size_t len)
{
	FILE *f = fopen("/proc/self/mounts", "r");
	char dev[256], dir[PATH_MAX], type[64];
	int found = -1;

	if (!f)
		return -1;
	while (found < 0 && fscanf(f, "%255s %4095s %63s %*[^\n]", dev, dir, type) == 3)
		if (strcmp(type, "cgroup2") == 0 && snprintf(root, len, "%s", dir) < (int)len)
			found = 0;
	fclose(f);
	return found;
}

int plat_cgroup_make(const char *name, char *path, size_t len)
{
	char root[PATH_MAX], self[PATH_MAX], *nl;
	ssize_t n;

	path[0] = '\0';
	if (plat_cgroup_root(root, sizeof(root)) < 0) {
		errno = ENOSYS;
		return -1;
	}
	/* "0::/some/path": this process's cgroup in the unified hierarchy. */
	n = plat_read_file("/proc/self/cgroup", self, sizeof(self));
	if (n <= 0)
		return -1;
	for (char *line = self; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (strncmp(line, "0::", 3) != 0)
			continue;
		/* The root's own "/" is written as nothing, so that no "//" appears. */
		if (snprintf(path, len, "%s%s/%s", root, strcmp(line + 3, "/") == 0 ? "" : line + 3, name) >=
		    (int)len) {
			path[0] = '\0';
			errno = ENAMETOOLONG;
			return -1;
		}
		if (mkdir(path, 0755) == 0)
			return 0;
		path[0] = '\0';
		return -1;
	}
	errno = ENOSYS;
	return -1;
}

/* Write text into the cgroup's file: 0 or -1. */
static int plat_cgroup_write(const char *path, const char *file, const char *text)
{
	char at[PATH_MAX + 32];
	ssize_t len = (ssize_t)strlen(text), w;
	int fd;

	snprintf(at, sizeof(at), "%s/%s", path, file);
	fd = open(at, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	w = write(fd, text, (size_t)len);
	close(fd);
	return w == len ? 0 : -1;
}

int plat_cgroup_enter(const char *path)
{
	/* "0" is the writer itself. */
	return plat_cgroup_write(path, "cgroup.procs", "0");
}

int plat_cgroup_kill(const char *path)
{
	char at[PATH_MAX + 32], buf[16384], *end;
	int left = 0;
	ssize_t n;

	/* Since Linux 5.14: every member, and whatever one forks meanwhile. */
	(void)plat_cgroup_write(path, "cgroup.kill", "1");
	snprintf(at, sizeof(at), "%s/cgroup.procs", path);
	n = plat_read_file(at, buf, sizeof(buf));
	if (n < 0)
		return -1;
	/* Those listed still (an older kernel, or the kill not yet done): each killed. */
	for (char *p = buf; *p; p = end) {
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		if (pid > 0) {
			(void)kill((pid_t)pid, SIGKILL);
			left = 1;
		}
	}
	return left;
}

int plat_cgroup_remove(const char *path)
{
	return rmdir(path);
}

int plat_die_with_parent(int sig)
{
	return prctl(PR_SET_PDEATHSIG, (unsigned long)sig, 0, 0, 0) < 0 ? -1 : 0;
}

int plat_self_exe(char *buf, size_t len)
{
	ssize_t n;

	if (len == 0) {
		errno = EINVAL;
		return -1;
	}
	n = readlink("/proc/self/exe", buf, len);
	if (n < 0) {
		buf[0] = '\0';
		return -1;
	}
	/* readlink does not terminate, and fills the buffer when truncating. */
	if ((size_t)n >= len) {
		buf[0] = '\0';
		errno = ENAMETOOLONG;
		return -1;
	}
	buf[n] = '\0';
	return 0;
}

/* Room for every CPU a Linux kernel supports (CONFIG_NR_CPUS <= 8192). */
#define PLAT_AFFINITY_CPUS 8192

int plat_cpus_allowed(int *cpus, int max)
{
	size_t size = CPU_ALLOC_SIZE(PLAT_AFFINITY_CPUS);
	cpu_set_t *set = CPU_ALLOC(PLAT_AFFINITY_CPUS);
	int n = 0;

	if (!set)
		return -1;
	if (sched_getaffinity(0, size, set) < 0) {
		CPU_FREE(set);
		return -1;
	}
	for (int c = 0; c < PLAT_AFFINITY_CPUS && n < max; c++)
		if (CPU_ISSET_S((size_t)c, size, set))
			cpus[n++] = c;
	CPU_FREE(set);
	return n;
}

int plat_set_cpus(const int *cpus, int n)
{
	size_t size = CPU_ALLOC_SIZE(PLAT_AFFINITY_CPUS);
	cpu_set_t *set = CPU_ALLOC(PLAT_AFFINITY_CPUS);
	int rc;

	if (!set)
		return -1;
	CPU_ZERO_S(size, set);
	for (int i = 0; i < n; i++)
		if (cpus[i] >= 0 && cpus[i] < PLAT_AFFINITY_CPUS)
			CPU_SET_S((size_t)cpus[i], size, set);
	rc = sched_setaffinity(0, size, set);
	CPU_FREE(set);
	return rc;
}

/* "0-3,5,8-9" (sysfs's CPU lists) into cpus; the count, or -1 on a malformed list. */
static int plat_parse_cpus(const char *text, int *cpus, int max)
{
	int n = 0;

	for (const char *s = text; *s && *s != '\n';) {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0)
			return -1;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a)
				return -1;
		}
		for (long c = a; c <= b; c++) {
			if (n < max)
				cpus[n] = (int)c;
			n++;
		}
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',' && *end != '\n')
			return -1;
	}
	return n;
}

int plat_cpu_list(const char *which, int *cpus, int max)
{
	char path[96], buf[4096];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/%s", which);
	if (plat_read_line(path, buf, sizeof(buf)) < 0)
		return -1;
	return plat_parse_cpus(buf, cpus, max);
}

int plat_cpu_online_path(int cpu, char *path, size_t len)
{
	snprintf(path, len, "/sys/devices/system/cpu/cpu%d/online", cpu);
	return access(path, F_OK);
}

void plat_boot_cmdline(char *buf, size_t len)
{
	plat_fact("/proc/cmdline", buf, len);
}

int plat_os_pin_cpu(int cpu)
{
	size_t size = CPU_ALLOC_SIZE(PLAT_AFFINITY_CPUS);
	cpu_set_t *set;
	int rc;

	if (cpu < 0 || cpu >= PLAT_AFFINITY_CPUS) {
		errno = EINVAL;
		return -1;
	}
	set = CPU_ALLOC(PLAT_AFFINITY_CPUS);
	if (!set)
		return -1;
	CPU_ZERO_S(size, set);
	CPU_SET_S((size_t)cpu, size, set);
	rc = sched_setaffinity(0, size, set);
	CPU_FREE(set);
	return rc;
}

int plat_os_rt_enter(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return sched_setscheduler(0, SCHED_FIFO, &sp);
}

int plat_rt_leave(void)
{
	struct sched_param sp = { .sched_priority = 0 };

	return sched_setscheduler(0, SCHED_OTHER, &sp);
}

/* Through syscall(): the C library has no wrapper for the futex. */
int plat_futex_wait(uint32_t *word, uint32_t expected)
{
	return (int)syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

int plat_futex_wake(uint32_t *word, int n)
{
	return (int)syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

/* The events of plat.h's enum, as perf names them. */
static const struct plat_ev_attr {
	uint32_t type;
	uint64_t config;
} plat_ev_attrs[PLAT_NEV] = {
	[PLAT_EV_CONTEXT_SWITCHES] = { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	[PLAT_EV_MIGRATIONS] = { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	[PLAT_EV_PAGE_FAULTS] = { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	[PLAT_EV_CYCLES] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	[PLAT_EV_INSTRUCTIONS] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	[PLAT_EV_CACHE_MISSES] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	[PLAT_EV_BRANCH_MISSES] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
};

int plat_events_open(struct plat_events *ev)
{
	int n = 0;

	for (int i = 0; i < PLAT_NEV; i++) {
		struct perf_event_attr a;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = plat_ev_attrs[i].type;
		a.config = plat_ev_attrs[i].config;
		a.disabled = 1;
		/* The peers a benchmark forks count too: a ring's switches are theirs as well. */
		a.inherit = 1;
		/* What a process without privilege may count under paranoid 2. */
		a.exclude_kernel = 0;
		a.exclude_hv = 1;
		ev->fd[i] = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		ev->err[i] = ev->fd[i] < 0 ? errno : 0;
		n += ev->fd[i] >= 0;
	}
	/* No event at all and the call itself missing: the kernel has no counters. */
	if (n == 0 && ev->err[0] == ENOSYS) {
		errno = ENOSYS;
		return -1;
	}
	return n;
}

void plat_events_enable(struct plat_events *ev, int on)
{
	for (int i = 0; i < PLAT_NEV; i++)
		if (ev->fd[i] >= 0)
			ioctl(ev->fd[i], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

int plat_events_read(const struct plat_events *ev, uint64_t *counts)
{
	for (int i = 0; i < PLAT_NEV; i++) {
		counts[i] = 0;
		if (ev->fd[i] >= 0 && read(ev->fd[i], &counts[i], sizeof(counts[i])) != sizeof(counts[i]))
			return -1;
	}
	return 0;
}

void plat_events_close(struct plat_events *ev)
{
	for (int i = 0; i < PLAT_NEV; i++) {
		if (ev->fd[i] >= 0)
			close(ev->fd[i]);
		ev->fd[i] = -1;
	}
}

int plat_pipe_cloexec(int fd[2])
{
	return pipe2(fd, O_CLOEXEC);
}

int plat_ncpu_online(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/* Copy src to buf, cut to len-1 bytes, with leading/trailing blanks removed. */
static void plat_copy_trim(char *buf, size_t len, const char *src)
{
	size_t n;

	while (*src == ' ' || *src == '\t')
		src++;
	n = strlen(src);
	while (n > 0 && isspace((unsigned char)src[n - 1]))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(buf, src, n);
	buf[n] = '\0';
}

/*
 * The value of the first /proc/cpuinfo line whose key is `key`, into buf;
 * returns 0 if found.  Keys are padded with tabs before the colon.
 */
static int plat_cpuinfo(const char *key, char *buf, size_t len)
{
	char line[4096], *colon;
	size_t klen = strlen(key);
	int found = -1;
	FILE *f;

	f = fopen("/proc/cpuinfo", "re");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, key, klen) != 0)
			continue;
		colon = line + klen;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		if (*colon != ':')
			continue;
		plat_copy_trim(buf, len, colon + 1);
		found = 0;
		break;
	}
	fclose(f);
	return found;
}

void plat_cpu_model(char *buf, size_t len)
{
	/* x86 says "model name"; arm64 only "Hardware" or nothing; ppc "cpu". */
	static const char *const keys[] = { "model name", "Hardware", "cpu model", "cpu" };
	size_t i;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (plat_cpuinfo(keys[i], buf, len) == 0 && buf[0] != '\0')
			return;
	buf[0] = '\0';
}

#define PLAT_CLOCKSOURCE_DIR "/sys/devices/system/clocksource/clocksource0/"

void plat_clocksource(char *buf, size_t len)
{
	plat_fact(PLAT_CLOCKSOURCE_DIR "current_clocksource", buf, len);
}

int plat_clocksources(char *buf, size_t len)
{
	return plat_read_line(PLAT_CLOCKSOURCE_DIR "available_clocksource", buf, len);
}

int plat_clocksource_file(char *buf, size_t len)
{
	if (snprintf(buf, len, "%s", PLAT_CLOCKSOURCE_DIR "current_clocksource") >= (int)len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

int plat_clocksource_switch(const char *name)
{
	char now[64];

	if (plat_write_text(PLAT_CLOCKSOURCE_DIR "current_clocksource", name) < 0)
		return -1;
	/* The switch is made before the write returns (under stop_machine). */
	if (plat_read_line(PLAT_CLOCKSOURCE_DIR "current_clocksource", now, sizeof(now)) < 0)
		return -1;
	if (strcmp(now, name) != 0) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int plat_clock_raw(clockid_t *id)
{
	*id = CLOCK_MONOTONIC_RAW;
	return 0;
}

int plat_clock_coarse(clockid_t *id)
{
	*id = CLOCK_MONOTONIC_COARSE;
	return 0;
}

/*
 * The seccomp filter's architecture: a filter must check it, since the
 * numbers of the system calls are those of one ABI only.  Elsewhere
 * plat_time_syscall cannot tell.
 */
#if defined(__x86_64__)
#define PLAT_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__i386__)
#define PLAT_AUDIT_ARCH AUDIT_ARCH_I386
#elif defined(__aarch64__)
#define PLAT_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

/* The error the filter gives a time system call: no clock call fails so by itself. */
#define PLAT_TIME_MARK ENOTRECOVERABLE

#ifdef PLAT_AUDIT_ARCH
/*
 * In the child: a seccomp filter that fails the time system calls with
 * PLAT_TIME_MARK and lets every other through.  The vDSO never makes a
 * system call when it can answer; when it cannot (a clock source it
 * cannot read from user space) it falls back to the system call, which
 * then fails with the mark.  0, or -1 when seccomp is not there.
 */
static int plat_time_filter(void)
{
	static const unsigned nrs[] = {
		__NR_clock_gettime, __NR_gettimeofday,
#ifdef __NR_time
		__NR_time,
#endif
#ifdef __NR_clock_gettime64
		__NR_clock_gettime64,
#endif
	};
	struct sock_filter f[4 + 2 * sizeof(nrs) / sizeof(nrs[0]) + 1];
	struct sock_fprog prog;
	size_t n = 0;

	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PLAT_AUDIT_ARCH, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, nr));
	for (size_t i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++) {
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nrs[i], 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						      SECCOMP_RET_ERRNO | (PLAT_TIME_MARK & SECCOMP_RET_DATA));
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)n;
	prog.filter = f;
	/* No new privileges: what lets a process without root install a filter. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}
#endif

int plat_time_syscall(int (*call)(void *arg), void *arg)
{
#ifdef PLAT_AUDIT_ARCH
	int status;
	pid_t pid;

	/* A child of its own: a filter stays with the process for good. */
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (plat_time_filter() < 0)
			_exit(3);
		if (call(arg) == 0)
			_exit(0);
		_exit(errno == PLAT_TIME_MARK ? 1 : 2);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) <= 1)
		return WEXITSTATUS(status);
	errno = WIFEXITED(status) && WEXITSTATUS(status) == 3 ? ENOSYS : EIO;
	return -1;
#else
	(void)call;
	(void)arg;
	errno = ENOSYS;
	return -1;
#endif
}

void plat_governor(char *buf, size_t len)
{
	plat_fact("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", buf, len);
}

void plat_smt(char *buf, size_t len)
{
	plat_fact("/sys/devices/system/cpu/smt/control", buf, len);
}

/* Append s at *used in buf, never past len-1, always terminated. */
static void plat_append(char *buf, size_t len, size_t *used, const char *s)
{
	size_t n = strlen(s);

	if (*used + 1 >= len)
		return;
	if (n > len - 1 - *used)
		n = len - 1 - *used;
	memcpy(buf + *used, s, n);
	*used += n;
	buf[*used] = '\0';
}

static int plat_strcmp_p(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void plat_mitigations(char *buf, size_t len)
{
	static const char dir[] = "/sys/devices/system/cpu/vulnerabilities";
	char *names[128], path[512], text[512];
	size_t n = 0, i, used = 0;
	struct dirent *de;
	DIR *d;

	if (len == 0)
		return;
	buf[0] = '\0';
	d = opendir(dir);
	if (d == NULL)
		return;
	/* readdir order is arbitrary; sort so runs compare as text. */
	while ((de = readdir(d)) != NULL && n < sizeof(names) / sizeof(names[0])) {
		if (de->d_name[0] == '.')
			continue;
		names[n] = strdup(de->d_name);
		if (names[n] != NULL)
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), plat_strcmp_p);
	for (i = 0; i < n; i++) {
		if (snprintf(path, sizeof(path), "%s/%s", dir, names[i]) < (int)sizeof(path) &&
		    plat_read_line(path, text, sizeof(text)) == 0) {
			if (used > 0)
				plat_append(buf, len, &used, "\n");
			plat_append(buf, len, &used, names[i]);
			plat_append(buf, len, &used, ": ");
			plat_append(buf, len, &used, text);
		}
		free(names[i]);
	}
}

/* Short names for hypervisor signatures, after systemd-detect-virt. */
static const struct {
	const char *signature;	/* substring of the CPUID vendor or DMI text */
	const char *name;	/* what kbench reports */
} plat_hypervisors[] = {
	{ "KVMKVMKVM", "kvm" },
	{ "Linux KVM Hv", "kvm" },	/* KVM offering Hyper-V enlightenments */
	{ "Microsoft Hv", "microsoft" },
	{ "VMwareVMware", "vmware" },
	{ "XenVMMXenVMM", "xen" },
	{ "TCGTCGTCGTCG", "qemu" },
	{ "VBoxVBoxVBox", "oracle" },
	{ "bhyve bhyve ", "bhyve" },
	{ "ACRNACRNACRN", "acrn" },
	{ " lrpepyh  vr", "parallels" },
	{ "QNXQVMBSQG", "qnx" },
	{ "Firecracker", "firecracker" },
	{ "Amazon EC2", "amazon" },
	{ "KVM", "kvm" },
	{ "QEMU", "qemu" },
	{ "VMware", "vmware" },
	{ "VirtualBox", "oracle" },
	{ "innotek", "oracle" },
	{ "Xen", "xen" },
	{ "Parallels", "parallels" },
	{ "BHYVE", "bhyve" },
	{ "Google Compute Engine", "google" },
	{ "OpenStack", "openstack" },
	{ "Virtual Machine", "microsoft" },	/* Hyper-V's DMI product name */
};

static const char *plat_hypervisor_name(const char *text)
{
	size_t i;

	if (text[0] == '\0')
		return NULL;
	for (i = 0; i < sizeof(plat_hypervisors) / sizeof(plat_hypervisors[0]); i++)
		if (strstr(text, plat_hypervisors[i].signature) != NULL)
			return plat_hypervisors[i].name;
	return NULL;
}

/*
 * x86 guests see the "hypervisor present" bit (CPUID.1:ECX[31]) and a
 * vendor signature at leaf 0x40000000; no privilege is needed.  Returns 1
 * with the raw signature in sig when a hypervisor is present.
 */
static int plat_cpuid_hypervisor(char *sig, size_t len)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	char raw[13];

	sig[0] = '\0';
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
		return 0;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(raw + 0, &b, 4);
	memcpy(raw + 4, &c, 4);
	memcpy(raw + 8, &d, 4);
	raw[12] = '\0';
	plat_copy_trim(sig, len, raw);
	return 1;
#else
	sig[0] = '\0';
	(void)len;
	return 0;
#endif
}

/* Whether /proc/cpuinfo's flags carry "hypervisor" (x86 guests). */
static int plat_cpuinfo_hypervisor_flag(void)
{
	char flags[4096], *p;
	size_t n = strlen("hypervisor");

	if (plat_cpuinfo("flags", flags, sizeof(flags)) < 0)
		return 0;
	for (p = strstr(flags, "hypervisor"); p != NULL; p = strstr(p + 1, "hypervisor"))
		if ((p == flags || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

void plat_virt(char *buf, size_t len)
{
	static const char *const dmi[] = {
		"/sys/class/dmi/id/sys_vendor",
		"/sys/class/dmi/id/product_name",
		"/sys/class/dmi/id/bios_vendor",
	};
	char text[256], sig[16];
	const char *name;
	int flagged;
	size_t i;

	if (len == 0)
		return;
	buf[0] = '\0';
	flagged = plat_cpuid_hypervisor(sig, sizeof(sig));
	if (flagged) {
		name = plat_hypervisor_name(sig);
		if (name != NULL) {
			plat_copy_trim(buf, len, name);
			return;
		}
	}
	flagged = flagged || plat_cpuinfo_hypervisor_flag();
	/* Xen publishes its type here, also to guests without the x86 flag. */
	if (plat_read_line("/sys/hypervisor/type", text, sizeof(text)) == 0 && text[0] != '\0') {
		plat_copy_trim(buf, len, text);
		return;
	}
	/* DMI names the machine: only known virtual vendors count, not Dell. */
	for (i = 0; i < sizeof(dmi) / sizeof(dmi[0]); i++) {
		if (plat_read_line(dmi[i], text, sizeof(text)) < 0)
			continue;
		name = plat_hypervisor_name(text);
		if (name != NULL) {
			plat_copy_trim(buf, len, name);
			return;
		}
	}
	/* Present but unnamed: report its raw signature rather than nothing. */
	if (flagged)
		plat_copy_trim(buf, len, sig[0] != '\0' ? sig : "unknown hypervisor");
}

int plat_memory(uint64_t *total, uint64_t *available)
{
	unsigned long long kb;
	char line[256];
	int have = 0;
	FILE *f;

	*total = 0;
	*available = 0;
	f = fopen("/proc/meminfo", "re");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL && have != 3) {
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) {
			*total = (uint64_t)kb * 1024u;
			have |= 1;
		} else if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
			*available = (uint64_t)kb * 1024u;
			have |= 2;
		}
	}
	fclose(f);
	if (!(have & 1)) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/* "32K", "512K", "32768K", "8M" as sysfs writes cache sizes. */
static uint64_t parse_cache_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	if (end == s)
		return 0;
	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	else if (*end == 'G')
		v <<= 30;
	return v;
}

int plat_caches(struct plat_cache *c, int max)
{
	char path[128], buf[64];
	int n = 0;

	for (int i = 0; i < 16 && n < max; i++) {
		struct plat_cache *k = &c[n];

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		if (plat_read_line(path, buf, sizeof(buf)) < 0)
			break;
		memset(k, 0, sizeof(*k));
		k->level = atoi(buf);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		if (plat_read_line(path, k->type, sizeof(k->type)) < 0)
			k->type[0] = '\0';
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if (plat_read_line(path, buf, sizeof(buf)) == 0)
			k->size = parse_cache_size(buf);
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu0/cache/index%d/coherency_line_size", i);
		if (plat_read_line(path, buf, sizeof(buf)) == 0)
			k->line = atoi(buf);
		if (k->level > 0 && k->size > 0)
			n++;
	}
	if (n == 0) {
		errno = ENOSYS;
		return -1;
	}
	return n;
}

/*
 * The file system type from the mount table: the longest mount point that
 * is a prefix of the directory's real path.  statfs's magic number cannot
 * tell ext2 from ext4.
 */
int plat_fs_type(const char *path, char *buf, size_t len)
{
	char real[PATH_MAX], line[PATH_MAX + 256], mnt[PATH_MAX], type[64];
	size_t best = 0;
	FILE *f;

	if (!realpath(path, real))
		return -1;
	f = fopen("/proc/self/mounts", "r");
	if (!f)
		return -1;
	buf[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		size_t m;

		if (sscanf(line, "%*s %4095s %63s", mnt, type) != 2)
			continue;
		m = strlen(mnt);
		/* "/" matches everything; "/tmp" must not match "/tmpx". */
		if (strncmp(real, mnt, m) != 0 ||
		    (m > 1 && real[m] != '\0' && real[m] != '/'))
			continue;
		if (m >= best) {
			best = m;
			snprintf(buf, len, "%s", type);
		}
	}
	fclose(f);
	if (!buf[0]) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

int plat_disk_free(const char *path, uint64_t *bytes)
{
	struct statvfs sv;

	if (statvfs(path, &sv) != 0)
		return -1;
	*bytes = (uint64_t)sv.f_bavail * (uint64_t)sv.f_frsize;
	return 0;
}

/*
 * plat.h for POSIX systems kbench has no dedicated file for (the BSDs,
 * macOS, illumos...): only what POSIX and near-universal sysconf() names
 * give.  Everything else fails with ENOSYS, and facts are left empty, so
 * callers skip with a reason instead of reporting a guess.  A dedicated
 * file per OS can replace this one fact by fact.  Never prints, never exits.
 */
#include "plat/plat.h"
#include "plat/os.h"

#include <sys/statvfs.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* Machine-wide CPU accounting has no POSIX interface (BSDs: kern.cp_time). */
int plat_cpu_times(struct plat_cpu_times *t)
{
	(void)t;
	errno = ENOSYS;
	return -1;
}

/*
 * getrusage() sees this process and its reaped children but not live
 * members of the group; a partial figure would under-count kbench's own
 * work, so none is given.
 */
int plat_group_cpu_ns(uint64_t *ns)
{
	(void)ns;
	errno = ENOSYS;
	return -1;
}

int plat_dir_spread(const char *dir)
{
	(void)dir;
	errno = ENOSYS;
	return -1;
}

int plat_current_cpu(void)
{
	errno = ENOSYS;
	return -1;
}

/* POSIX says nothing of where another process ran. */
int plat_task_cpu(pid_t pid)
{
	(void)pid;
	errno = ENOSYS;
	return -1;
}

/* Steal time is a hypervisor's figure that POSIX does not carry. */
int plat_steal_ns(uint64_t *steal_ns, int max)
{
	(void)steal_ns;
	(void)max;
	errno = ENOSYS;
	return -1;
}

int plat_die_with_parent(int sig)
{
	(void)sig;
	errno = ENOSYS;
	return -1;
}

int plat_self_exe(char *buf, size_t len)
{
	if (len > 0)
		buf[0] = '\0';
	errno = ENOSYS;
	return -1;
}

int plat_cpus_allowed(int *cpus, int max)
{
	(void)cpus;
	(void)max;
	errno = ENOSYS;
	return -1;
}

int plat_os_pin_cpu(int cpu)
{
	(void)cpu;
	errno = ENOSYS;
	return -1;
}

/* Real-time policies are an option of POSIX's, and their rights differ by OS. */
int plat_os_rt_enter(int prio)
{
	(void)prio;
	errno = ENOSYS;
	return -1;
}

int plat_rt_leave(void)
{
	errno = ENOSYS;
	return -1;
}

/* The futex is Linux's; the BSDs' equivalents (_umtx_op, futex(2) on OpenBSD) differ. */
int plat_futex_wait(uint32_t *word, uint32_t expected)
{
	(void)word;
	(void)expected;
	errno = ENOSYS;
	return -1;
}

int plat_futex_wake(uint32_t *word, int n)
{
	(void)word;
	(void)n;
	errno = ENOSYS;
	return -1;
}

/* Counters are the OS's own (the BSDs' hwpmc, macOS's kperf), with no common interface. */
int plat_events_open(struct plat_events *ev)
{
	for (int i = 0; i < PLAT_NEV; i++) {
		ev->fd[i] = -1;
		ev->err[i] = ENOSYS;
	}
	errno = ENOSYS;
	return -1;
}

void plat_events_enable(struct plat_events *ev, int on)
{
	(void)ev;
	(void)on;
}

int plat_events_read(const struct plat_events *ev, uint64_t *counts)
{
	(void)ev;
	for (int i = 0; i < PLAT_NEV; i++)
		counts[i] = 0;
	return 0;
}

void plat_events_close(struct plat_events *ev)
{
	(void)ev;
}

/*
 * pipe2 is not in every system this file serves (macOS lacks it); kbench
 * is single-threaded, so no exec can come between the pipe and the flags.
 */
int plat_pipe_cloexec(int fd[2])
{
	int e;

	if (pipe(fd) < 0)
		return -1;
	if (fcntl(fd[0], F_SETFD, FD_CLOEXEC) == 0 && fcntl(fd[1], F_SETFD, FD_CLOEXEC) == 0)
		return 0;
	e = errno;
	close(fd[0]);
	close(fd[1]);
	errno = e;
	return -1;
}

int plat_ncpu_online(void)
{
#ifdef _SC_NPROCESSORS_ONLN
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n > 0)
		return (int)n;
#endif
	return 1;
}

static void plat_unknown(char *buf, size_t len)
{
	if (len > 0)
		buf[0] = '\0';
}

void plat_cpu_model(char *buf, size_t len)
{
	plat_unknown(buf, len);
}

void plat_clocksource(char *buf, size_t len)
{
	plat_unknown(buf, len);
}

int plat_clocksources(char *buf, size_t len)
{
	plat_unknown(buf, len);
	errno = ENOSYS;
	return -1;
}

int plat_clocksource_file(char *buf, size_t len)
{
	plat_unknown(buf, len);
	errno = ENOSYS;
	return -1;
}

int plat_clocksource_switch(const char *name)
{
	(void)name;
	errno = ENOSYS;
	return -1;
}

int plat_clock_raw(clockid_t *id)
{
	(void)id;
	errno = ENOSYS;
	return -1;
}

int plat_clock_coarse(clockid_t *id)
{
	(void)id;
	errno = ENOSYS;
	return -1;
}

int plat_time_syscall(int (*call)(void *arg), void *arg)
{
	(void)call;
	(void)arg;
	errno = ENOSYS;
	return -1;
}

void plat_governor(char *buf, size_t len)
{
	plat_unknown(buf, len);
}

void plat_smt(char *buf, size_t len)
{
	plat_unknown(buf, len);
}

void plat_mitigations(char *buf, size_t len)
{
	plat_unknown(buf, len);
}

void plat_virt(char *buf, size_t len)
{
	plat_unknown(buf, len);
}

/* _SC_PHYS_PAGES is not POSIX but glibc, the BSDs, macOS and illumos have it. */
int plat_memory(uint64_t *total, uint64_t *available)
{
	*total = 0;
	*available = 0;
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
	{
		long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

		if (pages > 0 && page > 0) {
			*total = (uint64_t)pages * (uint64_t)page;
#ifdef _SC_AVPHYS_PAGES
			pages = sysconf(_SC_AVPHYS_PAGES);
			if (pages > 0)
				*available = (uint64_t)pages * (uint64_t)page;
#endif
			return 0;
		}
	}
#endif
	errno = ENOSYS;
	return -1;
}

int plat_caches(struct plat_cache *c, int max)
{
	(void)c;
	(void)max;
	errno = ENOSYS;
	return -1;
}

int plat_fs_type(const char *path, char *buf, size_t len)
{
	(void)path;
	if (len)
		buf[0] = '\0';
	errno = ENOSYS;
	return -1;
}

int plat_subreaper(void)
{
	errno = ENOSYS;
	return -1;
}

int plat_set_cpus(const int *cpus, int n)
{
	(void)cpus;
	(void)n;
	errno = ENOSYS;
	return -1;
}

int plat_cpu_list(const char *which, int *cpus, int max)
{
	(void)which;
	(void)cpus;
	(void)max;
	errno = ENOSYS;
	return -1;
}

int plat_cpu_online_path(int cpu, char *path, size_t len)
{
	(void)cpu;
	if (len)
		path[0] = '\0';
	errno = ENOSYS;
	return -1;
}

void plat_boot_cmdline(char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
}

int plat_procs(struct plat_proc *out, int max)
{
	(void)out;
	(void)max;
	errno = ENOSYS;
	return -1;
}

int plat_children(pid_t *out, int max)
{
	(void)out;
	(void)max;
	errno = ENOSYS;
	return -1;
}

/* Control groups are Linux's: the process group and the janitor do what they can. */
int plat_cgroup_make(const char *name, char *path, size_t len)
{
	(void)name;
	if (len)
		path[0] = '\0';
	errno = ENOSYS;
	return -1;
}

int plat_cgroup_enter(const char *path)
{
	(void)path;
	errno = ENOSYS;
	return -1;
}

int plat_cgroup_kill(const char *path)
{
	(void)path;
	errno = ENOSYS;
	return -1;
}

int plat_cgroup_remove(const char *path)
{
	(void)path;
	errno = ENOSYS;
	return -1;
}

int plat_disk_free(const char *path, uint64_t *bytes)
{
	struct statvfs sv;

	if (statvfs(path, &sv) != 0)
		return -1;
	*bytes = (uint64_t)sv.f_bavail * (uint64_t)sv.f_frsize;
	return 0;
}

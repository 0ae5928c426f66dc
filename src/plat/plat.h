/*
 * The platform layer: the one place with OS conditionals.  Each function
 * returns -1 with errno ENOSYS where the OS lacks the facility, so callers
 * can skip with a reason instead of failing.
 *
 * It also carries the table of replaceable system calls (plat/sys.h):
 * tests make a call fail through plat_inject() to see that benchmarks
 * notice lost work.
 */
#ifndef KB_PLAT_H
#define KB_PLAT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* CPU time of the whole machine, summed over online CPUs, in nanoseconds. */
struct plat_cpu_times {
	uint64_t busy_ns;	/* user+nice+system+irq+softirq+steal */
	uint64_t total_ns;	/* busy + idle + iowait */
	int ncpu;		/* CPUs counted */
};
int plat_cpu_times(struct plat_cpu_times *t);

/*
 * CPU time used by kbench's own process group: this process, its reaped
 * children, and live members of the group.  Subtracted from the machine's
 * busy time to see what other work did.
 */
int plat_group_cpu_ns(uint64_t *ns);

/* One process, as the system's process table tells it. */
struct plat_proc {
	pid_t pid, ppid;
	char comm[16];		/* its name, as ps shows it */
	uint64_t cpu_ns;	/* user and system time: its own and its reaped children's */
};
/*
 * Every process of the machine, at most max of them into out: how many
 * there are (more than max when out was too small), or -1 with errno
 * (ENOSYS where the system gives no such list).  What other work used
 * the CPUs while kbench measured is read from two of these.
 */
int plat_procs(struct plat_proc *out, int max);

/*
 * Where a sample ran: the CPU the calling thread is on now (-1, errno
 * ENOSYS where the OS cannot say), and the steal time of every CPU so far
 * (time a hypervisor ran something else while the CPU had work), into
 * steal_ns[cpu] for at most max CPUs: the count filled, or -1.  Linux
 * keeps steal in clock ticks (10 ms), so a short sample reads 0 or a tick.
 */
int plat_current_cpu(void);
/*
 * The CPU process pid last ran on (the scheduler's own record: Linux's
 * /proc/PID/stat), or -1 when unknown: where a benchmark's other end was.
 */
int plat_task_cpu(pid_t pid);
int plat_steal_ns(uint64_t *steal_ns, int max);

/* Ask the kernel to kill this process when its parent dies. */
int plat_die_with_parent(int sig);

/* Absolute path of the running executable. */
int plat_self_exe(char *buf, size_t len);

int plat_ncpu_online(void);

/*
 * CPU placement.  The CPUs this process may run on, ascending, at most max
 * of them: their count, or -1 (errno ENOSYS where the OS has no affinity).
 */
int plat_cpus_allowed(int *cpus, int max);
/* Restricting it to one CPU is plat_pin_cpu, a replaceable call (plat/sys.h). */
/*
 * Restrict this process, and so every process it starts, to the n CPUs
 * listed (--cpus).  0, or -1 with errno (EINVAL: none of them allowed).
 */
int plat_set_cpus(const int *cpus, int n);
/*
 * The CPUs the kernel counts as present, online or possible (which is one
 * of those words), ascending, up to max in cpus; their count, or -1
 * (ENOSYS where the OS cannot say).
 */
int plat_cpu_list(const char *which, int *cpus, int max);
/*
 * The file that takes CPU cpu online ("1") or offline ("0") by hotplug,
 * in path; 0, or -1 (ENOENT: it has none, as cpu0 on many machines;
 * ENOSYS where the OS has no hotplug).
 */
int plat_cpu_online_path(int cpu, char *path, size_t len);
/* The kernel's boot command line ("" unknown): a UP boot is maxcpus=1 or nosmp. */
void plat_boot_cmdline(char *buf, size_t len);

/*
 * In a child of kbench's (or of its guard's) that is about to execute
 * another program: every signal's disposition back to the default and the
 * signal mask emptied.  An ignored signal and a blocked one survive an
 * exec, so without this a command kbench starts would inherit what kbench
 * and its helpers ignore (SIGXFSZ, SIGPIPE, the terminal's signals), and a
 * daemon it starts could not be stopped by SIGTERM.
 */
void plat_child_signals(void);
/* Read a small text file (sysfs/procfs) into buf, trailing newline cut. */
int plat_read_line(const char *path, char *buf, size_t len);
/*
 * Write text to an existing file (a sysfs setting) in one write(); 0, or
 * -1 with errno (EIO when only part of it was taken).
 */
int plat_write_text(const char *path, const char *text);
/* Read up to len-1 bytes of a file into buf, NUL-terminated; the count or -1. */
ssize_t plat_read_file(const char *path, char *buf, size_t len);
/*
 * Move exactly len bytes through kbench's own pipes (results, commands),
 * retrying short counts and EINTR: 0, or -1 (end of file counts).
 */
int plat_full_io(int fd, void *buf, size_t len, int writing);
/*
 * Whether kbench may make files in dir: 0, or -1 with mkdir's errno
 * (EACCES, EROFS; ENOENT where the directory takes no new entries, as
 * /proc).  An unnamed file (O_TMPFILE) where the file system has them, so
 * that a SIGKILL in the middle of the probe leaves no name behind; a
 * directory made and removed elsewhere.
 */
int plat_dir_probe(const char *dir);

/* Facts for sysinfo; each leaves buf empty when unknown. */
void plat_cpu_model(char *buf, size_t len);
void plat_clocksource(char *buf, size_t len);
void plat_governor(char *buf, size_t len);
void plat_smt(char *buf, size_t len);
void plat_mitigations(char *buf, size_t len);
void plat_virt(char *buf, size_t len);
int plat_memory(uint64_t *total, uint64_t *available);

/*
 * Clock sources, for kbench clocks (the current one is plat_clocksource).
 * The names the kernel offers, separated by spaces, into buf: 0, or -1
 * with errno (ENOSYS where the OS offers no choice of clock source).
 */
int plat_clocksources(char *buf, size_t len);
/*
 * The file whose contents select the clock source, into buf: what the
 * guard (core/guard.h) writes the original back to.  0, or -1 (ENOSYS).
 */
int plat_clocksource_file(char *buf, size_t len);
/*
 * Make name the clock source and read back that it took: the kernel
 * answers the write of a name it does not know, or will not use, with
 * success and keeps its source.  0, or -1 with errno: EACCES or EPERM
 * without root, EINVAL when another source is current after the write,
 * ENOSYS.
 */
int plat_clocksource_switch(const char *name);
/*
 * The ids of the raw (never slewed by NTP) and coarse (the last tick's
 * time, no clock source read) monotonic clocks: 0, or -1 (ENOSYS where
 * the OS has no such clock).
 */
int plat_clock_raw(clockid_t *id);
int plat_clock_coarse(clockid_t *id);
/*
 * Whether call(arg), made once in a child process, enters the kernel by a
 * time system call (clock_gettime, gettimeofday, time): 1 it does, 0 it
 * does not (the vDSO answered it in user space), -1 with errno (ENOSYS
 * where the OS cannot tell, EIO when the call failed by itself).  call
 * returns 0, or -1 with errno when it failed.
 */
int plat_time_syscall(int (*call)(void *arg), void *arg);

/* One CPU cache as the OS describes it (sysfs on Linux). */
struct plat_cache {
	int level;		/* 1, 2, 3 */
	char type[16];		/* "Data", "Instruction", "Unified" */
	uint64_t size;		/* bytes */
	int line;		/* line size in bytes, 0 unknown */
};
/* CPU 0's caches, level order, at most max: their count, or -1 (ENOSYS). */
int plat_caches(struct plat_cache *c, int max);
/* The largest data or unified cache CPU 0 has, in bytes; 0 when unknown. */
uint64_t plat_llc_size(void);

/*
 * The type of the file system holding path ("ext4", "tmpfs"): 0, or -1
 * (ENOSYS where the OS cannot say).
 */
int plat_fs_type(const char *path, char *buf, size_t len);

/*
 * Make this process the reaper of its orphaned descendants, so the
 * workers of a killed load come back to kbench to be waited for instead of
 * to init, and contest can see that none is left.  0, or -1 (ENOSYS).
 */
int plat_subreaper(void);
/*
 * The live children of this process, up to max of them in out: what a
 * timed job left behind and kbench, as subreaper, inherited, found even
 * when it left the job's process group (setsid).  Their count (which may
 * exceed max), or -1 (ENOSYS where the OS cannot list them).
 */
int plat_children(pid_t *out, int max);
/*
 * A control group (cgroup v2) of kbench's own for what a job starts, made
 * under the one kbench runs in and named after name: a process in it
 * cannot leave it by setsid(2) or a double fork, so killing the group's
 * every member reaches a daemon at any depth, even after kbench died.
 * path (PATH_MAX) is filled; 0, or -1 where the machine gives none
 * (no cgroup2 mounted, not root nor delegated: EACCES, ENOSYS elsewhere).
 */
int plat_cgroup_make(const char *name, char *path, size_t len);
/* Move the calling process into the cgroup at path: 0 or -1. */
int plat_cgroup_enter(const char *path);
/*
 * Kill every process in the cgroup at path (cgroup.kill, which no fork can
 * outrun; where the kernel has none, each process listed).  1 while any
 * is left in it, 0 once it is empty, -1 when it cannot be read.
 */
int plat_cgroup_kill(const char *path);
/* Remove the (empty) cgroup at path: 0 or -1. */
int plat_cgroup_remove(const char *path);
/*
 * Ask the file system to spread the subdirectories of dir over its space
 * as it does top-level ones (ext2/3/4's TOPDIR flag; the Orlov allocator
 * then puts each in a block group of its own).  0, or -1 with errno
 * (ENOTTY, EOPNOTSUPP: the file system has no such notion; ENOSYS here).
 */
int plat_dir_spread(const char *dir);
/* Bytes an unprivileged user may still write on the file system of path. */
int plat_disk_free(const char *path, uint64_t *bytes);

/* Minor (no I/O) page faults this process has taken so far. */
int plat_minor_faults(uint64_t *n);

/*
 * Make a pipe whose ends are closed on exec, for kbench's own processes
 * (the janitor, a load's workers): never a replaceable call, so a fault
 * armed for a benchmark cannot hit them.
 */
int plat_pipe_cloexec(int fd[2]);

/*
 * Back under the time-sharing policy after plat_rt_enter: 0, or -1 with
 * errno (ENOSYS where the OS has no real-time policy).
 */
int plat_rt_leave(void);

/*
 * A futex of this process's own (Linux's FUTEX_*_PRIVATE), for the
 * locking figures and the wakeups between threads.  plat_futex_wait
 * sleeps while *word holds expected: 0 once woken (or spuriously), -1
 * with errno EAGAIN at once when *word held something else, EINTR, or
 * ENOSYS where the OS has no futex.  plat_futex_wake wakes at most n
 * sleepers on word: how many, or -1 with errno.
 */
int plat_futex_wait(uint32_t *word, uint32_t expected);
int plat_futex_wake(uint32_t *word, int n);

/*
 * Event counters over a stretch of work (perf events on Linux): the
 * events behind a figure.  Software events the kernel always counts, and
 * the processor's where it has a PMU the kernel lets kbench use.
 */
enum plat_event {
	PLAT_EV_CONTEXT_SWITCHES, PLAT_EV_MIGRATIONS, PLAT_EV_PAGE_FAULTS,
	PLAT_EV_CYCLES, PLAT_EV_INSTRUCTIONS, PLAT_EV_CACHE_MISSES, PLAT_EV_BRANCH_MISSES,
	PLAT_NEV
};
struct plat_events {
	int fd[PLAT_NEV];	/* -1 where the event is absent */
	int err[PLAT_NEV];	/* why absent: ENOENT or EOPNOTSUPP (no such event
				   here), EACCES or EPERM (not permitted) */
};
/*
 * Open every event, stopped, counting this process and the processes it
 * starts from now on: how many opened (each absent one's fd -1, its
 * errno in err), or -1 with errno ENOSYS where the OS has no counters.
 */
int plat_events_open(struct plat_events *ev);
/* Start (on 1) or stop (0) every open event, in the children too. */
void plat_events_enable(struct plat_events *ev, int on);
/*
 * Each open event's count so far into counts (absent ones 0): the
 * children's are in once they have exited.  0, or -1 with errno.
 */
int plat_events_read(const struct plat_events *ev, uint64_t *counts);
void plat_events_close(struct plat_events *ev);

/* The replaceable system calls and their faults. */
#include "plat/sys.h"

#endif

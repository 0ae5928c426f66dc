/*
 * The replaceable system calls, after SQLite's table of them (os_unix.c's
 * aSyscall[] and xSetSystemCall): every call a benchmark makes that can
 * fail, and whose failure it must notice, goes through one row of one
 * table, found by name ("fork", "mmap").  A test can arm a fault for the
 * nth next call of a row (plat_inject, $KBENCH_INJECT) or put a function
 * of its own in it (plat_syscall_set), to see that a benchmark notices the
 * lost or damaged work, says which call failed, and cleans up after it.
 *
 * Clean-up (close, munmap, the unlink and rmdir of a teardown) and kbench's
 * own bookkeeping (plat_full_io, /proc, the runner's pipes) use the plain
 * calls, so that a fault armed for the work can neither stop the clean-up
 * nor hit the harness.  Included by plat/plat.h.
 */
#ifndef KB_PLAT_SYS_H
#define KB_PLAT_SYS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>

/*
 * The faults a row can be armed with.  read and write know all three; every
 * other call moves no data, so any fault makes it fail with EIO there.
 */
enum plat_fault {
	PLAT_FAULT_NONE = 0,
	PLAT_FAULT_SHORT,	/* return fewer bytes than asked */
	PLAT_FAULT_EIO,		/* fail with EIO */
	PLAT_FAULT_CORRUPT,	/* flip a bit in the data */
};

/*
 * The calls, each named as its row ("read", "open", ...).  openat and open
 * share the row "open", unlinkat and unlink the row "unlink"; plat_pin_cpu
 * is the row "sched_setaffinity", and fails with ENOSYS where the OS has no
 * affinity.  mmap fails with MAP_FAILED, time with (time_t)-1.
 */
ssize_t plat_read(int fd, void *buf, size_t len);
ssize_t plat_write(int fd, const void *buf, size_t len);
int plat_open(const char *path, int flags, mode_t mode);
int plat_openat(int dirfd, const char *path, int flags, mode_t mode);
int plat_unlink(const char *path);
int plat_unlinkat(int dirfd, const char *path, int flags);
off_t plat_lseek(int fd, off_t off, int whence);
int plat_mkdir(const char *path, mode_t mode);
int plat_stat(const char *path, struct stat *st);
int plat_fstat(int fd, struct stat *st);
pid_t plat_fork(void);
int plat_execve(const char *path, char *const argv[], char *const envp[]);
pid_t plat_waitpid(pid_t pid, int *status, int options);
int plat_pipe(int fd[2]);
int plat_socket(int domain, int type, int protocol);
int plat_socketpair(int domain, int type, int protocol, int fd[2]);
int plat_bind(int fd, const struct sockaddr *addr, socklen_t len);
int plat_listen(int fd, int backlog);
int plat_connect(int fd, const struct sockaddr *addr, socklen_t len);
int plat_accept(int fd, struct sockaddr *addr, socklen_t *len);
int plat_setsockopt(int fd, int level, int name, const void *val, socklen_t len);
int plat_select(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *timeout);
void *plat_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int plat_madvise(void *addr, size_t len, int advice);
int plat_sigaction(int sig, const struct sigaction *sa, struct sigaction *old);
int plat_kill(pid_t pid, int sig);
/* Restrict the calling process to one CPU. */
int plat_pin_cpu(int cpu);
/*
 * The calling process under SCHED_FIFO at priority prio: 0, or -1 with
 * errno (EPERM: not allowed; ENOSYS where the OS has no such policy).
 * The row "sched_setscheduler", so a test can refuse it where kbench runs
 * as root.  plat_rt_leave (plat.h) puts the process back.
 */
int plat_rt_enter(int prio);
/* getppid and the clocks (the coarse one's id is plat_clock_coarse's, plat.h). */
pid_t plat_getppid(void);
int plat_gettimeofday(struct timeval *tv);
int plat_clock_gettime(clockid_t clock, struct timespec *ts);
time_t plat_time(time_t *t);

/*
 * For a loop of n calls of a clock: the function to make them through.
 * With no fault armed on the row, the row's own function, the n calls
 * counted at once, since the count's increment in memory costs about 0.4 ns
 * a call, a tenth of time()'s 4 ns; with a fault armed, the wrapper above,
 * which counts each call and fails the one the fault is armed for.
 */
typedef int (*plat_gettimeofday_fn)(struct timeval *tv);
typedef int (*plat_clock_gettime_fn)(clockid_t clock, struct timespec *ts);
typedef time_t (*plat_time_fn)(time_t *t);
plat_gettimeofday_fn plat_gettimeofday_loop(uint64_t n);
plat_clock_gettime_fn plat_clock_gettime_loop(uint64_t n);
plat_time_fn plat_time_loop(uint64_t n);

/*
 * Arm a fault for the `after`-th next call of a row (0 = the very next);
 * calls are counted from then, in each process on its own (a child forked
 * after arming counts from where its parent was).  A fault fires once and
 * disarms itself; arming again replaces it, PLAT_FAULT_NONE disarms, an
 * unknown name is ignored.  CORRUPT stays armed through a call that moved
 * nothing, since there was nothing to flip.
 */
void plat_inject(const char *call, enum plat_fault fault, unsigned after);
/*
 * A named test switch in $KBENCH_INJECT: an entry without colons, e.g.
 * "load-stop" in "write:eio:100,load-stop".  For faults that are not a
 * failing call: contest's test that a load stopped during the job counts
 * nothing.  1 when present.
 */
int plat_test_switch(const char *name);
/* Arm faults from $KBENCH_INJECT ("write:eio:100,unlink:eio:5"), used by command-line tests. */
void plat_inject_from_env(void);
/* In a benchmark's peer process: disarm every row, then arm from $KBENCH_INJECT_PEER. */
void plat_inject_for_peer(void);
/*
 * Disarm every row, then arm from the variable var: in kbench itself
 * ($KBENCH_INJECT_SELF, for the calls of the restore command it runs and
 * of the guard it starts) and in the guard ($KBENCH_INJECT_GUARD, for the
 * calls it makes once kbench is gone), each counted in its own process.
 */
void plat_inject_from(const char *var);

/*
 * The table itself, SQLite-style.  A row's function has the prototype of
 * its wrapper above, passed as a plat_syscall_ptr and cast back when
 * called: "open"'s is plat_openat's, "unlink"'s plat_unlinkat's,
 * "sched_setaffinity"'s plat_pin_cpu's.
 */
typedef void (*plat_syscall_ptr)(void);
/* Route the call `name` to fn, or back to the system's with fn NULL: 0, or -1 (ENOENT). */
int plat_syscall_set(const char *name, plat_syscall_ptr fn);
/* The function `name` goes to now, NULL for an unknown name. */
plat_syscall_ptr plat_syscall_get(const char *name);
/* The first row's name (name NULL), or the one after `name`; NULL after the last. */
const char *plat_syscall_next(const char *name);
/*
 * Calls made through a row and faults that fired on it, in this process,
 * since it started or since plat_syscall_reset: 0, or -1 (ENOENT).
 */
int plat_syscall_counts(const char *name, uint64_t *calls, unsigned *fired);
/* Every row back to the system's call, disarmed, its counts at zero. */
void plat_syscall_reset(void);

#endif

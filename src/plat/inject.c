/*
 * The table of replaceable system calls (plat/sys.h), after SQLite's: a
 * row per call, each with its name, the function it goes to now and the
 * system's, and a fault a test may arm for the nth next call.  Benchmarks
 * call the wrappers below instead of the system; a wrapper counts the
 * call, fails it when an armed fault fires, and otherwise passes it on.
 *
 * OS-independent: the rows are POSIX calls, and the one that differs by OS
 * (pinning to a CPU) comes from the platform file (plat/os.h).  State lives
 * in file-scope statics because it is used in a single-threaded benchmark
 * process; it is not thread-safe and must not become so at the cost of a
 * lock in the timed path, where a wrapper costs a count and a test.
 *
 * What a fault does:
 * - EIO does not make the call; it returns -1 (MAP_FAILED for mmap) with
 *   errno EIO.  For every call but read and write, so does any fault: the
 *   others move no data to shorten or damage.
 * - SHORT makes a read or write with half the length (rounded down).  For
 *   a length of 0 or 1 half is 0, so the call is not made and 0 is
 *   returned: for write that is a short write, for read it looks like end
 *   of file; either way fewer bytes than asked, which the caller must notice.
 * - CORRUPT makes the call and flips the lowest bit of the middle byte of
 *   what was moved: for read, in the caller's buffer after reading; for
 *   write, in a private copy that is written instead (the caller's buffer is
 *   const and stays intact).  If the call moves nothing (error, end of file,
 *   len 0) there is nothing to corrupt, and the fault stays armed for the
 *   next call.  If the copy for write cannot be allocated, the call fails
 *   with ENOMEM, which still counts as the fault.
 */
#include "plat/plat.h"
#include "plat/os.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * The defaults whose system prototype is not the wrapper's: openat is
 * variadic, and glibc declares the socket calls' address with a
 * transparent union, so a call through the wrapper's pointer type would
 * not be through the declared one.
 */
static int plat_sys_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	return openat(dirfd, path, flags, mode);
}

static int plat_sys_bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	return bind(fd, addr, len);
}

static int plat_sys_connect(int fd, const struct sockaddr *addr, socklen_t len)
{
	return connect(fd, addr, len);
}

static int plat_sys_accept(int fd, struct sockaddr *addr, socklen_t *len)
{
	return accept(fd, addr, len);
}

/* Without the time zone, which POSIX leaves unspecified and C libraries declare apart. */
static int plat_sys_gettimeofday(struct timeval *tv)
{
	return gettimeofday(tv, NULL);
}

/* One row.  The state below `dflt` is the fault injection's. */
struct plat_syscall {
	const char *name;		/* the call's name, as tests and $KBENCH_INJECT give it */
	plat_syscall_ptr current;	/* where the call goes now */
	plat_syscall_ptr dflt;		/* the system's call (or plat/os.h's) */
	enum plat_fault fault;		/* armed, PLAT_FAULT_NONE when not */
	unsigned countdown;		/* calls still to let through before it fires */
	uint64_t calls;			/* calls made through the row */
	unsigned fired;			/* faults that fired on it */
};

/* The rows' indices, for the wrappers; plat_sys[] names them. */
enum plat_sys_id {
	PLAT_SYS_READ, PLAT_SYS_WRITE, PLAT_SYS_OPEN, PLAT_SYS_UNLINK, PLAT_SYS_LSEEK,
	PLAT_SYS_MKDIR, PLAT_SYS_STAT, PLAT_SYS_FSTAT, PLAT_SYS_FORK, PLAT_SYS_EXECVE,
	PLAT_SYS_WAITPID, PLAT_SYS_PIPE, PLAT_SYS_SOCKET, PLAT_SYS_SOCKETPAIR, PLAT_SYS_BIND,
	PLAT_SYS_LISTEN, PLAT_SYS_CONNECT, PLAT_SYS_ACCEPT, PLAT_SYS_SETSOCKOPT, PLAT_SYS_SELECT,
	PLAT_SYS_MMAP, PLAT_SYS_MADVISE, PLAT_SYS_SIGACTION, PLAT_SYS_KILL, PLAT_SYS_SETAFFINITY,
	PLAT_SYS_GETPPID, PLAT_SYS_GETTIMEOFDAY, PLAT_SYS_CLOCK_GETTIME, PLAT_SYS_TIME,
	PLAT_SYS_SETSCHEDULER, PLAT_NSYS
};

#define PLAT_ROW(id, name, fn) \
	[id] = { name, (plat_syscall_ptr)(fn), (plat_syscall_ptr)(fn), PLAT_FAULT_NONE, 0, 0, 0 }

/*
 * The table.  To add a call: an index above, a row here with its name and
 * the system's function, a wrapper below and its declaration in plat/sys.h;
 * then route the benchmarks' calls through the wrapper, and name the call
 * in the failure message they give (tests/cli_faults.sh checks it).
 */
static struct plat_syscall plat_sys[PLAT_NSYS] = {
	PLAT_ROW(PLAT_SYS_READ, "read", read),
	PLAT_ROW(PLAT_SYS_WRITE, "write", write),
	PLAT_ROW(PLAT_SYS_OPEN, "open", plat_sys_openat),
	PLAT_ROW(PLAT_SYS_UNLINK, "unlink", unlinkat),
	PLAT_ROW(PLAT_SYS_LSEEK, "lseek", lseek),
	PLAT_ROW(PLAT_SYS_MKDIR, "mkdir", mkdir),
	PLAT_ROW(PLAT_SYS_STAT, "stat", stat),
	PLAT_ROW(PLAT_SYS_FSTAT, "fstat", fstat),
	PLAT_ROW(PLAT_SYS_FORK, "fork", fork),
	PLAT_ROW(PLAT_SYS_EXECVE, "execve", execve),
	PLAT_ROW(PLAT_SYS_WAITPID, "waitpid", waitpid),
	PLAT_ROW(PLAT_SYS_PIPE, "pipe", pipe),
	PLAT_ROW(PLAT_SYS_SOCKET, "socket", socket),
	PLAT_ROW(PLAT_SYS_SOCKETPAIR, "socketpair", socketpair),
	PLAT_ROW(PLAT_SYS_BIND, "bind", plat_sys_bind),
	PLAT_ROW(PLAT_SYS_LISTEN, "listen", listen),
	PLAT_ROW(PLAT_SYS_CONNECT, "connect", plat_sys_connect),
	PLAT_ROW(PLAT_SYS_ACCEPT, "accept", plat_sys_accept),
	PLAT_ROW(PLAT_SYS_SETSOCKOPT, "setsockopt", setsockopt),
	PLAT_ROW(PLAT_SYS_SELECT, "select", select),
	PLAT_ROW(PLAT_SYS_MMAP, "mmap", mmap),
	PLAT_ROW(PLAT_SYS_MADVISE, "madvise", madvise),
	PLAT_ROW(PLAT_SYS_SIGACTION, "sigaction", sigaction),
	PLAT_ROW(PLAT_SYS_KILL, "kill", kill),
	PLAT_ROW(PLAT_SYS_SETAFFINITY, "sched_setaffinity", plat_os_pin_cpu),
	PLAT_ROW(PLAT_SYS_GETPPID, "getppid", getppid),
	PLAT_ROW(PLAT_SYS_GETTIMEOFDAY, "gettimeofday", plat_sys_gettimeofday),
	PLAT_ROW(PLAT_SYS_CLOCK_GETTIME, "clock_gettime", clock_gettime),
	PLAT_ROW(PLAT_SYS_TIME, "time", time),
	PLAT_ROW(PLAT_SYS_SETSCHEDULER, "sched_setscheduler", plat_os_rt_enter),
};

/* The row's current function as the type t, to be called. */
#define PLAT_CALL(id, t) ((t)plat_sys[id].current)

static struct plat_syscall *plat_row(const char *name)
{
	if (name == NULL)
		return NULL;
	for (size_t i = 0; i < PLAT_NSYS; i++)
		if (strcmp(plat_sys[i].name, name) == 0)
			return &plat_sys[i];
	return NULL;
}

/*
 * Count one call and return the fault it must suffer.  The fault is
 * disarmed here; plat_sys_rearm puts a CORRUPT back when there was nothing
 * to corrupt.
 */
static enum plat_fault plat_sys_enter(enum plat_sys_id id)
{
	struct plat_syscall *r = &plat_sys[id];
	enum plat_fault f = r->fault;

	r->calls++;
	if (f == PLAT_FAULT_NONE)
		return f;
	if (r->countdown > 0) {
		r->countdown--;
		return PLAT_FAULT_NONE;
	}
	r->fault = PLAT_FAULT_NONE;
	r->fired++;
	return f;
}

static void plat_sys_rearm(enum plat_sys_id id)
{
	plat_sys[id].fault = PLAT_FAULT_CORRUPT;
	plat_sys[id].fired--;
}

/* The failure every fault is for a call that moves no data. */
static int plat_sys_eio(void)
{
	errno = EIO;
	return -1;
}

/* Enter a call that moves no data: fail it with EIO when a fault fires. */
#define PLAT_ENTER(id)                                           \
	do {                                                     \
		if (plat_sys_enter(id) != PLAT_FAULT_NONE)       \
			return plat_sys_eio();                   \
	} while (0)

static void plat_flip_bit(unsigned char *p, size_t n)
{
	p[(n - 1) / 2] ^= 1u;
}

typedef ssize_t (*plat_read_fn)(int, void *, size_t);
typedef ssize_t (*plat_write_fn)(int, const void *, size_t);

ssize_t plat_read(int fd, void *buf, size_t len)
{
	plat_read_fn sys = PLAT_CALL(PLAT_SYS_READ, plat_read_fn);
	ssize_t n;

	switch (plat_sys_enter(PLAT_SYS_READ)) {
	case PLAT_FAULT_SHORT:
		if (len / 2 == 0)
			return 0;
		return sys(fd, buf, len / 2);
	case PLAT_FAULT_EIO:
		return plat_sys_eio();
	case PLAT_FAULT_CORRUPT:
		n = sys(fd, buf, len);
		if (n > 0)
			plat_flip_bit(buf, (size_t)n);
		else
			plat_sys_rearm(PLAT_SYS_READ);
		return n;
	case PLAT_FAULT_NONE:
	default:
		return sys(fd, buf, len);
	}
}

ssize_t plat_write(int fd, const void *buf, size_t len)
{
	plat_write_fn sys = PLAT_CALL(PLAT_SYS_WRITE, plat_write_fn);
	unsigned char *copy;
	ssize_t n;
	int saved;

	switch (plat_sys_enter(PLAT_SYS_WRITE)) {
	case PLAT_FAULT_SHORT:
		if (len / 2 == 0)
			return 0;
		return sys(fd, buf, len / 2);
	case PLAT_FAULT_EIO:
		return plat_sys_eio();
	case PLAT_FAULT_CORRUPT:
		if (len == 0) {
			plat_sys_rearm(PLAT_SYS_WRITE);
			return sys(fd, buf, len);
		}
		copy = malloc(len);
		if (copy == NULL) {
			errno = ENOMEM;
			return -1;
		}
		memcpy(copy, buf, len);
		/*
		 * Flip within the whole buffer rather than what a short write
		 * moves: the count is not known before writing.
		 */
		plat_flip_bit(copy, len);
		n = sys(fd, copy, len);
		saved = errno;
		free(copy);
		if (n <= 0)
			plat_sys_rearm(PLAT_SYS_WRITE);
		errno = saved;
		return n;
	case PLAT_FAULT_NONE:
	default:
		return sys(fd, buf, len);
	}
}

int plat_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	PLAT_ENTER(PLAT_SYS_OPEN);
	return PLAT_CALL(PLAT_SYS_OPEN, int (*)(int, const char *, int, mode_t))(dirfd, path,
										flags, mode);
}

int plat_open(const char *path, int flags, mode_t mode)
{
	return plat_openat(AT_FDCWD, path, flags, mode);
}

int plat_unlinkat(int dirfd, const char *path, int flags)
{
	PLAT_ENTER(PLAT_SYS_UNLINK);
	return PLAT_CALL(PLAT_SYS_UNLINK, int (*)(int, const char *, int))(dirfd, path, flags);
}

int plat_unlink(const char *path)
{
	return plat_unlinkat(AT_FDCWD, path, 0);
}

off_t plat_lseek(int fd, off_t off, int whence)
{
	PLAT_ENTER(PLAT_SYS_LSEEK);
	return PLAT_CALL(PLAT_SYS_LSEEK, off_t (*)(int, off_t, int))(fd, off, whence);
}

int plat_mkdir(const char *path, mode_t mode)
{
	PLAT_ENTER(PLAT_SYS_MKDIR);
	return PLAT_CALL(PLAT_SYS_MKDIR, int (*)(const char *, mode_t))(path, mode);
}

int plat_stat(const char *path, struct stat *st)
{
	PLAT_ENTER(PLAT_SYS_STAT);
	return PLAT_CALL(PLAT_SYS_STAT, int (*)(const char *, struct stat *))(path, st);
}

int plat_fstat(int fd, struct stat *st)
{
	PLAT_ENTER(PLAT_SYS_FSTAT);
	return PLAT_CALL(PLAT_SYS_FSTAT, int (*)(int, struct stat *))(fd, st);
}

pid_t plat_fork(void)
{
	PLAT_ENTER(PLAT_SYS_FORK);
	return PLAT_CALL(PLAT_SYS_FORK, pid_t (*)(void))();
}

int plat_execve(const char *path, char *const argv[], char *const envp[])
{
	PLAT_ENTER(PLAT_SYS_EXECVE);
	return PLAT_CALL(PLAT_SYS_EXECVE, int (*)(const char *, char *const[], char *const[]))(
		path, argv, envp);
}

pid_t plat_waitpid(pid_t pid, int *status, int options)
{
	PLAT_ENTER(PLAT_SYS_WAITPID);
	return PLAT_CALL(PLAT_SYS_WAITPID, pid_t (*)(pid_t, int *, int))(pid, status, options);
}

int plat_pipe(int fd[2])
{
	PLAT_ENTER(PLAT_SYS_PIPE);
	return PLAT_CALL(PLAT_SYS_PIPE, int (*)(int[2]))(fd);
}

int plat_socket(int domain, int type, int protocol)
{
	PLAT_ENTER(PLAT_SYS_SOCKET);
	return PLAT_CALL(PLAT_SYS_SOCKET, int (*)(int, int, int))(domain, type, protocol);
}

int plat_socketpair(int domain, int type, int protocol, int fd[2])
{
	PLAT_ENTER(PLAT_SYS_SOCKETPAIR);
	return PLAT_CALL(PLAT_SYS_SOCKETPAIR, int (*)(int, int, int, int[2]))(domain, type,
									     protocol, fd);
}

int plat_bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	PLAT_ENTER(PLAT_SYS_BIND);
	return PLAT_CALL(PLAT_SYS_BIND, int (*)(int, const struct sockaddr *, socklen_t))(fd, addr,
											 len);
}

int plat_listen(int fd, int backlog)
{
	PLAT_ENTER(PLAT_SYS_LISTEN);
	return PLAT_CALL(PLAT_SYS_LISTEN, int (*)(int, int))(fd, backlog);
}

int plat_connect(int fd, const struct sockaddr *addr, socklen_t len)
{
	PLAT_ENTER(PLAT_SYS_CONNECT);
	return PLAT_CALL(PLAT_SYS_CONNECT, int (*)(int, const struct sockaddr *, socklen_t))(
		fd, addr, len);
}

int plat_accept(int fd, struct sockaddr *addr, socklen_t *len)
{
	PLAT_ENTER(PLAT_SYS_ACCEPT);
	return PLAT_CALL(PLAT_SYS_ACCEPT, int (*)(int, struct sockaddr *, socklen_t *))(fd, addr,
										       len);
}

int plat_setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	PLAT_ENTER(PLAT_SYS_SETSOCKOPT);
	return PLAT_CALL(PLAT_SYS_SETSOCKOPT, int (*)(int, int, int, const void *, socklen_t))(
		fd, level, name, val, len);
}

int plat_select(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *timeout)
{
	PLAT_ENTER(PLAT_SYS_SELECT);
	return PLAT_CALL(PLAT_SYS_SELECT,
			 int (*)(int, fd_set *, fd_set *, fd_set *, struct timeval *))(nfds, rd, wr,
										     ex, timeout);
}

void *plat_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (plat_sys_enter(PLAT_SYS_MMAP) != PLAT_FAULT_NONE) {
		errno = EIO;
		return MAP_FAILED;
	}
	return PLAT_CALL(PLAT_SYS_MMAP, void *(*)(void *, size_t, int, int, int, off_t))(
		addr, len, prot, flags, fd, off);
}

int plat_madvise(void *addr, size_t len, int advice)
{
	PLAT_ENTER(PLAT_SYS_MADVISE);
	return PLAT_CALL(PLAT_SYS_MADVISE, int (*)(void *, size_t, int))(addr, len, advice);
}

int plat_sigaction(int sig, const struct sigaction *sa, struct sigaction *old)
{
	PLAT_ENTER(PLAT_SYS_SIGACTION);
	return PLAT_CALL(PLAT_SYS_SIGACTION,
			 int (*)(int, const struct sigaction *, struct sigaction *))(sig, sa, old);
}

int plat_kill(pid_t pid, int sig)
{
	PLAT_ENTER(PLAT_SYS_KILL);
	return PLAT_CALL(PLAT_SYS_KILL, int (*)(pid_t, int))(pid, sig);
}

int plat_pin_cpu(int cpu)
{
	PLAT_ENTER(PLAT_SYS_SETAFFINITY);
	return PLAT_CALL(PLAT_SYS_SETAFFINITY, int (*)(int))(cpu);
}

int plat_rt_enter(int prio)
{
	PLAT_ENTER(PLAT_SYS_SETSCHEDULER);
	return PLAT_CALL(PLAT_SYS_SETSCHEDULER, int (*)(int))(prio);
}

pid_t plat_getppid(void)
{
	PLAT_ENTER(PLAT_SYS_GETPPID);
	return PLAT_CALL(PLAT_SYS_GETPPID, pid_t (*)(void))();
}

int plat_gettimeofday(struct timeval *tv)
{
	PLAT_ENTER(PLAT_SYS_GETTIMEOFDAY);
	return PLAT_CALL(PLAT_SYS_GETTIMEOFDAY, int (*)(struct timeval *))(tv);
}

int plat_clock_gettime(clockid_t clock, struct timespec *ts)
{
	PLAT_ENTER(PLAT_SYS_CLOCK_GETTIME);
	return PLAT_CALL(PLAT_SYS_CLOCK_GETTIME, int (*)(clockid_t, struct timespec *))(clock, ts);
}

time_t plat_time(time_t *t)
{
	PLAT_ENTER(PLAT_SYS_TIME);
	return PLAT_CALL(PLAT_SYS_TIME, time_t (*)(time_t *))(t);
}

/* A loop's n calls of row id (plat/sys.h): the row's function, or the wrapper when armed. */
static plat_syscall_ptr plat_loop(enum plat_sys_id id, uint64_t n, plat_syscall_ptr wrapper)
{
	struct plat_syscall *r = &plat_sys[id];

	if (r->fault != PLAT_FAULT_NONE)
		return wrapper;
	r->calls += n;
	return r->current;
}

plat_gettimeofday_fn plat_gettimeofday_loop(uint64_t n)
{
	return (plat_gettimeofday_fn)plat_loop(PLAT_SYS_GETTIMEOFDAY, n,
					       (plat_syscall_ptr)plat_gettimeofday);
}

plat_clock_gettime_fn plat_clock_gettime_loop(uint64_t n)
{
	return (plat_clock_gettime_fn)plat_loop(PLAT_SYS_CLOCK_GETTIME, n,
						(plat_syscall_ptr)plat_clock_gettime);
}

plat_time_fn plat_time_loop(uint64_t n)
{
	return (plat_time_fn)plat_loop(PLAT_SYS_TIME, n, (plat_syscall_ptr)plat_time);
}

/* ------------------------------------------------------------------ */
/* The table, by name                                                  */
/* ------------------------------------------------------------------ */

int plat_syscall_set(const char *name, plat_syscall_ptr fn)
{
	struct plat_syscall *r = plat_row(name);

	if (r == NULL) {
		errno = ENOENT;
		return -1;
	}
	r->current = fn != NULL ? fn : r->dflt;
	return 0;
}

plat_syscall_ptr plat_syscall_get(const char *name)
{
	struct plat_syscall *r = plat_row(name);

	return r != NULL ? r->current : NULL;
}

const char *plat_syscall_next(const char *name)
{
	struct plat_syscall *r;

	if (name == NULL)
		return plat_sys[0].name;
	r = plat_row(name);
	if (r == NULL || r + 1 == plat_sys + PLAT_NSYS)
		return NULL;
	return r[1].name;
}

int plat_syscall_counts(const char *name, uint64_t *calls, unsigned *fired)
{
	struct plat_syscall *r = plat_row(name);

	if (r == NULL) {
		errno = ENOENT;
		return -1;
	}
	*calls = r->calls;
	*fired = r->fired;
	return 0;
}

void plat_syscall_reset(void)
{
	for (size_t i = 0; i < PLAT_NSYS; i++) {
		plat_sys[i].current = plat_sys[i].dflt;
		plat_sys[i].fault = PLAT_FAULT_NONE;
		plat_sys[i].countdown = 0;
		plat_sys[i].calls = 0;
		plat_sys[i].fired = 0;
	}
}

void plat_inject(const char *call, enum plat_fault fault, unsigned after)
{
	struct plat_syscall *r = plat_row(call);

	if (r == NULL)
		return;
	r->fault = fault;
	r->countdown = after;
}

/* ------------------------------------------------------------------ */
/* $KBENCH_INJECT                                                      */
/* ------------------------------------------------------------------ */

/* "eio" -> PLAT_FAULT_EIO; -1 for an unknown name. */
static int plat_fault_parse(const char *s, size_t n)
{
	static const struct {
		const char *name;
		enum plat_fault fault;
	} names[] = {
		{ "none", PLAT_FAULT_NONE },
		{ "short", PLAT_FAULT_SHORT },
		{ "eio", PLAT_FAULT_EIO },
		{ "corrupt", PLAT_FAULT_CORRUPT },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i].name) == n && strncmp(names[i].name, s, n) == 0)
			return (int)names[i].fault;
	return -1;
}

/*
 * Arm one "call:fault:after" entry of n characters at s.  All three fields
 * are required and `after` must be plain decimal digits that fit in an
 * unsigned; anything else leaves the entry unarmed.
 */
static void plat_inject_entry(const char *s, size_t n)
{
	const char *end = s + n, *c1, *c2, *p;
	char call[24];
	unsigned long after = 0;
	int fault;

	c1 = memchr(s, ':', n);
	if (c1 == NULL)
		return;
	c2 = memchr(c1 + 1, ':', (size_t)(end - (c1 + 1)));
	if (c2 == NULL || c2 + 1 == end)
		return;
	if ((size_t)(c1 - s) >= sizeof(call))
		return;
	memcpy(call, s, (size_t)(c1 - s));
	call[c1 - s] = '\0';
	if (plat_row(call) == NULL)
		return;
	fault = plat_fault_parse(c1 + 1, (size_t)(c2 - (c1 + 1)));
	if (fault < 0)
		return;
	for (p = c2 + 1; p < end; p++) {
		if (*p < '0' || *p > '9')
			return;
		after = after * 10 + (unsigned long)(*p - '0');
		if (after > UINT_MAX)
			return;
	}
	plat_inject(call, (enum plat_fault)fault, (unsigned)after);
}

/*
 * $KBENCH_INJECT is a comma-separated list of entries, e.g.
 * "write:eio:100,fork:eio:0".  Bad entries are skipped silently (this
 * runs inside a benchmark child that must not print); good ones are armed.
 */
static void plat_inject_parse(const char *s)
{
	const char *comma;

	if (s == NULL)
		return;
	while (*s != '\0') {
		comma = strchr(s, ',');
		if (comma == NULL)
			comma = s + strlen(s);
		if (comma > s)
			plat_inject_entry(s, (size_t)(comma - s));
		s = *comma == ',' ? comma + 1 : comma;
	}
}

int plat_test_switch(const char *name)
{
	const char *s = getenv("KBENCH_INJECT");
	size_t len = strlen(name);

	while (s && *s) {
		const char *comma = strchr(s, ',');
		size_t n = comma ? (size_t)(comma - s) : strlen(s);

		if (n == len && strncmp(s, name, len) == 0)
			return 1;
		s = comma ? comma + 1 : NULL;
	}
	return 0;
}

void plat_inject_from_env(void)
{
	plat_inject_parse(getenv("KBENCH_INJECT"));
}

/*
 * A peer starts from nothing armed: had it kept its parent's countdown, a
 * fault would fire on both sides of the same message, and two flips of one
 * bit cancel.  $KBENCH_INJECT_PEER aims a fault at the peers instead.
 */
void plat_inject_for_peer(void)
{
	plat_inject_from("KBENCH_INJECT_PEER");
}

void plat_inject_from(const char *var)
{
	for (size_t i = 0; i < PLAT_NSYS; i++)
		plat_sys[i].fault = PLAT_FAULT_NONE;
	plat_inject_parse(getenv(var));
}

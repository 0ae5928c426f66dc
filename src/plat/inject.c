/*
 * Fault injection for the calls that move data, after SQLite's table of
 * replaceable system calls: benchmarks read and write through plat_read()
 * and plat_write(), and a test (or $KBENCH_INJECT) arms one fault for one
 * call, to check that lost or damaged work is noticed rather than timed.
 *
 * OS-independent: only read(2), write(2), openat(2) and unlinkat(2).
 * State lives in file-scope
 * statics because it is used in a single-threaded benchmark child; it is not
 * thread-safe and must not become so at the cost of a lock in the timed path.
 *
 * Semantics, per call ("read", "write", "open" or "unlink"):
 * - plat_inject(call, fault, after) arms one fault; calls are counted from
 *   then, and the call with index `after` (0 = the very next) gets it.
 *   Arming again replaces the earlier fault; PLAT_FAULT_NONE disarms.
 * - A fault fires once and then disarms itself.
 * - SHORT performs the call with half the length (rounded down).  For a
 *   length of 0 or 1 half is 0, so the call is not made and 0 is returned:
 *   for write that is a short write, for read it looks like end of file;
 *   either way fewer bytes than asked, which is what the caller must notice.
 * - EIO does not perform the call; it returns -1 with errno EIO.
 * - CORRUPT performs the call and flips the lowest bit of the middle byte
 *   of what was moved: for read, in the caller's buffer after reading; for
 *   write, in a private copy that is written instead (the caller's buffer is
 *   const and stays intact).  If the call moves nothing (error, end of file,
 *   len 0) there is nothing to corrupt, and the fault stays armed for the
 *   next call.  If the copy for write cannot be allocated, the call fails
 *   with ENOMEM, which still counts as the fault.
 * - open and unlink move no data, so every fault is EIO for them: the call
 *   is not made and -1 comes back with errno EIO.  That is what a file
 *   benchmark must notice half-way through its files, and what its
 *   teardown must clean up after.
 */
#include "plat/plat.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One armed fault for one kind of call. */
struct plat_arm {
	enum plat_fault fault;	/* PLAT_FAULT_NONE when disarmed */
	unsigned countdown;	/* calls still to let through before it fires */
};

static struct plat_arm plat_arm_read;
static struct plat_arm plat_arm_write;
static struct plat_arm plat_arm_open;
static struct plat_arm plat_arm_unlink;

static struct plat_arm *plat_arm_for(const char *call)
{
	if (call == NULL)
		return NULL;
	if (strcmp(call, "read") == 0)
		return &plat_arm_read;
	if (strcmp(call, "write") == 0)
		return &plat_arm_write;
	if (strcmp(call, "open") == 0)
		return &plat_arm_open;
	if (strcmp(call, "unlink") == 0)
		return &plat_arm_unlink;
	return NULL;
}

/*
 * Count one call and return the fault it must suffer.  The fault is
 * disarmed here; CORRUPT re-arms itself when there was nothing to corrupt.
 */
static enum plat_fault plat_arm_take(struct plat_arm *a)
{
	enum plat_fault f = a->fault;

	if (f == PLAT_FAULT_NONE)
		return f;
	if (a->countdown > 0) {
		a->countdown--;
		return PLAT_FAULT_NONE;
	}
	a->fault = PLAT_FAULT_NONE;
	return f;
}

static void plat_flip_bit(unsigned char *p, size_t n)
{
	p[(n - 1) / 2] ^= 1u;
}

ssize_t plat_read(int fd, void *buf, size_t len)
{
	ssize_t n;

	switch (plat_arm_take(&plat_arm_read)) {
	case PLAT_FAULT_SHORT:
		if (len / 2 == 0)
			return 0;
		return read(fd, buf, len / 2);
	case PLAT_FAULT_EIO:
		errno = EIO;
		return -1;
	case PLAT_FAULT_CORRUPT:
		n = read(fd, buf, len);
		if (n > 0)
			plat_flip_bit(buf, (size_t)n);
		else
			plat_arm_read.fault = PLAT_FAULT_CORRUPT;
		return n;
	case PLAT_FAULT_NONE:
	default:
		return read(fd, buf, len);
	}
}

ssize_t plat_write(int fd, const void *buf, size_t len)
{
	unsigned char *copy;
	ssize_t n;
	int saved;

	switch (plat_arm_take(&plat_arm_write)) {
	case PLAT_FAULT_SHORT:
		if (len / 2 == 0)
			return 0;
		return write(fd, buf, len / 2);
	case PLAT_FAULT_EIO:
		errno = EIO;
		return -1;
	case PLAT_FAULT_CORRUPT:
		if (len == 0) {
			plat_arm_write.fault = PLAT_FAULT_CORRUPT;
			return write(fd, buf, len);
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
		n = write(fd, copy, len);
		saved = errno;
		free(copy);
		if (n <= 0)
			plat_arm_write.fault = PLAT_FAULT_CORRUPT;
		errno = saved;
		return n;
	case PLAT_FAULT_NONE:
	default:
		return write(fd, buf, len);
	}
}

int plat_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	if (plat_arm_take(&plat_arm_open) != PLAT_FAULT_NONE) {
		errno = EIO;
		return -1;
	}
	return openat(dirfd, path, flags, mode);
}

int plat_unlinkat(int dirfd, const char *path, int flags)
{
	if (plat_arm_take(&plat_arm_unlink) != PLAT_FAULT_NONE) {
		errno = EIO;
		return -1;
	}
	return unlinkat(dirfd, path, flags);
}

void plat_inject(const char *call, enum plat_fault fault, unsigned after)
{
	struct plat_arm *a = plat_arm_for(call);

	if (a == NULL)
		return;
	a->fault = fault;
	a->countdown = after;
}

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
	char call[8];
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
	if (plat_arm_for(call) == NULL)
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
 * "write:eio:100,read:corrupt:0".  Bad entries are skipped silently (this
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
	plat_inject("read", PLAT_FAULT_NONE, 0);
	plat_inject("write", PLAT_FAULT_NONE, 0);
	plat_inject("open", PLAT_FAULT_NONE, 0);
	plat_inject("unlink", PLAT_FAULT_NONE, 0);
	plat_inject_parse(getenv("KBENCH_INJECT_PEER"));
}

/*
 * The initramfs a guest boots into, written as the kernel unpacks it: a
 * cpio archive in the "newc" format (ASCII headers, 4-byte alignment),
 * uncompressed, which every kernel with initramfs support reads.  kbench
 * writes it itself, so that booting a kernel needs no cpio or initramfs
 * tool on the machine.  It writes to a stream and never reads one.
 */
#ifndef KB_GUEST_CPIO_H
#define KB_GUEST_CPIO_H

#include <stddef.h>
#include <stdio.h>

struct cpio {
	FILE *f;		/* where the archive goes */
	unsigned long ino;	/* the next entry's inode number: each its own */
	unsigned long mtime;	/* every entry's, so that one archive's bytes are the same each time */
	int failed;		/* a write failed: every later call is -1 */
};

/* Start an archive on f, whose entries all carry mtime. */
void cpio_begin(struct cpio *c, FILE *f, unsigned long mtime);
/* A directory (mode its permissions, e.g. 0755); its parents must come first. */
int cpio_dir(struct cpio *c, const char *name, unsigned mode);
/* A regular file of len bytes at data (mode its permissions). */
int cpio_file(struct cpio *c, const char *name, unsigned mode, const void *data, size_t len);
/* A character device node (/dev/console, which the kernel opens before init). */
int cpio_chardev(struct cpio *c, const char *name, unsigned mode, unsigned major, unsigned minor);
/*
 * A regular file with the contents of the host's file path: 0, or -1
 * with err (ERRBUF_LEN) naming the file and why.
 */
int cpio_copy(struct cpio *c, const char *name, unsigned mode, const char *path, char *err);
/* The trailer, then flush: 0 when every write went through, else -1. */
int cpio_end(struct cpio *c);

#endif

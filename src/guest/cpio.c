/*
 * The newc cpio writer (cpio.h).  Each entry is a 110-byte header of
 * "070701" and thirteen 8-digit hex fields, the name with its NUL, zeros
 * to a multiple of 4, the data, zeros to a multiple of 4; the archive
 * ends with an entry named TRAILER!!!.  Names go in without a leading
 * slash, as the kernel's own gen_init_cpio writes them.
 */
#include "guest/cpio.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/err.h"

void cpio_begin(struct cpio *c, FILE *f, unsigned long mtime)
{
	c->f = f;
	c->ino = 1;
	c->mtime = mtime;
	c->failed = 0;
}

static void cpio_pad(struct cpio *c, size_t len)
{
	static const char zeros[4];

	if (len % 4 && fwrite(zeros, 1, 4 - len % 4, c->f) != 4 - len % 4)
		c->failed = 1;
}

/* One entry's header, name and padding; its data (size bytes) follows. */
static int cpio_head(struct cpio *c, const char *name, unsigned long mode, size_t size,
		     unsigned rmajor, unsigned rminor)
{
	size_t namesize;
	int len;

	if (c->failed)
		return -1;
	while (*name == '/')
		name++;
	namesize = strlen(name) + 1;
	len = fprintf(c->f, "070701%08lX%08lX%08lX%08lX%08lX%08lX%08lX%08lX%08lX%08lX%08lX%08lX%08lX",
		      c->ino++, mode, 0ul, 0ul, S_ISDIR(mode) ? 2ul : 1ul, c->mtime,
		      (unsigned long)size, 0ul, 0ul, (unsigned long)rmajor, (unsigned long)rminor,
		      (unsigned long)namesize, 0ul);
	if (len != 110 || fwrite(name, 1, namesize, c->f) != namesize)
		c->failed = 1;
	cpio_pad(c, 110 + namesize);
	return c->failed ? -1 : 0;
}

int cpio_dir(struct cpio *c, const char *name, unsigned mode)
{
	return cpio_head(c, name, S_IFDIR | (mode & 07777), 0, 0, 0);
}

int cpio_file(struct cpio *c, const char *name, unsigned mode, const void *data, size_t len)
{
	if (cpio_head(c, name, S_IFREG | (mode & 07777), len, 0, 0) < 0)
		return -1;
	if (len && fwrite(data, 1, len, c->f) != len)
		c->failed = 1;
	cpio_pad(c, len);
	return c->failed ? -1 : 0;
}

int cpio_chardev(struct cpio *c, const char *name, unsigned mode, unsigned major, unsigned minor)
{
	return cpio_head(c, name, S_IFCHR | (mode & 07777), 0, major, minor);
}

int cpio_copy(struct cpio *c, const char *name, unsigned mode, const char *path, char *err)
{
	FILE *in = fopen(path, "rb");
	char *buf = NULL, e[128];
	size_t len = 0, cap = 0, got;
	int rc;

	if (!in) {
		errbuf_set(err, "cannot read '%s': %s", path, err_errno_text(errno, e, sizeof(e)));
		return -1;
	}
	do {
		if (len == cap) {
			char *more = realloc(buf, cap = cap ? 2 * cap : 1 << 20);

			if (!more) {
				free(buf);
				fclose(in);
				errbuf_set(err, "out of memory reading '%s'", path);
				return -1;
			}
			buf = more;
		}
		got = fread(buf + len, 1, cap - len, in);
		len += got;
	} while (got > 0);
	if (ferror(in)) {
		errbuf_set(err, "cannot read '%s': %s", path, err_errno_text(errno, e, sizeof(e)));
		free(buf);
		fclose(in);
		return -1;
	}
	fclose(in);
	rc = cpio_file(c, name, mode, buf, len);
	free(buf);
	if (rc < 0)
		errbuf_set(err, "cannot write the initramfs: %s", err_errno_text(errno, e, sizeof(e)));
	return rc;
}

int cpio_end(struct cpio *c)
{
	c->mtime = 0;
	(void)cpio_head(c, "TRAILER!!!", 0, 0, 0, 0);
	if (fflush(c->f) != 0)
		c->failed = 1;
	return c->failed ? -1 : 0;
}

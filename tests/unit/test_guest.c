/*
 * Unit tests of the guest's parts (src/guest/): the newc cpio writer,
 * read back field by field as the kernel reads it (magic, sizes, names,
 * 4-byte alignment, the trailer); the records of the guest's port, written
 * and parsed back, among a kernel's messages and carriage returns, and a
 * damaged one refused (a byte changed, a line cut short); a panic found on
 * a console; a bzImage's release read from its header, and a file that is
 * not one refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "guest/console.h"
#include "guest/cpio.h"
#include "guest/guest.h"

/* One entry of an archive as the kernel reads it. */
struct entry {
	unsigned long field[13];
	char name[64];
	const char *data;
};

/* The entry at *at of buf, *at moved past it: 0, or -1 when it is not a newc entry. */
static int next_entry(const char *buf, size_t len, size_t *at, struct entry *e)
{
	size_t p = *at;

	if (p + 110 > len || memcmp(buf + p, "070701", 6) != 0)
		return -1;
	for (int i = 0; i < 13; i++) {
		char f[9];

		memcpy(f, buf + p + 6 + 8 * i, 8);
		f[8] = '\0';
		e->field[i] = strtoul(f, NULL, 16);
	}
	/* field 11 is the name's size with its NUL, 6 the file's size. */
	if (e->field[11] > sizeof(e->name) || buf[p + 110 + e->field[11] - 1] != '\0')
		return -1;
	memcpy(e->name, buf + p + 110, e->field[11]);
	p += 110 + e->field[11];
	p = (p + 3) & ~(size_t)3;
	e->data = buf + p;
	p += e->field[6];
	p = (p + 3) & ~(size_t)3;
	*at = p;
	return 0;
}

static void test_cpio(void **state)
{
	char *buf = NULL;
	size_t len = 0, at = 0;
	FILE *f = open_memstream(&buf, &len);
	struct cpio c;
	struct entry e;

	(void)state;
	assert_non_null(f);
	cpio_begin(&c, f, 1234);
	assert_int_equal(cpio_dir(&c, "/kb", 0755), 0);
	assert_int_equal(cpio_chardev(&c, "dev/console", 0600, 5, 1), 0);
	assert_int_equal(cpio_file(&c, "kb/00000", 0600, "hello", 5), 0);
	assert_int_equal(cpio_file(&c, "empty", 0644, "", 0), 0);
	assert_int_equal(cpio_end(&c), 0);
	fclose(f);
	assert_int_equal(len % 4, 0);

	assert_int_equal(next_entry(buf, len, &at, &e), 0);
	assert_string_equal(e.name, "kb");		/* the leading slash dropped */
	assert_int_equal(e.field[1], S_IFDIR | 0755);
	assert_int_equal(e.field[5], 1234);		/* mtime */
	assert_int_equal(e.field[6], 0);
	assert_int_equal(at % 4, 0);

	assert_int_equal(next_entry(buf, len, &at, &e), 0);
	assert_string_equal(e.name, "dev/console");
	assert_int_equal(e.field[1], S_IFCHR | 0600);
	assert_int_equal(e.field[9], 5);		/* rdevmajor */
	assert_int_equal(e.field[10], 1);

	assert_int_equal(next_entry(buf, len, &at, &e), 0);
	assert_string_equal(e.name, "kb/00000");
	assert_int_equal(e.field[1], S_IFREG | 0600);
	assert_int_equal(e.field[6], 5);
	assert_memory_equal(e.data, "hello", 5);
	assert_int_equal(at % 4, 0);

	assert_int_equal(next_entry(buf, len, &at, &e), 0);
	assert_string_equal(e.name, "empty");
	assert_int_equal(e.field[6], 0);

	assert_int_equal(next_entry(buf, len, &at, &e), 0);
	assert_string_equal(e.name, "TRAILER!!!");
	assert_int_equal(at, len);
	/* Each entry its own inode. */
	free(buf);
}

/* A host file copied in whole; one that is not there said. */
static void test_cpio_copy(void **state)
{
	char path[] = "/tmp/kbench-test-guest.XXXXXX", err[ERRBUF_LEN], *buf = NULL;
	size_t len = 0, at = 0;
	int fd = mkstemp(path);
	FILE *f = open_memstream(&buf, &len);
	struct cpio c;
	struct entry e;
	static char big[300001];

	(void)state;
	assert_true(fd >= 0);
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)(i * 7);
	assert_int_equal(write(fd, big, sizeof(big)), (ssize_t)sizeof(big));
	close(fd);
	cpio_begin(&c, f, 0);
	assert_int_equal(cpio_copy(&c, "init", 0755, path, err), 0);
	assert_int_equal(cpio_copy(&c, "nope", 0755, "/nonexistent/kbench", err), -1);
	assert_non_null(strstr(err, "cannot read '/nonexistent/kbench'"));
	assert_int_equal(cpio_end(&c), 0);
	fclose(f);
	unlink(path);
	assert_int_equal(next_entry(buf, len, &at, &e), 0);
	assert_string_equal(e.name, "init");
	assert_int_equal(e.field[6], sizeof(big));
	assert_memory_equal(e.data, big, sizeof(big));
	assert_int_equal(next_entry(buf, len, &at, &e), 0);
	assert_string_equal(e.name, "TRAILER!!!");
	free(buf);
}

/* What console_put wrote to a file, whole, NUL-terminated. */
static char *records(void (*write_them)(int fd), size_t *len)
{
	FILE *f = tmpfile();
	char *buf;
	long n;

	assert_non_null(f);
	write_them(fileno(f));
	n = lseek(fileno(f), 0, SEEK_END);
	assert_true(n > 0);
	buf = malloc((size_t)n + 1);
	assert_int_equal(pread(fileno(f), buf, (size_t)n, 0), n);
	buf[n] = '\0';
	*len = (size_t)n;
	fclose(f);
	return buf;
}

static unsigned char payload[20000];

static void three_records(int fd)
{
	for (size_t i = 0; i < sizeof(payload); i++)
		payload[i] = (unsigned char)(i * 31 + 7);
	assert_int_equal(console_put(fd, CONSOLE_SYS, 0, payload, 100), 0);
	/* A kernel's message between records, as on a shared port. */
	assert_int_equal(write(fd, "[    1.234] random: crng init done\r\n", 36), 36);
	assert_int_equal(console_put(fd, CONSOLE_RES, 7, payload, sizeof(payload)), 0);
	assert_int_equal(console_put(fd, CONSOLE_END, 1, "", 0), 0);
}

static void test_console_round_trip(void **state)
{
	size_t len, n;
	char *buf = records(three_records, &len), err[ERRBUF_LEN];
	struct console_rec *r;

	(void)state;
	assert_int_equal(console_parse(buf, len, &r, &n, err), 0);
	assert_int_equal(n, 3);
	assert_string_equal(r[0].tag, CONSOLE_SYS);
	assert_int_equal(r[0].len, 100);
	assert_memory_equal(r[0].data, payload, 100);
	assert_string_equal(r[1].tag, CONSOLE_RES);
	assert_int_equal(r[1].index, 7);
	assert_int_equal(r[1].len, sizeof(payload));
	assert_memory_equal(r[1].data, payload, sizeof(payload));
	assert_string_equal(r[2].tag, CONSOLE_END);
	assert_int_equal(r[2].index, 1);
	assert_int_equal(r[2].len, 0);
	console_free(r, n);

	/* A tty's carriage returns before each line's end change nothing. */
	{
		char *crlf = malloc(2 * len + 1);
		size_t k = 0;

		for (size_t i = 0; i < len; i++) {
			if (buf[i] == '\n')
				crlf[k++] = '\r';
			crlf[k++] = buf[i];
		}
		assert_int_equal(console_parse(crlf, k, &r, &n, err), 0);
		assert_int_equal(n, 3);
		assert_memory_equal(r[1].data, payload, sizeof(payload));
		console_free(r, n);
		free(crlf);
	}
	/* A record after a message without its line's end is still found. */
	{
		const char *tail = strstr(buf, "kbench end");
		char mixed[256];
		int m = snprintf(mixed, sizeof(mixed), "[    2.000] half a message%s", tail);

		assert_int_equal(console_parse(mixed, (size_t)m, &r, &n, err), 0);
		assert_int_equal(n, 1);
		assert_string_equal(r[0].tag, CONSOLE_END);
		console_free(r, n);
	}
	free(buf);
}

static void test_console_damaged(void **state)
{
	size_t len, n;
	char *buf = records(three_records, &len), err[ERRBUF_LEN];
	char *res = strstr(buf, "kbench res");
	struct console_rec *r;

	(void)state;
	/* A byte of the payload changed: its CRC refuses it. */
	res[strlen("kbench res 7 20000 00000000 ") + 10] ^= 1;
	assert_int_equal(console_parse(buf, len, &r, &n, err), -1);
	assert_non_null(strstr(err, "damaged res record"));
	assert_null(r);
	res[strlen("kbench res 7 20000 00000000 ") + 10] ^= 1;
	/* A byte lost: the length does not match. */
	memmove(res + 100, res + 101, len - (size_t)(res + 101 - buf));
	assert_int_equal(console_parse(buf, len - 1, &r, &n, err), -1);
	assert_non_null(strstr(err, "hex digits"));
	free(buf);

	/* A last line cut short by the guest's end is not a record: the ones before stand. */
	buf = records(three_records, &len);
	assert_int_equal(console_parse(buf, len - 5, &r, &n, err), 0);
	assert_int_equal(n, 2);
	console_free(r, n);
	free(buf);
}

static void test_console_panic(void **state)
{
	static const char con[] =
		"[    0.000000] Linux version 6.1.0-50-amd64\r\n"
		"[    1.500000] Run /init as init process\r\n"
		"[    1.600000] Kernel panic - not syncing: No working init found.\r\n"
		"[    1.600001] CPU: 0 PID: 1\r\n";
	char line[200];

	(void)state;
	assert_int_equal(console_panic(con, sizeof(con) - 1, line, sizeof(line)), 1);
	assert_string_equal(line, "Kernel panic - not syncing: No working init found.");
	assert_int_equal(console_panic(con, 60, line, sizeof(line)), 0);
	console_last_line(con, sizeof(con) - 1, line, sizeof(line));
	assert_string_equal(line, "[    1.600001] CPU: 0 PID: 1");
	console_last_line("\n\n", 2, line, sizeof(line));
	assert_string_equal(line, "");
	assert_int_equal(console_crc32("123456789", 9), 0xcbf43926u);
}

static void test_image_release(void **state)
{
	char path[] = "/tmp/kbench-test-guest.XXXXXX", rel[64];
	static unsigned char img[0x1000];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	img[0x1fe] = 0x55;
	img[0x1ff] = 0xaa;
	memcpy(img + 0x202, "HdrS", 4);
	/* kernel_version at 0x200 past the boot sector: 0x380 - 0x200. */
	img[0x20e] = 0x80;
	img[0x20f] = 0x01;
	strcpy((char *)img + 0x380, "6.1.0-50-amd64 (debian-kernel@lists.debian.org) #1 SMP");
	assert_int_equal(write(fd, img, sizeof(img)), (ssize_t)sizeof(img));
	close(fd);
	assert_int_equal(guest_image_release(path, rel, sizeof(rel)), 0);
	assert_string_equal(rel, "6.1.0-50-amd64");
	/* Not a bzImage: no HdrS. */
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_int_equal(write(fd, "#!/bin/sh\necho not a kernel\n", 28), 28);
	close(fd);
	assert_int_equal(guest_image_release(path, rel, sizeof(rel)), -1);
	unlink(path);
}

/*
 * --modprobe's plan from a module tree's modules.dep: each module after
 * what it needs (the line's last first, as modprobe loads them), none
 * twice, names matched with '-' and '_' alike and without ".ko" or a
 * compression's suffix; a module the tree lacks refused, naming it.
 */
static void test_modules_plan(void **state)
{
	char dir[] = "/tmp/kbench-test-mods.XXXXXX", path[PATH_MAX], err[ERRBUF_LEN];
	char **plan = NULL;
	size_t n = 0;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(guest_modules_check(dir, err), -1);
	assert_non_null(strstr(err, "no modules.dep"));
	snprintf(path, sizeof(path), "%s/modules.dep", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("kernel/fs/ext4/ext4.ko.xz: kernel/lib/crc16.ko.xz kernel/fs/mbcache.ko.xz kernel/fs/jbd2/jbd2.ko.xz\n"
	      "kernel/fs/mbcache.ko.xz:\n"
	      "kernel/fs/jbd2/jbd2.ko.xz: kernel/lib/crc16.ko.xz\n"
	      "kernel/lib/crc16.ko.xz:\n"
	      "kernel/drivers/block/virtio_blk.ko:\n", f);
	fclose(f);
	assert_int_equal(guest_modules_check(dir, err), 0);
	assert_int_equal(guest_modules_plan(dir, "ext4,virtio-blk,jbd2", &plan, &n, err), 0);
	assert_int_equal(n, 5);
	assert_string_equal(plan[0], "kernel/lib/crc16.ko.xz");
	assert_string_equal(plan[1], "kernel/fs/jbd2/jbd2.ko.xz");
	assert_string_equal(plan[2], "kernel/fs/mbcache.ko.xz");
	assert_string_equal(plan[3], "kernel/fs/ext4/ext4.ko.xz");
	assert_string_equal(plan[4], "kernel/drivers/block/virtio_blk.ko");
	guest_modules_free(plan, n);
	assert_int_equal(guest_modules_plan(dir, "ext4,btrfs", &plan, &n, err), -1);
	assert_non_null(strstr(err, "no module 'btrfs'"));
	/* Soft dependencies: by name or by alias, before (pre:) or after (post:), optional ('?'). */
	assert_non_null(f = fopen(path, "a"));
	fputs("kernel/lib/libcrc32c.ko:\nkernel/crypto/crc32c_generic.ko:\n"
	      "kernel/arch/x86/crypto/crc32c-intel.ko:\nkernel/lib/late.ko:\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/modules.softdep", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("# soft dependencies\nsoftdep libcrc32c pre: crc32c post: late\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/modules.alias", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("alias crc32c crc32c_intel\nalias pci:v*d* crc32c_intel\nalias crc32c crc32c_generic\n", f);
	fclose(f);
	assert_int_equal(guest_modules_plan(dir, "libcrc32c,crc32c_generic", &plan, &n, err), 0);
	assert_int_equal(n, 4);
	assert_string_equal(plan[0], "?kernel/arch/x86/crypto/crc32c-intel.ko");
	/* Named for itself as well: no longer optional. */
	assert_string_equal(plan[1], "kernel/crypto/crc32c_generic.ko");
	assert_string_equal(plan[2], "kernel/lib/libcrc32c.ko");
	assert_string_equal(plan[3], "?kernel/lib/late.ko");
	guest_modules_free(plan, n);
	unlink(path);
	snprintf(path, sizeof(path), "%s/modules.softdep", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/modules.dep", dir);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpio),
		cmocka_unit_test(test_cpio_copy),
		cmocka_unit_test(test_console_round_trip),
		cmocka_unit_test(test_console_damaged),
		cmocka_unit_test(test_console_panic),
		cmocka_unit_test(test_image_release),
		cmocka_unit_test(test_modules_plan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * Plain reference for kbench's fs.create.0k, fs.delete.0k, fs.create.10k
 * and fs.delete.10k: in R + 1 fresh directories under DIR, create N files
 * of SIZE bytes each (open O_CREAT|O_EXCL, write, close), then remove each
 * directory's files in the order made; each directory's creates and its
 * deletes timed with clock_gettime(CLOCK_MONOTONIC); prints the medians
 * of the R figures in microseconds per file, create then delete, on one
 * line.  The first directory's figures are not kept.
 *
 * Every create comes before any delete, and the directories go under one
 * that ext4 is asked to put in a block group of its own (FS_TOPDIR_FL,
 * where the file system has it), as kbench's do: ext4 scans past inodes
 * freed in the last minute or so on every create, so creating where many
 * were just deleted costs several times more (kbench's fs.c says more).
 * DIR should be on the file system kbench's --tmpdir is.
 *
 * With REF_BEST in the environment it prints the fastest of the R creates
 * and the fastest of the R deletes instead, each taken on its own: the
 * fast state's figures, what kbench's levels read.
 * With REF_P5 it prints their 5th percentile instead (pick.h says why).
 *
 * usage: files SIZE [N [R [DIR]]]   (defaults N=1000, R=11, DIR=/tmp)
 * build: cc -O2 -o files files.c
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pick.h"

static void die(const char *what)
{
	perror(what);
	exit(1);
}

int main(int argc, char **argv)
{
	size_t size;
	char top[4096];
	int n, r, tfd, flags;
	const char *root;
	double *c, *d;
	char *data;

	if (argc < 2) {
		fprintf(stderr, "usage: files SIZE [N [R [DIR]]]\n");
		return 2;
	}
	size = strtoul(argv[1], NULL, 10);
	n = argc > 2 ? atoi(argv[2]) : 1000;
	r = argc > 3 ? atoi(argv[3]) : 11;
	root = argc > 4 ? argv[4] : "/tmp";
	if (n < 1 || r < 1 || !(c = malloc(r * sizeof(*c))) || !(d = malloc(r * sizeof(*d))) ||
	    !(data = calloc(1, size ? size : 1)))
		return 2;
	snprintf(top, sizeof(top), "%s/files.XXXXXX", root);
	if (!mkdtemp(top) || (tfd = open(top, O_RDONLY | O_DIRECTORY)) < 0)
		die("mkdtemp");
	if (ioctl(tfd, FS_IOC_GETFLAGS, &flags) == 0) {
		flags |= FS_TOPDIR_FL;
		(void)ioctl(tfd, FS_IOC_SETFLAGS, &flags);
	}
	close(tfd);
	for (int k = -1; k < r; k++) {
		char dir[4200], name[64];
		int dfd;
		double t0;

		snprintf(dir, sizeof(dir), "%s/d%d", top, k + 1);
		if (mkdir(dir, 0700) != 0 || (dfd = open(dir, O_RDONLY | O_DIRECTORY)) < 0)
			die("mkdir");
		t0 = ref_now_ns();
		for (int i = 0; i < n; i++) {
			int fd;

			snprintf(name, sizeof(name), "f%d", i);
			fd = openat(dfd, name, O_CREAT | O_EXCL | O_WRONLY, 0600);
			if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) || close(fd) != 0)
				die("create");
		}
		if (k >= 0)
			c[k] = (ref_now_ns() - t0) / n / 1e3;
		close(dfd);
	}
	for (int k = -1; k < r; k++) {
		char dir[4200], name[64];
		int dfd;
		double t0;

		snprintf(dir, sizeof(dir), "%s/d%d", top, k + 1);
		if ((dfd = open(dir, O_RDONLY | O_DIRECTORY)) < 0)
			die("open");
		t0 = ref_now_ns();
		for (int i = 0; i < n; i++) {
			snprintf(name, sizeof(name), "f%d", i);
			if (unlinkat(dfd, name, 0) != 0)
				die("unlink");
		}
		if (k >= 0)
			d[k] = (ref_now_ns() - t0) / n / 1e3;
		close(dfd);
		if (rmdir(dir) != 0)
			die("rmdir");
	}
	if (rmdir(top) != 0)
		die("rmdir");
	printf("%.3f %.3f\n", ref_pick(c, r), ref_pick(d, r));
	return 0;
}

/*
 * Plain reference for fs.create's state (issue 12): for SECONDS, create
 * FILES files of SIZE bytes in a fresh directory under ROOT, time it, then
 * remove them and the directory, and again; every other batch runs
 * syncfs() first.  Prints "t_s syncfs us_per_create syncfs_ms" a batch.
 * On ext4 without a journal the creates slow down within seconds of such
 * churn (recently_deleted() in the inode allocator) and recover after a
 * minute of rest; syncfs does not help.  With TOPDIR set on ROOT
 * (chattr +T) each directory goes to a block group of its own.
 *
 * usage: fs_churn ROOT SECONDS SIZE FILES     e.g. fs_churn /tmp/churn 60 10240 300
 * build: cc -O2 -o fs_churn fs_churn.c
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pick.h"

int main(int argc, char **argv)
{
	const char *root;
	double secs, t0;
	size_t size;
	int nfiles, rootfd;
	unsigned gen = 0;
	char *data;

	if (argc != 5) {
		fprintf(stderr, "usage: fs_churn ROOT SECONDS SIZE FILES\n");
		return 2;
	}
	root = argv[1];
	secs = atof(argv[2]);
	size = (size_t)atol(argv[3]);
	nfiles = atoi(argv[4]);
	data = malloc(size + 1);
	rootfd = open(root, O_RDONLY | O_DIRECTORY);
	if (!data || rootfd < 0) {
		perror(root);
		return 1;
	}
	memset(data, 7, size + 1);
	t0 = ref_now_ns();
	while (ref_now_ns() - t0 < secs * 1e9) {
		for (int sync = 0; sync < 2; sync++) {
			char dir[4096], name[16];
			double a, b, s0, s1;
			int dfd;

			snprintf(dir, sizeof(dir), "%s/d%u", root, gen++);
			if (mkdir(dir, 0700) < 0 || (dfd = open(dir, O_RDONLY | O_DIRECTORY)) < 0) {
				perror(dir);
				return 1;
			}
			s0 = ref_now_ns();
			if (sync)
				syncfs(rootfd);
			s1 = a = ref_now_ns();
			for (int i = 0; i < nfiles; i++) {
				int fd;

				snprintf(name, sizeof(name), "%08x", i);
				fd = openat(dfd, name, O_CREAT | O_EXCL | O_WRONLY, 0600);
				if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size)) {
					perror(name);
					return 1;
				}
				close(fd);
			}
			b = ref_now_ns();
			for (int i = 0; i < nfiles; i++) {
				snprintf(name, sizeof(name), "%08x", i);
				unlinkat(dfd, name, 0);
			}
			close(dfd);
			rmdir(dir);
			printf("%.2f %d %.2f %.2f\n", (a - t0) / 1e9, sync, (b - a) / nfiles / 1e3,
			       (s1 - s0) / 1e6);
		}
	}
	return 0;
}

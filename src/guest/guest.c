/*
 * The host's part of a boot (guest.h).  qemu runs in a process group of
 * its own, dies with kbench (the parent-death signal, and the janitor,
 * which holds the group), and is killed and reaped before any return: on
 * its deadline, on a signal to kbench, or when it exits by itself.  The
 * ports are files in the private directory, read once qemu is gone.
 */
#include "guest/guest.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/companion.h"
#include "core/err.h"
#include "core/runner.h"
#include "core/timer.h"
#include "guest/cpio.h"
#include "plat/plat.h"

#define GUEST_QEMU "qemu-system-x86_64"
#define GUEST_QEMU_ENV "KBENCH_QEMU"
/* How often a boot's wait looks at qemu, the deadline and the signals. */
#define GUEST_POLL_NS 20000000L
/* The most of a port's output read back: a selection's records are far less. */
#define GUEST_PORT_MAX (256u << 20)

const char *guest_accel_name(enum guest_accel a)
{
	return a == GUEST_KVM ? "kvm" : "tcg";
}

int guest_image_release(const char *path, char *buf, size_t len)
{
	/* The version string lies within the setup code, 17 KiB in for Debian's 6.1. */
	enum { GUEST_SETUP_MAX = 0x10000 };
	unsigned char *h = malloc(GUEST_SETUP_MAX);
	size_t got, at;
	FILE *f = fopen(path, "rb");

	if (len)
		buf[0] = '\0';
	if (!f || !h) {
		if (f)
			fclose(f);
		free(h);
		return -1;
	}
	got = fread(h, 1, GUEST_SETUP_MAX, f);
	fclose(f);
	/* The boot sector's signature and the setup header's "HdrS" (the x86 boot protocol). */
	if (got < 0x210 || h[0x1fe] != 0x55 || h[0x1ff] != 0xaa || memcmp(h + 0x202, "HdrS", 4) != 0) {
		free(h);
		return -1;
	}
	/* kernel_version: an offset from the setup's start, past the boot sector. */
	at = (size_t)(h[0x20e] | h[0x20f] << 8) + 0x200;
	if (h[0x20e] | h[0x20f]) {
		size_t k = 0;

		while (at < got && h[at] > ' ' && h[at] < 0x7f && k + 1 < len)
			buf[k++] = (char)h[at++];
		if (len)
			buf[k] = '\0';
	}
	free(h);
	return 0;
}

/* Whether path starts as a Debian package does: an ar archive whose first member is debian-binary. */
static int guest_is_package(const char *path)
{
	char h[24];
	FILE *f = fopen(path, "rb");
	size_t got;

	if (!f)
		return 0;
	got = fread(h, 1, sizeof(h), f);
	fclose(f);
	return got == sizeof(h) && memcmp(h, "!<arch>\ndebian-binary", 21) == 0;
}

/* Wait for pid until it exits: its status, or -1 after a signal to kbench (pid killed). */
static int guest_wait_child(pid_t pid, int *status)
{
	struct timespec nap = { 0, GUEST_POLL_NS };

	for (;;) {
		pid_t w = waitpid(pid, status, WNOHANG);

		if (w == pid)
			return 0;
		if (w < 0 && errno != EINTR)
			return 0;
		if (runner_interrupted()) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			return -1;
		}
		if (runner_stop_pending())
			(void)runner_stop_group(pid);
		nanosleep(&nap, NULL);
	}
}

/*
 * The package's kernel image: its data part through tar, only
 * ./boot/vmlinuz-*, into dir.  Without installing anything, and without
 * the modules, which are most of the package.  The image is named for
 * the package (linux-image-RELEASE) and comes near the archive's start,
 * so tar stops at it (--occurrence) rather than decompressing the rest;
 * a package named otherwise is read through, for any vmlinuz.
 */
static int guest_unpack(struct guest_kernel *k, const char *dir, char *err)
{
	static const char script[] =
		"r=$(dpkg-deb -f \"$1\" Package) && r=${r#linux-image-} && "
		"dpkg-deb --fsys-tarfile \"$1\" | tar -xf - -C \"$2\" --occurrence=1 \"./boot/vmlinuz-$r\" || "
		"dpkg-deb --fsys-tarfile \"$1\" | tar -xf - -C \"$2\" --wildcards './boot/vmlinuz-*'";
	char pattern[PATH_MAX + 32], e[128];
	int st = 0;
	glob_t g;
	pid_t pid;

	if (access("/usr/bin/dpkg-deb", X_OK) != 0 && access("/bin/dpkg-deb", X_OK) != 0) {
		errbuf_set(err, "cannot take the kernel out of '%s': no dpkg-deb here (apt-get install "
			   "dpkg), or give its vmlinuz", k->arg);
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		errbuf_set(err, "cannot fork: %s", err_errno_text(errno, e, sizeof(e)));
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		setpgid(0, 0);
		plat_child_signals();
		(void)plat_die_with_parent(SIGKILL);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
		}
		execl("/bin/sh", "sh", "-c", script, "sh", k->arg, dir, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	if (guest_wait_child(pid, &st) < 0)
		return 1;
	snprintf(pattern, sizeof(pattern), "%s/boot/vmlinuz-*", dir);
	memset(&g, 0, sizeof(g));
	if (glob(pattern, 0, NULL, &g) != 0 || g.gl_pathc == 0) {
		globfree(&g);
		errbuf_set(err, "'%s' holds no kernel: no boot/vmlinuz-* in the package%s", k->arg,
			   WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "" : " (dpkg-deb could not read it)");
		return -1;
	}
	snprintf(k->image, sizeof(k->image), "%s", g.gl_pathv[0]);
	globfree(&g);
	return 0;
}

int guest_kernel_check(const char *arg, char *err)
{
	char e[128], rel[8];
	struct stat sb;

	if (stat(arg, &sb) != 0 || access(arg, R_OK) != 0) {
		errbuf_set(err, "cannot read kernel '%s': %s", arg, err_errno_text(errno, e, sizeof(e)));
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		errbuf_set(err, "'%s' is not a kernel: not a regular file", arg);
		return -1;
	}
	if (guest_is_package(arg))
		return 1;
	if (guest_image_release(arg, rel, sizeof(rel)) < 0) {
		errbuf_set(err, "'%s' is not a kernel: neither an x86 bzImage (no HdrS header) nor a "
			   "Debian package holding one", arg);
		return -1;
	}
	return 0;
}

int guest_kernel_open(struct guest_kernel *k, const char *arg, const char *dir, char *err)
{
	int rc;

	memset(k, 0, sizeof(*k));
	k->arg = arg;
	if ((rc = guest_kernel_check(arg, err)) < 0)
		return -1;
	if (rc == 1) {
		k->package = 1;
		if ((rc = guest_unpack(k, dir, err)) != 0)
			return rc;
	} else {
		snprintf(k->image, sizeof(k->image), "%s", arg);
	}
	if (guest_image_release(k->image, k->release, sizeof(k->release)) < 0) {
		errbuf_set(err, "'%s' is not a kernel: neither an x86 bzImage (no HdrS header) nor a "
			   "Debian package holding one", arg);
		return -1;
	}
	return 0;
}

/* name on $PATH into buf: 0, or -1. */
static int guest_on_path(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH"), *p, *end;

	for (p = path ? path : ""; *p; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		if (end == p)
			continue;
		snprintf(buf, len, "%.*s/%s", (int)(end - p), p, name);
		if (access(buf, X_OK) == 0)
			return 0;
	}
	return -1;
}

int guest_find(struct guest_cfg *cfg, char *err)
{
	const char *env = getenv(GUEST_QEMU_ENV);
	/*
	 * Each found as kbench-worker is, or where its variable says: a test
	 * with a fake qemu ($KBENCH_QEMU) names any file there in a build
	 * without static programs (the sanitizers'), since nothing runs them.
	 */
	static const struct {
		const char *name, *env;
		size_t off;
	} progs[] = {
		{ GUEST_INIT_NAME, "KBENCH_GUEST_INIT", offsetof(struct guest_cfg, init) },
		{ GUEST_WORKER_NAME, "KBENCH_GUEST_WORKER", offsetof(struct guest_cfg, worker) },
		{ GUEST_TINY_NAME, "KBENCH_GUEST_TINY", offsetof(struct guest_cfg, tiny) },
	};

	if (env && *env) {
		if (access(env, X_OK) != 0) {
			errbuf_set(err, "%s '%s' cannot be run: %s", GUEST_QEMU_ENV, env, strerror(errno));
			return -1;
		}
		snprintf(cfg->qemu, sizeof(cfg->qemu), "%s", env);
	} else if (guest_on_path(GUEST_QEMU, cfg->qemu, sizeof(cfg->qemu)) < 0) {
		errbuf_set(err, "no %s on PATH: apt-get install qemu-system-x86", GUEST_QEMU);
		return -1;
	}
	for (size_t i = 0; i < sizeof(progs) / sizeof(*progs); i++)
		if (companion_find(progs[i].name, progs[i].env, (char *)cfg + progs[i].off, PATH_MAX) < 0) {
			errbuf_set(err, "%s not found next to kbench: this build has no guest programs "
				   "(they are built on Linux where the C library links statically, "
				   "and not with the sanitizers)", progs[i].name);
			return -1;
		}
	return 0;
}

int guest_kvm_check(char *err)
{
	char e[128];
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		errbuf_set(err, "cannot open /dev/kvm: %s", err_errno_text(errno, e, sizeof(e)));
		return -1;
	}
	close(fd);
	return 0;
}

int guest_request(const struct bench *b, const struct harness_cfg *hc, const char *build_id,
		  const char *dir, struct guest_req *r, char *err)
{
	struct harness_cfg g = *hc;
	char e[128];
	struct stat sb;
	int fd;

	memset(r, 0, sizeof(*r));
	g.tmpdir = GUEST_TMPDIR;
	fd = wire_request_write(dir, b ? WIRE_MEASURE : WIRE_PRELUDE, build_id, b, &g);
	if (fd < 0 || fstat(fd, &sb) != 0 || !(r->data = malloc(sb.st_size ? (size_t)sb.st_size : 1)) ||
	    plat_full_io(fd, r->data, (size_t)sb.st_size, 0) < 0) {
		errbuf_set(err, "cannot write a request for the guest in '%s': %s", dir,
			   err_errno_text(errno, e, sizeof(e)));
		if (fd >= 0)
			close(fd);
		free(r->data);
		r->data = NULL;
		return -1;
	}
	r->len = (size_t)sb.st_size;
	close(fd);
	return 0;
}

void guest_request_free(struct guest_req *r)
{
	free(r->data);
	r->data = NULL;
	r->len = 0;
}

int guest_modules_check(const char *dir, char *err)
{
	char path[PATH_MAX + 16], e[128];
	struct stat sb;

	if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		errbuf_set(err, "'%s' is not a directory: %s", dir,
			   errno ? err_errno_text(errno, e, sizeof(e)) : "a file");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/modules.dep", dir);
	if (access(path, R_OK) != 0) {
		errbuf_set(err, "'%s' has no modules.dep: give a module tree, lib/modules/RELEASE "
			   "(depmod writes it)", dir);
		return -1;
	}
	return 0;
}

/* A module's name from its file: the base name less ".ko" and any compression's suffix, '-' as '_'. */
static void guest_module_name(const char *path, char *name, size_t len)
{
	const char *base = strrchr(path, '/');
	char *ko;

	snprintf(name, len, "%s", base ? base + 1 : path);
	if ((ko = strstr(name, ".ko")) != NULL)
		*ko = '\0';
	for (char *p = name; *p; p++)
		if (*p == '-')
			*p = '_';
}

/*
 * One of the tree's index files read as pairs: modules.dep (a module's
 * file, then the files it needs), modules.softdep ("softdep MOD pre: A
 * post: B": the module, then the rest) and modules.alias ("alias NAME
 * MOD", names without wildcards only: a soft dependency names an alias
 * such as crc32c, never a device's pattern).
 */
struct guest_pairs {
	char **key, **val;
	size_t n;
};

static void guest_pairs_free(struct guest_pairs *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->key[i]);
		free(d->val[i]);
	}
	free(d->key);
	free(d->val);
	memset(d, 0, sizeof(*d));
}

/* The pairs of dir/name as kind says ('d' dep, 's' softdep, 'a' alias); a missing file is none, unless must. */
static int guest_pairs_read(const char *dir, const char *name, int kind, int must,
			    struct guest_pairs *d, char *err)
{
	char path[PATH_MAX + 32], *line = NULL;
	size_t cap = 0, room = 0;
	FILE *f;

	memset(d, 0, sizeof(*d));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!(f = fopen(path, "r"))) {
		if (!must && errno == ENOENT)
			return 0;
		errbuf_set(err, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		char *key = line, *val;

		line[strcspn(line, "\n")] = '\0';
		if (kind == 'd') {
			if (!(val = strchr(line, ':')))
				continue;
			*val++ = '\0';
		} else {
			const char *word = kind == 's' ? "softdep " : "alias ";

			if (strncmp(line, word, strlen(word)) != 0)
				continue;
			key = line + strlen(word);
			if (!(val = strchr(key, ' ')))
				continue;
			*val++ = '\0';
			if (kind == 'a' && strpbrk(key, "*?[") != NULL)
				continue;
		}
		if (d->n == room) {
			char **a = realloc(d->key, (room = room ? 2 * room : 256) * sizeof(*a)), **b;

			if (a)
				d->key = a;
			if (!a || !(b = realloc(d->val, room * sizeof(*b))))
				goto oom;
			d->val = b;
		}
		d->key[d->n] = strdup(key);
		d->val[d->n] = strdup(val);
		if (!d->key[d->n] || !d->val[d->n]) {
			free(d->key[d->n]);
			free(d->val[d->n]);
			goto oom;
		}
		d->n++;
	}
	free(line);
	fclose(f);
	return 0;
oom:
	free(line);
	fclose(f);
	guest_pairs_free(d);
	errbuf_set(err, "out of memory reading '%s'", path);
	return -1;
}

/* What a plan reads of the tree. */
struct guest_tree {
	struct guest_pairs dep, soft, alias;
};

/*
 * The plan being made: files in load order, none twice, a soft
 * dependency's with '?' before it (its failure to load is no error: an
 * accelerated crc32c needs an instruction the guest's CPU may not have,
 * and the generic one is there beside it); depth bounds a loop in a
 * damaged file.
 */
struct guest_plan {
	char **paths;
	size_t n;
};

static int guest_plan_add(const struct guest_tree *t, const char *file, struct guest_plan *p, int depth,
			  int soft);

/* The modules a name stands for: the module of that name, else those its alias names. */
static int guest_plan_name(const struct guest_tree *t, const char *name, struct guest_plan *p, int depth)
{
	char want[256], have[256];
	int found = 0;

	guest_module_name(name, want, sizeof(want));
	for (size_t i = 0; i < t->dep.n && !found; i++) {
		guest_module_name(t->dep.key[i], have, sizeof(have));
		if (strcmp(have, want) == 0) {
			found = 1;
			if (guest_plan_add(t, t->dep.key[i], p, depth, 1) < 0)
				return -1;
		}
	}
	/* No module and no alias: built in, or not built; a soft dependency may be neither. */
	for (size_t a = 0; a < t->alias.n && !found; a++)
		if (strcmp(t->alias.key[a], name) == 0 && strcmp(t->alias.val[a], name) != 0 &&
		    depth < 64 && guest_plan_name(t, t->alias.val[a], p, depth + 1) < 0)
			return -1;
	return 0;
}

/* The soft dependencies of module name, "pre:" or "post:" (which). */
static int guest_plan_soft(const struct guest_tree *t, const char *name, const char *which,
			   struct guest_plan *p, int depth)
{
	for (size_t i = 0; i < t->soft.n; i++) {
		char key[256], *list, *at, *save = NULL, *tok;

		guest_module_name(t->soft.key[i], key, sizeof(key));
		if (strcmp(key, name) != 0 || !(at = strstr(t->soft.val[i], which)))
			continue;
		if (!(list = strdup(at + strlen(which))))
			return -1;
		for (tok = strtok_r(list, " \t", &save); tok && !strchr(tok, ':');
		     tok = strtok_r(NULL, " \t", &save))
			if (guest_plan_name(t, tok, p, depth + 1) < 0) {
				free(list);
				return -1;
			}
		free(list);
	}
	return 0;
}

static int guest_plan_add(const struct guest_tree *t, const char *file, struct guest_plan *p, int depth,
			  int soft)
{
	char name[256], *needs, *save = NULL, *tok, **more, *list[256];
	size_t at = t->dep.n;
	int nl = 0;

	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->paths[i] + (p->paths[i][0] == '?'), file) == 0) {
			/* Needed for sure after all: no longer optional. */
			if (!soft && p->paths[i][0] == '?')
				memmove(p->paths[i], p->paths[i] + 1, strlen(p->paths[i]));
			return 0;
		}
	if (depth >= 64)
		return 0;
	for (size_t i = 0; i < t->dep.n && at == t->dep.n; i++)
		if (strcmp(t->dep.key[i], file) == 0)
			at = i;
	guest_module_name(file, name, sizeof(name));
	if (guest_plan_soft(t, name, "pre:", p, depth) < 0)
		return -1;
	/* What it needs first, the line's last first, as modprobe loads them. */
	if (at < t->dep.n) {
		if (!(needs = strdup(t->dep.val[at])))
			return -1;
		for (tok = strtok_r(needs, " \t", &save); tok && nl < 256; tok = strtok_r(NULL, " \t", &save))
			list[nl++] = tok;
		while (nl-- > 0)
			if (guest_plan_add(t, list[nl], p, depth + 1, soft) < 0) {
				free(needs);
				return -1;
			}
		free(needs);
	}
	if (!(more = realloc(p->paths, (p->n + 1) * sizeof(*more))))
		return -1;
	p->paths = more;
	if (!(p->paths[p->n] = malloc(strlen(file) + 2)))
		return -1;
	snprintf(p->paths[p->n++], strlen(file) + 2, "%s%s", soft ? "?" : "", file);
	return guest_plan_soft(t, name, "post:", p, depth);
}

int guest_modules_plan(const char *dir, const char *modules, char ***paths, size_t *n, char *err)
{
	struct guest_tree t;
	struct guest_plan p = { NULL, 0 };
	char *list, *save = NULL, *tok, want[256], have[256];
	int rc = 0;

	*paths = NULL;
	*n = 0;
	err[0] = '\0';
	memset(&t, 0, sizeof(t));
	if (guest_pairs_read(dir, "modules.dep", 'd', 1, &t.dep, err) < 0 ||
	    guest_pairs_read(dir, "modules.softdep", 's', 0, &t.soft, err) < 0 ||
	    guest_pairs_read(dir, "modules.alias", 'a', 0, &t.alias, err) < 0 || !(list = strdup(modules))) {
		if (!err[0])
			errbuf_set(err, "out of memory");
		guest_pairs_free(&t.dep);
		guest_pairs_free(&t.soft);
		guest_pairs_free(&t.alias);
		return -1;
	}
	for (tok = strtok_r(list, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		guest_module_name(tok, want, sizeof(want));
		for (i = 0; i < t.dep.n; i++) {
			guest_module_name(t.dep.key[i], have, sizeof(have));
			if (strcmp(have, want) == 0)
				break;
		}
		if (i == t.dep.n) {
			errbuf_set(err, "no module '%s' in '%s/modules.dep' (built into the kernel, or "
				   "another release's tree?)", tok, dir);
			rc = -1;
		} else if (guest_plan_add(&t, t.dep.key[i], &p, 0, 0) < 0) {
			errbuf_set(err, "out of memory");
			rc = -1;
		}
	}
	free(list);
	guest_pairs_free(&t.dep);
	guest_pairs_free(&t.soft);
	guest_pairs_free(&t.alias);
	if (rc < 0) {
		guest_modules_free(p.paths, p.n);
		return -1;
	}
	*paths = p.paths;
	*n = p.n;
	return 0;
}

void guest_modules_free(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

/* The directories of rel (a path in the tree) under GUEST_MODDIR, each once, parents first. */
static void guest_cpio_parents(struct cpio *c, const char *rel, char ***made, size_t *nmade)
{
	char path[PATH_MAX];
	size_t len = strlen(GUEST_MODDIR) - 1;

	snprintf(path, sizeof(path), "%s/%s", GUEST_MODDIR + 1, rel);
	for (char *slash = strchr(path + len + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		size_t i;
		char **more;

		*slash = '\0';
		for (i = 0; i < *nmade && strcmp((*made)[i], path) != 0; i++)
			;
		if (i == *nmade && (more = realloc(*made, (*nmade + 1) * sizeof(*more))) != NULL) {
			*made = more;
			if (((*made)[*nmade] = strdup(path)) != NULL) {
				(*nmade)++;
				(void)cpio_dir(c, path, 0755);
			}
		}
		*slash = '/';
	}
}

/* The whole tree, without --modprobe: every directory and regular file under GUEST_MODDIR. */
static struct cpio *guest_tree_cpio;
static size_t guest_tree_skip;
static char guest_tree_err[ERRBUF_LEN];

static int guest_tree_add(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	char name[PATH_MAX + 32];

	(void)sb;
	(void)ftw;
	if (strlen(path) <= guest_tree_skip)
		return 0;
	snprintf(name, sizeof(name), "%s%s", GUEST_MODDIR + 1, path + guest_tree_skip);
	if (type == FTW_D)
		return cpio_dir(guest_tree_cpio, name, 0755) < 0 ? -1 : 0;
	if (type == FTW_F)
		return cpio_copy(guest_tree_cpio, name, 0644, path, guest_tree_err) < 0 ? -1 : 0;
	return 0;
}

/*
 * --modules into the archive: under --modprobe, the modules and what they
 * need, and the list the init loads; else the whole tree, for a guest
 * whose own tools would load them.  0, or -1 with err.
 */
static int guest_initramfs_modules(const struct guest_cfg *cfg, struct cpio *c, char *err)
{
	char **paths = NULL, **made = NULL, src[PATH_MAX * 2], dst[PATH_MAX + 32];
	size_t n = 0, nmade = 0, listlen = 0;
	char *list = NULL;
	int ok = 1;

	(void)cpio_dir(c, "lib", 0755);
	(void)cpio_dir(c, "lib/modules", 0755);
	(void)cpio_dir(c, GUEST_MODDIR + 1, 0755);
	if (!cfg->modprobe) {
		guest_tree_cpio = c;
		guest_tree_skip = strlen(cfg->modules);
		guest_tree_err[0] = '\0';
		if (nftw(cfg->modules, guest_tree_add, 16, FTW_PHYS) != 0) {
			errbuf_set(err, "cannot put the module tree '%s' into the initramfs: %s",
				   cfg->modules, guest_tree_err[0] ? guest_tree_err : strerror(errno));
			return -1;
		}
		return 0;
	}
	if (guest_modules_plan(cfg->modules, cfg->modprobe, &paths, &n, err) < 0)
		return -1;
	for (size_t i = 0; ok && i < n; i++) {
		size_t len = strlen(GUEST_MODDIR) + strlen(paths[i]) + 3;
		char *more = realloc(list, listlen + len + 1);

		int soft = paths[i][0] == '?';
		const char *rel = paths[i] + soft;

		guest_cpio_parents(c, rel, &made, &nmade);
		snprintf(src, sizeof(src), "%s/%s", cfg->modules, rel);
		snprintf(dst, sizeof(dst), "%s/%s", GUEST_MODDIR + 1, rel);
		ok = cpio_copy(c, dst, 0644, src, err) == 0 && more != NULL;
		if (more) {
			list = more;
			listlen += (size_t)snprintf(list + listlen, len + 1, "%s%s/%s\n", soft ? "?" : "",
						    GUEST_MODDIR, rel);
		} else if (ok) {
			errbuf_set(err, "out of memory");
		}
	}
	if (ok)
		ok = cpio_file(c, GUEST_MODLIST + 1, 0644, list ? list : "", listlen) == 0;
	free(list);
	guest_modules_free(paths, n);
	guest_modules_free(made, nmade);
	return ok ? 0 : -1;
}

/* The initramfs: the mount points, the console's node, the init, the worker, the requests. */
static int guest_initramfs(const struct guest_cfg *cfg, const char *path, const struct guest_req *reqs,
			   size_t nreqs, char *err)
{
	static const char *const dirs[] = { "dev", "proc", "sys", "tmp", GUEST_REQDIR };
	struct cpio c;
	char name[64], e[128];
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f) {
		errbuf_set(err, "cannot write '%s': %s", path, err_errno_text(errno, e, sizeof(e)));
		return -1;
	}
	cpio_begin(&c, f, 0);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++)
		(void)cpio_dir(&c, dirs[i], 0755);
	(void)cpio_chardev(&c, "dev/console", 0600, 5, 1);
	ok = cpio_copy(&c, "init", 0755, cfg->init, err) == 0 &&
	     cpio_copy(&c, GUEST_WORKER, 0755, cfg->worker, err) == 0 &&
	     cpio_copy(&c, GUEST_TINY, 0755, cfg->tiny, err) == 0;
	if (ok && cfg->modules)
		ok = guest_initramfs_modules(cfg, &c, err) == 0;
	for (size_t i = 0; ok && i < nreqs; i++) {
		snprintf(name, sizeof(name), "%s/%05zu", GUEST_REQDIR, i);
		ok = cpio_file(&c, name, 0600, reqs[i].data, reqs[i].len) == 0;
	}
	if (cpio_end(&c) < 0 && ok) {
		errbuf_set(err, "cannot write '%s': %s", path, err_errno_text(errno, e, sizeof(e)));
		ok = 0;
	}
	if (fclose(f) != 0 && ok) {
		errbuf_set(err, "cannot write '%s': %s", path, err_errno_text(errno, e, sizeof(e)));
		ok = 0;
	}
	return ok ? 0 : -1;
}

/* A file of the private directory, whole, NUL after it (malloc'd; "" when it is not there). */
static char *guest_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, got;

	*len = 0;
	do {
		if (*len + 1 >= cap) {
			char *more = cap >= GUEST_PORT_MAX ? NULL : realloc(buf, cap = cap ? 2 * cap : 65536);

			if (!more)
				break;
			buf = more;
		}
		got = f ? fread(buf + *len, 1, cap - *len - 1, f) : 0;
		*len += got;
	} while (got > 0);
	if (f)
		fclose(f);
	if (buf)
		buf[*len] = '\0';
	return buf;
}

/* Why a boot gave no result, from the kernel's console, the init's records and qemu's log. */
static void guest_why(const struct guest_cfg *cfg, const struct guest_out *out, int status,
		      int late, char *err)
{
	char path[PATH_MAX + 16], line[200] = "";
	size_t len;
	char *con;

	snprintf(path, sizeof(path), "%s/console", cfg->dir);
	con = guest_slurp(path, &len);
	for (size_t i = 0; i < out->nrecs; i++)
		if (strcmp(out->recs[i].tag, CONSOLE_ERR) == 0) {
			errbuf_set(err, "the guest's init stopped: %.200s", (const char *)out->recs[i].data);
			free(con);
			return;
		}
	if (con && console_panic(con, len, line, sizeof(line))) {
		errbuf_set(err, "the guest panicked: %s", line);
	} else if (late) {
		console_last_line(con ? con : "", len, line, sizeof(line));
		errbuf_set(err, "the guest gave no result within %g s (--timeout); its console's last "
			   "line: %s", cfg->timeout_s, line[0] ? line : "(none)");
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		free(con);
		snprintf(path, sizeof(path), "%s/qemu.log", cfg->dir);
		con = guest_slurp(path, &len);
		console_last_line(con ? con : "", len, line, sizeof(line));
		errbuf_set(err, "qemu failed (%s %d): %s", WIFEXITED(status) ? "exit status" : "signal",
			   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			   line[0] ? line : "it said nothing");
	} else {
		console_last_line(con ? con : "", len, line, sizeof(line));
		errbuf_set(err, "the guest stopped before its results; its console's last line: %s",
			   line[0] ? line : "(none)");
	}
	free(con);
}

/* The records of the port, and the guest's description checked: 0, or -1 with err. */
static int guest_read(const struct guest_cfg *cfg, struct guest_out *out, int *ended, char *err)
{
	char path[PATH_MAX + 16];
	size_t len;
	char *data;
	int rc;

	*ended = 0;
	snprintf(path, sizeof(path), "%s/data", cfg->dir);
	data = guest_slurp(path, &len);
	rc = console_parse(data ? data : "", len, &out->recs, &out->nrecs, err);
	free(data);
	if (rc < 0)
		return -1;
	for (size_t i = 0; i < out->nrecs; i++) {
		const struct console_rec *r = &out->recs[i];

		if (strcmp(r->tag, CONSOLE_SYS) == 0) {
			if (r->len != sizeof(out->sys)) {
				errbuf_set(err, "the guest's init is not this kbench's (its description "
					   "has %zu bytes, not %zu)", r->len, sizeof(out->sys));
				return -1;
			}
			memcpy(&out->sys, r->data, sizeof(out->sys));
			out->sys.build_id[WIRE_ID_LEN - 1] = '\0';
		}
		*ended |= strcmp(r->tag, CONSOLE_END) == 0;
	}
	return 0;
}

int guest_boot(const struct guest_cfg *cfg, const struct guest_kernel *k,
	       const struct guest_req *reqs, size_t nreqs, struct guest_out *out, char *err)
{
	char initrd[PATH_MAX + 16], con[PATH_MAX + 32], data[PATH_MAX + 32], qlog[PATH_MAX + 16];
	char append[1024], smp[16], mem[16], e[128];
	const char *argv[40];
	size_t n = 0;
	uint64_t t0;
	int status = 0, ended = 0, late = 0, rc;
	struct timespec nap = { 0, GUEST_POLL_NS };
	double deadline;
	pid_t pid;

	memset(out, 0, sizeof(*out));
	snprintf(initrd, sizeof(initrd), "%s/initramfs", cfg->dir);
	snprintf(qlog, sizeof(qlog), "%s/qemu.log", cfg->dir);
	if (guest_initramfs(cfg, initrd, reqs, nreqs, err) < 0) {
		unlink(initrd);
		return -1;
	}
	snprintf(con, sizeof(con), "file:%s/console", cfg->dir);
	snprintf(data, sizeof(data), "file:%s/data", cfg->dir);
	snprintf(append, sizeof(append), "%s%s%s", GUEST_CMDLINE, cfg->append ? " " : "",
		 cfg->append ? cfg->append : "");
	snprintf(smp, sizeof(smp), "%d", GUEST_CPUS);
	snprintf(mem, sizeof(mem), "%d", GUEST_MEM_MB);
	argv[n++] = cfg->qemu;
	argv[n++] = "-accel";
	argv[n++] = guest_accel_name(cfg->accel);
	if (cfg->accel == GUEST_KVM) {
		argv[n++] = "-cpu";
		argv[n++] = "host";
	}
	argv[n++] = "-smp";
	argv[n++] = smp;
	argv[n++] = "-m";
	argv[n++] = mem;
	argv[n++] = "-nodefaults";
	argv[n++] = "-no-user-config";
	argv[n++] = "-display";
	argv[n++] = "none";
	argv[n++] = "-no-reboot";
	argv[n++] = "-kernel";
	argv[n++] = k->image;
	argv[n++] = "-initrd";
	argv[n++] = initrd;
	argv[n++] = "-append";
	argv[n++] = append;
	argv[n++] = "-serial";
	argv[n++] = con;
	argv[n++] = "-serial";
	argv[n++] = data;
	argv[n] = NULL;

	fflush(NULL);
	t0 = timer_now();
	pid = fork();
	if (pid < 0) {
		errbuf_set(err, "cannot fork: %s", err_errno_text(errno, e, sizeof(e)));
		unlink(initrd);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY), lf = open(qlog, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		setpgid(0, 0);
		plat_child_signals();
		if (plat_die_with_parent(SIGKILL) == 0 && getppid() == 1)
			_exit(1);
		/* The janitor removes the directory only once qemu, holding this, is gone. */
		if (cfg->jan && cfg->jan->lifeline >= 0)
			fcntl(cfg->jan->lifeline, F_SETFD, 0);
		if (null < 0 || lf < 0 || dup2(null, 0) < 0 || dup2(lf, 1) < 0 || dup2(lf, 2) < 0)
			_exit(126);
		execv(cfg->qemu, (char *const *)argv);
		_exit(127);
	}
	setpgid(pid, pid);
	if (cfg->jan)
		runner_janitor_group(cfg->jan, pid);
	deadline = (double)timer_now() / 1e9 + cfg->timeout_s;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid || (w < 0 && errno != EINTR))
			break;
		if (runner_interrupted() || (double)timer_now() / 1e9 > deadline) {
			late = !runner_interrupted();
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			break;
		}
		if (runner_stop_pending())
			deadline += (double)runner_stop_group(pid) / 1e9;
		nanosleep(&nap, NULL);
	}
	out->seconds = (double)(timer_now() - t0) / 1e9;
	if (cfg->jan)
		runner_janitor_ungroup(cfg->jan, pid);
	unlink(initrd);
	if (runner_interrupted()) {
		rc = 1;
	} else if (guest_read(cfg, out, &ended, err) < 0) {
		rc = -1;
	} else if (!ended || late) {
		guest_why(cfg, out, status, late, err);
		rc = -1;
	} else {
		rc = 0;
	}
	snprintf(con, sizeof(con), "%s/console", cfg->dir);
	snprintf(data, sizeof(data), "%s/data", cfg->dir);
	unlink(con);
	unlink(data);
	unlink(qlog);
	if (rc != 0)
		guest_out_free(out);
	return rc;
}

void guest_out_free(struct guest_out *out)
{
	console_free(out->recs, out->nrecs);
	out->recs = NULL;
	out->nrecs = 0;
}

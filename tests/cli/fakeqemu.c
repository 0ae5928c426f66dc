/*
 * A stand-in for qemu-system-x86_64 in the tests of kbench kernels and
 * bisect ($KBENCH_QEMU): it boots nothing.  It reads the initramfs kbench
 * wrote (-initrd), answers each request in it with a made-up result of
 * this build's wire format, and writes the records to the second -serial
 * file as the guest's init would, so that the rounds, the storing, the
 * paired statistics and a bisection's halving run in a fraction of a
 * second, under the sanitizers too, and with figures known in advance.
 * What it must not do: measure anything, or stand for a real boot in a
 * test of what a guest is.
 *
 * The fake kernel (-kernel, a bzImage header written by the test) says
 * how it behaves in its release string: "+x1.30" in it makes its figures
 * 1.30 times the base (100 of the figure's unit), each boot within 0.2%;
 * "noisy" within 30%; "panic" panics on the console before any record;
 * "hang" never powers off.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build_id.h"
#include "core/result.h"
#include "core/wire.h"
#include "guest/console.h"
#include "guest/guest.h"

static const char *fake_arg(int argc, char **argv, const char *opt, int nth)
{
	for (int i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], opt) == 0 && nth-- == 0)
			return argv[i + 1];
	return NULL;
}

/* A file's bytes, whole (malloc'd). */
static unsigned char *fake_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	long n;

	if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
	    !(buf = malloc((size_t)n + 1)) || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "fakeqemu: cannot read '%s'\n", path);
		exit(1);
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static unsigned long fake_hex(const unsigned char *p)
{
	char s[9];

	memcpy(s, p, 8);
	s[8] = '\0';
	return strtoul(s, NULL, 16);
}

/* The reply to one request: a result near base, as the worker would send it. */
static void fake_answer(int port, unsigned index, const unsigned char *req, size_t len,
			double base, double amp, uint32_t salt)
{
	char err[ERRBUF_LEN];
	struct wire_request rq;
	struct result r;
	FILE *in = tmpfile(), *out = tmpfile();
	int foreign = 0;
	double u, v;
	long n;
	char *buf;

	if (!in || !out || fwrite(req, 1, len, in) != len || fflush(in) != 0 || fseek(in, 0, SEEK_SET) != 0)
		exit(1);
	if (wire_request_read(fileno(in), KB_BUILD_ID, &rq, &foreign, err) < 0) {
		(void)console_put(port, CONSOLE_DIED, index, err, strlen(err));
		fclose(in);
		fclose(out);
		return;
	}
	u = (double)(console_crc32(req, len) ^ salt) / 4294967295.0 * 2 - 1;
	v = base * (1 + amp * u);
	result_init(&r, rq.b);
	r.status = RES_OK;
	r.placement = rq.hc.placement;
	r.n = 8;
	r.samples = malloc(r.n * sizeof(*r.samples));
	for (size_t i = 0; r.samples && i < r.n; i++)
		r.samples[i] = v * (1 + 0.0001 * (double)i);
	r.level = r.median = r.mean = r.min = r.p5 = v;
	r.max = r.p95 = v * 1.0007;
	r.level_low = r.ci_low = v * 0.9995;
	r.level_high = r.ci_high = v * 1.0005;
	r.stddev = v * 0.0002;
	r.cv = 0.0002;
	r.iterations = 1000;
	r.stop = STOP_PRECISION;
	r.interference = -1;
	r.wall_s = 0.01;
	if (wire_reply_write(fileno(out), KB_BUILD_ID, 0) < 0 || wire_result_write(fileno(out), &r) < 0 ||
	    (n = lseek(fileno(out), 0, SEEK_END)) < 0 || !(buf = malloc((size_t)n)) ||
	    pread(fileno(out), buf, (size_t)n, 0) != n)
		exit(1);
	(void)console_put(port, CONSOLE_RES, index, buf, (size_t)n);
	free(buf);
	result_free(&r);
	wire_request_free(&rq);
	fclose(in);
	fclose(out);
}

int main(int argc, char **argv)
{
	const char *kernel = fake_arg(argc, argv, "-kernel", 0), *initrd = fake_arg(argc, argv, "-initrd", 0);
	const char *con = fake_arg(argc, argv, "-serial", 0), *data = fake_arg(argc, argv, "-serial", 1);
	static struct guest_sys sys;
	char release[128];
	const char *x;
	double factor = 1, amp = 0.002;
	unsigned char *cpio;
	size_t len, at = 0;
	unsigned nreq = 0;
	FILE *cf, *df, *lf;
	int port;

	if (!kernel || !initrd || !con || !data || strncmp(con, "file:", 5) != 0 ||
	    strncmp(data, "file:", 5) != 0) {
		fprintf(stderr, "fakeqemu: give -kernel, -initrd and two -serial file:PATH\n");
		return 1;
	}
	if (guest_image_release(kernel, release, sizeof(release)) < 0) {
		fprintf(stderr, "fakeqemu: '%s' is no bzImage\n", kernel);
		return 1;
	}
	if (!(cf = fopen(con + 5, "w")) || !(df = fopen(data + 5, "w")))
		return 1;
	fprintf(cf, "Linux version %s (fake)\n", release);
	fflush(cf);
	if (strstr(release, "panic")) {
		fprintf(cf, "Kernel panic - not syncing: fake kernel told to panic\n");
		return 0;
	}
	while (strstr(release, "hang"))
		pause();
	if ((x = strstr(release, "+x")) && x[2] >= '0' && x[2] <= '9')
		factor = strtod(x + 2, NULL);
	if (strstr(release, "noisy"))
		amp = 0.3;
	port = fileno(df);

	snprintf(sys.build_id, sizeof(sys.build_id), "%s", KB_BUILD_ID);
	sys.pre.ti = (struct timer_info){ 20, 1, 0.3 };
	sys.pre.mhz = 1000;
	snprintf(sys.si.os, sizeof(sys.si.os), "Linux");
	snprintf(sys.si.release, sizeof(sys.si.release), "%s", release);
	snprintf(sys.si.arch, sizeof(sys.si.arch), "x86_64");
	snprintf(sys.si.clocksource, sizeof(sys.si.clocksource), "fake");
	sys.si.ncpu_online = GUEST_CPUS;
	(void)console_put(port, CONSOLE_SYS, 0, &sys, sizeof(sys));

	cpio = fake_slurp(initrd, &len);
	/* $FAKEQEMU_LIST: the archive's entries, a name a line, and the module list's text after them. */
	lf = getenv("FAKEQEMU_LIST") ? fopen(getenv("FAKEQEMU_LIST"), "w") : NULL;
	while (at + 110 <= len && memcmp(cpio + at, "070701", 6) == 0) {
		unsigned long size = fake_hex(cpio + at + 54), namesize = fake_hex(cpio + at + 94);
		const char *name = (const char *)cpio + at + 110;
		size_t body = (at + 110 + namesize + 3) & ~(size_t)3;

		if (body + size > len)
			break;
		if (strcmp(name, "TRAILER!!!") == 0)
			break;
		if (lf)
			fprintf(lf, "%s\n", name);
		if (lf && strcmp(name, GUEST_MODLIST + 1) == 0)
			fprintf(lf, "%.*s", (int)size, (const char *)cpio + body);
		/* The archive's names have no leading '/': "kb/00000". */
		if (strncmp(name, GUEST_REQDIR + 1, strlen(GUEST_REQDIR) - 1) == 0 &&
		    name[strlen(GUEST_REQDIR) - 1] == '/') {
			fake_answer(port, (unsigned)strtoul(name + strlen(GUEST_REQDIR), NULL, 10),
				    cpio + body, size, 100 * factor, amp, console_crc32(release, strlen(release)));
			nreq++;
		}
		at = (body + size + 3) & ~(size_t)3;
	}
	free(cpio);
	if (lf)
		fclose(lf);
	(void)console_put(port, CONSOLE_END, nreq, "", 0);
	fclose(df);
	fclose(cf);
	return 0;
}

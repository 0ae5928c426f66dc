/*
 * The measuring process's side of a request (worker.h): read it, measure,
 * reply, exit.  A request of another build is refused with this build's
 * id, so kbench can say which worker it found; one that cannot be read
 * ends the process with a status of its own and nothing measured.
 */
#include "core/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/companion.h"
#include "core/err.h"
#include "core/sysinfo.h"
#include "core/wire.h"
#include "plat/plat.h"

/* Exit statuses kbench's runner reads (besides 0). */
enum {
	WORKER_EXIT_HARNESS = 3,	/* the harness ran out of memory */
	WORKER_EXIT_REPLY = 4,		/* the reply could not be written */
	WORKER_EXIT_REQUEST = 5,	/* the request could not be read */
	WORKER_EXIT_FOREIGN = 6,	/* another build's request: refused */
};

static int worker_number(const char *s, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return errno || end == s || *end ? -1 : 0;
}

static void worker_signals(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
}

/* One replica: measure, send the result. */
static _Noreturn void worker_measure(const struct wire_request *rq, const char *build_id, int fd)
{
	struct result r;
	const char *hang = getenv("KBENCH_TEST_HANG");
	int code = 0;

	plat_inject_from_env();
	/*
	 * Test hook: make one benchmark hang so the watchdog, or a signal to
	 * kbench, can be seen at work.  A file "hanging" in the replica's
	 * private directory says it has begun, for a test to wait for.
	 */
	if (hang && strcmp(hang, rq->b->id) == 0) {
		char at[PATH_MAX + 16];
		int mark;

		snprintf(at, sizeof(at), "%s/hanging", rq->hc.tmpdir);
		mark = open(at, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
		if (mark >= 0)
			close(mark);
		for (;;)
			pause();
	}
	if (harness_run(rq->b, &rq->hc, &r) < 0)
		_exit(WORKER_EXIT_HARNESS);
	if (wire_reply_write(fd, build_id, 0) < 0 || wire_result_write(fd, &r) < 0)
		code = WORKER_EXIT_REPLY;
	result_free(&r);
	_exit(code);
}

/*
 * A session's prelude: the clock's cost and step and the machine's MHz;
 * or a run's: the sentinel's iterations, calibrated under the clock
 * figures the request carries, and the first point of its timeline.
 */
static _Noreturn void worker_prelude(struct wire_request *rq, const char *build_id, int fd)
{
	struct wire_prelude p;

	memset(&p, 0, sizeof(p));
	p.mhz = (double)NAN;
	p.first.t = (double)NAN;
	p.first.sys_ns = p.first.user_ns = (double)NAN;
	p.first.cpu = -1;
	if (rq->kind == WIRE_PRELUDE) {
		timer_measure(&p.ti);
		p.mhz = sysinfo_measure_mhz();
	} else if (rq->hc.sentinel_sys || rq->hc.sentinel_user) {
		rq->hc.sentinel_nsys = rq->hc.sentinel_nuser = 0;
		harness_sentinel(&rq->hc, &p.nsys, &p.nuser, &p.first);
	}
	if (wire_reply_write(fd, build_id, 0) < 0 || plat_full_io(fd, &p, sizeof(p), 1) < 0)
		_exit(WORKER_EXIT_REPLY);
	_exit(0);
}

/* The launcher of a timed job's copy (wire.h); returns only on bad arguments. */
static int worker_launch(int argc, char **argv)
{
	struct wire_launch m;
	struct timespec ts;
	long copy, barrier, report;
	char c;

	if (argc < 7 || worker_number(argv[2], &copy) < 0 || worker_number(argv[3], &barrier) < 0 ||
	    worker_number(argv[4], &report) < 0 || strcmp(argv[5], "--") != 0 || copy < 0) {
		fputs("kbench-worker: --kbench-launch is kbench time's, not to be run by hand\n", stderr);
		return EXIT_USAGE;
	}
	memset(&m, 0, sizeof(m));
	m.copy = (int)copy;
	while (read((int)barrier, &c, 1) < 0 && errno == EINTR)
		;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	m.start = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	close((int)barrier);
	(void)getrusage(RUSAGE_SELF, &m.before);
	if (write((int)report, &m, sizeof(m)) != (ssize_t)sizeof(m))
		_exit(126);
	fcntl((int)report, F_SETFD, FD_CLOEXEC);
	execvp(argv[6], argv + 6);
	m.err = errno;
	(void)write((int)report, &m, sizeof(m));
	_exit(127);
}

int worker_main(int argc, char **argv, const char *build_id)
{
	struct wire_request rq;
	char err[ERRBUF_LEN];
	long req, fd, life, parent;
	int foreign;

	if (argc == 2 && strcmp(argv[1], "--build-id") == 0) {
		printf("%s\n", build_id);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if (argc > 1 && strcmp(argv[1], WIRE_LAUNCH_ARG) == 0)
		return worker_launch(argc, argv);
	companion_remember(argv[0]);
	if (argc < 6 || strcmp(argv[1], WIRE_ARG) != 0 || worker_number(argv[2], &req) < 0 ||
	    worker_number(argv[3], &fd) < 0 || worker_number(argv[4], &life) < 0 ||
	    worker_number(argv[5], &parent) < 0) {
		fputs("kbench-worker: kbench's measuring process, started by kbench; not to be run "
		      "by hand ('kbench run' measures)\n", stderr);
		return EXIT_USAGE;
	}
	worker_signals();
	/*
	 * The parent-death signal survived the exec; kbench may have died
	 * before it.  0: executed through a wrapper, whose parent is kbench.
	 */
	if (parent != 0 && getppid() != (pid_t)parent)
		_exit(1);
	/* The lifeline crossed the exec open; no program a benchmark starts may hold it. */
	if (life >= 0)
		fcntl((int)life, F_SETFD, FD_CLOEXEC);
	if (wire_request_read((int)req, build_id, &rq, &foreign, err) < 0) {
		if (foreign) {
			(void)wire_reply_write((int)fd, build_id, 1);
			_exit(WORKER_EXIT_FOREIGN);
		}
		_exit(WORKER_EXIT_REQUEST);
	}
	close((int)req);
	if (rq.kind != WIRE_MEASURE)
		worker_prelude(&rq, build_id, (int)fd);
	worker_measure(&rq, build_id, (int)fd);
}

/*
 * The requests and replies between kbench and kbench-worker (wire.h).
 * Everything read is checked before it is used: a request's sizes and
 * strings, a result's counts against the bytes that came; a reply from
 * another build is told apart from a broken one.
 */
#include "core/wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/registry.h"
#include "plat/plat.h"

#define WIRE_REQUEST_MAGIC 0x6b627732u	/* "kbw2" */
#define WIRE_REPLY_MAGIC 0x6b627252u	/* "kbrR" */
/* More prior results than any selection has rows is a broken request. */
#define WIRE_PRIOR_MAX 4096

/*
 * The request file: this head, then the private directory's path
 * (tmpdir_len bytes, no NUL), then each prior result with its points.
 * The path goes after the head and only as long as it is, so that a
 * request stays small (a file-size limit of a few KiB still lets it
 * through, and the store is what refuses).
 */
struct wire_head {
	uint32_t magic;
	uint32_t kind;
	char build_id[WIRE_ID_LEN];
	uint32_t cfg_size, result_size, point_size;	/* a check beside the build id */
	char id[sizeof(((struct result *)0)->id)];
	char sentinel_sys[sizeof(((struct result *)0)->id)];
	char sentinel_user[sizeof(((struct result *)0)->id)];
	uint32_t tmpdir_len;
	struct harness_cfg hc;		/* its pointers are rebuilt from the above */
	size_t nprior;
};

/* A row crosses by its id: it must be the registry's own to be found again. */
static int wire_row(char *dst, size_t len, const struct bench *b)
{
	if (!b) {
		dst[0] = '\0';
		return 0;
	}
	if (registry_find(b->id) != b || strlen(b->id) >= len)
		return -1;
	memcpy(dst, b->id, strlen(b->id) + 1);
	return 0;
}

int wire_request_write(const char *dir, enum wire_kind kind, const char *build_id,
		       const struct bench *b, const struct harness_cfg *hc)
{
	struct wire_head *h = calloc(1, sizeof(*h));
	const char *tmpdir = hc->tmpdir ? hc->tmpdir : "";
	char path[PATH_MAX];
	int fd = -1, ok, saved;

	if (!h)
		return -1;
	if (hc->clock.now != timer_monotonic.now || wire_row(h->id, sizeof(h->id), b) < 0 ||
	    wire_row(h->sentinel_sys, sizeof(h->sentinel_sys), hc->sentinel_sys) < 0 ||
	    wire_row(h->sentinel_user, sizeof(h->sentinel_user), hc->sentinel_user) < 0 ||
	    snprintf(h->build_id, sizeof(h->build_id), "%s", build_id) >= (int)sizeof(h->build_id) ||
	    strlen(tmpdir) >= PATH_MAX ||
	    snprintf(path, sizeof(path), "%s/.worker.XXXXXX", dir) >= (int)sizeof(path)) {
		free(h);
		errno = EINVAL;
		return -1;
	}
	if ((fd = mkstemp(path)) < 0) {
		free(h);
		return -1;
	}
	unlink(path);
	h->magic = WIRE_REQUEST_MAGIC;
	h->kind = (uint32_t)kind;
	h->cfg_size = sizeof(h->hc);
	h->result_size = sizeof(struct result);
	h->point_size = sizeof(struct result_point);
	h->hc = *hc;
	h->nprior = hc->nprior;
	h->tmpdir_len = (uint32_t)strlen(tmpdir);
	ok = plat_full_io(fd, h, sizeof(*h), 1) == 0 &&
	     (!h->tmpdir_len || plat_full_io(fd, (void *)tmpdir, h->tmpdir_len, 1) == 0);
	for (size_t i = 0; ok && i < hc->nprior; i++) {
		const struct result *p = &hc->prior[i];

		ok = plat_full_io(fd, (void *)p, sizeof(*p), 1) == 0 &&
		     (!p->npoints || plat_full_io(fd, p->points, p->npoints * sizeof(*p->points), 1) == 0);
	}
	free(h);
	if (!ok || lseek(fd, 0, SEEK_SET) != 0) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

/* Whether a fixed-size field holds a string. */
#define WIRE_STR(f) (memchr((f), 0, sizeof(f)) != NULL)

int wire_request_read(int fd, const char *build_id, struct wire_request *rq, int *foreign,
		      char *err)
{
	struct wire_head *h = calloc(1, sizeof(*h));
	int ok;

	memset(rq, 0, sizeof(*rq));
	*foreign = 0;
	if (!h) {
		errbuf_set(err, "out of memory");
		return -1;
	}
	if (plat_full_io(fd, h, sizeof(*h), 0) < 0 || h->magic != WIRE_REQUEST_MAGIC ||
	    !WIRE_STR(h->build_id)) {
		errbuf_set(err, "not a request of kbench's");
		free(h);
		return -1;
	}
	memcpy(rq->build_id, h->build_id, sizeof(rq->build_id));
	if (strcmp(h->build_id, build_id) != 0) {
		*foreign = 1;
		errbuf_set(err, "a request of another build of kbench (%s)", h->build_id);
		free(h);
		return -1;
	}
	ok = (h->kind == WIRE_MEASURE || h->kind == WIRE_PRELUDE || h->kind == WIRE_SENTINEL) && h->cfg_size == sizeof(h->hc) &&
	     h->result_size == sizeof(struct result) && h->point_size == sizeof(struct result_point) &&
	     h->nprior <= WIRE_PRIOR_MAX && WIRE_STR(h->id) && h->tmpdir_len < sizeof(rq->tmpdir) &&
	     WIRE_STR(h->sentinel_sys) && WIRE_STR(h->sentinel_user);
	rq->kind = (enum wire_kind)h->kind;
	if (ok && h->tmpdir_len)
		ok = plat_full_io(fd, rq->tmpdir, h->tmpdir_len, 0) == 0;
	if (ok && h->nprior)
		ok = (rq->prior = calloc(h->nprior, sizeof(*rq->prior))) != NULL;
	for (size_t i = 0; ok && i < h->nprior; i++) {
		struct result *p = &rq->prior[i];

		ok = plat_full_io(fd, p, sizeof(*p), 0) == 0 && p->npoints <= BENCH_MAX_POINTS;
		/* What another image's pointers pointed to: only the points came. */
		p->samples = NULL;
		p->n = 0;
		p->where = NULL;
		p->usage = NULL;
		p->buckets = NULL;
		p->nbuckets = 0;
		p->replicas = NULL;
		p->nreplicas = 0;
		p->points = NULL;
		if (ok && p->npoints) {
			p->points = malloc(p->npoints * sizeof(*p->points));
			ok = p->points &&
			     plat_full_io(fd, p->points, p->npoints * sizeof(*p->points), 0) == 0;
		}
	}
	if (ok && rq->kind == WIRE_MEASURE)
		ok = (rq->b = registry_find(h->id)) != NULL;
	if (!ok) {
		errbuf_set(err, "a request that could not be read whole");
		rq->hc.nprior = h->nprior;
		rq->hc.prior = rq->prior;
		free(h);
		wire_request_free(rq);
		return -1;
	}
	rq->hc = h->hc;
	rq->hc.clock = timer_monotonic;
	rq->hc.tmpdir = rq->tmpdir;
	rq->hc.prior = rq->prior;
	rq->hc.nprior = h->nprior;
	rq->hc.sentinel_sys = h->sentinel_sys[0] ? registry_find(h->sentinel_sys) : NULL;
	rq->hc.sentinel_user = h->sentinel_user[0] ? registry_find(h->sentinel_user) : NULL;
	free(h);
	return 0;
}

void wire_request_free(struct wire_request *rq)
{
	for (size_t i = 0; rq->prior && i < rq->hc.nprior; i++)
		free(rq->prior[i].points);
	free(rq->prior);
	rq->prior = NULL;
}

int wire_reply_write(int fd, const char *build_id, int refused)
{
	struct wire_reply h;

	memset(&h, 0, sizeof(h));
	h.magic = WIRE_REPLY_MAGIC;
	h.refused = refused != 0;
	snprintf(h.build_id, sizeof(h.build_id), "%s", build_id);
	return plat_full_io(fd, &h, sizeof(h), 1);
}

int wire_reply_check(const char *buf, size_t len, const char *build_id, char *err, size_t errlen)
{
	struct wire_reply h;

	if (len < sizeof(h)) {
		snprintf(err, errlen, "it sent no reply kbench can read");
		return -1;
	}
	memcpy(&h, buf, sizeof(h));
	if (h.magic != WIRE_REPLY_MAGIC || !WIRE_STR(h.build_id)) {
		snprintf(err, errlen, "it sent no reply kbench can read");
		return -1;
	}
	if (h.refused || strcmp(h.build_id, build_id) != 0) {
		snprintf(err, errlen, "it is another build's (build %.12s, this kbench's %.12s)",
			 h.build_id, build_id);
		return -1;
	}
	return 0;
}

int wire_result_write(int fd, const struct result *r)
{
	if (plat_full_io(fd, (void *)r, sizeof(*r), 1) < 0 ||
	    (r->n && plat_full_io(fd, r->samples, r->n * sizeof(*r->samples), 1) < 0) ||
	    (r->npoints && plat_full_io(fd, r->points, r->npoints * sizeof(*r->points), 1) < 0) ||
	    (r->n && r->where && plat_full_io(fd, r->where, r->n * sizeof(*r->where), 1) < 0))
		return -1;
	return 0;
}

/*
 * The struct, its samples, a curve's points, and where each sample ran
 * (sent when the struct's pointer to them was set; its value means
 * nothing here).
 */
int wire_result_decode(const char *buf, size_t len, struct result *r)
{
	size_t nwhere;

	if (len < sizeof(*r))
		return -1;
	memcpy(r, buf, sizeof(*r));
	nwhere = r->where ? r->n : 0;
	r->samples = NULL;
	r->points = NULL;
	r->where = NULL;
	r->usage = NULL;	/* a benchmark has none; never the worker's pointer */
	/* The parent's merge makes the histogram of every replica's samples. */
	r->buckets = NULL;
	r->nbuckets = 0;
	r->replicas = NULL;
	r->nreplicas = 0;
	if (r->npoints > BENCH_MAX_POINTS || r->n > len ||
	    len != sizeof(*r) + r->n * sizeof(double) + r->npoints * sizeof(*r->points) +
			   nwhere * sizeof(*r->where)) {
		r->n = r->npoints = 0;
		return -1;
	}
	if (nwhere) {
		r->where = malloc(nwhere * sizeof(*r->where));
		if (!r->where)
			return -1;
		memcpy(r->where, buf + len - nwhere * sizeof(*r->where), nwhere * sizeof(*r->where));
	}
	if (r->n) {
		r->samples = malloc(r->n * sizeof(double));
		if (!r->samples)
			return -1;
		memcpy(r->samples, buf + sizeof(*r), r->n * sizeof(double));
	}
	if (r->npoints) {
		r->points = malloc(r->npoints * sizeof(*r->points));
		if (!r->points)
			return -1;
		memcpy(r->points, buf + sizeof(*r) + r->n * sizeof(double),
		       r->npoints * sizeof(*r->points));
	}
	return 0;
}

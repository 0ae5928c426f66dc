/*
 * The guest's records on its serial port (console.h): written by the
 * guest's init, read by kbench.
 */
#include "guest/console.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"

#define CONSOLE_MARK "kbench "

uint32_t console_crc32(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint32_t crc = 0xffffffffu;

	for (size_t i = 0; i < len; i++) {
		crc ^= p[i];
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
	}
	return ~crc;
}

static int console_write(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t k = write(fd, p, len);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		len -= (size_t)k;
	}
	return 0;
}

int console_put(int fd, const char *tag, unsigned index, const void *data, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = data;
	char buf[4096];
	size_t n;

	n = (size_t)snprintf(buf, sizeof(buf), CONSOLE_MARK "%s %u %zu %08x ", tag, index, len,
			     (unsigned)console_crc32(data, len));
	for (size_t i = 0; i < len; i++) {
		if (n + 3 > sizeof(buf)) {
			if (console_write(fd, buf, n) < 0)
				return -1;
			n = 0;
		}
		buf[n++] = hex[p[i] >> 4];
		buf[n++] = hex[p[i] & 15];
	}
	buf[n++] = '\n';
	return console_write(fd, buf, n);
}

static int console_nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One record's line (without its end) into r: 0, or -1 with err. */
static int console_line(const char *s, size_t len, struct console_rec *r, char *err)
{
	char head[96], tag[16];
	unsigned long long want;
	unsigned crc, index;
	size_t hlen, nhex;
	const char *hx;
	int used = 0;

	memset(r, 0, sizeof(*r));
	hlen = len < sizeof(head) - 1 ? len : sizeof(head) - 1;
	memcpy(head, s, hlen);
	head[hlen] = '\0';
	if (sscanf(head, CONSOLE_MARK "%15s %u %llu %8x %n", tag, &index, &want, &crc, &used) != 4 ||
	    !used || strlen(tag) >= sizeof(r->tag)) {
		errbuf_set(err, "a damaged record on the guest's port: '%.40s'", head);
		return -1;
	}
	hx = s + used;
	nhex = len - (size_t)used;
	while (nhex && (hx[nhex - 1] == '\r' || hx[nhex - 1] == ' '))
		nhex--;
	if (want > CONSOLE_MAX || nhex != 2 * want) {
		errbuf_set(err, "a damaged %s record on the guest's port: %zu hex digits for %llu bytes",
			   tag, nhex, want);
		return -1;
	}
	if (!(r->data = malloc((size_t)want + 1))) {
		errbuf_set(err, "out of memory reading the guest's port");
		return -1;
	}
	for (size_t i = 0; i < want; i++) {
		int hi = console_nibble(hx[2 * i]), lo = console_nibble(hx[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			free(r->data);
			r->data = NULL;
			errbuf_set(err, "a damaged %s record on the guest's port: not hex", tag);
			return -1;
		}
		r->data[i] = (unsigned char)(hi << 4 | lo);
	}
	r->data[want] = '\0';
	r->len = (size_t)want;
	if (console_crc32(r->data, r->len) != crc) {
		free(r->data);
		r->data = NULL;
		errbuf_set(err, "a damaged %s record on the guest's port: its CRC does not match", tag);
		return -1;
	}
	memcpy(r->tag, tag, strlen(tag) + 1);
	r->index = index;
	return 0;
}

int console_parse(const char *buf, size_t len, struct console_rec **recs, size_t *n, char *err)
{
	size_t cap = 0, at = 0;

	*recs = NULL;
	*n = 0;
	while (at < len) {
		const char *nl = memchr(buf + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - buf) : len;
		const char *line = buf + at;
		size_t llen = end - at;

		at = end + 1;
		/* A record may follow a kernel's message that lacked its line's end. */
		while (llen >= sizeof(CONSOLE_MARK) - 1 &&
		       memcmp(line, CONSOLE_MARK, sizeof(CONSOLE_MARK) - 1) != 0) {
			const char *m = memchr(line + 1, 'k', llen - 1);

			if (!m) {
				llen = 0;
				break;
			}
			llen -= (size_t)(m - line);
			line = m;
		}
		if (llen < sizeof(CONSOLE_MARK) - 1)
			continue;
		/* A line cut short by the guest's end is no record yet: only a whole one counts. */
		if (!nl)
			break;
		if (*n == cap) {
			struct console_rec *more = realloc(*recs, (cap = cap ? 2 * cap : 16) * sizeof(*more));

			if (!more) {
				errbuf_set(err, "out of memory reading the guest's port");
				console_free(*recs, *n);
				*recs = NULL;
				*n = 0;
				return -1;
			}
			*recs = more;
		}
		if (console_line(line, llen, &(*recs)[*n], err) < 0) {
			console_free(*recs, *n);
			*recs = NULL;
			*n = 0;
			return -1;
		}
		(*n)++;
	}
	return 0;
}

void console_free(struct console_rec *recs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(recs[i].data);
	free(recs);
}

/* Line [s, s + len) into out without its control characters. */
static void console_copy_line(const char *s, size_t len, char *out, size_t outlen)
{
	size_t k = 0;

	for (size_t i = 0; i < len && k + 1 < outlen; i++)
		if ((unsigned char)s[i] >= ' ' && s[i] != 0x7f)
			out[k++] = s[i];
	if (outlen)
		out[k] = '\0';
}

int console_panic(const char *buf, size_t len, char *line, size_t linelen)
{
	static const char mark[] = "Kernel panic";

	for (size_t i = 0; i + sizeof(mark) - 1 <= len; i++)
		if (buf[i] == 'K' && memcmp(buf + i, mark, sizeof(mark) - 1) == 0) {
			const char *nl = memchr(buf + i, '\n', len - i);
			size_t end = nl ? (size_t)(nl - buf) : len;

			console_copy_line(buf + i, end - i, line, linelen);
			return 1;
		}
	return 0;
}

void console_last_line(const char *buf, size_t len, char *line, size_t linelen)
{
	size_t end = len, start;

	if (linelen)
		line[0] = '\0';
	while (end > 0) {
		while (end > 0 && (buf[end - 1] == '\n' || buf[end - 1] == '\r' || buf[end - 1] == ' '))
			end--;
		start = end;
		while (start > 0 && buf[start - 1] != '\n')
			start--;
		console_copy_line(buf + start, end - start, line, linelen);
		if (linelen && line[0])
			return;
		end = start;
	}
}

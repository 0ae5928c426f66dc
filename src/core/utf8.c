/*
 * UTF-8 for the terminal (utf8.h): strict decoding, display columns from
 * kbench's own tables rather than wcwidth (which answers by the user's
 * locale, and kbench never sets one), and escaping.  Must not allocate:
 * the report code calls it for every cell.
 */
#include "core/utf8.h"

#include <stdio.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* A range of code points, inclusive. */
struct utf8_range {
	uint32_t lo, hi;
};

/*
 * Characters that take no column: combining marks (they sit on the
 * character before), zero-width spaces and joiners, variation selectors.
 * The common blocks, not every mark of every script: a mark missing here
 * costs one column of alignment in a rare script, nothing worse.
 */
static const struct utf8_range utf8_zero[] = {
	{ 0x0300, 0x036f }, { 0x0483, 0x0489 }, { 0x0591, 0x05bd }, { 0x05bf, 0x05bf },
	{ 0x05c1, 0x05c2 }, { 0x05c4, 0x05c5 }, { 0x05c7, 0x05c7 }, { 0x0610, 0x061a },
	{ 0x064b, 0x065f }, { 0x0670, 0x0670 }, { 0x06d6, 0x06dc }, { 0x06df, 0x06e4 },
	{ 0x06e7, 0x06e8 }, { 0x06ea, 0x06ed }, { 0x0711, 0x0711 }, { 0x0730, 0x074a },
	{ 0x07a6, 0x07b0 }, { 0x0900, 0x0902 }, { 0x093a, 0x093a }, { 0x093c, 0x093c },
	{ 0x0941, 0x0948 }, { 0x094d, 0x094d }, { 0x0951, 0x0957 }, { 0x0962, 0x0963 },
	{ 0x0981, 0x0981 }, { 0x09bc, 0x09bc }, { 0x09c1, 0x09c4 }, { 0x09cd, 0x09cd },
	{ 0x0e31, 0x0e31 }, { 0x0e34, 0x0e3a }, { 0x0e47, 0x0e4e }, { 0x0eb1, 0x0eb1 },
	{ 0x0eb4, 0x0ebc }, { 0x0ec8, 0x0ece }, { 0x1160, 0x11ff }, { 0x1ab0, 0x1aff },
	{ 0x1dc0, 0x1dff }, { 0x200b, 0x200d }, { 0x2060, 0x2064 }, { 0x20d0, 0x20ff },
	{ 0x302a, 0x302d }, { 0x3099, 0x309a }, { 0xfe00, 0xfe0f }, { 0xfe20, 0xfe2f },
	{ 0xfeff, 0xfeff }, { 0xe0001, 0xe0001 }, { 0xe0020, 0xe007f }, { 0xe0100, 0xe01ef },
};

/*
 * Characters that take two columns: Unicode's East Asian Wide and
 * Fullwidth ranges (Hangul, CJK, kana, fullwidth forms) and the emoji shown
 * as pictures, as terminals draw them.
 */
static const struct utf8_range utf8_wide[] = {
	{ 0x1100, 0x115f }, { 0x231a, 0x231b }, { 0x2329, 0x232a }, { 0x23e9, 0x23ec },
	{ 0x23f0, 0x23f0 }, { 0x23f3, 0x23f3 }, { 0x25fd, 0x25fe }, { 0x2614, 0x2615 },
	{ 0x2648, 0x2653 }, { 0x267f, 0x267f }, { 0x2693, 0x2693 }, { 0x26a1, 0x26a1 },
	{ 0x26aa, 0x26ab }, { 0x26bd, 0x26be }, { 0x26c4, 0x26c5 }, { 0x26ce, 0x26ce },
	{ 0x26d4, 0x26d4 }, { 0x26ea, 0x26ea }, { 0x26f2, 0x26f3 }, { 0x26f5, 0x26f5 },
	{ 0x26fa, 0x26fa }, { 0x26fd, 0x26fd }, { 0x2705, 0x2705 }, { 0x270a, 0x270b },
	{ 0x2728, 0x2728 }, { 0x274c, 0x274c }, { 0x274e, 0x274e }, { 0x2753, 0x2755 },
	{ 0x2757, 0x2757 }, { 0x2795, 0x2797 }, { 0x27b0, 0x27b0 }, { 0x27bf, 0x27bf },
	{ 0x2b1b, 0x2b1c }, { 0x2b50, 0x2b50 }, { 0x2b55, 0x2b55 }, { 0x2e80, 0x3029 },
	{ 0x302e, 0x303e }, { 0x3041, 0x3098 }, { 0x309b, 0x33ff }, { 0x3400, 0x4dbf },
	{ 0x4e00, 0x9fff }, { 0xa000, 0xa4cf }, { 0xa960, 0xa97f }, { 0xac00, 0xd7a3 },
	{ 0xf900, 0xfaff }, { 0xfe10, 0xfe19 }, { 0xfe30, 0xfe6f }, { 0xff00, 0xff60 },
	{ 0xffe0, 0xffe6 }, { 0x16fe0, 0x16fe4 }, { 0x17000, 0x18cff }, { 0x1b000, 0x1b2ff },
	{ 0x1f004, 0x1f004 }, { 0x1f0cf, 0x1f0cf }, { 0x1f18e, 0x1f18e }, { 0x1f191, 0x1f19a },
	{ 0x1f200, 0x1f202 }, { 0x1f210, 0x1f23b }, { 0x1f240, 0x1f248 }, { 0x1f250, 0x1f251 },
	{ 0x1f260, 0x1f265 }, { 0x1f300, 0x1f320 }, { 0x1f32d, 0x1f335 }, { 0x1f337, 0x1f37c },
	{ 0x1f37e, 0x1f393 }, { 0x1f3a0, 0x1f3ca }, { 0x1f3cf, 0x1f3d3 }, { 0x1f3e0, 0x1f3f0 },
	{ 0x1f3f4, 0x1f3f4 }, { 0x1f3f8, 0x1f43e }, { 0x1f440, 0x1f440 }, { 0x1f442, 0x1f4fc },
	{ 0x1f4ff, 0x1f53d }, { 0x1f54b, 0x1f54e }, { 0x1f550, 0x1f567 }, { 0x1f57a, 0x1f57a },
	{ 0x1f595, 0x1f596 }, { 0x1f5a4, 0x1f5a4 }, { 0x1f5fb, 0x1f64f }, { 0x1f680, 0x1f6c5 },
	{ 0x1f6cc, 0x1f6cc }, { 0x1f6d0, 0x1f6d2 }, { 0x1f6d5, 0x1f6d7 }, { 0x1f6dc, 0x1f6df },
	{ 0x1f6eb, 0x1f6ec }, { 0x1f6f4, 0x1f6fc }, { 0x1f7e0, 0x1f7eb }, { 0x1f7f0, 0x1f7f0 },
	{ 0x1f90c, 0x1f93a }, { 0x1f93c, 0x1f945 }, { 0x1f947, 0x1f9ff }, { 0x1fa70, 0x1faff },
	{ 0x20000, 0x2fffd }, { 0x30000, 0x3fffd },
};

/*
 * Controls beyond C0, DEL and C1 that a terminal obeys instead of showing:
 * the line and paragraph separators, and the bidirectional marks,
 * embeddings, overrides and isolates ("Trojan Source"), which can make a
 * row read as another.
 */
static const struct utf8_range utf8_ctl[] = {
	{ 0x061c, 0x061c }, { 0x200e, 0x200f }, { 0x2028, 0x202e }, { 0x2066, 0x2069 },
};

static int utf8_in(const struct utf8_range *r, size_t n, uint32_t cp)
{
	size_t lo = 0, hi = n;

	/* The tables are sorted: a binary search. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cp < r[mid].lo)
			hi = mid;
		else if (cp > r[mid].hi)
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

size_t utf8_next(const char *str, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t c, min;
	size_t len;

	if (s[0] < 0x80) {
		*cp = s[0];
		return s[0] ? 1 : 0;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1fu;
		min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0fu;
		min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07u;
		min = 0x10000;
	} else {
		return 0;	/* a continuation byte, or C0, C1, F5-FF: never a start */
	}
	for (size_t i = 1; i < len; i++) {
		/* A NUL is not a continuation byte, so a cut sequence stops here. */
		if ((s[i] & 0xc0u) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3fu);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

int utf8_is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) ||
	       utf8_in(utf8_ctl, NELEM(utf8_ctl), cp);
}

int utf8_cp_width(uint32_t cp)
{
	if (utf8_in(utf8_zero, NELEM(utf8_zero), cp))
		return 0;
	if (utf8_in(utf8_wide, NELEM(utf8_wide), cp))
		return 2;
	return 1;
}

/*
 * The next piece of s as it is printed: into out (at least 16 bytes) its
 * bytes, *len of s consumed, and its columns returned.
 */
static int utf8_piece(const char *s, char *out, size_t *outlen, size_t *len)
{
	uint32_t cp;
	size_t n = utf8_next(s, &cp);

	if (n == 0) {
		*len = 1;
		*outlen = (size_t)snprintf(out, 16, "\\x%02x", (unsigned char)s[0]);
		return (int)*outlen;
	}
	*len = n;
	if (utf8_is_control(cp)) {
		if (cp == '\t' || cp == '\n' || cp == '\r')
			*outlen = (size_t)snprintf(out, 16, "\\%c",
						   cp == '\t' ? 't' : cp == '\n' ? 'n' : 'r');
		else if (cp < 0x80)
			*outlen = (size_t)snprintf(out, 16, "\\x%02x", (unsigned)cp);
		else
			*outlen = (size_t)snprintf(out, 16, "\\u%04x", (unsigned)cp);
		return (int)*outlen;
	}
	memcpy(out, s, n);
	*outlen = n;
	return utf8_cp_width(cp);
}

int utf8_escape(char *buf, size_t size, const char *s, int maxcols)
{
	size_t used = 0, len, outlen;
	int cols = 0, w;
	char piece[16];

	if (size == 0)
		return 0;
	while (*s) {
		w = utf8_piece(s, piece, &outlen, &len);
		if ((maxcols >= 0 && cols + w > maxcols) || used + outlen >= size)
			break;
		memcpy(buf + used, piece, outlen);
		used += outlen;
		cols += w;
		s += len;
	}
	buf[used] = '\0';
	return cols;
}

int utf8_width(const char *s)
{
	size_t len, outlen;
	int cols = 0;
	char piece[16];

	while (*s) {
		cols += utf8_piece(s, piece, &outlen, &len);
		s += len;
	}
	return cols;
}

int utf8_is_valid(const char *s)
{
	uint32_t cp;
	size_t n;

	for (; *s; s += n)
		if ((n = utf8_next(s, &cp)) == 0)
			return 0;
	return 1;
}

int utf8_is_plain(const char *s, const char **bad)
{
	uint32_t cp;
	size_t n;

	for (; *s; s += n) {
		n = utf8_next(s, &cp);
		if (n == 0 || utf8_is_control(cp)) {
			if (bad)
				*bad = s;
			return 0;
		}
	}
	return 1;
}

size_t utf8_repair(char *buf, size_t size, const char *s)
{
	static const char fffd[] = "\xef\xbf\xbd";
	size_t used = 0, nbad = 0, n;
	uint32_t cp;

	if (size == 0)
		return 0;
	for (; *s; s += n ? n : 1) {
		const char *from = s;
		size_t len;

		n = utf8_next(s, &cp);
		if (n == 0) {
			from = fffd;
			len = 3;
		} else {
			len = n;
		}
		if (used + len >= size)
			break;
		memcpy(buf + used, from, len);
		used += len;
		nbad += n == 0;
	}
	buf[used] = '\0';
	return nbad;
}

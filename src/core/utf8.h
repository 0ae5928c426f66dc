/*
 * Text as a terminal shows it: UTF-8 decoded strictly, the columns each
 * character takes, and text made safe to print (a control character or a
 * byte that is not UTF-8 written as an escape).  Labels and host names come
 * from users and from other people's exports, and the tables must neither
 * split a row at a newline nor hand an escape sequence to the terminal, and
 * must line up "noyau-é" and "カーネル" as well as "2.5.47".  Nothing here
 * depends on the locale: kbench never calls setlocale, and a table must
 * line up whatever LANG its reader has.
 */
#ifndef KB_UTF8_H
#define KB_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * The character at s (NUL-terminated): its length in bytes (1 to 4), its
 * code point in *cp.  0 when s is at its end or starts with bytes that are
 * not UTF-8: a stray continuation byte, an overlong form, a surrogate, a
 * code point past U+10FFFF, or a sequence cut short.
 */
size_t utf8_next(const char *s, uint32_t *cp);

/*
 * Whether cp must not reach a terminal as it is: the C0 controls, DEL, the
 * C1 controls, the line and paragraph separators, and the bidirectional
 * controls that reorder what follows them on the line.
 */
int utf8_is_control(uint32_t cp);

/*
 * The columns cp takes on a terminal: 0 for a combining mark or a
 * zero-width character, 2 for an East Asian wide or fullwidth character or
 * an emoji, 1 for any other (a control is escaped before it is measured).
 */
int utf8_cp_width(uint32_t cp);

/*
 * s as it is safe to print, into buf (size bytes, always terminated): a tab,
 * newline or carriage return as \t \n \r, any other C0 control and DEL as
 * \xNN, the other controls of utf8_is_control as \uNNNN, each byte that is
 * not UTF-8 as \xNN, everything else as it is (a backslash too, so that
 * escaping escaped text changes nothing).  At most maxcols columns (no
 * limit when negative) and what fits in buf: a character or an escape that
 * would not fit whole is left out with all that follows.  Returns the
 * columns written.
 */
int utf8_escape(char *buf, size_t size, const char *s, int maxcols);

/* The columns utf8_escape would write for s, without a limit. */
int utf8_width(const char *s);

/* Whether s is all UTF-8 (controls allowed). */
int utf8_is_valid(const char *s);

/*
 * Whether s is all UTF-8 with no control character: what utf8_escape
 * writes unchanged.  On 0, *bad (if not NULL) points at the first byte
 * that is not.
 */
int utf8_is_plain(const char *s, const char **bad);

/*
 * s with each byte that is not UTF-8 replaced by U+FFFD, the replacement
 * character, into buf (size bytes, always terminated, cut only between
 * characters): what an export writes, so that JSON and CSV are always valid
 * UTF-8.  Returns the number of bytes replaced.
 */
size_t utf8_repair(char *buf, size_t size, const char *s);

#endif

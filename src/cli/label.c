/*
 * Labels from the command line (label.h).  The tables escape whatever a
 * label holds (report_cell), since an imported one may hold anything; a
 * label typed here is refused instead when it would not print as itself,
 * so that what `kbench runs` shows is what selects it.  The message shows
 * the label escaped too: the error line must not ring the bell either.
 */
#include "cli/label.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "core/result.h"
#include "core/utf8.h"
#include "report/fmt.h"

/*
 * Code points that print as nothing or as a blank: spaces, the zero-width
 * and format characters (U+200B, U+FEFF, the bidi marks), and the
 * combining marks, which alone sit on nothing.  A label of only these
 * would show as an empty or blank cell that no one can type back.
 */
static const struct {
	uint32_t lo, hi;
} label_invisible[] = {
	{ 0x0009, 0x000D }, { 0x0020, 0x0020 }, { 0x00A0, 0x00A0 }, { 0x00AD, 0x00AD },
	{ 0x0300, 0x036F }, { 0x034F, 0x034F }, { 0x115F, 0x1160 }, { 0x1680, 0x1680 },
	{ 0x180E, 0x180E }, { 0x1AB0, 0x1AFF }, { 0x1DC0, 0x1DFF }, { 0x2000, 0x200F },
	{ 0x2028, 0x202F }, { 0x205F, 0x206F }, { 0x20D0, 0x20FF }, { 0x3000, 0x3000 },
	{ 0x3164, 0x3164 }, { 0xFE00, 0xFE0F }, { 0xFE20, 0xFE2F }, { 0xFEFF, 0xFEFF },
	{ 0xFFA0, 0xFFA0 }, { 0xE0000, 0xE0FFF },
};

/* Whether the (valid UTF-8) label has a code point that shows. */
static int label_visible(const char *s)
{
	uint32_t cp;
	size_t n;

	for (; *s; s += n) {
		size_t i = 0;

		n = utf8_next(s, &cp);
		if (n == 0)
			return 1;
		while (i < sizeof(label_invisible) / sizeof(label_invisible[0]) &&
		       !(cp >= label_invisible[i].lo && cp <= label_invisible[i].hi))
			i++;
		if (i == sizeof(label_invisible) / sizeof(label_invisible[0]))
			return 1;
	}
	return 0;
}

/* Digits alone, as store_select reads a run id. */
static int label_digits(const char *s)
{
	return s[0] && strspn(s, "0123456789") == strlen(s);
}

void cli_label_check(const char *cmd, const char *what, const char *label)
{
	char shown[4 * sizeof(((struct run_info *)0)->label)];
	const char *bad;
	size_t len = strlen(label);
	uint32_t cp;

	if (len == 0 || len >= sizeof(((struct run_info *)0)->label))
		die_usage("%s: %s must be 1 to 127 bytes long (%zu given)", cmd, what, len);
	report_cell(shown, sizeof(shown), label, -1, 0);
	if (!utf8_is_plain(label, &bad)) {
		size_t n = utf8_next(bad, &cp);
		char one[5] = "", c[16];

		if (n == 0)
			die_usage("%s: %s '%s' is not UTF-8 (byte %zu)", cmd, what, shown,
				  (size_t)(bad - label) + 1);
		/* The control alone, as the tables would show it: \n, \x1b, \u202e. */
		memcpy(one, bad, n);
		report_cell(c, sizeof(c), one, -1, 0);
		die_usage("%s: %s '%s' holds a control character (%s), which would break the "
			  "tables' lines", cmd, what, shown, c);
	}
	if (!label_visible(label)) {
		char cps[64] = "";
		size_t n;

		/* What it holds, by number: printed, the label itself would show nothing here either. */
		for (const char *p = label; *p && strlen(cps) + 12 < sizeof(cps); p += n) {
			n = utf8_next(p, &cp);
			snprintf(cps + strlen(cps), sizeof(cps) - strlen(cps), "%sU+%04X", p == label ? "" : " ",
				 (unsigned)cp);
		}
		die_usage("%s: %s shows nothing (%s%s): it holds only blanks, zero-width characters "
			  "or combining marks", cmd, what, cps, strlen(cps) + 12 < sizeof(cps) ? "" : " ...");
	}
	/* "x" and "x  " print as one row name: two labels a reader cannot tell apart. */
	if (label[0] == ' ' || label[strlen(label) - 1] == ' ')
		die_usage("%s: %s '%s' starts or ends with a blank, which no table shows: "
			  "leave it out", cmd, what, shown);
	if (label_digits(label))
		die_usage("%s: %s '%s' would be read as run %s where runs are selected "
			  "(summary, compare, show): add a letter", cmd, what, shown, label);
	if (strncmp(label, "set:", 4) == 0 && label_digits(label + 4))
		die_usage("%s: %s '%s' would be read as set %s where runs are selected "
			  "(summary, compare, show): choose another", cmd, what, shown, label + 4);
}

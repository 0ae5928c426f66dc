/*
 * Labels from the command line (label.h).  The tables escape whatever a
 * label holds (report_cell), since an imported one may hold anything; a
 * label typed here is refused instead when it would not print as itself,
 * so that what `kbench runs` shows is what selects it.  The message shows
 * the label escaped too: the error line must not ring the bell either.
 */
#include "cli/label.h"

#include <stdint.h>
#include <string.h>

#include "core/err.h"
#include "core/result.h"
#include "core/utf8.h"
#include "report/report.h"

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
	if (label_digits(label))
		die_usage("%s: %s '%s' would be read as run %s where runs are selected "
			  "(summary, compare, show): add a letter", cmd, what, shown, label);
	if (strncmp(label, "set:", 4) == 0 && label_digits(label + 4))
		die_usage("%s: %s '%s' would be read as set %s where runs are selected "
			  "(summary, compare, show): choose another", cmd, what, shown, label + 4);
}

/*
 * The one check of a label given on the command line (run and contest
 * --label, import --label, runs rename): a label must print as itself in
 * every table and be found again by the selector grammar of store_select.
 */
#ifndef KB_CLI_LABEL_H
#define KB_CLI_LABEL_H

/*
 * Dies with exit 2 and one line, "CMD: WHAT 'LABEL' ...: why", when label
 * is empty or longer than 127 bytes, is not UTF-8, holds a control
 * character (utf8_is_control: newline, ESC, BEL, DEL, C1, bidirectional
 * controls), starts or ends with a blank (it would print as the label
 * without it), or reads as a selector: digits alone (a run id) or "set:"
 * and digits (a set).  what names where it came from ("--label").
 */
void cli_label_check(const char *cmd, const char *what, const char *label);

#endif

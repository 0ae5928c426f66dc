/*
 * What the text reports of src/report/ share (report/text.c): how a run, a
 * placement and a text from a run are named, which figures are worth a
 * cell, and the width every table keeps within.  Internal to src/report/.
 */
#ifndef KB_REPORT_TEXT_H
#define KB_REPORT_TEXT_H

#include <stddef.h>

#include "core/result.h"
#include "core/sysinfo.h"

/* Widest table line; lmbench's tables fit an 80-column terminal. */
#define TEXT_MAX_COLS 80

/* Text from a run (a label, a host, a reason) safe to print whole, into buf. */
const char *text_esc(char *buf, size_t size, const char *s);
/* A figure worth printing: measured, even if noisy. */
int text_usable(const struct result *r);
/* The number a result stored under key, or NaN when it has none (or a text). */
double text_value_num(const struct result *r, const char *key);
/* The level's data (or unified) cache the OS reports, in bytes; 0 when unknown. */
double text_os_cache_bytes(const struct sysinfo *si, int level);
/* Whether hw, a result's interval's half-width, is the machine's floor. */
int text_floored(const struct result *r, double hw);
/* " [same]" after an id measured under a placement; "" otherwise. */
const char *text_place_tag(const struct result *r);
/* How a run is named in the notes: "run 12", "run 'label'", "label 'x' (3 runs)". */
void text_run_name(const struct run_info *run, char *buf, size_t size);

#endif

#include "stats/levels.h"
int levels_detect(const double *size, const double *ns, size_t n, struct level *out, char *why, size_t whylen) { (void)size; (void)ns; (void)n; (void)out; (void)why; (void)whylen; return 0; }

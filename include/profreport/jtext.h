/* jtext.h - summary numbers as the summary prints them, and compact JSON
 * text that reads back to the same tree (issue #33).
 *
 * cJSON prints a number with 15 significant digits when they read back
 * within a relative epsilon, else with 17; a summary read from its file
 * holds the numbers those digits give, not the ones the analysis
 * computed.  A figure computed from a job's runs (the job and distributed
 * views, a rank form's "other" row) is the same bits from the traces and
 * from the ranks' saved summaries only if it is computed from the printed
 * numbers in both: pr_jtext_canon() makes a tree's numbers those. */
#ifndef PROFREPORT_JTEXT_H
#define PROFREPORT_JTEXT_H

#include <cjson/cJSON.h>

#include "profreport/buf.h"

/* d as cJSON would read it back from its own print of d (cJSON 1.7's
 * print_number and parse_number); NAN and the infinities, which it
 * prints as null, come back as NAN. */
double pr_jtext_num(double d);

/* Every number in the tree at `it` replaced by pr_jtext_num() of it. */
void pr_jtext_canon(cJSON *it);

/* s as a JSON string at the end of b; 0 when b failed. */
int pr_jtext_str(struct pr_buf *b, const char *s);

/* it as compact JSON text at the end of b, numbers with 17 significant
 * digits (they read back to the same bits), non-finite ones as null, an
 * object's members in order; 0 when b failed. */
int pr_jtext_put(struct pr_buf *b, const cJSON *it);

/* pr_jtext_put with every number as pr_jtext_num() of it: text that
 * reads back to the tree as its print reads back. */
int pr_jtext_put_read(struct pr_buf *b, const cJSON *it);

/* pr_jtext_put of a number (as pr_jtext_put of a cJSON number). */
int pr_jtext_putnum(struct pr_buf *b, double d);

#endif

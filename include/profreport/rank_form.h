/* rank_form.h - what a job's summary keeps of a rank it does not hold in
 * full (issue #33).
 *
 * A job of 1,024 ranks whose summary held every run whole was 0.9 MB a
 * rank (926 MB), most of it operators by shape, kernels, the timeline and
 * the layers of ranks no report draws.  The job's summary holds the
 * detail ranks (--detail-ranks) whole and every other run in its rank
 * form: the members the job views and a comparison of ranks read, whole
 * (steps with their breakdown, step summary, communication, GPU metrics,
 * devices, recommendations, ...), the operator, operator-by-shape and
 * kernel tables cut to the rows that hold at least PR_RANK_FORM_SHARE_PCT
 * of their table's time, plus one "(other)" row that sums the rest so the
 * columns' totals stay those of the whole table, the tensor-core findings
 * cut likewise (counted in findings_omitted), the memory devices without
 * their curves, and every other member null.  A rank form ends with
 * "form": "rank".  docs/summary-json.md lists it member by member.
 *
 * The members a rank form keeps, and the columns its rows keep, are the
 * rows flagged RANK in src/summary/schema.def; the "(other)" row folds a
 * column by its unit (rank_form.c): a new column of the operator or
 * kernel tables reaches the job's summary with that flag. */
#ifndef PROFREPORT_RANK_FORM_H
#define PROFREPORT_RANK_FORM_H

#include <cjson/cJSON.h>

#include "profreport/buf.h"

#define PR_RANK_FORM_SHARE_PCT 1.0 /* rows below this share go to (other) */
#define PR_RANK_FORM_OTHER "(other)"

/* The rank form of the whole run `run` as compact JSON text at the end of
 * b (numbers with 17 digits: cJSON reads them back exactly).  Which rows
 * are kept and the "(other)" rows' sums are decided on the numbers as the
 * summary prints them (jtext.h), so a rank form prints the same whether
 * the run came from a trace or from its saved summary.  0 when b failed
 * (out of memory). */
int pr_rank_form_text(const cJSON *run, struct pr_buf *b);

/* 1 when `run` is a rank form ("form": "rank"). */
int pr_rank_form_is(const cJSON *run);

#endif

/* recommend.h - every recommendation of a run, in one place (issue #10):
 * the plugin's rules (spec/tb-plugin-semantics.md 7.5) and profreport's
 * own, each a rule over the results the analyses already wrote into the
 * run object.  The few facts a rule needs that the summary does not carry
 * (exact step shares, the 10.5 eligible-kernel ratio, the trace for host
 * syncs) come in struct pr_rec_facts. */
#ifndef PROFREPORT_RECOMMEND_H
#define PROFREPORT_RECOMMEND_H

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/trace.h"

struct pr_rec_facts {
    const struct pr_trace *t; /* borrowed; NULL: a summary-only run */
    int known;                /* the numbers below were computed */
    double dataloader_share;  /* of the kept steps' time, 0..1 (7.5.1) */
    double comm_share;        /* likewise, communication (7.5.4) */
    int cc_major;             /* deviceProperties[0] major; -1 none */
    double tc_ratio;          /* 10.4 over all kernels; NaN none */
    double eligible_ratio;    /* 10.5; NaN or 0 when none */
};

/* Append the recommendations of run (its "recommendations" array, created
 * when absent or null) in rule order; a rule whose id is already present
 * adds nothing, so running twice adds nothing twice.  f may be NULL.
 * PR_E_NOMEM on allocation failure. */
PR_NODISCARD enum pr_status pr_recommend_fill(const struct pr_rec_facts *f,
                                              cJSON *run, struct pr_error *err);

#endif

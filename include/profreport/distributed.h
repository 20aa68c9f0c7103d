/* distributed.h - the cross-rank "distributed" section of the summary
 * (spec/summary-json.md; spec/tb-plugin-semantics.md section 13), built
 * from the runs' "communication" objects once every run is analysed. */
#ifndef PROFREPORT_DISTRIBUTED_H
#define PROFREPORT_DISTRIBUTED_H

#include <cjson/cJSON.h>

#include "profreport/error.h"

/* Set summary["distributed"]: when more than one rank is present, or one
 * rank's trace has collectives (its collectives, with how many ranks are
 * present against the world size).  Left null otherwise.  Stragglers are
 * named only when every rank of the job is present.  PR_E_NOMEM on
 * allocation failure. */
PR_NODISCARD enum pr_status pr_distributed_build(cJSON *summary,
                                                 struct pr_error *err);

#endif

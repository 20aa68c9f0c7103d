/* ops.h - the operator tables of spec/tb-plugin-semantics.md section 8:
 * operator nodes (5.4) of every thread tree, grouped by name and by name +
 * input shapes, with host/device self/total time and tensor-core columns.
 * FLOP/byte/roofline keys are emitted as null/"unknown" for the roofline
 * analysis to fill. */
#ifndef PROFREPORT_OPS_H
#define PROFREPORT_OPS_H

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/trace.h"
#include "profreport/tree.h"

/* Build the "operators" and "operators_by_shape" arrays (new, owned by the
 * caller), sorted by device_self_us descending, then name, then shapes
 * (strcmp).  PR_E_NOMEM on failure (both outputs NULL). */
PR_NODISCARD enum pr_status pr_ops_build(const struct pr_trace *t,
                                         const struct pr_tree *tree,
                                         cJSON **by_name, cJSON **by_shape,
                                         struct pr_error *err);

/* 10.5: kernel time launched by "bottom" tensor-core-eligible nodes over
 * kernel time launched by operator nodes; 0 when there is none.
 * Cannot fail. */
double pr_ops_tc_eligible_ratio(const struct pr_trace *t,
                                const struct pr_tree *tree);

#endif

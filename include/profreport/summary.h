/* summary.h - the summary tree (spec/summary-json.md), the contract between
 * analyses and renderers.  The tree is a cJSON object owned by the caller
 * (cJSON_Delete).  It copies every string it keeps, so it outlives traces. */
#ifndef PROFREPORT_SUMMARY_H
#define PROFREPORT_SUMMARY_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/analysis.h"
#include "profreport/contract.h"
#include "profreport/error.h"
#include "profreport/trace.h"

#define PR_SCHEMA_VERSION 1
/* PR_DEFINITIONS, the version of the figures' definitions: contract.h,
 * which reads a saved summary's. */

/* New summary with schema_version, tool, empty inputs and runs, and
 * "distributed": null.  NULL on out-of-memory. */
cJSON *pr_summary_new(void);

/* Record one input file (inputs[]). */
PR_NODISCARD enum pr_status pr_summary_add_input(cJSON *s, const char *path,
                                                 const struct pr_trace *t,
                                                 const char *worker,
                                                 const char *span,
                                                 struct pr_error *err);

/* Analyse one trace and append its run (runs[]). */
PR_NODISCARD enum pr_status
pr_summary_add_run(cJSON *s, const struct pr_trace *t, const char *worker,
                   const char *span, const struct pr_analysis_opts *o,
                   struct pr_error *err);

/* Sort runs by (worker, span) and fill summary-level keys.  Call once. */
PR_NODISCARD enum pr_status pr_summary_finish(cJSON *s, struct pr_error *err);

#endif

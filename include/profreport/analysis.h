/* analysis.h - everything computed from one trace, written into one "run"
 * object of the summary (spec/summary-json.md).  Analyses read the frozen
 * model (const struct pr_trace *) and write only into `run`; renderers read
 * only the summary (shared/DESIGN.md). */
#ifndef PROFREPORT_ANALYSIS_H
#define PROFREPORT_ANALYSIS_H

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/trace.h"

struct pr_analysis_opts {
    double peak_tflops;      /* --peak-tflops override; 0 = none */
    double peak_gbps;        /* --peak-gbps override; 0 = none */
    const char *device_spec; /* --device-spec FILE (peaks.h); NULL = none;
                                borrowed */
    int threads; /* threads the passes may use; <= 1: the caller's only */
};

/* Fill `run` (a cJSON object, the run's identity keys in it or not) with
 * devices, steps, step_summary, gpu_metrics, operators,
 * operators_by_shape, kernels and the other analysis keys, in the order
 * the passes write them (pr_summary_add_run writes a summary's run once,
 * in the schema's order, from its typed row); the analyses' data-quality notes
 * are appended to run["data_quality"] and run["diagnostics"] where the run
 * holds them (an object, an array).  Returns PR_E_NOMEM when cJSON
 * allocation fails. */
PR_NODISCARD enum pr_status pr_analysis_run(const struct pr_trace *t,
                                            const struct pr_analysis_opts *o,
                                            cJSON *run, struct pr_error *err);

#endif

/* fuzz.h - what the libFuzzer targets share: the entry point's prototype
 * and the analysis of a loaded trace, so that what a reader accepts also
 * goes through every analysis pass and the summary (hostile numbers that
 * the reader lets through are found where they are used). */
#ifndef PROFREPORT_FUZZ_H
#define PROFREPORT_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/summary.h"
#include "profreport/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Summarise t and the runs chained after it, then free them all. */
static inline void
fuzz_summarise(struct pr_trace *t)
{
    struct pr_analysis_opts ao = {0, 0, NULL, 1};
    struct pr_error err;
    cJSON *sum = pr_summary_new();
    const struct pr_trace *r;
    enum pr_status st = sum != NULL ? PR_OK : PR_E_NOMEM;

    pr_error_clear(&err);
    for (r = t; r != NULL && st == PR_OK; r = r->next) {
        st = pr_summary_add_input(sum, "fuzz", r, "w", NULL, &err);
        if (st == PR_OK)
            st = pr_summary_add_run(sum, r, "w", NULL, &ao, &err);
    }
    if (st == PR_OK)
        st = pr_summary_finish(sum, &err);
    (void)st;
    cJSON_Delete(sum);
    pr_trace_free(t);
}

#endif

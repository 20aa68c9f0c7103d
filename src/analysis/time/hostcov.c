/* hostcov.c - run.host_coverage (docs/summary-json.md): how much of each
 * step's host time the trace accounts for with a recorded operator, and
 * whether the profiler kept every host event (issue #29).
 *
 * A step's host time is "recorded" where some thread is inside a
 * dispatcher operator or a runtime call: the operators PyTorch registers
 * are named namespace::name (aten::, c10d::, fbgemm::; torch's
 * TORCH_LIBRARY), whereas record_function ranges ("forward" of a scripted
 * module, "Optimizer.step#...", "## backward ##", ProfilerStep#,
 * autograd::engine::evaluate_function wrappers) only say where the time
 * went, not what ran.  Time inside no such call on any thread is time the
 * trace cannot explain: Python between operators in an eager trace where
 * every event was kept, anything at all in a sampled one.  Kineto numbers
 * its host events ("Ev Idx"): far fewer events than the numbers span
 * means the profiler dropped the rest (HTA's sampled_rank traces keep
 * 2,402 of 238,287).  Where either is large the findings that read host
 * time (the host-bound verdict, host_ops, the critical path's host rows)
 * carry this pass's note instead of calling the time Python or host
 * work.
 *
 * A run without steps is judged over its capture, the profiler's window:
 * the time before its first recorded call and after its last is as
 * unrecorded as a gap between two calls, and a trace with runtime calls
 * but no operator (an Nsight Systems export without NVTX, HTA's
 * inference_rank_1) is judged against those calls alone (review 22g
 * item 2: nsys_mock's 9 runtime calls leave 195 of 235.8 ms, 83%, of its
 * capture unrecorded; cuda_event_sync_multi_stream records nothing in the
 * first 42.5 ms of its 62.5 ms). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/keys.h"
#include "profreport/rows.h"
#include "profreport/sget.h"
#include "profreport/steps.h"
#include "profreport/trace.h"

#include "../internal.h"

/* a step whose host time is at least this share unrecorded gets the note */
#define UNRECORDED_PCT 50.0
/* a trace that kept fewer of its numbered events than this is sampled */
#define KEPT_PCT 90.0
/* the ranges named as evidence, by their unrecorded time */
#define N_WINDOWS 3
/* range instances weighed for them, in time order: each is a walk over
 * the spans inside it, and the first steps' ranges name the windows as
 * well as all of a long capture's */
#define MAX_RANGES 4096

struct span {
    int64_t a, b;
};

/* A dispatcher operator or a runtime call: what the host ran. */

static int
recorded(const struct pr_trace *t, const struct pr_event *e)
{
    const char *n;

    if (e->kind == PR_KIND_RUNTIME_CALL || e->kind == PR_KIND_DRIVER_CALL ||
        e->kind == PR_KIND_SYNC)
        return 1;
    if ((e->kind != PR_KIND_HOST_OP && e->kind != PR_KIND_ANNOTATION) ||
        e->name == PR_STR_NONE)
        return 0;
    n = pr_trace_str(t, e->name);
    if (e->kind == PR_KIND_HOST_OP && strstr(n, "::") != NULL)
        return strncmp(n, "autograd::engine::", 18) != 0;
    /* c10d's collectives: ProcessGroup's profiling titles (a user range
     * on gloo's threads) and the record_param_comms range around each */
    return strncmp(n, "nccl:", 5) == 0 || strncmp(n, "gloo:", 5) == 0 ||
           strncmp(n, "hccl:", 5) == 0 || strncmp(n, "mpi:", 4) == 0 ||
           strncmp(n, "ucc:", 4) == 0 || strcmp(n, "record_param_comms") == 0;
}

/* The union of the recorded calls, in time order (events are sorted by
 * start).  *n 0 when the trace records no operator, or in a run without
 * steps no call at all: nothing to judge. */
static enum pr_status
merged(const struct pr_trace *t, int capture, struct span **out, size_t *n,
       struct pr_error *err)
{
    struct span *v = NULL;
    size_t i, cap = 0, ops = 0;

    *n = 0;
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        int64_t end = e->ts_ns + e->dur_ns;

        if (!recorded(t, e) || e->dur_ns <= 0)
            continue;
        ops += e->kind == PR_KIND_HOST_OP || e->kind == PR_KIND_ANNOTATION;
        if (*n > 0 && e->ts_ns <= v[*n - 1].b) {
            if (end > v[*n - 1].b)
                v[*n - 1].b = end;
            continue;
        }
        if (pr_grow((void **)&v, &cap, *n + 1, sizeof(*v)) != PR_OK) {
            free(v);
            return pr_error_set(err, PR_E_NOMEM, "out of memory (host)");
        }
        v[(*n)++] = (struct span){e->ts_ns, end};
    }
    if (ops == 0 && !capture)
        *n = 0;
    *out = v;
    return PR_OK;
}

/* A named range's unrecorded time over the steps: the evidence. */
struct range {
    uint32_t name;
    const char *str;          /* borrowed: the name's text, for a total order */
    int64_t first_a, first_b; /* its first instance */
    double dur_ns, unrec_ns;
    size_t n;
};

/* Unrecorded time of [a, b) against the union v (n spans). */
static int64_t
gaps(const struct span *v, size_t n, int64_t a, int64_t b)
{
    size_t lo = 0, hi = n;
    int64_t at = a, sum = 0;

    while (lo < hi) { /* the first span that ends after a */
        size_t mid = lo + (hi - lo) / 2;

        if (v[mid].b <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < n && v[lo].a < b && at < b; lo++) {
        if (v[lo].a > at)
            sum += v[lo].a - at;
        if (v[lo].b > at)
            at = v[lo].b;
    }
    return sum + (at < b ? b - at : 0);
}

/* A range that names where host time went without saying what ran: a
 * record_function range, an annotation or a Python frame of a millisecond
 * or more, not a step. */
static int
named_range(const struct pr_trace *t, const struct pr_event *e)
{
    if ((e->kind != PR_KIND_HOST_OP && e->kind != PR_KIND_ANNOTATION &&
         e->kind != PR_KIND_PY_FUNCTION) ||
        e->dur_ns < 1000000 || e->name == PR_STR_NONE || recorded(t, e))
        return 0;
    return strncmp(pr_trace_str(t, e->name), "ProfilerStep#", 13) != 0;
}

static int
by_unrec(const void *pa, const void *pb)
{
    const struct range *a = pa, *b = pb;

    if (a->unrec_ns != b->unrec_ns)
        return a->unrec_ns > b->unrec_ns ? -1 : 1;
    return strcmp(a->str, b->str);
}

/* The named ranges inside the steps, by unrecorded time: *out, *nr. */
static enum pr_status
ranges(const struct pr_trace *t, const struct pr_steps *s, const struct span *v,
       size_t n, struct range **out, size_t *nr, struct pr_error *err)
{
    struct range *r = NULL;
    size_t i, j, cap = 0, seen = 0;

    *nr = 0;
    for (i = 0; i < t->n_events && seen < MAX_RANGES; i++) {
        const struct pr_event *e = &t->events[i];
        int64_t a = e->ts_ns, b = e->ts_ns + e->dur_ns;

        if (!named_range(t, e) || a >= s->v[s->n - 1].host_end_ns ||
            b <= s->v[0].host_start_ns)
            continue;
        for (j = 0; j < *nr && r[j].name != e->name; j++)
            ;
        if (j == *nr) {
            if (pr_grow((void **)&r, &cap, j + 1, sizeof(*r)) != PR_OK) {
                free(r);
                return pr_error_set(err, PR_E_NOMEM, "out of memory (host)");
            }
            r[j] = (struct range){e->name, pr_trace_str(t, e->name), a, b, 0, 0,
                                  0};
            (*nr)++;
        }
        seen++;
        r[j].dur_ns += (double)(b - a);
        r[j].unrec_ns += (double)gaps(v, n, a, b);
        r[j].n++;
    }
    if (*nr > 1)
        qsort(r, *nr, sizeof(*r), by_unrec);
    *out = r;
    return PR_OK;
}

static void
fmt_ms(double ns, char *buf, size_t cap)
{
    if (ns >= 1e9)
        snprintf(buf, cap, "%.2f s", ns / 1e9);
    else if (ns >= 1e6)
        snprintf(buf, cap, "%.1f ms", ns / 1e6);
    else
        snprintf(buf, cap, "%.0f \xC2\xB5s", ns / 1e3);
}

/* v with a comma between thousands (238,287). */
static void
grouped(long long v, char *buf, size_t cap)
{
    char d[32];
    int n = snprintf(d, sizeof(d), "%lld", v < 0 ? 0 : v), i, o = 0;

    for (i = 0; i < n && (size_t)o + 2 < cap; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = d[i];
    }
    buf[o] = '\0';
}

/* The note: the share, the sample, the windows; what it does not say.
 * lead_ns, tail_ns: a capture's time before its first recorded call and
 * after its last (0 over steps). */
static void
note_text(const struct pr_trace *t, const struct pr_steps *s, double pct,
          double mean_ns, double step_ns, double lead_ns, double tail_ns,
          double kept_pct, const struct range *r, size_t nr, int no_dev,
          char *text, size_t cap)
{
    int capture = s->basis == PR_STEPS_BASIS_CAPTURE;
    char a[32], b[32];
    size_t len, i, j, shown = 0;

    /* never 100% beside a recorded part (review 27 #4: inference_rank_1's
       1.04 of 1.05 s is 99.8%) */
    int prec = pr_pct_prec(pct);

    fmt_ms(mean_ns, a, sizeof(a));
    fmt_ms(step_ns, b, sizeof(b));
    if (capture)
        len = pr_append(text, cap, 0,
                        "%.*f%% of the capture's host time (%s of %s, no "
                        "steps) is inside no recorded operator or runtime "
                        "call on any thread",
                        prec, pct, a, b);
    else
        len = pr_append(text, cap, 0,
                        "%.*f%% of a step's host time (%s of %s, mean of %zu "
                        "step%s) is inside no recorded operator or runtime "
                        "call on any thread",
                        prec, pct, a, b, s->n, s->n == 1 ? "" : "s");
    /* the profiler's window runs before the first call or after the
       last: as unrecorded as the gaps between calls, named where it is a
       twentieth of the capture or more */
    fmt_ms(lead_ns, a, sizeof(a));
    fmt_ms(tail_ns, b, sizeof(b));
    if (capture && lead_ns >= 0.05 * step_ns && tail_ns >= 0.05 * step_ns)
        len = pr_append(text, cap, len,
                        " (%s before the first recorded call, %s after the "
                        "last)",
                        a, b);
    else if (capture && lead_ns >= 0.05 * step_ns)
        len = pr_append(text, cap, len, " (%s before the first recorded call)",
                        a);
    else if (capture && tail_ns >= 0.05 * step_ns)
        len =
            pr_append(text, cap, len, " (%s after the last recorded call)", b);
    if (kept_pct < KEPT_PCT) {
        char kept[32], span[32];

        grouped((long long)t->n_ev_idx, kept, sizeof(kept));
        grouped((long long)(t->ev_idx_max - t->ev_idx_min + 1), span,
                sizeof(span));
        len = pr_append(text, cap, len,
                        ", and the trace holds %s of the %s host events the "
                        "profiler numbered in its span (Ev Idx %lld to %lld: "
                        "%.1f%%): the rest were dropped (a sampled or cut "
                        "trace)",
                        kept, span, (long long)t->ev_idx_min,
                        (long long)t->ev_idx_max, kept_pct);
    }
    if (pct >= UNRECORDED_PCT && pr_trace_has_gap(t, "no_launch_records"))
        /* the export keeps no launch calls (ascend_db.c): its host time
           is what the export left out, not time the host spent apart
           from its calls (closing 'Left': msprof_full_db listed Python
           and the GIL as causes) */
        len = pr_append(text, cap, len,
                        ": the export keeps none of the calls that launched "
                        "its tasks (see no_launch_records), so this is what "
                        "the export left out, not what the host did, and %s "
                        "would rest on time it does not record",
                        no_dev ? "the host findings"
                               : "a host-bound reading and the host "
                                 "findings");
    else if (pct >= UNRECORDED_PCT)
        len = pr_append(text, cap, len,
                        ". The trace cannot say what the host did there "
                        "(Python, operators it did not keep, or a thread "
                        "held by a lock, the GIL or the OS%s), so %s "
                        "would rest on time it does not explain",
                        no_dev ? "; or waits on the GPU, whose activity the "
                                 "trace does not record"
                               : "",
                        no_dev ? "the host findings"
                               : "a host-bound reading and the host "
                                 "findings");
    else
        len = pr_append(text, cap, len,
                        ". The operator tables and host times count only the "
                        "events kept: what the dropped ones did is not in "
                        "the trace");
    for (i = 0; i < nr && shown < N_WINDOWS && r[i].unrec_ns > 0; i++) {
        /* an outer range shown already holds this one */
        for (j = 0; j < i; j++)
            if (r[j].n > 0 && r[j].first_a <= r[i].first_a &&
                r[j].first_b >= r[i].first_b)
                break;
        if (j < i)
            continue;
        double rp = 100.0 * r[i].unrec_ns / r[i].dur_ns;

        fmt_ms(r[i].unrec_ns / (double)r[i].n, a, sizeof(a));
        fmt_ms(r[i].dur_ns / (double)r[i].n, b, sizeof(b));
        /* the same no-100%-beside-a-recorded-part rounding as the step
           figure (review 29 #9: hta_call_stack's 107.9 of 108.0 ms read
           "(100%)" beside 99.99%) */
        len = pr_append(text, cap, len,
                        "%s%s (%zu call%s): %s of its %s a call (%.*f%%)",
                        shown ? "; " : ". Where: ", r[i].str, r[i].n,
                        r[i].n == 1 ? "" : "s", a, b, pr_pct_prec(rp), rp);
        shown++;
    }
    pr_append(text, cap, len, ".");
}

enum pr_status
pr_hostcov_fill(const struct pr_trace *t, const struct pr_steps *s, cJSON *run,
                struct pr_notes *notes, struct pr_error *err)
{
    struct span *v = NULL;
    struct range *r = NULL;
    size_t n, i, nr = 0;
    double un = 0, len = 0, pct, kept_pct = NAN, lead = 0, tail = 0;
    int capture = s->basis == PR_STEPS_BASIS_CAPTURE;
    char text[1200];
    struct pr_row_host_coverage row;
    enum pr_status st;

    if ((!s->has_step_events && !capture) || s->n == 0 ||
        s->basis == PR_STEPS_BASIS_PRODUCER)
        return pr_emit_put(run, PR_K_HOST_COVERAGE, cJSON_CreateNull(),
                           "host coverage", err);
    st = merged(t, capture, &v, &n, err);
    if (st != PR_OK || n == 0) {
        free(v);
        return st != PR_OK
                   ? st
                   : pr_emit_put(run, PR_K_HOST_COVERAGE, cJSON_CreateNull(),
                                 "host coverage", err);
    }
    for (i = 0; i < s->n; i++) {
        const struct pr_step *p = &s->v[i];

        if (p->host_end_ns <= p->host_start_ns)
            continue;
        un += (double)gaps(v, n, p->host_start_ns, p->host_end_ns);
        len += (double)(p->host_end_ns - p->host_start_ns);
    }
    pct = len > 0 ? 100.0 * un / len : NAN;
    if (capture && s->v[0].host_end_ns > s->v[0].host_start_ns) {
        lead = (double)(v[0].a - s->v[0].host_start_ns);
        tail = (double)(s->v[0].host_end_ns - v[n - 1].b);
        lead = lead > 0 ? lead : 0;
        tail = tail > 0 ? tail : 0;
    }
    if (t->n_ev_idx > 0 && t->ev_idx_max >= t->ev_idx_min)
        kept_pct = 100.0 * (double)t->n_ev_idx /
                   (double)(t->ev_idx_max - t->ev_idx_min + 1);
    text[0] = '\0';
    if (pct >= UNRECORDED_PCT || kept_pct < KEPT_PCT) {
        st = ranges(t, s, v, n, &r, &nr, err);
        if (st == PR_OK)
            note_text(t, s, pct, un / (double)s->n, len / (double)s->n, lead,
                      tail, kept_pct, r, nr, pr_sget_run_device_unrecorded(run),
                      text, sizeof(text));
        free(r);
    }
    free(v);
    if (st != PR_OK)
        return st;
    row = (struct pr_row_host_coverage){
        .unrecorded_pct = pct,
        .unrecorded_us = un / (double)s->n / 1e3,
        .steps = (int64_t)s->n,
        .kept_events_pct = kept_pct,
        .note = text[0] != '\0' ? text : NULL,
    };
    if (text[0] != '\0')
        pr_notes_row(notes, "host_unrecorded", 1, text);
    return pr_emit_put(run, PR_K_HOST_COVERAGE,
                       pr_rows_row(PR_RO_RUNS_HOST_COVERAGE, &row),
                       "host coverage", err);
}

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
/* unrecorded time at least this share in named Python frames is read as
   Python */
#define PY_PCT 50.0

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
    int py; /* a Python frame */
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
            r[j] = (struct range){
                e->name, pr_trace_str(t, e->name),      a, b, 0, 0,
                0,       e->kind == PR_KIND_PY_FUNCTION};
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

/* The innermost Python frames (review 32g #2): a python_function frame's
 * own unrecorded time is the time inside it, within the steps, that
 * neither a child frame nor a recorded call covers, which is its
 * unrecorded time less its direct children's.  The frames nest on their
 * thread, and events are in start order (a child sharing its parent's
 * start may come first: it is then read as the parent's parent, its
 * time clipped to it).  A thread's outermost frame (threading.py's
 * _bootstrap, the script's <module>) names the thread, not the work: its
 * own time is kept apart and counts as no named frame.  The thread read is
 * the one that ran the most of the steps' recorded calls, the thread
 * that drove them: a helper thread parked in threading.py's wait the
 * whole step is no reading of the host's work (timesformer's and
 * xdit_sd_3.5's), and one thread's own times never overlap, so its share
 * stays under 100%. */
struct pyslot {
    uint32_t thread, name, root;
    const char *str;
    double unrec_ns;
    size_t n;
};

struct pythread {
    uint64_t key;
    struct pyopen {
        int64_t b;
        size_t slot;
    } * stack;
    size_t depth, cap;
    double named_ns, calls_ns;
};

struct pyframes {
    struct pyslot *v;
    size_t n, cap;
    size_t *hash; /* slot + 1, 0 empty; hcap a power of 2 */
    size_t hcap;
    struct pythread *th;
    size_t nth, thcap;
};

static void
py_free(struct pyframes *p)
{
    size_t i;

    for (i = 0; i < p->nth; i++)
        free(p->th[i].stack);
    free(p->th);
    free(p->hash);
    free(p->v);
}

static size_t
py_hash(uint32_t thread, uint32_t name, uint32_t root)
{
    uint64_t h = ((uint64_t)thread << 33) ^ ((uint64_t)name << 1) ^ root;

    h ^= h >> 31;
    h *= 0x9E3779B97F4A7C15ULL;
    return (size_t)(h ^ (h >> 29));
}

/* The slot of (thread, name, root); (size_t)-1 out of memory. */
static size_t
py_slot(const struct pr_trace *t, struct pyframes *p, uint32_t thread,
        uint32_t name, uint32_t root)
{
    size_t i, h;

    if ((p->n + 1) * 2 > p->hcap) {
        size_t nc = p->hcap ? p->hcap * 2 : 256, *nh = calloc(nc, sizeof(*nh));

        if (nh == NULL)
            return (size_t)-1;
        for (i = 0; i < p->n; i++) {
            h = py_hash(p->v[i].thread, p->v[i].name, p->v[i].root) & (nc - 1);
            while (nh[h] != 0)
                h = (h + 1) & (nc - 1);
            nh[h] = i + 1;
        }
        free(p->hash);
        p->hash = nh;
        p->hcap = nc;
    }
    h = py_hash(thread, name, root) & (p->hcap - 1);
    for (; p->hash[h] != 0; h = (h + 1) & (p->hcap - 1)) {
        const struct pyslot *s = &p->v[p->hash[h] - 1];

        if (s->thread == thread && s->name == name && s->root == root)
            return p->hash[h] - 1;
    }
    if (pr_grow((void **)&p->v, &p->cap, p->n + 1, sizeof(*p->v)) != PR_OK)
        return (size_t)-1;
    p->v[p->n] =
        (struct pyslot){thread, name, root, pr_trace_str(t, name), 0, 0};
    p->hash[h] = p->n + 1;
    return p->n++;
}

/* Unrecorded time of [a, b) inside the steps. */
static int64_t
step_gaps(const struct pr_steps *s, const struct span *v, size_t n, int64_t a,
          int64_t b)
{
    size_t lo = 0, hi = s->n;
    int64_t sum = 0;

    while (lo < hi) { /* the first step that ends after a */
        size_t mid = lo + (hi - lo) / 2;

        if (s->v[mid].host_end_ns <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < s->n && s->v[lo].host_start_ns < b; lo++) {
        int64_t x = a > s->v[lo].host_start_ns ? a : s->v[lo].host_start_ns;
        int64_t y = b < s->v[lo].host_end_ns ? b : s->v[lo].host_end_ns;

        if (y > x)
            sum += gaps(v, n, x, y);
    }
    return sum;
}

/* The length of a frame's name without the object address CPython
 * prints for a bound built-in method ("<built-in method astype of
 * numpy.ndarray object at 0x7cbf780f01b0>", Objects/methodobject.c
 * meth_repr): one method on many arrays is one frame. */
static size_t
py_len(const char *n)
{
    const char *at = strstr(n, " at 0x");

    return at != NULL && strncmp(n, "<built-in method ", 17) == 0
               ? (size_t)(at - n)
               : strlen(n);
}

/* A frame's name as shown: without that address. */
static const char *
py_show(const char *n, char *buf, size_t cap)
{
    size_t k = py_len(n);

    if (n[k] == '\0')
        return n;
    snprintf(buf, cap, "%.*s>", (int)k, n);
    return buf;
}

static int
by_py_name(const void *pa, const void *pb)
{
    const struct pyslot *a = pa, *b = pb;
    size_t la = py_len(a->str), lb = py_len(b->str);
    int c = strncmp(a->str, b->str, la < lb ? la : lb);

    return c != 0 ? c : (la > lb) - (la < lb);
}

static int
by_py(const void *pa, const void *pb)
{
    const struct pyslot *a = pa, *b = pb;

    if (a->unrec_ns != b->unrec_ns)
        return a->unrec_ns > b->unrec_ns ? -1 : 1;
    return strcmp(a->str, b->str);
}

/* Fills p; on return p->v holds the read thread's named frames, by their
 * own unrecorded time (p->n of them), and *named_ns their sum. */
static enum pr_status
py_frames(const struct pr_trace *t, const struct pr_steps *s,
          const struct span *v, size_t n, struct pyframes *p, double *named_ns,
          struct pr_error *err)
{
    int64_t lo = s->v[0].host_start_ns, hi = s->v[s->n - 1].host_end_ns;
    size_t i, k, last = 0, best = 0;

    *named_ns = 0;
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        int64_t a = e->ts_ns, b = e->ts_ns + e->dur_ns, g;
        uint64_t key;
        struct pythread *th;
        size_t slot;

        if (e->kind != PR_KIND_PY_FUNCTION || e->dur_ns <= 0 ||
            e->name == PR_STR_NONE || a >= hi || b <= lo)
            continue;
        key = (uint64_t)pr_event_pid(t, e) << 32 | pr_event_tid(t, e);
        if (last >= p->nth || p->th[last].key != key) {
            for (last = 0; last < p->nth && p->th[last].key != key; last++)
                ;
            if (last == p->nth) {
                if (pr_grow((void **)&p->th, &p->thcap, p->nth + 1,
                            sizeof(*p->th)) != PR_OK)
                    goto nomem;
                p->th[p->nth++] = (struct pythread){key, NULL, 0, 0, 0, 0};
            }
        }
        th = &p->th[last];
        while (th->depth > 0 && th->stack[th->depth - 1].b <= a)
            th->depth--;
        if (th->depth > 0 && th->stack[th->depth - 1].b < b)
            b = th->stack[th->depth - 1].b;
        g = step_gaps(s, v, n, a, b);
        slot = py_slot(t, p, (uint32_t)last, e->name, th->depth == 0);
        if (slot == (size_t)-1 ||
            pr_grow((void **)&th->stack, &th->cap, th->depth + 1,
                    sizeof(*th->stack)) != PR_OK)
            goto nomem;
        p->v[slot].unrec_ns += (double)g;
        p->v[slot].n++;
        if (th->depth > 0)
            p->v[th->stack[th->depth - 1].slot].unrec_ns -= (double)g;
        th->stack[th->depth++] = (struct pyopen){b, slot};
    }
    for (i = 0; i < p->n; i++)
        if (!p->v[i].root && p->v[i].unrec_ns > 0)
            p->th[p->v[i].thread].named_ns += p->v[i].unrec_ns;
    /* the recorded calls' time on each thread with frames, in the steps */
    for (i = 0; p->nth > 1 && i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        uint64_t key;

        if (e->dur_ns <= 0 || e->ts_ns >= hi || e->ts_ns + e->dur_ns <= lo ||
            !recorded(t, e))
            continue;
        key = (uint64_t)pr_event_pid(t, e) << 32 | pr_event_tid(t, e);
        if (last >= p->nth || p->th[last].key != key)
            for (last = 0; last < p->nth && p->th[last].key != key; last++)
                ;
        if (last < p->nth)
            p->th[last].calls_ns += (double)e->dur_ns;
    }
    for (i = 1; i < p->nth; i++)
        if (p->th[i].calls_ns > p->th[best].calls_ns ||
            (p->th[i].calls_ns == p->th[best].calls_ns &&
             p->th[i].named_ns > p->th[best].named_ns))
            best = i;
    /* keep the read thread's named frames, merged by name (a frame is
       named once as an outermost frame and once as an inner one at
       most, and only the inner one is kept) */
    for (i = k = 0; i < p->n; i++)
        if (p->v[i].thread == best && !p->v[i].root && p->v[i].unrec_ns > 0)
            p->v[k++] = p->v[i];
    if (k > 1) { /* one method on many objects is one frame */
        size_t m = 0;

        qsort(p->v, k, sizeof(*p->v), by_py_name);
        for (i = 1; i < k; i++)
            if (by_py_name(&p->v[m], &p->v[i]) == 0) {
                p->v[m].unrec_ns += p->v[i].unrec_ns;
                p->v[m].n += p->v[i].n;
            } else
                p->v[++m] = p->v[i];
        k = m + 1;
        qsort(p->v, k, sizeof(*p->v), by_py);
    }
    p->n = k;
    *named_ns = p->nth > 0 ? p->th[best].named_ns : 0;
    return PR_OK;
nomem:
    return pr_error_set(err, PR_E_NOMEM, "out of memory (host)");
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
          double kept_pct, const struct range *r, size_t nr,
          const struct pyframes *py, double py_pct, int no_dev, char *text,
          size_t cap)
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
    else if (pct >= UNRECORDED_PCT && py_pct >= PY_PCT)
        /* the trace's own Python frames say what the host ran there
           (review 32g #2: timesformer's HF preprocessing, Inductor's
           generated wrapper's call) */
        len = pr_append(text, cap, len,
                        ". The trace's Python frames hold %.*f%% of it: the "
                        "thread that ran the operators was there inside Python "
                        "functions (or C code they call, which may wait), "
                        "outside any recorded operator",
                        pr_pct_prec(py_pct), py_pct);
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
    for (i = 0; py->n > 0 && i < py->n && i < N_WINDOWS; i++) {
        char nm[256];

        fmt_ms(py->v[i].unrec_ns / (double)s->n, a, sizeof(a));
        len = pr_append(
            text, cap, len, "%s%s (%zu call%s): %s%s",
            i > 0                 ? "; "
            : kept_pct < KEPT_PCT ? ". Innermost Python frames of those "
                                    "kept, by their unrecorded time: "
            : py_pct >= PY_PCT || pct < UNRECORDED_PCT
                ? ". Innermost Python frames by their unrecorded time: "
                : ". Python frames hold only part of it; innermost by "
                  "their unrecorded time: ",
            py_show(py->v[i].str, nm, sizeof(nm)), py->v[i].n,
            py->v[i].n == 1 ? "" : "s", a, capture ? "" : " a step");
    }
    for (i = 0; i < nr && shown < N_WINDOWS && r[i].unrec_ns > 0; i++) {
        /* the Python frames are named above, innermost first */
        if (py->n > 0 && r[i].py)
            continue;
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
                        shown       ? "; "
                        : py->n > 0 ? ". Other ranges: "
                                    : ". Where: ",
                        r[i].str, r[i].n, r[i].n == 1 ? "" : "s", a, b,
                        pr_pct_prec(rp), rp);
        shown++;
    }
    pr_append(text, cap, len, ".");
}

/* An Nsight Systems export's operators are PyTorch's emit_nvtx ranges
 * (nsys.c): how many, beside its kernels, since each is host work of the
 * profiler's own (an NVTX push and pop, its name formatted) that a run
 * without emit_nvtx does not do (issue #29: a CS336 A100 export's 13,771
 * operator ranges over 1,905 kernels, "bound by the host").  Left out for
 * other producers. */
static void
nvtx_counts(const struct pr_trace *t, struct pr_row_host_coverage *row)
{
    size_t i;

    if (strcmp(pr_trace_str(t, t->format), "nsys") != 0) {
        pr_rows_omit(PR_RO_RUNS_HOST_COVERAGE, row,
                     PR_SR_RUNS_HOST_COVERAGE_PR_K_NVTX_OPS);
        pr_rows_omit(PR_RO_RUNS_HOST_COVERAGE, row,
                     PR_SR_RUNS_HOST_COVERAGE_PR_K_KERNEL_CALLS);
        return;
    }
    for (i = 0; i < t->n_events; i++) {
        row->nvtx_ops += t->events[i].kind == PR_KIND_HOST_OP;
        row->kernel_calls += t->events[i].kind == PR_KIND_DEVICE_TASK;
    }
}

enum pr_status
pr_hostcov_fill(const struct pr_trace *t, const struct pr_steps *s, cJSON *run,
                struct pr_notes *notes, struct pr_error *err)
{
    struct span *v = NULL;
    struct range *r = NULL;
    struct pyframes py = {0};
    size_t n, i, nr = 0;
    double py_ns = 0, py_pct = NAN;
    cJSON *frames = NULL;
    double un = 0, len = 0, pct, kept_pct = NAN, lead = 0, tail = 0;
    int capture = s->basis == PR_STEPS_BASIS_CAPTURE;
    char text[1600];
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
    st = py_frames(t, s, v, n, &py, &py_ns, err);
    if (st == PR_OK && py_ns > 0 && un > 0) {
        /* a trace that dropped events dropped frames too: their time
           is their parents', and no share is read from it */
        py_pct = kept_pct < KEPT_PCT ? NAN : 100.0 * py_ns / un;
        py_pct = py_pct > 100 ? 100 : py_pct;
        frames = cJSON_CreateArray();
        for (i = 0; frames != NULL && i < py.n && i < N_WINDOWS; i++) {
            char nm[256];

            if (!cJSON_AddItemToArray(
                    frames,
                    cJSON_CreateString(py_show(py.v[i].str, nm, sizeof(nm))))) {
                cJSON_Delete(frames);
                frames = NULL;
            }
        }
        if (frames == NULL)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory (host)");
    }
    if (st == PR_OK && (pct >= UNRECORDED_PCT || kept_pct < KEPT_PCT)) {
        st = ranges(t, s, v, n, &r, &nr, err);
        if (st == PR_OK)
            note_text(t, s, pct, un / (double)s->n, len / (double)s->n, lead,
                      tail, kept_pct, r, nr, &py, py_pct,
                      pr_sget_run_device_unrecorded(run), text, sizeof(text));
        free(r);
    }
    py_free(&py);
    free(v);
    if (st != PR_OK) {
        cJSON_Delete(frames);
        return st;
    }
    row = (struct pr_row_host_coverage){
        .unrecorded_pct = pct,
        .unrecorded_us = un / (double)s->n / 1e3,
        .steps = (int64_t)s->n,
        .kept_events_pct = kept_pct,
        .note = text[0] != '\0' ? text : NULL,
        .python_pct = py_pct,
        .python_frames = frames,
    };
    nvtx_counts(t, &row);
    cJSON *obj = pr_rows_row(PR_RO_RUNS_HOST_COVERAGE, &row);

    cJSON_Delete(frames);
    if (text[0] != '\0')
        pr_notes_row(notes, "host_unrecorded", 1, text);
    return pr_emit_put(run, PR_K_HOST_COVERAGE, obj, "host coverage", err);
}

/* testtrace.h - build small traces by hand for the analysis tests, without
 * the JSON reader.  Times are given in whole microseconds (as in a trace
 * file) and stored as nanoseconds.  Every helper asserts on allocation
 * failure, so tests read as a list of events. */
#ifndef PROFREPORT_TESTTRACE_H
#define PROFREPORT_TESTTRACE_H

#include <math.h>
#include <string.h>

#include "profreport/shapes.h"
#include "profreport/trace.h"

static inline uint32_t
tt_str(struct pr_trace *t, const char *s)
{
    uint32_t id = pr_strtab_intern(t->strs, s, strlen(s));

    assert_true(id != PR_STR_NONE);
    return id;
}

static inline struct pr_event *
tt_event(struct pr_trace *t, enum pr_kind kind, const char *name,
         const char *tid, double ts_us, double dur_us)
{
    uint32_t n = tt_str(t, name), tidn = tt_str(t, tid);
    uint32_t pid = tt_str(t, "100");
    struct pr_event *e = pr_trace_add_event(t);

    assert_non_null(e);
    e->kind = (uint8_t)kind;
    e->name = n;
    assert_int_equal(pr_event_set_where(t, e, pr_event_cat(t, e), pid, tidn),
                     PR_OK);
    e->ts_ns = (int64_t)llround(ts_us * 1000.0);
    e->dur_ns = (int64_t)llround(dur_us * 1000.0);
    e->order = (uint32_t)(t->n_events - 1);
    return e;
}

/* A host event (cpu_op by default) with an op side record. */
static inline void
tt_host(struct pr_trace *t, enum pr_kind kind, const char *name,
        const char *tid, double ts_us, double dur_us, int64_t ext,
        const char *dims, const char *types)
{
    uint32_t dims_id = dims ? tt_str(t, dims) : PR_STR_NONE;
    uint32_t types_id = types ? tt_str(t, types) : PR_STR_NONE;
    uint32_t info;
    struct pr_op_info *op = pr_trace_add_op(t, &info);
    struct pr_event *e;

    assert_non_null(op);
    op->input_dims = dims_id;
    op->input_types = types_id;
    /* as ingest does: each text parsed once into the model */
    assert_int_equal(pr_shapes_note(t, PR_SHAPES_DIMS, dims_id), PR_OK);
    assert_int_equal(pr_shapes_note(t, PR_SHAPES_TYPES, types_id), PR_OK);
    e = tt_event(t, kind, name, tid, ts_us, dur_us);
    assert_int_equal(pr_event_set_external_id(t, e, ext), PR_OK);
    e->info = info;
}

static inline void
tt_op(struct pr_trace *t, const char *name, double ts_us, double dur_us,
      int64_t ext)
{
    tt_host(t, PR_KIND_HOST_OP, name, "1", ts_us, dur_us, ext, NULL, NULL);
}

static inline void
tt_rt(struct pr_trace *t, const char *name, double ts_us, double dur_us,
      int64_t corr, int64_t ext)
{
    struct pr_event *e =
        tt_event(t, PR_KIND_RUNTIME_CALL, name, "1", ts_us, dur_us);

    assert_int_equal(pr_event_set_correlation(t, e, corr), PR_OK);
    assert_int_equal(pr_event_set_external_id(t, e, ext), PR_OK);
}

/* A kernel/memcpy/memset on GPU `dev` (stream 7); bps/occ < -1 = absent. */
static inline void
tt_dev(struct pr_trace *t, enum pr_kind kind, const char *name, int dev,
       double ts_us, double dur_us, int64_t corr, double bps, double occ)
{
    uint32_t info;
    struct pr_gpu_info *g = pr_trace_add_gpu(t, &info);
    struct pr_event *e;

    assert_non_null(g);
    g->device = dev;
    g->stream = 7;
    if (bps > -1)
        g->blocks_per_sm = bps;
    if (occ > -1)
        g->occupancy_pct = occ;
    e = tt_event(t, kind, name, "stream 7", ts_us, dur_us);
    assert_int_equal(pr_event_set_correlation(t, e, corr), PR_OK);
    e->info = info;
    assert_int_equal(pr_event_set_where(t, e, pr_event_cat(t, e),
                                        tt_str(t, "0"), pr_event_tid(t, e)),
                     PR_OK);
}

static inline void
tt_kernel(struct pr_trace *t, const char *name, double ts_us, double dur_us,
          int64_t corr)
{
    tt_dev(t, PR_KIND_DEVICE_TASK, name, 0, ts_us, dur_us, corr, -2, -2);
}

static inline void
tt_device(struct pr_trace *t, const char *name, int major, int minor, int sms,
          int64_t mem)
{
    uint32_t n = tt_str(t, name);
    struct pr_device *d = pr_trace_add_device(t);

    assert_non_null(d);
    d->id = (int64_t)(t->n_devices - 1);
    d->name = n;
    d->compute_major = major;
    d->compute_minor = minor;
    d->num_sms = sms;
    d->total_global_mem = mem;
}

/* |a - b| <= 1e-9 * max(1, |b|) */
static inline void
tt_near(double a, double b)
{
    double tol = 1e-9 * (fabs(b) > 1 ? fabs(b) : 1);

    if (!(fabs(a - b) <= tol))
        fail_msg("%.12g != %.12g", a, b);
}

#endif

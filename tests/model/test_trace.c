/* test_trace.c - filling the model as a producer other than Kineto does:
 * spans, host ops with their inputs (parsed once, for the analyses), device
 * tasks, copies with their direction, collectives and memory records,
 * all through the pr_trace_add_* descriptors; then the sort. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/phases.h"
#include "profreport/shapes.h"
#include "profreport/trace.h"

static struct pr_span
span(const char *name, const char *tid, int64_t ts, int64_t dur)
{
    struct pr_span s = {name, "test", "1", tid, ts, dur, PR_NO_ID, PR_NO_ID};

    return s;
}

static void
test_producer_api(void **state)
{
    static struct pr_op_inputs in;
    struct pr_trace *t = pr_trace_new();
    struct pr_span s = span("MatMulV2", "7", 300, 40);
    struct pr_task_desc d = pr_trace_task_desc();
    struct pr_op_desc op = {
        "[[64, 512], [512, 1000]]", "[float, float]", NULL, 12, -1, -1.0};
    struct pr_mem_desc m = {1, 0, 4096, 1 << 20, 1048576.0, NAN};
    const struct pr_event *e;
    const struct pr_gpu_info *g;
    size_t at;

    (void)state;
    assert_non_null(t);
    /* a device task on stream 7, launched by correlation 9 */
    d.device = 0;
    d.stream = 7;
    d.grid[0] = 24;
    d.block[0] = 256;
    s.correlation = 9;
    assert_int_equal(pr_trace_add_task(t, PR_KIND_DEVICE_TASK, &s, &d, &at),
                     PR_OK);
    assert_int_equal(at, 0);
    /* its host op, with shapes and types */
    s = span("aten::mm", "main", 100, 250);
    s.external_id = 5;
    assert_int_equal(pr_trace_add_host_op(t, PR_KIND_HOST_OP, &s, &op, &at),
                     PR_OK);
    assert_int_equal(at, 1);
    /* a step, a copy, a collective, an allocation */
    s = span("ProfilerStep#3", "main", 50, 400);
    assert_int_equal(pr_trace_add_span(t, PR_KIND_ANNOTATION, &s, NULL), PR_OK);
    d = pr_trace_task_desc();
    d.bytes = 8192;
    d.dir = PR_DIR_D2H;
    s = span("SDMA", "8", 360, -5); /* a negative duration is stored as 0 */
    assert_int_equal(pr_trace_add_task(t, PR_KIND_COPY, &s, &d, NULL), PR_OK);
    d = pr_trace_task_desc();
    d.collective = "allreduce";
    d.dtype = "BFloat16";
    d.nelems = 1024;
    d.group_size = 8;
    s = span("hcom_allReduce__586_0_1", "9", 380, 10);
    assert_int_equal(pr_trace_add_task(t, PR_KIND_DEVICE_TASK, &s, &d, NULL),
                     PR_OK);
    s = span("[memory]", "main", 120, 99);
    assert_int_equal(pr_trace_add_memory(t, &s, &m, NULL), PR_OK);
    assert_int_equal(t->n_events, 6);

    pr_trace_finish(t);
    e = &t->events[0]; /* the step, first in time */
    assert_int_equal(e->kind, PR_KIND_ANNOTATION);
    assert_string_equal(pr_trace_str(t, e->name), "ProfilerStep#3");
    assert_int_equal(e->order, 2);
    e = &t->events[1];
    assert_int_equal(e->kind, PR_KIND_HOST_OP);
    assert_true(pr_event_external_id(t, e) == 5 && e->dur_ns == 250);
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, e)), "main");
    assert_string_equal(pr_trace_str(t, pr_event_cat(t, e)), "test");
    assert_true(pr_trace_op(t, e, &(struct pr_op_info){0})->seq == 12);
    /* the texts were parsed once, as ingest does */
    assert_true(pr_shapes_noted(
        t, PR_SHAPES_DIMS,
        pr_trace_op(t, e, &(struct pr_op_info){0})->input_dims));
    pr_shapes_get(t, pr_trace_op(t, e, &(struct pr_op_info){0})->input_dims,
                  pr_trace_op(t, e, &(struct pr_op_info){0})->input_types,
                  pr_trace_op(t, e, &(struct pr_op_info){0})->concrete_inputs,
                  &in);
    assert_int_equal(in.st, PR_OK);
    assert_true(in.shapes.arg[1].dims[1] == 1000);
    assert_int_equal(in.types.t[0], PR_DT_FP32);
    assert_false(in.has_concrete);
    e = &t->events[2];
    assert_int_equal(e->kind, PR_KIND_MEMORY_RECORD);
    assert_true(e->dur_ns == 0);
    assert_true(pr_trace_mem(t, e)->bytes == 1 << 20);
    assert_true(isnan(pr_trace_mem(t, e)->total_reserved));
    e = &t->events[3];
    g = pr_trace_gpu(t, e, &(struct pr_gpu_info){0});
    assert_int_equal(e->kind, PR_KIND_DEVICE_TASK);
    assert_true(pr_event_correlation(t, e) == 9);
    assert_true(g->stream == 7 && g->grid[0] == 24 && g->block[0] == 256);
    assert_true(g->grid[1] == 0 && g->bytes == -1);
    assert_int_equal(g->collective, PR_STR_NONE);
    e = &t->events[4];
    g = pr_trace_gpu(t, e, &(struct pr_gpu_info){0});
    assert_int_equal(e->kind, PR_KIND_COPY);
    assert_true(e->dur_ns == 0 && g->bytes == 8192);
    assert_int_equal(g->copy_dir, PR_DIR_D2H);
    assert_true(g->device == -1);
    g = pr_trace_gpu(t, &t->events[5], &(struct pr_gpu_info){0});
    assert_string_equal(pr_trace_str(t, g->collective), "allreduce");
    assert_string_equal(pr_trace_str(t, g->dtype), "BFloat16");
    assert_true(g->in_nelems == 1024 && g->group_size == 8);
    pr_trace_free(t);
}

/* The event keeps its ids as 32-bit codes and its category, process and
 * thread as one index: every id an int64 can hold comes back as it was
 * set, wide ones from the trace's table (a slot reused when the id
 * changes), and equal triples share an index. */
static void
test_compact_event(void **state)
{
    static const int64_t ids[] = {
        0,       1,         INT32_MAX, (int64_t)INT32_MAX + 1,
        -1,      INT32_MIN, INT64_MAX, INT64_MIN + 1,
        PR_NO_ID};
    struct pr_trace *t = pr_trace_new();
    struct pr_span s = span("k", "7", 0, 1);
    struct pr_event *e;
    uint32_t where;
    size_t i, n_wide;

    (void)state;
    assert_int_equal(sizeof(struct pr_event), 40);
    assert_int_equal(pr_trace_add_span(t, PR_KIND_OTHER, &s, NULL), PR_OK);
    e = &t->events[0];
    assert_true(pr_event_external_id(t, e) == PR_NO_ID);
    assert_true(pr_event_correlation(t, e) == PR_NO_ID);
    for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        assert_int_equal(pr_event_set_external_id(t, e, ids[i]), PR_OK);
        assert_int_equal(pr_event_set_correlation(t, e, ids[i] ^ 1), PR_OK);
        assert_true(pr_event_external_id(t, e) == ids[i]);
        assert_true(pr_event_correlation(t, e) == (ids[i] ^ 1));
    }
    /* a wide id replacing a wide id takes its slot */
    assert_int_equal(pr_event_set_external_id(t, e, INT64_MAX - 4), PR_OK);
    n_wide = t->wide.n;
    assert_int_equal(pr_event_set_external_id(t, e, INT64_MAX - 5), PR_OK);
    assert_int_equal(t->wide.n, n_wide);
    assert_true(pr_event_external_id(t, e) == INT64_MAX - 5);
    /* the triple: the empty one is index 0; equal triples share one */
    assert_string_equal(pr_trace_str(t, pr_event_cat(t, e)), "test");
    assert_string_equal(pr_trace_str(t, pr_event_pid(t, e)), "1");
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, e)), "7");
    where = e->where;
    assert_int_equal(pr_trace_add_span(t, PR_KIND_OTHER, &s, NULL), PR_OK);
    e = &t->events[1];
    assert_int_equal(e->where, where);
    assert_int_equal(
        pr_event_set_where(t, e, PR_STR_EMPTY, PR_STR_EMPTY, PR_STR_EMPTY),
        PR_OK);
    assert_int_equal(e->where, 0);
    assert_int_equal(pr_event_tid(t, e), PR_STR_EMPTY);
    for (i = 0; i < 1000; i++) { /* past a few rehashes */
        uint32_t id;

        assert_int_equal(pr_wheres_intern(&t->wheres, 1, (uint32_t)i, 2, &id),
                         PR_OK);
        assert_int_equal(pr_wheres_get(&t->wheres, id).pid, i);
    }
    /* earlier triples keep their index through the rehashes */
    assert_int_equal(t->events[0].where, where);
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, &t->events[0])), "7");
    pr_trace_free(t);
}

/* Op records are kept in 16 bytes: every sequence number and forward
 * thread comes back exactly (wide ones from the trace's table), equal
 * input texts share one triple, FLOPs are kept apart for the records that
 * have them, and a record completed after others were added (or read
 * before pr_trace_finish() stores the last one) reads as written. */
static void
test_compact_op(void **state)
{
    static const int64_t vals[] = {
        -1, 0,         7,         INT32_MAX, (int64_t)INT32_MAX + 1,
        -2, INT32_MIN, INT64_MAX, INT64_MIN, PR_NO_ID + 1};
    static const double flops[] = {-1, 0, 2.5e9, NAN, -1, 1e300};
    const size_t n = sizeof(vals) / sizeof(vals[0]);
    struct pr_trace *t = pr_trace_new();
    struct pr_op_info ob, *o;
    uint32_t at, dims = pr_strtab_intern(t->strs, "[[2, 3]]", 8);
    size_t i;

    (void)state;
    assert_int_equal(sizeof(struct pr_op_rec), 16);
    for (i = 0; i < n; i++) {
        o = pr_trace_add_op(t, &at);
        assert_non_null(o);
        assert_int_equal(at, i);
        /* a new record reads as absent */
        pr_trace_op_at(t, at, &ob);
        assert_true(ob.seq == -1 && ob.fwd_tid == -1 && ob.flops == -1);
        assert_int_equal(ob.input_dims, PR_STR_NONE);
        assert_int_equal(ob.stack, PR_STR_NONE);
        o->seq = vals[i];
        o->fwd_tid = vals[n - 1 - i];
        o->flops = flops[i % 6];
        o->input_dims = i % 2 ? dims : PR_STR_NONE;
        o->stack = (uint32_t)i;
    }
    pr_trace_finish(t);
    assert_int_equal(t->op_inputs.n, 3); /* (0,0,0), and the two used */
    assert_int_equal(t->n_op_flops, 7);  /* none for the three -1 */
    for (i = 0; i < n; i++) {
        pr_trace_op_at(t, (uint32_t)i, &ob);
        assert_true(ob.seq == vals[i]);
        assert_true(ob.fwd_tid == vals[n - 1 - i]);
        if (isnan(flops[i % 6]))
            assert_true(isnan(ob.flops));
        else
            assert_true(ob.flops == flops[i % 6]);
        assert_int_equal(ob.input_dims, i % 2 ? dims : PR_STR_NONE);
        assert_int_equal(ob.input_types, PR_STR_NONE);
        assert_int_equal(ob.stack, i);
    }
    /* completing an earlier record: FLOPs added in the middle, removed */
    o = pr_trace_op_edit(t, 2);
    assert_non_null(o);
    assert_true(o->flops == 2.5e9 && o->seq == 7);
    o->flops = -1;
    o->seq = INT64_MIN + 3;
    o = pr_trace_op_edit(t, 4);
    assert_non_null(o);
    o->flops = 4;
    assert_null(pr_trace_op_edit(t, (uint32_t)n));
    pr_trace_op_at(t, 2, &ob);
    assert_true(ob.flops == -1 && ob.seq == INT64_MIN + 3);
    pr_trace_op_at(t, 4, &ob); /* still the draft */
    assert_true(ob.flops == 4);
    pr_trace_finish(t);
    pr_trace_op_at(t, 4, &ob);
    assert_true(ob.flops == 4 && ob.seq == vals[4]);
    pr_trace_op_at(t, 3, &ob);
    assert_true(isnan(ob.flops) && ob.seq == vals[3]);
    assert_int_equal(t->n_op_flops, 7);
    for (i = 1; i < t->n_op_flops; i++)
        assert_true(t->op_flops[i - 1].op < t->op_flops[i].op);
    pr_trace_free(t);
}

/* Kernel records are kept in 72 bytes after pr_trace_finish(), the
 * fields few records have apart: each record reads back as it was
 * written, and no more than the records that have them keep the rest. */
static void
test_compact_gpu(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_gpu_info want[6], got;
    struct pr_span s = span("k", "7", 0, 1);
    uint32_t at;
    size_t i;

    (void)state;
    assert_int_equal(sizeof(struct pr_gpu_rec), 72);
    for (i = 0; i < 6; i++) {
        struct pr_gpu_info *g;
        struct pr_event *e;

        assert_int_equal(pr_trace_add_span(t, PR_KIND_DEVICE_TASK, &s, NULL),
                         PR_OK);
        e = &t->events[t->n_events - 1];
        g = pr_trace_add_gpu(t, &at);
        assert_non_null(g);
        e->info = at;
        g->device = (int32_t)i;
        g->grid[2] = 3;
        g->block[0] = 256;
        g->blocks_per_sm = 0.5 * (double)i;
        g->bytes = (int64_t)i << 40;
        g->unit = PR_UNIT_VECTOR;
        g->hf32 = 1;
        if (i == 1) {
            g->collective = pr_strtab_intern(t->strs, "allreduce", 9);
            g->in_nelems = (int64_t)1 << 33;
            g->group_size = 8;
        } else if (i == 3) {
            g->matrix_util_pct = 87.5;
        } else if (i == 4) {
            g->measured_flops = 1e12;
            g->task_id = INT64_MAX;
            g->dev_shapes = pr_strtab_intern(t->strs, "NC1HWC0", 7);
        }
        want[i] = *g;
    }
    pr_trace_finish(t);
    assert_null(t->gpu);
    assert_int_equal(t->n_gpu_more, 3);
    assert_null(pr_trace_add_gpu(t, &at)); /* no record after the finish */
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        assert_ptr_equal(pr_trace_gpu(t, e, &got), &got);
        assert_memory_equal(&got, &want[e->order], sizeof(got));
    }
    s.name = "op";
    assert_int_equal(pr_trace_add_span(t, PR_KIND_HOST_OP, &s, NULL), PR_OK);
    assert_null(pr_trace_gpu(t, &t->events[t->n_events - 1], &got));
    pr_trace_free(t);
}

/* The time an HCCL operation's bytes are rated over (issue #30): its
 * Transit Time when above 0; when 0, its link types' Transit Time, SDMA +
 * RDMA (HCCS, PCIE and SIO are parts of SDMA, counted only without it). */
static void
test_comm_rated(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_comm_stat *c;
    int why = -1;
    const char *type = NULL;
    double bytes = -1;
    int64_t ns = -1;

    (void)state;
    assert_non_null(t);
    c = pr_phases_add_comm(t);
    assert_non_null(c);
    /* no op-level Transit Time at all: unknown, never the links' */
    c->sdma_bytes = 10e6;
    c->sdma_ns = 2000000;
    assert_true(pr_comm_stat_rated_ns(c, &why) == PR_PHASE_UNKNOWN);
    assert_int_equal(why, PR_COMM_RATED);
    assert_int_equal(pr_comm_stat_link(c, &type, &bytes, &ns), 0);
    /* above 0: its own */
    c->transit_ns = 500000;
    c->elapse_ns = 600000;
    assert_true(pr_comm_stat_rated_ns(c, &why) == 500000);
    assert_int_equal(why, PR_COMM_RATED);
    assert_int_equal(pr_comm_stat_link(c, &type, &bytes, &ns), 0);
    /* longer than its Elapse: not rated */
    c->elapse_ns = 400000;
    assert_true(pr_comm_stat_rated_ns(c, &why) == -1);
    assert_int_equal(why, PR_COMM_OVER_ELAPSE);
    c->elapse_ns = 2000000;
    /* 0: never its links' summed time (issue #30: 7 transfers side by
       side), though the per-link figure is given: HCCS, SDMA's one part */
    c->transit_ns = 0;
    c->hccs_bytes = 10e6;
    c->hccs_ns = 2000000;
    assert_true(pr_comm_stat_rated_ns(c, &why) == -1);
    assert_int_equal(why, PR_COMM_TRANSIT_ZERO);
    assert_int_equal(pr_comm_stat_link(c, &type, &bytes, &ns), 1);
    assert_string_equal(type, "HCCS");
    assert_true(bytes == 10e6 && ns == 2000000);
    /* SDMA and RDMA both carried bytes: no one link type */
    c->rdma_bytes = 6e6;
    c->rdma_ns = 1000000;
    assert_int_equal(pr_comm_stat_link(c, &type, &bytes, &ns), 0);
    assert_null(type);
    /* two parts without an SDMA entry: none either */
    c->rdma_bytes = -1;
    c->sdma_bytes = -1;
    c->pcie_bytes = 2e6;
    c->pcie_ns = 1000000;
    assert_int_equal(pr_comm_stat_link(c, &type, &bytes, &ns), 0);
    /* RDMA alone */
    c->hccs_bytes = c->pcie_bytes = 0;
    c->rdma_bytes = 6e6;
    assert_int_equal(pr_comm_stat_link(c, &type, &bytes, &ns), 1);
    assert_string_equal(type, "RDMA");
    assert_true(bytes == 6e6 && ns == 1000000);
    /* a few bytes: latency, neither rated nor given a per-link figure */
    c->rdma_bytes = 4;
    assert_int_equal(pr_comm_stat_link(c, &type, &bytes, &ns), 0);
    assert_true(pr_comm_stat_rated_ns(c, &why) == -1);
    assert_int_equal(why, PR_COMM_SMALL);
    c->transit_ns = 1000;
    assert_true(pr_comm_stat_rated_ns(c, &why) == -1);
    assert_int_equal(why, PR_COMM_SMALL);
    pr_trace_free(t);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_producer_api),
        cmocka_unit_test(test_compact_event),
        cmocka_unit_test(test_compact_op),
        cmocka_unit_test(test_compact_gpu),
        cmocka_unit_test(test_comm_rated),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

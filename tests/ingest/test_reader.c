/* test_reader.c - ingest from memory: the three Kineto generations, bare
 * arrays, quirks seen in the wild (numbers as strings, control characters,
 * key order, NaN), gzip, batching across threads, and every error case with
 * its code and message. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "profreport/reader.h"
#include "profreport/shapes.h"

static struct pr_trace *
load_opts(const char *json, size_t len, const struct pr_read_opts *o)
{
    struct pr_trace *t = NULL;
    struct pr_error err;

    pr_error_clear(&err);
    if (pr_reader_load_mem("t.json", json, len, o, &t, &err) != PR_OK)
        fail_msg("load failed: %s", err.msg);
    return t;
}

static struct pr_trace *
load(const char *json)
{
    return load_opts(json, strlen(json), NULL);
}

/* Loading must fail with `code` and a message holding `sub`. */
static void
load_err_n(const char *json, size_t len, enum pr_status code, const char *sub)
{
    struct pr_trace *t = NULL;
    struct pr_error err;
    enum pr_status st;

    pr_error_clear(&err);
    st = pr_reader_load_mem("t.json", json, len, NULL, &t, &err);
    if (st != code || strstr(err.msg, sub) == NULL ||
        strncmp(err.msg, "t.json: ", 8) != 0)
        fail_msg("want %d with \"%s\", got %d: %s", code, sub, st, err.msg);
    assert_null(t);
}

static void
load_err(const char *json, enum pr_status code, const char *sub)
{
    load_err_n(json, strlen(json), code, sub);
}

static const char *
str(const struct pr_trace *t, uint32_t id)
{
    return pr_trace_str(t, id);
}

/* The event with file position `order`. */
static const struct pr_event *
ev(const struct pr_trace *t, uint32_t order)
{
    size_t i;

    for (i = 0; i < t->n_events; i++) {
        if (t->events[i].order == order)
            return &t->events[i];
    }
    fail_msg("no event %u", order);
    return NULL;
}

static const char gen2021[] =
    "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n"
    "    {\"id\": 0, \"name\": \"Tesla V100-DGXS-32GB\", "
    "\"totalGlobalMem\": 34084028416, \"computeMajor\": 7, "
    "\"computeMinor\": 0, \"maxThreadsPerBlock\": 1024, "
    "\"maxThreadsPerMultiprocessor\": 2048, \"regsPerBlock\": 65536, "
    "\"regsPerMultiprocessor\": 65536, \"warpSize\": 32, "
    "\"sharedMemPerBlock\": 49152, \"sharedMemPerMultiprocessor\": 98304, "
    "\"numSms\": 80, \"sharedMemPerBlockOptin\": 98304}\n  ],\n"
    "  \"traceEvents\": [\n"
    "  {\"ph\": \"X\", \"cat\": \"Operator\", \"name\": \"aten::conv2d\", "
    "\"pid\": 25738, \"tid\": \"25738\", \"ts\": 1623142623460111, "
    "\"dur\": 25, \"args\": {\"Device\": 25738, \"External id\": 2, "
    "\"Trace name\": \"PyTorch Profiler\", \"Input Dims\": [[32, 3, 224, "
    "224], [64,3,7,7], []], \"Call stack\": \"a.py(1): f;b.py(2): g\", "
    "\"Input type\": [\"float\", \"float\", \"\"]}},\n"
    "  {\"ph\": \"X\", \"cat\": \"Runtime\", \"name\": \"cudaLaunchKernel\", "
    "\"pid\": 25738, \"tid\": \"25738\", \"ts\": 1623142623460120, "
    "\"dur\": 5, \"args\": {\"cbid\": 211, \"correlation\": 7, "
    "\"external id\": 2, \"external ts\": 1623142623460111}},\n"
    "  {\"ph\": \"X\", \"cat\": \"Kernel\", \"name\": \"void k<1>()\", "
    "\"pid\": 0, \"tid\": \"stream 7\", \"ts\": 1623142623460130, "
    "\"dur\": 40, \"args\": {\"queued\": 0, \"device\": 0, \"context\": 1, "
    "\"stream\": 7, \"correlation\": 7, \"external id\": 2, "
    "\"registers per thread\": 32, \"shared memory\": 0, "
    "\"blocks per SM\": \"inf\", \"warps per SM\": 1, \"grid\": [1, 2, 3], "
    "\"block\": [4, 5, 6], \"est. achieved occupancy %\": 50}},\n"
    "  {\"ph\": \"i\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": 25738, "
    "\"tid\": 25738, \"ts\": 1623142623460200, \"args\": {\"Device Type\": 1, "
    "\"Device Id\": 0, \"Bytes\": -512}},\n"
    "  {\"ph\": \"s\", \"id\": 7, \"pid\": 25738, \"tid\": 25738, "
    "\"ts\": 1623142623460120, \"cat\": \"async\", \"name\": \"launch\"},\n"
    "  {\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": 0, "
    "\"args\": {\"name\": \"GPU 0\"}}\n  ]\n}\n";

static void
test_gen2021(void **state)
{
    struct pr_trace *t = load(gen2021);
    const struct pr_event *op = ev(t, 0), *rt = ev(t, 1), *k = ev(t, 2);
    const struct pr_op_info *oi = pr_trace_op(t, op, &(struct pr_op_info){0});
    const struct pr_gpu_info *g = pr_trace_gpu(t, k, &(struct pr_gpu_info){0});
    const struct pr_mem_info *m = pr_trace_mem(t, ev(t, 3));
    const struct pr_device *d = pr_trace_device(t, 0);

    (void)state;
    assert_int_equal(t->n_trace_events, 6);
    assert_int_equal(t->n_events, 4);
    assert_true(t->bytes == sizeof(gen2021) - 1);
    assert_int_equal(op->kind, PR_KIND_HOST_OP);
    assert_string_equal(str(t, pr_event_cat(t, op)), "Operator");
    assert_string_equal(str(t, op->name), "aten::conv2d");
    assert_true(op->ts_ns == 1623142623460111000LL);
    assert_true(op->dur_ns == 25000);
    assert_true(pr_event_external_id(t, op) == 2);
    /* the number 25738 and the string "25738" are one thread */
    assert_int_equal(pr_event_pid(t, op), pr_event_tid(t, op));
    assert_non_null(oi);
    assert_string_equal(str(t, oi->input_dims),
                        "[[32, 3, 224, 224], [64, 3, 7, 7], []]");
    assert_string_equal(str(t, oi->input_types), "['float', 'float', '']");
    /* plain: interned straight from the text */
    assert_string_equal(str(t, oi->stack), "a.py(1): f;b.py(2): g");
    /* parsed once, at ingest, for the analyses */
    assert_true(pr_shapes_noted(t, PR_SHAPES_DIMS, oi->input_dims));
    assert_true(pr_shapes_noted(t, PR_SHAPES_TYPES, oi->input_types));
    {
        static struct pr_op_inputs in;

        pr_shapes_get(t, oi->input_dims, oi->input_types, PR_STR_NONE, &in);
        assert_int_equal(in.st, PR_OK);
        assert_int_equal(in.shapes.n, 3);
        assert_true(in.shapes.arg[1].dims[1] == 3);
        assert_true(in.shapes.arg[0].numel == 32 * 3 * 224 * 224);
        assert_int_equal(in.types.t[1], PR_DT_FP32);
        assert_int_equal(in.types.t[2], PR_DT_NONE);
    }
    assert_int_equal(rt->kind, PR_KIND_RUNTIME_CALL);
    assert_true(pr_event_external_id(t, rt) == 2 &&
                pr_event_correlation(t, rt) == 7);
    assert_int_equal(k->kind, PR_KIND_DEVICE_TASK);
    assert_string_equal(str(t, pr_event_tid(t, k)), "stream 7");
    assert_non_null(g);
    assert_int_equal(g->stream, 7);
    assert_int_equal(g->grid[2], 3);
    assert_int_equal(g->block[0], 4);
    assert_int_equal(g->regs_per_thread, 32);
    assert_true(isinf(g->blocks_per_sm) && g->blocks_per_sm > 0);
    assert_true(fabs(g->occupancy_pct - 50) < 1e-9);
    assert_non_null(m);
    assert_int_equal(m->device_type, 1);
    assert_true(m->bytes == -512);
    assert_true(isnan(m->total_allocated));
    assert_int_equal(t->n_flows, 0); /* async flows are not kept */
    assert_int_equal(t->n_devices, 1);
    assert_string_equal(str(t, d->name), "Tesla V100-DGXS-32GB");
    assert_true(d->total_global_mem == 34084028416LL);
    assert_int_equal(d->num_sms, 80);
    assert_true(d->smem_per_block_optin == 98304);
    assert_string_equal(str(t, t->format), "kineto");
    assert_false(t->has_base_time);
    pr_trace_free(t);
}

static const char gen2022[] =
    "{\"schemaVersion\": 1, \"record_shapes\": 1, \"distributedInfo\": "
    "{\"backend\": \"nccl\", \"rank\": 1, \"world_size\": 128}, "
    "\"traceEvents\": [\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", "
    "\"pid\": 7, \"tid\": 7, \"ts\": 100, \"dur\": 10, \"args\": "
    "{\"External id\": 5, \"Profiler Event Index\": 3, \"Input Dims\": "
    "[[4], [4]], \"Input type\": [\"float\", \"float\"]}},\n"
    "{\"ph\": \"s\", \"id\": 9, \"pid\": 7, \"tid\": 7, \"ts\": 105, "
    "\"cat\": \"async_cpu_to_gpu\", \"name\": \"async_gpu\", \"bp\": \"e\"},\n"
    "{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD\", "
    "\"pid\": 0, \"tid\": 13, \"ts\": 110, \"dur\": 3, \"args\": "
    "{\"device\": 0, \"stream\": 13, \"correlation\": 9, \"bytes\": 4096, "
    "\"memory bandwidth (GB/s)\": 1.2}}\n]}";

static void
test_gen2022(void **state)
{
    struct pr_trace *t = load(gen2022);
    const struct pr_event *cp = ev(t, 2);

    (void)state;
    assert_int_equal(t->n_trace_events, 3);
    assert_int_equal(t->n_events, 2);
    assert_int_equal(cp->kind, PR_KIND_COPY);
    assert_true(pr_trace_gpu(t, cp, &(struct pr_gpu_info){0})->bytes == 4096);
    assert_int_equal(pr_trace_gpu(t, cp, &(struct pr_gpu_info){0})->copy_dir,
                     PR_DIR_H2D);
    assert_true(t->rank == 1 && t->world_size == 128);
    assert_string_equal(str(t, t->backend), "nccl");
    pr_trace_free(t);
}

static const char gen_now[] =
    "{\"schemaVersion\": 1, \"deviceProperties\": [], \"traceEvents\": [\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", "
    "\"pid\": 1, \"tid\": -5, \"ts\": 4458676522690.655, \"dur\": 12.5, "
    "\"args\": {\"External id\": 10, \"Record function id\": 0, "
    "\"Sequence number\": 4, \"Fwd thread id\": 1, \"Concrete Inputs\": "
    "[\"\", \"\", \"1\"], \"flops\": 48, \"Input Dims\": [[2, 3], [3, 4]], "
    "\"Call stack\": \"torch/nn/functional.py(1848): linear;\\r\\nm.py(7): "
    "f\"}},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\","
    " \"pid\": 1, \"tid\": 5, \"ts\": 4458676522691.001, \"dur\": 2, "
    "\"args\": {\"External id\": 10, \"cbid\": 211, \"correlation\": 77}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, "
    "\"tid\": 7, \"ts\": 4458676522695, \"dur\": 8.25, \"args\": "
    "{\"External id\": 10, \"correlation\": 77, \"device\": 0, "
    "\"stream\": 7, \"blocks per SM\": 0.5, \"grid\": [1, 1, 1], "
    "\"block\": [128, 1, 1], \"occupancy\": {\"limitingFactors\": "
    "\"REGS\"}}},\n"
    "{\"ph\": \"f\", \"id\": 4, \"pid\": 1, \"tid\": 9, \"ts\": 30, "
    "\"cat\": \"fwdbwd\", \"name\": \"fwdbwd\", \"bp\": \"e\"},\n"
    "{\"ph\": \"s\", \"id\": 4, \"pid\": 1, \"tid\": 5, \"ts\": 20, "
    "\"cat\": \"fwdbwd\", \"name\": \"fwdbwd\"},\n"
    "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": "
    "\"nn.Module: Linear_0\", \"pid\": 1, \"tid\": 5, \"ts\": 1, \"dur\": 1, "
    "\"args\": {\"Python id\": 3, \"Python parent id\": null, "
    "\"Python module id\": 0}},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_sync\", \"name\": \"Event Sync\", "
    "\"pid\": 0, \"tid\": 7, \"ts\": 2, \"dur\": 1}\n"
    "], \"traceName\": \"x.json\", \"displayTimeUnit\": \"ms\", "
    "\"baseTimeNanoseconds\": 1719853884000000123}";

static void
test_gen_now(void **state)
{
    struct pr_trace *t = load(gen_now);
    const struct pr_event *mm = ev(t, 0), *k = ev(t, 2), *py = ev(t, 5);
    const struct pr_op_info *oi = pr_trace_op(t, mm, &(struct pr_op_info){0});
    const struct pr_op_info *pi = pr_trace_op(t, py, &(struct pr_op_info){0});

    (void)state;
    assert_int_equal(t->n_trace_events, 7);
    assert_int_equal(t->n_events, 5);
    /* exact ns from 3-decimal us at epoch-ish magnitude */
    assert_true(mm->ts_ns == 4458676522690655LL);
    assert_true(mm->dur_ns == 12500);
    assert_string_equal(str(t, pr_event_tid(t, mm)), "5"); /* |tid| */
    assert_true(oi->seq == 4 && oi->fwd_tid == 1);
    assert_true(fabs(oi->flops - 48) < 1e-9);
    assert_string_equal(str(t, oi->input_dims), "[[2, 3], [3, 4]]");
    assert_int_equal(oi->input_types, PR_STR_NONE);
    assert_string_equal(str(t, oi->concrete_inputs), "[\"\",\"\",\"1\"]");
    assert_true(pr_shapes_noted(t, PR_SHAPES_CONCRETE, oi->concrete_inputs));
    assert_int_equal(k->kind, PR_KIND_DEVICE_TASK);
    assert_true(pr_event_correlation(t, k) == 77);
    assert_true(
        fabs(pr_trace_gpu(t, k, &(struct pr_gpu_info){0})->blocks_per_sm -
             0.5) < 1e-12);
    assert_int_equal(py->kind, PR_KIND_PY_FUNCTION);
    assert_non_null(pr_trace_py(t, py));
    assert_true(pr_trace_py(t, py)->id == 3 &&
                pr_trace_py(t, py)->parent == -1);
    assert_true(pr_trace_py(t, py)->module == 0);
    /* an operator has no Python ids */
    assert_null(pr_trace_py(t, mm));
    /* escaped: through cJSON (torch_npu writes ";\r\n" between frames) */
    assert_string_equal(str(t, oi->stack),
                        "torch/nn/functional.py(1848): linear;\r\nm.py(7): f");
    assert_int_equal(pi->stack, PR_STR_NONE);
    assert_int_equal(ev(t, 6)->kind, PR_KIND_SYNC);
    assert_int_equal(t->n_flows, 2);
    assert_int_equal(t->flows[0].ph, 'f');
    assert_true(t->flows[0].id == 4 && t->flows[0].ts_ns == 30000);
    assert_true(t->has_base_time);
    assert_true(t->base_time_ns == 1719853884000000123LL);
    /* finished: sorted by ts */
    assert_true(t->events[0].ts_ns <= t->events[1].ts_ns);
    pr_trace_free(t);
}

/* NCCL kernels carry the collective's metadata (newer PyTorch). */
/* Kineto's "Record Window End" instant is kept as the trace's window end
 * (the latest of them), not as an event; other instants are not kept. */
static void
test_window_end(void **state)
{
    struct pr_trace *t =
        load("{\"traceEvents\": [\n"
             "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", "
             "\"pid\": 1, \"tid\": 1, \"ts\": 10, \"dur\": 5},\n"
             "{\"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", "
             "\"s\": \"g\", \"pid\": \"Traces\", \"tid\": \"x\", \"ts\": 1},\n"
             "{\"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\", "
             "\"pid\": \"\", \"tid\": \"\", \"ts\": 1800.5},\n"
             "{\"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\", "
             "\"pid\": \"\", \"tid\": \"\", \"ts\": 900}\n]}");

    (void)state;
    assert_int_equal(t->n_events, 1);
    assert_true(t->has_window_end);
    assert_true(t->window_end_ns == 1800500);
    pr_trace_free(t);
    t = load("{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", "
             "\"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 1, "
             "\"dur\": 1}]}");
    assert_false(t->has_window_end);
    pr_trace_free(t);
}

static void
test_collective(void **state)
{
    struct pr_trace *t =
        load("{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":"
             "\"ncclDevKernel_AllReduce_Sum_f32_RING_LL\",\"pid\":0,\"tid\":7,"
             "\"ts\":1,\"dur\":2,\"args\":{\"device\":0,\"stream\":7,"
             "\"Collective name\":\"allreduce\",\"dtype\":\"Float\","
             "\"In msg nelems\":1024,\"Out msg nelems\":1024,"
             "\"Group size\":8}},"
             "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"ts\":1,"
             "\"dur\":2,\"args\":{\"device\":0}}]}");
    const struct pr_gpu_info *g =
        pr_trace_gpu(t, ev(t, 0), &(struct pr_gpu_info){0});
    const struct pr_gpu_info *h =
        pr_trace_gpu(t, ev(t, 1), &(struct pr_gpu_info){0});

    (void)state;
    assert_string_equal(str(t, g->collective), "allreduce");
    assert_string_equal(str(t, g->dtype), "Float");
    assert_true(g->in_nelems == 1024 && g->out_nelems == 1024);
    assert_int_equal(g->group_size, 8);
    assert_int_equal(h->collective, PR_STR_NONE);
    assert_int_equal(h->dtype, PR_STR_NONE);
    assert_true(h->in_nelems == -1 && h->group_size == -1);
    pr_trace_free(t);
}

static void
test_bare_array(void **state)
{
    struct pr_trace *t =
        load("[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,"
             "\"tid\":1,\"ts\":1,\"dur\":2},\n{\"ph\":\"M\"}]");

    (void)state;
    assert_int_equal(t->n_trace_events, 2);
    assert_int_equal(t->n_events, 1);
    assert_string_equal(str(t, t->format), "chrome");
    pr_trace_free(t);
    /* one ph is enough, even of a phase that is not kept */
    t = load(
        "[{\"name\": \"x\"}, {\"ph\": \"M\", \"name\": \"process_name\"}]");
    assert_int_equal(t->n_trace_events, 2);
    assert_int_equal(t->n_events, 0);
    pr_trace_free(t);
}

static void
test_numbers_as_strings(void **state)
{
    struct pr_trace *t = load(
        "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\","
        "\"pid\":7,\"tid\":\"007\",\"ts\":\"100.5\",\"dur\":\"2\","
        "\"args\":{\"stream\":\"3\",\"correlation\":\"12\"}}]}");
    const struct pr_event *e = ev(t, 0);

    (void)state;
    assert_true(e->ts_ns == 100500 && e->dur_ns == 2000);
    assert_string_equal(str(t, pr_event_pid(t, e)), "7");
    assert_string_equal(str(t, pr_event_tid(t, e)), "7");
    assert_true(pr_event_correlation(t, e) == 12);
    assert_int_equal(pr_trace_gpu(t, e, &(struct pr_gpu_info){0})->stream, 3);
    pr_trace_free(t);
}

static void
test_control_chars(void **state)
{
    struct pr_trace *t =
        load("{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":"
             "\"a\tb\x01 \\\"q\\\" \\u00e9\",\"pid\":1,\"tid\":1,\"ts\":1,"
             "\"dur\":1}]}");

    (void)state;
    assert_string_equal(str(t, ev(t, 0)->name), "a\tb\x01 \"q\" \xc3\xa9");
    pr_trace_free(t);
}

static void
test_key_order(void **state)
{
    struct pr_trace *t = load(
        "{\"traceEvents\":[{\"dur\":3,\"ts\":1,\"args\":{\"External id\":4},"
        "\"tid\":2,\"pid\":1,\"name\":\"n\",\"cat\":\"cpu_op\",\"ph\":\"X\"}],"
        "\"deviceProperties\":[{\"name\":\"A100\"},{\"name\":\"H100\"}],"
        "\"Framework\":\"pytorch-lightning\",\"distributedInfo\":{\"rank\":2}"
        ",\"schemaVersion\":1}");

    (void)state;
    assert_true(ev(t, 0)->dur_ns == 3000 &&
                pr_event_external_id(t, ev(t, 0)) == 4);
    assert_int_equal(t->n_devices, 2);
    assert_string_equal(str(t, pr_trace_device(t, 1)->name), "H100");
    assert_true(t->lightning);
    assert_true(t->rank == 2 && t->world_size == -1);
    pr_trace_free(t);
}

static void
test_diagnostics(void **state)
{
    struct pr_trace *t = load(
        "{\"traceEvents\":[\n"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"neg\",\"ts\":1,\"dur\":-4}"
        ",\n"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"nodur\",\"ts\":1},\n"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"nots\",\"dur\":1},\n"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"nan\",\"ts\":1,\"dur\":"
        "NaN},\n"
        "{\"ph\":\"X\",\"cat\":\"overhead\",\"name\":\"o\",\"ts\":1,\"dur\":1,"
        "\"args\":{\"flops\":Infinity}},\n"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"na\",\"ts\":1,\"dur\":1,"
        "\"args\":{\"flops\":N/A}}\n]}");

    (void)state;
    assert_int_equal(t->n_trace_events, 6);
    assert_int_equal(t->n_events, 3);
    assert_int_equal(t->diag.negative_dur, 1);
    assert_true(ev(t, 0)->dur_ns == 0);
    assert_int_equal(t->diag.skipped_no_dur, 2);
    assert_int_equal(t->diag.skipped_bad_ts, 1);
    assert_int_equal(t->diag.unknown_cat, 1);
    assert_int_equal(ev(t, 4)->kind, PR_KIND_OTHER);
    pr_trace_free(t);
}

/* gzip `n` bytes as one member. */
static unsigned char *
gzip_mem(const char *s, size_t n, size_t *out_len)
{
    z_stream zs;
    size_t cap = compressBound((uLong)n) + 64;
    unsigned char *out = malloc(cap);

    assert_non_null(out);
    memset(&zs, 0, sizeof(zs));
    assert_int_equal(
        deflateInit2(&zs, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
    zs.next_in = (unsigned char *)(uintptr_t)s;
    zs.avail_in = (uInt)n;
    zs.next_out = out;
    zs.avail_out = (uInt)cap;
    assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
    *out_len = cap - zs.avail_out;
    deflateEnd(&zs);
    return out;
}

static void
test_gzip(void **state)
{
    size_t n1, n2, half = strlen(gen2021) / 2;
    unsigned char *a = gzip_mem(gen2021, strlen(gen2021), &n1);
    unsigned char *b1 = gzip_mem(gen2021, half, &n1);
    unsigned char *b2 = gzip_mem(gen2021 + half, strlen(gen2021) - half, &n2);
    unsigned char *multi = malloc(n1 + n2);
    struct pr_trace *t;
    size_t na;

    (void)state;
    free(a);
    a = gzip_mem(gen2021, strlen(gen2021), &na);
    t = load_opts((const char *)a, na, NULL);
    assert_int_equal(t->n_trace_events, 6);
    assert_true(t->bytes == strlen(gen2021)); /* uncompressed */
    pr_trace_free(t);
    /* two members back to back, as `cat a.gz b.gz` makes */
    memcpy(multi, b1, n1);
    memcpy(multi + n1, b2, n2);
    t = load_opts((const char *)multi, n1 + n2, NULL);
    assert_int_equal(t->n_trace_events, 6);
    pr_trace_free(t);
    load_err_n((const char *)a, na - 12, PR_E_FORMAT,
               "gzip stream is truncated");
    a[na / 2] ^= 0x55;
    load_err_n((const char *)a, na, PR_E_FORMAT, "gzip");
    free(a);
    free(b1);
    free(b2);
    free(multi);
}

/* Many events: several batches, merged in order whatever the thread
 * count. */
static void
test_many_events(void **state)
{
    size_t n = 60000, i, cap = n * 160 + 64, len = 0;
    char *s = malloc(cap);
    int threads;

    (void)state;
    assert_non_null(s);
    len += (size_t)snprintf(s, cap, "{\"traceEvents\":[");
    for (i = 0; i < n; i++)
        len += (size_t)snprintf(s + len, cap - len,
                                "%s{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":"
                                "\"op%zu\",\"pid\":1,\"tid\":1,\"ts\":%zu,"
                                "\"dur\":1,\"args\":{\"External id\":%zu}}",
                                i ? "," : "", i % 97, n - i, i);
    len += (size_t)snprintf(s + len, cap - len, "]}");
    for (threads = 1; threads <= 4; threads++) {
        struct pr_read_opts o = {0, threads, 0, 0};
        struct pr_trace *t = load_opts(s, len, &o);

        assert_int_equal(t->n_events, n);
        /* sorted by ts, which runs backwards in the file */
        assert_int_equal(t->events[0].order, n - 1);
        assert_true(pr_event_external_id(t, &t->events[0]) == (int64_t)n - 1);
        assert_string_equal(str(t, t->events[0].name), "op53");
        pr_trace_free(t);
    }
    free(s);
}

static void
test_not_a_trace(void **state)
{
    (void)state;
    load_err("{}", PR_E_NOT_FORMAT, "not a profiler trace (no traceEvents)");
    load_err("[1,2]", PR_E_NOT_FORMAT, "not a profiler trace");
    load_err("42", PR_E_NOT_FORMAT,
             "not a profiler trace (the document is a number)");
    load_err("[[-1, 1, 37888, 7]]", PR_E_NOT_FORMAT, "not a profiler trace");
    /* issue #19: a bare array is a trace only when an event has a ph */
    load_err("[]", PR_E_NOT_FORMAT,
             "not a profiler trace (an array without any event that has "
             "a \"ph\")");
    load_err("[{\"name\": \"test_load\", \"passed\": true, \"ts\": 1},\n"
             " {\"name\": \"test_save\", \"passed\": false}]",
             PR_E_NOT_FORMAT, "an array without any event that has a \"ph\"");
    load_err("[{\"ph\": \"\", \"name\": \"a\"}]", PR_E_NOT_FORMAT,
             "without any event that has a \"ph\"");
    /* a PyTorch execution trace: named, with its Kineto twin asked for */
    load_err("{\"schema\": \"1.0.1\", \"nodes\": [{\"id\": 2}]}",
             PR_E_NOT_FORMAT, "a PyTorch execution trace");
    load_err("{\"schema\": \"1.0.1\", \"nodes\": [{\"id\": 2}]}",
             PR_E_NOT_FORMAT, "give the Kineto trace recorded with it");
    load_err("{\"traceEvents\": 3}", PR_E_NOT_FORMAT,
             "traceEvents is a number");
}

static void
test_bad_input(void **state)
{
    static const char head[] = "{\"traceEvents\":[{\"a\":";
    char deep[200];

    (void)state;
    load_err("", PR_E_NOT_FORMAT, "byte 0: empty input");
    load_err("\x8c\x01garbage", PR_E_FORMAT, "byte 0: not JSON");
    load_err("{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1", PR_E_FORMAT,
             "event 0: unexpected end of input");
    load_err("{\"traceEvents\":[{\"ph\":\"X\"}", PR_E_FORMAT,
             "unexpected end of input");
    load_err("{\"traceEvents\":[{\"ph\":\"X\"}, 5]}", PR_E_FORMAT,
             "byte 28: event 1: not an object");
    load_err("{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":tru}]}",
             PR_E_FORMAT, "byte 39: event 0: invalid JSON near \"tru}\"");
    load_err("{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1e300,\"dur\":1}]}",
             PR_E_FORMAT, "event 0 (\"\"): ts out of range (1.0000000000");
    load_err("{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1e999}]}",
             PR_E_FORMAT, "dur out of range");
    load_err("{\"traceEvents\":[]} x", PR_E_FORMAT, "expected the end");
    load_err("{\"traceEvents\":[] \"a\":1}", PR_E_FORMAT,
             "expected ',' or '}'");
    memcpy(deep, head, sizeof(head) - 1);
    memset(deep + sizeof(head) - 1, '[', 70);
    deep[sizeof(head) - 1 + 70] = '\0';
    load_err(deep, PR_E_FORMAT, "event 0: nesting deeper than 64 levels");
}

static void
test_limit(void **state)
{
    struct pr_read_opts o = {16, 0, 0, 0};
    struct pr_trace *t = NULL;
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(
        pr_reader_load_mem("t.json", gen2021, strlen(gen2021), &o, &t, &err),
        PR_E_LIMIT);
    assert_non_null(strstr(err.msg, "larger than the limit"));
    assert_null(t);
}

static void
test_missing_file(void **state)
{
    struct pr_trace *t = NULL;
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(pr_reader_load("/nonexistent/x.json", NULL, &t, &err),
                     PR_E_IO);
    assert_non_null(strstr(err.msg, "/nonexistent/x.json: cannot open"));
}

/* Ids too wide for the event's 32-bit codes (a producer's 64-bit ids,
 * negative ones) survive the parser's batches and the merge exactly, and
 * still join: an op, its launch and its kernel. */
static void
test_wide_ids(void **state)
{
    static const char json[] =
        "{\"traceEvents\":["
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\","
        "\"pid\":1,\"tid\":2,\"ts\":1,\"dur\":9,"
        "\"args\":{\"External id\":5000000000}},"
        "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":"
        "\"cudaLaunchKernel\",\"pid\":1,\"tid\":2,\"ts\":2,\"dur\":1,"
        "\"args\":{\"External id\":5000000000,\"correlation\":-7}},"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,"
        "\"tid\":7,\"ts\":4,\"dur\":2,\"args\":{\"External id\":"
        "5000000000,\"correlation\":-7,\"stream\":7}},"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k2\",\"pid\":0,"
        "\"tid\":7,\"ts\":6,\"dur\":2,\"args\":{\"External id\":"
        "1099511627776,\"correlation\":2147483647,\"stream\":7}}"
        "]}";
    struct pr_trace *t = load(json);

    (void)state;
    assert_int_equal(t->n_events, 4);
    assert_true(pr_event_external_id(t, ev(t, 0)) == 5000000000LL);
    assert_true(pr_event_correlation(t, ev(t, 0)) == PR_NO_ID);
    assert_true(pr_event_external_id(t, ev(t, 1)) == 5000000000LL);
    assert_true(pr_event_correlation(t, ev(t, 1)) == -7);
    assert_true(pr_event_correlation(t, ev(t, 2)) == -7);
    assert_true(pr_event_external_id(t, ev(t, 3)) == 1099511627776LL);
    assert_true(pr_event_correlation(t, ev(t, 3)) == INT32_MAX);
    /* thread and category as written, the two kernels' shared */
    assert_string_equal(pr_trace_str(t, pr_event_cat(t, ev(t, 1))),
                        "cuda_runtime");
    assert_string_equal(pr_trace_str(t, pr_event_pid(t, ev(t, 2))), "0");
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, ev(t, 2))), "7");
    assert_int_equal(ev(t, 2)->where, ev(t, 3)->where);
    assert_true(ev(t, 1)->where != ev(t, 2)->where);
    pr_trace_free(t);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gen2021),
        cmocka_unit_test(test_wide_ids),
        cmocka_unit_test(test_gen2022),
        cmocka_unit_test(test_gen_now),
        cmocka_unit_test(test_window_end),
        cmocka_unit_test(test_collective),
        cmocka_unit_test(test_bare_array),
        cmocka_unit_test(test_numbers_as_strings),
        cmocka_unit_test(test_control_chars),
        cmocka_unit_test(test_key_order),
        cmocka_unit_test(test_diagnostics),
        cmocka_unit_test(test_gzip),
        cmocka_unit_test(test_many_events),
        cmocka_unit_test(test_not_a_trace),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_limit),
        cmocka_unit_test(test_missing_file),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

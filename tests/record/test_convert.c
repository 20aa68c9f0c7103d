/* test_convert.c - the record-to-trace writer fed with synthesized records:
 * Kineto keys and categories, External id and correlation links, occupancy
 * args, [memory] totals, emit_nvtx parsing, and a read-back by the reader. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "profreport/reader.h"
#include "profreport/record.h"
#include "profreport/trace.h"

#define T0 1700000000000000000LL /* CUPTI clock, ns */

static const struct pr_record_device A100 = {0,
                                             "NVIDIA A100-SXM4-80GB",
                                             85100000000LL,
                                             8,
                                             0,
                                             1024,
                                             2048,
                                             65536,
                                             65536,
                                             32,
                                             49152,
                                             167936,
                                             166912,
                                             1024,
                                             108};

static void
add(struct pr_record_session *s, struct pr_rec r)
{
    assert_int_equal(pr_record_session_add(s, &r, NULL), PR_OK);
}

static struct pr_rec
rec(enum pr_rec_kind k, int64_t start_us, int64_t end_us, const char *name)
{
    struct pr_rec r;

    memset(&r, 0, sizeof(r));
    r.kind = k;
    r.start_ns = T0 + start_us * 1000;
    r.end_ns = T0 + end_us * 1000;
    r.name = name;
    r.pid = 4242;
    r.tid = 100;
    return r;
}

static void
add_range(struct pr_record_session *s, uint32_t id, int64_t a, int64_t b,
          const char *text)
{
    struct pr_rec st = rec(PR_REC_RANGE_START, a, a, text);
    struct pr_rec en = rec(PR_REC_RANGE_END, b, b, NULL);

    st.id = en.id = id;
    add(s, st);
    add(s, en);
}

static void
add_gpu(struct pr_record_session *s, struct pr_rec r, uint32_t corr)
{
    r.correlation = corr;
    r.device = 0;
    r.context = 1;
    r.stream = 7;
    add(s, r);
}

/* A user range around an operator that launches one kernel; a copy in the
 * user range only; a memset, a sync, a marker, an alloc and a free. */
static struct pr_record_session *
sample(void)
{
    struct pr_record_session *s = pr_record_session_new(0);
    struct pr_rec r;

    assert_non_null(s);
    assert_int_equal(pr_record_session_add_device(s, &A100, NULL), PR_OK);
    add_range(s, 1, 5, 90, "my_region, op_id = 3");
    add_range(s, 2, 10, 50,
              "aten::addmm, seq = 12, op_id = 7, sizes = [[64, 512], "
              "[512, 1000], []], input_op_ids = [(5,0)]");
    r = rec(PR_REC_RUNTIME, 20, 25, "cudaLaunchKernel");
    r.correlation = 42;
    r.cbid = 211;
    add(s, r);
    r = rec(PR_REC_KERNEL, 30, 40, "void gemm<float>(int)");
    r.grid[0] = 1728, r.grid[1] = r.grid[2] = 1;
    r.block[0] = 256, r.block[1] = r.block[2] = 1;
    r.regs_per_thread = 32;
    add_gpu(s, r, 42);
    r = rec(PR_REC_RUNTIME, 60, 61, "cudaMemcpyAsync");
    r.correlation = 43;
    add(s, r);
    r = rec(PR_REC_MEMCPY, 62, 64, NULL);
    r.bytes = 4000;
    r.copy_kind = PR_COPY_HTOD;
    r.src_kind = PR_MEM_PAGEABLE;
    r.dst_kind = PR_MEM_DEVICE;
    add_gpu(s, r, 43);
    r = rec(PR_REC_MEMSET, 65, 66, NULL);
    r.bytes = 1000;
    r.src_kind = PR_MEM_DEVICE;
    add_gpu(s, r, 0);
    r = rec(PR_REC_SYNC, 70, 80, NULL);
    r.sync_kind = PR_SYNC_STREAM;
    r.context = 1;
    r.stream = 7;
    add(s, r);
    add(s, rec(PR_REC_MARKER, 85, 85, "checkpoint"));
    r = rec(PR_REC_RUNTIME, 1, 2, "cudaMalloc");
    r.correlation = 44;
    r.tid = 101;
    add(s, r);
    r = rec(PR_REC_ALLOC, 2, 2, NULL);
    r.correlation = 44;
    r.bytes = 1 << 20;
    r.address = 0x7f0000000000ULL;
    r.src_kind = PR_MEM_DEVICE;
    add(s, r);
    r.kind = PR_REC_FREE;
    r.start_ns = r.end_ns = T0 + 95000;
    r.correlation = 0;
    add(s, r);
    return s;
}

static cJSON *
write_json(const struct pr_record_session *s, struct pr_buf *text)
{
    struct pr_record_meta meta = {4242, "python", "trace.json"};
    struct pr_error err;
    cJSON *root;

    pr_error_clear(&err);
    pr_buf_init(text, 0);
    assert_int_equal(pr_record_write(s, &meta, NULL, text, &err), PR_OK);
    root = cJSON_ParseWithLength(text->data, text->len);
    assert_non_null(root);
    return root;
}

/* The n-th event (0-based) with this cat and name (NULL = any name). */
static const cJSON *
find(const cJSON *root, const char *cat, const char *name, int nth)
{
    const cJSON *ev;

    cJSON_ArrayForEach(ev, cJSON_GetObjectItem(root, "traceEvents"))
    {
        const cJSON *c = cJSON_GetObjectItem(ev, "cat");
        const cJSON *n = cJSON_GetObjectItem(ev, "name");
        if (!cJSON_IsString(c) || strcmp(c->valuestring, cat) != 0)
            continue;
        if (name != NULL && strcmp(n->valuestring, name) != 0)
            continue;
        if (nth-- == 0)
            return ev;
    }
    fail_msg("no event %s/%s", cat, name ? name : "*");
    return NULL;
}

static double
arg(const cJSON *ev, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(ev, "args"), key);

    assert_true(cJSON_IsNumber(v));
    return v->valuedouble;
}

static void
test_top_level_and_ops(void **state)
{
    struct pr_record_session *s = sample();
    struct pr_buf text;
    cJSON *root = write_json(s, &text);
    const cJSON *dev, *op, *dims;
    char *dims_text;

    (void)state;
    assert_int_equal(cJSON_GetObjectItem(root, "schemaVersion")->valueint, 1);
    dev = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "deviceProperties"), 0);
    assert_int_equal(cJSON_GetObjectItem(dev, "numSms")->valueint, 108);
    assert_string_equal(cJSON_GetObjectItem(dev, "name")->valuestring,
                        "NVIDIA A100-SXM4-80GB");
    op = find(root, "cpu_op", "aten::addmm", 0);
    assert_true(arg(op, "Sequence number") == 12);
    dims = cJSON_GetObjectItem(cJSON_GetObjectItem(op, "args"), "Input Dims");
    dims_text = cJSON_PrintUnformatted(dims);
    assert_string_equal(dims_text, "[[64,512],[512,1000],[]]");
    cJSON_free(dims_text);
    /* ts counts from the earliest record (cudaMalloc at 1 us) */
    assert_true(cJSON_GetObjectItem(op, "ts")->valuedouble == 9.0);
    assert_true(cJSON_GetObjectItem(op, "dur")->valuedouble == 40.0);
    find(root, "user_annotation", "my_region", 0);
    find(root, "cpu_instant_event", "checkpoint", 0);
    cJSON_Delete(root);
    pr_buf_free(&text);
    pr_record_session_free(s);
}

/* emit_nvtx's autograd-node ranges are backward ops, marked as Kineto
 * marks them, "Fwd thread id" the thread of the forward op of their
 * sequence number (else the process's main thread, the pid); forward ops
 * and the engine's wrapper (no sequence number) carry none (issue #29:
 * the recorder's traces paired no layer's forward with its backward). */
static void
test_backward_fwd_thread(void **state)
{
    struct pr_record_session *s = pr_record_session_new(0);
    struct pr_rec st, en;
    struct pr_buf text;
    const cJSON *fwd, *bwd, *wrap, *ckpt;
    cJSON *root;
    const char *texts[] = {
        "MmBackward0, seq = 5, op_id = 9",
        "autograd::engine::evaluate_function: MmBackward0, op_id = 8",
        "CheckpointFunctionBackward, seq = 77, op_id = 10"};
    uint32_t i;

    (void)state;
    assert_non_null(s);
    add_range(s, 1, 10, 20, "aten::mm, seq = 5, op_id = 1"); /* tid 100 */
    for (i = 0; i < 3; i++) {
        st = rec(PR_REC_RANGE_START, 30 + 10 * i, 30 + 10 * i, texts[i]);
        en = rec(PR_REC_RANGE_END, 35 + 10 * i, 35 + 10 * i, NULL);
        st.id = en.id = 2 + i;
        st.tid = en.tid = 200; /* the autograd engine's thread */
        add(s, st);
        add(s, en);
    }
    root = write_json(s, &text);
    fwd = find(root, "cpu_op", "aten::mm", 0);
    bwd = find(root, "cpu_op", "MmBackward0", 0);
    wrap = find(root, "cpu_op",
                "autograd::engine::evaluate_function: MmBackward0", 0);
    ckpt = find(root, "cpu_op", "CheckpointFunctionBackward", 0);
    assert_true(arg(bwd, "Fwd thread id") == 100);
    assert_true(arg(bwd, "Sequence number") == 5);
    assert_true(arg(ckpt, "Fwd thread id") == 4242);
    assert_null(
        cJSON_GetObjectItem(cJSON_GetObjectItem(fwd, "args"), "Fwd thread id"));
    assert_null(cJSON_GetObjectItem(cJSON_GetObjectItem(wrap, "args"),
                                    "Fwd thread id"));
    cJSON_Delete(root);
    pr_buf_free(&text);
    pr_record_session_free(s);
}

/* The launch inside the op carries the op's id, and so does its kernel;
 * the copy outside the op carries the user range's id. */
static void
test_links(void **state)
{
    struct pr_record_session *s = sample();
    struct pr_buf text;
    cJSON *root = write_json(s, &text);
    double op_id, region_id;
    const cJSON *k, *f;

    (void)state;
    op_id = arg(find(root, "cpu_op", "aten::addmm", 0), "External id");
    region_id =
        arg(find(root, "user_annotation", "my_region", 0), "External id");
    assert_true(op_id != region_id);
    assert_true(arg(find(root, "cuda_runtime", "cudaLaunchKernel", 0),
                    "External id") == op_id);
    k = find(root, "kernel", "void gemm<float>(int)", 0);
    assert_true(arg(k, "External id") == op_id);
    assert_true(arg(k, "correlation") == 42);
    assert_true(arg(find(root, "gpu_memcpy", NULL, 0), "External id") ==
                region_id);
    assert_null(cJSON_GetObjectItem(
        cJSON_GetObjectItem(find(root, "gpu_memset", NULL, 0), "args"),
        "External id"));
    f = find(root, "ac2g", "ac2g", 1);
    assert_string_equal(cJSON_GetObjectItem(f, "ph")->valuestring, "f");
    assert_string_equal(cJSON_GetObjectItem(f, "bp")->valuestring, "e");
    assert_int_equal(cJSON_GetObjectItem(f, "id")->valueint, 42);
    assert_int_equal(cJSON_GetObjectItem(f, "tid")->valueint, 7);
    cJSON_Delete(root);
    pr_buf_free(&text);
    pr_record_session_free(s);
}

static void
test_gpu_args(void **state)
{
    struct pr_record_session *s = sample();
    struct pr_buf text;
    cJSON *root = write_json(s, &text);
    const cJSON *k, *m, *sync;

    (void)state;
    k = find(root, "kernel", NULL, 0);
    assert_true(arg(k, "blocks per SM") == 16.0);
    assert_true(arg(k, "warps per SM") == 128.0);
    assert_true(arg(k, "est. achieved occupancy %") == 100);
    assert_true(arg(k, "registers per thread") == 32);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(
                         cJSON_GetObjectItem(k, "args"), "grid")),
                     3);
    assert_int_equal(cJSON_GetObjectItem(k, "pid")->valueint, 0);
    m = find(root, "gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 0);
    assert_true(arg(m, "bytes") == 4000);
    assert_true(arg(m, "memory bandwidth (GB/s)") == 2.0); /* 4000 B / 2 us */
    find(root, "gpu_memset", "Memset (Device)", 0);
    sync = find(root, "cuda_sync", "Stream Sync", 0);
    assert_true(arg(sync, "stream") == 7);
    cJSON_Delete(root);
    pr_buf_free(&text);
    pr_record_session_free(s);
}

static void
test_memory_events(void **state)
{
    struct pr_record_session *s = sample();
    struct pr_buf text;
    cJSON *root = write_json(s, &text);
    const cJSON *a, *f;

    (void)state;
    a = find(root, "cpu_instant_event", "[memory]", 0);
    f = find(root, "cpu_instant_event", "[memory]", 1);
    assert_true(arg(a, "Bytes") == 1 << 20);
    assert_true(arg(a, "Total Allocated") == 1 << 20);
    assert_true(arg(a, "Device Type") == 1);
    assert_int_equal(cJSON_GetObjectItem(a, "tid")->valueint, 101);
    assert_true(arg(f, "Bytes") == -(1 << 20));
    assert_true(arg(f, "Total Allocated") == 0);
    cJSON_Delete(root);
    pr_buf_free(&text);
    pr_record_session_free(s);
}

static void
test_parse_nvtx(void **state)
{
    struct pr_nvtx_op op;
    const char *t = "aten::mm, seq = 3, op_id = 9, sizes = [[2, 3], [3, 4]], "
                    "input_op_ids = [(8,0)]";

    (void)state;
    assert_true(pr_record_parse_nvtx(t, &op));
    assert_int_equal(op.name_len, strlen("aten::mm"));
    assert_int_equal(op.seq, 3);
    assert_int_equal(op.sizes_len, strlen("[[2, 3], [3, 4]]"));
    assert_memory_equal(op.sizes, "[[2, 3], [3, 4]]", op.sizes_len);
    assert_true(pr_record_parse_nvtx("aten::empty", &op));
    assert_int_equal(op.seq, -1);
    assert_true(pr_record_parse_nvtx(
        "autograd::engine::evaluate_function: AddmmBackward0, seq = 12", &op));
    assert_int_equal(op.seq, 12);
    assert_false(pr_record_parse_nvtx("ProfilerStep#2, op_id = 4", &op));
    assert_int_equal(op.name_len, strlen("ProfilerStep#2"));
    assert_false(pr_record_parse_nvtx("my range", &op));
    assert_true(pr_record_parse_nvtx("aten::x, seq = 1, sizes = [[a]]", &op));
    assert_null(op.sizes);
}

static void
test_unpaired_and_limits(void **state)
{
    struct pr_record_session *s = pr_record_session_new(2);
    struct pr_rec r = rec(PR_REC_RANGE_START, 1, 1, "open");
    struct pr_buf text;
    struct pr_error err;
    cJSON *root;

    (void)state;
    r.id = 5;
    add(s, r);
    r = rec(PR_REC_RANGE_END, 2, 2, NULL);
    r.id = 6;
    add(s, r);
    pr_error_clear(&err);
    assert_int_equal(pr_record_session_add(s, &r, &err), PR_E_LIMIT);
    assert_non_null(strstr(err.msg, "limit"));
    root = write_json(s, &text);
    assert_int_equal(
        cJSON_GetObjectItem(root, "profreport_unpaired_ranges")->valueint, 2);
    assert_int_equal(
        cJSON_GetObjectItem(root, "profreport_dropped_records")->valueint, 1);
    cJSON_Delete(root);
    pr_buf_free(&text);
    pr_error_clear(&err);
    assert_int_equal(pr_record_write(s, NULL, NULL, NULL, &err), PR_E_USAGE);
    pr_record_session_free(s);
}

static void
test_empty_session(void **state)
{
    struct pr_record_session *s = pr_record_session_new(0);
    struct pr_buf text;
    cJSON *root = write_json(s, &text);

    (void)state;
    assert_int_equal(
        cJSON_GetArraySize(cJSON_GetObjectItem(root, "deviceProperties")), 0);
    /* only the process metadata */
    assert_int_equal(
        cJSON_GetArraySize(cJSON_GetObjectItem(root, "traceEvents")), 2);
    cJSON_Delete(root);
    pr_buf_free(&text);
    pr_record_session_free(s);
}

/* profreport's own reader takes the file back. */
static void
test_reader_round_trip(void **state)
{
    struct pr_record_session *s = sample();
    struct pr_record_meta meta = {4242, "python", NULL};
    struct pr_read_opts opts = {0, 1, 0, 0};
    struct pr_trace *t = NULL;
    struct pr_error err;
    struct pr_buf text;
    enum pr_status st;

    (void)state;
    pr_error_clear(&err);
    pr_buf_init(&text, 0);
    assert_int_equal(pr_record_write(s, &meta, NULL, &text, &err), PR_OK);
    st =
        pr_reader_load_mem("record.json", text.data, text.len, &opts, &t, &err);
    pr_buf_free(&text);
    pr_record_session_free(s);
    if (st != PR_OK && strstr(err.msg, "not implemented") != NULL)
        skip();
    assert_int_equal(st, PR_OK);
    assert_non_null(t);
    pr_trace_free(t);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_top_level_and_ops),
        cmocka_unit_test(test_backward_fwd_thread),
        cmocka_unit_test(test_links),
        cmocka_unit_test(test_gpu_args),
        cmocka_unit_test(test_memory_events),
        cmocka_unit_test(test_parse_nvtx),
        cmocka_unit_test(test_unpaired_and_limits),
        cmocka_unit_test(test_empty_session),
        cmocka_unit_test(test_reader_round_trip),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

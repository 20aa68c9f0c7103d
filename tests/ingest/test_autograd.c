/* test_autograd.c - the legacy autograd profiler's Chrome trace
 * (tests/data/autograd/README.md): operators and steps on "CPU
 * functions", the per-operator device ranges of "CUDA functions" and
 * "NPU functions" cut into each operator's own time and linked to it, the
 * args and [memory] records profreport record's launcher adds, and
 * damaged input. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../src/ingest/internal.h"
#include "profreport/formats.h"
#include "profreport/shapes.h"

extern const struct pr_format pr_format_autograd;

static char *
data_path(const char *name, char *buf, size_t n)
{
    const char *src = getenv("PR_SRCDIR");

    snprintf(buf, n, "%s/tests/data/autograd/%s", src ? src : ".", name);
    return buf;
}

static struct pr_trace *
load(const char *name)
{
    char path[4096];
    struct pr_trace *t = NULL;
    struct pr_error err;

    pr_error_clear(&err);
    if (pr_format_autograd.load(data_path(name, path, sizeof(path)), NULL, &t,
                                &err) != PR_OK)
        fail_msg("%s: %s", name, err.msg);
    return t;
}

/* Load a document written here; the status, and the message in err. */
static enum pr_status
load_text(const char *text, struct pr_trace **t, struct pr_error *err)
{
    char path[] = "/tmp/pr_autograd_XXXXXX";
    int fd = mkstemp(path);
    enum pr_status st;

    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    pr_error_clear(err);
    *t = NULL;
    st = pr_format_autograd.load(path, NULL, t, err);
    unlink(path);
    return st;
}

static size_t
count_kind(const struct pr_trace *t, int kind)
{
    size_t i, n = 0;

    for (i = 0; i < t->n_events; i++)
        n += t->events[i].kind == kind;
    return n;
}

/* The n-th event of `kind` named `name`. */
static const struct pr_event *
named(const struct pr_trace *t, int kind, const char *name, int nth)
{
    size_t i;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind == kind && strcmp(pr_trace_str(t, e->name), name) == 0 &&
            nth-- == 0)
            return e;
    }
    fail_msg("no event %s of kind %d", name, kind);
    return NULL;
}

static int
has_gap(const struct pr_trace *t, const char *kind)
{
    size_t i;

    for (i = 0; i < t->n_gaps; i++)
        if (strcmp(pr_trace_str(t, t->gaps[i].kind), kind) == 0)
            return 1;
    return 0;
}

/* Device time (ns) of the tasks linked to host op `op`: its External id
 * is carried by one launch point inside it, whose correlation the tasks
 * carry. */
static int64_t
device_ns_of(const struct pr_trace *t, const struct pr_event *op, int *dev)
{
    int64_t ext = pr_event_external_id(t, op), ns = 0;
    size_t i, launches = 0;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind == PR_KIND_RUNTIME_CALL &&
            pr_event_external_id(t, e) == ext) {
            launches++;
            assert_int_equal(pr_event_correlation(t, e), ext);
            /* inside the op, on its thread */
            assert_true(e->ts_ns >= op->ts_ns &&
                        e->ts_ns <= op->ts_ns + op->dur_ns);
            assert_int_equal(pr_event_tid(t, e), pr_event_tid(t, op));
        }
        if (e->kind == PR_KIND_DEVICE_TASK &&
            pr_event_correlation(t, e) == ext && ext != PR_NO_ID) {
            struct pr_gpu_info g;

            assert_non_null(pr_trace_gpu(t, e, &g));
            *dev = g.device;
            ns += e->dur_ns;
            assert_string_equal(pr_trace_str(t, e->name),
                                pr_trace_str(t, op->name));
        }
    }
    assert_true(launches <= 1);
    if (ns > 0)
        assert_int_equal(launches, 1);
    return ns;
}

static void
test_sniff(void **state)
{
    char path[4096];
    struct pr_probe p;
    enum pr_claim c;
    const struct pr_format *f;

    (void)state;
    memset(&p, 0, sizeof(p));
    p.path = p.base = data_path("cpu.json", path, sizeof(path));
    p.head = "[{\"name\": \"aten::mm\", \"ph\": \"X\", \"ts\": 1, \"dur\": 2, "
             "\"tid\": 1, \"pid\": \"CPU functions\", \"args\": {}}";
    p.n_head = strlen(p.head);
    f = pr_formats_pick(pr_formats_builtin(), &p, PR_CLAIM_NAME, &c);
    assert_non_null(f);
    assert_string_equal(f->name, "autograd");
    assert_int_equal(c, PR_CLAIM_SURE);
    /* a Chrome array of another producer stays the chrome row's */
    p.head = "[{\"name\": \"aten::mm\", \"ph\": \"X\", \"ts\": 1, \"dur\": 2, "
             "\"tid\": 1, \"pid\": 7, \"cat\": \"cpu_op\"}";
    p.n_head = strlen(p.head);
    f = pr_formats_pick(pr_formats_builtin(), &p, PR_CLAIM_NAME, &c);
    assert_string_equal(f->name, "chrome");
}

/* PyTorch 1.13 without Kineto: operators and steps, nothing else. */
static void
test_cpu(void **state)
{
    struct pr_trace *t = load("cpu.json");
    const struct pr_event *e;
    struct pr_op_info op;

    (void)state;
    assert_string_equal(pr_trace_str(t, t->format), "autograd");
    assert_int_equal(t->n_trace_events, 15);
    assert_int_equal(count_kind(t, PR_KIND_HOST_OP), 15);
    assert_int_equal(count_kind(t, PR_KIND_DEVICE_TASK), 0);
    assert_int_equal(count_kind(t, PR_KIND_RUNTIME_CALL), 0);
    e = named(t, PR_KIND_HOST_OP, "ProfilerStep#3", 0);
    assert_int_equal(e->ts_ns, 500000);
    assert_int_equal(e->dur_ns, 300000);
    assert_string_equal(pr_trace_str(t, pr_event_pid(t, e)), "CPU functions");
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, e)), "1");
    e = named(t, PR_KIND_HOST_OP, "AddmmBackward0", 0);
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, e)), "2");
    assert_non_null(pr_trace_op(t, e, &op));
    assert_int_equal(op.input_dims, PR_STR_NONE);
    assert_int_equal(op.seq, -1);
    assert_true(has_gap(t, "no_shapes"));
    assert_true(has_gap(t, "no_memory"));
    assert_false(has_gap(t, "no_kernels"));
    assert_int_equal(t->device_kind, PR_STR_NONE);
    pr_trace_free(t);
}

/* use_cuda (PyTorch <= 1.8): each op's CUDA-event range becomes its own
 * time, the children's cut out, linked to the op. */
static void
test_cuda(void **state)
{
    struct pr_trace *t = load("cuda.json");
    int dev = -1;
    int64_t total = 0;
    size_t i;

    (void)state;
    assert_int_equal(count_kind(t, PR_KIND_HOST_OP), 7);
    /* 1 + 4 + 2 us of linear around t and addmm; t has none */
    assert_int_equal(
        device_ns_of(t, named(t, PR_KIND_HOST_OP, "aten::linear", 0), &dev),
        7000);
    assert_int_equal(dev, 0);
    assert_int_equal(
        device_ns_of(t, named(t, PR_KIND_HOST_OP, "aten::addmm", 0), &dev),
        53000);
    assert_int_equal(
        device_ns_of(t, named(t, PR_KIND_HOST_OP, "aten::t", 0), &dev), 0);
    assert_int_equal(
        device_ns_of(t, named(t, PR_KIND_HOST_OP, "aten::relu", 0), &dev),
        9500);
    assert_int_equal(
        device_ns_of(t, named(t, PR_KIND_HOST_OP, "ProfilerStep#7", 0), &dev),
        11000);
    assert_int_equal(
        device_ns_of(t, named(t, PR_KIND_HOST_OP, "aten::mm", 0), &dev), 30000);
    assert_int_equal(dev, 1);
    assert_int_equal(
        device_ns_of(t, named(t, PR_KIND_HOST_OP, "aten::zeros", 0), &dev), 0);
    /* no device time counts twice: device 0's pieces add up to its
     * outermost range, and none overlap */
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        struct pr_gpu_info g;

        if (e->kind == PR_KIND_DEVICE_TASK && pr_trace_gpu(t, e, &g) &&
            g.device == 0)
            total += e->dur_ns;
    }
    assert_int_equal(total, 80500);
    assert_true(has_gap(t, "no_kernels"));
    pr_trace_free(t);
}

static void
test_npu(void **state)
{
    struct pr_trace *t = load("npu.json");
    int dev = -1;

    (void)state;
    assert_string_equal(pr_trace_str(t, t->device_kind), "npu");
    assert_int_equal(
        device_ns_of(t, named(t, PR_KIND_HOST_OP, "aten::matmul", 0), &dev),
        10000);
    assert_int_equal(
        device_ns_of(t, named(t, PR_KIND_HOST_OP, "aten::mm", 0), &dev), 20000);
    assert_int_equal(count_kind(t, PR_KIND_RUNTIME_CALL), 2);
    assert_string_equal(
        pr_trace_str(t, named(t, PR_KIND_RUNTIME_CALL, "cpu_to_npu", 0)->name),
        "cpu_to_npu");
    pr_trace_free(t);
}

/* What record's launcher adds: Kineto's args and [memory] records. */
static void
test_record_args(void **state)
{
    struct pr_trace *t = load("record.json");
    const struct pr_event *e = named(t, PR_KIND_HOST_OP, "aten::conv2d", 0);
    struct pr_op_info op;
    int64_t bytes = 0;
    size_t i, n_mem = 0;

    (void)state;
    assert_non_null(pr_trace_op(t, e, &op));
    assert_string_equal(pr_trace_str(t, op.input_dims),
                        "[[16, 3, 16, 16], [8, 3, 3, 3], [8], [], [], [], []]");
    assert_string_equal(pr_trace_str(t, op.input_types),
                        "['float', 'float', 'float', 'ScalarList', "
                        "'ScalarList', 'ScalarList', 'Int']");
    assert_true(pr_shapes_noted(t, PR_SHAPES_DIMS, op.input_dims));
    assert_string_equal(pr_trace_str(t, op.stack),
                        "torch/nn/modules/conv.py(454): _conv_forward;"
                        "torch/nn/modules/conv.py(462): forward;"
                        "nn.Module: Conv2d_0;"
                        "train.py(12): <module>;");
    assert_int_equal(op.seq, 14);
    assert_int_equal(op.fwd_tid, 0);
    for (i = 0; i < t->n_events; i++) {
        const struct pr_mem_info *m = pr_trace_mem(t, &t->events[i]);

        if (m == NULL)
            continue;
        n_mem++;
        bytes += m->bytes;
        assert_int_equal(m->device_type, 0);
    }
    assert_int_equal(n_mem, 3);
    assert_int_equal(bytes, 131072);
    /* a remote event's tid loses the spaces around it */
    e = named(t, PR_KIND_HOST_OP, "aten::convolution_backward", 0);
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, e)),
                        "node_id:0, thread_id:2");
    assert_false(has_gap(t, "no_shapes"));
    assert_false(has_gap(t, "no_memory"));
    pr_trace_free(t);
}

static void
test_damaged(void **state)
{
    struct pr_trace *t;
    struct pr_error err;

    (void)state;
    /* an event that is no JSON: the byte offset and event are named */
    assert_int_equal(
        load_text("[{\"name\": \"a\", \"ph\": \"X\", \"ts\": 1, \"dur\": 1, "
                  "\"tid\": 1, \"pid\": \"CPU functions\"}, {\"name\": x}]",
                  &t, &err),
        PR_E_FORMAT);
    assert_null(t);
    assert_non_null(strstr(err.msg, "event 1"));
    assert_non_null(strstr(err.msg, "byte "));
    /* cut short (a killed export) */
    assert_int_equal(
        load_text("[{\"name\": \"a\", \"ph\": \"X\", \"ts\": 1, \"dur\": 1, "
                  "\"tid\": 1, \"pid\": \"CPU functions\"}, {\"na",
                  &t, &err),
        PR_E_FORMAT);
    assert_null(t);
    /* nothing on "CPU functions": not this format */
    assert_int_equal(load_text("[{\"name\": \"a\", \"ph\": \"X\", \"ts\": 1, "
                               "\"dur\": 1, \"tid\": 1, \"pid\": 3}]",
                               &t, &err),
                     PR_E_NOT_FORMAT);
    assert_non_null(strstr(err.msg, "CPU functions"));
    /* bad fields are counted, not fatal; a device range before any
     * operator is left out and said */
    assert_int_equal(
        load_text("[{\"name\": \"k\", \"ph\": \"X\", \"ts\": 0, \"dur\": 5, "
                  "\"tid\": 0, \"pid\": \"CUDA functions\"}, "
                  "{\"name\": \"a\", \"ph\": \"X\", \"ts\": \"x\", \"dur\": 1, "
                  "\"tid\": 1, \"pid\": \"CPU functions\"}, "
                  "{\"name\": \"b\", \"ph\": \"X\", \"ts\": 2, \"dur\": -4, "
                  "\"tid\": 1, \"pid\": \"CPU functions\"}, "
                  "{\"name\": \"c\", \"ph\": \"X\", \"ts\": 2, "
                  "\"tid\": 1, \"pid\": \"CPU functions\"}]",
                  &t, &err),
        PR_OK);
    assert_int_equal(t->diag.skipped_bad_ts, 1);
    assert_int_equal(t->diag.negative_dur, 1);
    assert_int_equal(t->diag.skipped_no_dur, 1);
    assert_int_equal(count_kind(t, PR_KIND_DEVICE_TASK), 0);
    assert_true(has_gap(t, "bad_links"));
    pr_trace_free(t);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sniff),       cmocka_unit_test(test_cpu),
        cmocka_unit_test(test_cuda),        cmocka_unit_test(test_npu),
        cmocka_unit_test(test_record_args), cmocka_unit_test(test_damaged),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_megengine.c - MegEngine's profiles, one fixture per shape the
 * writer had (tests/data/megengine/README.md): operators with their input
 * shapes, device time linked to them, memory, steps; the helpers that
 * read MegEngine's notations; and damaged input. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/ingest/internal.h"
#include "profreport/formats.h"
#include "profreport/shapes.h"

extern const struct pr_format pr_format_megengine, pr_format_megengine_static;

static struct pr_trace *
load(const struct pr_format *f, const char *name)
{
    const char *src = getenv("PR_SRCDIR");
    char path[4096];
    struct pr_trace *t = NULL;
    struct pr_error err;

    snprintf(path, sizeof(path), "%s/tests/data/megengine/%s", src ? src : ".",
             name);
    pr_error_clear(&err);
    if (f->load(path, NULL, &t, &err) != PR_OK)
        fail_msg("%s: %s", name, err.msg);
    return t;
}

struct tally {
    size_t n[PR_KIND_COUNT];
    int64_t ns[PR_KIND_COUNT];
    int64_t mem_bytes; /* sum of memory record bytes */
    double last_total; /* the last record's total allocated */
    size_t linked;     /* device events whose correlation a launch has */
};

static int
has_launch(const struct pr_trace *t, int64_t corr)
{
    size_t i;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if ((e->kind == PR_KIND_RUNTIME_CALL ||
             e->kind == PR_KIND_DRIVER_CALL) &&
            pr_event_correlation(t, e) == corr)
            return 1;
    }
    return 0;
}

static void
count(const struct pr_trace *t, struct tally *y)
{
    size_t i;

    memset(y, 0, sizeof(*y));
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        const struct pr_mem_info *m = pr_trace_mem(t, e);

        y->n[e->kind]++;
        y->ns[e->kind] += e->dur_ns;
        if (m != NULL) {
            y->mem_bytes += m->bytes;
            y->last_total = m->total_allocated;
        }
        if ((e->kind == PR_KIND_DEVICE_TASK || e->kind == PR_KIND_COPY) &&
            pr_event_correlation(t, e) != PR_NO_ID &&
            has_launch(t, pr_event_correlation(t, e)))
            y->linked++;
    }
}

/* The host op named `name` (the n-th of that name). */
static const struct pr_event *
op_named(const struct pr_trace *t, const char *name, int nth)
{
    size_t i;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind == PR_KIND_HOST_OP &&
            strcmp(pr_trace_str(t, e->name), name) == 0 && nth-- == 0)
            return e;
    }
    fail_msg("no op %s", name);
    return NULL;
}

static void
check_dims(const struct pr_trace *t, const char *name, const char *dims,
           const char *types)
{
    const struct pr_op_info *op =
        pr_trace_op(t, op_named(t, name, 0), &(struct pr_op_info){0});

    assert_non_null(op);
    assert_string_equal(pr_trace_str(t, op->input_dims), dims);
    assert_string_equal(pr_trace_str(t, op->input_types), types);
    /* noted at ingest, so the analyses read them parsed once */
    assert_true(pr_shapes_noted(t, PR_SHAPES_DIMS, op->input_dims));
    assert_true(pr_shapes_noted(t, PR_SHAPES_TYPES, op->input_types));
}

static int
count_named(const struct pr_trace *t, int kind, const char *prefix)
{
    size_t i;
    int n = 0;

    for (i = 0; i < t->n_events; i++)
        n += t->events[i].kind == kind &&
             strncmp(pr_trace_str(t, t->events[i].name), prefix,
                     strlen(prefix)) == 0;
    return n;
}

/* v1.4: a bare array; ops on B with tensor ids, shapes from the
 * TensorLifetime snapshots, device twins linked by op id, memory from the
 * tensors' lives. */
static void
test_v1_4(void **state)
{
    struct pr_trace *t =
        load(&pr_format_megengine, "v1_4.chrome_timeline.json");
    struct tally y;

    (void)state;
    count(t, &y);
    assert_string_equal(pr_trace_str(t, t->format), "megengine");
    assert_int_equal(y.n[PR_KIND_HOST_OP], 2);
    assert_int_equal(y.n[PR_KIND_DEVICE_TASK], 2);
    assert_int_equal(y.ns[PR_KIND_DEVICE_TASK], 200000 + 50000);
    assert_int_equal(y.linked, 2);
    check_dims(t, "Convolution", "[[8, 3, 32, 32], [16, 3, 3, 3]]",
               "['float', 'float']");
    check_dims(t, "Elemwise", "[[8, 16, 32, 32]]", "['float']");
    /* 4 tensors produced (8*3*32*32*4 + 16*27*4 + 2 * 8*16*32*32*4), one
       erased */
    assert_int_equal(y.n[PR_KIND_MEMORY_RECORD], 5);
    assert_int_equal(y.mem_bytes, 98304 + 1728 + 524288);
    assert_int_equal(count_named(t, PR_KIND_ANNOTATION, "CommandExecute"), 2);
    pr_trace_free(t);
}

/* v1.5: the Metadata first event, device lanes at 256 + index, memory
 * counters "<device>_alloc_memory" keyed by their own name. */
static void
test_v1_5(void **state)
{
    struct pr_trace *t =
        load(&pr_format_megengine, "v1_5.chrome_timeline.json");
    struct tally y;

    (void)state;
    count(t, &y);
    assert_int_equal(y.n[PR_KIND_HOST_OP], 2);
    assert_int_equal(y.n[PR_KIND_DEVICE_TASK], 2);
    assert_int_equal(y.ns[PR_KIND_DEVICE_TASK], 150000);
    assert_int_equal(y.linked, 2);
    check_dims(t, "ConvolutionForward", "[[8, 3, 32, 32], [16, 3, 3, 3]]",
               "['float', 'float']");
    assert_int_equal(y.n[PR_KIND_MEMORY_RECORD], 2);
    assert_int_equal(y.mem_bytes, 2621440);
    assert_true(y.last_total == 2621440.0);
    /* dispatching is a host range, not an operator */
    assert_int_equal(count_named(t, PR_KIND_ANNOTATION, "OpDispatch"), 2);
    pr_trace_free(t);
}

/* v1.6+: metadata.localTime, small tids named by thread_name records,
 * KernelLaunch flows from the op to its device range. */
static void
test_v1_6(void **state)
{
    struct pr_trace *t =
        load(&pr_format_megengine, "v1_6.chrome_timeline.json");
    struct tally y;
    const struct pr_gpu_info *g;
    size_t i;

    (void)state;
    count(t, &y);
    assert_int_equal(y.n[PR_KIND_HOST_OP], 4);
    assert_int_equal(y.n[PR_KIND_DEVICE_TASK], 4);
    assert_int_equal(y.ns[PR_KIND_DEVICE_TASK], 2 * (40000 + 8000));
    assert_int_equal(y.linked, 4);
    assert_int_equal(count_named(t, PR_KIND_ANNOTATION, "ProfilerStep#"), 0);
    assert_int_equal(y.n[PR_KIND_MEMORY_RECORD], 4);
    assert_true(y.last_total == 4194304.0);
    for (i = 0; i < t->n_events; i++) {
        if (t->events[i].kind != PR_KIND_DEVICE_TASK)
            continue;
        g = pr_trace_gpu(t, &t->events[i], &(struct pr_gpu_info){0});
        assert_int_equal(g->device, 0);
        assert_string_equal(pr_trace_str(t, pr_event_pid(t, &t->events[i])),
                            "0");
    }
    pr_trace_free(t);
}

/* v1.12: StopStep markers make steps; with CUPTI the kernels are the
 * device work and the op-level ranges become annotations; launches are
 * driver calls named as CUPTI saw them. */
static void
test_v1_12(void **state)
{
    struct pr_trace *t =
        load(&pr_format_megengine, "v1_12.chrome_timeline.json");
    struct tally y;

    (void)state;
    count(t, &y);
    assert_int_equal(y.n[PR_KIND_HOST_OP], 4);
    assert_int_equal(y.n[PR_KIND_DEVICE_TASK], 4);
    assert_int_equal(y.ns[PR_KIND_DEVICE_TASK], 2 * (30000 + 5000));
    assert_int_equal(y.n[PR_KIND_DEVICE_ANNOTATION], 4);
    assert_int_equal(y.linked, 4);
    assert_int_equal(count_named(t, PR_KIND_DRIVER_CALL, "cuLaunchKernel"), 4);
    assert_int_equal(count_named(t, PR_KIND_RUNTIME_CALL, "cudaLaunchKernel"),
                     4);
    assert_int_equal(count_named(t, PR_KIND_ANNOTATION, "ProfilerStep#"), 2);
    assert_int_equal(
        count_named(t, PR_KIND_DEVICE_TASK, "volta_scudnn_128x64_relu"), 2);
    pr_trace_free(t);
}

/* The kinds of what a trace cannot give, space-separated, into buf. */
static const char *
gap_kinds(const struct pr_trace *t, char *buf, size_t cap)
{
    size_t i, n = 0;

    buf[0] = '\0';
    for (i = 0; i < t->n_gaps && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? " " : "",
                              pr_trace_str(t, t->gaps[i].kind));
    return buf;
}

/* Each shape says what it cannot give: kernels only with CUPTI, steps
 * only with StopStep, never communication; a graph profile has neither
 * kernels nor steps. */
static void
test_gaps(void **state)
{
    static const struct {
        const struct pr_format *f;
        const char *file, *kinds;
    } cases[] = {
        {&pr_format_megengine, "v1_4.chrome_timeline.json",
         "no_kernels no_steps no_communication"},
        {&pr_format_megengine, "v1_5.chrome_timeline.json",
         "no_kernels no_steps no_communication"},
        {&pr_format_megengine, "v1_6.chrome_timeline.json",
         "no_kernels no_steps no_communication"},
        {&pr_format_megengine, "v1_12.chrome_timeline.json",
         "no_communication"},
        {&pr_format_megengine_static, "static_profile.json",
         "no_kernels no_steps"},
    };
    char buf[256];
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct pr_trace *t = load(cases[i].f, cases[i].file);

        assert_string_equal(gap_kinds(t, buf, sizeof(buf)), cases[i].kinds);
        pr_trace_free(t);
    }
}

/* The static-graph profile: host and device time per operator (seconds),
 * the footprint's computation as FLOPs, the memory plan's extent. */
static void
test_static(void **state)
{
    struct pr_trace *t =
        load(&pr_format_megengine_static, "static_profile.json");
    struct tally y;
    const struct pr_op_info *op;

    (void)state;
    count(t, &y);
    assert_string_equal(pr_trace_str(t, t->format), "megengine-static");
    assert_int_equal(y.n[PR_KIND_HOST_OP], 4);
    assert_int_equal(y.n[PR_KIND_DEVICE_TASK], 3);
    /* kern to end: 18 + 100 + 20 us */
    assert_int_equal(y.ns[PR_KIND_DEVICE_TASK], 138000);
    assert_int_equal(y.linked, 3);
    op = pr_trace_op(t, op_named(t, "ConvolutionForward", 0),
                     &(struct pr_op_info){0});
    assert_true(op->flops == 884736.0);
    check_dims(t, "ConvolutionForward", "[[1, 3, 32, 32], [16, 3, 3, 3]]",
               "['float', 'float']");
    /* relu's output reuses the input's memory: 14016 + 65536 bytes */
    assert_int_equal(y.n[PR_KIND_MEMORY_RECORD], 1);
    assert_int_equal(y.mem_bytes, 79552);
    pr_trace_free(t);
}

static void
test_helpers(void **state)
{
    struct pr_buf b;
    int64_t n = 0;
    int type, dev, stream;
    struct pr_strtab *s = pr_strtab_new();

    (void)state;
    pr_buf_init(&b, 0);
    assert_true(pr_megengine_shape("{32,3,224,224}", &b, &n));
    assert_string_equal(b.data, "[32, 3, 224, 224]");
    assert_int_equal(n, 32 * 3 * 224 * 224);
    pr_buf_reset(&b);
    assert_true(pr_megengine_shape("[ 8, 16 ]", &b, &n));
    assert_string_equal(b.data, "[8, 16]");
    pr_buf_reset(&b);
    assert_true(pr_megengine_shape("[ ]", &b, &n));
    assert_int_equal(n, 1);
    assert_false(pr_megengine_shape("{1,x}", &b, &n));
    assert_false(pr_megengine_shape("{99999999999,99999999999}", &b, &n));
    assert_true(pr_megengine_locator("CompNode(\"gpu1:2\" from \"xpu0:0\")",
                                     &type, &dev, &stream));
    assert_int_equal(type, 1);
    assert_int_equal(dev, 1);
    assert_int_equal(stream, 2);
    assert_true(
        pr_megengine_locator("gpu0:COPY_alloc_mem", &type, &dev, &stream));
    assert_int_equal(stream, -1);
    assert_false(pr_megengine_locator("worker", &type, &dev, &stream));
    assert_int_equal(pr_megengine_dtype_size("Float16"), 2);
    assert_string_equal(pr_megengine_kineto_type("BFloat16"), "c10::BFloat16");
    assert_string_equal(
        pr_strtab_get(s, pr_megengine_api_name(
                             s, pr_strtab_intern(s, "cudaMemcpy_v3020", 16))),
        "cudaMemcpy");
    assert_string_equal(
        pr_strtab_get(s, pr_megengine_api_name(
                             s, pr_strtab_intern(s, "cuLaunchKernel", 14))),
        "cuLaunchKernel");
    pr_strtab_free(s);
    pr_buf_free(&b);
}

static void
test_damaged(void **state)
{
    static const char cut[] =
        "{\"traceEvents\":[{\"name\":\"Convolution\",\"ph\":\"B\",\"pid\":1,"
        "\"tid\":1,\"ts\":1.0},{\"name\":\"Convolution\",\"ph\":\"E\"";
    static const char unbalanced[] =
        "[{\"name\":\"a\",\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":1},"
        "{\"name\":\"b\",\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":2},"
        "{\"name\":\"a\",\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":3},"
        "{\"name\":\"c\",\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":4}]";
    struct pr_trace *t = NULL;
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(
        pr_megengine_load_mem("cut.json", cut, strlen(cut), &t, &err),
        PR_E_FORMAT);
    assert_null(t);
    assert_non_null(strstr(err.msg, "cut.json: byte "));
    pr_error_clear(&err);
    assert_int_equal(pr_megengine_load_mem("u.json", unbalanced,
                                           strlen(unbalanced), &t, &err),
                     PR_OK);
    /* one pair kept; the stray E and the B left open are counted */
    assert_int_equal(t->n_events, 1);
    assert_int_equal(t->diag.skipped_no_dur, 2);
    pr_trace_free(t);
    pr_error_clear(&err);
    assert_int_equal(
        pr_megengine_static_parse("{\"graph_exec\": {}}", 18, &t, &err),
        PR_E_NOT_FORMAT);
    pr_error_clear(&err);
    assert_int_equal(
        pr_megengine_static_parse("{\"graph_exec\": ", 15, &t, &err),
        PR_E_FORMAT);
    assert_non_null(strstr(err.msg, ": not valid JSON"));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v1_4),    cmocka_unit_test(test_v1_5),
        cmocka_unit_test(test_v1_6),    cmocka_unit_test(test_v1_12),
        cmocka_unit_test(test_static),  cmocka_unit_test(test_helpers),
        cmocka_unit_test(test_damaged), cmocka_unit_test(test_gaps),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

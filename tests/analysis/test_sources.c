/* test_sources.c - the source view (issue #16): frame parsing and the
 * skip rules, then operator time by source location on hand-made traces
 * (Call stack, python_function frames, backward ops by sequence number,
 * no stacks), then on the real traces: the tb_plugin ResNet-50 trace
 * (stacks on every forward operator) and HTA's call_stack trace (none).
 * The real traces are skipped when ../shared is absent. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "profreport/analysis.h"
#include "profreport/reader.h"
#include "profreport/sources.h"
#include "profreport/tree.h"

#include "testshared.h"
#include "testtrace.h"

/* ------------------------------------------------ frames */

static void
check_frame(const char *text, const char *path, int64_t line, const char *func,
            enum pr_frame_rule rule)
{
    struct pr_frame f;

    if (path == NULL) {
        assert_false(pr_sources_parse_frame(text, strlen(text), &f));
        return;
    }
    assert_true(pr_sources_parse_frame(text, strlen(text), &f));
    assert_int_equal(f.path_n, strlen(path));
    assert_memory_equal(f.path, path, f.path_n);
    assert_int_equal(f.line, line);
    assert_int_equal(f.func_n, strlen(func));
    assert_memory_equal(f.func, func, f.func_n);
    assert_int_equal(pr_sources_frame_rule(&f), rule);
}

static void
test_frames(void **state)
{
    (void)state;
    check_frame("resnet50_profiler_api.py(54): <module>",
                "resnet50_profiler_api.py", 54, "<module>", PR_FRAME_USER);
    /* torch_npu ends frames with "\r\n" */
    check_frame("\r\n/home/u/main.py(345): train ", "/home/u/main.py", 345,
                "train", PR_FRAME_USER);
    check_frame("/env/lib/python3.7/site-packages/torch/optim/sgd.py(117): "
                "step",
                "/env/lib/python3.7/site-packages/torch/optim/sgd.py", 117,
                "step", PR_FRAME_SITE_PACKAGES);
    check_frame("/usr/lib/python3/dist-packages/numpy/core.py(9): f",
                "/usr/lib/python3/dist-packages/numpy/core.py", 9, "f",
                PR_FRAME_SITE_PACKAGES);
    check_frame("torch/nn/modules/module.py(1501): _call_impl",
                "torch/nn/modules/module.py", 1501, "_call_impl",
                PR_FRAME_FRAMEWORK);
    check_frame("/src/pytorch/torch/nn/functional.py(1848): linear",
                "/src/pytorch/torch/nn/functional.py", 1848, "linear",
                PR_FRAME_FRAMEWORK);
    check_frame("/opt/conda/lib/python3.9/threading.py(917): run",
                "/opt/conda/lib/python3.9/threading.py", 917, "run",
                PR_FRAME_STDLIB);
    check_frame("<string>(1): <module>", "<string>", 1, "<module>",
                PR_FRAME_STDLIB);
    check_frame("<frozen importlib._bootstrap>(1007): _find_and_load",
                "<frozen importlib._bootstrap>", 1007, "_find_and_load",
                PR_FRAME_STDLIB);
    /* a notebook cell is the user's code */
    check_frame("<ipython-input-3-abc>(4): <module>", "<ipython-input-3-abc>",
                4, "<module>", PR_FRAME_USER);
    /* a directory merely named like a package is not the package */
    check_frame("/home/u/torchtools/x.py(2): g", "/home/u/torchtools/x.py", 2,
                "g", PR_FRAME_USER);
    check_frame("nn.Module: Linear_0", NULL, 0, NULL, PR_FRAME_NOT_SOURCE);
    check_frame("<built-in method conv2d of type object at 0x7f>", NULL, 0,
                NULL, PR_FRAME_NOT_SOURCE);
    check_frame("f.py(12", NULL, 0, NULL, PR_FRAME_NOT_SOURCE);
    check_frame("(12): f", NULL, 0, NULL, PR_FRAME_NOT_SOURCE);
    check_frame("", NULL, 0, NULL, PR_FRAME_NOT_SOURCE);
    assert_string_equal(pr_sources_rule_name(PR_FRAME_SITE_PACKAGES),
                        "site-packages");
}

/* ------------------------------------------------ hand-made traces */

static struct pr_op_info *
last_op(struct pr_trace *t)
{
    return pr_trace_op_edit(t, (uint32_t)t->n_ops - 1);
}

static void
on_thread(struct pr_trace *t, const char *name, const char *tid, double ts,
          double dur, int64_t ext)
{
    tt_host(t, PR_KIND_HOST_OP, name, tid, ts, dur, ext, NULL, NULL);
}

/* A launch on thread tid of a kernel of dur µs at kts (corr = ext). */
static void
launch(struct pr_trace *t, const char *tid, double ts, int64_t ext, double kts,
       double kdur)
{
    struct pr_event *e =
        tt_event(t, PR_KIND_RUNTIME_CALL, "cudaLaunchKernel", tid, ts, 1);

    assert_int_equal(pr_event_set_correlation(t, e, ext), PR_OK);
    assert_int_equal(pr_event_set_external_id(t, e, ext), PR_OK);
    tt_kernel(t, "k", kts, kdur, ext);
}

/* The run object of the source view of t (finished here). */
static cJSON *
sources_of(struct pr_trace *t)
{
    struct pr_error err = {0};
    struct pr_tree tr;
    cJSON *run = cJSON_CreateObject();

    assert_non_null(run);
    pr_trace_finish(t);
    assert_int_equal(pr_tree_build(t, &tr, &err), PR_OK);
    assert_int_equal(pr_sources_fill(t, &tr, run, &err), PR_OK);
    pr_tree_free(&tr);
    return run;
}

static double
num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

    assert_true(cJSON_IsNumber(v));
    return v->valuedouble;
}

static const char *
str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const cJSON *
get(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* step > conv2d [10,40) > cudnn_convolution [12,30), both at model.py:41
 * (one call, 50 µs of kernel); relu at model.py:42 (20 µs); add without
 * a stack (5 µs): not in the view, but in the operator totals. */
static void
test_call_stack(void **state)
{
    static const char s41[] = "torch/nn/modules/conv.py(456): _conv_forward;"
                              "model.py(41): forward;train.py(88): step";
    struct pr_trace *t = pr_trace_new();
    const cJSON *rows, *r, *v, *sk;
    cJSON *run;

    (void)state;
    tt_op(t, "ProfilerStep#1", 0, 100, 100);
    tt_op(t, "aten::conv2d", 10, 30, 1);
    last_op(t)->stack = tt_str(t, s41);
    tt_op(t, "aten::cudnn_convolution", 12, 18, 2);
    last_op(t)->stack = tt_str(t, s41);
    launch(t, "1", 13, 2, 20, 50);
    tt_op(t, "aten::relu", 50, 10, 3);
    last_op(t)->stack = tt_str(t, "model.py(42): forward;\r\ntrain.py(88): "
                                  "step;\r\n");
    launch(t, "1", 51, 3, 75, 20);
    tt_op(t, "aten::add", 70, 5, 4);
    launch(t, "1", 71, 4, 96, 5);
    run = sources_of(t);
    rows = get(run, "sources");
    assert_int_equal(cJSON_GetArraySize(rows), 2);
    r = cJSON_GetArrayItem(rows, 0);
    assert_string_equal(str(r, "location"), "model.py:41 (forward)");
    assert_string_equal(str(r, "file"), "model.py");
    tt_near(num(r, "line"), 41);
    assert_string_equal(str(r, "function"), "forward");
    tt_near(num(r, "calls"), 1);
    tt_near(num(r, "device_self_us"), 50);
    /* the launch is the op's, not its self time (as in the plugin) */
    tt_near(num(r, "host_self_us"), 29);
    assert_true(cJSON_IsNull(get(r, "flops")));
    r = cJSON_GetArrayItem(rows, 1);
    assert_string_equal(str(r, "location"), "model.py:42 (forward)");
    tt_near(num(r, "device_self_us"), 20);
    v = get(run, "source_view");
    assert_string_equal(str(v, "origin"), "call_stack");
    tt_near(num(v, "operators"), 4);
    tt_near(num(v, "operators_with_stack"), 3);
    tt_near(num(v, "device_self_us"), 70);
    tt_near(num(v, "operators_device_self_us"), 75);
    assert_true(cJSON_IsNull(get(v, "note")));
    sk = cJSON_GetArrayItem(get(v, "skipped_frames"), 0);
    assert_string_equal(str(sk, "rule"), "framework");
    tt_near(num(sk, "frames"), 1);
    assert_string_equal(str(sk, "example"),
                        "torch/nn/modules/conv.py(456): _conv_forward");
    r = cJSON_GetArrayItem(get(run, "source_stacks"), 0);
    assert_string_equal(str(r, "stack"),
                        "model.py(41): forward; train.py(88): step");
    assert_string_equal(str(r, "location"), "model.py:41 (forward)");
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* linear (sequence number 7, model.py:50) on thread 1 launches 10 µs; its
 * backward on thread 2 (evaluate_function > AddmmBackward0 > mm, 30 µs)
 * is shown beside it, one backward call. */
static void
test_backward(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *r, *v;
    cJSON *run;

    (void)state;
    tt_op(t, "aten::linear", 0, 10, 1);
    last_op(t)->stack = tt_str(t, "model.py(50): forward");
    last_op(t)->seq = 7;
    last_op(t)->fwd_tid = 0;
    launch(t, "1", 1, 1, 20, 10);
    on_thread(t, "autograd::engine::evaluate_function: AddmmBackward0", "2", 40,
              20, 10);
    last_op(t)->seq = 7;
    last_op(t)->fwd_tid = 1;
    on_thread(t, "AddmmBackward0", "2", 41, 18, 11);
    last_op(t)->seq = 7;
    last_op(t)->fwd_tid = 1;
    on_thread(t, "aten::mm", "2", 42, 10, 12);
    launch(t, "2", 43, 12, 70, 30);
    run = sources_of(t);
    r = cJSON_GetArrayItem(get(run, "sources"), 0);
    assert_string_equal(str(r, "location"), "model.py:50 (forward)");
    tt_near(num(r, "device_self_us"), 10);
    tt_near(num(r, "backward_device_self_us"), 30);
    tt_near(num(r, "backward_host_self_us"), 19);
    tt_near(num(r, "backward_calls"), 1);
    v = get(run, "source_view");
    tt_near(num(v, "backward_operators"), 3);
    tt_near(num(v, "backward_device_self_us"), 30);
    tt_near(num(v, "device_self_us"), 10);
    /* the operator beside its backward, one pair */
    assert_int_equal(cJSON_GetArraySize(get(run, "fwd_bwd")), 1);
    r = cJSON_GetArrayItem(get(run, "fwd_bwd"), 0);
    assert_string_equal(str(r, "forward"), "aten::linear");
    assert_string_equal(str(r, "backward"), "AddmmBackward0");
    assert_string_equal(str(r, "location"), "model.py:50 (forward)");
    tt_near(num(r, "calls"), 1);
    tt_near(num(r, "forward_device_us"), 10);
    tt_near(num(r, "backward_device_us"), 30);
    tt_near(num(r, "backward_host_us"), 20);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* PyTorch 2.x: no Call stack, python_function frames around the op; the
 * torch frame and the nn.Module frame are skipped. */
static void
test_python_frames(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *r, *v;
    cJSON *run;

    (void)state;
    tt_host(t, PR_KIND_PY_FUNCTION, "train.py(88): step", "1", 0, 100, -1, NULL,
            NULL);
    tt_host(t, PR_KIND_PY_FUNCTION, "nn.Module: Net_0", "1", 4, 60, -1, NULL,
            NULL);
    tt_host(t, PR_KIND_PY_FUNCTION,
            "torch/nn/modules/module.py(1501): _call_impl", "1", 5, 50, -1,
            NULL, NULL);
    /* same start as the op: the longer span encloses */
    tt_host(t, PR_KIND_PY_FUNCTION, "model.py(60): forward", "1", 10, 40, -1,
            NULL, NULL);
    tt_op(t, "aten::mm", 10, 20, 1);
    launch(t, "1", 11, 1, 30, 25);
    tt_op(t, "aten::add", 150, 5, 2); /* outside every frame */
    run = sources_of(t);
    assert_int_equal(cJSON_GetArraySize(get(run, "sources")), 1);
    r = cJSON_GetArrayItem(get(run, "sources"), 0);
    assert_string_equal(str(r, "location"), "model.py:60 (forward)");
    tt_near(num(r, "device_self_us"), 25);
    r = cJSON_GetArrayItem(get(run, "source_stacks"), 0);
    assert_string_equal(str(r, "stack"),
                        "model.py(60): forward; train.py(88): step");
    v = get(run, "source_view");
    assert_string_equal(str(v, "origin"), "python_function");
    tt_near(num(v, "operators_with_stack"), 1);
    assert_int_equal(cJSON_GetArraySize(get(v, "skipped_frames")), 2);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* Only library frames: one row that says so; no stack at all: the note. */
static void
test_library_only_and_none(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *r, *v;
    cJSON *run;

    (void)state;
    tt_op(t, "aten::empty", 0, 10, 1);
    last_op(t)->stack = tt_str(t, "/usr/lib/python3.9/threading.py(9): run");
    run = sources_of(t);
    r = cJSON_GetArrayItem(get(run, "sources"), 0);
    assert_string_equal(str(r, "location"), "(library code only)");
    assert_true(cJSON_IsNull(get(r, "file")));
    assert_true(cJSON_IsNull(get(r, "line")));
    cJSON_Delete(run);
    pr_trace_free(t);

    t = pr_trace_new();
    tt_op(t, "aten::empty", 0, 10, 1);
    run = sources_of(t);
    assert_int_equal(cJSON_GetArraySize(get(run, "sources")), 0);
    assert_int_equal(cJSON_GetArraySize(get(run, "source_stacks")), 0);
    v = get(run, "source_view");
    assert_true(cJSON_IsNull(get(v, "origin")));
    assert_string_equal(str(v, "note"), PR_SOURCES_NO_STACKS);
    assert_non_null(strstr(str(v, "note"), "with_stack=True"));
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* ------------------------------------------------ the real traces */

static char root[4096];

static int
find_shared(void)
{
    return shared_traces(root, sizeof(root), "");
}

static cJSON *
analyse(const char *rel)
{
    struct pr_analysis_opts o = {0};
    struct pr_error err = {0};
    struct pr_trace *t = NULL;
    char path[4096 + 256];
    cJSON *run;

    snprintf(path, sizeof(path), "%s/%s", root, rel);
    if (pr_reader_load(path, NULL, &t, &err) != PR_OK)
        fail_msg("%s: %s", rel, err.msg);
    run = cJSON_CreateObject();
    assert_non_null(cJSON_AddArrayToObject(run, "diagnostics"));
    assert_non_null(cJSON_AddObjectToObject(run, "data_quality"));
    if (pr_analysis_run(t, &o, run, &err) != PR_OK)
        fail_msg("%s: %s", rel, err.msg);
    pr_trace_free(t);
    return run;
}

static double
sum_of(const cJSON *rows, const char *key)
{
    const cJSON *r;
    double s = 0;

    cJSON_ArrayForEach(r, rows) s += num(r, key);
    return s;
}

static void
near_us(double a, double b)
{
    if (!(a - b < 0.01 && b - a < 0.01))
        fail_msg("%.3f != %.3f", a, b);
}

/* tb_plugin's ResNet-50: a Call stack on every forward operator.  The
 * view's totals equal the operator totals they came from, and the device
 * time per line matches a separate count (Python, over the raw events:
 * kernel time of each runtime, given to the innermost operator around
 * it, by that operator's innermost frame outside site-packages and
 * lib/python). */
static void
test_tb_plugin(void **state)
{
    static const struct {
        const char *loc;
        double dev_us;
    } want[] = {{"resnet50_profiler_api.py:46 (<module>)", 196469},
                {"resnet50_profiler_api.py:44 (<module>)", 11492},
                {"resnet50_profiler_api.py:51 (<module>)", 7883},
                {"resnet50_profiler_api.py:49 (<module>)", 1026},
                {"resnet50_profiler_api.py:47 (<module>)", 60},
                {"resnet50_profiler_api.py:50 (<module>)", 6}};
    const cJSON *v, *rows, *ops, *r;
    cJSON *run;
    size_t i;

    (void)state;
    if (!find_shared())
        skip();
    run = analyse("tb_plugin/resnet50_num_workers_0/"
                  "worker0.1623143089861.pt.trace.json.gz");
    v = get(run, "source_view");
    rows = get(run, "sources");
    ops = get(run, "operators");
    assert_string_equal(str(v, "origin"), "call_stack");
    assert_true(cJSON_IsNull(get(v, "note")));
    near_us(sum_of(rows, "device_self_us"), num(v, "device_self_us"));
    near_us(sum_of(rows, "host_self_us"), num(v, "host_self_us"));
    near_us(sum_of(rows, "backward_device_self_us"),
            num(v, "backward_device_self_us"));
    near_us(sum_of(ops, "device_self_us"), num(v, "operators_device_self_us"));
    near_us(sum_of(ops, "host_self_us"), num(v, "operators_host_self_us"));
    near_us(sum_of(ops, "calls"), num(v, "operators"));
    near_us(num(v, "device_self_us"), 216936);
    for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        cJSON_ArrayForEach(r, rows)
        {
            if (strcmp(str(r, "location"), want[i].loc) == 0)
                break;
        }
        if (r == NULL)
            fail_msg("no row %s", want[i].loc);
        near_us(num(r, "device_self_us"), want[i].dev_us);
    }
    /* the forward pass leads, its backward beside it */
    r = cJSON_GetArrayItem(rows, 0);
    assert_string_equal(str(r, "location"), want[0].loc);
    assert_true(num(r, "backward_device_self_us") > 0);
    /* 318 convolutions, each with its CudnnConvolutionBackward (318 such
     * events in the file), the backward twice as slow */
    r = cJSON_GetArrayItem(get(run, "fwd_bwd"), 0);
    assert_string_equal(str(r, "forward"), "aten::conv2d");
    assert_string_equal(str(r, "backward"), "CudnnConvolutionBackward");
    tt_near(num(r, "calls"), 318);
    assert_true(num(r, "backward_device_us") > 2 * num(r, "forward_device_us"));
    print_message("# tb_plugin: %.0f of %.0f us of operator device time on a "
                  "line, %.0f us of backward traced to one\n",
                  num(v, "device_self_us"), num(v, "operators_device_self_us"),
                  num(v, "backward_device_self_us"));
    cJSON_Delete(run);
}

/* HTA's call_stack trace: a backward thread, no stacks: the note. */
static void
test_hta_no_stacks(void **state)
{
    const cJSON *v;
    cJSON *run;

    (void)state;
    if (!find_shared())
        skip();
    run = analyse("hta/call_stack/backward_thread.json");
    v = get(run, "source_view");
    assert_int_equal(cJSON_GetArraySize(get(run, "sources")), 0);
    assert_string_equal(str(v, "note"), PR_SOURCES_NO_STACKS);
    tt_near(num(v, "operators_with_stack"), 0);
    assert_true(num(v, "operators") > 0);
    cJSON_Delete(run);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frames),
        cmocka_unit_test(test_call_stack),
        cmocka_unit_test(test_backward),
        cmocka_unit_test(test_python_frames),
        cmocka_unit_test(test_library_only_and_none),
        cmocka_unit_test(test_tb_plugin),
        cmocka_unit_test(test_hta_no_stacks),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

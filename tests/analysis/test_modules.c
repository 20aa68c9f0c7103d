/* test_modules.c - the module view (issue #16, spec 14.2) on hand-made
 * traces: nn.Module frames (python_function events with a Python module
 * id) around operators, summed per module instance and per type, in tree
 * order; and the note when a trace has no module frame. */
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
#include "profreport/modules.h"
#include "profreport/reader.h"
#include "profreport/tree.h"

#include "testtrace.h"

/* An nn.Module frame with module id mid on thread 1. */
static void
module(struct pr_trace *t, const char *name, int64_t mid, double ts, double dur)
{
    tt_host(t, PR_KIND_PY_FUNCTION, name, "1", ts, dur, -1, NULL, NULL);
    assert_int_equal(
        pr_trace_set_py(t, (uint32_t)t->n_ops - 1, -1, -1, (int32_t)mid),
        PR_OK);
}

/* An operator [ts, ts + 10) with ext id `ext` launching a kernel of kdur
 * µs at kts. */
static void
op_with_kernel(struct pr_trace *t, double ts, int64_t ext, double kts,
               double kdur)
{
    tt_op(t, "aten::linear", ts, 10, ext);
    tt_rt(t, "cudaLaunchKernel", ts + 1, 1, ext, ext);
    tt_kernel(t, "gemm", kts, kdur, ext);
}

static cJSON *
modules_of(struct pr_trace *t)
{
    struct pr_error err = {0};
    struct pr_tree tr;
    cJSON *run = cJSON_CreateObject();

    assert_non_null(run);
    pr_trace_finish(t);
    assert_int_equal(pr_tree_build(t, &tr, &err), PR_OK);
    assert_int_equal(pr_modules_fill(t, &tr, run, &err), PR_OK);
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

static void
check_row(const cJSON *rows, int i, const char *path, double depth, double occ,
          double ops, double dev_total, double dev_self)
{
    const cJSON *r = cJSON_GetArrayItem(rows, i);

    assert_non_null(r);
    assert_string_equal(str(r, "path"), path);
    tt_near(num(r, "depth"), depth);
    tt_near(num(r, "calls"), occ);
    tt_near(num(r, "operators"), ops);
    tt_near(num(r, "device_total_us"), dev_total);
    tt_near(num(r, "device_self_us"), dev_self);
}

/* Two forward calls of Net_0: Linear_0 (20 µs of kernel each time) and,
 * in the first only, Linear_1 (10 µs); ReLU_0 is called inside both
 * linears, so it is two rows.  Rows follow the tree, children in the
 * order met; a module's device self time is its direct operators'. */
static void
test_hierarchy(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *rows, *types, *ty, *r;
    cJSON *run;

    (void)state;
    module(t, "nn.Module: Net_0", 0, 0, 100);
    module(t, "nn.Module: Linear_0", 1, 10, 30);
    op_with_kernel(t, 12, 1, 50, 20);
    module(t, "nn.Module: ReLU_0", 3, 25, 10);
    module(t, "nn.Module: Linear_1", 2, 60, 30);
    op_with_kernel(t, 62, 2, 75, 10);
    module(t, "nn.Module: ReLU_0", 3, 80, 5);
    module(t, "nn.Module: Net_0", 0, 200, 100);
    module(t, "nn.Module: Linear_0", 1, 210, 30);
    op_with_kernel(t, 212, 3, 250, 20);
    run = modules_of(t);
    rows = cJSON_GetObjectItemCaseSensitive(run, "modules");
    assert_int_equal(cJSON_GetArraySize(rows), 5);
    check_row(rows, 0, "Net_0", 0, 2, 0, 50, 0);
    check_row(rows, 1, "Net_0/Linear_0", 1, 2, 2, 40, 40);
    check_row(rows, 2, "Net_0/Linear_0/ReLU_0", 2, 1, 0, 0, 0);
    check_row(rows, 3, "Net_0/Linear_1", 1, 1, 1, 10, 10);
    check_row(rows, 4, "Net_0/Linear_1/ReLU_0", 2, 1, 0, 0, 0);
    r = cJSON_GetArrayItem(rows, 1);
    assert_string_equal(str(r, "name"), "Linear_0");
    tt_near(num(r, "module_id"), 1);
    tt_near(num(r, "host_total_us"), 60);
    tt_near(num(r, "avg_duration_us"), 20); /* device total / calls */
    types = cJSON_GetObjectItemCaseSensitive(run, "module_types");
    ty = cJSON_GetArrayItem(types, 0);
    assert_string_equal(str(ty, "name"), "Linear");
    tt_near(num(ty, "instances"), 2);
    tt_near(num(ty, "calls"), 3);
    tt_near(num(ty, "device_self_us"), 50);
    assert_int_equal(cJSON_GetArraySize(types), 3);
    r = cJSON_GetObjectItemCaseSensitive(run, "module_view");
    tt_near(num(r, "modules"), 5);
    tt_near(num(r, "module_calls"), 7);
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(r, "note")));
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* A Lightning-style trace (14.3): Framework "pytorch-lightning",
 * "[pl][module]TYPE: NAME" ranges (as cpu_op and as user_annotation) are
 * the modules, one row per name, id 0, each under the module its name
 * names up to the last '.'; nn.Module python frames and "[pl][profile]"
 * ranges are not modules.  net.0 is called twice, net.1 once, and
 * net.0.act sits under net.0 by its name. */
static void
test_lightning(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *rows, *types, *ty, *r;
    cJSON *run;

    (void)state;
    t->lightning = 1;
    tt_op(t, "[pl][profile]run_training_batch", 0, 400, -1);
    tt_host(t, PR_KIND_ANNOTATION,
            "[pl][module]torch.nn.modules.container.Sequential: net", "1", 1,
            300, -1, NULL, NULL);
    tt_op(t, "[pl][module]torch.nn.modules.linear.Linear: net.0", 10, 40, -1);
    module(t, "nn.Module: Linear_0", 1, 11, 30);
    op_with_kernel(t, 12, 1, 50, 20);
    tt_op(t, "[pl][module]torch.nn.modules.activation.ReLU: net.0.act", 30, 10,
          -1);
    tt_op(t, "[pl][module]torch.nn.modules.activation.ReLU: net.1", 60, 20, -1);
    op_with_kernel(t, 62, 2, 75, 5);
    tt_op(t, "[pl][module]torch.nn.modules.linear.Linear: net.0", 100, 40, -1);
    op_with_kernel(t, 102, 3, 150, 10);
    run = modules_of(t);
    rows = cJSON_GetObjectItemCaseSensitive(run, "modules");
    assert_int_equal(cJSON_GetArraySize(rows), 4);
    check_row(rows, 0, "net", 0, 1, 0, 35, 0);
    check_row(rows, 1, "net.0", 1, 2, 2, 30, 30);
    check_row(rows, 2, "net.0.act", 2, 1, 0, 0, 0);
    check_row(rows, 3, "net.1", 1, 1, 1, 5, 5);
    r = cJSON_GetArrayItem(rows, 1);
    assert_string_equal(str(r, "name"), "net.0");
    tt_near(num(r, "module_id"), 0);
    tt_near(num(r, "host_total_us"), 80);
    types = cJSON_GetObjectItemCaseSensitive(run, "module_types");
    assert_int_equal(cJSON_GetArraySize(types), 3);
    ty = cJSON_GetArrayItem(types, 0);
    assert_string_equal(str(ty, "name"), "Linear");
    tt_near(num(ty, "instances"), 1);
    tt_near(num(ty, "calls"), 2);
    tt_near(num(ty, "device_self_us"), 30);
    ty = cJSON_GetArrayItem(types, 1);
    assert_string_equal(str(ty, "name"), "ReLU");
    tt_near(num(ty, "instances"), 2);
    r = cJSON_GetObjectItemCaseSensitive(run, "module_view");
    assert_string_equal(str(r, "origin"), "lightning");
    tt_near(num(r, "module_calls"), 5);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* Top-level modules by name; python frames without a module id are not
 * modules; no module at all gives the note. */
static void
test_tops_and_none(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *rows, *v;
    cJSON *run;

    (void)state;
    module(t, "nn.Module: Loss_0", 5, 0, 10);
    module(t, "nn.Module: Encoder_0", 4, 20, 10);
    tt_host(t, PR_KIND_PY_FUNCTION, "train.py(3): step", "1", 40, 10, -1, NULL,
            NULL);
    run = modules_of(t);
    rows = cJSON_GetObjectItemCaseSensitive(run, "modules");
    assert_int_equal(cJSON_GetArraySize(rows), 2);
    assert_string_equal(str(cJSON_GetArrayItem(rows, 0), "name"), "Encoder_0");
    assert_string_equal(str(cJSON_GetArrayItem(rows, 1), "name"), "Loss_0");
    cJSON_Delete(run);
    pr_trace_free(t);

    t = pr_trace_new();
    tt_op(t, "aten::add", 0, 5, 1);
    run = modules_of(t);
    assert_int_equal(
        cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(run, "modules")),
        0);
    v = cJSON_GetObjectItemCaseSensitive(run, "module_view");
    assert_string_equal(str(v, "note"), PR_MODULES_NONE);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* Module rows are keyed by (parent, name, module id) as bytes; ids whose
 * bytes are not UTF-8 (0x80, 0x81) once shared a row when the key table
 * repaired text.  Two instances of one name are two rows. */
static void
test_binary_keys(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *rows;
    cJSON *run;

    (void)state;
    module(t, "nn.Module: Block_0", 0x80, 0, 10);
    module(t, "nn.Module: Block_0", 0x81, 20, 10);
    module(t, "nn.Module: Block_0", 0xff80, 40, 10);
    run = modules_of(t);
    rows = cJSON_GetObjectItemCaseSensitive(run, "modules");
    assert_int_equal(cJSON_GetArraySize(rows), 3);
    tt_near(num(cJSON_GetArrayItem(rows, 0), "module_id"), 0x80);
    tt_near(num(cJSON_GetArrayItem(rows, 1), "module_id"), 0x81);
    tt_near(num(cJSON_GetArrayItem(rows, 2), "module_id"), 0xff80);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* A real module trace: torch_npu's AlexNet under DDP (one forward with
 * with_modules).  26 nn.Module frames, each one row; the five Conv2d
 * frames last 4800.97 µs together (summed over the raw events). */
static void
test_torch_npu(void **state)
{
    static const char rel[] = "torch_npu/text_level1/rank0_ascend_pt/"
                              "ASCEND_PROFILER_OUTPUT/trace_view.json";
    const char *env = getenv("PR_SHARED"), *src = getenv("PR_SRCDIR");
    struct pr_analysis_opts o = {0};
    struct pr_error err = {0};
    struct pr_trace *t = NULL;
    const cJSON *rows, *r, *ty;
    char path[4096];
    struct stat sb;
    cJSON *run;

    (void)state;
    if (env != NULL && env[0] != '\0')
        snprintf(path, sizeof(path), "%s/traces/%s", env, rel);
    else
        snprintf(path, sizeof(path), "%s/../shared/traces/%s",
                 src != NULL ? src : "..", rel);
    if (stat(path, &sb) != 0)
        skip();
    if (pr_reader_load(path, NULL, &t, &err) != PR_OK)
        fail_msg("%s: %s", rel, err.msg);
    run = cJSON_CreateObject();
    assert_non_null(cJSON_AddArrayToObject(run, "diagnostics"));
    assert_non_null(cJSON_AddObjectToObject(run, "data_quality"));
    if (pr_analysis_run(t, &o, run, &err) != PR_OK)
        fail_msg("%s: %s", rel, err.msg);
    rows = cJSON_GetObjectItemCaseSensitive(run, "modules");
    assert_int_equal(cJSON_GetArraySize(rows), 26);
    cJSON_ArrayForEach(r, rows)
    {
        if (strcmp(str(r, "name"), "Conv2d_0") == 0)
            break;
    }
    assert_non_null(r);
    assert_string_equal(str(r, "path"),
                        "DistributedDataParallel_0/AlexNet_0/Sequential_0/"
                        "Conv2d_0");
    tt_near(num(r, "depth"), 3);
    cJSON_ArrayForEach(ty,
                       cJSON_GetObjectItemCaseSensitive(run, "module_types"))
    {
        if (strcmp(str(ty, "name"), "Conv2d") == 0)
            break;
    }
    assert_non_null(ty);
    tt_near(num(ty, "instances"), 5);
    tt_near(num(ty, "host_total_us"), 4800.97);
    cJSON_Delete(run);
    pr_trace_free(t);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hierarchy),
        cmocka_unit_test(test_lightning),
        cmocka_unit_test(test_tops_and_none),
        cmocka_unit_test(test_binary_keys),
        cmocka_unit_test(test_torch_npu),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

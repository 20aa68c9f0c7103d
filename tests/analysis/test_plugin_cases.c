/* test_plugin_cases.c - the TensorBoard plugin's own test cases that pin
 * how launches reach operators (pytorch/kineto tb_plugin/test/
 * test_profiler.py: test_external_id, test_group_by_kernel_columns), run
 * through the reader and the whole analysis, and checked against the
 * numbers the plugin's test asserts (issue #28: a launch whose runtime
 * External id names an operator belongs to that operator, even inside a
 * nested op or on another thread; containment is the fallback only). */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cjson/cJSON.h>

#include "profreport/analysis.h"
#include "profreport/kernel_calls.h"
#include "profreport/reader.h"

#include "testjson.h"

/* The events as a JSON array (test_malloc'd). */
static char *
join(const char *const *ev)
{
    size_t n = 3, i, at = 0;
    char *s;

    for (i = 0; ev[i] != NULL; i++)
        n += strlen(ev[i]) + 2;
    s = test_malloc(n);
    s[at++] = '[';
    for (i = 0; ev[i] != NULL; i++) {
        memcpy(s + at, ev[i], strlen(ev[i]));
        at += strlen(ev[i]);
        if (ev[i + 1] != NULL) {
            s[at++] = ',';
            s[at++] = '\n';
        }
    }
    s[at++] = ']';
    s[at] = '\0';
    return s;
}

static struct pr_trace *
load(const char *json)
{
    struct pr_trace *t = NULL;
    struct pr_error err;

    pr_error_clear(&err);
    if (pr_reader_load_mem("plugin.json", json, strlen(json), NULL, &t, &err) !=
        PR_OK)
        fail_msg("load failed: %s", err.msg);
    return t;
}

static cJSON *
analyse(const struct pr_trace *t)
{
    struct pr_analysis_opts o;
    struct pr_error err;
    cJSON *run = cJSON_CreateObject();

    memset(&o, 0, sizeof(o));
    pr_error_clear(&err);
    assert_non_null(run);
    if (pr_analysis_run(t, &o, run, &err) != PR_OK)
        fail_msg("analysis failed: %s", err.msg);
    return run;
}

static const cJSON *
row(const cJSON *run, const char *table, const char *name)
{
    const cJSON *r;

    cJSON_ArrayForEach(r, get(run, table))
    {
        if (strcmp(str(r, "name"), name) == 0)
            return r;
    }
    fail_msg("no %s row %s", table, name);
    return NULL;
}

#define OP(name, tid, ts, dur, ext)                                            \
    "{\"ph\": \"X\", \"cat\": \"Operator\", \"name\": \"" name "\", "          \
    "\"pid\": 13721, \"tid\": \"" tid "\", \"ts\": " ts ", \"dur\": " dur      \
    ", \"args\": {\"Input Dims\": [], \"External id\": " ext "}}"
#define RT(tid, ts, dur, corr, ext)                                            \
    "{\"ph\": \"X\", \"cat\": \"Runtime\", \"name\": \"cudaLaunchKernel\", "   \
    "\"pid\": 13721, \"tid\": \"" tid "\", \"ts\": " ts ", \"dur\": " dur      \
    ", \"args\": {\"correlation\": " corr ", \"external id\": " ext "}}"
#define KERNEL(name, ts, dur, corr, ext, more)                                 \
    "{\"ph\": \"X\", \"cat\": \"Kernel\", \"name\": \"" name "\", \"pid\": "   \
    "0, \"tid\": \"stream 7\", \"ts\": " ts ", \"dur\": " dur ", \"args\": "   \
    "{\"correlation\": " corr ", \"external id\": " ext ", \"device\": 0" more \
    "}}"

#define NLL "void cunn_ClassNLLCriterion_updateGradInput_kernel<float>"

/* test_external_id: aten::mat_mul [100,200) ext 2 holds aten::mm [120,190)
 * ext 4.  Four zero-length launches at 120 and 190, inside mm by time;
 * two carry ext 2 (kernels 6 and 8 us), two ext 4 (5 and 7 us).  The
 * plugin: mat_mul device 5+6+7+8, self 6+8; mm device and self 5+7. */
static void
test_external_id(void **state)
{
    static const char *const ev[] = {
        OP("aten::mat_mul", "456", "100", "100", "2"),
        OP("aten::mm", "456", "120", "70", "4"),
        KERNEL(NLL, "130", "5", "334", "4", ""),
        RT("456", "120", "0", "334", "4"),
        KERNEL(NLL, "130", "6", "335", "2", ""),
        RT("456", "120", "0", "335", "2"),
        KERNEL(NLL, "130", "7", "336", "4", ""),
        RT("456", "190", "0", "336", "4"),
        KERNEL(NLL, "130", "8", "337", "2", ""),
        RT("456", "190", "0", "337", "2"),
        NULL};
    char *json = join(ev);
    struct pr_trace *t = load(json);
    cJSON *run = analyse(t);
    const cJSON *matmul = row(run, "operators", "aten::mat_mul");
    const cJSON *mm = row(run, "operators", "aten::mm");

    (void)state;
    test_free(json);
    assert_true(num(matmul, "device_total_us") == 5 + 6 + 7 + 8);
    assert_true(num(matmul, "device_self_us") == 6 + 8);
    assert_true(num(mm, "device_total_us") == 5 + 7);
    assert_true(num(mm, "device_self_us") == 5 + 7);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* test_group_by_kernel_columns: op1 [200,260) ext 3 on thread 123, op2
 * [340,410) ext 4 on thread 456.  Launches on thread 456: three with ext
 * 3 (at 210, 215, 220: outside every op of their thread, but their id
 * names op1), one with ext 4 at 350.  The plugin groups kernel1 by (op,
 * grid, block, registers, shared memory): op1 [16,1,1] [16,16,16] 2 calls
 * 15+10; op1 [16,1,1] [16,16,64] 1 call 13; op2 [16,1,1] [16,16,64] 1 call
 * 17. */
#define PROPS(block)                                                           \
    ", \"grid\": [16, 1, 1], \"block\": " block                                \
    ", \"registers per thread\": 18, \"shared memory\": 0"

struct group {
    const char *op, *block;
    int calls;
    double total_us, min_us, max_us;
};

static void
check_group(const cJSON *calls, const struct group *g)
{
    const cJSON *r;
    int n = 0;
    double total = 0, lo = INFINITY, hi = 0;

    cJSON_ArrayForEach(r, calls)
    {
        /* the plugin's str(grid), str(block) */
        int same = strcmp(str(r, "kernel"), "kernel1") == 0 &&
                   strcmp(str(r, "op"), g->op) == 0 &&
                   strcmp(str(r, "block"), g->block) == 0 &&
                   strcmp(str(r, "grid"), "[16, 1, 1]") == 0;

        if (!same)
            continue;
        n++;
        total += num(r, "duration_us");
        lo = fmin(lo, num(r, "duration_us"));
        hi = fmax(hi, num(r, "duration_us"));
    }
    if (n != g->calls || total != g->total_us || lo != g->min_us ||
        hi != g->max_us)
        fail_msg("kernel1 / %s / %s: %d calls, %g us (%g..%g), want %d, %g "
                 "(%g..%g)",
                 g->op, g->block, n, total, lo, hi, g->calls, g->total_us,
                 g->min_us, g->max_us);
}

static void
test_group_by_kernel_columns(void **state)
{
    static const char *const ev[] = {
        OP("op1", "123", "200", "60", "3"),
        OP("op2", "456", "340", "70", "4"),
        KERNEL("kernel1", "230", "15", "1000", "3", PROPS("[16, 16, 16]")),
        RT("456", "210", "5", "1000", "3"),
        KERNEL("kernel1", "250", "10", "1001", "3", PROPS("[16, 16, 16]")),
        RT("456", "215", "5", "1001", "3"),
        KERNEL("kernel1", "250", "13", "1002", "3", PROPS("[16, 16, 64]")),
        RT("456", "220", "5", "1002", "3"),
        KERNEL("kernel1", "250", "17", "1003", "4", PROPS("[16, 16, 64]")),
        RT("456", "350", "5", "1003", "4"),
        NULL};
    char *json = join(ev);
    static const struct group want[] = {
        {"op1", "[16, 16, 16]", 2, 25, 10, 15},
        {"op1", "[16, 16, 64]", 1, 13, 13, 13},
        {"op2", "[16, 16, 64]", 1, 17, 17, 17},
    };
    struct pr_trace *t = load(json);
    struct pr_error err;
    cJSON *calls = NULL, *run;
    size_t i;

    (void)state;
    test_free(json);
    pr_error_clear(&err);
    assert_int_equal(pr_kernel_calls_build(t, &calls, &err), PR_OK);
    assert_int_equal(cJSON_GetArraySize(calls), 4);
    for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
        check_group(calls, &want[i]);
    cJSON_Delete(calls);
    /* the kernel table's launching op: op1 has 38 of its 55 us */
    run = analyse(t);
    assert_string_equal(str(row(run, "kernels", "kernel1"), "operator"), "op1");
    assert_true(num(row(run, "operators", "op1"), "device_self_us") == 38);
    assert_true(num(row(run, "operators", "op2"), "device_self_us") == 17);
    cJSON_Delete(run);
    pr_trace_free(t);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_external_id),
        cmocka_unit_test(test_group_by_kernel_columns),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_ascend_ops.c - the operator tables of an ASCEND_PROFILER_OUTPUT
 * folder without trace_view.json: operator_details.csv (one row per call;
 * headers of torch_npu's OperatorViewParser, with and without the AI Core
 * columns, the Input Shapes column and the host columns) and
 * op_statistic.csv (by operator type; the plain header and the CANN 8.3
 * one with a leading Device_id) become the trace's op_stats rows, with an
 * unknown time left unknown, never 0.  A folder holding only them is a
 * run; with trace_view.json they are not read (the timeline has the
 * operators) and not listed as skipped.  A cell that is no time names the
 * file and line. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "profreport/formats.h"
#include "profreport/op_stats.h"
#include "profreport/trace.h"

/* torch_npu's OperatorViewParser.OPERATOR_HEADERS (2023-09 and 2025-01
 * samples alike) */
#define DETAILS_HEADER                                                         \
    "Name,Input Shapes,Call Stack,Host Self Duration(us),Host Total "          \
    "Duration(us),Device Self Duration(us),Device Total Duration(us),"         \
    "Device Self Duration With AICore(us),Device Total Duration With "         \
    "AICore(us)\n"
#define STAT_HEADER                                                            \
    "OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max "    \
    "Time(us),Ratio(%)\n"

static const struct pr_format *
row(void)
{
    const struct pr_format_table *t = pr_formats_builtin();
    size_t i;

    for (i = 0; i < t->n; i++)
        if (strcmp(t->v[i]->name, "ascend") == 0)
            return t->v[i];
    fail_msg("no ascend row");
    return NULL;
}

static void
put(const char *root, const char *rel, const char *text)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", root, rel);
    f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    fclose(f);
}

/* A scratch rank folder r/ASCEND_PROFILER_OUTPUT in root. */
static void
mk_rank(char *root, size_t cap)
{
    char path[4096];

    snprintf(root, cap, "/tmp/pr_ascops_XXXXXX");
    assert_non_null(mkdtemp(root));
    snprintf(path, sizeof(path), "%s/r", root);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/r/ASCEND_PROFILER_OUTPUT", root);
    assert_int_equal(mkdir(path, 0700), 0);
}

static void
rm_tree(const char *root)
{
    char cmd[4200];

    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

static struct pr_trace *
load_rank(const char *root)
{
    char dir[4096];
    struct pr_trace *t = NULL;
    struct pr_error err;
    struct pr_probe p;

    snprintf(dir, sizeof(dir), "%s/r", root);
    memset(&p, 0, sizeof(p));
    p.path = dir;
    p.base = "r";
    p.is_dir = 1;
    assert_int_equal(row()->sniff(&p), PR_CLAIM_SURE);
    pr_error_clear(&err);
    if (row()->load(dir, NULL, &t, &err) != PR_OK)
        fail_msg("%s", err.msg);
    return t;
}

static const struct pr_op_stat *
stat_named(const struct pr_trace *t, enum pr_op_stat_kind kind,
           const char *name, size_t nth)
{
    size_t i, n;
    const struct pr_op_stat *v = pr_op_stats_get(t, kind, &n);

    for (i = 0; i < n; i++)
        if (strcmp(pr_trace_str(t, v[i].name), name) == 0 && nth-- == 0)
            return &v[i];
    fail_msg("no row %s", name);
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

/* Every column of the 2023/2025 header: one row per call, the multi-line
 * Call Stack and the ";\n" shapes as the CSV holds them. */
static void
test_details_full(void **state)
{
    char root[64];
    struct pr_trace *t;
    const struct pr_op_stat *r;
    size_t n;

    (void)state;
    mk_rank(root, sizeof(root));
    put(root, "r/ASCEND_PROFILER_OUTPUT/operator_details.csv",
        DETAILS_HEADER
        "aten::empty,\";\n;\n;\n\",\"/usr/lib/a.py(1): f;\n/usr/lib/b.py(2): "
        "g\",66.25,66.25,0,0,0,0\n"
        "aten::zero_,232138240,x.py(3): h,221.16,256.85,0,496.8508203,0,"
        "496.8508203\n"
        "aten::empty,,,40.48\t,40.48\t,0,0,0,0\n");
    t = load_rank(root);
    assert_non_null(pr_op_stats_get(t, PR_OP_STAT_CALLS, &n));
    assert_int_equal(n, 3);
    assert_null(pr_op_stats_get(t, PR_OP_STAT_TYPES, &n));
    r = stat_named(t, PR_OP_STAT_CALLS, "aten::empty", 0);
    assert_string_equal(pr_trace_str(t, r->shapes), "[[], [], [], []]");
    assert_int_equal(r->calls, 1);
    assert_true(r->host_self_ns == 66250 && r->host_total_ns == 66250);
    assert_true(r->dev_self_ns == 0 && r->cube_total_ns == 0);
    r = stat_named(t, PR_OP_STAT_CALLS, "aten::empty", 1);
    assert_int_equal(r->shapes, PR_STR_NONE);
    assert_true(r->host_self_ns == 40480);
    r = stat_named(t, PR_OP_STAT_CALLS, "aten::zero_", 0);
    assert_string_equal(pr_trace_str(t, r->shapes), "[[232138240]]");
    assert_true(r->host_total_ns == 256850);
    assert_true(r->dev_self_ns == 0);
    assert_true(r->dev_total_ns == 496851); /* 496.8508203 µs, rounded */
    assert_true(r->cube_total_ns == 496851);
    assert_true(r->min_ns == PR_OP_STAT_UNKNOWN);
    assert_true(has_gap(t, "operators_summary_only"));
    assert_false(has_gap(t, "no_operators"));
    assert_string_equal(pr_trace_str(t, t->device_kind), "npu");
    pr_trace_free(t);
    rm_tree(root);
}

/* Generations without some columns: what is absent stays unknown. */
static void
test_details_columns(void **state)
{
    char root[64];
    struct pr_trace *t;
    const struct pr_op_stat *r;

    (void)state;
    mk_rank(root, sizeof(root));
    put(root, "r/ASCEND_PROFILER_OUTPUT/operator_details.csv",
        "Name,Host Self Duration(us),Host Total Duration(us),Device Self "
        "Duration(us),Device Total Duration(us)\n"
        "aten::mm,10,12,30.5,31\n");
    t = load_rank(root);
    r = stat_named(t, PR_OP_STAT_CALLS, "aten::mm", 0);
    assert_int_equal(r->shapes, PR_STR_NONE);
    assert_true(r->dev_self_ns == 30500 && r->dev_total_ns == 31000);
    assert_true(r->cube_self_ns == PR_OP_STAT_UNKNOWN);
    assert_true(r->cube_total_ns == PR_OP_STAT_UNKNOWN);
    pr_trace_free(t);
    rm_tree(root);

    mk_rank(root, sizeof(root));
    put(root, "r/ASCEND_PROFILER_OUTPUT/operator_details.csv",
        "Name,Device Self Duration(us),Device Total Duration(us)\n"
        "aten::mm,30.5,N/A\n");
    t = load_rank(root);
    r = stat_named(t, PR_OP_STAT_CALLS, "aten::mm", 0);
    assert_true(r->host_self_ns == PR_OP_STAT_UNKNOWN);
    assert_true(r->host_total_ns == PR_OP_STAT_UNKNOWN);
    assert_true(r->dev_self_ns == 30500);
    assert_true(r->dev_total_ns == PR_OP_STAT_UNKNOWN);
    pr_trace_free(t);
    rm_tree(root);
}

static void
check_types(const char *header, const char *prefix)
{
    char root[64], text[1024];
    struct pr_trace *t;
    const struct pr_op_stat *r;
    size_t n;

    mk_rank(root, sizeof(root));
    snprintf(text, sizeof(text),
             "%s%sForeachAddList,AI_VECTOR_CORE,3,1959.079,624.152,653.026,"
             "706.614,22.077\n"
             "%sMatMulV2,AI_CORE,8,921.498,16.54,115.187,346.567,10.385\n"
             "%sMatMulV2,AI_VECTOR_CORE,2,4,1,2,3,\n",
             header, prefix, prefix, prefix);
    put(root, "r/ASCEND_PROFILER_OUTPUT/op_statistic.csv", text);
    t = load_rank(root);
    assert_non_null(pr_op_stats_get(t, PR_OP_STAT_TYPES, &n));
    assert_int_equal(n, 3);
    r = stat_named(t, PR_OP_STAT_TYPES, "MatMulV2", 0);
    assert_string_equal(pr_trace_str(t, r->core), "AI_CORE");
    assert_int_equal(r->calls, 8);
    assert_true(r->dev_total_ns == 921498 && r->dev_self_ns == 921498);
    assert_true(r->min_ns == 16540 && r->max_ns == 346567);
    assert_true(r->host_self_ns == PR_OP_STAT_UNKNOWN);
    assert_true(fabs(r->ratio_pct - 10.385) < 1e-9);
    r = stat_named(t, PR_OP_STAT_TYPES, "MatMulV2", 1);
    assert_string_equal(pr_trace_str(t, r->core), "AI_VECTOR_CORE");
    assert_true(isnan(r->ratio_pct));
    assert_true(has_gap(t, "operators_summary_only"));
    pr_trace_free(t);
    rm_tree(root);
}

static void
test_types(void **state)
{
    (void)state;
    check_types(STAT_HEADER, "");
    /* CANN 8.3 puts a Device_id first in its tables */
    check_types("Device_id," STAT_HEADER, "0,");
}

/* With trace_view.json, the timeline has the operators: the tables are
 * neither read nor listed as skipped. */
static void
test_with_timeline(void **state)
{
    char root[64];
    struct pr_trace *t;
    size_t i;

    (void)state;
    mk_rank(root, sizeof(root));
    put(root, "r/ASCEND_PROFILER_OUTPUT/trace_view.json",
        "[{\"ph\": \"X\", \"name\": \"aten::mm\", \"pid\": 100, \"tid\": "
        "100, \"ts\": \"1736408883700000.000\", \"dur\": 500.0, \"cat\": "
        "\"cpu_op\"},\n"
        "{\"ph\": \"X\", \"name\": \"MatMulV2\", \"pid\": 900, \"tid\": 2, "
        "\"ts\": \"1736408883700100.001\", \"dur\": 30.25, \"args\": {\"Task "
        "Type\": \"AI_CORE\", \"Physic Stream Id\": 2, \"Task Id\": 11}},\n"
        "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 900, \"tid\": 0, "
        "\"args\": {\"name\": \"Ascend Hardware\"}}]\n");
    put(root, "r/ASCEND_PROFILER_OUTPUT/operator_details.csv",
        DETAILS_HEADER "aten::mm,,,1,1,0,0,0,0\n");
    put(root, "r/ASCEND_PROFILER_OUTPUT/op_statistic.csv",
        STAT_HEADER "MatMulV2,AI_CORE,8,921.498,16.54,115.187,346.567,1\n");
    t = load_rank(root);
    assert_null(t->op_stats);
    for (i = 0; i < t->n_skipped; i++) {
        const char *p = pr_trace_str(t, t->skipped[i].path);

        assert_null(strstr(p, "/operator_details.csv"));
        assert_null(strstr(p, "/op_statistic.csv"));
    }
    assert_false(has_gap(t, "operators_summary_only"));
    pr_trace_free(t);
    rm_tree(root);
}

static void
expect_bad(const char *file, const char *text, const char *msg)
{
    char root[64], dir[128], rel[128];
    struct pr_trace *t = NULL;
    struct pr_error err;

    mk_rank(root, sizeof(root));
    snprintf(rel, sizeof(rel), "r/ASCEND_PROFILER_OUTPUT/%s", file);
    put(root, rel, text);
    snprintf(dir, sizeof(dir), "%s/r", root);
    pr_error_clear(&err);
    assert_int_equal(row()->load(dir, NULL, &t, &err), PR_E_FORMAT);
    assert_null(t);
    if (strstr(err.msg, msg) == NULL)
        fail_msg("%s", err.msg);
    rm_tree(root);
}

static void
test_bad(void **state)
{
    (void)state;
    expect_bad("operator_details.csv",
               DETAILS_HEADER "a,,,1,1,0,0,0,0\nb,,,1,1x,0,0,0,0\n",
               "operator_details.csv: line 3: Host Total Duration(us) is "
               "not a time in us");
    expect_bad("operator_details.csv", DETAILS_HEADER "a,,,1,1,-3,0,0,0\n",
               "line 2: Device Self Duration(us) is not a time");
    expect_bad("operator_details.csv", "Name,Input Shapes\na,\n",
               "not an operator_details table");
    expect_bad("op_statistic.csv", STAT_HEADER "A,AI_CORE,x,1,1,1,1,1\n",
               "op_statistic.csv: line 2: Count is not a count");
    expect_bad("op_statistic.csv", "OP Type,Core Type\nA,AI_CORE\n",
               "not an op_statistic table");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_details_full),
        cmocka_unit_test(test_details_columns),
        cmocka_unit_test(test_types),
        cmocka_unit_test(test_with_timeline),
        cmocka_unit_test(test_bad),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_rows.c - the typed rows (rows.h, issue #34): every field of
 * rows.def is a row of schema.def of a type the row allows, in the rows'
 * order; the writer writes a struct as the analysis did by hand, and the
 * reader fills it back or says what is wrong, where. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/keys.h"
#include "profreport/rows.h"

/* Each field names a row of its object, of a JSON type the row has, and
 * the fields come in the rows' order (the writer writes in field order). */
static void
test_fields_match_schema(void **state)
{
    int ro;

    (void)state;
    for (ro = 0; ro < PR_RO_N; ro++) {
        const struct pr_rows_objinfo *o = pr_rows_object(ro);
        size_t k;
        assert_non_null(o);
        assert_true(o->n_fields > 0);
        /* a mask has a bit for each field */
        assert_true(o->absent == SIZE_MAX || o->n_fields <= 64);
        for (k = 0; k < o->n_fields; k++) {
            const struct pr_rows_field *f = &o->fields[k];
            const struct pr_schema_row *r = &pr_schema_rows[f->row];
            unsigned want = f->type == PR_RT_STR         ? PR_ST_STR
                            : f->type == PR_RT_BOOL_NULL ? PR_ST_BOOL
                            : f->type == PR_RT_BOOL      ? PR_ST_BOOL
                            : f->type == PR_RT_SUB       ? PR_ST_OBJ
                            : f->type == PR_RT_JSON
                                ? PR_ST_OBJ | PR_ST_ARR | PR_ST_NUM | PR_ST_STR
                                : PR_ST_NUM;
            assert_int_equal(r->object, o->object);
            /* the reader and the contract ask for the same keys; where
               rows may leave a field out, those not REQ may be absent */
            if (o->absent == SIZE_MAX)
                assert_true(r->flags & PR_SF_REQ);
            assert_true(r->types & want);
            /* a JSON field holds an object or array, or a scalar of a row
               that allows a number or a string (a gpu_metrics device) */
            if (f->type == PR_RT_JSON)
                assert_true((r->types & (PR_ST_OBJ | PR_ST_ARR)) ||
                            (r->types & (PR_ST_NUM | PR_ST_STR)) ==
                                (PR_ST_NUM | PR_ST_STR));
            if (f->type == PR_RT_NUM_NULL || f->type == PR_RT_BOOL_NULL)
                assert_true(r->types & PR_ST_NULL);
            /* a sub-object's struct is the row's child object */
            if (f->type == PR_RT_SUB)
                assert_int_equal(pr_rows_object(f->sub)->object, r->child);
            if (k > 0)
                assert_true(o->fields[k - 1].row < f->row);
        }
    }
    assert_null(pr_rows_object(PR_RO_N));
}

static const struct pr_row_memory_operator two[2] = {
    {"GPU0", "aten::empty", 3, 4096, 4096, 2, 2, 8192, 8192},
    {"GPU0", "aten::add", 1, -512, 0, 1, 0, 512, 0},
};

static void
test_write(void **state)
{
    cJSON *arr = cJSON_CreateArray();
    char *s;

    (void)state;
    assert_true(pr_rows_write(arr, PR_RO_RUNS_MEMORY_OPERATORS, two, 2));
    s = cJSON_PrintUnformatted(arr);
    assert_string_equal(
        s,
        "[{\"device\":\"GPU0\",\"name\":\"aten::empty\",\"calls\":3,"
        "\"size_increase_bytes\":4096,\"self_size_increase_bytes\":4096,"
        "\"allocation_count\":2,\"self_allocation_count\":2,"
        "\"allocation_size_bytes\":8192,\"self_allocation_size_bytes\":8192},"
        "{\"device\":\"GPU0\",\"name\":\"aten::add\",\"calls\":1,"
        "\"size_increase_bytes\":-512,\"self_size_increase_bytes\":0,"
        "\"allocation_count\":1,\"self_allocation_count\":0,"
        "\"allocation_size_bytes\":512,\"self_allocation_size_bytes\":0}]");
    cJSON_free(s);
    cJSON_Delete(arr);
}

static void
test_round_trip(void **state)
{
    cJSON *arr = cJSON_CreateArray();
    struct pr_row_memory_operator back[2];
    struct pr_error err = {0};
    size_t n = 9;

    (void)state;
    assert_true(pr_rows_write(arr, PR_RO_RUNS_MEMORY_OPERATORS, two, 2));
    assert_int_equal(pr_rows_read(arr, "ops", PR_RO_RUNS_MEMORY_OPERATORS, back,
                                  2, &n, &err),
                     PR_OK);
    assert_int_equal(n, 2);
    assert_string_equal(back[1].name, "aten::add");
    assert_true(back[1].size_increase_bytes == -512);
    assert_true(back[0].self_allocation_size_bytes == 8192);
    /* one row too many for the room given */
    assert_int_equal(pr_rows_read(arr, "ops", PR_RO_RUNS_MEMORY_OPERATORS, back,
                                  1, &n, &err),
                     PR_E_LIMIT);
    cJSON_Delete(arr);
}

/* Nanoseconds written as microseconds, as pr_emit_us does, and read back
 * to the ns; a null line and FLOPs are NAN both ways. */
static void
test_us_and_null(void **state)
{
    struct pr_row_source r = {"a.py:3", "a.py", 3, "f", 2, 1500,
                              250,      NAN,    0, 0,   0};
    struct pr_row_source back;
    cJSON *arr = cJSON_CreateArray();
    struct pr_error err = {0};
    size_t n;
    char *s;

    (void)state;
    r.line = NAN;
    r.file = NULL;
    assert_true(pr_rows_write(arr, PR_RO_RUNS_SOURCES, &r, 1));
    s = cJSON_PrintUnformatted(arr);
    assert_string_equal(s, "[{\"location\":\"a.py:3\",\"file\":null,"
                           "\"line\":null,\"function\":\"f\",\"calls\":2,"
                           "\"device_self_us\":1.5,\"host_self_us\":0.25,"
                           "\"flops\":null,\"backward_calls\":0,"
                           "\"backward_device_self_us\":0,"
                           "\"backward_host_self_us\":0}]");
    cJSON_free(s);
    assert_int_equal(
        pr_rows_read(arr, "sources", PR_RO_RUNS_SOURCES, &back, 1, &n, &err),
        PR_OK);
    assert_true(back.device_self_ns == 1500 && back.host_self_ns == 250);
    assert_true(isnan(back.line) && isnan(back.flops) && back.file == NULL);
    cJSON_Delete(arr);
}

/* What the reader says about a damaged table. */
static void
expect(const char *json, const char *msg)
{
    cJSON *arr = cJSON_Parse(json);
    struct pr_row_memory_operator back[2];
    struct pr_error err = {0};
    size_t n;

    assert_non_null(arr);
    assert_int_equal(pr_rows_read(arr, "runs[0].memory.operators",
                                  PR_RO_RUNS_MEMORY_OPERATORS, back, 2, &n,
                                  &err),
                     PR_E_FORMAT);
    if (strstr(err.msg, msg) == NULL)
        fail_msg("got \"%s\", want \"%s\"", err.msg, msg);
    cJSON_Delete(arr);
}

#define OK_ROW                                                                 \
    "{\"device\":\"GPU0\",\"name\":\"x\",\"calls\":1,"                         \
    "\"size_increase_bytes\":0,\"self_size_increase_bytes\":0,"                \
    "\"allocation_count\":0,\"self_allocation_count\":0,"                      \
    "\"allocation_size_bytes\":0,\"self_allocation_size_bytes\":0}"

static void
test_read_errors(void **state)
{
    (void)state;
    expect("{}", "runs[0].memory.operators: expected an array, got an object");
    expect("[" OK_ROW ",3]",
           "runs[0].memory.operators[1]: expected an object, got a number");
    expect("[{\"device\":\"GPU0\"}]",
           "runs[0].memory.operators[0].name: missing");
    expect("[{\"device\":7}]",
           "runs[0].memory.operators[0].device: expected a string, got a "
           "number");
    expect("[{\"device\":\"GPU0\",\"name\":\"x\",\"calls\":\"3\"}]",
           "operators[0].calls: expected a number, got a string");
    expect("[{\"device\":\"GPU0\",\"name\":\"x\",\"calls\":1.5}]",
           "operators[0].calls: 1.5, but it counts whole units");
}

/* A saved summary's typed tables are read whole when it is loaded. */
static void
test_contract_reads_tables(void **state)
{
    /* memory is itself a typed object now: its devices (REQ) given */
    cJSON *doc = cJSON_Parse("{\"runs\":[{\"memory\":null},{\"memory\":"
                             "{\"devices\":[],\"operators\":[" OK_ROW
                             ",{\"device\":1}]}}]}");
    struct pr_error err = {0};

    (void)state;
    assert_non_null(doc);
    assert_int_equal(pr_rows_check(doc, &err), PR_E_FORMAT);
    assert_non_null(strstr(err.msg, "runs[1].memory.operators[1].device: "
                                    "expected a string, got a number"));
    cJSON_DeleteItemFromArray(
        cJSON_GetObjectItem(
            cJSON_GetObjectItem(
                cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "runs"), 1),
                "memory"),
            "operators"),
        1);
    assert_int_equal(pr_rows_check(doc, &err), PR_OK);
    cJSON_Delete(doc);
}

/* A single object (a run's attribution): written from its struct in the
 * rows' order, read back by pr_rows_read_one, and the loader's check
 * refuses a damaged value with its path. */
static void
test_single_object(void **state)
{
    struct pr_row_attribution a = {.kernel_ns = 1500,
                                   .operator_ns = 1000,
                                   .operator_pct = NAN,
                                   .kernels = 3,
                                   .reason = NULL},
                              back;
    cJSON *o = pr_rows_row(PR_RO_RUNS_ATTRIBUTION, &a), *doc;
    struct pr_error err = {0};
    char *s;

    (void)state;
    assert_non_null(o);
    s = cJSON_PrintUnformatted(o);
    assert_string_equal(
        s, "{\"kernel_time_us\":1.5,\"operator_time_us\":1,\"operator_pct\":"
           "null,\"no_launch_us\":0,\"outside_operators_us\":0,\"kernels\":3,"
           "\"launches_by_id\":0,\"launches_by_time\":0,\"reason\":null}");
    free(s);
    assert_int_equal(pr_rows_read_one(o, "runs[0].attribution",
                                      PR_RO_RUNS_ATTRIBUTION, &back, &err),
                     PR_OK);
    assert_int_equal(back.kernel_ns, 1500);
    assert_int_equal(back.kernels, 3);
    assert_true(isnan(back.operator_pct));
    assert_null(back.reason);
    doc = cJSON_CreateObject();
    assert_non_null(doc);
    assert_non_null(cJSON_AddArrayToObject(doc, "runs"));
    assert_true(cJSON_AddItemToArray(cJSON_GetObjectItem(doc, "runs"),
                                     cJSON_CreateObject()));
    assert_true(cJSON_AddItemToObject(
        cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "runs"), 0), "attribution",
        o));
    assert_int_equal(pr_rows_check(doc, &err), PR_OK);
    cJSON_ReplaceItemInObject(o, "kernels", cJSON_CreateString("3"));
    assert_int_equal(pr_rows_check(doc, &err), PR_E_FORMAT);
    assert_non_null(strstr(err.msg, "runs[0].attribution.kernels: expected a "
                                    "number, got a string"));
    cJSON_ReplaceItemInObject(o, "kernels", cJSON_CreateNumber(3));
    cJSON_DeleteItemFromObject(o, "reason");
    memset(&err, 0, sizeof(err)); /* the first fault stays otherwise */
    assert_int_equal(pr_rows_check(doc, &err), PR_E_FORMAT);
    assert_non_null(strstr(err.msg, "runs[0].attribution.reason: missing"));
    assert_int_equal(pr_rows_read_one(NULL, "runs[0].attribution",
                                      PR_RO_RUNS_ATTRIBUTION, &back, &err),
                     PR_E_FORMAT);
    cJSON_Delete(doc);
}

/* Check doc (JSON text) with pr_rows_check: PR_OK where want is NULL, else
 * a refusal whose message holds want. */
static void
check_doc(const char *json, const char *want)
{
    cJSON *doc = cJSON_Parse(json);
    struct pr_error err = {0};

    assert_non_null(doc);
    if (want == NULL) {
        if (pr_rows_check(doc, &err) != PR_OK)
            fail_msg("got \"%s\"", err.msg);
    } else {
        assert_int_equal(pr_rows_check(doc, &err), PR_E_FORMAT);
        if (strstr(err.msg, want) == NULL)
            fail_msg("%s: got \"%s\"", want, err.msg);
    }
    cJSON_Delete(doc);
}

#define KC_PART "{\"kernels\":1,\"total_us\":2,\"time_pct\":50"
#define KC_UNKNOWN "\"unknown\":" KC_PART ",\"top\":[]}"

/* A kernel row whose pmu holds a counter as text is refused naming the
 * counter; as null it is read. */
static void
pmu_counter_refused(void)
{
    struct pr_row_kernel k, back;
    struct pr_error err = {0};
    cJSON *pmu = cJSON_Parse("{\"aic_mac_ratio\":0.5,\"aic_mte2_ratio\":"
                             "\"0.9\"}"),
          *arr = cJSON_CreateArray();
    size_t n;

    assert_non_null(pmu);
    assert_non_null(arr);
    memset(&k, 0, sizeof(k));
    k.name = "k";
    k.total_us = k.mean_us = k.min_us = k.max_us = NAN;
    k.mean_blocks_per_sm = k.mean_est_achieved_occupancy_pct = NAN;
    k.cube_utilization_pct = NAN;
    k.tensor_cores_used = -1;
    k.pmu = pmu;
    assert_true(pr_rows_write(arr, PR_RO_RUNS_KERNELS, &k, 1));
    assert_int_equal(pr_rows_read(arr, "runs[0].kernels", PR_RO_RUNS_KERNELS,
                                  &back, 1, &n, &err),
                     PR_E_FORMAT);
    assert_non_null(strstr(err.msg, "runs[0].kernels[0].pmu.aic_mte2_ratio: "
                                    "expected a number, got a string"));
    cJSON_ReplaceItemInObject(
        cJSON_GetObjectItem(cJSON_GetArrayItem(arr, 0), "pmu"),
        "aic_mte2_ratio", cJSON_CreateNull());
    assert_int_equal(pr_rows_read(arr, "runs[0].kernels", PR_RO_RUNS_KERNELS,
                                  &back, 1, &n, &err),
                     PR_OK);
    cJSON_Delete(arr);
    cJSON_Delete(pmu);
}

/* The kernel classes' single objects (kernels.c): unknown embedded,
 * conv_gemm and layout_transforms null or their own rows; a kernel's pmu
 * (a MAP) read member by member against its one row; a device's
 * peak_tflops with only the spec's five kinds (tests/data/diff's). */
static void
test_kernel_and_device_objects(void **state)
{
    struct pr_row_kernel_classes kc = {0};
    struct pr_row_kclass_conv_gemm g = {
        .kernels = 5, .total_ns = 44047000, .time_pct = 7.5};
    struct pr_row_peak_tflops pt;
    cJSON *o;
    char *s;

    (void)state;
    o = pr_rows_row(PR_RO_RUNS_KERNEL_CLASSES_CONV_GEMM, &g);
    assert_non_null(o);
    s = cJSON_PrintUnformatted(o);
    assert_string_equal(s, "{\"kernels\":5,\"total_us\":44047,"
                           "\"time_pct\":7.5}");
    free(s);
    cJSON_Delete(o);
    kc.unknown.time_pct = NAN; /* no kernel time: null */
    o = pr_rows_row(PR_RO_RUNS_KERNEL_CLASSES, &kc);
    assert_non_null(o);
    s = cJSON_PrintUnformatted(o);
    assert_string_equal(s, "{\"by_family\":null,\"by_math\":null,"
                           "\"unknown\":{\"kernels\":0,\"total_us\":0,"
                           "\"time_pct\":null,\"top\":null},\"conv_gemm\":"
                           "null,\"layout_transforms\":null}");
    free(s);
    cJSON_Delete(o);
    check_doc("{\"runs\":[{\"kernel_classes\":{\"by_family\":[],"
              "\"by_math\":[]," KC_UNKNOWN ",\"conv_gemm\":null,"
              "\"layout_transforms\":null}}]}",
              NULL);
    check_doc("{\"runs\":[{\"kernel_classes\":{\"by_family\":[],"
              "\"by_math\":[]," KC_UNKNOWN ",\"conv_gemm\":{\"kernels\":"
              "\"5\",\"total_us\":2,\"time_pct\":50},"
              "\"layout_transforms\":null}}]}",
              "runs[0].kernel_classes.conv_gemm.kernels: expected a number");
    check_doc("{\"runs\":[{\"kernel_classes\":{\"by_family\":[],"
              "\"by_math\":[],\"unknown\":[],\"conv_gemm\":null,"
              "\"layout_transforms\":null}}]}",
              "runs[0].kernel_classes.unknown: expected an object");
    check_doc("{\"runs\":[{\"kernel_classes\":{\"by_family\":[],"
              "\"by_math\":[]," KC_UNKNOWN ",\"conv_gemm\":null}}]}",
              "runs[0].kernel_classes.layout_transforms: missing");
    /* a kernel's PMU counters: numbers (null where no call weighs) */
    assert_non_null(pr_schema_find(PR_SO_RUNS_KERNELS_PMU, PR_K_ANY));
    pmu_counter_refused();
    /* peak_tflops: the spec's five kinds alone pass (the mask) */
    o = cJSON_Parse("{\"fp32\":19.5,\"fp16_tensor\":312,\"bf16_tensor\":"
                    "312,\"tf32_tensor\":156,\"fp64\":9.7}");
    assert_non_null(o);
    {
        struct pr_error err = {0};
        assert_int_equal(pr_rows_read_one(o, "runs[0].devices[0].peak_tflops",
                                          PR_RO_RUNS_DEVICES_PEAK_TFLOPS, &pt,
                                          &err),
                         PR_OK);
    }
    assert_true(pt.fp16_tensor == 312);
    assert_false(pr_rows_has(PR_RO_RUNS_DEVICES_PEAK_TFLOPS, &pt,
                             PR_SR_RUNS_DEVICES_PEAK_TFLOPS_PR_K_FP8_TENSOR));
    cJSON_Delete(o);
    memset(&pt, 0, sizeof(pt));
    pt.absent = ~(uint64_t)0;
    assert_true(pr_rows_set_num(PR_RO_RUNS_DEVICES_PEAK_TFLOPS, &pt,
                                PR_K_FP8_TENSOR, 1978.9));
    assert_true(
        pr_rows_set_num(PR_RO_RUNS_DEVICES_PEAK_TFLOPS, &pt, PR_K_FP64, NAN));
    o = pr_rows_row(PR_RO_RUNS_DEVICES_PEAK_TFLOPS, &pt);
    assert_non_null(o);
    s = cJSON_PrintUnformatted(o);
    assert_string_equal(s, "{\"fp64\":null,\"fp8_tensor\":1978.9}");
    free(s);
    {
        struct pr_error err = {0};
        assert_int_equal(pr_rows_read_one(o, "runs[0].devices[0].peak_tflops",
                                          PR_RO_RUNS_DEVICES_PEAK_TFLOPS, &pt,
                                          &err),
                         PR_OK);
        assert_true(
            pr_rows_has(PR_RO_RUNS_DEVICES_PEAK_TFLOPS, &pt,
                        PR_SR_RUNS_DEVICES_PEAK_TFLOPS_PR_K_FP8_TENSOR));
        assert_false(pr_rows_has(PR_RO_RUNS_DEVICES_PEAK_TFLOPS, &pt,
                                 PR_SR_RUNS_DEVICES_PEAK_TFLOPS_PR_K_FP32));
        cJSON_ReplaceItemInObject(o, "fp8_tensor", cJSON_CreateString("x"));
        assert_int_equal(pr_rows_read_one(o, "runs[0].devices[0].peak_tflops",
                                          PR_RO_RUNS_DEVICES_PEAK_TFLOPS, &pt,
                                          &err),
                         PR_E_FORMAT);
        assert_non_null(strstr(err.msg, "runs[0].devices[0].peak_tflops."
                                        "fp8_tensor: expected a number"));
    }
    cJSON_Delete(o);
}

/* An operator row: a boolean, nulls, and the columns a row may leave out
 * (the roofline's tail before the pass sets it; a rank form's row keeps
 * only its RANK columns): written without them, read back with their
 * bits set; a REQ column missing is still refused. */
static void
test_absent_fields(void **state)
{
    struct pr_row_operator r =
                               {
                                   .name = "aten::mm",
                                   .calls = 2,
                                   .device_self_us = 1.5,
                                   .device_total_us = 2,
                                   .host_self_us = NAN,
                                   .host_total_us = NAN,
                                   .host_copy_us = 0,
                                   .host_copy_bytes = NAN,
                                   .tc_eligible = 1,
                                   .tc_self_pct = NAN,
                                   .tc_total_pct = NAN,
                                   .flops = NAN,
                                   .bytes = NAN,
                                   .achieved_tflops = NAN,
                                   .achieved_gbps = NAN,
                                   .arithmetic_intensity = NAN,
                                   .bound = "unknown",
                                   .roofline_pct = NAN,
                               },
                           back;
    enum pr_rows_object ro = PR_RO_RUNS_OPERATORS;
    cJSON *arr = cJSON_CreateArray();
    struct pr_error err = {0};
    size_t n;
    char *s;

    (void)state;
    assert_true(pr_rows_omit(ro, &r, PR_SR_RUNS_OPERATORS_PR_K_FLOPS_SOURCE));
    assert_true(pr_rows_omit(ro, &r, PR_SR_RUNS_OPERATORS_PR_K_ROOFLINE_MARK));
    assert_true(pr_rows_omit(ro, &r, PR_SR_RUNS_OPERATORS_PR_K_DTYPE));
    /* a row of another object is no field of this one */
    assert_false(pr_rows_omit(ro, &r, PR_SR_RUNS_KERNELS_PR_K_NAME));
    /* an object without a mask writes every field */
    {
        struct pr_row_memory_operator m = two[0];
        assert_false(pr_rows_omit(PR_RO_RUNS_MEMORY_OPERATORS, &m,
                                  PR_SR_RUNS_MEMORY_OPERATORS_PR_K_NAME));
    }
    assert_true(pr_rows_write(arr, ro, &r, 1));
    s = cJSON_PrintUnformatted(arr);
    assert_string_equal(
        s, "[{\"name\":\"aten::mm\",\"calls\":2,\"device_self_us\":1.5,"
           "\"device_total_us\":2,\"host_self_us\":null,"
           "\"host_total_us\":null,\"host_copy_us\":0,"
           "\"host_copy_bytes\":null,\"tc_eligible\":true,"
           "\"tc_self_pct\":null,\"tc_total_pct\":null,\"flops\":null,"
           "\"bytes\":null,\"achieved_tflops\":null,\"achieved_gbps\":null,"
           "\"arithmetic_intensity\":null,\"bound\":\"unknown\","
           "\"roofline_pct\":null}]");
    cJSON_free(s);
    cJSON_Delete(arr);

    /* a rank form's row: RANK columns and other_rows, no host_copy_* */
    arr = cJSON_Parse("[{\"name\":\"(other)\",\"calls\":5,"
                      "\"device_self_us\":3,\"device_total_us\":4,"
                      "\"host_self_us\":null,\"host_total_us\":1,"
                      "\"tc_eligible\":null,\"dtype\":\"bf16\","
                      "\"other_rows\":7}]");
    assert_int_equal(pr_rows_read(arr, "ops", ro, &back, 1, &n, &err), PR_OK);
    assert_int_equal(n, 1);
    assert_int_equal(back.tc_eligible, -1);
    assert_true(isnan(back.host_self_us) && back.host_total_us == 1);
    assert_string_equal(back.dtype, "bf16");
    assert_true(pr_rows_has(ro, &back, PR_SR_RUNS_OPERATORS_PR_K_DTYPE));
    assert_false(
        pr_rows_has(ro, &back, PR_SR_RUNS_OPERATORS_PR_K_HOST_COPY_US));
    assert_false(pr_rows_has(ro, &back, PR_SR_RUNS_OPERATORS_PR_K_FLOPS));
    cJSON_Delete(arr);

    arr = cJSON_Parse("[{\"name\":\"x\",\"calls\":1,"
                      "\"device_self_us\":3,\"device_total_us\":4,"
                      "\"host_self_us\":0,\"tc_eligible\":1}]");
    assert_int_equal(pr_rows_read(arr, "ops", ro, &back, 1, &n, &err),
                     PR_E_FORMAT);
    assert_non_null(strstr(err.msg, "ops[0].host_total_us: missing"));
    cJSON_DeleteItemFromObject(cJSON_GetArrayItem(arr, 0), "host_self_us");
    cJSON_AddNumberToObject(cJSON_GetArrayItem(arr, 0), "host_self_us", 0);
    cJSON_AddNumberToObject(cJSON_GetArrayItem(arr, 0), "host_total_us", 0);
    memset(&err, 0, sizeof(err));
    assert_int_equal(pr_rows_read(arr, "ops", ro, &back, 1, &n, &err),
                     PR_E_FORMAT);
    assert_non_null(strstr(
        err.msg, "ops[0].tc_eligible: expected a boolean, got a number"));
    cJSON_Delete(arr);
}

/* One row written alone, as JSON text (cJSON_free it). */
static char *
written(enum pr_rows_object ro, const void *row)
{
    cJSON *arr = cJSON_CreateArray();
    char *s;

    assert_true(pr_rows_write(arr, ro, row, 1));
    s = cJSON_PrintUnformatted(arr);
    cJSON_Delete(arr);
    return s;
}

/* A BOOL field (a job's per-rank flags) writes true/false, never null,
 * and the reader refuses null where a BOOL_NULL field would take it. */
static void
test_bool_field(void **state)
{
    struct pr_row_job_rank r = {0,  "w0", 0, 10, NAN, "s", 3, 10,
                                12, NAN,  1, 0,  7,   11,  1},
                           back;
    enum pr_rows_object ro = PR_RO_JOB_PER_RANK;
    cJSON *arr, *e;
    struct pr_error err = {0};
    size_t n;
    char *s = written(ro, &r);

    (void)state;
    assert_string_equal(
        s, "[{\"run\":0,\"worker\":\"w0\",\"rank\":0,\"mean_us\":10,"
           "\"vs_median_pct\":null,\"span\":\"s\",\"steps\":3,"
           "\"median_us\":10,\"max_us\":12,\"communication_pct\":null,"
           "\"first_step_excluded\":true,\"has_steps\":false,"
           "\"in_spread\":true,\"run_mean_us\":11,"
           "\"first_step_warmup\":true}]");
    arr = cJSON_Parse(s);
    cJSON_free(s);
    assert_int_equal(pr_rows_read(arr, "job.per_rank", ro, &back, 1, &n, &err),
                     PR_OK);
    assert_int_equal(back.first_step_excluded, 1);
    assert_int_equal(back.has_steps, 0);
    e = cJSON_GetArrayItem(arr, 0);
    cJSON_ReplaceItemInObject(e, "has_steps", cJSON_CreateNull());
    assert_int_equal(pr_rows_read(arr, "job.per_rank", ro, &back, 1, &n, &err),
                     PR_E_FORMAT);
    assert_non_null(strstr(
        err.msg, "job.per_rank[0].has_steps: expected a boolean, got null"));
    cJSON_Delete(arr);
}

/* A gpu_metrics device is a number or a string (the spec): a JSON field
 * written as the writer holds it and read as either; a saved summary's
 * row may give only the spec's columns. */
static void
test_scalar_json_field(void **state)
{
    enum pr_rows_object ro = PR_RO_RUNS_GPU_METRICS;
    cJSON *id = cJSON_CreateNumber(3), *arr;
    /* the unknown-occupancy pair (fields 8 and 9) left out, as the
       writer does where no launch lacks an occupancy */
    struct pr_row_gpu_metric r = {.device = id,
                                  .utilization_pct = 50,
                                  .est_sm_efficiency_pct = NAN,
                                  .est_achieved_occupancy_pct = NAN,
                                  .kernel_time_us = 1.5,
                                  .compute_utilization_pct = NAN,
                                  .absent = (uint64_t)3 << 8},
                             back[2];
    struct pr_error err = {0};
    size_t n;
    char *s = written(ro, &r);

    (void)state;
    assert_string_equal(
        s, "[{\"device\":3,\"utilization_pct\":50,"
           "\"est_sm_efficiency_pct\":null,"
           "\"est_achieved_occupancy_pct\":null,\"kernel_time_us\":1.5,"
           "\"compute_utilization_pct\":null,\"note\":null,"
           "\"utilization_series\":null}]");
    cJSON_free(s);
    cJSON_Delete(id);
    arr = cJSON_Parse("[{\"device\":\"GPU0\",\"utilization_pct\":1,"
                      "\"est_sm_efficiency_pct\":null,"
                      "\"est_achieved_occupancy_pct\":2,"
                      "\"kernel_time_us\":3},"
                      "{\"device\":true,\"utilization_pct\":1,"
                      "\"est_sm_efficiency_pct\":null,"
                      "\"est_achieved_occupancy_pct\":2,"
                      "\"kernel_time_us\":3}]");
    assert_int_equal(pr_rows_read(arr, "gm", ro, back, 2, &n, &err),
                     PR_E_FORMAT);
    assert_non_null(strstr(
        err.msg, "gm[1].device: expected a number or a string, got a boolean"));
    assert_string_equal(back[0].device->valuestring, "GPU0");
    assert_false(pr_rows_has(ro, &back[0], PR_SR_RUNS_GPU_METRICS_PR_K_NOTE));
    cJSON_Delete(arr);
}

/* A kernel's PMU counters: an object whose keys are data, written as a
 * copy and read back as the tree's own; null where a kernel has none;
 * left out (with pmu_bound, pmu_hint) where the producer counted none. */
static void
test_json_field(void **state)
{
    enum pr_rows_object ro = PR_RO_RUNS_KERNELS;
    cJSON *pmu = cJSON_Parse("{\"aic_mac_ratio\":0.5,\"aiv_vec_ratio\":null}");
    struct pr_row_kernel r = {.name = "k",
                              .calls = 1,
                              .total_us = 2,
                              .mean_us = 2,
                              .min_us = 2,
                              .max_us = 2,
                              .mean_blocks_per_sm = NAN,
                              .mean_est_achieved_occupancy_pct = NAN,
                              .tensor_cores_used = 0,
                              .pmu = pmu,
                              .pmu_bound = "Cube-bound: aic mac ratio 0.50",
                              .cube_utilization_pct = NAN},
                         back[2];
    cJSON *arr = cJSON_CreateArray();
    struct pr_error err = {0};
    size_t n;
    char *s;

    (void)state;
    assert_true(pr_rows_write(arr, ro, &r, 1));
    r.pmu = NULL;
    assert_true(pr_rows_omit(ro, &r, PR_SR_RUNS_KERNELS_PR_K_PMU));
    assert_true(pr_rows_omit(ro, &r, PR_SR_RUNS_KERNELS_PR_K_PMU_BOUND));
    assert_true(pr_rows_omit(ro, &r, PR_SR_RUNS_KERNELS_PR_K_PMU_HINT));
    assert_true(pr_rows_write(arr, ro, &r, 1));
    cJSON_Delete(pmu); /* the written row holds its own copy */
    s = cJSON_PrintUnformatted(arr);
    assert_non_null(strstr(s, "\"pmu\":{\"aic_mac_ratio\":0.5,"
                              "\"aiv_vec_ratio\":null},\"pmu_bound\":"
                              "\"Cube-bound: aic mac ratio 0.50\","
                              "\"pmu_hint\":null,"
                              "\"cube_utilization_pct\":null}"));
    assert_non_null(strstr(s, "\"family_source\":null,"
                              "\"cube_utilization_pct\":null}]"));
    cJSON_free(s);
    assert_int_equal(pr_rows_read(arr, "k", ro, back, 2, &n, &err), PR_OK);
    assert_int_equal(n, 2);
    assert_true(cJSON_IsObject(back[0].pmu));
    assert_true(pr_rows_has(ro, &back[0], PR_SR_RUNS_KERNELS_PR_K_PMU));
    assert_false(pr_rows_has(ro, &back[1], PR_SR_RUNS_KERNELS_PR_K_PMU));
    assert_null(back[1].pmu);
    cJSON_ReplaceItemInObject(cJSON_GetArrayItem(arr, 0), "pmu",
                              cJSON_CreateString("x"));
    assert_int_equal(pr_rows_read(arr, "k", ro, back, 2, &n, &err),
                     PR_E_FORMAT);
    if (strstr(err.msg, "k[0].pmu: expected an object, got a string") == NULL)
        fail_msg("got \"%s\"", err.msg);
    cJSON_Delete(arr);
}

/* A step and its breakdown_us, a typed object inside each row: written in
 * the rows' order, read back whole, a damaged key named with its path; a
 * saved summary without host_start_us / host_duration_us (not REQ) still
 * reads. */
static void
test_sub_object(void **state)
{
    enum pr_rows_object ro = PR_RO_RUNS_STEPS;
    struct pr_row_step r = {.name = "ProfilerStep#3",
                            .start_us = 0,
                            .duration_us = 1.5,
                            .host_start_ns = 250,
                            .host_duration_ns = 2000,
                            .breakdown = {.kernel_us = 1,
                                          .memcpy_us = 0,
                                          .memset_us = 0,
                                          .communication_us = 0.25,
                                          .runtime_us = 0,
                                          .dataloader_us = 0,
                                          .cpu_exec_us = 0,
                                          .other_us = 0.25}},
                       back;
    cJSON *arr = cJSON_CreateArray(), *bd;
    struct pr_error err = {0};
    size_t n;
    char *s;

    (void)state;
    assert_true(pr_rows_write(arr, ro, &r, 1));
    s = cJSON_PrintUnformatted(arr);
    assert_string_equal(s,
                        "[{\"name\":\"ProfilerStep#3\",\"start_us\":0,"
                        "\"duration_us\":1.5,\"host_start_us\":0.25,"
                        "\"host_duration_us\":2,\"breakdown_us\":{\"kernel\":1,"
                        "\"memcpy\":0,\"memset\":0,\"communication\":0.25,"
                        "\"runtime\":0,\"dataloader\":0,\"cpu_exec\":0,"
                        "\"other\":0.25}}]");
    cJSON_free(s);
    cJSON_DeleteItemFromObject(cJSON_GetArrayItem(arr, 0), "host_start_us");
    assert_int_equal(pr_rows_read(arr, "steps", ro, &back, 1, &n, &err), PR_OK);
    assert_true(back.breakdown.communication_us == 0.25);
    assert_true(back.duration_us == 1.5 && back.host_duration_ns == 2000);
    assert_false(pr_rows_has(ro, &back, PR_SR_RUNS_STEPS_PR_K_HOST_START_US));
    bd = cJSON_GetObjectItem(cJSON_GetArrayItem(arr, 0), "breakdown_us");
    cJSON_ReplaceItemInObject(bd, "runtime", cJSON_CreateString("1"));
    assert_int_equal(pr_rows_read(arr, "steps", ro, &back, 1, &n, &err),
                     PR_E_FORMAT);
    if (strstr(err.msg, "steps[0].breakdown_us.runtime: expected a number "
                        "or null, got a string") == NULL)
        fail_msg("got \"%s\"", err.msg);
    cJSON_ReplaceItemInObject(cJSON_GetArrayItem(arr, 0), "breakdown_us",
                              cJSON_CreateArray());
    memset(&err, 0, sizeof(err));
    assert_int_equal(pr_rows_read(arr, "steps", ro, &back, 1, &n, &err),
                     PR_E_FORMAT);
    if (strstr(err.msg, "steps[0].breakdown_us: expected an object, got an "
                        "array") == NULL)
        fail_msg("got \"%s\"", err.msg);
    cJSON_Delete(arr);
}

/* pr_rows_load allocates the rows of a table (none where it is absent or
 * null); pr_rows_num picks a number by its key, US fields in µs, NAN for
 * a key of no field or a field left out. */
static void
test_load_and_num(void **state)
{
    cJSON *arr = cJSON_CreateArray(), *nul = cJSON_CreateNull();
    struct pr_row_step r = {
        .name = "s", .duration_us = 2, .host_start_ns = 1500};
    struct pr_error err = {0};
    void *rows = NULL;
    size_t n = 9;
    const struct pr_row_step *v;

    (void)state;
    assert_int_equal(
        pr_rows_load(NULL, "steps", PR_RO_RUNS_STEPS, &rows, &n, &err), PR_OK);
    assert_true(rows == NULL && n == 0);
    assert_int_equal(
        pr_rows_load(nul, "steps", PR_RO_RUNS_STEPS, &rows, &n, &err), PR_OK);
    assert_true(rows == NULL && n == 0);
    r.breakdown.dataloader_us = 0.5;
    assert_true(pr_rows_write(arr, PR_RO_RUNS_STEPS, &r, 1));
    assert_true(pr_rows_write(arr, PR_RO_RUNS_STEPS, &r, 1));
    assert_int_equal(
        pr_rows_load(arr, "steps", PR_RO_RUNS_STEPS, &rows, &n, &err), PR_OK);
    assert_int_equal(n, 2);
    v = rows;
    assert_true(pr_rows_num(PR_RO_RUNS_STEPS, &v[1], "duration_us") == 2);
    assert_true(pr_rows_num(PR_RO_RUNS_STEPS, &v[1], "host_start_us") == 1.5);
    assert_true(isnan(pr_rows_num(PR_RO_RUNS_STEPS, &v[1], "name")));
    assert_true(isnan(pr_rows_num(PR_RO_RUNS_STEPS, &v[1], "no_such_key")));
    assert_true(pr_rows_num(PR_RO_RUNS_STEPS_BREAKDOWN_US, &v[0].breakdown,
                            "dataloader") == 0.5);
    free(rows);
    r.host_start_ns = 0;
    assert_true(pr_rows_omit(PR_RO_RUNS_STEPS, &r,
                             PR_SR_RUNS_STEPS_PR_K_HOST_START_US));
    assert_true(isnan(pr_rows_num(PR_RO_RUNS_STEPS, &r, "host_start_us")));
    cJSON_Delete(arr);
    cJSON_Delete(nul);
}

/* The advice's tables: a recommendation as its rule writes it (the
 * columns the advice puts on later left out), a critical-path step
 * without a path (by_kind_us and kernel_family_us null, no top parts),
 * and a saved summary whose step's top part or recommendation's evidence
 * is damaged refused with its path; a saved row without a column (none
 * REQ: the contract they had) still reads. */
static void
test_advice_rows(void **state)
{
    enum pr_rows_object ro = PR_RO_RUNS_RECOMMENDATIONS;
    struct pr_row_recommendation r = {.id = "step_interval",
                                      .severity = "warning",
                                      .text = "t",
                                      .gain_note = "no estimate",
                                      .gain_us = NAN,
                                      .gain_pct = NAN},
                                 back;
    struct pr_row_cp_step st = {.step = "3",
                                .measured_us = 2.5,
                                .length_us = NAN,
                                .replay_error_pct = NAN,
                                .unrecorded_tail_us = NAN,
                                .unrecorded_lead_us = NAN};
    cJSON *arr = cJSON_CreateArray(), *doc, *top;
    struct pr_error err = {0};
    size_t n;
    char *s;

    (void)state;
    pr_rows_omit(ro, &r, PR_SR_RUNS_RECOMMENDATIONS_PR_K_WHAT_IF);
    pr_rows_omit(ro, &r, PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_BASIS);
    pr_rows_omit(ro, &r, PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_SOURCE);
    pr_rows_omit(ro, &r, PR_SR_RUNS_RECOMMENDATIONS_PR_K_BOUND_US);
    pr_rows_omit(ro, &r, PR_SR_RUNS_RECOMMENDATIONS_PR_K_EVIDENCE);
    assert_true(pr_rows_write(arr, ro, &r, 1));
    st.top = top = cJSON_CreateArray();
    assert_true(pr_rows_write(arr, PR_RO_RUNS_CRITICAL_PATH_STEPS, &st, 1));
    cJSON_Delete(top);
    s = cJSON_PrintUnformatted(arr);
    assert_string_equal(
        s, "[{\"id\":\"step_interval\",\"severity\":\"warning\",\"text\":\"t\","
           "\"gain_note\":\"no estimate\",\"gain_us\":null,\"gain_pct\":null},"
           "{\"step\":\"3\",\"measured_us\":2.5,\"length_us\":null,"
           "\"replay_error_pct\":null,\"unrecorded_tail_us\":null,"
           "\"unrecorded_lead_us\":null,"
           "\"bound\":null,\"by_kind_us\":null,\"kernel_family_us\":null,"
           "\"top\":[],\"top_rest_us\":0,\"top_rest_parts\":0}]");
    cJSON_free(s);
    cJSON_DeleteItemFromArray(arr, 1);
    assert_int_equal(
        pr_rows_read(arr, "recommendations", ro, &back, 1, &n, &err), PR_OK);
    assert_false(
        pr_rows_has(ro, &back, PR_SR_RUNS_RECOMMENDATIONS_PR_K_BOUND_US));
    assert_true(
        pr_rows_has(ro, &back, PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_US));
    assert_true(isnan(back.gain_us));
    assert_string_equal(back.gain_note, "no estimate");
    cJSON_Delete(arr);

    doc = cJSON_Parse("{\"runs\":[{\"critical_path\":{\"steps\":[{\"step\":"
                      "\"1\",\"top\":[{\"name\":\"k\",\"kind\":\"kernel\","
                      "\"us\":\"5\"}]}]},\"recommendations\":[{\"id\":\"x\","
                      "\"evidence\":[{\"name\":\"a\",\"us\":1,\"total_us\":"
                      "null}]}]}]}");
    assert_non_null(doc);
    /* (the tables are read in rows.def's order: the path's first) */
    assert_int_equal(pr_rows_check(doc, &err), PR_E_FORMAT);
    if (strstr(err.msg, "runs[0].critical_path.steps[0].top[0].us: expected "
                        "a number, got a string") == NULL)
        fail_msg("got \"%s\"", err.msg);
    top = cJSON_GetArrayItem(
        cJSON_GetObjectItem(
            cJSON_GetArrayItem(
                cJSON_GetObjectItem(
                    cJSON_GetObjectItem(
                        cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "runs"), 0),
                        "critical_path"),
                    "steps"),
                0),
            "top"),
        0);
    cJSON_ReplaceItemInObject(top, "us", cJSON_CreateNumber(5));
    memset(&err, 0, sizeof(err));
    assert_int_equal(pr_rows_check(doc, &err), PR_E_FORMAT);
    if (strstr(err.msg, "runs[0].recommendations[0].evidence[0].total_us: "
                        "expected a number, got null") == NULL)
        fail_msg("got \"%s\"", err.msg);
    cJSON_DeleteItemFromObject(
        cJSON_GetArrayItem(
            cJSON_GetObjectItem(
                cJSON_GetArrayItem(
                    cJSON_GetObjectItem(
                        cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "runs"), 0),
                        "recommendations"),
                    0),
                "evidence"),
            0),
        "total_us");
    /* a saved row without a column reads: none is REQ */
    assert_int_equal(pr_rows_check(doc, &err), PR_OK);
    cJSON_Delete(doc);
}

/* A single object of fixed keys (issue #34: a run's data_quality): its
 * columns set by key where they come by key, left out where none was
 * set, read back whole by pr_rows_read_one with the key's path, and
 * checked by the loader's pr_rows_check where a run holds it. */
static void
test_single_object_by_key(void **state)
{
    enum pr_rows_object ro = PR_RO_RUNS_DATA_QUALITY;
    const struct pr_rows_objinfo *o = pr_rows_object(ro);
    struct pr_row_data_quality q = {.absent = 0}, back;
    struct pr_error err = {0};
    cJSON *obj, *doc, *run;
    char *s;
    size_t k;

    (void)state;
    for (k = 0; k < o->n_fields; k++)
        pr_rows_omit(ro, &q, o->fields[k].row);
    assert_true(pr_rows_set_num(ro, &q, PR_K_UNKNOWN_CAT, 3));
    assert_true(
        pr_rows_set_num(ro, &q, PR_K_KERNEL_TIME_WITHOUT_OPERATOR_PCT, NAN));
    /* a key of no numeric column of the object sets nothing */
    assert_false(pr_rows_set_num(ro, &q, "earlier", 1));
    {
        struct pr_row_step_summary ss = {.absent = 0};
        /* a string column is no numeric one */
        assert_false(
            pr_rows_set_num(PR_RO_RUNS_STEP_SUMMARY, &ss, PR_K_BASIS, 1));
    }
    obj = pr_rows_row(ro, &q);
    assert_non_null(obj);
    s = cJSON_PrintUnformatted(obj);
    assert_string_equal(
        s, "{\"unknown_cat\":3,\"kernel_time_without_operator_pct\":null}");
    free(s);
    assert_int_equal(
        pr_rows_read_one(obj, "runs[0].data_quality", ro, &back, &err), PR_OK);
    assert_int_equal(back.unknown_cat, 3);
    assert_true(isnan(back.kernel_time_without_operator_pct));
    assert_false(
        pr_rows_has(ro, &back, PR_SR_RUNS_DATA_QUALITY_PR_K_NEGATIVE_DUR));
    /* a damaged value: refused with the key's path */
    cJSON_ReplaceItemInObjectCaseSensitive(obj, PR_K_UNKNOWN_CAT,
                                           cJSON_CreateString("x"));
    assert_int_equal(
        pr_rows_read_one(obj, "runs[0].data_quality", ro, &back, &err),
        PR_E_FORMAT);
    assert_non_null(strstr(err.msg, "runs[0].data_quality.unknown_cat"));
    /* the loader reads it where a run holds it */
    memset(&err, 0, sizeof(err));
    doc = cJSON_CreateObject();
    run = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_AddArrayToObject(doc, PR_K_RUNS), run);
    cJSON_AddItemToObject(run, PR_K_DATA_QUALITY, obj);
    assert_int_equal(pr_rows_check(doc, &err), PR_E_FORMAT);
    assert_non_null(strstr(err.msg, "runs[0].data_quality.unknown_cat"));
    /* not an object at all */
    {
        struct pr_row_timeline tl;
        cJSON *num = cJSON_CreateNumber(1);

        memset(&err, 0, sizeof(err));
        assert_int_equal(pr_rows_read_one(num, "runs[0].timeline",
                                          PR_RO_RUNS_TIMELINE, &tl, &err),
                         PR_E_FORMAT);
        assert_non_null(
            strstr(err.msg, "runs[0].timeline: expected an object"));
        cJSON_Delete(num);
    }
    cJSON_Delete(doc);
}

/* The one writer from a work object (a run, a job): in the row's field
 * order, a JSON field's value moved from work (the same item, no copy), a
 * typed field the row's own (work's copy dropped), a JSON field work has
 * not null unless the mask leaves it out, a member of no field after the
 * rest; work left empty. */
static void
test_row_from(void **state)
{
    struct pr_row_job_entry row = {
        .name = "a", .kind = "traces", .path = ".", .world_size = NAN};
    cJSON *work = cJSON_Parse("{\"extra\":1,\"distributed\":{},"
                              "\"name\":\"stale\",\"runs\":[0]}");
    cJSON *runs = cJSON_GetObjectItem(work, "runs"), *o;
    char *s;

    (void)state;
    assert_non_null(work);
    assert_true(pr_rows_omit(PR_RO_JOBS, &row, PR_SR_JOBS_PR_K_RANKS));
    o = pr_rows_row_from(PR_RO_JOBS, &row, work);
    assert_non_null(o);
    s = cJSON_PrintUnformatted(o);
    assert_string_equal(
        s, "{\"name\":\"a\",\"kind\":\"traces\",\"trace_worker\":null,"
           "\"path\":\".\",\"split_note\":null,\"runs\":[0],"
           "\"world_size\":null,\"distributed\":{},"
           "\"job\":null,\"extra\":1}");
    free(s);
    assert_ptr_equal(cJSON_GetObjectItem(o, "runs"), runs);
    assert_null(work->child);
    cJSON_Delete(o);
    cJSON_Delete(work);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields_match_schema),
        cmocka_unit_test(test_write),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_us_and_null),
        cmocka_unit_test(test_read_errors),
        cmocka_unit_test(test_contract_reads_tables),
        cmocka_unit_test(test_single_object),
        cmocka_unit_test(test_kernel_and_device_objects),
        cmocka_unit_test(test_absent_fields),
        cmocka_unit_test(test_bool_field),
        cmocka_unit_test(test_scalar_json_field),
        cmocka_unit_test(test_json_field),
        cmocka_unit_test(test_sub_object),
        cmocka_unit_test(test_load_and_num),
        cmocka_unit_test(test_advice_rows),
        cmocka_unit_test(test_single_object_by_key),
        cmocka_unit_test(test_row_from),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

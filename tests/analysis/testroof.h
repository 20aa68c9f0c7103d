/* testroof.h - the roofline pass over a hand-made run object: the tests
 * write their inputs as the summary rows they stand for (shorter to read
 * than C initialisers), this reads them into the C rows pr_roofline_run()
 * takes, runs it and writes the rows and its sections back into the run.
 * Include after <cmocka.h>. */
#ifndef PROFREPORT_TESTROOF_H
#define PROFREPORT_TESTROOF_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "profreport/kclass.h"
#include "profreport/roofline.h"

static const char *
tr_str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double
tr_num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static int64_t
tr_ns(const cJSON *o, const char *key)
{
    double us = tr_num(o, key);

    return isfinite(us) ? (int64_t)llround(us * 1000.0) : 0;
}

static void
tr_devices(const cJSON *run, struct pr_device_rows *rows)
{
    const cJSON *d, *arr = cJSON_GetObjectItemCaseSensitive(run, "devices");
    size_t n = (size_t)cJSON_GetArraySize(arr);

    rows->v = calloc(n ? n : 1, sizeof(*rows->v));
    assert_non_null(rows->v);
    rows->n = 0;
    cJSON_ArrayForEach(d, arr)
    {
        struct pr_device_row *r = &rows->v[rows->n++];

        r->id = (int64_t)tr_num(d, "id");
        r->name = tr_str(d, "name");
        r->kind = tr_str(d, "kind");
        r->num_sms = tr_num(d, "num_sms");
        r->vendor = tr_str(d, "vendor");
        r->compute_capability = tr_str(d, "compute_capability");
        r->architecture = tr_str(d, "architecture");
        r->memory_bytes = NAN;
    }
}

static void
tr_ops(const cJSON *run, const char *key, struct pr_op_rows *rows)
{
    const cJSON *o, *arr = cJSON_GetObjectItemCaseSensitive(run, key);
    size_t n = (size_t)cJSON_GetArraySize(arr);

    rows->v = calloc(n ? n : 1, sizeof(*rows->v));
    assert_non_null(rows->v);
    rows->n = 0;
    cJSON_ArrayForEach(o, arr)
    {
        struct pr_op_row *r = &rows->v[rows->n++];
        double measured = tr_num(o, "measured_flops");

        r->name = tr_str(o, "name");
        r->shapes =
            tr_str(o, "input_shapes") ? tr_str(o, "input_shapes") : "[]";
        r->types = tr_str(o, "input_types");
        r->calls = (size_t)tr_num(o, "calls");
        r->dev_self_ns = tr_ns(o, "device_self_us");
        r->dev_total_ns = tr_ns(o, "device_total_us");
        r->tc_eligible =
            cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "tc_eligible"));
        r->tc_self_ns = (int64_t)llround((double)r->dev_self_ns *
                                         tr_num(o, "tc_self_pct") / 100.0);
        r->tc_total_ns = (int64_t)llround((double)r->dev_total_ns *
                                          tr_num(o, "tc_total_pct") / 100.0);
        r->measured_flops = isfinite(measured) ? measured : 0.0;
        r->n_measured = isfinite(measured);
        /* the host copies of its subtree, as ops.c sums them */
        r->host_copy_total_ns = tr_ns(o, "host_copy_total_us");
        r->host_copy_total_bytes = tr_num(o, "host_copy_total_bytes");
        if (!isfinite(r->host_copy_total_bytes))
            r->host_copy_total_bytes = 0.0;
    }
}

/* As kernels.c makes the rows: classified by the compiled-in kernel
 * table (kclass.h) unless the producer named the unit. */
static void
tr_kernels(const cJSON *run, struct pr_kernel_refs *ks)
{
    const cJSON *k, *arr = cJSON_GetObjectItemCaseSensitive(run, "kernels");
    size_t n = (size_t)cJSON_GetArraySize(arr);
    struct pr_error err = {PR_OK, ""};
    struct pr_kclass_table *tab = pr_kclass_table_builtin(&err);
    struct pr_kclass kc;

    assert_non_null(tab);
    ks->v = calloc(n ? n : 1, sizeof(*ks->v));
    assert_non_null(ks->v);
    ks->n = 0;
    cJSON_ArrayForEach(k, arr)
    {
        pr_kclass_lookup(tab, tr_str(k, "name"), &kc);
        ks->v[ks->n].tc_used = pr_kclass_is_matrix(kc.math);
        ks->v[ks->n].plugin_tc = kc.plugin_tc;
        ks->v[ks->n].family = kc.family;
        ks->v[ks->n].math = kc.math;
        ks->v[ks->n].known = kc.rule != NULL;
        ks->v[ks->n].name = tr_str(k, "name");
        ks->v[ks->n].op = tr_str(k, "operator");
        ks->v[ks->n].by_unit =
            tr_str(k, "tensor_cores_source") != NULL &&
            strcmp(tr_str(k, "tensor_cores_source"), "unit") == 0;
        ks->v[ks->n].unit_tc = cJSON_IsTrue(
            cJSON_GetObjectItemCaseSensitive(k, "tensor_cores_used"));
        if (ks->v[ks->n].by_unit)
            ks->v[ks->n].tc_used = ks->v[ks->n].unit_tc;
        ks->v[ks->n++].total_ns = tr_ns(k, "total_us");
    }
    pr_kclass_table_free(tab);
}

/* As pr_gpu_util_busiest() over gpu_metrics rows. */
static int32_t
tr_busiest(const cJSON *run)
{
    const cJSON *g;
    double best = -1.0;
    int32_t id = -1;

    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(run, "gpu_metrics"))
    {
        if (tr_num(g, "kernel_time_us") > best) {
            best = tr_num(g, "kernel_time_us");
            id = (int32_t)tr_num(g, "device");
        }
    }
    return id;
}

static void
tr_put(cJSON *run, const char *key, cJSON *item)
{
    assert_non_null(item);
    if (cJSON_GetObjectItemCaseSensitive(run, key) != NULL)
        assert_true(cJSON_ReplaceItemInObjectCaseSensitive(run, key, item));
    else
        assert_true(cJSON_AddItemToObject(run, key, item));
}

static enum pr_status
tr_roofline(const struct pr_trace *t, const struct pr_analysis_opts *o,
            cJSON *run, struct pr_error *err)
{
    struct pr_device_rows devs;
    struct pr_ops ops;
    struct pr_kernel_refs ks;
    struct pr_roofline_in in = {0};
    struct pr_roofline_out out;
    cJSON *a = NULL, *b = NULL;
    enum pr_status st;

    tr_devices(run, &devs);
    tr_ops(run, "operators", &ops.by_name);
    tr_ops(run, "operators_by_shape", &ops.by_shape);
    tr_kernels(run, &ks);
    in.t = t;
    in.tree = NULL; /* kernels reach ops by External id */
    in.devices = &devs;
    in.ops = &ops;
    in.kernels = &ks;
    in.main_device = tr_busiest(run);
    in.tc_seed_pct = NAN; /* the rows' own eligible share */
    in.tc_seed_on_pct = NAN;
    st = pr_roofline_run(&in, o, &out, err);
    if (st == PR_OK) {
        assert_int_equal(pr_devices_emit(&devs, &a, err), PR_OK);
        tr_put(run, "devices", a);
        assert_int_equal(pr_ops_emit(&ops, &a, &b, err), PR_OK);
        tr_put(run, "operators", a);
        tr_put(run, "operators_by_shape", b);
        tr_put(run, "tensor_cores", out.tensor_cores);
        tr_put(run, "roofline", out.roofline);
    }
    pr_devices_free(&devs);
    pr_ops_free(&ops);
    free(ks.v);
    return st;
}

#endif

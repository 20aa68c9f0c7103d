/* recommend.c - every recommendation of a run: the plugin's rules (7.5)
 * and profreport's efficiency rules, in one ordered table.  Each rule reads
 * what the analyses wrote into the run (and struct pr_rec_facts) and adds
 * at most one entry; the analyses themselves only measure. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/comm.h"
#include "profreport/dtype.h"
#include "profreport/flops.h"
#include "profreport/recommend.h"
#include "profreport/shapes.h"
#include "profreport/tensorcore.h"

#include "internal.h"

#define REC_TEXT 768

struct rctx {
    const struct pr_rec_facts *f; /* borrowed; never NULL */
    cJSON *run;                   /* borrowed */
    cJSON *arr;                   /* run's "recommendations" */
    int ok;                       /* sticky: 0 after an allocation failure */
};

/* ------------------------------------------------------------ run access */

static double
get_num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *
get_str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const cJSON *
get(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* An Ascend run: its devices say kind "npu" (the trace's reader knows);
 * then the advice names the NPU and torch_npu's calls, not CUDA's. */
static int
is_npu(const cJSON *run)
{
    const cJSON *d;

    cJSON_ArrayForEach(d, get(run, "devices"))
    {
        const char *k = get_str(d, "kind");

        if (k && strcmp(k, "npu") == 0)
            return 1;
    }
    return 0;
}

static const char *
dev_word(const cJSON *run)
{
    return is_npu(run) ? "NPU" : "GPU";
}

static int
has_rec(const cJSON *arr, const char *id)
{
    const cJSON *r;

    cJSON_ArrayForEach(r, arr)
    {
        const char *v = get_str(r, "id");

        if (v && strcmp(v, id) == 0)
            return 1;
    }
    return 0;
}

static void
add_rec(struct rctx *c, const char *id, const char *severity, const char *text)
{
    cJSON *o;

    if (!c->ok || has_rec(c->arr, id))
        return;
    o = pr_emit_obj(c->arr, NULL, &c->ok);
    pr_emit_str(o, "id", id, &c->ok);
    pr_emit_str(o, "severity", severity, &c->ok);
    pr_emit_str(o, "text", text, &c->ok);
}

/* Mean step time and one mean breakdown category, as a share. */
static double
step_share(const cJSON *run, const char *cat)
{
    const cJSON *ss = get(run, "step_summary");
    double mean = get_num(ss, "mean_us");
    double v = get_num(get(ss, "breakdown_us"), cat);

    return mean > 0 ? v / mean : NAN;
}

static size_t append(char *buf, size_t cap, size_t len, const char *fmt, ...)
    PR_PRINTF(4, 5);

static size_t
append(char *buf, size_t cap, size_t len, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (len >= cap)
        return len;
    va_start(ap, fmt);
    n = vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
    return n < 0 ? len : len + (size_t)n;
}

/* --------------------------------------------- the plugin's rules (7.5) */

/* 7.5.1 and 7.5.4: a category's share of the kept steps. */
static void
rule_categories(struct rctx *c)
{
    char text[512];

    if (!c->f->known)
        return;
    if (c->f->dataloader_share > 0.05) {
        snprintf(text, sizeof(text),
                 "This run has high time cost on input data loading. %.1f%% "
                 "of the step time is in DataLoader. You could try to set "
                 "num_workers on DataLoader's construction and enable "
                 "multi-processes on data loading.",
                 100.0 * c->f->dataloader_share);
        add_rec(c, "dataloader", "warning", text);
    }
    if (c->f->comm_share > 0.1) {
        snprintf(text, sizeof(text),
                 "This run has high time cost on communication. %.1f%% of "
                 "the step time is in communication. You could try Gradient "
                 "Compression or Gradient Accumulation or increase the batch "
                 "size.",
                 100.0 * c->f->comm_share);
        add_rec(c, "communication", "warning", text);
    }
}

/* 7.5.5: GPUs busy less than half of the steps' span, listed together. */
static void
rule_low_util(struct rctx *c)
{
    const cJSON *gpus = get(c->run, "gpu_metrics"), *g;
    struct pr_buf ids;
    size_t n = 0, k = 0;
    int fail = 0;

    if (!c->f->known)
        return;
    cJSON_ArrayForEach(g, gpus) n += get_num(g, "utilization_pct") < 50.0;
    if (n == 0)
        return;
    pr_buf_init(&ids, 4096);
    fail |= pr_buf_printf(&ids, "%s%s ", dev_word(c->run), n == 1 ? "" : "s") !=
            PR_OK;
    cJSON_ArrayForEach(g, gpus)
    {
        double u = get_num(g, "utilization_pct"), d = get_num(g, "device");

        if (!(u < 50.0) || isnan(d))
            continue;
        k++;
        fail |=
            pr_buf_printf(&ids, "%s%d", k == 1 ? "" : (k == n ? " and " : ", "),
                          (int)d) != PR_OK;
    }
    fail |= pr_buf_printf(&ids,
                          " %s low utilization. You could try to increase "
                          "batch size to improve. Note: Increasing batch size "
                          "may affect the speed and stability of model "
                          "convergence.",
                          n == 1 ? "has" : "have") != PR_OK;
    if (fail)
        c->ok = 0;
    else
        add_rec(c, "low_gpu_utilization", "warning", ids.data);
    pr_buf_free(&ids);
}

/* 7.5.6a: eligible operators launch kernels but none uses tensor cores. */
static void
rule_amp(struct rctx *c)
{
    char text[256];

    if (!c->f->known || c->f->cc_major < 7 || isnan(c->f->tc_ratio) ||
        c->f->tc_ratio != 0.0 || !(c->f->eligible_ratio > 0))
        return;
    /* one decimal, as the tensor-core figures show the same ratio */
    snprintf(text, sizeof(text),
             "Kernels with %.1f%% time are launched by Tensor Cores eligible "
             "operators. You could enable Automatic Mixed Precision to "
             "speedup by using FP16.",
             100.0 * c->f->eligible_ratio);
    add_rec(c, "enable_amp", "info", text);
}

/* The device with the most kernel time, its compute major (-1 unknown). */
static int
main_cc_major(const cJSON *run)
{
    const cJSON *g, *d;
    double best = -1.0;
    int best_id = -1;

    cJSON_ArrayForEach(g, get(run, "gpu_metrics"))
    {
        double kt = get_num(g, "kernel_time_us"), id = get_num(g, "device");

        if (isfinite(kt) && isfinite(id) &&
            (kt > best || (kt == best && (int)id < best_id))) {
            best = kt;
            best_id = (int)id;
        }
    }
    cJSON_ArrayForEach(d, get(run, "devices"))
    {
        const char *cc = get_str(d, "compute_capability");

        if ((best_id < 0 || get_num(d, "id") == best_id) && cc != NULL)
            return (int)strtol(cc, NULL, 10);
    }
    d = cJSON_GetArrayItem(get(run, "devices"), 0);
    return get_str(d, "compute_capability") != NULL
               ? (int)strtol(get_str(d, "compute_capability"), NULL, 10)
               : -1;
}

/* The plugin's rules from the summary alone (a run whose facts are not
 * known), only where the rules above did not add them. */
static void
rule_plugin_from_run(struct rctx *c)
{
    const cJSON *tc = get(c->run, "tensor_cores"), *g;
    double dl = step_share(c->run, "dataloader");
    double tcp = get_num(tc, "tc_kernel_time_pct");
    double elig = get_num(tc, "eligible_op_time_pct");
    char text[REC_TEXT];

    if (dl > 0.05) {
        snprintf(text, sizeof(text),
                 "This run has high time cost on input "
                 "data loading. %.1f%% of the step time is in DataLoader. "
                 "You could try to set num_workers on DataLoader's "
                 "construction and enable multi-processes on data loading.",
                 100.0 * dl);
        add_rec(c, "dataloader", "warning", text);
    }
    cJSON_ArrayForEach(g, get(c->run, "gpu_metrics"))
    {
        double u = get_num(g, "utilization_pct");

        if (u < 50.0 && !has_rec(c->arr, "low_gpu_utilization")) {
            snprintf(text, sizeof(text),
                     "%s %.0f has low utilization "
                     "(%.1f%%). You could try to increase batch size to "
                     "improve.",
                     dev_word(c->run), get_num(g, "device"), u);
            add_rec(c, "low_gpu_utilization", "warning", text);
        }
    }
    if (main_cc_major(c->run) >= 7 && tcp == 0.0 && elig > 0) {
        snprintf(text, sizeof(text),
                 "Kernels with %.1f%% time are launched "
                 "by Tensor Cores eligible operators. You could enable "
                 "Automatic Mixed Precision to speedup by using FP16.",
                 elig);
        add_rec(c, "enable_amp", "info", text);
    }
}

/* ---------------------------------------------------- efficiency rules */

/* Many tiny kernels while the CPU side of the step is busy launching,
 * and the GPU idle waiting for launches (hostdev.c's host wait). */
static const char *
launch_advice(const cJSON *run, const cJSON *l)
{
    if (is_npu(run))
        return "Run the step as a graph (torch.compile with torchair's "
               "NPU backend), fuse small ops, or raise the batch size.";
    return cJSON_IsTrue(get(l, "cuda_graphs"))
               ? "The run already replays CUDA graphs: capture more of the "
                 "step in them, fuse small ops with torch.compile, or "
                 "raise the batch size."
               : "Capture the step in a CUDA graph (torch.compile(mode="
                 "\"reduce-overhead\") or torch.cuda.CUDAGraph), fuse "
                 "small ops with torch.compile, or raise the batch size.";
}

static void
rule_launch_bound(struct rctx *c)
{
    const cJSON *k, *l = get(c->run, "launches");
    double calls = 0, small = 0, small_us = 0,
           rt = step_share(c->run, "runtime"),
           host_wait = get_num(l, "gpu_idle_host_wait_pct");
    char text[REC_TEXT];

    cJSON_ArrayForEach(k, get(c->run, "kernels"))
    {
        double n = get_num(k, "calls"), mean = get_num(k, "mean_us");

        if (!isfinite(n) || !isfinite(mean))
            continue;
        calls += n;
        small += mean < 10.0 ? n : 0;
        small_us += mean < 10.0 ? n * mean : 0;
    }
    /* evidence: the GPU idles while the CPU has not yet launched */
    if (calls < 100 || small / calls < 0.5 || !(rt >= 0.10) ||
        !(host_wait >= 10.0))
        return;
    snprintf(text, sizeof(text),
             "%.0f%% of %.0f kernel launches run under "
             "10 us (mean %.1f us) while %s runtime calls take %.1f%% of "
             "the step, and the %s idles %.1f%% of its time waiting for the "
             "next launch (median launch delay %.1f us): the %s waits for "
             "the CPU to launch work. %s",
             100.0 * small / calls, calls, small_us / small,
             is_npu(c->run) ? "CANN" : "CUDA", 100.0 * rt, dev_word(c->run),
             host_wait, get_num(get(l, "launch_delay_us"), "median"),
             dev_word(c->run), launch_advice(c->run, l));
    add_rec(c, "launch_bound", "warning", text);
}

/* Time from the first kept step's start to the last one's end, µs. */
static double
steps_span_us(const cJSON *run)
{
    const cJSON *st = get(run, "steps");
    const cJSON *first = cJSON_GetArrayItem(st, 0);
    const cJSON *last = cJSON_GetArrayItem(st, cJSON_GetArraySize(st) - 1);

    return get_num(last, "start_us") + get_num(last, "duration_us") -
           get_num(first, "start_us");
}

/* Up to three blocking calls that starved the device, for the text. */
static size_t
append_sync_calls(char *text, size_t cap, size_t len, const cJSON *sy,
                  const char *dev)
{
    const cJSON *r;
    double total = get_num(sy, "gpu_idle_us");
    size_t n = 0;

    cJSON_ArrayForEach(r, get(sy, "calls"))
    {
        double idle = get_num(r, "gpu_idle_us");

        if (n == 3 || !(idle >= 0.01 * total))
            continue;
        len = append(text, cap, len, "%s%s x%.0f (%.1f ms %s idle)",
                     n++ ? ", " : "", get_str(r, "name"), get_num(r, "count"),
                     idle / 1000.0, dev);
    }
    return len;
}

/* Blocking host syncs inside the profiled steps that left the device idle
 * (hostdev.c); syncs outside the steps (profiler shutdown) are not the
 * user's and do not count. */
static void
rule_host_sync(struct rctx *c)
{
    const cJSON *sy = get(c->run, "synchronization");
    double span = steps_span_us(c->run), idle = get_num(sy, "gpu_idle_us");
    const char *dev = dev_word(c->run);
    char text[REC_TEXT];
    size_t len;

    if (!(span > 0) || !(idle / span >= 0.02))
        return;
    len = append(text, sizeof(text), 0,
                 "The host blocks on the %s inside the steps and the %s "
                 "then idles %.1f ms (%.1f%% of the profiled steps) until "
                 "new work arrives: ",
                 dev, dev, idle / 1000.0, 100.0 * idle / span);
    len = append_sync_calls(text, sizeof(text), len, sy, dev);
    append(text, sizeof(text), len,
           ". Avoid .item(), .cpu(), .tolist(), print(tensor) and "
           "%s in the training step; keep metrics on the %s and read them "
           "every N steps.",
           is_npu(c->run) ? "torch.npu.synchronize()"
                          : "torch.cuda.synchronize()",
           dev);
    add_rec(c, "host_sync", "warning", text);
}

/* Pageable host copies: staged through a pinned buffer, blocking the
 * host; judged against the host link, never device memory. */
struct pageable {
    double n, bytes, us, link_pct, link_gbps, top_us;
    const char *link;
};

static void
sum_pageable(const cJSON *copies, struct pageable *p)
{
    const cJSON *r;

    memset(p, 0, sizeof(*p));
    p->link_pct = NAN;
    cJSON_ArrayForEach(r, get(copies, "by_kind"))
    {
        const char *m = get_str(r, "host_memory");
        double us = get_num(r, "duration_us"), b = get_num(r, "bytes");

        if (m == NULL || strcmp(m, "pageable") != 0 || !isfinite(us))
            continue;
        p->n += get_num(r, "count");
        p->us += us;
        p->bytes += isfinite(b) ? b : 0;
        if (us > p->top_us && get_str(r, "link") != NULL) {
            p->top_us = us;
            p->link = get_str(r, "link");
            p->link_pct = get_num(r, "link_pct");
            p->link_gbps = get_num(r, "link_gbps");
        }
    }
}

static void
rule_pageable_copies(struct rctx *c)
{
    struct pageable p;
    double span = steps_span_us(c->run);
    char text[REC_TEXT];
    size_t len;

    sum_pageable(get(c->run, "copies"), &p);
    /* slow: under half the link, or a link we cannot judge */
    if (!(span > 0) || !(p.us / span >= 0.01) || p.link_pct >= 50.0)
        return;
    len = append(text, sizeof(text), 0,
                 "%.0f copies between the %s and pageable host memory move "
                 "%.1f MB in %.1f ms (%.1f GB/s",
                 p.n, dev_word(c->run), p.bytes / 1e6, p.us / 1000.0,
                 p.bytes / (p.us * 1000.0));
    if (p.link != NULL && isfinite(p.link_pct))
        len = append(text, sizeof(text), len,
                     "; the busiest kind runs at %.0f%% of the %s link, "
                     "%.1f GB/s per direction",
                     p.link_pct, p.link, p.link_gbps);
    append(text, sizeof(text), len,
           "): the driver stages pageable memory through a pinned buffer "
           "and the host blocks. Allocate host tensors pinned "
           "(DataLoader(pin_memory=True) or tensor.pin_memory()) and copy "
           "with .to(device, non_blocking=True).");
    add_rec(c, "pageable_copies", "warning", text);
}

/* One operators_by_shape row as the efficiency rules read it. */
struct orow {
    const cJSON *obj; /* borrowed */
    const char *name, *shapes;
    double dev_self_us;
};

static int
cmp_orow(const void *a, const void *b)
{
    const struct orow *x = a, *y = b;
    int c;

    if (x->dev_self_us != y->dev_self_us)
        return x->dev_self_us > y->dev_self_us ? -1 : 1;
    c = strcmp(x->name ? x->name : "", y->name ? y->name : "");
    if (c == 0 && x->shapes && y->shapes)
        c = strcmp(x->shapes, y->shapes);
    return c != 0 ? c : (x->obj < y->obj ? -1 : x->obj > y->obj);
}

/* The rows by self device time (desc), and their total; caller frees. */
static struct orow *
rows_by_time(const cJSON *run, size_t *n, double *total_us)
{
    const cJSON *rows = get(run, "operators_by_shape"), *r;
    struct orow *v;
    size_t i = 0;

    *n = (size_t)cJSON_GetArraySize(rows);
    *total_us = 0;
    v = calloc(*n ? *n : 1, sizeof(*v));
    if (v == NULL)
        return NULL;
    cJSON_ArrayForEach(r, rows)
    {
        v[i].obj = r;
        v[i].name = get_str(r, "name");
        v[i].shapes = get_str(r, "input_shapes");
        v[i].dev_self_us = get_num(r, "device_self_us");
        if (isfinite(v[i].dev_self_us))
            *total_us += v[i].dev_self_us;
        else
            v[i].dev_self_us = 0; /* keeps the order total */
        i++;
    }
    qsort(v, *n, sizeof(*v), cmp_orow);
    return v;
}

/* Memory bandwidth of the device with the most kernel time; NaN. */
static double
main_gbps(const cJSON *run)
{
    const cJSON *g, *d;
    double best = -1.0, bw = NAN;
    int best_id = -1;

    cJSON_ArrayForEach(g, get(run, "gpu_metrics"))
    {
        double kt = get_num(g, "kernel_time_us"), id = get_num(g, "device");

        if (isfinite(kt) && isfinite(id) &&
            (kt > best || (kt == best && (int)id < best_id))) {
            best = kt;
            best_id = (int)id;
        }
    }
    cJSON_ArrayForEach(d, get(run, "devices"))
    {
        if (isnan(bw) || get_num(d, "id") == best_id)
            bw = get_num(d, "peak_gbps");
    }
    return bw;
}

/* Hot memory-bound ops well under the bandwidth roof. */
static void
rule_memory_bound(struct rctx *c, const struct orow *v, size_t n_rows,
                  double total)
{
    double bw = main_gbps(c->run);
    char text[REC_TEXT];
    size_t i, len = 0, n = 0;

    for (i = 0; i < n_rows && n < 3 && total > 0; i++) {
        const cJSON *r = v[i].obj;
        const char *bound = get_str(r, "bound");
        double bytes = get_num(r, "bytes");
        double gbps = bytes / (get_num(r, "device_total_us") * 1e-6) / 1e9;

        if (v[i].dev_self_us < 0.03 * total)
            break;
        if (!(bw > 0) || !(bytes > 0) || bound == NULL ||
            strcmp(bound, "memory") != 0 || !(gbps < 0.5 * bw))
            continue;
        len = append(text, sizeof(text), len,
                     "%s%s %s takes %.1f%% of %s "
                     "time at %.0f GB/s (%.0f%% of %.0f GB/s)",
                     n ? "; " : "", v[i].name ? v[i].name : "",
                     v[i].shapes ? v[i].shapes : "",
                     100.0 * v[i].dev_self_us / total, dev_word(c->run), gbps,
                     100.0 * gbps / bw, bw);
        n++;
    }
    if (!n)
        return;
    append(text, sizeof(text), len,
           ". These memory-bound ops run far "
           "below the bandwidth roof: fuse elementwise chains "
           "(torch.compile), use channels_last for convolutional nets and "
           "avoid needless dtype conversions and copies.");
    add_rec(c, "memory_bound_ops", "info", text);
}

/* A row's GEMM/conv dims, recomputed from its recorded shapes (parsed
 * at ingest when the trace is here). */
static int
row_misaligned(const struct rctx *c, const struct orow *r,
               struct pr_op_cost *cost, struct pr_tc_diag *d)
{
    struct pr_op_inputs *in = malloc(sizeof(*in));
    struct pr_op_call call;
    struct pr_error err = {0};
    int bad = 0;

    if (in == NULL) {
        return 0;
    }
    pr_shapes_get_text(c->f->t, r->shapes, get_str(r->obj, "input_types"), NULL,
                       in);
    call.name = r->name;
    call.in = in;
    call.trace_flops = -1;
    if (r->name != NULL && pr_flops_estimate(&call, cost, &err) == PR_OK)
        bad = pr_tensorcore_misaligned(cost, d);
    free(in);
    return bad;
}

/* GEMM/conv/attention dims that keep 16/8-bit ops off tensor cores. */
static void
rule_misaligned(struct rctx *c, const struct orow *v, size_t n_rows)
{
    char text[REC_TEXT];
    struct pr_op_cost cost;
    struct pr_tc_diag d;
    size_t i, len = 0, n = 0;

    for (i = 0; i < n_rows && n < 3; i++) {
        const cJSON *e = get(v[i].obj, "tc_eligible");

        if (v[i].dev_self_us <= 0 || !cJSON_IsTrue(e) ||
            !row_misaligned(c, &v[i], &cost, &d))
            continue;
        len = append(text, sizeof(text), len,
                     "%s%s %s (%s, %.0f us): %s; "
                     "%s",
                     n ? ". " : "", v[i].name, v[i].shapes ? v[i].shapes : "",
                     pr_dtype_name(cost.dtype), v[i].dev_self_us, d.text,
                     d.advice);
        n++;
    }
    if (!n)
        return;
    append(text, sizeof(text), len,
           ". Tensor cores need these dims in "
           "multiples of 8 (16 for int8/fp8).");
    add_rec(c, "misaligned_dims", "info", text);
}

/* Kernels whose low occupancy is by design: collectives (a few blocks
 * move data while the rest of the GPU computes) and tensor-core GEMMs
 * (large tiles, many registers per thread). */
static int
low_occupancy_by_design(const cJSON *k)
{
    const char *n = get_str(k, "name");

    return n == NULL || pr_comm_kernel_name(n) ||
           cJSON_IsTrue(get(k, "tensor_cores_used")) || pr_tc_kernel_uses(n);
}

/* Hot kernels that leave SMs idle: a grid under one block per SM, or an
 * estimated occupancy under 25% (0 means "not measured" in Kineto). */
static void
rule_low_occupancy(struct rctx *c)
{
    const cJSON *k, *ks = get(c->run, "kernels");
    double total = 0;
    char text[REC_TEXT];
    size_t len = 0, n = 0;

    cJSON_ArrayForEach(k, ks)
    {
        double us = get_num(k, "total_us");

        total += isfinite(us) ? us : 0;
    }
    cJSON_ArrayForEach(k, ks) /* rows are sorted by total_us desc */
    {
        double us = get_num(k, "total_us");
        double occ = get_num(k, "mean_est_achieved_occupancy_pct");
        double bps = get_num(k, "mean_blocks_per_sm");

        if (n == 3 || !(total > 0) || us < 0.05 * total)
            break;
        if ((!(bps < 1.0) && !(occ > 0 && occ < 25.0)) ||
            low_occupancy_by_design(k))
            continue;
        len = append(text, sizeof(text), len,
                     "%s%s: %.1f%% of kernel time, estimated occupancy "
                     "%.0f%%, %.2f blocks per SM",
                     n ? "; " : "", get_str(k, "name"), 100.0 * us / total, occ,
                     bps);
        n++;
    }
    if (!n)
        return;
    append(text, sizeof(text), len,
           ". Under one block per SM the grid leaves SMs idle: raise the "
           "batch size or merge small launches. Low occupancy with many "
           "blocks per SM means registers or shared memory per block limit "
           "it: try another algorithm (torch.backends.cudnn.benchmark = "
           "True) or, for custom kernels, fewer registers per thread.");
    add_rec(c, "low_occupancy", "info", text);
}

static void
rules_over_rows(struct rctx *c)
{
    double total;
    size_t n;
    struct orow *v = rows_by_time(c->run, &n, &total);

    if (v == NULL) {
        c->ok = 0;
        return;
    }
    rule_memory_bound(c, v, n, total);
    rule_misaligned(c, v, n);
    free(v);
}

/* ------------------------------------------------------------ the table */

enum pr_status
pr_recommend_fill(const struct pr_rec_facts *f, cJSON *run,
                  struct pr_error *err)
{
    static const struct pr_rec_facts none = {NULL, 0, NAN, NAN, -1, NAN, NAN};
    struct rctx c;

    c.f = f != NULL ? f : &none;
    c.run = run;
    c.ok = 1;
    c.arr = cJSON_GetObjectItemCaseSensitive(run, "recommendations");
    if (!cJSON_IsArray(c.arr)) {
        cJSON *a = cJSON_CreateArray();

        if (a == NULL ||
            (c.arr != NULL
                 ? !cJSON_ReplaceItemInObjectCaseSensitive(run,
                                                           "recommendations", a)
                 : !cJSON_AddItemToObject(run, "recommendations", a))) {
            cJSON_Delete(a);
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
        }
        c.arr = a;
    }
    rule_categories(&c);
    rule_low_util(&c);
    rule_amp(&c);
    rule_plugin_from_run(&c);
    rule_launch_bound(&c);
    rule_host_sync(&c);
    rule_pageable_copies(&c);
    rules_over_rows(&c);
    rule_low_occupancy(&c);
    return c.ok ? PR_OK
                : pr_error_set(err, PR_E_NOMEM, "out of memory (recommend)");
}

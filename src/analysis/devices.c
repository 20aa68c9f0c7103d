/* devices.c - which GPUs a trace used and what deviceProperties says about
 * them.  Only devices that ran work are listed: a node's deviceProperties
 * usually names every GPU of the machine, not the ones this process used. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profreport/buf.h"
#include "profreport/devices.h"

#include "internal.h"

#define MAX_DEVICE_ID 1000000 /* ids are small; larger ones are noise */

/* args.device, else the pid when it is a plain decimal number. */
static int64_t
device_of(const struct pr_trace *t, const struct pr_event *e)
{
    const struct pr_gpu_info *g = pr_trace_gpu(t, e);
    const char *pid;
    char *end;
    long long v;

    if (g == NULL)
        return -1;
    if (g->device >= 0)
        return g->device;
    pid = pr_trace_str(t, e->pid);
    if (*pid < '0' || *pid > '9')
        return -1;
    errno = 0;
    v = strtoll(pid, &end, 10);
    if (errno != 0 || *end != '\0' || v > MAX_DEVICE_ID)
        return -1;
    return v;
}

static enum pr_status
used_ids(const struct pr_trace *t, int64_t **ids, size_t *n,
         struct pr_error *err)
{
    size_t cap = 0, i, j;

    *ids = NULL;
    *n = 0;
    for (i = 0; i < t->n_events; i++) {
        int64_t d = device_of(t, &t->events[i]);

        if (d < 0)
            continue;
        for (j = 0; j < *n && (*ids)[j] < d; j++)
            ;
        if (j < *n && (*ids)[j] == d)
            continue;
        if (pr_grow((void **)ids, &cap, *n + 1, sizeof(**ids)) != PR_OK)
            return pr_error_set(err, PR_E_NOMEM, "out of memory (devices)");
        memmove(*ids + j + 1, *ids + j, (*n - j) * sizeof(**ids));
        (*ids)[j] = d;
        (*n)++;
    }
    return PR_OK;
}

static int
contains_ci(const char *s, const char *pat)
{
    size_t n = strlen(pat);

    for (; s && *s; s++) {
        if (strncasecmp(s, pat, n) == 0)
            return 1;
    }
    return 0;
}

/* AMD GPUs run 64-wide wavefronts, and HIP reports the gfx version where
 * CUDA has a compute capability (gfx90a shows as 9.0, gfx942 as 9.4). */
static int
is_amd(const struct pr_trace *t, const struct pr_device *d)
{
    const char *name = pr_trace_str(t, d->name);

    return d->warp_size == 64 || contains_ci(name, "amd") ||
           contains_ci(name, "radeon") || contains_ci(name, "instinct");
}

/* The gfx target of a Tensile / hipBLASLt kernel name: its "_ISA90a_"
 * field names what the library was built for.  0 when absent. */
static int
tensile_isa(const char *name, char *arch, size_t cap)
{
    const char *p = strstr(name, "_ISA");
    size_t n = 0;

    if (!p || strncmp(name, "Cijk_", 5) != 0)
        return 0;
    for (p += 4; isalnum((unsigned char)p[n]) && n < 8; n++)
        ;
    if (n < 3 || p[n] != '_')
        return 0;
    snprintf(arch, cap, "gfx%.*s", (int)n, p);
    return 1;
}

/* The AMD architecture: from the kernels the libraries built for it, else
 * the family HIP's version numbers allow. */
static void
amd_arch(const struct pr_trace *t, const struct pr_device *d, char *arch,
         size_t cap)
{
    size_t i;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind == PR_KIND_DEVICE_TASK &&
            tensile_isa(pr_trace_str(t, e->name), arch, cap))
            return;
    }
    if (d->compute_major >= 0)
        snprintf(arch, cap, "gfx%d (HIP %d.%d)", d->compute_major,
                 d->compute_major, d->compute_minor < 0 ? 0 : d->compute_minor);
    else
        snprintf(arch, cap, "gfx");
}

/* Meta's MTIA accelerators are no GPUs: Kineto writes their work in its
 * own category, with no compute capability to speak of. */
static int
is_mtia(const struct pr_trace *t, int64_t id)
{
    size_t i;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->info != PR_NO_INFO && device_of(t, e) == id &&
            strcmp(pr_trace_str(t, e->cat), "mtia_ccp_events") == 0)
            return 1;
    }
    return 0;
}

/* vendor, compute_capability (NVIDIA only) and architecture ("sm_80",
 * "gfx90a", "mtia"). */
static void
emit_arch(cJSON *o, const struct pr_trace *t, int64_t id,
          const struct pr_device *d, int *ok)
{
    char cc[32], arch[48];
    int amd = d && is_amd(t, d);
    int has_cc = d && d->compute_major >= 0 && d->compute_minor >= 0;

    if (is_mtia(t, id)) {
        pr_emit_str(o, "vendor", "meta", ok);
        pr_emit_null(o, "compute_capability", ok);
        pr_emit_str(o, "architecture", "mtia", ok);
        return;
    }
    if (!d) {
        pr_emit_null(o, "vendor", ok);
        pr_emit_null(o, "compute_capability", ok);
        pr_emit_null(o, "architecture", ok);
        return;
    }
    if (t->vendor != PR_STR_NONE) {
        /* the format knows the device (Ascend): no CUDA or HIP numbers */
        pr_emit_str(o, "vendor", pr_trace_str(t, t->vendor), ok);
        pr_emit_null(o, "compute_capability", ok);
        pr_emit_null(o, "architecture", ok);
        return;
    }
    pr_emit_str(o, "vendor", amd ? "amd" : "nvidia", ok);
    if (has_cc && !amd) {
        snprintf(cc, sizeof(cc), "%d.%d", d->compute_major, d->compute_minor);
        pr_emit_str(o, "compute_capability", cc, ok);
        snprintf(arch, sizeof(arch), "sm_%d%d", d->compute_major,
                 d->compute_minor);
        pr_emit_str(o, "architecture", arch, ok);
        return;
    }
    pr_emit_null(o, "compute_capability", ok);
    if (amd)
        amd_arch(t, d, arch, sizeof(arch));
    pr_emit_str(o, "architecture", amd ? arch : NULL, ok);
}

/* The best name the reports can show, and where it came from: a device
 * with kernels but no deviceProperties is still a device of the run, so
 * it is named by its kind and id and says what is missing (issue #11). */
static void
emit_label(cJSON *o, const struct pr_trace *t, int64_t id,
           const struct pr_device *d, int *ok)
{
    const char *kind =
        t->device_kind != PR_STR_NONE ? pr_trace_str(t, t->device_kind) : "gpu";
    char label[96];

    if (d != NULL && d->name != PR_STR_NONE &&
        pr_trace_str(t, d->name)[0] != '\0') {
        pr_emit_str(o, "label", pr_trace_str(t, d->name), ok);
        pr_emit_str(o, "name_source", "device_properties", ok);
        return;
    }
    if (d == NULL && is_mtia(t, id)) {
        pr_emit_str(o, "label", "MTIA", ok);
        pr_emit_str(o, "name_source", "kernel_names", ok);
        return;
    }
    /* Kineto users can act on "deviceProperties": it is what to look for */
    snprintf(label, sizeof(label), "%s %lld (no %s in trace)",
             strcmp(kind, "npu") == 0 ? "NPU" : "GPU", (long long)id,
             d == NULL && t->format != PR_STR_NONE &&
                     (strcmp(pr_trace_str(t, t->format), "kineto") == 0 ||
                      strcmp(pr_trace_str(t, t->format), "chrome") == 0)
                 ? "deviceProperties"
                 : "device name");
    pr_emit_str(o, "label", label, ok);
    pr_emit_str(o, "name_source", "none", ok);
}

static void
emit_device(cJSON *arr, const struct pr_trace *t, int64_t id, int *ok)
{
    const struct pr_device *d = pr_trace_device(t, id);
    cJSON *o = pr_emit_obj(arr, NULL, ok);
    cJSON *peak;

    pr_emit_num(o, "id", (double)id, ok);
    /* MTIA traces often list no deviceProperties at all */
    pr_emit_str(o, "name",
                d                ? pr_trace_str(t, d->name)
                : is_mtia(t, id) ? "MTIA"
                                 : NULL,
                ok);
    emit_label(o, t, id, d, ok);
    if (t->device_kind != PR_STR_NONE)
        pr_emit_str(o, "kind", pr_trace_str(t, t->device_kind), ok);
    pr_emit_num_or_null(o, "num_sms", d && d->num_sms >= 0 ? d->num_sms : NAN,
                        ok);
    emit_arch(o, t, id, d, ok);
    pr_emit_num_or_null(
        o, "memory_bytes",
        d && d->total_global_mem >= 0 ? (double)d->total_global_mem : NAN, ok);
    peak = pr_emit_obj(o, "peak_tflops", ok);
    pr_emit_null(peak, "fp32", ok);
    pr_emit_null(peak, "fp16_tensor", ok);
    pr_emit_null(peak, "bf16_tensor", ok);
    pr_emit_null(peak, "tf32_tensor", ok);
    pr_emit_null(peak, "fp64", ok);
    pr_emit_null(o, "peak_gbps", ok);
    pr_emit_str(o, "peak_source", "unknown", ok);
}

enum pr_status
pr_devices_build(const struct pr_trace *t, cJSON **out, struct pr_error *err)
{
    int64_t *ids = NULL;
    size_t n = 0, i;
    int ok = 1;
    enum pr_status st = used_ids(t, &ids, &n, err);

    *out = NULL;
    if (st == PR_OK) {
        *out = cJSON_CreateArray();
        ok = *out != NULL;
        for (i = 0; i < n && ok; i++)
            emit_device(*out, t, ids[i], &ok);
        if (!ok) {
            cJSON_Delete(*out);
            *out = NULL;
            st = pr_error_set(err, PR_E_NOMEM, "out of memory (devices)");
        }
    }
    free(ids);
    return st;
}

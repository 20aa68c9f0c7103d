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
#include "profreport/keys.h"
#include "profreport/peaks.h"
#include "profreport/rows.h"

#include "../internal.h"

#define MAX_DEVICE_ID 1000000 /* ids are small; larger ones are noise */

/* args.device, else the pid when it is a plain decimal number. */
static int64_t
device_of(const struct pr_trace *t, const struct pr_event *e)
{
    struct pr_gpu_info gb;
    const struct pr_gpu_info *g = pr_trace_gpu(t, e, &gb);
    const char *pid;
    char *end;
    long long v;

    if (g == NULL)
        return -1;
    if (g->device >= 0)
        return g->device;
    pid = pr_trace_str(t, pr_event_pid(t, e));
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
           contains_ci(name, "radeon") || contains_ci(name, "instinct") ||
           (d->arch != PR_STR_NONE &&
            strncmp(pr_trace_str(t, d->arch), "gfx", 3) == 0);
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

/* The AMD architecture: HIP's gcnArchName ("gfx942:sramecc+:xnack-" is
 * gfx942), else the target the libraries built their kernels for; never
 * HIP's version numbers, which are no architecture (gfx90a reports 9.0,
 * which read as a CUDA capability is Hopper's).  "" when neither tells. */
static void
amd_arch(const struct pr_trace *t, const struct pr_device *d, char *arch,
         size_t cap)
{
    const char *g = d->arch != PR_STR_NONE ? pr_trace_str(t, d->arch) : "";
    size_t i;

    arch[0] = '\0';
    if (strncmp(g, "gfx", 3) == 0) {
        snprintf(arch, cap, "%.*s", (int)strcspn(g, ":"), g);
        return;
    }
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind == PR_KIND_DEVICE_TASK &&
            tensile_isa(pr_trace_str(t, e->name), arch, cap))
            return;
    }
}

void
pr_devices_arch(const struct pr_trace *t, const struct pr_device *d, char *buf,
                size_t cap)
{
    buf[0] = '\0';
    if (d == NULL)
        return;
    if (is_amd(t, d))
        amd_arch(t, d, buf, cap);
    else if (t->vendor == PR_STR_NONE && d->compute_major > 0 &&
             d->compute_minor >= 0)
        snprintf(buf, cap, "sm_%d%d", d->compute_major, d->compute_minor);
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
            strcmp(pr_trace_str(t, pr_event_cat(t, e)), "mtia_ccp_events") == 0)
            return 1;
    }
    return 0;
}

const char *
pr_devices_vendor(const struct pr_trace *t)
{
    char arch[32];
    size_t i;

    if (t->vendor != PR_STR_NONE)
        return pr_trace_str(t, t->vendor);
    /* Nsight Systems records CUDA devices only */
    if (t->format != PR_STR_NONE &&
        strcmp(pr_trace_str(t, t->format), "nsys") == 0)
        return "nvidia";
    for (i = 0; i < t->n_devices; i++)
        if (is_amd(t, &t->devices[i]))
            return "amd";
    if (t->n_devices > 0)
        return "nvidia";
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind == PR_KIND_DEVICE_TASK &&
            tensile_isa(pr_trace_str(t, e->name), arch, sizeof(arch)))
            return "amd";
    }
    return NULL;
}

/* vendor, compute_capability (NVIDIA only) and architecture ("sm_80",
 * "gfx90a", "mtia"). */
static void
fill_arch(struct pr_device_row *r, const struct pr_trace *t,
          const struct pr_device *d)
{
    int amd = d && is_amd(t, d);
    int has_cc = d && d->compute_major >= 0 && d->compute_minor >= 0;

    if (is_mtia(t, r->id)) {
        r->vendor = "meta";
        r->architecture = "mtia";
        return;
    }
    if (!d)
        return;
    if (t->vendor != PR_STR_NONE) {
        /* the format knows the device (Ascend): no CUDA or HIP numbers */
        r->vendor = pr_trace_str(t, t->vendor);
        return;
    }
    r->vendor = amd ? "amd" : "nvidia";
    if (has_cc && !amd) {
        snprintf(r->cc_buf, sizeof(r->cc_buf), "%d.%d", d->compute_major,
                 d->compute_minor);
        snprintf(r->arch_buf, sizeof(r->arch_buf), "sm_%d%d", d->compute_major,
                 d->compute_minor);
        r->compute_capability = r->cc_buf;
        r->architecture = r->arch_buf;
        return;
    }
    if (amd) {
        amd_arch(t, d, r->arch_buf, sizeof(r->arch_buf));
        r->architecture = r->arch_buf[0] != '\0' ? r->arch_buf : NULL;
    }
}

/* The best name the reports can show, and where it came from: a device
 * with kernels but no deviceProperties is still a device of the run, so
 * it is named by its kind and id and says what is missing (issue #11). */
static void
fill_label(struct pr_device_row *r, const struct pr_trace *t,
           const struct pr_device *d)
{
    const char *kind =
        t->device_kind != PR_STR_NONE ? pr_trace_str(t, t->device_kind) : "gpu";

    if (d != NULL && d->name != PR_STR_NONE &&
        pr_trace_str(t, d->name)[0] != '\0') {
        r->label = pr_trace_str(t, d->name);
        r->name_source = "device_properties";
        return;
    }
    if (d == NULL && is_mtia(t, r->id)) {
        r->label = "MTIA";
        r->name_source = "kernel_names";
        return;
    }
    if (d != NULL && d->id_unknown) { /* review 15 #12: not "NPU 0" */
        snprintf(r->label_buf, sizeof(r->label_buf),
                 "%s (no device id or name in the export)",
                 strcmp(kind, "npu") == 0 ? "NPU" : "GPU");
        r->label = r->label_buf;
        r->name_source = "none";
        return;
    }
    /* Kineto users can act on "deviceProperties": it is what to look for;
       an id its entries do not have (of differing models) is not "no
       deviceProperties" (review 28h #3) */
    if (d == NULL && t->n_devices > 0)
        snprintf(r->label_buf, sizeof(r->label_buf),
                 "%s %lld (not in deviceProperties)",
                 strcmp(kind, "npu") == 0 ? "NPU" : "GPU", (long long)r->id);
    else
        snprintf(r->label_buf, sizeof(r->label_buf), "%s %lld (no %s in trace)",
                 strcmp(kind, "npu") == 0 ? "NPU" : "GPU", (long long)r->id,
                 d == NULL && t->format != PR_STR_NONE &&
                         (strcmp(pr_trace_str(t, t->format), "kineto") == 0 ||
                          strcmp(pr_trace_str(t, t->format), "chrome") == 0)
                     ? "deviceProperties"
                     : "device name");
    r->label = r->label_buf;
    r->name_source = "none";
}

/* The ids of deviceProperties' entries into buf: "0-3" when they run
 * one by one, else "0, 2, 5" (cut with "..." when long). */
static void
entry_ids(const struct pr_trace *t, char *buf, size_t cap)
{
    size_t i, n = 0;
    int run = 1;

    for (i = 1; i < t->n_devices; i++)
        run &= t->devices[i].id == t->devices[i - 1].id + 1;
    if (t->n_devices > 1 && run) {
        snprintf(buf, cap, "%lld-%lld", (long long)t->devices[0].id,
                 (long long)t->devices[t->n_devices - 1].id);
        return;
    }
    buf[0] = '\0';
    for (i = 0; i < t->n_devices && n + 24 < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%lld", i ? ", " : "",
                              (long long)t->devices[i].id);
    if (i < t->n_devices)
        snprintf(buf + n, cap - n, ", ...");
}

static void
fill_row(struct pr_device_row *r, const struct pr_trace *t, int64_t id)
{
    enum pr_device_pairing how;
    const struct pr_device *d = pr_trace_device_paired(t, id, &how);

    memset(r, 0, sizeof(*r));
    r->id = id;
    /* MTIA traces often list no deviceProperties at all */
    r->name = d && d->name != PR_STR_NONE && pr_trace_str(t, d->name)[0]
                  ? pr_trace_str(t, d->name)
              : is_mtia(t, id) ? "MTIA"
                               : NULL;
    fill_label(r, t, d);
    r->kind =
        t->device_kind != PR_STR_NONE ? pr_trace_str(t, t->device_kind) : NULL;
    r->num_sms = d && d->num_sms >= 0 ? d->num_sms : NAN;
    fill_arch(r, t, d);
    /* a nameless HIP device is named by its architecture (gcnArchName or
       its libraries' target): "GPU 0: AMD gfx950 (no device name in
       trace)", not a GPU the reader cannot tell apart */
    if (d != NULL && r->name == NULL && r->architecture != NULL &&
        r->vendor != NULL && strcmp(r->vendor, "amd") == 0 &&
        strcmp(r->name_source, "none") == 0)
        snprintf(r->label_buf, sizeof(r->label_buf),
                 "GPU %lld: AMD %s (no device name in trace)", (long long)id,
                 r->architecture);
    r->memory_bytes =
        d && d->total_global_mem >= 0 ? (double)d->total_global_mem : NAN;
    r->props_id = d && d->id >= 0 && d->id != id ? d->id : -1;
    if (d != NULL && how == PR_DEVICE_BY_MODEL) {
        r->props_alike = t->n_devices;
        entry_ids(t, r->props_ids, sizeof(r->props_ids));
    }
    r->clock_mhz = d && d->clock_mhz > 0 ? d->clock_mhz : NAN;
    r->stated_gbps = d && d->mem_gbps > 0 ? d->mem_gbps : NAN;
}

enum pr_status
pr_devices_collect(const struct pr_trace *t, struct pr_device_rows *out,
                   struct pr_error *err)
{
    int64_t *ids = NULL;
    size_t n = 0, i;
    enum pr_status st = used_ids(t, &ids, &n, err);

    /* a rank of only its producer's step and communication tables ran on
       the NPU its files name, though no task of it is here */
    if (st == PR_OK && n == 0 && t->phases != NULL && t->n_devices > 0) {
        ids = malloc(sizeof(*ids));
        if (ids == NULL)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory (devices)");
        else
            ids[n++] = t->devices[0].id;
    } else if (st == PR_OK && n == 0 && t->n_devices > 0) {
        /* a trace that names its GPUs but records none of their work
           (review22g item 9): the devices it names, so the reports say
           which machine recorded nothing rather than "no GPU" */
        ids = malloc(t->n_devices * sizeof(*ids));
        if (ids == NULL)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory (devices)");
        for (size_t k = 0; ids != NULL && k < t->n_devices; k++)
            if (t->devices[k].id >= 0)
                ids[n++] = t->devices[k].id;
    }
    memset(out, 0, sizeof(*out));
    if (st == PR_OK && n > 0) {
        out->v = calloc(n, sizeof(*out->v));
        if (out->v == NULL)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory (devices)");
    }
    for (i = 0; i < n && st == PR_OK; i++)
        fill_row(&out->v[out->n++], t, ids[i]);
    free(ids);
    return st;
}

void
pr_devices_free(struct pr_device_rows *rows)
{
    free(rows->v);
    memset(rows, 0, sizeof(*rows));
}

/* ------------------------------------------------------------- emit */

static const char *
origin_text(enum pr_peak_origin o)
{
    static const char *const names[] = {"unknown", "table", "cli", "guess"};

    return names[o];
}

static const char *
match_text(enum pr_peak_match m)
{
    static const char *const names[] = {NULL, "exact", "family", "guess",
                                        "device_spec"};

    return names[m];
}

/* The roofline pass's peaks into o's row and *pk (rows.def's
 * pr_row_peak_tflops, set by kind key, each kind's mask bit cleared as it
 * is set): unknown ones, for a run it did not reach, are the placeholder
 * the spec lists (its five kinds null), and the device row leaves out the
 * peak's entry, match and reference. */
static void
put_peaks(struct pr_row_device *o, struct pr_row_peak_tflops *pt,
          const struct pr_device_row *r)
{
    static const enum pr_peak_kind spec[] = {
        PR_PEAK_FP32, PR_PEAK_FP16, PR_PEAK_BF16, PR_PEAK_TF32, PR_PEAK_FP64,
    };
    const struct pr_peaks *pk = &r->peaks;
    size_t k;

    memset(pt, 0, sizeof(*pt));
    pt->absent = ~(uint64_t)0;
    if (!r->has_peaks) {
        for (k = 0; k < sizeof(spec) / sizeof(spec[0]); k++)
            (void)pr_rows_set_num(PR_RO_RUNS_DEVICES_PEAK_TFLOPS, pt,
                                  pr_peaks_key(spec[k]), NAN);
        o->peak_gbps = NAN;
        o->peak_source = "unknown";
        (void)pr_rows_omit(PR_RO_RUNS_DEVICES, o,
                           PR_SR_RUNS_DEVICES_PR_K_PEAK_DEVICE);
        (void)pr_rows_omit(PR_RO_RUNS_DEVICES, o,
                           PR_SR_RUNS_DEVICES_PR_K_PEAK_MATCH);
        (void)pr_rows_omit(PR_RO_RUNS_DEVICES, o,
                           PR_SR_RUNS_DEVICES_PR_K_PEAK_REFERENCE);
        return;
    }
    for (k = 0; k < PR_PEAK_COUNT; k++)
        (void)pr_rows_set_num(PR_RO_RUNS_DEVICES_PEAK_TFLOPS, pt,
                              pr_peaks_key((enum pr_peak_kind)k),
                              pk->tflops[k]);
    o->peak_gbps = pk->gbps;
    o->peak_source = origin_text(pk->origin);
    o->peak_device = pk->entry[0] ? pk->entry : NULL;
    o->peak_match = match_text(pk->match);
    o->peak_reference = pk->source[0] ? pk->source : NULL;
    o->peak_scale = pk->scale;
    o->peak_half_rate = pk->half_rate;
    o->peak_gbps_source = pk->gbps_stated ? "export" : NULL;
}

/* What a guess was fitted to (peaks.c's fit_guess): written only where it
 * was, so a device of a table entry keeps its row as it was. */
static void
omit_fit(struct pr_row_device *o)
{
    if (isnan(o->clock_mhz))
        (void)pr_rows_omit(PR_RO_RUNS_DEVICES, o,
                           PR_SR_RUNS_DEVICES_PR_K_CLOCK_MHZ);
    if (isnan(o->peak_scale))
        (void)pr_rows_omit(PR_RO_RUNS_DEVICES, o,
                           PR_SR_RUNS_DEVICES_PR_K_PEAK_SCALE);
    if (!o->peak_half_rate)
        (void)pr_rows_omit(PR_RO_RUNS_DEVICES, o,
                           PR_SR_RUNS_DEVICES_PR_K_PEAK_HALF_RATE);
    if (o->peak_gbps_source == NULL)
        (void)pr_rows_omit(PR_RO_RUNS_DEVICES, o,
                           PR_SR_RUNS_DEVICES_PR_K_PEAK_GBPS_SOURCE);
}

/* One device's row (rows.def's pr_row_device), its peaks a typed row of
 * their own held as a JSON field. */
static void
emit_device(cJSON *arr, const struct pr_device_row *r, int *ok)
{
    struct pr_row_peak_tflops pt;
    cJSON *peak;
    struct pr_row_device o = {
        .id = r->id,
        .name = r->name,
        .label = r->label,
        .name_source = r->name_source,
        .kind = r->kind,
        .num_sms = r->num_sms,
        .vendor = r->vendor,
        .compute_capability = r->compute_capability,
        .architecture = r->architecture,
        .memory_bytes = r->memory_bytes,
        .clock_mhz = r->clock_mhz,
        .peak_scale = NAN,
    };

    if (r->kind == NULL) /* the format names no device kind */
        (void)pr_rows_omit(PR_RO_RUNS_DEVICES, &o,
                           PR_SR_RUNS_DEVICES_PR_K_KIND);
    put_peaks(&o, &pt, r);
    omit_fit(&o);
    peak = pr_rows_row(PR_RO_RUNS_DEVICES_PEAK_TFLOPS, &pt);
    o.peak_tflops = peak;
    *ok = peak != NULL && pr_rows_write(arr, PR_RO_RUNS_DEVICES, &o, 1);
    cJSON_Delete(peak);
}

enum pr_status
pr_devices_emit(const struct pr_device_rows *rows, cJSON **out,
                struct pr_error *err)
{
    size_t i;
    int ok;

    *out = cJSON_CreateArray();
    ok = *out != NULL;
    for (i = 0; i < rows->n && ok; i++)
        emit_device(*out, &rows->v[i], &ok);
    if (!ok) {
        cJSON_Delete(*out);
        *out = NULL;
        return pr_error_set(err, PR_E_NOMEM, "out of memory (devices)");
    }
    return PR_OK;
}

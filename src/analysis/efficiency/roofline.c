/* roofline.c - the GPU-efficiency pass over one run's C rows: device
 * peaks, FLOPs/bytes/rates/roofline per operator row and the tensor_cores
 * object (recommend.c turns them into advice).  The formulas live in
 * flops.c, the peaks in peaks.c, the tensor-core rules in tensorcore.c;
 * the rows themselves come from ops.c, kernels.c and friends. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/cube.h"
#include "profreport/flops.h"
#include "profreport/kclass.h"
#include "profreport/keys.h"
#include "profreport/peaks.h"
#include "profreport/pmu.h"
#include "profreport/roofline.h"
#include "profreport/rows.h"
#include "profreport/tensorcore.h"
#include "profreport/tree.h"

#include "../internal.h"

/* One (name, Input Dims) group of the trace's op events: what a summary row
 * does not carry. */
struct og {
    const char *name, *dims;      /* trace strings (borrowed) */
    const char *concrete;         /* first call's Concrete Inputs, or NULL */
    double trace_flops;           /* first call's "flops" arg; -1 absent */
    int64_t k_ns, tc_ns, heur_ns; /* own kernels; on TC; TC by heuristic */
    int64_t unknown_ns;           /* own kernels no table rule names */
    const char *fp32_kernel;      /* its longest fp32 CUDA-core GEMM/conv
                                     launch (the table says FFMA/SIMT);
                                     NULL: none */
    int64_t fp32_ns;              /* that launch's duration */
    int64_t named_ns;      /* own fp32 GEMM/conv kernels on CUDA cores that are
                              eligible by their names (pr_ops_kernel_by_name) */
    int tf32;              /* one of its kernels used TF32 */
    int hf32_no, hf32_yes; /* a task said HF32 Eligible NO / YES (Ascend) */
    int task_fp32;         /* a task's device input types were fp32 */
    int task_cls;          /* enum pr_op_class its tasks' op type says */
    unsigned algo;         /* PR_NAME_WINOGRAD / _FFT of its kernels */
    int device;            /* device of its first kernel; -1 none */
    const char *out_dims;  /* output shape every call's conv backward gave */
    int out_state;         /* OUT_* */
    size_t first;          /* position before sort_groups: ext_ref.group */
    uint32_t strides;      /* the "Input Strides" (with a 0) every call
                              recorded; PR_STR_NONE: none, or calls
                              that disagree */
    int strides_mixed;     /* calls recorded different strides */
    int64_t calls;         /* its calls in the trace */
    struct pr_tc_off off_simt, off_fft; /* its own kernels off tensor
                                           cores: fp32 GEMM/conv, FFT */
    int64_t mean_bwd;    /* of them, inside a MeanBackward node that
                            received fewer elements than an input of
                            the call holds (bcast_evidence) */
    int64_t one_grad[3]; /* of them, a conv backward's calls whose inner
                            ops show one gradient only: [PR_CONV_GRAD_*]
                            (conv_grad_calls) */
};

/* Whether all calls of a group found the same forward output shape. */
enum { OUT_UNSEEN = 0, OUT_SAME, OUT_UNKNOWN };

struct ogs {
    struct og *v; /* owned */
    size_t n, cap;
};

/* A device and its peaks (copied into its row once looked up). */
struct dev {
    struct pr_device_row *row;
    int id;
    int cc_major, cc_minor; /* as deviceProperties says (gfx for AMD) */
    int amd;
    int mtia; /* Meta's MTIA: no tensor cores to judge by kernel name */
    int npu;  /* an Ascend NPU: the Cube is its tensor core, HF32 its TF32 */
    struct pr_peaks pk;
};

/* What the pass computed for one operators_by_shape row. */
struct row {
    struct pr_op_row *src; /* borrowed from the input */
    const char *name, *shapes;
    struct pr_op_cost cost;
    double calls, dev_self_us, dev_total_us;
    double flops, bytes;   /* all calls; NaN unknown */
    double roof_us;        /* the device time its rate divides by: host
                              copies apart (apart_copies) */
    const char *flops_src; /* "measured", "trace", "formula"; NULL unknown */
    int eligible, on_tc;
    double tc_self_us;       /* self device time on TC kernels */
    int tf32;                /* one of its kernels used TF32 */
    int unknown;             /* some of its kernels no table rule names */
    const char *fp32_kernel; /* og's: evidence of fp32 on CUDA cores */
    double named_us;         /* og's named_ns: eligible by kernel names */
    int hf32;                /* Ascend HF32 Eligible: 1 yes, 0 no, -1 unknown */
    struct pr_op_cost hf32_cost; /* cost, with class and dtype from the
                                    tasks where the op's own are unknown */
    unsigned algo;               /* PR_NAME_WINOGRAD / _FFT of its kernels */
    const struct pr_tc_off *off_simt, *off_fft; /* og's; NULL none */
    int mean_bwd; /* every call divided an expanded gradient (og) */
    const struct dev *dev;
};

struct pass {
    const struct pr_trace *t;
    const struct pr_roofline_in *in;
    struct dev *devs; /* owned */
    size_t n_devs;
    const struct dev *main_dev;
    struct ogs groups;
    struct row *rows; /* owned */
    size_t n_rows;
    int tf32_matmul, tf32_conv; /* TF32 kernels seen, by op kind */
    unsigned roofs;             /* bits 1 << pr_peak_kind of main-device
                                   roofs that some row is held to */
    int ok;                     /* sticky: 0 after an allocation failure */
};

/* --------------------------------------------------------------- devices */

static int
str_is(const char *s, const char *want)
{
    return s && strcmp(s, want) == 0;
}

static void
parse_cc(const char *s, int *major, int *minor)
{
    *major = *minor = -1;
    if (s && sscanf(s, "%d.%d", major, minor) != 2)
        *major = *minor = -1;
}

/* "gfx90a": a precise AMD target, not devices.c's "gfx9 (HIP 9.0)". */
static int
str_is_gfx(const char *s)
{
    return s && strncmp(s, "gfx", 3) == 0 && !strchr(s, ' ');
}

/* The device's peaks; an AMD device is matched by architecture and
 * compute units, its HIP version numbers being no compute capability. */
static void
lookup_device(const struct pr_device_row *d, struct dev *v,
              const struct pr_peak_table *tab, const struct pr_analysis_opts *o)
{
    struct pr_peak_query q = {d->name, -1, -1, 0, NULL, -1, 0, 0, 0};
    const char *arch = d->architecture;
    double sms = d->num_sms;

    parse_cc(d->compute_capability, &v->cc_major, &v->cc_minor);
    v->amd = str_is(d->vendor, "amd");
    v->mtia = str_is(d->vendor, "meta");
    v->npu = str_is(d->kind, "npu");
    q.cc_major = v->cc_major;
    q.cc_minor = v->cc_minor;
    q.amd = v->amd;
    q.arch = str_is_gfx(arch) ? arch : NULL;
    q.compute_units = isfinite(sms) ? (int)sms : -1;
    q.clock_mhz = isfinite(d->clock_mhz) ? d->clock_mhz : 0;
    q.gbps = isfinite(d->stated_gbps) ? d->stated_gbps : 0;
    q.memory_bytes = isfinite(d->memory_bytes) ? d->memory_bytes : 0;
    pr_peaks_lookup_query(tab, o, &q, &v->pk);
    arch = q.arch ? q.arch : v->pk.arch[0] ? v->pk.arch : NULL;
    if (v->amd && arch) /* gfx942 -> 9.4, for the fp8 check */
        (void)sscanf(arch, "gfx%1d%1d", &v->cc_major, &v->cc_minor);
}

/* Each device's peaks, into its row; an AMD device whose row named only
 * a family gets the table entry's architecture. */
static void
fill_devices(struct pass *p, const struct pr_peak_table *tab,
             const struct pr_analysis_opts *o)
{
    struct pr_device_rows *rows = p->in->devices;
    size_t i;

    if (rows == NULL || rows->n == 0)
        return;
    p->devs = calloc(rows->n, sizeof(*p->devs));
    if (!p->devs) {
        p->ok = 0;
        return;
    }
    for (i = 0; i < rows->n; i++) {
        struct pr_device_row *d = &rows->v[i];
        struct dev *v = &p->devs[p->n_devs++];

        v->row = d;
        v->id = (int)d->id;
        lookup_device(d, v, tab, o);
        d->peaks = v->pk;
        d->has_peaks = 1;
        if (v->amd && d->peaks.arch[0] && !str_is_gfx(d->architecture))
            d->architecture = d->peaks.arch;
    }
}

static const struct dev *
dev_by_id(const struct pass *p, int id)
{
    size_t i;

    for (i = 0; i < p->n_devs; i++) {
        if (p->devs[i].id == id)
            return &p->devs[i];
    }
    return NULL;
}

/* The device most kernel time ran on (pr_gpu_util_busiest()), else the
 * first. */
static void
pick_main_device(struct pass *p)
{
    p->main_dev = dev_by_id(p, p->in->main_device);
    if (!p->main_dev && p->n_devs > 0)
        p->main_dev = &p->devs[0];
    if (p->in->host_only) /* no device work: the operators are the CPU's */
        p->main_dev = NULL;
}

/* ------------------------------------------------- trace: per-group facts */

/* A key that links kernels to an op, and the group of that op: the op
 * event's index where the op tree links launches (by id or by time), else
 * the External id the op and its kernels share. */
struct ext_ref {
    int64_t ext;
    size_t group;
};

struct ext_refs {
    struct ext_ref *v; /* owned */
    size_t n, cap;
};

/* Sorted unique External ids. */
struct ext_set {
    int64_t *v; /* owned */
    size_t n;
};

/* Groups by (name, dims) text; distinct groups never compare equal. */
static int
cmp_og(const void *a, const void *b)
{
    const struct og *x = a, *y = b;
    int c = strcmp(x->name, y->name);

    return c != 0 ? c : strcmp(x->dims, y->dims);
}

static int
cmp_ext(const void *a, const void *b)
{
    const struct ext_ref *x = a, *y = b;

    if (x->ext != y->ext)
        return x->ext < y->ext ? -1 : 1;
    return x->group < y->group ? -1 : x->group > y->group;
}

/* Input Dims id of an op; absent dims read as "[]", so both share the id
 * of an interned "[]" (PR_STR_NONE when the trace has none). */
static uint32_t
op_dims(const struct pr_op_info *op, uint32_t empty)
{
    return op && op->input_dims != PR_STR_NONE ? op->input_dims : empty;
}

static int
cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

    return x < y ? -1 : (x > y);
}

/* The op event that launched a kernel on the tree: its node's event,
 * when that node is an operator (not a step, module or thread root);
 * PR_NO_ID otherwise. */
static int64_t
tree_op_of(const struct pr_trace *t, const struct pr_tree *tree,
           const struct pr_tree_dev *d)
{
    uint32_t node = pr_tree_dev_node(tree, d);
    uint32_t ev;

    if (node == PR_TREE_NONE)
        return PR_NO_ID;
    ev = tree->nodes[node].ev;
    if (ev == PR_TREE_NONE || t->events[ev].kind != PR_KIND_HOST_OP)
        return PR_NO_ID;
    return (int64_t)ev;
}

/* The key of kernel event e (ext_ref): its tree op's event index, or its
 * External id without a tree. */
static int64_t
kernel_key(const struct pr_trace *t, const struct pr_tree *tree,
           const struct pr_tree_dev *d, const struct pr_event *e)
{
    return tree != NULL ? tree_op_of(t, tree, d) : pr_event_external_id(t, e);
}

/* The event of the i-th kernel a walk over the trace meets: the tree's
 * device records in order, or every event; NULL for events that are no
 * kernel.  *d is the tree's record (NULL without a tree). */
static const struct pr_event *
kernel_at(const struct pr_trace *t, const struct pr_tree *tree, size_t i,
          const struct pr_tree_dev **d)
{
    const struct pr_event *e = &t->events[tree != NULL ? tree->devs[i].ev : i];

    *d = tree != NULL ? &tree->devs[i] : NULL;
    return e->kind == PR_KIND_DEVICE_TASK ? e : NULL;
}

/* The keys that some device task carries, sorted and unique: only ops
 * holding one of them can own kernels, so only theirs are indexed (a
 * fraction of all ops; every op's was 16 bytes plus qsort's copy, the
 * pass's peak, issue #17).  0 on out-of-memory. */
static int
kernel_exts(const struct pr_trace *t, const struct pr_tree *tree,
            struct ext_set *ks)
{
    size_t i, cap = 0, n = 0, n_k = tree != NULL ? tree->n_devs : t->n_events;

    memset(ks, 0, sizeof(*ks));
    for (i = 0; i < n_k; i++) {
        const struct pr_tree_dev *d;
        const struct pr_event *e = kernel_at(t, tree, i, &d);
        int64_t key = e != NULL ? kernel_key(t, tree, d, e) : PR_NO_ID;

        if (key == PR_NO_ID)
            continue;
        if (pr_grow((void **)&ks->v, &cap, n + 1, sizeof(*ks->v)) != PR_OK)
            return 0;
        ks->v[n++] = key;
    }
    if (n > 0)
        qsort(ks->v, n, sizeof(*ks->v), cmp_i64);
    for (i = 0; i < n; i++)
        if (ks->n == 0 || ks->v[ks->n - 1] != ks->v[i])
            ks->v[ks->n++] = ks->v[i];
    return 1;
}

static int
in_set(const struct ext_set *ks, int64_t id)
{
    size_t lo = 0, hi = ks->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (ks->v[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < ks->n && ks->v[lo] == id;
}

/* ------------------------- forward conv output size from the backward op */

int
pr_roofline_is_conv_bwd_node(const char *name)
{
    return strstr(name, "Convolution") != NULL &&
           strstr(name, "Backward") != NULL &&
           strstr(name, "Transpose") == NULL &&
           strncmp(name, "autograd::", 10) != 0;
}

unsigned
pr_roofline_conv_grads(const struct pr_trace *t, const struct pr_tree *tree,
                       uint32_t node)
{
    const struct pr_tree_node *nd;
    const char *nm;
    const uint32_t *kids;
    uint32_t k, nk;
    unsigned g = 0;

    if (t == NULL || tree == NULL || node >= tree->n_nodes)
        return 0;
    nd = &tree->nodes[node];
    if (nd->ev == PR_TREE_NONE)
        return 0;
    nm = pr_trace_str(t, pr_tree_name(t, tree, nd));
    if (nm == NULL || strstr(nm, "convolution_backward") == NULL ||
        pr_flops_conv_grad_of(nm) != 0)
        return 0;
    kids = pr_tree_kids(tree, nd);
    nk = pr_tree_n_kids(tree, nd);
    for (k = 0; k < nk; k++)
        g |= pr_flops_conv_grad_of(
            pr_trace_str(t, pr_tree_name(t, tree, &tree->nodes[kids[k]])));
    return g;
}

/* The first entry of a shape list ("[[32, 64, 112, 112]]" ->
 * [32, 64, 112, 112]); 0 when it is not a tensor. */
static int
first_shape(const struct pr_shape_list *l, struct pr_shape_arg *out)
{
    if (l->n == 0 || l->arg[0].is_list || l->arg[0].ndim <= 0)
        return 0;
    *out = l->arg[0];
    return 1;
}

/* Only a plain (non-transposed) conv fits: output [N, K, P..] with K the
 * weight's first dim and N the input's, every dim positive. */
static int
conv_shapes_fit(const struct pr_shape_arg *in, const struct pr_shape_arg *w,
                const struct pr_shape_arg *out)
{
    int i;

    if (in->is_list || w->is_list || in->ndim < 3 || in->ndim > 5 ||
        w->ndim != in->ndim || out->ndim != in->ndim)
        return 0;
    for (i = 0; i < in->ndim; i++) {
        if (in->dims[i] <= 0 || w->dims[i] <= 0 || out->dims[i] <= 0)
            return 0;
    }
    return out->dims[0] == in->dims[0] && out->dims[1] == w->dims[0] &&
           in->dims[1] % w->dims[1] == 0;
}

int
pr_roofline_conv_from_output(const struct pr_shape_list *input_shapes,
                             const struct pr_shape_list *output_shape,
                             struct pr_op_cost *cost)
{
    const struct pr_shape_list *l = input_shapes;
    struct pr_shape_arg out;
    int size = pr_dtype_size(cost->dtype);

    if (!l || !output_shape || !first_shape(output_shape, &out) || l->n < 2 ||
        !conv_shapes_fit(&l->arg[0], &l->arg[1], &out))
        return 0;
    /* 2*N*K*prod(out)*(C/g)*prod(kernel), as flops.c's f_conv */
    cost->flops = 2.0 * (double)l->arg[0].dims[0] * (double)l->arg[1].dims[0] *
                  (double)l->arg[1].dims[1] *
                  pr_dims_product(out.dims + 2, out.ndim - 2) *
                  pr_dims_product(l->arg[1].dims + 2, l->arg[1].ndim - 2);
    cost->bytes =
        size > 0 ? (double)size * ((double)l->arg[0].numel +
                                   (double)l->arg[1].numel + (double)out.numel)
                 : -1.0;
    cost->conv_k = l->arg[1].dims[0];
    return 1;
}

/* Sequence number -> grad_output dims (string id) of the conv backward
 * autograd node holding it; PR_STR_NONE when two such nodes disagree. */
int
pr_roofline_index_conv_bwd(const struct pr_trace *t, struct pr_idmap *m)
{
    size_t i;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        struct pr_op_info ob;
        const struct pr_op_info *op = pr_trace_op(t, e, &ob);
        size_t prev;

        if (e->kind != PR_KIND_HOST_OP || !op || op->seq < 0 ||
            op->input_dims == PR_STR_NONE ||
            !pr_roofline_is_conv_bwd_node(pr_trace_str(t, e->name)))
            continue;
        prev = pr_idmap_get(m, op->seq);
        if (prev != PR_NONE && prev != op->input_dims)
            prev = PR_STR_NONE;
        else
            prev = op->input_dims;
        if (pr_idmap_put(m, op->seq, prev, NULL) != PR_OK)
            return 0;
    }
    return 1;
}

/* Fold one call's backward-derived output shape into its group: usable
 * only when every call found one and all agree (never a guess). */
static void
note_output(const struct pr_trace *t, const struct pr_idmap *bwd,
            const struct pr_op_info *op, struct og *o)
{
    size_t id = op && op->seq >= 0 ? pr_idmap_get(bwd, op->seq) : PR_NONE;
    const char *dims;

    if (o->out_state == OUT_UNKNOWN)
        return;
    if (id == PR_NONE || id == PR_STR_NONE) {
        o->out_state = OUT_UNKNOWN;
        return;
    }
    dims = pr_trace_str(t, (uint32_t)id);
    if (o->out_state == OUT_SAME && strcmp(dims, o->out_dims) != 0) {
        o->out_state = OUT_UNKNOWN;
        return;
    }
    o->out_dims = dims;
    o->out_state = OUT_SAME;
}

/* Order the groups by (name, dims) text for find_group() and renumber the
 * External id map to match; 0 on out-of-memory. */
static int
sort_groups(struct ogs *g, struct ext_ref *ext, size_t n_ext)
{
    size_t *pos = malloc((g->n ? g->n : 1) * sizeof(*pos)), i;

    if (!pos)
        return 0;
    if (g->n > 1) /* g->v is NULL in a trace without ops */
        qsort(g->v, g->n, sizeof(*g->v), cmp_og);
    for (i = 0; i < g->n; i++)
        pos[g->v[i].first] = i;
    for (i = 0; i < n_ext; i++)
        ext[i].group = pos[ext[i].group];
    free(pos);
    return 1;
}

/* The group of (name, dims) ids, created on first sight; NULL on
 * out-of-memory.  Groups are numbered in order of first appearance. */
static struct og *
group_of(const struct pr_trace *t, struct ogs *g, struct pr_idmap *ids,
         uint32_t name, uint32_t dims, const struct pr_op_info *op)
{
    int64_t key = (int64_t)(((uint64_t)name << 32) | dims);
    size_t i = pr_idmap_get(ids, key);
    struct og *o;

    if (i != PR_NONE)
        return &g->v[i];
    if (pr_grow((void **)&g->v, &g->cap, g->n + 1, sizeof(*g->v)) != PR_OK ||
        pr_idmap_put(ids, key, g->n, NULL) != PR_OK)
        return NULL;
    o = &g->v[g->n];
    memset(o, 0, sizeof(*o));
    o->first = g->n++;
    o->name = pr_trace_str(t, name);
    o->dims = dims == PR_STR_NONE ? "[]" : pr_trace_str(t, dims);
    o->concrete = op && op->concrete_inputs != PR_STR_NONE
                      ? pr_trace_str(t, op->concrete_inputs)
                      : NULL;
    o->trace_flops = op ? op->flops : -1.0;
    o->device = -1;
    return o;
}

/* Fold one call's strides into its group: kept only when every call
 * recorded the same (calls with and without a broadcast input keep the
 * shapes' bytes, an upper bound). */
static void
note_strides(const struct pr_op_info *op, struct og *o)
{
    uint32_t st = op ? op->input_strides : PR_STR_NONE;

    if (o->calls++ == 0)
        o->strides = st;
    else if (st != o->strides)
        o->strides_mixed = 1;
    if (o->strides_mixed)
        o->strides = PR_STR_NONE;
}

/* One group per (name, dims) in one pass over the events in time order:
 * the first call gives the concrete inputs and flops arg.  ext maps the
 * keys in ks (those of kernels: op event indexes with a tree, External
 * ids without) to groups. */
static int
make_groups(const struct pr_trace *t, int by_tree, struct ogs *g,
            struct ext_refs *ext, const struct ext_set *ks,
            const struct pr_idmap *bwd)
{
    uint32_t empty = pr_strtab_find(t->strs, "[]", 2);
    struct pr_idmap ids = {0}; /* (name id, dims id) -> group */
    size_t i;
    int64_t key;
    int ok = 1;

    for (i = 0; i < t->n_events && ok; i++) {
        const struct pr_event *e = &t->events[i];
        struct pr_op_info ob;
        const struct pr_op_info *op = pr_trace_op(t, e, &ob);
        struct og *o;

        if (e->kind != PR_KIND_HOST_OP)
            continue;
        o = group_of(t, g, &ids, e->name, op_dims(op, empty), op);
        ok = o != NULL;
        if (!ok)
            break;
        note_output(t, bwd, op, o);
        note_strides(op, o);
        key = by_tree ? (int64_t)i : pr_event_external_id(t, e);
        if (key == PR_NO_ID || !in_set(ks, key))
            continue;
        ok = pr_grow((void **)&ext->v, &ext->cap, ext->n + 1,
                     sizeof(*ext->v)) == PR_OK;
        if (ok) {
            ext->v[ext->n].ext = key;
            ext->v[ext->n++].group = o->first;
        }
    }
    pr_idmap_free(&ids);
    return ok;
}

static const struct ext_ref *
find_ext(const struct ext_ref *ext, size_t n, int64_t id)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (ext[mid].ext < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && ext[lo].ext == id ? &ext[lo] : NULL;
}

/* A task whose work Ascend's Cube did, the tensor-core analog, whatever
 * its name: its counters, core and operator type say (cube.h). */
static int
on_cube(const struct pr_cube_ctx *cx, const struct pr_event *e,
        const struct pr_gpu_info *gi)
{
    return gi && pr_cube_task(cx, e->info, gi) == PR_CUBE_YES;
}

/* A producer's dtype list ("['FLOAT', 'FLOAT']", "FLOAT;DT_BF16") holds
 * an fp32 tensor. */
static int
has_fp32(const char *s)
{
    while (*s) {
        size_t n;

        s += strspn(s, "[]' ,;");
        n = strcspn(s, "[]' ,;");
        if ((n == 5 && strncasecmp(s, "float", 5) == 0) ||
            (n == 7 && strncasecmp(s, "float32", 7) == 0) ||
            (n == 8 && strncasecmp(s, "dt_float", 8) == 0))
            return 1;
        s += n;
    }
    return 0;
}

/* A producer's dtype list names some type ("FLOAT", "DT_BF16"), not only
 * UNKNOWN, N/A, NULL or END (MindSpore's framework_raw writes UNKNOWN, or
 * its enum's end NUMBER_TYPE_END, where it did not record the type). */
static int
has_known_dtype(const char *s)
{
    while (*s) {
        size_t n;

        s += strspn(s, "[]' ,;");
        n = strcspn(s, "[]' ,;");
        if (n > 0 && !(n == 7 && strncasecmp(s, "unknown", 7) == 0) &&
            !(n == 3 && strncasecmp(s, "n/a", 3) == 0) &&
            !(n == 4 && strncasecmp(s, "null", 4) == 0) &&
            !(n == 3 && strncasecmp(s, "end", 3) == 0)) /* NUMBER_TYPE_END */
            return 1;
        s += n;
    }
    return 0;
}

/* What an Ascend task says of its operator when the host op does not:
 * the op type (MatMulV2, Conv2DBackpropInput) and the device dtypes. */
static void
note_task(const struct pr_trace *t, const struct pr_gpu_info *gi, struct og *o)
{
    const char *type =
        gi->op_type != PR_STR_NONE ? pr_trace_str(t, gi->op_type) : "";

    if (gi->dev_types != PR_STR_NONE)
        o->task_fp32 |= has_fp32(pr_trace_str(t, gi->dev_types));
    if (o->task_cls != PR_OPC_OTHER)
        return;
    if (strncmp(type, "MatMul", 6) == 0 ||
        strncmp(type, "BatchMatMul", 11) == 0)
        o->task_cls = PR_OPC_GEMM;
    else if (strncmp(type, "Conv2D", 6) == 0 || strncmp(type, "Conv3D", 6) == 0)
        o->task_cls = PR_OPC_CONV;
}

/* A kernel of an operator that ran off tensor cores: an FFT convolution,
 * or a GEMM/conv on CUDA cores (review 28g #7), its time and name kept. */
static void
note_off_tc(const struct pr_trace *t, const struct pr_event *e, unsigned cls,
            struct og *o)
{
    struct pr_tc_off *k = (cls & PR_NAME_FFT)         ? &o->off_fft
                          : (cls & PR_NAME_SIMT_MATH) ? &o->off_simt
                                                      : NULL;
    const char *nm = pr_trace_str(t, e->name);
    size_t i;

    if (k == NULL)
        return;
    k->us += (double)e->dur_ns / 1000.0;
    for (i = 0; i < k->n_names && strcmp(k->names[i], nm) != 0; i++)
        ;
    if (i == k->n_names && k->n_names < PR_TC_OFF_NAMES)
        k->names[k->n_names++] = nm;
}

/* Kernel time of each group's own launches, split by tensor-core use:
 * the kernels the op tree gives each op (by id, or by time where ids do
 * not link: PyTorch 2.x), else those sharing its External id. */
static void
attribute_kernels(const struct pr_trace *t, const struct pr_tree *tree,
                  struct ogs *g, const struct ext_ref *ext, size_t n_ext)
{
    struct pr_names nc;
    struct pr_cube_ctx cx;
    size_t i, n_k = tree != NULL ? tree->n_devs : t->n_events;

    pr_names_init(&nc, t);
    pr_cube_init(t, &cx);
    for (i = 0; i < n_k; i++) {
        const struct pr_tree_dev *d;
        const struct pr_event *e = kernel_at(t, tree, i, &d);
        const struct ext_ref *r;
        struct pr_gpu_info gb;
        const struct pr_gpu_info *gi;
        unsigned cls;
        struct og *o;
        int64_t key = e != NULL ? kernel_key(t, tree, d, e) : PR_NO_ID;

        if (key == PR_NO_ID)
            continue;
        r = find_ext(ext, n_ext, key);
        if (!r)
            continue;
        o = &g->v[r->group];
        cls = pr_names_get(&nc, e->name);
        gi = pr_trace_gpu(t, e, &gb);
        o->k_ns = pr_sat_add_i64(o->k_ns, e->dur_ns);
        o->tc_ns = pr_sat_add_i64(
            o->tc_ns,
            (cls & PR_NAME_TC) || on_cube(&cx, e, gi) ? e->dur_ns : 0);
        o->hf32_no |= gi && gi->hf32 == 0;
        o->hf32_yes |= gi && gi->hf32 == 1;
        if (gi)
            note_task(t, gi, o);
        o->heur_ns =
            pr_sat_add_i64(o->heur_ns, cls & PR_NAME_TC_HEUR ? e->dur_ns : 0);
        o->tf32 |= (cls & PR_NAME_TF32) != 0;
        if (!(cls & PR_NAME_KNOWN) && !(gi && gi->unit != PR_UNIT_UNKNOWN))
            o->unknown_ns = pr_sat_add_i64(o->unknown_ns, e->dur_ns);
        if (d != NULL && d->rt < tree->n_rts &&
            (pr_ops_kernel_by_name(&nc, tree, tree->rts[d->rt].node, e->name) &
             PR_NAME_GEMM_FP32_SIMT))
            o->named_ns = pr_sat_add_i64(o->named_ns, e->dur_ns);
        if ((cls & PR_NAME_SIMT_MATH) && e->dur_ns >= o->fp32_ns) {
            o->fp32_kernel = pr_trace_str(t, e->name);
            o->fp32_ns = e->dur_ns;
        }
        o->algo |= cls & (PR_NAME_WINOGRAD | PR_NAME_FFT);
        if (!(cls & PR_NAME_TC) && !on_cube(&cx, e, gi))
            note_off_tc(t, e, cls, o);
        if (o->device < 0 && gi)
            o->device = gi->device;
    }
    pr_names_free(&nc);
}

static const struct og *find_group(const struct ogs *g, const char *name,
                                   const char *dims);

/* The most elements one tensor of a recorded shape text holds; 0 none. */
static double
max_numel(const struct pr_trace *t, uint32_t dims, struct pr_op_inputs *in)
{
    double m = 0.0;
    size_t i;

    if (dims == PR_STR_NONE)
        return 0.0;
    pr_shapes_get(t, dims, PR_STR_NONE, PR_STR_NONE, in);
    if (in->st != PR_OK)
        return 0.0;
    for (i = 0; i < in->shapes.n; i++) {
        const struct pr_shape_arg *a = &in->shapes.arg[i];

        if (!a->is_list && a->ndim > 0 && (double)a->numel > m)
            m = (double)a->numel;
    }
    return m;
}

struct evidence {
    struct pr_op_inputs *in; /* scratch */
    uint32_t *stack;         /* scratch */
    size_t cap;
    uint64_t *seen; /* a bit per tree node: its call counted */
};

/* Count node c's call in its group when it has no strides of its own and
 * its input holds more than `grad` elements. */
static void
count_call(const struct pr_trace *t, const struct pr_tree *tree, uint32_t c,
           double grad, struct ogs *g, struct evidence *ev)
{
    const struct pr_event *e = &t->events[tree->nodes[c].ev];
    struct pr_op_info ob;
    const struct pr_op_info *op =
        e->kind == PR_KIND_HOST_OP ? pr_trace_op(t, e, &ob) : NULL;
    const struct og *o;

    if (!op || op->input_strides != PR_STR_NONE ||
        !(max_numel(t, op->input_dims, ev->in) > grad))
        return;
    o = find_group(g, pr_trace_str(t, e->name),
                   pr_trace_str(t, op->input_dims));
    if (o) {
        g->v[o - g->v].mean_bwd++;
        ev->seen[c / 64] |= (uint64_t)1 << (c % 64);
    }
}

/* Count the calls under MeanBackward node m (not those under an autograd
 * node nested in it) whose input holds more than `grad` elements; 0 on
 * out-of-memory. */
static int
mean_bwd_calls(const struct pr_trace *t, const struct pr_tree *tree, uint32_t m,
               double grad, struct ogs *g, struct evidence *ev)
{
    size_t n = 0;

    if (pr_grow((void **)&ev->stack, &ev->cap, 1, sizeof(*ev->stack)) != PR_OK)
        return 0;
    ev->stack[n++] = m;
    while (n > 0) {
        const struct pr_tree_node *nd = &tree->nodes[ev->stack[--n]];
        const uint32_t *kids = pr_tree_kids(tree, nd);
        uint32_t k, nk = pr_tree_n_kids(tree, nd);

        if (pr_grow((void **)&ev->stack, &ev->cap, n + nk,
                    sizeof(*ev->stack)) != PR_OK)
            return 0;
        for (k = 0; k < nk; k++) {
            const struct pr_tree_node *c = &tree->nodes[kids[k]];

            if (c->ev == PR_TREE_NONE ||
                strstr(pr_trace_str(t, t->events[c->ev].name), "Backward") !=
                    NULL)
                continue; /* another autograd node's work */
            ev->stack[n++] = kids[k];
            count_call(t, tree, kids[k], grad, g, ev);
        }
    }
    return 1;
}

/* Evidence of a broadcast input where no strides were recorded: PyTorch's
 * backward of mean (derivatives.yaml: MeanBackward0 grad.expand(sizes) /
 * numel, MeanBackward1 sum_backward(grad, ...) / numel, sum_backward an
 * expand) divides an expanded view of the gradient it received, so the
 * call's input holds only as many distinct elements as that gradient.
 * Counted per group: the calls inside such a node whose input holds more
 * elements than any gradient tensor the node received, without strides
 * of their own.  0 on out-of-memory. */
static int
bcast_evidence(const struct pr_trace *t, const struct pr_tree *tree,
               struct ogs *g)
{
    struct evidence ev = {malloc(sizeof(*ev.in)), NULL, 0,
                          calloc(tree->n_nodes / 64 + 1, sizeof(uint64_t))};
    size_t i;
    int ok = ev.in != NULL && ev.seen != NULL;

    for (i = 0; i < tree->n_nodes && ok; i++) {
        const struct pr_tree_node *n = &tree->nodes[i];
        const struct pr_event *e;
        struct pr_op_info ob;
        const struct pr_op_info *op;
        double grad;

        if (n->ev == PR_TREE_NONE || n->dropped)
            continue;
        e = &t->events[n->ev];
        if (e->kind != PR_KIND_HOST_OP ||
            strstr(pr_trace_str(t, e->name), "MeanBackward") == NULL)
            continue;
        op = pr_trace_op(t, e, &ob);
        grad = op ? max_numel(t, op->input_dims, ev.in) : 0.0;
        if (grad > 0)
            ok = mean_bwd_calls(t, tree, (uint32_t)i, grad, g, &ev);
    }
    /* a call the tree folded into its caller of the same name (5.1.5:
       PyTorch 1.8's aten::div inside the aten::div MeanBackward1 calls)
       counts with that caller */
    for (i = 0; i < tree->n_nodes && ok; i++) {
        const struct pr_tree_node *n = &tree->nodes[i];

        if (n->dropped && n->ev != PR_TREE_NONE && n->parent != PR_TREE_NONE &&
            ((ev.seen[n->parent / 64] >> (n->parent % 64)) & 1))
            count_call(t, tree, (uint32_t)i, 0.0, g, &ev);
    }
    free(ev.stack);
    free(ev.seen);
    free(ev.in);
    return ok;
}

/* The calls of a convolution backward that computed one gradient only,
 * as their inner ops show (pr_roofline_conv_grads), counted per group. */
static void
conv_grad_calls(const struct pr_trace *t, const struct pr_tree *tree,
                struct ogs *g)
{
    uint32_t empty = pr_strtab_find(t->strs, "[]", 2);
    size_t i;

    for (i = 0; i < tree->n_nodes; i++) {
        const struct pr_tree_node *n = &tree->nodes[i];
        unsigned h;
        struct pr_op_info ob;
        const struct pr_op_info *op;
        const struct og *o;
        uint32_t dims;

        if (n->ev == PR_TREE_NONE || n->dropped)
            continue;
        h = pr_roofline_conv_grads(t, tree, (uint32_t)i);
        if (h != PR_CONV_GRAD_INPUT && h != PR_CONV_GRAD_WEIGHT)
            continue;
        op = pr_trace_op(t, &t->events[n->ev], &ob);
        dims = op_dims(op, empty);
        o = find_group(g, pr_trace_str(t, t->events[n->ev].name),
                       dims == PR_STR_NONE ? "[]" : pr_trace_str(t, dims));
        if (o)
            g->v[o - g->v].one_grad[h]++;
    }
}

/* Build the group index; 0 on out-of-memory. */
static int
index_trace(const struct pr_trace *t, const struct pr_tree *tree, struct ogs *g)
{
    struct ext_refs ext = {0};
    struct ext_set ks = {0};
    struct pr_idmap bwd = {0};
    int ok;

    memset(g, 0, sizeof(*g));
    if (!t)
        return 1;
    ok = kernel_exts(t, tree, &ks) && pr_roofline_index_conv_bwd(t, &bwd) &&
         make_groups(t, tree != NULL, g, &ext, &ks, &bwd);
    free(ks.v);
    pr_idmap_free(&bwd);
    if (ok)
        ok = sort_groups(g, ext.v, ext.n);
    if (ok && tree)
        ok = bcast_evidence(t, tree, g);
    if (ok && tree)
        conv_grad_calls(t, tree, g);
    if (ok && ext.n > 0) {
        qsort(ext.v, ext.n, sizeof(*ext.v), cmp_ext);
        attribute_kernels(t, tree, g, ext.v, ext.n);
    }
    free(ext.v);
    return ok;
}

static const struct og *
find_group(const struct ogs *g, const char *name, const char *dims)
{
    size_t lo = 0, hi = g->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(g->v[mid].name, name);

        if (c == 0)
            c = strcmp(g->v[mid].dims, dims);
        if (c == 0)
            return &g->v[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* ------------------------------------------------------------- op rows */

static int
is_low_precision(enum pr_dtype dt)
{
    return dt == PR_DT_FP16 || dt == PR_DT_BF16 || dt == PR_DT_FP8 ||
           dt == PR_DT_INT8 || dt == PR_DT_UINT8;
}

/* What one row is measured against. */
struct rate_in {
    double flops, bytes, dev_us; /* all calls; NaN unknown */
    const char *flops_src;       /* where the FLOPs come from; NULL */
    double calls;
    enum pr_dtype dt;
    int tc_roof;
    unsigned algo; /* PR_NAME_WINOGRAD / _FFT */
    const struct dev *dev;
    int bcast; /* an input is a broadcast view whose bytes the shapes
                  count in full (row.mean_bwd) */
};

/* Why a point may sit above its roof, or null.  Winograd and FFT
 * convolutions execute fewer FLOPs than the nominal count reported; a
 * memory-bound operator can beat DRAM bandwidth by as much as the
 * last-level cache holds of its traffic (the input the kernel before it
 * left there, the output the cache absorbs): when the traffic beyond one
 * cache-full fits under DRAM bandwidth, the cache explains the point (an
 * in-place relu_ of 6.4 MB on a V100's 6 MiB L2 reads 12.8 MB at 126%);
 * anything else above 100% means the FLOP or byte model counts more than
 * the kernels did.  Only a point above 100% gets a mark: the algorithm
 * chooses which (review 32g #6: tb_resnet50's by-name
 * aten::cudnn_convolution, 1x1, 3x3 and 7x7 convolutions summed, sat at
 * 78.9% of its roof and was marked winograd). */
static const char *
roof_mark(const struct rate_in *in, const char *bound, double pct)
{
    double calls = in->calls > 0 ? in->calls : 1.0;
    double per_call = in->bytes / calls, call_s = in->dev_us / calls / 1e6;
    double cache = in->dev ? in->dev->pk.cache_bytes : NAN;
    double bw = in->dev ? in->dev->pk.gbps * 1e9 : NAN;

    if (!(pct > 100.0))
        return NULL; /* under its roof (or unplaced): nothing to excuse */
    if (in->algo & PR_NAME_WINOGRAD)
        return "winograd";
    if (in->algo & PR_NAME_FFT)
        return "fft";
    if (strcmp(bound, "memory") == 0 && in->bcast)
        return PR_MARK_BROADCAST_INPUT;
    if (strcmp(bound, "memory") == 0 &&
        (per_call <= cache ||
         (call_s > 0 && (per_call - cache) / call_s <= bw)))
        return "cache_resident";
    return "model_overcount";
}

/* Rates and the roofline position of one row.  The compute roof follows the
 * dtype: tensor cores when the op used them, or could (an eligible 16/8-bit
 * op is held to the tensor-core roof either way); fp32 counts as TF32 only
 * when it did run on tensor cores.  A point above its roof gets a
 * roofline_mark saying why (roof_mark). */
static void
write_rates(struct pass *p, struct pr_op_rate *o, const struct rate_in *in)
{
    const struct dev *dev = in->dev;
    double secs = in->dev_us > 0 ? in->dev_us * 1e-6 : NAN;
    double tflops = in->flops / secs / 1e12, gbps = in->bytes / secs / 1e9;
    double ai = in->bytes > 0 ? in->flops / in->bytes : NAN;
    enum pr_peak_kind kind =
        dev ? pr_peaks_kind(&dev->pk, in->dt, in->tc_roof) : PR_PEAK_FP32;
    double peak = dev ? dev->pk.tflops[kind] : NAN;
    double bw = dev ? dev->pk.gbps : NAN;
    double ridge = peak * 1e12 / (bw * 1e9), pct = NAN;
    const char *bound = "unknown";

    if (isfinite(ai) && isfinite(ridge)) {
        bound = ai < ridge ? "memory" : "compute";
        pct = ai < ridge ? 100.0 * gbps / bw : 100.0 * tflops / peak;
        if (dev == p->main_dev && isfinite(tflops))
            p->roofs |= 1u << kind;
    }
    o->set = 1;
    o->flops = in->flops;
    o->flops_src = isfinite(in->flops) ? in->flops_src : NULL;
    o->bytes = in->bytes;
    o->tflops = tflops;
    o->gbps = gbps;
    o->ai = ai;
    o->bound = bound;
    o->pct = pct;
    o->mark = roof_mark(in, bound, pct);
    if (o->mark && strcmp(o->mark, PR_MARK_BROADCAST_INPUT) == 0)
        o->pct = NAN; /* of bytes the kernels did not move: no share */
    o->dtype = in->dt == PR_DT_UNKNOWN ? NULL : pr_dtype_name(in->dt);
}

/* Held to the tensor-core roof: ops that ran on tensor cores, eligible
 * 16-bit ops, and on an NPU every matmul and convolution (Ascend runs them
 * on the Cube; its tasks are not joined to the op rows here, so the
 * vector roof would put a matmul at several times 100%). */
static int
row_tc_roof(const struct row *r)
{
    int matrix = r->cost.cls == PR_OPC_GEMM || r->cost.cls == PR_OPC_CONV ||
                 r->cost.cls == PR_OPC_CONV_BWD ||
                 r->cost.cls == PR_OPC_ATTENTION;

    return r->on_tc || (r->eligible && is_low_precision(r->cost.dtype)) ||
           (r->dev && r->dev->npu && matrix);
}

/* A conv's output shape from its backward op (issue #4), when its own
 * estimate lacked the stride/padding/dilation it needed. */
static void
conv_from_bwd(const struct pass *p, const struct og *g,
              const struct pr_op_inputs *in, struct pr_op_cost *cost)
{
    struct pr_op_inputs *out = malloc(sizeof(*out));

    if (!out)
        return;
    pr_shapes_get_text(p->t, g->out_dims, NULL, NULL, out);
    if (out->st == PR_OK && in->has_shapes)
        (void)pr_roofline_conv_from_output(&in->shapes, &out->shapes, cost);
    free(out);
}

/* A conv backward's calls that computed one gradient only (og.one_grad)
 * count that one pass, not the two the formula takes without a recorded
 * output_mask: r's totals, and its per-call cost when every call did. */
static void
one_grad_calls(const struct og *g, struct pr_op_call *call, struct row *r)
{
    unsigned h;
    double both = r->calls;

    for (h = PR_CONV_GRAD_INPUT; h <= PR_CONV_GRAD_WEIGHT; h++) {
        struct pr_op_cost one;
        struct pr_error e = {PR_OK, ""};
        double n = (double)g->one_grad[h];

        if (n <= 0 || n > both)
            continue;
        call->conv_grads = h;
        if (pr_flops_estimate(call, &one, &e) != PR_OK)
            continue;
        both -= n;
        r->flops = one.flops >= 0 && r->cost.flops >= 0
                       ? r->flops - (r->cost.flops - one.flops) * n
                       : NAN;
        r->bytes = one.bytes >= 0 && r->cost.bytes >= 0
                       ? r->bytes - (r->cost.bytes - one.bytes) * n
                       : NAN;
        if (both == 0)
            r->cost = one;
    }
    call->conv_grads = 0;
}

static void
estimate_row(const struct pass *p, struct pr_op_row *src, struct row *r,
             struct pr_op_inputs *in)
{
    struct pr_op_call call = {NULL, NULL, -1.0, 0};
    struct pr_error e = {PR_OK, ""};
    const struct og *g = NULL;
    double measured;

    r->src = src;
    r->name = src->name;
    r->shapes = src->shapes;
    r->calls = (double)src->calls;
    r->dev_self_us = (double)src->dev_self_ns / 1000.0;
    r->dev_total_us = (double)src->dev_total_ns / 1000.0;
    if (r->name && p->groups.n)
        g = find_group(&p->groups, r->name, r->shapes ? r->shapes : "[]");
    /* parsed at ingest when the trace is here; a summary's text otherwise */
    pr_shapes_get_text(p->t, r->shapes, src->types, g ? g->concrete : NULL, in);
    pr_shapes_get_strides(
        p->t,
        g && g->strides != PR_STR_NONE ? pr_trace_str(p->t, g->strides) : NULL,
        in);
    call.name = r->name;
    call.in = in;
    call.trace_flops = g ? g->trace_flops : -1.0;
    if (pr_flops_estimate(&call, &r->cost, &e) != PR_OK)
        r->cost.flops = r->cost.bytes = -1.0; /* malformed text: unknown */
    /* no Concrete Inputs: the output size from the backward op (issue #4) */
    if (r->cost.cls == PR_OPC_CONV && r->cost.flops < 0 && g &&
        g->out_state == OUT_SAME)
        conv_from_bwd(p, g, in, &r->cost);
    r->flops = r->cost.flops >= 0 ? r->cost.flops * r->calls : NAN;
    r->bytes = r->cost.bytes >= 0 ? r->cost.bytes * r->calls : NAN;
    if (g && r->cost.cls == PR_OPC_CONV_BWD)
        one_grad_calls(g, &call, r);
    r->flops_src = r->cost.flops_from_trace ? "trace" : "formula";
    measured = pr_ops_measured(src) ? src->measured_flops : NAN;
    if (isfinite(measured)) { /* what the kernels did beats any formula */
        r->flops = measured;
        r->flops_src = "measured";
    }
    r->eligible = pr_tensorcore_op_eligible(r->name, NULL) || src->tc_eligible;
    r->tc_self_us = g ? (double)g->tc_ns / 1000.0
                      : pr_ops_tc_self_pct(src) / 100.0 * r->dev_self_us;
    if (!isfinite(r->tc_self_us))
        r->tc_self_us = 0.0;
    r->on_tc = r->tc_self_us > 0 || pr_ops_tc_total_pct(src) > 0;
    /* a GEMV (aten::mv, aten::addmv, or a GEMM whose M or N is 1) runs
       cuBLAS's gemv kernels on CUDA cores: no tensor-core path to miss,
       though the plugin's list (its own figures keep it) names mv; a GEMM
       whose K is 1 (an outer product) is as memory-bound */
    if (!r->on_tc && pr_tensorcore_op_gemv(r->name, &r->cost))
        r->eligible = 0;
    r->tf32 = g ? g->tf32 : 0;
    r->unknown = g ? g->unknown_ns > 0 : 0;
    r->fp32_kernel = g ? g->fp32_kernel : NULL;
    r->named_us = g ? (double)g->named_ns / 1000.0 : 0.0;
    /* no recorded dtype (an nsys export without shapes, a trace without
       record_shapes): an FFMA fp32 GEMM kernel says what it was */
    if (r->fp32_kernel &&
        (r->cost.dtype == PR_DT_UNKNOWN || r->cost.dtype == PR_DT_NONE))
        r->cost.dtype = PR_DT_FP32;
    r->hf32 = !g ? -1 : g->hf32_no ? 0 : g->hf32_yes ? 1 : -1;
    r->hf32_cost = r->cost;
    if (g && g->task_cls != PR_OPC_OTHER && r->cost.cls == PR_OPC_OTHER)
        r->hf32_cost.cls = (enum pr_op_class)g->task_cls;
    if (g && g->task_fp32 &&
        (r->cost.dtype == PR_DT_UNKNOWN || r->cost.dtype == PR_DT_NONE))
        r->hf32_cost.dtype = PR_DT_FP32;
    r->algo = g ? g->algo : 0;
    r->off_simt = g ? &g->off_simt : NULL;
    r->off_fft = g ? &g->off_fft : NULL;
    r->mean_bwd = g && g->calls > 0 && g->mean_bwd == g->calls;
    r->dev = g && g->device >= 0 ? dev_by_id(p, g->device) : NULL;
    if (!r->dev)
        r->dev = p->main_dev;
}

static int
is_conv_row(const struct row *r)
{
    return r->cost.cls == PR_OPC_CONV || r->cost.cls == PR_OPC_CONV_BWD;
}

/* A convolution by its shapes or, where the trace recorded none (no
 * Input Dims: the formula found no class), by its operator's name. */
static int
is_conv_op(const struct row *r)
{
    return is_conv_row(r) ||
           (r->cost.cls == PR_OPC_OTHER && pr_tensorcore_op_is_conv(r->name));
}

/* TF32 kernels seen in this run, by the switch that governs them:
 * cudnn.allow_tf32 for convolutions, cuda.matmul.allow_tf32 for the rest. */
static void
note_tf32(struct pass *p, const struct row *r)
{
    if (!r->tf32)
        return;
    if (is_conv_op(r))
        p->tf32_conv = 1;
    else
        p->tf32_matmul = 1;
}

/* A convolution row without kernels of its own (aten::conv2d above
 * aten::cudnn_convolution) computes through its children: when the run's
 * convolutions used Winograd or FFT kernels, its nominal FLOPs are not
 * what ran either. */
static void
inherit_algo(struct pass *p)
{
    unsigned seen = 0;
    size_t i;

    for (i = 0; i < p->n_rows; i++)
        seen |= is_conv_row(&p->rows[i]) ? p->rows[i].algo : 0;
    for (i = 0; seen && i < p->n_rows; i++) {
        struct row *r = &p->rows[i];

        if (is_conv_row(r) && !(r->dev_self_us > 0))
            r->algo = seen;
    }
}

/* Whether row g's device time is all copies between the host and a
 * device (tb_resnet50's aten::copy_ of the [32, 3, 224, 224] input): its
 * bytes cross the host link, never device memory, so it is no point of
 * the device-memory roofline (issue #29, review 20 finding 9). */
static int
host_copy_only(const struct pr_op_row *g)
{
    return !(g->unknown & PR_OP_ROW_NO_DEVICE) && g->host_copy_total_ns > 0 &&
           g->host_copy_total_ns >= g->dev_total_ns;
}

/* A host copy's row: its bytes are the copies' own, each byte once (null
 * when a copy's record has none), its rate theirs over their time, held
 * to no roof: roofline_mark "host_copy" says so, and the copies' finding
 * judges them against the host link. */
static void
write_copy_rates(struct pr_op_rate *o, double flops, const char *flops_src,
                 const struct pr_op_row *g, enum pr_dtype dt)
{
    double secs = (double)g->dev_total_ns * 1e-9;
    double bytes = g->host_copy_total_bytes;

    o->set = 1;
    o->flops = flops;
    o->flops_src = isfinite(flops) ? flops_src : NULL;
    o->bytes = bytes;
    o->tflops = flops / secs / 1e12;
    o->gbps = bytes / secs / 1e9;
    o->ai = NAN;
    o->bound = "unknown";
    o->pct = NAN;
    o->mark = "host_copy";
    o->dtype = dt == PR_DT_UNKNOWN ? NULL : pr_dtype_name(dt);
}

/* A row whose device time is partly host copies (hta_diff_test's
 * aten::copy_ of [1024, 1705]: 5.9 of 6.1 ms) is measured on the rest:
 * the copies' time apart, and their bytes, which the formula counts
 * twice (read and write) and the link carries once (recommend.c's
 * device_gbps does the same); unknown when their records give no bytes
 * or the formula counted fewer. */
static void
apart_copies(struct row *r)
{
    const struct pr_op_row *g = r->src;
    double hb = g->host_copy_total_bytes;

    r->roof_us = r->dev_total_us;
    if (host_copy_only(g) || g->host_copy_total_ns <= 0)
        return;
    r->roof_us = (double)(g->dev_total_ns - g->host_copy_total_ns) / 1000.0;
    r->bytes = isfinite(hb) && r->bytes >= 2.0 * hb ? r->bytes - 2.0 * hb : NAN;
}

static void
fill_shape_rows(struct pass *p)
{
    struct pr_op_rows *rows = &p->in->ops->by_shape;
    size_t i;
    struct pr_op_inputs *in;

    if (rows->n == 0)
        return;
    p->rows = calloc(rows->n, sizeof(*p->rows));
    in = malloc(sizeof(*in));
    if (!p->rows || !in) {
        free(in);
        p->ok = 0;
        return;
    }
    for (i = 0; i < rows->n; i++) {
        estimate_row(p, &rows->v[i], &p->rows[p->n_rows], in);
        note_tf32(p, &p->rows[p->n_rows++]);
    }
    free(in);
    inherit_algo(p);
    for (i = 0; i < p->n_rows; i++) {
        struct row *r = &p->rows[i];
        struct rate_in ri;

        apart_copies(r);
        ri.flops = r->flops;
        ri.flops_src = r->flops_src;
        ri.bytes = r->bytes;
        ri.dev_us = r->roof_us;
        ri.calls = r->calls;
        ri.dt = r->cost.dtype;
        ri.tc_roof = row_tc_roof(r);
        ri.algo = is_conv_row(r) ? r->algo : 0;
        ri.dev = r->dev;
        ri.bcast = r->mean_bwd;
        if (host_copy_only(r->src))
            write_copy_rates(&r->src->rate, r->flops, r->flops_src, r->src,
                             r->cost.dtype);
        else
            write_rates(p, &r->src->rate, &ri);
    }
}

/* Whether shape row r counts in its name's rate: where some shape of the
 * name ran on the device, only those that did and are not host copies.
 * Bytes without device time are no traffic of the time the rate divides
 * by (npu_db1's aten::to: the 38.5 MB host-to-device input copy, whose
 * transfer the trace holds no task of, over 2.58 us of other calls' tasks
 * made 14.9 TB/s, 933% of HBM, review 20 finding 9). */
static int
in_name_rate(const struct row *r, int any_dev)
{
    return !any_dev || (r->dev_total_us > 0 && !host_copy_only(r->src));
}

/* operators[] (by name): sums of the by-shape rows, unknown as soon as one
 * shape of that name is; dtype and device from its busiest shape.  The
 * tensor-core roof applies when any shape used it: a name whose shapes mix
 * TC and non-TC kernels is held to the higher roof, so mixing can never
 * push its percentage above what either kind of kernel could reach. */
static void
fill_name_row(struct pass *p, struct pr_op_row *o)
{
    const char *name = o->name;
    const struct row *top = NULL;
    struct rate_in in = {0.0,           0.0, NAN, NULL, 0.0,
                         PR_DT_UNKNOWN, 0,   0,   NULL, 0};
    const struct row *ctop = NULL; /* the busiest host-copy shape */
    double cflops = 0.0;
    int64_t copy_ns = 0;
    int any_dev = 0;
    size_t i;

    for (i = 0; name && i < p->n_rows; i++)
        any_dev |= p->rows[i].name && strcmp(p->rows[i].name, name) == 0 &&
                   p->rows[i].dev_total_us > 0;
    for (i = 0; name && i < p->n_rows; i++) {
        const struct row *r = &p->rows[i];

        if (!r->name || strcmp(r->name, name) != 0)
            continue;
        if (!in_name_rate(r, any_dev)) {
            if (host_copy_only(r->src)) {
                copy_ns = pr_sat_add_i64(copy_ns, r->src->dev_total_ns);
                cflops += r->flops;
                if (!ctop || r->dev_total_us > ctop->dev_total_us)
                    ctop = r;
            }
            continue;
        }
        copy_ns = pr_sat_add_i64(copy_ns, r->src->host_copy_total_ns);
        in.flops += r->flops; /* NaN is sticky */
        in.flops_src = !in.flops_src || strcmp(in.flops_src, r->flops_src) == 0
                           ? r->flops_src
                           : "mixed";
        in.bytes += r->bytes;
        in.calls += isfinite(r->calls) ? r->calls : 0.0;
        in.tc_roof |= row_tc_roof(r);
        in.algo |= is_conv_row(r) ? r->algo : 0;
        in.bcast |= r->mean_bwd;
        if (!top || r->dev_total_us > top->dev_total_us)
            top = r;
    }
    if (!top && ctop && host_copy_only(o)) {
        write_copy_rates(&o->rate, cflops, ctop->flops_src, o,
                         ctop->cost.dtype);
        return;
    }
    if (!top) {
        in.flops = in.bytes = NAN;
        in.dev = p->main_dev;
        write_rates(p, &o->rate, &in);
        return;
    }
    in.dev_us = (double)(o->dev_total_ns - copy_ns) / 1000.0;
    in.dt = top->cost.dtype;
    in.dev = top->dev;
    write_rates(p, &o->rate, &in);
}

static void
fill_name_rows(struct pass *p)
{
    struct pr_op_rows *rows = &p->in->ops->by_name;
    size_t i;

    for (i = 0; i < rows->n; i++)
        fill_name_row(p, &rows->v[i]);
}

/* The tensor roof of the 8- and 4-bit formats a kernel's matrix
 * instruction ran in; -1 for any other (those follow the operators'
 * dtypes). */
static int
kprec_roof(int prec)
{
    switch (prec) {
    case PR_KP_FP8_E4M3:
    case PR_KP_FP8_E5M2:
    case PR_KP_FP8:
    case PR_KP_MXFP8:
        return PR_PEAK_FP8;
    case PR_KP_MXFP4:
    case PR_KP_NVFP4:
    case PR_KP_FP4:
        return PR_PEAK_FP4;
    default:
        return -1;
    }
}

/* The roofs of the formats the run's tensor-core kernels ran in (hunt30
 * #10): an operator's dtype is that of its inputs (a bf16 MoE layer), while
 * its kernels quantize them and run FP8 or FP4 matrix math; the roof of
 * that precision is drawn beside the operators', by the precision the
 * instruction ran in (MXFP4 weights x MXFP8 activations: the FP8 roof, not
 * the FP4 one).  Only where a chart is drawn. */
static void
add_kernel_roofs(struct pass *p)
{
    const struct pr_kernel_refs *ks = p->in->kernels;
    size_t i;

    if (!p->main_dev || !p->roofs || ks == NULL)
        return;
    for (i = 0; i < ks->n; i++) {
        const struct pr_kernel_ref *k = &ks->v[i];
        int kind = kprec_roof(k->mma_precision);

        if (kind < 0 || k->by_unit || !k->tc_used || k->total_ns <= 0 ||
            !isfinite(p->main_dev->pk.tflops[kind]))
            continue;
        p->roofs |= 1u << kind;
    }
}

/* The roofs the reports draw: only those some operator of the run is held
 * to on the main device (an fp32 run on a V100 gets no fp16 tensor roof),
 * with one label each, so HTML and PDF name them alike. */
static cJSON *
roofs_json(struct pass *p)
{
    static const enum pr_peak_kind order[] = {
        PR_PEAK_FP64, PR_PEAK_FP32, PR_PEAK_FP32_MATRIX,
        PR_PEAK_TF32, PR_PEAK_BF16, PR_PEAK_FP16,
        PR_PEAK_FP8,  PR_PEAK_FP4,  PR_PEAK_INT8,
    };
    const struct dev *d = p->main_dev;
    struct pr_row_roofline r;
    cJSON *o, *arr;
    size_t i;

    if (!d || !p->roofs)
        return cJSON_CreateNull();
    arr = cJSON_CreateArray();
    p->ok = arr != NULL;
    for (i = 0; p->ok && i < sizeof(order) / sizeof(order[0]); i++) {
        double t = d->pk.tflops[order[i]];
        struct pr_row_roof row;

        if (!(p->roofs & (1u << order[i])) || !isfinite(t))
            continue;
        /* the device table's Ascend fp32 peak is the Vector units' (vector
           cores x clock x 32 FLOP): the Cube's own fp32/HF32 rate is not
           published, so the roof says whose it is (review28a #5); a peak
           from the command line is the user's */
        row = (struct pr_row_roof){pr_peaks_key(order[i]),
                                   d->npu && order[i] == PR_PEAK_FP32 &&
                                           d->pk.origin != PR_PEAK_CLI
                                       ? "FP32 Vector"
                                       : pr_peaks_label(order[i]),
                                   t};
        p->ok = pr_rows_write(arr, PR_RO_RUNS_ROOFLINE_ROOFS, &row, 1);
    }
    if (!p->ok) {
        cJSON_Delete(arr);
        return NULL;
    }
    memset(&r, 0, sizeof(r));
    r.device = d->id;
    r.peak_gbps = d->pk.gbps;
    r.roofs = arr;
    o = pr_rows_row(PR_RO_RUNS_ROOFLINE, &r);
    cJSON_Delete(arr);
    p->ok = o != NULL;
    return o;
}

/* ----------------------------------------------------------- tensor cores */

/* Kernel-time share on tensor cores over the kernel rows; *heur_pct the
 * part found only by our newer patterns.  A kernel judged by its unit
 * counts as its row says (Ascend's Cube).  *by_name: kernels judged by
 * their name instead.  NaN without kernel time. */
static double
tc_kernel_pct(const struct pr_kernel_refs *ks, double *heur_pct,
              size_t *by_name, double *compute_pct)
{
    double all = 0.0, tc = 0.0, heur = 0.0, coll = 0.0;
    size_t i;

    *by_name = 0;
    for (i = 0; ks != NULL && i < ks->n; i++) {
        const struct pr_kernel_ref *k = &ks->v[i];
        double us = (double)k->total_ns / 1000.0;

        if (k->comm)
            continue; /* HCCL: no compute (the Cube share of issue #30) */
        all += us;
        /* a GPU's collective kernels (NCCL, DeepEP) stay in the share, as
           the plugin counts them, and are counted apart for the share of
           the compute kernels */
        coll += k->family == PR_KF_COLLECTIVE && !k->tc_used ? us : 0.0;
        if (k->by_unit && !k->cube_unknown) {
            tc += k->unit_tc ? us : 0.0;
            continue;
        }
        (*by_name)++; /* or a MIX_AIC kernel without counters */
        tc += k->tc_used ? us : 0.0;
        heur += k->tc_used && !k->plugin_tc ? us : 0.0;
    }
    *heur_pct = all > 0 ? 100.0 * heur / all : NAN;
    /* where collectives are a sizeable part (10%) of the kernel time, the
       share of the rest (ds_train: 39.0% of all, 72.6% of compute) */
    *compute_pct = all > 0 && coll >= 0.1 * all && all - coll > 0
                       ? 100.0 * tc / (all - coll)
                       : NAN;
    return all > 0 ? 100.0 * tc / all : NAN;
}

/* A finding that only its kernels' names show (issue #28): an operator
 * not on 10.2's list that launched fp32 GEMMs on CUDA cores, whether or
 * not 5.2 made it eligible by a tensor-core kernel it also ran. */
static int
by_kernels(const struct row *r)
{
    return r->named_us > 0 && r->fp32_kernel != NULL;
}

/* The device time a finding stands on: the operator's, or the named
 * kernels' alone. */
static double off_tc_us(const struct row *r);
static int part_finding(const struct row *r);

static double
finding_us(const struct row *r)
{
    return by_kernels(r)     ? r->named_us
           : part_finding(r) ? off_tc_us(r)
                             : r->dev_self_us;
}

static int
cmp_finding(const void *a, const void *b)
{
    const struct row *x = *(const struct row *const *)a;
    const struct row *y = *(const struct row *const *)b;
    int c;

    if (finding_us(x) != finding_us(y))
        return finding_us(x) > finding_us(y) ? -1 : 1;
    c = strcmp(x->name ? x->name : "", y->name ? y->name : "");
    if (c == 0 && x->shapes && y->shapes)
        c = strcmp(x->shapes, y->shapes);
    return c != 0 ? c : (x < y ? -1 : x > y);
}

/* On an NPU the finding is fp32 work without HF32, whether or not its
 * tasks ran on the Cube; elsewhere, eligible ops without tensor cores. */
static int
is_npu_row(const struct row *r)
{
    return r->dev && r->dev->npu;
}

static int
is_finding(const struct row *r)
{
    struct pr_tc_diag d;

    if (!r->name || !(r->dev_self_us > 0))
        return 0;
    if (is_npu_row(r))
        return pr_tensorcore_diagnose_hf32(&r->hf32_cost, r->hf32, &d);
    /* an op whose kernels the table cannot name may have used them: no
       finding says otherwise without evidence */
    return (r->eligible && r->tc_self_us <= 0 && !r->unknown) || by_kernels(r);
}

/* An eligible operator partly on tensor cores whose kernels ran this
 * share of its own device time, and at least PART_MIN_US, on CUDA cores
 * (fp32 GEMM/conv, FFT): listed with them (review 28g #7: alexnet's
 * aten::cudnn_convolution, 64% off tensor cores, was left out because
 * part of it used them). */
#define PART_MIN_PCT 25.0
#define PART_MIN_US 100.0

static double
off_tc_us(const struct row *r)
{
    return (r->off_simt ? r->off_simt->us : 0.0) +
           (r->off_fft ? r->off_fft->us : 0.0);
}

static int
part_finding(const struct row *r)
{
    double off = off_tc_us(r);

    return r->name && r->eligible && r->tc_self_us > 0 && !is_npu_row(r) &&
           r->dev_self_us > 0 && off >= PART_MIN_US && off <= r->dev_self_us &&
           100.0 * off / r->dev_self_us >= PART_MIN_PCT;
}

#define MAX_FINDINGS 100

static void
emit_finding(cJSON *arr, const struct pass *p, const struct row *r, int *ok)
{
    struct pr_row_tc_finding f;
    struct pr_tc_diag d;
    const struct dev *dv = r->dev;
    struct pr_tc_context ctx = {-1,           -1,   0, p->tf32_matmul,
                                p->tf32_conv, NULL, 0};
    const struct pr_op_cost *cost;

    if (!*ok)
        return;
    if (dv) {
        ctx.cc_major = dv->cc_major;
        ctx.cc_minor = dv->cc_minor;
        ctx.amd = dv->amd;
    }
    ctx.fp32_kernel = r->fp32_kernel;
    ctx.no_types = p->t != NULL && p->t->format != PR_STR_NONE &&
                   strcmp(pr_trace_str(p->t, p->t->format), "nsys") == 0;
    cost = is_npu_row(r) ? &r->hf32_cost : &r->cost;
    if (part_finding(r) && !by_kernels(r))
        pr_tensorcore_diagnose_part(off_tc_us(r), r->dev_self_us, r->off_simt,
                                    r->off_fft, is_conv_op(r), r->tf32, &d);
    else if (is_npu_row(r))
        (void)pr_tensorcore_diagnose_hf32(&r->hf32_cost, r->hf32, &d);
    else if (by_kernels(r))
        pr_tensorcore_diagnose_kernels(r->name, r->fp32_kernel, ctx.cc_major,
                                       ctx.amd, &d);
    else {
        /* a convolution known by name only is judged as one: cuDNN's
           switch, not the matmul one */
        struct pr_op_cost c = r->cost;

        if (c.cls == PR_OPC_OTHER && is_conv_op(r))
            c.cls = PR_OPC_CONV;
        pr_tensorcore_diagnose(&c, &ctx, &d);
    }
    f = (struct pr_row_tc_finding){
        .operator_name = r->name,
        .input_shapes = r->shapes,
        .device_us = finding_us(r),
        .reason = d.text,
        .reason_id = pr_tensorcore_reason_id(d.reason),
        .advice = d.advice,
        .dtype = by_kernels(r)                  ? pr_dtype_name(PR_DT_FP32)
                 : cost->dtype == PR_DT_UNKNOWN ? NULL
                                                : pr_dtype_name(cost->dtype),
        .evidence_kernel = r->fp32_kernel,
    };
    /* an operator's finding: no task columns to say where it ran */
    (void)pr_rows_omit(PR_RO_RUNS_TENSOR_CORES_FINDINGS, &f,
                       PR_SR_RUNS_TENSOR_CORES_FINDINGS_PR_K_ON_CUBE_PCT);
    (void)pr_rows_omit(PR_RO_RUNS_TENSOR_CORES_FINDINGS, &f,
                       PR_SR_RUNS_TENSOR_CORES_FINDINGS_PR_K_AIC_MTE2_RATIO);
    *ok = pr_rows_write(arr, PR_RO_RUNS_TENSOR_CORES_FINDINGS, &f, 1);
}

/* ---- Ascend: fp32 work without HF32, from the tasks' own columns ---- */

/* Device time of the fp32 matmul or convolution tasks of one kernel name
 * that ran without HF32 (kernel_details / op_summary say so, or, for a
 * matmul, do not say). */
struct hf {
    uint32_t name;
    const char *op; /* the kernels table's operator; NULL: the task name */
    int cls, hf32;  /* PR_OPC_GEMM / PR_OPC_CONV; 0 NO, -1 not recorded */
    double us;
    double cube_us;            /* of it, tasks that ran on the Cube */
    double mte2_x_us, mte2_us; /* aic_mte2_ratio weighted by time, and the
                                  time of the tasks that give it */
};

/* A task whose Cube waits on its inputs this share of its time or more
 * is "mte2 bound": loading them from memory (MTE2: global memory to the
 * AI Core's buffers), not the Cube's math, sets its pace.  The threshold
 * of Huawei's own advisor (msprof-analyze's operator checker, "mte2
 * ratio is more than 80%"). */
#define MTE2_BOUND 0.8

/* The column of aic_mte2_ratio in the trace's counter table; -1 none. */
static int
mte2_col(const struct pr_trace *t)
{
    size_t i;

    for (i = 0; t->pmu != NULL && i < t->pmu->n_cols; i++)
        if (strcmp(pr_trace_str(t, t->pmu->cols[i]), "aic_mte2_ratio") == 0)
            return (int)i;
    return -1;
}

struct hfs {
    struct hf *v; /* owned */
    size_t n, cap;
    int recorded; /* some task carried HF32 or dtype columns */
};

static int
task_without_hf32(const struct pr_trace *t, const struct pr_gpu_info *gi,
                  int *cls)
{
    struct og o;
    struct pr_op_cost c;
    struct pr_tc_diag d;

    memset(&o, 0, sizeof(o));
    note_task(t, gi, &o);
    memset(&c, 0, sizeof(c));
    c.dtype = o.task_fp32 ? PR_DT_FP32 : PR_DT_UNKNOWN;
    c.cls = (enum pr_op_class)o.task_cls;
    *cls = o.task_cls;
    return pr_tensorcore_diagnose_hf32(&c, gi->hf32, &d);
}

static void
collect_hf32(struct pass *p, struct hfs *h)
{
    struct pr_idmap seen = {0};
    struct pr_error e = {PR_OK, ""};
    struct pr_cube_ctx cx;
    size_t i, k;
    int cls, mte2 = mte2_col(p->t);

    pr_cube_init(p->t, &cx);
    for (i = 0; i < p->t->n_events && p->ok; i++) {
        const struct pr_event *ev = &p->t->events[i];
        struct pr_gpu_info gb;
        const struct pr_gpu_info *gi = pr_trace_gpu(p->t, ev, &gb);
        int64_t key;

        if (ev->kind != PR_KIND_DEVICE_TASK || !gi)
            continue;
        h->recorded |= gi->hf32 >= 0 || gi->dev_types != PR_STR_NONE;
        if (!task_without_hf32(p->t, gi, &cls))
            continue;
        key = ((int64_t)ev->name << 3) | (cls == PR_OPC_GEMM ? 2 : 0) |
              (gi->hf32 == 0);
        k = pr_idmap_get(&seen, key);
        if (k == PR_NONE) {
            if (pr_grow((void **)&h->v, &h->cap, h->n + 1, sizeof(*h->v)) !=
                    PR_OK ||
                pr_idmap_put(&seen, key, h->n, &e) != PR_OK) {
                p->ok = 0;
                break;
            }
            k = h->n++;
            h->v[k] = (struct hf){ev->name, NULL, cls, gi->hf32 == 0 ? 0 : -1,
                                  0,        0,    0,   0};
        }
        h->v[k].us += (double)ev->dur_ns / 1000.0;
        if (pr_cube_task(&cx, ev->info, gi) == PR_CUBE_YES)
            h->v[k].cube_us += (double)ev->dur_ns / 1000.0;
        if (mte2 >= 0) {
            const float *v = pr_pmu_get(p->t, ev->info);

            if (v != NULL && isfinite(v[mte2]) && v[mte2] >= 0) {
                h->v[k].mte2_x_us += v[mte2] * (double)ev->dur_ns / 1000.0;
                h->v[k].mte2_us += (double)ev->dur_ns / 1000.0;
            }
        }
    }
    pr_idmap_free(&seen);
}

static int
cmp_hf_op(const void *a, const void *b)
{
    const struct hf *x = a, *y = b;
    int c = strcmp(x->op, y->op);

    if (c == 0)
        c = x->cls != y->cls ? (x->cls < y->cls ? -1 : 1) : 0;
    if (c == 0)
        c = x->hf32 != y->hf32 ? (x->hf32 < y->hf32 ? -1 : 1) : 0;
    return c;
}

static int
cmp_hf_time(const void *a, const void *b)
{
    const struct hf *x = a, *y = b;

    if (x->us != y->us)
        return x->us > y->us ? -1 : 1;
    return cmp_hf_op(a, b);
}

/* Each kernel's operator as the kernels table names it; entries of one
 * operator, kind and HF32 state become one. */
static size_t
merge_by_operator(struct pass *p, struct hfs *h)
{
    const struct pr_kernel_refs *ks = p->in->kernels;
    size_t i, j, w = 0;

    for (i = 0; i < h->n; i++) {
        const char *name = pr_trace_str(p->t, h->v[i].name);

        h->v[i].op = name;
        for (j = 0; ks != NULL && j < ks->n; j++) {
            if (str_is(ks->v[j].name, name) && ks->v[j].op) {
                h->v[i].op = ks->v[j].op;
                break;
            }
        }
    }
    if (h->n > 1)
        qsort(h->v, h->n, sizeof(*h->v), cmp_hf_op);
    for (i = 0; i < h->n; i++) {
        if (w > 0 && cmp_hf_op(&h->v[w - 1], &h->v[i]) == 0) {
            h->v[w - 1].us += h->v[i].us;
            h->v[w - 1].cube_us += h->v[i].cube_us;
            h->v[w - 1].mte2_x_us += h->v[i].mte2_x_us;
            h->v[w - 1].mte2_us += h->v[i].mte2_us;
        } else
            h->v[w++] = h->v[i];
    }
    if (w > 1)
        qsort(h->v, w, sizeof(*h->v), cmp_hf_time);
    return w;
}

static void
emit_hf32(cJSON *arr, const struct hf *x, int *ok)
{
    struct pr_row_tc_finding f;
    struct pr_op_cost c;
    struct pr_tc_diag d;
    double on_cube, mte2;

    if (!*ok)
        return;
    memset(&c, 0, sizeof(c));
    c.dtype = PR_DT_FP32;
    c.cls = (enum pr_op_class)x->cls;
    (void)pr_tensorcore_diagnose_hf32(&c, x->hf32, &d);
    on_cube = x->us > 0 ? 100.0 * x->cube_us / x->us : NAN;
    mte2 = x->mte2_us > 0 ? x->mte2_x_us / x->mte2_us : NAN;
    pr_tensorcore_hf32_context(&d, on_cube, mte2, MTE2_BOUND);
    f = (struct pr_row_tc_finding){
        .operator_name = x->op,
        .input_shapes = NULL,
        .device_us = x->us,
        .reason = d.text,
        .reason_id = pr_tensorcore_reason_id(d.reason),
        .advice = d.advice,
        .dtype = pr_dtype_name(PR_DT_FP32),
        /* where its tasks ran and what bounds them (an NPU's finding) */
        .on_cube_pct = on_cube,
        .aic_mte2_ratio = mte2,
    };
    (void)pr_rows_omit(PR_RO_RUNS_TENSOR_CORES_FINDINGS, &f,
                       PR_SR_RUNS_TENSOR_CORES_FINDINGS_PR_K_EVIDENCE_KERNEL);
    *ok = pr_rows_write(arr, PR_RO_RUNS_TENSOR_CORES_FINDINGS, &f, 1);
}

/* runs[].tensor_cores as the pass fills it: its row, and whether the
 * keys written only where the run has them are. */
struct tc_row {
    struct pr_row_tensor_cores r;
    int has_dtype;   /* matmul_dtype_unknown_pct: an NPU's */
    int has_omitted; /* findings_omitted: where findings were judged */
    cJSON *findings; /* r.findings, to append to */
};

/* The operator records (named by their type, MindSpore's "MatMul") of
 * an NPU run that the export types fp32: the device time of their rows
 * that no finding judges, whose HF32 the export does not record (ms_run1:
 * every MatMul FLOAT32 in framework_raw, no HF32 column, no chip named;
 * review25a #3).  "No fp32 matmul ran without HF32" is not known then.
 * judged: the task findings (their operators), or NULL: the rows'. */
#define MAX_FP32_NAMES 64

static double
npu_fp32_unjudged_us(const struct pass *p, const struct hf *judged,
                     size_t n_judged)
{
    const struct pr_trace *t = p->t;
    uint32_t ids[MAX_FP32_NAMES];
    size_t i, j, n = 0;
    double us = 0;

    for (i = 0; i < t->n_events && n < MAX_FP32_NAMES; i++) {
        const struct pr_event *ev = &t->events[i];
        const char *nm = pr_trace_str(t, ev->name);
        struct pr_op_info ob;

        if (ev->kind != PR_KIND_HOST_OP ||
            (strncmp(nm, "MatMul", 6) != 0 &&
             strncmp(nm, "BatchMatMul", 11) != 0 &&
             strncmp(nm, "Conv2D", 6) != 0 && strncmp(nm, "Conv3D", 6) != 0) ||
            pr_trace_op(t, ev, &ob) == NULL || ob.input_types == PR_STR_NONE ||
            !has_fp32(pr_trace_str(t, ob.input_types)))
            continue;
        for (j = 0; j < n && ids[j] != ev->name; j++)
            ;
        if (j == n)
            ids[n++] = ev->name;
    }
    for (i = 0; i < p->n_rows && n > 0; i++) {
        const struct row *r = &p->rows[i];

        if (r->name == NULL || !isfinite(r->dev_self_us) ||
            (judged == NULL && is_finding(r)))
            continue;
        for (j = 0; j < n_judged && !str_is(judged[j].op, r->name); j++)
            ;
        if (j < n_judged)
            continue;
        for (j = 0; j < n; j++)
            if (strcmp(r->name, pr_trace_str(t, ids[j])) == 0) {
                us += r->dev_self_us;
                break;
            }
    }
    return us;
}

/* An NPU run whose tasks carry the producer's HF32 and dtype columns:
 * the findings come from the tasks.  0 when they carry none (then the
 * operator rows, with their recorded types, are judged instead). */
static int
npu_task_findings(struct pass *p, struct tc_row *tc, cJSON *arr)
{
    struct hfs h;
    size_t i, n;

    memset(&h, 0, sizeof(h));
    collect_hf32(p, &h);
    if (!h.recorded || !p->ok) {
        free(h.v);
        return 0;
    }
    n = merge_by_operator(p, &h);
    for (i = 0; i < n && i < MAX_FINDINGS && p->ok; i++)
        emit_hf32(arr, &h.v[i], &p->ok);
    tc->r.fp32_hf32_unknown_us = npu_fp32_unjudged_us(p, h.v, n);
    tc->r.findings_omitted = (int64_t)(n > MAX_FINDINGS ? n - MAX_FINDINGS : 0);
    tc->has_omitted = 1;
    free(h.v);
    return 1;
}

/* Why an NPU run's Cube share is not known, in its producer's words. */
static const char *
npu_blind_note(const struct pr_trace *t)
{
    const char *f =
        t != NULL && t->format != PR_STR_NONE ? pr_trace_str(t, t->format) : "";

    if (strcmp(f, "mindspore") == 0)
        return "some NPU tasks do not say which unit ran them (MindSpore's "
               "profiler files name no core per task): the Cube share is "
               "not known";
    if (strcmp(f, "msprof") == 0)
        return "some NPU tasks do not say which unit ran them (msprof's "
               "timeline names no core per task; op_summary_*.csv's Task "
               "Type does, which this export lacks: msprof collects it with "
               "--task-time, on by default, and --export=on writes it): the "
               "Cube share is not known";
    return "some NPU tasks do not say which unit ran them (no "
           "kernel_details.csv Accelerator Core, or N/A as torch_npu's "
           "profiler_level0 writes it): the Cube share is not known; "
           "profile with profiler_level1";
}

/* The share of an NPU run's matmul and convolution task time whose
 * data type the export does not give (third review, finding 11: every
 * MatMul of mindspore ascend_run2 is UNKNOWN in framework_raw): then "no
 * fp32 matmul without HF32" cannot be said.  NaN without such tasks. */
static double
npu_dtype_unknown_pct(const struct pass *p)
{
    const struct pr_trace *t = p->t;
    double all = 0, unk = 0;
    size_t i;

    /* operator records named by their type (MindSpore: "MatMul", its
       framework_raw types), by calls: their tasks carry no dtype */
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *ev = &t->events[i];
        const char *n = pr_trace_str(t, ev->name);
        struct pr_op_info ob;

        if (ev->kind != PR_KIND_HOST_OP ||
            (strncmp(n, "MatMul", 6) != 0 &&
             strncmp(n, "BatchMatMul", 11) != 0 &&
             strncmp(n, "Conv2D", 6) != 0 && strncmp(n, "Conv3D", 6) != 0) ||
            pr_trace_op(t, ev, &ob) == NULL || ob.input_types == PR_STR_NONE)
            continue; /* an op without types says nothing either way */
        all += 1;
        if (!has_known_dtype(pr_trace_str(t, ob.input_types)))
            unk += 1;
    }
    if (all > 0)
        return 100.0 * unk / all;
    /* the operator rows: their class and dtype, completed from their
       tasks where their own are unknown (hf32_cost) */
    for (i = 0; i < p->n_rows; i++) {
        const struct row *r = &p->rows[i];

        if (r->hf32_cost.cls != PR_OPC_GEMM && r->hf32_cost.cls != PR_OPC_CONV)
            continue;
        all += r->dev_self_us;
        if (r->hf32_cost.dtype == PR_DT_UNKNOWN)
            unk += r->dev_self_us;
    }
    if (all > 0)
        return 100.0 * unk / all;
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *ev = &t->events[i];
        struct pr_gpu_info gb;
        const struct pr_gpu_info *gi;
        struct og o;

        if (ev->kind != PR_KIND_DEVICE_TASK ||
            (gi = pr_trace_gpu(t, ev, &gb)) == NULL)
            continue;
        memset(&o, 0, sizeof(o));
        note_task(t, gi, &o);
        if (o.task_cls == PR_OPC_OTHER) { /* MindSpore: ".../MatMul-op19" */
            const char *n = pr_trace_str(t, ev->name), *sl = strrchr(n, '/');

            n = sl != NULL ? sl + 1 : n;
            if (strncmp(n, "MatMul", 6) == 0 ||
                strncmp(n, "BatchMatMul", 11) == 0)
                o.task_cls = PR_OPC_GEMM;
            else if (strncmp(n, "Conv2D", 6) == 0 ||
                     strncmp(n, "Conv3D", 6) == 0)
                o.task_cls = PR_OPC_CONV;
        }
        if (o.task_cls != PR_OPC_GEMM && o.task_cls != PR_OPC_CONV)
            continue;
        all += (double)ev->dur_ns;
        if (gi->dev_types == PR_STR_NONE ||
            !has_known_dtype(pr_trace_str(t, gi->dev_types)))
            unk += (double)ev->dur_ns;
    }
    return all > 0 ? 100.0 * unk / all : NAN;
}

/* Eligible ops that launched kernels but none on tensor cores, by device
 * time lost. */
static void
fill_findings(struct pass *p, struct tc_row *tc)
{
    const struct row **v;
    cJSON *arr = tc->findings;
    size_t i, n = 0;

    if (p->ok && p->main_dev && p->main_dev->npu) {
        tc->r.matmul_dtype_unknown_pct = npu_dtype_unknown_pct(p);
        tc->has_dtype = 1;
    }
    /* the tasks' columns judge every fp32 task (HF32 Eligible, or the
       "probably" finding where it is not recorded) */
    if (p->ok && p->main_dev && p->main_dev->npu &&
        npu_task_findings(p, tc, arr))
        return;
    if (p->ok && p->main_dev && p->main_dev->npu)
        tc->r.fp32_hf32_unknown_us = npu_fp32_unjudged_us(p, NULL, 0);
    if (!p->ok || p->n_rows == 0)
        return;
    v = calloc(p->n_rows, sizeof(*v));
    if (!v) {
        p->ok = 0;
        return;
    }
    for (i = 0; i < p->n_rows; i++) {
        if (is_finding(&p->rows[i]) || part_finding(&p->rows[i]))
            v[n++] = &p->rows[i];
    }
    qsort(v, n, sizeof(*v), cmp_finding);
    for (i = 0; i < n && i < MAX_FINDINGS && p->ok; i++)
        emit_finding(arr, p, v[i], &p->ok);
    tc->r.findings_omitted = (int64_t)(n > MAX_FINDINGS ? n - MAX_FINDINGS : 0);
    tc->has_omitted = 1;
    free(v);
}

/* An MTIA run: its matrix engines run operators whose kernel names say
 * nothing of them, and CUDA's TF32/AMP advice does not apply. */
static void
no_tensor_cores(struct tc_row *tc)
{
    tc->r.tc_kernel_time_pct = NAN;
    tc->r.tc_heuristic_kernel_time_pct = NAN;
    tc->r.eligible_op_time_pct = NAN;
    tc->r.eligible_on_tc_pct = NAN;
    tc->r.findings_omitted = 0;
    tc->has_omitted = 1;
    tc->r.note = "MTIA: the trace does not say which kernels ran on the "
                 "matrix engines; tensor-core figures apply to GPUs only";
}

/* An NPU's collective operator, whose device time is HCCL's, no compute:
 * torch_npu's HcclAllreduce, msprof's hcom_allReduce_, MindSpore's and
 * msprof's op types (AllReduce, Send, Receive; "AllReduce-op3"). */
static int
npu_comm_op(const char *name)
{
    static const char *const types[] = {
        "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "AllToAll",
        "AlltoAll",  "AllToAllv", "AlltoAllV",     "Send",      "Receive"};
    size_t i, n;

    if (name == NULL)
        return 0;
    if (strncmp(name, "Hccl", 4) == 0 || strncasecmp(name, "hcom", 4) == 0 ||
        pr_tree_is_comm(name))
        return 1;
    n = strcspn(name, "-");
    for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
        if (strlen(types[i]) == n && strncmp(name, types[i], n) == 0)
            return 1;
    return 0;
}

/* The figures of tensor_cores (an MTIA run's, or a GPU's or NPU's), its
 * findings into tc->r.findings. */
static void
tc_figures(struct pass *p, struct tc_row *tc, struct pr_roofline_out *out)
{
    /* analysis.c's kernel-based share, which enable_amp quotes */
    double heur, all = 0.0, elig = 0.0, on_tc = 0.0, seed = p->in->tc_seed_pct;
    double share, compute;
    size_t i, by_name;
    int npu_blind, tc_blind = 0, npu = p->main_dev && p->main_dev->npu;

    if (p->main_dev && p->main_dev->mtia) {
        no_tensor_cores(tc);
        return;
    }
    for (i = 0; i < p->n_rows; i++) {
        const struct row *r = &p->rows[i];

        /* on an NPU the share is of compute time, HCCL left out, as the
           tasks' share (cube.c) is: npu_text0's 4.2% counted 85.5 ms of
           HcclAllreduce in, npu_text2's 32.0% did not (review28a #9) */
        if (!isfinite(r->dev_self_us) || (npu && npu_comm_op(r->name)))
            continue;
        all += r->dev_self_us;
        elig += r->eligible ? r->dev_self_us : 0.0;
        on_tc += r->eligible ? r->tc_self_us : 0.0;
        /* a producer's table without the unit columns (ops.h) */
        tc_blind |= r->eligible && (r->src->unknown & PR_OP_ROW_NO_TC);
    }
    share = tc_kernel_pct(p->in->kernels, &heur, &by_name, &compute);
    /* an NPU's kernel names say nothing of Cube or Vector: the share is
       known only when every task names its unit */
    npu_blind = npu && by_name > 0;
    out->tc_kernel_pct = isfinite(share) && !npu_blind ? share : NAN;
    tc->r.tc_kernel_time_pct = out->tc_kernel_pct;
    tc->r.tc_heuristic_kernel_time_pct = npu_blind ? NAN : heur;
    tc->r.tc_compute_kernel_time_pct =
        isfinite(out->tc_kernel_pct) && !npu ? compute : NAN;
    tc->r.note = npu_blind ? npu_blind_note(p->t) : NULL;
    out->eligible_op_pct = isfinite(seed) ? seed
                           : all > 0      ? 100.0 * elig / all
                                          : NAN;
    if (!isfinite(out->eligible_op_pct))
        out->eligible_op_pct = NAN;
    tc->r.eligible_op_time_pct = out->eligible_op_pct;
    /* an NPU's share is the tasks' (analysis.c seeds it from cube.c) or,
       where they do not say what they are, the operators' */
    tc->r.eligible_basis = !npu || isnan(out->eligible_op_pct) ? NULL
                           : isfinite(seed)                    ? PR_K_TASKS
                                                               : PR_K_OPERATORS;
    tc->r.eligible_on_tc_pct = !isnan(p->in->tc_seed_on_pct)
                                   ? p->in->tc_seed_on_pct
                               : elig > 0 && !tc_blind && !npu_blind
                                   ? fmin(100.0, 100.0 * on_tc / elig)
                                   : NAN;
    fill_findings(p, tc);
}

/* tensor_cores, and in *out the two figures the recommendations read,
 * as it writes them (NaN where null).  The note, the NPU's matmul dtype
 * share and the findings left out are written only where the run has
 * them (the row's mask). */
static cJSON *
tensor_cores_json(struct pass *p, struct pr_roofline_out *out)
{
    struct tc_row tc;
    cJSON *arr = cJSON_CreateArray(), *o = NULL;

    p->ok = arr != NULL;
    if (!p->ok)
        return NULL;
    memset(&tc, 0, sizeof(tc));
    tc.r.tc_compute_kernel_time_pct = NAN; /* written where tc_figures sets */
    tc.r.findings = tc.findings = arr;
    tc_figures(p, &tc, out);
    if (tc.r.note == NULL)
        pr_rows_omit(PR_RO_RUNS_TENSOR_CORES, &tc.r,
                     PR_SR_RUNS_TENSOR_CORES_PR_K_NOTE);
    if (!(p->main_dev && p->main_dev->npu))
        pr_rows_omit(PR_RO_RUNS_TENSOR_CORES, &tc.r,
                     PR_SR_RUNS_TENSOR_CORES_PR_K_ELIGIBLE_BASIS);
    if (!tc.has_dtype) {
        pr_rows_omit(PR_RO_RUNS_TENSOR_CORES, &tc.r,
                     PR_SR_RUNS_TENSOR_CORES_PR_K_MATMUL_DTYPE_UNKNOWN_PCT);
        pr_rows_omit(PR_RO_RUNS_TENSOR_CORES, &tc.r,
                     PR_SR_RUNS_TENSOR_CORES_PR_K_FP32_HF32_UNKNOWN_US);
    }
    if (!tc.has_omitted)
        pr_rows_omit(PR_RO_RUNS_TENSOR_CORES, &tc.r,
                     PR_SR_RUNS_TENSOR_CORES_PR_K_FINDINGS_OMITTED);
    if (!isfinite(tc.r.tc_compute_kernel_time_pct))
        pr_rows_omit(PR_RO_RUNS_TENSOR_CORES, &tc.r,
                     PR_SR_RUNS_TENSOR_CORES_PR_K_TC_COMPUTE_KERNEL_TIME_PCT);
    if (p->ok)
        o = pr_rows_row(PR_RO_RUNS_TENSOR_CORES, &tc.r);
    cJSON_Delete(arr);
    p->ok = o != NULL;
    return o;
}

/* -------------------------------------------------------------- the pass */

static void
pass_free(struct pass *p)
{
    free(p->groups.v);
    free(p->rows);
    free(p->devs);
}

enum pr_status
pr_roofline_run(const struct pr_roofline_in *in,
                const struct pr_analysis_opts *o, struct pr_roofline_out *out,
                struct pr_error *err)
{
    struct pass p;
    struct pr_peak_table *tab = pr_peaks_table_open(o, err);

    out->tensor_cores = out->roofline = NULL;
    out->device = NULL;
    out->tc_kernel_pct = out->eligible_op_pct = NAN;
    if (!tab)
        return err && err->code != PR_OK ? err->code : PR_E_NOMEM;
    memset(&p, 0, sizeof(p));
    p.t = in->t;
    p.in = in;
    p.ok = index_trace(in->t, in->tree, &p.groups);
    if (p.ok)
        fill_devices(&p, tab, o);
    pick_main_device(&p);
    if (p.ok)
        fill_shape_rows(&p);
    if (p.ok)
        fill_name_rows(&p);
    if (p.ok)
        add_kernel_roofs(&p);
    if (p.ok)
        out->roofline = roofs_json(&p);
    if (p.ok && p.main_dev && p.roofs)
        out->device = p.main_dev->row; /* as roofs_json() names it */
    if (p.ok)
        out->tensor_cores = tensor_cores_json(&p, out);
    pass_free(&p);
    pr_peaks_table_free(tab);
    if (!p.ok || !out->roofline || !out->tensor_cores) {
        cJSON_Delete(out->roofline);
        cJSON_Delete(out->tensor_cores);
        out->tensor_cores = out->roofline = NULL;
        out->device = NULL;
        return pr_error_set(err, PR_E_NOMEM, "out of memory (roofline)");
    }
    return PR_OK;
}

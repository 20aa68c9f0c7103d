/* flops.c - FLOP and byte formulas per operator call (spec/flops-and-
 * formats.md §1.2, §1.4) over the inputs the model parsed at ingest
 * (shapes.h).  Rates, peaks and aggregation are left to roofline.c;
 * kernel names to tensorcore.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "profreport/checked.h"
#include "profreport/flops.h"

#include "../internal.h"

/* --------------------------------------------------------------- formulas */

/* Everything a formula may look at for one call. */
struct ctx {
    struct pr_shape_list sh;
    enum pr_dtype ty[PR_SHAPE_MAX_ARGS];
    size_t n_ty;
    struct pr_concrete_list ci;
    const struct pr_shape_list *st; /* "Input Strides", one per input;
                                       NULL not recorded */
    int op_size;    /* bytes per element of the op's dtype; 0 unknown */
    unsigned grads; /* pr_op_call.conv_grads */
};

typedef void (*formula_fn)(const struct ctx *c, int a, int b,
                           struct pr_op_cost *out);

struct formula {
    const char *name; /* aten name without "aten::", '_' prefix and suffix */
    formula_fn fn;
    int a, b; /* per-entry parameters, meaning set by fn */
    const char *family;
};

static enum pr_dtype
arg_dtype(const struct ctx *c, size_t i)
{
    return i < c->n_ty ? c->ty[i] : PR_DT_UNKNOWN;
}

/* A tensor input (or TensorList); a [] entry typed as a scalar is not. */
static int
is_tensor(const struct ctx *c, size_t i)
{
    enum pr_dtype dt = arg_dtype(c, i);

    if (i >= c->sh.n)
        return 0;
    if (c->sh.arg[i].is_list)
        return 1;
    if (dt == PR_DT_NONE)
        return 0;
    return pr_dtype_size(dt) > 0 || c->sh.arg[i].ndim > 0;
}

static int
is_plain(const struct ctx *c, size_t i, int ndim)
{
    return is_tensor(c, i) && !c->sh.arg[i].is_list &&
           (ndim < 0 || c->sh.arg[i].ndim == ndim);
}

static double
numel(const struct ctx *c, size_t i)
{
    return is_tensor(c, i) ? (double)c->sh.arg[i].numel : 0.0;
}

/* Element size of input i, falling back to the op's dtype (TensorLists
 * carry no element type). */
static int
elem_size(const struct ctx *c, size_t i)
{
    int s = pr_dtype_size(arg_dtype(c, i));

    return s > 0 ? s : c->op_size;
}

/* The distinct elements input i holds: its numel, or fewer where its
 * recorded strides repeat memory.  A dim of stride 0 (a broadcast,
 * expanded view: grad.expand(sizes) in MeanBackward) holds one element
 * however long it is, so the input spans at most the product of its dims
 * with a stride other than 0, and at most 1 + sum (size - 1) * stride
 * elements (fewer than numel where strides overlap). */
static double
distinct(const struct ctx *c, size_t i)
{
    const struct pr_shape_arg *a, *st;
    double n = numel(c, i), prod = 1.0, span = 1.0;
    int d;

    if (c->st == NULL || i >= c->st->n || !is_plain(c, i, -1))
        return n;
    a = &c->sh.arg[i];
    st = &c->st->arg[i];
    if (st->is_list || st->ndim != a->ndim || !(n > 0))
        return n;
    for (d = 0; d < a->ndim; d++) {
        if (st->dims[d] != 0)
            prod *= (double)a->dims[d];
        span += (double)(a->dims[d] - 1) * (double)st->dims[d];
    }
    if (prod < n)
        n = prod;
    return span < n ? span : n;
}

/* bytes(T) of input i as read: its distinct elements (distinct()); -1
 * when its element size is unknown. */
static double
tbytes(const struct ctx *c, size_t i)
{
    int s = elem_size(c, i);

    if (!is_tensor(c, i))
        return 0.0;
    return s > 0 ? distinct(c, i) * s : -1.0;
}

/* Bytes of one read of input i and passes - 1 more of its size (the
 * output it is written to, or more reads): an output is as large as the
 * input's shape, broadcast or not. */
static double
passes_bytes(const struct ctx *c, size_t i, int passes)
{
    int s = elem_size(c, i);
    double first = tbytes(c, i);

    if (first < 0 || (passes > 1 && !(s > 0)))
        return -1.0;
    return passes < 1 ? 0.0 : first + (passes - 1) * numel(c, i) * s;
}

static int64_t
dim(const struct ctx *c, size_t i, int d)
{
    const struct pr_shape_arg *a = &c->sh.arg[i];

    if (d < 0)
        d += a->ndim;
    return (d >= 0 && d < a->ndim) ? a->dims[d] : 0;
}

static double
times_size(double elems, int s)
{
    return s > 0 ? elems * s : -1.0;
}

/* Sum of bytes; -1 as soon as one term is unknown. */
static double
sum_bytes(const double *v, int n)
{
    double t = 0.0;
    int i;

    for (i = 0; i < n; i++) {
        if (v[i] < 0)
            return -1.0;
        t += v[i];
    }
    return t;
}

/* numel of the broadcast of inputs [0, n) that are tensors. */
static double
broadcast_numel(const struct ctx *c, int n)
{
    int64_t out[PR_SHAPE_MAX_DIMS] = {0};
    int i, d, nd = 0;
    double prod = 1.0;

    for (i = 0; i < n; i++) {
        const struct pr_shape_arg *a = &c->sh.arg[i];

        if (!is_plain(c, (size_t)i, -1))
            continue;
        for (d = 0; d < a->ndim; d++) {
            int64_t v = a->dims[a->ndim - 1 - d];

            if (out[d] == 0 || out[d] == 1)
                out[d] = v;
        }
        nd = a->ndim > nd ? a->ndim : nd;
    }
    for (d = 0; d < nd; d++)
        prod *= (double)out[d];
    return prod;
}

/* Concrete int list (or a single int repeated) of exactly n values. */
static int
concrete_ints(const struct ctx *c, int idx, int n, int64_t *v)
{
    const struct pr_concrete_arg *a;
    int i;

    if (idx < 0 || (size_t)idx >= c->ci.n)
        return 0;
    a = &c->ci.arg[idx];
    if (a->kind == PR_CI_INT) {
        for (i = 0; i < n; i++)
            v[i] = a->v[0];
        return 1;
    }
    if (a->kind != PR_CI_LIST || (a->n != n && a->n != 1))
        return 0;
    for (i = 0; i < n; i++)
        v[i] = a->v[a->n == 1 ? 0 : i];
    return 1;
}

static int
concrete_int(const struct ctx *c, int idx, int64_t *v)
{
    const struct pr_concrete_arg *a;

    if (idx < 0 || (size_t)idx >= c->ci.n)
        return 0;
    a = &c->ci.arg[idx];
    if (a->kind != PR_CI_INT && a->kind != PR_CI_BOOL)
        return 0;
    *v = a->v[0];
    return 1;
}

static void
set_gemm(struct pr_op_cost *out, int64_t batch, int64_t m, int64_t n, int64_t k)
{
    out->cls = (m > 1 && n > 1) ? PR_OPC_GEMM : PR_OPC_GEMV;
    out->batch = batch;
    out->m = m;
    out->n = n;
    out->k = k;
    out->flops = 2.0 * (double)batch * (double)m * (double)n * (double)k;
}

/* mm (a = 0) and addmm (a = 1): A[m,k] at input a, B[k,n] at a + 1.
 * FLOPs 2mnk; bytes size*(mn + mk + nk) (PyProf). */
static void
f_mm(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    int64_t m, n, k;

    (void)b;
    if (!is_plain(c, (size_t)a, 2) || !is_plain(c, (size_t)a + 1, 2))
        return;
    m = dim(c, (size_t)a, 0);
    k = dim(c, (size_t)a, 1);
    n = dim(c, (size_t)a + 1, 1);
    set_gemm(out, 1, m, n, k);
    out->bytes = times_size((double)m * n + (double)m * k + (double)n * k,
                            elem_size(c, (size_t)a));
}

/* bmm (a = 0) and baddbmm (a = 1): A[b,m,k], B[b,k,n]; FLOPs 2bmnk,
 * bytes size*b*(mn + mk + nk). */
static void
f_bmm(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    int64_t bt, m, n, k;

    (void)b;
    if (!is_plain(c, (size_t)a, 3) || !is_plain(c, (size_t)a + 1, 3))
        return;
    bt = dim(c, (size_t)a, 0);
    m = dim(c, (size_t)a, 1);
    k = dim(c, (size_t)a, 2);
    n = dim(c, (size_t)a + 1, 2);
    set_gemm(out, bt, m, n, k);
    out->bytes =
        times_size((double)bt * ((double)m * n + (double)m * k + (double)n * k),
                   elem_size(c, (size_t)a));
}

/* Product of the broadcast batch dims of two matmul operands. */
static double
matmul_batch(const struct pr_shape_arg *x, const struct pr_shape_arg *y)
{
    int nx = x->ndim > 2 ? x->ndim - 2 : 0, ny = y->ndim > 2 ? y->ndim - 2 : 0;
    int i, n = nx > ny ? nx : ny;
    double prod = 1.0;

    for (i = 0; i < n; i++) {
        int64_t a = i < nx ? x->dims[nx - 1 - i] : 1;
        int64_t b = i < ny ? y->dims[ny - 1 - i] : 1;

        prod *= (double)(a > b ? a : b);
    }
    return prod;
}

/* matmul of any rank (numpy rules).  Bytes are the real operand sizes plus
 * the output: PyProf leaves the batch out of its matmul bytes, which is
 * inconsistent with its own bmm row (spec §1.2), so we do not copy that. */
static void
f_matmul(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    const struct pr_shape_arg *x = &c->sh.arg[0], *y = &c->sh.arg[1];
    int64_t m, n, k;
    double bt;

    (void)a;
    (void)b;
    if (!is_plain(c, 0, -1) || !is_plain(c, 1, -1) || x->ndim < 1 ||
        y->ndim < 1)
        return;
    m = x->ndim >= 2 ? dim(c, 0, -2) : 1;
    k = dim(c, 0, -1);
    n = y->ndim >= 2 ? dim(c, 1, -1) : 1;
    bt = matmul_batch(x, y);
    set_gemm(out, (int64_t)bt, m, n, k);
    out->flops = 2.0 * bt * (double)m * (double)n * (double)k;
    out->bytes = times_size(numel(c, 0) + numel(c, 1) + bt * (double)m * n,
                            elem_size(c, 0));
}

/* linear: x[..., K], W[N, K] (+ bias); M = numel(x) / K.  FLOPs 2MNK; bytes
 * size*(MN + MK + NK), the formula PyProf intended (its code has an
 * operator-precedence bug, spec §1.2). */
static void
f_linear(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    int64_t m, n, k;

    (void)a;
    (void)b;
    if (!is_plain(c, 0, -1) || !is_plain(c, 1, 2) || c->sh.arg[0].ndim < 1)
        return;
    k = dim(c, 0, -1);
    n = dim(c, 1, 0);
    if (k <= 0)
        return;
    m = c->sh.arg[0].numel / k;
    set_gemm(out, 1, m, n, k);
    out->bytes = times_size((double)m * n + (double)m * k + (double)n * k,
                            elem_size(c, 0));
}

/* mv (a = 0) / addmv (a = 1): A[m,k] x[k]; FLOPs 2mk, bytes size*(mk+k+m). */
static void
f_mv(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    int64_t m, k;

    (void)b;
    if (!is_plain(c, (size_t)a, 2))
        return;
    m = dim(c, (size_t)a, 0);
    k = dim(c, (size_t)a, 1);
    set_gemm(out, 1, m, 1, k);
    out->bytes = times_size((double)m * k + (double)k + (double)m,
                            elem_size(c, (size_t)a));
}

/* dot / vdot: 2n FLOPs, reads both vectors, writes one element. */
static void
f_dot(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    (void)a;
    (void)b;
    if (!is_plain(c, 0, 1))
        return;
    set_gemm(out, 1, 1, 1, dim(c, 0, 0));
    out->bytes = times_size(2.0 * numel(c, 0) + 1.0, elem_size(c, 0));
}

/* Where a convolution signature keeps its parameters in Concrete Inputs
 * (-1: not in this signature).  transposed < 0 with fixed_t set means the
 * op is a transposed convolution by name. */
struct conv_layout {
    int stride, pad, dil, groups, transposed, outpad, fixed_t;
};

static const struct conv_layout conv_layouts[] = {
    /* 0: conv1d/2d/3d(input, weight, bias, stride, padding, dilation, g) */
    {3, 4, 5, 6, -1, -1, 0},
    /* 1: convolution/_convolution(input, weight, bias, stride, padding,
     *    dilation, transposed, output_padding, groups, ...) */
    {3, 4, 5, 8, 6, 7, 0},
    /* 2: conv_transpose1d/2d/3d(input, weight, bias, stride, padding,
     *    output_padding, groups, dilation) */
    {3, 4, 7, 6, -1, 5, 1},
    /* 3: cudnn_convolution(input, weight, padding, stride, dilation, groups,
     *    ...) since 1.8 */
    {3, 2, 4, 5, -1, -1, 0},
    /* 4: cudnn_convolution before 1.8, mkldnn/miopen_convolution(input,
     *    weight, bias, padding, stride, dilation, groups, ...) */
    {4, 3, 5, 6, -1, -1, 0},
    /* 5: cudnn_convolution_transpose(input, weight, padding, output_padding,
     *    stride, dilation, groups, ...) */
    {4, 2, 5, 6, -1, 3, 1},
};

/* Spatial geometry of one convolution (d spatial dims). */
struct conv_geom {
    int d;
    int64_t in[3], kern[3], out[3];
    int64_t stride[3], pad[3], dil[3], outpad[3];
};

/* Output size from stride/padding/dilation; 0 when not computable. */
static int
conv_out_size(struct conv_geom *g, int transposed)
{
    int i;

    for (i = 0; i < g->d; i++) {
        int64_t span = g->dil[i] * (g->kern[i] - 1);

        if (g->stride[i] <= 0)
            return 0;
        if (transposed)
            g->out[i] = (g->in[i] - 1) * g->stride[i] - 2 * g->pad[i] + span +
                        g->outpad[i] + 1;
        else
            g->out[i] =
                (g->in[i] + 2 * g->pad[i] - span - 1) / g->stride[i] + 1;
        if (g->out[i] <= 0 || g->in[i] + 2 * g->pad[i] - span - 1 < 0)
            return 0;
    }
    return 1;
}

/* Reads stride/padding/dilation (and output_padding) from Concrete Inputs.
 * Returns 0 when any of them was not recorded. */
static int
conv_params(const struct ctx *c, const struct conv_layout *l,
            struct conv_geom *g)
{
    int i;

    if (!concrete_ints(c, l->stride, g->d, g->stride) ||
        !concrete_ints(c, l->pad, g->d, g->pad) ||
        !concrete_ints(c, l->dil, g->d, g->dil))
        return 0;
    for (i = 0; i < g->d; i++)
        g->outpad[i] = 0;
    if (l->outpad >= 0 && !concrete_ints(c, l->outpad, g->d, g->outpad))
        return 0;
    return 1;
}

static int
conv_transposed(const struct ctx *c, const struct conv_layout *l, int *t)
{
    int64_t v;

    if (l->fixed_t) {
        *t = 1;
        return 1;
    }
    if (l->transposed < 0) {
        *t = 0;
        return 1;
    }
    if (!concrete_int(c, l->transposed, &v))
        return 0;
    *t = (int)v;
    return 1;
}

double
pr_dims_product(const int64_t *v, int n)
{
    double p = 1.0;
    int i;

    for (i = 0; i < n; i++)
        p *= (double)v[i];
    return p;
}

/* Groups: recorded, else exact from the shapes (weight is [K, C/g, ...]). */
static int64_t
conv_groups(const struct ctx *c, const struct conv_layout *l, int t)
{
    int64_t g, cin = dim(c, 0, 1), wc = dim(c, 1, 1);

    if (concrete_int(c, l->groups, &g) && g > 0)
        return g;
    if (!t && wc > 0 && cin % wc == 0)
        return cin / wc;
    return 0;
}

/* Forward convolution, any of conv_layouts[a].  FLOPs 2*N*Cout*prod(out)*
 * (Cin/g)*prod(kernel) (PyProf, FlopCounterMode); a transposed conv uses the
 * input spatial size (FlopCounterMode's rule).  Bytes size*(in + weight +
 * out).  The output size needs stride/padding/dilation: without Concrete
 * Inputs a forward conv's FLOPs are unknown, not guessed. */
static void
f_conv(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    const struct conv_layout *l = &conv_layouts[a];
    struct conv_geom g;
    int t, i, have_out;
    int64_t n, cout;

    (void)b;
    if (!is_plain(c, 0, -1) || !is_plain(c, 1, c->sh.arg[0].ndim) ||
        c->sh.arg[0].ndim < 3 || c->sh.arg[0].ndim > 5)
        return;
    if (a == 3 && c->ci.n > 2 && c->ci.arg[2].kind != PR_CI_LIST)
        l = &conv_layouts[4]; /* the pre-1.8 cudnn_convolution layout */
    g.d = c->sh.arg[0].ndim - 2;
    for (i = 0; i < g.d; i++) {
        g.in[i] = dim(c, 0, 2 + i);
        g.kern[i] = dim(c, 1, 2 + i);
    }
    n = dim(c, 0, 0);
    out->cls = PR_OPC_CONV;
    out->conv_n = n;
    out->conv_c = dim(c, 0, 1);
    if (!conv_transposed(c, l, &t))
        return;
    out->groups = conv_groups(c, l, t);
    cout = t ? dim(c, 1, 1) * out->groups : dim(c, 1, 0);
    out->conv_k = cout;
    have_out = conv_params(c, l, &g) && conv_out_size(&g, t);
    if (t || have_out)
        out->flops = 2.0 * (double)n * (double)dim(c, 1, 0) *
                     (double)dim(c, 1, 1) *
                     pr_dims_product(t ? g.in : g.out, g.d) *
                     pr_dims_product(g.kern, g.d);
    if (have_out && cout > 0)
        out->bytes =
            times_size(numel(c, 0) + numel(c, 1) +
                           (double)n * cout * pr_dims_product(g.out, g.d),
                       elem_size(c, 0));
}

unsigned
pr_flops_conv_grad_of(const char *name)
{
    if (name == NULL)
        return 0;
    if (strstr(name, "_backward_input") != NULL)
        return PR_CONV_GRAD_INPUT;
    if (strstr(name, "_backward_weight") != NULL)
        return PR_CONV_GRAD_WEIGHT;
    return 0;
}

/* Output-gradient mask of a conv backward: the last bool list in Concrete
 * Inputs.  Not recorded: the gradients its inner ops show it computed
 * (pr_op_call.conv_grads: ResNet's first conv has no data gradient, its
 * input is the image), else both, as FlopCounterMode counts them when the
 * mask is set (the usual case: ~2x the forward FLOPs). */
static void
conv_bwd_mask(const struct ctx *c, int *gi, int *gw)
{
    size_t i;

    *gi = *gw = 1;
    if (c->grads != 0) {
        *gi = (c->grads & PR_CONV_GRAD_INPUT) != 0;
        *gw = (c->grads & PR_CONV_GRAD_WEIGHT) != 0;
    }
    for (i = c->ci.n; i-- > 0;) {
        const struct pr_concrete_arg *m = &c->ci.arg[i];

        if (m->kind == PR_CI_LIST && m->is_bool && m->n >= 2) {
            *gi = (int)m->v[0];
            *gw = (int)m->v[1];
            return;
        }
    }
}

/* FLOPs of one non-transposed conv pass from grad_output [N,K,P..] and
 * weight [K, C/g, R..]: 2*N*K*prod(P)*(C/g)*prod(R). */
static double
conv_pass_flops(const struct ctx *c, size_t go, const int64_t *w, int nd)
{
    double f = 2.0 * (double)w[0] * (double)w[1];
    int i;

    for (i = 0; i < nd - 2; i++)
        f *= (double)dim(c, go, 2 + i) * (double)w[2 + i];
    return f * (double)dim(c, go, 0);
}

/* convolution_backward (a = 0: grad_output, input, weight) and
 * cudnn_convolution_backward (a = 1: input, grad_output, weight).  FLOPs:
 * grad-input and grad-weight each cost one forward pass (FlopCounterMode).
 * Bytes: read grad_output, input, weight; write the requested grads. */
static void
f_conv_bwd(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    size_t go = a == 0 ? 0 : 1, x = a == 0 ? 1 : 0;
    int nd = c->sh.arg[2].ndim, gi, gw;
    double pass, v[5];

    (void)b;
    if (!is_plain(c, go, -1) || !is_plain(c, x, nd) || !is_plain(c, 2, nd) ||
        nd < 3 || c->sh.arg[go].ndim != nd || dim(c, go, 1) != dim(c, 2, 0))
        return; /* transposed (channel mismatch) is not covered */
    conv_bwd_mask(c, &gi, &gw);
    pass = conv_pass_flops(c, go, c->sh.arg[2].dims, nd);
    out->cls = PR_OPC_CONV_BWD;
    out->conv_n = dim(c, x, 0);
    out->conv_c = dim(c, x, 1);
    out->conv_k = dim(c, 2, 0);
    if (dim(c, 2, 1) > 0 && dim(c, x, 1) % dim(c, 2, 1) == 0)
        out->groups = dim(c, x, 1) / dim(c, 2, 1);
    out->flops = pass * (gi + gw);
    v[0] = tbytes(c, go);
    v[1] = tbytes(c, x);
    v[2] = tbytes(c, 2);
    v[3] = gi ? tbytes(c, x) : 0.0;
    v[4] = gw ? tbytes(c, 2) : 0.0;
    out->bytes = sum_bytes(v, 5);
}

/* The two cudnn gradient ops below: read arguments 1 and 2, write one
 * gradient of sizes sz[0..nd) in argument 1's element size. */
static double
grad_bytes(const struct ctx *c, const int64_t *sz, int nd)
{
    double v[3];

    v[0] = tbytes(c, 1);
    v[1] = tbytes(c, 2);
    v[2] = times_size(pr_dims_product(sz, 3) * pr_dims_product(sz + 3, nd - 3),
                      elem_size(c, 1));
    return sum_bytes(v, 3);
}

/* cudnn_convolution_backward_input(input_size, grad_output, weight, ...):
 * one forward pass of FLOPs from the shapes alone; bytes need input_size
 * (Concrete Inputs). */
static void
f_conv_bwd_input(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    int nd = c->sh.arg[2].ndim;
    int64_t in[5];

    (void)a;
    (void)b;
    if (!is_plain(c, 1, nd) || !is_plain(c, 2, nd) || nd < 3 || nd > 5 ||
        dim(c, 1, 1) != dim(c, 2, 0))
        return;
    out->cls = PR_OPC_CONV_BWD;
    out->conv_n = dim(c, 1, 0);
    out->conv_k = dim(c, 2, 0);
    out->flops = conv_pass_flops(c, 1, c->sh.arg[2].dims, nd);
    if (!concrete_ints(c, 0, nd, in))
        return;
    out->conv_c = in[1];
    out->bytes = grad_bytes(c, in, nd);
}

/* cudnn_convolution_backward_weight(weight_size, grad_output, input, ...):
 * needs weight_size from Concrete Inputs for the kernel size. */
static void
f_conv_bwd_weight(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    int nd = c->sh.arg[1].ndim;
    int64_t w[5];

    (void)a;
    (void)b;
    if (!is_plain(c, 1, nd) || !is_plain(c, 2, nd) || nd < 3 || nd > 5)
        return;
    out->cls = PR_OPC_CONV_BWD;
    out->conv_n = dim(c, 2, 0);
    out->conv_c = dim(c, 2, 1);
    out->conv_k = dim(c, 1, 1);
    if (!concrete_ints(c, 0, nd, w) || w[0] != dim(c, 1, 1))
        return;
    out->flops = conv_pass_flops(c, 1, w, nd);
    out->bytes = grad_bytes(c, w, nd);
}

/* Whether a call's concrete is_causal argument (b - 1: its index in the
 * op's schema, ATen's native_functions.yaml; 0: none) says causal, and
 * the score matrix is square (Sq == Sk): such a kernel skips the masked
 * upper triangle, about half of the products ((S + 1) / 2S), which
 * FlopCounterMode counts in full (review 32g #3: Qwen1.5-0.5B's
 * _flash_attention_forward, is_causal True, S 559, sat at AI 280 FLOP/B
 * for a real 140).  _efficient_attention_* pass an int custom_mask_type
 * (0 none, 1 or 2 causal) at that place. */
static int
sdpa_causal(const struct ctx *c, int b, int64_t sq, int64_t sk)
{
    int64_t v;

    return b > 0 && sq == sk && sq > 1 && concrete_int(c, b - 1, &v) && v != 0;
}

/* Scaled dot-product attention forward.  a = 0: q/k/v are [.., H, S, D]
 * (the SDPA ops); a = 1: [B, S, H, D] (_flash/_efficient_attention_forward).
 * FLOPs 2*B*H*Sq*Sk*(Dq + Dv) (FlopCounterMode), halved for a causal call
 * with Sq == Sk (sdpa_causal).  Bytes: q, k, v read, out written (the fused
 * kernels never write the score matrix). */
static void
f_sdpa(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    int64_t d, dv, sk, sq;
    double rows;

    if (!is_plain(c, 0, -1) || !is_plain(c, 1, c->sh.arg[0].ndim) ||
        !is_plain(c, 2, c->sh.arg[0].ndim) || c->sh.arg[0].ndim < 3)
        return;
    if (a == 1 && c->sh.arg[0].ndim != 4)
        return;
    d = dim(c, 0, -1);
    dv = dim(c, 2, -1);
    sk = a == 1 ? dim(c, 1, 1) : dim(c, 1, -2);
    sq = a == 1 ? dim(c, 0, 1) : dim(c, 0, -2);
    if (d <= 0)
        return;
    rows = numel(c, 0) / (double)d; /* B * H * Sq */
    out->cls = PR_OPC_ATTENTION;
    out->m = sq;
    out->n = sk;
    out->k = d;
    out->flops = 2.0 * rows * (double)sk * (double)(d + dv) *
                 (sdpa_causal(c, b, sq, sk) ? 0.5 : 1.0);
    out->bytes =
        times_size(numel(c, 0) + numel(c, 1) + numel(c, 2) + rows * (double)dv,
                   elem_size(c, 0));
}

/* Attention backward (grad_out, q, k, v, out, ...): five matmuls, FLOPs
 * 2*B*H*Sq*Sk*(3*Dq + 2*Dv) (FlopCounterMode), halved for a causal call
 * with Sq == Sk as the forward.  Bytes: read grad_out, q, k, v, out; write
 * dq, dk, dv. */
static void
f_sdpa_bwd(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    int nd = c->sh.arg[1].ndim;
    int64_t d, dv, sk;
    double rows, qkv;

    if (!is_plain(c, 0, nd) || !is_plain(c, 1, nd) || !is_plain(c, 2, nd) ||
        !is_plain(c, 3, nd) || nd < 3 || (a == 1 && nd != 4))
        return;
    d = dim(c, 1, -1);
    dv = dim(c, 3, -1);
    sk = a == 1 ? dim(c, 2, 1) : dim(c, 2, -2);
    if (d <= 0)
        return;
    rows = numel(c, 1) / (double)d;
    out->cls = PR_OPC_ATTENTION;
    out->m = a == 1 ? dim(c, 1, 1) : dim(c, 1, -2);
    out->n = sk;
    out->k = d;
    out->flops = 2.0 * rows * (double)sk * (double)(3 * d + 2 * dv) *
                 (sdpa_causal(c, b, out->m, sk) ? 0.5 : 1.0);
    qkv = numel(c, 1) + numel(c, 2) + numel(c, 3);
    out->bytes = times_size(2.0 * qkv + 2.0 * numel(c, 0), elem_size(c, 1));
}

/* Per-element ops on input 0: FLOPs a*numel, bytes b*bytes(in).  Covers the
 * unary (1, 2), transcendental (20, 2), activation (1, 2; backward 1, 3),
 * softmax (40, 3/5), log_softmax (21, 3/5), norm backward (8, 5), dropout
 * (5, 2), sum (1, 1), clone/contiguous/to (0, 2) and fill/zero (0, 1) rows
 * of spec §1.2. */
static void
f_elem(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    if (!is_tensor(c, 0))
        return;
    out->flops = (double)a * numel(c, 0);
    out->bytes = passes_bytes(c, 0, b);
    if (out->bytes < 0)
        out->bytes = -1.0;
    if (a == 0)
        out->cls = PR_OPC_MEMORY;
}

/* Binary pointwise (a = 0) and comparisons (a = 1, bool output) over the
 * first two inputs: FLOPs numel(broadcast out); bytes sum(inputs) + out,
 * the output dtype taken from the first tensor input.  b > 1 scales the
 * FLOPs per element (pow: 20). */
static void
f_binary(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    double n_out = broadcast_numel(c, 2), v[3];
    int first = is_tensor(c, 0) ? 0 : 1;

    if (!is_tensor(c, (size_t)first) || c->sh.arg[0].is_list)
        return;
    out->flops = (b > 1 ? b : 1) * n_out;
    v[0] = tbytes(c, 0);
    v[1] = tbytes(c, 1);
    v[2] = times_size(n_out, a ? 1 : elem_size(c, (size_t)first));
    out->bytes = sum_bytes(v, 3);
}

/* addcmul / addcdiv (a = 3) and where (a = 1) over three tensors: FLOPs
 * a*numel(out), bytes sum(3 inputs) + out. */
static void
f_ternary(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    double n_out = broadcast_numel(c, 3), v[4];
    int ref = a == 1 ? 1 : 0; /* where's condition is bool */

    (void)b;
    if (!is_tensor(c, (size_t)ref))
        return;
    out->flops = (double)a * n_out;
    v[0] = tbytes(c, 0);
    v[1] = tbytes(c, 1);
    v[2] = tbytes(c, 2);
    v[3] = times_size(n_out, elem_size(c, (size_t)ref));
    out->bytes = sum_bytes(v, 4);
}

/* mean (a = 0): numel + 1 FLOPs, bytes(in) + one element; norm (a = 1):
 * 2*numel + 1 FLOPs, bytes(in). */
static void
f_mean_norm(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    (void)b;
    if (!is_plain(c, 0, -1))
        return;
    out->flops = (a ? 2.0 : 1.0) * numel(c, 0) + 1.0;
    out->bytes = tbytes(c, 0);
    if (out->bytes >= 0 && !a)
        out->bytes += elem_size(c, 0);
}

/* Normalisations [profreport ext]: 8 FLOPs per element (PyProf's batch
 * norm constant) and a*bytes(in) plus the bytes of the other tensor
 * inputs (weight, bias, running statistics). */
static void
f_norm_params(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    size_t i;
    double extra = 0.0, t;

    (void)b;
    if (!is_plain(c, 0, -1))
        return;
    for (i = 1; i < c->sh.n; i++) {
        t = is_plain(c, i, -1) ? tbytes(c, i) : 0.0;
        if (t < 0)
            return;
        extra += t;
    }
    out->flops = 8.0 * numel(c, 0);
    t = passes_bytes(c, 0, a);
    out->bytes = t < 0 ? -1.0 : t + extra;
}

/* Pooling output size per spatial dim (PyTorch's rule, ceil_mode included);
 * 0 when not computable. */
static int64_t
pool_out(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, int ceil)
{
    int64_t span = in + 2 * p - d * (k - 1) - 1, o;

    if (s <= 0 || span < 0)
        return 0;
    o = (span + (ceil ? s - 1 : 0)) / s + 1;
    if (ceil && (o - 1) * s >= in + p)
        o--;
    return o;
}

/* max_pool (a = 0, with indices a = 1) and avg_pool (a = 2) over b spatial
 * dims [profreport ext]: FLOPs N*C*prod(out)*prod(kernel), bytes in + out
 * (+ 8 bytes per output for the indices).  Needs kernel/stride/padding from
 * Concrete Inputs; an empty stride list means stride = kernel. */
static void
f_pool(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    int64_t k[3], s[3], p[3], dl[3] = {1, 1, 1}, ceil = 0, o;
    double outs = 1.0, kern = 1.0, nc;
    int i, nd = c->sh.arg[0].ndim;

    if (!is_plain(c, 0, -1) || nd < b + 1 || b > 3)
        return;
    if (!concrete_ints(c, 1, b, k) || !concrete_ints(c, 3, b, p))
        return;
    if (!concrete_ints(c, 2, b, s))
        memcpy(s, k, sizeof(s));
    if (a != 2 && !concrete_ints(c, 4, b, dl))
        return;
    (void)concrete_int(c, a == 2 ? 4 : 5, &ceil);
    for (i = 0; i < b; i++) {
        o = pool_out(dim(c, 0, nd - b + i), k[i], s[i], p[i], dl[i], (int)ceil);
        if (o <= 0)
            return;
        outs *= (double)o;
        kern *= (double)k[i];
    }
    nc = numel(c, 0) / pr_dims_product(c->sh.arg[0].dims + nd - b, b);
    out->flops = nc * outs * kern;
    out->bytes = times_size(numel(c, 0) + nc * outs, elem_size(c, 0));
    if (out->bytes >= 0 && a == 1)
        out->bytes += 8.0 * nc * outs;
}

/* adaptive_avg_pool (output_size in Concrete Inputs) [profreport ext]:
 * every input element is summed once. */
static void
f_adaptive_pool(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    int64_t o[3];
    int nd = c->sh.arg[0].ndim;
    double nc;

    (void)a;
    if (!is_plain(c, 0, -1) || nd < b + 1 || !concrete_ints(c, 1, b, o))
        return;
    nc = numel(c, 0) / pr_dims_product(c->sh.arg[0].dims + nd - b, b);
    out->flops = numel(c, 0);
    out->bytes =
        times_size(numel(c, 0) + nc * pr_dims_product(o, b), elem_size(c, 0));
}

/* Pooling backward (grad_output, input, ...) [profreport ext]: one
 * scatter/add per grad_output element; reads grad_output (and the int64
 * indices, input a), writes grad_input. */
static void
f_pool_bwd(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    double v[3];

    (void)b;
    if (!is_plain(c, 0, -1) || !is_plain(c, 1, -1))
        return;
    out->flops = numel(c, 0);
    v[0] = tbytes(c, 0);
    v[1] = tbytes(c, 1);
    v[2] = (a > 0 && is_plain(c, (size_t)a, -1)) ? tbytes(c, (size_t)a) : 0.0;
    out->bytes = sum_bytes(v, 3);
}

/* embedding(weight[V, D], indices) (a = 0): bytes(I) + 2*numel(I)*D*size;
 * embedding_dense_backward(grad[.., D], indices, ...) (a = 1):
 * 3*numel(I)*D*size.  No FLOPs (PyProf). */
static void
f_embedding(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    double rows, d, v[2];

    (void)b;
    if (!is_plain(c, 0, -1) || !is_plain(c, 1, -1))
        return;
    d = (double)dim(c, 0, -1);
    rows = numel(c, 1);
    out->flops = 0.0;
    out->cls = PR_OPC_MEMORY;
    v[0] = a ? 0.0 : tbytes(c, 1);
    v[1] = times_size((a ? 3.0 : 2.0) * rows * d, elem_size(c, 0));
    out->bytes = sum_bytes(v, 2);
}

/* mse_loss (a = 0: input, target, reduction) and mse_loss_backward (a = 1:
 * grad, input, target, reduction): PyProf's e = numel*(3|2) forward,
 * numel*(4|3) backward (none|mean/sum); FLOPs 2e + 1, bytes e*size.  The
 * reduction must be recorded. */
static void
f_mse(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    size_t in = a ? 1 : 0;
    int64_t red;
    double e;

    (void)b;
    if (!is_plain(c, in, -1) || !concrete_int(c, a ? 3 : 2, &red))
        return;
    e = numel(c, in) * (double)((red == 0 ? 3 : 2) + a);
    out->flops = 2.0 * e + 1.0;
    out->bytes = times_size(e, elem_size(c, in));
}

/* nll_loss forward (a = 0: input[N, C], target[N]), its backward (a = 1:
 * grad, input, target) and cross_entropy (a = 2) [profreport ext].
 * Forward: one gather-add per target, bytes target + gathered + written
 * values.  Backward writes the whole grad_input.  cross_entropy adds the
 * log_softmax row (21 FLOPs, 3 bytes per element). */
static void
f_nll(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    size_t in = a == 1 ? 1 : 0, tg = in + 1;
    double t, x, v[3];

    (void)b;
    if (!is_plain(c, in, -1) || !is_plain(c, tg, -1))
        return;
    t = numel(c, tg);
    x = tbytes(c, in);
    out->flops = t + (a == 2 ? 21.0 * numel(c, in) : 0.0);
    v[0] = tbytes(c, tg);
    v[1] = a == 1 ? x : times_size(2.0 * t, elem_size(c, in));
    v[2] = a == 2 ? (x < 0 ? -1.0 : 3.0 * x) : 0.0;
    out->bytes = sum_bytes(v, 3);
}

/* _foreach_* ops over TensorLists (a FLOPs per element of list 0, b list
 * inputs read) [profreport ext]: bytes = (inputs read + list 0 written) *
 * size, known only when an element type was recorded. */
static void
f_foreach(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    double elems;
    int i;

    if (c->sh.n < 1 || !c->sh.arg[0].is_list)
        return;
    elems = b >= 1 ? numel(c, 0) : 0.0;
    out->flops = (double)a * numel(c, 0);
    for (i = 1; i < b; i++) {
        if (is_tensor(c, (size_t)i))
            elems += numel(c, (size_t)i);
    }
    out->bytes = times_size(elems + numel(c, 0), c->op_size);
}

/* _fused_adam(w)_ (params, grads, exp_avgs, exp_avg_sqs, ...): PyProf's adam
 * row: 0 FLOPs, bytes 6*numel(w)*size(w) + numel(g)*size(g) (read and write
 * w, m, v; read g). */
static void
f_adam(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    (void)a;
    (void)b;
    if (c->sh.n < 2 || !c->sh.arg[0].is_list)
        return;
    out->flops = 0.0;
    out->cls = PR_OPC_MEMORY;
    out->bytes = times_size(6.0 * numel(c, 0) + numel(c, 1), c->op_size);
}

/* copy_(dst, src): numel*(size(src) + size(dst)), no FLOPs. */
static void
f_copy(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    int sd = elem_size(c, 0), ss = elem_size(c, 1);

    (void)a;
    (void)b;
    if (!is_plain(c, 0, -1) || !is_plain(c, 1, -1))
        return;
    out->flops = 0.0;
    out->cls = PR_OPC_MEMORY;
    if (sd > 0 && ss > 0)
        out->bytes = numel(c, 1) * (sd + ss);
}

/* cat / stack (TensorList, dim): 2 * sum(bytes of inputs), no FLOPs. */
static void
f_cat(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    (void)a;
    (void)b;
    if (c->sh.n < 1 || !c->sh.arg[0].is_list)
        return;
    out->flops = 0.0;
    out->cls = PR_OPC_MEMORY;
    out->bytes = times_size(2.0 * numel(c, 0), c->op_size);
}

/* zeros / ones / full (size, ...): bytes written, float assumed (PyProf);
 * the size list must be recorded. */
static void
f_factory(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    const struct pr_concrete_arg *s;

    (void)a;
    (void)b;
    if (c->ci.n < 1 || c->ci.arg[0].kind != PR_CI_LIST)
        return;
    s = &c->ci.arg[0];
    out->flops = 0.0;
    out->cls = PR_OPC_MEMORY;
    out->bytes = 4.0 * pr_dims_product(s->v, s->n > 3 ? 3 : s->n) *
                 (s->n > 3 ? pr_dims_product(s->v + 3, s->n - 3) : 1.0);
}

/* Views and allocations: no arithmetic and no DRAM traffic. */
static void
f_none(const struct ctx *c, int a, int b, struct pr_op_cost *out)
{
    (void)c;
    (void)a;
    (void)b;
    out->flops = 0.0;
    out->bytes = 0.0;
    out->cls = PR_OPC_MEMORY;
}

/* Names are matched after normalisation: no "aten::", no leading '_' (or
 * "__" dunder pair), no trailing in-place '_'. */
static const struct formula formulas[] = {
    {"mm", f_mm, 0, 0, "gemm"},
    {"addmm", f_mm, 1, 0, "gemm"},
    {"bmm", f_bmm, 0, 0, "gemm"},
    {"baddbmm", f_bmm, 1, 0, "gemm"},
    {"matmul", f_matmul, 0, 0, "gemm"},
    {"linear", f_linear, 0, 0, "gemm"},
    {"mv", f_mv, 0, 0, "gemv"},
    {"addmv", f_mv, 1, 0, "gemv"},
    {"dot", f_dot, 0, 0, "gemv"},
    {"vdot", f_dot, 0, 0, "gemv"},
    {"conv1d", f_conv, 0, 0, "conv"},
    {"conv2d", f_conv, 0, 0, "conv"},
    {"conv3d", f_conv, 0, 0, "conv"},
    {"convolution", f_conv, 1, 0, "conv"},
    {"conv_transpose1d", f_conv, 2, 0, "conv"},
    {"conv_transpose2d", f_conv, 2, 0, "conv"},
    {"conv_transpose3d", f_conv, 2, 0, "conv"},
    {"cudnn_convolution", f_conv, 3, 0, "conv"},
    {"mkldnn_convolution", f_conv, 4, 0, "conv"},
    {"miopen_convolution", f_conv, 4, 0, "conv"},
    {"cudnn_convolution_transpose", f_conv, 5, 0, "conv"},
    {"convolution_backward", f_conv_bwd, 0, 0, "conv_backward"},
    {"cudnn_convolution_backward", f_conv_bwd, 1, 0, "conv_backward"},
    {"miopen_convolution_backward", f_conv_bwd, 1, 0, "conv_backward"},
    {"cudnn_convolution_backward_input", f_conv_bwd_input, 0, 0,
     "conv_backward"},
    {"cudnn_convolution_backward_weight", f_conv_bwd_weight, 0, 0,
     "conv_backward"},
    /* b: 1 + the index of is_causal (custom_mask_type for
       _efficient_attention_*) in ATen's native_functions.yaml schema */
    {"scaled_dot_product_attention", f_sdpa, 0, 6, "attention"},
    {"scaled_dot_product_flash_attention", f_sdpa, 0, 5, "attention"},
    {"scaled_dot_product_efficient_attention", f_sdpa, 0, 7, "attention"},
    {"scaled_dot_product_cudnn_attention", f_sdpa, 0, 7, "attention"},
    {"flash_attention_forward", f_sdpa, 1, 9, "attention"},
    {"efficient_attention_forward", f_sdpa, 1, 10, "attention"},
    {"scaled_dot_product_flash_attention_backward", f_sdpa_bwd, 0, 12,
     "attention_backward"},
    {"scaled_dot_product_efficient_attention_backward", f_sdpa_bwd, 0, 12,
     "attention_backward"},
    {"scaled_dot_product_cudnn_attention_backward", f_sdpa_bwd, 0, 15,
     "attention_backward"},
    {"flash_attention_backward", f_sdpa_bwd, 1, 12, "attention_backward"},
    {"efficient_attention_backward", f_sdpa_bwd, 1, 15, "attention_backward"},
    /* pointwise unary and representation: numel, 2*bytes */
    {"abs", f_elem, 1, 2, "unary"},
    {"neg", f_elem, 1, 2, "unary"},
    {"reciprocal", f_elem, 1, 2, "unary"},
    {"ceil", f_elem, 1, 2, "unary"},
    {"floor", f_elem, 1, 2, "unary"},
    {"round", f_elem, 1, 2, "unary"},
    {"trunc", f_elem, 1, 2, "unary"},
    {"frac", f_elem, 1, 2, "unary"},
    {"sign", f_elem, 1, 2, "unary"},
    {"clamp", f_elem, 1, 2, "unary"},
    {"clamp_min", f_elem, 1, 2, "unary"},
    {"clamp_max", f_elem, 1, 2, "unary"},
    {"bitwise_not", f_elem, 1, 2, "unary"},
    {"logical_not", f_elem, 1, 2, "unary"},
    /* transcendental: 20*numel, 2*bytes */
    {"exp", f_elem, 20, 2, "transcendental"},
    {"expm1", f_elem, 20, 2, "transcendental"},
    {"log", f_elem, 20, 2, "transcendental"},
    {"log10", f_elem, 20, 2, "transcendental"},
    {"log1p", f_elem, 20, 2, "transcendental"},
    {"log2", f_elem, 20, 2, "transcendental"},
    {"sqrt", f_elem, 20, 2, "transcendental"},
    {"rsqrt", f_elem, 20, 2, "transcendental"},
    {"sin", f_elem, 20, 2, "transcendental"},
    {"cos", f_elem, 20, 2, "transcendental"},
    {"tan", f_elem, 20, 2, "transcendental"},
    {"asin", f_elem, 20, 2, "transcendental"},
    {"acos", f_elem, 20, 2, "transcendental"},
    {"atan", f_elem, 20, 2, "transcendental"},
    {"sinh", f_elem, 20, 2, "transcendental"},
    {"cosh", f_elem, 20, 2, "transcendental"},
    {"tanh", f_elem, 20, 2, "transcendental"},
    {"sigmoid", f_elem, 20, 2, "transcendental"},
    {"erf", f_elem, 20, 2, "transcendental"},
    {"erfc", f_elem, 20, 2, "transcendental"},
    {"erfinv", f_elem, 20, 2, "transcendental"},
    /* binary pointwise and comparisons */
    {"add", f_binary, 0, 1, "binary"},
    {"sub", f_binary, 0, 1, "binary"},
    {"rsub", f_binary, 0, 1, "binary"},
    {"mul", f_binary, 0, 1, "binary"},
    {"div", f_binary, 0, 1, "binary"},
    {"true_divide", f_binary, 0, 1, "binary"},
    {"floor_divide", f_binary, 0, 1, "binary"},
    {"remainder", f_binary, 0, 1, "binary"},
    {"fmod", f_binary, 0, 1, "binary"},
    {"maximum", f_binary, 0, 1, "binary"},
    {"minimum", f_binary, 0, 1, "binary"},
    {"atan2", f_binary, 0, 20, "binary"},
    {"pow", f_binary, 0, 20, "binary"},
    {"and", f_binary, 0, 1, "binary"},
    {"or", f_binary, 0, 1, "binary"},
    {"xor", f_binary, 0, 1, "binary"},
    {"lshift", f_binary, 0, 1, "binary"},
    {"rshift", f_binary, 0, 1, "binary"},
    {"bitwise_and", f_binary, 0, 1, "binary"},
    {"bitwise_or", f_binary, 0, 1, "binary"},
    {"bitwise_xor", f_binary, 0, 1, "binary"},
    {"native_dropout_backward", f_binary, 0, 1, "binary"},
    {"eq", f_binary, 1, 1, "compare"},
    {"ne", f_binary, 1, 1, "compare"},
    {"lt", f_binary, 1, 1, "compare"},
    {"le", f_binary, 1, 1, "compare"},
    {"gt", f_binary, 1, 1, "compare"},
    {"ge", f_binary, 1, 1, "compare"},
    {"logical_and", f_binary, 1, 1, "compare"},
    {"logical_or", f_binary, 1, 1, "compare"},
    {"logical_xor", f_binary, 1, 1, "compare"},
    {"addcmul", f_ternary, 3, 0, "ternary"},
    {"addcdiv", f_ternary, 3, 0, "ternary"},
    {"where", f_ternary, 1, 0, "ternary"},
    /* activations: numel, 2*bytes forward, 3*bytes backward */
    {"relu", f_elem, 1, 2, "activation"},
    {"relu6", f_elem, 1, 2, "activation"},
    {"leaky_relu", f_elem, 1, 2, "activation"},
    {"elu", f_elem, 1, 2, "activation"},
    {"celu", f_elem, 1, 2, "activation"},
    {"selu", f_elem, 1, 2, "activation"},
    {"gelu", f_elem, 1, 2, "activation"},
    {"silu", f_elem, 1, 2, "activation"},
    {"mish", f_elem, 1, 2, "activation"},
    {"hardtanh", f_elem, 1, 2, "activation"},
    {"hardswish", f_elem, 1, 2, "activation"},
    {"hardsigmoid", f_elem, 1, 2, "activation"},
    {"hardshrink", f_elem, 1, 2, "activation"},
    {"softshrink", f_elem, 1, 2, "activation"},
    {"softplus", f_elem, 1, 2, "activation"},
    {"softsign", f_elem, 1, 2, "activation"},
    {"tanhshrink", f_elem, 1, 2, "activation"},
    {"threshold", f_elem, 1, 2, "activation"},
    {"prelu", f_elem, 1, 2, "activation"},
    {"rrelu", f_elem, 1, 2, "activation"},
    {"log_sigmoid", f_elem, 1, 2, "activation"},
    {"threshold_backward", f_elem, 1, 3, "activation"},
    {"gelu_backward", f_elem, 1, 3, "activation"},
    {"silu_backward", f_elem, 1, 3, "activation"},
    {"hardtanh_backward", f_elem, 1, 3, "activation"},
    {"hardswish_backward", f_elem, 1, 3, "activation"},
    {"leaky_relu_backward", f_elem, 1, 3, "activation"},
    {"elu_backward", f_elem, 1, 3, "activation"},
    {"sigmoid_backward", f_elem, 1, 3, "activation"},
    {"tanh_backward", f_elem, 1, 3, "activation"},
    /* softmax family */
    {"softmax", f_elem, 40, 3, "softmax"},
    {"softmax_backward_data", f_elem, 40, 5, "softmax"},
    {"log_softmax", f_elem, 21, 3, "log_softmax"},
    {"log_softmax_backward_data", f_elem, 21, 5, "log_softmax"},
    /* norms */
    /* batch norm, what the kernels move [profreport ext]: training reads
     * the input twice (statistics, then normalise) and writes it once,
     * 3*bytes(in); inference reads once and writes once; plus the
     * parameter and running-statistics vectors.  PyProf charges 4x. */
    {"batch_norm", f_norm_params, 3, 0, "norm"},
    {"batch_norm_impl_index", f_norm_params, 3, 0, "norm"},
    {"native_batch_norm", f_norm_params, 3, 0, "norm"},
    {"native_batch_norm_legit", f_norm_params, 3, 0, "norm"},
    {"native_batch_norm_legit_no_training", f_norm_params, 2, 0, "norm"},
    {"cudnn_batch_norm", f_norm_params, 3, 0, "norm"},
    {"miopen_batch_norm", f_norm_params, 3, 0, "norm"},
    {"native_batch_norm_backward", f_elem, 8, 5, "norm"},
    {"cudnn_batch_norm_backward", f_elem, 8, 5, "norm"},
    {"miopen_batch_norm_backward", f_elem, 8, 5, "norm"},
    {"batch_norm_backward", f_elem, 8, 5, "norm"},
    /* layer/group/instance/RMS norm keep a row in registers: one read and
     * one write of the input, plus weight and bias [profreport ext] */
    {"layer_norm", f_norm_params, 2, 0, "norm"},
    {"native_layer_norm", f_norm_params, 2, 0, "norm"},
    {"group_norm", f_norm_params, 2, 0, "norm"},
    {"native_group_norm", f_norm_params, 2, 0, "norm"},
    {"instance_norm", f_norm_params, 2, 0, "norm"},
    {"rms_norm", f_norm_params, 2, 0, "norm"},
    {"native_layer_norm_backward", f_elem, 8, 5, "norm"},
    {"native_group_norm_backward", f_elem, 8, 5, "norm"},
    /* reductions */
    {"sum", f_elem, 1, 1, "reduction"},
    {"mean", f_mean_norm, 0, 0, "reduction"},
    {"norm", f_mean_norm, 1, 0, "reduction"},
    {"linalg_vector_norm", f_mean_norm, 1, 0, "reduction"},
    {"any", f_elem, 0, 1, "reduction"},
    {"all", f_elem, 0, 1, "reduction"},
    /* pooling */
    {"max_pool1d", f_pool, 0, 1, "pooling"},
    {"max_pool2d", f_pool, 0, 2, "pooling"},
    {"max_pool3d", f_pool, 0, 3, "pooling"},
    {"max_pool1d_with_indices", f_pool, 1, 1, "pooling"},
    {"max_pool2d_with_indices", f_pool, 1, 2, "pooling"},
    {"max_pool3d_with_indices", f_pool, 1, 3, "pooling"},
    {"avg_pool1d", f_pool, 2, 1, "pooling"},
    {"avg_pool2d", f_pool, 2, 2, "pooling"},
    {"avg_pool3d", f_pool, 2, 3, "pooling"},
    {"adaptive_avg_pool1d", f_adaptive_pool, 0, 1, "pooling"},
    {"adaptive_avg_pool2d", f_adaptive_pool, 0, 2, "pooling"},
    {"adaptive_avg_pool3d", f_adaptive_pool, 0, 3, "pooling"},
    {"max_pool2d_with_indices_backward", f_pool_bwd, 7, 0, "pooling"},
    {"max_pool3d_with_indices_backward", f_pool_bwd, 7, 0, "pooling"},
    {"adaptive_avg_pool2d_backward", f_pool_bwd, 0, 0, "pooling"},
    {"adaptive_avg_pool3d_backward", f_pool_bwd, 0, 0, "pooling"},
    /* embedding, dropout, losses */
    {"embedding", f_embedding, 0, 0, "embedding"},
    {"embedding_backward", f_embedding, 1, 0, "embedding"},
    {"embedding_dense_backward", f_embedding, 1, 0, "embedding"},
    {"dropout", f_elem, 5, 2, "dropout"},
    {"native_dropout", f_elem, 5, 2, "dropout"},
    {"feature_dropout", f_elem, 5, 2, "dropout"},
    {"alpha_dropout", f_elem, 5, 2, "dropout"},
    {"mse_loss", f_mse, 0, 0, "loss"},
    {"mse_loss_backward", f_mse, 1, 0, "loss"},
    {"nll_loss", f_nll, 0, 0, "loss"},
    {"nll_loss_nd", f_nll, 0, 0, "loss"},
    {"nll_loss_forward", f_nll, 0, 0, "loss"},
    {"nll_loss2d_forward", f_nll, 0, 0, "loss"},
    {"nll_loss_backward", f_nll, 1, 0, "loss"},
    {"nll_loss2d_backward", f_nll, 1, 0, "loss"},
    {"cross_entropy_loss", f_nll, 2, 0, "loss"},
    /* optimizers */
    {"fused_adam", f_adam, 0, 0, "optimizer"},
    {"fused_adamw", f_adam, 0, 0, "optimizer"},
    {"foreach_add", f_foreach, 1, 2, "optimizer"},
    {"foreach_sub", f_foreach, 1, 2, "optimizer"},
    {"foreach_mul", f_foreach, 1, 2, "optimizer"},
    {"foreach_div", f_foreach, 1, 2, "optimizer"},
    {"foreach_lerp", f_foreach, 3, 2, "optimizer"},
    {"foreach_addcmul", f_foreach, 3, 3, "optimizer"},
    {"foreach_addcdiv", f_foreach, 3, 3, "optimizer"},
    {"foreach_sqrt", f_foreach, 20, 1, "optimizer"},
    {"foreach_neg", f_foreach, 1, 1, "optimizer"},
    {"foreach_zero", f_foreach, 0, 0, "optimizer"},
    /* copies and fills */
    {"copy", f_copy, 0, 0, "copy"},
    {"clone", f_elem, 0, 2, "copy"},
    {"contiguous", f_elem, 0, 2, "copy"},
    {"to", f_elem, 0, 2, "copy"},
    {"to_copy", f_elem, 0, 2, "copy"},
    {"cat", f_cat, 0, 0, "copy"},
    {"stack", f_cat, 0, 0, "copy"},
    {"fill", f_elem, 0, 1, "fill"},
    {"zero", f_elem, 0, 1, "fill"},
    {"zeros_like", f_elem, 0, 1, "fill"},
    {"ones_like", f_elem, 0, 1, "fill"},
    {"full_like", f_elem, 0, 1, "fill"},
    {"zeros", f_factory, 0, 0, "fill"},
    {"ones", f_factory, 0, 0, "fill"},
    {"full", f_factory, 0, 0, "fill"},
    /* views and allocations */
    {"view", f_none, 0, 0, "view"},
    {"view_as", f_none, 0, 0, "view"},
    {"reshape", f_none, 0, 0, "view"},
    {"unsafe_view", f_none, 0, 0, "view"},
    {"reshape_alias", f_none, 0, 0, "view"},
    {"as_strided", f_none, 0, 0, "view"},
    {"permute", f_none, 0, 0, "view"},
    {"transpose", f_none, 0, 0, "view"},
    {"t", f_none, 0, 0, "view"},
    {"expand", f_none, 0, 0, "view"},
    {"expand_as", f_none, 0, 0, "view"},
    {"unsqueeze", f_none, 0, 0, "view"},
    {"squeeze", f_none, 0, 0, "view"},
    {"flatten", f_none, 0, 0, "view"},
    {"unflatten", f_none, 0, 0, "view"},
    {"slice", f_none, 0, 0, "view"},
    {"select", f_none, 0, 0, "view"},
    {"narrow", f_none, 0, 0, "view"},
    {"split", f_none, 0, 0, "view"},
    {"split_with_sizes", f_none, 0, 0, "view"},
    {"chunk", f_none, 0, 0, "view"},
    {"unbind", f_none, 0, 0, "view"},
    {"detach", f_none, 0, 0, "view"},
    {"alias", f_none, 0, 0, "view"},
    {"conj", f_none, 0, 0, "view"},
    {"resolve_conj", f_none, 0, 0, "view"},
    {"resolve_neg", f_none, 0, 0, "view"},
    {"lift_fresh", f_none, 0, 0, "view"},
    {"empty", f_none, 0, 0, "alloc"},
    {"empty_like", f_none, 0, 0, "alloc"},
    {"empty_strided", f_none, 0, 0, "alloc"},
    {"resize", f_none, 0, 0, "alloc"},
    {"set", f_none, 0, 0, "alloc"},
};

/* Copy of name without "aten::", the '_' prefix (or "__" pair) and the
 * in-place '_' suffix; "" when it does not fit. */
static void
normalise_name(const char *name, char *buf, size_t cap)
{
    size_t n;

    if (strncmp(name, "aten::", 6) == 0)
        name += 6;
    if (strncmp(name, "__", 2) == 0)
        name += 2;
    else if (name[0] == '_')
        name++;
    n = strlen(name);
    if (n >= cap) {
        buf[0] = '\0';
        return;
    }
    memcpy(buf, name, n + 1);
    while (n > 0 && buf[n - 1] == '_')
        buf[--n] = '\0';
}

static const struct formula *
find_formula(const char *name)
{
    char base[96];
    size_t i;

    normalise_name(name, base, sizeof(base));
    for (i = 0; i < sizeof(formulas) / sizeof(formulas[0]); i++) {
        if (strcmp(formulas[i].name, base) == 0)
            return &formulas[i];
    }
    return NULL;
}

const char *
pr_flops_family_of(const char *name)
{
    const struct formula *f = name ? find_formula(name) : NULL;

    return f ? f->family : NULL;
}

int
pr_flops_fused_attention(const char *name)
{
    const struct formula *f = name ? find_formula(name) : NULL;

    return f != NULL && (f->fn == f_sdpa || f->fn == f_sdpa_bwd);
}

/* The formulas' view of the call's inputs; a list that was not recorded
 * is empty. */
static enum pr_status
load_ctx(const struct pr_op_call *call, struct ctx *c, struct pr_error *err)
{
    const struct pr_op_inputs *in = call->in;
    size_t i;

    memset(c, 0, sizeof(*c));
    c->grads = call->conv_grads;
    if (in == NULL)
        return PR_OK;
    if (in->st != PR_OK)
        return pr_error_set(err, in->st, "%s: recorded inputs do not parse",
                            call->name);
    if (in->has_shapes)
        c->sh = in->shapes;
    if (in->has_types) {
        memcpy(c->ty, in->types.t, in->types.n * sizeof(c->ty[0]));
        c->n_ty = in->types.n;
    }
    if (in->has_concrete)
        c->ci = in->concrete;
    if (in->has_strides && in->has_shapes && in->strides.n == in->shapes.n)
        c->st = &in->strides;
    for (i = 0; i < c->n_ty && c->op_size == 0; i++)
        c->op_size = pr_dtype_size(c->ty[i]);
    return PR_OK;
}

static enum pr_dtype
first_dtype(const struct ctx *c)
{
    size_t i;

    for (i = 0; i < c->n_ty; i++) {
        if (pr_dtype_size(c->ty[i]) > 0)
            return c->ty[i];
    }
    return PR_DT_UNKNOWN;
}

enum pr_status
pr_flops_estimate(const struct pr_op_call *call, struct pr_op_cost *out,
                  struct pr_error *err)
{
    const struct formula *f;
    struct ctx c;
    enum pr_status st;

    memset(out, 0, sizeof(*out));
    out->flops = out->bytes = -1.0;
    if (!call->name)
        return PR_OK;
    st = load_ctx(call, &c, err);
    if (st != PR_OK)
        return st;
    out->dtype = first_dtype(&c);
    f = find_formula(call->name);
    if (f) {
        out->family = f->family;
        if (call->in != NULL && call->in->has_shapes)
            f->fn(&c, f->a, f->b, out);
    }
    if (out->flops < 0 && call->trace_flops >= 0) {
        out->flops = call->trace_flops;
        out->flops_from_trace = 1;
    }
    return PR_OK;
}

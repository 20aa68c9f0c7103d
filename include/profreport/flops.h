/* flops.h - FLOP and DRAM-byte estimates for one operator call, from the
 * shapes, dtypes and concrete inputs the profiler recorded
 * (spec/flops-and-formats.md §1.2 and §1.4), as the model keeps them
 * parsed (shapes.h).  Pure functions: no allocation, no global state, no
 * text parsing.  Rates and peaks are roofline.h's job.
 *
 * Conventions: one fused multiply-add is 2 FLOPs; "bytes" is the DRAM
 * traffic the op needs with ideal caching; -1 means "not known" (no formula,
 * no shapes, or a value such as a stride that was not recorded) - a number
 * is never guessed. */
#ifndef PROFREPORT_FLOPS_H
#define PROFREPORT_FLOPS_H

#include <stddef.h>
#include <stdint.h>

#include "profreport/dtype.h"
#include "profreport/error.h"
#include "profreport/shapes.h"

/* What kind of op the estimate describes; GEMM and conv carry dims for the
 * tensor-core alignment findings (tensorcore.h). */
enum pr_op_class {
    PR_OPC_OTHER = 0,
    PR_OPC_GEMM,      /* output M x N, reduction K (torch convention) */
    PR_OPC_GEMV,      /* mv / addmv / dot: no alignment finding */
    PR_OPC_CONV,      /* forward convolution */
    PR_OPC_CONV_BWD,  /* convolution backward (input and/or weight grad) */
    PR_OPC_ATTENTION, /* scaled dot-product attention, fwd or bwd */
    PR_OPC_MEMORY     /* copies, fills, cat: FLOPs 0 by definition */
};

/* One call, as the trace recorded it. */
struct pr_op_call {
    const char *name;              /* "aten::mm"; borrowed, may be NULL */
    const struct pr_op_inputs *in; /* its inputs (pr_shapes_get()); NULL
                                      when none were recorded */
    double trace_flops;            /* the trace's own "flops" arg; < 0
                                      absent */
    unsigned conv_grads;           /* a conv backward without a recorded
                                      output_mask: the PR_CONV_GRAD_* its
                                      inner ops show it computed
                                      (pr_roofline_conv_grads); 0 not
                                      known (both, as FlopCounterMode) */
};

/* The gradients a convolution backward computes (pr_op_call.conv_grads). */
#define PR_CONV_GRAD_INPUT 1u  /* the data gradient (dgrad) */
#define PR_CONV_GRAD_WEIGHT 2u /* the weight gradient (wgrad) */

/* The gradient an op of this name computes on its own: PR_CONV_GRAD_INPUT
 * for a *_backward_input op (cudnn_convolution_backward_input), _WEIGHT
 * for a *_backward_weight op, 0 for any other name (NULL included). */
unsigned pr_flops_conv_grad_of(const char *name);

/* The formula family of an op name ("gemm", "softmax", "attention",
 * "attention_backward", ...), as pr_op_cost.family; NULL for a name no
 * formula covers (NULL included). */
const char *pr_flops_family_of(const char *name);

/* Whether an op name is fused attention, forward or backward
 * (scaled_dot_product_*attention*, _flash_attention_*,
 * _efficient_attention_*: the kernels keep the score matrix on chip). */
int pr_flops_fused_attention(const char *name);

/* Estimate for one call. */
struct pr_op_cost {
    double flops;        /* per call; -1 unknown */
    double bytes;        /* per call; -1 unknown */
    enum pr_dtype dtype; /* dtype of the first tensor input */
    enum pr_op_class cls;
    const char *family;     /* static text: "gemm", "conv", "softmax", ...;
                               NULL when no formula matched the name */
    int flops_from_trace;   /* flops came from the trace's "flops" arg */
    int64_t m, n, k, batch; /* GEMM: out M x N, reduction K; 0 unknown */
    int64_t conv_n, conv_c, conv_k, groups; /* conv: batch, in/out channels */
};

/* Estimate one call.  PR_OK with flops/bytes -1 when no formula applies;
 * PR_E_FORMAT / PR_E_LIMIT when a recorded text did not parse (in->st; the
 * caller may treat that as unknown).  Never allocates. */
PR_NODISCARD enum pr_status pr_flops_estimate(const struct pr_op_call *call,
                                              struct pr_op_cost *out,
                                              struct pr_error *err);

#endif

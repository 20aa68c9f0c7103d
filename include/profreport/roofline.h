/* roofline.h - the GPU-efficiency pass over one run: device peaks,
 * per-operator FLOPs/bytes/rates/roofline position and the tensor_cores
 * object (issue #4); recommend.h turns them into advice.
 *
 * It works on the C rows of the analyses before them (devices.h, ops.h,
 * kernels.h) and writes only what it owns, in C:
 *   each device row's peaks (and an AMD row's architecture, when the
 *     table knows it more precisely);
 *   each operator row's rate (flops, bytes, achieved_tflops,
 *     achieved_gbps, arithmetic_intensity, bound, roofline_pct, dtype...);
 * and serialises its own two sections, tensor_cores and roofline.  The
 * rows are written out afterwards, once, by their own emitters.
 * Rates need device time and stay null without it; percentages also need a
 * known device and stay null for an unknown one. */
#ifndef PROFREPORT_ROOFLINE_H
#define PROFREPORT_ROOFLINE_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/analysis.h"
#include "profreport/devices.h"
#include "profreport/error.h"
#include "profreport/flops.h"
#include "profreport/kernels.h"
#include "profreport/ops.h"
#include "profreport/trace.h"
#include "profreport/tree.h"

/* roofline_mark of a memory-bound point above its roof whose input is a
 * broadcast (expanded) view the shapes count in full: more bytes counted
 * than moved.  Its roofline_pct is null. */
#define PR_MARK_BROADCAST_INPUT "broadcast_input"

struct pr_roofline_in {
    /* NULL: rows alone (hand-made rows in tests): per-call concrete
     * inputs and per-op tensor-core time then come only from the rows */
    const struct pr_trace *t;
    /* the op tree of t: kernels reach their op as the tree links them (by
     * External id, or by time where ids do not link); NULL: by External
     * id alone */
    const struct pr_tree *tree;
    struct pr_device_rows *devices;       /* peaks filled in */
    struct pr_ops *ops;                   /* rates filled in */
    const struct pr_kernel_refs *kernels; /* may be NULL: no kernels */
    int32_t main_device; /* pr_gpu_util_busiest(); -1: the first device */
    /* the eligible-op share enable_amp quotes (analysis.c), shown as
     * tensor_cores.eligible_op_time_pct; NaN: the rows' own share */
    double tc_seed_pct;
    /* of that share, the part on the matrix unit when the tasks say it
     * (an Ascend run: cube.h); NaN: the rows' own */
    double tc_seed_on_pct;
    /* the run records no device work (summary host_only), though its
     * trace may name its GPUs: its operators ran on the CPU and are held
     * to no device's roof (review22g item 9) */
    int host_only;
};

/* The pass's own sections (new, owned by the caller). */
struct pr_roofline_out {
    cJSON *tensor_cores;
    cJSON *roofline; /* null when no operator is held to a known roof */
    /* the row of in->devices that roofline.device names; NULL when
     * roofline is null */
    const struct pr_device_row *device;
    /* tensor_cores' tc_kernel_time_pct and eligible_op_time_pct, as it
     * writes them, for the recommendations; NaN where null */
    double tc_kernel_pct, eligible_op_pct;
};

/* Fill the rows' peaks and rates and build out.  Errors: PR_E_NOMEM;
 * PR_E_IO / PR_E_FORMAT for an unreadable o->device_spec (out NULLs). */
PR_NODISCARD enum pr_status pr_roofline_run(const struct pr_roofline_in *in,
                                            const struct pr_analysis_opts *o,
                                            struct pr_roofline_out *out,
                                            struct pr_error *err);

/* A forward convolution's FLOPs and bytes when the trace did not record
 * stride/padding/dilation: from its "Input Dims" (input, weight, ...) and
 * its output shape, which the backward op sharing its sequence number
 * received as grad_output ([[N, K, P, Q]]), both parsed (NULL: unknown).
 * Sets cost->flops, ->bytes (from cost->dtype; -1 when unknown) and
 * ->conv_k, and returns 1; returns 0 and leaves cost alone when the shapes
 * do not fit a plain convolution (transposed ones included). */
int pr_roofline_conv_from_output(const struct pr_shape_list *input_shapes,
                                 const struct pr_shape_list *output_shape,
                                 struct pr_op_cost *cost);

/* 1 for the autograd node of a non-transposed convolution backward
 * ("CudnnConvolutionBackward", "ConvolutionBackward0"), whose first input
 * is grad_output. */
int pr_roofline_is_conv_bwd_node(const char *name);

/* The gradients (PR_CONV_GRAD_* bits, flops.h) that tree node `node`, an
 * operator that computes both gradients of a convolution unless told
 * otherwise (aten::cudnn_convolution_backward, convolution_backward),
 * shows it computed by the ops directly under it (one
 * cudnn_convolution_backward_weight and no _backward_input: ResNet's
 * first conv, whose input is the image); 0 for another node or when no
 * such op is under it.  Every FLOP count of such a call takes it as
 * pr_op_call.conv_grads. */
unsigned pr_roofline_conv_grads(const struct pr_trace *t,
                                const struct pr_tree *tree, uint32_t node);

#endif

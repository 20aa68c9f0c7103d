/* roofline.h - the GPU-efficiency post-pass over one run of the summary:
 * device peaks, per-operator FLOPs/bytes/rates/roofline position and the
 * tensor_cores object (issue #4); recommend.h turns them into advice.
 *
 * It runs after the analyses that fill devices, operators,
 * operators_by_shape, kernels, gpu_metrics and steps (analysis.h), and only
 * rewrites the keys it owns:
 *   devices[].peak_tflops / peak_gbps / peak_source (+ peak_device,
 *     peak_match, peak_reference);
 *   operators[] and operators_by_shape[]: flops, bytes, achieved_tflops,
 *     achieved_gbps, arithmetic_intensity, bound, roofline_pct (+ dtype,
 *     peak_tflops, ridge_flops_per_byte);
 *   tensor_cores (replaced).
 * Rates need device time and stay null without it; percentages also need a
 * known device and stay null for an unknown one. */
#ifndef PROFREPORT_ROOFLINE_H
#define PROFREPORT_ROOFLINE_H

#include <cjson/cJSON.h>

#include "profreport/analysis.h"
#include "profreport/error.h"
#include "profreport/flops.h"
#include "profreport/trace.h"

/* Fill the keys above in `run`.  t may be NULL (a summary re-processed
 * without its trace): per-call concrete inputs and per-op tensor-core time
 * then come only from the run's own rows.  Errors: PR_E_NOMEM; PR_E_IO /
 * PR_E_FORMAT for an unreadable o->device_spec. */
PR_NODISCARD enum pr_status pr_roofline_fill(const struct pr_trace *t,
                                             const struct pr_analysis_opts *o,
                                             cJSON *run, struct pr_error *err);

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

#endif

/* layers.h - the roofline by layer (issue #16): each forward layer with
 * the backward ops autograd ran for it, their FLOPs, bytes and device
 * times side by side, and where the layer sits on the device's roofline.
 *
 * A layer is a top-level forward operator: one with a sequence number
 * that no other forward operator with a sequence number encloses
 * (aten::linear, aten::conv2d; the aten::addmm inside aten::linear is
 * part of it).  Its backward is every backward root (an op with a
 * sequence number and a forward thread id, not inside a backward op of
 * the same number) whose number some forward operator of the layer
 * carries; a sequence number shared by several layers goes to the last.
 * Each tree node counts for the nearest layer or backward root around it,
 * so a layer's time is the device self time of its nodes and the layers
 * never count a kernel twice.
 *
 * FLOPs and bytes are those of operators_by_shape (roofline.h: formula,
 * trace arg or measured), per call, taken at the outermost node of a part
 * whose row knows them; below that node nothing is counted again.  A node
 * that launched kernels without a known count makes its part unknown
 * (null), except a matmul or convolution layer's backward, which is then
 * estimated as twice the forward ("estimated 2x forward").
 *
 * Summary keys (docs/summary-json.md, "Roofline by layer"):
 *   runs[].layers      rows by (layer name, input shapes), by forward +
 *                      backward device time, top PR_LAYERS_ROWS
 *   runs[].layer_view  counts: layers, rows, omitted rows, backward roots
 *                      without a layer, and a note when there are none */
#ifndef PROFREPORT_LAYERS_H
#define PROFREPORT_LAYERS_H

#include <cjson/cJSON.h>

#include "profreport/devices.h"
#include "profreport/error.h"
#include "profreport/ops.h"
#include "profreport/trace.h"
#include "profreport/tree.h"

#define PR_LAYERS_ROWS 100 /* rows of runs[].layers */

/* Source of a backward count derived from its forward. */
#define PR_LAYERS_ESTIMATED "estimated 2x forward"
/* A convolution whose backward computed the weight gradient only (its
 * roots hold a *_backward_weight and no *_backward_input: the first conv,
 * whose input needs no gradient): once its forward (review25g #6). */
#define PR_LAYERS_ESTIMATED_1X "estimated 1x forward"

/* What the trace lacks, said when no forward op has a backward: */
#define PR_LAYERS_NO_PAIRS                                                     \
    "No layer has a backward pass in this trace: layers need a training "      \
    "step (forward and backward) recorded with record_shapes=True, whose "     \
    "operators carry sequence numbers."
/* ... on an Nsight Systems export, whose operators are PyTorch's
 * emit_nvtx ranges ("aten::mm, seq = 12, ...": the sequence number is
 * there whatever record_shapes; the sizes only under record_shapes=True) */
#define PR_LAYERS_NO_PAIRS_NSYS                                                \
    "No layer has a backward pass in this trace: layers need a training "      \
    "step (forward and backward) under torch.autograd.profiler.emit_nvtx, "    \
    "whose ranges carry the operators' sequence numbers (and their input "     \
    "sizes, which the layers' FLOPs need, with record_shapes=True)."
/* ... on such an export whose ranges carry the sequence numbers (it was
 * recorded under emit_nvtx) but whose capture holds no backward pass
 * (pr_trace_has_backward: issue #28, review s20: nsys mfu_2gpu_before's
 * 9,231 ranges with "seq = N", forward alone).  A printf format: the
 * milliseconds from the capture's first event to its last (issue #30 #4:
 * mfu_2gpu_before's META_DATA_CAPTURE records an Immediate start and no
 * capture range, its events span 300 ms of a 119.4 s session: nothing
 * to widen) */
#define PR_LAYERS_FORWARD_ONLY_NSYS                                            \
    "No layer has a backward pass in this trace: its emit_nvtx ranges "        \
    "carry the operators' sequence numbers, but the capture holds %.0f ms "    \
    "of events, of the forward pass alone (no autograd backward range). "      \
    "Capture one whole training step (e.g. nsys profile "                      \
    "--capture-range=cudaProfilerApi with cudaProfilerStart/Stop around it)."
/* ... on a MindSpore run, whose backward is the Gradients/ scope of the
 * same Cell and whose operators carry no autograd sequence numbers
 * (review32a #5: ms_run2 labels 41 of its 112 tasks bprop) */
#define PR_LAYERS_NO_PAIRS_MINDSPORE                                           \
    "The layer view pairs PyTorch operators with their backward by "           \
    "autograd sequence numbers, which MindSpore does not write: its "          \
    "backward tasks are named under the Gradients/ scope (profreport table "   \
    "--kind kernel-calls -c kernel,direction lists them)."
/* ... on an export of device tasks alone (kernel_details.csv, msprof's
 * op_summary or db without the framework's operator timeline) */
#define PR_LAYERS_NO_OPS                                                       \
    "The export holds no framework operators (no operator timeline), so "      \
    "no forward operator can be paired with its backward by sequence "         \
    "numbers."
/* ... or when backward ops came without their forward operators. */
#define PR_LAYERS_NO_FORWARD                                                   \
    "The trace has backward operators but not the forward operators with "     \
    "their sequence numbers (it starts after the forward pass): record "       \
    "whole steps to see layers."
/* ... on an Nsight Systems export (issue #29: its autograd nodes' emit_nvtx
 * ranges are backward ops), in nsys's terms: its capture range, not
 * PyTorch's profiler, holds the step */
#define PR_LAYERS_NO_FORWARD_NSYS                                              \
    "The capture has autograd backward ranges but not the forward "            \
    "operators' emit_nvtx ranges with their sequence numbers (it starts "      \
    "after the forward pass): capture one whole training step (e.g. nsys "     \
    "profile --capture-range=cudaProfilerApi, with "                           \
    "torch.cuda.profiler.start()/stop() around it) to see layers."

/* What the pass reads: the tree, and the C rows the roofline pass filled
 * (no summary JSON is read back).  All borrowed. */
struct pr_layers_in {
    const struct pr_trace *t;
    const struct pr_tree *tree;
    const struct pr_op_rows *by_shape;    /* operators_by_shape, rated */
    const struct pr_device_rows *devices; /* with their peaks */
    /* the device of runs[].roofline (pr_roofline_out.device); NULL: the
     * first of devices */
    const struct pr_device_row *device;
};

/* Fill runs[].layers and runs[].layer_view of `run`.  Runs after
 * pr_roofline_run (it reads the operators_by_shape rows' FLOPs and bytes
 * and the devices' peaks) while the tree of t is alive.  Its scratch is
 * freed before it returns.  PR_E_NOMEM only. */
PR_NODISCARD enum pr_status pr_layers_fill(const struct pr_layers_in *in,
                                           cJSON *run, struct pr_error *err);

#endif

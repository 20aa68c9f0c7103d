/* kernel_calls.h - PyProf's per-launch view (issue #3): one row per kernel
 * launch with the operator that launched it, its direction, input shapes
 * and dtypes, timing, tensor-core use, launch geometry and the FLOPs and
 * bytes of the launching call.  Too large for the summary by design: it
 * reads the model directly, and `profreport table --kind kernel-calls`
 * renders it. */
#ifndef PROFREPORT_KERNEL_CALLS_H
#define PROFREPORT_KERNEL_CALLS_H

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/trace.h"

/* Build *rows (a new array, owned by the caller), one object per Kernel
 * event in time order, with the keys
 *   kernel, op (launching host node; null for none), direction ("fprop" |
 *   "bprop"; null without an op), seq (Sequence number of the op or of its
 *   nearest ancestor that has one; null), input_shapes, input_types (the
 *   op's text; null), start_us (from the trace's first event), duration_us,
 *   tc (10.1 name list), grid and block ("[x, y, z]"; null when absent),
 *   stream, device (null when absent), sub (index of the launch among its
 *   op call's kernels, 0 first), flops, bytes.
 * flops/bytes are the per-call estimate of the launching op (flops.h, and
 * the backward op's grad_output for a conv without Concrete Inputs),
 * charged to the call's first kernel only (PyProf's sub == 0 rule) so that
 * column sums do not count a call twice: later kernels carry 0, and every
 * kernel of a call with no estimate carries null.
 * A call is "bprop" when a node above it (itself included) is an
 * `autograd::engine::evaluate_function:` node, is named like an autograd
 * node (`...Backward`, `...Backward0`) or like a backward op (`_backward`),
 * or runs on a thread that only runs backward work (has such nodes and no
 * ProfilerStep).  PR_E_NOMEM on failure; *rows is NULL then. */
PR_NODISCARD enum pr_status pr_kernel_calls_build(const struct pr_trace *t,
                                                  cJSON **rows,
                                                  struct pr_error *err);

#endif

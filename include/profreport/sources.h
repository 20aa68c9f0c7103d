/* sources.h - the source view (issue #16): operator time by the line of
 * user code that called the operator.  An operator's Python frames come
 * from its "Call stack" arg (with_stack=True, PyTorch 1.x and torch_npu)
 * or, failing that, from the python_function events around it on its
 * thread (PyTorch 2.x).  The innermost frame outside torch, site-packages
 * and the standard library is its source location.  Backward operators,
 * which carry no stack, are credited to the location of the forward
 * operator with their sequence number, in separate backward columns.
 *
 * Summary keys (spec/summary-json.md, "Source view"):
 *   runs[].sources        rows by location, sorted by device_self_us desc
 *   runs[].source_stacks  rows by user-frame stack (top PR_SOURCES_STACKS)
 *   runs[].source_view    totals, what was skipped, and a note when the
 *                         trace has no stacks
 *   runs[].fwd_bwd        each forward operator beside the backward ops
 *                         autograd ran for it, by (forward name, backward
 *                         name, location); top PR_SOURCES_PAIRS.  Needs
 *                         sequence numbers, not stacks. */
#ifndef PROFREPORT_SOURCES_H
#define PROFREPORT_SOURCES_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/hints.h"
#include "profreport/trace.h"
#include "profreport/tree.h"

#define PR_SOURCES_STACKS 20 /* rows of runs[].source_stacks */
#define PR_SOURCES_PAIRS 50  /* rows of runs[].fwd_bwd */

/* One frame "path(line): function" of a stack, borrowed from its text. */
struct pr_frame {
    const char *path; /* not NUL-terminated */
    size_t path_n;
    int64_t line;
    const char *func; /* not NUL-terminated */
    size_t func_n;
};

/* Why a frame is not the user's code; USER when it is. */
enum pr_frame_rule {
    PR_FRAME_USER = 0,
    PR_FRAME_SITE_PACKAGES, /* installed packages (site-/dist-packages) */
    PR_FRAME_FRAMEWORK,     /* a torch/torchvision/lightning source tree */
    PR_FRAME_STDLIB,        /* lib/pythonX.Y, <string>, <frozen ...> */
    PR_FRAME_NOT_SOURCE,    /* no file and line ("nn.Module: Linear_0",
                               "<built-in method ...>") */
    PR_FRAME_N_RULES
};

/* Parse one frame [s, s + n) ("a/b.py(12): f", surrounding blanks and
 * "\r\n" allowed).  0 when it has no "(line): " part. */
int pr_sources_parse_frame(const char *s, size_t n, struct pr_frame *f);

/* The rule that skips frame f, or PR_FRAME_USER. */
enum pr_frame_rule pr_sources_frame_rule(const struct pr_frame *f);

/* The summary key naming a rule ("site-packages", "framework", ...). */
const char *pr_sources_rule_name(enum pr_frame_rule r);

/* Build the source view of trace t from its op tree into run (keys
 * above; existing ones are replaced).  PR_E_NOMEM on allocation failure
 * (run may then lack some of the keys). */
PR_NODISCARD enum pr_status pr_sources_fill(const struct pr_trace *t,
                                            const struct pr_tree *tree,
                                            cJSON *run, struct pr_error *err);

#endif

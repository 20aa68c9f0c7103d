/* modules.h - the module view (issue #16, spec/tb-plugin-semantics.md
 * 14.2): the nn.Module frames that with_modules=True records
 * (python_function events with a "Python module id") are module nodes of
 * the op tree; their statistics are summed per module instance, named by
 * its path of modules from the outermost one, and per module type.
 *
 * Summary keys (docs/summary-json.md, "Module view"):
 *   runs[].modules       rows in tree order: a parent before its children
 *   runs[].module_types  rows by type ("Linear"), by device self time
 *   runs[].module_view   counts, and a note when the trace has no module */
#ifndef PROFREPORT_MODULES_H
#define PROFREPORT_MODULES_H

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/hints.h"
#include "profreport/trace.h"
#include "profreport/tree.h"

/* Build the module view of trace t from its op tree into run (keys
 * above; existing ones are replaced).  PR_E_NOMEM on allocation failure
 * (run may then lack some of the keys). */
PR_NODISCARD enum pr_status pr_modules_fill(const struct pr_trace *t,
                                            const struct pr_tree *tree,
                                            cJSON *run, struct pr_error *err);

#endif

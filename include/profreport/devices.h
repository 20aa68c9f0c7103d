/* devices.h - the "devices" array of the summary: the GPUs the trace's
 * kernels, memcpys and memsets ran on (args.device, else the numeric pid),
 * described from deviceProperties by list position (spec 2.3).  Peak rates
 * are left unknown for the roofline analysis to fill. */
#ifndef PROFREPORT_DEVICES_H
#define PROFREPORT_DEVICES_H

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/trace.h"

/* Build the array (new, owned by the caller), one object per used device
 * id in ascending order; properties are null when deviceProperties has no
 * entry at that position.  PR_E_NOMEM on failure. */
PR_NODISCARD enum pr_status pr_devices_build(const struct pr_trace *t,
                                             cJSON **out, struct pr_error *err);

#endif

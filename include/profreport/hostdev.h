/* hostdev.h - how the host and the devices wait for each other (issue
 * #11): HTA's temporal breakdown per device (compute / communication /
 * memory / idle) with the causes of idle time, host-device
 * synchronisation and the GPU idle time each kind of sync caused inside
 * the steps, copies by direction and host memory kind judged against the
 * host link, and launch evidence (launch delay, queue length per stream,
 * CUDA graphs).  Each measures only; recommend.c reads the results.
 *
 * Times in the summary are µs; a number the trace does not allow is null
 * with a note, never 0. */
#ifndef PROFREPORT_HOSTDEV_H
#define PROFREPORT_HOSTDEV_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/steps.h"
#include "profreport/trace.h"

/* A gap between two pieces of device work shorter than this is "kernel
 * wait" (the launch overhead of back-to-back work), HTA's default. */
#define PR_HOSTDEV_KERNEL_WAIT_NS 30

/* Write run.temporal_breakdown, run.synchronization, run.copies and
 * run.launches (replacing keys that are present).  s gives the step
 * window syncs are judged in; run.devices, when present, names each
 * device's host link.  PR_E_NOMEM on allocation failure. */
PR_NODISCARD enum pr_status pr_hostdev_fill(const struct pr_trace *t,
                                            const struct pr_steps *s,
                                            cJSON *run, struct pr_error *err);

/* Host link of a device for its host-device copies from the table in
 * data/devices.json ("host_links"), by device name first, then by
 * architecture ("sm_80", "gfx942").  Writes the link's label into label
 * (cap bytes) and returns its one-direction bandwidth in GB/s; NaN when
 * the table knows neither. */
double pr_hostdev_link(const char *name, const char *arch, char *label,
                       size_t cap);

#endif

/* devices.h - the "devices" array of the summary: the GPUs the trace's
 * kernels, memcpys and memsets ran on (args.device, else the numeric pid),
 * described from deviceProperties by list position (spec 2.3).  The rows
 * are C first: the roofline pass (roofline.h) fills their peaks, then
 * pr_devices_emit() writes the array once. */
#ifndef PROFREPORT_DEVICES_H
#define PROFREPORT_DEVICES_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/peaks.h"
#include "profreport/trace.h"

/* One device.  Strings are borrowed from the trace, from string constants
 * or from the row's own buffers (so a row is not to be copied); NULL is
 * written as null. */
struct pr_device_row {
    int64_t id;
    const char *name;
    const char *label, *name_source;
    const char *kind; /* the format's device kind; NULL: key left out */
    double num_sms;   /* NaN: null */
    const char *vendor, *compute_capability, *architecture;
    double memory_bytes; /* NaN: null */
    double clock_mhz;    /* the SM clock the export states; NaN: null */
    double stated_gbps;  /* the memory bandwidth it states; NaN: none */
    int64_t props_id;    /* the id of the deviceProperties entry paired
                            with this device when it differs (the ids of
                            a renumbered process, trace.h); -1 */
    /* paired by model (trace.h's PR_DEVICE_BY_MODEL): how many entries
       deviceProperties has, all this model, and their ids ("0-3");
       0 otherwise */
    size_t props_alike;
    char props_ids[64];
    struct pr_peaks peaks;
    int has_peaks; /* 0: peaks written as unknown */
    char label_buf[96], cc_buf[32], arch_buf[48];
};

struct pr_device_rows {
    struct pr_device_row *v; /* owned */
    size_t n;
};

/* One row per used device id in ascending order; properties are NULL/NaN
 * when deviceProperties has no entry at that position, peaks unknown.
 * PR_E_NOMEM on failure (out empty).  Free with pr_devices_free(). */
PR_NODISCARD enum pr_status pr_devices_collect(const struct pr_trace *t,
                                               struct pr_device_rows *out,
                                               struct pr_error *err);

void pr_devices_free(struct pr_device_rows *rows);

/* A device's architecture into buf: HIP's gcnArchName up to its first
 * ':' ("gfx942"), else the gfx target a Tensile/hipBLASLt kernel was
 * built for, for an AMD GPU; "sm_XY" from an NVIDIA GPU's compute
 * capability; "" when unknown (never from a HIP version).  d may be
 * NULL. */
void pr_devices_arch(const struct pr_trace *t, const struct pr_device *d,
                     char *buf, size_t cap);

/* The vendor of the trace's devices as the rows name it ("nvidia", "amd",
 * "huawei" ...): the format's when it knows it (an Nsight Systems export:
 * NVIDIA), else AMD when a device
 * looks like one (64-wide waves, its name) or a kernel comes from an AMD
 * library, else NVIDIA when deviceProperties lists a device; NULL when
 * nothing tells.  Cannot fail. */
const char *pr_devices_vendor(const struct pr_trace *t);

/* The "devices" array (new, owned by the caller).  PR_E_NOMEM on
 * failure (*out NULL). */
PR_NODISCARD enum pr_status pr_devices_emit(const struct pr_device_rows *rows,
                                            cJSON **out, struct pr_error *err);

#endif

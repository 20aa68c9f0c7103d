/* peaks.h - device peak FLOP/s and memory bandwidth for the roofline: the
 * shipped table (data/devices.json, also compiled in), a --device-spec
 * file, and the --peak-tflops / --peak-gbps overrides.  "Peaks are data"
 * (DESIGN.md): no figure lives in C code. */
#ifndef PROFREPORT_PEAKS_H
#define PROFREPORT_PEAKS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "profreport/analysis.h"
#include "profreport/error.h"
#include "profreport/flops.h"

/* The dense peaks one device gets, in the order of the summary's
 * peak_tflops object. */
enum pr_peak_kind {
    PR_PEAK_FP64 = 0,
    PR_PEAK_FP32,
    PR_PEAK_TF32,
    PR_PEAK_FP16,
    PR_PEAK_BF16,
    PR_PEAK_FP8,
    PR_PEAK_INT8,
    PR_PEAK_FP32_MATRIX, /* AMD CDNA: fp32 on the MFMA units */
    PR_PEAK_FP4,         /* FP4 x FP4 tensor math (Blackwell) */
    PR_PEAK_COUNT
};

/* Where a device's peaks came from (summary "peak_source"). */
enum pr_peak_origin {
    PR_PEAK_UNKNOWN = 0, /* "unknown": no entry matched */
    PR_PEAK_TABLE,       /* "table": the shipped table, matched by name */
    PR_PEAK_CLI,         /* "cli": --device-spec, --peak-tflops/--peak-gbps */
    PR_PEAK_GUESS        /* "guess": the table entry of the same compute
                            capability (NVIDIA) or architecture (AMD), or
                            an entry marked "guess" (a family name such as
                            "Ascend910B" that does not name the variant) */
};

/* How the table entry was chosen. */
enum pr_peak_match {
    PR_MATCH_NONE = 0,
    PR_MATCH_EXACT,      /* "exact": one of the entry's exact names */
    PR_MATCH_FAMILY,     /* "family": a whole-word name substring */
    PR_MATCH_CAPABILITY, /* "guess": capability / architecture fallback */
    PR_MATCH_ALL         /* a --device-spec object for every device */
};

struct pr_peaks {
    double tflops[PR_PEAK_COUNT]; /* 10^12 FLOP/s; NaN: none or unknown */
    double gbps;                  /* 10^9 B/s; NaN unknown */
    enum pr_peak_origin origin;
    enum pr_peak_match match;
    char entry[64];     /* table entry name; "" when none */
    char source[1024];  /* datasheet reference; "" when none */
    char arch[16];      /* the entry's architecture ("gfx90a"); "" none */
    double cache_bytes; /* last-level cache of one device; NaN unknown */
    int compute_units;  /* the entry's SMs, CUs or AI Cores; -1 unknown */
    /* a guess made to fit what the trace states of the part: the entry's
       rates per SM and clock times the device's SMs x clock (scale: the
       factor, NaN when not scaled), tensor rates with FP32 accumulate
       halved for a GeForce part guessed from a datacenter one
       (half_rate), the bandwidth the export states (gbps_stated) */
    double scale;
    int half_rate;
    int gbps_stated;
};

/* What a trace says about one device, for the lookup. */
struct pr_peak_query {
    const char *name;       /* deviceProperties name; may be NULL */
    int cc_major, cc_minor; /* NVIDIA compute capability; -1 unknown */
    int amd;                /* an AMD GPU: match by architecture instead */
    const char *arch;       /* "gfx90a" when known, else NULL */
    int compute_units;      /* numSms; -1 unknown */
    double clock_mhz;       /* SM clock the trace states; <= 0 unknown */
    double gbps;            /* memory bandwidth it states; <= 0 unknown */
    double memory_bytes;    /* device memory it states; <= 0 unknown */
};

/* Parsed device table.  Opaque; free with pr_peaks_table_free(). */
struct pr_peak_table;

/* The compiled-in copy of data/devices.json (generated at build time). */
extern const unsigned char pr_peaks_builtin_json[];
extern const size_t pr_peaks_builtin_json_len;

/* Parse a device table from JSON text: {"devices": [...]} as in
 * data/devices.json, or one object {"peak_tflops": {...}, "peak_gbps": x}
 * meaning "every device".  from_user marks entries as origin "cli".  NULL
 * with PR_E_FORMAT (message names the entry) or PR_E_NOMEM. */
struct pr_peak_table *pr_peaks_table_parse(const char *json, size_t len,
                                           int from_user, struct pr_error *err);

/* Read and parse a table file (size-capped at 1 MiB).  PR_E_IO when it
 * cannot be read. */
struct pr_peak_table *pr_peaks_table_load(const char *path, int from_user,
                                          struct pr_error *err);

/* The table a run uses: the installed PR_DATADIR/devices.json when it can
 * be read (so a site can add its GPUs), else the compiled-in copy; entries
 * of o->device_spec (when set) come first. */
struct pr_peak_table *pr_peaks_table_open(const struct pr_analysis_opts *o,
                                          struct pr_error *err);

void pr_peaks_table_free(struct pr_peak_table *t); /* accepts NULL */
size_t pr_peaks_table_count(const struct pr_peak_table *t);

/* Peaks for one device: user entries first (exact name, then family);
 * then the table's exact names, then its longest whole-word family match;
 * then a guess: the capability default of the same compute capability
 * (NVIDIA) or of the same architecture, preferring the same compute-unit
 * count (AMD), with origin PR_PEAK_GUESS, fitted to what the query
 * states (its SMs x clock scale the entry's rates when the entry gives
 * its own, a GeForce part's tensor rates with FP32 accumulate are half a
 * datacenter entry's, its bandwidth replaces the entry's: a guess never
 * overrides a figure the trace states); then --peak-tflops (for every
 * precision) and --peak-gbps on top (o may be NULL).  Never fails: an
 * unmatched device has NaN peaks and origin PR_PEAK_UNKNOWN. */
void pr_peaks_lookup_query(const struct pr_peak_table *t,
                           const struct pr_analysis_opts *o,
                           const struct pr_peak_query *q, struct pr_peaks *out);

/* pr_peaks_lookup_query for a name and compute capability (an AMD part is
 * told by its name).  name may be NULL; cc_major < 0 means unknown. */
void pr_peaks_lookup(const struct pr_peak_table *t,
                     const struct pr_analysis_opts *o, const char *name,
                     int cc_major, int cc_minor, struct pr_peaks *out);

/* The compute peak an op runs against: its dtype on tensor cores (fp32 on
 * tensor cores means TF32, or the fp32 MFMA rate on AMD) or the CUDA-core
 * fp32/fp64 rate.  16-bit ops off
 * tensor cores use the fp32 rate (a lower bound on their ceiling).  NaN
 * when unknown. */
double pr_peaks_compute(const struct pr_peaks *p, enum pr_dtype dt,
                        int on_tensor_cores);

/* The peak kind pr_peaks_compute reads for that dtype and core kind. */
enum pr_peak_kind pr_peaks_kind(const struct pr_peaks *p, enum pr_dtype dt,
                                int on_tensor_cores);

/* Summary key of a peak kind: "fp64", "fp32", "tf32_tensor", ... */
const char *pr_peaks_key(enum pr_peak_kind k);

/* The roof's name in reports ("FP32", "TF32 tensor", "FP32 matrix"). */
const char *pr_peaks_label(enum pr_peak_kind k);

/* What the runs say of --device-spec: devices whose peaks came from the
 * user ("cli"), how many of those carry no peak, and a few device names
 * seen.  Tallied run by run (a job's runs are folded away as they come). */
struct pr_spec_tally {
    size_t matched, empty, named, at;
    char seen[256];
};

/* Add the devices of the runs array `runs` to t (zeroed before the first
 * call). */
void pr_peaks_spec_tally(const cJSON *runs, struct pr_spec_tally *t);

/* Whether --device-spec `spec` did nothing for the runs tallied (no entry
 * matched any device, or the entries that matched carry no peak); 1 with
 * the warning in buf (the devices seen and how to match them), 0 when it
 * did its job.  Only when --peak-tflops/--peak-gbps are not given (they
 * too make a peak "cli"). */
int pr_peaks_spec_unused(const struct pr_spec_tally *t, const char *spec,
                         char *buf, size_t n);

#endif

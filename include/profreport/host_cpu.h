/* host_cpu.h - the host's CPU use as the producer sampled it (MindSpore's
 * data-pipeline CPU sampler, trace.h's pr_cpu_use): means per scope over
 * the middle half of the samples, as MindSpore's own analyser takes them
 * (start-up and shutdown left out), each pipeline operator's share per
 * worker, and a short reading of whether the input pipeline is bound by
 * the host's CPUs.  Measures only. */
#ifndef PROFREPORT_HOST_CPU_H
#define PROFREPORT_HOST_CPU_H

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/trace.h"

/* An operator whose workers are each busier than this (% of one core)
 * while the host has CPU to spare wants more workers; the host is
 * saturated past PR_HOST_CPU_BUSY_PCT of all its CPUs; I/O wait past
 * PR_HOST_CPU_IO_PCT is worth a line.  The first two are MindSpore's own
 * thresholds (CpuSampler's analysis). */
#define PR_HOST_CPU_WORKER_PCT 80.0
#define PR_HOST_CPU_BUSY_PCT 90.0
#define PR_HOST_CPU_IO_PCT 10.0

/* Write run.host_cpu when t->cpu_use holds samples (the key is absent
 * otherwise: only a producer that samples the host has it).
 * PR_E_NOMEM on allocation failure. */
/* Where the machine-wide samples' user + sys + io + idle is off 100 by
 * more than 10 points in some sample: a data-quality sentence into text
 * (cap bytes) and 1; pr_host_cpu_fill then writes no reading.  0
 * otherwise. */
int pr_host_cpu_note(const struct pr_trace *t, char *text, size_t cap);

PR_NODISCARD enum pr_status pr_host_cpu_fill(const struct pr_trace *t,
                                             cJSON *run, struct pr_error *err);

#endif

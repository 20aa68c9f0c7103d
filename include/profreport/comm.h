/* comm.h - per-run communication analysis: which events are collectives
 * (NCCL/HCCL kernels on the device, Gloo ops on the host), per step the
 * computation / overlap / communication / other split of
 * spec/tb-plugin-semantics.md §13.2 over the breakdown's role ranges, and
 * the collective table with sizes and nccl-tests' algorithm and bus
 * bandwidth.  The cross-rank section is distributed.h's. */
#ifndef PROFREPORT_COMM_H
#define PROFREPORT_COMM_H

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/steps.h"
#include "profreport/trace.h"

/* Set run["communication"]: the split per step and the collective table
 * (null when the run has neither communication time nor a collective).
 * Its communication is steps' Communication role, its computation the
 * Kernel role (the host-op role when the run has no kernel). */
PR_NODISCARD enum pr_status pr_comm_fill(const struct pr_trace *t,
                                         const struct pr_steps *steps,
                                         cJSON *run, struct pr_error *err);

/* Add the run's per-link traffic (t->links) to its communication object
 * `comm`: "links" (one per group, ranks and transport, summed) and
 * "link_types"; nothing when the trace has no link.  Clears *ok short of
 * memory (links.c). */
void pr_comm_links_emit(const struct pr_trace *t, cJSON *comm, int *ok);

/* Add "link_types" and "link_groups" to the distributed object from the
 * runs' communication.links, read as typed rows (rows.h); nothing when no
 * run has one.  PR_E_NOMEM, or PR_E_FORMAT naming a damaged row. */
PR_NODISCARD enum pr_status
pr_comm_links_job(const cJSON *runs, cJSON *distributed, struct pr_error *err);

/* Bytes per element of a collective's dtype name ("Float", "Half",
 * "BFloat16", ...); 0 when unknown. */
int pr_comm_dtype_size(const char *dtype);

/* NCCL bus-bandwidth factor for a collective ("all_reduce", ...) over n
 * ranks: 2(n-1)/n for all-reduce, (n-1)/n for all-gather, reduce-scatter
 * and all-to-all, 1 otherwise (nccl-tests' PERFORMANCE.md). */
double pr_comm_bus_factor(const char *collective, int n);

/* Canonical collective name ("all_reduce") from CUPTI/PyTorch spellings
 * ("allreduce", "AllReduce", a kernel name); NULL when unrecognised. */
const char *pr_comm_collective(const char *name);

/* Backend of a collective host op from its name prefix ("nccl:...",
 * "gloo:...", "hccl:...", "mpi:...", "ucc:..."): a static string, or NULL. */
const char *pr_comm_backend(const char *name);

/* The backend runs its collectives on the host CPU (gloo, mpi): the host
 * op's interval is the transfer itself, not a launch. */
int pr_comm_on_host(const char *backend);

/* A host op name that is a collective: a backend prefix and a known
 * collective ("gloo:all_reduce", "nccl:_all_gather_base"). */
int pr_comm_host_collective(const char *name);

/* Bytes in binary units as the report's tables write them ("1.23 GiB",
 * "140.0 MiB", "12.0 KiB"), so a finding's sizes read like its table's. */
void pr_comm_bytes_text(double b, char *buf, size_t cap);

#endif

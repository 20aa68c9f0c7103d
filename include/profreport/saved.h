/* saved.h - a summary written by `--json`, read back: the durable artefact
 * of a run, which diff, trend and the reports take in place of its traces.
 * Recognised by content (a JSON object whose first bytes hold a
 * "schema_version" key and no "traceEvents"; Kineto traces spell it
 * schemaVersion), read whole, and checked against the contract
 * (contract.h) before anyone reads it. */
#ifndef PROFREPORT_SAVED_H
#define PROFREPORT_SAVED_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/error.h"

/* Largest summary read whole (summaries are ~100 KB; this leaves room for
 * big jobs while refusing to slurp a multi-GB trace). */
#define PR_SAVED_MAX ((size_t)1 << 30)

/* 1 when `path` is a regular file that starts like a saved summary; 0 for
 * anything else (folders, FIFOs, gzip'd or unreadable files, traces).
 * Reads at most 4 KiB.  Cannot fail. */
int pr_saved_sniff(const char *path);

/* When `dir` is a folder of saved summaries (issue #32: read like the
 * same files given one by one): its regular files whose names end in
 * ".json" (hidden ones aside), at least one, every one a saved summary,
 * and no subfolder (a run folder of traces has those).  Returns 1 with
 * *paths (owned: free each, then the array) the files' paths in name
 * order, 0 for anything else (*paths NULL), -1 when out of memory. */
int pr_saved_dir(const char *dir, char ***paths, size_t *n);

/* Read `path` whole, parse it and check it against the contract.  *out
 * receives the tree (owned by the caller).  A file larger than `max`
 * bytes (--max-input; 0: no limit of the caller's) or than PR_SAVED_MAX
 * is refused before it is read.  Errors name the file:
 * PR_E_IO, PR_E_LIMIT (larger than the limit), PR_E_FORMAT (not JSON,
 * unsupported schema_version, a missing key or a value of the wrong type,
 * with its path in the tree), PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_saved_load(const char *path, uint64_t max,
                                          cJSON **out, struct pr_error *err);

#endif

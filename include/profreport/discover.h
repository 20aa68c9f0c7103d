/* discover.h - turn --input arguments into a list of trace files, naming
 * workers and spans the way the TensorBoard plugin does
 * (spec/tb-plugin-semantics.md §1.2): `<worker>[.<span>].pt.trace.json[.gz]`
 * with the shortest worker prefix.  Other *.json / *.json.gz files are
 * traces too, named by their basename. */
#ifndef PROFREPORT_DISCOVER_H
#define PROFREPORT_DISCOVER_H

#include <stddef.h>

#include "profreport/error.h"

struct pr_input_file {
    char *path;    /* owned; as given, or DIR/name for folder members */
    char *worker;  /* owned */
    char *span;    /* owned; NULL when the name has no span */
    int from_dir;  /* found by scanning a folder (non-traces are skipped) */
};

struct pr_input_list {
    struct pr_input_file *files; /* owned */
    size_t n, cap;
};

/* Append the trace files of `path` (a file, or a folder scanned recursively,
 * members in byte order of their paths).  A folder without any trace file is
 * PR_E_IO. */
PR_NODISCARD enum pr_status pr_discover(const char *path,
                                        struct pr_input_list *out,
                                        struct pr_error *err);
void pr_input_list_free(struct pr_input_list *l);

/* Split a basename into worker and span (owned copies; *span may be NULL).
 * Returns 1 when the name follows the plugin's pattern, 0 otherwise (then
 * worker is the basename without .json/.json.gz). -1 on out-of-memory. */
int pr_discover_name(const char *base, char **worker, char **span);

#endif

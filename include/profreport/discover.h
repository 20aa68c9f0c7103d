/* discover.h - turn --input arguments into a list of inputs, each with the
 * format that reads it (formats.h), naming workers and spans the way the
 * TensorBoard plugin does (spec/tb-plugin-semantics.md §1.2):
 * `<worker>[.<span>].pt.trace.json[.gz]` with the shortest worker prefix;
 * other inputs are named by their basename without .json / .json.gz.
 *
 * Formats are asked by content first and name second.  A folder that a
 * format claims is one input (a run folder); any other folder is scanned
 * recursively, and its members must be claimed by their content: what no
 * format claims is listed as skipped, with the reason. */
#ifndef PROFREPORT_DISCOVER_H
#define PROFREPORT_DISCOVER_H

#include <stddef.h>

#include "profreport/error.h"
#include "profreport/formats.h"

struct pr_input_file {
    char *path;   /* owned; as given, or DIR/name for folder members */
    char *worker; /* owned */
    char *span;   /* owned; NULL when the name has no span */
    int from_dir; /* found by scanning a folder (non-traces are skipped) */
    size_t folder_skips; /* members of its input folder that were skipped
                            (set by the caller: pr_input_list.n_skips) */
    const struct pr_format *format; /* borrowed (a row of the table) */
};

/* A folder member that is not read, and why ("not a format profreport
 * reads (an empty file; ...)"); the caller shows these as warnings. */
struct pr_input_skip {
    char *path; /* owned */
    char *why;  /* owned */
};

/* The members skipped for one reason (one `why`): only the first
 * PR_SKIP_NAMED of them are kept in `skipped`, the rest are counted, so
 * that 100,000 empty files make ten warnings and a count, and the list's
 * memory does not grow with them. */
#define PR_SKIP_NAMED 10
#define PR_SKIP_KINDS 64 /* reasons told apart; the rest count as one */
struct pr_skip_kind {
    char *why; /* owned; NULL: the reasons past PR_SKIP_KINDS */
    size_t n;  /* members skipped for it */
};

struct pr_input_list {
    struct pr_input_file *files; /* owned */
    size_t n, cap;
    struct pr_input_skip *skipped; /* owned: at most PR_SKIP_NAMED a kind */
    size_t n_skipped, cap_skipped;
    struct pr_skip_kind *kinds; /* owned, in the order first seen */
    size_t n_kinds, cap_kinds;
    size_t n_skips; /* members skipped in all, named or counted */
    /* set by the caller: a folder's symlinks that lead out of it are
     * followed too (by default they are skipped with a warning) */
    int follow_links;
};

/* Append the inputs of `path` (a file, a run folder, or a folder scanned
 * recursively, members in byte order of their paths) read with the
 * built-in formats.  Errors: PR_E_IO for a path that cannot be read and
 * for a folder without any input; PR_E_NOT_FORMAT for a file that no
 * format claims; PR_E_NOMEM. */
PR_NODISCARD enum pr_status
pr_discover(const char *path, struct pr_input_list *out, struct pr_error *err);
/* The same with a table of formats of the caller's (tests). */
PR_NODISCARD enum pr_status pr_discover_with(const struct pr_format_table *tab,
                                             const char *path,
                                             struct pr_input_list *out,
                                             struct pr_error *err);
void pr_input_list_free(struct pr_input_list *l);

/* Count a file that is not read for `why` in l's tally of skips (a list
 * used as one, also for files refused while they are read): the first
 * PR_SKIP_NAMED of each reason are kept in l->skipped, and *named (may be
 * NULL) says whether this one was, for the caller to name it now and
 * count the rest (l->kinds) at the end.  Errors: PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_input_list_skip(struct pr_input_list *l,
                                               const char *path,
                                               const char *why, int *named,
                                               struct pr_error *err);

/* Split a basename into worker and span (owned copies; *span may be NULL).
 * Returns 1 when the name follows the plugin's pattern, 0 otherwise (then
 * worker is the basename without .json/.json.gz). -1 on out-of-memory. */
int pr_discover_name(const char *base, char **worker, char **span);

#endif

/* sink.h - output files written atomically, alone or as a set.
 *
 * Every output is first written to a staging file.  For a regular file (or
 * a path that does not exist yet) the staging file sits beside it and is
 * renamed over it at commit.  "-" (standard output) and destinations that
 * are not regular files (a device such as /dev/stdout, a FIFO, a symlink)
 * are never replaced: their staging file lives in $TMPDIR and its bytes
 * are written through the destination at commit (a symlink to a regular
 * file, or a dangling one, has its target replaced; the link stays).  A
 * set of outputs (the JSON, HTML and PDF of one run) is committed only
 * when every member was written: the renames first, each replaced file
 * kept (a hard link) until the commit is whole, then the writes through;
 * a rename or a write through that fails puts the renamed files back, so
 * a failed run leaves none of them behind and changes none.  A fatal
 * signal (SIGINT, SIGTERM, SIGHUP, SIGPIPE) removes every staging file,
 * and puts back the files a commit under way replaced, before the
 * process ends. */
#ifndef PROFREPORT_SINK_H
#define PROFREPORT_SINK_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "profreport/error.h"

struct pr_output {
    const char *path; /* borrowed destination; "-" = standard output */
    char *tmp;        /* owned staging file */
    int through;      /* 1: write the bytes through the destination */
    void *undo;       /* during a commit: how to put the destination back */
};

struct pr_outputs {
    struct pr_output *v; /* owned */
    size_t n, cap;
};

void pr_outputs_init(struct pr_outputs *o);

/* Add `path` to the set and create its staging file, whose path
 * (*tmp_out, owned by the set, valid until pr_outputs_free) a writer that
 * needs a file name of its own (libharu) may write to.  Fails early when
 * the destination's folder cannot take a file.  Errors: PR_E_IO,
 * PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_outputs_stage(struct pr_outputs *o,
                                             const char *path,
                                             const char **tmp_out,
                                             struct pr_error *err);

/* Replace the content of a staging file with `len` bytes (path names the
 * destination in messages).  Errors: PR_E_IO. */
PR_NODISCARD enum pr_status pr_outputs_fill(const char *tmp, const char *path,
                                            const void *data, size_t len,
                                            struct pr_error *err);

/* Replace the content of a staging file with cJSON_Print(doc)'s bytes
 * (and a newline when `newline`), written member by member and the
 * elements of the top-level arrays one at a time, so that the text of a
 * summary of many runs is never held whole (issue #17).  Errors: PR_E_IO,
 * PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_outputs_fill_json(const char *tmp,
                                                 const char *path,
                                                 const cJSON *doc, int newline,
                                                 struct pr_error *err);

/* What to print in place of one element `el` of a top-level array of the
 * document: *use = NULL prints el itself.  A merged job's lite runs are
 * printed as their whole runs, read again one at a time (merge.h). */
typedef enum pr_status (*pr_json_elem_fn)(void *ctx, const cJSON *el,
                                          const cJSON **use,
                                          struct pr_error *err);

/* pr_outputs_fill_json with each element of a top-level array passed
 * through fn (NULL: none).  Errors: those of fn, PR_E_IO, PR_E_NOMEM. */
PR_NODISCARD enum pr_status
pr_outputs_fill_json_with(const char *tmp, const char *path, const cJSON *doc,
                          int newline, pr_json_elem_fn fn, void *ctx,
                          struct pr_error *err);

/* Stage `len` bytes for `path` (pr_outputs_stage, then fill). */
PR_NODISCARD enum pr_status pr_outputs_write(struct pr_outputs *o,
                                             const char *path, const void *data,
                                             size_t len, struct pr_error *err);

/* Move every staged output into place: renames first, then the
 * write-through destinations; when one fails, the renamed ones are put
 * back (the message says so if one cannot be).  Errors: PR_E_IO naming
 * the destination, PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_outputs_commit(struct pr_outputs *o,
                                              struct pr_error *err);

/* Remove the staging files that were not committed and free the set;
 * accepts NULL and an empty set. */
void pr_outputs_free(struct pr_outputs *o);

/* PR_E_USAGE when two of the n destinations (NULL entries are skipped)
 * are the same: "-" twice, or one file however spelt (./a, an absolute
 * path, a symlink: by device and inode, or by the real folder for a file
 * not yet there), or when one is one of the n_inputs inputs (it would
 * overwrite the trace).  names[i] is the option that gave paths[i], for
 * the message ("--json and --html both write to standard output"). */
PR_NODISCARD enum pr_status
pr_outputs_distinct(const char *const *paths, const char *const *names,
                    size_t n, const char *const *inputs, size_t n_inputs,
                    struct pr_error *err);

/* PR_E_IO when one of the n destinations (NULL entries are skipped)
 * cannot take the output, found before any work: a folder, a missing or
 * read-only folder, a device or FIFO not open for writing, a $TMPDIR
 * that cannot hold the staging file of standard output.  A staging file
 * is created and removed to be sure.  names[i] is the option, for the
 * message. */
PR_NODISCARD enum pr_status pr_outputs_writable(const char *const *paths,
                                                const char *const *names,
                                                size_t n, struct pr_error *err);

/* Before any work: pr_outputs_distinct, then pr_outputs_writable (exit
 * 1 for outputs that collide, 2 for one that cannot be written). */
PR_NODISCARD enum pr_status pr_outputs_check(const char *const *paths,
                                             const char *const *names, size_t n,
                                             const char *const *inputs,
                                             size_t n_inputs,
                                             struct pr_error *err);

/* How many staging files exist now (created and not yet renamed, written
 * through or removed): each is removed should SIGINT, SIGTERM, SIGHUP
 * or SIGPIPE end the process (a fixed table, async-signal-safe). */
size_t pr_sink_n_staged(void);

/* Write `len` bytes to `path` atomically: a set of one output. */
PR_NODISCARD enum pr_status pr_sink_write_file(const char *path,
                                               const void *data, size_t len,
                                               struct pr_error *err);

/* Create a temporary file next to `path` for a writer that needs a path of
 * its own (libharu).  *tmp_out receives an owned path; commit with
 * pr_sink_commit() or remove with pr_sink_abort(). */
PR_NODISCARD enum pr_status pr_sink_temp_path(const char *path, char **tmp_out,
                                              struct pr_error *err);
PR_NODISCARD enum pr_status pr_sink_commit(const char *tmp, const char *path,
                                           struct pr_error *err);
void pr_sink_abort(const char *tmp);

#endif

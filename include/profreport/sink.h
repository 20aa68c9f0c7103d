/* sink.h - output files written atomically: bytes go to a temporary file in
 * the destination's folder, which is renamed over the destination only when
 * everything was written.  A failed run leaves no half-written report.
 * "-" means standard output (written directly). */
#ifndef PROFREPORT_SINK_H
#define PROFREPORT_SINK_H

#include <stddef.h>

#include "profreport/error.h"

/* Write `len` bytes to `path` atomically. */
PR_NODISCARD enum pr_status pr_sink_write_file(const char *path,
                                               const void *data, size_t len,
                                               struct pr_error *err);

/* Create a temporary file next to `path` for a writer that needs a path of
 * its own (libharu).  *tmp_out receives an owned path; commit with
 * pr_sink_commit() or remove with pr_sink_abort(). */
PR_NODISCARD enum pr_status pr_sink_temp_path(const char *path,
                                              char **tmp_out,
                                              struct pr_error *err);
PR_NODISCARD enum pr_status pr_sink_commit(const char *tmp, const char *path,
                                           struct pr_error *err);
void pr_sink_abort(const char *tmp);

#endif

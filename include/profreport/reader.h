/* reader.h - streaming ingest of one Chrome-trace / Kineto JSON file (plain
 * or gzip, detected by magic bytes) into a struct pr_trace; the loader of
 * the "kineto" and "chrome" rows of the format table (formats.h).
 *
 * The document is never held whole: the top-level object is scanned as a
 * byte stream, `traceEvents` is cut into one event object at a time, each
 * event is parsed with cJSON on a worker thread and reduced to compact model
 * records (ingest/events.c), and the cJSON node is freed.  Bad input gives
 * PR_E_FORMAT with the file, byte offset and event index in the message. */
#ifndef PROFREPORT_READER_H
#define PROFREPORT_READER_H

#include <stdint.h>

#include "profreport/error.h"
#include "profreport/formats.h"
#include "profreport/trace.h"

/* Read `path` into a new trace (*out, owned by the caller; finished and
 * sorted).  On error *out is NULL and err names the file and position. */
PR_NODISCARD enum pr_status pr_reader_load(const char *path,
                                           const struct pr_read_opts *opts,
                                           struct pr_trace **out,
                                           struct pr_error *err);

/* Same, from a memory buffer (tests); `name` is used in messages. */
PR_NODISCARD enum pr_status pr_reader_load_mem(const char *name,
                                               const void *data, size_t len,
                                               const struct pr_read_opts *opts,
                                               struct pr_trace **out,
                                               struct pr_error *err);

#endif

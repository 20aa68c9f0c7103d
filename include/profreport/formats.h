/* formats.h - the input formats profreport reads, as a table (redis's
 * dictType idea: behaviour as a row of callbacks).  Discovery (discover.h)
 * asks every format whether it claims a file or a folder, judging by the
 * content first and the name second, and records the winner; the pipeline
 * then loads each input with its format's loader.  A loader that finds out
 * late that an input is not its own returns PR_E_NOT_FORMAT: a folder
 * member is then skipped with a warning, a file given explicitly is an
 * error.  How to add a format: the comment at the top of
 * src/ingest/formats.c. */
#ifndef PROFREPORT_FORMATS_H
#define PROFREPORT_FORMATS_H

#include <stddef.h>
#include <stdint.h>

#include "profreport/error.h"
#include "profreport/trace.h"

struct pr_progress;

struct pr_read_opts {
    uint64_t max_input_bytes; /* cap on uncompressed bytes; 0 = the
                                 default, PR_READ_DEFAULT_MAX */
    int threads;              /* parser threads; 0 = number of CPUs */
    /* how far: a reader that can tells the bytes of the file it has
     * read (progress.h); NULL = none wanted */
    struct pr_progress *progress;
    /* 1: a member of a folder given as --input (discovery found it), not
     * a file the user named: a reader may decline it with
     * PR_E_NOT_FORMAT, its message the skip's reason, where beside its
     * siblings it is not a run of its own */
    int member;
};

/* The cap on an input when --max-input is not given: half of the memory
 * this process may use (physical memory, lowered by a cgroup's limit;
 * the environment's PROFREPORT_MEMORY, a byte count such as "8GiB",
 * stands for both), so that a small .gz that inflates without end stops
 * with a message long before the machine runs out.  Readers hold about
 * 0.4 times their input at the peak (bench/RESULTS.md). */
uint64_t pr_read_default_max(void);
#define PR_READ_DEFAULT_MAX pr_read_default_max()

/* Bytes of a file's content that formats see when sniffing. */
#define PR_PROBE_HEAD ((size_t)64 << 10)

/* How sure a format is that an input is its own; the highest claim wins,
 * ties go to the earlier row of the table. */
enum pr_claim {
    PR_CLAIM_NO = 0, /* not this format */
    PR_CLAIM_NAME,   /* only the name says so (or the content is unknown) */
    PR_CLAIM_SHAPE,  /* the content has the shape of this format (a JSON
                        object, a CSV header line); the loader decides */
    PR_CLAIM_SURE    /* the content carries this format's signature
                        ("traceEvents", a table only this producer writes) */
};

/* What a format looks at to claim an input. */
struct pr_probe {
    const char *path; /* as given, or DIR/name for folder members */
    const char *base; /* the last component of path */
    int is_dir;       /* a folder: the format may claim it whole (a run
                         folder of CSV and JSON files), and discovery then
                         does not look inside */
    const char *head; /* the first bytes of a file, inflated when gzip'd;
                         NULL for folders, for inputs that cannot be read
                         twice (pipes) and when reading failed */
    size_t n_head;
    int whole; /* head holds all of the content */
};

struct pr_format {
    const char *name; /* "kineto", "chrome": for messages */
    /* How sure the format is that the input is its own.  Pure: looks only
     * at the probe (a folder format may stat names inside p->path). */
    enum pr_claim (*sniff)(const struct pr_probe *p);
    /* Read the input (a file, or a folder the format claimed) into a new
     * trace, *out owned by the caller and NULL on error.  Messages start
     * with the path.  PR_E_NOT_FORMAT when it is not this format after
     * all. */
    enum pr_status (*load)(const char *path, const struct pr_read_opts *o,
                           struct pr_trace **out, struct pr_error *err);
    int streams; /* can read an input that cannot be re-read (a pipe):
                    such inputs go to the first format that streams when
                    their name claims none */
    /* what users call it, as the README does ("Nsight Systems SQLite
     * export"), for messages; "" for a format that only turns inputs
     * away (listed nowhere as read), NULL: the name */
    const char *title;
};

/* A table of formats, most specific first. */
struct pr_format_table {
    const struct pr_format *const *v; /* borrowed, static */
    size_t n;
};

/* The formats this build reads (static data; never NULL). */
const struct pr_format_table *pr_formats_builtin(void);

/* The format of `tab` with the highest claim on `p`, if that claim is at
 * least `min`; NULL otherwise.  *claim (may be NULL) gets the claim. */
const struct pr_format *pr_formats_pick(const struct pr_format_table *tab,
                                        const struct pr_probe *p,
                                        enum pr_claim min,
                                        enum pr_claim *claim);

/* The first format of `tab` that streams, or NULL. */
const struct pr_format *pr_formats_streaming(const struct pr_format_table *tab);

/* A short description of content no format claims, for messages: "an
 * SQLite database", "text starting \"Step Id,Model ID\"", "binary data",
 * "an empty file".  `quote` 0: text is said by its kind ("JSON text",
 * "CSV text", "text"), never by its bytes (a folder member: a file the
 * user did not name must not be echoed).  Writes at most `cap` bytes (NUL
 * included). */
void pr_formats_describe(const struct pr_probe *p, int quote, char *out,
                         size_t cap);

/* The formats of `tab` in users' words (their titles, each once, in the
 * table's order), comma-separated ("Nsight Systems SQLite export,
 * MegEngine profile, ..."). */
void pr_formats_names(const struct pr_format_table *tab, char *out, size_t cap);

#endif

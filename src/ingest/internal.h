/* internal.h - what the files of src/ingest share, and nothing outside that
 * folder includes: the byte source every reader takes its input from
 * (source.c), the streaming splitter (split.c), the batch-local record sets
 * that parser threads fill (events.c) and the field getters (fields.c).
 * reader.c wires the JSON reader together with threads. */
#ifndef PROFREPORT_INGEST_INTERNAL_H
#define PROFREPORT_INGEST_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cjson/cJSON.h>

#include "profreport/buf.h"
#include "profreport/error.h"
#include "profreport/strtab.h"
#include "profreport/trace.h"

/* Deepest nesting accepted inside one event or top-level value.  Kineto
 * events nest 4 levels ("Input Dims" of a TensorList); 64 leaves room for
 * other producers while keeping hostile input cheap to reject. */
#define PR_INGEST_MAX_DEPTH 64

/* The largest single event (its JSON text); beyond this the file is
 * considered damaged rather than buffered without bound. */
#define PR_INGEST_MAX_EVENT ((size_t)256 << 20)

/* Total bytes of top-level values we keep to parse (deviceProperties,
 * distributedInfo, ...). */
#define PR_INGEST_MAX_CAPTURE ((size_t)64 << 20)

/* ------------------------------------------------------------ source.c */

/* One input document as a sequence of chunks: a file (or a memory buffer)
 * read in pieces of about 1 MiB, gzip detected by its magic bytes and
 * inflated on the fly (multi-member aware, truncation is an error).  With
 * `ahead`, reading and inflating run on a thread of their own a few chunks
 * ahead of the caller.  Both the raw and the inflated byte counts are
 * capped at `max` (PR_E_LIMIT past it).  Messages carry "byte N: ..."
 * without the file name; the caller prefixes it. */
struct pr_source;

/* Open `path` (PR_E_IO when it cannot be opened) or a memory buffer
 * (borrowed; it must outlive the source) and look at its first bytes.
 * *out is owned by the caller (pr_source_close) and NULL on error. */
PR_NODISCARD enum pr_status pr_source_open(const char *path, uint64_t max,
                                           int ahead, struct pr_source **out,
                                           struct pr_error *err);
PR_NODISCARD enum pr_status pr_source_open_mem(const void *data, size_t len,
                                               uint64_t max, int ahead,
                                               struct pr_source **out,
                                               struct pr_error *err);

/* The next chunk of the document (*n == 0 at its end).  The chunk stays
 * valid until the next call; the previous one is then reused. */
PR_NODISCARD enum pr_status pr_source_next(struct pr_source *s, const char **p,
                                           size_t *n, struct pr_error *err);

/* Document bytes handed out so far. */
uint64_t pr_source_bytes(const struct pr_source *s);

/* Bytes of the file (or buffer) behind the document bytes handed out: a
 * .gz's compressed bytes, for progress against the file's size. */
uint64_t pr_source_raw_bytes(const struct pr_source *s);

void pr_source_close(struct pr_source *s); /* accepts NULL */

/* The first up to `cap` document bytes of `path` (inflated when gzip'd)
 * into buf, for sniffing formats; *whole is set when that is all of it. */
PR_NODISCARD enum pr_status pr_source_head(const char *path, char *buf,
                                           size_t cap, size_t *n, int *whole,
                                           struct pr_error *err);

/* ------------------------------------------------------------ csv.c */

/* A CSV table read record by record (RFC 4180 as Python's csv module
 * writes and reads it; trailing tabs cut from every field, a UTF-8 BOM and
 * blank lines skipped).  The first record is the header: look columns up
 * by name, never by position, since producers add and move columns
 * between versions.  Messages carry "line N: ..." without the file name. */
struct pr_csv;

#define PR_CSV_MAX_FIELDS 4096               /* per record */
#define PR_CSV_MAX_RECORD ((size_t)64 << 20) /* bytes per record */

/* Open a file (gzip'd or not; at most `max` bytes) or a memory buffer
 * (borrowed) and read its header.  PR_E_NOT_FORMAT for an empty file.
 * *out is owned by the caller (pr_csv_close) and NULL on error. */
PR_NODISCARD enum pr_status pr_csv_open(const char *path, uint64_t max,
                                        struct pr_csv **out,
                                        struct pr_error *err);
PR_NODISCARD enum pr_status pr_csv_open_mem(const void *data, size_t len,
                                            struct pr_csv **out,
                                            struct pr_error *err);
void pr_csv_close(struct pr_csv *c); /* accepts NULL */
/* The end of a table read with status st: its error named by line (the
 * csv's current one) and file, then c closed; returns st. */
enum pr_status pr_csv_done(struct pr_csv *c, const char *path,
                           enum pr_status st, struct pr_error *err);

/* Header: the index of a column by its exact name (-1 when absent), the
 * number of columns and their names. */
int pr_csv_col(const struct pr_csv *c, const char *name);
size_t pr_csv_n_cols(const struct pr_csv *c);
const char *pr_csv_col_name(const struct pr_csv *c, size_t i);

/* The next record; *got is 0 at the end of the table.  PR_E_FORMAT for a
 * quoted field the file ends inside, PR_E_LIMIT past the caps above. */
PR_NODISCARD enum pr_status pr_csv_next(struct pr_csv *c, int *got,
                                        struct pr_error *err);

/* Field `col` of the current record, NUL-terminated, valid until the next
 * pr_csv_next(); "" for a column the record does not have (short rows).
 * *len (may be NULL) gets its length; fields may hold NUL bytes. */
const char *pr_csv_field(const struct pr_csv *c, int col, size_t *len);
size_t pr_csv_n_fields(const struct pr_csv *c);
/* The line the current record starts on (1-based), for messages. */
uint64_t pr_csv_line(const struct pr_csv *c);

/* Records whose field count differs from the header's: which field is
 * missing or extra cannot be told, so every column after it would be
 * read shifted (review22a #6: a FlashAttentionScore's Wait Time read as
 * its Duration).  After pr_csv_skip_ragged(), pr_csv_next() passes such
 * records by and keeps the first few (line, field count and the field of
 * column `label_col`, -1 for none) for pr_csv_note_ragged(), which adds
 * the trace's data-quality row "csv_ragged_rows" naming the file (by the
 * last part of `path`) and
 * those lines (nothing when there were none).  PR_E_NOMEM. */
void pr_csv_skip_ragged(struct pr_csv *c, int label_col);
/* The bytes read so far (uncompressed): a run's "Parsed" counts them. */
uint64_t pr_csv_bytes(const struct pr_csv *c);
size_t pr_csv_n_ragged(const struct pr_csv *c);
PR_NODISCARD enum pr_status pr_csv_note_ragged(const struct pr_csv *c,
                                               struct pr_trace *t,
                                               const char *path);
/* Where the table is the run's kernel table (kernel_details.csv,
 * op_summary): its ragged records named beside it too (t->kernels_note,
 * runs[].kernels_note), "kernel_details.csv line 17 (FlashAttentionScore)
 * ... is left out of this table".  Nothing without any.  PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_csv_note_kernel_rows(const struct pr_csv *c,
                                                    struct pr_trace *t,
                                                    const char *path);

/* ------------------------------------------------------------ sqlite.c */

/* What the SQLite-based formats share (torch_npu and msprof databases,
 * Nsight Systems exports): a read-only, defensive connection, probes of
 * the tables and columns a producer version has, and the string-id table
 * both families keep their names in.  `struct sqlite3` is SQLite's own
 * handle; formats include <sqlite3.h> for their queries. */
struct sqlite3;
struct sqlite3_stmt;

#define PR_SQLITE_MAX_STRINGS ((size_t)1 << 30) /* text of a string table */

/* Open `path` read-only (a regular file of at most `max` bytes, its
 * write-ahead log included) and check that it is a database: PR_E_IO,
 * PR_E_LIMIT, PR_E_FORMAT ("not a readable SQLite database (...)").  The
 * connection reads the committed pages of a "-wal" beside the file a
 * symlink leads to, creates nothing beside it, runs no view or trigger,
 * and until pr_sqlite_allow_rows() reads nothing but the schema (the
 * probes below).  *out is closed with pr_sqlite_close(). */
PR_NODISCARD enum pr_status pr_sqlite_open(const char *path, uint64_t max,
                                           struct sqlite3 **out,
                                           struct pr_error *err);
/* Let `db` read rows, once its schema is found to hold only stored data:
 * PR_E_FORMAT, naming the table and column, for a generated column
 * (GENERATED ALWAYS AS, whose SQL would run on every row read) or a
 * virtual table. */
PR_NODISCARD enum pr_status pr_sqlite_allow_rows(struct sqlite3 *db,
                                                 struct pr_error *err);
/* The name of the VFS the connections above use (sqlite_vfs.c): read-only,
 * the write-ahead log's committed pages laid over the file's.  Registered,
 * and SQLite's heap capped, on the first call; NULL when SQLite refused. */
const char *pr_sqlite_vfs(void);
#define PR_SQLITE_VFS "profreport-ro"
/* Whether `db` can be read at all (the schema query); PR_E_FORMAT if not. */
PR_NODISCARD enum pr_status pr_sqlite_check(struct sqlite3 *db,
                                            struct pr_error *err);
void pr_sqlite_close(struct sqlite3 *db); /* accepts NULL */

/* SQLite's last error on db said in the user's words: "ambiguous column
 * name: start" is "column start is in more than one of the tables read
 * together: ...", with SQLite's own text after it.  Returns buf. */
const char *pr_sqlite_why(struct sqlite3 *db, char *buf, size_t cap);

/* 1 when the table (or the table's column, by PRAGMA table_info) exists,
 * 0 when not, -1 when the database cannot be read. */
int pr_sqlite_has_table(struct sqlite3 *db, const char *table);
int pr_sqlite_has_column(struct sqlite3 *db, const char *table,
                         const char *column);

/* Where a reader is in a query, for its messages, and the first bad value
 * met there: readers set `what` (the table) and count `row` (from 1) and
 * stop at the first row after which `st` is no longer PR_OK. */
struct pr_sqlite_at {
    const char *what;     /* borrowed */
    uint64_t row;         /* 1-based, in the query's order */
    enum pr_status st;    /* PR_OK, or the first bad value's status */
    struct pr_error *err; /* borrowed: where that value's message goes */
};

/* Column i of the current row as an integer: dflt for NULL, the value of
 * an INTEGER (or of a REAL that is a whole number in range); anything else
 * (text, a blob, a fraction) is bad input: PR_E_FORMAT into at, naming
 * the table, row and column, and dflt. */
int64_t pr_sqlite_int(struct pr_sqlite_at *at, struct sqlite3_stmt *q, int i,
                      int64_t dflt);
/* The same for a time in ns, which must also lie within +-2^62 ns (146
 * years), the JSON reader's range: the sum or difference of two times
 * then always fits an int64. */
int64_t pr_sqlite_time(struct pr_sqlite_at *at, struct sqlite3_stmt *q, int i,
                       int64_t dflt);
#define PR_SQLITE_MAX_ABS_NS ((int64_t)1 << 62)
/* Note that column i of the current row is bad input: "TASK row 7:
 * startNs <why>" (the first such note wins). */
void pr_sqlite_bad(struct pr_sqlite_at *at, struct sqlite3_stmt *q, int i,
                   const char *why);

/* A string-id table in memory: id -> text (NULL values read as ""). */
struct pr_sqlite_str {
    int64_t id;
    size_t off; /* into text */
};

struct pr_sqlite_strings {
    struct pr_sqlite_str *v; /* owned, sorted by id */
    size_t n, cap;
    struct pr_buf text; /* every value, NUL-terminated */
};

/* Load SELECT id_col, value_col FROM table (names quoted as identifiers).
 * A repeated id keeps its first row.  PR_E_FORMAT when the table or a
 * column is missing, PR_E_LIMIT past PR_SQLITE_MAX_STRINGS bytes. */
PR_NODISCARD enum pr_status
pr_sqlite_load_strings(struct sqlite3 *db, const char *table,
                       const char *id_col, const char *value_col,
                       struct pr_sqlite_strings *out, struct pr_error *err);
/* The text of `id`, or NULL when the table has no such id. */
const char *pr_sqlite_string(const struct pr_sqlite_strings *s, int64_t id);
void pr_sqlite_strings_free(struct pr_sqlite_strings *s); /* accepts NULL */

/* ------------------------------------------------------------ formats.c */

struct pr_probe;

/* The head's text after a UTF-8 byte order mark and leading whitespace
 * (*s NULL when there is no head). */
void pr_probe_text(const struct pr_probe *p, const char **s, size_t *n);
/* Its first byte (0..255), or -1 when there is none. */
int pr_probe_first(const struct pr_probe *p);
/* Whether the head contains `needle` anywhere. */
int pr_probe_has(const struct pr_probe *p, const char *needle);
/* Whether the base name ends with `suffix` (case-sensitive). */
int pr_probe_name_ends(const struct pr_probe *p, const char *suffix);

/* ------------------------------------------------------------ megengine.c */

/* What megengine.c and megengine_static.c share, and tests check. */

/* Whether the head carries a string only MegEngine's profiler writes. */
int pr_megengine_signed(const struct pr_probe *p);
/* The comp node named anywhere in `s` ("gpu0:1", `CompNode("gpu0:0" from
 * "xpu0:0")`, "gpu0:0_alloc_mem"): *type 0 CPU, 1 GPU, 2 other; device
 * index; stream (-1 for COPY and the like).  0 when there is none. */
int pr_megengine_locator(const char *s, int *type, int *dev, int *stream);
/* Bytes per element of a dtype name ("Float32" 4); 0 unknown or NULL. */
int pr_megengine_dtype_size(const char *dtype);
/* The Kineto "Input type" spelling of a dtype ("Float32" -> "float"); the
 * name itself when it has none. */
const char *pr_megengine_kineto_type(const char *dtype);
/* Append a MegEngine shape ("{32,3,224,224}", "[ 32, 3 ]", "[ ]") to out
 * as Kineto prints one ("[32, 3, 224, 224]"); *elems gets the element
 * count.  0 when the text is not a shape (out may hold a part then). */
int pr_megengine_shape(const char *s, struct pr_buf *out, int64_t *elems);
/* The id of a CUDA API name without CUPTI's version suffix
 * ("cudaLaunchKernel_v7000" -> "cudaLaunchKernel"); `id` itself when it
 * has none, PR_STR_NONE on out-of-memory. */
uint32_t pr_megengine_api_name(struct pr_strtab *strs, uint32_t id);
/* Read a static-graph profile (megengine_static.c) from its text. */
PR_NODISCARD enum pr_status pr_megengine_static_parse(const char *text,
                                                      size_t len,
                                                      struct pr_trace **out,
                                                      struct pr_error *err);
/* Read a chrome_timeline document held in memory (tests). */
PR_NODISCARD enum pr_status pr_megengine_load_mem(const char *name,
                                                  const void *data, size_t len,
                                                  struct pr_trace **out,
                                                  struct pr_error *err);

/* ------------------------------------------------------------ scanning */

static inline int
pr_is_str_stop(char c)
{
    return c == '"' || c == '\\';
}

/* The first '"' or '\\' in [p, end), or end: sixteen bytes at a time
 * where SSE2 is there (every x86-64), else a byte at a time.  Strings are
 * most of a trace's bytes, and a memchr() call per short string, or two
 * (quote, then backslash), cost more than the search. */
static inline const char *
pr_str_stop(const char *p, const char *end)
{
#if defined(__SSE2__) && defined(__GNUC__)
    const __m128i qt = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\');

    for (; end - p >= 16; p += 16) {
        __m128i w = _mm_loadu_si128((const __m128i *)(const void *)p);
        unsigned m = (unsigned)_mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(w, qt), _mm_cmpeq_epi8(w, bs)));

        if (m != 0)
            return p + __builtin_ctz(m);
    }
#endif
    while (p < end && !pr_is_str_stop(*p))
        p++;
    return p;
}

/* ------------------------------------------------------------ split.c */

/* JSON's grammar, the one both the splitter (top-level values, streamed)
 * and the event parser (events.c, whole events) check with, so what is
 * accepted does not depend on the path a byte takes.  The language is JSON
 * (RFC 8259) plus what traces in the wild need and Python's json module /
 * the TB plugin read: bare NaN, Infinity, -Infinity and N/A as values, and
 * control characters inside strings. */

/* One number or literal token, a byte at a time. */
struct pr_jscalar {
    uint8_t st, lit, pos;
};
void pr_jscalar_init(struct pr_jscalar *s);
/* 1: `c` belongs to the token; 0: the token ended before `c`; -1: `c`
 * makes it invalid. */
int pr_jscalar_step(struct pr_jscalar *s, unsigned char c);
/* Whether what was stepped so far is a whole token. */
int pr_jscalar_ok(const struct pr_jscalar *s);
/* The end of the number at p when it is a whole, well-formed JSON number
 * followed by `end` or by a byte that cannot run on from it; NULL for
 * anything else (literals, bad or cut-off numbers), which the byte-wise
 * pr_jscalar_step() must then judge.  The same verdict as stepping, a
 * tight loop instead of a call per byte (numbers are most of the bytes
 * that are not strings). */
const char *pr_json_number_end(const char *p, const char *end);
/* Length of the escape sequence at p (a backslash), 0 when invalid or
 * cut off at end. */
size_t pr_json_escape_len(const char *p, const char *end);

/* PR_E_FORMAT when the JSON text (at `offset` in its file; `index`: its
 * event's number, or UINT64_MAX for a whole document) holds a "\u0000"
 * in a string: a NUL character, which no trace's names hold and which
 * cJSON would cut a name at, so the file is refused, naming the byte,
 * rather than read with names cut short (issue #35). */
PR_NODISCARD enum pr_status pr_json_refuse_nul(const char *text, size_t len,
                                               uint64_t offset, uint64_t index,
                                               struct pr_error *err);

/* One JSON value, streamed in chunks.  pr_jchk_feed() takes the next
 * bytes of the value (the first one is its first byte) and answers
 * PR_JCHK_MORE (all taken), PR_JCHK_DONE (the value ends after *used
 * bytes; a number or literal ends before the byte that follows it),
 * PR_JCHK_BAD or PR_JCHK_DEEP (the byte at *used is wrong, or nests deeper
 * than PR_INGEST_MAX_DEPTH). */
enum { PR_JCHK_MORE, PR_JCHK_DONE, PR_JCHK_BAD, PR_JCHK_DEEP };
struct pr_jchk {
    uint64_t obj;  /* bit d set: the container at depth d + 1 is an object */
    uint64_t seen; /* bytes of the value taken so far */
    uint64_t tok;  /* where the number or literal being read began */
    uint64_t bad;  /* after BAD: what to blame, as an offset in the value
                      (the start of a wrong number or literal, else the
                      offending byte) */
    int depth;
    uint8_t st, key, hex;
    struct pr_jscalar sc;
};
void pr_jchk_init(struct pr_jchk *k);
int pr_jchk_feed(struct pr_jchk *k, const char *p, size_t n, size_t *used);
/* At the end of input: PR_JCHK_DONE when a top-level number or literal
 * just ended there. */
int pr_jchk_end(const struct pr_jchk *k);

/* Top-level keys whose values the splitter hands over as text. */
enum pr_split_cap {
    PR_SPLIT_CAP_DEVICES,   /* deviceProperties */
    PR_SPLIT_CAP_DIST,      /* distributedInfo */
    PR_SPLIT_CAP_BASE_TIME, /* baseTimeNanoseconds */
    PR_SPLIT_CAP_FRAMEWORK, /* Framework */
    PR_SPLIT_N_CAPS
};

/* Called once per element of traceEvents (or of a bare top-level array)
 * with its complete JSON text; `text` is borrowed for the call only.  A
 * non-OK return stops the splitter with that error. */
/* Top-level keys of enum pr_split_cap, for messages. */
extern const char *const pr_split_cap_keys[PR_SPLIT_N_CAPS];

typedef enum pr_status (*pr_split_emit_fn)(void *ctx, uint64_t index,
                                           uint64_t offset, const char *text,
                                           size_t len, struct pr_error *err);

struct pr_split {
    pr_split_emit_fn emit;
    void *ctx;
    uint64_t pos;   /* input offset of the chunk being scanned */
    int state;      /* enum in split.c */
    int bare;       /* top level is an array of events */
    int has_events; /* traceEvents key seen */
    /* top-level keys of formats that are no Chrome trace, for the
       refusal's words: rocprofv3's "rocprofiler-sdk-tool" (1), and a
       PyTorch execution trace's "schema" and "nodes" (2 each) */
    int other_keys;
    uint64_t n_events; /* elements of the events array so far */
    /* one value being scanned (event, skipped or captured value) */
    int depth, in_str, esc;
    struct pr_jchk chk; /* a top-level value or key: checked as JSON */
    int bom;            /* bytes of a byte order mark seen at the start */
    int target;         /* enum pr_split_cap, or a negative "skip"/"events" */
    uint64_t start;     /* offset where that value began */
    struct pr_buf part; /* an event that spans chunks, so far */
    /* the key just read, with its quotes */
    char key[24];
    size_t key_len;
    struct pr_buf caps[PR_SPLIT_N_CAPS]; /* owned; text of captured values */
    uint64_t cap_at[PR_SPLIT_N_CAPS];    /* where each one starts */
    size_t cap_total;
};

void pr_split_init(struct pr_split *s, pr_split_emit_fn emit, void *ctx);
void pr_split_free(struct pr_split *s); /* accepts NULL */

/* Scan the next `n` bytes of the document.  Errors (PR_E_FORMAT, PR_E_LIMIT,
 * or what emit returned) carry "byte N: ..." without the file name. */
PR_NODISCARD enum pr_status pr_split_feed(struct pr_split *s, const char *p,
                                          size_t n, struct pr_error *err);

/* End of input: fails unless the document is complete and is a trace. */
PR_NODISCARD enum pr_status pr_split_finish(struct pr_split *s,
                                            struct pr_error *err);

/* The rest of src through a scanner that emits to emit(ctx), to the end
 * of the document (pr_split_finish's checks included); the caller closes
 * src. */
PR_NODISCARD enum pr_status pr_split_source(struct pr_source *src,
                                            pr_split_emit_fn emit, void *ctx,
                                            struct pr_error *err);
/* The whole file at path (plain, at most max bytes) through a scanner that
 * emits to emit(ctx); errors start with the path. */
PR_NODISCARD enum pr_status pr_split_path(const char *path, uint64_t max,
                                          pr_split_emit_fn emit, void *ctx,
                                          struct pr_error *err);

/* ------------------------------------------------------------ events.c */

/* Strings of one batch, deduplicated; ids are dense from 0.  Reused from
 * batch to batch so steady state allocates nothing. */
struct pr_pool_ent {
    uint32_t off; /* into text */
    uint32_t len;
    uint32_t hash;
    uint8_t uses; /* 1 << enum pr_shapes_what: an op input text, which the
                     merge has the model parse (once per distinct text) */
};

struct pr_pool {
    struct pr_buf text;       /* all strings, each NUL-terminated */
    struct pr_pool_ent *ents; /* by id */
    size_t n, cap;
    uint32_t *slots; /* id + 1; 0 = empty */
    size_t n_slots;
};

/* Records of one batch of events.  They look like the trace's own, except
 * that string fields hold pool ids and `info` indexes this batch's arrays;
 * reader.c translates both when it merges the batch into the trace. */
struct pr_recs {
    struct pr_event *ev;
    size_t n_ev, cap_ev;
    struct pr_wheres wheres; /* the events' (cat, pid, tid) in strs ids */
    struct pr_wide_ids wide; /* their ids wider than 32 bits */
    struct pr_op_info *ops;
    size_t n_ops, cap_ops;
    struct pr_py_ids *pyids; /* Python ids of ops, by op index */
    size_t n_pyids, cap_pyids;
    struct pr_gpu_info *gpu;
    size_t n_gpu, cap_gpu;
    struct pr_mem_info *mem;
    size_t n_mem, cap_mem;
    struct pr_flow *flows;
    size_t n_flows, cap_flows;
    struct pr_pool strs;
    struct pr_diag diag;
    size_t n_phased;       /* events with a non-empty "ph" string: a bare
                              array needs one to be a trace */
    int64_t window_end_ns; /* the latest "Record Window End" instant */
    int has_window_end;
    /* "Ev Idx" of the batch's events: how many carry one, their extent */
    size_t n_ev_idx;
    int64_t ev_idx_min, ev_idx_max;
    struct pr_buf scratch; /* printing Input Dims and the like */
    char *slim;            /* an event without the members nobody reads */
    size_t slim_cap;
#define PR_RECS_PY 5
    struct pr_buf py[PR_RECS_PY]; /* Input Dims / Input dims / Input type,
                                     already printed Python-style from the
                                     raw text, Concrete Inputs as compact
                                     JSON, Input Strides Python-style */
    int py_ok[PR_RECS_PY];
    uint32_t last[4]; /* the pool ids of the last name, cat, pid and tid:
                         the next event's are often the same text */
};

void pr_recs_init(struct pr_recs *r);
void pr_recs_reset(struct pr_recs *r); /* empty, keeps memory */
void pr_recs_free(struct pr_recs *r);  /* accepts NULL */

/* Parse one event's text and append what it holds to `r`.  `index` is its
 * position in traceEvents and `offset` its first byte in the document; both
 * go into error messages ("byte N: event I: ...").  Data problems that the
 * report can live with are counted in r->diag instead. */
PR_NODISCARD enum pr_status pr_recs_add_event(struct pr_recs *r,
                                              const char *text, size_t len,
                                              uint64_t index, uint64_t offset,
                                              struct pr_error *err);

/* Fill the trace's file-level facts (devices, distributed info, base
 * time, framework) from the top-level values the splitter kept.  Runs on
 * the merging thread: it interns strings in the trace. */
PR_NODISCARD enum pr_status pr_recs_apply_meta(struct pr_trace *t,
                                               const struct pr_split *s,
                                               struct pr_error *err);

/* Which side table an event kind's `info` indexes. */
enum pr_info_table { PR_INFO_NONE, PR_INFO_OP, PR_INFO_GPU, PR_INFO_MEM };

static inline enum pr_info_table
pr_info_table_of(int kind)
{
    switch (kind) {
    case PR_KIND_HOST_OP:
    case PR_KIND_ANNOTATION:
    case PR_KIND_DEVICE_ANNOTATION:
    case PR_KIND_PY_LEGACY:
    case PR_KIND_PY_FUNCTION:
        return PR_INFO_OP;
    case PR_KIND_DEVICE_TASK:
    case PR_KIND_COPY:
    case PR_KIND_SET:
        return PR_INFO_GPU;
    case PR_KIND_MEMORY_RECORD:
        return PR_INFO_MEM;
    default:
        return PR_INFO_NONE;
    }
}

/* Pool access for the merge. */
static inline const char *
pr_pool_str(const struct pr_pool *p, uint32_t id)
{
    return p->text.data + p->ents[id].off;
}

/* ------------------------------------------------------------ fields.c */

/* Result of a typed getter. */
enum pr_fld {
    PR_FLD_OK = 0,
    PR_FLD_ABSENT, /* key missing, or null (also NaN/Infinity tokens) */
    PR_FLD_BAD,    /* present but of the wrong type */
    PR_FLD_RANGE   /* a number, but not finite or out of range */
};

/* A number, or a string holding a JSON number ("123", "4.5"); finite. */
enum pr_fld pr_fld_num(const cJSON *v, double *out);
/* The same, integral and within [lo, hi]. */
enum pr_fld pr_fld_int(const cJSON *v, int64_t lo, int64_t hi, int64_t *out);
/* Microseconds to nanoseconds, round(us * 1000), within +-2^62 ns. */
enum pr_fld pr_fld_us_to_ns(double us, int64_t *ns);
/* The same from the text of a plain decimal number ("4458676522690.655"),
 * exactly: no double in between.  PR_FLD_BAD for other forms (exponents,
 * strings), which the caller leaves to cJSON. */
enum pr_fld pr_fld_us_text_to_ns(const char *s, size_t n, int64_t *ns);
/* ts/dur member as nanoseconds. */
enum pr_fld pr_fld_time_ns(const cJSON *v, int64_t *ns);

/* Parse a whole JSON number text (the strict JSON grammar); 0 when `s` is
 * not one.  Used for numbers written as strings. */
int pr_fld_parse_number(const char *s, size_t len, double *out);
/* Exact int64 parse of an integer text (no fraction or exponent). */
int pr_fld_parse_int64(const char *s, size_t len, int64_t *out);

/* Canonical text of an id-like value (pid/tid): numbers and numeric strings
 * in decimal, other strings as is.  With `absolute`, negative numbers lose
 * their sign (Kineto's tid rule).  0 when `v` is neither. */
int pr_fld_id_text(const cJSON *v, int absolute, struct pr_buf *out);

/* Python's str() of a JSON value ("[[32, 3], []]", "['float', 'int']"). */
PR_NODISCARD enum pr_status pr_fld_py_str(const cJSON *v, struct pr_buf *out);
/* The same straight from JSON text, for lists of integers and of strings
 * without escapes (shapes and type names); 0 for anything else, which the
 * caller then leaves to cJSON and pr_fld_py_str. */
int pr_fld_py_str_raw(const char *p, size_t n, struct pr_buf *out);
/* The same list as cJSON_PrintUnformatted() would print it ("Concrete
 * Inputs"); 0 when it cannot tell. */
int pr_fld_json_raw(const char *p, size_t n, struct pr_buf *out);

/* Write a double the way Python's repr() does (shortest round trip). */
PR_NODISCARD enum pr_status pr_fld_py_float(double d, struct pr_buf *out);

/* ------------------------------------------------------------ replay.c */

/* Pair the cuda_profiler_range events of a kernel-replay trace with the
 * kernel launches, in order, giving each range its launch's correlation
 * and External id; counts them in t->replayed_kernels, and in
 * t->replay_unlinked when the two counts differ (then nothing is paired).
 * Call after pr_trace_finish().  PR_E_NOMEM (the ids may need memory). */
PR_NODISCARD enum pr_status pr_ingest_link_ranges(struct pr_trace *t);

/* ------------------------------------------------------------ hipext.c */

/* Kernels launched with hipExtModuleLaunchKernel (or its deprecated twin
 * hipHccModuleLaunchKernel) record their grid as the global work size in
 * work-items: turn it into workgroups, ceil(grid / block) dim by dim.
 * Call after the events are merged and before pr_trace_finish() (it edits
 * t->gpu).  PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_ingest_hip_global_grids(struct pr_trace *t);

#endif

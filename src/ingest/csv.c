/* csv.c - a small streaming CSV reader for the formats that write tables
 * (Ascend kernel_details.csv, op_summary, step_trace_time, ...).  RFC 4180
 * with the leniencies of Python's csv module, which writes most of these
 * files: records end at LF, CRLF or CR; quoted fields may hold commas,
 * doubled quotes and line breaks; text after a closing quote is kept.  On
 * top: a UTF-8 byte order mark is skipped, blank lines are skipped, and
 * trailing tabs are cut from every field (Ascend appends "\t" to numbers
 * so that spreadsheets keep their digits).  Bytes come from a byte source
 * (source.c: gzip and the size cap come with it). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/buf.h"

/* ragged records named in the data-quality row */
#define RAGGED_KEPT 3

enum {
    S_START,  /* at the start of a field */
    S_PLAIN,  /* inside an unquoted field */
    S_QUOTED, /* inside a quoted field */
    S_QUOTE   /* a quote inside a quoted field: doubled, or the end */
};

struct pr_csv {
    struct pr_source *src; /* owned */
    const char *p, *end;   /* the chunk being read */
    int eof;
    int state;
    int bom_checked;
    uint64_t line;     /* line of the next byte (1-based) */
    uint64_t rec_line; /* line where the current record starts */
    struct pr_buf rec; /* fields of the current record, NUL-terminated */
    size_t *starts;    /* offset of each field in rec */
    size_t n_fields, cap_fields;
    char **header; /* owned copies of the header names */
    size_t n_header;
    /* records of another field count than the header's, skipped */
    int skip_ragged, label_col;
    size_t n_ragged;
    struct ragged {
        uint64_t line;
        size_t n_fields;
        char label[64];
    } ragged[RAGGED_KEPT];
};

static enum pr_status
end_field(struct pr_csv *c, struct pr_error *err)
{
    if (c->n_fields == PR_CSV_MAX_FIELDS)
        return pr_error_set(err, PR_E_LIMIT,
                            "line %" PRIu64 ": more than %d fields",
                            c->rec_line, PR_CSV_MAX_FIELDS);
    while (c->rec.len > c->starts[c->n_fields] &&
           c->rec.data[c->rec.len - 1] == '\t')
        c->rec.len--;
    if (pr_buf_addc(&c->rec, '\0') != PR_OK)
        return pr_error_set(err, PR_E_LIMIT,
                            "line %" PRIu64 ": record larger than %zu MiB",
                            c->rec_line, PR_CSV_MAX_RECORD >> 20);
    c->n_fields++;
    if (pr_grow((void **)&c->starts, &c->cap_fields, c->n_fields + 1,
                sizeof(*c->starts)) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    c->starts[c->n_fields] = c->rec.len;
    c->state = S_START;
    return PR_OK;
}

static enum pr_status
add_byte(struct pr_csv *c, char ch, struct pr_error *err)
{
    /* a field is a C string to every reader: a NUL would cut a name
       short without a word (issue #35) */
    if (ch == '\0')
        return pr_error_set(err, PR_E_FORMAT,
                            "line %" PRIu64 ": a NUL byte inside a field "
                            "(binary data, not CSV text)",
                            c->rec_line);
    if (pr_buf_addc(&c->rec, ch) != PR_OK)
        return pr_error_set(err, PR_E_LIMIT,
                            "line %" PRIu64 ": record larger than %zu MiB",
                            c->rec_line, PR_CSV_MAX_RECORD >> 20);
    return PR_OK;
}

/* The next chunk when the current one is used up; *more is 0 at the end
 * of input. */
static enum pr_status
refill(struct pr_csv *c, int *more, struct pr_error *err)
{
    size_t n;
    enum pr_status st;

    *more = 0;
    if (c->p < c->end) {
        *more = 1;
        return PR_OK;
    }
    if (c->eof)
        return PR_OK;
    st = pr_source_next(c->src, &c->p, &n, err);
    if (st != PR_OK)
        return st;
    c->end = c->p + n;
    c->eof = n == 0;
    if (!c->bom_checked && n > 0) {
        /* a BOM split across chunks is not worth handling: the source's
         * first chunk is a whole read or inflate */
        c->bom_checked = 1;
        if (n >= 3 && memcmp(c->p, "\xef\xbb\xbf", 3) == 0)
            c->p += 3;
    }
    *more = c->p < c->end;
    return PR_OK;
}

static void
reset_record(struct pr_csv *c)
{
    pr_buf_reset(&c->rec);
    c->n_fields = 0;
    c->starts[0] = 0;
    c->state = S_START;
    c->rec_line = c->line;
}

/* One byte outside quotes: *done is set at the end of the record. */
static enum pr_status
plain_byte(struct pr_csv *c, char ch, int *done, struct pr_error *err)
{
    if (ch == ',')
        return end_field(c, err);
    if (ch == '\n' || ch == '\r') {
        /* CRLF: the LF is skipped as the start of a blank line */
        c->line += ch == '\n';
        if (c->n_fields == 0 && c->rec.len == 0 && c->state == S_START) {
            c->rec_line = c->line;
            return PR_OK; /* blank line */
        }
        *done = 1;
        return end_field(c, err);
    }
    if (ch == '"' && c->state == S_START) {
        c->state = S_QUOTED;
        return PR_OK;
    }
    c->state = S_PLAIN;
    return add_byte(c, ch, err);
}

static enum pr_status
step(struct pr_csv *c, char ch, int *done, struct pr_error *err)
{
    switch (c->state) {
    case S_QUOTED:
        if (ch == '"') {
            c->state = S_QUOTE;
            return PR_OK;
        }
        c->line += ch == '\n';
        return add_byte(c, ch, err);
    case S_QUOTE:
        if (ch == '"') {
            c->state = S_QUOTED;
            return add_byte(c, ch, err);
        }
        c->state = S_PLAIN; /* text after the closing quote is kept */
        if (ch == ',' || ch == '\n' || ch == '\r')
            return plain_byte(c, ch, done, err);
        return add_byte(c, ch, err);
    default:
        return plain_byte(c, ch, done, err);
    }
}

static enum pr_status
next_record(struct pr_csv *c, int *got, struct pr_error *err)
{
    enum pr_status st = PR_OK;
    int more, done = 0;

    *got = 0;
    reset_record(c);
    while (st == PR_OK && !done) {
        st = refill(c, &more, err);
        if (st != PR_OK)
            break;
        if (!more) {
            if (c->state == S_QUOTED)
                return pr_error_set(err, PR_E_FORMAT,
                                    "line %" PRIu64 ": unterminated quoted "
                                    "field (the file ends inside it)",
                                    c->rec_line);
            if (c->n_fields == 0 && c->rec.len == 0 && c->state == S_START)
                return PR_OK; /* the end */
            done = 1;
            st = end_field(c, err);
            break;
        }
        st = step(c, *c->p++, &done, err);
    }
    *got = st == PR_OK;
    return st;
}

/* Keep a ragged record's line, field count and label for the note. */
static void
keep_ragged(struct pr_csv *c)
{
    struct ragged *r;
    size_t n;
    const char *f;

    if (c->n_ragged++ >= RAGGED_KEPT)
        return;
    r = &c->ragged[c->n_ragged - 1];
    r->line = c->rec_line;
    r->n_fields = c->n_fields;
    f = pr_csv_field(c, c->label_col, &n);
    if (n >= sizeof(r->label))
        n = sizeof(r->label) - 1;
    memcpy(r->label, f, n);
    r->label[n] = '\0';
}

enum pr_status
pr_csv_next(struct pr_csv *c, int *got, struct pr_error *err)
{
    enum pr_status st;

    for (;;) {
        st = next_record(c, got, err);
        if (st != PR_OK || !*got || !c->skip_ragged ||
            c->n_fields == c->n_header)
            return st;
        keep_ragged(c);
    }
}

void
pr_csv_skip_ragged(struct pr_csv *c, int label_col)
{
    c->skip_ragged = 1;
    c->label_col = label_col;
}

uint64_t
pr_csv_bytes(const struct pr_csv *c)
{
    return c != NULL ? pr_source_bytes(c->src) : 0;
}

size_t
pr_csv_n_ragged(const struct pr_csv *c)
{
    return c != NULL ? c->n_ragged : 0;
}

/* The ragged rows kept, appended to text[0..n): "line 17: 31 fields,
 * header 30 (FlashAttentionScore); ..." for Data quality (detail), "line
 * 17 (FlashAttentionScore), ..." beside the kernel table; then how many
 * more.  The new length (snprintf's, past cap when cut). */
static int
ragged_list(const struct pr_csv *c, char *text, size_t cap, int n, int detail)
{
    size_t i, k = c->n_ragged < RAGGED_KEPT ? c->n_ragged : RAGGED_KEPT;

    for (i = 0; i < k && n >= 0 && (size_t)n < cap; i++) {
        const struct ragged *r = &c->ragged[i];
        const char *open = r->label[0] ? " (" : "";
        const char *close = r->label[0] ? ")" : "";

        if (detail)
            n += snprintf(text + n, cap - (size_t)n,
                          "%s line %" PRIu64 ": %zu fields, header %zu%s%s%s",
                          i ? ";" : "", r->line, r->n_fields, c->n_header, open,
                          r->label, close);
        else
            n +=
                snprintf(text + n, cap - (size_t)n, "%s line %" PRIu64 "%s%s%s",
                         i ? "," : "", r->line, open, r->label, close);
    }
    if (n >= 0 && (size_t)n < cap && c->n_ragged > k)
        n += snprintf(text + n, cap - (size_t)n,
                      detail ? "; and %zu more" : " and %zu more",
                      c->n_ragged - k);
    return n;
}

enum pr_status
pr_csv_note_ragged(const struct pr_csv *c, struct pr_trace *t, const char *path)
{
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char text[640];
    int n;

    if (c->n_ragged == 0)
        return PR_OK;
    n = ragged_list(c, text, sizeof(text),
                    snprintf(text, sizeof(text), "%s", name), 1);
    if (n >= 0 && (size_t)n < sizeof(text))
        snprintf(text + n, sizeof(text) - (size_t)n,
                 ": %s not read, since which field is missing or extra "
                 "cannot be told and every column after it would be read "
                 "shifted",
                 c->n_ragged == 1 ? "the row is" : "the rows are");
    return pr_trace_add_gap(t, "csv_ragged_rows", c->n_ragged, text);
}

enum pr_status
pr_csv_note_kernel_rows(const struct pr_csv *c, struct pr_trace *t,
                        const char *path)
{
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char text[640];
    int n;

    if (c->n_ragged == 0)
        return PR_OK;
    n = ragged_list(
        c, text, sizeof(text),
        snprintf(text, sizeof(text), "Left out of this table: %s", name), 0);
    if (n >= 0 && (size_t)n < sizeof(text))
        snprintf(text + n, sizeof(text) - (size_t)n,
                 ": %s another number of fields than the header, so which "
                 "field is missing or extra cannot be told (see Data "
                 "quality); %s time is in no row here.",
                 c->n_ragged == 1 ? "the record has" : "the records have",
                 c->n_ragged == 1 ? "its" : "their");
    t->kernels_note = pr_strtab_intern(t->strs, text, strlen(text));
    return t->kernels_note != PR_STR_NONE ? PR_OK : PR_E_NOMEM;
}

size_t
pr_csv_n_fields(const struct pr_csv *c)
{
    return c->n_fields;
}

const char *
pr_csv_field(const struct pr_csv *c, int col, size_t *len)
{
    size_t s, e;

    if (col < 0 || (size_t)col >= c->n_fields) {
        if (len != NULL)
            *len = 0;
        return "";
    }
    s = c->starts[col];
    e = c->starts[col + 1] - 1; /* the NUL */
    if (len != NULL)
        *len = e - s;
    return c->rec.data + s;
}

uint64_t
pr_csv_line(const struct pr_csv *c)
{
    return c->rec_line;
}

int
pr_csv_col(const struct pr_csv *c, const char *name)
{
    size_t i;

    for (i = 0; i < c->n_header; i++) {
        if (strcmp(c->header[i], name) == 0)
            return (int)i;
    }
    return -1;
}

size_t
pr_csv_n_cols(const struct pr_csv *c)
{
    return c->n_header;
}

const char *
pr_csv_col_name(const struct pr_csv *c, size_t i)
{
    return i < c->n_header ? c->header[i] : NULL;
}

static int
cmp_name(const void *a, const void *b)
{
    int r = strcmp(**(char **const *)a, **(char **const *)b);

    /* ties by column: the message names the first two in order */
    return r != 0 ? r
                  : (*(char **const *)a > *(char **const *)b) -
                        (*(char **const *)a < *(char **const *)b);
}

/* A name that heads two columns: which holds the data cannot be told
 * (issue #35: the reader took one silently).  Empty names (a trailing
 * comma) may repeat.  Sorted, so a wide header costs n log n. */
static enum pr_status
unique_header(const struct pr_csv *c, struct pr_error *err)
{
    char **by = NULL;
    char ***idx = malloc((c->n_header ? c->n_header : 1) * sizeof(*idx));
    size_t i;

    if (idx == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    for (i = 0; i < c->n_header; i++)
        idx[i] = &c->header[i];
    qsort(idx, c->n_header, sizeof(*idx), cmp_name);
    for (i = 1; i < c->n_header && by == NULL; i++)
        if (*idx[i][0] != '\0' && strcmp(*idx[i], *idx[i - 1]) == 0)
            by = idx[i - 1];
    if (by != NULL) {
        size_t first = (size_t)(by - c->header), second = first + 1;

        while (strcmp(c->header[second], *by) != 0)
            second++;
        free(idx);
        return pr_error_set(err, PR_E_FORMAT,
                            "the header names column \"%.80s\" twice "
                            "(columns %zu and %zu): which one holds the "
                            "data cannot be told",
                            *by, first + 1, second + 1);
    }
    free(idx);
    return PR_OK;
}

/* Keep the first record as the header. */
static enum pr_status
read_header(struct pr_csv *c, struct pr_error *err)
{
    int got;
    size_t i;
    enum pr_status st = pr_csv_next(c, &got, err);

    if (st != PR_OK)
        return st;
    if (!got)
        return pr_error_set(err, PR_E_NOT_FORMAT, "no header line (empty CSV)");
    c->header = calloc(c->n_fields, sizeof(*c->header));
    if (c->header == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    for (i = 0; i < c->n_fields; i++) {
        size_t n;
        const char *f = pr_csv_field(c, (int)i, &n);

        c->header[i] = malloc(n + 1);
        if (c->header[i] == NULL)
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
        memcpy(c->header[i], f, n + 1);
        c->n_header++;
    }
    return unique_header(c, err);
}

enum pr_status
pr_csv_done(struct pr_csv *c, const char *path, enum pr_status st,
            struct pr_error *err)
{
    if (st != PR_OK && c != NULL && st != PR_E_NOMEM)
        pr_error_prefix(err, "line %llu: ", (unsigned long long)pr_csv_line(c));
    pr_csv_close(c);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}

void
pr_csv_close(struct pr_csv *c)
{
    size_t i;

    if (c == NULL)
        return;
    pr_source_close(c->src);
    pr_buf_free(&c->rec);
    free(c->starts);
    for (i = 0; i < c->n_header; i++)
        free(c->header[i]);
    free(c->header);
    free(c);
}

/* Take over `src` (closed on failure too) and read the header. */
static enum pr_status
start(struct pr_source *src, struct pr_csv **out, struct pr_error *err)
{
    struct pr_csv *c = calloc(1, sizeof(*c));
    enum pr_status st;

    *out = NULL;
    if (c == NULL) {
        pr_source_close(src);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    c->src = src;
    c->line = 1;
    pr_buf_init(&c->rec, PR_CSV_MAX_RECORD);
    if (pr_grow((void **)&c->starts, &c->cap_fields, 16, sizeof(*c->starts)) !=
        PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    else
        st = read_header(c, err);
    if (st != PR_OK) {
        pr_csv_close(c);
        return st;
    }
    *out = c;
    return PR_OK;
}

enum pr_status
pr_csv_open(const char *path, uint64_t max, struct pr_csv **out,
            struct pr_error *err)
{
    struct pr_source *src;
    enum pr_status st = pr_source_open(path, max, 1, &src, err);

    *out = NULL;
    return st == PR_OK ? start(src, out, err) : st;
}

enum pr_status
pr_csv_open_mem(const void *data, size_t len, struct pr_csv **out,
                struct pr_error *err)
{
    struct pr_source *src;
    enum pr_status st = pr_source_open_mem(data, len, UINT64_MAX, 0, &src, err);

    *out = NULL;
    return st == PR_OK ? start(src, out, err) : st;
}

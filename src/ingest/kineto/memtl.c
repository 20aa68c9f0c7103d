/* memtl.c - torch.profiler's raw memory timeline:
 * prof.export_memory_timeline("x.raw.json.gz", device), which is what
 * HTA's MemoryAnalysis (hta/memory_analysis.py) reads.  A JSON array of
 * rows [t_ns, action, numbytes, category] (torch/profiler/
 * _memory_profiler.py, export_memory_timeline_raw): t from the profiler's
 * clock in ns, -1 for allocations older than the profile; action 1-4
 * (PREEXISTING, CREATE, INCREMENT_VERSION as a pair of rows, DESTROY);
 * numbytes signed; category an index into HTA's category order
 * (memtl.h).  The rows are read as a byte stream and summed as they come
 * (src/model/memtl.c), so a file of millions of rows takes fixed memory.
 * The file holds one device's rows but does not say which device, nor any
 * operator, kernel or step: the trace is memory only. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../internal.h"
#include "profreport/formats.h"
#include "profreport/memtl.h"
#include "profreport/parse.h"

#define NUM_CAP 32

enum st {
    S_START,   /* before the outer '[' */
    S_FIRST,   /* after it: a row or ']' */
    S_ROW,     /* after ',': a row */
    S_BEFORE,  /* in a row, before a number */
    S_NUM,     /* in a number */
    S_AFTER,   /* in a row, after a number */
    S_BETWEEN, /* after a row: ',' or ']' */
    S_DONE     /* after the outer ']' */
};

struct rd {
    enum st state;
    struct pr_memtl *m;
    uint64_t row; /* index of the row being read */
    uint64_t at;  /* bytes of the document stepped over */
    int field;    /* numbers of it read */
    int64_t v[4];
    char num[NUM_CAP + 1];
    size_t n_num;
};

static int
is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int
is_num(char c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' ||
           c == 'e' || c == 'E';
}

static const char *const field_names[4] = {"time", "action", "numbytes",
                                           "category"};

/* A complete row: the values torch writes, or a message naming it. */
static enum pr_status
take_row(struct rd *r, struct pr_error *err)
{
    int64_t t = r->v[0], a = r->v[1], b = r->v[2], c = r->v[3];

    if (t < -1)
        return pr_error_set(err, PR_E_FORMAT,
                            "row %" PRIu64 ": time %" PRId64
                            " is negative (only -1, an allocation older "
                            "than the profile, is)",
                            r->row, t);
    if (a < PR_MEMTL_PREEXISTING || a > PR_MEMTL_DESTROY)
        return pr_error_set(err, PR_E_FORMAT,
                            "row %" PRIu64 ": unknown action %" PRId64
                            " (1 preexisting, 2 create, 3 increment "
                            "version, 4 destroy)",
                            r->row, a);
    if (c < 0 || c >= PR_MEMTL_CATS)
        return pr_error_set(err, PR_E_FORMAT,
                            "row %" PRIu64 ": unknown category %" PRId64
                            " (0-%d, HTA's order)",
                            r->row, c, PR_MEMTL_CATS - 1);
    if ((a <= PR_MEMTL_CREATE && b < 0) || (a == PR_MEMTL_DESTROY && b > 0))
        return pr_error_set(
            err, PR_E_FORMAT,
            "row %" PRIu64 ": %s of %" PRId64 " bytes (torch writes %s)",
            r->row, a == PR_MEMTL_DESTROY ? "a destroy" : "an allocation", b,
            a == PR_MEMTL_DESTROY ? "them negative" : "them positive");
    pr_memtl_add(r->m, t, b, (int)c);
    r->m->by_action[a]++;
    r->row++;
    return PR_OK;
}

static enum pr_status
end_number(struct rd *r, struct pr_error *err)
{
    int64_t v;

    r->num[r->n_num] = '\0';
    if (!pr_parse_int64(r->num, INT64_MIN, INT64_MAX, &v))
        return pr_error_set(err, PR_E_FORMAT,
                            "row %" PRIu64 ": %s \"%s\" is not a whole "
                            "number",
                            r->row, field_names[r->field], r->num);
    r->v[r->field++] = v;
    r->n_num = 0;
    r->state = S_AFTER;
    return PR_OK;
}

static enum pr_status
not_row(const struct rd *r, char c, struct pr_error *err)
{
    if (r->row == 0 && r->state == S_FIRST)
        return pr_error_set(err, PR_E_NOT_FORMAT,
                            "not a raw memory timeline (the array's first "
                            "element is not an array)");
    return pr_error_set(err, PR_E_FORMAT,
                        "row %" PRIu64 ": not an array of 4 numbers "
                        "(found '%c')",
                        r->row, c);
}

static enum pr_status
in_row(struct rd *r, char c, struct pr_error *err)
{
    if (r->state == S_BEFORE) {
        if (is_ws(c))
            return PR_OK;
        if (c != '-' && !(c >= '0' && c <= '9'))
            return pr_error_set(
                err, PR_E_FORMAT,
                "row %" PRIu64 ": %s is not a number "
                "(found '%c')",
                r->row, r->field < 4 ? field_names[r->field] : "a fifth field",
                c);
        if (r->field == 4)
            return pr_error_set(err, PR_E_FORMAT,
                                "row %" PRIu64 ": more than 4 numbers", r->row);
        r->state = S_NUM;
    }
    if (r->state == S_NUM) {
        if (is_num(c)) {
            if (r->n_num == NUM_CAP)
                return pr_error_set(err, PR_E_FORMAT,
                                    "row %" PRIu64 ": %s is too long", r->row,
                                    field_names[r->field]);
            r->num[r->n_num++] = c;
            return PR_OK;
        }
        enum pr_status st = end_number(r, err);

        if (st != PR_OK)
            return st;
    }
    if (is_ws(c))
        return PR_OK;
    if (c == ',') {
        r->state = S_BEFORE;
        return PR_OK;
    }
    if (c != ']')
        return pr_error_set(err, PR_E_FORMAT,
                            "row %" PRIu64 ": expected ',' or ']' after "
                            "the %s, found '%c'",
                            r->row, field_names[r->field - 1], c);
    if (r->field != 4)
        return pr_error_set(err, PR_E_FORMAT,
                            "row %" PRIu64 ": %d numbers, not 4 (time, "
                            "action, numbytes, category)",
                            r->row, r->field);
    r->state = S_BETWEEN;
    return take_row(r, err);
}

static enum pr_status
step(struct rd *r, char c, struct pr_error *err)
{
    switch (r->state) {
    case S_START:
        /* a UTF-8 byte order mark, as the sniff (pr_probe_text) allows */
        if (is_ws(c) || (r->at < 3 && c == "\xef\xbb\xbf"[r->at]))
            return PR_OK;
        if (c != '[')
            return pr_error_set(err, PR_E_NOT_FORMAT,
                                "not a raw memory timeline (not an array)");
        r->state = S_FIRST;
        return PR_OK;
    case S_FIRST:
    case S_ROW:
        if (is_ws(c))
            return PR_OK;
        if (c == ']' && r->state == S_FIRST) {
            r->state = S_DONE;
            return PR_OK;
        }
        if (c != '[')
            return not_row(r, c, err);
        r->field = 0;
        r->n_num = 0;
        r->state = S_BEFORE;
        return PR_OK;
    case S_BETWEEN:
        if (is_ws(c))
            return PR_OK;
        if (c == ',' || c == ']') {
            r->state = c == ',' ? S_ROW : S_DONE;
            return PR_OK;
        }
        return pr_error_set(err, PR_E_FORMAT,
                            "after row %" PRIu64 ": expected ',' or ']', "
                            "found '%c'",
                            r->row - 1, c);
    case S_DONE:
        if (is_ws(c))
            return PR_OK;
        return pr_error_set(err, PR_E_FORMAT,
                            "after the array's end: found '%c'", c);
    default:
        return in_row(r, c, err);
    }
}

static enum pr_status
read_rows(struct rd *r, struct pr_source *src, struct pr_error *err)
{
    for (;;) {
        const char *p;
        size_t n, i;
        enum pr_status st = pr_source_next(src, &p, &n, err);

        if (st != PR_OK) {
            pr_error_prefix(err, "in or after row %" PRIu64 ": ", r->row);
            return st;
        }
        if (n == 0)
            break;
        for (i = 0; i < n; i++, r->at++) {
            st = step(r, p[i], err);
            if (st != PR_OK)
                return st;
        }
    }
    if (r->state == S_DONE)
        return PR_OK;
    if (r->state == S_START)
        return pr_error_set(err, PR_E_NOT_FORMAT,
                            "not a raw memory timeline (empty)");
    return pr_error_set(err, PR_E_FORMAT,
                        "truncated: the file ends in or after row %" PRIu64,
                        r->row);
}

static enum pr_status
build(struct pr_trace *t, struct pr_source *src, struct pr_error *err)
{
    struct rd r;
    enum pr_status st;

    memset(&r, 0, sizeof(r));
    r.m = pr_memtl_new();
    if (r.m == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    t->memtl = r.m;
    st = read_rows(&r, src, err);
    t->bytes = pr_source_bytes(src);
    if (st != PR_OK)
        return st;
    if (r.row == 0)
        return pr_error_set(err, PR_E_FORMAT,
                            "a raw memory timeline without rows");
    pr_memtl_end(r.m);
    t->n_trace_events = (size_t)r.row; /* inputs[].events: the rows */
    t->format = pr_strtab_intern(t->strs, "memory_timeline", 15);
    if (t->format == PR_STR_NONE)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return PR_OK;
}

static enum pr_status
load(const char *path, const struct pr_read_opts *o, struct pr_trace **out,
     struct pr_error *err)
{
    struct pr_source *src = NULL;
    struct pr_trace *t = pr_trace_new();
    enum pr_status st;

    *out = NULL;
    st = t == NULL
             ? pr_error_set(err, PR_E_NOMEM, "out of memory")
             : pr_source_open(path,
                              o && o->max_input_bytes ? o->max_input_bytes
                                                      : PR_READ_DEFAULT_MAX,
                              1, &src, err);
    if (st == PR_OK)
        st = build(t, src, err);
    pr_source_close(src);
    if (st != PR_OK) {
        pr_trace_free(t);
        pr_error_prefix(err, "%s: ", path);
        return st;
    }
    pr_trace_finish(t);
    *out = t;
    return PR_OK;
}

/* "[[" and a number: a Chrome trace's array holds objects. */
static enum pr_claim
sniff(const struct pr_probe *p)
{
    const char *s;
    size_t n, i = 0;

    if (p->is_dir)
        return PR_CLAIM_NO;
    pr_probe_text(p, &s, &n);
    if (n == 0 || s[0] != '[')
        return PR_CLAIM_NO;
    for (i = 1; i < n && is_ws(s[i]); i++)
        ;
    if (i == n || s[i] != '[')
        return PR_CLAIM_NO;
    for (i++; i < n && is_ws(s[i]); i++)
        ;
    return i < n && (s[i] == '-' || (s[i] >= '0' && s[i] <= '9'))
               ? PR_CLAIM_SURE
               : PR_CLAIM_NO;
}

const struct pr_format pr_format_memtl = {"memory_timeline", sniff, load, 0,
                                          "torch.profiler raw memory timeline"};

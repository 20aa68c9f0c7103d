/* shapes.c - operator inputs in the model: the parsers of the recorded
 * shape, type and concrete-input texts, and the table that keeps each
 * distinct text parsed once (at ingest), compactly, keyed by its string
 * id.  The FLOP formulas that read them are analysis/flops.c's. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/shapes.h"

/* ---------------------------------------------------------------- parsing */

#define MAX_CONCRETE_TEXT 256 /* longer concrete values are not read */

/* Propagate a failed status (jq's TRY): err may be NULL, so the status is
 * carried by value, never read back from err. */
#define TRY(x)                                                                 \
    do {                                                                       \
        enum pr_status st_ = (x);                                              \
        if (st_ != PR_OK)                                                      \
            return st_;                                                        \
    } while (0)

struct cursor {
    const char *p;
};

static void
skip_ws(struct cursor *c)
{
    while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')
        c->p++;
}

/* Non-negative decimal; PR_E_LIMIT when it does not fit in int64. */
static enum pr_status
read_int(struct cursor *c, int64_t *v, struct pr_error *err)
{
    int64_t x = 0;

    if (*c->p < '0' || *c->p > '9')
        return pr_error_set(err, PR_E_FORMAT, "shape: expected a number");
    while (*c->p >= '0' && *c->p <= '9') {
        if (!pr_checked_mul_i64(x, 10, &x) ||
            !pr_checked_add_i64(x, *c->p - '0', &x))
            return pr_error_set(err, PR_E_LIMIT, "shape: number too large");
        c->p++;
    }
    *v = x;
    return PR_OK;
}

/* "[d0, d1, ...]" after the '[' was consumed; stores dims and numel. */
static enum pr_status
parse_dims(struct cursor *c, int *ndim, int64_t *dims, int64_t *numel,
           struct pr_error *err)
{
    int64_t v, prod = 1;
    int n = 0;

    skip_ws(c);
    while (*c->p != ']') {
        if (n > 0) {
            if (*c->p != ',')
                return pr_error_set(err, PR_E_FORMAT, "shape: expected ','");
            c->p++;
            skip_ws(c);
        }
        TRY(read_int(c, &v, err));
        if (n == PR_SHAPE_MAX_DIMS)
            return pr_error_set(err, PR_E_LIMIT, "shape: more than %d dims",
                                PR_SHAPE_MAX_DIMS);
        if (!pr_checked_mul_i64(prod, v, &prod))
            return pr_error_set(err, PR_E_LIMIT, "shape: product overflows");
        dims[n++] = v;
        skip_ws(c);
    }
    c->p++;
    *ndim = n;
    *numel = prod;
    return PR_OK;
}

/* A TensorList entry "[[..], [..]]" after its '[' was consumed. */
static enum pr_status
parse_list_arg(struct cursor *c, struct pr_shape_arg *a, struct pr_error *err)
{
    int64_t dims[PR_SHAPE_MAX_DIMS], numel;
    int ndim;

    a->is_list = 1;
    a->numel = 0;
    while (*c->p != ']') {
        if (a->n_members > 0) {
            if (*c->p != ',')
                return pr_error_set(err, PR_E_FORMAT, "shape: expected ','");
            c->p++;
            skip_ws(c);
        }
        if (*c->p != '[')
            return pr_error_set(err, PR_E_FORMAT, "shape: expected '['");
        c->p++;
        skip_ws(c);
        if (*c->p == '[')
            return pr_error_set(err, PR_E_LIMIT, "shape: nested too deep");
        TRY(parse_dims(c, &ndim, dims, &numel, err));
        if (a->n_members == 0) {
            a->ndim = ndim;
            memcpy(a->dims, dims, sizeof(dims));
        }
        if (!pr_checked_add_i64(a->numel, numel, &a->numel))
            return pr_error_set(err, PR_E_LIMIT, "shape: sum overflows");
        a->n_members++;
        skip_ws(c);
    }
    c->p++;
    return PR_OK;
}

static enum pr_status
parse_arg(struct cursor *c, struct pr_shape_arg *a, struct pr_error *err)
{
    memset(a, 0, sizeof(*a));
    if (*c->p != '[')
        return pr_error_set(err, PR_E_FORMAT, "shape: expected '['");
    c->p++;
    skip_ws(c);
    if (*c->p == '[')
        return parse_list_arg(c, a, err);
    return parse_dims(c, &a->ndim, a->dims, &a->numel, err);
}

enum pr_status
pr_shapes_parse_dims(const char *text, struct pr_shape_list *out,
                     struct pr_error *err)
{
    struct cursor c = {text};

    out->n = 0;
    skip_ws(&c);
    if (*c.p != '[')
        return pr_error_set(err, PR_E_FORMAT, "shape: expected '['");
    c.p++;
    skip_ws(&c);
    while (*c.p != ']') {
        if (out->n > 0) {
            if (*c.p != ',')
                return pr_error_set(err, PR_E_FORMAT, "shape: expected ','");
            c.p++;
            skip_ws(&c);
        }
        if (out->n == PR_SHAPE_MAX_ARGS)
            return pr_error_set(err, PR_E_LIMIT, "shape: more than %d inputs",
                                PR_SHAPE_MAX_ARGS);
        TRY(parse_arg(&c, &out->arg[out->n], err));
        out->n++;
        skip_ws(&c);
    }
    return PR_OK;
}

/* ------------------------------------------------------------------ types */

/* One type token: quoted ('x' or "x") or bare up to ',' or ']' outside
 * <...>.  Sets [*s, *s + *len) and advances. */
static enum pr_status
read_type_token(struct cursor *c, const char **s, size_t *len,
                struct pr_error *err)
{
    char q = *c->p;
    int angle = 0;

    if (q == '\'' || q == '"') {
        *s = ++c->p;
        while (*c->p && *c->p != q)
            c->p++;
        if (*c->p != q)
            return pr_error_set(err, PR_E_FORMAT, "types: unterminated");
        *len = (size_t)(c->p - *s);
        c->p++;
        return PR_OK;
    }
    *s = c->p;
    while (*c->p && (angle > 0 || (*c->p != ',' && *c->p != ']'))) {
        angle += (*c->p == '<') - (*c->p == '>');
        c->p++;
    }
    *len = (size_t)(c->p - *s);
    while (*len > 0 && (*s)[*len - 1] == ' ')
        (*len)--;
    return PR_OK;
}

enum pr_status
pr_shapes_parse_types(const char *text, struct pr_dtype_list *out,
                      struct pr_error *err)
{
    struct cursor c = {text};
    const char *s = NULL;
    size_t len = 0, *n = &out->n;
    const size_t cap = PR_SHAPE_MAX_ARGS;

    *n = 0;
    skip_ws(&c);
    if (*c.p != '[')
        return pr_error_set(err, PR_E_FORMAT, "types: expected '['");
    c.p++;
    skip_ws(&c);
    if (*c.p == ']')
        return PR_OK;
    for (;;) {
        skip_ws(&c);
        TRY(read_type_token(&c, &s, &len, err));
        if (*n == cap)
            return pr_error_set(err, PR_E_LIMIT, "types: more than %zu", cap);
        out->t[(*n)++] = pr_dtype_of(s, len);
        skip_ws(&c);
        if (*c.p == ']')
            return PR_OK;
        if (*c.p != ',')
            return pr_error_set(err, PR_E_FORMAT, "types: expected ','");
        c.p++;
    }
}

/* --------------------------------------------------------- concrete inputs */

/* Signed integer or True/False inside a concrete value. */
static int
read_concrete_scalar(struct cursor *c, int64_t *v, int *is_bool)
{
    int neg = 0;
    struct pr_error e = {PR_OK, ""};

    if (strncmp(c->p, "True", 4) == 0 || strncmp(c->p, "False", 5) == 0) {
        *v = (*c->p == 'T');
        c->p += *v ? 4 : 5;
        *is_bool = 1;
        return 1;
    }
    if (*c->p == '-') {
        neg = 1;
        c->p++;
    }
    if (read_int(c, v, &e) != PR_OK)
        return 0;
    if (neg)
        *v = -*v;
    return 1;
}

/* "[1, 2]" into a->v; leaves a->kind NONE when it cannot be read. */
static void
read_concrete_list(struct cursor *c, struct pr_concrete_arg *a)
{
    int64_t v;
    int n = 0, is_bool = 0;

    c->p++;
    skip_ws(c);
    while (*c->p != ']') {
        if (n > 0) {
            if (*c->p != ',')
                return;
            c->p++;
            skip_ws(c);
        }
        if (n == PR_SHAPE_MAX_DIMS || !read_concrete_scalar(c, &v, &is_bool))
            return;
        a->v[n++] = v;
        skip_ws(c);
    }
    a->kind = PR_CI_LIST;
    a->n = n;
    a->is_bool = is_bool;
}

static void
read_concrete_value(const char *text, struct pr_concrete_arg *a)
{
    struct cursor c = {text};
    char *end;
    int is_bool = 0;

    memset(a, 0, sizeof(*a));
    skip_ws(&c);
    if (*c.p == '\0')
        return;
    if (*c.p == '[') {
        read_concrete_list(&c, a);
        return;
    }
    if (read_concrete_scalar(&c, &a->v[0], &is_bool) && *c.p == '\0') {
        a->kind = is_bool ? PR_CI_BOOL : PR_CI_INT;
        a->n = 1;
        return;
    }
    a->f = strtod(text, &end);
    if (end != text && *end == '\0')
        a->kind = PR_CI_FLOAT;
}

/* One JSON string starting at '"': unescaped into buf (truncated values are
 * marked by *too_long). */
static enum pr_status
read_json_string(struct cursor *c, char *buf, size_t cap, int *too_long,
                 struct pr_error *err)
{
    size_t n = 0;

    c->p++;
    *too_long = 0;
    while (*c->p && *c->p != '"') {
        if (*c->p == '\\' && c->p[1])
            c->p++;
        if (n + 1 < cap)
            buf[n++] = *c->p;
        else
            *too_long = 1;
        c->p++;
    }
    if (*c->p != '"')
        return pr_error_set(err, PR_E_FORMAT, "concrete inputs: unterminated");
    c->p++;
    buf[n] = '\0';
    return PR_OK;
}

enum pr_status
pr_shapes_parse_concrete(const char *text, struct pr_concrete_list *out,
                         struct pr_error *err)
{
    struct cursor c = {text};
    char buf[MAX_CONCRETE_TEXT];
    int too_long;

    out->n = 0;
    skip_ws(&c);
    if (*c.p != '[')
        return pr_error_set(err, PR_E_FORMAT, "concrete inputs: expected '['");
    c.p++;
    skip_ws(&c);
    while (*c.p != ']') {
        if (out->n > 0) {
            if (*c.p != ',')
                return pr_error_set(err, PR_E_FORMAT,
                                    "concrete inputs: expected ','");
            c.p++;
            skip_ws(&c);
        }
        if (*c.p != '"')
            return pr_error_set(err, PR_E_FORMAT,
                                "concrete inputs: expected a string");
        TRY(read_json_string(&c, buf, sizeof(buf), &too_long, err));
        if (out->n == PR_SHAPE_MAX_ARGS)
            return pr_error_set(err, PR_E_LIMIT, "concrete inputs: too many");
        read_concrete_value(too_long ? "" : buf, &out->arg[out->n++]);
        skip_ws(&c);
    }
    return PR_OK;
}

/* ------------------------------------------------------------------ table */

/* One distinct text: where its entries start, how many, how it parsed. */
struct rec {
    uint32_t first; /* into dargs, dtypes or cargs by what */
    uint16_t n;
    uint8_t status; /* enum pr_status of the parse */
};

/* One entry of a shape text; its dims are ints[first_dim ..]. */
struct darg {
    int64_t numel;
    uint32_t first_dim;
    uint32_t n_members;
    uint8_t ndim;
    uint8_t is_list;
};

/* One entry of a concrete-inputs text; its ints are ints[first ..]. */
struct carg {
    double f;
    uint32_t first;
    uint8_t kind, is_bool, n;
};

struct slot {
    uint64_t key; /* (what << 32 | text) + 1; 0 = empty */
    uint32_t rec;
};

struct pr_shapes_table {
    struct slot *slots;
    size_t n_slots, n_used;
    struct rec *recs;
    size_t n_recs, cap_recs;
    struct darg *dargs;
    size_t n_dargs, cap_dargs;
    int64_t *ints; /* dims of shapes, values of concrete lists */
    size_t n_ints, cap_ints;
    uint8_t *dtypes; /* enum pr_dtype */
    size_t n_dtypes, cap_dtypes;
    struct carg *cargs;
    size_t n_cargs, cap_cargs;
};

void
pr_shapes_table_free(struct pr_shapes_table *s)
{
    if (s == NULL)
        return;
    free(s->slots);
    free(s->recs);
    free(s->dargs);
    free(s->ints);
    free(s->dtypes);
    free(s->cargs);
    free(s);
}

static uint64_t
key_of(enum pr_shapes_what what, uint32_t text)
{
    return (((uint64_t)what << 32) | text) + 1;
}

static size_t
hash_key(uint64_t k, size_t n_slots)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (size_t)k & (n_slots - 1);
}

/* The record of a key, or UINT32_MAX. */
static uint32_t
find(const struct pr_shapes_table *s, uint64_t key)
{
    size_t j;

    if (s == NULL || s->n_slots == 0)
        return UINT32_MAX;
    for (j = hash_key(key, s->n_slots); s->slots[j].key != 0;
         j = (j + 1) & (s->n_slots - 1)) {
        if (s->slots[j].key == key)
            return s->slots[j].rec;
    }
    return UINT32_MAX;
}

static int
rehash(struct pr_shapes_table *s)
{
    size_t n = s->n_slots ? s->n_slots * 2 : 256, i;
    struct slot *v = calloc(n, sizeof(*v));

    if (v == NULL)
        return 0;
    for (i = 0; i < s->n_slots; i++) {
        size_t j;

        if (s->slots[i].key == 0)
            continue;
        for (j = hash_key(s->slots[i].key, n); v[j].key != 0;
             j = (j + 1) & (n - 1))
            ;
        v[j] = s->slots[i];
    }
    free(s->slots);
    s->slots = v;
    s->n_slots = n;
    return 1;
}

static int
insert(struct pr_shapes_table *s, uint64_t key, uint32_t rec)
{
    size_t j;

    if ((s->n_used + 1) * 2 > s->n_slots && !rehash(s))
        return 0;
    for (j = hash_key(key, s->n_slots); s->slots[j].key != 0;
         j = (j + 1) & (s->n_slots - 1))
        ;
    s->slots[j].key = key;
    s->slots[j].rec = rec;
    s->n_used++;
    return 1;
}

/* Room for `n` more elements of an array whose indexes must fit in 32
 * bits. */
static int
room(void **v, size_t *cap, size_t len, size_t n, size_t elem)
{
    return len + n < UINT32_MAX && pr_grow(v, cap, len + n, elem) == PR_OK;
}

static int
keep_dims(struct pr_shapes_table *s, const struct pr_shape_list *l,
          struct rec *r)
{
    size_t i;

    if (!room((void **)&s->dargs, &s->cap_dargs, s->n_dargs, l->n,
              sizeof(*s->dargs)))
        return 0;
    r->first = (uint32_t)s->n_dargs;
    for (i = 0; i < l->n; i++) {
        const struct pr_shape_arg *a = &l->arg[i];
        struct darg *d = &s->dargs[s->n_dargs++];

        if (!room((void **)&s->ints, &s->cap_ints, s->n_ints, (size_t)a->ndim,
                  sizeof(*s->ints)))
            return 0;
        d->numel = a->numel;
        d->first_dim = (uint32_t)s->n_ints;
        d->n_members = (uint32_t)a->n_members;
        d->ndim = (uint8_t)a->ndim;
        d->is_list = (uint8_t)a->is_list;
        if (a->ndim > 0) /* ints may still be NULL */
            memcpy(s->ints + s->n_ints, a->dims,
                   (size_t)a->ndim * sizeof(int64_t));
        s->n_ints += (size_t)a->ndim;
    }
    return 1;
}

static int
keep_types(struct pr_shapes_table *s, const struct pr_dtype_list *l,
           struct rec *r)
{
    size_t i;

    if (!room((void **)&s->dtypes, &s->cap_dtypes, s->n_dtypes, l->n, 1))
        return 0;
    r->first = (uint32_t)s->n_dtypes;
    for (i = 0; i < l->n; i++)
        s->dtypes[s->n_dtypes++] = (uint8_t)l->t[i];
    return 1;
}

static int
keep_concrete(struct pr_shapes_table *s, const struct pr_concrete_list *l,
              struct rec *r)
{
    size_t i;

    if (!room((void **)&s->cargs, &s->cap_cargs, s->n_cargs, l->n,
              sizeof(*s->cargs)))
        return 0;
    r->first = (uint32_t)s->n_cargs;
    for (i = 0; i < l->n; i++) {
        const struct pr_concrete_arg *a = &l->arg[i];
        struct carg *c = &s->cargs[s->n_cargs++];

        if (!room((void **)&s->ints, &s->cap_ints, s->n_ints, (size_t)a->n,
                  sizeof(*s->ints)))
            return 0;
        c->f = a->f;
        c->first = (uint32_t)s->n_ints;
        c->kind = (uint8_t)a->kind;
        c->is_bool = (uint8_t)a->is_bool;
        c->n = (uint8_t)a->n;
        if (a->n > 0)
            memcpy(s->ints + s->n_ints, a->v, (size_t)a->n * sizeof(int64_t));
        s->n_ints += (size_t)a->n;
    }
    return 1;
}

/* The three lists, big enough that the parsers' fixed sizes never spill
 * onto a thread's stack. */
union parsed {
    struct pr_shape_list dims;
    struct pr_dtype_list types;
    struct pr_concrete_list concrete;
};

static enum pr_status
parse_what(enum pr_shapes_what what, const char *text, union parsed *p)
{
    switch (what) {
    case PR_SHAPES_DIMS:
        return pr_shapes_parse_dims(text, &p->dims, NULL);
    case PR_SHAPES_TYPES:
        return pr_shapes_parse_types(text, &p->types, NULL);
    default:
        return pr_shapes_parse_concrete(text, &p->concrete, NULL);
    }
}

/* Parse `text` and append its record; 0 on out-of-memory. */
static int
add_rec(struct pr_shapes_table *s, enum pr_shapes_what what, const char *text,
        union parsed *p)
{
    struct rec r = {0, 0, PR_OK};
    int ok = 1;

    r.status = (uint8_t)parse_what(what, text, p);
    if (!room((void **)&s->recs, &s->cap_recs, s->n_recs, 1, sizeof(r)))
        return 0;
    if (r.status == PR_OK) {
        r.n = (uint16_t)(what == PR_SHAPES_DIMS    ? p->dims.n
                         : what == PR_SHAPES_TYPES ? p->types.n
                                                   : p->concrete.n);
        ok = what == PR_SHAPES_DIMS    ? keep_dims(s, &p->dims, &r)
             : what == PR_SHAPES_TYPES ? keep_types(s, &p->types, &r)
                                       : keep_concrete(s, &p->concrete, &r);
    }
    if (!ok)
        return 0;
    s->recs[s->n_recs++] = r;
    return 1;
}

enum pr_status
pr_shapes_note(struct pr_trace *t, enum pr_shapes_what what, uint32_t text)
{
    uint64_t key = key_of(what, text);
    union parsed *p;
    int ok;

    if (text == PR_STR_NONE || find(t->shapes, key) != UINT32_MAX)
        return PR_OK;
    if (t->shapes == NULL &&
        (t->shapes = calloc(1, sizeof(*t->shapes))) == NULL)
        return PR_E_NOMEM;
    p = malloc(sizeof(*p));
    ok = p != NULL && add_rec(t->shapes, what, pr_trace_str(t, text), p) &&
         insert(t->shapes, key, (uint32_t)t->shapes->n_recs - 1);
    free(p);
    return ok ? PR_OK : PR_E_NOMEM;
}

int
pr_shapes_noted(const struct pr_trace *t, enum pr_shapes_what what,
                uint32_t text)
{
    return find(t->shapes, key_of(what, text)) != UINT32_MAX;
}

/* ----------------------------------------------------------------- expand */

static void
expand_dims(const struct pr_shapes_table *s, const struct rec *r,
            struct pr_shape_list *out)
{
    size_t i;

    out->n = r->n;
    for (i = 0; i < r->n; i++) {
        const struct darg *d = &s->dargs[r->first + i];
        struct pr_shape_arg *a = &out->arg[i];

        memset(a, 0, sizeof(*a));
        a->ndim = d->ndim;
        a->is_list = d->is_list;
        a->n_members = (int)d->n_members;
        a->numel = d->numel;
        if (d->ndim > 0)
            memcpy(a->dims, s->ints + d->first_dim, d->ndim * sizeof(int64_t));
    }
}

static void
expand_types(const struct pr_shapes_table *s, const struct rec *r,
             struct pr_dtype_list *out)
{
    size_t i;

    out->n = r->n;
    for (i = 0; i < r->n; i++)
        out->t[i] = (enum pr_dtype)s->dtypes[r->first + i];
}

static void
expand_concrete(const struct pr_shapes_table *s, const struct rec *r,
                struct pr_concrete_list *out)
{
    size_t i;

    out->n = r->n;
    for (i = 0; i < r->n; i++) {
        const struct carg *c = &s->cargs[r->first + i];
        struct pr_concrete_arg *a = &out->arg[i];

        memset(a, 0, sizeof(*a));
        a->kind = (enum pr_concrete_kind)c->kind;
        a->n = c->n;
        a->is_bool = c->is_bool;
        a->f = c->f;
        if (c->n > 0)
            memcpy(a->v, s->ints + c->first, c->n * sizeof(int64_t));
    }
}

/* One text into its list of `out`: the kept record of string id `id`
 * when there is one, else `text` parsed now. */
static enum pr_status
get_one(const struct pr_trace *t, enum pr_shapes_what what, uint32_t id,
        const char *text, struct pr_op_inputs *out)
{
    const struct pr_shapes_table *s = t != NULL ? t->shapes : NULL;
    uint32_t ri = id != PR_STR_NONE ? find(s, key_of(what, id)) : UINT32_MAX;
    const struct rec *r;

    if (ri == UINT32_MAX) {
        if (what == PR_SHAPES_DIMS)
            return pr_shapes_parse_dims(text, &out->shapes, NULL);
        if (what == PR_SHAPES_TYPES)
            return pr_shapes_parse_types(text, &out->types, NULL);
        return pr_shapes_parse_concrete(text, &out->concrete, NULL);
    }
    r = &s->recs[ri];
    if (r->status != PR_OK)
        return (enum pr_status)r->status;
    if (what == PR_SHAPES_DIMS)
        expand_dims(s, r, &out->shapes);
    else if (what == PR_SHAPES_TYPES)
        expand_types(s, r, &out->types);
    else
        expand_concrete(s, r, &out->concrete);
    return PR_OK;
}

static void
clear(struct pr_op_inputs *out)
{
    out->st = PR_OK;
    out->has_shapes = out->has_types = out->has_concrete = 0;
    out->has_strides = 0;
    out->shapes.n = out->types.n = out->concrete.n = out->strides.n = 0;
}

void
pr_shapes_get(const struct pr_trace *t, uint32_t dims, uint32_t types,
              uint32_t concrete, struct pr_op_inputs *out)
{
    const uint32_t ids[PR_SHAPES_N_WHAT] = {dims, types, concrete};
    int *has[PR_SHAPES_N_WHAT] = {&out->has_shapes, &out->has_types,
                                  &out->has_concrete};
    int w;

    clear(out);
    for (w = 0; w < PR_SHAPES_N_WHAT && out->st == PR_OK; w++) {
        if (ids[w] == PR_STR_NONE)
            continue;
        *has[w] = 1;
        out->st = get_one(t, (enum pr_shapes_what)w, ids[w],
                          pr_trace_str(t, ids[w]), out);
    }
}

void
pr_shapes_get_text(const struct pr_trace *t, const char *dims,
                   const char *types, const char *concrete,
                   struct pr_op_inputs *out)
{
    const char *texts[PR_SHAPES_N_WHAT] = {dims, types, concrete};
    int *has[PR_SHAPES_N_WHAT] = {&out->has_shapes, &out->has_types,
                                  &out->has_concrete};
    int w;

    clear(out);
    for (w = 0; w < PR_SHAPES_N_WHAT && out->st == PR_OK; w++) {
        uint32_t id = PR_STR_NONE;

        if (texts[w] == NULL)
            continue;
        *has[w] = 1;
        if (t != NULL && t->shapes != NULL)
            id = pr_strtab_find(t->strs, texts[w], strlen(texts[w]));
        out->st = get_one(t, (enum pr_shapes_what)w, id, texts[w], out);
    }
}

void
pr_shapes_get_strides(const struct pr_trace *t, const char *text,
                      struct pr_op_inputs *out)
{
    const struct pr_shapes_table *s = t != NULL ? t->shapes : NULL;
    uint32_t id = PR_STR_NONE, ri = UINT32_MAX;

    out->has_strides = 0;
    out->strides.n = 0;
    if (text == NULL)
        return;
    if (s != NULL)
        id = pr_strtab_find(t->strs, text, strlen(text));
    if (id != PR_STR_NONE)
        ri = find(s, key_of(PR_SHAPES_DIMS, id));
    if (ri == UINT32_MAX) {
        out->has_strides =
            pr_shapes_parse_dims(text, &out->strides, NULL) == PR_OK;
    } else if (s->recs[ri].status == PR_OK) {
        expand_dims(s, &s->recs[ri], &out->strides);
        out->has_strides = 1;
    }
    if (!out->has_strides)
        out->strides.n = 0;
}

/* match.c - merge-join of two operator / kernel tables by key
 * (diff_match.h).  Each side is folded (ranks summed by key, as its runs
 * come, so that a run can be freed once added) and sorted first, so the
 * join is linear and its output order is total. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/diff_match.h"
#include "profreport/keys.h"
#include "profreport/sget.h"
#include "profreport/strtab.h"

struct entry {
    const char *name;
    const char *shapes;
    double value, calls;
    int seen; /* a fold's sum: a row has been added */
};

struct entries {
    struct entry *v;
    size_t n, cap;
};

static int
cmp_str(const char *a, const char *b)
{
    if (a == NULL || b == NULL)
        return (a != NULL) - (b != NULL);
    return strcmp(a, b);
}

static int
cmp_key(const char *na, const char *sa, const char *nb, const char *sb)
{
    int c = strcmp(na, nb);

    return c != 0 ? c : cmp_str(sa, sb);
}

static int
cmp_entry(const void *pa, const void *pb)
{
    const struct entry *a = pa, *b = pb;

    return cmp_key(a->name, a->shapes, b->name, b->shapes);
}

static double
number_or_zero(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsNumber(v) ? v->valuedouble : 0.0;
}

/* A side's rows summed by key as tables are added: keys[id] interned as
 * the name, a NUL, then '0' (no shapes) or '1' and the shapes, so that a
 * missing shape is its own key; sums[id - 1] its value and calls, summed
 * in the order the rows come (what a stable sort then a sum of equal
 * keys gave, number for number). */
struct pr_match_fold {
    const char *name_key, *value_key;
    int by_shape;
    struct pr_strtab *keys;
    struct pr_buf key; /* scratch */
    struct entry *sums;
    size_t n, cap;
};

struct pr_match_fold *
pr_match_fold_new(const char *name_key, const char *value_key, int by_shape)
{
    struct pr_match_fold *f = calloc(1, sizeof(*f));

    if (f == NULL || (f->keys = pr_strtab_new()) == NULL) {
        free(f);
        return NULL;
    }
    f->name_key = name_key;
    f->value_key = value_key;
    f->by_shape = by_shape;
    pr_buf_init(&f->key, 0);
    return f;
}

void
pr_match_fold_free(struct pr_match_fold *f)
{
    if (f == NULL)
        return;
    pr_strtab_free(f->keys);
    pr_buf_free(&f->key);
    free(f->sums);
    free(f);
}

/* The sum of the key of (name, shapes), added when new; NULL on
 * out-of-memory. */
static struct entry *
fold_slot(struct pr_match_fold *f, const char *name, const char *shapes)
{
    uint32_t id;
    struct entry *e;
    const char *k;

    f->key.len = 0;
    if (pr_buf_add(&f->key, name, strlen(name) + 1) != PR_OK ||
        pr_buf_addc(&f->key, shapes != NULL ? '1' : '0') != PR_OK ||
        (shapes != NULL && pr_buf_adds(&f->key, shapes) != PR_OK))
        return NULL;
    id = pr_strtab_intern(f->keys, f->key.data, f->key.len);
    if (id == PR_STR_NONE)
        return NULL;
    if (id <= f->n)
        return &f->sums[id - 1];
    if (pr_grow((void **)&f->sums, &f->cap, f->n + 1, sizeof(*f->sums)) !=
        PR_OK)
        return NULL;
    k = pr_strtab_get(f->keys, id);
    e = &f->sums[f->n++];
    e->name = k;
    e->shapes = shapes != NULL ? k + strlen(k) + 2 : NULL;
    e->value = e->calls = 0;
    e->seen = 0;
    return e;
}

enum pr_status
pr_match_fold_put(struct pr_match_fold *f, const char *name, const char *shapes,
                  double value, double calls, struct pr_error *err)
{
    struct entry *e;

    if (name == NULL)
        return PR_OK;
    e = fold_slot(f, name, f->by_shape ? shapes : NULL);
    if (e == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    value = isnan(value) ? 0.0 : value;
    calls = isnan(calls) ? 0.0 : calls;
    /* the first row is the sum (0.0 + -0.0 would not be -0.0) */
    e->value = e->seen ? e->value + value : value;
    e->calls = e->seen ? e->calls + calls : calls;
    e->seen = 1;
    return PR_OK;
}

enum pr_status
pr_match_fold_add(struct pr_match_fold *f, const cJSON *table,
                  struct pr_error *err)
{
    const cJSON *row;

    if (!cJSON_IsArray(table))
        return PR_OK;
    cJSON_ArrayForEach(row, table)
    {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(row, f->name_key);
        const cJSON *shapes = pr_sget(row, PR_K_INPUT_SHAPES);
        enum pr_status st = pr_match_fold_put(
            f, cJSON_IsString(name) ? name->valuestring : NULL,
            cJSON_IsString(shapes) ? shapes->valuestring : NULL,
            number_or_zero(row, f->value_key), number_or_zero(row, PR_K_CALLS),
            err);
        if (st != PR_OK)
            return st;
    }
    return PR_OK;
}

/* A fold's sums divided, sorted by key. */
static enum pr_status
fold_entries(const struct pr_match_fold *f, double divisor, struct entries *out,
             struct pr_error *err)
{
    size_t i;

    out->v = malloc((f->n + 1) * sizeof(*out->v));
    if (out->v == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    for (i = 0; i < f->n; i++) {
        out->v[i] = f->sums[i];
        out->v[i].value /= divisor;
        out->v[i].calls /= divisor;
    }
    out->n = out->cap = f->n;
    qsort(out->v, out->n, sizeof(*out->v), cmp_entry);
    return PR_OK;
}

static void
put_row(struct pr_match_row *r, const struct entry *b, const struct entry *c)
{
    const struct entry *k = b != NULL ? b : c;

    memset(r, 0, sizeof(*r));
    r->name = k->name;
    r->shapes = k->shapes;
    if (b != NULL) {
        r->in_base = 1;
        r->base = b->value;
        r->calls_base = b->calls;
    }
    if (c != NULL) {
        r->in_cur = 1;
        r->cur = c->value;
        r->calls_cur = c->calls;
    }
}

static enum pr_status
join(const struct entries *b, const struct entries *c,
     struct pr_match_table *out, struct pr_error *err)
{
    size_t i = 0, j = 0, n = 0;

    out->rows = calloc(b->n + c->n + 1, sizeof(*out->rows));
    if (out->rows == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    while (i < b->n || j < c->n) {
        int k;
        if (i == b->n)
            k = 1;
        else if (j == c->n)
            k = -1;
        else
            k = cmp_entry(&b->v[i], &c->v[j]);
        put_row(&out->rows[n++], k <= 0 ? &b->v[i] : NULL,
                k >= 0 ? &c->v[j] : NULL);
        i += k <= 0;
        j += k >= 0;
    }
    out->n = n;
    return PR_OK;
}

enum pr_status
pr_match_tables(const struct pr_match_side *base,
                const struct pr_match_side *cur, const char *value_key,
                int by_shape, struct pr_match_table *out, struct pr_error *err)
{
    return pr_match_tables_by(base, cur, "name", value_key, by_shape, out, err);
}

enum pr_status
pr_match_folds(const struct pr_match_fold *base, double div_base,
               const struct pr_match_fold *cur, double div_cur,
               struct pr_match_table *out, struct pr_error *err)
{
    struct entries b = {NULL, 0, 0}, c = {NULL, 0, 0};
    enum pr_status st;

    memset(out, 0, sizeof(*out));
    if (!(div_base > 0) || !(div_cur > 0))
        return pr_error_set(err, PR_E_USAGE, "match: divisor must be > 0");
    st = fold_entries(base, div_base, &b, err);
    if (st == PR_OK)
        st = fold_entries(cur, div_cur, &c, err);
    if (st == PR_OK)
        st = join(&b, &c, out, err);
    free(b.v);
    free(c.v);
    return st;
}

/* One side's tables folded into a new fold *f. */
static enum pr_status
fold_side(const struct pr_match_side *side, const char *name_key,
          const char *value_key, int by_shape, struct pr_match_fold **f,
          struct pr_error *err)
{
    size_t i;
    enum pr_status st = PR_OK;

    *f = pr_match_fold_new(name_key, value_key, by_shape);
    if (*f == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    for (i = 0; i < side->n_tables && st == PR_OK; i++)
        st = pr_match_fold_add(*f, side->tables[i], err);
    return st;
}

enum pr_status
pr_match_tables_by(const struct pr_match_side *base,
                   const struct pr_match_side *cur, const char *name_key,
                   const char *value_key, int by_shape,
                   struct pr_match_table *out, struct pr_error *err)
{
    struct pr_match_fold *fb = NULL, *fc = NULL;
    enum pr_status st;

    memset(out, 0, sizeof(*out));
    st = fold_side(base, name_key, value_key, by_shape, &fb, err);
    if (st == PR_OK)
        st = fold_side(cur, name_key, value_key, by_shape, &fc, err);
    if (st == PR_OK)
        st = pr_match_folds(fb, base->divisor, fc, cur->divisor, out, err);
    /* the rows' names are the folds' */
    out->own[0] = fb;
    out->own[1] = fc;
    if (st != PR_OK)
        pr_match_free(out);
    return st;
}

void
pr_match_free(struct pr_match_table *t)
{
    if (t == NULL)
        return;
    free(t->rows);
    pr_match_fold_free(t->own[0]);
    pr_match_fold_free(t->own[1]);
    memset(t, 0, sizeof(*t));
}

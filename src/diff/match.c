/* match.c - merge-join of two operator / kernel tables by key
 * (diff_match.h).  Each side is flattened, sorted and folded (ranks summed)
 * first, so the join is linear and its output order is total. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/diff_match.h"

struct entry {
    const char *name;
    const char *shapes;
    double value, calls;
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

static enum pr_status
collect_table(const cJSON *table, const char *name_key, const char *value_key,
              int by_shape, struct entries *out, struct pr_error *err)
{
    const cJSON *row;

    if (!cJSON_IsArray(table))
        return PR_OK;
    cJSON_ArrayForEach(row, table)
    {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(row, name_key);
        const cJSON *shapes;
        struct entry *e;

        if (!cJSON_IsString(name))
            continue;
        if (pr_grow((void **)&out->v, &out->cap, out->n + 1, sizeof(*out->v)) !=
            PR_OK)
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
        e = &out->v[out->n++];
        e->name = name->valuestring;
        shapes = cJSON_GetObjectItemCaseSensitive(row, "input_shapes");
        e->shapes =
            by_shape && cJSON_IsString(shapes) ? shapes->valuestring : NULL;
        e->value = number_or_zero(row, value_key);
        e->calls = number_or_zero(row, "calls");
    }
    return PR_OK;
}

/* Flatten all tables of a side, sort, and sum rows with equal keys. */
static enum pr_status
collect_side(const struct pr_match_side *side, const char *name_key,
             const char *value_key, int by_shape, struct entries *out,
             struct pr_error *err)
{
    size_t i, w = 0;
    enum pr_status st = PR_OK;

    for (i = 0; i < side->n_tables && st == PR_OK; i++)
        st = collect_table(side->tables[i], name_key, value_key, by_shape, out,
                           err);
    if (st != PR_OK || out->n == 0)
        return st;
    qsort(out->v, out->n, sizeof(*out->v), cmp_entry);
    for (i = 1; i < out->n; i++) {
        if (cmp_entry(&out->v[w], &out->v[i]) == 0) {
            out->v[w].value += out->v[i].value;
            out->v[w].calls += out->v[i].calls;
        } else {
            out->v[++w] = out->v[i];
        }
    }
    out->n = w + 1;
    for (i = 0; i < out->n; i++) {
        out->v[i].value /= side->divisor;
        out->v[i].calls /= side->divisor;
    }
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
pr_match_tables_by(const struct pr_match_side *base,
                   const struct pr_match_side *cur, const char *name_key,
                   const char *value_key, int by_shape,
                   struct pr_match_table *out, struct pr_error *err)
{
    struct entries b = {NULL, 0, 0}, c = {NULL, 0, 0};
    enum pr_status st;

    out->rows = NULL;
    out->n = 0;
    if (!(base->divisor > 0) || !(cur->divisor > 0))
        return pr_error_set(err, PR_E_USAGE, "match: divisor must be > 0");
    st = collect_side(base, name_key, value_key, by_shape, &b, err);
    if (st == PR_OK)
        st = collect_side(cur, name_key, value_key, by_shape, &c, err);
    if (st == PR_OK)
        st = join(&b, &c, out, err);
    free(b.v);
    free(c.v);
    return st;
}

void
pr_match_free(struct pr_match_table *t)
{
    if (t == NULL)
        return;
    free(t->rows);
    t->rows = NULL;
    t->n = 0;
}

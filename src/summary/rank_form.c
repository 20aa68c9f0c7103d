/* rank_form.c - a run's rank form as JSON text (rank_form.h): the
 * members a job keeps of each rank, written straight from the whole run,
 * nothing copied. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/jtext.h"
#include "profreport/keys.h"
#include "profreport/rank_form.h"
#include "profreport/schema.h"
#include "profreport/sget.h"

/* How the "(other)" row folds a column of the rows it stands for. */
enum fold {
    F_NAME, /* PR_RANK_FORM_OTHER */
    F_SUM,  /* the sum of the rows that have a number; null when none */
    F_MIN,
    F_MAX,
    F_MEAN, /* total_us / calls of the folded rows */
    F_NULL  /* a property of one row (a share, a bound, a flag): null */
};

struct col {
    const char *key;
    enum fold fold;
};

#define MAX_COLS 24
#define MAX_BASIS 2

/* The columns a rank form's rows keep are their object's rows flagged
 * RANK in schema.def, in the rows' order (a row without one goes without
 * it).  The "(other)" row folds each by what it counts: additive units
 * (µs, bytes, counts, FLOPs) sum, so the table's totals stay whole; a
 * kernel's mean, min and max fold as such; the rest (shares, rates,
 * bounds, flags, names of one row) are a row's own. */
static enum fold
fold_of(const struct pr_schema_row *r)
{
    if (strcmp(r->key, PR_K_NAME) == 0)
        return F_NAME;
    if (strcmp(r->key, PR_K_MEAN_US) == 0)
        return F_MEAN;
    if (strcmp(r->key, PR_K_MIN_US) == 0)
        return F_MIN;
    if (strcmp(r->key, PR_K_MAX_US) == 0)
        return F_MAX;
    switch (r->unit) {
    case PR_SU_US:
    case PR_SU_BYTES:
    case PR_SU_COUNT:
    case PR_SU_FLOP:
        return F_SUM;
    default:
        return F_NULL;
    }
}

/* object's RANK rows as columns, ended by a NULL key. */
static void
cols_of(enum pr_schema_object object, struct col *cols)
{
    struct pr_schema_objinfo o = pr_schema_object(object);
    size_t i, n = 0;

    for (i = o.first; i < o.first + o.n && n + 1 < MAX_COLS; i++) {
        if (!(pr_schema_rows[i].flags & PR_SF_RANK))
            continue;
        cols[n].key = pr_schema_rows[i].key;
        cols[n++].fold = fold_of(&pr_schema_rows[i]);
    }
    cols[n].key = NULL;
    cols[n].fold = F_NULL;
}

/* A table cut to its rows of at least the share of any basis column's
 * total (the time the table is sorted by; for operators by name host
 * time too, so that a CPU-side operator is kept), or of the fallback
 * column's total when the basis columns total nothing (a trace without
 * device time). */
struct table {
    enum pr_schema_object object; /* its rows' */
    const char *basis[MAX_BASIS];
    const char *fallback;
};

static const struct table tables[] = {
    {PR_SO_RUNS_OPERATORS, {PR_K_DEVICE_SELF_US, PR_K_HOST_SELF_US}, NULL},
    {PR_SO_RUNS_OPERATORS_BY_SHAPE,
     {PR_K_DEVICE_SELF_US, NULL},
     PR_K_HOST_SELF_US},
    {PR_SO_RUNS_KERNELS, {PR_K_TOTAL_US, NULL}, NULL},
    {PR_SO_RUNS_MEMORY_OPERATORS, {PR_K_ALLOCATION_SIZE_BYTES, NULL}, NULL},
};

/* The table of object's rows, NULL when its rows are kept whole. */
static const struct table *
table_of(enum pr_schema_object object)
{
    size_t i;

    for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
        if (tables[i].object == object)
            return &tables[i];
    return NULL;
}

/* The printed value of row[key], NAN when it has none. */
static double
num(const cJSON *row, const char *key)
{
    return pr_jtext_num(pr_sget_num(row, key));
}

/* Whether `row` holds at least the share of a basis column's total
 * (basis[MAX_BASIS]: the fallback). */
static int
kept(const cJSON *row, const char *const *basis, const double *total)
{
    size_t k;

    for (k = 0; k <= MAX_BASIS; k++) {
        double v = basis[k] != NULL ? num(row, basis[k]) : NAN;
        if (total[k] > 0 && v >= total[k] * (PR_RANK_FORM_SHARE_PCT / 100.0))
            return 1;
    }
    return 0;
}

/* The folded rows' column values. */
struct acc {
    double sum[MAX_COLS], min[MAX_COLS], max[MAX_COLS];
    unsigned char has[MAX_COLS];  /* a number seen */
    unsigned char seen[MAX_COLS]; /* the key seen (a value or null) */
    size_t rows;
};

/* row's member `key`, looked for from *at on (wrapping round), *at then
 * the member after it: the columns are asked in about the order the rows
 * hold them, so a row of 25 members is walked about once, not once per
 * column (the folded rows are most of a 1,024-rank job's, issue #33).
 * The first member of that name, as pr_sget finds it, where names are
 * unique, as the analyses write them. */
static const cJSON *
member_from(const cJSON *row, const cJSON **at, const char *key)
{
    const cJSON *start, *it;

    if (!cJSON_IsObject(row) || row->child == NULL)
        return NULL;
    start = it = *at != NULL ? *at : row->child;
    do {
        if (it->string != NULL && strcmp(it->string, key) == 0) {
            *at = it->next;
            return it;
        }
        it = it->next != NULL ? it->next : row->child;
    } while (it != start);
    return NULL;
}

static void
fold_row(struct acc *a, const cJSON *row, const struct col *cols)
{
    const cJSON *at = NULL;
    size_t j;

    a->rows++;
    for (j = 0; cols[j].key != NULL && j < MAX_COLS; j++) {
        const cJSON *it = member_from(row, &at, cols[j].key);
        double v = cJSON_IsNumber(it) ? pr_jtext_num(it->valuedouble) : NAN;
        if (it == NULL)
            continue;
        a->seen[j] = 1;
        if (isnan(v))
            continue;
        if (!a->has[j]) {
            a->sum[j] = 0;
            a->min[j] = v;
            a->max[j] = v;
        }
        a->has[j] = 1;
        a->sum[j] += v;
        a->min[j] = v < a->min[j] ? v : a->min[j];
        a->max[j] = v > a->max[j] ? v : a->max[j];
    }
}

/* The sum of the column named key in a, NAN when none. */
static double
sum_of(const struct acc *a, const struct col *cols, const char *key)
{
    size_t j;

    for (j = 0; cols[j].key != NULL && j < MAX_COLS; j++)
        if (strcmp(cols[j].key, key) == 0)
            return a->has[j] ? a->sum[j] : NAN;
    return NAN;
}

static int
put_key(struct pr_buf *b, const char *key, int *first)
{
    int ok = (*first || pr_buf_addc(b, ',') == PR_OK) && pr_jtext_str(b, key) &&
             pr_buf_addc(b, ':') == PR_OK;

    *first = 0;
    return ok;
}

static int
put_other(struct pr_buf *b, const struct acc *a, const struct col *cols)
{
    int ok = pr_buf_addc(b, '{') == PR_OK, first = 1;
    size_t j;

    for (j = 0; ok && cols[j].key != NULL && j < MAX_COLS; j++) {
        double v = NAN;
        if (!a->seen[j])
            continue;
        ok = put_key(b, cols[j].key, &first);
        switch (cols[j].fold) {
        case F_NAME:
            ok = ok && pr_jtext_str(b, PR_RANK_FORM_OTHER);
            continue;
        case F_SUM:
            v = a->has[j] ? a->sum[j] : NAN;
            break;
        case F_MIN:
            v = a->has[j] ? a->min[j] : NAN;
            break;
        case F_MAX:
            v = a->has[j] ? a->max[j] : NAN;
            break;
        case F_MEAN: {
            double tot = sum_of(a, cols, PR_K_TOTAL_US),
                   calls = sum_of(a, cols, PR_K_CALLS);
            v = calls > 0 ? tot / calls : NAN;
            break;
        }
        case F_NULL:
            break;
        }
        ok = ok && pr_jtext_putnum(b, v);
    }
    ok = ok && put_key(b, "other_rows", &first) &&
         pr_buf_printf(b, "%zu", a->rows) == PR_OK;
    return ok && pr_buf_addc(b, '}') == PR_OK;
}

static int
put_row(struct pr_buf *b, const cJSON *row, const struct col *cols)
{
    int ok = pr_buf_addc(b, '{') == PR_OK, first = 1;
    size_t j;

    for (j = 0; ok && cols[j].key != NULL; j++) {
        const cJSON *it = pr_sget(row, cols[j].key);
        if (it != NULL)
            ok = put_key(b, cols[j].key, &first) && pr_jtext_put(b, it);
    }
    return ok && pr_buf_addc(b, '}') == PR_OK;
}

/* A table's rows of at least the share, then "(other)" for the rest. */
static int
put_rows(struct pr_buf *b, const cJSON *arr, const struct table *t)
{
    double total[MAX_BASIS + 1] = {0}, any = 0;
    const char *basis[MAX_BASIS + 1] = {NULL};
    struct col cols[MAX_COLS];
    struct acc *a;
    const cJSON *row;
    size_t k;
    int ok, first = 1;

    if (!cJSON_IsArray(arr))
        return pr_jtext_put(b, arr);
    a = calloc(1, sizeof(*a));
    if (a == NULL)
        return 0;
    cols_of(t->object, cols);
    for (k = 0; k < MAX_BASIS; k++)
        basis[k] = t->basis[k];
    cJSON_ArrayForEach(row, arr)
    {
        for (k = 0; k < MAX_BASIS && basis[k] != NULL; k++) {
            double v = num(row, basis[k]);
            total[k] += v > 0 ? v : 0;
        }
    }
    for (k = 0; k < MAX_BASIS; k++)
        any += total[k];
    if (!(any > 0) && t->fallback != NULL) {
        basis[MAX_BASIS] = t->fallback;
        cJSON_ArrayForEach(row, arr)
        {
            double v = num(row, t->fallback);
            total[MAX_BASIS] += v > 0 ? v : 0;
        }
    }
    ok = pr_buf_addc(b, '[') == PR_OK;
    cJSON_ArrayForEach(row, arr)
    {
        if (!ok)
            break;
        if (!kept(row, basis, total)) {
            fold_row(a, row, cols);
            continue;
        }
        ok = (first || pr_buf_addc(b, ',') == PR_OK) && put_row(b, row, cols);
        first = 0;
    }
    if (ok && a->rows > 0)
        ok = (first || pr_buf_addc(b, ',') == PR_OK) && put_other(b, a, cols);
    free(a);
    return ok && pr_buf_addc(b, ']') == PR_OK;
}

/* tensor_cores without its findings, counted in findings_omitted (the
 * detail ranks list them; per rank they are long texts about the same
 * operators). */
static int
put_findings(struct pr_buf *b, const cJSON *tc)
{
    const cJSON *fs = pr_sget(tc, "findings"), *m;
    double omitted = pr_sget_num(tc, "findings_omitted");
    double dropped = (double)pr_sget_len(fs);
    int ok, first = 1;

    if (!cJSON_IsObject(tc) || !cJSON_IsArray(fs))
        return pr_jtext_put(b, tc);
    ok = pr_buf_addc(b, '{') == PR_OK;
    for (m = tc->child; ok && m != NULL; m = m->next) {
        ok = put_key(b, m->string, &first);
        if (m == fs)
            ok = ok && pr_buf_adds(b, "[]") == PR_OK;
        else if (strcmp(m->string, "findings_omitted") == 0)
            ok = ok &&
                 pr_jtext_putnum(b, (isnan(omitted) ? 0 : omitted) + dropped);
        else
            ok = ok && pr_jtext_put(b, m);
    }
    if (ok && dropped > 0 && pr_sget(tc, "findings_omitted") == NULL)
        ok = put_key(b, "findings_omitted", &first) &&
             pr_jtext_putnum(b, dropped);
    return ok && pr_buf_addc(b, '}') == PR_OK;
}

/* memory without the curves, its operator table cut as the others. */
static int
put_memory(struct pr_buf *b, const cJSON *mem)
{
    const cJSON *m, *d, *k;
    int ok, first = 1, dfirst, kfirst;

    if (!cJSON_IsObject(mem))
        return pr_jtext_put(b, mem);
    ok = pr_buf_addc(b, '{') == PR_OK;
    for (m = mem->child; ok && m != NULL; m = m->next) {
        ok = put_key(b, m->string, &first);
        if (strcmp(m->string, "operators") == 0) {
            ok = ok && put_rows(b, m, table_of(PR_SO_RUNS_MEMORY_OPERATORS));
            continue;
        }
        if (strcmp(m->string, PR_K_DEVICES) != 0 || !cJSON_IsArray(m)) {
            ok = ok && pr_jtext_put(b, m);
            continue;
        }
        ok = ok && pr_buf_addc(b, '[') == PR_OK;
        dfirst = 1;
        cJSON_ArrayForEach(d, m)
        {
            ok = ok && (dfirst || pr_buf_addc(b, ',') == PR_OK);
            dfirst = 0;
            if (!cJSON_IsObject(d)) {
                ok = ok && pr_jtext_put(b, d);
                continue;
            }
            ok = ok && pr_buf_addc(b, '{') == PR_OK;
            kfirst = 1;
            for (k = d->child; ok && k != NULL; k = k->next) {
                ok = put_key(b, k->string, &kfirst);
                ok = ok && (strcmp(k->string, "curve") == 0
                                ? pr_buf_adds(b, "null") == PR_OK
                                : pr_jtext_put(b, k));
            }
            ok = ok && pr_buf_addc(b, '}') == PR_OK;
        }
        ok = ok && pr_buf_addc(b, ']') == PR_OK;
    }
    return ok && pr_buf_addc(b, '}') == PR_OK;
}

enum how { NONE, WHOLE, ROWS, FINDINGS, MEMORY };

/* What a rank form keeps of the run's member key: the run's rows flagged
 * RANK in schema.def, whole, or cut where their rows' object has a table
 * here (the operator and kernel tables); tensor_cores without its
 * findings and memory without its curves; nothing (null) of the rest. */
static enum how
how_of(const char *key, const struct table **t)
{
    const struct pr_schema_row *r = pr_schema_find(PR_SO_RUNS, key);

    *t = NULL;
    if (r == NULL || !(r->flags & PR_SF_RANK))
        return NONE;
    if (strcmp(key, PR_K_TENSOR_CORES) == 0)
        return FINDINGS;
    if (strcmp(key, PR_K_MEMORY) == 0)
        return MEMORY;
    *t = table_of(r->child);
    return *t != NULL ? ROWS : WHOLE;
}

int
pr_rank_form_text(const cJSON *run, struct pr_buf *b)
{
    const cJSON *m;
    const struct table *t;
    int ok = pr_buf_addc(b, '{') == PR_OK, first = 1;

    for (m = run != NULL ? run->child : NULL; ok && m != NULL; m = m->next) {
        if (m->string == NULL || strcmp(m->string, PR_K_FORM) == 0 ||
            m->string[0] == '_') /* a private member (jobs.h) */
            continue;
        ok = put_key(b, m->string, &first);
        switch (how_of(m->string, &t)) {
        case NONE:
            ok = ok && pr_buf_adds(b, "null") == PR_OK;
            break;
        case WHOLE:
            ok = ok && pr_jtext_put(b, m);
            break;
        case ROWS:
            ok = ok && put_rows(b, m, t);
            break;
        case FINDINGS:
            ok = ok && put_findings(b, m);
            break;
        case MEMORY:
            ok = ok && put_memory(b, m);
            break;
        }
    }
    ok = ok && put_key(b, PR_K_FORM, &first) && pr_jtext_str(b, "rank");
    return ok && pr_buf_addc(b, '}') == PR_OK;
}

int
pr_rank_form_is(const cJSON *run)
{
    return pr_sget_is(pr_sget_str(run, "form"), "rank");
}

/* merge.c - a job's runs one input at a time (merge.h): each whole run,
 * from a saved summary or from the analysis of a trace, is reduced to
 * what the job views read (compact text and rows, names interned once for
 * all ranks) and to its rank form (rank_form.h), then freed - or held,
 * while held runs stay small; the lite runs are built from the compact
 * forms at the end, and a whole run is read again (its file, or its trace
 * analysed again) only where it is written or drawn in full. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/jtext.h"
#include "profreport/keys.h"
#include "profreport/merge.h"
#include "profreport/rank_form.h"
#include "profreport/saved.h"
#include "profreport/schema.h"
#include "profreport/sget.h"
#include "profreport/strtab.h"

#include "internal.h"

/* What a lite run keeps is schema.def's rows flagged LITE (lite_plan):
 * these bounds are counted from it at compile time. */
enum {
    LITE_ROWS = 0 /* LITE rows of any object */
#define PR_SCHEMA_OBJECT(id, parent, path, doc)
#define PR_SCHEMA_KEY(obj, key, types, unit, flags, child, doc)                \
    +(((flags)&LITE) != 0)
#include "schema.def"
#undef PR_SCHEMA_KEY
    ,
    RUN_LITE = 0 /* LITE members of a run */
#define PR_SCHEMA_KEY(obj, key, types, unit, flags, child, doc)                \
    +(PR_SO_##obj == PR_SO_RUNS && ((flags)&LITE) != 0)
#include "schema.def"
#undef PR_SCHEMA_KEY
    ,
    KINDS = 0 /* LITE arrays of a run: the most tables of rows */
#define PR_SCHEMA_KEY(obj, key, types, unit, flags, child, doc)                \
    +(PR_SO_##obj == PR_SO_RUNS && ((flags)&LITE) != 0 && ((types)&ARR) != 0)
#include "schema.def"
#undef PR_SCHEMA_KEY
#undef PR_SCHEMA_OBJECT
};

/* A number a lite row keeps: member key of the row, or of its object
 * member `in` (a step's breakdown_us.communication). */
struct lite_key {
    const char *in; /* NULL: the row's own member */
    const char *key;
};

/* A run's member that is an array of rows of which a lite run keeps the
 * name and some numbers (the LITE rows of the rows' object). */
struct lite_table {
    const char *array;
    struct lite_key num[LITE_ROWS];
    size_t n_num;
    int named; /* the rows' name is kept (as text) */
};

/* The lite form of a run: its LITE members kept whole (numbers as
 * printed, jtext.h), and its tables of rows. */
struct lite_plan {
    const char *whole[RUN_LITE];
    size_t n_whole;
    struct lite_table table[KINDS];
    size_t n_table;
};
/* Files pr_merge_run holds at once: summaries of several runs each, whose
 * runs interleave in the job's order (even and odd ranks), are each read
 * once instead of once per run. */
#define HOLD 4

/* One run: where its whole form is, what its lite form holds until it is
 * built, its rank form, and how to find it again. */
struct src {
    const cJSON *lite;
    uintptr_t first; /* its first member, which a reference to it shares */
    size_t file;     /* index into paths */
    size_t pos;      /* index in that file's "runs" */
    size_t text, text_len; /* its whole members as JSON text, in m->text */
    size_t form, form_len; /* its rank form as JSON text, in m->forms */
    size_t row0[KINDS];    /* its rows of table k, in m->names[k] */
    size_t nrows[KINDS];
    cJSON *whole;        /* held whole (pr_merge_take), or NULL */
    unsigned is_array;   /* bit k: its table k is an array (of rows) */
    unsigned char full;  /* written whole (pr_merge_mark_full) */
    unsigned char canon; /* `whole` holds printed numbers (jtext.h) */
};

/* The lite runs are built only when every file is read and freed: kept
 * in compact form until then, so that no node of a lite run lies between
 * the freed nodes of the trees read after it (which made glibc's malloc
 * four times slower on 1,024 summaries). */
struct pr_merge {
    const char *const *paths; /* the caller's, or own */
    char **own; /* owned copies of saved summaries' paths, n_own of them */
    size_t n_own;
    pr_merge_load_fn load; /* NULL: paths are saved summaries */
    void *ctx;
    uint64_t max; /* a saved summary's size limit (pr_saved_load) */
    size_t hold_budget, held_nodes; /* nodes of the runs held whole */
    struct src *v;
    size_t n, cap;
    struct pr_strtab *strs; /* every row name, once for all ranks */
    struct pr_buf text;     /* the runs' whole members */
    struct pr_buf forms;    /* the runs' rank forms */
    cJSON *form;            /* the last rank form pr_merge_json_run gave */
    struct lite_plan plan;
    /* the rows of every run's table k: names (PR_STR_NONE: none), and
       plan.table[k].n_num numbers a row (NAN: absent or null, which the
       job views read alike) */
    uint32_t *names[KINDS];
    double *nums[KINDS];
    size_t nrows[KINDS], capnames[KINDS], capnums[KINDS];
    struct {
        cJSON *doc; /* a file pr_merge_run read, NULL: free slot */
        size_t file;
        unsigned long used; /* when last used (m->tick) */
    } held[HOLD];
    unsigned long tick;
    pr_merge_amend_fn amend; /* the job's views' additions (pr_merge_amend) */
    void *amend_ctx;
};

_Static_assert(KINDS <= sizeof(unsigned) * 8, "a bit per table of rows");

static void
plan_num(struct lite_table *t, const char *in, const char *key)
{
    if (t->n_num < LITE_ROWS) { /* one a LITE row: never reached */
        t->num[t->n_num].in = in;
        t->num[t->n_num++].key = key;
    }
}

/* The members a lite row of `object` keeps: its LITE rows, the name as
 * text and the others as numbers; of a LITE object member with LITE rows
 * of its own (a step's breakdown_us), those rows. */
static void
plan_table(struct lite_table *t, enum pr_schema_object object)
{
    struct pr_schema_objinfo o = pr_schema_object(object), in;
    size_t i, j;

    for (i = o.first; i < o.first + o.n; i++) {
        const struct pr_schema_row *r = &pr_schema_rows[i];
        if (!(r->flags & LITE))
            continue;
        if (strcmp(r->key, PR_K_NAME) == 0) {
            t->named = 1;
        } else if (r->child == PR_SO_NONE ||
                   !pr_schema_has_flag(r->child, LITE)) {
            plan_num(t, NULL, r->key);
        } else {
            in = pr_schema_object(r->child);
            for (j = in.first; j < in.first + in.n; j++)
                if (pr_schema_rows[j].flags & LITE)
                    plan_num(t, r->key, pr_schema_rows[j].key);
        }
    }
}

/* What a lite run keeps: the run's LITE members (schema.def), what
 * distributed.c, stages.c, job.c, jobs.c (devices: a trace without
 * distributedInfo on another device model is another job) and the
 * pipeline's checks read.  An array whose rows' object has LITE rows is a
 * table of which only those are kept; any other member is kept whole.
 * The job views compute from their numbers as the summary prints them
 * (jtext.h), so that traces and their saved summaries give the same bits.
 * A run's private members (named "_...", never written: where a trace came
 * from, jobs.h) are kept too, exact. */
static void
lite_plan(struct lite_plan *p)
{
    struct pr_schema_objinfo o = pr_schema_object(PR_SO_RUNS);
    size_t i;

    memset(p, 0, sizeof(*p));
    for (i = o.first; i < o.first + o.n; i++) {
        const struct pr_schema_row *r = &pr_schema_rows[i];
        if (!(r->flags & LITE))
            continue;
        if ((r->types & ARR) && r->child != PR_SO_NONE &&
            pr_schema_has_flag(r->child, LITE)) {
            p->table[p->n_table].array = r->key;
            plan_table(&p->table[p->n_table++], r->child);
        } else {
            p->whole[p->n_whole++] = r->key;
        }
    }
}

static int
is_private(const cJSON *member)
{
    return member->string != NULL && member->string[0] == '_';
}

/* Remove a whole run's private members: it is written as it is. */
static void
drop_private(cJSON *run)
{
    cJSON *c = run != NULL ? run->child : NULL, *next;

    for (; c != NULL; c = next) {
        next = c->next;
        if (is_private(c))
            cJSON_Delete(cJSON_DetachItemViaPointer(run, c));
    }
}

/* A row's number k. */
static double
row_num(const cJSON *el, const struct lite_key *k)
{
    return pr_sget_num(k->in != NULL ? pr_sget(el, k->in) : el, k->key);
}

/* Add v to the lite row o as its number k (k->in made on first use); 0 on
 * out-of-memory. */
static int
row_put(cJSON *o, const struct lite_key *k, double v)
{
    cJSON *in = o, *it;

    if (k->in != NULL) {
        in = cJSON_GetObjectItemCaseSensitive(o, k->in);
        if (in == NULL && (in = cJSON_AddObjectToObject(o, k->in)) == NULL)
            return 0;
    }
    it = cJSON_CreateNumber(v);
    if (it == NULL || !cJSON_AddItemToObjectCS(in, k->key, it)) {
        cJSON_Delete(it);
        return 0;
    }
    return 1;
}

/* The whole members of run (and any row member that is no array) as
 * compact JSON text at the end of m->text, numbers as printed. */
static int
keep_text(struct pr_merge *m, const cJSON *run, struct src *s)
{
    const struct lite_plan *p = &m->plan;
    const cJSON *it;
    size_t i;
    int ok = pr_buf_addc(&m->text, '{') == PR_OK, first = 1;

    s->text = m->text.len - 1;
    for (i = 0; ok && i < p->n_whole + p->n_table; i++) {
        const char *key =
            i < p->n_whole ? p->whole[i] : p->table[i - p->n_whole].array;
        it = cJSON_GetObjectItemCaseSensitive(run, key);
        if (it == NULL || (i >= p->n_whole && cJSON_IsArray(it)))
            continue;
        ok = (first || pr_buf_addc(&m->text, ',') == PR_OK) &&
             pr_jtext_str(&m->text, key) && pr_buf_addc(&m->text, ':') == PR_OK;
        first = 0;
        ok = ok && pr_jtext_put_read(&m->text, it);
    }
    for (it = run->child; ok && it != NULL; it = it->next) {
        if (!is_private(it))
            continue;
        ok = (first || pr_buf_addc(&m->text, ',') == PR_OK) &&
             pr_jtext_str(&m->text, it->string) &&
             pr_buf_addc(&m->text, ':') == PR_OK && pr_jtext_put(&m->text, it);
        first = 0;
    }
    ok = ok && pr_buf_addc(&m->text, '}') == PR_OK;
    s->text_len = m->text.len - s->text;
    return ok;
}

/* The rows of run's table k, appended to m->names[k] and m->nums[k]. */
static int
keep_rows(struct pr_merge *m, const cJSON *run, size_t k, struct src *s)
{
    const struct lite_table *t = &m->plan.table[k];
    const cJSON *arr = pr_sget(run, t->array), *el;
    size_t j, at, need = m->nrows[k] + pr_sget_len(arr);
    const char *name;

    s->row0[k] = m->nrows[k];
    if (!cJSON_IsArray(arr))
        return 1;
    s->is_array |= 1u << k;
    if (pr_grow((void **)&m->names[k], &m->capnames[k], need,
                sizeof(uint32_t)) != PR_OK ||
        pr_grow((void **)&m->nums[k], &m->capnums[k], need * t->n_num + 1,
                sizeof(double)) != PR_OK)
        return 0;
    cJSON_ArrayForEach(el, arr)
    {
        at = m->nrows[k]++;
        name = t->named ? pr_sget_str(el, PR_K_NAME) : NULL;
        m->names[k][at] = name != NULL
                              ? pr_strtab_intern(m->strs, name, strlen(name))
                              : PR_STR_NONE;
        if (name != NULL && m->names[k][at] == PR_STR_NONE)
            return 0;
        for (j = 0; j < t->n_num; j++)
            m->nums[k][at * t->n_num + j] =
                pr_jtext_num(row_num(el, &t->num[j]));
    }
    s->nrows[k] = m->nrows[k] - s->row0[k];
    return 1;
}

/* The nodes of a tree: what holding it costs, roughly. */
static size_t
nodes(const cJSON *it)
{
    size_t n = 1;
    const cJSON *c;

    for (c = it->child; c != NULL; c = c->next)
        n += nodes(c);
    return n;
}

/* Keep the compact forms of one run, number pos of input `file`. */
static int
keep_run(struct pr_merge *m, const cJSON *run, size_t file, size_t pos)
{
    struct src *s;
    size_t k;

    if (pr_grow((void **)&m->v, &m->cap, m->n + 1, sizeof(*m->v)) != PR_OK)
        return 0;
    s = &m->v[m->n++];
    memset(s, 0, sizeof(*s));
    s->file = file;
    s->pos = pos;
    for (k = 0; k < m->plan.n_table; k++)
        if (!keep_rows(m, run, k, s))
            return 0;
    s->form = m->forms.len;
    if (!keep_text(m, run, s) || !pr_rank_form_text(run, &m->forms))
        return 0;
    s->form_len = m->forms.len - s->form;
    return 1;
}

/* Keep the compact forms of every run of doc (file `file`). */
static int
keep_runs(struct pr_merge *m, cJSON *doc, size_t file)
{
    cJSON *run;
    size_t pos = 0;

    cJSON_ArrayForEach(run, cJSON_GetObjectItemCaseSensitive(doc, PR_K_RUNS))
    {
        if (!keep_run(m, run, file, pos++))
            return 0;
    }
    return 1;
}

/* Move the items of from's array `key` to the end of to's. */
static int
move_items(cJSON *to, cJSON *from, const char *key)
{
    cJSON *src = cJSON_GetObjectItemCaseSensitive(from, key);
    cJSON *dst = cJSON_GetObjectItemCaseSensitive(to, key);

    if (!cJSON_IsArray(src) || !cJSON_IsArray(dst))
        return 0;
    while (cJSON_GetArraySize(src) > 0)
        if (!cJSON_AddItemToArray(dst, cJSON_DetachItemFromArray(src, 0)))
            return 0;
    return 1;
}

/* Lite row `at` of table k: constant keys, the name a reference to the
 * interned text. */
static cJSON *
lite_row(const struct pr_merge *m, size_t k, size_t at)
{
    const struct lite_table *t = &m->plan.table[k];
    const double *v = m->nums[k] + at * t->n_num;
    cJSON *o = cJSON_CreateObject(), *it;
    size_t j;
    int ok = o != NULL;

    if (ok && m->names[k][at] != PR_STR_NONE) {
        it = cJSON_CreateStringReference(
            pr_strtab_get(m->strs, m->names[k][at]));
        ok = it != NULL && cJSON_AddItemToObjectCS(o, PR_K_NAME, it);
        if (!ok)
            cJSON_Delete(it);
    }
    for (j = 0; ok && j < t->n_num; j++) {
        if (isnan(v[j]))
            continue;
        ok = row_put(o, &t->num[j], v[j]);
    }
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* The lite run of s, from its text and rows. */
static cJSON *
lite_run(const struct pr_merge *m, const struct src *s)
{
    cJSON *l = cJSON_ParseWithLength(m->text.data + s->text, s->text_len);
    cJSON *a, *r;
    size_t k, j;
    int ok = cJSON_IsObject(l);

    for (k = 0; ok && k < m->plan.n_table; k++) {
        if (!(s->is_array & (1u << k)))
            continue;
        a = cJSON_CreateArray();
        ok = a != NULL && cJSON_AddItemToObjectCS(l, m->plan.table[k].array, a);
        if (!ok)
            cJSON_Delete(a);
        for (j = 0; ok && j < s->nrows[k]; j++) {
            r = lite_row(m, k, s->row0[k] + j);
            ok = r != NULL && cJSON_AddItemToArray(a, r);
            if (!ok)
                cJSON_Delete(r);
        }
    }
    /* the contract gives a run a worker, so a lite run has a member */
    if (!ok || l->child == NULL) {
        cJSON_Delete(l);
        return NULL;
    }
    return l;
}

/* Every lite run, in input order, into the job's "runs"; the compact
 * forms are freed. */
static int
build_lites(struct pr_merge *m, cJSON *job)
{
    cJSON *runs = cJSON_GetObjectItemCaseSensitive(job, PR_K_RUNS), *l;
    size_t i, k;

    for (i = 0; i < m->n; i++) {
        l = lite_run(m, &m->v[i]);
        if (l == NULL || !cJSON_AddItemToArray(runs, l)) {
            cJSON_Delete(l);
            return 0;
        }
        m->v[i].lite = l;
        m->v[i].first = (uintptr_t)l->child;
    }
    pr_buf_free(&m->text);
    for (k = 0; k < KINDS; k++) {
        free(m->names[k]);
        free(m->nums[k]);
        m->names[k] = NULL;
        m->nums[k] = NULL;
    }
    return 1;
}

static const char *
str_of(const cJSON *o, const char *key)
{
    return pr_sget_str_or(o, key, "");
}

static double
rank_of(const cJSON *run)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, PR_K_RANK);

    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

/* Worker, span, then rank: the name of a run within a job. */
static int
cmp_name(const void *pa, const void *pb)
{
    const struct src *a = pa, *b = pb;
    int c = strcmp(str_of(a->lite, PR_K_WORKER), str_of(b->lite, PR_K_WORKER));
    double ra, rb;

    if (c == 0)
        c = strcmp(str_of(a->lite, PR_K_SPAN), str_of(b->lite, PR_K_SPAN));
    if (c != 0)
        return c;
    ra = rank_of(a->lite);
    rb = rank_of(b->lite);
    return (ra > rb) - (ra < rb);
}

static int
cmp_first(const void *pa, const void *pb)
{
    const struct src *a = pa, *b = pb;

    return (a->first > b->first) - (a->first < b->first);
}

/* A run given twice (the same summary passed twice, or two summaries of
 * the same rank) would count its rank twice in every job figure.  Leaves
 * m->v sorted for lookup (cmp_first). */
static enum pr_status
check_unique(struct pr_merge *m, struct pr_error *err)
{
    const struct src *v = m->v;
    size_t i;

    qsort(m->v, m->n, sizeof(*m->v), cmp_name);
    for (i = 1; i < m->n; i++)
        if (cmp_name(&v[i - 1], &v[i]) == 0)
            return pr_error_set(
                err, PR_E_FORMAT,
                "%s and %s: both hold run '%s'%s%s (rank %.0f): give each "
                "rank's summary once",
                m->paths[v[i - 1].file], m->paths[v[i].file],
                str_of(v[i].lite, PR_K_WORKER),
                *str_of(v[i].lite, PR_K_SPAN) != '\0' ? ", span " : "",
                str_of(v[i].lite, PR_K_SPAN), rank_of(v[i].lite));
    qsort(m->v, m->n, sizeof(*m->v), cmp_first);
    return PR_OK;
}

/* A summary whose runs are rank forms (a job's summary) cannot be merged
 * into a job: its tables hold only the larger rows, and the job's
 * figures need every row. */
static enum pr_status
check_forms(const struct pr_merge *m, const cJSON *doc, size_t i,
            struct pr_error *err)
{
    const cJSON *run;

    cJSON_ArrayForEach(run, pr_sget(doc, PR_K_RUNS))
    {
        if (pr_rank_form_is(run))
            return pr_error_set(
                err, PR_E_FORMAT,
                "%s: a job's summary: run '%s' is in its rank form (the "
                "rows of at least %g%% of its time), which cannot be merged "
                "into a job; merge the ranks' own summaries, or write the "
                "part of the job with --detail-ranks all (every run whole)",
                m->paths[i], str_of(run, PR_K_WORKER), PR_RANK_FORM_SHARE_PCT);
    }
    return PR_OK;
}

/* Fold file i into the job (started by file 0, its runs emptied: the
 * lite runs are added by build_lites), then free its tree. */
static enum pr_status
fold_file(struct pr_merge *m, size_t i, cJSON **job, struct pr_error *err)
{
    cJSON *doc = NULL;
    enum pr_status st = pr_saved_load(m->paths[i], m->max, &doc, err);
    int ok;

    if (st == PR_OK)
        st = check_forms(m, doc, i, err);
    if (st != PR_OK) {
        cJSON_Delete(doc);
        return st;
    }
    ok = keep_runs(m, doc, i);
    if (i == 0) {
        cJSON *none = ok ? cJSON_CreateArray() : NULL;

        ok = pr_sput(doc, PR_K_RUNS, none);
        if (!ok)
            cJSON_Delete(none);
        *job = doc;
        doc = NULL;
    } else {
        ok = ok && move_items(*job, doc, PR_K_INPUTS);
    }
    cJSON_Delete(doc);
    return ok ? PR_OK : pr_error_set(err, PR_E_NOMEM, "out of memory");
}

/* A saved summary, again. */
static enum pr_status
load_saved(void *ctx, size_t file, cJSON **doc, struct pr_error *err)
{
    const struct pr_merge *m = ctx;

    return pr_saved_load(m->paths[file], m->max, doc, err);
}

struct pr_merge *
pr_merge_new(const char *const *paths, pr_merge_load_fn load, void *ctx,
             size_t hold_nodes)
{
    struct pr_merge *m = calloc(1, sizeof(*m));

    if (m == NULL || (m->strs = pr_strtab_new()) == NULL) {
        free(m);
        return NULL;
    }
    lite_plan(&m->plan);
    m->paths = paths;
    m->load = load != NULL ? load : load_saved;
    m->ctx = load != NULL ? ctx : m;
    m->hold_budget = hold_nodes;
    pr_buf_init(&m->text, 0);
    pr_buf_init(&m->forms, 0);
    return m;
}

enum pr_status
pr_merge_take(struct pr_merge *m, cJSON *runs, size_t origin,
              struct pr_error *err)
{
    cJSON *run;
    size_t pos = 0, k;

    while ((run = cJSON_DetachItemFromArray(runs, 0)) != NULL) {
        if (!keep_run(m, run, origin, pos++)) {
            cJSON_Delete(run);
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
        }
        k = nodes(run);
        if (m->held_nodes + k <= m->hold_budget) {
            drop_private(run);
            m->v[m->n - 1].whole = run;
            m->held_nodes += k;
        } else {
            cJSON_Delete(run);
        }
    }
    return PR_OK;
}

enum pr_status
pr_merge_finish(struct pr_merge *m, cJSON *job, struct pr_error *err)
{
    if (!build_lites(m, job))
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (m->load == load_saved)
        return check_unique(m, err);
    qsort(m->v, m->n, sizeof(*m->v), cmp_first);
    return PR_OK;
}

enum pr_status
pr_merge_load(const char *const *paths, size_t n, uint64_t max, cJSON **out,
              struct pr_merge **mp, struct pr_error *err)
{
    struct pr_merge *m = pr_merge_new(paths, NULL, NULL, 0);
    cJSON *job = NULL;
    enum pr_status st = PR_OK;
    size_t i;

    *out = NULL;
    *mp = NULL;
    if (m == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    m->max = max;
    /* the paths are copied: a caller's list (a folder's files, say) may
       not outlive the merge, which reads the files again later */
    m->own = calloc(n ? n : 1, sizeof(*m->own));
    for (i = 0; m->own != NULL && i < n; i++, m->n_own++)
        if ((m->own[i] = strdup(paths[i])) == NULL)
            break;
    m->paths = (const char *const *)m->own;
    if (m->own == NULL || m->n_own < n)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    for (i = 0; i < n && st == PR_OK; i++)
        st = fold_file(m, i, &job, err);
    if (st == PR_OK && job != NULL)
        st = pr_merge_finish(m, job, err);
    if (st != PR_OK) {
        cJSON_Delete(job);
        pr_merge_free(m);
        return st;
    }
    *out = job;
    *mp = m;
    return PR_OK;
}

/* The record of a live lite run (lite NULL: replaced by pr_merge_expand,
 * its address free for reuse). */
static struct src *
find_src(struct pr_merge *m, const cJSON *run)
{
    struct src key, *s;

    if (m == NULL || run == NULL || run->child == NULL)
        return NULL;
    key.first = (uintptr_t)run->child;
    s = bsearch(&key, m->v, m->n, sizeof(*m->v), cmp_first);
    return s != NULL && s->lite != NULL ? s : NULL;
}

/* Absent and null read alike; anything else must be equal. */
static int
same_member(const cJSON *a, const cJSON *b, const char *key)
{
    const cJSON *x = pr_sget(a, key), *y = pr_sget(b, key);
    int nx = x == NULL || cJSON_IsNull(x), ny = y == NULL || cJSON_IsNull(y);

    return (nx && ny) || (!nx && !ny && cJSON_Compare(x, y, 1));
}

/* The tree of file `file`, from the held ones or read into the least
 * recently used slot. */
static enum pr_status
hold_file(struct pr_merge *m, size_t file, const cJSON **doc,
          struct pr_error *err)
{
    size_t i, at = 0;
    enum pr_status st;

    for (i = 0; i < HOLD; i++) {
        if (m->held[i].doc != NULL && m->held[i].file == file) {
            m->held[i].used = ++m->tick;
            *doc = m->held[i].doc;
            return PR_OK;
        }
        if (m->held[i].doc == NULL ||
            (m->held[at].doc != NULL && m->held[i].used < m->held[at].used))
            at = i;
    }
    cJSON_Delete(m->held[at].doc);
    m->held[at].doc = NULL;
    st = m->load(m->ctx, file, &m->held[at].doc, err);
    if (st != PR_OK)
        return st;
    if (m->load != load_saved) { /* runs of a trace analysed again */
        cJSON *r;
        cJSON_ArrayForEach(r, pr_sget(m->held[at].doc, PR_K_RUNS))
        {
            drop_private(r);
            pr_jtext_canon(r);
        }
    }
    m->held[at].file = file;
    m->held[at].used = ++m->tick;
    *doc = m->held[at].doc;
    return PR_OK;
}

/* The document of file `file` that m holds (hold_file), NULL none. */
static cJSON *
held_doc(struct pr_merge *m, size_t file)
{
    size_t k;

    for (k = 0; k < HOLD; k++)
        if (m->held[k].doc != NULL && m->held[k].file == file)
            return m->held[k].doc;
    return NULL;
}

/* Run s in the file m holds for it (hold_file), NULL none. */
static cJSON *
held_run(struct pr_merge *m, const struct src *s)
{
    return cJSON_GetArrayItem(
        cJSON_GetObjectItemCaseSensitive(held_doc(m, s->file), PR_K_RUNS),
        (int)s->pos);
}

enum pr_status
pr_merge_run(struct pr_merge *m, const cJSON *run, const cJSON **full,
             struct pr_error *err)
{
    struct src *s = find_src(m, run);
    const cJSON *r, *doc;
    enum pr_status st;
    cJSON *held;

    *full = NULL;
    if (s == NULL)
        return PR_OK;
    if (s->whole != NULL) {
        if (!s->canon) /* what its saved summary would read back */
            pr_jtext_canon(s->whole);
        s->canon = 1;
        *full = s->whole;
        return PR_OK;
    }
    st = hold_file(m, s->file, &doc, err);
    if (st != PR_OK)
        return st;
    r = cJSON_GetArrayItem(pr_sget(doc, PR_K_RUNS), (int)s->pos);
    if (r == NULL || !same_member(r, s->lite, PR_K_WORKER) ||
        !same_member(r, s->lite, PR_K_SPAN) ||
        !same_member(r, s->lite, PR_K_RANK))
        return pr_error_set(err, PR_E_FORMAT,
                            "%s: changed while being merged (run %zu is no "
                            "longer '%s'): merge again",
                            m->paths[s->file], s->pos,
                            str_of(s->lite, PR_K_WORKER));
    /* a file m read and holds: its run is m's to amend */
    if (m->amend != NULL && (held = held_run(m, s)) != NULL &&
        (st = m->amend(m->amend_ctx, held, err)) != PR_OK)
        return st;
    *full = r;
    return PR_OK;
}

enum pr_status
pr_merge_amend(struct pr_merge *m, pr_merge_amend_fn fn, void *ctx,
               struct pr_error *err)
{
    enum pr_status st = PR_OK;
    size_t i;

    m->amend = fn;
    m->amend_ctx = ctx;
    for (i = 0; i < m->n && st == PR_OK; i++) {
        struct src *s = &m->v[i];
        cJSON *run = s->whole;
        const cJSON *doc;

        /* a saved summary's run read again (a job merged from its ranks'
           summaries holds none whole): reading a summary is cheap, so its
           rank form is made again too; a trace's would be analysed again */
        if (run == NULL && m->load == load_saved) {
            st = hold_file(m, s->file, &doc, err);
            if (st != PR_OK)
                break;
            run = held_run(m, s);
        }
        if (run == NULL)
            continue;
        st = fn(ctx, run, err);
        if (st != PR_OK)
            break;
        /* its rank form from the amended run: the old text stays unused */
        s->form = m->forms.len;
        if (!pr_rank_form_text(run, &m->forms))
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
        s->form_len = m->forms.len - s->form;
    }
    return st;
}

/* pr_merge_expand, of every run or of those marked full. */
static enum pr_status
expand(struct pr_merge *m, cJSON *runs, int only_full, struct pr_error *err)
{
    cJSON *el, *next, *copy;
    const cJSON *full;
    struct src *s;
    enum pr_status st = PR_OK;
    int gone;

    for (el = cJSON_IsArray(runs) ? runs->child : NULL;
         el != NULL && st == PR_OK; el = next) {
        next = el->next;
        s = find_src(m, el);
        if (only_full && (s == NULL || !s->full))
            continue;
        st = pr_merge_run(m, el, &full, err);
        if (st != PR_OK || full == NULL)
            continue;
        s = find_src(m, el);
        gone = s->lite == el; /* not a reference: the lite is freed */
        copy = cJSON_Duplicate(full, 1);
        if (copy == NULL || !cJSON_ReplaceItemViaPointer(runs, el, copy)) {
            cJSON_Delete(copy);
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
        } else if (gone) {
            s->lite = NULL;
        }
    }
    return st;
}

enum pr_status
pr_merge_expand(struct pr_merge *m, cJSON *runs, struct pr_error *err)
{
    return expand(m, runs, 0, err);
}

enum pr_status
pr_merge_expand_full(struct pr_merge *m, cJSON *runs, struct pr_error *err)
{
    return expand(m, runs, 1, err);
}

void
pr_merge_mark_full(struct pr_merge *m, const cJSON *run)
{
    struct src *s = find_src(m, run);

    if (s != NULL)
        s->full = 1;
}

size_t
pr_merge_n_forms(const struct pr_merge *m)
{
    size_t i, k = 0;

    for (i = 0; m != NULL && i < m->n; i++)
        k += m->v[i].lite != NULL && !m->v[i].full;
    return k;
}

enum pr_status
pr_merge_json_run(struct pr_merge *m, const cJSON *run, const cJSON **use,
                  struct pr_error *err)
{
    const struct src *s = find_src(m, run);

    *use = NULL;
    if (s == NULL || s->full)
        return pr_merge_run(m, run, use, err);
    cJSON_Delete(m->form);
    m->form = cJSON_ParseWithLength(m->forms.data + s->form, s->form_len);
    if (m->form == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    *use = m->form;
    return PR_OK;
}

/* Make obj[key] a copy of `from` (removed when from is NULL).  0 on
 * out-of-memory. */
static int
set_member(cJSON *obj, const char *key, const cJSON *from)
{
    cJSON *copy;

    cJSON_DeleteItemFromObjectCaseSensitive(obj, key);
    if (from == NULL)
        return 1;
    copy = cJSON_Duplicate(from, 1);
    if (copy == NULL || !cJSON_AddItemToObject(obj, key, copy)) {
        cJSON_Delete(copy);
        return 0;
    }
    return 1;
}

/* lite's member at path made full's: "key" or "key.sub", whose parent
 * object is created in lite when full has the member. */
static int
take_member(cJSON *lite, const cJSON *full, const char *path)
{
    const char *dot = strchr(path, '.');
    char head[64];
    cJSON *parent;
    size_t n;

    if (dot == NULL)
        return set_member(lite, path, pr_sget(full, path));
    n = (size_t)(dot - path);
    if (n >= sizeof(head))
        return 0;
    memcpy(head, path, n);
    head[n] = '\0';
    parent = cJSON_GetObjectItemCaseSensitive(lite, head);
    if (!cJSON_IsObject(parent)) {
        if (pr_sget_path(full, path) == NULL)
            return 1;
        cJSON_DeleteItemFromObjectCaseSensitive(lite, head);
        parent = cJSON_AddObjectToObject(lite, head);
        if (parent == NULL)
            return 0;
    }
    return set_member(parent, dot + 1, pr_sget_path(full, path));
}

enum pr_status
pr_merge_expand_member(struct pr_merge *m, cJSON *runs, const char *path,
                       struct pr_error *err)
{
    cJSON *el;
    const cJSON *full;
    struct src *s;
    enum pr_status st = PR_OK;

    for (el = cJSON_IsArray(runs) ? runs->child : NULL;
         el != NULL && st == PR_OK; el = el->next) {
        st = pr_merge_run(m, el, &full, err);
        if (st != PR_OK || full == NULL)
            continue;
        /* its first member may be the one replaced: forget it first */
        s = find_src(m, el);
        s->lite = NULL;
        if (!take_member(el, full, path))
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    return st;
}

void
pr_merge_free(struct pr_merge *m)
{
    size_t k;

    if (m == NULL)
        return;
    for (k = 0; k < HOLD; k++)
        cJSON_Delete(m->held[k].doc);
    for (k = 0; k < m->n; k++)
        cJSON_Delete(m->v[k].whole);
    cJSON_Delete(m->form);
    pr_strtab_free(m->strs);
    pr_buf_free(&m->text);
    pr_buf_free(&m->forms);
    for (k = 0; k < KINDS; k++) {
        free(m->names[k]);
        free(m->nums[k]);
    }
    free(m->v);
    for (k = 0; k < m->n_own; k++)
        free(m->own[k]);
    free(m->own);
    free(m);
}

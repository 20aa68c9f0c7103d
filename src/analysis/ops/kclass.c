/* kclass.c - the kernel table (data/kernels.json): parse and check it,
 * match kernel names against its patterns, and name its classes.  Which
 * analyses read a class, and how, is theirs (names.c caches the answers
 * per string id). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "profreport/buf.h"
#include "profreport/kclass.h"

#define MAX_TABLE_BYTES (1024 * 1024)
#define MAX_RULES 4096
#define MAX_PATTERNS 256
/* names up to this long are lowered once a lookup (longer ones are
   matched ignoring case, slower) */
#define LOW_NAME_MAX 8192

/* ------------------------------------------------------------ patterns */

static int
same_char(char a, char b, int exact_case)
{
    if (exact_case)
        return a == b;
    return tolower((unsigned char)a) == tolower((unsigned char)b);
}

/* The length of name matched by the star-free segment seg[0..seg_len) at
 * s[0..n), or -1.  '#' takes every digit there is (never fewer), so a
 * segment matches in at most one way and the greedy search below is
 * exact. */
static long
seg_at(const char *s, size_t n, const char *seg, size_t seg_len, int exact_case)
{
    size_t i = 0, j = 0;

    while (j < seg_len) {
        char p = seg[j++];

        if (p == '#') {
            if (i >= n || !isdigit((unsigned char)s[i]))
                return -1;
            while (i < n && isdigit((unsigned char)s[i]))
                i++;
            continue;
        }
        if (p == '\\' && j < seg_len)
            p = seg[j++];
        else if (p == '?') {
            if (i >= n)
                return -1;
            i++;
            continue;
        }
        if (i >= n || !same_char(s[i], p, exact_case))
            return -1;
        i++;
    }
    return (long)i;
}

/* The end of the next segment of pat (at the next unescaped '*'). */
static size_t
seg_end(const char *pat, size_t from)
{
    size_t j = from;

    while (pat[j] != '\0' && pat[j] != '*')
        j += pat[j] == '\\' && pat[j + 1] != '\0' ? 2 : 1;
    return j;
}

int
pr_kclass_glob(const char *pat, const char *name, int exact_case)
{
    size_t n = strlen(name), at = 0, j = 0;
    int anchored = 1; /* the first segment starts at 0 */

    for (;;) {
        size_t e = seg_end(pat, j), len = e - j;
        int last = pat[e] == '\0';
        long m = -1;
        size_t p;
        /* a case-exact segment that starts with a plain character is
           only tried where the name has that character */
        char lit = exact_case && len > 0 && pat[j] != '#' && pat[j] != '?' &&
                           pat[j] != '\\'
                       ? pat[j]
                       : '\0';

        if (anchored) {
            m = seg_at(name + at, n - at, pat + j, len, exact_case);
            p = at;
            if (last)
                return m >= 0 && at + (size_t)m == n;
        } else if (last) {
            /* the last segment ends the name: try from the right */
            for (p = n + 1; p-- > at;) {
                if (lit != '\0' && (p == n || name[p] != lit))
                    continue;
                m = seg_at(name + p, n - p, pat + j, len, exact_case);
                if (m >= 0 && p + (size_t)m == n)
                    return 1;
            }
            return 0;
        } else {
            for (p = at; p <= n; p++) {
                if (lit != '\0') {
                    const char *q = memchr(name + p, lit, n - p);

                    if (q == NULL)
                        return 0;
                    p = (size_t)(q - name);
                }
                m = seg_at(name + p, n - p, pat + j, len, exact_case);
                if (m >= 0)
                    break;
            }
        }
        if (m < 0)
            return 0;
        at = p + (size_t)m;
        j = e;
        while (pat[j] == '*')
            j++;
        anchored = 0;
        if (pat[j] == '\0')
            return 1; /* a trailing star takes the rest */
    }
}

/* ------------------------------------------------------------- names */

static const char *const family_names[PR_KF_COUNT] = {
    NULL,          "gemm",      "conv", "attention", "collective", "copy",
    "elementwise", "reduction", "norm", "other",     "input",      "embedding",
};

static const char *const math_names[PR_KM_COUNT] = {
    NULL,     "tensor_core", "mfma",   "cube",
    "matrix", "cuda_core",   "vector", "simt",
};

static const char *const prec_names[PR_KP_COUNT] = {
    NULL,  "fp64",  "fp32",  "tf32",  "fp16", "bf16", "fp8_e4m3", "fp8_e5m2",
    "fp8", "mxfp8", "mxfp4", "nvfp4", "fp4",  "int8", "int4",     "hf32",
};

static int
index_of(const char *const *names, int n, const char *s)
{
    int i;

    for (i = 1; s != NULL && i < n; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return 0;
}

const char *
pr_kclass_family_name(enum pr_kfamily f)
{
    return (int)f > 0 && f < PR_KF_COUNT ? family_names[f] : NULL;
}

const char *
pr_kclass_math_name(enum pr_kmath m)
{
    return (int)m > 0 && m < PR_KM_COUNT ? math_names[m] : NULL;
}

const char *
pr_kclass_prec_name(enum pr_kprec p)
{
    return (int)p > 0 && p < PR_KP_COUNT ? prec_names[p] : NULL;
}

enum pr_kfamily
pr_kclass_family_of(const char *name)
{
    return (enum pr_kfamily)index_of(family_names, PR_KF_COUNT, name);
}

int
pr_kclass_is_matrix(enum pr_kmath m)
{
    return m == PR_KM_TENSOR_CORE || m == PR_KM_MFMA || m == PR_KM_CUBE ||
           m == PR_KM_MATRIX;
}

int
pr_kclass_is_simt(enum pr_kmath m)
{
    return m == PR_KM_CUDA_CORE || m == PR_KM_VECTOR || m == PR_KM_SIMT;
}

enum pr_kmath
pr_kclass_math_on(enum pr_kmath m, const char *vendor)
{
    int nv = vendor && strcmp(vendor, "nvidia") == 0;
    int amd = vendor && strcmp(vendor, "amd") == 0;
    int npu = vendor && strcmp(vendor, "huawei") == 0;

    if (m == PR_KM_MATRIX)
        return nv ? PR_KM_TENSOR_CORE : amd ? PR_KM_MFMA : npu ? PR_KM_CUBE : m;
    if (m == PR_KM_SIMT)
        return nv ? PR_KM_CUDA_CORE : amd || npu ? PR_KM_VECTOR : m;
    return m;
}

/* -------------------------------------------------------------- table */

/* A list of patterns: borrowed from the table's JSON. */
struct pats {
    const char **v; /* owned array; strings borrowed */
    char **lv;      /* owned: v's patterns in lower case, to match a name
                       lowered once (case-insensitive rules) */
    size_t n;
};

struct krule {
    const char *id, *library, *source, *collective; /* borrowed */
    struct pats any, all, none;
    unsigned char family, math, prec;
    unsigned char prec_by_name, exact_case;
    unsigned char no_mma;     /* "no_matrix_math": true */
    unsigned char host_polls; /* "host_polls": true */
};

struct kprec {
    unsigned char prec;
    struct pats any, none;
};

#define MAX_ROOTS 2

struct pr_kclass_table {
    cJSON *roots[MAX_ROOTS]; /* owned: every string is borrowed from them */
    size_t n_roots;
    struct krule *r; /* owned */
    size_t n, cap;
    struct kprec *p; /* owned */
    size_t np, cap_p;
    struct kprec *mp; /* owned: "mma_precisions" */
    size_t nmp, cap_mp;
    struct pats plugin; /* the plugin's 10.1 substrings, case-sensitive */
    struct memo *memo;  /* lookups made, NULL until the first (below) */
};

/* ------------------------------------------------------------- memo */

/* The lookups a table has made, by name: a job of 1,024 ranks names the
 * same few hundred kernels in every rank, and matching a name against
 * every rule's patterns was four fifths of such a job's work (issue #33).
 * A lookup is a function of the table and the name, so a remembered one
 * is the same answer; a lookup that cannot be remembered (no memory, or
 * MEMO_MAX names already) is made again, with the same answer.  One lock
 * for every table's memo: ranks are analysed on several threads at once
 * (--jobs), each asking for a few hundred names. */
#define MEMO_MAX 65536 /* names remembered per table */

struct memo_slot {
    char *name; /* owned; NULL: empty */
    uint64_t hash;
    struct pr_kclass v;
};

struct memo {
    struct memo_slot *s;
    size_t cap, n; /* cap: a power of two, or 0 */
};

static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t
memo_hash(const char *name)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */

    for (; *name != '\0'; name++)
        h = (h ^ (unsigned char)*name) * 1099511628211ULL;
    return h;
}

static void
memo_free(struct memo *m)
{
    size_t i;

    if (m == NULL)
        return;
    for (i = 0; i < m->cap; i++)
        free(m->s[i].name);
    free(m->s);
    free(m);
}

/* The slot of name in m: its own, or the empty one it would take. */
static struct memo_slot *
memo_slot(const struct memo *m, const char *name, uint64_t h)
{
    size_t i = (size_t)h & (m->cap - 1);

    while (m->s[i].name != NULL &&
           (m->s[i].hash != h || strcmp(m->s[i].name, name) != 0))
        i = (i + 1) & (m->cap - 1);
    return &m->s[i];
}

/* 1 with *out the remembered lookup of name, else 0. */
static int
memo_get(const struct pr_kclass_table *t, const char *name, uint64_t h,
         struct pr_kclass *out)
{
    const struct memo_slot *e;
    int hit = 0;

    pthread_mutex_lock(&memo_lock);
    if (t->memo != NULL && t->memo->cap > 0) {
        e = memo_slot(t->memo, name, h);
        if (e->name != NULL) {
            *out = e->v;
            hit = 1;
        }
    }
    pthread_mutex_unlock(&memo_lock);
    return hit;
}

/* m with room for one more name (load at most 1/2); 0: no memory. */
static int
memo_room(struct memo *m)
{
    struct memo_slot *old = m->s, *to;
    size_t cap = m->cap ? m->cap * 2 : 256, i, ocap = m->cap;

    if ((m->n + 1) * 2 <= m->cap)
        return 1;
    m->s = calloc(cap, sizeof(*m->s));
    if (m->s == NULL) {
        m->s = old;
        return 0;
    }
    m->cap = cap;
    for (i = 0; i < ocap; i++) {
        if (old[i].name == NULL)
            continue;
        to = memo_slot(m, old[i].name, old[i].hash);
        *to = old[i];
    }
    free(old);
    return 1;
}

/* Remember v as the lookup of name, when there is room and memory. */
static void
memo_put(const struct pr_kclass_table *t, const char *name, uint64_t h,
         const struct pr_kclass *v)
{
    struct memo *m;
    struct memo_slot *e;

    pthread_mutex_lock(&memo_lock);
    m = t->memo;
    if (m == NULL) /* the table is const to its readers; the memo is not */
        m = ((struct pr_kclass_table *)(uintptr_t)t)->memo =
            calloc(1, sizeof(*m));
    if (m != NULL && m->n < MEMO_MAX && memo_room(m)) {
        e = memo_slot(m, name, h);
        if (e->name == NULL && (e->name = strdup(name)) != NULL) {
            e->hash = h;
            e->v = *v;
            m->n++;
        }
    }
    pthread_mutex_unlock(&memo_lock);
}

static void
pats_free(struct pats *p)
{
    size_t i;

    for (i = 0; p->lv != NULL && i < p->n; i++)
        free(p->lv[i]);
    free(p->lv);
    free(p->v);
    p->v = NULL;
    p->lv = NULL;
    p->n = 0;
}

/* s in ASCII lower case into a new string; NULL: no memory. */
static char *
lowered(const char *s)
{
    size_t n = strlen(s), i;
    char *l = malloc(n + 1);

    for (i = 0; l != NULL && i <= n; i++)
        l[i] = (char)tolower((unsigned char)s[i]);
    return l;
}

void
pr_kclass_table_free(struct pr_kclass_table *t)
{
    size_t i;

    if (t == NULL)
        return;
    for (i = 0; i < t->n; i++) {
        pats_free(&t->r[i].any);
        pats_free(&t->r[i].all);
        pats_free(&t->r[i].none);
    }
    for (i = 0; i < t->np; i++) {
        pats_free(&t->p[i].any);
        pats_free(&t->p[i].none);
    }
    for (i = 0; i < t->nmp; i++) {
        pats_free(&t->mp[i].any);
        pats_free(&t->mp[i].none);
    }
    pats_free(&t->plugin);
    memo_free(t->memo);
    free(t->r);
    free(t->p);
    free(t->mp);
    for (i = 0; i < t->n_roots; i++)
        cJSON_Delete(t->roots[i]);
    free(t);
}

size_t
pr_kclass_table_count(const struct pr_kclass_table *t)
{
    return t ? t->n : 0;
}

/* "rule 12 (\"nvjet\")" for messages. */
static const char *
where(char *buf, size_t cap, const char *what, size_t i, const char *id)
{
    if (id)
        snprintf(buf, cap, "%s %zu (\"%.60s\")", what, i + 1, id);
    else
        snprintf(buf, cap, "%s %zu", what, i + 1);
    return buf;
}

/* A list of non-empty pattern strings; absent is an empty list unless
 * required. */
static enum pr_status
read_pats(const cJSON *o, const char *key, int required, const char *at,
          struct pats *out, struct pr_error *err)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key), *it;
    size_t n;

    memset(out, 0, sizeof(*out));
    if (a == NULL && !required)
        return PR_OK;
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) == 0)
        return pr_error_set(err, PR_E_FORMAT,
                            "kernel table: %s: \"%s\" is not a non-empty "
                            "list of patterns",
                            at, key);
    n = (size_t)cJSON_GetArraySize(a);
    if (n > MAX_PATTERNS)
        return pr_error_set(err, PR_E_LIMIT,
                            "kernel table: %s: more than %d patterns in "
                            "\"%s\"",
                            at, MAX_PATTERNS, key);
    out->v = calloc(n, sizeof(*out->v));
    out->lv = calloc(n, sizeof(*out->lv));
    if (out->v == NULL || out->lv == NULL)
        return pr_error_set(err, PR_E_NOMEM, "kernel table: out of memory");
    cJSON_ArrayForEach(it, a)
    {
        if (!cJSON_IsString(it) || it->valuestring[0] == '\0')
            return pr_error_set(err, PR_E_FORMAT,
                                "kernel table: %s: \"%s\" holds something "
                                "that is not a pattern string",
                                at, key);
        out->lv[out->n] = lowered(it->valuestring);
        if (out->lv[out->n] == NULL)
            return pr_error_set(err, PR_E_NOMEM, "kernel table: out of memory");
        out->v[out->n++] = it->valuestring;
    }
    return PR_OK;
}

static const char *
opt_str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsString(v) && v->valuestring[0] != '\0' ? v->valuestring
                                                          : NULL;
}

/* One of names[] (by its position), or an error naming what is allowed. */
static enum pr_status
read_enum(const cJSON *o, const char *key, const char *const *names, int n,
          int required, const char *at, unsigned char *out,
          struct pr_error *err)
{
    const char *s = opt_str(o, key);
    int i = index_of(names, n, s);

    *out = (unsigned char)i;
    if (i > 0 || (s == NULL && !required))
        return PR_OK;
    return pr_error_set(err, PR_E_FORMAT,
                        "kernel table: %s: \"%s\" is %s%.40s%s, not one of "
                        "the table's names",
                        at, key, s ? "\"" : "", s ? s : "missing",
                        s ? "\"" : "");
}

static enum pr_status
read_prec(const cJSON *o, const char *at, struct krule *r, struct pr_error *err)
{
    const char *s = opt_str(o, "precision");

    if (s != NULL && strcmp(s, "name") == 0) {
        r->prec_by_name = 1;
        return PR_OK;
    }
    return read_enum(o, "precision", prec_names, PR_KP_COUNT, 0, at, &r->prec,
                     err);
}

/* An optional true/false member: *out 1 where true, 0 where false or
 * absent. */
static enum pr_status
read_bool(const cJSON *o, const char *key, const char *at, unsigned char *out,
          struct pr_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    if (v != NULL && !cJSON_IsBool(v))
        return pr_error_set(err, PR_E_FORMAT,
                            "kernel table: %s: \"%s\" is not true or false", at,
                            key);
    *out = (unsigned char)cJSON_IsTrue(v);
    return PR_OK;
}

static enum pr_status
read_rule(const cJSON *o, size_t i, struct krule *r, struct pr_error *err)
{
    char at[96];
    const char *c;

    memset(r, 0, sizeof(*r));
    r->id = opt_str(o, "id");
    where(at, sizeof(at), "rule", i, r->id);
    if (!cJSON_IsObject(o) || r->id == NULL)
        return pr_error_set(err, PR_E_FORMAT,
                            "kernel table: %s: not an object with an \"id\"",
                            at);
    r->library = opt_str(o, "library");
    r->source = opt_str(o, "source");
    r->collective = opt_str(o, "collective");
    if (r->library == NULL || r->source == NULL)
        return pr_error_set(err, PR_E_FORMAT,
                            "kernel table: %s: needs a \"library\" and the "
                            "\"source\" that defines its naming",
                            at);
    c = opt_str(o, "case");
    r->exact_case = c != NULL && strcmp(c, "sensitive") == 0;
    if (read_bool(o, "no_matrix_math", at, &r->no_mma, err) != PR_OK ||
        read_bool(o, "host_polls", at, &r->host_polls, err) != PR_OK)
        return PR_E_FORMAT;
    if (read_enum(o, "family", family_names, PR_KF_COUNT, 1, at, &r->family,
                  err) != PR_OK ||
        read_enum(o, "math", math_names, PR_KM_COUNT, 0, at, &r->math, err) !=
            PR_OK ||
        read_prec(o, at, r, err) != PR_OK ||
        read_pats(o, "any", 1, at, &r->any, err) != PR_OK ||
        read_pats(o, "all", 0, at, &r->all, err) != PR_OK)
        return PR_E_FORMAT;
    return read_pats(o, "none", 0, at, &r->none, err);
}

static enum pr_status
read_precision(const cJSON *o, size_t i, struct kprec *p, struct pr_error *err)
{
    char at[96];

    memset(p, 0, sizeof(*p));
    where(at, sizeof(at), "precision pattern", i, opt_str(o, "precision"));
    if (read_enum(o, "precision", prec_names, PR_KP_COUNT, 1, at, &p->prec,
                  err) != PR_OK ||
        read_pats(o, "any", 1, at, &p->any, err) != PR_OK)
        return PR_E_FORMAT;
    return read_pats(o, "none", 0, at, &p->none, err);
}

/* pr_grow, as a truth value for the && chains below */
static int
grow(void **v, size_t *cap, size_t want, size_t size)
{
    return pr_grow(v, cap, want, size) == PR_OK;
}

/* No two rules may share an id: the id is what a row names. */
static enum pr_status
check_ids(const struct pr_kclass_table *t, struct pr_error *err)
{
    size_t i, j;

    for (i = 0; i < t->n; i++)
        for (j = i + 1; j < t->n; j++)
            if (strcmp(t->r[i].id, t->r[j].id) == 0)
                return pr_error_set(err, PR_E_FORMAT,
                                    "kernel table: rules %zu and %zu share "
                                    "the id \"%.60s\"",
                                    i + 1, j + 1, t->r[i].id);
    return PR_OK;
}

/* Append the rules and precision patterns of root to t. */
static enum pr_status
add_root(struct pr_kclass_table *t, const cJSON *root, struct pr_error *err)
{
    const cJSON *rules = cJSON_GetObjectItemCaseSensitive(root, "rules");
    const cJSON *precs = cJSON_GetObjectItemCaseSensitive(root, "precisions");
    const cJSON *mmas =
        cJSON_GetObjectItemCaseSensitive(root, "mma_precisions");
    const cJSON *plug =
        cJSON_GetObjectItemCaseSensitive(root, "plugin_tensor_core");
    const cJSON *it;
    size_t k = 0;

    if (!cJSON_IsArray(rules) || (precs && !cJSON_IsArray(precs)) ||
        (mmas && !cJSON_IsArray(mmas)))
        return pr_error_set(err, PR_E_FORMAT,
                            "kernel table: not a kernel table: no "
                            "\"rules\" list");
    if (t->n + (size_t)cJSON_GetArraySize(rules) > MAX_RULES)
        return pr_error_set(err, PR_E_LIMIT, "kernel table: more than %d rules",
                            MAX_RULES);
    cJSON_ArrayForEach(it, rules)
    {
        if (!grow((void **)&t->r, &t->cap, t->n + 1, sizeof(*t->r)))
            return pr_error_set(err, PR_E_NOMEM, "kernel table: out of memory");
        if (read_rule(it, k++, &t->r[t->n], err) != PR_OK) {
            t->n++; /* freed with the table */
            return PR_E_FORMAT;
        }
        t->n++;
    }
    k = 0;
    cJSON_ArrayForEach(it, precs)
    {
        if (!grow((void **)&t->p, &t->cap_p, t->np + 1, sizeof(*t->p)))
            return pr_error_set(err, PR_E_NOMEM, "kernel table: out of memory");
        if (read_precision(it, k++, &t->p[t->np++], err) != PR_OK)
            return PR_E_FORMAT;
    }
    k = 0;
    cJSON_ArrayForEach(it, mmas)
    {
        if (!grow((void **)&t->mp, &t->cap_mp, t->nmp + 1, sizeof(*t->mp)))
            return pr_error_set(err, PR_E_NOMEM, "kernel table: out of memory");
        if (read_precision(it, k++, &t->mp[t->nmp++], err) != PR_OK)
            return PR_E_FORMAT;
    }
    if (plug != NULL && t->plugin.n == 0 &&
        read_pats(plug, "patterns", 1, "plugin_tensor_core", &t->plugin, err) !=
            PR_OK)
        return PR_E_FORMAT;
    return PR_OK;
}

static struct pr_kclass_table *
parse_into(struct pr_kclass_table *t, const char *json, size_t len,
           struct pr_error *err)
{
    cJSON *root;

    errno = 0;
    root = cJSON_ParseWithLength(json, len);
    if (root == NULL && errno == ENOMEM) {
        pr_error_set(err, PR_E_NOMEM, "kernel table: out of memory");
        pr_kclass_table_free(t);
        return NULL;
    }
    if (root == NULL || !cJSON_IsObject(root) || t->n_roots == MAX_ROOTS) {
        cJSON_Delete(root);
        pr_error_set(err, PR_E_FORMAT, "kernel table: not a JSON object");
        pr_kclass_table_free(t);
        return NULL;
    }
    t->roots[t->n_roots++] = root;
    if (add_root(t, root, err) != PR_OK || check_ids(t, err) != PR_OK) {
        pr_kclass_table_free(t);
        return NULL;
    }
    return t;
}

struct pr_kclass_table *
pr_kclass_table_parse(const char *json, size_t len, struct pr_error *err)
{
    struct pr_kclass_table *t = calloc(1, sizeof(*t));

    if (t == NULL) {
        pr_error_set(err, PR_E_NOMEM, "kernel table: out of memory");
        return NULL;
    }
    return parse_into(t, json, len, err);
}

/* The file's text, NUL-terminated, in *out (owned); *len its length. */
static enum pr_status
read_file(const char *path, char **out, size_t *len, struct pr_error *err)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    size_t n;

    *out = NULL;
    if (f == NULL)
        return pr_error_set(err, PR_E_IO, "%s: cannot open kernel table", path);
    buf = malloc(MAX_TABLE_BYTES + 1);
    if (buf == NULL) {
        fclose(f);
        return pr_error_set(err, PR_E_NOMEM, "%s: out of memory", path);
    }
    n = fread(buf, 1, MAX_TABLE_BYTES + 1, f);
    if (ferror(f) || n > MAX_TABLE_BYTES) {
        pr_error_set(err, ferror(f) ? PR_E_IO : PR_E_LIMIT,
                     "%s: cannot read kernel table (or over 1 MiB)", path);
        fclose(f);
        free(buf);
        return err->code;
    }
    fclose(f);
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return PR_OK;
}

/* t (NULL: a new table) with the rules of the file at path appended. */
static struct pr_kclass_table *
load_into(struct pr_kclass_table *t, const char *path, struct pr_error *err)
{
    char *buf;
    size_t n;

    if (read_file(path, &buf, &n, err) != PR_OK) {
        pr_kclass_table_free(t);
        return NULL;
    }
    if (t == NULL)
        t = pr_kclass_table_parse(buf, n, err);
    else
        t = parse_into(t, buf, n, err);
    free(buf);
    if (t == NULL)
        pr_error_prefix(err, "%s: ", path);
    return t;
}

struct pr_kclass_table *
pr_kclass_table_load(const char *path, struct pr_error *err)
{
    return load_into(NULL, path, err);
}

struct pr_kclass_table *
pr_kclass_table_builtin(struct pr_error *err)
{
    return pr_kclass_table_parse((const char *)pr_kclass_builtin_json,
                                 pr_kclass_builtin_json_len, err);
}

/* The installed table appended to t when readable, else the compiled-in
 * one; t may be NULL. */
static struct pr_kclass_table *
add_base(struct pr_kclass_table *t, struct pr_error *err)
{
    struct pr_error ignored = {PR_OK, ""};
    char *buf = NULL;
    size_t n = 0;
    struct pr_kclass_table *r;

    if (read_file(PR_DATADIR "/kernels.json", &buf, &n, &ignored) != PR_OK) {
        buf = NULL;
        n = pr_kclass_builtin_json_len;
    }
    if (t == NULL)
        t = calloc(1, sizeof(*t));
    if (t == NULL) {
        free(buf);
        pr_error_set(err, PR_E_NOMEM, "kernel table: out of memory");
        return NULL;
    }
    r = parse_into(t, buf ? buf : (const char *)pr_kclass_builtin_json, n, err);
    if (r == NULL && buf != NULL)
        pr_error_prefix(err, "%s: ", PR_DATADIR "/kernels.json");
    free(buf);
    return r;
}

struct pr_kclass_table *
pr_kclass_table_open(const char *user_path, struct pr_error *err)
{
    struct pr_kclass_table *t = NULL;

    if (user_path != NULL && (t = load_into(NULL, user_path, err)) == NULL)
        return NULL;
    return add_base(t, err);
}

/* ------------------------------------------------------------- lookup */

/* A name as the rules match it: as it is, and in lower case for the
 * case-insensitive rules (their patterns lowered too, so the match
 * compares bytes); low NULL: none (a long name), compare ignoring case. */
struct kname {
    const char *name, *low;
};

/* Pattern i of p matches the name. */
static int
pat_match(const struct pats *p, size_t i, const struct kname *k, int exact_case)
{
    if (exact_case)
        return pr_kclass_glob(p->v[i], k->name, 1);
    if (k->low != NULL)
        return pr_kclass_glob(p->lv[i], k->low, 1);
    return pr_kclass_glob(p->v[i], k->name, 0);
}

/* The first pattern of p that matches the name, or NULL. */
static const char *
first_match(const struct pats *p, const struct kname *k, int exact_case)
{
    size_t i;

    for (i = 0; i < p->n; i++)
        if (pat_match(p, i, k, exact_case))
            return p->v[i];
    return NULL;
}

static int
all_match(const struct pats *p, const struct kname *k, int exact_case)
{
    size_t i;

    for (i = 0; i < p->n; i++)
        if (!pat_match(p, i, k, exact_case))
            return 0;
    return 1;
}

/* The rule's pattern that matches the name, or NULL when the rule does
 * not apply to it. */
static const char *
rule_match(const struct krule *r, const struct kname *k)
{
    const char *hit = first_match(&r->any, k, r->exact_case);

    if (hit == NULL || !all_match(&r->all, k, r->exact_case) ||
        first_match(&r->none, k, r->exact_case) != NULL)
        return NULL;
    return hit;
}

static void
fill(const struct pr_kclass_table *t, int i, struct pr_kclass *out)
{
    const struct krule *r = &t->r[i];

    memset(out, 0, sizeof(*out));
    out->index = i;
    out->rule = r->id;
    out->library = r->library;
    out->source = r->source;
    out->collective = r->collective;
    out->family = (enum pr_kfamily)r->family;
    out->math = (enum pr_kmath)r->math;
    out->precision = (enum pr_kprec)r->prec;
    out->no_mma = r->no_mma;
    out->host_polls = r->host_polls;
}

int
pr_kclass_rule(const struct pr_kclass_table *t, int i, struct pr_kclass *out)
{
    if (t == NULL || i < 0 || (size_t)i >= t->n) {
        memset(out, 0, sizeof(*out));
        out->index = -1;
        return 0;
    }
    fill(t, i, out);
    return 1;
}

/* The precision the name states, by the table's precision patterns. */
static void
name_precision(const struct pr_kclass_table *t, const struct kname *k,
               struct pr_kclass *out)
{
    size_t i;

    for (i = 0; i < t->np; i++) {
        const char *hit = first_match(&t->p[i].any, k, 0);

        if (hit != NULL && first_match(&t->p[i].none, k, 0) == NULL) {
            out->precision = (enum pr_kprec)t->p[i].prec;
            out->prec_pattern = hit;
            return;
        }
    }
}

/* The precision the matrix instruction ran in: a name that states a
 * narrow precision (its fp4 weights) and a wider operand beside it (bf16
 * or fp8 activations) runs at the wider one's rate. */
static void
mma_precision(const struct pr_kclass_table *t, const struct kname *k,
              struct pr_kclass *out)
{
    size_t i;

    out->mma_precision = out->precision;
    if (out->precision == PR_KP_NONE)
        return;
    for (i = 0; i < t->nmp; i++) {
        if (first_match(&t->mp[i].any, k, 0) != NULL &&
            first_match(&t->mp[i].none, k, 0) == NULL) {
            out->mma_precision = (enum pr_kprec)t->mp[i].prec;
            return;
        }
    }
}

static void
lookup(const struct pr_kclass_table *t, const char *name, size_t from,
       struct pr_kclass *out)
{
    char low[LOW_NAME_MAX];
    struct kname k;
    size_t i, n;

    /* lowered once here, not a character at a time in every pattern */
    k.name = name;
    k.low = NULL;
    n = strlen(name);
    if (n < sizeof(low)) {
        for (i = 0; i <= n; i++)
            low[i] = (char)tolower((unsigned char)name[i]);
        k.low = low;
    }
    for (i = from; i < t->n; i++) {
        const char *hit = rule_match(&t->r[i], &k);

        if (hit == NULL)
            continue;
        fill(t, (int)i, out);
        out->pattern = hit;
        if (t->r[i].prec_by_name)
            name_precision(t, &k, out);
        mma_precision(t, &k, out);
        break;
    }
    for (i = 0; i < t->plugin.n; i++) {
        if (strstr(name, t->plugin.v[i]) != NULL) {
            out->plugin_tc = pr_kclass_is_matrix(out->math);
            break;
        }
    }
}

void
pr_kclass_lookup(const struct pr_kclass_table *t, const char *name,
                 struct pr_kclass *out)
{
    uint64_t h;

    memset(out, 0, sizeof(*out));
    out->index = -1;
    if (t == NULL || name == NULL)
        return;
    h = memo_hash(name);
    if (memo_get(t, name, h, out))
        return;
    lookup(t, name, 0, out);
    memo_put(t, name, h, out);
}

void
pr_kclass_lookup_after(const struct pr_kclass_table *t, const char *name,
                       int after, struct pr_kclass *out)
{
    memset(out, 0, sizeof(*out));
    out->index = -1;
    if (t == NULL || name == NULL || after < -1)
        return;
    lookup(t, name, (size_t)(after + 1), out);
}

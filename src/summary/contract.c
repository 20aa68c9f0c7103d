/* contract.c - the summary contract (contract.h): the rows of the schema
 * (schema.def) flagged PR_SF_REQ, walked once. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "profreport/contract.h"
#include "profreport/hints.h"
#include "profreport/keys.h"
#include "profreport/rows.h"
#include "profreport/schema.h"
#include "profreport/sget.h"

static unsigned
type_of(const cJSON *v)
{
    if (cJSON_IsNumber(v))
        return PR_ST_NUM;
    if (cJSON_IsString(v))
        return PR_ST_STR;
    if (cJSON_IsNull(v))
        return PR_ST_NULL;
    if (cJSON_IsBool(v))
        return PR_ST_BOOL;
    if (cJSON_IsObject(v))
        return PR_ST_OBJ;
    return PR_ST_ARR;
}

static const char *
type_name(unsigned t)
{
    switch (t) {
    case PR_ST_NUM:
        return "a number";
    case PR_ST_STR:
        return "a string";
    case PR_ST_NULL:
        return "null";
    case PR_ST_BOOL:
        return "a boolean";
    case PR_ST_OBJ:
        return "an object";
    default:
        return "an array";
    }
}

/* "a number or null" for the types of a field. */
static void
expected(unsigned types, char *out, size_t cap)
{
    unsigned t;
    size_t len = 0;

    out[0] = '\0';
    for (t = PR_ST_NUM; t <= PR_ST_ARR; t <<= 1) {
        if (!(types & t))
            continue;
        len = strlen(out);
        snprintf(out + len, cap - len, "%s%s", len ? " or " : "", type_name(t));
    }
}

static enum pr_status check_object(const cJSON *o, enum pr_schema_object object,
                                   char *path, size_t len, size_t cap,
                                   struct pr_error *err);

/* Append ".key" or "[i]" to path at len; returns the new length. */
static size_t
extend(char *path, size_t len, size_t cap, const char *key, int index)
{
    int w = key != NULL
                ? snprintf(path + len, cap - len, "%s%s", len ? "." : "", key)
                : snprintf(path + len, cap - len, "[%d]", index);

    if (w < 0 || (size_t)w >= cap - len)
        return cap - 1; /* cut: the message shows a shortened path */
    return len + (size_t)w;
}

static enum pr_status
check_value(const cJSON *v, const struct pr_schema_row *f, char *path,
            size_t len, size_t cap, struct pr_error *err)
{
    unsigned t = type_of(v);
    char want[96];
    const cJSON *e;
    int i = 0;

    if (!(f->types & t)) {
        expected(f->types, want, sizeof(want));
        return pr_error_set(err, PR_E_FORMAT, "%s: expected %s, got %s", path,
                            want, type_name(t));
    }
    /* cJSON reads 1e999 as infinity: no figure of a summary is one */
    if (t == PR_ST_NUM && !isfinite(v->valuedouble))
        return pr_error_set(err, PR_E_FORMAT,
                            "%s: expected a finite number, got %s", path,
                            v->valuedouble > 0 ? "a number beyond 1e308"
                                               : "a number below -1e308");
    if (t == PR_ST_NUM && (f->flags & PR_SF_NONNEG) && v->valuedouble < 0)
        return pr_error_set(err, PR_E_FORMAT,
                            "%s: %g, but a time, count or size is never "
                            "negative: the summary was edited or damaged",
                            path, v->valuedouble);
    if (f->child == PR_SO_NONE || !pr_schema_has_flag(f->child, PR_SF_REQ))
        return PR_OK;
    if (t == PR_ST_OBJ)
        return check_object(v, f->child, path, len, cap, err);
    if (t != PR_ST_ARR)
        return PR_OK;
    cJSON_ArrayForEach(e, v)
    {
        size_t n = extend(path, len, cap, NULL, i++);
        enum pr_status st;
        if (!cJSON_IsObject(e))
            return pr_error_set(err, PR_E_FORMAT,
                                "%s: expected an object, got %s", path,
                                type_name(type_of(e)));
        st = check_object(e, f->child, path, n, cap, err);
        path[len] = '\0';
        if (st != PR_OK)
            return st;
    }
    return PR_OK;
}

static enum pr_status
check_object(const cJSON *o, enum pr_schema_object object, char *path,
             size_t len, size_t cap, struct pr_error *err)
{
    struct pr_schema_objinfo obj = pr_schema_object(object);
    size_t i;

    for (i = obj.first; i < obj.first + obj.n; i++) {
        const struct pr_schema_row *f = &pr_schema_rows[i];
        const cJSON *v;
        size_t n;
        enum pr_status st;

        if (!(f->flags & PR_SF_REQ))
            continue;
        v = cJSON_GetObjectItemCaseSensitive(o, f->key);
        if (v == NULL)
            /* missing_at reads this form: keep them together */
            return pr_error_set(err, PR_E_FORMAT, "%s%smissing key \"%s\"",
                                path, len ? ": " : "", f->key);
        n = extend(path, len, cap, f->key, 0);
        st = check_value(v, f, path, n, cap, err);
        path[len] = '\0';
        if (st != PR_OK)
            return st;
    }
    return PR_OK;
}

enum pr_status
pr_contract_check(const cJSON *sum, struct pr_error *err)
{
    const cJSON *ver, *name;
    char path[160] = "";

    if (!cJSON_IsObject(sum))
        return pr_error_set(err, PR_E_FORMAT, "not a JSON object");
    ver = cJSON_GetObjectItemCaseSensitive(sum, PR_K_SCHEMA_VERSION);
    if (cJSON_IsNumber(ver) && ver->valuedouble != PR_CONTRACT_SCHEMA)
        return pr_error_set(err, PR_E_FORMAT,
                            "unsupported schema_version %g (this build "
                            "reads %d)",
                            ver->valuedouble, PR_CONTRACT_SCHEMA);
    if (check_object(sum, PR_SO_TOP, path, 0, sizeof(path), err) != PR_OK)
        return PR_E_FORMAT;
    name = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(sum, PR_K_TOOL), PR_K_NAME);
    if (strcmp(name->valuestring, "profreport") != 0)
        return pr_error_set(err, PR_E_FORMAT,
                            "tool.name: \"%.60s\", not \"profreport\"",
                            name->valuestring);
    /* the typed tables (rows.def) whole, whatever their rows' flags */
    return pr_rows_check(sum, err);
}

/* A key an older profreport did not write, as a failed check names it:
 * check_object's "PATH: missing key \"KEY\"" (PATH empty at the top) or
 * the typed rows' "PATH.KEY: missing" (rows.c read_field): the path of the
 * object that lacks it and the key.  0 when msg says something else (a
 * value of the wrong kind: damaged, not older). */
static int
missing_at(const char *msg, char *path, size_t cap, char *key, size_t kcap)
{
    const char *p = strstr(msg, "missing key \""), *q, *dot;
    size_t n = strlen(msg), len;

    if (p != NULL) {
        q = strchr(p + 13, '"');
        len = (size_t)(p - msg);
        if (q == NULL || (size_t)(q - p - 13) >= kcap || len >= cap)
            return 0;
        if (len >= 2 && msg[len - 2] == ':')
            len -= 2;
        memcpy(path, msg, len);
        path[len] = '\0';
        memcpy(key, p + 13, (size_t)(q - p - 13));
        key[q - p - 13] = '\0';
        return 1;
    }
    if (n < 9 || strcmp(msg + n - 9, ": missing") != 0)
        return 0;
    n -= 9;
    for (dot = NULL, q = msg; q < msg + n; q++)
        if (*q == '.')
            dot = q;
    len = dot != NULL ? (size_t)(dot - msg) : 0;
    q = dot != NULL ? dot + 1 : msg;
    if (len >= cap || (size_t)(msg + n - q) >= kcap ||
        memchr(q, '[', (size_t)(msg + n - q)) != NULL)
        return 0;
    memcpy(path, msg, len);
    path[len] = '\0';
    memcpy(key, q, (size_t)(msg + n - q));
    key[msg + n - q] = '\0';
    return 1;
}

/* Is v, a part under row f of a run (run: 1) or of the summary (0),
 * whole for this build, checked on its own as the contract and the typed
 * rows check it in a summary?  Its faults are named from "runs[0].KEY"
 * (or "KEY"). */
static enum pr_status
part_check(cJSON *v, const struct pr_schema_row *f, int run,
           struct pr_error *err)
{
    char path[160], under[96];
    int n = snprintf(path, sizeof(path), "%s%s", run ? "runs[0]." : "", f->key);
    cJSON *doc, *at = NULL, *runs = NULL;
    enum pr_status st;

    st = check_value(v, f, path,
                     n > 0 && (size_t)n < sizeof(path) ? (size_t)n : 0,
                     sizeof(path), err);
    if (st != PR_OK)
        return st;
    /* {key: v}, or {"runs": [{key: v}]}: v by reference, so the typed
       rows' check sees it at its path without a copy */
    doc = cJSON_CreateObject();
    if (doc != NULL && run) {
        runs = cJSON_AddArrayToObject(doc, PR_K_RUNS);
        at = runs != NULL ? cJSON_CreateObject() : NULL;
        if (at != NULL && !cJSON_AddItemToArray(runs, at)) {
            cJSON_Delete(at);
            at = NULL;
        }
    } else {
        at = doc;
    }
    if (at == NULL || !cJSON_AddItemReferenceToObject(at, f->key, v)) {
        cJSON_Delete(doc);
        return pr_error_set(err, PR_E_NOMEM, "out of memory (summary)");
    }
    snprintf(under, sizeof(under), "%s%s", run ? "runs[]." : "", f->key);
    st = pr_rows_check_under(doc, under, err);
    cJSON_Delete(doc);
    return st;
}

/* The row of key in the object at rel below part f ("calls[0]" below a
 * run's synchronization; "" for the part itself), the path's indices
 * read as "every element"; NULL when the schema has none. */
static const struct pr_schema_row *
row_at(const struct pr_schema_row *f, const char *rel, const char *key)
{
    enum pr_schema_object o = f->child;
    char seg[64];

    while (*rel != '\0' && o != PR_SO_NONE) {
        size_t n = strcspn(rel, ".[");
        const struct pr_schema_row *r;

        if (n > 0) {
            if (n >= sizeof(seg))
                return NULL;
            memcpy(seg, rel, n);
            seg[n] = '\0';
            r = pr_schema_find(o, seg);
            if (r == NULL)
                return NULL;
            o = r->child;
        }
        rel += n;
        if (*rel == '[')
            rel += strcspn(rel, "]") + (strchr(rel, ']') ? 1 : 0);
        else if (*rel == '.')
            rel++;
    }
    return o == PR_SO_NONE ? NULL : pr_schema_find(o, key);
}

/* key = null in every object at rel below v that lacks it, each index of
 * rel read as every element (one writer wrote them all); how many were
 * set, -1 on no memory. */
static int
fill_null(cJSON *v, const char *rel, const char *key)
{
    size_t n = strcspn(rel, ".[");
    char seg[64];
    cJSON *e;
    int got = 0, k;

    if (*rel == '\0') {
        if (!cJSON_IsObject(v) || cJSON_GetObjectItemCaseSensitive(v, key))
            return 0;
        return cJSON_AddNullToObject(v, key) != NULL ? 1 : -1;
    }
    if (*rel == '.')
        return fill_null(v, rel + 1, key);
    if (*rel == '[') {
        const char *next = strchr(rel, ']');
        if (next == NULL || !cJSON_IsArray(v))
            return 0;
        cJSON_ArrayForEach(e, v)
        {
            if ((k = fill_null(e, next + 1, key)) < 0)
                return -1;
            got += k;
        }
        return got;
    }
    if (n >= sizeof(seg))
        return 0;
    memcpy(seg, rel, n);
    seg[n] = '\0';
    e = cJSON_GetObjectItemCaseSensitive(v, seg);
    return e != NULL ? fill_null(e, rel + n, key) : 0;
}

/* "a.b[3].c" as "a.b[].c" into out. */
static void
generic_path(const char *p, char *out, size_t cap)
{
    size_t len = 0;

    while (*p != '\0' && len + 1 < cap) {
        out[len++] = *p;
        if (*p++ == '[')
            while (*p != '\0' && *p != ']')
                p++;
    }
    out[len] = '\0';
}

/* Append ", item" (or "item") to list; a full list ends in ", ...". */
static void
list_add(char *list, size_t cap, const char *item)
{
    size_t len = strlen(list);
    int w;

    if (len + 6 >= cap)
        return;
    w = snprintf(list + len, cap - len, "%s%s", len ? ", " : "", item);
    if (w < 0 || (size_t)w >= cap - len)
        snprintf(list + len, cap - len, "%s...", len ? ", " : "");
}

/* What was done to an older summary's parts, for its note. */
#define OLDER_GROUPS 12
#define OLDER_PARTS 64
struct older {
    struct {
        char parent[160];    /* "communication.ops[]" */
        char keys[400];      /* "wall_us, in_flight_max" */
    } unknown[OLDER_GROUPS]; /* keys it did not write, read as null */
    size_t n_unknown;
    const struct pr_schema_row *left[OLDER_PARTS]; /* parts left out (or
                                                      null) */
    size_t n_left;
    char keys[600]; /* the key each lacks */
    int n;          /* keys read as null + parts left out */
};

/* "prefix" + "rel" as one generic path ("synchronization" + ".calls[0]"
 * is "synchronization.calls[]"). */
static void
join_path(const char *prefix, const char *rel, char *out, size_t cap)
{
    char gen[192];

    generic_path(rel, gen, sizeof(gen));
    snprintf(out, cap, "%s%s", prefix, gen);
}

static void
add_unknown(struct older *w, const char *parent, const char *key)
{
    size_t i;

    for (i = 0; i < w->n_unknown; i++)
        if (strcmp(w->unknown[i].parent, parent) == 0)
            break;
    if (i == w->n_unknown) {
        if (i == OLDER_GROUPS)
            i--; /* the last group takes the rest; its keys say which */
        else {
            snprintf(w->unknown[i].parent, sizeof(w->unknown[i].parent),
                     "%.159s", parent);
            w->unknown[i].keys[0] = '\0';
            w->n_unknown++;
        }
    }
    list_add(w->unknown[i].keys, sizeof(w->unknown[i].keys), key);
    w->n++;
}

/* One part v (row f) of an older summary made whole: each key its writer
 * did not write that may be null is read as null, in every element it is
 * missing from; a part that lacks a key that may not be null is left out
 * (a key the contract asks for, whose value may be null, made null).
 * prefix names the part in the note ("synchronization", or "the
 * summary's distributed").  0 on success (a damaged part is left for the
 * contract check to refuse), -1 on no memory. */
static int
mend_part(cJSON *o, cJSON *v, const struct pr_schema_row *f, int run,
          const char *prefix, struct older *w, struct pr_error *err)
{
    char path[192], key[64], item[400];
    size_t plen = strlen(run ? "runs[0]." : "") + strlen(f->key);
    int tries;

    for (tries = 0; tries < 64; tries++) {
        struct pr_error e = {PR_OK, ""};
        enum pr_status st = part_check(v, f, run, &e);
        const struct pr_schema_row *r;
        const char *rel;
        cJSON *nul;
        int k;

        if (st == PR_E_NOMEM) {
            pr_error_set(err, st, "%s", e.msg);
            return -1;
        }
        if (st == PR_OK ||
            !missing_at(e.msg, path, sizeof(path), key, sizeof(key)) ||
            strlen(path) < plen)
            return 0; /* whole, or damaged: the contract check says so */
        rel = path + plen;
        r = row_at(f, rel, key);
        join_path(prefix, rel, item, sizeof(item));
        if (r != NULL && (r->types & PR_ST_NULL) &&
            (k = fill_null(v, rel, key)) != 0) {
            if (k < 0)
                return pr_error_set(err, PR_E_NOMEM, "out of memory"), -1;
            add_unknown(w, item, key);
            continue;
        }
        if (w->n_left < OLDER_PARTS)
            w->left[w->n_left++] = f;
        snprintf(item + strlen(item), sizeof(item) - strlen(item), ".%s", key);
        list_add(w->keys, sizeof(w->keys), item);
        w->n++;
        if (!(f->flags & PR_SF_REQ)) {
            cJSON_DeleteItemFromObjectCaseSensitive(o, f->key);
        } else if ((nul = cJSON_CreateNull()) == NULL ||
                   !pr_sput(o, f->key, nul)) {
            cJSON_Delete(nul);
            return pr_error_set(err, PR_E_NOMEM, "out of memory (summary)"), -1;
        }
        return 0;
    }
    return 0;
}

/* The parts of o (a run: run 1, or the summary: 0) mended as mend_part
 * says; -1 on no memory. */
static int
mend_parts(cJSON *o, int run, struct older *w, struct pr_error *err)
{
    struct pr_schema_objinfo obj =
        pr_schema_object(run ? PR_SO_RUNS : PR_SO_TOP);
    char prefix[96];
    size_t i;

    for (i = obj.first; i < obj.first + obj.n; i++) {
        const struct pr_schema_row *f = &pr_schema_rows[i];
        cJSON *v = cJSON_GetObjectItemCaseSensitive(o, f->key);

        /* a key the contract asks for, never null, is no part to leave
           out; nor are the runs themselves */
        if (((f->flags & PR_SF_REQ) && !(f->types & PR_ST_NULL)) ||
            f->child == PR_SO_NONE || f->child == PR_SO_RUNS || v == NULL ||
            cJSON_IsNull(v))
            continue;
        snprintf(prefix, sizeof(prefix), "%s%s", run ? "" : "the summary's ",
                 f->key);
        if (mend_part(o, v, f, run, prefix, w, err) < 0)
            return -1;
    }
    return 0;
}

/* "communication.ops[] (wall_us, in_flight_max); synchronization.calls[]
 * (direction)" of a and b into out. */
static void
unknown_text(const struct older *a, const struct older *b, char *out,
             size_t cap)
{
    const struct older *v[2] = {a, b};
    size_t len = 0, i, k;

    out[0] = '\0';
    for (k = 0; k < 2; k++)
        for (i = 0; i < v[k]->n_unknown && len + 1 < cap; i++) {
            int w = snprintf(out + len, cap - len, "%s%s (%s)", len ? "; " : "",
                             v[k]->unknown[i].parent, v[k]->unknown[i].keys);
            len = w < 0 ? cap : len + (size_t)w;
        }
}

/* The runs a part has anything on. */
enum part_family {
    ANY_RUN,   /* any run */
    ASCEND,    /* null but on an Ascend run (from its producer's files) */
    MINDSPORE, /* null but on a MindSpore run */
    RANK_RUN,  /* null but on a rank of a job (late rank, world size),
                  or an Ascend run whose older writer read no world size
                  (ms_run3 of 08619121: world size 2 today) */
    WORLD_RUN  /* such a run that records no world size of its own (not
                  hta_nccl's, from its distributedInfo) */
};

/* Where the report shows a part of a run (run 1) or of the summary (0):
 * its section and what of it, in the report's order of sections, for the
 * note's list of views (review 19 #4, #10: views, not keys), and the
 * runs it has anything on.  A part not here is named by its key, its "_"
 * read as spaces. */
static const struct part_view {
    const char *key;
    int run;
    const char *view, *what; /* what: NULL for the whole view */
    enum part_family family;
} part_views[] = {
    {PR_K_VERDICT, 1, "Verdict", NULL, ANY_RUN},
    {PR_K_JOB, 0, "Job overview", NULL, ANY_RUN},
    {PR_K_STEP_PHASES, 1, "Overview", "step phases", ASCEND},
    {PR_K_STEP_TRACE, 1, "Overview", "MindSpore's step trace", MINDSPORE},
    {PR_K_CRITICAL_PATH, 1, "Critical path", NULL, ANY_RUN},
    {PR_K_KERNEL_CLASSES, 1, "Kernels", "kernel classes", ANY_RUN},
    {PR_K_TEMPORAL_BREAKDOWN, 1, "Host and device", "temporal breakdown",
     ANY_RUN},
    {PR_K_SYNCHRONIZATION, 1, "Host and device", "synchronization", ANY_RUN},
    {PR_K_COPIES, 1, "Host and device", "copies", ANY_RUN},
    {PR_K_LAUNCHES, 1, "Host and device", "launches", ANY_RUN},
    {PR_K_HOST_COVERAGE, 1, "Host and device", "host coverage", ANY_RUN},
    {PR_K_OP_COMPILE, 1, "Host and device", "CANN's operator compilation",
     ASCEND},
    {PR_K_NPU_MEMORY, 1, "Memory", "NPU memory", ASCEND},
    {PR_K_DISTRIBUTED, 0, "Distributed", NULL, ANY_RUN},
    /* the job line's late rank and the cover's world size (review 21
       #8: an older npu_text1 loses "rank 5 is late") */
    {PR_K_LATE_PEER, 1, "Distributed", "late rank", RANK_RUN},
    {PR_K_WORLD_SIZE_SOURCE, 1, "Distributed", "world size", WORLD_RUN},
    {PR_K_HCCL, 1, "Distributed", "HCCL's communication", ASCEND},
    {PR_K_LAYERS, 1, "Layers", NULL, ANY_RUN},
    {PR_K_LAYER_VIEW, 1, "Layers", NULL, ANY_RUN},
    /* parts written only where they apply (WHERE) */
    {PR_K_OBSERVATIONS, 1, "Recommendations", "observations", ANY_RUN},
    {PR_K_OPERATOR_TYPES, 1, "Operators", "op_statistic's operator types",
     ASCEND},
    {PR_K_HOST_CPU, 1, "Host and device", "host CPU", ANY_RUN},
    {PR_K_DATA_PIPELINE, 1, "Host and device", "MindSpore's data pipeline",
     MINDSPORE},
    {PR_K_MEMORY_TIMELINE, 1, "Memory timeline", NULL, ANY_RUN},
    {PR_K_BLOCK_DIM, 1, "Ascend AI Core block dims", NULL, ASCEND},
};

#define N_PART_VIEWS (sizeof(part_views) / sizeof(part_views[0]))

/* The views of rows (parts of a run, or of the summary) into out:
 * "Verdict, Critical path, Host and device (temporal breakdown, copies)",
 * each view once, in the report's order, then the parts no view names. */
static void
views_text(const struct pr_schema_row *const *rows, size_t n, char *out,
           size_t cap)
{
    char whats[300], item[400], name[96];
    size_t v, u, i;
    int whole;

    out[0] = '\0';
    for (v = 0; v < N_PART_VIEWS; v++) {
        /* the first row of each view leads it */
        for (u = 0; u < v && strcmp(part_views[u].view, part_views[v].view);
             u++)
            ;
        if (u < v)
            continue;
        whats[0] = '\0';
        whole = 0;
        for (u = v; u < N_PART_VIEWS; u++) /* in the views' order */
            for (i = 0; i < n; i++) {
                const struct part_view *p = &part_views[u];
                if (strcmp(p->view, part_views[v].view) != 0 ||
                    strcmp(p->key, rows[i]->key) != 0 ||
                    p->run != (rows[i]->object == PR_SO_RUNS))
                    continue;
                if (p->what == NULL)
                    whole = 1;
                else if (strstr(whats, p->what) == NULL)
                    list_add(whats, sizeof(whats), p->what);
            }
        if (!whole && whats[0] == '\0')
            continue;
        snprintf(item, sizeof(item), "%s%s%s%s", part_views[v].view,
                 whole || !whats[0] ? "" : " (", whole ? "" : whats,
                 whole || !whats[0] ? "" : ")");
        list_add(out, cap, item);
    }
    for (i = 0; i < n; i++) {
        char *c;
        for (v = 0; v < N_PART_VIEWS; v++)
            if (strcmp(part_views[v].key, rows[i]->key) == 0 &&
                part_views[v].run == (rows[i]->object == PR_SO_RUNS))
                break;
        if (v < N_PART_VIEWS)
            continue;
        snprintf(name, sizeof(name), "%s%s",
                 rows[i]->object == PR_SO_RUNS ? "" : "the summary's ",
                 rows[i]->key);
        for (c = name; *c != '\0'; c++)
            if (*c == '_')
                *c = ' ';
        list_add(out, cap, name);
    }
}

/* The format its worker's input was read as ("ascend", "kineto"), or
 * NULL. */
static const char *
input_format(const cJSON *sum, const cJSON *run)
{
    const char *worker = pr_sget_str(run, PR_K_WORKER);
    const cJSON *in;

    cJSON_ArrayForEach(in, pr_sget(sum, PR_K_INPUTS))
    {
        if (worker != NULL && pr_sget_is(pr_sget_str(in, PR_K_WORKER), worker))
            return pr_sget_str(in, PR_K_FORMAT);
    }
    return NULL;
}

/* Whether run is of family: an Ascend run says device_kind npu (an older
 * writer's device says kind npu, or is named "Ascend NPU", or there is
 * none, from an Ascend producer's files: ms_run3 of 08619121); a
 * MindSpore run was read from MindSpore's folder. */
static int
run_of(const cJSON *sum, const cJSON *run, enum part_family family)
{
    const char *format = input_format(sum, run);
    const cJSON *dev = cJSON_GetArrayItem(pr_sget(run, PR_K_DEVICES), 0);
    const char *name = pr_sget_str(dev, PR_K_NAME);
    const char *kind = pr_sget_str(run, PR_K_DEVICE_KIND);

    if (family == MINDSPORE)
        return pr_sget_is(format, "mindspore");
    /* (a rank of a job the summary shows: absent_parts) */
    if (family == RANK_RUN || family == WORLD_RUN)
        return pr_sget_num(run, PR_K_WORLD_SIZE) > 1 ||
               (!cJSON_IsNumber(pr_sget(run, PR_K_WORLD_SIZE)) &&
                run_of(sum, run, ASCEND));
    if (kind == NULL) /* an older writer's: its device's kind */
        kind = pr_sget_str(dev, PR_K_KIND);
    if (kind != NULL)
        return strcmp(kind, "npu") == 0;
    if (name != NULL)
        return strncmp(name, "Ascend", 6) == 0;
    return pr_sget_is(format, "ascend") || pr_sget_is(format, "msprof") ||
           pr_sget_is(format, "mindspore");
}

/* The parts flagged `flag` that run lacks (of a rank form, those it
 * keeps), of its family (an NPU memory view is no part of a GPU run's):
 * with PR_SF_EVERY, those this build writes on every run (null where they
 * do not apply), views added since an older profreport wrote it; with
 * PR_SF_WHERE, those written only where they apply, whose absence is no
 * sign of age.  job: the summary has a job's view (distributed, job), as
 * written, so each run is a rank.  How many, in rows. */
static size_t
absent_parts(const cJSON *sum, const cJSON *run, int job, unsigned flag,
             const struct pr_schema_row **rows, size_t cap)
{
    struct pr_schema_objinfo obj = pr_schema_object(PR_SO_RUNS);
    int rank = pr_sget_is(pr_sget_str(run, PR_K_FORM), "rank");
    size_t i, v, n = 0;

    for (i = obj.first; i < obj.first + obj.n && n < cap; i++) {
        const struct pr_schema_row *f = &pr_schema_rows[i];

        if (!(f->flags & flag) || (rank && !(f->flags & PR_SF_RANK)) ||
            cJSON_GetObjectItemCaseSensitive(run, f->key) != NULL)
            continue;
        /* a part only an Ascend (MindSpore) run has anything in is no
           view a GPU (PyTorch) run's summary misses */
        for (v = 0; v < N_PART_VIEWS; v++)
            if (part_views[v].run && strcmp(part_views[v].key, f->key) == 0)
                break;
        if (v < N_PART_VIEWS && part_views[v].family == WORLD_RUN &&
            cJSON_IsNumber(pr_sget(run, PR_K_WORLD_SIZE)))
            continue;
        if (v < N_PART_VIEWS && part_views[v].family != ANY_RUN &&
            !((part_views[v].family == RANK_RUN ||
               part_views[v].family == WORLD_RUN) &&
              job) &&
            !run_of(sum, run, part_views[v].family))
            continue;
        rows[n++] = f;
    }
    return n;
}

int
pr_contract_definitions(const cJSON *sum)
{
    const cJSON *v = pr_sget(pr_sget(sum, PR_K_TOOL), PR_K_DEFINITIONS);
    const cJSON *run, *r;

    if (cJSON_IsNumber(v) && v->valuedouble >= 1)
        return (int)v->valuedouble;
    if (pr_sget_len(pr_sget(sum, PR_K_RUNS)) == 0)
        return 0;
    cJSON_ArrayForEach(run, pr_sget(sum, PR_K_RUNS))
    {
        if (pr_sget_str(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_BASIS) == NULL)
            continue;
        /* a basis: version 2's windows; an Ascend run's Cube share and
           device names changed hours after the basis came (4a6ecc7f) */
        cJSON_ArrayForEach(r, pr_sget(sum, PR_K_RUNS))
        {
            if (run_of(sum, r, ASCEND))
                return 0;
        }
        return 2;
    }
    return 1;
}

/* A data-quality note on run: the views it does not have, what was left
 * out of it (and of the summary: top) and what was read as unknown, the
 * definitions its figures follow (defs, the writer's version), and what
 * to do. */
static int
note_older(cJSON *run, const struct older *top, const struct older *w,
           const struct pr_schema_row *const *absent, size_t n_absent,
           const struct pr_schema_row *const *maybe, size_t n_maybe, int defs,
           const char *kind_from)
{
    cJSON *d = cJSON_GetObjectItemCaseSensitive(run, PR_K_DIAGNOSTICS);
    const struct pr_schema_row *left[2 * OLDER_PARTS];
    char unknown[1400], views[700], parts[700], keys[1220], text[5400];
    char maybes[700], defs_text[32];
    struct pr_row_diagnostic row;
    size_t n = 0, i;

    if (!cJSON_IsArray(d)) {
        cJSON_DeleteItemFromObjectCaseSensitive(run, PR_K_DIAGNOSTICS);
        d = cJSON_AddArrayToObject(run, PR_K_DIAGNOSTICS);
        if (d == NULL)
            return 0;
    }
    for (i = 0; i < top->n_left; i++)
        left[n++] = top->left[i];
    for (i = 0; i < w->n_left; i++)
        left[n++] = w->left[i];
    views_text(absent, n_absent, views, sizeof(views));
    views_text(left, n, parts, sizeof(parts));
    views_text(maybe, n_maybe, maybes, sizeof(maybes));
    unknown_text(top, w, unknown, sizeof(unknown));
    snprintf(keys, sizeof(keys), "%s%s%s", top->keys,
             top->keys[0] && w->keys[0] ? ", " : "", w->keys);
    snprintf(text, sizeof(text), PR_SGET_OLDER_LEAD "%s%s%s",
             views[0] ? " It was written before these views existed, so they "
                        "are not in it: "
                      : "",
             views, views[0] ? "." : "");
    if (maybes[0])
        snprintf(text + strlen(text), sizeof(text) - strlen(text),
                 " It may lack more of what this version writes only where "
                 "a trace has it, which the file cannot tell: %s.",
                 maybes);
    if (parts[0])
        snprintf(text + strlen(text), sizeof(text) - strlen(text),
                 " Left out of this report and of any diff: %s; they lack "
                 "a key that cannot be unknown (%s).",
                 parts, keys);
    if (unknown[0])
        snprintf(text + strlen(text), sizeof(text) - strlen(text),
                 " Keys it did not write read as unknown: %s.", unknown);
    if (kind_from != NULL)
        snprintf(text + strlen(text), sizeof(text) - strlen(text),
                 " It records no device kind: read as an Ascend NPU, from "
                 "%s.",
                 kind_from);
    if (defs > 0)
        snprintf(defs_text, sizeof(defs_text), "version %d", defs);
    else /* not recorded, and its step basis does not tell which */
        snprintf(defs_text, sizeof(defs_text), "an earlier version");
    if (defs < PR_DEFINITIONS)
        snprintf(text + strlen(text), sizeof(text) - strlen(text),
                 " Its figures follow %s of their definitions (this "
                 "build: %d): profreport diff names the figures whose "
                 "definition changed since.",
                 defs_text, PR_DEFINITIONS);
    if (parts[0] || views[0] || defs < PR_DEFINITIONS)
        snprintf(text + strlen(text), sizeof(text) - strlen(text),
                 " Run profreport on the traces again for the whole report.");
    memset(&row, 0, sizeof(row));
    row.kind = PR_SGET_OLDER_KIND;
    row.count = top->n + w->n + (int)n_absent;
    row.text = text;
    return pr_rows_write(d, PR_RO_RUNS_DIAGNOSTICS, &row, 1);
}

/* o[key] = now (pr_sput), now freed where it cannot be put; 0 when out
 * of memory (now NULL included). */
static int
put_string(cJSON *o, const char *key, cJSON *now)
{
    if (now != NULL && pr_sput(o, key, now))
        return 1;
    cJSON_Delete(now);
    return 0;
}

/* run's view's note, where it is the hint `was`, made `as`; 0 when out
 * of memory. */
static int
hint_as(cJSON *run, const char *view, const char *was, const char *as)
{
    cJSON *v = cJSON_GetObjectItemCaseSensitive(run, view);
    cJSON *now;

    if (!pr_sget_is(cJSON_GetStringValue(
                        cJSON_GetObjectItemCaseSensitive(v, PR_K_NOTE)),
                    was))
        return 1;
    now = cJSON_CreateString(as);
    return put_string(v, PR_K_NOTE, now);
}

/* o's member key, where its text holds the hint `was`, with `as` in its
 * place; 0 when out of memory. */
static int
text_as(cJSON *o, const char *key, const char *was, const char *as)
{
    const char *v =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
    const char *at = v != NULL ? strstr(v, was) : NULL;
    char text[2048];
    cJSON *now;

    if (at == NULL || strlen(v) - strlen(was) + strlen(as) >= sizeof(text))
        return 1;
    snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - v), v, as,
             at + strlen(was));
    now = cJSON_CreateString(text);
    return put_string(o, key, now);
}

/* Its values "ProfilerStep#N" (a step's name, wherever a part names it)
 * made "Step N", as this build names an NPU run's steps (analysis.c's
 * npu_step_name: MindStudio's words, not torch.profiler's); 0 when out of
 * memory. */
static int
npu_step_names(cJSON *o)
{
    char name[48];
    cJSON *c;

    for (c = o != NULL ? o->child : NULL; c != NULL; c = c->next) {
        const char *v = cJSON_GetStringValue(c);
        cJSON *now;

        if (v == NULL) {
            if ((cJSON_IsObject(c) || cJSON_IsArray(c)) && !npu_step_names(c))
                return 0;
            continue;
        }
        if (strncmp(v, "ProfilerStep#", 13) != 0 || v[13] == '\0' ||
            strlen(v + 13) > 32 ||
            strspn(v + 13, "0123456789") != strlen(v + 13))
            continue;
        snprintf(name, sizeof(name), "Step %s", v + 13);
        now = cJSON_CreateString(name);
        if (c->string != NULL /* an object's member keeps its key */
                ? !put_string(o, c->string, now)
                : now == NULL || !cJSON_ReplaceItemViaPointer(o, c, now)) {
            cJSON_Delete(c->string != NULL ? NULL : now);
            return 0;
        }
        c = now;
    }
    return 1;
}

/* An older run's device kind and framework, where it wrote none, as its
 * note infers them (run_of), so that its report speaks of the device the
 * note names (review 21 #3: ms_run3's body spoke of GPUs and
 * torch.profiler under a note on NPU memory and HCCL): "" where no kind
 * is inferred or one was written as its device's, else where it was
 * inferred from, for the note; NULL when out of memory. */
static const char *
infer_kind(const cJSON *sum, cJSON *run)
{
    const cJSON *dev = cJSON_GetArrayItem(pr_sget(run, PR_K_DEVICES), 0);
    const char *from = "";

    if (cJSON_GetObjectItemCaseSensitive(run, PR_K_FRAMEWORK) == NULL &&
        run_of(sum, run, MINDSPORE) &&
        cJSON_AddStringToObject(run, PR_K_FRAMEWORK, "mindspore") == NULL)
        return NULL;
    if (cJSON_GetObjectItemCaseSensitive(run, PR_K_DEVICE_KIND) == NULL &&
        run_of(sum, run, ASCEND)) {
        if (pr_sget_str(dev, PR_K_KIND) == NULL)
            from = pr_sget_str(dev, PR_K_NAME) != NULL ? "its device's name"
                                                       : "its producer's files";
        if (cJSON_AddStringToObject(run, PR_K_DEVICE_KIND, "npu") == NULL)
            return NULL;
    }
    if (pr_sget_is(pr_sget_str(run, PR_K_DEVICE_KIND), "npu")) {
        cJSON *d;

        if (!npu_step_names(run) ||
            !text_as(cJSON_GetObjectItemCaseSensitive(run, PR_K_ATTRIBUTION),
                     PR_K_REASON, PR_HINT_NO_OPS, PR_HINT_NO_OPS_NPU))
            return NULL;
        cJSON_ArrayForEach(
            d, cJSON_GetObjectItemCaseSensitive(run, PR_K_DIAGNOSTICS))
        {
            if (!text_as(d, PR_K_TEXT, PR_HINT_NO_OPS, PR_HINT_NO_OPS_NPU))
                return NULL;
        }
    }
    /* the hints it wrote in torch.profiler's words, in its producer's */
    if (pr_sget_is(pr_sget_str(run, PR_K_FRAMEWORK), "mindspore")) {
        if (!hint_as(run, PR_K_SOURCE_VIEW, PR_SOURCES_NO_STACKS,
                     PR_SOURCES_NO_STACKS_MINDSPORE) ||
            !hint_as(run, PR_K_MODULE_VIEW, PR_MODULES_NONE,
                     PR_MODULES_NONE_MINDSPORE))
            return NULL;
    } else if (pr_sget_is(pr_sget_str(run, PR_K_DEVICE_KIND), "npu")) {
        if (!hint_as(run, PR_K_SOURCE_VIEW, PR_SOURCES_NO_STACKS,
                     PR_SOURCES_NO_STACKS_NPU) ||
            !hint_as(run, PR_K_MODULE_VIEW, PR_MODULES_NONE,
                     PR_MODULES_NONE_NPU))
            return NULL;
    }
    return from;
}

enum pr_status
pr_contract_check_saved(cJSON *sum, struct pr_error *err)
{
    struct pr_error first = {PR_OK, ""};
    enum pr_status st = pr_contract_check(sum, &first);
    char path[192], key[64];
    struct older top;
    int first_run = 1, defs, job;
    size_t npu_runs = 0;
    cJSON *run;

    if (st != PR_OK &&
        (!missing_at(first.msg, path, sizeof(path), key, sizeof(key)) ||
         !cJSON_IsObject(sum))) {
        pr_error_set(err, st, "%s", first.msg);
        return st;
    }
    /* older: a key missing, or older definitions though none is (review
       19 #4: ms_run3's summary of 08619121 lacks no contract key, and
       17 parts) */
    defs = pr_contract_definitions(sum);
    if (st == PR_OK && defs >= PR_DEFINITIONS)
        return PR_OK;
    /* a job's view, before an older one is left out below */
    job = cJSON_IsObject(
              cJSON_GetObjectItemCaseSensitive(sum, PR_K_DISTRIBUTED)) ||
          cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(sum, PR_K_JOB));
    /* the summary's own parts (the job's distributed view ...): their
       note goes on the first run */
    memset(&top, 0, sizeof(top));
    if (mend_parts(sum, 0, &top, err) < 0)
        return PR_E_NOMEM;
    cJSON_ArrayForEach(run, cJSON_GetObjectItemCaseSensitive(sum, PR_K_RUNS))
    {
        struct older w, none;
        const struct pr_schema_row *absent[OLDER_PARTS], *maybe[OLDER_PARTS];
        const char *kind_from;
        size_t n_absent, n_maybe;

        if (!cJSON_IsObject(run))
            continue;
        memset(&w, 0, sizeof(w));
        memset(&none, 0, sizeof(none));
        /* what it lacks before any part is left out here */
        n_absent =
            absent_parts(sum, run, job, PR_SF_EVERY, absent, OLDER_PARTS);
        n_maybe =
            defs < PR_DEFINITIONS
                ? absent_parts(sum, run, job, PR_SF_WHERE, maybe, OLDER_PARTS)
                : 0;
        if (mend_parts(run, 1, &w, err) < 0)
            return PR_E_NOMEM;
        kind_from = infer_kind(sum, run);
        if (kind_from == NULL)
            return pr_error_set(err, PR_E_NOMEM, "out of memory (summary)");
        if ((w.n > 0 || n_absent > 0 || defs < PR_DEFINITIONS ||
             (first_run && top.n > 0)) &&
            !note_older(run, first_run ? &top : &none, &w, absent, n_absent,
                        maybe, n_maybe, defs,
                        kind_from[0] != '\0' ? kind_from : NULL))
            return pr_error_set(err, PR_E_NOMEM, "out of memory (summary)");
        first_run = 0;
        npu_runs += pr_sget_is(pr_sget_str(run, PR_K_DEVICE_KIND), "npu");
    }
    /* a job of NPU runs: its heat map's steps named as its runs' */
    if (npu_runs > 0 && npu_runs == pr_sget_len(pr_sget(sum, PR_K_RUNS)) &&
        (!npu_step_names(cJSON_GetObjectItemCaseSensitive(sum, PR_K_JOB)) ||
         !npu_step_names(cJSON_GetObjectItemCaseSensitive(sum, PR_K_JOBS))))
        return pr_error_set(err, PR_E_NOMEM, "out of memory (summary)");
    /* what is still missing is a key every run has: refused, with its
       path, as before */
    return st == PR_OK ? PR_OK : pr_contract_check(sum, err);
}

/* rows.c - typed rows of the summary's table objects (rows.h): the field
 * tables made from rows.def, one writer and one reader. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/keys.h"
#include "profreport/rows.h"

/* Each object's struct under a name its fields' macro can build. */
#define PR_ROWS_OBJECT(obj, st) typedef struct st rows_t_##obj;
#define PR_ROWS_FIELD(obj, key, type, member)
#define PR_ROWS_SUB(obj, key, sub, member)
#define PR_ROWS_ABSENT(obj, member)
#define PR_ROWS_END(obj)
#include "rows.def"
#undef PR_ROWS_OBJECT
#undef PR_ROWS_FIELD
#undef PR_ROWS_SUB
#undef PR_ROWS_ABSENT
#undef PR_ROWS_END

#define PR_ROWS_OBJECT(obj, st) static const struct pr_rows_field f_##obj[] = {
#define PR_ROWS_FIELD(obj, key, type, member)                                  \
    {PR_SR_##obj##_##key, PR_RT_##type, offsetof(rows_t_##obj, member),        \
     PR_RO_N},
#define PR_ROWS_SUB(obj, key, sub, member)                                     \
    {PR_SR_##obj##_##key, PR_RT_SUB, offsetof(rows_t_##obj, member),           \
     PR_RO_##sub},
#define PR_ROWS_ABSENT(obj, member)
#define PR_ROWS_END(obj)                                                       \
    }                                                                          \
    ;
#include "rows.def"
#undef PR_ROWS_OBJECT
#undef PR_ROWS_FIELD
#undef PR_ROWS_SUB
#undef PR_ROWS_ABSENT
#undef PR_ROWS_END

/* Each object's PR_ROWS_ABSENT mask: its offset, or SIZE_MAX where it has
 * none (unsigned arithmetic: offset - SIZE_MAX + SIZE_MAX is the offset). */
#define PR_ROWS_OBJECT(obj, st) static const size_t a_##obj = (size_t)0 +
#define PR_ROWS_FIELD(obj, key, type, member)
#define PR_ROWS_SUB(obj, key, sub, member)
#define PR_ROWS_ABSENT(obj, member) offsetof(rows_t_##obj, member) - SIZE_MAX +
#define PR_ROWS_END(obj) SIZE_MAX;
#include "rows.def"
#undef PR_ROWS_OBJECT
#undef PR_ROWS_FIELD
#undef PR_ROWS_SUB
#undef PR_ROWS_ABSENT
#undef PR_ROWS_END

static const struct pr_rows_objinfo objects[PR_RO_N] = {
#define PR_ROWS_OBJECT(obj, st)                                                \
    {PR_SO_##obj, sizeof(struct st), f_##obj,                                  \
     sizeof(f_##obj) / sizeof(f_##obj[0]), a_##obj},
#define PR_ROWS_FIELD(obj, key, type, member)
#define PR_ROWS_SUB(obj, key, sub, member)
#define PR_ROWS_ABSENT(obj, member)
#define PR_ROWS_END(obj)
#include "rows.def"
#undef PR_ROWS_OBJECT
#undef PR_ROWS_FIELD
#undef PR_ROWS_SUB
#undef PR_ROWS_ABSENT
#undef PR_ROWS_END
};

const struct pr_rows_objinfo *
pr_rows_object(enum pr_rows_object ro)
{
    return (unsigned)ro < PR_RO_N ? &objects[ro] : NULL;
}

/* A row's PR_ROWS_ABSENT mask (bit k: field k left out), or NULL. */
static uint64_t *
mask_of(const struct pr_rows_objinfo *o, void *row)
{
    return o->absent == SIZE_MAX
               ? NULL
               : (uint64_t *)(void *)((char *)row + o->absent);
}

static const uint64_t *
cmask_of(const struct pr_rows_objinfo *o, const void *row)
{
    return o->absent == SIZE_MAX
               ? NULL
               : (const uint64_t *)(const void *)((const char *)row +
                                                  o->absent);
}

static size_t
field_of(const struct pr_rows_objinfo *o, enum pr_schema_rowid id)
{
    size_t k;

    for (k = 0; k < o->n_fields; k++)
        if (o->fields[k].row == id)
            return k;
    return SIZE_MAX;
}

int
pr_rows_omit(enum pr_rows_object ro, void *row, enum pr_schema_rowid id)
{
    const struct pr_rows_objinfo *o = pr_rows_object(ro);
    uint64_t *m = o != NULL ? mask_of(o, row) : NULL;
    size_t k = m != NULL ? field_of(o, id) : SIZE_MAX;

    if (k == SIZE_MAX || k >= 64)
        return 0;
    *m |= (uint64_t)1 << k;
    return 1;
}

int
pr_rows_has(enum pr_rows_object ro, const void *row, enum pr_schema_rowid id)
{
    const struct pr_rows_objinfo *o = pr_rows_object(ro);
    const uint64_t *m = o != NULL ? cmask_of(o, row) : NULL;
    size_t k = o != NULL ? field_of(o, id) : SIZE_MAX;

    if (k == SIZE_MAX)
        return 0;
    return m == NULL || k >= 64 || !(*m & ((uint64_t)1 << k));
}

static cJSON *
value_of(const struct pr_rows_field *f, const char *row)
{
    const char *p = row + f->offset;
    double d;
    int64_t i;
    const char *s;
    const cJSON *j;
    int b;

    switch (f->type) {
    case PR_RT_SUB:
        return pr_rows_row((enum pr_rows_object)f->sub, p);
    case PR_RT_BOOL_NULL:
        memcpy(&b, p, sizeof(b));
        return b < 0 ? cJSON_CreateNull() : cJSON_CreateBool(b);
    case PR_RT_BOOL:
        memcpy(&b, p, sizeof(b));
        return cJSON_CreateBool(b != 0);
    case PR_RT_JSON:
        memcpy(&j, p, sizeof(j));
        return j != NULL ? cJSON_Duplicate(j, 1) : cJSON_CreateNull();
    case PR_RT_STR:
        memcpy(&s, p, sizeof(s));
        return s != NULL ? cJSON_CreateString(s) : cJSON_CreateNull();
    case PR_RT_I64:
        memcpy(&i, p, sizeof(i));
        return cJSON_CreateNumber((double)i);
    case PR_RT_US:
        memcpy(&i, p, sizeof(i));
        /* PR_ROWS_US_NULL: null, where the schema row allows it */
        if (i == PR_ROWS_US_NULL && (pr_schema_rows[f->row].types & PR_ST_NULL))
            return cJSON_CreateNull();
        return cJSON_CreateNumber((double)i / 1000.0);
    case PR_RT_NUM_NULL:
        memcpy(&d, p, sizeof(d));
        return isfinite(d) ? cJSON_CreateNumber(d) : cJSON_CreateNull();
    default:
        memcpy(&d, p, sizeof(d));
        return cJSON_CreateNumber(d);
    }
}

cJSON *
pr_rows_row(enum pr_rows_object ro, const void *row)
{
    const struct pr_rows_objinfo *o = pr_rows_object(ro);
    const uint64_t *m = o != NULL ? cmask_of(o, row) : NULL;
    cJSON *obj = o != NULL ? cJSON_CreateObject() : NULL;
    size_t k;

    for (k = 0; obj != NULL && k < o->n_fields; k++) {
        const struct pr_rows_field *f = &o->fields[k];
        cJSON *v;

        if (m != NULL && k < 64 && (*m & ((uint64_t)1 << k)))
            continue;
        v = value_of(f, row);
        if (v == NULL ||
            !cJSON_AddItemToObject(obj, pr_schema_rows[f->row].key, v)) {
            cJSON_Delete(v);
            cJSON_Delete(obj);
            obj = NULL;
        }
    }
    return obj;
}

/* A field's value: the member of work under its key, moved in, where the
 * field is JSON or the row leaves it out and work has one; else the row's
 * own (NULL: left out). */
static cJSON *
value_from(const struct pr_rows_field *f, const char *row, const uint64_t *m,
           size_t k, cJSON *work)
{
    int omitted = m != NULL && k < 64 && (*m & ((uint64_t)1 << k));
    cJSON *w =
        f->type == PR_RT_JSON || omitted
            ? cJSON_GetObjectItemCaseSensitive(work, pr_schema_rows[f->row].key)
            : NULL;

    if (w != NULL)
        return cJSON_DetachItemViaPointer(work, w);
    return omitted ? NULL : value_of(f, row);
}

/* Whether ro has a field under key. */
static int
has_field(const struct pr_rows_objinfo *o, const char *key)
{
    size_t k;

    for (k = 0; k < o->n_fields; k++)
        if (strcmp(pr_schema_rows[o->fields[k].row].key, key) == 0)
            return 1;
    return 0;
}

cJSON *
pr_rows_row_from(enum pr_rows_object ro, const void *row, cJSON *work)
{
    const struct pr_rows_objinfo *o = pr_rows_object(ro);
    const uint64_t *m = o != NULL ? cmask_of(o, row) : NULL;
    cJSON *obj = o != NULL ? cJSON_CreateObject() : NULL, *w;
    size_t k;

    for (k = 0; obj != NULL && k < o->n_fields; k++) {
        const struct pr_rows_field *f = &o->fields[k];
        int omitted = m != NULL && k < 64 && (*m & ((uint64_t)1 << k));
        cJSON *v = value_from(f, row, m, k, work);

        if (v == NULL && omitted)
            continue;
        if (v == NULL ||
            !cJSON_AddItemToObject(obj, pr_schema_rows[f->row].key, v)) {
            cJSON_Delete(v);
            cJSON_Delete(obj);
            return NULL;
        }
    }
    /* a member of no field (a run's private _origin) follows, as it
       was; one of a typed field is the row's, already written */
    while (obj != NULL && work != NULL && (w = work->child) != NULL) {
        w = cJSON_DetachItemViaPointer(work, w);
        if (w->string != NULL && !has_field(o, w->string))
            cJSON_AddItemToArray(obj, w);
        else
            cJSON_Delete(w);
    }
    return obj;
}

int
pr_rows_write(cJSON *arr, enum pr_rows_object ro, const void *rows, size_t n)
{
    const struct pr_rows_objinfo *o = pr_rows_object(ro);
    size_t i;

    if (o == NULL || arr == NULL)
        return 0;
    for (i = 0; i < n; i++) {
        cJSON *obj = pr_rows_row(ro, (const char *)rows + i * o->size);
        if (obj == NULL || !cJSON_AddItemToArray(arr, obj)) {
            cJSON_Delete(obj);
            return 0;
        }
    }
    return 1;
}

static const char *
json_type(const cJSON *v)
{
    if (cJSON_IsNumber(v))
        return "a number";
    if (cJSON_IsString(v))
        return "a string";
    if (cJSON_IsNull(v))
        return "null";
    if (cJSON_IsBool(v))
        return "a boolean";
    return cJSON_IsObject(v) ? "an object" : "an array";
}

static enum pr_status read_obj(const struct pr_rows_objinfo *o, const cJSON *e,
                               char *row, const char *path, int lenient,
                               struct pr_error *err);

/* A JSON field's object whose keys are data (schema.def's MAP object
 * child: a kernel's PMU counters): each member of the type of the
 * object's one row (PR_K_ANY), else PR_E_FORMAT naming it
 * ("runs[0].kernels[3].pmu.aic_mac_ratio"). */
static enum pr_status
read_map(enum pr_schema_object child, const cJSON *v, const char *at,
         struct pr_error *err)
{
    struct pr_schema_objinfo info = pr_schema_object(child);
    const struct pr_schema_row *any = &pr_schema_rows[info.first];
    const cJSON *m;

    if (info.n == 0)
        return PR_OK;
    cJSON_ArrayForEach(m, v)
    {
        unsigned t = cJSON_IsNumber(m)   ? PR_ST_NUM
                     : cJSON_IsString(m) ? PR_ST_STR
                     : cJSON_IsNull(m)   ? PR_ST_NULL
                     : cJSON_IsBool(m)   ? PR_ST_BOOL
                     : cJSON_IsObject(m) ? PR_ST_OBJ
                                         : PR_ST_ARR;

        if (!(any->types & t))
            return pr_error_set(err, PR_E_FORMAT, "%s.%s: expected %s, got %s",
                                at, m->string,
                                any->types & PR_ST_NUM   ? "a number"
                                : any->types & PR_ST_STR ? "a string"
                                                         : "a value of its row",
                                json_type(m));
        if (t == PR_ST_NUM && !isfinite(m->valuedouble))
            return pr_error_set(err, PR_E_FORMAT,
                                "%s.%s: expected a finite number, got one "
                                "beyond 1e308",
                                at, m->string);
        if (t == PR_ST_NUM && (any->flags & PR_SF_NONNEG) && m->valuedouble < 0)
            return pr_error_set(err, PR_E_FORMAT,
                                "%s.%s: %g, but a time, count or size is "
                                "never negative: the summary was edited or "
                                "damaged",
                                at, m->string, m->valuedouble);
    }
    return PR_OK;
}

/* One field of one row from its value v; at: "path[i].key". */
static enum pr_status
read_field(const struct pr_rows_field *f, const cJSON *v, char *row,
           const char *at, struct pr_error *err)
{
    const struct pr_schema_row *r = &pr_schema_rows[f->row];
    char *p = row + f->offset;
    double d;
    int64_t i;

    if (v == NULL)
        /* "PATH.KEY: missing": contract.c's missing_at reads this form
           to tell an older summary's missing key from a damaged value
           (tests/cli/older_summary.sh) */
        return pr_error_set(err, PR_E_FORMAT, "%s: missing", at);
    if (f->type == PR_RT_SUB) {
        if (!cJSON_IsObject(v))
            return pr_error_set(err, PR_E_FORMAT,
                                "%s: expected an object, got %s", at,
                                json_type(v));
        return read_obj(pr_rows_object((enum pr_rows_object)f->sub), v, p, at,
                        0, err);
    }
    if (f->type == PR_RT_BOOL_NULL || f->type == PR_RT_BOOL) {
        int b = cJSON_IsTrue(v) ? 1 : cJSON_IsFalse(v) ? 0 : -1;
        if (b < 0 && !(f->type == PR_RT_BOOL_NULL && cJSON_IsNull(v) &&
                       (r->types & PR_ST_NULL)))
            return pr_error_set(err, PR_E_FORMAT,
                                "%s: expected a boolean, got %s", at,
                                json_type(v));
        memcpy(p, &b, sizeof(b));
        return PR_OK;
    }
    if (f->type == PR_RT_JSON) {
        /* an object or array, or a scalar of a row that allows several
           (a gpu_metrics device: a number or a string) */
        const cJSON *j = cJSON_IsNull(v) ? NULL : v;
        if (!(cJSON_IsNull(v)     ? r->types & PR_ST_NULL
              : cJSON_IsObject(v) ? r->types & PR_ST_OBJ
              : cJSON_IsArray(v)  ? r->types & PR_ST_ARR
              : cJSON_IsNumber(v) ? r->types & PR_ST_NUM
              : cJSON_IsString(v) ? r->types & PR_ST_STR
                                  : 0))
            return pr_error_set(err, PR_E_FORMAT, "%s: expected %s, got %s", at,
                                r->types & PR_ST_OBJ   ? "an object"
                                : r->types & PR_ST_ARR ? "an array"
                                                       : "a number or a string",
                                json_type(v));
        if (cJSON_IsObject(v) && r->child != PR_SO_NONE &&
            pr_schema_has_flag(r->child, PR_SF_MAP) &&
            read_map(r->child, v, at, err) != PR_OK)
            return PR_E_FORMAT;
        memcpy(p, &j, sizeof(j));
        return PR_OK;
    }
    if (f->type == PR_RT_STR) {
        const char *s = cJSON_IsString(v) ? v->valuestring : NULL;
        if (s == NULL && !(cJSON_IsNull(v) && (r->types & PR_ST_NULL)))
            return pr_error_set(err, PR_E_FORMAT,
                                "%s: expected a string, got %s", at,
                                json_type(v));
        memcpy(p, &s, sizeof(s));
        return PR_OK;
    }
    if (cJSON_IsNull(v) && f->type == PR_RT_NUM_NULL) {
        d = NAN;
        memcpy(p, &d, sizeof(d));
        return PR_OK;
    }
    /* a time the run could not measure (a kernel-replay capture's
       attribution, review 31 #1: its saved summary was refused) */
    if (cJSON_IsNull(v) && f->type == PR_RT_US && (r->types & PR_ST_NULL)) {
        i = PR_ROWS_US_NULL;
        memcpy(p, &i, sizeof(i));
        return PR_OK;
    }
    if (!cJSON_IsNumber(v))
        return pr_error_set(err, PR_E_FORMAT, "%s: expected a number%s, got %s",
                            at, f->type == PR_RT_NUM_NULL ? " or null" : "",
                            json_type(v));
    d = v->valuedouble;
    if (!isfinite(d))
        return pr_error_set(err, PR_E_FORMAT,
                            "%s: expected a finite number, got one beyond "
                            "1e308",
                            at);
    if ((r->flags & PR_SF_NONNEG) && d < 0)
        return pr_error_set(err, PR_E_FORMAT,
                            "%s: %g, but a time, count or size is never "
                            "negative: the summary was edited or damaged",
                            at, d);
    if (f->type == PR_RT_US) {
        if (d < -9.2e15 || d > 9.2e15)
            return pr_error_set(err, PR_E_FORMAT,
                                "%s: %g us, beyond what a trace spans", at, d);
        i = (int64_t)llround(d * 1000.0);
        memcpy(p, &i, sizeof(i));
        return PR_OK;
    }
    if (f->type != PR_RT_I64) {
        memcpy(p, &d, sizeof(d));
        return PR_OK;
    }
    if (d != floor(d) || d < -9.2e18 || d > 9.2e18)
        return pr_error_set(err, PR_E_FORMAT,
                            "%s: %g, but it counts whole units (bytes, calls)",
                            at, d);
    i = (int64_t)d;
    memcpy(p, &i, sizeof(i));
    return PR_OK;
}

/* The fields of one object e into row; path: e's ("ops[3]").  lenient:
 * any field may be missing (its bit set where there is a mask), for the
 * loader's check of the top and of runs, whose REQ keys the contract has
 * checked are there (a hand-made summary of a few tables passes it). */
static enum pr_status
read_obj(const struct pr_rows_objinfo *o, const cJSON *e, char *row,
         const char *path, int lenient, struct pr_error *err)
{
    char at[192];
    size_t k;

    memset(row, 0, o->size);
    for (k = 0; k < o->n_fields; k++) {
        const struct pr_rows_field *f = &o->fields[k];
        const char *key = pr_schema_rows[f->row].key;
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, key);
        uint64_t *m = mask_of(o, row);

        /* a field the writer may leave out (a rank form keeps only
           some columns): its bit says so */
        if (v == NULL && ((m != NULL && k < 64 &&
                           !(pr_schema_rows[f->row].flags & PR_SF_REQ)) ||
                          lenient)) {
            if (m != NULL && k < 64)
                *m |= (uint64_t)1 << k;
            continue;
        }
        snprintf(at, sizeof(at), "%s%s%s", path, *path ? "." : "", key);
        if (read_field(f, v, row, at, err) != PR_OK)
            return PR_E_FORMAT;
    }
    return PR_OK;
}

static enum pr_status
read_rows(const cJSON *arr, const char *path, enum pr_rows_object ro,
          void *rows, size_t cap, size_t *n, int lenient, struct pr_error *err)
{
    const struct pr_rows_objinfo *o = pr_rows_object(ro);
    const cJSON *e;
    size_t i = 0;
    char at[192];

    *n = 0;
    if (o == NULL)
        return pr_error_set(err, PR_E_FORMAT, "%s: no typed rows", path);
    if (!cJSON_IsArray(arr))
        return pr_error_set(err, PR_E_FORMAT, "%s: expected an array, got %s",
                            path, arr != NULL ? json_type(arr) : "nothing");
    if ((size_t)cJSON_GetArraySize(arr) > cap)
        return pr_error_set(err, PR_E_LIMIT,
                            "%s: %d rows, more than the %zu read", path,
                            cJSON_GetArraySize(arr), cap);
    cJSON_ArrayForEach(e, arr)
    {
        char *row = (char *)rows + i * o->size;
        if (!cJSON_IsObject(e))
            return pr_error_set(err, PR_E_FORMAT,
                                "%s[%zu]: expected an object, got %s", path, i,
                                json_type(e));
        snprintf(at, sizeof(at), "%s[%zu]", path, i);
        if (read_obj(o, e, row, at, lenient, err) != PR_OK)
            return PR_E_FORMAT;
        *n = ++i;
    }
    return PR_OK;
}

enum pr_status
pr_rows_read(const cJSON *arr, const char *path, enum pr_rows_object ro,
             void *rows, size_t cap, size_t *n, struct pr_error *err)
{
    return read_rows(arr, path, ro, rows, cap, n, 0, err);
}

enum pr_status
pr_rows_read_one(const cJSON *obj, const char *path, enum pr_rows_object ro,
                 void *row, struct pr_error *err)
{
    const struct pr_rows_objinfo *o = pr_rows_object(ro);

    if (o == NULL)
        return pr_error_set(err, PR_E_FORMAT, "%s: no typed rows", path);
    if (!cJSON_IsObject(obj))
        return pr_error_set(err, PR_E_FORMAT, "%s: expected an object, got %s",
                            path, obj != NULL ? json_type(obj) : "nothing");
    return read_obj(o, obj, row, path, 0, err);
}

enum pr_status
pr_rows_load(const cJSON *arr, const char *path, enum pr_rows_object ro,
             void **rows, size_t *n, struct pr_error *err)
{
    const struct pr_rows_objinfo *o = pr_rows_object(ro);
    size_t cap = cJSON_IsArray(arr) ? (size_t)cJSON_GetArraySize(arr) : 0;
    enum pr_status st;

    *rows = NULL;
    *n = 0;
    if (o == NULL)
        return pr_error_set(err, PR_E_FORMAT, "%s: no typed rows", path);
    if (arr == NULL || cJSON_IsNull(arr))
        return PR_OK;
    *rows = malloc((cap ? cap : 1) * o->size);
    if (*rows == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (%s)", path);
    st = pr_rows_read(arr, path, ro, *rows, cap, n, err);
    if (st != PR_OK) {
        free(*rows);
        *rows = NULL;
        *n = 0;
    }
    return st;
}

double
pr_rows_num(enum pr_rows_object ro, const void *row, const char *key)
{
    const struct pr_rows_objinfo *o = pr_rows_object(ro);
    size_t k;

    for (k = 0; o != NULL && k < o->n_fields; k++) {
        const struct pr_rows_field *f = &o->fields[k];
        const char *p = (const char *)row + f->offset;
        double d;
        int64_t i;

        if (strcmp(pr_schema_rows[f->row].key, key) != 0)
            continue;
        if (!pr_rows_has(ro, row, f->row))
            return NAN;
        switch (f->type) {
        case PR_RT_NUM:
        case PR_RT_NUM_NULL:
            memcpy(&d, p, sizeof(d));
            return d;
        case PR_RT_I64:
            memcpy(&i, p, sizeof(i));
            return (double)i;
        case PR_RT_US:
            memcpy(&i, p, sizeof(i));
            return i == PR_ROWS_US_NULL ? NAN : (double)i / 1000.0;
        default:
            return NAN;
        }
    }
    return NAN;
}

int
pr_rows_set_num(enum pr_rows_object ro, void *row, const char *key, double v)
{
    const struct pr_rows_objinfo *o = pr_rows_object(ro);
    uint64_t *m = o != NULL ? mask_of(o, row) : NULL;
    size_t k;

    for (k = 0; o != NULL && k < o->n_fields; k++) {
        const struct pr_rows_field *f = &o->fields[k];
        char *p = (char *)row + f->offset;
        int64_t i;

        if (strcmp(pr_schema_rows[f->row].key, key) != 0)
            continue;
        switch (f->type) {
        case PR_RT_NUM:
        case PR_RT_NUM_NULL:
            memcpy(p, &v, sizeof(v));
            break;
        case PR_RT_I64:
            i = isfinite(v) ? (int64_t)v : 0;
            memcpy(p, &i, sizeof(i));
            break;
        case PR_RT_US:
            i = isfinite(v) ? (int64_t)llround(v * 1000.0) : 0;
            memcpy(p, &i, sizeof(i));
            break;
        default:
            return 0;
        }
        if (m != NULL && k < 64)
            *m &= ~((uint64_t)1 << k);
        return 1;
    }
    return 0;
}

/* Read every array (table: 1) or single object (0) at the rest of a schema
 * path ("operators[]" after "runs[].memory.") below v into scratch rows;
 * at: v's path so far. */
static enum pr_status
check_at(const cJSON *v, const char *rest, char *at, size_t len, size_t cap,
         enum pr_rows_object ro, int table, struct pr_error *err)
{
    const char *dot = strchr(rest, '.'), *br = strstr(rest, "[]");
    size_t klen = (size_t)((br != NULL && (dot == NULL || br < dot)) ? br - rest
                           : dot != NULL ? dot - rest
                                         : (ptrdiff_t)strlen(rest));
    int arr = br != NULL && (size_t)(br - rest) == klen;
    const char *next = rest + klen + (arr ? 2 : 0);
    char key[64];
    const cJSON *c, *e;
    int w, i = 0;

    if (klen == 0 || klen >= sizeof(key))
        return PR_OK;
    memcpy(key, rest, klen);
    key[klen] = '\0';
    c = cJSON_GetObjectItemCaseSensitive(v, key);
    if (c == NULL || cJSON_IsNull(c))
        return PR_OK; /* absent tables are the contract's business */
    w = snprintf(at + len, cap - len, "%s%s", len ? "." : "", key);
    len = w < 0 || (size_t)w >= cap - len ? cap - 1 : len + (size_t)w;
    if (*next == '\0') { /* the table, or the single object, itself */
        const struct pr_rows_objinfo *o = pr_rows_object(ro);
        size_t n = table ? (size_t)cJSON_GetArraySize(c) : 1, got;
        void *rows = malloc((n ? n : 1) * o->size);
        enum pr_status st;
        int lenient = o->object == PR_SO_RUNS;
        if (rows == NULL)
            return pr_error_set(err, PR_E_NOMEM, "out of memory (%s)", at);
        st = table ? read_rows(c, at, ro, rows, n, &got, lenient, err)
                   : pr_rows_read_one(c, at, ro, rows, err);
        free(rows);
        return st;
    }
    if (*next == '.')
        next++;
    if (!arr)
        return check_at(c, next, at, len, cap, ro, table, err);
    cJSON_ArrayForEach(e, c)
    {
        size_t l2 = len;
        enum pr_status st;
        w = snprintf(at + len, cap - len, "[%d]", i++);
        l2 = w < 0 || (size_t)w >= cap - len ? cap - 1 : len + (size_t)w;
        st = check_at(e, next, at, l2, cap, ro, table, err);
        at[len] = '\0';
        if (st != PR_OK)
            return st;
    }
    return PR_OK;
}

/* Does a schema path lie at or below under ("runs[].copies" holds
 * "runs[].copies" and "runs[].copies.by_kind[]", not "runs[].copies2")?
 * NULL: every path. */
static int
path_under(const char *path, const char *under)
{
    size_t n = under != NULL ? strlen(under) : 0;

    return under == NULL ||
           (strncmp(path, under, n) == 0 &&
            (path[n] == '\0' || path[n] == '.' || path[n] == '['));
}

enum pr_status
pr_rows_check(const cJSON *doc, struct pr_error *err)
{
    return pr_rows_check_under(doc, NULL, err);
}

enum pr_status
pr_rows_check_under(const cJSON *doc, const char *under, struct pr_error *err)
{
    int ro;

    for (ro = 0; ro < PR_RO_N; ro++) {
        const struct pr_rows_objinfo *o = pr_rows_object(ro);
        struct pr_row_top top;
        const char *path = pr_schema_object(o->object).path;
        size_t plen = strlen(path);
        char at[192] = "", rest[160];
        int table = plen >= 2 && strcmp(path + plen - 2, "[]") == 0;
        enum pr_status st;

        if (!path_under(path, under))
            continue;

        /* the top itself: its keys' values named from the top ("job") */
        if (o->object == PR_SO_TOP) {
            if (!cJSON_IsObject(doc))
                return pr_error_set(err, PR_E_FORMAT, "not a JSON object");
            st = read_obj(o, doc, (char *)&top, "", 1, err);
            if (st != PR_OK)
                return st;
            continue;
        }
        /* a table's path without the last "[]"; a single object's whole */
        if (table)
            plen -= 2;
        if (plen == 0 || plen >= sizeof(rest))
            continue;
        memcpy(rest, path, plen);
        rest[plen] = '\0';
        st = check_at(doc, rest, at, 0, sizeof(at), ro, table, err);
        if (st != PR_OK)
            return st;
    }
    return PR_OK;
}

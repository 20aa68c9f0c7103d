/* contract.c - the summary contract (contract.h): the rows of the schema
 * (schema.def) flagged PR_SF_REQ, walked once. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "profreport/contract.h"
#include "profreport/keys.h"
#include "profreport/rows.h"
#include "profreport/schema.h"

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

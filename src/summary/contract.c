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

/* Is msg a key found missing (check_object's "missing key", the typed
 * rows' ": missing"), not a value of the wrong kind? */
static int
missing_msg(const char *msg)
{
    size_t n = strlen(msg);

    return strstr(msg, "missing key \"") != NULL ||
           (n >= 9 && strcmp(msg + n - 9, ": missing") == 0);
}

/* Is v, a part under row f of a run (run: 1) or of the summary (0),
 * whole for this build, checked on its own as the contract and the typed
 * rows check it in a summary? */
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

/* The parts of o (a run: run 1, or the summary: 0) that lack keys this
 * build writes: each left out (a key the contract asks for, whose value
 * may be null, made null), its key added to left (", "-separated);
 * returns how many, -1 on no memory. */
static int
drop_older_parts(cJSON *o, int run, char *left, size_t cap,
                 struct pr_error *err)
{
    struct pr_schema_objinfo obj =
        pr_schema_object(run ? PR_SO_RUNS : PR_SO_TOP);
    size_t i, len = strlen(left);
    int n = 0;

    for (i = obj.first; i < obj.first + obj.n; i++) {
        const struct pr_schema_row *f = &pr_schema_rows[i];
        cJSON *v = cJSON_GetObjectItemCaseSensitive(o, f->key), *nul;
        struct pr_error e = {PR_OK, ""};
        enum pr_status st;

        /* a key the contract asks for, never null, is no part to leave
           out; nor are the runs themselves */
        if (((f->flags & PR_SF_REQ) && !(f->types & PR_ST_NULL)) ||
            f->child == PR_SO_NONE || f->child == PR_SO_RUNS || v == NULL ||
            cJSON_IsNull(v))
            continue;
        st = part_check(v, f, run, &e);
        if (st == PR_E_NOMEM) {
            pr_error_set(err, st, "%s", e.msg);
            return -1;
        }
        if (st == PR_OK || !missing_msg(e.msg))
            continue; /* whole, or damaged: the contract check says so */
        if (!(f->flags & PR_SF_REQ)) {
            cJSON_DeleteItemFromObjectCaseSensitive(o, f->key);
        } else if ((nul = cJSON_CreateNull()) == NULL ||
                   !pr_sput(o, f->key, nul)) {
            cJSON_Delete(nul);
            pr_error_set(err, PR_E_NOMEM, "out of memory (summary)");
            return -1;
        }
        n++;
        if (len < cap) {
            int w = snprintf(left + len, cap - len, "%s%s", len ? ", " : "",
                             f->key);
            len = w < 0 ? cap : len + (size_t)w;
        }
    }
    return n;
}

/* A data-quality note on run: what was left out of it (run_parts) and of
 * the summary (top_parts, "" for none), and why. */
static int
note_older(cJSON *run, int n, const char *top_parts, const char *run_parts)
{
    cJSON *d = cJSON_GetObjectItemCaseSensitive(run, PR_K_DIAGNOSTICS);
    char text[1200];
    struct pr_row_diagnostic row;

    if (!cJSON_IsArray(d)) {
        cJSON_DeleteItemFromObjectCaseSensitive(run, PR_K_DIAGNOSTICS);
        d = cJSON_AddArrayToObject(run, PR_K_DIAGNOSTICS);
        if (d == NULL)
            return 0;
    }
    snprintf(text, sizeof(text),
             "The summary was written by an older profreport: %s%s%s%s%s %s "
             "keys this version reads, so %s left out of this report and "
             "of any diff (run profreport on the trace again for %s).",
             top_parts[0] ? "the summary's " : "", top_parts,
             top_parts[0] && run_parts[0] ? " and " : "",
             run_parts[0] ? (top_parts[0] ? "this run's " : "its ") : "",
             run_parts, n == 1 ? "lacks" : "lack",
             n == 1 ? "it is" : "they are", n == 1 ? "it" : "them");
    memset(&row, 0, sizeof(row));
    row.kind = "older_summary";
    row.count = n;
    row.text = text;
    return pr_rows_write(d, PR_RO_RUNS_DIAGNOSTICS, &row, 1);
}

enum pr_status
pr_contract_check_saved(cJSON *sum, struct pr_error *err)
{
    struct pr_error first = {PR_OK, ""};
    enum pr_status st = pr_contract_check(sum, &first);
    char top[256] = "";
    int n_top, first_run = 1;
    cJSON *run;

    if (st == PR_OK || !missing_msg(first.msg) || !cJSON_IsObject(sum)) {
        if (st != PR_OK)
            pr_error_set(err, st, "%s", first.msg);
        return st;
    }
    /* the summary's own parts (the job's distributed view ...): their
       note goes on the first run */
    n_top = drop_older_parts(sum, 0, top, sizeof(top), err);
    if (n_top < 0)
        return PR_E_NOMEM;
    cJSON_ArrayForEach(run, cJSON_GetObjectItemCaseSensitive(sum, PR_K_RUNS))
    {
        char left[512] = "";
        int n;

        if (!cJSON_IsObject(run))
            continue;
        n = drop_older_parts(run, 1, left, sizeof(left), err);
        if (n < 0)
            return PR_E_NOMEM;
        if (first_run)
            n += n_top;
        if (n > 0 && !note_older(run, n, first_run ? top : "", left))
            return pr_error_set(err, PR_E_NOMEM, "out of memory (summary)");
        first_run = 0;
    }
    /* what is still missing is a key every run has: refused, with its
       path, as before */
    return pr_contract_check(sum, err);
}

/* test_schema.c - the schema table (schema.h, schema.def) is well formed,
 * and the loader's contract (contract.c) is its PR_SF_REQ rows: a summary
 * made of those rows alone passes, and taking away any one of them, or
 * giving it a type its row does not allow, is refused with its path (the
 * order a run is written in is its row's: test_rows.c). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "profreport/contract.h"
#include "profreport/keys.h"
#include "profreport/schema.h"

static int
key_ok(const char *k)
{
    if (*k == '\0')
        return 0;
    for (; *k != '\0'; k++)
        if (!((*k >= 'a' && *k <= 'z') || (*k >= '0' && *k <= '9') ||
              *k == '_'))
            return 0;
    return 1;
}

/* Rows grouped by object in the enum's order, keys unique and spelled as
 * JSON keys, flags and children consistent. */
static void
test_rows(void **state)
{
    size_t i, j, seen = 0;

    (void)state;
    for (i = 0; i < PR_SR_N; i++) {
        const struct pr_schema_row *r = &pr_schema_rows[i];
        if (i > 0)
            assert_true(r->object >= pr_schema_rows[i - 1].object);
        assert_true(r->object < PR_SO_N);
        assert_non_null(r->doc);
        assert_true(r->types != 0);
        if (r->flags & PR_SF_MAP)
            assert_string_equal(r->key, PR_K_ANY);
        else if (!key_ok(r->key))
            fail_msg("row %zu: key \"%s\" is not a summary key", i, r->key);
        if (r->flags & PR_SF_NONNEG)
            assert_true((r->flags & PR_SF_REQ) && (r->types & PR_ST_NUM));
        /* the null an ALWAYS row gets when no pass wrote it is a value
           of its types */
        if (r->flags & PR_SF_ALWAYS)
            assert_true(r->types & PR_ST_NULL);
        if (r->child != PR_SO_NONE) {
            assert_true(r->types & (PR_ST_OBJ | PR_ST_ARR));
            assert_true(r->child < PR_SO_N);
        }
        /* a run's part says whether every run has it (its absence marks
           an older writer: contract.c) or only a run it applies to; a
           new part that says neither is caught here */
        if (r->object == PR_SO_RUNS && r->child != PR_SO_NONE &&
            !(r->flags & PR_SF_EVERY) == !(r->flags & PR_SF_WHERE))
            fail_msg("runs[].%s: a run's part is EVERY or WHERE (one of "
                     "them), schema.def",
                     r->key);
        /* EVERY also marks a run's key written on every run whose
           absence is a view an older writer lacks (world_size_source:
           the world size, review 21 #8); WHERE is for parts */
        if (((r->flags & PR_SF_EVERY) && r->object != PR_SO_RUNS) ||
            ((r->flags & PR_SF_WHERE) &&
             (r->object != PR_SO_RUNS || r->child == PR_SO_NONE)))
            fail_msg("%s.%s: EVERY is for a run's members, WHERE for its "
                     "parts",
                     pr_schema_object(r->object).path, r->key);
        /* a part the writer fills with null is on every run */
        if (r->object == PR_SO_RUNS && (r->flags & PR_SF_ALWAYS))
            assert_true(r->flags & PR_SF_EVERY);
        for (j = i + 1; j < PR_SR_N && pr_schema_rows[j].object == r->object;
             j++)
            if (strcmp(pr_schema_rows[j].key, r->key) == 0)
                fail_msg("object %s: key \"%s\" twice",
                         pr_schema_object(r->object).path, r->key);
    }
    for (i = 0; i < PR_SO_N; i++) {
        struct pr_schema_objinfo o = pr_schema_object((enum pr_schema_object)i);
        assert_true(o.n > 0);
        seen += o.n;
        if (i == PR_SO_TOP) {
            assert_int_equal(o.parent, PR_SO_NONE);
            continue;
        }
        /* the parent has a row leading here */
        for (j = 0; j < PR_SR_N; j++)
            if (pr_schema_rows[j].object == o.parent &&
                pr_schema_rows[j].child == (enum pr_schema_object)i)
                break;
        if (j == PR_SR_N)
            fail_msg("object %s: no row of its parent leads to it", o.path);
    }
    assert_int_equal(seen, PR_SR_N);
}

static void
test_find(void **state)
{
    const struct pr_schema_row *r;

    (void)state;
    r = pr_schema_find(PR_SO_RUNS_STEPS, PR_K_DURATION_US);
    assert_non_null(r);
    assert_ptr_equal(r, &pr_schema_rows[PR_SR_RUNS_STEPS_PR_K_DURATION_US]);
    assert_int_equal(r->unit, PR_SU_US);
    assert_true(r->flags & PR_SF_REQ);
    assert_null(pr_schema_find(PR_SO_RUNS_STEPS, "no_such_key"));
    assert_null(pr_schema_find(PR_SO_RUNS_STEPS, NULL));
    assert_string_equal(pr_schema_object(PR_SO_RUNS_STEPS).path,
                        "runs[].steps[]");
    assert_int_equal(pr_schema_object(PR_SO_N).n, 0);
}

/* A value of the row's first type; an object or array holds the required
 * rows of its child. */
static cJSON *minimal(const struct pr_schema_row *r);

static cJSON *
minimal_object(enum pr_schema_object object)
{
    struct pr_schema_objinfo o = pr_schema_object(object);
    cJSON *obj = cJSON_CreateObject();
    size_t i;

    for (i = o.first; obj != NULL && i < o.first + o.n; i++)
        if (pr_schema_rows[i].flags & PR_SF_REQ)
            cJSON_AddItemToObject(obj, pr_schema_rows[i].key,
                                  minimal(&pr_schema_rows[i]));
    return obj;
}

static cJSON *
minimal(const struct pr_schema_row *r)
{
    cJSON *a;

    if (r->object == PR_SO_TOOL && strcmp(r->key, PR_K_NAME) == 0)
        return cJSON_CreateString("profreport");
    if (r->object == PR_SO_TOP && strcmp(r->key, PR_K_SCHEMA_VERSION) == 0)
        return cJSON_CreateNumber(PR_CONTRACT_SCHEMA);
    if (r->types & PR_ST_NUM)
        return cJSON_CreateNumber(1);
    if (r->types & PR_ST_STR)
        return cJSON_CreateString("x");
    if (r->types & PR_ST_OBJ)
        return r->child != PR_SO_NONE ? minimal_object(r->child)
                                      : cJSON_CreateObject();
    if (r->types & PR_ST_ARR) {
        a = cJSON_CreateArray();
        if (r->child != PR_SO_NONE)
            cJSON_AddItemToArray(a, minimal_object(r->child));
        return a;
    }
    return r->types & PR_ST_BOOL ? cJSON_CreateFalse() : cJSON_CreateNull();
}

/* The object of doc at the path of object (its arrays' first elements). */
static cJSON *
at(cJSON *doc, enum pr_schema_object object)
{
    struct pr_schema_objinfo o = pr_schema_object(object);
    const struct pr_schema_row *lead = NULL;
    cJSON *up, *v;
    size_t j;

    if (object == PR_SO_TOP)
        return doc;
    for (j = 0; j < PR_SR_N && lead == NULL; j++)
        if (pr_schema_rows[j].object == o.parent &&
            pr_schema_rows[j].child == object)
            lead = &pr_schema_rows[j];
    up = at(doc, o.parent);
    v = cJSON_GetObjectItemCaseSensitive(up, lead->key);
    return cJSON_IsArray(v) ? cJSON_GetArrayItem(v, 0) : v;
}

/* The minimal summary with row r's value made a boolean (bad) or taken
 * away; 0 when no object of it is in the minimal summary. */
static int
check_without(const struct pr_schema_row *r, int bad, struct pr_error *err)
{
    struct pr_schema_row top = {PR_SO_NONE, "",        PR_ST_OBJ, PR_SU_NONE,
                                PR_SF_REQ,  PR_SO_TOP, ""};
    cJSON *doc = minimal(&top), *o = at(doc, r->object);
    int st = -1;

    pr_error_clear(err); /* pr_error_set keeps a first error */
    if (o != NULL) {
        cJSON_DeleteItemFromObjectCaseSensitive(o, r->key);
        if (bad)
            cJSON_AddItemToObject(o, r->key, cJSON_CreateTrue());
        st = (int)pr_contract_check(doc, err);
    }
    cJSON_Delete(doc);
    return st;
}

static void
test_contract_is_the_req_rows(void **state)
{
    struct pr_schema_row top = {PR_SO_NONE, "",        PR_ST_OBJ, PR_SU_NONE,
                                PR_SF_REQ,  PR_SO_TOP, ""};
    struct pr_error err;
    cJSON *doc = minimal(&top);
    size_t i, checked = 0;
    char want[160];

    (void)state;
    assert_non_null(doc);
    pr_error_clear(&err);
    if (pr_contract_check(doc, &err) != PR_OK)
        fail_msg("the required rows alone are refused: %s", err.msg);
    cJSON_Delete(doc);
    for (i = 0; i < PR_SR_N; i++) {
        const struct pr_schema_row *r = &pr_schema_rows[i];
        const char *path = pr_schema_object(r->object).path;
        int st;

        if (!(r->flags & PR_SF_REQ))
            continue;
        st = check_without(r, 0, &err);
        if (st < 0)
            continue; /* an object only an optional row leads to */
        snprintf(want, sizeof(want), "missing key \"%s\"", r->key);
        if (st != PR_E_FORMAT || strstr(err.msg, want) == NULL)
            fail_msg("%s.%s missing (%d): \"%s\"", path, r->key, st,
                     st == PR_OK ? "accepted" : err.msg);
        if (!(r->types & PR_ST_BOOL)) {
            st = check_without(r, 1, &err);
            snprintf(want, sizeof(want), "%s: expected", r->key);
            if (st != PR_E_FORMAT || strstr(err.msg, want) == NULL)
                fail_msg("%s.%s as a boolean: \"%s\"", path, r->key,
                         st == PR_OK ? "accepted" : err.msg);
        }
        checked++;
    }
    /* the spec's required keys reach every object the contract read
       before the schema: top, tool, runs, steps, breakdowns, step summary,
       GPU metrics, operators, by shape, kernels, tensor cores, memory */
    assert_true(checked >= 60);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_contract_is_the_req_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

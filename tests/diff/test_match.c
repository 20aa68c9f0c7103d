/* test_match.c - matching operator / kernel tables by name and by name +
 * shapes: ranks summed, per-step division, new and vanished rows, total
 * order. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/diff_match.h"

static const char base_run0[] =
    "[{\"name\":\"aten::mm\",\"calls\":4,\"device_self_us\":400,"
    "\"input_shapes\":\"[[8, 8]]\"},"
    "{\"name\":\"aten::add\",\"calls\":2,\"device_self_us\":null},"
    "{\"name\":\"aten::relu\",\"calls\":2,\"device_self_us\":20},"
    "{\"calls\":1,\"device_self_us\":5}]";
static const char base_run1[] =
    "[{\"name\":\"aten::mm\",\"calls\":4,\"device_self_us\":200,"
    "\"input_shapes\":\"[[16, 8]]\"}]";
static const char cur_run0[] =
    "[{\"name\":\"aten::mm\",\"calls\":8,\"device_self_us\":900,"
    "\"input_shapes\":\"[[8, 8]]\"},"
    "{\"name\":\"aten::softmax\",\"calls\":2,\"device_self_us\":50}]";

struct fixture {
    cJSON *b0, *b1, *c0;
};

static int
setup(void **state)
{
    static struct fixture f;

    f.b0 = cJSON_Parse(base_run0);
    f.b1 = cJSON_Parse(base_run1);
    f.c0 = cJSON_Parse(cur_run0);
    *state = &f;
    return f.b0 && f.b1 && f.c0 ? 0 : -1;
}

static int
teardown(void **state)
{
    struct fixture *f = *state;

    cJSON_Delete(f->b0);
    cJSON_Delete(f->b1);
    cJSON_Delete(f->c0);
    return 0;
}

static const struct pr_match_row *
find(const struct pr_match_table *t, const char *name, const char *shapes)
{
    size_t i;

    for (i = 0; i < t->n; i++) {
        const struct pr_match_row *r = &t->rows[i];
        if (strcmp(r->name, name) == 0 &&
            (shapes == NULL ? r->shapes == NULL
                            : r->shapes && strcmp(r->shapes, shapes) == 0))
            return r;
    }
    return NULL;
}

static void
test_by_name(void **state)
{
    struct fixture *f = *state;
    const cJSON *bt[] = {f->b0, f->b1}, *ct[] = {f->c0};
    struct pr_match_side b = {bt, 2, 2.0}, c = {ct, 1, 2.0};
    struct pr_match_table t;
    const struct pr_match_row *r;
    struct pr_error err;
    size_t i;

    pr_error_clear(&err);
    assert_int_equal(pr_match_tables(&b, &c, "device_self_us", 0, &t, &err),
                     PR_OK);
    assert_int_equal(t.n, 4); /* add, mm, relu, softmax; nameless skipped */
    for (i = 1; i < t.n; i++)
        assert_true(strcmp(t.rows[i - 1].name, t.rows[i].name) < 0);
    r = find(&t, "aten::mm", NULL);
    assert_non_null(r); /* both ranks summed, then per step */
    assert_true(r->in_base && r->in_cur);
    assert_true(r->base == 300.0 && r->cur == 450.0);
    assert_true(r->calls_base == 4.0 && r->calls_cur == 4.0);
    r = find(&t, "aten::softmax", NULL);
    assert_true(r != NULL && !r->in_base && r->in_cur && r->base == 0);
    r = find(&t, "aten::relu", NULL);
    assert_true(r != NULL && r->in_base && !r->in_cur && r->cur == 0);
    r = find(&t, "aten::add", NULL); /* null device time counts 0 */
    assert_true(r != NULL && r->base == 0);
    pr_match_free(&t);
    pr_match_free(&t); /* idempotent */
}

static void
test_by_shape(void **state)
{
    struct fixture *f = *state;
    const cJSON *bt[] = {f->b0, f->b1}, *ct[] = {f->c0};
    struct pr_match_side b = {bt, 2, 1.0}, c = {ct, 1, 1.0};
    struct pr_match_table t;
    const struct pr_match_row *r;
    struct pr_error err;

    pr_error_clear(&err);
    assert_int_equal(pr_match_tables(&b, &c, "device_self_us", 1, &t, &err),
                     PR_OK);
    r = find(&t, "aten::mm", "[[8, 8]]");
    assert_true(r != NULL && r->base == 400 && r->cur == 900);
    r = find(&t, "aten::mm", "[[16, 8]]");
    assert_true(r != NULL && r->in_base && !r->in_cur);
    pr_match_free(&t);
}

static void
test_bad_divisor(void **state)
{
    struct pr_match_side b = {NULL, 0, 0.0}, c = {NULL, 0, 1.0};
    struct pr_match_table t;
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(pr_match_tables(&b, &c, "total_us", 0, &t, &err),
                     PR_E_USAGE);
    assert_non_null(strstr(err.msg, "divisor"));
}

/* Folded one run's table at a time, each freed once added: the same
 * rows, number for number, as the tables matched whole; the sums keep
 * the order the rows came in (a first -0 stays -0), and the rows' names
 * outlive the tables. */
static void
test_fold(void **state)
{
    struct fixture *f = *state;
    const cJSON *bt[] = {f->b0, f->b1}, *ct[] = {f->c0};
    struct pr_match_side b = {bt, 2, 3.0}, c = {ct, 1, 3.0};
    struct pr_match_fold *fb = pr_match_fold_new("name", "device_self_us", 1);
    struct pr_match_fold *fc = pr_match_fold_new("name", "device_self_us", 1);
    struct pr_match_table t, u;
    struct pr_error err;
    const struct pr_match_row *r;
    cJSON *tab;
    size_t i;

    pr_error_clear(&err);
    assert_true(fb != NULL && fc != NULL);
    for (i = 0; i < 2; i++) {
        tab = cJSON_Duplicate(bt[i], 1);
        assert_int_equal(pr_match_fold_add(fb, tab, &err), PR_OK);
        cJSON_Delete(tab);
    }
    tab = cJSON_Parse("[{\"name\":\"neg\",\"device_self_us\":-0.0}]");
    assert_int_equal(pr_match_fold_add(fc, tab, &err), PR_OK);
    cJSON_Delete(tab);
    assert_int_equal(pr_match_fold_add(fc, ct[0], &err), PR_OK);
    assert_int_equal(pr_match_fold_add(fc, NULL, &err), PR_OK);
    assert_int_equal(pr_match_folds(fb, 3.0, fc, 3.0, &t, &err), PR_OK);
    assert_int_equal(pr_match_tables(&b, &c, "device_self_us", 1, &u, &err),
                     PR_OK);
    assert_int_equal(t.n, u.n + 1); /* and "neg" */
    r = find(&t, "neg", NULL);
    assert_true(r != NULL && r->cur == 0 && signbit(r->cur));
    for (i = 0; i < u.n; i++) {
        r = find(&t, u.rows[i].name, u.rows[i].shapes);
        assert_non_null(r);
        assert_memory_equal(&r->base, &u.rows[i].base, sizeof(r->base));
        assert_memory_equal(&r->calls_base, &u.rows[i].calls_base,
                            sizeof(r->calls_base));
        assert_true(r->in_base == u.rows[i].in_base);
    }
    pr_match_free(&t);
    pr_match_free(&u);
    assert_int_equal(pr_match_folds(fb, 0.0, fc, 3.0, &t, &err), PR_E_USAGE);
    pr_match_fold_free(fb);
    pr_match_fold_free(fc);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_by_name),
        cmocka_unit_test(test_by_shape),
        cmocka_unit_test(test_bad_divisor),
        cmocka_unit_test(test_fold),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}

/* test_pmu.c - the trace's table of per-task PMU counters (pmu.h): the
 * first reader's columns make it, a later reader maps its own names onto
 * them, a task's rows (a database's counters come one a row, by counter)
 * end as one, and lookups find a task's values or nothing. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/pmu.h"
#include "profreport/trace.h"

static void
test_columns(void **state)
{
    static const char *const first[] = {"aic_mac_ratio", "aicore_time(us)"};
    static const char *const later[] = {"aicore_time(us)", "aiv_vec_ratio",
                                        "aic_mac_ratio"};
    struct pr_trace *t = pr_trace_new();
    int idx[3];

    (void)state;
    assert_non_null(t);
    assert_int_equal(pr_pmu_map(t, first, 0, idx), 0);
    assert_null(t->pmu); /* no names, no table */
    assert_int_equal(pr_pmu_map(t, first, 2, idx), 2);
    assert_int_equal(idx[0], 0);
    assert_int_equal(idx[1], 1);
    assert_int_equal(pr_pmu_set_cols(t, later, 3), 0); /* the first stands */
    assert_int_equal(t->pmu->n_cols, 2);
    assert_int_equal(pr_pmu_map(t, later, 3, idx), 2);
    assert_int_equal(idx[0], 1);
    assert_int_equal(idx[1], -1);
    assert_int_equal(idx[2], 0);
    assert_string_equal(pr_trace_str(t, t->pmu->cols[1]), "aicore_time(us)");
    pr_trace_free(t);
}

static void
test_rows(void **state)
{
    static const char *const cols[] = {"a", "b", "c"};
    struct pr_trace *t = pr_trace_new();
    const float *v;
    float *r;

    (void)state;
    assert_null(pr_pmu_row(t, 1)); /* no table */
    assert_int_equal(pr_pmu_set_cols(t, cols, 3), 1);
    /* task 7's counters in two goes, task 2's between them */
    r = pr_pmu_row(t, 7);
    assert_true(isnan(r[0]) && isnan(r[1]) && isnan(r[2]));
    r[0] = 1.5f;
    r[2] = 1;
    assert_ptr_equal(pr_pmu_row(t, 7), r); /* the same task: its row */
    pr_pmu_row(t, 2)[1] = 4;
    r = pr_pmu_row(t, 7);
    r[1] = 2;
    r[2] = 3;
    assert_null(pr_pmu_get(t, 7)); /* not finished */
    pr_pmu_finish(t);
    assert_int_equal(t->pmu->n_rows, 2);
    v = pr_pmu_get(t, 7);
    assert_non_null(v);
    assert_true(v[0] == 1.5f && v[1] == 2 && v[2] == 3); /* c: the larger */
    v = pr_pmu_get(t, 2);
    assert_true(isnan(v[0]) && v[1] == 4 && isnan(v[2]));
    assert_null(pr_pmu_get(t, 3));
    assert_null(pr_pmu_get(t, 9));
    pr_pmu_row(t, 1)[0] = 8; /* a later reader's row */
    assert_null(pr_pmu_get(t, 1));
    pr_pmu_finish(t);
    assert_true(pr_pmu_get(t, 1)[0] == 8);
    assert_true(pr_pmu_get(t, 7)[0] == 1.5f);
    pr_trace_free(t);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_columns),
        cmocka_unit_test(test_rows),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

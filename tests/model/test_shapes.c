/* test_shapes.c - operator inputs in the model: dtype names, the parsers
 * of the recorded texts on hostile input, and the table that keeps each
 * distinct text parsed once (what comes back out equals a fresh parse,
 * failures keep their status). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/shapes.h"

static void
test_dtypes(void **state)
{
    static const struct {
        const char *s;
        enum pr_dtype dt;
        int size;
    } cases[] = {
        {"float", PR_DT_FP32, 4},
        {"double", PR_DT_FP64, 8},
        {"c10::Half", PR_DT_FP16, 2},
        {"c10::BFloat16", PR_DT_BF16, 2},
        {"c10::Float8_e4m3fn", PR_DT_FP8, 1},
        {"c10::Float8_e5m2", PR_DT_FP8, 1},
        {"signed char", PR_DT_INT8, 1},
        {"unsigned char", PR_DT_UINT8, 1},
        {"long int", PR_DT_INT64, 8},
        {"int", PR_DT_INT32, 4},
        {"short int", PR_DT_INT16, 2},
        {"bool", PR_DT_BOOL, 1},
        {"c10::complex<float>", PR_DT_C64, 8},
        {"Scalar", PR_DT_NONE, 0},
        {"GenericList", PR_DT_NONE, 0},
        {"", PR_DT_NONE, 0},
        {"weird", PR_DT_UNKNOWN, 0},
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        enum pr_dtype dt = pr_dtype_of(cases[i].s, strlen(cases[i].s));

        assert_int_equal(dt, cases[i].dt);
        assert_int_equal(pr_dtype_size(dt), cases[i].size);
    }
    assert_string_equal(pr_dtype_name(PR_DT_BF16), "bf16");
    assert_string_equal(pr_dtype_name(PR_DT_TF32), "tf32");
    assert_string_equal(pr_dtype_name((enum pr_dtype)99), "unknown");
}

static void
test_parsers_hostile(void **state)
{
    static struct pr_shape_list sh;
    static struct pr_concrete_list ci;
    static struct pr_dtype_list ty;
    struct pr_error err = {PR_OK, ""};
    char many[512];
    size_t i, n = 0;

    (void)state;
    assert_int_equal(
        pr_shapes_parse_dims(" [ [1 ,2],[] , [[3], [4, 5]]] ", &sh, &err),
        PR_OK);
    assert_int_equal(sh.n, 3);
    assert_int_equal(sh.arg[0].numel, 2);
    assert_int_equal(sh.arg[1].ndim, 0);
    assert_true(sh.arg[2].is_list);
    assert_int_equal(sh.arg[2].n_members, 2);
    assert_int_equal(sh.arg[2].numel, 3 + 20);
    pr_error_clear(&err);
    assert_int_equal(pr_shapes_parse_dims("[[[[1]]]]", &sh, &err), PR_E_LIMIT);
    pr_error_clear(&err);
    assert_int_equal(
        pr_shapes_parse_dims("[[9223372036854775807, 2]]", &sh, &err),
        PR_E_LIMIT);
    assert_non_null(strstr(err.msg, "overflow"));
    pr_error_clear(&err);
    assert_int_equal(
        pr_shapes_parse_dims("[[99999999999999999999]]", &sh, &err),
        PR_E_LIMIT);
    pr_error_clear(&err);
    assert_int_equal(
        pr_shapes_parse_dims("[[1, 2, 3, 4, 5, 6, 7, 8, 9]]", &sh, &err),
        PR_E_LIMIT);
    pr_error_clear(&err);
    assert_int_equal(pr_shapes_parse_dims("[[1, -2]]", &sh, &err), PR_E_FORMAT);
    pr_error_clear(&err);
    assert_int_equal(pr_shapes_parse_dims("[[1, 2]", &sh, &err), PR_E_FORMAT);
    pr_error_clear(&err);
    assert_int_equal(pr_shapes_parse_types("['float', 'c10::Half'", &ty, &err),
                     PR_E_FORMAT);
    n += (size_t)snprintf(many, sizeof(many), "[a");
    for (i = 1; i <= PR_SHAPE_MAX_ARGS; i++)
        n += (size_t)snprintf(many + n, sizeof(many) - n, ", a");
    snprintf(many + n, sizeof(many) - n, "]");
    pr_error_clear(&err);
    assert_int_equal(pr_shapes_parse_types(many, &ty, &err), PR_E_LIMIT);
    pr_error_clear(&err);
    assert_int_equal(pr_shapes_parse_concrete("[\"[1, 2]\", \"-3\", \"True\", "
                                              "\"0.5\", \"x\\\"y\"]",
                                              &ci, &err),
                     PR_OK);
    assert_int_equal(ci.n, 5);
    assert_int_equal(ci.arg[0].kind, PR_CI_LIST);
    assert_int_equal(ci.arg[1].v[0], -3);
    assert_int_equal(ci.arg[2].kind, PR_CI_BOOL);
    assert_int_equal(ci.arg[3].kind, PR_CI_FLOAT);
    assert_int_equal(ci.arg[4].kind, PR_CI_NONE);
    pr_error_clear(&err);
    assert_int_equal(pr_shapes_parse_concrete("[\"unterminated", &ci, &err),
                     PR_E_FORMAT);
}

static uint32_t
str(struct pr_trace *t, const char *s)
{
    uint32_t id = pr_strtab_intern(t->strs, s, strlen(s));

    assert_true(id != PR_STR_NONE);
    return id;
}

static void
same_shapes(const struct pr_shape_list *a, const struct pr_shape_list *b)
{
    size_t i;

    assert_int_equal(a->n, b->n);
    for (i = 0; i < a->n; i++) {
        assert_int_equal(a->arg[i].ndim, b->arg[i].ndim);
        assert_int_equal(a->arg[i].is_list, b->arg[i].is_list);
        assert_int_equal(a->arg[i].n_members, b->arg[i].n_members);
        assert_int_equal(a->arg[i].numel, b->arg[i].numel);
        assert_memory_equal(a->arg[i].dims, b->arg[i].dims,
                            (size_t)a->arg[i].ndim * sizeof(int64_t));
    }
}

/* What the table gives back equals what the parsers make of the text. */
static void
test_table_round_trip(void **state)
{
    static const char dims[] = "[[64, 512], [], [[3, 4], [5]], [7, 1, 2]]";
    static const char types[] = "['float', '', 'TensorList', 'c10::Half']";
    static const char conc[] = "[\"\", \"[1, 2]\", \"True\", \"0.25\"]";
    static struct pr_op_inputs a, b;
    struct pr_trace *t = pr_trace_new();
    uint32_t d, ty, c;

    (void)state;
    assert_non_null(t);
    d = str(t, dims);
    ty = str(t, types);
    c = str(t, conc);
    assert_false(pr_shapes_noted(t, PR_SHAPES_DIMS, d));
    assert_int_equal(pr_shapes_note(t, PR_SHAPES_DIMS, d), PR_OK);
    assert_int_equal(pr_shapes_note(t, PR_SHAPES_TYPES, ty), PR_OK);
    assert_int_equal(pr_shapes_note(t, PR_SHAPES_CONCRETE, c), PR_OK);
    assert_int_equal(pr_shapes_note(t, PR_SHAPES_DIMS, d), PR_OK); /* again */
    assert_int_equal(pr_shapes_note(t, PR_SHAPES_DIMS, PR_STR_NONE), PR_OK);
    assert_true(pr_shapes_noted(t, PR_SHAPES_DIMS, d));
    /* the same id as another kind of text is another entry */
    assert_false(pr_shapes_noted(t, PR_SHAPES_TYPES, d));
    pr_shapes_get(t, d, ty, c, &a);
    pr_shapes_get_text(NULL, dims, types, conc, &b);
    assert_int_equal(a.st, PR_OK);
    assert_int_equal(b.st, PR_OK);
    assert_true(a.has_shapes && a.has_types && a.has_concrete);
    assert_int_equal(a.shapes.n, 4);
    same_shapes(&a.shapes, &b.shapes);
    assert_true(a.shapes.arg[2].is_list);
    assert_int_equal(a.shapes.arg[3].dims[2], 2);
    assert_int_equal(a.types.n, 4);
    assert_memory_equal(a.types.t, b.types.t, 4 * sizeof(a.types.t[0]));
    assert_int_equal(a.types.t[3], PR_DT_FP16);
    assert_int_equal(a.concrete.n, 4);
    assert_memory_equal(&a.concrete.arg, &b.concrete.arg,
                        4 * sizeof(a.concrete.arg[0]));
    /* texts the trace holds come from its table; others are parsed */
    pr_shapes_get_text(t, dims, NULL, "[\"3\"]", &b);
    assert_int_equal(b.st, PR_OK);
    assert_false(b.has_types);
    assert_int_equal(b.shapes.arg[2].numel, 12 + 5);
    assert_int_equal(b.concrete.arg[0].v[0], 3);
    pr_trace_free(t);
}

static void
test_table_failures(void **state)
{
    static struct pr_op_inputs in;
    struct pr_trace *t = pr_trace_new();
    uint32_t bad = str(t, "[[1, 2]"),
             big = str(t, "[[1, 2, 3, 4, 5, 6, 7, 8, 9]]");
    uint32_t ok = str(t, "[[2]]"), types = str(t, "[float");

    (void)state;
    assert_int_equal(pr_shapes_note(t, PR_SHAPES_DIMS, bad), PR_OK);
    assert_int_equal(pr_shapes_note(t, PR_SHAPES_DIMS, big), PR_OK);
    assert_int_equal(pr_shapes_note(t, PR_SHAPES_TYPES, types), PR_OK);
    pr_shapes_get(t, bad, PR_STR_NONE, PR_STR_NONE, &in);
    assert_int_equal(in.st, PR_E_FORMAT);
    pr_shapes_get(t, big, PR_STR_NONE, PR_STR_NONE, &in);
    assert_int_equal(in.st, PR_E_LIMIT);
    /* the first failing text wins, in the order dims, types, concrete */
    pr_shapes_get(t, ok, types, PR_STR_NONE, &in);
    assert_int_equal(in.st, PR_E_FORMAT);
    /* nothing recorded: nothing to fail */
    pr_shapes_get(t, PR_STR_NONE, PR_STR_NONE, PR_STR_NONE, &in);
    assert_int_equal(in.st, PR_OK);
    assert_false(in.has_shapes || in.has_types || in.has_concrete);
    /* a text nobody noted is parsed on the spot */
    pr_shapes_get(t, ok, PR_STR_NONE, PR_STR_NONE, &in);
    assert_int_equal(in.st, PR_OK);
    assert_int_equal(in.shapes.arg[0].dims[0], 2);
    pr_trace_free(t);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dtypes),
        cmocka_unit_test(test_parsers_hostile),
        cmocka_unit_test(test_table_round_trip),
        cmocka_unit_test(test_table_failures),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

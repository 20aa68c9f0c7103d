/* test_flops.c - FLOP and byte formulas (flops-and-formats §1.2/§1.4): the
 * cases, with their arithmetic, are data in tests/analysis/flops.txt, one a
 * line.  Inputs are written as the trace records them and parsed as the
 * model does (shapes.h; its parsers are tested in tests/model/
 * test_shapes.c). */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cases.h"
#include "profreport/flops.h"

enum {
    F_NAME,
    F_OP,
    F_DIMS,
    F_TYPES,
    F_CONCRETE,
    F_FLOPS,
    F_BYTES,
    F_CHECKS,
    F_N
};

/* A text field: "-" is "not recorded". */
static const char *
text(const char *f)
{
    return strcmp(f, "-") == 0 ? NULL : f;
}

/* An expected value: "*" not checked (returns 0), "unknown" is -1. */
static int
expected(const struct tcase *c, const char *f, double *want)
{
    char *end;

    if (strcmp(f, "*") == 0)
        return 0;
    if (strcmp(f, "unknown") == 0) {
        *want = -1.0;
        return 1;
    }
    *want = strtod(f, &end);
    if (end == f || *end != '\0')
        fail_msg("line %d (%s): bad number '%s'", c->lineno, c->f[F_NAME], f);
    return 1;
}

static void
near(const struct tcase *c, const char *what, double got, double want)
{
    double tol = 1e-9 * (fabs(want) > 1 ? fabs(want) : 1);

    if (fabs(got - want) > tol)
        fail_msg("line %d (%s): %s %.17g, want %.17g", c->lineno, c->f[F_NAME],
                 what, got, want);
}

static const char *const class_names[] = {
    [PR_OPC_OTHER] = "other",       [PR_OPC_GEMM] = "gemm",
    [PR_OPC_GEMV] = "gemv",         [PR_OPC_CONV] = "conv",
    [PR_OPC_CONV_BWD] = "conv_bwd", [PR_OPC_ATTENTION] = "attention",
    [PR_OPC_MEMORY] = "memory",
};

/* The value the estimate gave for check key k, as text. */
static void
actual(const struct pr_op_cost *o, enum pr_status st, const char *k, char *buf,
       size_t n)
{
    const struct {
        const char *key;
        int64_t v;
    } ints[] = {{"m", o->m},           {"n", o->n},
                {"k", o->k},           {"batch", o->batch},
                {"conv_c", o->conv_c}, {"conv_k", o->conv_k},
                {"groups", o->groups}, {"from_trace", o->flops_from_trace}};

    for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
        if (strcmp(k, ints[i].key) == 0) {
            snprintf(buf, n, "%lld", (long long)ints[i].v);
            return;
        }
    if (strcmp(k, "class") == 0)
        snprintf(buf, n, "%s", class_names[o->cls]);
    else if (strcmp(k, "dtype") == 0)
        snprintf(buf, n, "%s", pr_dtype_name(o->dtype));
    else if (strcmp(k, "family") == 0)
        snprintf(buf, n, "%s", o->family != NULL ? o->family : "-");
    else if (strcmp(k, "status") == 0)
        snprintf(buf, n, "%s",
                 st == PR_OK         ? "ok"
                 : st == PR_E_FORMAT ? "format"
                                     : "other");
    else
        snprintf(buf, n, "?unknown check key");
}

/* The trace's own "flops" arg from the checks ("trace=N"), else -1. */
static double
trace_flops(const char *checks)
{
    const char *p = strstr(checks, "trace=");

    return p != NULL && (p == checks || p[-1] == ' ') ? strtod(p + 6, NULL)
                                                      : -1.0;
}

static void
run_checks(const struct tcase *c, const struct pr_op_cost *o, enum pr_status st)
{
    char list[CASE_LINE], got[128], *save = NULL;
    int saw_status = 0;

    snprintf(list, sizeof(list), "%s", c->f[F_CHECKS]);
    for (char *kv = strtok_r(list, " ", &save); kv != NULL;
         kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '=');

        if (eq == NULL)
            fail_msg("line %d: check '%s' is not key=value", c->lineno, kv);
        *eq = '\0';
        if (strcmp(kv, "trace") == 0)
            continue;
        saw_status |= strcmp(kv, "status") == 0;
        actual(o, st, kv, got, sizeof(got));
        if (strcmp(got, eq + 1) != 0)
            fail_msg("line %d (%s): %s=%s, want %s", c->lineno, c->f[F_NAME],
                     kv, got, eq + 1);
    }
    if (!saw_status && st != PR_OK)
        fail_msg("line %d (%s): status %d", c->lineno, c->f[F_NAME], (int)st);
}

static void
test_formula_cases(void **state)
{
    FILE *f = cases_open("tests/analysis/flops.txt");
    static struct tcase c;
    int n = 0;

    (void)state;
    while (cases_next(f, &c, F_N)) {
        static struct pr_op_inputs in;
        struct pr_op_call call = {c.f[F_OP], &in, trace_flops(c.f[F_CHECKS]),
                                  0};
        struct pr_error err = {PR_OK, ""};
        struct pr_op_cost o;
        enum pr_status st;
        double want;

        pr_shapes_get_text(NULL, text(c.f[F_DIMS]), text(c.f[F_TYPES]),
                           text(c.f[F_CONCRETE]), &in);
        st = pr_flops_estimate(&call, &o, &err);
        if (expected(&c, c.f[F_FLOPS], &want))
            near(&c, "flops", o.flops, want);
        if (expected(&c, c.f[F_BYTES], &want))
            near(&c, "bytes", o.bytes, want);
        run_checks(&c, &o, st);
        n++;
    }
    fclose(f);
    print_message("# %d formula cases\n", n);
    assert_true(n >= 50);
}

/* Nothing recorded at all is unknown, not an error, and the name still
 * names the family. */
static void
test_no_inputs(void **state)
{
    struct pr_op_cost c;
    struct pr_op_call none = {"aten::mm", NULL, -1.0, 0};
    struct pr_error err = {PR_OK, ""};

    (void)state;
    assert_int_equal(pr_flops_estimate(&none, &c, &err), PR_OK);
    assert_true(c.flops == -1.0);
    assert_string_equal(c.family, "gemm");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formula_cases),
        cmocka_unit_test(test_no_inputs),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

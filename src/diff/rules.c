/* rules.c - parse `--fail-on` rules (diff_rules.h).  The comparator is the
 * LAST '<' or '>' in the rule because kernel names are C++ templates full
 * of angle brackets: "kernel:void f<128>>+20%" splits before "+20%". */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/diff_rules.h"
#include "profreport/parse.h"

struct unit_name {
    const char *suffix;
    enum pr_rule_unit unit;
    double scale;
};

static const struct unit_name units[] = {
    {"%", PR_RULE_PCT, 1.0},
    {"pp", PR_RULE_PP, 1.0},
    {"us", PR_RULE_US, 1.0},
    {"ms", PR_RULE_US, 1e3},
    {"s", PR_RULE_US, 1e6},
    {"B", PR_RULE_BYTES, 1.0},
    {"KiB", PR_RULE_BYTES, 1024.0},
    {"MiB", PR_RULE_BYTES, 1048576.0},
    {"GiB", PR_RULE_BYTES, 1073741824.0},
    {"KB", PR_RULE_BYTES, 1e3},
    {"MB", PR_RULE_BYTES, 1e6},
    {"GB", PR_RULE_BYTES, 1e9},
};

/* Named metrics and the absolute unit each accepts besides %. */
struct metric_name {
    const char *name;
    enum pr_rule_unit abs_unit;
};

static const struct metric_name metrics[] = {
    {"step.mean", PR_RULE_US},
    {"step.median", PR_RULE_US},
    {"step.p90", PR_RULE_US},
    {"breakdown.kernel", PR_RULE_US},
    {"breakdown.memcpy", PR_RULE_US},
    {"breakdown.memset", PR_RULE_US},
    {"breakdown.communication", PR_RULE_US},
    {"breakdown.runtime", PR_RULE_US},
    {"breakdown.dataloader", PR_RULE_US},
    {"breakdown.cpu_exec", PR_RULE_US},
    {"breakdown.other", PR_RULE_US},
    {"memory.peak", PR_RULE_BYTES},
    {"gpu.utilization", PR_RULE_PP},
    {"gpu.sm_efficiency", PR_RULE_PP},
    {"gpu.occupancy", PR_RULE_PP},
    {"tc.share", PR_RULE_PP},
    {"rate.kernels", PR_RULE_PCT}, /* captures without steps: per second */
    {"rate.gemm", PR_RULE_PCT},
    {"rate.op", PR_RULE_PCT},
};

struct prefix_name {
    const char *prefix;
    enum pr_rule_kind kind;
};

static const struct prefix_name prefixes[] = {
    {"op:", PR_RULE_OP},
    {"shape:", PR_RULE_SHAPE},
    {"kernel:", PR_RULE_KERNEL},
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

void
pr_rule_free(struct pr_rule *r)
{
    if (r == NULL)
        return;
    free(r->text);
    free(r->name);
    r->text = NULL;
    r->name = NULL;
}

enum pr_status
pr_rule_list_add(struct pr_rule **rules, size_t *n, const char *text,
                 struct pr_error *err)
{
    struct pr_rule *nr = realloc(*rules, (*n + 1) * sizeof(*nr));

    if (nr == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    *rules = nr;
    if (pr_rule_parse(text, &nr[*n], err) != PR_OK)
        return err->code;
    (*n)++;
    return PR_OK;
}

void
pr_rule_list_free(struct pr_rule *rules, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        pr_rule_free(&rules[i]);
    free(rules);
}

const char *
pr_rule_unit_str(enum pr_rule_unit u)
{
    switch (u) {
    case PR_RULE_PCT:
        return "%";
    case PR_RULE_US:
        return "us";
    case PR_RULE_BYTES:
        return "B";
    case PR_RULE_PP:
        return "pp";
    }
    return "?";
}

int
pr_rule_crossed(const struct pr_rule *r, double delta)
{
    if (isnan(delta))
        return 0;
    return r->greater ? delta > r->limit : delta < r->limit;
}

static char *
dup_range(const char *s, size_t n)
{
    char *p = malloc(n + 1);

    if (p != NULL) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

/* Narrow [*s, *s + *n) to exclude blanks at both ends: "step.mean > +3%"
 * is how people write a rule, and a stray blank must not become part of an
 * operator name that then matches nothing. */
static void
trim(const char **s, size_t *n)
{
    while (*n > 0 && isspace((unsigned char)**s)) {
        (*s)++;
        (*n)--;
    }
    while (*n > 0 && isspace((unsigned char)(*s)[*n - 1]))
        (*n)--;
}

/* "+3.5%" -> 3.5 PR_RULE_PCT; "256MiB" -> 268435456 PR_RULE_BYTES.  The
 * number is plain decimal (parse.h): no hexadecimal "0x10", "inf" or
 * "nan", and a limit that overflows with its unit ("1e308GiB") fails. */
static enum pr_status
parse_change(const char *s, double *value, enum pr_rule_unit *unit,
             const char *rule, struct pr_error *err)
{
    size_t n = pr_parse_decimal_len(s), i;
    double v;

    if (n == 0 || !pr_parse_decimal_n(s, n, &v))
        return pr_error_set(err, PR_E_USAGE,
                            "bad rule \"%s\": change \"%s\""
                            " is not a number",
                            rule, s);
    for (i = 0; i < N_OF(units); i++) {
        if (strcmp(s + n, units[i].suffix) != 0)
            continue;
        *value = v * units[i].scale;
        *unit = units[i].unit;
        if (!isfinite(*value))
            return pr_error_set(err, PR_E_USAGE,
                                "bad rule \"%s\": change "
                                "\"%s\" is out of range",
                                rule, s);
        return PR_OK;
    }
    return pr_error_set(err, PR_E_USAGE,
                        "bad rule \"%s\": unknown unit "
                        "\"%s\" (use %%, us, ms, s, B, KiB, MiB, GiB, KB, MB,"
                        " GB or pp)",
                        rule, s[n] ? s + n : "(none)");
}

/* Fill kind/name/wildcard from the left-hand side and check that the
 * metric accepts the unit. */
static enum pr_status
parse_metric(const char *lhs, size_t n, enum pr_rule_unit unit,
             struct pr_rule *out, const char *rule, struct pr_error *err)
{
    const char *name;
    size_t i, plen, n_name;

    for (i = 0; i < N_OF(prefixes); i++) {
        plen = strlen(prefixes[i].prefix);
        if (n < plen || strncmp(lhs, prefixes[i].prefix, plen) != 0)
            continue;
        name = lhs + plen;
        n_name = n - plen;
        trim(&name, &n_name);
        if (n_name == 0)
            return pr_error_set(err, PR_E_USAGE,
                                "bad rule \"%s\": no name "
                                "after \"%s\"",
                                rule, prefixes[i].prefix);
        if (unit != PR_RULE_PCT && unit != PR_RULE_US)
            return pr_error_set(err, PR_E_USAGE,
                                "bad rule \"%s\": device "
                                "time takes %% or a time unit",
                                rule);
        out->kind = prefixes[i].kind;
        out->name = dup_range(name, n_name);
        if (out->name == NULL)
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
        out->wildcard = strpbrk(out->name, "*?[") != NULL;
        return PR_OK;
    }
    for (i = 0; i < N_OF(metrics); i++) {
        if (strlen(metrics[i].name) != n || strncmp(lhs, metrics[i].name, n))
            continue;
        if (unit != PR_RULE_PCT && unit != metrics[i].abs_unit)
            return pr_error_set(err, PR_E_USAGE,
                                "bad rule \"%s\": %s takes "
                                "%%%s%s",
                                rule, metrics[i].name,
                                metrics[i].abs_unit == PR_RULE_PCT ? ""
                                                                   : " or ",
                                metrics[i].abs_unit == PR_RULE_PCT
                                    ? ""
                                    : pr_rule_unit_str(metrics[i].abs_unit));
        out->kind = PR_RULE_METRIC;
        out->name = dup_range(lhs, n);
        if (out->name == NULL)
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
        return PR_OK;
    }
    return pr_error_set(err, PR_E_USAGE,
                        "bad rule \"%s\": unknown metric "
                        "\"%.*s\"",
                        rule, (int)(n > 64 ? 64 : n), lhs);
}

enum pr_status
pr_rule_parse(const char *text, struct pr_rule *out, struct pr_error *err)
{
    const char *gt, *lt, *cmp, *lhs = text, *rhs;
    size_t n_lhs, n_rhs;
    char *change;
    enum pr_status st;

    memset(out, 0, sizeof(*out));
    gt = strrchr(text, '>');
    lt = strrchr(text, '<');
    cmp = gt;
    if (lt != NULL && (gt == NULL || lt > gt))
        cmp = lt;
    n_lhs = cmp != NULL ? (size_t)(cmp - text) : 0;
    trim(&lhs, &n_lhs);
    if (cmp == NULL || n_lhs == 0)
        return pr_error_set(err, PR_E_USAGE,
                            "bad rule \"%s\": expected "
                            "METRIC>CHANGE or METRIC<CHANGE",
                            text);
    out->greater = *cmp == '>';
    rhs = cmp + 1;
    n_rhs = strlen(rhs);
    trim(&rhs, &n_rhs);
    change = dup_range(rhs, n_rhs);
    if (change == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    st = parse_change(change, &out->limit, &out->unit, text, err);
    free(change);
    if (st == PR_OK)
        st = parse_metric(lhs, n_lhs, out->unit, out, text, err);
    if (st == PR_OK) {
        out->text = dup_range(text, strlen(text));
        if (out->text == NULL)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    if (st != PR_OK)
        pr_rule_free(out);
    return st;
}

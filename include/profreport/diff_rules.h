/* diff_rules.h - the grammar of `profreport diff --fail-on RULE`, parsed
 * into a struct the gate code evaluates.  A malformed rule is a usage
 * error (exit 1) with a message that names the rule and the problem; the
 * caller shows PR_RULE_GRAMMAR under it. */
#ifndef PROFREPORT_DIFF_RULES_H
#define PROFREPORT_DIFF_RULES_H

#include <stddef.h>

#include "profreport/error.h"

#define PR_RULE_GRAMMAR                                                        \
    "rule grammar:  METRIC CMP CHANGE\n"                                       \
    "  METRIC  step.mean | step.median | step.p90 | breakdown.CATEGORY\n"      \
    "          (kernel memcpy memset communication runtime dataloader\n"       \
    "          cpu_exec other) | memory.peak | gpu.utilization |\n"            \
    "          gpu.sm_efficiency | gpu.occupancy | tc.share |\n"               \
    "          rate.kernels | rate.gemm | rate.op (captures without\n"         \
    "          steps: kernels, GEMM kernel calls, the most frequent\n"         \
    "          operator's calls per second of windows within 10%; %)\n"        \
    "          op:NAME | shape:NAME | kernel:NAME\n"                           \
    "          (NAME is exact or a glob: op:* = any one operator;\n"           \
    "          gpu.* and tc.share are device-neutral ids: on an Ascend\n"      \
    "          NPU, its utilization and the Cube share)\n"                     \
    "  CMP     >  (grew by more than)   <  (shrank by more than)\n"            \
    "  CHANGE  [+|-]NUMBER UNIT, UNIT one of\n"                                \
    "          %              relative change (any metric)\n"                  \
    "          us ms s        time (step, breakdown, op, shape, kernel)\n"     \
    "          B KiB MiB GiB KB MB GB   bytes (memory.peak)\n"                 \
    "          pp             percentage points (gpu.*, tc.share)\n"           \
    "  e.g. step.mean>+3%  memory.peak>+256MiB  op:aten::mm>+10%\n"            \
    "       kernel:*>+20%  gpu.utilization<-5pp  rate.kernels<-5%\n"

enum pr_rule_kind {
    PR_RULE_METRIC = 0, /* a named figure of each run: step.mean, ... */
    PR_RULE_OP,         /* operators matched by name */
    PR_RULE_SHAPE,      /* operators matched by name + input shapes */
    PR_RULE_KERNEL      /* kernels matched by name */
};

enum pr_rule_unit {
    PR_RULE_PCT = 0, /* relative change in percent */
    PR_RULE_US,      /* absolute change in microseconds */
    PR_RULE_BYTES,   /* absolute change in bytes */
    PR_RULE_PP       /* absolute change in percentage points */
};

struct pr_rule {
    char *text; /* owned: the rule as written */
    enum pr_rule_kind kind;
    char *name;   /* owned: metric name ("step.mean") or the
                     operator / kernel name or glob */
    int wildcard; /* name holds * ? or [ (glob, fnmatch) */
    int greater;  /* 1 for '>', 0 for '<' */
    double limit; /* signed, in `unit` (MiB etc. converted) */
    enum pr_rule_unit unit;
};

/* Parse one rule.  On success `out` owns its strings (pr_rule_free).
 * Errors: PR_E_USAGE with `bad rule "TEXT": why`, PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_rule_parse(const char *text, struct pr_rule *out,
                                          struct pr_error *err);

/* Release the strings of a parsed rule; accepts NULL and zeroed rules. */
void pr_rule_free(struct pr_rule *r);

/* Parse `text` (a --fail-on value) onto the owned array *rules of *n.
 * Errors: PR_E_NOMEM, and those of pr_rule_parse. */
PR_NODISCARD enum pr_status pr_rule_list_add(struct pr_rule **rules, size_t *n,
                                             const char *text,
                                             struct pr_error *err);

/* Free n rules and their array; accepts NULL. */
void pr_rule_list_free(struct pr_rule *rules, size_t n);

/* Does a change of `delta` (in the rule's unit; NAN = not applicable)
 * cross the rule's limit?  Cannot fail. */
int pr_rule_crossed(const struct pr_rule *r, double delta);

/* Short unit suffix for reports: "%", "us", "B" or "pp". */
const char *pr_rule_unit_str(enum pr_rule_unit u);

#endif

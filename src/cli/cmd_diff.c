/* cmd_diff.c - `profreport diff`: its options and usage; the run itself
 * is pr_diff_run (src/diff/diff.c). */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/args.h"
#include "profreport/cmd.h"
#include "profreport/diff.h"
#include "profreport/escape.h"
#include "profreport/keys.h"
#include "profreport/parse.h"
#include "profreport/sget.h"
#include "profreport/sink.h"

static const char usage[] =
    "Usage: profreport diff --baseline B --input C [options]\n"
    "       profreport diff [options] B C\n"
    "Compare a run against a baseline and gate on regressions.\n"
    "B and C are trace files, run folders, or summary JSON files written\n"
    "by `profreport --json` (each option may repeat for several traces).\n"
    "\n"
    "  -b, --baseline PATH   the reference run\n"
    "  -i, --input PATH      the run to judge\n"
    "      --fail-on RULE    a gate (repeatable), beside the default gate\n"
    "                        step.mean>+T%\n"
    "      --threshold PCT   T of the default gate (default 5)\n"
    "      --no-default-gate only the --fail-on rules gate\n"
    "      --max-input SIZE  refuse inputs larger than this, saved\n"
    "                        summaries too (default: half the memory)\n"
    "      --alpha P         significance level of the noise test (0.05)\n"
    "      --min-share PCT   glob rules skip rows under PCT% of the step\n"
    "                        time (default 1)\n"
    "      --strict          a --fail-on rule that matches no figure is a\n"
    "                        usage error (default: skipped, with a warning)\n"
    "      --top N           rows per table in reports (default 15)\n"
    "      --json FILE       the comparison for machines\n"
    "      --markdown FILE   a CI job summary (Markdown)\n"
    "      --format FMT      standard output, when no report file is asked\n"
    "                        for: text (the terminal's tables, as `table`\n"
    "                        prints them; the default) or md (Markdown)\n"
    "      --junit FILE      JUnit XML, one test per gate\n"
    "      --html FILE       self-contained HTML report\n"
    "      --pdf FILE        PDF report\n"
    "  -q, --quiet           no progress or gate lines on stderr\n"
    "  -h, --help            this text\n"
    "  -V, --version         print the version\n"
    "\n"
    "Gates: the default gate on the mean step time stays on beside the\n"
    "--fail-on rules (--no-default-gate drops it), and a step-time change\n"
    "trips a gate only when it crosses the limit and the noise test says\n"
    "it is not step-to-step noise.  A gate that compared nothing is\n"
    "skipped; when every gate is, the verdict is INCONCLUSIVE, not a pass.\n"
    "\n"
    "Exit status: 0 no gate tripped, 1 usage or malformed rule (or, under\n"
    "--strict, a rule that matches no figure), 2 bad input, 3 a gate\n"
    "tripped, 4 inconclusive: no gate compared anything.\n\n" PR_RULE_GRAMMAR;

enum {
    OPT_ALPHA = PR_GOPT_OWN,
    OPT_MIN_SHARE,
    OPT_TOP,
    OPT_JUNIT,
    OPT_STRICT,
    OPT_FORMAT
};

static const struct option long_opts[] = {
    {"baseline", required_argument, NULL, 'b'},
    {"input", required_argument, NULL, 'i'},
    {"alpha", required_argument, NULL, OPT_ALPHA},
    {"min-share", required_argument, NULL, OPT_MIN_SHARE},
    {"top", required_argument, NULL, OPT_TOP},
    {"junit", required_argument, NULL, OPT_JUNIT},
    {"strict", no_argument, NULL, OPT_STRICT},
    {"format", required_argument, NULL, OPT_FORMAT},
    PR_GATE_LONG_OPTIONS};

/* inputs an output is compared with (more are not checked) */
#define PR_DIFF_MAX_INPUTS 64

struct diff_args {
    const char **base, **cur; /* owned arrays of borrowed argv strings */
    size_t n_base, n_cur;
    struct pr_gate_args g;
    struct pr_diff_job job; /* what they describe, once parsed */
};

static void
args_free(struct diff_args *a)
{
    pr_gate_args_free(&a->g);
    free(a->base);
    free(a->cur);
}

/* A number option in [lo, hi]. */
static enum pr_status
number(const char *opt, const char *s, double lo, double hi, double *out,
       struct pr_error *err)
{
    if (!pr_parse_double(s, lo, hi, out))
        return pr_error_set(err, PR_E_USAGE,
                            "--%s: expected a number from "
                            "%g to %g, got \"%s\"",
                            opt, lo, hi, s);
    return PR_OK;
}

/* The options only diff has (pr_gate_own_fn). */
static enum pr_status
one_option(void *ctx, int c, const char *arg, struct pr_error *err)
{
    struct diff_args *a = ctx;
    int64_t top;

    switch (c) {
    case 'b':
        return pr_args_push(&a->base, &a->n_base, arg, err);
    case 'i':
        return pr_args_push(&a->cur, &a->n_cur, arg, err);
    case OPT_ALPHA:
        return number("alpha", arg, 1e-9, 0.5, &a->g.job.opts.alpha, err);
    case OPT_MIN_SHARE:
        if (!pr_parse_pct(arg, 0, 100, &a->g.job.opts.min_share_pct))
            return pr_error_set(err, PR_E_USAGE,
                                "--min-share: expected a percentage from 0 "
                                "to 100 (1 or 1%%), got \"%s\"",
                                arg);
        return PR_OK;
    case OPT_TOP:
        if (!pr_parse_int64(arg, 1, 100000, &top))
            return pr_error_set(err, PR_E_USAGE,
                                "--top: expected a whole "
                                "number from 1 to 100000, got \"%s\"",
                                arg);
        a->g.job.opts.top = (size_t)top;
        return PR_OK;
    case OPT_JUNIT:
        a->job.junit = arg;
        return PR_OK;
    case OPT_STRICT:
        a->g.job.opts.strict = 1;
        return PR_OK;
    case OPT_FORMAT:
        return pr_args_stdout_format(arg, &a->job.stdout_md, err);
    }
    return pr_error_set(err, PR_E_USAGE, "diff: unknown option");
}

static enum pr_status
outputs_distinct(const struct diff_args *a, struct pr_error *err)
{
    const struct pr_gate_job *g = &a->g.job;
    const char *paths[] = {g->json, g->markdown, a->job.junit, g->html, g->pdf};
    const char *names[] = {"--json", "--markdown", "--junit", "--html",
                           "--pdf"};

    const char *ins[PR_DIFF_MAX_INPUTS];
    size_t n = 0, i;

    for (i = 0; i < a->n_base && n < PR_DIFF_MAX_INPUTS; i++)
        ins[n++] = a->base[i];
    for (i = 0; i < a->n_cur && n < PR_DIFF_MAX_INPUTS; i++)
        ins[n++] = a->cur[i];
    return pr_outputs_check(paths, names, 5, ins, n, err);
}

static enum pr_status
parse_args(int argc, char **argv, struct diff_args *a, struct pr_error *err)
{
    const struct pr_gate_args *g = &a->g;
    enum pr_status st;

    memset(a, 0, sizeof(*a));
    st = pr_gate_args_parse(argc, argv, "diff", "b:i:qhV", long_opts,
                            one_option, a, &a->g, err);
    if (st != PR_OK || g->help || g->version)
        return st;
    /* `profreport diff BASE CUR`, as users type it after `git diff` */
    if (a->n_base == 0 && a->n_cur == 0 && argc - optind == 2) {
        st = pr_args_push(&a->base, &a->n_base, argv[optind], err);
        if (st == PR_OK)
            st = pr_args_push(&a->cur, &a->n_cur, argv[optind + 1], err);
        if (st != PR_OK)
            return st;
        optind = argc;
    }
    if (optind < argc)
        return pr_error_set(err, PR_E_USAGE,
                            "diff: unexpected argument "
                            "\"%s\" (give the baseline and the run as "
                            "BASE CUR, or with --baseline and --input)",
                            argv[optind]);
    if (a->n_base == 0 || a->n_cur == 0)
        return pr_error_set(err, PR_E_USAGE,
                            "diff: needs --baseline and "
                            "--input");
    a->job.base = a->base;
    a->job.cur = a->cur;
    a->job.n_base = a->n_base;
    a->job.n_cur = a->n_cur;
    a->job.gate = g->job;
    return outputs_distinct(a, err);
}

static void
print_gates(const cJSON *diff)
{
    const cJSON *g;

    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(diff, "gates"))
    {
        pr_term_printf(stderr, "diff: %s %s: %s\n", pr_sget_str(g, "result"),
                       pr_sget_str(g, PR_K_RULE), pr_sget_str(g, "detail"));
    }
}

/* What a reader of the gate lines could miss: rules that looked at
 * nothing, and runs that vanished or are new (issue #15). */
static void
print_warnings(const cJSON *diff)
{
    const cJSON *g, *um = pr_sget(diff, "runs_unmatched"), *w;

    cJSON_ArrayForEach(g, pr_sget(diff, "gates"))
    {
        if (cJSON_IsFalse(pr_sget(g, "matched")) &&
            !cJSON_IsTrue(pr_sget(g, "default")))
            pr_term_printf(
                stderr,
                "profreport: warning: --fail-on '%s' matches no figure "
                "of these runs: skipped (--strict makes it an error)\n",
                pr_sget_str(g, PR_K_RULE));
    }
    cJSON_ArrayForEach(w, pr_sget(um, "baseline"))
    {
        pr_term_printf(
            stderr,
            "profreport: warning: run '%s' of the baseline vanished: "
            "no run of the current side pairs with it\n",
            cJSON_IsString(w) ? w->valuestring : "?");
    }
    cJSON_ArrayForEach(w, pr_sget(um, "current"))
    {
        pr_term_printf(stderr,
                       "profreport: warning: run '%s' is new: no run of the "
                       "baseline pairs with it\n",
                       cJSON_IsString(w) ? w->valuestring : "?");
    }
    cJSON_ArrayForEach(
        w, pr_sget(pr_sget(diff, "comparability"), "older_summaries"))
    {
        pr_term_printf(stderr, "profreport: warning: %s\n",
                       cJSON_IsString(w) ? w->valuestring : "?");
    }
    cJSON_ArrayForEach(w, pr_sget(pr_sget(diff, "comparability"), "warnings"))
    {
        pr_term_printf(stderr, "profreport: warning: %s\n",
                       cJSON_IsString(w) ? w->valuestring : "?");
    }
}

static enum pr_status
run(int argc, char **argv, struct pr_cmd_ctl *ctl, struct pr_error *err)
{
    struct diff_args a;
    cJSON *diff = NULL;
    size_t n_failed = 0;
    enum pr_status st = parse_args(argc, argv, &a, err);

    if (st == PR_OK && !pr_gate_args_done(&a.g, ctl))
        st = pr_diff_run(&a.job, &diff, &n_failed, err);
    if (st == PR_OK && !a.g.job.quiet && diff != NULL) {
        print_gates(diff);
        print_warnings(diff);
    }
    if (st == PR_OK && n_failed > 0)
        st = pr_error_set(err, PR_E_REGRESSION, "diff: %zu gate%s tripped",
                          n_failed, n_failed == 1 ? "" : "s");
    else if (st == PR_OK &&
             pr_sget_is(pr_sget_str(diff, PR_K_VERDICT), "inconclusive"))
        st = pr_error_set(err, PR_E_INCONCLUSIVE,
                          "diff: inconclusive: no gate compared anything "
                          "(each was skipped; see the gate lines)");
    cJSON_Delete(diff);
    args_free(&a);
    return st;
}

const struct pr_cmd pr_cmd_diff = {
    "diff",       "compare a run with a baseline and gate on regressions",
    usage,        run,
    pr_gate_hint, NULL};

/* diff.c - a whole `profreport diff` run (diff.h): load both sides,
 * compare, gate, and write the reports, committed together.  The command
 * line is src/cli/cmd_diff.c's. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/diff.h"
#include "profreport/merge.h"
#include "profreport/sink.h"

typedef enum pr_status (*render_fn)(const cJSON *diff, size_t top,
                                    struct pr_buf *out, struct pr_error *err);

static enum pr_status
junit_fn(const cJSON *diff, size_t top, struct pr_buf *out,
         struct pr_error *err)
{
    (void)top;
    return pr_diff_junit(diff, out, err);
}

static enum pr_status
json_fn(const cJSON *diff, size_t top, struct pr_buf *out, struct pr_error *err)
{
    char *text = cJSON_Print(diff);
    enum pr_status st;

    (void)top;
    if (text == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    st = pr_buf_adds(out, text);
    if (st == PR_OK)
        st = pr_buf_addc(out, '\n');
    cJSON_free(text);
    return st == PR_OK ? st : pr_error_set(err, st, "json: out of memory");
}

/* Render one report into a new staging file of the set. */
static enum pr_status
stage_report(struct pr_outputs *set, const char *path, render_fn fn,
             const cJSON *diff, size_t top, struct pr_error *err)
{
    struct pr_buf b;
    const char *tmp;
    enum pr_status st;

    if (path == NULL)
        return PR_OK;
    st = pr_outputs_stage(set, path, &tmp, err);
    if (st != PR_OK)
        return st;
    pr_buf_init(&b, 0);
    st = fn(diff, top, &b, err);
    if (st == PR_OK)
        st = pr_outputs_fill(tmp, path, b.data ? b.data : "", b.len, err);
    pr_buf_free(&b);
    return st;
}

/* Every report, committed together: all of them or none. */
static enum pr_status
write_reports(const struct pr_diff_job *a, const cJSON *diff,
              struct pr_error *err)
{
    int none = !a->gate.json && !a->gate.markdown && !a->junit &&
               !a->gate.html && !a->gate.pdf;
    size_t top = a->gate.opts.top;
    struct pr_outputs set;
    const char *tmp;
    enum pr_status st;

    pr_outputs_init(&set);
    st = stage_report(&set, a->gate.json, json_fn, diff, top, err);
    if (st == PR_OK)
        st = stage_report(&set, a->gate.markdown, pr_diff_markdown, diff, top,
                          err);
    if (st == PR_OK && none) /* standard output: the terminal's, or md */
        st = stage_report(&set, "-",
                          a->stdout_md ? pr_diff_markdown : pr_diff_text, diff,
                          top, err);
    if (st == PR_OK)
        st = stage_report(&set, a->junit, junit_fn, diff, top, err);
    if (st == PR_OK)
        st = stage_report(&set, a->gate.html, pr_diff_html, diff, top, err);
    if (st == PR_OK && a->gate.pdf != NULL) {
        st = pr_outputs_stage(&set, a->gate.pdf, &tmp, err);
        if (st == PR_OK)
            st = pr_diff_pdf(diff, top, tmp, err);
    }
    if (st == PR_OK)
        st = pr_outputs_commit(&set, err);
    pr_outputs_free(&set);
    return st;
}

/* One side: several rank summaries stay lite runs of *m (merge.h), read
 * whole again a pair at a time by the comparison (issue #17). */
static enum pr_status
load_side(const char *const *paths, size_t n, const struct pr_gate_job *g,
          cJSON **out, struct pr_merge **m, struct pr_error *err)
{
    enum pr_status st =
        pr_dload_summary(paths, n, g->quiet, g->max_input, out, m, err);

    if (st != PR_OK && (st == PR_E_USAGE))
        err->code = st = PR_E_FORMAT; /* input problems are exit 2 */
    return st;
}

enum pr_status
pr_diff_run(const struct pr_diff_job *a, cJSON **out, size_t *n_failed,
            struct pr_error *err)
{
    cJSON *base = NULL, *cur = NULL, *diff = NULL;
    struct pr_merge *mb = NULL, *mc = NULL;
    char lb[256], lc[256];
    enum pr_status st;

    *out = NULL;
    *n_failed = 0;
    st = load_side(a->base, a->n_base, &a->gate, &base, &mb, err);
    if (st == PR_OK)
        st = load_side(a->cur, a->n_cur, &a->gate, &cur, &mc, err);
    snprintf(lb, sizeof(lb), "%s%s", pr_dbasename(a->base[0]),
             a->n_base > 1 ? " (+more)" : "");
    snprintf(lc, sizeof(lc), "%s%s", pr_dbasename(a->cur[0]),
             a->n_cur > 1 ? " (+more)" : "");
    if (st == PR_OK)
        st = pr_diff_compare_merged(base, mb, cur, mc, lb, lc, &a->gate.opts,
                                    &diff, err);
    if (st == PR_OK)
        st = pr_diff_gate(diff, a->gate.rules, a->gate.n_rules, &a->gate.opts,
                          n_failed, err);
    if (st == PR_OK && a->gate.opts.strict)
        st = pr_diff_strict_check(diff, "diff", err);
    if (st == PR_OK)
        st = write_reports(a, diff, err);
    cJSON_Delete(base);
    cJSON_Delete(cur);
    pr_merge_free(mb);
    pr_merge_free(mc);
    if (st != PR_OK) {
        cJSON_Delete(diff);
        return st;
    }
    *out = diff;
    return PR_OK;
}

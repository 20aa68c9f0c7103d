/* report_text.c - the diff and the trend on a terminal (standard output
 * when no report file is asked for): the Markdown report's parts in its
 * order (a diff's verdict, comparability, gates, per-run figures, change
 * lists, method; a trend's verdict, unreadable nights and nights), its
 * tables laid out by the terminal tables of `profreport table`
 * (pr_table_render_cells: the same widths, alignment and name shortening)
 * and its prose wrapped to the terminal's width. */
#include "config.h"

#include <string.h>

#include "internal.h"
#include "profreport/diff.h"
#include "profreport/sget.h"
#include "profreport/shorten.h"
#include "profreport/table.h"
#include "profreport/trend.h"

struct text {
    struct pr_buf *b;
    size_t width; /* the terminal's (pr_table_term_width) */
};

/* s in lines of at most `width` code points, broken at spaces (a longer
 * word alone on its line). */
static void
wrap(struct pr_buf *b, const char *s, size_t width)
{
    char line[2048];

    while (*s != '\0' && !b->failed) {
        size_t len = strlen(s), end = len, i;

        if (pr_shorten_width(s) > width) {
            for (i = 0, end = 0; i < len && i < sizeof(line); i++) {
                if (s[i] != ' ')
                    continue;
                memcpy(line, s, i);
                line[i] = '\0';
                if (pr_shorten_width(line) > width)
                    break;
                end = i;
            }
            if (end == 0)
                end = strcspn(s, " ");
        }
        if (pr_buf_printf(b, "%.*s\n", (int)end, s) != PR_OK)
            b->failed = 1;
        s += end;
        while (*s == ' ')
            s++;
    }
}

/* s wrapped to the terminal (wrap), then a blank line. */
static void
para(struct text *t, const char *s)
{
    wrap(t->b, s, t->width);
    pr_dadd(t->b, "\n");
}

/* A heading: its text underlined. */
static void
heading(struct pr_buf *b, const char *s)
{
    size_t n = pr_shorten_width(s);

    pr_dadd(b, s);
    pr_dadd(b, "\n");
    while (n-- > 0)
        pr_dadd(b, "-");
    pr_dadd(b, "\n");
}

static void
unmatched(void *ctx, const struct pr_dunmatched *u)
{
    struct text *t = ctx;
    char s[1024];

    snprintf(s, sizeof(s), "%s %s run %s %s; not compared.", u->lead,
             u->side_name, u->run, u->what);
    para(t, s);
}

static void
compat_line(void *ctx, const char *lead, const char *text)
{
    struct text *t = ctx;
    struct pr_buf s;

    pr_buf_init(&s, 0);
    if (pr_buf_printf(&s, "%s %s", lead, text) != PR_OK)
        t->b->failed = 1;
    else
        para(t, s.data);
    pr_buf_free(&s);
}

static void
header(struct text *t, const cJSON *diff)
{
    const cJSON *bs = pr_sget(diff, "baseline");
    const cJSON *cs = pr_sget(diff, "current");
    struct pr_dverdict v;
    char s[1200], xb[80], xc[80];

    pr_dverdict(diff, &v);
    snprintf(s, sizeof(s), "profreport diff: %s (%s)", v.word, v.counts);
    heading(t->b, s);
    pr_dadd(t->b, "\n");
    pr_dside_text(bs, xb, sizeof(xb));
    pr_dside_text(cs, xc, sizeof(xc));
    snprintf(s, sizeof(s), "Baseline %s (%s) vs current %s (%s).",
             pr_sget_str_or(bs, PR_K_LABEL, "?"), xb,
             pr_sget_str_or(cs, PR_K_LABEL, "?"), xc);
    para(t, s);
    pr_dunmatched_each(diff, unmatched, t);
    pr_dcompat_each(diff, compat_line, t);
}

/* The code points a change table's name column gets on a terminal of
 * `width`: what the other columns (their widest cell or label, two spaces
 * between columns) leave, at least 40, at most PR_DNAME_MAX_CHARS. */
static size_t
name_room(const struct pr_dtable *tb, size_t width)
{
    size_t others = 0, c;
    const cJSON *row;

    for (c = 0; c < tb->n_cols; c++) {
        size_t w = pr_shorten_width(tb->cols[c].label);
        if (tb->cols[c].fmt == PR_FMT_NAME)
            continue;
        cJSON_ArrayForEach(row, tb->rows)
        {
            size_t cw =
                pr_shorten_width(pr_sget_str_or(row, tb->cols[c].key, ""));
            w = cw > w ? cw : w;
        }
        others += w + 2;
    }
    if (width < others + 40)
        return 40;
    return width - others < PR_DNAME_MAX_CHARS ? width - others
                                               : PR_DNAME_MAX_CHARS;
}

/* Put the told-apart forms of a change table's names (pr_dnames: apart
 * from every name of the list the table shows part of, so that a kernel
 * of the regressions and another of the improvements never both read
 * "elementwise_kernel<…>", review 22g #11) into the copy of its rows;
 * 0 on out-of-memory. */
static int
distinct_names(const struct pr_dtable *tb, cJSON *rows, size_t width)
{
    char **forms;
    cJSON *row;
    size_t r = 0, c;
    int ok = 1;

    if (tb->names_from == NULL || pr_sget_len(tb->rows) == 0)
        return 1;
    forms = pr_dnames(tb, name_room(tb, width));
    if (forms == NULL)
        return 0;
    cJSON_ArrayForEach(row, rows)
    {
        for (c = 0; c < tb->n_cols && ok; c++) {
            cJSON *v;
            if (forms[r * tb->n_cols + c] == NULL)
                continue;
            v = cJSON_CreateString(forms[r * tb->n_cols + c]);
            if (!pr_sput(row, tb->cols[c].key, v)) {
                cJSON_Delete(v);
                ok = 0;
            }
        }
        r++;
    }
    pr_dnames_free(forms, tb);
    return ok;
}

/* Whether a name cell of rows reads numbered (" [2]"). */
static int
numbered(const struct pr_dtable *tb, const cJSON *rows)
{
    const cJSON *row;
    size_t c;

    cJSON_ArrayForEach(row, rows)
    {
        for (c = 0; c < tb->n_cols; c++)
            if (tb->cols[c].fmt == PR_FMT_NAME &&
                pr_shorten_numbered(pr_sget_str(row, tb->cols[c].key)))
                return 1;
    }
    return 0;
}

/* A copy of the table's rows whose name cells carry their PR_DTABLE_SUB
 * text after them (an operator's input shapes, "(default)" after a
 * gate), as the Markdown shows it, and a change table's names told apart
 * for a terminal of `width`; NULL on out-of-memory. */
static cJSON *
rows_with_sub(const struct pr_dtable *tb, size_t width)
{
    cJSON *rows = cJSON_Duplicate(tb->rows, 1), *row;
    const char *key = tb->cols[pr_dtable_sub_col(tb)].key;
    struct pr_buf s;

    if (rows == NULL)
        return NULL;
    if (!distinct_names(tb, rows, width)) {
        cJSON_Delete(rows);
        return NULL;
    }
    pr_buf_init(&s, 0);
    cJSON_ArrayForEach(row, rows)
    {
        const char *sub = pr_sget_str(row, PR_DTABLE_SUB);
        cJSON *v;

        if (sub == NULL)
            continue;
        s.len = 0;
        v = pr_buf_printf(&s, "%s %s", pr_sget_str_or(row, key, ""), sub) ==
                    PR_OK
                ? cJSON_CreateString(s.data)
                : NULL;
        if (!pr_sput(row, key, v)) {
            cJSON_Delete(v);
            cJSON_Delete(rows);
            rows = NULL;
            break;
        }
    }
    pr_buf_free(&s);
    return rows;
}

/* Lay a table out as a terminal table, "(none)" when it has no rows, its
 * note under it. */
static void
table(struct pr_buf *b, const struct pr_dtable *tb)
{
    struct pr_error err = {PR_OK, ""};
    cJSON *rows;

    if (pr_sget_len(tb->rows) == 0)
        pr_dadd(b, "(none)\n");
    else {
        rows = rows_with_sub(tb, (size_t)pr_table_term_width());
        if (rows == NULL || pr_table_render_cells(rows, tb->cols, tb->n_cols, 0,
                                                  b, &err) != PR_OK)
            b->failed = 1;
        else if (numbered(tb, rows))
            pr_dadd(b, PR_SHORTEN_LEGEND "\n");
        cJSON_Delete(rows);
    }
    /* wrapped, as the prose is: a note runs to several sentences */
    if (tb->note[0] != '\0')
        wrap(b, tb->note, (size_t)pr_table_term_width());
    pr_dadd(b, "\n");
}

static void
runs_tables(struct pr_buf *b, const cJSON *diff)
{
    const cJSON *pair;
    struct pr_dtable t;
    char s[700];

    cJSON_ArrayForEach(pair, pr_sget(diff, PR_K_RUNS))
    {
        snprintf(s, sizeof(s), "Run %s vs %s (%s)",
                 pr_sget_str_or(pair, "baseline", "?"),
                 pr_sget_str_or(pair, "current", "?"), pr_dpair_per(pair));
        heading(b, s);
        pr_dtable_put(b, &t, pr_dtable_figures(&t, pair, diff), table);
        if (pr_sget_len(pr_sget(pair, "collectives")) > 0) {
            pr_dadd(b, "Collectives (mean time per call)\n\n");
            pr_dtable_put(b, &t, pr_dtable_collectives(&t, pair), table);
        }
    }
}

static void
change_head(struct pr_buf *b, const struct pr_dchange *c,
            const struct pr_dkind *k, const char *measure)
{
    char s[300];

    if (k == NULL)
        return;
    snprintf(s, sizeof(s), "%s: %s (%s)", k->title, c->noun, measure);
    heading(b, s);
}

static void
method(struct text *t, const cJSON *diff)
{
    char before[200], after[2000], intervals[400], s[2400];

    pr_dmethod_text(diff, before, sizeof(before), after, sizeof(after),
                    intervals, sizeof(intervals));
    heading(t->b, "Method");
    snprintf(s, sizeof(s), "%s and %s", before, after);
    para(t, s);
    if (intervals[0] != '\0')
        para(t, intervals);
}

enum pr_status
pr_diff_text(const cJSON *diff, size_t top, struct pr_buf *out,
             struct pr_error *err)
{
    struct text t;
    struct pr_dtable g;

    t.b = out;
    t.width = (size_t)pr_table_term_width();
    header(&t, diff);
    heading(out, "Gates");
    pr_dtable_put(out, &g, pr_dtable_gates(&g, diff), table);
    runs_tables(out, diff);
    pr_dchanges_put(out, diff, top, change_head, table);
    method(&t, diff);
    if (out->failed)
        return pr_error_set(err, PR_E_NOMEM, "text: out of memory");
    return PR_OK;
}

/* A night that could not be read, as the Markdown's warning says it. */
static void
unreadable(struct text *t, const cJSON *u)
{
    struct pr_buf s;

    pr_buf_init(&s, 0);
    if (pr_buf_printf(&s,
                      "Warning: night %s could not be read and is left "
                      "out: %s",
                      pr_sget_str_or(u, PR_K_PATH, "?"),
                      pr_sget_str_or(u, "error", "?")) != PR_OK)
        t->b->failed = 1;
    else
        para(t, s.data);
    pr_buf_free(&s);
}

enum pr_status
pr_trend_text(const cJSON *trend, struct pr_buf *out, struct pr_error *err)
{
    struct text t;
    struct pr_dtable n;
    struct pr_dverdict v;
    const cJSON *u;
    char s[1200];

    t.b = out;
    t.width = (size_t)pr_table_term_width();
    pr_dtrend_verdict(trend, &v);
    snprintf(s, sizeof(s), "profreport trend: %s (%s)", v.word, v.counts);
    heading(out, s);
    pr_dadd(out, "\n");
    cJSON_ArrayForEach(u, pr_sget(trend, "unreadable"))
    {
        unreadable(&t, u);
    }
    heading(out, "Nights");
    pr_dtable_put(out, &n, pr_dtable_nights(&n, trend), table);
    if (out->failed)
        return pr_error_set(err, PR_E_NOMEM, "text: out of memory");
    return PR_OK;
}

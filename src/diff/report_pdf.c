/* report_pdf.c - the diff and the trend as PDF documents: the same content
 * as their HTML pages (verdict, gates, noise tests, breakdown, waterfall
 * and step charts, top changes, nights and crossings), laid out by the
 * shared page module pdf_doc.c and drawn through the PDF canvas.  Numbers
 * are formatted by common.c exactly as in the other diff reports. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/diff.h"
#include "profreport/pdf_doc.h"
#include "profreport/sget.h"
#include "profreport/shorten.h"

#define N_CAT 8
#define DETAIL_MAX_CHARS 400 /* about six lines of the Detail column */
#define HALF_GAP 12.0        /* points between two charts side by side */
#define TITLE "Regression comparison"

/* Sticky out-of-memory while building a table's rows. */
struct rows {
    cJSON *arr; /* owned */
    int failed;
};

/* ---- small helpers ---------------------------------------------------- */

static int
is_str(const cJSON *o, const char *key, const char *want)
{
    const char *s = pr_sget_str(o, key);

    return s != NULL && strcmp(s, want) == 0;
}

/* A row object of string cells: keys[i] = vals[i]. */
static void
rows_add(struct rows *r, const char *const *keys, const char *const *vals,
         size_t n)
{
    cJSON *o = cJSON_CreateObject();
    size_t i;

    if (o == NULL || !cJSON_AddItemToArray(r->arr, o)) {
        cJSON_Delete(o);
        r->failed = 1;
        return;
    }
    for (i = 0; i < n; i++)
        if (cJSON_AddStringToObject(o, keys[i], vals[i] ? vals[i] : "") == NULL)
            r->failed = 1;
}

/* Draw the rows (nothing when empty: the caller writes "none"), then free
 * them. */
static void
rows_flush(struct pr_pdf_doc *d, struct rows *r, const struct pr_pdf_col *c,
           size_t n_cols)
{
    if (r->failed)
        pr_pdf_doc_nomem(d);
    else if (cJSON_GetArraySize(r->arr) == 0)
        pr_pdf_doc_note(d, "None.");
    else
        pr_pdf_doc_table(d, c, n_cols, r->arr, (size_t)-1, NULL);
    cJSON_Delete(r->arr);
    r->arr = NULL;
}

static int
rows_init(struct pr_pdf_doc *d, struct rows *r)
{
    r->arr = cJSON_CreateArray();
    r->failed = 0;
    if (r->arr == NULL)
        pr_pdf_doc_nomem(d);
    return r->arr != NULL;
}

/* The box of `h` points at the cursor, split into two side by side. */
static void
two_boxes(struct pr_pdf_doc *d, double h, struct pr_chart_box *l,
          struct pr_chart_box *r)
{
    struct pr_chart_box b = pr_pdf_doc_chart_box(d, h);

    *l = b;
    l->w = (b.w - HALF_GAP) / 2;
    *r = *l;
    r->x = b.x + l->w + HALF_GAP;
}

/* ---- title and verdict ------------------------------------------------ */

static void
badge(struct pr_pdf_doc *d, double x, double y, const char *text, int bad)
{
    double w = pr_pdf_doc_text_width(d, text, 11, 1) + 16;

    pr_pdf_doc_fill(d, x, y - 14, w, 20, bad ? PR_PDF_C_BAD : PR_PDF_C_GOOD);
    pr_pdf_doc_put(d, x + 8, y, text, 11, 1, 0xFFFFFFu, PR_ANCHOR_START);
}

/* "file.json (runs: 1, steps: 8)" for one side of the comparison. */
static void
side_line(struct pr_pdf_doc *d, const char *label, const cJSON *side)
{
    const char *name = pr_sget_str(side, "label");
    char line[300];

    /* the info line cleans the text for the font */
    snprintf(line, sizeof(line), "%s (runs: %.0f, steps: %.0f)",
             name ? name : "", pr_sget_num(side, "runs"),
             pr_sget_num(side, "steps"));
    pr_pdf_doc_info_line(d, label, line);
}

static size_t
count_failed(const cJSON *gates)
{
    const cJSON *g;
    size_t n = 0;

    cJSON_ArrayForEach(g, gates)
    {
        n += is_str(g, "result", "fail");
    }
    return n;
}

static void
diff_title(struct pr_pdf_doc *d, const cJSON *diff, const char *version)
{
    const cJSON *gates = pr_sget(diff, "gates");
    int failed = is_str(diff, "verdict", "fail");
    char line[128], when[32];

    pr_pdf_doc_bookmark(d, "Verdict");
    pr_pdf_doc_set_y(d, 110);
    pr_pdf_doc_put(d, PR_PDF_MARGIN_X, 110, TITLE, 26, 1, PR_PDF_C_TEXT,
                   PR_ANCHOR_START);
    badge(d, PR_PDF_MARGIN_X + pr_pdf_doc_text_width(d, TITLE, 26, 1) + 14,
          110 - 4, failed ? "REGRESSION" : "NO REGRESSION", failed);
    pr_pdf_doc_skip(d, 22);
    pr_pdf_doc_put(d, PR_PDF_MARGIN_X, pr_pdf_doc_y(d),
                   "Two profiling runs compared step by step by profreport", 12,
                   0, PR_PDF_C_MUTED, PR_ANCHOR_START);
    pr_pdf_doc_skip(d, 14);
    pr_pdf_doc_hline(d, PR_PDF_MARGIN_X,
                     pr_pdf_doc_page_width(d) - PR_PDF_MARGIN_X,
                     pr_pdf_doc_y(d), PR_PDF_C_ACCENT, 2);
    pr_pdf_doc_skip(d, 16);
    side_line(d, "Baseline", pr_sget(diff, "baseline"));
    side_line(d, "Current", pr_sget(diff, "current"));
    snprintf(line, sizeof(line), "%zu of %d tripped: %s", count_failed(gates),
             cJSON_GetArraySize(gates),
             failed ? "regression" : "no regression");
    pr_pdf_doc_info_line(d, "Gates", line);
    snprintf(line, sizeof(line), "%s, profreport %s",
             pr_pdf_doc_iso_date(d, when, sizeof(when)), version);
    pr_pdf_doc_info_line(d, "Generated", line);
}

/* ---- gates ------------------------------------------------------------ */

static const struct pr_pdf_col gate_cols[] = {
    {"Result", "result", PR_PDF_K_VERDICT, 0.9},
    {"Gate", "rule", PR_PDF_K_NAME, 2.2},
    {"Detail", "detail", PR_PDF_K_WRAP, 6.5},
};

static void
gates_section(struct pr_pdf_doc *d, const cJSON *diff)
{
    static const char *const keys[] = {"result", "rule", "detail"};
    const cJSON *g;
    struct rows r;
    char rule[200], detail[PR_SHORTEN_CAP(DETAIL_MAX_CHARS)];

    pr_pdf_doc_section(d, "Gates");
    if (!rows_init(d, &r))
        return;
    cJSON_ArrayForEach(g, pr_sget(diff, "gates"))
    {
        const char *vals[3];
        snprintf(rule, sizeof(rule), "%s%s",
                 pr_sget_str(g, "rule") ? pr_sget_str(g, "rule") : "?",
                 cJSON_IsTrue(pr_sget(g, "default")) ? " (default)" : "");
        vals[0] = is_str(g, "result", "fail")      ? "FAIL"
                  : is_str(g, "result", "skipped") ? "skipped"
                                                   : "pass";
        vals[1] = rule;
        /* cut in the middle, within the cell's six lines: a detail ends
           with its verdict */
        vals[2] = pr_shorten_middle(
            pr_sget_str(g, "detail") ? pr_sget_str(g, "detail") : "",
            DETAIL_MAX_CHARS, detail, sizeof(detail));
        rows_add(&r, keys, vals, 3);
    }
    rows_flush(d, &r, gate_cols, 3);
}

/* ---- one pair of runs ------------------------------------------------- */

/* The pair's charts (pair_figs.c): the mean breakdown beside step time
 * per step, the waterfall under them. */
static void
pair_charts(struct pr_pdf_doc *d, const cJSON *pair)
{
    struct pr_dpair_figs f;
    struct pr_chart_box l, r;

    if (pr_dpair_figs(&f, pair) != 0) {
        pr_pdf_doc_nomem(d);
    } else {
        two_boxes(d, 250, &l, &r);
        pr_chart_stacked_bars(pr_pdf_doc_canvas(d), &l, &f.stacked);
        pr_chart_line(pr_pdf_doc_canvas(d), &r, &f.steps);
        l = pr_pdf_doc_chart_box(d, 270);
        pr_dwaterfall(pr_pdf_doc_canvas(d), &l, &f.waterfall);
    }
    pr_dpair_figs_free(&f);
}

/* The noise test of a figure in words: its outcome and method in short
 * (the Method section spells them out). */
static void
noise_text(const cJSON *noise, char *buf, size_t n)
{
    const char *m = pr_sget_str(noise, "method");
    const char *how = m;

    if (m == NULL || strcmp(m, "none") == 0) {
        snprintf(buf, n, "limit only (too few steps)");
        return;
    }
    if (strcmp(m, "mann-whitney-exact") == 0)
        how = "MWU exact";
    else if (strcmp(m, "mann-whitney-normal") == 0)
        how = "MWU normal";
    snprintf(buf, n, "%s (%s)",
             cJSON_IsTrue(pr_sget(noise, "significant")) ? "significant"
                                                         : "within noise",
             how);
}

/* "+48.8 to +78.5%", or a dash without a test. */
static void
interval_text(const cJSON *noise, char *buf, size_t n)
{
    double lo = pr_sget_num(noise, "ci_lo_pct"),
           hi = pr_sget_num(noise, "ci_hi_pct");
    char a[32], b[32];

    if (!isfinite(lo) || !isfinite(hi)) {
        snprintf(buf, n, "%s", PR_PDF_DASH);
        return;
    }
    pr_dfmt_pct(lo, a, sizeof(a));
    a[strlen(a) - 1] = '\0'; /* the unit once, at the end */
    snprintf(buf, n, "%s to %s", a, pr_dfmt_pct(hi, b, sizeof(b)));
}

/* "step.mean", "memory.peak GPU 0", ... */
static void
figure_name(const cJSON *row, char *buf, size_t n)
{
    const cJSON *dev = pr_sget(row, "device");
    const char *m =
        pr_sget_str(row, "metric") ? pr_sget_str(row, "metric") : "?";

    if (cJSON_IsString(dev))
        snprintf(buf, n, "%s %s", m, dev->valuestring);
    else if (cJSON_IsNumber(dev))
        snprintf(buf, n, "%s GPU %d", m, dev->valueint);
    else
        snprintf(buf, n, "%s", m);
}

static const struct pr_pdf_col figure_cols[] = {
    {"Figure", "figure", PR_PDF_K_NAME, 1.8},
    {"Baseline", "base", PR_PDF_K_FIGURE, 1.0},
    {"Current", "cur", PR_PDF_K_FIGURE, 1.05},
    {"Change", "delta", PR_PDF_K_CHANGE, 2.0},
    {"p-value", "p", PR_PDF_K_FIGURE, 0.8},
    {"95% CI of the change", "ci", PR_PDF_K_FIGURE, 1.85},
    {"Noise test", "noise", PR_PDF_K_NAME, 1.6},
};

static void
figure_row(struct rows *r, const cJSON *row)
{
    static const char *const keys[] = {"figure", "base", "cur",  "delta",
                                       "p",      "ci",   "noise"};
    const cJSON *noise = pr_sget(row, "noise");
    const char *unit = pr_sget_str(row, "unit");
    char name[160], v1[48], v2[48], dl[48], pct[48], change[100];
    char p[32], ci[80], txt[80];
    const char *vals[7] = {name, v1, v2, change, p, ci, txt};

    figure_name(row, name, sizeof(name));
    pr_dfmt_value(pr_sget_num(row, "baseline"), unit, v1, sizeof(v1));
    pr_dfmt_value(pr_sget_num(row, "current"), unit, v2, sizeof(v2));
    pr_dfmt_delta(pr_sget_num(row, "delta"), unit, dl, sizeof(dl));
    if (unit != NULL && strcmp(unit, "pct") == 0) /* the change is in pp */
        snprintf(change, sizeof(change), "%s", dl);
    else
        snprintf(change, sizeof(change), "%s %s", dl,
                 pr_dfmt_pct(pr_sget_num(row, "delta_pct"), pct, sizeof(pct)));
    pr_dfmt_p(pr_sget_num(noise, "p_value"), p, sizeof(p));
    interval_text(noise, ci, sizeof(ci));
    noise_text(noise, txt, sizeof(txt));
    rows_add(r, keys, vals, 7);
}

static void
figures_table(struct pr_pdf_doc *d, const cJSON *pair)
{
    const cJSON *row;
    struct rows r;

    if (!rows_init(d, &r))
        return;
    cJSON_ArrayForEach(row, pr_sget(pair, "metrics"))
    {
        double x = pr_sget_num(row, "baseline"),
               y = pr_sget_num(row, "current");
        if ((isnan(x) && isnan(y)) || (x == 0 && y == 0))
            continue; /* a figure neither run has */
        figure_row(&r, row);
    }
    rows_flush(d, &r, figure_cols, 7);
}

static void
runs_section(struct pr_pdf_doc *d, const cJSON *diff)
{
    const cJSON *pair;
    char title[300];

    pr_pdf_doc_section(d, "Step time");
    cJSON_ArrayForEach(pair, pr_sget(diff, "runs"))
    {
        if (pr_pdf_doc_failed(d))
            return;
        snprintf(
            title, sizeof(title), "Run %s vs %s (per step)",
            pr_sget_str(pair, "baseline") ? pr_sget_str(pair, "baseline") : "?",
            pr_sget_str(pair, "current") ? pr_sget_str(pair, "current") : "?");
        pr_pdf_doc_subheading(d, title, 250);
        pair_charts(d, pair);
        figures_table(d, pair);
    }
}

/* ---- operators and kernels -------------------------------------------- */

static const struct pr_pdf_col change_cols[] = {
    {"Name", "name", PR_PDF_K_NAME, 5.0},
    {"Baseline", "base", PR_PDF_K_FIGURE, 1.2},
    {"Current", "cur", PR_PDF_K_FIGURE, 1.2},
    {"Change", "delta", PR_PDF_K_CHANGE, 1.2},
    {"Change %", "pct", PR_PDF_K_CHANGE, 1.0},
};

static const struct pr_pdf_col status_cols[] = {
    {"Name", "name", PR_PDF_K_NAME, 5.0},
    {"Baseline", "base", PR_PDF_K_FIGURE, 1.2},
    {"Current", "cur", PR_PDF_K_FIGURE, 1.2},
    {"Change", "delta", PR_PDF_K_CHANGE, 1.2},
    {"Status", "pct", PR_PDF_K_TEXT, 1.0},
};

static void
change_row(struct rows *r, const cJSON *row, int want)
{
    static const char *const keys[] = {"name", "base", "cur", "delta", "pct"};
    const char *shapes = pr_sget_str(row, "input_shapes");
    char name[600], v1[48], v2[48], dl[48], pct[48];
    const char *vals[5] = {name, v1, v2, dl, pct};

    snprintf(name, sizeof(name), "%s%s%s",
             pr_sget_str(row, "name") ? pr_sget_str(row, "name") : "?",
             shapes ? "  " : "", shapes ? shapes : "");
    pr_dfmt_us(pr_drow_us(row, "baseline_us"), v1, sizeof(v1));
    pr_dfmt_us(pr_drow_us(row, "current_us"), v2, sizeof(v2));
    pr_dfmt_delta(pr_sget_num(row, "delta_us"), "us", dl, sizeof(dl));
    if (want == 0)
        vals[4] = pr_sget_str(row, "status");
    else
        pr_dfmt_pct(pr_sget_num(row, "delta_pct"), pct, sizeof(pct));
    rows_add(r, keys, vals, 5);
}

static void
rows_table(struct pr_pdf_doc *d, const cJSON *arr, int want, size_t top)
{
    const cJSON *row;
    struct rows r;
    size_t n = 0;

    if (!rows_init(d, &r))
        return;
    cJSON_ArrayForEach(row, arr)
    {
        if (n == top)
            break;
        if (!pr_drow_wanted(row, want))
            continue;
        change_row(&r, row, want);
        n++;
    }
    rows_flush(d, &r, want == 0 ? status_cols : change_cols, 5);
}

static void
tables_section(struct pr_pdf_doc *d, const cJSON *diff, size_t top)
{
    static const char *const keys[] = {"operators", "kernels", "sources",
                                       "modules"};
    static const char *const titles[] = {"Operators", "Kernels",
                                         "Source locations", "Modules"};
    static const char *const notes[] = {
        "Device self time per step, matched by name.",
        "Device time per step, matched by name.",
        "Device self time per step, matched by file:line (function).",
        "Device total time per step, matched by module path."};
    static const char *const kinds[] = {"Top regressions", "Top improvements",
                                        "New and vanished"};
    static const int wants[] = {1, -1, 0};
    size_t t, k;

    for (t = 0; t < sizeof(keys) / sizeof(keys[0]) && !pr_pdf_doc_failed(d);
         t++) {
        if (t >= 2 && pr_sget_len(pr_sget(diff, keys[t])) == 0)
            continue; /* no stacks or modules recorded */
        pr_pdf_doc_section(d, titles[t]);
        pr_pdf_doc_note(d, notes[t]);
        for (k = 0; k < 3; k++) {
            pr_pdf_doc_subheading(d, kinds[k], 60);
            rows_table(d, pr_sget(diff, keys[t]), wants[k], top);
        }
    }
}

/* ---- method ----------------------------------------------------------- */

static void
unmatched_note(struct pr_pdf_doc *d, const cJSON *diff)
{
    static const char *const sides[] = {"baseline", "current"};
    const cJSON *um = pr_sget(diff, "runs_unmatched");
    const cJSON *w;
    char line[400];
    size_t k, at;

    for (k = 0; k < 2; k++) {
        const cJSON *arr = pr_sget(um, sides[k]);
        if (cJSON_GetArraySize(arr) == 0)
            continue;
        at = (size_t)snprintf(
            line, sizeof(line),
            "Runs of the %s with no partner, not compared:", sides[k]);
        cJSON_ArrayForEach(w, arr)
        {
            if (cJSON_IsString(w) && at < sizeof(line))
                at += (size_t)snprintf(line + at, sizeof(line) - at, " %s",
                                       w->valuestring);
        }
        pr_pdf_doc_paragraph(d, 0, line, PR_PDF_BODY_SIZE, PR_PDF_C_TEXT);
    }
}

static void
method_section(struct pr_pdf_doc *d, const cJSON *diff)
{
    const cJSON *m = pr_sget(diff, "method");
    const cJSON *bs = pr_sget(m, "bootstrap");
    char text[1200];

    pr_pdf_doc_section(d, "Method");
    snprintf(
        text, sizeof(text),
        "A figure with per-step samples (step time, breakdown) regresses "
        "only when its change crosses the gate's limit and is unlikely to be "
        "step-to-step noise: Mann-Whitney U over the steps (two-sided; exact "
        "distribution up to 50 steps a side without ties, else normal "
        "approximation with tie correction), alpha = %g. With too few steps "
        "for the test to reach alpha, a 95%% percentile bootstrap interval "
        "of the change of the row's own statistic (the mean; the median or "
        "p90 on their rows; %.0f resamples, fixed seed) must exclude "
        "0. Memory, GPU metrics, operators and kernels have no per-step "
        "samples and are judged on the limit alone. Operator and kernel "
        "times are device time per step, matched by name; glob rules skip "
        "rows under %g%% of the step time.",
        pr_sget_num(m, "alpha"), pr_sget_num(bs, "resamples"),
        pr_sget_num(m, "min_share_pct"));
    pr_pdf_doc_paragraph(d, 0, text, PR_PDF_BODY_SIZE + 0.5, PR_PDF_C_TEXT);
    unmatched_note(d, diff);
}

/* ---- documents -------------------------------------------------------- */

static void
diff_build(struct pr_pdf_doc *d, const cJSON *diff, size_t top)
{
    if (pr_pdf_doc_new_page(d) != 0)
        return;
    diff_title(d, diff, PACKAGE_VERSION);
    pr_pdf_doc_skip(d, 10);
    gates_section(d, diff);
    if (!pr_pdf_doc_failed(d))
        runs_section(d, diff);
    if (!pr_pdf_doc_failed(d))
        tables_section(d, diff, top);
    if (!pr_pdf_doc_failed(d))
        method_section(d, diff);
    if (!pr_pdf_doc_failed(d))
        pr_pdf_doc_footers(d, TITLE, PACKAGE_VERSION);
}

/* Open, build with `fn`, save, close. */
static enum pr_status
write_pdf(const char *title, const char *path,
          void (*fn)(struct pr_pdf_doc *, const cJSON *, size_t),
          const cJSON *tree, size_t top, struct pr_error *err)
{
    struct pr_pdf_doc *d = NULL;
    struct pr_pdf_setup s;
    enum pr_status st;

    memset(&s, 0, sizeof(s));
    s.title = title;
    s.version = PACKAGE_VERSION;
    s.generated_at = pr_pdf_doc_now();
    s.top = top > 0 && top < 100000 ? (int)top : 0;
    st = pr_pdf_doc_open(&d, &s, err);
    if (st == PR_OK) {
        fn(d, tree, top);
        st = pr_pdf_doc_save(d, path);
    }
    pr_pdf_doc_close(d);
    return st;
}

enum pr_status
pr_diff_pdf(const cJSON *diff, size_t top, const char *path,
            struct pr_error *err)
{
    if (!cJSON_IsObject(diff))
        return pr_error_set(err, PR_E_FORMAT, "diff is not an object");
    return write_pdf(TITLE, path, diff_build, diff, top, err);
}

/* ---- trend ------------------------------------------------------------ */

/* The shared trend figures (trend_figs.c), one chart across the page
 * each. */
static void
trend_charts(struct pr_pdf_doc *d, const cJSON *t)
{
    struct pr_dtrend_figs f;
    struct pr_chart_box b;
    size_t i;

    if (pr_dtrend_figs(&f, t) != 0) {
        pr_pdf_doc_nomem(d);
        pr_dtrend_figs_free(&f);
        return;
    }
    for (i = 0; i < f.n && !pr_pdf_doc_failed(d); i++) {
        b = pr_pdf_doc_chart_box(d, 215);
        pr_chart_line(pr_pdf_doc_canvas(d), &b, &f.charts[i]);
    }
    pr_dtrend_figs_free(&f);
}

static const struct pr_pdf_col night_cols[] = {
    {"#", "i", PR_PDF_K_FIGURE, 0.4},
    {"Input", "label", PR_PDF_K_NAME, 2.4},
    {"Mean step", "mean", PR_PDF_K_FIGURE, 1.1},
    {"p90", "p90", PR_PDF_K_FIGURE, 1.1},
    {"Memory peak", "mem", PR_PDF_K_FIGURE, 1.2},
    {"vs previous night", "gates", PR_PDF_K_WRAP, 4.4},
};

/* "crossed step.mean>+5%: detail; ok memory.peak>+1GiB: ..." */
static void
gates_text(const cJSON *night, char *buf, size_t n)
{
    const cJSON *g;
    size_t at = 0;

    buf[0] = '\0';
    cJSON_ArrayForEach(g, pr_sget(night, "gates"))
    {
        int w;
        if (at >= n)
            break;
        w = snprintf(buf + at, n - at, "%s%s %s: %s", at > 0 ? "; " : "",
                     is_str(g, "result", "fail") ? "CROSSED" : "ok",
                     pr_sget_str(g, "rule") ? pr_sget_str(g, "rule") : "?",
                     pr_sget_str(g, "detail") ? pr_sget_str(g, "detail") : "");
        at += w > 0 ? (size_t)w : 0;
    }
    if (at == 0)
        snprintf(buf, n, "%s", "first night");
}

static void
nights_table(struct pr_pdf_doc *d, const cJSON *t)
{
    static const char *const keys[] = {"i",   "label", "mean",
                                       "p90", "mem",   "gates"};
    const cJSON *night;
    struct rows r;
    char idx[16], mean[48], p90[48], mem[48], gates[1000];
    const char *vals[6] = {idx, NULL, mean, p90, mem, gates};
    int i = 0;

    pr_pdf_doc_section(d, "Nights");
    if (!rows_init(d, &r))
        return;
    cJSON_ArrayForEach(night, pr_sget(t, "nights"))
    {
        snprintf(idx, sizeof(idx), "%d", ++i);
        vals[1] = pr_sget_str(night, "label");
        pr_dfmt_us(pr_sget_num(night, "step_mean_us"), mean, sizeof(mean));
        pr_dfmt_us(pr_sget_num(night, "step_p90_us"), p90, sizeof(p90));
        pr_dfmt_bytes(pr_sget_num(night, "memory_peak_bytes"), mem,
                      sizeof(mem));
        gates_text(night, gates, sizeof(gates));
        rows_add(&r, keys, vals, 6);
    }
    rows_flush(d, &r, night_cols, 6);
}

static void
trend_build(struct pr_pdf_doc *d, const cJSON *t, size_t top)
{
    (void)top;
    if (pr_pdf_doc_new_page(d) != 0)
        return;
    pr_pdf_doc_section(d, "Nightly trend");
    pr_pdf_doc_paragraph(
        d, 0,
        "Each night is compared with the one before by the diff gates "
        "(noise-aware for step time); the step chart marks the latest night "
        "that crossed a limit, the table lists them all.",
        PR_PDF_BODY_SIZE + 0.5, PR_PDF_C_MUTED);
    trend_charts(d, t);
    if (!pr_pdf_doc_failed(d))
        nights_table(d, t);
    if (!pr_pdf_doc_failed(d))
        pr_pdf_doc_footers(d, "Nightly trend", PACKAGE_VERSION);
}

enum pr_status
pr_trend_pdf(const cJSON *trend, const char *path, struct pr_error *err)
{
    if (!cJSON_IsObject(trend))
        return pr_error_set(err, PR_E_FORMAT, "trend is not an object");
    return write_pdf("Nightly trend", path, trend_build, trend, 0, err);
}

/* sec_memtl.c - the "Memory timeline" section: torch.profiler's raw
 * memory timeline (runs[].memory_timeline), drawn as HTA's
 * plot_memory_timeline draws it: memory by category stacked over time,
 * in HTA's category order and colours (plotly's Pastel, which HTA takes),
 * the same on the HTML and PDF canvases.  The peak's make-up is a
 * sentence and a table; such a run has nothing else (no operators,
 * kernels or steps), and the section says so. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/chart.h"
#include "profreport/figures.h"
#include "profreport/keys.h"
#include "profreport/sget.h"

#define N_CATS 8

/* HTA's _CATEGORY_TO_COLORS: plotly.colors.qualitative.Pastel[0..7], in
 * HTA's category order (Parameter first, Unknown last). */
static const uint32_t cat_colors[N_CATS] = {0x66C5CC, 0xF6CF71, 0xF89C74,
                                            0xDCB0F2, 0x87C55F, 0x9EB9F3,
                                            0xFE88B1, 0xC9DB74};

static const struct pr_col cat_cols[] = {
    {"category", PR_K_NAME, "Category", PR_FMT_TEXT, 1.4,
     "HTA's memory category (torch.profiler's _memory_profiler)", PR_COL_BOTH},
    {"at_peak", PR_K_AT_PEAK_BYTES, "At the peak", PR_FMT_BYTES, 1,
     "its bytes when the sum of all categories was greatest", PR_COL_BOTH},
    {"share", PR_K_AT_PEAK_PCT, "Share of the peak", PR_FMT_PCT, 1, NULL,
     PR_COL_BOTH},
    {"max", PR_K_MAX_BYTES, "Own greatest", PR_FMT_BYTES, 1,
     "its greatest at any time of the timeline", PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

static int
present(const cJSON *summary)
{
    const cJSON *run;

    cJSON_ArrayForEach(run, pr_sget(summary, PR_K_RUNS))
    {
        if (cJSON_IsObject(pr_sget(run, PR_K_MEMORY_TIMELINE)))
            return 1;
    }
    return 0;
}

/* The n numbers of a JSON array, added onto acc (non-numbers as 0). */
static void
add_numbers(double *acc, const cJSON *a, size_t n)
{
    const cJSON *e;
    size_t i = 0;

    cJSON_ArrayForEach(e, a)
    {
        if (i == n)
            break;
        if (cJSON_IsNumber(e) && isfinite(e->valuedouble))
            acc[i] += e->valuedouble;
        i++;
    }
}

/* The stacked area: series k the sum of categories 0..k, drawn from the
 * top band down, each filled solid over the one above it.  Categories
 * that never hold a byte are left out of the legend (their band is
 * empty).  NULL on out-of-memory (*nomem) or with under two points. */
static struct pr_fig_chart *
stacked_curve(const cJSON *mt, int *nomem)
{
    const cJSON *cats = pr_sget(mt, PR_K_CATEGORIES);
    size_t n = pr_sget_len(pr_sget(mt, PR_K_CURVE_T_US)), k, used = 0;
    struct pr_fig_chart *ch;
    struct pr_chart_series *ser;
    double *t, *y;
    char a[48], b[48];

    if (n < 2 || pr_sget_len(cats) != N_CATS)
        return NULL;
    ch = pr_fig_chart_new(pr_fig_draw_lines, "Memory timeline", 960, 320, 220);
    ser = calloc(N_CATS, sizeof(*ser));
    t = calloc(n, sizeof(*t));
    y = calloc(n * N_CATS, sizeof(*y));
    if (ch == NULL || ser == NULL || t == NULL || y == NULL) {
        free(ser);
        free(t);
        free(y);
        pr_fig_chart_free(ch);
        *nomem = 1;
        return NULL;
    }
    ch->own[0] = ser;
    ch->own[1] = t;
    ch->own[2] = y;
    add_numbers(t, pr_sget(mt, PR_K_CURVE_T_US), n);
    for (k = 0; k < N_CATS; k++) {
        const cJSON *c = cJSON_GetArrayItem(cats, (int)k);
        double *yk = y + k * n;

        if (k > 0)
            memcpy(yk, yk - n, n * sizeof(*yk));
        add_numbers(yk, pr_sget(c, PR_K_CURVE_BYTES), n);
    }
    for (k = N_CATS; k-- > 0;) {
        const cJSON *c = cJSON_GetArrayItem(cats, (int)k);

        if (pr_sget_num(c, PR_K_MAX_BYTES) == 0 &&
            pr_sget_num(c, PR_K_AT_PEAK_BYTES) == 0)
            continue;
        ser[used++] =
            (struct pr_chart_series){pr_sget_str_or(c, PR_K_NAME, "?"),
                                     t,
                                     y + k * n,
                                     n,
                                     cat_colors[k],
                                     2,
                                     0,
                                     0};
    }
    snprintf(ch->title, sizeof(ch->title), "peak %s at %s",
             pr_chart_format(pr_sget_num(mt, PR_K_PEAK_BYTES), PR_UNIT_BYTES, a,
                             sizeof(a)),
             pr_chart_format(pr_sget_num(mt, PR_K_PEAK_AT_US), PR_UNIT_US, b,
                             sizeof(b)));
    ch->u.lines = (struct pr_chart_lines){"Memory by category (stacked)",
                                          ser,
                                          used,
                                          PR_UNIT_US,
                                          PR_UNIT_BYTES,
                                          "time since the first row",
                                          "memory",
                                          0,
                                          pr_sget_num(mt, PR_K_PEAK_AT_US),
                                          pr_sget_num(mt, PR_K_PEAK_BYTES),
                                          ch->title,
                                          NULL,
                                          0};
    return ch;
}

void
pr_sec_memtl_peak(const cJSON *mt, char *text, size_t cap)
{
    const cJSON *cats = pr_sget(mt, PR_K_CATEGORIES);
    int done[N_CATS] = {0};
    char a[48], b[48];
    size_t len;
    int i;

    len = (size_t)snprintf(text, cap, "Peak %s at %s from the first row",
                           pr_chart_format(pr_sget_num(mt, PR_K_PEAK_BYTES),
                                           PR_UNIT_BYTES, a, sizeof(a)),
                           pr_chart_format(pr_sget_num(mt, PR_K_PEAK_AT_US),
                                           PR_UNIT_US, b, sizeof(b)));
    for (i = 0; i < N_CATS && len < cap; i++) {
        int best = -1, k;

        for (k = 0; k < N_CATS; k++) {
            double p =
                pr_sget_num(cJSON_GetArrayItem(cats, k), PR_K_AT_PEAK_PCT);

            if (!done[k] && !isnan(p) && p >= 1 &&
                (best < 0 || p > pr_sget_num(cJSON_GetArrayItem(cats, best),
                                             PR_K_AT_PEAK_PCT)))
                best = k;
        }
        if (best < 0)
            break;
        done[best] = 1;
        len += (size_t)snprintf(
            text + len, cap - len, "%s %s %s", i == 0 ? ":" : ",",
            pr_sget_str_or(cJSON_GetArrayItem(cats, best), PR_K_NAME, "?"),
            pr_fig_format(
                pr_sget_num(cJSON_GetArrayItem(cats, best), PR_K_AT_PEAK_PCT),
                PR_FMT_PCT, a, sizeof(a)));
    }
    if (len < cap - 1)
        snprintf(text + len, cap - len, ".");
}

/* "N thing" or "1 one", counted with commas. */
static void
count_of(double n, const char *one, const char *many, char *buf, size_t cap)
{
    char a[32];

    pr_fig_format(n, PR_FMT_COUNT, a, sizeof(a));
    snprintf(buf, cap, "%s %s", a, n == 1 ? one : many);
}

/* "Rows by torch.profiler's action: ..." from the rows_* counts; 0 where
 * a summary older than them has none. */
static int
by_action(const cJSON *mt, char *text, size_t cap)
{
    double pre = pr_sget_num(mt, PR_K_ROWS_PREEXISTING);
    double cre = pr_sget_num(mt, PR_K_ROWS_CREATE);
    double inc = pr_sget_num(mt, PR_K_ROWS_INCREMENT_VERSION);
    double des = pr_sget_num(mt, PR_K_ROWS_DESTROY);
    char a[64], b[64], c[200], d[64];

    if (isnan(pre) || isnan(cre) || isnan(inc) || isnan(des))
        return 0;
    count_of(pre, "tensor", "tensors", a, sizeof(a));
    count_of(cre, "allocation", "allocations", b, sizeof(b));
    count_of(des, "free", "frees", d, sizeof(d));
    /* torch writes two rows per version change; a file of an odd count
       is not torch's pairing: its rows are given as rows */
    if (fmod(inc, 2) == 0)
        count_of(inc / 2, "version change", "version changes", c, sizeof(c));
    else
        count_of(inc, "row of version changes", "rows of version changes", c,
                 sizeof(c));
    snprintf(text, cap,
             "Rows by torch.profiler's action: %s present before the profile "
             "(time -1, placed at the first time), %s, %s and %s%s.",
             a, b, d, c,
             fmod(inc, 2) == 0 && inc > 0
                 ? " (two rows per change: the old version's bytes out of its "
                   "category, the new one's into its own)"
                 : "");
    return 1;
}

static void
draw(struct pr_figs *f, const cJSON *mt, int only)
{
    struct pr_fig_table tab = {.cols = cat_cols,
                               .rows = pr_sget(mt, PR_K_CATEGORIES),
                               .what = "categories",
                               .limit = N_CATS};
    char text[640], sub[96], a[48];
    int nomem = 0;
    struct pr_fig_chart *ch;

    snprintf(sub, sizeof(sub), "at %s from the first row",
             pr_chart_format(pr_sget_num(mt, PR_K_PEAK_AT_US), PR_UNIT_US, a,
                             sizeof(a)));
    pr_figs_kpi(f, "Peak", pr_sget_num(mt, PR_K_PEAK_BYTES), PR_FMT_BYTES, sub);
    pr_figs_kpi(f, "Timeline span", pr_sget_num(mt, PR_K_SPAN_US), PR_FMT_US,
                NULL);
    /* a version change is two rows, and rows of tensors older than the
       profile are none of these (memtl13: "16,845 allocations, frees and
       version changes" counted 645 of the first and 4,755 changes twice) */
    pr_figs_kpi(f, "Rows", pr_sget_num(mt, PR_K_ROWS), PR_FMT_COUNT,
                "[time, action, bytes, category]");
    pr_sec_memtl_peak(mt, text, sizeof(text));
    pr_figs_text(f, text);
    if (by_action(mt, text, sizeof(text)))
        pr_figs_text(f, text);
    ch = stacked_curve(mt, &nomem);
    if (ch != NULL || nomem)
        pr_figs_chart(f, ch, 0);
    pr_figs_table(f, "Categories at the peak", &tab, "No categories.");
    /* beside traces, the other views show this run's rows empty */
    snprintf(text, sizeof(text),
             "This input is torch.profiler's raw memory timeline "
             "(export_memory_timeline_raw, what HTA's memory analysis "
             "reads): the bytes of one device's tensors by category, summed "
             "as HTA sums them. The file does not say which device, and "
             "holds no operators, kernels or steps: %s, not zero.",
             only ? "the report's other views are absent"
                  : "its rows in the report's other views are empty");
    pr_figs_note(f, text);
}

/* The runs that are raw memory timelines, each under its run's label
 * when the report has several runs.  A run read from a trace has none
 * (torch.profiler writes the timeline to a file of its own), so it gets
 * no part here rather than a line saying so under every trace. */
static void
build(struct pr_figs *f, const cJSON *summary, const cJSON *none)
{
    const cJSON *run, *runs = pr_sget(summary, PR_K_RUNS);
    char label[256];

    (void)none;
    cJSON_ArrayForEach(run, runs)
    {
        const cJSON *mt = pr_sget(run, PR_K_MEMORY_TIMELINE);

        if (!cJSON_IsObject(mt))
            continue;
        if (pr_sget_len(runs) > 1)
            pr_figs_part(f, pr_fig_run_label(run, label, sizeof(label)),
                         pr_fig_device_name(pr_sget_first(run, PR_K_DEVICES)));
        draw(f, mt, pr_fig_memtl_only(summary));
    }
}

const struct pr_section pr_section_memtl = {
    "memory_timeline",
    "Memory timeline",
    "Memory by category over time, as torch.profiler categorises tensors "
    "and HTA plots them.",
    0, /* build draws the runs that have a timeline, and only those */
    build,
    present,
    NULL};

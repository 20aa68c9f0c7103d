/* sec_links.c - the link matrix of the report's distributed section
 * (issue #13): from summary["distributed"]["link_groups"] (links.c), the
 * largest communication groups that have links between ranks (a group of
 * one rank's copies to itself has nothing to draw), each as a source
 * rank x destination rank grid
 * coloured by bandwidth, each cell naming its transport, and the
 * job's traffic per transport as a table.  A rank's link to itself
 * (LOCAL, an on-chip copy hundreds of GB/s fast) is shaded apart so that
 * it does not flatten the colours of the links between ranks, which run
 * from 0 to the fastest of them. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/figures.h"
#include "profreport/keys.h"
#include "profreport/sget.h"

#define MAX_RANKS 64 /* the grid's side; a larger group is cut */
#define MAX_GRIDS 3  /* groups drawn, the largest with links between ranks */

struct cell {
    double bytes, time_us, gbps; /* gbps NAN: no link */
    const char *transport;       /* borrowed from the summary */
};

/* Rows are the ranks that reported links (each rank writes the links
 * leaving it), columns every rank they reach. */
struct grid {
    char title[200];
    double row[MAX_RANKS], col[MAX_RANKS];
    size_t n_rows, n_cols;
    struct cell c[MAX_RANKS][MAX_RANKS];
    double hi; /* the fastest link between ranks: the ramp's top */
};

static int
is_self(const struct grid *g, size_t r, size_t k)
{
    return g->row[r] == g->col[k];
}

static double
shade(const struct grid *g, double gbps)
{
    return g->hi > 0 ? gbps / g->hi : 0.5;
}

static void
cell_text(struct pr_canvas *c, const struct grid *g, size_t r, size_t k,
          double x, double y, double w, double h)
{
    const struct cell *e = &g->c[r][k];
    int dark = !is_self(g, r, k) && shade(g, e->gbps) >= 0.5;
    struct pr_text_style ts = {9, dark ? 0xFFFFFF : PR_COLOR_INK,
                               PR_ANCHOR_MIDDLE, 0, 0};
    char bw[48];

    pr_fig_format(e->gbps, PR_FMT_GBPS, bw, sizeof(bw));
    if (h < 22 || c->ops->text_width(c, bw, ts.size, 0) + 4 > w)
        return;
    c->ops->text(c, x + w / 2, y + h / 2 - 1, bw, &ts);
    ts.size = 8;
    if (c->ops->text_width(c, e->transport, ts.size, 0) + 4 <= w)
        c->ops->text(c, x + w / 2, y + h / 2 + 9, e->transport, &ts);
}

static void
draw_cell(struct pr_canvas *c, const struct grid *g, size_t r, size_t k,
          double x, double y, double w, double h)
{
    const struct cell *e = &g->c[r][k];
    int none = isnan(e->gbps);
    struct pr_style st = {none ? PR_COLOR_BG
                          : is_self(g, r, k)
                              ? PR_COLOR_GRID
                              : pr_canvas_ramp(shade(g, e->gbps)),
                          PR_COLOR_GRID, 0.5, 0, 0};
    char tip[300], a[48], b[48], bw[48];

    if (c->ops->group_begin != NULL && !none) {
        snprintf(tip, sizeof(tip), "rank %.0f to %.0f, %s: %s in %s, %s",
                 g->row[r], g->col[k], e->transport,
                 pr_fig_format(e->bytes, PR_FMT_BYTES, a, sizeof(a)),
                 pr_fig_format(e->time_us, PR_FMT_US, b, sizeof(b)),
                 pr_fig_format(e->gbps, PR_FMT_GBPS, bw, sizeof(bw)));
        c->ops->group_begin(c, tip);
    }
    c->ops->rect(c, x, y, w, h, &st);
    if (!none)
        cell_text(c, g, r, k, x, y, w, h);
    if (c->ops->group_begin != NULL && !none)
        c->ops->group_end(c);
}

static void
draw_legend(struct pr_canvas *c, double x, double y, const struct grid *g)
{
    char b[48], text[200];

    snprintf(text, sizeof(text),
             "0  to  %s between ranks; grey: a rank's copies to itself",
             pr_fig_format(g->hi, PR_FMT_GBPS, b, sizeof(b)));
    pr_chart_ramp_legend(c, x, y, text);
}

/* "rank N" over a column, or "N" where the columns are too narrow. */
static void
col_label(struct pr_canvas *c, double x, double y, double cw, double rank,
          const struct pr_text_style *lab)
{
    char s[32];

    snprintf(s, sizeof(s), "rank %.0f", rank);
    if (c->ops->text_width(c, s, lab->size, 0) + 4 > cw)
        snprintf(s, sizeof(s), "%.0f", rank);
    c->ops->text(c, x, y, s, lab);
}

static void
draw_grid(struct pr_canvas *c, const struct pr_chart_box *b, const void *spec)
{
    const struct grid *g = spec;
    struct pr_text_style lab = {PR_CHART_FONT_TICK, PR_COLOR_MUTED,
                                PR_ANCHOR_END, 0, 0};
    double left = b->x + 76;
    double top = b->y + pr_chart_title(c, b, g->title) + PR_CHART_FONT_TICK + 8;
    double cw = fmin(80, (b->x + b->w - 10 - left) / (double)g->n_cols);
    double rh = fmin(36, (b->y + b->h - 24 - top) / (double)g->n_rows);
    char s[32];

    c->ops->text(c, left - 4, top - 4, "from \\ to", &lab);
    lab.anchor = PR_ANCHOR_MIDDLE;
    for (size_t k = 0; k < g->n_cols; k++)
        col_label(c, left + ((double)k + 0.5) * cw, top - 4, cw, g->col[k],
                  &lab);
    lab.anchor = PR_ANCHOR_END;
    for (size_t r = 0; r < g->n_rows; r++) {
        snprintf(s, sizeof(s), "rank %.0f", g->row[r]);
        c->ops->text(c, left - 4, top + ((double)r + 0.5) * rh + lab.size / 3,
                     s, &lab);
        for (size_t k = 0; k < g->n_cols; k++)
            draw_cell(c, g, r, k, left + (double)k * cw, top + (double)r * rh,
                      cw, rh);
    }
    draw_legend(c, left, top + (double)g->n_rows * rh + 8, g);
}

/* The index of `rank` in v (added when new and there is room); n when
 * there is none. */
static size_t
index_of(double *v, size_t *n, double rank)
{
    size_t i;

    for (i = 0; i < *n && v[i] != rank; i++)
        ;
    if (i == *n && *n < MAX_RANKS)
        v[(*n)++] = rank;
    return i;
}

static int
cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

/* One link into its cell; links of several transports between the same
 * ranks add up, and the cell names the first. */
static void
put_link(struct grid *g, const cJSON *l)
{
    size_t r = index_of(g->row, &g->n_rows, pr_sget_num(l, PR_K_SRC_RANK));
    size_t k = index_of(g->col, &g->n_cols, pr_sget_num(l, PR_K_DST_RANK));
    struct cell *e;

    if (r >= g->n_rows || k >= g->n_cols)
        return;
    e = &g->c[r][k];
    if (isnan(e->gbps))
        e->transport = pr_sget_str_or(l, PR_K_TRANSPORT, "?");
    e->bytes += fmax(0, pr_sget_num(l, PR_K_BYTES));
    e->time_us += fmax(0, pr_sget_num(l, PR_K_TIME_US));
    e->gbps = e->time_us > 0 ? e->bytes / (e->time_us * 1e3) : 0;
}

/* The grid of one link group (ranks in order), or NULL. */
static struct grid *
build_grid(const cJSON *grp)
{
    struct grid *g = calloc(1, sizeof(*g));
    const cJSON *l;

    if (g == NULL)
        return NULL;
    for (size_t r = 0; r < MAX_RANKS; r++)
        for (size_t k = 0; k < MAX_RANKS; k++)
            g->c[r][k].gbps = NAN;
    cJSON_ArrayForEach(l, pr_sget(grp, PR_K_LINKS))
    {
        index_of(g->row, &g->n_rows, pr_sget_num(l, PR_K_SRC_RANK));
        index_of(g->col, &g->n_cols, pr_sget_num(l, PR_K_DST_RANK));
    }
    qsort(g->row, g->n_rows, sizeof(g->row[0]), cmp_dbl);
    qsort(g->col, g->n_cols, sizeof(g->col[0]), cmp_dbl);
    cJSON_ArrayForEach(l, pr_sget(grp, PR_K_LINKS)) put_link(g, l);
    for (size_t r = 0; r < g->n_rows; r++)
        for (size_t k = 0; k < g->n_cols; k++)
            if (!is_self(g, r, k) && !isnan(g->c[r][k].gbps))
                g->hi = fmax(g->hi, g->c[r][k].gbps);
    return g;
}

static struct pr_fig_chart *
grid_chart(const cJSON *grp)
{
    struct grid *g = build_grid(grp);
    struct pr_fig_chart *ch;
    double h;

    if (g == NULL || g->n_rows == 0 || g->n_cols == 0) {
        free(g);
        return NULL;
    }
    snprintf(g->title, sizeof(g->title),
             "Link bandwidth, group %.120s (%.0f ranks)",
             pr_sget_str_or(grp, PR_K_GROUP, "unknown"),
             pr_sget_num(grp, PR_K_RANKS));
    h = 76 + 36.0 * (double)(g->n_rows > 24 ? 24 : g->n_rows);
    ch = pr_fig_chart_new(draw_grid, g->title, 960, h, h * 0.8);
    if (ch == NULL) {
        free(g);
        return NULL;
    }
    ch->own[0] = g;
    ch->spec = g;
    return ch;
}

static const struct pr_col type_cols[] = {
    {"transport", PR_K_TRANSPORT, "Transport", PR_FMT_TEXT, 1, NULL,
     PR_COL_BOTH},
    {"links", PR_K_LINKS, "Links", PR_FMT_COUNT, 0.6, NULL, PR_COL_BOTH},
    {"bytes", PR_K_BYTES, "Bytes", PR_FMT_BYTES, 1, NULL, PR_COL_BOTH},
    {"time", PR_K_TIME_US, "Transit time", PR_FMT_US, 1, NULL, PR_COL_BOTH},
    {"bandwidth", PR_K_BANDWIDTH_GBPS, "Bandwidth", PR_FMT_GBPS, 1,
     "bytes over transit time, summed over the links", PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* A group with a link between two ranks. */
static int
between_ranks(const cJSON *grp)
{
    const cJSON *l;

    cJSON_ArrayForEach(
        l,
        pr_sget(grp, PR_K_LINKS)) if (pr_sget_num(l, PR_K_SRC_RANK) !=
                                      pr_sget_num(l, PR_K_DST_RANK)) return 1;
    return 0;
}

void
pr_sec_links(struct pr_figs *f, const cJSON *distributed)
{
    const cJSON *groups = pr_sget(distributed, PR_K_LINK_GROUPS), *grp;
    int drawn = 0;
    struct pr_fig_table t = {.cols = type_cols,
                             .rows = pr_sget(distributed, PR_K_LINK_TYPES),
                             .what = "transports",
                             .order = "bytes"};

    if (pr_sget_len(groups) == 0)
        return;
    pr_figs_heading(f, "Links");
    pr_figs_text(f, "Collective traffic per link as the producer measured it "
                    "(communication_matrix.json or its tables in a database "
                    "export, or HCCL's own tasks), summed "
                    "over the capture; ranks are ranks within the "
                    "communication group.");
    cJSON_ArrayForEach(grp, groups)
    {
        if (drawn < MAX_GRIDS && between_ranks(grp)) {
            pr_figs_chart(f, grid_chart(grp), 0);
            drawn++;
        }
    }
    pr_figs_table(f, "Traffic by transport", &t, NULL);
}

/* test_chart.c - chart geometry on a recording canvas (stacked bars reach
 * the axis, donut closes the circle, ticks are nice), the reports' one
 * number formatting (chart.h, figures.h: values, compared pairs, signed
 * changes, percentage points), and escaping through the SVG backend. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "profreport/chart.h"
#include "profreport/figures.h"
#include "profreport/svg.h"

/* A canvas that records rects, horizontal lines and wedge angles. */
struct rec {
    double rx[64], ry[64], rw[64], rh[64];
    uint32_t rfill[64];
    size_t n_rects;
    double hline_y[64];
    size_t n_hlines;
    double wedge_sum;
    size_t n_wedges, n_texts;
    size_t n_decimal_texts; /* labels such as "0.2" */
    size_t n_polys, n_circles;
    double circle_y[64];
};

static void
r_rect(struct pr_canvas *c, double x, double y, double w, double h,
       const struct pr_style *s)
{
    struct rec *r = c->backend;
    if (r->n_rects < 64) {
        r->rx[r->n_rects] = x;
        r->ry[r->n_rects] = y;
        r->rw[r->n_rects] = w;
        r->rh[r->n_rects] = h;
        r->rfill[r->n_rects++] = s->fill;
    }
}

static void
r_line(struct pr_canvas *c, double x1, double y1, double x2, double y2,
       const struct pr_style *s)
{
    struct rec *r = c->backend;
    (void)s;
    if (y1 == y2 && x2 > x1 && r->n_hlines < 64) {
        r->hline_y[r->n_hlines++] = y1;
    }
}

static void
r_poly(struct pr_canvas *c, const double *xy, size_t n, int closed,
       const struct pr_style *s)
{
    struct rec *r = c->backend;
    (void)xy, (void)n, (void)closed, (void)s;
    r->n_polys++;
}

static void
r_circle(struct pr_canvas *c, double cx, double cy, double rr,
         const struct pr_style *s)
{
    struct rec *r = c->backend;
    (void)cx, (void)rr, (void)s;
    if (r->n_circles < 64)
        r->circle_y[r->n_circles] = cy;
    r->n_circles++;
}

static void
r_wedge(struct pr_canvas *c, double cx, double cy, double ro, double ri,
        double a0, double a1, const struct pr_style *s)
{
    struct rec *r = c->backend;
    (void)cx, (void)cy, (void)ro, (void)ri, (void)s;
    r->wedge_sum += a1 - a0;
    r->n_wedges++;
}

static void
r_text(struct pr_canvas *c, double x, double y, const char *t,
       const struct pr_text_style *s)
{
    struct rec *r = c->backend;
    (void)x, (void)y, (void)s;
    r->n_texts++;
    if (t[0] >= '0' && t[0] <= '9' && strchr(t, '.') != NULL)
        r->n_decimal_texts++;
}

static double
r_width(struct pr_canvas *c, const char *t, double size, int bold)
{
    (void)c;
    return pr_svg_text_width(t, size, bold);
}

static const struct pr_canvas_ops rec_ops = {
    r_rect, r_line, r_poly, r_circle, r_wedge, r_text, r_width, NULL, NULL};

static void
rec_canvas(struct pr_canvas *c, struct rec *r)
{
    memset(r, 0, sizeof(*r));
    memset(c, 0, sizeof(*c));
    c->ops = &rec_ops;
    c->backend = r;
    c->width = 600;
    c->height = 300;
}

static void
test_ticks(void **state)
{
    double t[16];
    size_t n;
    (void)state;

    n = pr_chart_ticks(0, 100, 6, t, 16);
    assert_int_equal(n, 6);
    for (size_t i = 0; i < n; i++) {
        assert_true(fabs(t[i] - 20.0 * (double)i) < 1e-9);
    }
    n = pr_chart_ticks(0, 187.948, 6, t, 16);
    assert_int_equal(n, 5);
    assert_true(t[1] == 50 && t[4] == 200);
    n = pr_chart_ticks(0.1, 0.3, 6, t, 16);
    assert_true(n >= 3 && t[0] <= 0.1 && t[n - 1] >= 0.3);
    assert_true(fabs(t[1] - t[0] - 0.05) < 1e-12);
    n = pr_chart_log_ticks(0.05, 300, t, 16);
    assert_int_equal(n, 6);
    assert_true(fabs(t[0] - 0.01) < 1e-12 && fabs(t[5] - 1000) < 1e-9);
    assert_int_equal(pr_chart_ticks(0, 1, 1, t, 16), 0);
}

static void
expect_fmt(double v, enum pr_axis_unit u, const char *want)
{
    char buf[48];

    assert_string_equal(pr_chart_format(v, u, buf, sizeof(buf)), want);
}

static void
test_format(void **state)
{
    (void)state;
    expect_fmt(1530, PR_UNIT_US, "1.53 ms");
    expect_fmt(0.5, PR_UNIT_US, "500 ns");
    expect_fmt(87.25, PR_UNIT_US, "87.2 \xC2\xB5s");
    expect_fmt(2.5e6, PR_UNIT_US, "2.50 s");
    expect_fmt(999.7, PR_UNIT_US, "1.00 ms");
    expect_fmt(3.2e9, PR_UNIT_BYTES, "2.98 GiB");
    expect_fmt(512, PR_UNIT_BYTES, "512 B");
    expect_fmt(-8388608, PR_UNIT_BYTES, "-8.00 MiB");
    expect_fmt(-0.0001, PR_UNIT_PCT, "0.0%");
    expect_fmt(1234567, PR_UNIT_COUNT, "1,234,567");
    expect_fmt(0.25, PR_UNIT_TFLOPS, "250 GFLOP/s");
    expect_fmt(NAN, PR_UNIT_US, "\xE2\x80\x93");
}

static void
expect_fig(const char *got, const char *want)
{
    assert_string_equal(got, want);
}

/* Figures.h's formatting: one way to print a time in every report. */
static void
test_fig_format(void **state)
{
    char a[64], b[64];
    (void)state;

    /* edge values */
    expect_fig(pr_fig_format(0, PR_FMT_US, a, sizeof(a)), "0");
    expect_fig(pr_fig_format(153.5, PR_FMT_US, a, sizeof(a)),
               "154 \xC2\xB5s"); /* three significant digits */
    expect_fig(pr_fig_format(999.95, PR_FMT_US, a, sizeof(a)), "1.00 ms");
    expect_fig(pr_fig_format(-153.2, PR_FMT_US, a, sizeof(a)),
               "-153 \xC2\xB5s");
    expect_fig(pr_fig_format(-0.0001, PR_FMT_PCT, a, sizeof(a)), "0.0%");
    expect_fig(pr_fig_format(NAN, PR_FMT_BYTES, a, sizeof(a)), "\xE2\x80\x93");
    expect_fig(pr_fig_format(INFINITY, PR_FMT_US, a, sizeof(a)),
               "\xE2\x80\x93");
    expect_fig(pr_fig_format(-INFINITY, PR_FMT_PCT, a, sizeof(a)),
               "\xE2\x80\x93");
    /* huge values stay short: no 300-digit number, no cut one */
    expect_fig(pr_fig_format(1e300, PR_FMT_US, a, sizeof(a)), "1.00e+294 s");
    expect_fig(pr_fig_format(3.6e9, PR_FMT_US, a, sizeof(a)), "3600 s");
    expect_fig(pr_fig_format(1e300, PR_FMT_BYTES, a, sizeof(a)),
               "8.88e+284 PiB");
    expect_fig(pr_fig_format(1e300, PR_FMT_PCT, a, sizeof(a)), "1.00e+300%");
    expect_fig(pr_fig_format(-1e300, PR_FMT_NUM, a, sizeof(a)), "-1.00e+300");
    expect_fig(pr_fig_format(1e300, PR_FMT_FLOPS, a, sizeof(a)),
               "1.00e+282 EFLOP");
    expect_fig(pr_fig_format(1e300, PR_FMT_GBPS, a, sizeof(a)),
               "1.00e+297 TB/s");

    /* a pair reads apart only with the decimals it needs */
    pr_fig_format_pair(153.5, 151.2, PR_FMT_US, a, b, sizeof(a));
    expect_fig(a, "154 \xC2\xB5s");
    expect_fig(b, "151 \xC2\xB5s");
    pr_fig_format_pair(153.4, 153.2, PR_FMT_US, a, b, sizeof(a));
    expect_fig(a, "153.4 \xC2\xB5s");
    expect_fig(b, "153.2 \xC2\xB5s");
    pr_fig_format_pair(1530.0, 1530.4, PR_FMT_US, a, b, sizeof(a));
    expect_fig(a, "1.5300 ms");
    expect_fig(b, "1.5304 ms");
    pr_fig_format_pair(153.5, 153.5, PR_FMT_US, a, b, sizeof(a));
    expect_fig(a, "154 \xC2\xB5s"); /* equal values: equal text */
    expect_fig(b, "154 \xC2\xB5s");
    pr_fig_format_pair(NAN, 12.25, PR_FMT_US, a, b, sizeof(a));
    expect_fig(a, "\xE2\x80\x93"); /* a new row: no baseline */
    expect_fig(b, "12.2 \xC2\xB5s");
    /* closer than the most decimals: as close as the format goes */
    pr_fig_format_pair(100.0, 100.00001, PR_FMT_US, a, b, sizeof(a));
    expect_fig(a, "100.000 \xC2\xB5s");
    pr_fig_format_pair(3.2e9, 3.2e9 + 1e6, PR_FMT_BYTES, a, b, sizeof(a));
    expect_fig(a, "2.980 GiB");
    expect_fig(b, "2.981 GiB");
    {
        const double nights[] = {120.0, 120.04, NAN, 120.06, 120.06};
        assert_int_equal(pr_fig_extra_digits(nights, 5, PR_FMT_US), 2);
        assert_int_equal(pr_fig_extra_digits(nights, 1, PR_FMT_US), 0);
        assert_int_equal(pr_fig_extra_digits(NULL, 0, PR_FMT_US), 0);
    }

    /* signed changes and percentage points */
    expect_fig(pr_fig_format_change(2.3, PR_FMT_US, a, sizeof(a)),
               "+2.30 \xC2\xB5s");
    expect_fig(pr_fig_format_change(-1572864, PR_FMT_BYTES, a, sizeof(a)),
               "-1.50 MiB");
    expect_fig(pr_fig_format_change(12.34, PR_FMT_PCT, a, sizeof(a)), "+12.3%");
    expect_fig(pr_fig_format_change(0, PR_FMT_US, a, sizeof(a)), "0");
    expect_fig(pr_fig_format_change(-0.0, PR_FMT_US, a, sizeof(a)), "0");
    expect_fig(pr_fig_format_change(1e-4, PR_FMT_US, a, sizeof(a)), "0 ns");
    expect_fig(pr_fig_format_change(-0.01, PR_FMT_PCT, a, sizeof(a)), "0.0%");
    expect_fig(pr_fig_format_change(0, PR_FMT_PCT, a, sizeof(a)), "0.0%");
    expect_fig(pr_fig_format_change(-999.95, PR_FMT_US, a, sizeof(a)),
               "-1.00 ms");
    expect_fig(pr_fig_format_change(NAN, PR_FMT_US, a, sizeof(a)),
               "\xE2\x80\x93");
    expect_fig(pr_fig_format_pp(1.54, a, sizeof(a)), "+1.5 pp");
    expect_fig(pr_fig_format_pp(-0.25, a, sizeof(a)), "-0.2 pp");
    expect_fig(pr_fig_format_pp(0, a, sizeof(a)), "0.0 pp");
    expect_fig(pr_fig_format_pp(NAN, a, sizeof(a)), "\xE2\x80\x93");
    /* a short buffer is cut, never overrun */
    pr_fig_format_change(153.5, PR_FMT_US, a, 4);
    assert_true(strlen(a) < 4);
}

static void
test_stacked_bars_reach_axis(void **state)
{
    static const char *const cats[] = {"#1", "#2"};
    static const char *const series[] = {"kernel", "memcpy", "other"};
    static const double vals[] = {60, 30, 10, 20, 20, 10};
    static const uint32_t colors[] = {0x111111, 0x222222, 0x333333};
    struct pr_chart_stacked s = {"t",    cats,         2,   series, 3, vals,
                                 colors, PR_UNIT_NONE, NULL};
    struct pr_chart_box b = {0, 0, 600, 300};
    struct pr_canvas c;
    struct rec r;
    double h[2] = {0, 0}, top[2] = {1e9, 1e9}, grid_top = 1e9, grid_bottom = 0;
    (void)state;

    rec_canvas(&c, &r);
    pr_chart_stacked_bars(&c, &b, &s);
    for (size_t i = 0; i < r.n_rects; i++) {
        int bar = -1;
        if (r.rw[i] <= 10) {
            continue; /* a legend swatch */
        }
        for (size_t k = 0; k < 3; k++) {
            bar = r.rfill[i] == colors[k] ? (r.rx[i] < 300 ? 0 : 1) : bar;
        }
        if (bar >= 0) {
            h[bar] += r.rh[i];
            top[bar] = fmin(top[bar], r.ry[i]);
        }
    }
    for (size_t i = 0; i < r.n_hlines; i++) {
        grid_top = fmin(grid_top, r.hline_y[i]);
        grid_bottom = fmax(grid_bottom, r.hline_y[i]);
    }
    /* ticks 0..100: the 100 bar touches the top grid line, the 50 bar
       is half as tall, and both stand on the baseline */
    assert_true(fabs(top[0] - grid_top) < 1e-6);
    assert_true(fabs(h[0] - (grid_bottom - grid_top)) < 1e-6);
    assert_true(fabs(h[0] - 2 * h[1]) < 1e-6);
    assert_true(fabs(top[1] + h[1] - grid_bottom) < 1e-6);
    assert_int_equal(r.n_hlines, 6); /* 0, 20, 40, 60, 80, 100 */
}

static void
test_donut_closes(void **state)
{
    static const char *const labels[] = {"a", "b", "zero", "c"};
    static const double vals[] = {3, 1, 0, 4};
    struct pr_chart_donut s = {NULL, labels,     vals,   4,
                               NULL, PR_UNIT_US, "8 us", "mean"};
    struct pr_chart_box b = {0, 0, 400, 200};
    struct pr_canvas c;
    struct rec r;
    (void)state;

    rec_canvas(&c, &r);
    pr_chart_donut(&c, &b, &s);
    assert_int_equal(r.n_wedges, 3); /* the zero slice is skipped */
    assert_true(fabs(r.wedge_sum - 2 * 3.14159265358979323846) < 1e-9);
}

static char *
svg_of(void (*draw)(struct pr_canvas *, const struct pr_chart_box *,
                    const void *),
       const void *spec, struct pr_buf *out)
{
    struct pr_svg svg;
    struct pr_canvas c;
    struct pr_chart_box b = {8, 8, 584, 284};

    pr_buf_init(out, 0);
    pr_svg_begin(&svg, &c, out, 600, 300, "a <chart>");
    draw(&c, &b, spec);
    assert_int_equal(pr_svg_end(&svg, &c), PR_OK);
    return out->data;
}

static void
draw_hbars(struct pr_canvas *c, const struct pr_chart_box *b, const void *s)
{
    pr_chart_hbars(c, b, s);
}

static void
draw_roof(struct pr_canvas *c, const struct pr_chart_box *b, const void *s)
{
    pr_chart_roofline(c, b, s);
}

static void
test_svg_escapes_labels(void **state)
{
    static const char *const labels[] = {"<script>alert(1)</script>",
                                         "\"onmouseover=\"x"};
    static const double vals[] = {10, 5};
    struct pr_chart_hbars s = {"Top & worst", labels, vals, 2, NULL,
                               PR_UNIT_US,    NULL,   0,    0};
    struct pr_buf out;
    char *svg;
    (void)state;

    svg = svg_of(draw_hbars, &s, &out);
    assert_null(strstr(svg, "<script"));
    assert_null(strstr(svg, "\"onmouseover"));
    assert_non_null(strstr(svg, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert_non_null(strstr(svg, "aria-label=\"a &lt;chart&gt;\""));
    assert_non_null(strstr(svg, "Top &amp; worst"));
    assert_null(strstr(svg, "-0\""));
    pr_buf_free(&out);
}

/* The bars' labels keep what tells them from the run's other kernels,
 * not only from one another (review 26g #8: hta_diff_control's top
 * kernels read "split_embedding_backward…_kernel_cta_per_row_1<…>", the
 * "unweighted" that tells it from the run's weighted kernel elided);
 * each label as wide as it fits on its own (widen_labels). */
static void
test_hbars_told_from_others(void **state)
{
#define TBE(W, R)                                                              \
    "void split_embedding_backward_codegen_rowwise_adagrad_" W "_kernel_" R    \
    "_per_row_1<float, float, float, 2ul>(at::GenericPackedTensorAccessor<"    \
    "float, 2ul, at::RestrictPtrTraits, int>, int)"
    static const char *const labels[] = {TBE("unweighted", "cta"),
                                         TBE("unweighted", "warp"), "k_small",
                                         TBE("weighted", "cta")};
#undef TBE
    static const double vals[] = {10, 5, 3};
    struct pr_chart_hbars s = {"Top",      labels, vals, 3, NULL,
                               PR_UNIT_US, NULL,   0,    1};
    struct pr_buf out;
    struct pr_svg svg;
    struct pr_canvas c;
    struct pr_chart_box b = {8, 8, 944, 284}; /* the report's 960 */
    const char *p, *q;
    size_t n = 0;
    (void)state;

    pr_buf_init(&out, 0);
    pr_svg_begin(&svg, &c, &out, 960, 300, "top kernels");
    pr_chart_hbars(&c, &b, &s);
    assert_int_equal(pr_svg_end(&svg, &c), PR_OK);
    for (p = out.data; (p = strstr(p, "<text")) != NULL; p = q) {
        p = strchr(p, '>') + 1;
        q = strstr(p, "</text>");
        if (q == NULL)
            break;
        if (memmem(p, (size_t)(q - p), "split_embedding", 15) != NULL) {
            n++;
            if (memmem(p, (size_t)(q - p), "unweighted", 10) == NULL)
                print_error("label \"%.*s\"\n", (int)(q - p), p);
            assert_non_null(memmem(p, (size_t)(q - p), "unweighted", 10));
            assert_non_null(memmem(p, (size_t)(q - p), "per_row_1", 9));
        }
    }
    assert_int_equal(n, 2); /* the other is no bar */
    assert_null(strstr(out.data, ">k_small…"));
    pr_buf_free(&out);
}

/* Bars whose names differ only past what fits read apart (review-3
 * finding 6: five bars of a PDF's "Top kernels" read
 * "elementwise_kernel<...>"); the tooltips keep the names whole. */
static void
test_hbars_labels_apart(void **state)
{
    static const char *const labels[] = {
        "void at::native::elementwise_kernel<(int)128, (int)2, void "
        "at::native::gpu_kernel_impl_nocast<at::native::AddFunctor<float>>"
        "(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>"
        "(int, T3)",
        "void at::native::elementwise_kernel<(int)128, (int)2, void "
        "at::native::gpu_kernel_impl_nocast<at::native::MulFunctor<float>>"
        "(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>"
        "(int, T3)",
        "void at::native::elementwise_kernel<(int)128, (int)4, void "
        "at::native::gpu_kernel_impl_nocast<at::native::AddFunctor<float>>"
        "(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>"
        "(int, T3)"};
    static const double vals[] = {10, 5, 3};
    struct pr_chart_hbars s = {"Top",      labels, vals, 3, NULL,
                               PR_UNIT_US, NULL,   0,    0};
    struct pr_buf out;
    const char *p, *q;
    char seen[3][200];
    size_t n = 0, i, j;
    (void)state;

    svg_of(draw_hbars, &s, &out);
    /* the label texts: each <text> that holds "elementwise" */
    for (p = out.data; (p = strstr(p, "<text")) != NULL && n < 3; p = q) {
        p = strchr(p, '>') + 1;
        q = strstr(p, "</text>");
        if (q == NULL)
            break;
        if ((size_t)(q - p) < sizeof(seen[0]) &&
            memmem(p, (size_t)(q - p), "elementwise", 11) != NULL) {
            memcpy(seen[n], p, (size_t)(q - p));
            seen[n++][q - p] = '\0';
        }
    }
    assert_int_equal(n, 3);
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            assert_string_not_equal(seen[i], seen[j]);
    for (i = 0; i < 3; i++) /* whole in the tooltips */
        assert_non_null(strstr(out.data, i == 1 ? "MulFunctor&lt;float&gt;"
                                                : "AddFunctor&lt;float&gt;"));
    pr_buf_free(&out);
}

static void
test_roofline(void **state)
{
    static const struct pr_chart_point pts[] = {{"mm", 150, 80, 10, 0},
                                                {"skip", 0, 5, 1, 0},
                                                {"relu", 0.1, 0.05, 2, 1}};
    static const struct pr_chart_roof roofs[] = {{"FP32", 19.5},
                                                 {"FP16 tensor", 312}};
    struct pr_chart_roofline s = {"Roofline", pts, 3,    roofs, 2,
                                  1555,       4,   NULL, 0};
    struct pr_buf out;
    char *svg;
    size_t circles = 0;
    (void)state;

    svg = svg_of(draw_roof, &s, &out);
    for (const char *p = svg; (p = strstr(p, "<circle")) != NULL; p++) {
        circles++;
    }
    assert_int_equal(circles, 2); /* x = 0 cannot sit on a log axis */
    assert_non_null(strstr(svg, "ridge 201 FLOP/B"));
    assert_non_null(strstr(svg, "1555 GB/s"));
    assert_non_null(strstr(svg, "FP16 tensor 312 TFLOP/s"));
    pr_buf_free(&out);
}

static void
test_line_and_timeline(void **state)
{
    static const double x[] = {0, 100, 200, 300};
    static const double y[] = {10, 40, 20, 30};
    struct pr_chart_series ser = {"alloc", x, y, 4, PR_COLOR_NONE, 1, 1, 0};
    struct pr_chart_lines l = {"Memory", &ser, 1, PR_UNIT_US, PR_UNIT_BYTES,
                               "time",   NULL, 0, 100,        40,
                               "peak",   NULL, 0};
    static const char *const lanes[] = {"stream 7", "stream 13"};
    static const struct pr_chart_span spans[] = {{0, 0, 50, "k1", 0},
                                                 {1, 20, 0.001, "tiny", 1},
                                                 {5, 0, 10, "bad lane", 0}};
    struct pr_chart_timeline t = {"Streams", lanes, 2,    spans, 3,
                                  0,         0,     NULL, 0,     NULL};
    struct pr_chart_box b = {0, 0, 600, 300};
    struct pr_canvas c;
    struct rec r;
    (void)state;

    rec_canvas(&c, &r);
    pr_chart_line(&c, &b, &l);
    assert_int_equal(c.failed, 0);
    rec_canvas(&c, &r);
    pr_chart_timeline(&c, &b, &t);
    assert_int_equal(r.n_rects, 2); /* the span on lane 5 is dropped */
    assert_true(r.rw[1] >= 0.5);    /* tiny spans stay visible */
}

/* Two ranks on a count axis: ticks 0 and 1, never "rank 0.2". */
static void
test_count_axis_whole_ticks(void **state)
{
    static const double x[] = {0, 1};
    static const double y[] = {136581, 131912};
    struct pr_chart_series ser = {"mean step", x, y, 2, PR_COLOR_NONE, 0, 0, 0};
    struct pr_chart_lines l = {.title = "Mean step time per rank",
                               .series = &ser,
                               .n_series = 1,
                               .x_unit = PR_UNIT_COUNT,
                               .y_unit = PR_UNIT_US,
                               .x_label = "rank",
                               .y_max = -1};
    struct pr_chart_box b = {0, 0, 600, 300};
    struct pr_canvas c;
    struct rec r;
    (void)state;

    rec_canvas(&c, &r);
    pr_chart_line(&c, &b, &l);
    assert_int_equal(c.failed, 0);
    assert_int_equal(r.n_decimal_texts, 0);
    assert_true(r.n_texts >= 4); /* title, y ticks, x ticks 0 and 1 */
}

/* Ranks as dots over a zero baseline (issue #32): one dot a rank, no line
 * joining separate machines, and a 0.7% spread drawn as small as it is. */
static void
test_rank_dots(void **state)
{
    static const double x[] = {0, 1, 2};
    static const double y[] = {615000, 619000, 617000};
    struct pr_chart_series ser = {"mean step", x, y, 3, PR_COLOR_NONE, 0, 0, 1};
    struct pr_chart_lines l = {.title = "Mean step time per rank",
                               .series = &ser,
                               .n_series = 1,
                               .x_unit = PR_UNIT_COUNT,
                               .y_unit = PR_UNIT_US,
                               .x_label = "rank",
                               .y_max = 0};
    struct pr_chart_box b = {0, 0, 600, 300};
    struct pr_canvas c;
    struct rec r;
    double lo, hi;
    (void)state;

    rec_canvas(&c, &r);
    pr_chart_line(&c, &b, &l);
    assert_int_equal(c.failed, 0);
    assert_int_equal(r.n_circles, 3);
    assert_int_equal(r.n_polys, 0);
    /* from a zero baseline the three dots lie within 1% of the plot's
       height of each other (a cut axis would spread them over it) */
    lo = hi = r.circle_y[0];
    for (size_t i = 1; i < 3; i++) {
        lo = r.circle_y[i] < lo ? r.circle_y[i] : lo;
        hi = r.circle_y[i] > hi ? r.circle_y[i] : hi;
    }
    assert_true(hi - lo < 0.01 * 300);
    assert_true(hi - lo > 0);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ticks),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_fig_format),
        cmocka_unit_test(test_stacked_bars_reach_axis),
        cmocka_unit_test(test_donut_closes),
        cmocka_unit_test(test_svg_escapes_labels),
        cmocka_unit_test(test_hbars_labels_apart),
        cmocka_unit_test(test_hbars_told_from_others),
        cmocka_unit_test(test_roofline),
        cmocka_unit_test(test_line_and_timeline),
        cmocka_unit_test(test_count_axis_whole_ticks),
        cmocka_unit_test(test_rank_dots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

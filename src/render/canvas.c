/* canvas.c - the colour palette shared by every canvas backend and chart.
 * Drawing itself is the backends' job (svg.c, pdf.c). */
#include "config.h"

#include "profreport/canvas.h"

/* Okabe-Ito (colour-blind safe) without black, then lighter tints of the
 * same hues so that long legends stay distinguishable. */
static const uint32_t palette[] = {
    0x0072B2, 0xE69F00, 0x009E73, 0xD55E00, 0x56B4E9, 0xCC79A7, 0xF0E442,
    0x999999, 0x66AAD1, 0xF0C566, 0x66C5AB, 0xE69E66, 0x9AD2F2, 0xE0AFCA,
};

uint32_t
pr_canvas_palette(size_t i)
{
    return palette[i % (sizeof(palette) / sizeof(palette[0]))];
}

uint32_t
pr_canvas_ramp(double t)
{
    static const uint32_t stops[] = {0xFFFFD9, 0xC7E9B4, 0x41B6C4, 0x225EA8,
                                     0x081D58};
    double x = (t < 0 ? 0 : t > 1 ? 1 : t) * 4;
    size_t i = x >= 4 ? 3 : (size_t)x;
    double f = x - (double)i;
    uint32_t a = stops[i], b = stops[i + 1], out = 0;

    for (int s = 16; s >= 0; s -= 8) {
        double ca = (a >> s) & 0xFF, cb = (b >> s) & 0xFF;
        out |= (uint32_t)(ca + (cb - ca) * f + 0.5) << s;
    }
    return out;
}

int
pr_canvas_is_role(uint32_t color)
{
    uint32_t top = color >> 24;

    return top >= 0x01 && top <= 0x04;
}

uint32_t
pr_canvas_rgb(uint32_t color)
{
    if (color == PR_COLOR_NONE) {
        return color;
    }
    return color & 0xFFFFFFu;
}

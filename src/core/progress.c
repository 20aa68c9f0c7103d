/* progress.c - the line that says how far a job's files are (progress.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "profreport/progress.h"

#define EVERY_NS 250000000LL

static double
since(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) +
           (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

void
pr_progress_duration(double s, char *buf, size_t n)
{
    if (s < 0)
        s = 0;
    if (s < 60)
        snprintf(buf, n, "%.1f s", s);
    else if (s < 3600)
        snprintf(buf, n, "%d min %02d s", (int)(s / 60), (int)s % 60);
    else
        snprintf(buf, n, "%d h %02d min", (int)(s / 3600), (int)(s / 60) % 60);
}

void
pr_progress_start(struct pr_progress *p, FILE *out, int on, size_t n,
                  uint64_t total)
{
    memset(p, 0, sizeof(*p));
    p->out = out;
    p->on = on && out != NULL && n > 1;
    p->n = n;
    p->total = total;
    clock_gettime(CLOCK_MONOTONIC, &p->t0);
    p->last = p->t0;
}

/* The last part of a path, at most 40 bytes of it, into buf: printable
 * ASCII only, anything else '?' (a file name is data, never a terminal
 * control sequence). */
static const char *
short_name(const char *path, char *buf, size_t n)
{
    const char *b = strrchr(path, '/');
    size_t len, i;

    b = b != NULL && b[1] != '\0' ? b + 1 : path;
    len = strlen(b);
    if (len > 40)
        b += len - 40;
    for (i = 0; b[i] != '\0' && i + 1 < n; i++)
        buf[i] = b[i] >= 0x20 && b[i] < 0x7f ? b[i] : '?';
    buf[i] = '\0';
    return buf;
}

void
pr_progress_file(struct pr_progress *p, size_t i, const char *name,
                 uint64_t done)
{
    struct timespec now;
    double el, left;
    char a[32], b[32], nm[48];

    if (!p->on)
        return;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (p->shown && i + 1 < p->n &&
        since(&p->last, &now) * 1e9 < (double)EVERY_NS)
        return;
    p->last = now;
    el = since(&p->t0, &now);
    pr_progress_duration(el, a, sizeof(a));
    fprintf(p->out, "\rprofreport: rank %zu of %zu (%s), %.0f of %.0f MB, %s",
            i + 1, p->n, short_name(name, nm, sizeof(nm)), (double)done / 1e6,
            (double)p->total / 1e6, a);
    if (done > 0 && p->total > done && el > 1) {
        left = el * (double)(p->total - done) / (double)done;
        pr_progress_duration(left, b, sizeof(b));
        fprintf(p->out, ", about %s left", b);
    }
    fputs("\033[K", p->out); /* the rest of a longer line before */
    fflush(p->out);
    p->shown = 1;
}

void
pr_progress_phase(struct pr_progress *p, const char *phase)
{
    struct timespec now;
    char a[32];

    if (!p->on)
        return;
    clock_gettime(CLOCK_MONOTONIC, &now);
    pr_progress_duration(since(&p->t0, &now), a, sizeof(a));
    fprintf(p->out, "%sprofreport: %s (%s in)\n", p->shown ? "\n" : "", phase,
            a);
    fflush(p->out);
    p->shown = 0;
}

void
pr_progress_end(struct pr_progress *p)
{
    if (p->on && p->shown)
        fputc('\n', p->out);
    p->shown = 0;
}

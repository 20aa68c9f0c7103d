/* progress.c - how far a run is, on stderr (progress.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "profreport/progress.h"

#define EVERY_NS 250000000LL /* a terminal line at most 4 times a second */
#define ETA_AFTER_S 1.0      /* an estimate once this much time has passed */

/* The progress whose terminal line is open, for pr_progress_interrupt. */
static struct pr_progress *open_line;

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
pr_progress_size(uint64_t bytes, char *buf, size_t n)
{
    double v = (double)bytes;

    if (v >= 1e9)
        snprintf(buf, n, "%.1f GB", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, n, "%.0f MB", v / 1e6);
    else
        snprintf(buf, n, "%.0f kB", v / 1e3);
}

void
pr_progress_start(struct pr_progress *p, FILE *out, int on, int tty, size_t n,
                  uint64_t total)
{
    memset(p, 0, sizeof(*p));
    p->out = out;
    p->on = on && out != NULL && n > 0;
    p->tty = tty;
    p->n = n;
    p->total = total;
    p->reading = 1;
    clock_gettime(CLOCK_MONOTONIC, &p->t0);
    p->last = p->t0;
}

/* The last part of a path (its last `max` bytes) or a text (its first),
 * into buf:
 * printable ASCII only, anything else '?' (a file name is data, never a
 * terminal control sequence). */
static void
printable(const char *path, int last_part, size_t max, char *buf, size_t n)
{
    const char *b = last_part ? strrchr(path, '/') : NULL;
    size_t len, i;

    b = b != NULL && b[1] != '\0' ? b + 1 : path;
    len = strlen(b);
    if (len > max && last_part) /* a name's end tells files apart */
        b += len - max;
    if (n > max + 1)
        n = max + 1;
    for (i = 0; b[i] != '\0' && i + 1 < n; i++)
        buf[i] = b[i] >= 0x20 && b[i] < 0x7f ? b[i] : '?';
    buf[i] = '\0';
}

/* Start a line: a terminal's is rewritten from its start, a plain one is
 * a line of its own. */
static void
line_start(struct pr_progress *p)
{
    fputs(p->tty ? "\rprofreport: " : "profreport: ", p->out);
}

/* End a line: a terminal's keeps its place unless `done`, and clears the
 * rest of a longer line before. */
static void
line_end(struct pr_progress *p, int done)
{
    if (p->tty)
        fputs("\033[K", p->out);
    if (done || !p->tty)
        fputc('\n', p->out);
    p->shown = p->tty && !done;
    if (p->shown)
        open_line = p;
    else if (open_line == p)
        open_line = NULL;
    fflush(p->out);
}

void
pr_progress_interrupt(FILE *f)
{
    if (open_line != NULL && open_line->out == f && open_line->shown) {
        fputs("\r\033[K", f);
        open_line->shown = 0;
        open_line = NULL;
    }
}

/* "reading big.json: 45% of 300 MB, 3.1 s, about 3.8 s left"; for a
 * job's files "reading file 3 of 8 (rank2.json): ...". */
static void
say_reading(struct pr_progress *p, const struct timespec *now)
{
    double el = since(&p->t0, now);
    char a[32], b[32], sz[32];

    pr_progress_duration(el, a, sizeof(a));
    pr_progress_size(p->total, sz, sizeof(sz));
    line_start(p);
    if (p->n > 1)
        fprintf(p->out, "reading file %zu of %zu (%s): ", p->file + 1, p->n,
                p->name);
    else
        fprintf(p->out, "reading %s: ", p->name);
    if (!p->tty && p->done == 0 && p->total > 0)
        fprintf(p->out, "%s", sz); /* a plain line's start: the size */
    else if (p->total > 0)
        fprintf(p->out, "%d%% of %s, %s",
                (int)((double)(p->done > p->total ? p->total : p->done) *
                      100.0 / (double)p->total),
                sz, a);
    else
        fprintf(p->out, "%s", a);
    if (p->done > 0 && p->total > p->done && el > ETA_AFTER_S) {
        pr_progress_duration(
            el * (double)(p->total - p->done) / (double)p->done, b, sizeof(b));
        fprintf(p->out, ", about %s left", b);
    }
    line_end(p, 0);
    p->last = *now;
}

/* Plain lines: one at each quarter of the bytes crossed (the end is
 * said by the phase after). */
static void
say_quarter(struct pr_progress *p, const struct timespec *now)
{
    int q = p->total > 0 ? (int)((double)p->done * 4.0 / (double)p->total) : 0;

    if (q > 3)
        q = 3;
    if (q > p->quarter) {
        p->quarter = q;
        say_reading(p, now);
    }
}

void
pr_progress_file(struct pr_progress *p, size_t i, const char *name,
                 uint64_t done)
{
    struct timespec now;

    if (p == NULL || !p->on || !p->reading)
        return;
    p->file = i;
    p->base = p->done = done;
    printable(name, 1, 40, p->name, sizeof(p->name));
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (p->tty) {
        if (i == 0 || i + 1 == p->n ||
            since(&p->last, &now) * 1e9 >= (double)EVERY_NS)
            say_reading(p, &now);
    } else if (i == 0) {
        say_reading(p, &now); /* the start, as a plain line */
    } else {
        say_quarter(p, &now);
    }
}

void
pr_progress_bytes(struct pr_progress *p, uint64_t pos)
{
    struct timespec now;

    if (p == NULL || !p->on || !p->reading)
        return;
    p->done = p->base + pos;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (!p->tty)
        say_quarter(p, &now);
    else if (since(&p->last, &now) * 1e9 >= (double)EVERY_NS)
        say_reading(p, &now);
}

/* End the reading or the phase before: say it with its duration. */
static void
end_phase(struct pr_progress *p, const struct timespec *now)
{
    char a[32], sz[32];

    if (p->reading) {
        pr_progress_duration(since(&p->t0, now), a, sizeof(a));
        pr_progress_size(p->total, sz, sizeof(sz));
        line_start(p);
        if (p->n > 1)
            fprintf(p->out, "read %zu files%s%s%s in %s", p->n,
                    p->total > 0 ? ", " : "", p->total > 0 ? sz : "",
                    p->total > 0 ? "," : "", a);
        else
            fprintf(p->out, "read %s in %s", p->total > 0 ? sz : p->name, a);
        p->reading = 0;
    } else if (p->phase[0] != '\0') {
        pr_progress_duration(since(&p->phase_t0, now), a, sizeof(a));
        line_start(p);
        fprintf(p->out, "%s: %s", p->phase, a);
    } else {
        return;
    }
    line_end(p, 1);
}

void
pr_progress_phase(struct pr_progress *p, const char *phase)
{
    struct timespec now;
    char text[sizeof(p->phase)];

    if (p == NULL || !p->on)
        return;
    printable(phase, 0, sizeof(text) - 1, text, sizeof(text));
    if (!p->reading && strcmp(text, p->phase) == 0)
        return;
    clock_gettime(CLOCK_MONOTONIC, &now);
    end_phase(p, &now);
    memcpy(p->phase, text, sizeof(text));
    p->phase_t0 = now;
    if (p->tty) { /* what runs now, until its duration replaces it */
        line_start(p);
        fprintf(p->out, "%s ...", p->phase);
        line_end(p, 0);
    }
}

void
pr_progress_read(struct pr_progress *p)
{
    if (p != NULL && p->on && p->reading && p->n == 1)
        pr_progress_phase(p, "analysing");
}

void
pr_progress_end(struct pr_progress *p, int ok)
{
    struct timespec now;

    if (p == NULL || !p->on)
        return;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (ok)
        end_phase(p, &now);
    else if (p->shown) /* an error follows: the line ends, claiming nothing */
        line_end(p, 1);
    p->phase[0] = '\0';
    p->reading = 0;
    p->on = 0; /* said once */
}

/* progress.h - one line on a terminal while a job of many files is read
 * (issue #33): which rank of how many, the bytes read of the total, the
 * time so far and an estimate of what is left, then the phase that
 * follows ("writing job.json, job.html, job.pdf").  Rewritten in place at
 * most four times a second; nothing unless `on` (stderr a terminal, not
 * --quiet, several files), so logs and pipes never get it.  Plain state,
 * no allocation: nothing here fails. */
#ifndef PROFREPORT_PROGRESS_H
#define PROFREPORT_PROGRESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

struct pr_progress {
    FILE *out;
    int on, shown;
    size_t n;       /* files */
    uint64_t total; /* their bytes, as stored (compressed or not) */
    struct timespec t0, last;
};

/* Start: n files of `total` bytes, shown on `out` when `on`. */
void pr_progress_start(struct pr_progress *p, FILE *out, int on, size_t n,
                       uint64_t total);

/* File i (0-based) is being read, `done` bytes of the files before it
 * read; `name` is its path.  Shown at most every 250 ms, and always for
 * the first and the last file. */
void pr_progress_file(struct pr_progress *p, size_t i, const char *name,
                      uint64_t done);

/* A phase after the files ("writing job.json"): ends the line of the
 * files and says it with the time since the start. */
void pr_progress_phase(struct pr_progress *p, const char *phase);

/* Ends the line, if any. */
void pr_progress_end(struct pr_progress *p);

/* "3.2 s", "4 min 10 s", "1 h 02 min" into buf. */
void pr_progress_duration(double s, char *buf, size_t n);

#endif

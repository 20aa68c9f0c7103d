/* progress.h - how far a run is, on stderr (issues #32, #33): the bytes
 * read of the total with the percent, the time so far and an estimate of
 * what is left (for a job's files also which file of how many), then each
 * named phase that follows ("analysing", "writing report.html") with its
 * duration.
 *
 * On a terminal one line rewritten in place at most four times a second;
 * elsewhere (a CI log) a few plain lines: the start, each quarter of the
 * bytes, the end of each phase.  Nothing unless `on` (the caller's rule:
 * not --quiet, and a large input, several files on a terminal, or
 * --progress).  Plain state, no allocation: nothing here fails.  Not
 * thread-safe: one thread reports. */
#ifndef PROFREPORT_PROGRESS_H
#define PROFREPORT_PROGRESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

struct pr_progress {
    FILE *out;
    int on, tty;
    int shown;      /* a terminal line is open (no newline yet) */
    int reading;    /* in the reading phase (else `phase`) */
    int quarter;    /* plain lines: the last quarter of the bytes said */
    size_t n;       /* files */
    size_t file;    /* the one being read */
    uint64_t total; /* their bytes, as stored (compressed or not) */
    uint64_t base;  /* bytes of the files before `file` */
    uint64_t done;  /* bytes read so far, all files */
    char name[48];  /* the file being read, printable */
    char phase[96]; /* the phase after reading, "" before it */
    struct timespec t0, last, phase_t0;
};

/* Start: n files of `total` bytes, shown on `out` when `on`, as one
 * line rewritten in place when `tty`, else as plain lines. */
void pr_progress_start(struct pr_progress *p, FILE *out, int on, int tty,
                       size_t n, uint64_t total);

/* File i (0-based) is being read, `done` bytes of the files before it
 * read; `name` is its path.  Shown at most every 250 ms on a terminal,
 * and always for the first and the last file. */
void pr_progress_file(struct pr_progress *p, size_t i, const char *name,
                      uint64_t done);

/* The reader of the current file has read `pos` of its bytes as stored
 * (a .gz's compressed bytes).  Accepts NULL (no progress wanted). */
void pr_progress_bytes(struct pr_progress *p, uint64_t pos);

/* The current file is read.  For a single file this ends the reading
 * phase and starts "analysing" (a job's files are analysed as they are
 * read: its reading goes on).  Accepts NULL; a second call is nothing. */
void pr_progress_read(struct pr_progress *p);

/* A named phase ("writing report.html"): ends the reading or the phase
 * before it ("read 300 MB in 6.9 s", "analysing: 1.2 s") and starts
 * this one.  The same phase again is nothing. */
void pr_progress_phase(struct pr_progress *p, const char *phase);

/* Ends the last phase, saying its duration when `ok`; else (an error
 * follows) only ends an open terminal line.  Once: later calls are
 * nothing.  Call it before `p` goes out of scope: an open line is
 * remembered for pr_progress_interrupt until it ends. */
void pr_progress_end(struct pr_progress *p, int ok);

/* Before another message on `f`: an open terminal line of progress is
 * cleared (the next update draws it again), so that the message does not
 * land in the middle of it. */
void pr_progress_interrupt(FILE *f);

/* "3.2 s", "4 min 10 s", "1 h 02 min" into buf. */
void pr_progress_duration(double s, char *buf, size_t n);

/* "300 MB", "2.9 GB", "512 kB" (10^3 units, as ls -h --si) into buf. */
void pr_progress_size(uint64_t bytes, char *buf, size_t n);

#endif

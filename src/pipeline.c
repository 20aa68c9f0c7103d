/* pipeline.c - the only file that knows every stage: discover inputs, read
 * each trace, analyse it into the summary, free the trace, then render the
 * requested outputs.  Reports are rendered to memory (or a temp file) first
 * and committed at the end, so a failure leaves no half-written report. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profreport/clock.h"
#include "profreport/detail.h"
#include "profreport/discover.h"
#include "profreport/escape.h"
#include "profreport/figures.h"
#include "profreport/formats.h"
#include "profreport/jobs.h"
#include "profreport/kclass.h"
#include "profreport/kernel_calls.h"
#include "profreport/kernels.h"
#include "profreport/keys.h"
#include "profreport/merge.h"
#include "profreport/peaks.h"
#include "profreport/pipeline.h"
#include "profreport/progress.h"
#include "profreport/rank_form.h"
#include "profreport/render.h"
#include "profreport/rows.h"
#include "profreport/saved.h"
#include "profreport/sget.h"
#include "profreport/shorten.h"
#include "profreport/sink.h"
#include "profreport/stages.h"
#include "profreport/summary.h"
#include "profreport/table.h"
#include "profreport/whatif.h"

#define PROGRESS_MIN_BYTES (64u << 20)

/* A file's bytes as they weigh for progress: a gzip'd trace inflates
 * about tenfold (counted as eight). */
static uint64_t
progress_weight(const char *path, uint64_t bytes)
{
    size_t n = strlen(path);

    return n > 3 && strcmp(path + n - 3, ".gz") == 0 ? bytes * 8 : bytes;
}

/* Progress on stderr: never under --quiet; with --progress always;
 * else for inputs large enough to take seconds (PROGRESS_MIN_BYTES), and
 * on a terminal for several files.  On a terminal one line rewritten in
 * place, elsewhere a few plain lines (progress.h). */
static int
want_progress(const struct pr_options *o, uint64_t weight, size_t n_files)
{
    if (o->quiet || n_files == 0)
        return 0;
    return o->progress || weight >= PROGRESS_MIN_BYTES ||
           (n_files > 1 && isatty(STDERR_FILENO));
}

static void
print_quality(FILE *out, const char *path, const struct pr_trace *t)
{
    const struct pr_diag *d = &t->diag;

    if (d->skipped_no_dur + d->skipped_bad_ts + d->negative_dur +
            d->unknown_cat + d->non_object ==
        0)
        return;
    pr_term_printf(
        out,
        "profreport: %s: note: %zu events without dur, %zu with a bad "
        "ts, %zu with negative dur (clamped), %zu of unknown category\n",
        path, d->skipped_no_dur, d->skipped_bad_ts, d->negative_dur,
        d->unknown_cat);
}

/* -v: the run's diagnostics, as the summary holds them (runs[].
 * diagnostics: what the trace lacks and what that costs the report). */
static void
print_diagnostics(FILE *out, const char *worker, const cJSON *run)
{
    const cJSON *d;

    cJSON_ArrayForEach(d,
                       cJSON_GetObjectItemCaseSensitive(run, PR_K_DIAGNOSTICS))
    {
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(d, PR_K_TEXT);
        double n = pr_sget_num(d, PR_K_COUNT);

        if (!cJSON_IsString(text))
            continue;
        if (n > 0)
            pr_term_printf(out, "profreport: %s: note: %s (%.0f)\n", worker,
                           text->valuestring, n);
        else
            pr_term_printf(out, "profreport: %s: note: %s\n", worker,
                           text->valuestring);
    }
}

/* Files not read that reading a file found: members of a producer's
 * folder its loader skipped, or the file itself refused.  Kept with the
 * file's share and told when it is folded, in file order, through the
 * run's tallies: like the folder's skips, the first PR_SKIP_NAMED of each
 * reason are named and the rest counted at the end, so that 20,000 such
 * files make a few lines, not 20,000. */
struct skip_rec {
    char *path, *why; /* owned */
    char *worker;     /* owned; a note (--verbose) about this run, else
                         NULL: a warning */
};

struct skip_recs {
    struct skip_rec *v;
    size_t n, cap;
};

static void
skip_recs_free(struct skip_recs *r)
{
    size_t i;

    for (i = 0; i < r->n; i++) {
        free(r->v[i].path);
        free(r->v[i].why);
        free(r->v[i].worker);
    }
    free(r->v);
    memset(r, 0, sizeof(*r));
}

static enum pr_status
skip_recs_add(struct skip_recs *r, const char *path, const char *why,
              const char *worker, struct pr_error *err)
{
    struct skip_rec *x;

    if (pr_grow((void **)&r->v, &r->cap, r->n + 1, sizeof(*r->v)) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    x = &r->v[r->n];
    x->path = strdup(path);
    x->why = strdup(why);
    x->worker = worker != NULL ? strdup(worker) : NULL;
    if (x->path == NULL || x->why == NULL ||
        (worker != NULL && x->worker == NULL)) {
        free(x->path);
        free(x->why);
        free(x->worker);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    r->n++;
    return PR_OK;
}

/* The run's tallies of files not read while reading: warnings, and the
 * --verbose notes about a producer's own files. */
struct skip_tally {
    struct pr_input_list warn, note;
};

/* Tell one file's skips (and forget them): named while their reason has
 * had fewer than PR_SKIP_NAMED, else only counted. */
static enum pr_status
tell_skips(const struct pr_options *o, struct skip_tally *t,
           struct skip_recs *r, struct pr_error *err)
{
    enum pr_status st = PR_OK;
    size_t i;

    for (i = 0; i < r->n && st == PR_OK && !o->quiet; i++) {
        const struct skip_rec *x = &r->v[i];
        int named;

        st = pr_input_list_skip(x->worker != NULL ? &t->note : &t->warn,
                                x->path, x->why, &named, err);
        if (st != PR_OK || !named)
            continue;
        if (x->worker == NULL)
            pr_term_printf(stderr, "profreport: warning: skipping %s: %s\n",
                           x->path, x->why);
        else
            pr_term_printf(stderr, "profreport: note: %s: not read: %s: %s\n",
                           x->worker, x->path, x->why);
    }
    skip_recs_free(r);
    return st;
}

/* The members of a producer's folder its loader did not read.  The
 * producer's own files ("a file of the Ascend export profreport does not
 * read": a torch_npu rank's l2_cache.csv, npu_module_mem.csv ...) are in
 * every normal export, so they are no warning (issue #32): --verbose names
 * them, as notes.  A file foreign to the producer's folder is warned. */
static enum pr_status
warn_skipped(struct skip_recs *sk, const struct pr_options *o,
             const struct pr_trace *t, const char *worker, struct pr_error *err)
{
    enum pr_status st = PR_OK;
    size_t i;

    for (i = 0; i < t->n_skipped && st == PR_OK && !o->quiet; i++) {
        const char *why = pr_trace_str(t, t->skipped[i].why);
        const char *path = pr_trace_str(t, t->skipped[i].path);

        if (strncmp(why, "a file of ", 10) != 0)
            st = skip_recs_add(sk, path, why, NULL, err);
        else if (o->verbose)
            st = skip_recs_add(sk, path, why, worker, err);
    }
    return st;
}

/* Kernel-replay traces time each kernel's replays, not the run. */
static void
warn_replay(FILE *out, const struct pr_options *o, const char *path,
            const struct pr_trace *t)
{
    if (t->replayed_kernels > 0 && !o->quiet)
        pr_term_printf(
            out,
            "profreport: warning: %s: %zu kernels were timed in CUPTI "
            "kernel-replay mode: kernel and launch timings are "
            "distorted\n",
            path, t->replayed_kernels);
}

/* The run's name: the loader's (a folder of several ranks) or the path's. */
static const char *
worker_of(const struct pr_trace *t, const struct pr_input_file *f)
{
    return t->worker != PR_STR_NONE ? pr_trace_str(t, t->worker) : f->worker;
}

/* The run added last.  cJSON keeps an array's last item as its first
 * item's prev (what makes appending O(1)); counting the list instead made
 * a run per process of a 10,000-process export quadratic (issue #35). */
static cJSON *
last_run(cJSON *sum)
{
    cJSON *runs = cJSON_GetObjectItemCaseSensitive(sum, PR_K_RUNS), *r;

    if (runs == NULL || runs->child == NULL)
        return NULL;
    r = runs->child->prev;
    if (r != NULL && r->next == NULL)
        return r;
    for (r = runs->child; r->next != NULL; r = r->next)
        ; /* a cJSON without the tail link */
    return r;
}

static int
cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

/* n with a comma between each three digits ("99,990"). */
static const char *
with_commas(size_t n, char *buf, size_t cap)
{
    char digits[32];
    int len = snprintf(digits, sizeof(digits), "%zu", n), i, k = 0;

    for (i = 0; i < len && (size_t)k + 2 < cap; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            buf[k++] = ',';
        buf[k++] = digits[i];
    }
    buf[k] = '\0';
    return buf;
}

/* A run read from a folder of which members were skipped says how many
 * in its diagnostics, so that the summary tells what the terminal
 * said. */
static enum pr_status
note_folder_skips(cJSON *run, const struct pr_input_file *f,
                  struct pr_error *err)
{
    cJSON *d = cJSON_GetObjectItemCaseSensitive(run, PR_K_DIAGNOSTICS);
    char n[32], text[160];
    /* the analyses' rows' shape (emit.c pr_notes_emit) */
    struct pr_row_diagnostic row = {"skipped_files", (int64_t)f->folder_skips,
                                    text};

    if (f->folder_skips == 0 || !cJSON_IsArray(d))
        return PR_OK;
    snprintf(text, sizeof(text),
             "%s files of the input folder were not read (no format "
             "profreport reads, or unreadable): the warnings name them",
             with_commas(f->folder_skips, n, sizeof(n)));
    if (!pr_rows_write(d, PR_RO_RUNS_DIAGNOSTICS, &row, 1))
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return PR_OK;
}

/* Add one trace of an input (a loader may read several runs from one
 * folder) to the summary; its passes may use `threads` threads (0: one
 * per CPU). */
static enum pr_status
add_trace(const struct pr_options *o, const struct pr_input_file *f,
          const struct pr_trace *t, int threads, cJSON *sum, FILE *notes,
          struct skip_recs *sk, struct pr_error *err)
{
    struct pr_analysis_opts ao = {.peak_tflops = o->peak_tflops,
                                  .peak_gbps = o->peak_gbps,
                                  .device_spec = o->device_spec,
                                  .threads = threads > 0 ? threads : cpus()};
    const char *worker = worker_of(t, f);
    enum pr_status st;

    st = warn_skipped(sk, o, t, worker, err);
    if (st != PR_OK)
        return st;
    warn_replay(notes, o, f->path, t);
    if (o->verbose)
        print_quality(notes, f->path, t);
    st = pr_summary_add_input(sum, f->path, t, worker, f->span, err);
    if (st == PR_OK)
        st = pr_summary_add_run(sum, t, worker, f->span, &ao, err);
    if (st == PR_OK)
        st = note_folder_skips(last_run(sum), f, err);
    if (st == PR_OK && o->verbose && !o->quiet)
        print_diagnostics(notes, worker, last_run(sum));
    if (st == PR_OK) /* where the run came from, for grouping it by job */
        st = pr_jobs_note_origin(last_run(sum), f->path, t, err);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", f->path);
    return st;
}

/* Set once per run, before any file is read (small_heap()). */
static int heap_reused;

/* Read one input and add its inputs and runs to `sum` (a summary of its
 * own when files are read at once); warnings go to `notes`, the files not
 * read to `sk`.  *skipped is set when a folder member turned out not to
 * be a trace. */
static enum pr_status
ingest_one(const struct pr_options *o, const struct pr_input_file *f,
           int threads, struct pr_progress *pg, cJSON *sum, FILE *notes,
           struct skip_recs *sk, int *skipped, struct pr_error *err)
{
    struct pr_read_opts ro = {o->max_input, threads, pg, f->from_dir};
    struct pr_trace *t = NULL;
    struct pr_trace *r;
    enum pr_status st;

    *skipped = 0;
    st = f->format->load(f->path, &ro, &t, err);
    if (st == PR_OK) /* a reader that does not say so itself */
        pr_progress_read(pg);
    if (st != PR_OK) {
        if (f->from_dir && st == PR_E_NOT_FORMAT) {
            size_t n = strlen(f->path);
            int own = strncmp(err->msg, f->path, n) == 0 &&
                      strncmp(err->msg + n, ": ", 2) == 0;

            /* the message names the file first, as loaders say it */
            st = o->quiet ? PR_OK
                          : skip_recs_add(sk, f->path,
                                          own ? err->msg + n + 2 : err->msg,
                                          NULL, err);
            if (st == PR_OK)
                pr_error_clear(err);
            *skipped = 1;
            return st;
        }
        return st;
    }
    for (r = t; r != NULL && st == PR_OK; r = r->next) {
        r->kclass = o->kclass;
        st = add_trace(o, f, r, threads, sum, notes, sk, err);
    }
    pr_trace_free(t); /* the summary copied what it keeps */
#if defined(__GLIBC__) && !PR_SANITIZED
    /* give the trace's memory back before the next file: with many ranks
     * the peak must not creep up file by file (issue #18) - unless every
     * file is small (small_heap) */
    if (!heap_reused)
        malloc_trim(0);
#endif
    return st;
}

/* The files of the tally l past the first PR_SKIP_NAMED of their reason,
 * counted: one line per reason ("... and 19,990 more skipped like this:
 * WHY"), one for the reasons past PR_SKIP_KINDS. */
static void
skip_counts(const struct pr_input_list *l, const char *level, const char *done)
{
    size_t i;
    char n[32];

    for (i = 0; i < l->n_kinds; i++) {
        const struct pr_skip_kind *c = &l->kinds[i];

        if (c->n <= PR_SKIP_NAMED)
            continue; /* each one named */
        if (c->why == NULL)
            pr_term_printf(
                stderr,
                "profreport: %s: ... and %s more files %s "
                "for other reasons\n",
                level, with_commas(c->n - PR_SKIP_NAMED, n, sizeof(n)), done);
        else
            pr_term_printf(stderr,
                           "profreport: %s: ... and %s more %s like this: "
                           "%s\n",
                           level,
                           with_commas(c->n - PR_SKIP_NAMED, n, sizeof(n)),
                           done, c->why);
    }
}

/* Every --input as inputs with their formats; folder members that no
 * format reads are named in a warning, the first PR_SKIP_NAMED of each
 * reason, and the rest counted in one line per reason.  Each file of an
 * input folder knows how many of the folder's members were skipped. */
static enum pr_status
discover_all(const struct pr_options *o, struct pr_input_list *files,
             struct pr_error *err)
{
    enum pr_status st = PR_OK;
    size_t i, k;

    files->follow_links = o->follow_links;
    for (i = 0; i < o->n_inputs && st == PR_OK; i++) {
        size_t n0 = files->n, skips0 = files->n_skips;

        st = pr_discover(o->inputs[i], files, err);
        for (k = n0; st == PR_OK && k < files->n; k++)
            files->files[k].folder_skips = files->n_skips - skips0;
    }
    for (i = 0; i < files->n_skipped && st == PR_OK && !o->quiet; i++)
        pr_term_printf(stderr, "profreport: warning: skipping %s: %s\n",
                       files->skipped[i].path, files->skipped[i].why);
    if (st == PR_OK && !o->quiet)
        skip_counts(files, "warning", "skipped");
    return st;
}

/* Move the items of part's array `key` to the end of sum's. */
static void
move_items(cJSON *sum, cJSON *part, const char *key)
{
    cJSON *from = cJSON_GetObjectItemCaseSensitive(part, key);
    cJSON *to = cJSON_GetObjectItemCaseSensitive(sum, key);

    while (cJSON_GetArraySize(from) > 0)
        cJSON_AddItemToArray(to, cJSON_DetachItemFromArray(from, 0));
}

/* Where each input's inputs and runs go once it is read, in input
 * order: the summary (runs whole), or for a report the job's store
 * (merge.h), which keeps each run's job rows and rank form and frees the
 * run, so that the job's memory does not grow with its ranks' size. */
struct sink {
    cJSON *sum;
    struct pr_merge *m;        /* NULL: keep whole runs in sum */
    size_t used;               /* inputs that were traces */
    struct pr_spec_tally spec; /* --device-spec's effect, run by run */
    struct skip_tally skips;   /* files not read while reading */
};

/* Fold input i's share (its inputs and runs in part) into the sink. */
static enum pr_status
fold(struct sink *k, size_t i, cJSON *part, struct pr_error *err)
{
    cJSON *runs = cJSON_GetObjectItemCaseSensitive(part, PR_K_RUNS);
    cJSON *to = cJSON_GetObjectItemCaseSensitive(k->sum, PR_K_RUNS);

    if (part != k->sum)
        move_items(k->sum, part, "inputs");
    pr_peaks_spec_tally(runs, &k->spec);
    if (k->m != NULL)
        return pr_merge_take(k->m, runs, i, err);
    if (part != k->sum)
        while (cJSON_GetArraySize(runs) > 0)
            cJSON_AddItemToArray(to, cJSON_DetachItemFromArray(runs, 0));
    return PR_OK;
}

/* One input file's share of the summary when several are read at once:
 * its inputs and runs (a summary of its own), its warnings as text, and
 * how it ended.  Folded into the summary in file order as soon as every
 * file before it is, so the result and the messages do not depend on
 * which file finished first, and no more than a few files' shares wait. */
struct file_job {
    cJSON *part;
    char *notes;
    size_t notes_len;
    struct skip_recs skips; /* files not read, told when folded */
    int skipped;
    int done;
    enum pr_status st;
    struct pr_error err;
};

struct job_pool {
    const struct pr_options *o;
    const struct pr_input_list *files;
    struct file_job *jobs;
    int threads_each;   /* parser threads per file */
    uint64_t budget;    /* bytes of estimated peak memory in flight */
    uint64_t in_flight; /* of the files being read now */
    size_t next;        /* the next file to take */
    size_t folded;      /* files folded into the summary */
    size_t ahead;       /* files read at most past the last folded */
    int failed;         /* a file failed: take no more */
    pthread_mutex_t mu;
    pthread_cond_t done;
};

/* What reading a file may hold at its peak, from its size: about half the
 * decompressed bytes (bench/RESULTS.md), a gzip'd trace inflating about
 * tenfold.  Folders (a producer's output directory) count as small. */
static uint64_t
peak_estimate(const char *path)
{
    struct stat st;
    uint64_t n;
    size_t len = strlen(path);

    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    n = (uint64_t)st.st_size;
    if (len > 3 && strcmp(path + len - 3, ".gz") == 0)
        n = n > UINT64_MAX / 10 ? UINT64_MAX / 2 : n * 10;
    return n / 2;
}

/* What a file of a job of small ones may hold at its peak, at most, for
 * its memory to be kept from file to file (small_heap). */
#define SMALL_PEAK ((uint64_t)64 << 20)

/* Every input small (a job of many ranks of a few MB each): keep the
 * heap from one file to the next instead of returning it to the system
 * after each (bound_heap).  Returned and faulted in again, a rank's 10 to
 * 20 MB of buffers and arrays cost more than reading it: the page faults,
 * munmap and madvise calls and their TLB flushes were half the CPU time
 * of a 1,024-rank job of 1.7 MB ranks (issue #33).  The peak stays that
 * of the largest file; the heap is reused, not grown. */
static void
small_heap(const struct pr_input_list *files)
{
    size_t i;

    for (i = 0; i < files->n; i++)
        if (peak_estimate(files->files[i].path) > SMALL_PEAK)
            return;
    heap_reused = 1;
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

/* The inputs of a job read directly, for the store to analyse one of
 * them again (a detail run it did not hold whole, merge.h). */
struct reread {
    const struct pr_options *o; /* = &with */
    struct pr_options with;     /* the caller's options and the kernel table */
    struct pr_kclass_table *kc;
    struct pr_input_list files;
    const char **paths;    /* files[i].path, for the store's messages */
    struct pr_progress pg; /* a job's files: how far (progress.h) */
    int saved;             /* the inputs were saved summaries */
};

#define SIZE_DEPTH 8        /* a run folder's levels that are counted */
#define SIZE_ENTRIES 100000 /* and its entries at most */

/* The bytes of the regular files in folder `dir` and below (not through
 * links), `*left` entries at most. */
static uint64_t
folder_bytes(const char *dir, int depth, long *left)
{
    DIR *d = depth < SIZE_DEPTH ? opendir(dir) : NULL;
    struct dirent *e;
    struct stat st;
    uint64_t sum = 0;
    char path[4096];

    while (d != NULL && *left > 0 && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        (*left)--;
        if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >=
                sizeof(path) ||
            lstat(path, &st) != 0)
            continue;
        if (S_ISREG(st.st_mode))
            sum += (uint64_t)st.st_size;
        else if (S_ISDIR(st.st_mode))
            sum += folder_bytes(path, depth + 1, left);
    }
    if (d != NULL)
        closedir(d);
    return sum;
}

/* An input's size as stored: a file's, or a folder's (a run folder a
 * format reads whole), 0 for anything else. */
static uint64_t
file_bytes(const char *path)
{
    struct stat st;
    long left = SIZE_ENTRIES;

    if (stat(path, &st) != 0)
        return 0;
    if (S_ISDIR(st.st_mode))
        return folder_bytes(path, 0, &left);
    return S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

/* The bytes read once file i is: `done` and its own, counted only while
 * progress is shown (a folder's are counted by walking it). */
static uint64_t
bytes_after(const struct pr_progress *pg, const char *path, uint64_t done)
{
    return pg->on ? done + file_bytes(path) : done;
}

/* Progress over the input files (want_progress). */
static void
start_progress(const struct pr_options *o, const struct pr_input_list *files,
               struct pr_progress *pg)
{
    uint64_t total = 0, weight = 0, b;
    size_t i;

    for (i = 0; !o->quiet && i < files->n; i++) {
        b = file_bytes(files->files[i].path);
        total += b;
        weight += progress_weight(files->files[i].path, b);
    }
    pr_progress_start(pg, stderr, want_progress(o, weight, files->n),
                      isatty(STDERR_FILENO), files->n, total);
}

static void
run_job(struct job_pool *p, size_t i)
{
    struct file_job *j = &p->jobs[i];
    FILE *notes = open_memstream(&j->notes, &j->notes_len);

    j->err.code = PR_OK;
    j->err.msg[0] = '\0';
    j->part = pr_summary_new();
    if (notes == NULL || j->part == NULL) {
        j->st = pr_error_set(&j->err, PR_E_NOMEM, "out of memory");
    } else {
        j->st = ingest_one(p->o, &p->files->files[i], p->threads_each, NULL,
                           j->part, notes, &j->skips, &j->skipped, &j->err);
    }
    if (notes != NULL)
        fclose(notes);
}

/* A worker takes files in order while their estimated peaks fit in the
 * budget beside the files in flight (one file is always let through), and
 * while they are not too far ahead of the files folded. */
static void *
pool_worker(void *arg)
{
    struct job_pool *p = arg;

    pthread_mutex_lock(&p->mu);
    while (p->next < p->files->n && !p->failed) {
        size_t i = p->next;
        uint64_t est = peak_estimate(p->files->files[i].path);

        if ((p->in_flight > 0 &&
             (p->in_flight >= p->budget || est > p->budget - p->in_flight)) ||
            i >= p->folded + p->ahead) {
            pthread_cond_wait(&p->done, &p->mu);
            continue;
        }
        p->next++;
        p->in_flight += est;
        pthread_mutex_unlock(&p->mu);
        run_job(p, i);
        pthread_mutex_lock(&p->mu);
        p->in_flight -= est;
        p->jobs[i].done = 1;
        p->failed |= p->jobs[i].st != PR_OK;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Fold file i's share once it is read; the first failure in file order
 * is the run's error, as when the files are read one after another. */
static enum pr_status
fold_job(struct job_pool *p, struct sink *k, size_t i, struct pr_error *err)
{
    struct file_job *j = &p->jobs[i];
    enum pr_status st;

    pthread_mutex_lock(&p->mu);
    while (!j->done)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
    if (j->notes_len > 0)
        fwrite(j->notes, 1, j->notes_len, stderr);
    if (j->st != PR_OK) {
        *err = j->err;
        st = j->st;
    } else {
        k->used += !j->skipped;
        st = tell_skips(p->o, &k->skips, &j->skips, err);
        if (st == PR_OK)
            st = fold(k, i, j->part, err);
    }
    cJSON_Delete(j->part);
    j->part = NULL;
    free(j->notes);
    j->notes = NULL;
    pthread_mutex_lock(&p->mu);
    p->folded = i + 1;
    p->failed |= st != PR_OK;
    pthread_cond_broadcast(&p->done);
    pthread_mutex_unlock(&p->mu);
    return st;
}

static uint64_t
memory_budget(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

    if (pages <= 0 || size <= 0)
        return (uint64_t)1 << 30;
    return (uint64_t)pages * (uint64_t)size / 2;
}

/* Read every file with `n_jobs` workers at once. */
static enum pr_status
ingest_pool(const struct pr_options *o, const struct pr_input_list *files,
            int n_jobs, struct sink *k, struct pr_progress *pg,
            struct pr_error *err)
{
    uint64_t done = 0;
    struct job_pool p = {o,
                         files,
                         NULL,
                         1,
                         memory_budget(),
                         0,
                         0,
                         0,
                         2 * (size_t)n_jobs,
                         0,
                         PTHREAD_MUTEX_INITIALIZER,
                         PTHREAD_COND_INITIALIZER};
    pthread_t tid[256];
    int i, started = 0, threads = o->threads > 0 ? o->threads : cpus();
    enum pr_status st = PR_OK;
    size_t f;

    p.jobs = calloc(files->n, sizeof(*p.jobs));
    if (p.jobs == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    p.threads_each = threads / n_jobs > 1 ? threads / n_jobs : 1;
    for (i = 0; i < n_jobs; i++)
        started += pthread_create(&tid[started], NULL, pool_worker, &p) == 0;
    if (started == 0) {
        p.ahead = files->n; /* no thread to be had: read them here */
        pool_worker(&p);
    }
    for (f = 0; f < files->n && st == PR_OK; f++) {
        pr_progress_file(pg, f, files->files[f].path, done);
        done = bytes_after(pg, files->files[f].path, done);
        st = fold_job(&p, k, f, err);
    }
    for (i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    for (f = 0; f < files->n; f++) {
        cJSON_Delete(p.jobs[f].part);
        free(p.jobs[f].notes);
        skip_recs_free(&p.jobs[f].skips);
    }
    free(p.jobs);
    return st;
}

/* How many files to read at once: --jobs, else half the CPUs (the other
 * half parse and analyse beside them), or every CPU when all the files
 * are small (small_heap: ranks of a few MB, whose parse and analysis gain
 * little from a second thread, and of which two at once cost two small
 * peaks); never more than there are files. */
static int
jobs_for(const struct pr_options *o, size_t n_files)
{
    int n = o->jobs > 0 ? o->jobs : heap_reused ? cpus() : cpus() / 2;

    if (n < 1)
        n = 1;
    return (size_t)n > n_files ? (int)n_files : n;
}

/* The number of inputs that are saved summaries (saved.h). */
static size_t
count_saved(const struct pr_options *o)
{
    size_t i, n = 0;

    for (i = 0; i < o->n_inputs; i++)
        n += (size_t)pr_saved_sniff(o->inputs[i]);
    return n;
}

/* Saved summaries as inputs: the reports are re-rendered from them alone
 * (the summary is the durable artefact of a CI job).  *out stays NULL when
 * no input is one; a mix of summaries and traces is refused, and so are
 * options that only the analysis of traces can honour.  Several summaries
 * are merged one at a time into lite runs, *m saying where their whole
 * runs are (merge.h). */
/* The inputs with each folder of saved summaries (pr_saved_dir) replaced
 * by its files, so that such a folder reads like its files given one by
 * one (issue #32).  *x is o with the new list; *own (free with
 * free_expanded) holds it, NULL when no folder was expanded. */
static enum pr_status
expand_saved_dirs(const struct pr_options *o, struct pr_options *x, char ***own,
                  size_t *n_own, struct pr_error *err)
{
    const char **list = NULL;
    char **all = NULL;
    size_t i, k, n_list = 0, n_all = 0;

    *x = *o;
    *own = NULL;
    *n_own = 0;
    for (i = 0; i < o->n_inputs; i++) {
        char **files;
        size_t nf;
        int r = pr_saved_dir(o->inputs[i], &files, &nf);
        const char **nl;
        char **na;
        if (r < 0)
            goto nomem;
        nl = realloc(list, (n_list + (r ? nf : 1)) * sizeof(*list));
        if (nl == NULL)
            goto nomem_files;
        list = nl;
        if (r == 0) {
            list[n_list++] = o->inputs[i];
            continue;
        }
        na = realloc(all, (n_all + nf) * sizeof(*all));
        if (na == NULL)
            goto nomem_files;
        all = na;
        for (k = 0; k < nf; k++) {
            all[n_all++] = files[k];
            list[n_list++] = files[k];
        }
        free(files);
        continue;
    nomem_files:
        for (k = 0; k < nf; k++)
            free(files[k]);
        free(files);
        goto nomem;
    }
    if (n_all == 0) {
        free(list);
        return PR_OK;
    }
    x->inputs = list;
    x->n_inputs = n_list;
    *own = all;
    *n_own = n_all;
    return PR_OK;
nomem:
    for (k = 0; k < n_all; k++)
        free(all[k]);
    free(all);
    free(list);
    return pr_error_set(err, PR_E_NOMEM, "out of memory");
}

static void
free_expanded(struct pr_options *x, char **own, size_t n_own)
{
    size_t k;

    if (own == NULL)
        return;
    for (k = 0; k < n_own; k++)
        free(own[k]);
    free(own);
    free(x->inputs);
}

static enum pr_status load_saved_list(const struct pr_options *o, cJSON **out,
                                      struct pr_merge **m,
                                      struct pr_error *err);

static enum pr_status
load_saved(const struct pr_options *o, cJSON **out, struct pr_merge **m,
           struct pr_error *err)
{
    struct pr_options x;
    char **own;
    size_t n_own;
    enum pr_status st = expand_saved_dirs(o, &x, &own, &n_own, err);

    if (st != PR_OK)
        return st;
    st = load_saved_list(&x, out, m, err);
    free_expanded(&x, own, n_own);
    return st;
}

/* A job's whole runs get what its views add (merge.h's amend): a rank's
 * finding from the pipeline stages the ranks' groups form (stages.h). */
static enum pr_status
amend_run(void *ctx, cJSON *run, struct pr_error *err)
{
    return pr_stages_apply(
        run,
        pr_sget(pr_sget((const cJSON *)ctx, PR_K_DISTRIBUTED), PR_K_PIPELINE),
        err);
}

static enum pr_status
amend_whole(struct pr_merge *m, cJSON *sum, struct pr_error *err)
{
    if (m == NULL ||
        pr_sget_str(pr_sget(pr_sget(sum, PR_K_DISTRIBUTED), PR_K_PIPELINE),
                    PR_K_FINDING) == NULL)
        return PR_OK;
    return pr_merge_amend(m, amend_run, sum, err);
}

static enum pr_status
load_saved_list(const struct pr_options *o, cJSON **out, struct pr_merge **m,
                struct pr_error *err)
{
    size_t n = count_saved(o);
    enum pr_status st;

    *out = NULL;
    if (n == 0)
        return PR_OK;
    if (n < o->n_inputs)
        return pr_error_set(err, PR_E_USAGE,
                            "inputs mix saved summaries and traces: give "
                            "either");
    if (o->peak_tflops > 0 || o->peak_gbps > 0 || o->device_spec != NULL)
        return pr_error_set(err, PR_E_USAGE,
                            "--peak-tflops, --peak-gbps and --device-spec "
                            "need the traces: a saved summary's roofline "
                            "was computed when it was written");
    if (o->kernel_rules != NULL)
        return pr_error_set(err, PR_E_USAGE,
                            "--kernel-rules needs the traces: a saved "
                            "summary's kernels were classified when it was "
                            "written");
    if (n == 1) {
        st = pr_saved_load(o->inputs[0], pr_pipeline_saved_max(o->max_input),
                           out, err);
        /* an older summary's memory timelines, one entry for several
           files named by their folder: one per file, by its name */
        if (st == PR_OK && (st = pr_jobs_older_memtl(*out, err)) != PR_OK) {
            cJSON_Delete(*out);
            *out = NULL;
        }
        return st;
    }
    st = pr_merge_load(o->inputs, n, pr_pipeline_saved_max(o->max_input), out,
                       m, err);
    /* the job views are read from the runs: rebuild them over the joined
       runs, as when the traces are read together (issue #17) */
    if (st == PR_OK && (st = pr_summary_finish(*out, err)) == PR_OK)
        st = amend_whole(*m, *out, err);
    if (st != PR_OK && *out != NULL) {
        cJSON_Delete(*out);
        *out = NULL;
        pr_merge_free(*m);
        *m = NULL;
    }
    return st;
}

/* --device-spec is read again for each run (roofline.c); read it once
 * before any trace, so that a file that is no device spec fails at once,
 * named, instead of after a long read (issue #15). */
static enum pr_status
check_device_spec(const struct pr_options *o, struct pr_error *err)
{
    struct pr_peak_table *t;

    if (o->device_spec == NULL)
        return PR_OK;
    t = pr_peaks_table_load(o->device_spec, 1, err);
    if (t == NULL)
        return err->code != PR_OK ? err->code : PR_E_FORMAT;
    pr_peaks_table_free(t);
    return PR_OK;
}

/* A --device-spec that set no peak is said, with the devices seen (issue
 * #32: it was silently ignored). */
static void
warn_device_spec(const struct pr_options *o, const struct pr_spec_tally *t)
{
    char why[512];

    if (o->device_spec != NULL && !o->quiet && o->peak_tflops <= 0 &&
        o->peak_gbps <= 0 &&
        pr_peaks_spec_unused(t, o->device_spec, why, sizeof(why)))
        pr_term_printf(stderr, "profreport: warning: %s\n", why);
}

/* o with the kernel table the traces are classified by: --kernel-rules'
 * rules first, then the shipped table (kclass.h).  Read once, before any
 * trace, so that a bad rules file fails at once, named (issue #15's rule
 * for --device-spec).  *t is owned by the caller. */
static enum pr_status
open_kclass(const struct pr_options *o, struct pr_options *with,
            struct pr_kclass_table **t, struct pr_error *err)
{
    *with = *o;
    *t = pr_kclass_table_open(o->kernel_rules, err);
    if (*t == NULL)
        return err->code != PR_OK ? err->code : PR_E_NOMEM;
    with->kclass = *t;
    return PR_OK;
}

/* Every lite run of a merged job made whole, for the readers of all runs
 * in full (pr_pipeline_summary); *m is freed: nothing borrows it after. */
static enum pr_status
whole_runs(cJSON *sum, struct pr_merge **m, struct pr_error *err)
{
    enum pr_status st = PR_OK;

    if (*m != NULL)
        st = pr_merge_expand(
            *m, cJSON_GetObjectItemCaseSensitive(sum, PR_K_RUNS), err);
    pr_merge_free(*m);
    *m = NULL;
    return st;
}

static enum pr_status
reread_input(void *ctx, size_t i, cJSON **doc, struct pr_error *err)
{
    const struct reread *r = ctx;
    char *text = NULL;
    size_t len = 0;
    FILE *notes = open_memstream(&text, &len); /* said the first time */
    struct skip_recs sk = {NULL, 0, 0};        /* and so were these */
    int skipped;
    enum pr_status st;

    *doc = pr_summary_new();
    if (*doc == NULL || notes == NULL) {
        if (notes != NULL)
            fclose(notes);
        free(text);
        cJSON_Delete(*doc);
        *doc = NULL;
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    st = ingest_one(r->o, &r->files.files[i], r->o->threads, NULL, *doc, notes,
                    &sk, &skipped, err);
    fclose(notes);
    free(text);
    skip_recs_free(&sk);
    if (st != PR_OK) {
        cJSON_Delete(*doc);
        *doc = NULL;
    }
    return st;
}

static void
reread_free(struct reread *r)
{
    pr_input_list_free(&r->files);
    free(r->paths);
    r->paths = NULL;
    pr_kclass_table_free(r->kc); /* the summary copied what it keeps */
    r->kc = NULL;
}

/* Whole runs held by a job's store while they total at most this many
 * cJSON nodes (about 100 bytes each): a job of a few ranks is analysed
 * once; a large one analyses its few detail ranks again when it writes
 * them (merge.h). */
#define HOLD_NODES 200000

/* The summary of the inputs into *out; *m is set (else NULL) when its
 * runs are lite runs of merged summaries, or, with `stream` (the report
 * writes the summary's runs, not a table of them), of the traces read
 * into the job's store; the store re-reads traces through *r. */
/* A saved summary an older profreport wrote (contract.h): say so on
 * stderr, where a CI log shows it, as well as on the report's first
 * screen: its runs' notes, three at most, a run whose note is the one
 * just said named with it rather than saying it again (review 18 #4:
 * ms_cluster4's four runs, three the same). */
static void
warn_older(const struct pr_options *o, const cJSON *sum)
{
    const cJSON *run;
    const char *last = NULL;
    char label[256], prev[256] = "", same[512] = "";
    int said = 0, more = 0, n_same = 0;

    if (o->quiet)
        return;
    cJSON_ArrayForEach(run, pr_sget(sum, PR_K_RUNS))
    {
        const char *note = pr_sget_older_note(run);
        size_t len = strlen(same);

        if (note == NULL)
            continue;
        pr_fig_run_label(run, label, sizeof(label));
        if (last != NULL && strcmp(note, last) == 0) {
            if (len + 8 < sizeof(same) && /* a long list ends in "..." */
                !(len >= 3 && strcmp(same + len - 3, "...") == 0))
                snprintf(
                    same + len, sizeof(same) - len, "%s%s", len ? ", " : "",
                    len + strlen(label) + 12 < sizeof(same) ? label : "...");
            n_same++;
            continue;
        }
        if (same[0] != '\0')
            pr_term_printf(stderr,
                           "profreport: warning: run%s %s: the same note as "
                           "run %s\n",
                           n_same > 1 ? "s" : "", same, prev);
        same[0] = '\0';
        n_same = 0;
        last = note;
        snprintf(prev, sizeof(prev), "%s", label);
        if (said < 3) {
            said++;
            pr_term_printf(stderr, "profreport: warning: run %s: %s\n", label,
                           note);
        } else {
            more++;
            last = NULL; /* not said: none is "the same" as it */
        }
    }
    if (same[0] != '\0')
        pr_term_printf(stderr,
                       "profreport: warning: run%s %s: the same note as run "
                       "%s\n",
                       n_same > 1 ? "s" : "", same, prev);
    if (more > 0)
        pr_term_printf(stderr,
                       "profreport: warning: and %d more runs of a summary "
                       "an older profreport wrote (Data quality names "
                       "what each lacks)\n",
                       more);
}

static enum pr_status
build_summary(const struct pr_options *opts, int stream, struct reread *r,
              cJSON **out, struct pr_merge **m, struct pr_error *err)
{
    const struct pr_options *o;
    struct sink k;
    enum pr_status st;
    size_t i;

    memset(&k, 0, sizeof(k));
    *m = NULL;
    st = load_saved(opts, out, m, err);
    r->saved = *out != NULL;
    if (st == PR_OK && *out != NULL)
        warn_older(opts, *out);
    if (st != PR_OK || *out != NULL)
        return st;
    st = check_device_spec(opts, err);
    if (st == PR_OK)
        st = open_kclass(opts, &r->with, &r->kc, err);
    if (st != PR_OK)
        return st;
    r->o = o = &r->with;
    k.sum = pr_summary_new();
    if (k.sum == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    st = discover_all(o, &r->files, err);
    if (st == PR_OK && r->files.n > 1)
        small_heap(&r->files);
    if (st == PR_OK)
        start_progress(o, &r->files, &r->pg);
    if (st == PR_OK && stream) {
        r->paths = calloc(r->files.n + 1, sizeof(*r->paths));
        for (i = 0; r->paths != NULL && i < r->files.n; i++)
            r->paths[i] = r->files.files[i].path;
        k.m = r->paths != NULL
                  ? pr_merge_new(r->paths, reread_input, r, HOLD_NODES)
                  : NULL;
        if (k.m == NULL)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    if (st == PR_OK && jobs_for(o, r->files.n) > 1) {
        st =
            ingest_pool(o, &r->files, jobs_for(o, r->files.n), &k, &r->pg, err);
    } else {
        uint64_t done = 0;
        for (i = 0; i < r->files.n && st == PR_OK; i++) {
            struct skip_recs sk = {NULL, 0, 0};
            int skipped;
            pr_progress_file(&r->pg, i, r->files.files[i].path, done);
            done = bytes_after(&r->pg, r->files.files[i].path, done);
            st = ingest_one(o, &r->files.files[i], o->threads, &r->pg, k.sum,
                            stderr, &sk, &skipped, err);
            k.used += !skipped;
            if (st == PR_OK)
                st = tell_skips(o, &k.skips, &sk, err);
            skip_recs_free(&sk);
            if (st == PR_OK)
                st = fold(&k, i, k.sum, err);
        }
    }
    if (st == PR_OK && !o->quiet) {
        skip_counts(&k.skips.warn, "warning", "skipped");
        skip_counts(&k.skips.note, "note", "not read");
    }
    pr_input_list_free(&k.skips.warn);
    pr_input_list_free(&k.skips.note);
    if (st == PR_OK && k.used == 0)
        st = pr_error_set(err, PR_E_FORMAT,
                          "no profiler trace among the inputs");
    if (st == PR_OK)
        pr_progress_phase(&r->pg, "analysing");
    if (st == PR_OK && k.m != NULL)
        st = pr_merge_finish(k.m, k.sum, err);
    if (st == PR_OK)
        st = pr_summary_finish(k.sum, err);
    if (st == PR_OK && k.m != NULL)
        st = amend_whole(k.m, k.sum, err);
    if (st == PR_OK)
        warn_device_spec(o, &k.spec);
    if (st != PR_OK) {
        cJSON_Delete(k.sum);
        pr_merge_free(k.m);
        return st;
    }
    *out = k.sum;
    *m = k.m;
    return PR_OK;
}

uint64_t
pr_pipeline_saved_max(uint64_t max_input)
{
    return max_input > 0 ? max_input : pr_read_default_max();
}

enum pr_status
pr_pipeline_summary_merged(const char *const *inputs, size_t n, int quiet,
                           uint64_t max_input, cJSON **out, struct pr_merge **m,
                           struct pr_error *err)
{
    struct pr_options o;
    struct reread r = {0};
    enum pr_status st;

    memset(&o, 0, sizeof(o));
    o.inputs = (const char **)(uintptr_t)inputs; /* read only below */
    o.n_inputs = n;
    o.quiet = quiet;
    o.max_input = max_input;
    st = build_summary(&o, 0, &r, out, m, err);
    pr_progress_end(&r.pg, st == PR_OK); /* its line ends with it */
    reread_free(&r);
    return st;
}

enum pr_status
pr_pipeline_summary(const char *const *inputs, size_t n, int quiet,
                    uint64_t max_input, cJSON **out, struct pr_error *err)
{
    struct pr_merge *m = NULL;
    enum pr_status st =
        pr_pipeline_summary_merged(inputs, n, quiet, max_input, out, &m, err);

    if (st == PR_OK)
        st = whole_runs(*out, &m, err);
    if (st != PR_OK && *out != NULL) {
        cJSON_Delete(*out);
        *out = NULL;
    }
    return st;
}

/* A job's lite run printed whole or in its rank form (merge.h). */
static enum pr_status
json_run(void *m, const cJSON *el, const cJSON **use, struct pr_error *err)
{
    return pr_merge_json_run(m, el, use, err);
}

/* The runs the reports draw in full are the runs a job's summary keeps
 * whole; the others are written in their rank form, said at the top
 * level ("rank_form", docs/summary-json.md). */
static enum pr_status
mark_full(cJSON *sum, const char *spec, struct pr_merge *m,
          struct pr_error *err)
{
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(sum, PR_K_RUNS), *r;
    size_t n = pr_sget_len(runs), i = 0;
    unsigned char *mark = malloc(n + 1);
    enum pr_status st;
    struct pr_row_rank_form row;
    cJSON *rf, *full;
    int ok;

    if (mark == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    st = pr_detail_marks(sum, spec, mark, err);
    cJSON_ArrayForEach(r, runs)
    {
        if (st == PR_OK && mark[i])
            pr_merge_mark_full(m, r);
        i++;
    }
    if (st != PR_OK || pr_merge_n_forms(m) == 0) {
        free(mark);
        return st;
    }
    full = cJSON_CreateArray();
    ok = full != NULL;
    for (i = 0; ok && i < n; i++)
        if (mark[i])
            ok = cJSON_AddItemToArray(full, cJSON_CreateNumber((double)i));
    free(mark);
    /* the rank form's note, one typed row (rows.def) */
    row = (struct pr_row_rank_form){
        .share_pct = PR_RANK_FORM_SHARE_PCT,
        .detail_ranks = spec != NULL ? spec : PR_DETAIL_DEFAULT,
        .full_runs = full,
        .rank_form_runs = (int64_t)pr_merge_n_forms(m),
    };
    rf = ok ? pr_rows_row(PR_RO_RANK_FORM, &row) : NULL;
    ok = rf != NULL && cJSON_AddItemToObject(sum, PR_K_RANK_FORM, rf);
    if (!ok && rf != NULL)
        cJSON_Delete(rf);
    cJSON_Delete(full);
    return ok ? PR_OK : pr_error_set(err, PR_E_NOMEM, "out of memory");
}

/* The summary as JSON text into the staging file tmp; standard output
 * also gets a final newline (a file keeps the bytes --json always wrote). */
static enum pr_status
fill_json(const char *tmp, const char *path, const cJSON *sum,
          struct pr_merge *m, struct pr_error *err)
{
    return pr_outputs_fill_json_with(tmp, path, sum, strcmp(path, "-") == 0,
                                     m != NULL ? json_run : NULL, m, err);
}

/* An error about the staged file `tmp` names the file the user asked
 * for instead: "report.pdf: ...", not "report.pdf.x3bfWI: ...". */
static void
shown_as(struct pr_error *err, const char *tmp, const char *shown)
{
    size_t n = strlen(tmp);
    enum pr_status code = err->code;
    char rest[PR_ERROR_MSG_SIZE];

    if (strncmp(err->msg, tmp, n) != 0)
        return;
    snprintf(rest, sizeof(rest), "%s", err->msg + n);
    pr_error_clear(err); /* pr_error_set keeps the first error */
    pr_error_set(err, code, "%s%s", shown, rest);
}

/* One view's "missing" words (ranks the user named that the job does
 * not hold) as warnings, so a typo in --detail-ranks is seen on the
 * terminal as well as in the reports' heading.  job: the summary of the
 * job alone (all its runs), for the ranks it does hold. */
static void
warn_missing(const cJSON *job, const cJSON *view, const char *spec)
{
    const cJSON *d = pr_sget(view, "detail"), *e;
    double lo = NAN, hi = NAN, r;
    size_t n = 0;
    char held[96];

    if (pr_sget_len(pr_sget(d, "missing")) == 0)
        return;
    cJSON_ArrayForEach(e, pr_sget(job, PR_K_RUNS))
    {
        r = pr_sget_num(e, PR_K_RANK);
        if (isnan(r))
            continue;
        lo = n == 0 || r < lo ? r : lo;
        hi = n == 0 || r > hi ? r : hi;
        n++;
    }
    if (n == 0)
        snprintf(held, sizeof(held), "its runs name no rank");
    else if (hi - lo == (double)(n - 1))
        snprintf(held, sizeof(held), "it holds ranks %.0f-%.0f", lo, hi);
    else
        snprintf(held, sizeof(held), "it holds %zu ranks, %.0f to %.0f", n, lo,
                 hi);
    cJSON_ArrayForEach(e, pr_sget(d, "missing"))
        pr_term_printf(stderr,
                       "profreport: warning: --detail-ranks %s: %s is not in "
                       "the job (%s); the reports show the other ranks "
                       "chosen\n",
                       spec, cJSON_IsString(e) ? e->valuestring : "?", held);
}

/* warn_missing for the job, or for each job of a summary of several. */
static enum pr_status
warn_detail_missing(const cJSON *sum, const char *spec, struct pr_error *err)
{
    size_t k, n = pr_detail_n_jobs(sum);
    cJSON *base = NULL, *view = NULL;
    struct pr_job_set *set;
    enum pr_status st;

    if (spec == NULL)
        return PR_OK;
    if (n == 0) {
        st = pr_detail_view(sum, spec, &view, err);
        if (st == PR_OK)
            warn_missing(sum, view, spec);
        cJSON_Delete(view);
        return st;
    }
    st = pr_detail_jobs_open(sum, &set, err);
    for (k = 0; k < n && st == PR_OK; k++) {
        st = pr_detail_job_view(set, k, spec, &base, &view, err);
        if (st != PR_OK)
            break;
        warn_missing(base, view, spec);
        cJSON_Delete(view);
        cJSON_Delete(base);
    }
    pr_detail_jobs_close(set);
    return st;
}

/* path with the job's name before its extension: "out/report.html" and
 * job "trace_filter" give "out/report.trace_filter.html".  The name keeps
 * letters, digits, '-', '_' and '.'; anything else (a space, '#', '/')
 * becomes '_'.  NULL when out of memory. */
static char *
job_path(const char *path, const char *job)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash != NULL ? slash + 1 : path, '.');
    size_t stem = dot != NULL && dot != (slash != NULL ? slash + 1 : path)
                      ? (size_t)(dot - path)
                      : strlen(path);
    size_t nj = strlen(job), i;
    char *out = malloc(strlen(path) + nj + 2);

    if (out == NULL)
        return NULL;
    memcpy(out, path, stem);
    out[stem] = '.';
    for (i = 0; i < nj; i++) {
        unsigned char c = (unsigned char)job[i];
        out[stem + 1 + i] =
            isalnum(c) || c == '-' || c == '_' || c == '.' ? (char)c : '_';
    }
    memcpy(out + stem + 1 + nj, path + stem, strlen(path + stem) + 1);
    return out;
}

/* --each-job: one JSON, HTML and PDF per job of a summary of several, each
 * the report of that job alone (its base and view, job_views.c), named by
 * job_path; all of them are committed together or none.  Two jobs whose
 * names come out alike in a file name are refused. */
static enum pr_status
write_each_job(const struct pr_options *o, struct pr_render_opts ro,
               const cJSON *sum, struct pr_merge *m, struct pr_outputs *set,
               struct pr_error *err)
{
    const char *const want[3] = {o->json_path, o->html_path, o->pdf_path};
    size_t n = pr_detail_n_jobs(sum), k, w, j, at = 0;
    char **paths = calloc(3 * n + 1, sizeof(*paths));
    struct pr_job_set *jobs = NULL;
    enum pr_status st =
        paths != NULL ? PR_OK : pr_error_set(err, PR_E_NOMEM, "out of memory");

    if (st == PR_OK)
        st = pr_detail_jobs_open(sum, &jobs, err);

    for (k = 0; st == PR_OK && k < n; k++) {
        const cJSON *entry =
            cJSON_GetArrayItem(pr_sget(sum, PR_K_JOBS), (int)k);
        cJSON *base = NULL, *view = NULL;
        const char *tmp[3] = {NULL, NULL, NULL};
        char *mine[3] = {NULL, NULL, NULL};
        struct pr_buf html;
        int detail;

        for (w = 0; st == PR_OK && w < 3; w++) {
            if (want[w] == NULL)
                continue;
            mine[w] = paths[at] =
                job_path(want[w], pr_sget_str_or(entry, PR_K_NAME, "job"));
            if (mine[w] == NULL) {
                st = pr_error_set(err, PR_E_NOMEM, "out of memory");
                break;
            }
            at++;
            for (j = 0; st == PR_OK && j + 1 < at; j++)
                if (strcmp(paths[j], mine[w]) == 0)
                    st = pr_error_set(err, PR_E_USAGE,
                                      "--each-job: two jobs would both write "
                                      "%s (their names differ only in "
                                      "characters a file name drops)",
                                      mine[w]);
            if (st == PR_OK)
                st = pr_outputs_stage(set, mine[w], &tmp[w], err);
        }
        if (st == PR_OK)
            st =
                pr_detail_job_view(jobs, k, o->detail_ranks, &base, &view, err);
        if (st == PR_OK && m != NULL)
            st = pr_merge_expand_full(
                m, cJSON_GetObjectItemCaseSensitive(view, PR_K_RUNS), err);
        /* a job's report: its detail ranks in full must fit where one did */
        detail = !o->top_given &&
                 cJSON_GetObjectItemCaseSensitive(view, "detail") != NULL;
        if (st == PR_OK && tmp[0] != NULL)
            st = fill_json(tmp[0], mine[0], base, m, err);
        pr_buf_init(&html, 0);
        ro.top = detail ? PR_DETAIL_TOP : o->top;
        if (st == PR_OK && tmp[1] != NULL)
            st = pr_html_render(view, &ro, &html, err);
        if (st == PR_OK && tmp[1] != NULL)
            st = pr_outputs_fill(tmp[1], mine[1], html.data ? html.data : "",
                                 html.len, err);
        pr_buf_free(&html);
        ro.top = detail ? PR_DETAIL_TOP_PDF : o->top;
        if (st == PR_OK && tmp[2] != NULL &&
            (st = pr_pdf_render(view, &ro, tmp[2], err)) != PR_OK)
            shown_as(err, tmp[2], mine[2]);
        cJSON_Delete(view);
        cJSON_Delete(base);
    }
    pr_detail_jobs_close(jobs);
    if (st == PR_OK)
        st = pr_outputs_commit(set, err);
    if (st == PR_OK && !o->quiet)
        for (j = 0; j < at; j++)
            pr_term_printf(stderr, "profreport: wrote %s\n", paths[j]);
    for (j = 0; paths != NULL && j < at; j++)
        free(paths[j]);
    free(paths);
    return st;
}

/* The phase "writing PATH" ("-" is standard output). */
static void
phase_writing(struct pr_progress *pg, const char *path)
{
    char what[96];
    size_t n = strlen(path);

    if (strcmp(path, "-") == 0)
        snprintf(what, sizeof(what), "writing to standard output");
    else if (n > 60) /* the end of a long path tells which file */
        snprintf(what, sizeof(what), "writing ...%s", path + n - 57);
    else
        snprintf(what, sizeof(what), "writing %s", path);
    pr_progress_phase(pg, what);
}

/* Render every requested report into its staging file (each staged first,
 * so a path that cannot take a file fails before any work), then commit
 * them together: all of them or none (issue #19). */
static enum pr_status
write_outputs(const struct pr_options *o, cJSON *sum, struct pr_merge *m,
              struct pr_progress *pg, struct pr_error *err)
{
    struct pr_render_opts ro = {.top = o->top,
                                .template_dir = o->template_dir,
                                .source_link = o->source_link,
                                .detail_ranks = o->detail_ranks,
                                .paper = o->paper,
                                .font = o->font,
                                .generated_at = pr_clock_generation_time(),
                                .version = PACKAGE_VERSION};
    struct pr_outputs set;
    const char *tj = NULL, *th = NULL, *tp = NULL;
    struct pr_buf html;
    cJSON *view = NULL; /* the reports' view: detail ranks only */
    enum pr_status st = PR_OK;
    int job_top;

    pr_outputs_init(&set);
    pr_buf_init(&html, 0);
    st = warn_detail_missing(sum, o->detail_ranks, err);
    if (st == PR_OK && m != NULL)
        st = mark_full(sum, o->detail_ranks, m, err);
    if (st == PR_OK && o->each_job && pr_detail_n_jobs(sum) > 0) {
        pr_progress_phase(pg, "writing a report per job");
        st = write_each_job(o, ro, sum, m, &set, err);
        pr_outputs_free(&set);
        return st;
    }
    if (st == PR_OK && (o->html_path != NULL || o->pdf_path != NULL))
        st = pr_detail_view(sum, o->detail_ranks, &view, err);
    /* the runs drawn in full, read whole again: all others stay lite */
    if (st == PR_OK && view != NULL && m != NULL)
        st = pr_merge_expand_full(
            m, cJSON_GetObjectItemCaseSensitive(view, PR_K_RUNS), err);
    /* a job's report: three ranks in full must fit where one did */
    job_top = st == PR_OK && !o->top_given &&
              (cJSON_GetObjectItemCaseSensitive(view, "detail") != NULL ||
               pr_detail_n_jobs(view) > 0);
    if (job_top)
        ro.top = PR_DETAIL_TOP;
    if (st == PR_OK && o->json_path != NULL)
        st = pr_outputs_stage(&set, o->json_path, &tj, err);
    if (st == PR_OK && o->html_path != NULL)
        st = pr_outputs_stage(&set, o->html_path, &th, err);
    if (st == PR_OK && o->pdf_path != NULL)
        st = pr_outputs_stage(&set, o->pdf_path, &tp, err);
    if (st == PR_OK && th != NULL) {
        phase_writing(pg, o->html_path);
        st = pr_html_render(view, &ro, &html, err);
    }
    if (st == PR_OK && th != NULL)
        st = pr_outputs_fill(th, o->html_path, html.data ? html.data : "",
                             html.len, err);
    if (st == PR_OK && tj != NULL) {
        phase_writing(pg, o->json_path);
        st = fill_json(tj, o->json_path, sum, m, err);
    }
    if (job_top)
        ro.top = PR_DETAIL_TOP_PDF;
    if (st == PR_OK && tp != NULL)
        phase_writing(pg, o->pdf_path);
    if (st == PR_OK && tp != NULL &&
        (st = pr_pdf_render(view, &ro, tp, err)) != PR_OK)
        shown_as(err, tp, o->pdf_path);
    if (st == PR_OK)
        st = pr_outputs_commit(&set, err);
    cJSON_Delete(view);
    pr_buf_free(&html);
    pr_outputs_free(&set);
    return st;
}

/* A finding's gain as the terminal says it, its times rounded as the
 * verdict's cells (pr_whatif_fmt_us; review 11 #9: npu_text1 read "at
 * most 101 ms" beside the cell's 100.8 ms, CANN 6 "3.11 ms" on one rank
 * and "3.1 ms" on the other).  host: the run's gains are of the host step
 * (pr_fig_run_host_step: torch_npu's device basis), whose share says so
 * (issue #30). */
static void
brief_gain(const cJSON *fd, int capture, int host, char *buf, size_t cap)
{
    /* a run without steps: its one window is the capture (review 20 #8) */
    const char *per = capture ? "over the capture" : "per step";
    const char *of = host ? " of the host step" : "";
    double us = pr_sget_num(fd, PR_K_GAIN_US),
           pct = pr_sget_num(fd, PR_K_GAIN_PCT),
           b = pr_sget_num(fd, PR_K_BOUND_US);
    char t[32];

    if (isnan(us) && b > 0) {
        /* a bound alone: a ceiling, ranked after the gains */
        pr_whatif_fmt_us(b, t, sizeof(t));
        snprintf(buf, cap, "at most %s %s (an upper bound)", t, per);
    } else if (isnan(us)) {
        snprintf(buf, cap, "no gain claimed");
    } else if (b > us &&
               pr_sget_is(pr_sget_str(fd, PR_K_GAIN_BASIS), PR_GAIN_PER_STEP)) {
        /* an estimate with its ceiling (review 8 #9): "saves 5.3 ms per
           step (4.3%; at most 7.6 ms)" */
        char u[32];

        pr_whatif_fmt_us(us, t, sizeof(t));
        pr_whatif_fmt_us(b, u, sizeof(u));
        snprintf(buf, cap, "saves %s %s (%.1f%%%s; at most %s)", t, per, pct,
                 of, u);
    } else if (pr_sget_is(pr_sget_str(fd, PR_K_ID), "cold_step") &&
               !pr_sget_is(pr_sget_str(fd, PR_K_GAIN_BASIS),
                           PR_GAIN_PER_STEP)) {
        /* first-use costs: paid once, not saved on every step */
        pr_whatif_fmt_us(us, t, sizeof(t));
        snprintf(buf, cap, "a one-time cost of %s (%.1f%% of the %s)", t, pct,
                 capture ? "capture" : "captured steps");
    } else if (pr_sget_is(pr_sget_str(fd, PR_K_GAIN_BASIS),
                          PR_GAIN_PER_SAMPLES)) {
        /* twice the batch: time per step's worth of samples */
        pr_whatif_fmt_us(us, t, sizeof(t));
        snprintf(buf, cap,
                 "saves %s per %s's worth of samples at twice the batch "
                 "(%.1f%%%s; the batch size changes)",
                 t, capture ? "capture" : "step", pct, of);
    } else {
        pr_whatif_fmt_us(us, t, sizeof(t));
        snprintf(buf, cap, "saves %s %s (%.1f%%%s)", t, per, pct, of);
    }
}

/* Whether a job's name is its one run's name (a job of one run of a
 * folder holding several: "kernel_details_910B_v1.csv", or "a/rank3"). */
static int
named_by(const char *job, const char *who)
{
    size_t lj = strlen(job), lw = strlen(who);

    return lw > 0 && lj >= lw && strcmp(job + lj - lw, who) == 0 &&
           (lj == lw || job[lj - lw - 1] == '/');
}

/* A run as the terminal names it: its worker (and span), and its job's
 * name first when the input held several jobs ("a / rank3"); a memory
 * timeline's entry is its file, named once, with the trace it is named
 * after ("host_100.raw, named after host_100's trace (rank 0)"). */
static void
run_label(const cJSON *sum, const cJSON *runs, const cJSON *run, long idx,
          char *buf, size_t n)
{
    const cJSON *e = pr_sget_job_entry_of(pr_sget(sum, PR_K_JOBS), (size_t)idx);
    const char *job = e != NULL ? pr_sget_str_or(e, PR_K_NAME, "?") : "";
    char who[256], tie[300];

    pr_sget_run_name(runs, run, who, sizeof(who));
    if (e != NULL && pr_sget_job_is_memtl(sum, e)) {
        /* its entry's name: its file's ("a/x.raw" where two folders
           hold an x.raw; an older summary's entry name for a run of no
           file name) */
        snprintf(who, sizeof(who), "%s", job);
        if (pr_sget_memtl_tie(sum, e, tie, sizeof(tie)))
            snprintf(buf, n, "%s, named after %s", who, tie);
        else
            snprintf(buf, n, "%s", who);
    } else if (job[0] != '\0' && !named_by(job, who))
        snprintf(buf, n, "%s / %s", job, who);
    else if (job[0] != '\0')
        snprintf(buf, n, "%s", job); /* not "X / X" (review 21 #4) */
    else
        snprintf(buf, n, "%s", who);
}

/* The job line of the terminal, as the Job overview's cards: the slowest
 * rank by the job's one definition, the spread, and for a job of which
 * the report holds some ranks no slowest rank but how many are missing
 * (review-2 findings 8, 9). */
static void
print_job_line(const cJSON *job, const char *name, int capture,
               const cJSON *dist)
{
    const cJSON *d = pr_sget(job, PR_K_STEP_US),
                *slow = pr_sget(job, PR_K_SLOWEST);
    const cJSON *by_mean = pr_sget(job, PR_K_SLOWEST_BY_MEAN);
    double warm = pr_sget_num(d, PR_K_RANKS_FIRST_STEP_EXCLUDED), judged = 0;
    const cJSON *r;
    char a[32], b[32], spread[160];
    int partial = cJSON_IsFalse(pr_sget(job, PR_K_RANKS_COMPLETE));

    if (!cJSON_IsObject(job))
        return;
    cJSON_ArrayForEach(r, pr_sget(job, PR_K_PER_RANK))
    {
        judged += cJSON_IsTrue(pr_sget(r, PR_K_FIRST_STEP_WARMUP));
    }
    if (isnan(pr_sget_num(d, PR_K_SPREAD_PCT)))
        snprintf(spread, sizeof(spread),
                 "no spread: %.0f rank%s with step markers",
                 pr_sget_num(d, PR_K_RANKS_WITH_STEPS),
                 pr_sget_num(d, PR_K_RANKS_WITH_STEPS) == 1 ? "" : "s");
    else if (partial)
        snprintf(spread, sizeof(spread), "the spread between these is %.1f%%",
                 pr_sget_num(d, PR_K_SPREAD_PCT));
    else if (warm > 0 && judged < warm)
        /* the job's one rule: a warm-up on some ranks leaves every rank's
           first step out (review26a #7) */
        snprintf(spread, sizeof(spread),
                 "spread %.1f%% across ranks (the first step left out on "
                 "%.0f rank%s, a warm-up on %.0f)",
                 pr_sget_num(d, PR_K_SPREAD_PCT), warm, warm == 1 ? "" : "s",
                 judged);
    else if (warm > 0)
        snprintf(spread, sizeof(spread),
                 "spread %.1f%% across ranks (the warm-up first step left "
                 "out on %.0f rank%s)",
                 pr_sget_num(d, PR_K_SPREAD_PCT), warm, warm == 1 ? "" : "s");
    else
        snprintf(spread, sizeof(spread), "spread %.1f%% across ranks",
                 pr_sget_num(d, PR_K_SPREAD_PCT));
    if (!cJSON_IsObject(slow) && isnan(pr_sget_num(d, PR_K_MEDIAN_US))) {
        pr_term_printf(stdout, "%s: %.0f ranks, no step time\n", name,
                       pr_sget_num(job, PR_K_RANKS));
        return;
    }
    pr_fig_format(pr_sget_num(slow, PR_K_MEAN_US), PR_FMT_US, a, sizeof(a));
    pr_fig_format(pr_sget_num(by_mean, PR_K_MEAN_US), PR_FMT_US, b, sizeof(b));
    if (partial) /* the note names a missing late rank (job.c) */
        pr_term_printf(stdout, "%s: %s; %s\n", name,
                       pr_sget_str_or(job, PR_K_COVERAGE_NOTE,
                                      "the report holds some of the job's "
                                      "ranks: no slowest rank is named"),
                       spread);
    /* no slowest rank from profiler windows, nor from a spread under the
       noise floor (job.c; review 22g #6) */
    else if (!cJSON_IsObject(slow) && capture &&
             isnan(pr_sget_num(d, PR_K_SPREAD_PCT))) {
        /* a median but no spread: one rank's capture is timed (a rank
           of no device time has none), so there is nothing to compare */
        pr_fig_format(pr_sget_num(d, PR_K_MEDIAN_US), PR_FMT_US, a, sizeof(a));
        pr_term_printf(stdout,
                       "%s: %.0f ranks, no steps: one rank with a timed "
                       "capture (%s), so no spread and no slowest rank\n",
                       name, pr_sget_num(job, PR_K_RANKS), a);
    } else if (!cJSON_IsObject(slow) && capture) {
        pr_fig_format(pr_sget_num(d, PR_K_MEDIAN_US), PR_FMT_US, a, sizeof(a));
        pr_term_printf(stdout,
                       "%s: %.0f ranks, no steps: captures of %s each "
                       "(spread %.1f%%), no slowest rank\n",
                       name, pr_sget_num(job, PR_K_RANKS), a,
                       pr_sget_num(d, PR_K_SPREAD_PCT));
    } else if (!cJSON_IsObject(slow) &&
               pr_sget_num(d, PR_K_SPREAD_PCT) < PR_JOB_SPREAD_FLOOR_PCT) {
        pr_fig_format(pr_sget_num(d, PR_K_MEDIAN_US), PR_FMT_US, a, sizeof(a));
        pr_term_printf(stdout,
                       "%s: %.0f ranks; no slowest rank: mean steps %s, "
                       "spread %.2f%% across ranks, under the %.1f%% noise "
                       "floor\n",
                       name, pr_sget_num(job, PR_K_RANKS), a,
                       pr_sget_num(d, PR_K_SPREAD_PCT),
                       PR_JOB_SPREAD_FLOOR_PCT);
    } else if (!cJSON_IsObject(slow)) {
        pr_term_printf(stdout, "%s: %.0f ranks, no step time\n", name,
                       pr_sget_num(job, PR_K_RANKS));
        return;
    } else if (pr_sget_is(pr_sget_str(job, PR_K_SLOWEST_BY),
                          "pipeline_stage") &&
               !cJSON_IsObject(by_mean)) /* means under the noise floor */
        pr_term_printf(stdout,
                       "%s: %.0f ranks; slowest pipeline stage's rank %s "
                       "(mean step %s; it computes longest, %s for it); %s\n",
                       name, pr_sget_num(job, PR_K_RANKS),
                       pr_sget_str_or(slow, PR_K_WORKER, "?"), a,
                       pr_fig_other_stages(dist), spread);
    else if (pr_sget_is(pr_sget_str(job, PR_K_SLOWEST_BY), "pipeline_stage"))
        pr_term_printf(stdout,
                       "%s: %.0f ranks; slowest pipeline stage's rank %s "
                       "(mean step %s; it computes longest, %s for it; "
                       "longest mean step %s, %s); %s\n",
                       name, pr_sget_num(job, PR_K_RANKS),
                       pr_sget_str_or(slow, PR_K_WORKER, "?"), a,
                       pr_fig_other_stages(dist),
                       pr_sget_str_or(by_mean, PR_K_WORKER, "?"), b, spread);
    else
        pr_term_printf(stdout,
                       "%s: %.0f ranks; slowest rank %s (%s %s, "
                       "%+.1f%% vs the median rank); %s\n",
                       name, pr_sget_num(job, PR_K_RANKS),
                       pr_sget_str_or(slow, PR_K_WORKER, "?"),
                       capture ? "no steps, capture" : "mean step", a,
                       pr_sget_num(slow, PR_K_VS_MEDIAN_PCT), spread);
    if (pr_sget_str(job, PR_K_LATE_RANK_NOTE) != NULL)
        pr_term_printf(stdout, "%s: %s\n", name,
                       pr_sget_str(job, PR_K_LATE_RANK_NOTE));
}

/* The job lines: the summary's job, or each job's when it holds several. */
static void
print_job_lines(const cJSON *sum)
{
    const cJSON *e;
    char name[300];

    /* memory timelines alone are no job and no ranks (review 18 #5) */
    if (pr_sget_len(pr_sget(sum, PR_K_RUNS)) > 1 && pr_fig_memtl_only(sum))
        pr_term_printf(stdout,
                       "%zu memory timelines (torch.profiler's "
                       "export_memory_timeline_raw), each shown on its own: "
                       "the files give no rank or world size\n",
                       pr_sget_len(pr_sget(sum, PR_K_RUNS)));
    /* ranks without steps: each one's window is its capture (issue #29) */
    print_job_line(pr_sget(sum, PR_K_JOB), "job",
                   pr_fig_summary_is_capture(sum),
                   pr_sget(sum, PR_K_DISTRIBUTED));
    cJSON_ArrayForEach(e, pr_sget(sum, PR_K_JOBS))
    {
        snprintf(name, sizeof(name), "job %s",
                 pr_sget_str_or(e, PR_K_NAME, "?"));
        print_job_line(pr_sget(e, PR_K_JOB), name,
                       pr_fig_summary_is_capture(sum),
                       pr_sget(e, PR_K_DISTRIBUTED));
    }
}

/* A run's entry in its job's per_rank (by its index in runs[]). */
static const cJSON *
job_rank_of(const cJSON *sum, long idx)
{
    const cJSON *e, *j;

    cJSON_ArrayForEach(e, pr_sget(pr_sget(sum, PR_K_JOB), PR_K_PER_RANK))
    {
        if (pr_sget_long(e, PR_K_RUN, -1) == idx)
            return e;
    }
    cJSON_ArrayForEach(j, pr_sget(sum, PR_K_JOBS))
    {
        cJSON_ArrayForEach(e, pr_sget(pr_sget(j, PR_K_JOB), PR_K_PER_RANK))
        {
            if (pr_sget_long(e, PR_K_RUN, -1) == idx)
                return e;
        }
    }
    return NULL;
}

/* The terminal's verdict (issue #31): per run its steps, what bounds
 * them and the findings by gain; nothing under -q. */
/* A raw memory timeline's run: memory only, so its peak in place of
 * steps and a verdict. */
static void
print_memtl(const char *name, const cJSON *mt)
{
    char text[640], span[32], rows[32];

    pr_sec_memtl_peak(mt, text, sizeof(text));
    pr_fig_format(pr_sget_num(mt, PR_K_SPAN_US), PR_FMT_US, span, sizeof(span));
    pr_fig_format(pr_sget_num(mt, PR_K_ROWS), PR_FMT_COUNT, rows, sizeof(rows));
    pr_term_printf(stdout,
                   "%s: torch.profiler's raw memory timeline, %s rows over "
                   "%s of one device (the file does not say which); memory "
                   "only: no steps, operators or kernels\n  %s\n",
                   name, rows, span, text);
}

static void
print_brief(const cJSON *sum, int quiet)
{
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(sum, PR_K_RUNS), *run;
    char name[600];
    long idx = 0;

    if (quiet)
        return;
    print_job_lines(sum);
    cJSON_ArrayForEach(run, runs)
    {
        const cJSON *ss =
            cJSON_GetObjectItemCaseSensitive(run, PR_K_STEP_SUMMARY);
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(ss, PR_K_COUNT);
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(ss, PR_K_MEAN_US);
        const cJSON *v = pr_sget(run, PR_K_VERDICT), *fd;
        const cJSON *jr = job_rank_of(sum, idx);

        double n = cJSON_IsNumber(c) ? c->valuedouble : 0;
        char mean[32], rows[64];
        int n_gain = 0;

        run_label(sum, runs, run, idx++, name, sizeof(name));
        if (cJSON_IsObject(pr_sget(run, PR_K_MEMORY_TIMELINE))) {
            print_memtl(name, pr_sget(run, PR_K_MEMORY_TIMELINE));
            continue;
        }
        pr_fig_format(cJSON_IsNumber(m) ? m->valuedouble : NAN, PR_FMT_US, mean,
                      sizeof(mean));
        if (!(n > 0) || !cJSON_IsNumber(m))
            pr_term_printf(stdout, "%s: no step time (no steps were found)\n",
                           name);
        else if (pr_sget_run_is_capture(run) &&
                 pr_fig_row_step_words(run, rows, sizeof(rows)))
            pr_term_printf(stdout,
                           "%s: no step bounds (%s, whose bounds the file "
                           "does not give); the whole capture, %s, is one "
                           "window, not a step\n",
                           name, rows, mean);
        else if (pr_sget_run_is_capture(run))
            pr_term_printf(stdout,
                           "%s: no step markers; the whole capture, %s, is "
                           "one window, not a step\n",
                           name, mean);
        else if (cJSON_IsTrue(pr_sget(jr, PR_K_FIRST_STEP_EXCLUDED))) {
            char steady[32];

            pr_fig_format(pr_sget_num(jr, PR_K_MEAN_US), PR_FMT_US, steady,
                          sizeof(steady));
            /* a rank whose first step is no warm-up of its own loses it
               to the job's one rule; no parenthesis where the two means
               read the same (review26a #7: ms_cluster4 rank0 "179 ms
               (179 ms without the warm-up first step") */
            if (strcmp(mean, steady) == 0)
                pr_term_printf(stdout, "%s: %.0f steps, mean step %s\n", name,
                               n, mean);
            else
                pr_term_printf(
                    stdout,
                    "%s: %.0f steps, mean step %s (%s without the %sfirst "
                    "step, as the job line counts)\n",
                    name, n, mean, steady,
                    cJSON_IsTrue(pr_sget(jr, PR_K_FIRST_STEP_WARMUP))
                        ? "warm-up "
                        : "");
        } else
            pr_term_printf(stdout, "%s: %.0f step%s, mean step %s\n", name, n,
                           n == 1 ? "" : "s", mean);
        if (v == NULL)
            continue;
        pr_term_printf(stdout, "  %s\n", pr_sget_str_or(v, PR_K_TEXT, ""));
        if (pr_sget_len(pr_sget(v, PR_K_FINDINGS)) == 0)
            pr_term_printf(
                stdout, "  %s\n",
                pr_sget_str_or(v, PR_K_NO_FINDING,
                               "No finding: no rule's change shortens the "
                               "critical path by 1% of the step or more."));
        cJSON_ArrayForEach(fd, pr_sget(v, PR_K_FINDINGS))
        {
            const char *ev = pr_sget_str_or(fd, PR_K_EVIDENCE, "");
            char gain[160], idb[128];
            /* an NPU run's ids in its words (pr_fig_id_npu) */
            const char *id = pr_sget_str_or(fd, PR_K_ID, "");

            if (pr_fig_run_is_npu(run))
                id = pr_fig_id_npu(id, idb, sizeof(idb));

            brief_gain(fd, pr_sget_run_is_capture(run),
                       pr_fig_run_host_step(run), gain, sizeof(gain));
            if (pr_sget_is(pr_sget_str(fd, PR_K_KIND), "observation")) {
                /* no gain: apart from the ranked changes (review 15 #2),
                   why before its evidence (review 16 #4) */
                pr_term_printf(stdout, "  Not estimated: %s: %s [%s]\n",
                               pr_sget_str_or(fd, PR_K_TITLE, ""), gain, id);
                if (pr_sget_str(fd, PR_K_REASON) != NULL)
                    pr_term_printf(stdout, "     why no estimate: %s\n",
                                   pr_sget_str(fd, PR_K_REASON));
            } else
                pr_term_printf(stdout, "  %ld. %s: %s [%s]\n",
                               pr_sget_long(fd, PR_K_RANK, -1),
                               pr_sget_str_or(fd, PR_K_TITLE, ""), gain, id);
            /* a replay's figure (a gain, or a bound alone) rests on path
               nodes, its evidence how much the replay changed each, not
               what the step saves: where the path then runs through other
               work the two differ (review 11 #4: launch_bound's 'on the
               path: aclnnInplaceAdd 323 us' beside its text's 378 us of
               the call on the path; review 12 #1: 'taken off the path:'
               38.7 ms of convolutions beside AMP's 2.7 ms gain); a
               stated model's (a pipeline's balance, the step trace's
               interval) names its own evidence (stages.c, recommend.c),
               as does a finding with neither */
            int replayed =
                pr_sget_is(pr_sget_str(fd, PR_K_GAIN_SOURCE), PR_GAIN_REPLAY);

            if (ev[0] != '\0')
                pr_term_printf(
                    stdout, "     %s%s\n",
                    pr_sget_str(fd, PR_K_REASON) != NULL ? "evidence: "
                    : !replayed                          ? ""
                    : pr_sget_is(pr_sget_str(fd, PR_K_ID), "host_sync")
                        ? "evidence: "
                    /* twice the batch changes none of its evidence: the
                       evidence says it is the per-call work on the path
                       the batch spreads (whatif.c; review26a #3:
                       npu_trace_view's aclop calls read 5.8 ms here beside
                       op_compile's 5.3 ms "changed") */
                    : pr_sget_is(pr_sget_str(fd, PR_K_GAIN_BASIS),
                                 PR_GAIN_PER_SAMPLES)
                        ? ""
                        : "changed most in the replay: ",
                    ev);
            n_gain += replayed || !isnan(pr_sget_num(fd, PR_K_GAIN_US));
        }
        if (n_gain > 1)
            pr_term_printf(stdout, "  (each gain is its change replayed "
                                   "alone: they overlap and do not add up)\n");
        /* the collectives' readings, as beside their table in the
           reports (review 6 #5) */
        cJSON_ArrayForEach(fd,
                           pr_sget(pr_sget(run, PR_K_COMMUNICATION), PR_K_OPS))
        {
            if (pr_sget_str(fd, PR_K_SIZED_NOTE) != NULL)
                pr_term_printf(stdout, "  Collectives: %s\n",
                               pr_sget_str(fd, PR_K_SIZED_NOTE));
            if (pr_sget_str(fd, PR_K_SIZE_NOTE) != NULL)
                pr_term_printf(stdout, "  Collectives: %s\n",
                               pr_sget_str(fd, PR_K_SIZE_NOTE));
        }
        if (pr_sget_str(pr_sget(run, PR_K_COMMUNICATION), PR_K_PROTOCOL_NOTE) !=
            NULL)
            pr_term_printf(stdout, "  Collectives: %s\n",
                           pr_sget_str(pr_sget(run, PR_K_COMMUNICATION),
                                       PR_K_PROTOCOL_NOTE));
    }
    printf("(use --json, --html or --pdf to write a report; "
           "table --kind findings for the table)\n");
}

static struct pr_table_opts
table_opts(const struct pr_options *o)
{
    struct pr_table_opts to = {.kind = o->table_kind,
                               .sort = o->sort_col,
                               .group_by = o->group_by,
                               .filter = o->filter,
                               .job = o->job,
                               .columns = o->columns,
                               .min_time_us = o->min_time_us,
                               .top = o->top_given ? o->top : 0,
                               .width = o->width};

    to.format = o->csv        ? PR_TABLE_CSV
                : o->json_out ? PR_TABLE_JSON
                              : PR_TABLE_TEXT;
    return to;
}

/* A merged job's lite runs given the one member the table reads, read
 * again from their files one at a time: the table holds its rows, not
 * every whole run (issue #17).  An unknown kind is left to the table's
 * own message. */
static enum pr_status
table_runs(const struct pr_options *o, cJSON *sum, struct pr_merge *m,
           struct pr_error *err)
{
    struct pr_table_opts to = table_opts(o);
    const char *member = pr_table_member(&to);

    if (m == NULL || member == NULL)
        return PR_OK;
    return pr_merge_expand_member(
        m, cJSON_GetObjectItemCaseSensitive(sum, PR_K_RUNS), member, err);
}

/* Render from the summary (sum) or from kernel-call rows, then print. */
static enum pr_status
print_table(const struct pr_options *o, const cJSON *sum, const cJSON *rows,
            int npu, struct pr_error *err)
{
    struct pr_table_opts to = table_opts(o);
    struct pr_buf out;
    enum pr_status st;

    to.npu = npu;
    pr_buf_init(&out, 0);
    st = sum ? pr_table_render(sum, &to, &out, err)
             : pr_table_render_rows(rows, &to, &out, err);
    if (st == PR_OK) /* names are the trace's: no control sequences */
        out.len = pr_escape_term(out.data, out.len);
    if (st == PR_OK && out.len > 0 &&
        fwrite(out.data, 1, out.len, stdout) != out.len)
        st = pr_error_set(err, PR_E_IO, "stdout: write failed");
    pr_buf_free(&out);
    return st;
}

/* Move one trace's kernel-call rows to `all`, tagged with the worker and
 * span when several traces are read (two spans of one worker must not
 * read alike, issue #15). */
static enum pr_status
append_calls(const struct pr_trace *t, const struct pr_input_file *f, int tag,
             cJSON *all, struct pr_error *err)
{
    cJSON *rows = NULL, *row;
    enum pr_status st = pr_kernel_calls_build(t, &rows, err);

    while (st == PR_OK && (row = cJSON_DetachItemFromArray(rows, 0))) {
        if (tag &&
            (!cJSON_AddStringToObject(row, PR_K_WORKER, worker_of(t, f)) ||
             !cJSON_AddStringToObject(row, PR_K_SPAN, f->span ? f->span : "")))
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
        if (!cJSON_AddItemToArray(all, row)) {
            cJSON_Delete(row);
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
        }
    }
    cJSON_Delete(rows);
    return st;
}

/* kinds[0] counts the NPU traces read, kinds[1] the others. */
static enum pr_status
load_calls(const struct pr_options *o, const struct pr_input_file *f, int tag,
           cJSON *all, size_t kinds[2], struct pr_progress *pg,
           struct pr_error *err)
{
    struct pr_read_opts ro = {o->max_input, o->threads, pg, f->from_dir};
    struct pr_trace *t = NULL;
    struct pr_trace *r;
    enum pr_status st;

    st = f->format->load(f->path, &ro, &t, err);
    if (st == PR_OK)
        pr_progress_read(pg);
    if (st == PR_E_NOT_FORMAT && f->from_dir) {
        pr_error_clear(err);
        return PR_OK;
    }
    for (r = t; r != NULL && st == PR_OK; r = r->next) {
        r->kclass = o->kclass;
        kinds[pr_trace_is_npu(r) ? 0 : 1]++;
        st = append_calls(r, f, tag || r->next != NULL || r != t, all, err);
        /* why those rows' Start and Duration are "-" (kernel_calls.c;
           review30g #3), once a trace */
        if (st == PR_OK && r->replayed_kernels > 0 && !o->quiet)
            pr_term_printf(stderr,
                           "profreport: note: %s: %zu kernels were measured "
                           "by CUPTI's range profiler (kernel replay), whose "
                           "ranges all have one made-up length: their start "
                           "and duration are not known (\"-\")\n",
                           f->path, r->replayed_kernels);
    }
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", f->path);
    pr_trace_free(t);
    return st;
}

/* kernel-calls is one row per launch, too large for the summary (issue
 * #3): read each trace, keep only its rows, free it.  The options are
 * checked on an empty table first, so a typo fails before a long read. */
static enum pr_status
kernel_calls_table(const struct pr_options *opts, struct pr_error *err)
{
    struct pr_input_list files = {0};
    struct pr_table_opts to = table_opts(opts);
    struct pr_kclass_table *kc = NULL;
    struct pr_options with;
    const struct pr_options *o = &with;
    struct pr_buf probe;
    struct pr_progress pg = {0};
    cJSON *all = cJSON_CreateArray();
    enum pr_status st = all ? PR_OK : PR_E_NOMEM;
    size_t i, kinds[2] = {0, 0};
    uint64_t done = 0;

    pr_buf_init(&probe, 0);
    if (st != PR_OK)
        return pr_error_set(err, st, "out of memory");
    if (count_saved(opts) > 0) {
        cJSON_Delete(all);
        return pr_error_set(err, PR_E_USAGE,
                            "kernel-calls needs the traces: a saved summary "
                            "holds no per-launch rows");
    }
    st = open_kclass(opts, &with, &kc, err);
    if (st == PR_OK)
        st = pr_table_render_rows(all, &to, &probe, err);
    pr_buf_free(&probe);
    if (st == PR_OK)
        st = discover_all(o, &files, err);
    if (st == PR_OK)
        start_progress(o, &files, &pg);
    for (i = 0; i < files.n && st == PR_OK; i++) {
        pr_progress_file(&pg, i, files.files[i].path, done);
        done = bytes_after(&pg, files.files[i].path, done);
        st = load_calls(o, &files.files[i], files.n > 1, all, kinds, &pg, err);
    }
    pr_progress_end(&pg, st == PR_OK);
    /* every trace an NPU's: the table in its words (issue #30) */
    if (st == PR_OK)
        st = print_table(o, NULL, all, kinds[0] > 0 && kinds[1] == 0, err);
    pr_input_list_free(&files);
    pr_kclass_table_free(kc);
    cJSON_Delete(all);
    return st;
}

/* Several jobs among the inputs: say which (issue #15); each job's
 * figures are its own (jobs.h). */
static void
note_jobs(const struct pr_options *o, const cJSON *sum, int saved)
{
    char text[4096];

    /* saved summaries: named by where the user put them (issue #32) */
    pr_jobs_describe(sum,
                     !saved             ? NULL
                     : o->n_inputs == 1 ? o->inputs[0]
                                        : "the inputs",
                     text, sizeof(text));
    if (text[0] != '\0' && !o->quiet)
        pr_term_printf(stderr, "profreport: %s\n", text);
}

/* Serve large blocks from mmap and return them when freed.  glibc raises
 * its mmap threshold each time such a block is freed (up to 32 MiB), after
 * which the model's and the analyses' arrays come from the heap, whose
 * freed space stays resident: the op tree's build buffers and each pass's
 * scratch arrays then add to the peak instead of being given back (about
 * 10% of it on a 200 MB trace, issue #17). */
static void
bound_heap(void)
{
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

/* table --why NAME: which rule of the kernel table names a kernel, what
 * it says of it and where that naming comes from; no trace needed. */
static enum pr_status
explain_kernel(const struct pr_options *o, struct pr_error *err)
{
    struct pr_kclass_table *t = pr_kclass_table_open(o->kernel_rules, err);
    const char *math, *prec;
    struct pr_kclass k;

    if (t == NULL)
        return err->code != PR_OK ? err->code : PR_E_NOMEM;
    pr_kclass_lookup(t, o->why, &k);
    printf("kernel     %s\n", o->why);
    if (k.rule == NULL) {
        printf("rule       none: no rule of the kernel table (%zu rules) "
               "matches this name, so reports list the kernel as unknown "
               "(family null) and count its time as neither tensor-core "
               "nor communication time\n"
               "to name it add a rule to a file of data/kernels.json's form "
               "and pass it with --kernel-rules FILE (or "
               "PROFREPORT_KERNEL_RULES)\n",
               pr_kclass_table_count(t));
        pr_kclass_table_free(t);
        return PR_OK;
    }
    math = pr_kclass_math_name(k.math);
    prec = pr_kclass_prec_name(k.precision);
    printf("rule       %s (rule %d of %zu, the first that matches)\n"
           "pattern    %s\n"
           "library    %s\n"
           "family     %s%s\n",
           k.rule, k.index + 1, pr_kclass_table_count(t), k.pattern, k.library,
           pr_kclass_family_name(k.family),
           k.family == PR_KF_COLLECTIVE ? " (communication time)" : "");
    printf("math       %s%s\n", math ? math : "not told by the name",
           k.math == PR_KM_MATRIX ? " (tensor cores on NVIDIA, MFMA on AMD)"
           : k.math == PR_KM_SIMT ? " (CUDA cores on NVIDIA, vector units "
                                    "on AMD)"
                                  : "");
    if (prec != NULL && k.prec_pattern != NULL)
        printf("precision  %s (the name matches \"%s\")\n", prec,
               k.prec_pattern);
    else
        printf("precision  %s\n", prec ? prec : "not stated by the name");
    if (k.mma_precision != k.precision)
        printf("mma        %s (a wider operand beside it: the matrix "
               "instruction runs at its rate, the roof it is held to)\n",
               pr_kclass_prec_name(k.mma_precision));
    if (k.collective != NULL)
        printf("collective %s\n", k.collective);
    printf("plugin     %s\n",
           k.plugin_tc ? "the TensorBoard plugin's list names it too "
                         "(tensor_cores_source \"plugin\")"
                       : "not on the TensorBoard plugin's list");
    printf("source     %s\n", k.source);
    pr_kclass_table_free(t);
    return PR_OK;
}

/* The unit a math name stands for, in the run's words. */
static const char *
why_math_words(const char *math, int npu)
{
    static const char *const v[][3] = {
        {"cube", "an AI Core's Cube unit", "Ascend's Cube unit"},
        {"vector", "the Vector unit of an AI Core or AI Vector core",
         "AMD's vector units"},
        {"tensor_core", "", "NVIDIA's tensor cores"},
        {"cuda_core", "", "NVIDIA's CUDA cores"},
        {"mfma", "", "AMD's matrix cores"},
        {"matrix", "", "tensor cores on NVIDIA, MFMA on AMD"},
        {"simt", "", "CUDA cores on NVIDIA, vector units on AMD"},
        {"communication", "HCCL's communication engines", ""},
        {"ai_cpu", "the AI CPU (Task Type AI_CPU)", ""},
        {"dsa", "the DSA engine (Task Type DSA_SQE)", ""}};
    size_t i;

    for (i = 0; math != NULL && i < sizeof(v) / sizeof(v[0]); i++)
        if (strcmp(math, v[i][0]) == 0)
            return v[i][npu ? 1 : 2];
    return "";
}

static int
same_str(const char *a, const char *b)
{
    return a == NULL ? b == NULL : b != NULL && strcmp(a, b) == 0;
}

/* The precision the run's table gives the kernel and where it comes
 * from: its name, else (Ascend) what the producer states of its calls'
 * inputs, the majority of its time where they differ (review30a #9:
 * "not stated by the name" for kd_910B_v2's DT_BF16 MatMulV3). */
static void
why_precision(const struct pr_kernel_why *w, const char *prec)
{
    const char *src = w->precision_source;

    if (prec != NULL && w->kc.prec_pattern != NULL)
        printf("precision  %s (the name matches \"%s\")\n", prec,
               w->kc.prec_pattern);
    else if (prec != NULL)
        printf("precision  %s, stated by the name\n", prec);
    else if (w->precision != NULL && same_str(src, "producer") &&
             strcmp(w->precision, "hf32") == 0)
        printf("precision  hf32: its producer states fp32 inputs marked "
               "HF32 Eligible YES (Input Data Types, HF32 Eligible; %zu "
               "call%s), which the Cube ran in HF32\n",
               w->prec_calls, w->prec_calls == 1 ? "" : "s");
    else if (w->precision != NULL && same_str(src, "producer"))
        printf("precision  %s, from its producer's Input Data Types (%zu "
               "call%s)\n",
               w->precision, w->prec_calls, w->prec_calls == 1 ? "" : "s");
    else if (w->precision != NULL && same_str(src, "producer_mixed"))
        printf("precision  %s for most of its time (mixed): its calls' "
               "Input Data Types differ: %s\n",
               w->precision, w->precs);
    else
        printf("precision  not stated by the name%s\n",
               w->npu ? " nor by its producer" : "");
}

/* table --why NAME with traces: the class the run's kernel table gave the
 * kernel, by the same pass (pr_kernels_why): on an NPU CANN's, HCCL's and
 * MindSpore's rules only, then the producer's operator type, then the
 * unit it names (review25a #10). */
static void
print_why(const char *name, const struct pr_kernel_why *w, size_t count)
{
    const char *words = why_math_words(w->math, w->npu);
    const struct pr_kclass *k = w->kc.rule != NULL   ? &w->kc
                                : w->op_type != NULL ? &w->type_kc
                                                     : NULL;
    const char *prec = pr_kclass_prec_name(w->kc.precision);
    int mix = w->unit != NULL && strncmp(w->unit, "mix_", 4) == 0;

    printf("kernel     %s (%s run: %zu call%s)\n", name,
           w->npu ? "an NPU" : "a GPU", w->calls, w->calls == 1 ? "" : "s");
    if (w->kc.rule != NULL)
        printf("rule       %s (rule %d of %zu, the first that matches%s)\n",
               w->kc.rule, w->kc.index + 1, count,
               w->npu ? " among CANN's, HCCL's and MindSpore's: an NPU's "
                        "tasks are theirs"
                      : "");
    else if (w->op_type != NULL)
        printf("rule       none names the kernel; its producer's operator "
               "type %s is named by %s (rule %d of %zu)\n",
               w->op_type, w->type_kc.rule, w->type_kc.index + 1, count);
    else
        printf("rule       none: no rule of the kernel table (%zu rules) "
               "matches this name%s\n",
               count, w->npu ? " or its producer's operator type" : "");
    if (k != NULL)
        printf("pattern    %s\nlibrary    %s\n", k->pattern, k->library);
    if (w->family == NULL)
        printf("family     unknown (family null): to name it add a rule to "
               "a file of data/kernels.json's form and pass it with "
               "--kernel-rules FILE (or PROFREPORT_KERNEL_RULES)\n");
    else if (w->family_source != NULL &&
             strcmp(w->family_source, "producer") == 0)
        printf("family     %s, from the producer%s%s\n", w->family,
               w->op_type != NULL ? "'s operator type " /* Type, op_type */
                                  : ": it calls the task a collective",
               w->op_type != NULL ? w->op_type : "");
    else
        printf("family     %s%s\n", w->family,
               strcmp(w->family, "collective") == 0 ? " (communication time)"
                                                    : "");
    if (w->math == NULL && mix)
        printf("math       not known: its producer names a mixed Cube and "
               "vector launch (%s) and the export has no PMU counters to "
               "tell the units apart\n",
               strcmp(w->unit, "mix_matrix") == 0 ? "MIX_AIC" : "MIX_AIV");
    else if (w->math == NULL)
        printf("math       not known: neither the name's rule nor the "
               "export says which unit ran it\n");
    else if (w->pmu_col != NULL && w->kc.math == PR_KM_UNKNOWN)
        printf("math       %s%s%s%s, from its PMU counters (%s %.3g, "
               "duration-weighted)\n",
               w->math, words[0] ? " (" : "", words, words[0] ? ")" : "",
               w->pmu_col, w->pmu_val);
    else
        printf("math       %s%s%s%s%s\n", w->math, words[0] ? " (" : "", words,
               words[0] ? ")" : "",
               w->unit != NULL && w->kc.math == PR_KM_UNKNOWN
                   ? ", from the unit its producer names"
                   : "");
    if (w->npu && w->tc >= 0 && w->pmu_col != NULL)
        printf("cube       %s, from its PMU counters (%s %.3g)\n",
               w->tc > 0 ? "yes: most of its time on the Cube" : "no",
               w->pmu_col, w->pmu_val);
    else if (w->npu)
        printf("cube       %s\n",
               w->tc > 0    ? "yes: most of its time on the Cube"
               : w->tc == 0 ? "no"
               : mix        ? "not known: a mixed Cube and vector launch "
                              "without PMU counters (tensor_cores_used null)"
                            : "not known: the export names no unit "
                              "(tensor_cores_used null)");
    else
        printf("tc         %s%s%s\n", w->tc > 0 ? "yes" : "no",
               w->tc_source != NULL ? ", tensor_cores_source " : "",
               w->tc_source != NULL ? w->tc_source : "");
    why_precision(w, prec);
    if (w->kc.mma_precision != w->kc.precision)
        printf("mma        %s (a wider operand beside it: the matrix "
               "instruction runs at its rate, the roof it is held to)\n",
               pr_kclass_prec_name(w->kc.mma_precision));
    if (k != NULL && k->collective != NULL)
        printf("collective %s\n", k->collective);
    if (!w->npu)
        printf("plugin     %s\n",
               w->kc.plugin_tc ? "the TensorBoard plugin's list names it too "
                                 "(tensor_cores_source \"plugin\")"
                               : "not on the TensorBoard plugin's list");
    if (k != NULL)
        printf("source     %s\n", k->source);
}

static int
why_same(const struct pr_kernel_why *a, const struct pr_kernel_why *b)
{
    return a->npu == b->npu && a->tc == b->tc &&
           same_str(a->family, b->family) && same_str(a->math, b->math) &&
           same_str(a->kc.rule, b->kc.rule) && same_str(a->op_type, b->op_type);
}

/* The first answer, kept past its trace: its op type (a string of that
 * trace) copied; its other strings are static or the kernel table's. */
struct why_first {
    struct pr_kernel_why w;
    char op_type[256];
};

/* NAME names several kernels (a part of their names, a short form): the
 * error lists them, so the user can give more of the one meant. */
static enum pr_status
why_alike(const char *name, const struct pr_kernel_why *w, struct pr_error *err)
{
    char *forms[PR_KERNEL_WHY_ALIKE] = {0};
    size_t i,
        n = 0,
        m = w->n_alike < PR_KERNEL_WHY_ALIKE ? w->n_alike : PR_KERNEL_WHY_ALIKE;
    char list[400];

    list[0] = '\0';
    if (pr_shorten_distinct(w->alike, m, 80, forms) != 0)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (--why)");
    for (i = 0; i < m; i++) {
        int k = snprintf(list + n, sizeof(list) - n, "\n  %s", forms[i]);

        if (k < 0 || (size_t)k >= sizeof(list) - n)
            break;
        n += (size_t)k;
    }
    pr_shorten_free(forms, m);
    return pr_error_set(err, PR_E_USAGE,
                        "'%s' names %zu kernels of the input; give more of "
                        "the one meant (profreport table --kind kernels "
                        "--csv prints the full names):%s%s",
                        name, w->n_alike, list,
                        w->n_alike > m ? "\n  ..." : "");
}

/* Each trace of file f: the first that holds the kernel is printed, a
 * later one only where it classifies it otherwise. */
static enum pr_status
why_in_file(const struct pr_options *o, const struct pr_input_file *f,
            struct why_first *first, size_t *found, struct pr_error *err)
{
    struct pr_read_opts ro = {o->max_input, o->threads, NULL, f->from_dir};
    struct pr_trace *t = NULL, *r;
    enum pr_status st = f->format->load(f->path, &ro, &t, err);

    if (st == PR_E_NOT_FORMAT && f->from_dir) {
        pr_error_clear(err);
        return PR_OK;
    }
    for (r = t; r != NULL && st == PR_OK; r = r->next) {
        struct pr_kernel_why w;

        r->kclass = o->kclass;
        st = pr_kernels_why(r, o->why, &w, err);
        if (st == PR_OK && w.n_alike > 1)
            st = why_alike(o->why, &w, err);
        if (st != PR_OK || !w.found)
            continue;
        if (*found == 0 || !why_same(&first->w, &w)) {
            if (*found > 0)
                printf("\nin %s, otherwise:\n", f->path);
            print_why(w.name, &w, pr_kclass_table_count(o->kclass));
        }
        if (*found == 0) {
            first->w = w;
            if (w.op_type != NULL) {
                snprintf(first->op_type, sizeof(first->op_type), "%s",
                         w.op_type);
                first->w.op_type = first->op_type;
            }
        }
        ++*found;
    }
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", f->path);
    pr_trace_free(t);
    return st;
}

/* table --why NAME --input PATH: the kernel as the run's table names it. */
static enum pr_status
explain_in_runs(const struct pr_options *opts, struct pr_error *err)
{
    struct pr_input_list files = {0};
    struct pr_kclass_table *kc = NULL;
    struct pr_options with;
    struct why_first first = {0};
    size_t i, found = 0;
    enum pr_status st;

    if (count_saved(opts) > 0)
        return pr_error_set(err, PR_E_USAGE,
                            "--why with --input needs the traces: a saved "
                            "summary does not keep what classified a "
                            "kernel");
    st = open_kclass(opts, &with, &kc, err);
    if (st == PR_OK)
        st = discover_all(&with, &files, err);
    for (i = 0; i < files.n && st == PR_OK; i++)
        st = why_in_file(&with, &files.files[i], &first, &found, err);
    if (st == PR_OK && found == 0)
        st = pr_error_set(err, PR_E_USAGE,
                          "no kernel named '%s' in the input, nor one "
                          "whose name holds it (profreport table --kind "
                          "kernels lists them)",
                          opts->why);
    pr_input_list_free(&files);
    pr_kclass_table_free(kc);
    return st;
}

enum pr_status
pr_pipeline_run(const struct pr_options *o, struct pr_error *err)
{
    cJSON *sum = NULL;
    struct pr_merge *m = NULL;
    struct reread r = {0};
    int report =
        o->command != PR_CMD_TABLE &&
        (o->json_path != NULL || o->html_path != NULL || o->pdf_path != NULL);
    enum pr_status st;

    bound_heap();
    if (o->command == PR_CMD_TABLE && o->why != NULL)
        return o->n_inputs > 0 ? explain_in_runs(o, err)
                               : explain_kernel(o, err);
    if (o->command == PR_CMD_TABLE && o->table_kind &&
        strcmp(o->table_kind, "kernel-calls") == 0)
        return kernel_calls_table(o, err);
    st = build_summary(o, report, &r, &sum, &m, err);
    if (st != PR_OK) {
        pr_progress_end(&r.pg, 0);
        reread_free(&r);
        return st;
    }
    if (!report) /* what follows prints to stdout: end the lines first */
        pr_progress_end(&r.pg, 1);
    note_jobs(o, sum, r.saved);
    if (o->command == PR_CMD_TABLE) {
        st = table_runs(o, sum, m, err);
        if (st == PR_OK)
            st = print_table(o, sum, NULL, 0, err);
    } else if (o->json_path == NULL && o->html_path == NULL &&
               o->pdf_path == NULL) {
        print_brief(sum, o->quiet);
    } else {
        st = write_outputs(o, sum, m, &r.pg, err);
    }
    pr_progress_end(&r.pg, st == PR_OK);
    cJSON_Delete(sum);
    pr_merge_free(m);
    reread_free(&r);
    return st;
}

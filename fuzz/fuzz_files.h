/* fuzz_files.h - lay a fuzz input out on disk, since readers take paths
 * (SQLite needs a file, run-folder formats a folder).
 *
 * An input that starts with "@@@ " is a folder: entries "@@@ PATH\n"
 * followed by the file's bytes up to the next "\n@@@ " (at most
 * FUZZ_MAX_FILES; PATH keeps [A-Za-z0-9._-/], no "..", four levels deep).
 * Anything else is one file named "input".  The seeds of fuzz/run.sh use
 * the folder form for torch_npu, msprof and MindSpore run folders, so the
 * fuzzer mutates file names and contents of real layouts.
 *
 * Each process owns one temporary folder (removed at exit); every input
 * replaces its contents. */
#ifndef PROFREPORT_FUZZ_FILES_H
#define PROFREPORT_FUZZ_FILES_H

/* config.h (first in every target) asks for _GNU_SOURCE: nftw, memmem */
#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profreport/args.h"
#include "profreport/pipeline.h"

#define FUZZ_MAX_FILES 32
#define FUZZ_SEP "\n@@@ "

static char fuzz_root[64]; /* the process's folder, "" before the first */

static inline int
fuzz_rm_one(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
    (void)sb;
    (void)flag;
    (void)f;
    return remove(p) != 0 && f->level > 0 ? -1 : 0;
}

static inline void
fuzz_rm_root(void)
{
    if (fuzz_root[0] != '\0')
        (void)nftw(fuzz_root, fuzz_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The process's folder, emptied: root/in (the input) and root/out. */
static inline const char *
fuzz_fresh_root(void)
{
    char p[96];

    if (fuzz_root[0] == '\0') {
        snprintf(fuzz_root, sizeof(fuzz_root), "/tmp/pr_fuzz_XXXXXX");
        if (mkdtemp(fuzz_root) == NULL)
            abort();
        atexit(fuzz_rm_root);
    }
    fuzz_rm_root();
    if (mkdir(fuzz_root, 0700) != 0)
        abort();
    snprintf(p, sizeof(p), "%s/in", fuzz_root);
    if (mkdir(p, 0700) != 0)
        abort();
    snprintf(p, sizeof(p), "%s/out", fuzz_root);
    if (mkdir(p, 0700) != 0)
        abort();
    return fuzz_root;
}

/* 0 when the file cannot be written (a member under a name that is a
 * file already); the disk being full is not the code's finding: abort. */
static inline int
fuzz_write(const char *path, const void *d, size_t n)
{
    FILE *f = fopen(path, "wb");

    if (f == NULL)
        return 0;
    if ((n > 0 && fwrite(d, 1, n, f) != n) || fclose(f) != 0)
        abort();
    return 1;
}

/* Copy a member's name into `rel` with only safe characters, making its
 * folders under `in`; 0 when nothing is left of it. */
/* The bytes a member's path may hold; others become '_'. */
static inline int
fuzz_name_char(char c)
{
    return c == '/' || c == '.' || c == '_' || c == '-' ||
           (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9');
}

/* The whole report command on `in`, its JSON, HTML and PDF into outdir
 * (o.json, o.html, o.pdf), as a user would run it but with caps that keep
 * a fuzz run short.  Errors are the input's: not findings. */
static inline void
fuzz_report(const char *in, const char *outdir)
{
    char json[256], html[256], pdf[256], input[256];
    char *argv[] = {(char[]){"profreport"},
                    (char[]){"-q"},
                    (char[]){"--threads"},
                    (char[]){"2"},
                    (char[]){"--jobs"},
                    (char[]){"1"},
                    (char[]){"--max-input"},
                    (char[]){"16MiB"},
                    (char[]){"--input"},
                    input,
                    (char[]){"--json"},
                    json,
                    (char[]){"--html"},
                    html,
                    (char[]){"--pdf"},
                    pdf,
                    NULL};
    struct pr_options o;
    struct pr_error err;

    snprintf(input, sizeof(input), "%s", in);
    snprintf(json, sizeof(json), "%s/o.json", outdir);
    snprintf(html, sizeof(html), "%s/o.html", outdir);
    snprintf(pdf, sizeof(pdf), "%s/o.pdf", outdir);
    pr_error_clear(&err);
    if (pr_args_parse(16, argv, PR_CMD_REPORT, &o, &err) != PR_OK)
        abort(); /* the command line is ours */
    (void)pr_pipeline_run(&o, &err);
    pr_args_free(&o);
}

static inline int
fuzz_member_path(const char *in, const char *name, size_t n, char *out,
                 size_t cap)
{
    size_t o = (size_t)snprintf(out, cap, "%s/", in), i, depth = 0;

    for (i = 0; i < n && o + 2 < cap; i++) {
        char c = name[i];

        if (c == '/' && (o == 0 || out[o - 1] == '/' || ++depth > 4))
            continue;
        if (c == '.' && (out[o - 1] == '/' || out[o - 1] == '.'))
            c = '_'; /* no "..", no hidden names */
        if (!fuzz_name_char(c))
            c = '_';
        out[o++] = c;
        out[o] = '\0';
        if (c == '/')
            (void)mkdir(out, 0700);
    }
    while (o > 0 && out[o - 1] == '/')
        out[--o] = '\0';
    return o > strlen(in) + 1;
}

/* Write the members of a folder input under `in`. */
static inline void
fuzz_unpack(const char *in, const char *d, size_t n)
{
    const char *end = d + n, *p = d + 4, *nl, *next;
    char path[512];
    size_t files = 0;

    while (p < end && files++ < FUZZ_MAX_FILES) {
        nl = memchr(p, '\n', (size_t)(end - p));
        if (nl == NULL)
            nl = end;
        next = nl < end ? memmem(nl, (size_t)(end - nl), FUZZ_SEP, 5) : NULL;
        if (next == NULL)
            next = end;
        if (fuzz_member_path(in, p, (size_t)(nl - p), path, sizeof(path))) {
            struct stat sb;

            if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
                (void)fuzz_write(path, nl < next ? nl + 1 : nl,
                                 nl < next ? (size_t)(next - nl - 1) : 0);
        }
        if (next == end)
            break;
        p = next + 5;
    }
}

/* Lay out d[0..n) afresh; returns the path to give a reader (the folder,
 * or the single file) and, in *out, the folder for outputs. */
static inline const char *
fuzz_lay_out(const void *data, size_t n, const char **out)
{
    static char in[96], file[112], outdir[96];
    const char *d = data;
    const char *root = fuzz_fresh_root();

    snprintf(in, sizeof(in), "%s/in", root);
    snprintf(outdir, sizeof(outdir), "%s/out", root);
    *out = outdir;
    if (n >= 4 && memcmp(d, "@@@ ", 4) == 0) {
        fuzz_unpack(in, d, n);
        return in;
    }
    snprintf(file, sizeof(file), "%s/input", in);
    if (!fuzz_write(file, d, n))
        abort();
    return file;
}

/* The one folder inside `in` when that is all it holds (a run folder
 * given to its reader by its own path, as discovery would); else `in`. */
static inline const char *
fuzz_only_folder(const char *in)
{
    static char one[512];
    struct dirent *e;
    struct stat sb;
    DIR *d = opendir(in);
    int n = 0;

    if (d == NULL)
        return in;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (n++ == 0)
            snprintf(one, sizeof(one), "%s/%s", in, e->d_name);
    }
    closedir(d);
    return n == 1 && stat(one, &sb) == 0 && S_ISDIR(sb.st_mode) ? one : in;
}

#endif

/* fuzz_tree.c - libFuzzer target for what a run folder may hold besides
 * regular files (issue #35): the input is a folder (fuzz_files.h's "@@@
 * PATH" members) whose member lines may instead make
 *
 *   "@@L PATH TARGET"  a symlink to TARGET: relative (inside the folder,
 *                      or out of it with ".."), or one of the places
 *                      named below by a digit (/, /usr, /dev/zero,
 *                      /proc/self/status, the secret file and the FIFO
 *                      beside the input folder)
 *   "@@H PATH TARGET"  a hard link to the member TARGET
 *   "@@F PATH"         a FIFO
 *
 * and the whole report command runs on it, as fuzz_pipeline does.  Beyond
 * a crash, a leak, undefined behaviour or a hang, a finding is anything
 * left where nothing was asked for: a file made in the input folder (an
 * SQLite "-shm" beside a database in WAL mode, a staging file) or in the
 * output folder besides the three reports, or the secret's bytes in the
 * summary.  Seeds: fuzz/seeds/tree (a database and its "-wal", links in
 * and out, a FIFO in place of a trace). */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "fuzz_files.h"

#define SECRET "FUZZ-SECRET-7d1f"

/* Places outside the input folder a symlink may name by a digit. */
static const char *
place(char digit, const char *root, char *buf, size_t cap)
{
    switch (digit) {
    case '0':
        return "/";
    case '1':
        return "/usr";
    case '2':
        return "/dev/zero";
    case '3':
        return "/proc/self/status";
    case '4':
        snprintf(buf, cap, "%s/outside/secret.txt", root);
        return buf;
    case '5':
        snprintf(buf, cap, "%s/outside/fifo", root);
        return buf;
    default:
        return NULL;
    }
}

/* The link target of a "@@L" line: a digit names a place, anything else
 * is kept as written (safe characters only, ".." allowed). */
static void
link_target(const char *t, size_t n, const char *root, char *out, size_t cap)
{
    char buf[160];
    const char *p = n == 1 ? place(t[0], root, buf, sizeof(buf)) : NULL;
    size_t i, o = 0;

    if (p != NULL) {
        snprintf(out, cap, "%s", p);
        return;
    }
    for (i = 0; i < n && o + 1 < cap; i++) {
        char c = t[i];

        if (!fuzz_name_char(c))
            c = '_';
        out[o++] = c;
    }
    out[o] = '\0';
}

/* Split d[0..n) into the special lines ("@@L", "@@H", "@@F", into
 * *spec) and the rest (*plain, for fuzz_lay_out); both malloc'd. */
static void
split_specials(const char *d, size_t n, char **plain, size_t *n_plain,
               char **spec, size_t *n_spec)
{
    const char *end = d + n, *p = d;

    *plain = malloc(n + 1);
    *spec = malloc(n + 1);
    if (*plain == NULL || *spec == NULL)
        abort();
    *n_plain = *n_spec = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = (size_t)((nl ? nl + 1 : end) - p);
        int special = len > 4 && p[0] == '@' && p[1] == '@' &&
                      (p[2] == 'L' || p[2] == 'H' || p[2] == 'F') &&
                      p[3] == ' ';

        memcpy(special ? *spec + *n_spec : *plain + *n_plain, p, len);
        *(special ? n_spec : n_plain) += len;
        p += len;
    }
}

/* Make the special members of d[0..n) under `in`: "@@L", "@@H", "@@F"
 * lines (the "@@@" ones are fuzz_unpack's). */
static void
make_specials(const char *root, const char *in, const char *d, size_t n)
{
    const char *end = d + n, *p = d;
    char path[512], target[512], member[512];

    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p)), *sp;

        if (nl == NULL)
            nl = end;
        if (nl - p > 4 && p[0] == '@' && p[1] == '@' && p[3] == ' ') {
            const char *name = p + 4;

            sp = memchr(name, ' ', (size_t)(nl - name));
            if (fuzz_member_path(in, name, (size_t)((sp ? sp : nl) - name),
                                 path, sizeof(path))) {
                if (p[2] == 'F')
                    (void)mkfifo(path, 0600);
                else if (p[2] == 'L' && sp != NULL) {
                    link_target(sp + 1, (size_t)(nl - sp - 1), root, target,
                                sizeof(target));
                    (void)symlink(target, path);
                } else if (p[2] == 'H' && sp != NULL &&
                           fuzz_member_path(in, sp + 1, (size_t)(nl - sp - 1),
                                            member, sizeof(member)))
                    (void)link(member, path);
            }
        }
        p = nl + 1;
    }
}

/* Every entry under dir, as "path\n" lines into out (its size: cap). */
static void
list_tree(const char *dir, char *out, size_t cap, size_t *at)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort), i;

    for (i = 0; i < n; i++) {
        char p[1024];
        struct stat sb;

        if (strcmp(names[i]->d_name, ".") != 0 &&
            strcmp(names[i]->d_name, "..") != 0) {
            snprintf(p, sizeof(p), "%s/%s", dir, names[i]->d_name);
            if (*at < cap)
                *at += (size_t)snprintf(out + *at, cap - *at, "%s\n", p);
            if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
                list_tree(p, out, cap, at);
        }
        free(names[i]);
    }
    free(names);
}

/* abort() when out holds anything but o.json, o.html and o.pdf, or the
 * summary quotes the secret. */
static void
check_outputs(const char *outdir)
{
    struct dirent *e;
    DIR *d = opendir(outdir);
    char p[256], buf[4096];
    FILE *f;
    size_t n;

    if (d == NULL)
        abort();
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
            strcmp(e->d_name, "o.json") != 0 &&
            strcmp(e->d_name, "o.html") != 0 &&
            strcmp(e->d_name, "o.pdf") != 0) {
            fprintf(stderr, "fuzz_tree: left in the output folder: %s\n",
                    e->d_name);
            abort();
        }
    }
    closedir(d);
    snprintf(p, sizeof(p), "%s/o.json", outdir);
    f = fopen(p, "rb");
    while (f != NULL && (n = fread(buf, 1, sizeof(buf) - 1, f)) > 0) {
        buf[n] = '\0';
        if (memmem(buf, n, SECRET, strlen(SECRET)) != NULL)
            abort(); /* (a secret across two reads is not looked for) */
    }
    if (f != NULL)
        fclose(f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char before[1 << 16], after[1 << 16];
    const char *outdir, *in;
    char p[160];
    size_t nb = 0, na = 0, n_plain, n_spec;
    char *plain, *spec;

    if (size < 4 || memcmp(data, "@@@ ", 4) != 0)
        return 0; /* a folder, or nothing */
    split_specials((const char *)data, size, &plain, &n_plain, &spec, &n_spec);
    in = fuzz_lay_out(plain, n_plain, &outdir);
    snprintf(p, sizeof(p), "%s/outside", fuzz_root);
    if (mkdir(p, 0700) != 0)
        abort();
    snprintf(p, sizeof(p), "%s/outside/secret.txt", fuzz_root);
    if (!fuzz_write(p, SECRET "\n", strlen(SECRET) + 1))
        abort();
    snprintf(p, sizeof(p), "%s/outside/fifo", fuzz_root);
    (void)mkfifo(p, 0600);
    make_specials(fuzz_root, in, spec, n_spec);
    free(plain);
    free(spec);
    list_tree(in, before, sizeof(before), &nb);
    fuzz_report(in, outdir);
    list_tree(in, after, sizeof(after), &na);
    if (na != nb || memcmp(before, after, na) != 0) {
        fprintf(stderr, "fuzz_tree: the input folder changed:\n%.*s---\n%.*s",
                (int)nb, before, (int)na, after);
        abort();
    }
    check_outputs(outdir);
    return 0;
}

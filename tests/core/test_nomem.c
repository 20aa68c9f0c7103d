/* test_nomem.c - allocation-failure injection (issue #34; curl's torture
 * mode, jq's inject_errors): the whole report command (ingest, analysis,
 * the JSON, HTML and PDF writers) over one small generated trace, run once
 * to count its allocations and keep its outputs, then again with one
 * allocation failing: every allocation path the first run reached (its
 * caller and a few frames above) once, plus a stride over all allocations. Each
 * run must either succeed with outputs byte-identical to the first, or fail
 * with PR_E_NOMEM and leave no output behind.  Under ASan (CI's sanitizer
 * build) a crash or a leak on any failure path is a failure too.
 *
 * The program defines malloc, calloc, realloc and free and forwards them to
 * the next definition (libc's, or ASan's under the sanitizers), so cJSON,
 * zlib, SQLite and libharu allocations fail too.  Allocations inside libc
 * (strdup, fopen) are not interposed.  PR_NOMEM_MAX bounds the number of
 * failing runs (default 300, spread over the call paths; 0 = every call
 * path, about 2,000 runs: `make check-nomem`); PR_NOMEM_AT=N runs only the run
 * in which allocation N fails and prints that allocation's stack (addr2line -e
 * tests/core/test_nomem ADDRESS names the lines). */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "profreport/args.h"
#include "profreport/error.h"
#include "profreport/pipeline.h"

/* ---- the interposer ---------------------------------------------------- */

/* The sanitizers' runtime allocates while it starts, before its shadow
 * memory exists: the interposer runs uninstrumented. */
#if defined(__GNUC__) || defined(__clang__)
#define NOSAN __attribute__((no_sanitize("address", "undefined")))
#else
#define NOSAN
#endif

static void *(*next_malloc)(size_t);
static void *(*next_calloc)(size_t, size_t);
static void *(*next_realloc)(void *, size_t);
static void (*next_free)(void *);

/* dlsym() may allocate before the forwards are known: a static pool */
static _Alignas(16) unsigned char boot[16384];
static size_t boot_used;
static atomic_int resolving;

static atomic_long n_allocs;     /* counted since the last reset */
static atomic_long fail_at = -1; /* the allocation (1-based) that fails */
static atomic_long n_failed;     /* failures injected since the reset */
static int recording;            /* keep the call sites of the run */
static uintptr_t *sites;         /* first allocation index per site */
static long *site_first;
static size_t n_sites, cap_sites;

NOSAN static void
resolve(void)
{
    if (next_free != NULL || atomic_exchange(&resolving, 1))
        return;
    /* POSIX's way to take a function from dlsym() */
    *(void **)(&next_malloc) = dlsym(RTLD_NEXT, "malloc");
    *(void **)(&next_calloc) = dlsym(RTLD_NEXT, "calloc");
    *(void **)(&next_realloc) = dlsym(RTLD_NEXT, "realloc");
    *(void **)(&next_free) = dlsym(RTLD_NEXT, "free");
}

NOSAN static int
in_boot(const void *p)
{
    return (const unsigned char *)p >= boot &&
           (const unsigned char *)p < boot + sizeof(boot);
}

NOSAN static void *
boot_alloc(size_t n)
{
    void *p;

    n = (n + 15) & ~(size_t)15;
    if (boot_used + n > sizeof(boot))
        return NULL;
    p = boot + boot_used;
    boot_used += n;
    return p; /* static storage: already zero */
}

NOSAN static void
note_site(uintptr_t site, long index)
{
    size_t i;

    for (i = 0; i < n_sites; i++)
        if (sites[i] == site)
            return;
    if (n_sites == cap_sites) {
        size_t cap = cap_sites ? cap_sites * 2 : 1024;
        uintptr_t *s = next_realloc(sites, cap * sizeof(*s));
        long *f = s ? next_realloc(site_first, cap * sizeof(*f)) : NULL;

        if (s != NULL)
            sites = s;
        if (f == NULL)
            return;
        site_first = f;
        cap_sites = cap;
    }
    sites[n_sites] = site;
    site_first[n_sites++] = index;
}

static int tracing; /* PR_NOMEM_TRACE: print the failing call's stack */

/* The call path of an allocation, as a hash of its innermost frames: the
 * same site reached through two callers is two paths. */
NOSAN static uintptr_t
path_of(uintptr_t site)
{
    void *frames[6];
    int n = backtrace(frames, 6), i;
    uintptr_t h = site;

    for (i = 2; i < n; i++)
        h = h * 1000003u ^ (uintptr_t)frames[i];
    return h;
}

/* Allocations the walk does not fail, as their callers cannot survive it:
 * libharu 2.3.0 copies from the NULL of an allocation it could not make
 * inside HPDF_Page_ShowText (HPDF_MemCpy, a crash of its own), and the
 * sanitizers' runtime treats a failure as a broken invariant.  Our
 * handling of libharu's other failures is walked. */
NOSAN static int
in_libharu_text(void)
{
    void *frames[24];
    int n = backtrace(frames, 24), i;

    for (i = 0; i < n; i++) {
        Dl_info d;

        if (dladdr(frames[i], &d) == 0)
            continue;
        if (d.dli_sname != NULL &&
            strcmp(d.dli_sname, "HPDF_Page_ShowText") == 0)
            return 1;
        /* the sanitizers' own runtime (its thread set-up asserts that
         * glibc's pthread_getattr_np cannot fail) */
        if (d.dli_fname != NULL && (strstr(d.dli_fname, "libasan") != NULL ||
                                    strstr(d.dli_fname, "libubsan") != NULL))
            return 1;
    }
    return 0;
}

/* Count this allocation; 1 when it is the one to fail. */
NOSAN static int
inject(uintptr_t site)
{
    long i = atomic_fetch_add(&n_allocs, 1) + 1;

    if (recording) {
        recording = 0; /* backtrace() must not count itself */
        note_site(path_of(site), i);
        recording = 1;
    }
    if (i != atomic_load(&fail_at) || in_libharu_text())
        return 0;
    atomic_fetch_add(&n_failed, 1);
    errno = ENOMEM; /* as malloc does (POSIX) */
    if (tracing) {
        void *frames[24];
        int n = backtrace(frames, 24);

        fprintf(stderr, "# allocation %ld fails here:\n", i);
        backtrace_symbols_fd(frames, n, 2);
    }
    return 1;
}

NOSAN void *
malloc(size_t n)
{
    resolve();
    if (next_malloc == NULL)
        return boot_alloc(n);
    if (inject((uintptr_t)__builtin_return_address(0)))
        return NULL;
    return next_malloc(n);
}

NOSAN void *
calloc(size_t n, size_t size)
{
    resolve();
    if (next_calloc == NULL)
        return size && n > SIZE_MAX / size ? NULL : boot_alloc(n * size);
    if (inject((uintptr_t)__builtin_return_address(0)))
        return NULL;
    return next_calloc(n, size);
}

NOSAN void *
realloc(void *p, size_t n)
{
    resolve();
    if (in_boot(p) || next_realloc == NULL) {
        void *q = malloc(n);

        if (q != NULL && p != NULL)
            memcpy(q, p, n); /* boot blocks are never shrunk by the caller */
        return q;
    }
    if (inject((uintptr_t)__builtin_return_address(0)))
        return NULL;
    return next_realloc(p, n);
}

NOSAN void
free(void *p)
{
    if (p == NULL || in_boot(p))
        return;
    resolve();
    if (next_free != NULL)
        next_free(p);
}

/* ---- the walk ---------------------------------------------------------- */

struct walk {
    char dir[64], trace[96], out[3][96];
    unsigned char *want[3]; /* the first run's outputs */
    size_t want_n[3];
};

static const char *const exts[3] = {"json", "html", "pdf"};

static unsigned char *
slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    unsigned char *b = NULL;
    long len;

    *n = 0;
    if (f == NULL)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 &&
        fseek(f, 0, SEEK_SET) == 0 && (b = next_malloc((size_t)len + 1))) {
        *n = fread(b, 1, (size_t)len, f);
    }
    fclose(f);
    return b;
}

/* One report command; its status. */
static enum pr_status
run_once(struct walk *w, struct pr_error *err)
{
    char *argv[] = {(char[]){"profreport"},
                    (char[]){"-q"},
                    (char[]){"--threads"},
                    (char[]){"1"},
                    (char[]){"--jobs"},
                    (char[]){"1"},
                    (char[]){"--input"},
                    w->trace,
                    (char[]){"--json"},
                    w->out[0],
                    (char[]){"--html"},
                    w->out[1],
                    (char[]){"--pdf"},
                    w->out[2],
                    NULL};
    struct pr_options o;
    enum pr_status st;
    int i;

    for (i = 0; i < 3; i++)
        unlink(w->out[i]);
    pr_error_clear(err);
    st = pr_args_parse(14, argv, PR_CMD_REPORT, &o, err);
    if (st != PR_OK)
        return st;
    st = pr_pipeline_run(&o, err);
    pr_args_free(&o);
    return st;
}

static int
setup(void **state)
{
    static struct walk w;
    const char *gen = getenv("PR_GEN");
    char cmd[512];
    int i;

    /* the reports' date would differ from run to run */
    if (setenv("SOURCE_DATE_EPOCH", "1700000000", 1) != 0)
        return -1;
    snprintf(w.dir, sizeof(w.dir), "/tmp/pr_nomem.%ld", (long)getpid());
    if (mkdir(w.dir, 0700) != 0)
        return -1;
    snprintf(w.trace, sizeof(w.trace), "%s/t.pt.trace.json", w.dir);
    for (i = 0; i < 3; i++)
        snprintf(w.out[i], sizeof(w.out[i]), "%s/o.%s", w.dir, exts[i]);
    /* one step, two blocks, one attention block, memory events: every
     * pass has rows, and the walk stays short */
    snprintf(cmd, sizeof(cmd),
             "'%s' --steps 1 --blocks 2 --attn 1 --memory --stack -o '%s'",
             gen ? gen : "bench/gen_trace", w.trace);
    if (system(cmd) != 0)
        return -1;
    {
        void *warm[2]; /* backtrace() loads libgcc on its first call */
        (void)backtrace(warm, 2);
    }
    *state = &w;
    return 0;
}

static int
teardown(void **state)
{
    struct walk *w = *state;
    char cmd[128];
    int i;

    for (i = 0; i < 3; i++)
        next_free(w->want[i]);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", w->dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Check the run that failed allocation `at`; 0 when it behaved. */
static int
check_run(struct walk *w, long at, enum pr_status st,
          const struct pr_error *err)
{
    int i;

    if (st == PR_E_NOMEM) {
        for (i = 0; i < 3; i++) {
            if (access(w->out[i], F_OK) == 0) {
                print_error("allocation %ld: PR_E_NOMEM but %s was written\n",
                            at, w->out[i]);
                return -1;
            }
        }
        return 0;
    }
    if (st != PR_OK) {
        print_error("allocation %ld failed: status %d, not PR_E_NOMEM: %s\n",
                    at, (int)st, err->msg);
        return -1;
    }
    for (i = 0; i < 3; i++) {
        size_t n;
        unsigned char *got = slurp(w->out[i], &n);
        int same =
            got != NULL && n == w->want_n[i] && memcmp(got, w->want[i], n) == 0;

        next_free(got);
        if (!same) {
            print_error("allocation %ld failed, the run succeeded, but its "
                        "%s differs from the first run's\n",
                        at, exts[i]);
            return -1;
        }
    }
    return 0;
}

/* PR_NOMEM_AT: where the traced run crashed, then the crash itself */
static void
on_crash(int sig)
{
    void *frames[32];
    int n = backtrace(frames, 32);

    backtrace_symbols_fd(frames, n, 2);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* One run with allocation `fail` failing, in a child process so that a
 * crash or (under ASan) a leak is one bad run, not the end of the walk;
 * 1 when it misbehaved. */
static int
try_one(struct walk *w, long fail, long *runs)
{
    pid_t pid;
    int status;

    (*runs)++;
    fflush(NULL);
    pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        static const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
        struct pr_error err;
        enum pr_status st;
        size_t k;

        /* cmocka's handlers would go on with the walk in this child: a
         * crash ends it, and the parent names the allocation */
        for (k = 0; k < sizeof(fatal) / sizeof(fatal[0]); k++)
            signal(fatal[k], tracing ? on_crash : SIG_DFL);

        atomic_store(&n_allocs, 0);
        atomic_store(&n_failed, 0);
        atomic_store(&fail_at, fail);
        st = run_once(w, &err);
        atomic_store(&fail_at, -1);
        if (atomic_load(&n_failed) == 0)
            exit(0); /* this run never reached that allocation */
        exit(check_run(w, fail, st, &err) != 0 ? 1 : 0);
    }
    if (waitpid(pid, &status, 0) != pid)
        return 1;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (WIFSIGNALED(status))
        print_error("allocation %ld failed: the run died of signal %d\n", fail,
                    WTERMSIG(status));
    else if (WEXITSTATUS(status) != 1)
        print_error("allocation %ld failed: the run exited %d (a leak or a "
                    "sanitizer report above)\n",
                    fail, WEXITSTATUS(status));
    return 1;
}

static void
test_every_failure_is_clean(void **state)
{
    struct walk *w = *state;
    struct pr_error err;
    long total, at, stride, site_step, max = 300, bad = 0, runs = 0;
    const char *env = getenv("PR_NOMEM_MAX");
    size_t s;
    int i;

    if (env != NULL && strtol(env, NULL, 10) >= 0)
        max = strtol(env, NULL, 10);
    atomic_store(&n_allocs, 0);
    recording = 1;
    assert_int_equal(run_once(w, &err), PR_OK);
    recording = 0;
    total = atomic_load(&n_allocs);
    for (i = 0; i < 3; i++) {
        w->want[i] = slurp(w->out[i], &w->want_n[i]);
        assert_non_null(w->want[i]);
    }
    assert_true(total > 100);
    env = getenv("PR_NOMEM_AT"); /* after the first run, as in the walk */
    if (env != NULL && strtol(env, NULL, 10) > 0) {
        tracing = 1;
        assert_int_equal(try_one(w, strtol(env, NULL, 10), &runs), 0);
        return;
    }
    /* three quarters of the runs on call paths, spread evenly over them
     * (all of them when they fit), the rest on a stride over every
     * allocation; PR_NOMEM_MAX=0 walks every path */
    if (max == 0) {
        site_step = 1;
        stride = total / 1000 + 1;
    } else {
        long paths = max - max / 4;

        site_step = (long)n_sites > paths ? (long)n_sites / paths + 1 : 1;
        stride = total / (max / 4 > 0 ? max / 4 : 1) + 1;
    }
    fprintf(stderr,
            "# %ld allocations on %zu call paths; every %ld-th path, "
            "every %ld-th allocation\n",
            total, n_sites, site_step, stride);
    for (s = 0; s < n_sites && bad < 400; s += (size_t)site_step)
        bad += try_one(w, site_first[s], &runs);
    for (at = 1; at <= total && bad < 400; at += stride)
        bad += try_one(w, at, &runs);
    fprintf(stderr, "# %ld runs with one allocation failing, %ld bad\n", runs,
            bad);
    assert_int_equal(bad, 0);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_failure_is_clean),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/* collector.c - libprofreport_collector.so, loaded into a CUDA program by
 * CUDA_INJECTION64_PATH (and NVTX_INJECTION64_PATH).  It enables CUPTI
 * activity records, keeps them in a session through a bounded pool of
 * recycled buffers, and at exit (or SIGINT/SIGTERM) writes one Kineto trace
 * per process into $PROFREPORT_RECORD_DIR.  Translating records is
 * cupti_map.c's job; writing the trace is convert.c's.
 *
 * This file holds process-wide state on purpose: CUPTI's buffer callbacks,
 * atexit and signal handlers take no user pointer.  It never ends the
 * process and never changes the program's exit status. */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include <cuda.h>
#include <cupti.h>

#include "internal.h"
#include "profreport/record.h"

#define PR_EXPORT __attribute__((visibility("default")))
#define BUF_BYTES ((size_t)4 << 20) /* per CUPTI buffer */
#define MAX_BUFS 16                 /* at most 64 MiB of buffers */
#define DEFAULT_MAX_RECORDS ((size_t)2 << 20)
#define NAME_CACHE 4096

PR_EXPORT int InitializeInjection(void);
PR_EXPORT int InitializeInjectionNvtx2(void *get_export_table);

/* The buffer pool: buffers are reused; when all are in CUPTI's hands the
 * next request gets none and CUPTI counts the records it drops. */
struct pool {
    uint8_t *free_bufs[MAX_BUFS];
    size_t n_free, n_made;
};

/* Demangled kernel names by CUPTI's (stable, per-kernel) name pointer. */
struct name_slot {
    const char *raw;
    const char *demangled; /* session-owned */
};

struct collector {
    pthread_mutex_t lock; /* guards everything below */
    struct pr_record_session *session;
    struct pool pool;
    struct name_slot names[NAME_CACHE];
    pid_t pid; /* process that set it up (a forked child skips) */
    struct sigaction old_int, old_term;
    char *(*demangle)(const char *, char *, size_t *, int *);
};

static struct collector g = {.lock = PTHREAD_MUTEX_INITIALIZER};
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static atomic_int written;

static void
note(const char *msg, const char *detail)
{
    fprintf(stderr, "profreport-collector: %s%s%s\n", msg, detail ? ": " : "",
            detail ? detail : "");
}

static void CUPTIAPI
buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    uint8_t *b = NULL;

    pthread_mutex_lock(&g.lock);
    if (g.pool.n_free > 0) {
        b = g.pool.free_bufs[--g.pool.n_free];
    } else if (g.pool.n_made < MAX_BUFS) {
        b = aligned_alloc(8, BUF_BYTES);
        g.pool.n_made += b != NULL;
    }
    pthread_mutex_unlock(&g.lock);
    *buffer = b;
    *size = b != NULL ? BUF_BYTES : 0;
    *max_records = 0;
}

/* "cudaLaunchKernel_v7000" -> "cudaLaunchKernel", the name Kineto writes. */
static void
api_name(const struct pr_rec *r, char *out, size_t n)
{
    CUpti_CallbackDomain dom = r->kind == PR_REC_RUNTIME
                                   ? CUPTI_CB_DOMAIN_RUNTIME_API
                                   : CUPTI_CB_DOMAIN_DRIVER_API;
    const char *name = NULL;
    char *v;

    if (cuptiGetCallbackName(dom, r->cbid, &name) != CUPTI_SUCCESS ||
        name == NULL) {
        snprintf(out, n, "%s %u",
                 r->kind == PR_REC_RUNTIME ? "runtime" : "driver",
                 (unsigned)r->cbid);
        return;
    }
    snprintf(out, n, "%s", name);
    v = strstr(out, "_v");
    if (v != NULL && v[2] >= '0' && v[2] <= '9' &&
        strspn(v + 2, "0123456789") == strlen(v + 2))
        *v = '\0';
}

/* Demangled name, cached per raw pointer; falls back to the raw name.
 * *owned is set when the result is the demangler's malloc'd text. */
static const char *
kernel_name(const char *raw, int *cache_slot, int *owned)
{
    size_t h = ((uintptr_t)raw >> 4) % NAME_CACHE;
    int status = -1;
    char *d;

    *cache_slot = -1;
    *owned = 0;
    if (raw == NULL)
        return NULL;
    if (g.names[h].raw == raw)
        return g.names[h].demangled;
    *cache_slot = (int)h;
    if (g.demangle == NULL)
        return raw;
    d = g.demangle(raw, NULL, NULL, &status);
    if (status != 0 || d == NULL) {
        free(d);
        return raw;
    }
    *owned = 1;
    return d;
}

/* Name the record (API names, demangled kernels) and keep it. */
static void
add_record(struct pr_rec *r)
{
    char api[128];
    const char *raw = r->name, *kname = NULL;
    int slot = -1, owned = 0;

    if (r->kind == PR_REC_RUNTIME || r->kind == PR_REC_DRIVER) {
        api_name(r, api, sizeof(api));
        r->name = api;
    } else if (r->kind == PR_REC_KERNEL) {
        kname = kernel_name(raw, &slot, &owned);
        r->name = kname;
    }
    if (pr_record_session_add(g.session, r, NULL) == PR_OK && slot >= 0) {
        g.names[slot].raw = raw;
        g.names[slot].demangled = g.session->recs[g.session->n - 1].name;
    }
    if (owned)
        free((void *)(uintptr_t)kname); /* the session keeps its own copy */
}

static void CUPTIAPI
buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                 size_t valid)
{
    CUpti_Activity *a = NULL;
    struct pr_rec r;
    size_t dropped = 0;

    (void)size;
    pthread_mutex_lock(&g.lock);
    while (g.session != NULL &&
           cuptiActivityGetNextRecord(buffer, valid, &a) == CUPTI_SUCCESS)
        if (pr_cupti_map(a, &r))
            add_record(&r);
    if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) ==
            CUPTI_SUCCESS &&
        g.session != NULL)
        pr_record_session_dropped(g.session, dropped);
    if (buffer != NULL && g.pool.n_free < MAX_BUFS)
        g.pool.free_bufs[g.pool.n_free++] = buffer;
    else
        free(buffer);
    pthread_mutex_unlock(&g.lock);
}

/* The driver API, looked up at run time: a process that never loaded CUDA
 * must not fail because of us. */
struct driver {
    CUresult (*get)(CUdevice *, int);
    CUresult (*attr)(int *, CUdevice_attribute, CUdevice);
    CUresult (*name)(char *, int, CUdevice);
    CUresult (*mem)(size_t *, CUdevice);
};

static int
load_driver(struct driver *d)
{
    void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);

    if (h == NULL)
        return 0;
    *(void **)&d->get = dlsym(h, "cuDeviceGet");
    *(void **)&d->attr = dlsym(h, "cuDeviceGetAttribute");
    *(void **)&d->name = dlsym(h, "cuDeviceGetName");
    *(void **)&d->mem = dlsym(h, "cuDeviceTotalMem_v2");
    dlclose(h); /* RTLD_NOLOAD: only drops the reference we just took */
    return d->get && d->attr && d->name && d->mem;
}

static int
attr(const struct driver *d, CUdevice dev, CUdevice_attribute a)
{
    int v = 0;

    return d->attr(&v, a, dev) == CUDA_SUCCESS ? v : 0;
}

static void
query_device(const struct driver *d, int ordinal, struct pr_record_device *p)
{
    CUdevice dev;
    size_t mem = 0;

    memset(p, 0, sizeof(*p));
    p->id = ordinal;
    if (d->get(&dev, ordinal) != CUDA_SUCCESS)
        return;
    if (d->name(p->name, (int)sizeof(p->name) - 1, dev) != CUDA_SUCCESS)
        p->name[0] = '\0';
    if (d->mem(&mem, dev) == CUDA_SUCCESS)
        p->total_global_mem = (int64_t)mem;
    p->cc_major = attr(d, dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    p->cc_minor = attr(d, dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    p->max_threads_per_block =
        attr(d, dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    p->max_threads_per_sm =
        attr(d, dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    p->regs_per_block =
        attr(d, dev, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
    p->regs_per_sm =
        attr(d, dev, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
    p->warp_size = attr(d, dev, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    p->smem_per_block =
        attr(d, dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    p->smem_per_sm =
        attr(d, dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
    p->smem_per_block_optin =
        attr(d, dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    p->reserved_smem_per_block =
        attr(d, dev, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
    p->num_sms = attr(d, dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
}

/* deviceProperties for every device the process had. */
static void
add_devices(void)
{
    struct driver d;
    struct pr_record_device p;
    int (*count)(int *);
    void *h;
    int n = 0, i;

    if (!load_driver(&d))
        return;
    h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (h == NULL)
        return;
    *(void **)&count = dlsym(h, "cuDeviceGetCount");
    dlclose(h);
    if (count == NULL || count(&n) != 0)
        return;
    for (i = 0; i < n && i < 64; i++) {
        query_device(&d, i, &p);
        if (pr_record_session_add_device(g.session, &p, NULL) != PR_OK)
            break;
    }
}

static void
process_name(char *out, size_t n)
{
    FILE *f = fopen("/proc/self/comm", "r");

    out[0] = '\0';
    if (f != NULL) {
        if (fgets(out, (int)n, f) == NULL)
            out[0] = '\0';
        fclose(f);
    }
    out[strcspn(out, "\n")] = '\0';
}

/* <dir>/<host>_<pid>.<ms>.pt.trace.json, the tensorboard_trace_handler
 * worker naming. */
static int
trace_path(char *out, size_t n)
{
    const char *dir = getenv("PROFREPORT_RECORD_DIR");
    char host[128];
    struct timeval tv;
    int w;

    if (gethostname(host, sizeof(host) - 1) != 0)
        snprintf(host, sizeof(host), "localhost");
    host[sizeof(host) - 1] = '\0';
    gettimeofday(&tv, NULL);
    w = snprintf(out, n, "%s/%s_%d.%lld.pt.trace.json",
                 dir != NULL && *dir != '\0' ? dir : ".", host, (int)getpid(),
                 (long long)tv.tv_sec * 1000 + tv.tv_usec / 1000);
    return w > 0 && (size_t)w < n;
}

/* Write to a temporary name, then rename: a reader never sees half. */
static void
write_trace(void)
{
    char path[4096], tmp[4200], comm[64];
    struct pr_record_meta meta;
    struct pr_error err;
    FILE *f;
    enum pr_status st;

    if (!trace_path(path, sizeof(path))) {
        note("output path too long", NULL);
        return;
    }
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    process_name(comm, sizeof(comm));
    meta = (struct pr_record_meta){(uint32_t)getpid(), comm[0] ? comm : NULL,
                                   path};
    f = fopen(tmp, "w");
    if (f == NULL) {
        note("cannot write the trace", strerror(errno));
        return;
    }
    pr_error_clear(&err);
    st = pr_record_write(g.session, &meta, f, NULL, &err);
    if (fclose(f) != 0 && st == PR_OK)
        st = pr_error_set(&err, PR_E_IO, "%s", strerror(errno));
    if (st == PR_OK && rename(tmp, path) == 0)
        return;
    note("cannot write the trace", err.msg[0] ? err.msg : strerror(errno));
    remove(tmp);
}

/* Flush CUPTI and write the trace, once per process. */
static void
flush_and_write(void)
{
    if (g.pid != getpid() || atomic_exchange(&written, 1))
        return;
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    pthread_mutex_lock(&g.lock);
    if (g.session != NULL) {
        add_devices();
        write_trace();
        if (g.session->dropped > 0)
            fprintf(stderr, "profreport-collector: %llu records dropped\n",
                    (unsigned long long)g.session->dropped);
    }
    pthread_mutex_unlock(&g.lock);
}

static void
at_exit(void)
{
    flush_and_write();
}

/* Chain to the handler the program had.  If it handles the signal itself
 * (Python raises KeyboardInterrupt) it will exit normally and atexit
 * writes the trace; if the signal would kill the process, write first. */
static void
on_signal(int sig, siginfo_t *info, void *ctx)
{
    const struct sigaction *old = sig == SIGINT ? &g.old_int : &g.old_term;

    if (old->sa_flags & SA_SIGINFO) {
        old->sa_sigaction(sig, info, ctx);
        return;
    }
    if (old->sa_handler == SIG_IGN)
        return;
    if (old->sa_handler != SIG_DFL) {
        old->sa_handler(sig);
        return;
    }
    flush_and_write();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void
catch_signals(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &g.old_int);
    sigaction(SIGTERM, &sa, &g.old_term);
}

/* A forked child starts with an empty session of its own; CUDA does not
 * work after fork, so it only writes if it is exec'ed (a new collector). */
static void
after_fork_child(void)
{
    pthread_mutex_init(&g.lock, NULL);
    if (g.session != NULL)
        pr_record_session_clear(g.session);
}

static size_t
max_records(void)
{
    const char *s = getenv("PROFREPORT_RECORD_MAX_EVENTS");
    char *end;
    unsigned long long v;

    if (s == NULL || *s == '\0')
        return DEFAULT_MAX_RECORDS;
    v = strtoull(s, &end, 10);
    return (*end == '\0' && v > 0 && v <= SIZE_MAX) ? (size_t)v
                                                    : DEFAULT_MAX_RECORDS;
}

static const CUpti_ActivityKind KINDS[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
    CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_MEMCPY2,
    CUPTI_ACTIVITY_KIND_MEMSET,
    CUPTI_ACTIVITY_KIND_RUNTIME,
    CUPTI_ACTIVITY_KIND_DRIVER,
    CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
    CUPTI_ACTIVITY_KIND_MARKER,
    CUPTI_ACTIVITY_KIND_MEMORY2};

static void
enable_kinds(void)
{
    const char *why;
    size_t i;

    for (i = 0; i < sizeof(KINDS) / sizeof(KINDS[0]); i++) {
        CUptiResult rc = cuptiActivityEnable(KINDS[i]);
        if (rc == CUPTI_SUCCESS)
            continue;
        char what[64];
        why = NULL;
        cuptiGetResultString(rc, &why);
        snprintf(what, sizeof(what), "cannot enable CUPTI activity kind %d",
                 (int)KINDS[i]);
        note(what, why);
    }
}

static void
load_demangler(void)
{
    void *h = dlopen("libstdc++.so.6", RTLD_LAZY);

    if (h != NULL) /* kept open: the names are demangled until exit */
        *(void **)&g.demangle = dlsym(h, "__cxa_demangle");
}

static void
init(void)
{
    CUptiResult rc;

    g.pid = getpid();
    g.session = pr_record_session_new(max_records());
    if (g.session == NULL) {
        note("out of memory", NULL);
        return;
    }
    load_demangler();
    rc = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    if (rc != CUPTI_SUCCESS) {
        const char *why = NULL;
        cuptiGetResultString(rc, &why);
        {
            note("CUPTI is not available", why);
            return;
        }
    }
    enable_kinds();
    pthread_atfork(NULL, NULL, after_fork_child);
    atexit(at_exit);
    catch_signals();
}

/* Called by the CUDA driver during cuInit (CUDA_INJECTION64_PATH). */
int
InitializeInjection(void)
{
    pthread_once(&init_once, init);
    return 1;
}

/* Called by NVTX on its first use (NVTX_INJECTION64_PATH): hand NVTX to
 * CUPTI, which turns ranges and markers into activity records. */
int
InitializeInjectionNvtx2(void *get_export_table)
{
    int (*cupti_nvtx)(void *) = NULL;
    Dl_info info;
    void *h;

    pthread_once(&init_once, init);
    if (dladdr((void *)(uintptr_t)cuptiActivityEnable, &info) == 0 ||
        info.dli_fname == NULL)
        return 0;
    h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (h != NULL)
        *(void **)&cupti_nvtx = dlsym(h, "InitializeInjectionNvtx2");
    return cupti_nvtx != NULL ? cupti_nvtx(get_export_table) : 0;
}

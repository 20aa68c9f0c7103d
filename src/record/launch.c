/* launch.c - a `profreport record` run (launch.h): run a command with the
 * CUPTI collector injected (CUDA_INJECTION64_PATH), pass its exit status
 * through, then report on the traces it left.  Capturing is the
 * collector's job (collector.c), reporting the pipeline's, and the command
 * line src/cli/cmd_record.c's. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "profreport/buf.h"
#include "profreport/launch.h"
#include "profreport/pipeline.h"
#include "profreport/record.h"
#include "profreport/sink.h"

#ifndef PR_PKGLIBDIR
#define PR_PKGLIBDIR "/usr/local/lib/profreport"
#endif
#define COLLECTOR_NAME "libprofreport_collector.so"
#define TRACE_SUFFIX ".pt.trace.json"

extern char **environ;

/* The child being waited for, read by the signal handler: the one piece of
 * process-wide state, because a handler has no other way to find it. */
static volatile sig_atomic_t child_pid;

static int
is_dir(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Create the trace folder (default name from the clock); *abs receives
 * its absolute path (owned) and *made whether this run created it. */
static enum pr_status
make_out_dir(const char *dir, char **abs, int *made, struct pr_error *err)
{
    char def[64];

    if (dir == NULL) {
        snprintf(def, sizeof(def), "profreport-record-%lld",
                 (long long)time(NULL));
        dir = def;
    }
    *made = mkdir(dir, 0777) == 0;
    if (!*made && !(errno == EEXIST && is_dir(dir)))
        return pr_error_set(err, PR_E_IO, "record: cannot create %s: %s", dir,
                            strerror(errno));
    *abs = realpath(dir, NULL);
    if (*abs == NULL) {
        int e = errno;
        if (*made)
            rmdir(dir);
        return pr_error_set(err, PR_E_IO, "record: %s: %s", dir, strerror(e));
    }
    return PR_OK;
}

/* 1 when `name` can be executed: a path with a '/' as is, else a match in
 * $PATH, as posix_spawnp searches.  Checked before the trace folder is
 * made, so a typo leaves nothing behind. */
static int
can_execute(const char *name)
{
    const char *path = getenv("PATH"), *p;
    char buf[PATH_MAX];

    if (strchr(name, '/') != NULL)
        return access(name, X_OK) == 0 && !is_dir(name);
    for (p = path != NULL ? path : "/bin:/usr/bin"; *p != '\0';) {
        size_t n = strcspn(p, ":");
        int w = snprintf(buf, sizeof(buf), "%.*s/%s", (int)(n ? n : 1),
                         n ? p : ".", name);
        if (w > 0 && (size_t)w < sizeof(buf) && access(buf, X_OK) == 0 &&
            !is_dir(buf))
            return 1;
        p += n + (p[n] == ':');
    }
    return 0;
}

/* dst = a + b, or 0 when it does not fit. */
static int
join(char *dst, size_t n, const char *a, const char *b)
{
    int w = snprintf(dst, n, "%s%s", a, b);

    return w >= 0 && (size_t)w < n;
}

/* The collector: $PROFREPORT_COLLECTOR, then record/ beside this binary
 * (the build tree), then the install folder.  0 when none is readable. */
static int
find_collector(char *out, size_t n)
{
    const char *env = getenv("PROFREPORT_COLLECTOR");
    char exe[PATH_MAX];
    ssize_t len;
    char *slash;

    if (env != NULL && *env != '\0')
        return join(out, n, env, "") && access(out, R_OK) == 0;
    len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (len > 0) {
        exe[len] = '\0';
        slash = strrchr(exe, '/');
        if (slash != NULL) {
            slash[1] = '\0';
            if (join(out, n, exe, "record/" COLLECTOR_NAME) &&
                access(out, R_OK) == 0)
                return 1;
        }
    }
    return join(out, n, PR_PKGLIBDIR "/", COLLECTOR_NAME) &&
           access(out, R_OK) == 0;
}

static int
has_suffix(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);

    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Trace files now in `dir`, as an owned NUL-separated list in `names`. */
static void
list_traces(const char *dir, struct pr_buf *names)
{
    DIR *d = opendir(dir);
    struct dirent *e;

    pr_buf_reset(names);
    if (d == NULL)
        return;
    for (;;) {
        e = readdir(d);
        if (e == NULL)
            break;
        if (has_suffix(e->d_name, TRACE_SUFFIX) &&
            pr_buf_add(names, e->d_name, strlen(e->d_name) + 1) != PR_OK)
            break; /* out of memory: the list is only a best effort */
    }
    closedir(d);
}

static int
in_list(const struct pr_buf *names, const char *name)
{
    size_t off = 0;

    while (off < names->len) {
        if (strcmp(names->data + off, name) == 0)
            return 1;
        off += strlen(names->data + off) + 1;
    }
    return 0;
}

/* Forward a signal that was sent to us alone (kill, a job scheduler).  One
 * typed at the terminal (si_code SI_KERNEL) already reached the child,
 * which shares our process group, and is not sent twice. */
static void
on_signal(int sig, siginfo_t *info, void *ctx)
{
    (void)ctx;
    if (child_pid > 0 && info != NULL && info->si_code <= 0)
        kill((pid_t)child_pid, sig);
}

static void
catch_signals(struct sigaction *old_int, struct sigaction *old_term)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, old_int);
    sigaction(SIGTERM, &sa, old_term);
}

static void
set_env(const char *collector, const char *dir)
{
    if (collector != NULL) {
        setenv("CUDA_INJECTION64_PATH", collector, 1);
        /* the collector forwards NVTX to CUPTI; keep a user's own choice */
        setenv("NVTX_INJECTION64_PATH", collector, 0);
    }
    setenv("PROFREPORT_RECORD_DIR", dir, 1);
}

/* Exit status of the command as a shell would report it. */
static int
exit_code(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 1;
}

/* Run the command and wait for it; *code receives its exit code. */
static enum pr_status
run_command(char **command, int *code, struct pr_error *err)
{
    struct sigaction old_int, old_term;
    pid_t pid, got;
    int status = 0, rc;

    catch_signals(&old_int, &old_term);
    rc = posix_spawnp(&pid, command[0], NULL, NULL, command, environ);
    if (rc != 0) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
        *code = 127;
        return pr_error_set(err, PR_E_IO, "record: cannot run %s: %s",
                            command[0], strerror(rc));
    }
    child_pid = pid;
    do {
        got = waitpid(pid, &status, 0);
    } while (got < 0 && errno == EINTR);
    child_pid = 0;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (got < 0) {
        *code = 1;
        return pr_error_set(err, PR_E_IO, "record: waiting for %s: %s",
                            command[0], strerror(errno));
    }
    /* a posix_spawnp exec failure shows up as exit status 127 */
    *code = exit_code(status);
    return PR_OK;
}

/* An empty trace, so that "nothing happened" is visible in DIR too. */
static void
write_empty_trace(const char *dir)
{
    struct pr_record_session *s = pr_record_session_new(1);
    struct pr_record_meta meta = {(uint32_t)getpid(), "profreport record",
                                  NULL};
    char host[128] = "localhost", path[PATH_MAX + 256];
    struct pr_error err;
    struct pr_buf text;
    struct timeval tv;

    gettimeofday(&tv, NULL);
    if (gethostname(host, sizeof(host) - 1) != 0)
        snprintf(host, sizeof(host), "localhost");
    host[sizeof(host) - 1] = '\0';
    snprintf(path, sizeof(path), "%s/%s_%u.%lld%s", dir, host,
             (unsigned)getpid(),
             (long long)tv.tv_sec * 1000 + tv.tv_usec / 1000, TRACE_SUFFIX);
    pr_error_clear(&err);
    pr_buf_init(&text, 0);
    if (s == NULL || pr_record_write(s, &meta, NULL, &text, &err) != PR_OK ||
        pr_sink_write_file(path, text.data, text.len, &err) != PR_OK)
        fprintf(stderr, "profreport: warning: record: %s\n",
                err.msg[0] ? err.msg : "cannot write the empty trace");
    pr_buf_free(&text);
    pr_record_session_free(s);
}

/* Paths (owned) of the traces that appeared in `dir` during the run. */
static size_t
new_traces(const char *dir, const struct pr_buf *before, char ***out)
{
    struct pr_buf now;
    size_t off, n = 0;
    char **paths;

    pr_buf_init(&now, 0);
    list_traces(dir, &now);
    paths = calloc(now.len + 1, sizeof(*paths)); /* more than enough */
    for (off = 0; paths != NULL && off < now.len;) {
        const char *name = now.data + off;
        size_t len = strlen(dir) + strlen(name) + 2;
        off += strlen(name) + 1;
        if (in_list(before, name))
            continue;
        paths[n] = malloc(len);
        if (paths[n] == NULL)
            break;
        snprintf(paths[n], len, "%s/%s", dir, name);
        n++;
    }
    pr_buf_free(&now);
    *out = paths;
    return n;
}

static void
free_paths(char **paths, size_t n)
{
    size_t i;

    for (i = 0; paths != NULL && i < n; i++)
        free(paths[i]);
    free(paths);
}

static enum pr_status
write_reports(const struct pr_launch_job *o, char **paths, size_t n,
              struct pr_error *err)
{
    struct pr_options po;

    memset(&po, 0, sizeof(po));
    po.command = PR_CMD_REPORT;
    po.inputs = (const char **)(uintptr_t)paths; /* only read */
    po.n_inputs = n;
    po.json_path = o->json;
    po.html_path = o->html;
    po.pdf_path = o->pdf;
    po.top = 50;
    po.paper = "a4";
    po.width = 120;
    po.quiet = o->quiet;
    return pr_pipeline_run(&po, err);
}

/* After the run: note what was captured and write the reports.  Nothing
 * captured is an error after a command that succeeded (a CI job must not
 * pass with an empty capture); after one that failed, its status says
 * enough and this is a warning. */
static enum pr_status
finish(const struct pr_launch_job *o, const char *dir,
       const struct pr_buf *before, int have_collector, int code,
       struct pr_error *err)
{
    char **paths = NULL;
    size_t n = new_traces(dir, before, &paths);
    int want_report = o->json || o->html || o->pdf;
    enum pr_status st = PR_OK;

    if (n == 0) {
        const char *why =
            have_collector ? "the command made no CUDA calls" : "no collector";
        write_empty_trace(dir);
        if (code == 0)
            st = pr_error_set(err, PR_E_FORMAT,
                              "record: nothing was captured: %s (empty "
                              "trace in %s)%s",
                              why, dir,
                              want_report ? "; no report written" : "");
        else
            fprintf(stderr,
                    "profreport: warning: nothing was captured: %s (empty "
                    "trace in %s)%s\n",
                    why, dir, want_report ? "; no report written" : "");
    } else if (!o->quiet) {
        fprintf(stderr, "profreport: %zu trace%s in %s\n", n, n == 1 ? "" : "s",
                dir);
    }
    if (n > 0 && want_report)
        st = write_reports(o, paths, n, err);
    free_paths(paths, n);
    return st;
}

enum pr_status
pr_launch_run(const struct pr_launch_job *o, int *code, struct pr_error *err)
{
    struct pr_buf before;
    char collector[PATH_MAX];
    char *dir = NULL;
    int have, made = 0;
    enum pr_status st;

    *code = -1;
    if (!can_execute(o->command[0])) {
        *code = 127;
        return pr_error_set(err, PR_E_IO,
                            "record: cannot run %s: not found "
                            "or not executable",
                            o->command[0]);
    }
    st = make_out_dir(o->out_dir, &dir, &made, err);
    if (st != PR_OK)
        return st;
    have = find_collector(collector, sizeof(collector));
    if (!have)
        fputs("profreport: warning: the CUPTI collector is not available "
              "(built without CUDA?): running the command without capture\n",
              stderr);
    pr_buf_init(&before, 0);
    list_traces(dir, &before);
    set_env(have ? collector : NULL, dir);
    st = run_command(o->command, code, err);
    if (st != PR_OK && made)
        rmdir(dir); /* only when empty: never a folder with traces in it */
    if (st == PR_OK)
        st = finish(o, dir, &before, have, *code, err);
    if (st != PR_OK && *code == 0)
        *code = -1; /* the error's own exit status */
    pr_buf_free(&before);
    free(dir);
    return st;
}

/* launch.c - a `profreport record` run (launch.h): run a Python command
 * under torch.profiler through the shipped launcher (its command line is
 * pylaunch.c's), or any other command with the CUPTI collector injected
 * (CUDA_INJECTION64_PATH); pass its exit status through, then report on
 * the traces it left.  Capturing is the collectors' job (collector.c,
 * data/profreport_torch.py), reporting the pipeline's, and the command
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
#include "profreport/pylaunch.h"
#include "profreport/record.h"
#include "profreport/sink.h"

#ifndef PR_PKGLIBDIR
#define PR_PKGLIBDIR "/usr/local/lib/profreport"
#endif
#ifndef PR_DATADIR
#define PR_DATADIR "/usr/local/share/profreport"
#endif
#define COLLECTOR_NAME "libprofreport_collector.so"
#define LAUNCHER_NAME "profreport_torch.py"
#define TRACE_SUFFIX ".pt.trace.json"

extern char **environ;

/* The child being waited for, read by the signal handler, and the stop
 * signal it saw: the process-wide state a handler needs, because it has no
 * other way to reach the run. */
static volatile sig_atomic_t child_pid;
static volatile sig_atomic_t stop_signal;

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

/* A file the run needs: $env, then record/<name> beside this binary (the
 * build tree, where make puts it), then <installed>/<name>.  0 when none
 * is readable. */
static int
find_file(const char *env_name, const char *name, const char *installed,
          char *out, size_t n)
{
    const char *env = getenv(env_name);
    char exe[PATH_MAX], rel[64];
    ssize_t len;
    char *slash;

    if (env != NULL && *env != '\0')
        return join(out, n, env, "") && access(out, R_OK) == 0;
    len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (len > 0) {
        exe[len] = '\0';
        slash = strrchr(exe, '/');
        snprintf(rel, sizeof(rel), "record/%s", name);
        if (slash != NULL) {
            slash[1] = '\0';
            if (join(out, n, exe, rel) && access(out, R_OK) == 0)
                return 1;
        }
    }
    snprintf(rel, sizeof(rel), "/%s", name);
    return join(out, n, installed, rel) && access(out, R_OK) == 0;
}

static int
find_collector(char *out, size_t n)
{
    return find_file("PROFREPORT_COLLECTOR", COLLECTOR_NAME, PR_PKGLIBDIR, out,
                     n);
}

static int
find_launcher(char *out, size_t n)
{
    return find_file("PROFREPORT_TORCH_LAUNCHER", LAUNCHER_NAME, PR_DATADIR,
                     out, n);
}

static int
has_suffix(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);

    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* A trace a collector writes: a Kineto or legacy trace file
 * (<worker>.<ms>.pt.trace.json[.gz]), or a torch_npu run folder
 * (<host>_<pid>_<ts>_ascend_pt). */
static int
is_trace(const char *dir, const char *name)
{
    char path[PATH_MAX];
    int w;

    if (has_suffix(name, TRACE_SUFFIX) || has_suffix(name, TRACE_SUFFIX ".gz"))
        return 1;
    if (!has_suffix(name, "_ascend_pt"))
        return 0;
    w = snprintf(path, sizeof(path), "%s/%s", dir, name);
    return w > 0 && (size_t)w < sizeof(path) && is_dir(path);
}

/* Traces now in `dir`, as an owned NUL-separated list in `names`. */
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
        if (is_trace(dir, e->d_name) &&
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
    stop_signal = sig;
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

/* What a run is: which collector, its command, and what it found. */
struct run {
    const struct pr_launch_job *o;
    int torch;            /* through torch.profiler (else CUPTI) */
    int have;             /* the CUPTI collector was found */
    char **argv;          /* what runs: the job's command, or the launcher's
                             (owned then) */
    char *dir;            /* the trace folder, absolute (owned) */
    struct pr_buf before; /* traces already in it */
};

/* A run stopped by SIGINT or SIGTERM (typed at the terminal, sent to us
 * or to the command): the traces written so far are kept and said, no
 * report is started, and the command's status passes through. */
static int
interrupted(int code)
{
    return stop_signal == SIGINT || stop_signal == SIGTERM ||
           code == 128 + SIGINT || code == 128 + SIGTERM;
}

/* Nothing captured: an error after a command that succeeded (a CI job
 * must not pass with an empty capture), a warning after one that failed
 * or was stopped, whose status says enough.  A CUPTI run leaves an empty
 * trace, so that "nothing happened" is visible in the folder too; the
 * launcher has said why it recorded nothing. */
static enum pr_status
nothing_captured(const struct run *r, int code, struct pr_error *err)
{
    const char *why = r->torch  ? "the launcher recorded no step"
                      : r->have ? "the command made no CUDA calls"
                                : "no collector";
    int want_report = r->o->json || r->o->html || r->o->pdf;
    char where[PATH_MAX + 32] = "";

    if (!r->torch) {
        write_empty_trace(r->dir);
        snprintf(where, sizeof(where), " (empty trace in %s)", r->dir);
    }
    if (code == 0 && !interrupted(code))
        return pr_error_set(err, PR_E_FORMAT,
                            "record: nothing was captured: %s%s%s", why, where,
                            want_report ? "; no report written" : "");
    fprintf(stderr, "profreport: warning: nothing was captured: %s%s%s\n", why,
            where, want_report ? "; no report written" : "");
    return PR_OK;
}

/* After the run: note what was captured and write the reports. */
static enum pr_status
finish(const struct run *r, int code, struct pr_error *err)
{
    const struct pr_launch_job *o = r->o;
    char **paths = NULL;
    size_t n = new_traces(r->dir, &r->before, &paths);
    int want_report = o->json || o->html || o->pdf;
    enum pr_status st = PR_OK;

    if (n == 0)
        st = nothing_captured(r, code, err);
    else if (interrupted(code))
        fprintf(stderr, "profreport: interrupted: %zu trace%s kept in %s%s\n",
                n, n == 1 ? "" : "s", r->dir,
                want_report ? "; no report written (profreport --input "
                              "on the folder writes them)"
                            : "");
    else if (!o->quiet)
        fprintf(stderr, "profreport: %zu trace%s in %s\n", n, n == 1 ? "" : "s",
                r->dir);
    if (n > 0 && want_report && !interrupted(code))
        st = write_reports(o, paths, n, err);
    free_paths(paths, n);
    return st;
}

/* Before anything is made: the command can start, and for a torch run
 * it runs a script and the launcher is there. */
static enum pr_status
check_command(const struct pr_launch_job *o, int torch, char *launcher,
              size_t n, int *code, struct pr_error *err)
{
    if (!can_execute(o->command[0])) {
        *code = 127;
        return pr_error_set(err, PR_E_IO,
                            "record: cannot run %s: not found "
                            "or not executable",
                            o->command[0]);
    }
    if (torch) {
        struct pr_pylaunch py = {o->command, "", "", NULL, 0, 0, 0, 0};
        char **argv = NULL;
        enum pr_status st = pr_pylaunch_argv(&py, &argv, err);

        pr_pylaunch_free(argv);
        if (st != PR_OK)
            return st;
    }
    if (torch && !find_launcher(launcher, n))
        return pr_error_set(err, PR_E_IO,
                            "record: the torch.profiler launcher "
                            "(" LAUNCHER_NAME ") is not installed: looked "
                            "in $PROFREPORT_TORCH_LAUNCHER, record/ beside "
                            "this program and " PR_DATADIR);
    return PR_OK;
}

/* Before the command runs (it may take hours): the trace folder takes a
 * file and every report can be written (its folder there, not a folder
 * itself, a device open for writing), so that an unwritable output fails
 * at once instead of after the run.  The folder exists by now, so a
 * report inside it (--output run --json run/s.json) is checked too. */
static enum pr_status
check_outputs(const struct pr_launch_job *o, const char *dir,
              struct pr_error *err)
{
    const char *paths[] = {o->json, o->html, o->pdf};
    const char *names[] = {"record: --json", "record: --html", "record: --pdf"};
    char probe[PATH_MAX];
    int fd;

    if ((size_t)snprintf(probe, sizeof(probe), "%s/.profreport.XXXXXX", dir) >=
        sizeof(probe))
        return pr_error_set(err, PR_E_IO, "record: %s: path too long", dir);
    if ((fd = mkstemp(probe)) < 0)
        return pr_error_set(err, PR_E_IO,
                            "record: the trace folder %s cannot take a "
                            "file: %s",
                            dir, strerror(errno));
    close(fd);
    unlink(probe);
    return pr_outputs_writable(paths, names, 3, err);
}

/* What runs: the launcher's command line for a torch run, else the
 * command itself with the collector in its environment. */
static enum pr_status
prepare(struct run *r, const char *launcher, struct pr_error *err)
{
    char collector[PATH_MAX];
    struct pr_pylaunch py;

    if (!r->torch) {
        r->have = find_collector(collector, sizeof(collector));
        if (!r->have)
            fputs("profreport: warning: the CUPTI collector is not "
                  "available (built without CUDA?): running the command "
                  "without capture\n",
                  stderr);
        set_env(r->have ? collector : NULL, r->dir);
        r->argv = r->o->command;
        return PR_OK;
    }
    memset(&py, 0, sizeof(py));
    py.command = r->o->command;
    py.launcher = launcher;
    py.out_dir = r->dir;
    py.steps = r->o->steps;
    py.no_shapes = r->o->no_shapes;
    py.no_memory = r->o->no_memory;
    py.no_stack = r->o->no_stack;
    py.quiet = r->o->quiet;
    set_env(NULL, r->dir);
    return pr_pylaunch_argv(&py, &r->argv, err);
}

enum pr_status
pr_launch_run(const struct pr_launch_job *o, int *code, struct pr_error *err)
{
    struct run r;
    char launcher[PATH_MAX];
    int made = 0;
    enum pr_status st;

    *code = -1;
    memset(&r, 0, sizeof(r));
    r.o = o;
    r.torch = o->collector == PR_COLLECTOR_TORCH ||
              (o->collector == PR_COLLECTOR_AUTO &&
               pr_pylaunch_is_python(o->command[0]));
    st = check_command(o, r.torch, launcher, sizeof(launcher), code, err);
    if (st == PR_OK)
        st = make_out_dir(o->out_dir, &r.dir, &made, err);
    if (st == PR_OK)
        st = check_outputs(o, r.dir, err);
    pr_buf_init(&r.before, 0);
    if (st == PR_OK)
        st = prepare(&r, launcher, err);
    if (st == PR_OK) {
        list_traces(r.dir, &r.before);
        stop_signal = 0;
        st = run_command(r.argv, code, err);
    }
    if (st != PR_OK && made)
        rmdir(r.dir); /* only when empty: never a folder with traces in it */
    if (st == PR_OK)
        st = finish(&r, *code, err);
    if (st != PR_OK && *code == 0)
        *code = -1; /* the error's own exit status */
    if (r.argv != o->command)
        pr_pylaunch_free(r.argv);
    pr_buf_free(&r.before);
    free(r.dir);
    return st;
}

/* cmd_record.c - `profreport record`: run a command with the CUPTI collector
 * injected (CUDA_INJECTION64_PATH), pass its exit status through, then
 * report on the traces it left.  Capturing is the collector's job
 * (collector.c); reporting is the pipeline's. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
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
#include "profreport/cmd_record.h"
#include "profreport/pipeline.h"
#include "profreport/record.h"
#include "profreport/sink.h"

#ifndef PR_PKGLIBDIR
#define PR_PKGLIBDIR "/usr/local/lib/profreport"
#endif
#define COLLECTOR_NAME "libprofreport_collector.so"
#define TRACE_SUFFIX ".pt.trace.json"

extern char **environ;

static const char usage[] =
    "Usage: profreport record [--output DIR] [--html FILE] [--pdf FILE]\n"
    "                         [--json FILE] [-q] -- COMMAND [ARGS...]\n"
    "\n"
    "Runs COMMAND with a CUPTI collector that writes one Kineto trace per\n"
    "process (<host>_<pid>.<ms>.pt.trace.json) into DIR, then writes the\n"
    "requested reports from those traces.\n"
    "\n"
    "  -o, --output DIR   trace folder (default ./profreport-record-<time>)\n"
    "  -j, --json FILE    write the summary JSON\n"
    "      --html FILE    write an HTML report\n"
    "      --pdf FILE     write a PDF report\n"
    "  -q, --quiet        no notes on stderr\n"
    "  -h, --help         this text\n"
    "\n"
    "Exit status: COMMAND's own (128+N if signal N ended it, 127 if it\n"
    "could not be run); 1 usage error; 2 output or report failure.\n";

enum { OPT_HTML = 256, OPT_PDF };

static const struct option longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"json", required_argument, NULL, 'j'},
    {"html", required_argument, NULL, OPT_HTML},
    {"pdf", required_argument, NULL, OPT_PDF},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};

struct rec_opts {
    const char *out_dir; /* borrowed from argv, or NULL */
    const char *json, *html, *pdf;
    int quiet, help;
    char **command; /* borrowed from argv, NULL-terminated */
};

/* The child being waited for, read by the signal handler: the one piece of
 * process-wide state, because a handler has no other way to find it. */
static volatile sig_atomic_t child_pid;

static int
parse_opts(int argc, char **argv, struct rec_opts *o)
{
    int c;

    memset(o, 0, sizeof(*o));
    optind = 0; /* glibc: full re-initialisation */
    opterr = 0;
    for (;;) {
        c = getopt_long(argc, argv, "+:o:j:qh", longopts, NULL);
        if (c == -1)
            break;
        switch (c) {
        case 'o':
            o->out_dir = optarg;
            break;
        case 'j':
            o->json = optarg;
            break;
        case OPT_HTML:
            o->html = optarg;
            break;
        case OPT_PDF:
            o->pdf = optarg;
            break;
        case 'q':
            o->quiet = 1;
            break;
        case 'h':
            o->help = 1;
            return 0;
        case ':':
            fprintf(stderr, "profreport: record: option '%s' needs a value\n",
                    argv[optind - 1]);
            return -1;
        default:
            fprintf(stderr, "profreport: record: unknown option '%s'\n",
                    argv[optind - 1]);
            return -1;
        }
    }
    if (optind >= argc) {
        fputs("profreport: record: no command given (record -- COMMAND)\n",
              stderr);
        return -1;
    }
    o->command = argv + optind;
    return 0;
}

static int
is_dir(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Create the trace folder (default name from the clock) and return its
 * absolute path (owned), or NULL after printing why. */
static char *
make_out_dir(const char *dir)
{
    char def[64];
    char *abs;

    if (dir == NULL) {
        snprintf(def, sizeof(def), "profreport-record-%lld",
                 (long long)time(NULL));
        dir = def;
    }
    if (mkdir(dir, 0777) != 0 && !(errno == EEXIST && is_dir(dir))) {
        fprintf(stderr, "profreport: record: cannot create %s: %s\n", dir,
                strerror(errno));
        return NULL;
    }
    abs = realpath(dir, NULL);
    if (abs == NULL)
        fprintf(stderr, "profreport: record: %s: %s\n", dir, strerror(errno));
    return abs;
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

/* Run the command and wait for it; returns its exit code. */
static int
run_command(char **command)
{
    struct sigaction old_int, old_term;
    pid_t pid, got;
    int status = 0, rc;

    catch_signals(&old_int, &old_term);
    rc = posix_spawnp(&pid, command[0], NULL, NULL, command, environ);
    if (rc != 0) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
        fprintf(stderr, "profreport: record: cannot run %s: %s\n", command[0],
                strerror(rc));
        return 127;
    }
    child_pid = pid;
    do {
        got = waitpid(pid, &status, 0);
    } while (got < 0 && errno == EINTR);
    child_pid = 0;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (got < 0) {
        fprintf(stderr, "profreport: record: waiting for %s: %s\n", command[0],
                strerror(errno));
        return 1;
    }
    /* a posix_spawnp exec failure shows up as exit status 127 */
    return exit_code(status);
}

/* An empty trace, so that "nothing happened" is visible in DIR too. */
static void
write_empty_trace(const char *dir)
{
    struct pr_rec_session *s = pr_record_session_new(1);
    struct pr_rec_meta meta = {(uint32_t)getpid(), "profreport record", NULL};
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
        fprintf(stderr, "profreport: record: %s\n",
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
write_reports(const struct rec_opts *o, char **paths, size_t n,
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

/* After the run: note what was captured and write the reports.  Returns
 * the exit code: the command's, or 2 when reporting failed after it
 * succeeded. */
static int
finish(const struct rec_opts *o, const char *dir, const struct pr_buf *before,
       int have_collector, int code)
{
    struct pr_error err;
    char **paths = NULL;
    size_t n = new_traces(dir, before, &paths);
    int want_report = o->json || o->html || o->pdf;

    if (n == 0) {
        fprintf(stderr,
                "profreport: warning: nothing was captured: %s "
                "(empty trace in %s)\n",
                have_collector ? "the command made no CUDA calls"
                               : "no collector",
                dir);
        write_empty_trace(dir);
        if (want_report)
            fputs("profreport: warning: no report written\n", stderr);
    } else if (!o->quiet) {
        fprintf(stderr, "profreport: %zu trace%s in %s\n", n, n == 1 ? "" : "s",
                dir);
    }
    pr_error_clear(&err);
    if (n > 0 && want_report && write_reports(o, paths, n, &err) != PR_OK) {
        fprintf(stderr, "profreport: %s\n",
                err.msg[0] ? err.msg : pr_error_str(err.code));
        if (code == 0)
            code = pr_error_exit_status(err.code);
    }
    free_paths(paths, n);
    return code;
}

int
pr_record_main(int argc, char **argv)
{
    struct rec_opts o;
    struct pr_buf before;
    char collector[PATH_MAX];
    char *dir;
    int have, code;

    if (parse_opts(argc, argv, &o) != 0) {
        fputs("Try 'profreport record --help' for more information.\n", stderr);
        return 1;
    }
    if (o.help) {
        fputs(usage, stdout);
        return 0;
    }
    dir = make_out_dir(o.out_dir);
    if (dir == NULL)
        return 2;
    have = find_collector(collector, sizeof(collector));
    if (!have)
        fputs("profreport: warning: the CUPTI collector is not available "
              "(built without CUDA?): running the command without capture\n",
              stderr);
    pr_buf_init(&before, 0);
    list_traces(dir, &before);
    set_env(have ? collector : NULL, dir);
    code = run_command(o.command);
    code = finish(&o, dir, &before, have, code);
    pr_buf_free(&before);
    free(dir);
    return code;
}

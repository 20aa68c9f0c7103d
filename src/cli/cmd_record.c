/* cmd_record.c - `profreport record`: its options and usage; the run
 * itself is pr_launch_run (src/record/launch.c). */
#include "config.h"

#include <getopt.h>
#include <stddef.h>
#include <string.h>

#include "profreport/cmd.h"
#include "profreport/launch.h"
#include "profreport/pylaunch.h"
#include "profreport/sink.h"

static const char usage[] =
    "Usage: profreport record [--output DIR] [--html FILE] [--pdf FILE]\n"
    "                         [--json FILE] [--steps W,U,A] [-q] [options]\n"
    "                         -- COMMAND [ARGS...]\n"
    "\n"
    "Runs COMMAND under a profiler that writes its traces into DIR, then\n"
    "writes the requested reports from them.\n"
    "\n"
    "A Python command (python3 train.py ARGS, python3 -m MODULE ARGS,\n"
    "python3 -c CODE) runs under torch.profiler (torch_npu.profiler when\n"
    "torch_npu imports): CPU activities, CUDA ones when a GPU is there,\n"
    "input shapes, memory and call stacks; the profiler steps at each\n"
    "optimizer step, waits W steps, warms up for U and records A (one\n"
    "cycle), and writes <host>_<pid>.<ms>.pt.trace.json (torch_npu: a\n"
    "*_ascend_pt folder).  Any other command runs with the CUPTI collector,\n"
    "which writes one Kineto trace per process.\n"
    "\n"
    "  -o, --output DIR   trace folder (default ./profreport-record-<time>)\n"
    "  -j, --json FILE    write the summary JSON\n"
    "      --html FILE    write an HTML report\n"
    "      --pdf FILE     write a PDF report\n"
    "      --steps W,U,A  torch.profiler schedule: wait, warmup, active\n"
    "                     optimizer steps (default 1,1,3)\n"
    "      --no-shapes    torch: do not record input shapes\n"
    "      --no-memory    torch: do not record allocations\n"
    "      --no-stack     torch: do not record call stacks\n"
    "      --collector torch|cupti\n"
    "                     which profiler runs COMMAND (default: torch for\n"
    "                     a command named python*, else cupti)\n"
    "  -q, --quiet        no notes on stderr\n"
    "  -h, --help         this text\n"
    "  -V, --version      print the version\n"
    "\n"
    "Exit status: COMMAND's own when it failed (128+N if signal N ended\n"
    "it, 127 if it could not be started: then no folder is made); 1 usage\n"
    "error; 2 when nothing was captured from a COMMAND that succeeded, the\n"
    "folder cannot be made, or a report fails.  Ctrl-C stops COMMAND and\n"
    "profreport; the traces written so far are kept, no report is\n"
    "written.\n";

enum {
    OPT_HTML = 256,
    OPT_PDF,
    OPT_STEPS,
    OPT_NO_SHAPES,
    OPT_NO_MEMORY,
    OPT_NO_STACK,
    OPT_COLLECTOR
};

static const struct option longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"json", required_argument, NULL, 'j'},
    {"html", required_argument, NULL, OPT_HTML},
    {"pdf", required_argument, NULL, OPT_PDF},
    {"steps", required_argument, NULL, OPT_STEPS},
    {"no-shapes", no_argument, NULL, OPT_NO_SHAPES},
    {"no-memory", no_argument, NULL, OPT_NO_MEMORY},
    {"no-stack", no_argument, NULL, OPT_NO_STACK},
    {"collector", required_argument, NULL, OPT_COLLECTOR},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0}};

static enum pr_status
collector(struct pr_launch_job *o, const char *arg, struct pr_error *err)
{
    if (strcmp(arg, "torch") == 0)
        o->collector = PR_COLLECTOR_TORCH;
    else if (strcmp(arg, "cupti") == 0)
        o->collector = PR_COLLECTOR_CUPTI;
    else
        return pr_error_set(err, PR_E_USAGE,
                            "record: --collector is torch or cupti "
                            "(got '%s')",
                            arg);
    return PR_OK;
}

static void
one_option(struct pr_launch_job *o, int c, const char *arg,
           struct pr_cmd_ctl *ctl)
{
    switch (c) {
    case 'o':
        o->out_dir = arg;
        break;
    case 'j':
        o->json = arg;
        break;
    case OPT_HTML:
        o->html = arg;
        break;
    case OPT_PDF:
        o->pdf = arg;
        break;
    case OPT_STEPS:
        o->steps = arg;
        break;
    case OPT_NO_SHAPES:
        o->no_shapes = 1;
        break;
    case OPT_NO_MEMORY:
        o->no_memory = 1;
        break;
    case OPT_NO_STACK:
        o->no_stack = 1;
        break;
    case 'q':
        o->quiet = 1;
        break;
    case 'h':
        ctl->want_help = 1;
        break;
    case 'V':
        ctl->want_version = 1;
        break;
    }
}

/* Options stop at the first word that is not one ('+'), so the command's
 * own options are never taken for ours. */
static enum pr_status
parse_opts(int argc, char **argv, struct pr_launch_job *o,
           struct pr_cmd_ctl *ctl, struct pr_error *err)
{
    const char *paths[3];
    const char *names[] = {"--json", "--html", "--pdf"};
    int c;

    memset(o, 0, sizeof(*o));
    optind = 0; /* glibc: full re-initialisation */
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+:o:j:qhV", longopts, NULL)) != -1) {
        if (c == ':')
            return pr_error_set(err, PR_E_USAGE,
                                "record: option '%s' needs a value",
                                argv[optind - 1]);
        if (c == '?')
            return pr_error_set(err, PR_E_USAGE, "record: unknown option '%s'",
                                argv[optind - 1]);
        if (c == OPT_COLLECTOR && collector(o, optarg, err) != PR_OK)
            return err->code;
        one_option(o, c, optarg, ctl);
    }
    if (ctl->want_help || ctl->want_version)
        return PR_OK;
    if (optind >= argc)
        return pr_error_set(err, PR_E_USAGE,
                            "record: no command given (record -- COMMAND)");
    o->command = argv + optind;
    if (o->steps != NULL && pr_pylaunch_steps(o->steps, NULL, err) != PR_OK)
        return err->code;
    paths[0] = o->json;
    paths[1] = o->html;
    paths[2] = o->pdf;
    /* outputs only told apart here: one may lie in the trace folder the
       run is about to make (--output run --json run/s.json) */
    return pr_outputs_distinct(paths, names, 3, NULL, 0, err);
}

static enum pr_status
run(int argc, char **argv, struct pr_cmd_ctl *ctl, struct pr_error *err)
{
    struct pr_launch_job job;
    int code = -1;
    enum pr_status st = parse_opts(argc, argv, &job, ctl, err);

    if (st != PR_OK || ctl->want_help || ctl->want_version)
        return st;
    st = pr_launch_run(&job, &code, err);
    ctl->exit_code = code; /* the command's status passes through */
    return st;
}

const struct pr_cmd pr_cmd_record = {
    "record", "run a command under a profiler, then report", usage, run, NULL,
    NULL};

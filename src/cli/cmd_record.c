/* cmd_record.c - `profreport record`: its options and usage; the run
 * itself is pr_launch_run (src/record/launch.c). */
#include "config.h"

#include <getopt.h>
#include <stddef.h>
#include <string.h>

#include "profreport/cmd.h"
#include "profreport/launch.h"
#include "profreport/sink.h"

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
    "  -V, --version      print the version\n"
    "\n"
    "Exit status: COMMAND's own when it failed (128+N if signal N ended\n"
    "it, 127 if it could not be started: then no folder is made); 1 usage\n"
    "error; 2 when nothing was captured from a COMMAND that succeeded, the\n"
    "folder cannot be made, or a report fails.\n";

enum { OPT_HTML = 256, OPT_PDF };

static const struct option longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"json", required_argument, NULL, 'j'},
    {"html", required_argument, NULL, OPT_HTML},
    {"pdf", required_argument, NULL, OPT_PDF},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0}};

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
        one_option(o, c, optarg, ctl);
    }
    if (ctl->want_help || ctl->want_version)
        return PR_OK;
    if (optind >= argc)
        return pr_error_set(err, PR_E_USAGE,
                            "record: no command given (record -- COMMAND)");
    o->command = argv + optind;
    paths[0] = o->json;
    paths[1] = o->html;
    paths[2] = o->pdf;
    return pr_outputs_distinct(paths, names, 3, err);
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
    "record", "run a command under the CUPTI collector, then report", usage,
    run, NULL};

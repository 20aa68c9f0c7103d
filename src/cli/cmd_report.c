/* cmd_report.c - the default command: traces in, summary and reports
 * out (`profreport --input run/ --html report.html`). */
#include "config.h"

#include "profreport/args.h"
#include "profreport/cmd.h"

static const char usage[] =
    "Usage: profreport --input PATH [--input PATH...] [--json FILE]\n"
    "                  [--html FILE] [--pdf FILE] [options]\n"
    "       profreport COMMAND [options]   (see the list below)\n"
    "\n"
    "Turns a profiling session into reports: PyTorch profiler / Kineto\n"
    "traces (.json, .json.gz, run folders of many workers), torch_npu and\n"
    "MindSpore ASCEND_PROFILER_OUTPUT folders and their SQLite exports,\n"
    "msprof PROF_* folders, legacy MindSpore profiler folders, Nsight\n"
    "Systems SQLite exports and MegEngine timelines, found by content.\n"
    "A summary written by --json is an input too: the reports are then\n"
    "drawn from it alone, as they were from its traces.\n"
    "\n"
    "Report options:\n"
    "  -i, --input PATH       trace file, run folder or saved summary\n"
    "                         (repeatable; '-' for standard input)\n"
    "  -j, --json FILE        write the summary JSON ('-' for stdout)\n"
    "      --html FILE        write a self-contained HTML report\n"
    "      --pdf FILE         write a PDF report\n"
    "      --top N            rows per report table (default 50; 20 in the\n"
    "                         report of a job of several ranks)\n"
    "      --template-dir DIR override the built-in HTML templates\n"
    "      --source-link TEMPLATE\n"
    "                         URL of a source location in the HTML report,\n"
    "                         with {path} and {line}, e.g.\n"
    "                         'vscode://file/{path}:{line}' (default:\n"
    "                         file://{path} for absolute paths)\n"
    "      --paper a4|letter  PDF paper size (default a4)\n"
    "      --font FILE        TrueType font for the PDF\n"
    "      --peak-tflops X    override the device's peak TFLOP/s\n"
    "      --peak-gbps X      override the device's memory bandwidth\n"
    "      --device-spec FILE JSON file of device peaks (data/devices.json\n"
    "                         form)\n"
    "      --kernel-rules FILE\n"
    "                         kernel-name rules before the shipped ones\n"
    "                         (data/kernels.json form; default:\n"
    "                         $PROFREPORT_KERNEL_RULES)\n"
    "      --threads N        parser threads (default: all CPUs)\n"
    "      --detail-ranks L   ranks of a job shown in full in the reports\n"
    "                         and kept whole in the JSON (the others in\n"
    "                         rank form): slowest, median, fastest, rank\n"
    "                         numbers or all (default: slowest,median,0)\n"
    "      --each-job         an input of several jobs: one JSON/HTML/PDF per\n"
    "                         job, the job's name before the extension\n"
    "                         (report.html -> report.NAME.html)\n"
    "      --jobs N           input files read at once, sharing the threads\n"
    "                         (default: half the CPUs, within a memory "
    "budget)\n"
    "      --max-input SIZE   refuse inputs larger than this (uncompressed;\n"
    "                         bytes, or with a unit: 512MiB, 2GiB, 1GB)\n"
    "      --follow-links     follow a folder's symlinks that lead out of\n"
    "                         it (default: only those inside it)\n"
    "      --progress         progress on stderr whatever the input's size\n"
    "                         and also when stderr is not a terminal\n"
    "                         (default: for inputs over 64 MiB, and on a\n"
    "                         terminal for several files)\n"
    "  -q, --quiet            no progress or warnings on stderr\n"
    "  -v, --verbose          print data-quality notes\n"
    "  -h, --help             this text\n"
    "  -V, --version          print the version\n";

static enum pr_status
run(int argc, char **argv, struct pr_cmd_ctl *ctl, struct pr_error *err)
{
    return pr_args_run(argc, argv, PR_CMD_REPORT, ctl, err);
}

const struct pr_cmd pr_cmd_report = {
    "",  "write the summary, HTML and PDF reports of traces", usage, run, NULL,
    NULL};

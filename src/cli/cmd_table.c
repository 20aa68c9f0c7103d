/* cmd_table.c - `profreport table`: one table of the summary (or the
 * kernel launches) as aligned text, CSV or JSON. */
#include "config.h"

#include "profreport/args.h"
#include "profreport/cmd.h"
#include "profreport/table.h"

static const char usage[] =
    "Usage: profreport table --input PATH --kind KIND [options]\n"
    "\n"
    "Prints one table of the traces (or of a saved summary; kernel-calls\n"
    "needs the traces) on standard output.  With --why NAME it explains\n"
    "instead which rule of the kernel table names that kernel, and why.\n"
    "\n"
    "  -i, --input PATH       trace file, run folder or saved summary\n"
    "      --kind K           operators|kernels|kernel-calls|memory|steps|\n"
    "                         modules (the module tree, indented)|\n"
    "                         layers (forward beside backward)|\n"
    "                         critical-path (what bounds each step)|\n"
    "                         findings (the verdict's fixes, gains first)\n"
    "      --sort COL         sort by column\n"
    "      --group-by G       name|shape|type\n"
    "      --min-time TIME    hide rows below this time (1ms, 250us,\n"
    "                         0.5s; a bare number is us)\n"
    "      --filter TEXT      keep rows whose name contains TEXT\n"
    "      --job NAME         only the runs of that job, when the input\n"
    "                         holds several (the names its first line lists)\n"
    "      --top N            at most N rows\n"
    "      --csv | --json-out CSV or JSON instead of aligned text; CSV\n"
    "                         headers add the unit: total_us, occupancy_pct\n"
    "  -c COLS                comma-separated column ids (each kind's are\n"
    "                         listed below), or --csv's headers\n"
    "      --why NAME         the kernel table's class of kernel NAME: rule,\n"
    "                         family, math, precision and the rule's source;\n"
    "                         with --input, as that run's table classifies\n"
    "                         it (the producer's type and unit too); there\n"
    "                         NAME may be the short form the table prints\n"
    "                         or a part of one kernel's name\n"
    "  -w WIDTH               output width (default: $COLUMNS, the\n"
    "                         terminal's, else 120)\n"
    "      --peak-tflops X, --peak-gbps X, --device-spec FILE,\n"
    "      --kernel-rules FILE,\n"
    "      --threads N, --max-input SIZE, --follow-links, --progress\n"
    "                         as for the reports\n"
    "  -q, --quiet            no progress or warnings on stderr\n"
    "  -h, --help             this text\n"
    "  -V, --version          print the version\n"
    "\n";

static enum pr_status
run(int argc, char **argv, struct pr_cmd_ctl *ctl, struct pr_error *err)
{
    return pr_args_run(argc, argv, PR_CMD_TABLE, ctl, err);
}

const struct pr_cmd pr_cmd_table = {
    "table", "print one table (operators, kernels, ...) on the terminal",
    usage,   run,
    NULL,    pr_table_help_columns};

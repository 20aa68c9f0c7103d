/* main.c - the whole program: parse options, run the pipeline, print the
 * error (the only place that writes errors and ends the process). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "profreport/args.h"
#include "profreport/cmd_record.h"
#include "profreport/diff.h"
#include "profreport/pipeline.h"

int
main(int argc, char **argv)
{
    struct pr_options opts;
    struct pr_error err;
    enum pr_status st;

    /* subcommands with options of their own (tmux: one file each) */
    if (argc > 1 && strcmp(argv[1], "diff") == 0)
        return pr_diff_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "trend") == 0)
        return pr_trend_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "record") == 0)
        return pr_record_main(argc - 1, argv + 1);
    pr_error_clear(&err);
    st = pr_args_parse(argc, argv, &opts, &err);
    if (st == PR_OK)
        st = pr_pipeline_run(&opts, &err);
    if (st != PR_OK) {
        fprintf(stderr, "profreport: %s\n",
                err.msg[0] ? err.msg : pr_error_str(st));
        if (st == PR_E_USAGE)
            fprintf(stderr, "Try 'profreport --help' for more information.\n");
    }
    pr_args_free(&opts);
    return pr_error_exit_status(st);
}

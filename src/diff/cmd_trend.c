/* cmd_trend.c - placeholder until `profreport trend` lands. */
#include "config.h"

#include <stdio.h>

#include "profreport/diff.h"

int
pr_trend_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "profreport: trend: not implemented yet\n");
    return 1;
}

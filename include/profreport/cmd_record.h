/* cmd_record.h - `profreport record [--output DIR] [--html F] [--pdf F]
 * [--json F] -- COMMAND [ARGS...]`: run COMMAND under the CUPTI collector,
 * then optionally report on what it captured. */
#ifndef PROFREPORT_CMD_RECORD_H
#define PROFREPORT_CMD_RECORD_H

/* argv[0] is "record".  Returns the process exit status: COMMAND's own
 * status (128 + N when a signal N ended it, 127 when it could not be
 * started), 1 on a usage error, 2 when the output folder cannot be made or
 * the report fails after COMMAND succeeded.  Prints its own messages as
 * "profreport: ..." on stderr (a subcommand's entry point, like main). */
int pr_record_main(int argc, char **argv);

#endif

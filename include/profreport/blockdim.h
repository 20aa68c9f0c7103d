/* blockdim.h - how many of an Ascend NPU's cores its operators' tasks
 * ran on: a task's Block Dim is the number of blocks CANN's tiling split
 * it into, each running on one AI Core (a Vector task: one AI Vector
 * core) at a time, so a task with a Block Dim far below the core count
 * leaves the other cores idle while it runs (review finding 7). */
#ifndef PROFREPORT_BLOCKDIM_H
#define PROFREPORT_BLOCKDIM_H

#include <cjson/cJSON.h>

#include "profreport/devices.h"
#include "profreport/error.h"
#include "profreport/trace.h"

/* A task uses "few" cores when its Block Dim is at most this share of
 * the cores of its kind (a quarter: three of four cores idle). */
#define PR_BLOCK_DIM_LOW_SHARE 0.25

/* The run's "block_dim" object (null when no AI Core task states a Block
 * Dim): the AI Core and AI Vector core counts and where they come from
 * (the export's own device info, else the device table's entry of the
 * chip it names; null when neither says), the time of the tasks with a
 * Block Dim and of those that used few cores, and those tasks' operators
 * by time.  devs: the run's device rows with their peaks (the table's
 * entry and its compute units).  PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_block_dim_fill(const struct pr_trace *t,
                                              const struct pr_device_rows *devs,
                                              cJSON *run, struct pr_error *err);

#endif

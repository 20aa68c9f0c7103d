/* keys.c - the category tables of keys.h: the one place where the breakdown
 * and overlap categories get their labels and colours (the Okabe-Ito
 * palette, so the reports stay readable for colour-blind readers). */
#include "config.h"

#include <string.h>

#include "profreport/keys.h"

const struct pr_category pr_keys_breakdown[PR_N_BREAKDOWN] = {
    {PR_K_KERNEL, "Kernel", 0x0072B2},
    {PR_K_MEMCPY, "Memcpy", 0xE69F00},
    {PR_K_MEMSET, "Memset", 0xF0E442},
    {PR_K_COMMUNICATION, "Communication", 0xD55E00},
    {PR_K_RUNTIME, "Runtime", 0x56B4E9},
    {PR_K_DATALOADER, "DataLoader", 0x009E73},
    {PR_K_CPU_EXEC, "CPU exec", 0xCC79A7},
    {PR_K_OTHER, "Other", 0x999999},
};

/* Colours as the breakdown's for the same kind of time. */
const struct pr_category pr_keys_critical_path[PR_N_CRITICAL_PATH] = {
    {PR_K_HOST_OP, "Host work", 0xCC79A7},
    {PR_K_DATALOADER, "Data loader", 0x009E73},
    {PR_K_LAUNCH, "Runtime calls", 0x56B4E9},
    {PR_K_KERNEL, "Kernel", 0x0072B2},
    {PR_K_COPY, "Copy", 0xE69F00},
    {PR_K_COMMUNICATION, "Communication", 0xD55E00},
    {PR_K_SYNC_WAIT, "Host sync", 0xF0E442},
    /* a device stream's wait for another stream (issue #29): device time,
       Paul Tol's teal, apart from the host's sync yellow */
    {PR_K_STREAM_WAIT, "Stream wait", 0x44AA99},
    {PR_K_IDLE, "Idle", 0x999999},
    /* the last two, and stream wait: sec_critpath.c's note leaves them
       out where no step has some (CANN, HCCL only; stream waits on the
       path where a trace records them) */
    {PR_K_OP_COMPILE, "Operator compilation", 0x882255},
    /* Paul Tol's indigo: apart from communication's vermillion */
    {PR_K_PEER_WAIT, "Set by another rank", 0x332288},
};

const struct pr_category pr_keys_overlap[PR_N_OVERLAP] = {
    {PR_K_COMPUTATION_US, "Computation", 0x0072B2},
    {PR_K_OVERLAP_US, "Overlap", 0x009E73},
    {PR_K_COMMUNICATION_US, "Communication", 0xD55E00},
    {PR_K_OTHER_US, "Other", 0x999999},
};

const struct pr_category *
pr_keys_category(const char *key)
{
    size_t k;

    for (k = 0; key != NULL && k < PR_N_BREAKDOWN; k++)
        if (strcmp(pr_keys_breakdown[k].key, key) == 0)
            return &pr_keys_breakdown[k];
    return NULL;
}

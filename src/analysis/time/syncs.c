/* syncs.c - host waits by name (syncs.h).  The runtimes spell a sync
 * differently (cudaStreamSynchronize, hipStreamSynchronize,
 * aclrtSynchronizeStream, Runtime@StreamSynchronize, synchronizeStream)
 * but all say "synchronize" and what they wait for; matching those words
 * without regard to case covers each without a list per runtime. */
#include "config.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "profreport/syncs.h"

/* Whether `word` occurs in s, ignoring case. */
static int
has(const char *s, const char *word)
{
    size_t n = strlen(word);

    for (; *s != '\0'; s++)
        if (strncasecmp(s, word, n) == 0)
            return 1;
    return 0;
}

static enum pr_sync_kind
copy_kind(const char *name)
{
    /* a peer copy runs between devices; the host does not wait on it */
    if (!has(name, "memcpy") || has(name, "peer"))
        return PR_SYNCK_NONE;
    return has(name, "async") ? PR_SYNCK_ASYNC_COPY : PR_SYNCK_COPY;
}

enum pr_sync_kind
pr_sync_call_kind(const char *name)
{
    if (name == NULL)
        return PR_SYNCK_NONE;
    /* cudaStreamWaitEvent, hipStreamWaitEvent, aclrtStreamWaitEvent */
    if (has(name, "streamwait") || has(name, "waitevent"))
        return PR_SYNCK_STREAM_WAIT;
    if (has(name, "synchronize")) {
        if (has(name, "event"))
            return PR_SYNCK_EVENT;
        /* a device or context sync, or the runtime's plain synchronize */
        return has(name, "stream") ? PR_SYNCK_STREAM : PR_SYNCK_DEVICE;
    }
    return copy_kind(name);
}

enum pr_sync_kind
pr_sync_record_kind(const char *name)
{
    if (name == NULL)
        return PR_SYNCK_NONE;
    if (has(name, "context") || has(name, "device"))
        return PR_SYNCK_DEVICE;
    if (has(name, "wait"))
        return PR_SYNCK_STREAM_WAIT;
    return has(name, "event") ? PR_SYNCK_EVENT : PR_SYNCK_STREAM;
}

const char *
pr_sync_kind_name(enum pr_sync_kind k)
{
    static const char *const names[] = {
        "", "device", "stream", "event", "blocking_copy", "stream_wait", ""};

    return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "";
}

int
pr_sync_blocks_host(enum pr_sync_kind k)
{
    return k == PR_SYNCK_DEVICE || k == PR_SYNCK_STREAM ||
           k == PR_SYNCK_EVENT || k == PR_SYNCK_COPY;
}

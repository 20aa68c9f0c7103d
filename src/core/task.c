/* task.c - a function on a second thread, or at once (task.h). */
#include "config.h"

#include <stddef.h>

#include "profreport/task.h"

static void *
task_main(void *arg)
{
    struct pr_task *k = arg;

    k->fn(k->arg);
    return NULL;
}

void
pr_task_start(struct pr_task *k, int threads, void (*fn)(void *arg), void *arg)
{
    k->fn = fn;
    k->arg = arg;
    k->started =
        threads > 1 && pthread_create(&k->tid, NULL, task_main, k) == 0;
    if (!k->started)
        fn(arg);
}

void
pr_task_join(struct pr_task *k)
{
    if (k->started)
        pthread_join(k->tid, NULL);
    k->started = 0;
}

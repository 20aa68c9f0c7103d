/* task.h - one function run on a second thread while the caller goes on:
 * the job's passes that only read shared data and write results of their
 * own use it to put the second core to work after the parallel ingest
 * (issue #17).  A task asked for no thread (threads <= 1), or that cannot
 * get one, runs at once on the caller's thread, so a result never depends
 * on whether a thread was had; the caller reads the task's results only
 * after pr_task_join(). */
#ifndef PROFREPORT_TASK_H
#define PROFREPORT_TASK_H

#include <pthread.h>

struct pr_task {
    pthread_t tid;
    int started; /* fn runs on tid */
    void (*fn)(void *arg);
    void *arg;
};

/* Run fn(arg) on a new thread when threads > 1, else (or when no thread
 * can be started) at once, before returning. */
void pr_task_start(struct pr_task *k, int threads, void (*fn)(void *arg),
                   void *arg);

/* Wait until fn has returned; nothing to wait for when it ran at once. */
void pr_task_join(struct pr_task *k);

#endif

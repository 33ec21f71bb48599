/* The detail walk read ahead in a second thread: the store is read and each record decoded
 * there while libxlsxwriter writes the rows of the records before (at a million records both
 * take seconds). A few batches of records wait at most, so memory stays constant. */
#include "xlsx_int.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH 256 /* records handed over at a time: one lock per batch, not per record */
#define DEPTH 4   /* batches waiting at most */

typedef struct batch {
    bl_record *v[BATCH];
    size_t n;
    struct batch *next; /* on the spent list */
} batch;

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    batch *q[DEPTH];
    size_t head, len;
    int done, stop, rc; /* done: the walk ended (rc its result); stop: the reader stopped */
    batch *filling;
    batch *spent; /* written, for the walker to free: glibc frees faster in the thread that
                     allocated */
    bl_rec_walk_fn walk;
    bl_rec_take_fn take; /* NULL: walk, each record copied */
    void *src;
    char err[512];
} ahead;

static void batch_free(batch *b)
{
    for (size_t i = 0; b && i < b->n; i++)
        bl_record_free(b->v[i]);
    free(b);
}

static void free_spent(batch *b)
{
    while (b) {
        batch *next = b->next;
        batch_free(b);
        b = next;
    }
}

/* Hands the batch over, waiting while DEPTH wait; 1 when the reader stopped. */
static int hand_over(ahead *a, batch *b)
{
    pthread_mutex_lock(&a->mu);
    while (a->len == DEPTH && !a->stop)
        pthread_cond_wait(&a->cv, &a->mu);
    int stop = a->stop;
    if (!stop) {
        a->q[(a->head + a->len++) % DEPTH] = b;
        pthread_cond_broadcast(&a->cv);
    }
    batch *spent = a->spent;
    a->spent = NULL;
    pthread_mutex_unlock(&a->mu);
    free_spent(spent);
    if (stop)
        batch_free(b);
    return stop;
}

static int keep(void *ctx, bl_record *r)
{
    ahead *a = ctx;
    if (!a->filling)
        a->filling = bl_xcalloc(1, sizeof *a->filling);
    a->filling->v[a->filling->n++] = r;
    if (a->filling->n < BATCH)
        return 0;
    batch *b = a->filling;
    a->filling = NULL;
    return hand_over(a, b);
}

static int copy(void *ctx, const bl_record *r)
{
    return keep(ctx, bl_record_clone(r));
}

static void *walker(void *arg)
{
    ahead *a = arg;
    int rc = a->take ? a->take(a->src, keep, a, a->err, sizeof a->err)
                     : a->walk(a->src, copy, a, a->err, sizeof a->err);
    if (a->filling && a->filling->n && hand_over(a, a->filling) == 0)
        a->filling = NULL;
    batch_free(a->filling);
    a->filling = NULL;
    pthread_mutex_lock(&a->mu);
    a->done = 1;
    a->rc = rc;
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
    return NULL;
}

/* The next batch, or NULL once the walk ended and every batch was taken; done (may be NULL)
 * is the batch written, put on the spent list. */
static batch *next_batch(ahead *a, batch *done)
{
    pthread_mutex_lock(&a->mu);
    if (done) {
        done->next = a->spent;
        a->spent = done;
    }
    while (!a->len && !a->done)
        pthread_cond_wait(&a->cv, &a->mu);
    batch *b = NULL;
    if (a->len) {
        b = a->q[a->head];
        a->head = (a->head + 1) % DEPTH;
        a->len--;
        pthread_cond_broadcast(&a->cv);
    }
    pthread_mutex_unlock(&a->mu);
    return b;
}

static void stop_walker(ahead *a)
{
    pthread_mutex_lock(&a->mu);
    a->stop = 1;
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
}

int bl_xlsx_walk_ahead(bl_rec_walk_fn walk, bl_rec_take_fn take, void *src, bl_report_rec_fn fn,
                       void *ctx, char *err, size_t errlen)
{
    ahead *a = bl_xcalloc(1, sizeof *a);
    a->walk = walk;
    a->take = take;
    a->src = src;
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->cv, NULL);
    pthread_t th;
    if (pthread_create(&th, NULL, walker, a) != 0) { /* no thread: the walk in this one */
        pthread_cond_destroy(&a->cv);
        pthread_mutex_destroy(&a->mu);
        free(a);
        return walk(src, fn, ctx, err, errlen);
    }
    int stopped = 0;
    batch *b = NULL;
    while (!stopped && (b = next_batch(a, b)) != NULL)
        for (size_t i = 0; i < b->n && !stopped; i++)
            stopped = fn(ctx, b->v[i]) != 0;
    batch_free(b);
    if (stopped)
        stop_walker(a);
    pthread_join(th, NULL);
    free_spent(a->spent);
    for (; a->len; a->len--, a->head = (a->head + 1) % DEPTH)
        batch_free(a->q[a->head]);
    int rc = stopped || a->rc;
    if (a->rc && !stopped)
        snprintf(err, errlen, "%s", a->err);
    pthread_cond_destroy(&a->cv);
    pthread_mutex_destroy(&a->mu);
    free(a);
    return rc;
}

/* committer.c: the writer thread. The commit of a loop turn's moves (one
 * SQLite transaction, and with --sync full an fdatasync) cost a quarter of
 * the event loop's time at 5,000 moves/s; here it runs beside the loop, on a
 * database connection of its own. The loop copies what each game has to
 * write (srv_batch_fill), hands the batch over, and goes on; when the
 * transaction is back, the games' moves count as committed and their
 * clients get their frames (srv_commit_done), so no client hears of a move
 * before it is on disk, as before.
 *
 * A game has at most one batch in flight: moves made meanwhile (sealed bids
 * of several players) wait for the next one, so the moves reach the
 * database in order, and a failed batch never leaves a gap behind a later
 * one. One thread, first in first out; the batches waiting one behind the
 * other are written in one transaction (group commit, write_group).
 *
 * The other writes the event loop used to make itself (a chat message, a
 * new session, an account) go through the same queue as jobs of their own
 * (srv_committer_run): the loop never waits on the database for them, and
 * their answer goes out when they are written, in order with the moves.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"

typedef struct cjob {
    struct cjob *next;
    srv_dbjob_fn run;           /* a write job (not a batch): run on the writer */
    srv_dbjob_done done;        /* ... and finished on the loop */
    void *arg;
    int n;
    void **owners;              /* each item's owner (a game), for the hooks */
    srv_batch_item *items;
    int ok;                     /* 1 written; 0 refused; SRV_STORE_CONFLICT: refused
                                   because another writer stored a move first */
    char err[300];              /* the database's reason when not ok */
    int64_t t_submit, t_w0, t_w1; /* loop statistics (loopstats.c): handed over,
                                   the writer's start and end (µs) */
} cjob;

struct srv_committer {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    cjob *todo_head, *todo_tail, *done;
    int stop;
    pthread_t th;
    srv_store *db;
    srv_commit_hooks hooks;
};

static void job_free(cjob *j)
{
    for (int i = 0; i < j->n; i++)
        srv_batch_free(&j->items[i]);
    free(j->items);
    free(j->owners);
    free(j);
}

/* j is done (c->mu held): on the done list, and the loop woken when the
 * list was empty. A list that was not empty has a wake-up on its way
 * already, and the loop takes the whole list when it comes
 * (srv_committer_drain): one write to libwebsockets' pipe per batch of
 * finished jobs, not per job. */
static void finished(srv_committer *c, cjob *j)
{
    int wake = c->done == NULL;
    j->next = c->done;
    c->done = j;
    if (wake && g_net.ctx)
        lws_cancel_service(g_net.ctx);
}

/* Group commit: the batches waiting one behind the other (the loop hands
 * one over per turn with moves, about every millisecond at 5,000 moves/s)
 * are written in one transaction, so one sync covers them all. Whenever the
 * writer falls behind (a slow sync, a WAL checkpoint, the thread not
 * scheduled), the backlog is then caught up in one step instead of one
 * sync per batch, each waiting for the ones before: the tail of the
 * commit's round trip (issue 14, docs/performance.md). A write job (not a
 * batch) ends a group: everything stays in the order it was handed over.
 * Up to GROUP_MAX batches or GROUP_ITEMS games go in one transaction. */
#define GROUP_MAX 64
#define GROUP_ITEMS 4096

/* The batches of group (linked through next, n of them, their games
 * counted in nitems) in one transaction, and each marked with the
 * outcome; c->mu is not held. */
static void write_group(srv_committer *c, cjob *group, int nitems)
{
    int64_t t0 = group->t_submit ? srv_ls_now() : 0;
    srv_batch_item *all = NULL;
    const srv_batch_item *items = group->items;
    int n = group->n;
    if (group->next) { /* the games of every batch side by side (shallow copies) */
        all = malloc((size_t)(nitems ? nitems : 1) * sizeof *all);
        if (all) {
            n = 0;
            for (cjob *j = group; j; j = j->next) {
                memcpy(all + n, j->items, (size_t)j->n * sizeof *all);
                n += j->n;
            }
            items = all;
        }
    }
    int rc = all || !group->next ? srv_store_write(c->db, items, n) : -1;
    int ok = rc == 0 ? 1 : rc == SRV_STORE_CONFLICT ? SRV_STORE_CONFLICT : 0;
    int64_t t1 = t0 ? srv_ls_now() : 0;
    for (cjob *j = group; j; j = j->next) {
        j->ok = ok;
        j->t_w0 = t0;
        j->t_w1 = t1;
        if (ok != 1)
            snprintf(j->err, sizeof j->err, "%s",
                     all || !group->next ? srv_store_errmsg(c->db) : "out of memory");
    }
    free(all);
}

static void *writer(void *arg)
{
    srv_committer *c = arg;
    pthread_mutex_lock(&c->mu);
    for (;;) {
        while (!c->todo_head && !c->stop)
            pthread_cond_wait(&c->cv, &c->mu);
        if (!c->todo_head)
            break; /* stopping, and everything handed is written */
        cjob *j = c->todo_head;
        c->todo_head = j->next;
        j->next = NULL;
        if (j->run) {
            if (!c->todo_head)
                c->todo_tail = NULL;
            pthread_mutex_unlock(&c->mu);
            j->run(srv_store_db(c->db), j->arg);
            pthread_mutex_lock(&c->mu);
            finished(c, j);
            continue;
        }
        /* the batches right behind it join it */
        cjob *last = j;
        int nb = 1, nitems = j->n;
        while (c->todo_head && !c->todo_head->run && nb < GROUP_MAX &&
               nitems + c->todo_head->n <= GROUP_ITEMS) {
            cjob *k = c->todo_head;
            c->todo_head = k->next;
            k->next = NULL;
            last->next = k;
            last = k;
            nb++;
            nitems += k->n;
        }
        if (!c->todo_head)
            c->todo_tail = NULL;
        pthread_mutex_unlock(&c->mu);
        write_group(c, j, nitems);
        pthread_mutex_lock(&c->mu);
        for (cjob *k = j, *nx; k; k = nx) { /* in order: the loop finishes the oldest first */
            nx = k->next;
            finished(c, k);
        }
    }
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

srv_committer *srv_committer_start(const char *db, int sync_full, const srv_commit_hooks *hooks,
                                   char *why, size_t n)
{
    srv_committer *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(why, n, "out of memory");
        return NULL;
    }
    c->hooks = *hooks;
    c->db = srv_store_open(db, sync_full, why, n);
    if (!c->db) {
        free(c);
        return NULL;
    }
    /* named in PostgreSQL's pg_stat_activity (operators; tests/server_reads.py
       finds the writer's backend by it); a reconnection drops the name */
    if (db_kind(srv_store_db(c->db)) == DB_PG)
        db_exec(srv_store_db(c->db), "SET application_name = 'chartered writer'", 0, NULL);
    /* SQLite: the WAL checkpoints beside the commits, not inside them (a
       failure leaves them inside, as before) */
    db_checkpoint_aside(srv_store_db(c->db));
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    if (pthread_create(&c->th, NULL, writer, c) != 0) {
        snprintf(why, n, "cannot start the database writer thread");
        srv_store_close(c->db);
        free(c);
        return NULL;
    }
    return c;
}

static void enqueue(srv_committer *c, cjob *j)
{
    pthread_mutex_lock(&c->mu);
    if (c->todo_tail)
        c->todo_tail->next = j;
    else
        c->todo_head = j;
    c->todo_tail = j;
    pthread_cond_signal(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

int srv_dbjob_submit(srv_dbjob_fn run, srv_dbjob_done done, void *arg)
{
    srv_committer *c = g_storage.committer;
    cjob *j = c ? calloc(1, sizeof *j) : NULL;
    if (!j) { /* no writer thread (or no memory): on the loop, as before */
        run(srv_store_db(g_storage.store), arg);
        done(arg);
        return 0;
    }
    j->run = run;
    j->done = done;
    j->arg = arg;
    enqueue(c, j);
    return 0;
}

int srv_committer_submit(srv_committer *c, srv_batch_item *items, void **owners, int n,
                         int64_t t_submit)
{
    cjob *j = calloc(1, sizeof *j);
    if (!j)
        return -1;
    j->items = items;
    j->owners = owners;
    j->n = n;
    j->t_submit = t_submit;
    enqueue(c, j);
    return 0;
}

void srv_committer_drain(srv_committer *c)
{
    pthread_mutex_lock(&c->mu);
    cjob *list = c->done;
    c->done = NULL;
    pthread_mutex_unlock(&c->mu);
    /* done is newest first: finish the oldest first */
    cjob *rev = NULL;
    while (list) {
        cjob *nx = list->next;
        list->next = rev;
        rev = list;
        list = nx;
    }
    for (cjob *j = rev, *nx; j; j = nx) {
        nx = j->next;
        if (j->run) {
            j->done(j->arg);
            free(j);
            continue;
        }
        /* once per transaction, then per game (commit.c) */
        c->hooks.written(j->ok, j->err);
        if (j->t_submit) {
            srv_ls_add(SRV_LS_COMMIT, srv_ls_now() - j->t_submit);
            srv_ls_add(SRV_LS_WRITE, j->t_w1 - j->t_w0);
        }
        for (int i = 0; i < j->n; i++)
            c->hooks.item_done(j->owners[i], &j->items[i], j->ok);
        job_free(j);
    }
}

void srv_committer_stop(srv_committer *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&c->mu);
    c->stop = 1;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
    pthread_join(c->th, NULL);
    srv_committer_drain(c);
    srv_store_close(c->db);
    pthread_mutex_destroy(&c->mu);
    pthread_cond_destroy(&c->cv);
    free(c);
}

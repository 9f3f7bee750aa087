/* sender.c: the thread that sends WebSocket frames to the clients' sockets
 * ("sender"), so that the event loop does not (issue 14, like Redis's I/O
 * threads). At 8,000 connections the loop spent half its busy time in
 * send(): one per client per move, ~20 µs each over loopback, because the
 * kernel does the receiver's TCP work inside the sender's call
 * (docs/performance.md). The loop still decides what each client gets and
 * builds its frames (ws_session.c, srv_ws_flush); it frames them itself as
 * WebSocket server frames into the client's job, and hands every job of a
 * flush over at once (srv_sender_submit: one lock and at most one wake-up
 * per loop turn). This thread writes each job with one send() (MSG_DONTWAIT,
 * never blocking) and gives the jobs back (srv_sender_drain, on the loop,
 * woken through lws_cancel_service like the other workers): all sent,
 * partly sent (the loop gives the rest to libwebsockets, which keeps it
 * and writes it when the socket is writable, as before), or failed (the
 * peer is gone).
 *
 * Ownership: while a client's job is out, the loop neither writes to it
 * nor closes it (ws_session.c). When libwebsockets closes it anyway (the
 * peer hung up, a timeout), its CLOSED callback calls srv_sender_forget
 * before libwebsockets closes the socket: under the lock this thread holds
 * around each send(), the job is marked dead, so no send() reaches a socket
 * number that was closed and maybe given to another connection. The dead
 * job is freed when it comes back. The loop waits on that lock at most for
 * one non-blocking send().
 *
 * On with `serve --send-thread on`; off by default (on the two-core host
 * it did not improve the latency: docs/performance.md), the frames then
 * written on the loop through lws_write, as before. Never for a TLS
 * connection (the server does not serve TLS itself: HAProxy does).
 */
#define _GNU_SOURCE /* pthread_setname_np */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "net/net.h"

static struct {
    int on;
    pthread_t thread;
    pthread_mutex_t q_lock;     /* the jobs to send, the done jobs, stop */
    pthread_cond_t q_cond;
    srv_sjob *todo_head, *todo_tail;
    srv_sjob *done_head, *done_tail;
    int stop;
    pthread_mutex_t fd_lock;    /* held around each send(): srv_sender_forget */
    struct lws_context *ctx;
    void (*sent)(srv_sjob *j);  /* the owner's: a job is back (srv_sender_start) */
    /* counted by the thread, read at the stop (srv_sender_stats) */
    int64_t busy_us, cpu_us;
    uint64_t batches, jobs, bytes, partial, failed;
    uint64_t forgotten;         /* the loop's: jobs whose client closed while out */
} S;

static int64_t mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int64_t cpu_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* One job: as much of it as the kernel takes now, without waiting. */
static void send_job(srv_sjob *j)
{
    pthread_mutex_lock(&S.fd_lock);
    if (j->dead) {
        j->result = -1;
    } else {
        j->result = 0;
        while (j->sent < j->len) {
            ssize_t n = send(j->fd, j->buf + j->sent, j->len - j->sent,
                             MSG_DONTWAIT | MSG_NOSIGNAL);
            if (n > 0) {
                j->sent += (size_t)n;
            } else if (n < 0 && errno == EINTR) {
                continue;
            } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                j->result = 1; /* the rest: libwebsockets, when writable */
                break;
            } else {
                j->result = -1; /* reset, broken pipe */
                break;
            }
        }
    }
    pthread_mutex_unlock(&S.fd_lock);
    j->sent_us = mono_us();
}

static void *run(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&S.q_lock);
    for (;;) {
        while (!S.todo_head && !S.stop)
            pthread_cond_wait(&S.q_cond, &S.q_lock);
        if (!S.todo_head && S.stop)
            break;
        srv_sjob *batch = S.todo_head;
        S.todo_head = S.todo_tail = NULL;
        pthread_mutex_unlock(&S.q_lock);

        int64_t t0 = mono_us(), c0 = cpu_us();
        srv_sjob *last = NULL;
        uint64_t n = 0, bytes = 0, partial = 0, failed = 0;
        for (srv_sjob *j = batch; j; j = j->next) {
            send_job(j);
            n++;
            bytes += j->sent;
            partial += j->result == 1;
            failed += j->result < 0 && !j->dead;
            last = j;
        }
        int64_t busy = mono_us() - t0, cpu = cpu_us() - c0;

        pthread_mutex_lock(&S.q_lock);
        S.busy_us += busy;
        S.cpu_us += cpu;
        S.batches++;
        S.jobs += n;
        S.bytes += bytes;
        S.partial += partial;
        S.failed += failed;
        int was_empty = !S.done_head;
        if (S.done_tail)
            S.done_tail->next = batch;
        else
            S.done_head = batch;
        S.done_tail = last;
        /* the loop drains every done job at once: woken once while they
           wait, not per batch */
        if (was_empty && S.ctx)
            lws_cancel_service(S.ctx);
    }
    pthread_mutex_unlock(&S.q_lock);
    return NULL;
}

int srv_sender_start(struct lws_context *ctx, void (*sent)(srv_sjob *j))
{
    memset(&S, 0, sizeof S);
    S.ctx = ctx;
    S.sent = sent;
    if (pthread_mutex_init(&S.q_lock, NULL) || pthread_mutex_init(&S.fd_lock, NULL) ||
        pthread_cond_init(&S.q_cond, NULL))
        return -1;
    if (pthread_create(&S.thread, NULL, run, NULL))
        return -1;
    pthread_setname_np(S.thread, "chartered-send"); /* seen in ps and top -H */
    S.on = 1;
    return 0;
}

int srv_sender_on(void)
{
    return S.on;
}

/* How long each flush writes on the loop before it hands the rest to the
 * thread (ws_session.c): CHARTERED_SEND_DIRECT_US, default 500 us; 0 hands
 * everything over. */
int64_t srv_send_direct_us(void)
{
    static int64_t us = -1;
    if (us < 0) {
        const char *e = getenv("CHARTERED_SEND_DIRECT_US");
        us = e && *e ? atoll(e) : 500;
        if (us < 0)
            us = 0;
    }
    return us;
}

void srv_sender_submit(srv_sjob *head, srv_sjob *tail)
{
    if (!head)
        return;
    tail->next = NULL;
    pthread_mutex_lock(&S.q_lock);
    int was_empty = !S.todo_head;
    if (S.todo_tail)
        S.todo_tail->next = head;
    else
        S.todo_head = head;
    S.todo_tail = tail;
    if (was_empty)
        pthread_cond_signal(&S.q_cond);
    pthread_mutex_unlock(&S.q_lock);
}

void srv_sender_forget(srv_sjob *j)
{
    pthread_mutex_lock(&S.fd_lock);
    j->dead = 1;
    pthread_mutex_unlock(&S.fd_lock);
    S.forgotten++;
}

void srv_sender_drain(void)
{
    if (!S.on)
        return;
    pthread_mutex_lock(&S.q_lock);
    srv_sjob *j = S.done_head;
    S.done_head = S.done_tail = NULL;
    pthread_mutex_unlock(&S.q_lock);
    while (j) {
        srv_sjob *nx = j->next;
        j->next = NULL;
        S.sent(j);
        j = nx;
    }
}

void srv_sender_stop(void)
{
    if (!S.on)
        return;
    /* before the context is destroyed (the thread wakes it): what is
       queued is sent, then given back as usual, while the clients are
       still there */
    pthread_mutex_lock(&S.q_lock);
    S.stop = 1;
    pthread_cond_signal(&S.q_cond);
    pthread_mutex_unlock(&S.q_lock);
    pthread_join(S.thread, NULL);
    srv_sender_drain();
    S.on = 0;
    pthread_mutex_destroy(&S.q_lock);
    pthread_mutex_destroy(&S.fd_lock);
    pthread_cond_destroy(&S.q_cond);
}

void srv_sender_stats(srv_sender_counts *out)
{
    memset(out, 0, sizeof *out);
    if (!S.on)
        return;
    pthread_mutex_lock(&S.q_lock);
    out->on = S.on;
    out->busy_us = S.busy_us;
    out->cpu_us = S.cpu_us;
    out->batches = S.batches;
    out->jobs = S.jobs;
    out->bytes = S.bytes;
    out->partial = S.partial;
    out->failed = S.failed;
    out->forgotten = S.forgotten;
    pthread_mutex_unlock(&S.q_lock);
}

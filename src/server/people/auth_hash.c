/* auth_hash.c: passwords, hashed with argon2id through libsodium
 * (crypto_pwhash_str), on a worker thread of their own: one hash costs tens
 * of milliseconds and 19 MiB, which the event loop must never wait for
 * (docs/protocol.md, "Accounts and sessions"). The loop hands a job over a
 * locked queue, the worker hashes or verifies, and lws_cancel_service wakes
 * the loop, which finishes the job (srv_pw_drain: the HTTP answer, the
 * session) on its own thread.
 *
 * Parameters: OWASP's minimum for argon2id, 19 MiB of memory and 2 passes
 * (one lane: libsodium's). A stored hash made with other parameters is
 * rehashed at the next good login (crypto_pwhash_str_needs_rehash).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "people/people.h"

#define PW_OPSLIMIT 2ull
#define PW_MEMLIMIT (19u * 1024u * 1024u)
#define PW_QUEUE_MAX 256 /* jobs waiting: more are refused (503) */

int srv_pw_hash(const char *password, char out[128])
{
    char h[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str(h, password, strlen(password), PW_OPSLIMIT, PW_MEMLIMIT) != 0)
        return -1;
    snprintf(out, 128, "%s", h);
    return 0;
}

int srv_pw_verify(const char *stored, const char *password)
{
    return crypto_pwhash_str_verify(stored, password, strlen(password)) == 0;
}

int srv_pw_needs_rehash(const char *stored)
{
    return crypto_pwhash_str_needs_rehash(stored, PW_OPSLIMIT, PW_MEMLIMIT) != 0;
}

static struct {
    pthread_t th;
    int started, stop, queued;
    srv_pwjob *head, *tail;     /* waiting */
    srv_pwjob *done;            /* finished, for the loop */
    char dummy[128];            /* checked for unknown users */
} P;
static pthread_mutex_t P_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t P_cv = PTHREAD_COND_INITIALIZER;

static void run(srv_pwjob *j)
{
    if (j->verify) {
        /* an unknown user name costs the same time as a known one: a hash
           of a random password is verified instead, and fails */
        const char *stored = j->stored[0] ? j->stored : P.dummy;
        j->ok = stored[0] && srv_pw_verify(stored, j->password) && j->stored[0];
        if (j->ok && j->newpw[0]) /* a password change: the new one's hash */
            j->ok = srv_pw_hash(j->newpw, j->hash) == 0;
        else if (j->ok && srv_pw_needs_rehash(j->stored))
            j->rehash = srv_pw_hash(j->password, j->hash) == 0;
    } else {
        j->ok = srv_pw_hash(j->password, j->hash) == 0;
    }
    sodium_memzero(j->password, sizeof j->password);
    sodium_memzero(j->newpw, sizeof j->newpw);
}

static void *worker(void *arg)
{
    (void)arg;
    char pw[33];
    srv_random_hex(pw, 32);
    if (srv_pw_hash(pw, P.dummy) != 0)
        P.dummy[0] = 0;
    pthread_mutex_lock(&P_mu);
    for (;;) {
        while (!P.head && !P.stop)
            pthread_cond_wait(&P_cv, &P_mu);
        if (!P.head && P.stop)
            break;
        srv_pwjob *j = P.head;
        P.head = j->next;
        if (!P.head)
            P.tail = NULL;
        pthread_mutex_unlock(&P_mu);
        run(j);
        pthread_mutex_lock(&P_mu);
        P.queued--;
        j->next = P.done;
        P.done = j;
        if (g_net.ctx)
            lws_cancel_service(g_net.ctx);
    }
    pthread_mutex_unlock(&P_mu);
    return NULL;
}

int srv_pw_start(void)
{
    if (sodium_init() < 0)
        return -1;
    if (P.started)
        return 0;
    P.stop = 0;
    if (pthread_create(&P.th, NULL, worker, NULL) != 0)
        return -1;
    P.started = 1;
    return 0;
}

void srv_pw_stop(void)
{
    if (!P.started)
        return;
    pthread_mutex_lock(&P_mu);
    P.stop = 1;
    pthread_cond_broadcast(&P_cv);
    pthread_mutex_unlock(&P_mu);
    pthread_join(P.th, NULL);
    P.started = 0;
    /* what is left was for requests that will get no answer now */
    for (srv_pwjob *j = P.done, *nx; j; j = nx) {
        nx = j->next;
        j->wsi = NULL;
        j->done(j);
    }
    P.done = NULL;
}

int srv_pw_submit(srv_pwjob *j)
{
    pthread_mutex_lock(&P_mu);
    if (P.queued >= PW_QUEUE_MAX || !P.started) {
        pthread_mutex_unlock(&P_mu);
        return -1;
    }
    j->next = NULL;
    if (P.tail)
        P.tail->next = j;
    else
        P.head = j;
    P.tail = j;
    P.queued++;
    pthread_cond_signal(&P_cv);
    pthread_mutex_unlock(&P_mu);
    return 0;
}

void srv_pw_drain(void)
{
    pthread_mutex_lock(&P_mu);
    srv_pwjob *list = P.done;
    P.done = NULL;
    pthread_mutex_unlock(&P_mu);
    /* oldest first */
    srv_pwjob *rev = NULL;
    for (srv_pwjob *j = list, *nx; j; j = nx) {
        nx = j->next;
        j->next = rev;
        rev = j;
    }
    for (srv_pwjob *j = rev, *nx; j; j = nx) {
        nx = j->next;
        j->done(j);
    }
}

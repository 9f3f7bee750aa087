/* serve.h: the options and the wiring of `chartered serve` (serve.c), the
 * top of the server (src/server/README.md): the one server of this process,
 * its options, the clock, the commits.
 */
#ifndef CHARTERED_SERVER_SERVE_H
#define CHARTERED_SERVER_SERVE_H

#include "api/api.h"

typedef struct srv_options {
    int port;
    const char *host;
    const char *db;
    const char *web;
    const char *i18n;
    int bot_threads;
    int view_threads;
    int sync_full;
    int quiet;
    int libev;                  /* the libev loop (else lws's own poll loop) */
    int skip_damaged;           /* start even if some games cannot be loaded */
    int trust_proxy;            /* believe X-Forwarded-For/-Proto (a proxy in front) */
    int send_thread;            /* WebSocket frames sent by the sender thread (sender.c) */
    const char *smtp;           /* e-mail relay URL, NULL or "": no e-mail */
    const char *mail_from;      /* the sender of that mail */
    const char *public_url;     /* the site's address for links; NULL: localhost:port */
} srv_options;
typedef struct srv {
    srv_options opt;
    struct lws_context *ctx;
    srv_store *store;
    srv_bots *bots;
    srv_views *views;           /* NULL: views are built on the loop */
    srv_committer *committer;   /* NULL: commits run on the loop */
    srv_game *hash[4096];
    srv_game *games;            /* every game, newest first */
    int ngames;
    srv_game *commit_list;      /* games with something to write */
    int commit_scheduled;
    lws_sorted_usec_list_t commit_sul;
    lws_sorted_usec_list_t tick_sul;
    uint64_t nclients;
    uint64_t moves_total;
    uint64_t games_evicted;     /* finished games dropped from memory (lobby.c) */
    uint64_t games_reloaded;    /* and read back from the database on demand */
    uint64_t storage_failures;  /* commits the database refused (backoff.c) */
    uint64_t games_expired;     /* waiting games that expired (limits.c) */
    uint64_t games_abandoned;   /* games ended as abandoned (limits.c) */
    int stopping;
    /* SIGTERM: the graceful stop (serve.c) is under way: no move is taken,
       what is pending is committed, the clients get close frames, then the
       cluster leases are handed back (docs/cluster.md) */
    int draining;
} srv;
extern srv *g_srv;              /* the one server of this process */
/* options.c: the one list of serve's options. srv_options_read fills o from
 * the configuration files (--config), the environment and the command line
 * (0: run; -1: --help was printed; 2: a bad option, said on stderr);
 * srv_options_usage prints --help from the list; cmd_config is `chartered
 * config check|list|show`. */
int srv_options_read(int argc, char **argv, srv_options *o, void (*usage)(FILE *));
void srv_options_usage(FILE *f, const char *web_default, const char *i18n_default);
void srv_options_free(void);
void srv_options_default(srv_options *o);
int cmd_config(int argc, char **argv);
int64_t srv_now_ms(void);
/* The commit at the end of a loop turn (serve.c). */
void srv_commit_now(lws_sorted_usec_list_t *sul);
/* After a commit: the game's first k pending moves are in the database
 * (ok 1), or nothing of it is (the game is rebuilt from the database; ok 0:
 * the database refused, clients hear "storage"; ok SRV_STORE_CONFLICT:
 * another writer stored one of those move numbers first, "conflict"). */
void srv_commit_done(srv_game *g, int k, unsigned away, int ok);

#endif

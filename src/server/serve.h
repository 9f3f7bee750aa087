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
    int log_format;             /* --log-format: srv_log_format (net/log.c) */
    int access_log;             /* --access-log: a line a request */
    const char *metrics_listen; /* --metrics-listen HOST:PORT, or NULL */
    const char *metrics_token_file; /* --metrics-token-file FILE, or NULL */
} srv_options;
/* What serve.c keeps: the options and the periodic tick. The state of the
 * layers below is theirs (g_net, g_storage, g_tables, g_api), filled here at
 * the start. */
typedef struct srv {
    srv_options opt;
    lws_sorted_usec_list_t tick_sul;
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
/* backup.c: `chartered backup` and `chartered restore` (SQLite). */
int cmd_backup(int argc, char **argv);
int cmd_restore(int argc, char **argv);
/* `chartered admin`: roles and moderation on a database (admin.c). */
int cmd_admin(int argc, char **argv);

#endif

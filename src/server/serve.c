/* serve.c: `chartered serve`: reads the options, opens the database and
 * resumes its games, starts the bot workers, and runs the one
 * libwebsockets event loop that carries HTTP and WebSocket on one port.
 * Also here: the commit that ends each loop turn with moves to write (one
 * transaction, then the broadcast), the periodic tick (turn timers), and a
 * graceful stop on SIGINT/SIGTERM (moves refused, pending ones
 * committed, close frames 1001, leases handed back).
 *
 * The loop is libev's (epoll on Linux), handed to libwebsockets as a
 * foreign loop: lws's own loop calls poll() over every connection at every
 * turn, which with thousands of connections costs more than the moves do
 * (measured: at 8,000 connections and 2,000 moves/s, p99 from 66 ms to 13 ms).
 * `--loop poll` keeps lws's own loop.
 */
#include <dirent.h>
#include <ev.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "serve.h"

srv *g_srv;
static volatile sig_atomic_t interrupted;
static struct ev_loop *g_loop;  /* the libev loop, NULL with --loop poll */

/* The graceful stop (SIGTERM or SIGINT; issue 28, "What to build" 6). The
 * loop goes on running: no move is taken any more (play.c, bots.c), the
 * moves pending are committed and their frames written (at most
 * STOP_COMMIT_MS), then every WebSocket client is closed with code 1001 and
 * a reason (at most STOP_CLOSE_MS, the last part forced); then the loop
 * ends, and on a cluster the leases are handed back (lease.c), so that the
 * players' reconnections and the other nodes take the games at once. A
 * second signal ends the loop at once (what is pending is still
 * committed after it, as before). */
#define STOP_COMMIT_MS 5000
#define STOP_CLOSE_MS 2000
#define STOP_FORCE_MS 1000
static lws_sorted_usec_list_t stop_sul;
static int stop_done;
static int64_t stop_t0, close_t0;

static int commits_left(void)
{
    for (srv_game *g = g_tables.games; g; g = g->lnext)
        if (g->npending || g->commit_busy || g->queued)
            return 1;
    return 0;
}

/* The loop is about to end: this process's listening sockets on its port
 * are shut down at once, before the teardown (which waits for the bot
 * threads' searches: seconds with ISMCTS). Linux then resets the
 * connections waiting in their backlog and refuses new ones, so a
 * reconnecting client or HAProxy goes elsewhere at once instead of waiting
 * on a socket nobody accepts from. */
static int g_port;

static void shut_listeners(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char *end;
        long fd = strtol(e->d_name, &end, 10);
        if (*end || fd < 0 || fd == dirfd(d))
            continue;
        int acc = 0;
        socklen_t al = sizeof acc;
        struct sockaddr_storage ss;
        socklen_t sl = sizeof ss;
        if (getsockopt((int)fd, SOL_SOCKET, SO_ACCEPTCONN, &acc, &al) != 0 || !acc ||
            getsockname((int)fd, (struct sockaddr *)&ss, &sl) != 0)
            continue;
        int port = ss.ss_family == AF_INET ? ntohs(((struct sockaddr_in *)&ss)->sin_port)
                 : ss.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port)
                 : -1;
        if (port == g_port)
            shutdown((int)fd, SHUT_RDWR);
    }
    closedir(d);
}

static void stop_step(lws_sorted_usec_list_t *sul)
{
    (void)sul;
    int64_t now = srv_now_ms();
    if (!close_t0) {
        if (commits_left() && now - stop_t0 < STOP_COMMIT_MS) {
            lws_sul_schedule(g_net.ctx, 0, &stop_sul, stop_step, 10 * LWS_US_PER_MS);
            return;
        }
        close_t0 = now;
    }
    int open = srv_ws_stop_close(now - close_t0 >= STOP_FORCE_MS);
    if (open > 0 && now - close_t0 < STOP_CLOSE_MS) {
        lws_sul_schedule(g_net.ctx, 0, &stop_sul, stop_step, 10 * LWS_US_PER_MS);
        return;
    }
    stop_done = 1;
    shut_listeners();
    lws_cancel_service(g_net.ctx);
    if (g_loop)
        ev_break(g_loop, EVBREAK_ALL);
}

static void begin_stop(void)
{
    if (g_tables.draining)
        return;
    g_tables.draining = 1;
    stop_t0 = srv_now_ms();
    srv_logf(SRV_LOG_INFO, "server.stopping", "stopping: committing, closing connections%s",
            srv_lease_on() ? ", handing the leases back" : "");
    lws_sul_schedule(g_net.ctx, 0, &stop_sul, stop_step, 1);
}

/* When the tick is due (srv_metrics_now_us): how late it runs is the
 * event loop's lag (chartered_event_loop_lag_seconds). */
static int64_t tick_due_us;

static void tick(lws_sorted_usec_list_t *sul)
{
    if (tick_due_us)
        srv_metrics_observe(SRV_H_LOOP_LAG, srv_metrics_now_us() - tick_due_us);
    srv_metrics_refresh(); /* the loop's gauges, for the metrics thread (api/metrics_api.c) */
    int64_t t0 = SRV_LS_T0();
    srv_timers_check(srv_now_ms());
    srv_ls_sec_end(SRV_LS_TIMERS, t0);
    t0 = SRV_LS_T0();
    srv_games_evict(srv_now_ms());
    srv_ls_sec_end(SRV_LS_EVICT, t0);
    /* turn-based games out of memory whose clock ran out; on a cluster node
       each is taken with its lease first (the node that wins it plays it) */
    t0 = SRV_LS_T0();
    if (g_storage.store)
        srv_turn_wake(srv_now_ms());
    srv_ls_sec_end(SRV_LS_TURN, t0);
    t0 = SRV_LS_T0();
    srv_storage_tick(srv_now_ms());
    srv_ls_sec_end(SRV_LS_STORAGE, t0);
    t0 = SRV_LS_T0();
    srv_cluster_tick();
    srv_ls_sec_end(SRV_LS_CLUSTER, t0);
    t0 = SRV_LS_T0();
    srv_limits_tick(srv_now_ms());
    srv_session_sweep(srv_now_ms()); /* expired sessions, hourly (session.c) */
    srv_mod_tick(srv_now_ms()); /* moderation done elsewhere (moderation_api.c) */
    srv_ls_sec_end(SRV_LS_LIMITS, t0);
    if (interrupted && !g_tables.draining)
        begin_stop(); /* a signal between the start line and the loop's watchers */
    if (stop_done || interrupted >= 2) {
        lws_cancel_service(g_net.ctx);
        if (g_loop)
            ev_break(g_loop, EVBREAK_ALL);
    }
    tick_due_us = srv_metrics_now_us() + 250000;
    lws_sul_schedule(g_net.ctx, 0, sul, tick, 250 * LWS_US_PER_MS);
}

static int callback_in(struct lws *wsi, enum lws_callback_reasons reason, void *user,
                       void *in, size_t len);

/* The one callback, timed by section when CHARTERED_LOOP_STATS is set
 * (loopstats.c). */
static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len)
{
    if (!srv_ls_on)
        return callback_in(wsi, reason, user, in, len);
    int sec = reason == LWS_CALLBACK_RECEIVE ? SRV_LS_RECV
            : reason == LWS_CALLBACK_EVENT_WAIT_CANCELLED ? SRV_LS_DRAIN
            : reason == LWS_CALLBACK_SERVER_WRITEABLE ? SRV_LS_WRITABLE
            : reason == LWS_CALLBACK_HTTP || reason == LWS_CALLBACK_HTTP_BODY ||
                      reason == LWS_CALLBACK_HTTP_BODY_COMPLETION ||
                      reason == LWS_CALLBACK_HTTP_WRITEABLE ? SRV_LS_HTTP : -1;
    int64_t t0 = sec >= 0 ? srv_ls_now() : 0;
    int r = callback_in(wsi, reason, user, in, len);
    if (sec >= 0)
        srv_ls_sec_end(sec, t0);
    return r;
}

static int callback_in(struct lws *wsi, enum lws_callback_reasons reason, void *user,
                       void *in, size_t len)
{
    switch (reason) {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        if (g_srv && g_storage.committer)
            srv_committer_drain(g_storage.committer);
        if (g_srv && g_tables.bots)
            srv_bots_drain(g_tables.bots);
        if (g_srv && g_tables.views)
            srv_views_drain(g_tables.views);
        if (g_srv) {
            srv_pw_drain();
            srv_lease_drain();
            srv_sender_drain();
        }
        return 0;
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
        /* accepted, nothing read yet: its bytes are looked at from the
           first (rawguard.c: 431, unmasked frames) */
        srv_rawguard_accept((int)(lws_intptr_t)in);
        return 0;
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: {
        char uri[32];
        if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) <= 0 || strcmp(uri, "/ws"))
            return 1; /* WebSocket on /ws only */
        srv_http_begin(wsi); /* --access-log: the upgrade, answered 101 */
        srv_http_access(wsi, 101, 0);
        return 0;
    }
    case LWS_CALLBACK_ESTABLISHED:
    case LWS_CALLBACK_RECEIVE:
    case LWS_CALLBACK_SERVER_WRITEABLE:
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
    case LWS_CALLBACK_CLOSED:
        return srv_ws_callback(wsi, reason, user, in, len);
    case LWS_CALLBACK_HTTP:
    case LWS_CALLBACK_HTTP_BODY:
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
    case LWS_CALLBACK_HTTP_WRITEABLE:
    case LWS_CALLBACK_CLOSED_HTTP:
    case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
        return srv_http_callback(wsi, reason, user, in, len);
    case LWS_CALLBACK_HTTP_FILE_COMPLETION:
        if (lws_http_transaction_completed(wsi))
            return -1;
        return 0;
    default:
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
}

static const struct lws_protocols protocols[] = {
    /* a small receive buffer (client frames are short; longer ones arrive
       in pieces and are joined up to 16 KiB): it is allocated per
       connection. Sends are not cut to its size: a state frame goes to the
       kernel in one send() */
    {"chartered", callback, sizeof(srv_pss), 1024, 0, NULL, 256 * 1024},
    {NULL, NULL, 0, 0, 0, NULL, 0}};

static void on_signal(int sig)
{
    (void)sig;
    if (interrupted < 2)
        interrupted++;
}

/* How long one turn of the loop writes frames before it looks at its
 * sockets again (ws_session.c, srv_ws_flush): a burst of frames (a group
 * of commits back, each game's four clients) goes out in slices, and moves
 * that came in meanwhile are read and handed to the writer between them. */
#define SRV_FLUSH_BUDGET_US 2000
static ev_idle g_more; /* active while frames are left for the next turn */

/* Before the loop waits: the frames of this turn written at once
 * (ws_session.c), before libev hands its fd changes to the kernel, so a
 * frame the kernel took whole costs no POLLOUT round trip. */
static void on_ev_prepare(struct ev_loop *loop, ev_prepare *w, int revents)
{
    (void)w;
    (void)revents;
    int64_t t0 = SRV_LS_T0();
    int left = srv_ws_flush(SRV_FLUSH_BUDGET_US);
    srv_ls_sec_end(SRV_LS_FLUSH, t0);
    srv_ls_iter_end();
    /* frames left: the loop polls without sleeping (an active idle watcher
       makes libev's wait return at once), reads what came in, and the next
       prepare goes on with them */
    if (left && !ev_is_active(&g_more))
        ev_idle_start(loop, &g_more);
    else if (!left && ev_is_active(&g_more))
        ev_idle_stop(loop, &g_more);
}

static void on_ev_idle(struct ev_loop *loop, ev_idle *w, int revents)
{
    (void)loop;
    (void)w;
    (void)revents; /* nothing: its being active keeps the wait short */
}

/* epoll returned: an iteration of the loop begins (loopstats.c) */
static void on_ev_check(struct ev_loop *loop, ev_check *w, int revents)
{
    (void)loop;
    (void)w;
    (void)revents;
    srv_ls_iter_begin();
}

static void on_ev_signal(struct ev_loop *loop, ev_signal *w, int revents)
{
    (void)w;
    (void)revents;
    if (interrupted < 2)
        interrupted++;
    if (interrupted >= 2)
        ev_break(loop, EVBREAK_ALL); /* a second signal: at once */
    else
        begin_stop();
}

static void usage(FILE *f)
{
    srv_options_usage(f, srv_default_web_dir(), srv_default_i18n_dir());
}

static void raise_nofile(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

/* Stop the workers first (they wake the event loop of the context), then
 * close every connection, the database, and free the games. */
static void teardown(srv *s)
{
    srv_metrics_stop();
    srv_mail_stop();
    srv_committer_stop(g_storage.committer);
    g_storage.committer = NULL;
    srv_lease_stop();
    srv_bots_stop(g_tables.bots);
    g_tables.bots = NULL;
    srv_analysis_stop(); /* its tasks were with the bot workers */
    srv_views_stop(g_tables.views);
    g_tables.views = NULL;
    srv_sender_stop(); /* it wakes the context: before it goes */
    if (g_net.ctx)
        lws_context_destroy(g_net.ctx);
    srv_rawguard_stop();
    g_net.ctx = NULL;
    srv_pw_stop();
    srv_session_finalize();
    srv_chat_finalize();
    srv_store_close(g_storage.store);
    for (srv_game *g = g_tables.games, *nx; g; g = nx) {
        nx = g->lnext;
        srv_game_free(g);
    }
    memset(&g_tables, 0, sizeof g_tables);
    g_storage.store = NULL;
    free(s);
    g_srv = NULL;
}

int cmd_serve(int argc, char **argv)
{
    srv_options o;
    srv_options_default(&o);
    /* the one list of options: files (--config), command line, environment
       (options.c) */
    int orc = srv_options_read(argc, argv, &o, usage);
    if (orc != 0)
        return orc < 0 ? 0 : orc;
    const char *smtp = o.smtp && *o.smtp ? o.smtp : NULL;
    {
        char base[300], mwhy[200];
        snprintf(base, sizeof base, "%s", o.public_url && *o.public_url ? o.public_url : "");
        if (!base[0])
            snprintf(base, sizeof base, "http://localhost:%d", o.port);
        if (srv_mail_configure(smtp, o.mail_from, base, srv_day_ms(), mwhy, sizeof mwhy) != 0) {
            fprintf(stderr, "error: serve: %s\n", mwhy);
            return 2;
        }
    }
    /* the one log (net/log.c), before any line and any thread; libwebsockets'
       lines go through it too */
    srv_log_setup((srv_log_format)o.log_format, o.quiet ? SRV_LOG_WARN : SRV_LOG_INFO,
                  o.access_log);
    lws_set_log_level(srv_log_lws_levels(), srv_log_lws);
    srv_ls_start(); /* CHARTERED_LOOP_STATS (loopstats.c) */
    /* every state frame allocates and frees a few tens of KiB: keep freed
       memory in the process instead of returning it to the kernel (and
       faulting it in again) a hundred times a second */
    mallopt(M_TRIM_THRESHOLD, 16 << 20);
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    raise_nofile();
    signal(SIGPIPE, SIG_IGN);
    /* past a file-size limit (ulimit -f) a write fails with EFBIG, which the
       storage backoff handles, instead of killing the server */
    signal(SIGXFSZ, SIG_IGN);

    srv *s = calloc(1, sizeof *s);
    if (!s)
        return 1;
    g_srv = s;
    s->opt = o;
    g_net.quiet = o.quiet;
    g_net.trust_proxy = o.trust_proxy;
    g_api.web = o.web;
    g_api.i18n = o.i18n;
    /* the wiring of the upward hooks: the game layer tells connections
       through the API's WebSocket sessions */
    srv_clients_register(&(srv_client_ops){srv_ws_send_json, srv_ws_want_state});
    /* and asks the cluster (a single node: the hooks say so) */
    srv_tables_register(&srv_cluster_table_hooks);
    /* and the store's migration to schema 5 makes name skeletons as names.c does */
    srv_schema_name_skeleton(srv_name_skeleton);
    /* metrics (net/metrics.c): a cluster node labels its series with its name */
    srv_metrics_init(srv_node_name(), srv_cluster_conninfo(o.db) != NULL);
    char why[300];
    g_storage.store = srv_store_open(o.db, o.sync_full, why, sizeof why);
    if (!g_storage.store) {
        srv_logf(SRV_LOG_ERROR, "server.failed", "%s", why);
        free(s);
        return 1;
    }
    /* a node of a cluster loads the games it holds the lease of (lease.c,
       at its first renewal), not every game in play */
    const char *conninfo = srv_cluster_conninfo(o.db);
    db_conn *sdb = srv_store_db(g_storage.store);
    if (srv_cluster_mode_check(db_kind(sdb) == DB_PG, why, sizeof why) != 0) {
        srv_logf(SRV_LOG_ERROR, "server.failed", "%s", why);
        teardown(s);
        return 1;
    }
    if (!conninfo && db_kind(sdb) == DB_PG) {
        /* a single node loads and plays every game in play: not on a
           database whose games cluster nodes hold now (docs/cluster.md) */
        int rc;
        int64_t held = db_one_int(sdb, "SELECT count(*) FROM chartered_lease WHERE expires > "
                                  "now()", 0, NULL, 0, &rc);
        if (rc == DB_OK && held > 0) {
            srv_logf(SRV_LOG_ERROR, "server.failed", "leases=%lld cluster nodes hold the "
                    "leases of games in this database: start this server with --cluster on "
                    "as one of them (or stop them first: their leases run out after "
                    "--lease-seconds)", (long long)held);
            teardown(s);
            return 1;
        }
    }
    int loaded = srv_store_writable(g_storage.store, why, sizeof why) != 0 ? -1 :
                 conninfo ? 0 : srv_store_load(g_storage.store, o.skip_damaged, why, sizeof why);
    char shown[256];
    db_target_shown(o.db, shown, sizeof shown);
    if (loaded < 0) {
        srv_logf(SRV_LOG_ERROR, "server.failed", "db=%s database: %s", shown, why);
        teardown(s);
        return 1;
    }
    g_tables.views = srv_views_start(o.view_threads); /* NULL for 0: on the loop */
    g_storage.committer = srv_committer_start(o.db, o.sync_full, &srv_commit_hooks_game, why, sizeof why);
    if (!g_storage.committer) /* the loop commits itself: slower, as safe */
        srv_logf(SRV_LOG_WARN, "db.writer", "%s; committing on the event loop", why);
    g_tables.bots = srv_bots_start(o.bot_threads);
    if (conninfo && srv_lease_start(conninfo, why, sizeof why) != 0) {
        srv_logf(SRV_LOG_ERROR, "server.failed", "cluster: %s", why);
        teardown(s);
        return 1;
    }
    if (srv_pw_start() != 0) {
        srv_logf(SRV_LOG_ERROR, "server.failed", "cannot start libsodium or the password thread");
        teardown(s);
        return 1;
    }
    if (srv_mail_start(o.db) != 0) {
        srv_logf(SRV_LOG_ERROR, "server.failed", "cannot start the mail thread");
        teardown(s);
        return 1;
    }
    if (!g_tables.bots) {
        srv_logf(SRV_LOG_ERROR, "server.failed", "cannot start the bot threads");
        teardown(s);
        return 1;
    }

    if (o.metrics_token_file && srv_metrics_token_file(o.metrics_token_file, why, sizeof why)) {
        srv_logf(SRV_LOG_ERROR, "server.failed", "%s", why);
        teardown(s);
        return 1;
    }
    char metrics_at[96] = "";
    if (o.metrics_listen && srv_metrics_listen(o.metrics_listen, metrics_at, sizeof metrics_at,
                                               why, sizeof why) != 0) {
        srv_logf(SRV_LOG_ERROR, "server.failed", "%s", why);
        teardown(s);
        return 1;
    }

    srv_listen lis;
    if (srv_listen_resolve(&lis, o.host, why, sizeof why) != 0) {
        srv_logf(SRV_LOG_ERROR, "server.failed", "%s", why);
        teardown(s);
        return 1;
    }
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = o.port;
    info.iface = lis.any ? NULL : lis.iface;
    info.protocols = protocols;
    /* exactly the address given (listen.c): an IPv4 address on an IPv4
       socket, an IPv6 one on an IPv6-only socket */
    if (lis.family == AF_INET)
        info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    else if (lis.family == AF_INET6)
        info.options |= LWS_SERVER_OPTION_IPV6_V6ONLY_MODIFY | LWS_SERVER_OPTION_IPV6_V6ONLY_VALUE;
    struct ev_loop *loop = NULL;
    void *foreign[1] = {NULL};
    if (o.libev) {
        loop = ev_default_loop(EVFLAG_AUTO);
        if (!loop) {
            srv_logf(SRV_LOG_ERROR, "server.failed",
                    "cannot start the libev event loop (try --loop poll)");
            teardown(s);
            return 1;
        }
        foreign[0] = loop;
        info.options |= LWS_SERVER_OPTION_LIBEV;
        info.foreign_loops = foreign;
    }
    info.count_threads = 1;
    info.timeout_secs = 30;
    info.keepalive_timeout = SRV_HTTP_IDLE_S; /* told in "Keep-Alive" (http_api.c) */
    /* rawguard.c answers 431 past SRV_HEADER_MAX bytes of request line and
       headers (or SRV_HEADER_LINES lines, SRV_QUERY_ARGS query arguments:
       lws keeps each known header line and each argument in a table of 95
       entries), before lws sees them. lws stores an unknown header with 8
       bytes of its own (a line "a:" of 4 bytes takes about 10): with three
       times the bytes, its buffer never fills first, so lws never closes
       without an answer (measured: 3,000 such lines) */
    info.max_http_header_data = 3 * SRV_HEADER_MAX;
    srv_rawguard_start(srv_ws_protocol_error);
    info.ka_time = 0;
    g_net.ctx = lws_create_context(&info);
    if (!g_net.ctx) {
        srv_logf(SRV_LOG_ERROR, "server.failed", "port=%d cannot listen on port %d (in use?%s)",
                o.port, o.port,
                o.libev ? " or libwebsockets lacks its libev plugin: try --loop poll" : "");
        teardown(s);
        return 1;
    }
    if (o.send_thread && srv_sender_start(g_net.ctx, srv_ws_sent) != 0) {
        srv_logf(SRV_LOG_ERROR, "server.failed",
                "cannot start the sender thread (try --send-thread off)");
        teardown(s);
        return 1;
    }
    struct lws_vhost *vh = lws_get_vhost_by_name(g_net.ctx, "default");
    int port = vh ? lws_get_vhost_listen_port(vh) : o.port;
    g_port = port;
    char bound[64];
    if (srv_listen_verify(&lis, port, bound, sizeof bound, why, sizeof why) != 0) {
        srv_logf(SRV_LOG_ERROR, "server.failed", "%s", why);
        teardown(s);
        return 1;
    }
    /* before the start line: whoever starts the server may stop it as soon
       as it has read that line (the loop's own signal watchers come later;
       the tick ends the loop if a signal came in between) */
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    g_loop = loop;
    /* the start line, on standard output too: who starts the server reads
       it there (tests, scripts/cluster.sh); the message keeps the words
       "serving on URL/" of the earlier plain line */
    srv_log_announce("server.listening", "port=%d node=%s serving on http://%s%s%s:%d/ "
                     "(database %s)", port, srv_node_name(),
                     strchr(bound, ':') ? "[" : "", lis.any ? "localhost" : bound,
                     strchr(bound, ':') ? "]" : "", port, shown);
    if (conninfo)
        srv_logf(SRV_LOG_INFO, "cluster.node", "node=%s lease_s=%lld node of a cluster",
                srv_node_name(), (long long)(srv_lease_ms() / 1000));
    if (loaded > 0)
        srv_logf(SRV_LOG_INFO, "games.loaded", "games=%d games loaded from the database", loaded);
    if (metrics_at[0])
        srv_logf(SRV_LOG_INFO, "metrics.listening", "address=%s token=%s metrics on "
                 "http://%s/metrics", metrics_at, srv_metrics_token_on() ? "yes" : "no",
                 metrics_at);
    if (smtp) { /* the relay's password, if its URL has one, is not printed */
        char relay[600];
        srv_logf(SRV_LOG_INFO, "mail.relay", "relay=%s e-mail through the relay",
                srv_smtp_shown(smtp, relay, sizeof relay));
    }

    for (srv_game *g = g_tables.games; g; g = g->lnext)
        srv_game_kick_bots(g);
    lws_sul_schedule(g_net.ctx, 0, &s->tick_sul, tick, 250 * LWS_US_PER_MS);
    if (loop) {
        ev_signal sig_int, sig_term;
        ev_signal_init(&sig_int, on_ev_signal, SIGINT);
        ev_signal_init(&sig_term, on_ev_signal, SIGTERM);
        ev_signal_start(loop, &sig_int);
        ev_signal_start(loop, &sig_term);
        ev_prepare flush;
        ev_prepare_init(&flush, on_ev_prepare);
        ev_prepare_start(loop, &flush);
        ev_check check;
        ev_check_init(&check, on_ev_check);
        ev_idle_init(&g_more, on_ev_idle);
        if (srv_ls_on)
            ev_check_start(loop, &check);
        ev_run(loop, 0); /* until a signal breaks it */
        if (srv_ls_on)
            ev_check_stop(loop, &check);
        ev_idle_stop(loop, &g_more);
        ev_prepare_stop(loop, &flush);
        ev_signal_stop(loop, &sig_int);
        ev_signal_stop(loop, &sig_term);
    } else {
        while (!stop_done && interrupted < 2) {
            if (interrupted && !g_tables.draining)
                begin_stop();
            if (lws_service(g_net.ctx, 0) < 0)
                break;
            srv_ls_iter_begin(); /* the wait is inside lws_service: counted from here */
            int64_t t0 = SRV_LS_T0();
            srv_ws_flush(0);
            srv_ls_sec_end(SRV_LS_FLUSH, t0);
            srv_ls_iter_end();
        }
    }
    /* everything acknowledged is already committed; write what is pending:
       the writer's batches first, then the rest here (reads back meanwhile
       are not acted on: stopping) */
    g_tables.stopping = 1;
    srv_committer_stop(g_storage.committer);
    g_storage.committer = NULL;
    if (g_tables.commit_list)
        srv_commit_now(&g_tables.commit_sul);
    srv_lease_handback(); /* done by the lease thread as it stops (teardown) */
    srv_storage_stop_summary();
    srv_ls_report(g_tables.moves_total);
    teardown(s);
    srv_options_free();
    return 0;
}

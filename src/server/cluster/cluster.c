/* cluster.c: this server as one node of several (docs/cluster.md): its name
 * (--node), the cluster flags (--cluster, --lease-seconds), and what the
 * node does when the lease thread (lease.c) reports that a game became its
 * own (a failover: load it from its moves), that it lost one (stop playing
 * it, send its clients to the new owner), or that another node changed
 * something (drop the copy; the next request re-reads it).
 *
 * Games in memory on a node are of two kinds: the ones it holds the lease
 * of (it plays them, clients attach to them), and copies of other nodes'
 * games read to answer an HTTP request (a summary, the lobby). A copy is
 * never played (srv_game_playable) and is dropped at the next tick.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster/cluster.h"

/* --cluster: off (the default: a single node, whatever the database), on
 * (leases and events in the --db database, which must be PostgreSQL), or a
 * PostgreSQL connection string of their own. */
enum { CL_OFF, CL_ON_DB, CL_CONN };

static struct {
    char node[SRV_NODE_MAX + 1];
    int mode;
    const char *conninfo;
    int lease_s;
} cl = {"", CL_OFF, NULL, SRV_LEASE_DEFAULT_S};

int srv_node_name_ok(const char *name)
{
    size_t l = strlen(name);
    if (l == 0 || l > SRV_NODE_MAX)
        return 0;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '.' || *p == '_' || *p == '-'))
            return 0;
    return 1;
}

int srv_cluster_flag(const char *flag, const char *value)
{
    if (!strcmp(flag, "--node")) {
        if (!value || !srv_node_name_ok(value)) {
            fprintf(stderr, "error: serve: --node must be 1 to %d letters, digits, '.', '_' "
                    "or '-', not '%.60s'\n", SRV_NODE_MAX, value ? value : "");
            return -1;
        }
        snprintf(cl.node, sizeof cl.node, "%s", value);
        return 1;
    }
    if (!strcmp(flag, "--cluster")) {
        if (!value || !*value) {
            fprintf(stderr, "error: serve: --cluster needs on, off, or a PostgreSQL "
                    "connection string\n");
            return -1;
        }
        cl.mode = !strcmp(value, "off") ? CL_OFF : !strcmp(value, "on") ? CL_ON_DB : CL_CONN;
        cl.conninfo = cl.mode == CL_CONN ? value : NULL;
        return 1;
    }
    if (!strcmp(flag, "--lease-seconds")) {
        char *end;
        long v = value ? strtol(value, &end, 10) : 0;
        if (!value || *end || v < SRV_LEASE_MIN_S || v > SRV_LEASE_MAX_S) {
            fprintf(stderr, "error: serve: --lease-seconds must be %d to %d, not '%.40s'\n",
                    SRV_LEASE_MIN_S, SRV_LEASE_MAX_S, value ? value : "");
            return -1;
        }
        cl.lease_s = (int)v;
        return 1;
    }
    return 0;
}

const char *srv_cluster_usage(void)
{
    return "  --node NAME      this node's name in a cluster, health and logs (default\n"
           "                   HOSTNAME-PID)\n"
           "  --cluster on|off|CONN  play as one node of several (game leases and\n"
           "                   cross-node events): on uses the --db database, which\n"
           "                   must be PostgreSQL; CONN another PostgreSQL database\n"
           "                   (libpq connection string or URL); off (default): a\n"
           "                   single node, on SQLite or PostgreSQL; docs/cluster.md\n"
           "  --lease-seconds N  a game's lease (default 6, 2 to 120): when a node dies,\n"
           "                   another takes its games at most this long after\n";
}

const char *srv_node_name(void)
{
    if (!cl.node[0]) {
        char host[64] = "node";
        if (gethostname(host, sizeof host) != 0)
            snprintf(host, sizeof host, "node");
        host[sizeof host - 1] = 0;
        /* keep only what a node name may hold */
        for (char *p = host; *p; p++)
            if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                  (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' || *p == '-'))
                *p = '-';
        host[28] = 0;
        snprintf(cl.node, sizeof cl.node, "%.28s-%ld", host, (long)getpid());
    }
    return cl.node;
}

const char *srv_cluster_conninfo(const char *db)
{
    if (cl.mode == CL_CONN)
        return cl.conninfo;
    if (cl.mode == CL_ON_DB)
        return db;
    return NULL;
}

int srv_cluster_mode_check(int db_is_pg, char *why, size_t n)
{
    if (cl.mode == CL_ON_DB && !db_is_pg) {
        snprintf(why, n, "--cluster on needs a PostgreSQL --db (leases and events live "
                 "there); give --cluster a PostgreSQL connection string, or leave it off");
        return -1;
    }
    return 0;
}

int64_t srv_lease_ms(void)
{
    return (int64_t)cl.lease_s * 1000;
}

/* The game layer's hooks (game.h, srv_table_hooks): this node may play g
 * (g->reload_due is looked at by srv_game_playable first). */
static int playable(const srv_game *g)
{
    if (!srv_lease_on())
        return 1;
    return g->lease == SRV_LEASE_HELD && srv_lease_valid(srv_now_ms());
}

/* A turn-based game woken by its clock: on a single node read back here. */
static int wake(const char *id, srv_game **gp)
{
    if (!srv_lease_on()) {
        *gp = srv_game_find(id);
        return 1;
    }
    return srv_cluster_wake(id, gp);
}

/* Nothing but the server's list and hash refers to g. */
static int unreferenced(const srv_game *g)
{
    if (g->clients || g->npending || g->queued || g->commit_busy || g->meta_dirty ||
        g->views_job)
        return 0;
    for (int i = 0; i < g->nseats; i++)
        if (g->seat[i].job)
            return 0;
    return 1;
}

static void drop(srv_game *g)
{
    for (srv_game **pp = &g_tables.games; *pp; pp = &(*pp)->lnext)
        if (*pp == g) {
            *pp = g->lnext;
            break;
        }
    srv_game_unhash(g);
    g_tables.ngames--;
    srv_game_free(g);
}

/* Games whose failed commit could not be undone (the database was away):
 * rebuilt from the stored moves once they can be read, at most once a
 * second. */
static void reload_games(void)
{
    static int64_t last;
    int64_t now = srv_now_ms();
    if (now - last < 1000 || !srv_lease_link(NULL, NULL))
        return;
    last = now;
    for (srv_game *g = g_tables.games; g; g = g->lnext) {
        if (!g->reload_due || g->commit_busy || g->npending)
            continue;
        json_t *moves = srv_store_moves(g_storage.store, g->id);
        if (!moves)
            return; /* still away */
        char why[300];
        if (srv_replay_moves(g, moves, -1, why, sizeof why) == 0) {
            unsigned mask;
            if (g->status == GAME_OVER && ch_decider(&g->st, &mask) != CH_DEC_TERMINAL)
                g->status = GAME_PLAYING;
            g->reload_due = 0;
            srv_game_changed(g);
            srv_game_kick_bots(g);
        } else {
            srv_logf(SRV_LOG_ERROR, "game.unreadable", "game=%s the game cannot be rebuilt: %s",
                    g->id, why);
        }
        json_decref(moves);
    }
}

void srv_cluster_tick(void)
{
    reload_games();
    if (!srv_lease_on())
        return;
    for (srv_game *g = g_tables.games, *nx; g; g = nx) {
        nx = g->lnext;
        if (g->lease != SRV_LEASE_HELD && unreferenced(g))
            drop(g);
    }
}

/* The log line of a game this node took (a lease that ran out, claimed at a
 * renewal or at a client's request): written at once (net/log.c), since a
 * node killed with -9 once lost every such line still in stdout's buffer
 * (issue 28, low; issue 35). The words "node N took over game G" stay. */
static void took_over(const srv_game *g)
{
    srv_logf(SRV_LOG_INFO, "game.takeover", "node=%s game=%s move=%d node %s took over game %s",
            srv_node_name(), g->id, g->nmoves, srv_node_name(), g->id);
}

void srv_cluster_won(const char *id)
{
    srv_game *g = srv_game_held(id);
    if (g && g->lease != SRV_LEASE_HELD && unreferenced(g)) {
        drop(g); /* a copy: what the database holds now is newer */
        g = NULL;
    }
    if (!g) {
        g = srv_store_load_over(g_storage.store, id);
        if (!g) {
            /* gone from the database, or cannot be read: not ours to play */
            srv_logf(SRV_LOG_WARN, "game.takeover_failed", "node=%s game=%s the game was taken "
                    "over but cannot be loaded; lease given back", srv_node_name(), id);
            srv_lease_release(id);
            return;
        }
        srv_game_add(g);
        took_over(g);
    }
    g->lease = SRV_LEASE_HELD;
    g->lease_at = srv_now_ms();
    if (g->status == GAME_OVER) {
        srv_lease_release(id);
        return;
    }
    srv_game_kick_bots(g);
}

void srv_cluster_lost(const char *id)
{
    srv_game *g = srv_game_held(id);
    if (!g || g->lease != SRV_LEASE_HELD)
        return;
    g->lease = SRV_LEASE_LOST;
    srv_logf(SRV_LOG_INFO, "game.lease_lost", "node=%s game=%s this node lost the game's lease; "
            "its clients are sent away", srv_node_name(), id);
    /* its clients reconnect (through the load balancer) to whoever has it */
    for (srv_client *c = g->clients; c; c = c->gnext)
        if (c->wsi && !c->closing) {
            c->closing = 1;
            c->close_why = "moved: this game is played by another node now; reconnect";
            lws_callback_on_writable(c->wsi);
        }
}


/* A client asks this node for game *gp: 0 this node plays it (*gp may be a
 * fresh copy, read now from the database), 1 another node does (its name in
 * owner), -1 the database cannot be asked now (why). */
static int claim(srv_game **gp, char *owner, size_t on, char *why, size_t n)
{
    srv_game *g = *gp;
    if (!srv_lease_on() || srv_game_playable(g))
        return 0;
    if (g->lease == SRV_LEASE_HELD || g->reload_due) {
        /* ours, but not renewed lately: the database is away */
        snprintf(why, n, "the database cannot be reached: the game waits until it is back");
        return -1;
    }
    int r = srv_lease_take(NULL, g->id, owner, on, why, n);
    if (r <= 0)
        return r ? -1 : 1;
    if (!unreferenced(g)) {
        /* an old copy whose clients are still being sent away: the next
           renewal lists the game as ours and reads it again (srv_cluster_won) */
        snprintf(why, n, "this game is changing nodes; try again in a moment");
        return -1;
    }
    char id[SRV_ID_HEX + 1];
    snprintf(id, sizeof id, "%s", g->id);
    drop(g);
    *gp = NULL;
    g = srv_store_load_over(g_storage.store, id);
    if (!g) {
        srv_lease_release(id);
        snprintf(why, n, "game %s cannot be read from the database", id);
        return -1;
    }
    srv_game_add(g);
    took_over(g);
    g->lease = SRV_LEASE_HELD;
    g->lease_at = srv_now_ms();
    *gp = g;
    srv_game_kick_bots(g);
    return 0;
}

int srv_cluster_ws(srv_client *c, srv_game **gp)
{
    if (!srv_lease_on())
        return 0;
    char owner[SRV_NODE_MAX + 1] = "", why[300];
    int r = claim(gp, owner, sizeof owner, why, sizeof why);
    if (r == 0)
        return 0;
    if (r < 0) {
        srv_client_send_json(c, json_pack("{s:s,s:s,s:s}", "type", "error", "code", "storage",
                                          "message", why));
        return 1;
    }
    /* the browser reconnects with ?game=ID&node=OWNER, which the load
       balancer sends to that node (packaging/haproxy.cfg.in) */
    srv_client_send_json(c, json_pack("{s:s,s:s,s:s}", "type", "moved", "game", (*gp)->id,
                                      "node", owner));
    if (c->wsi) {
        c->closing = 2; /* after the frame */
        c->close_why = "moved: this game is played by another node";
        lws_callback_on_writable(c->wsi);
    }
    return 1;
}

/* 307 to the same path with node=OWNER in the query. */
static int redirect(struct lws *wsi, const char *path, const char *owner)
{
    char loc[512];
    int l = snprintf(loc, sizeof loc, "%s?node=%s", path, owner);
    if (l < 0 || (size_t)l >= sizeof loc)
        return srv_http_error(wsi, 500, "redirect too long");
    char body[200];
    int bl = snprintf(body, sizeof body, "{\"error\":\"moved\",\"node\":\"%s\"}", owner);
    unsigned char buf[LWS_PRE + 2048];
    unsigned char *start = buf + LWS_PRE, *p = start, *end = buf + sizeof buf;
    if (lws_add_http_common_headers(wsi, 307, "application/json",
                                    (lws_filepos_t)bl, &p, end) ||
        lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_LOCATION, (const unsigned char *)loc,
                                     l, &p, end) ||
        lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL,
                                     (const unsigned char *)"no-store", 8, &p, end) ||
        srv_http_security_headers(wsi, &p, end) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    srv_metrics_http_status(307);
    memcpy(start, body, (size_t)bl);
    if (lws_write(wsi, start, (size_t)bl, LWS_WRITE_HTTP_FINAL) != bl)
        return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

int srv_cluster_http(struct lws *wsi, srv_game **gp, const char *path, int *rc)
{
    if (!srv_lease_on())
        return 0;
    char owner[SRV_NODE_MAX + 1] = "", why[300];
    int r = claim(gp, owner, sizeof owner, why, sizeof why);
    if (r == 0)
        return 0;
    *rc = r < 0 ? srv_http_error(wsi, 503, why) : redirect(wsi, path, owner);
    return 1;
}

void srv_cluster_created(srv_game *g)
{
    if (!srv_lease_on())
        return;
    char owner[SRV_NODE_MAX + 1], why[300];
    /* a new id: nobody else holds it. When the database cannot be asked,
       the first client that joins takes the lease (claim) */
    if (srv_lease_take(g, g->id, owner, sizeof owner, why, sizeof why) < 0)
        srv_logf(SRV_LOG_WARN, "game.lease_pending", "node=%s game=%s the game is made without "
                "its lease yet: %s", srv_node_name(), g->id, why);
    char ev[40];
    snprintf(ev, sizeof ev, "game %s", g->id);
    srv_lease_notify(ev);
}

/* ---- the other nodes' games, for the lobby ------------------------------------- */
/* Each node lists the games it plays from memory and the others' from this
 * directory: filled from the lease table at each (re)connection and kept up
 * by the events "game ID" (the receiver re-reads the game). */
typedef struct dir_entry {
    struct dir_entry *next;
    char id[SRV_ID_HEX + 1];
    json_t *summary;
} dir_entry;
static dir_entry *dir;

static dir_entry **dir_find(const char *id)
{
    dir_entry **pp = &dir;
    while (*pp && strcmp((*pp)->id, id))
        pp = &(*pp)->next;
    return pp;
}

static void dir_forget(const char *id)
{
    dir_entry **pp = dir_find(id), *e = *pp;
    if (!e)
        return;
    *pp = e->next;
    json_decref(e->summary);
    free(e);
}

static void dir_reread(const char *id)
{
    srv_game *g = srv_game_held(id);
    if (g && g->lease == SRV_LEASE_HELD) { /* ours: listed from memory */
        dir_forget(id);
        return;
    }
    if (g && unreferenced(g))
        drop(g);
    srv_game *copy = srv_store_load_over(g_storage.store, id);
    if (!copy || copy->status == GAME_OVER) {
        dir_forget(id);
        if (copy)
            srv_game_free(copy);
        return;
    }
    dir_entry **pp = dir_find(id), *e = *pp;
    if (!e) {
        e = calloc(1, sizeof *e);
        if (!e) {
            srv_game_free(copy);
            return;
        }
        snprintf(e->id, sizeof e->id, "%s", id);
        *pp = e;
    }
    json_decref(e->summary);
    e->summary = srv_game_summary(copy);
    srv_game_free(copy);
}

void srv_cluster_list(json_t *a, size_t max)
{
    for (dir_entry *e = dir; e && json_array_size(a) < max; e = e->next) {
        srv_game *g = srv_game_held(e->id);
        if (g && g->lease == SRV_LEASE_HELD)
            continue; /* ours now (taken over): listed already */
        if (json_is_true(json_object_get(e->summary, "unlisted")))
            continue; /* an unlisted practice game of another node (lobby.c) */
        json_array_append(a, e->summary);
    }
}

static int signature(const srv_game *g)
{
    int sig = g->status + 1;
    for (int i = 0; i < g->nseats; i++)
        if (g->seat[i].claimed)
            sig |= 8 << i;
    return sig;
}

void srv_cluster_committed(srv_game *g)
{
    if (!srv_lease_on() || g->lease != SRV_LEASE_HELD || g->npending || g->meta_dirty)
        return;
    int sig = signature(g);
    if (sig == g->cl_sig)
        return;
    g->cl_sig = sig;
    char ev[40];
    snprintf(ev, sizeof ev, "game %s", g->id);
    srv_lease_notify(ev);
    if (g->status == GAME_OVER) {
        /* nobody plays it any more: the lease goes; the game stays in
           memory for its viewers as any finished game */
        srv_lease_release(g->id);
        g->lease = SRV_LEASE_NONE;
    }
}

void srv_cluster_event(const char *payload)
{
    /* "game ID": it changed on its node (made, seats taken, started, over);
       the copy here, if any, is out of date: read it again */
    if (!strncmp(payload, "game ", 5) && strlen(payload + 5) == SRV_ID_HEX)
        dir_reread(payload + 5);
    /* "handback NODE": a node stopping on purpose let its leases run out
       (lease.c): claim its games now, not at the next renewal */
    else if (!strncmp(payload, "handback ", 9))
        srv_lease_renew_now();
}

/* ---- idle games give their lease back ---------------------------------------- */
/* A game that nobody visits leaves memory (lobby.c, turn-based games waiting
 * on a person for days) and its lease goes with it: the row is deleted, so
 * no node holds it and the next node asked for it (a client's join or watch,
 * a summary, or its clock running out: srv_cluster_wake) takes the lease and
 * loads it from its moves. The renewals of this node that were on their way
 * when the release was asked still list the game: it is not read back for
 * them (released lately). */
#define RELEASED_MAX 256
static struct {
    char id[SRV_ID_HEX + 1];
    int64_t at;
} released[RELEASED_MAX];
static int nreleased_next;

void srv_cluster_evicted(const srv_game *g)
{
    if (!srv_lease_on() || g->lease != SRV_LEASE_HELD)
        return;
    srv_lease_release(g->id);
    snprintf(released[nreleased_next].id, sizeof released[0].id, "%s", g->id);
    released[nreleased_next].at = srv_now_ms();
    nreleased_next = (nreleased_next + 1) % RELEASED_MAX;
    srv_logf(SRV_LOG_INFO, "game.released", "node=%s game=%s the game left memory, its lease "
            "given back", srv_node_name(), g->id);
}

int srv_cluster_released_lately(const char *id)
{
    int64_t since = srv_now_ms() - 2 * srv_lease_ms();
    for (int i = 0; i < RELEASED_MAX; i++)
        if (released[i].at > since && !strcmp(released[i].id, id))
            return 1;
    return 0;
}

int srv_cluster_wake(const char *id, srv_game **gp)
{
    char owner[SRV_NODE_MAX + 1] = "", why[300];
    *gp = NULL;
    int r = srv_lease_take(NULL, id, owner, sizeof owner, why, sizeof why);
    if (r <= 0)
        return 0; /* another node holds it (its timers run there), or the
                     database cannot be asked now: the next second again */
    srv_game *g = srv_store_load_over(g_storage.store, id);
    if (!g) {
        srv_lease_release(id);
        return -1;
    }
    srv_game_add(g);
    g_tables.games_reloaded++;
    g->lease = SRV_LEASE_HELD;
    g->lease_at = srv_now_ms();
    *gp = g;
    return 1;
}

const srv_table_hooks srv_cluster_table_hooks = {playable, srv_cluster_evicted,
                                                 srv_cluster_committed, wake};

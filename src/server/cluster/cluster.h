/* cluster/cluster.h: `chartered serve` as one node of several over one PostgreSQL
 * database (docs/cluster.md): the node's name and cluster flags (cluster.c),
 * the game leases and cross-node events on their own thread and database
 * connection (lease.c), and what GET /api/health says of the node
 * (health.c). Everything here is called on the event loop unless it says
 * otherwise.
 */
#ifndef CHARTERED_CLUSTER_H
#define CHARTERED_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "game/game.h"

#define SRV_NODE_MAX 40          /* a node's name: 1..40 of [A-Za-z0-9._-] */
#define SRV_LEASE_DEFAULT_S 6    /* --lease-seconds: failover waits at most this */
#define SRV_LEASE_MIN_S 2
#define SRV_LEASE_MAX_S 120

/* ---- the node (cluster.c) --------------------------------------------------- */
/* A cluster flag of `chartered serve` (--node, --cluster, --lease-seconds):
 * 1 taken, 0 not a cluster flag, -1 a bad value (said on stderr). */
int srv_cluster_flag(const char *flag, const char *value);
/* The node's name: --node, else HOSTNAME-PID. */
const char *srv_node_name(void);
/* The PostgreSQL connection string of the leases and events: --cluster CONN,
 * or --db with --cluster on; NULL: a single node (--cluster off, the
 * default, on either back end). */
const char *srv_cluster_conninfo(const char *db);
/* -1 (why) when --cluster on is asked with a --db that is not PostgreSQL. */
int srv_cluster_mode_check(int db_is_pg, char *why, size_t n);
/* The lease's length in ms (--lease-seconds). */
int64_t srv_lease_ms(void);
/* The usage lines of the cluster flags. */
const char *srv_cluster_usage(void);
/* 1 when a node name is acceptable (letters, digits, '.', '_', '-'). */
int srv_node_name_ok(const char *name);

/* ---- leases and events (lease.c) ------------------------------------------- */
/* Start the lease thread with its own connection (conninfo); -1 with why. */
int srv_lease_start(const char *conninfo, char *why, size_t n);
void srv_lease_stop(void);
/* At a graceful stop, before srv_lease_stop: the thread's last act is to
 * make this node's leases run out now and tell the other nodes. */
void srv_lease_handback(void);
/* Another node handed its leases back: renew (and claim) at once. */
void srv_lease_renew_now(void);
/* 1 when leases are in use (a cluster); 0: this node owns every game. */
int srv_lease_on(void);
struct srv_game;
/* Take the lease of game id now (a new game; a game a client asks for),
 * on the loop's own connection: 1 taken (g, when not NULL, is marked held),
 * 0 another node holds it (its name in owner), -1 the database cannot be
 * asked (why). A single node always takes it. */
int srv_lease_take(struct srv_game *g, const char *id, char *owner, size_t on, char *why,
                   size_t n);
/* Give the lease of a finished game back. */
void srv_lease_release(const char *id);
/* 1 when the node's leases are good at `now`: a single node, or the last
 * renewal is recent enough that no other node can have taken them. */
int srv_lease_valid(int64_t now);
/* The hooks of this layer in the game layer (cluster.c; serve.c registers
 * them with srv_tables_register): g playable here, g evicted, g committed,
 * a turn-based game woken. */
extern const srv_table_hooks srv_cluster_table_hooks;
/* Tell the other nodes that something changed: a short text of ids
 * ("game ID", "chat ID", "lobby"); they re-read it. */
void srv_lease_notify(const char *payload);
/* The state of the lease connection: 1 up, 0 down; *since when it changed
 * (unix ms), *why the last error. */
int srv_lease_link(int64_t *since, const char **why);
/* On the event loop (woken by lws_cancel_service): apply what the thread
 * found (leases won or lost, games to take over, events). */
void srv_lease_drain(void);

/* Called by srv_lease_drain (cluster.c): game id is now this node's (load
 * it if not in memory), or is not any more (stop playing it), or another
 * node announced a change. */
void srv_cluster_won(const char *id);
void srv_cluster_lost(const char *id);
void srv_cluster_event(const char *payload);

/* Hooks of the other files (cluster.c). A WebSocket join or watch of *gp:
 * 0 go on (*gp may have been read again), 1 answered (the client was told
 * which node plays it, or the storage error). */
struct srv_client;
struct lws;
int srv_cluster_ws(struct srv_client *c, struct srv_game **gp);
/* The same for an HTTP request that changes game *gp (join, rematch): 1
 * answered with a 307 to path?node=OWNER, or 503 (*rc the callback's
 * return). */
int srv_cluster_http(struct lws *wsi, struct srv_game **gp, const char *path, int *rc);
/* A game was just made here: take its lease, tell the other nodes. */
void srv_cluster_created(struct srv_game *g);
/* After a commit of g: when its status or claimed seats changed, tell the
 * other nodes (after the commit: they re-read it); a finished game's lease
 * is given back. */
void srv_cluster_committed(struct srv_game *g);
/* Append the other nodes' games in play to a lobby list (up to max). */
void srv_cluster_list(json_t *a, size_t max);
/* The tick: drop copies of other nodes' games. */
void srv_cluster_tick(void);
/* Game g leaves memory (an idle turn-based game, lobby.c): its lease, when
 * this node holds it, is given back (the row deleted), so that whichever
 * node is asked for it next takes it. */
void srv_cluster_evicted(const struct srv_game *g);
/* 1 when this node gave the lease of game id back within the last two
 * lease lengths: a renewal's list sent before the release still names it,
 * and must not read it back (lease.c). */
int srv_cluster_released_lately(const char *id);
/* A turn-based game out of memory whose clock ran out (turnbased.c): take
 * its lease and load it; 1 loaded (*gp), 0 another node holds it, -1 it
 * cannot be read (its lease given back). */
int srv_cluster_wake(const char *id, struct srv_game **gp);

#endif

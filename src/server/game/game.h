/* game/game.h: the game layer of the server (src/server/README.md): the
 * tables in memory (lobby), moves and their commit, views and their deltas,
 * what each seat may see of the log, bots, turn-based clocks, results,
 * limits, chat. The server decodes requests, asks libchartered, and encodes
 * answers; no game rule lives here.
 *
 * Threading: everything here is owned by the one event-loop thread, except
 * the bot and view workers (bots.c, views.c), which only see copies of
 * states handed to them through a locked queue.
 */
#ifndef CHARTERED_SERVER_GAME_H
#define CHARTERED_SERVER_GAME_H

#include "people/people.h"
#include "game/types.h"
/* A commit (or a creation) the database refused, with its reason; a commit
 * that went through. Both on the event loop. */
void srv_storage_failed(const char *why);
void srv_storage_ok(void);
/* Failed commits in a row (0: the last one went through); *since: when the
 * first of them failed, *why: the database's last reason (health.c). */
int srv_storage_failing(int64_t *since, const char **why);
/* ms left before the next write may be tried (0: now). */
int64_t srv_storage_wait_ms(int64_t now);
/* Periodic: once the pause is over, the bots are asked to move again. */
void srv_storage_tick(int64_t now);
/* At the stop: a summary if the database still refuses writes. */
void srv_storage_stop_summary(void);
enum { SRV_LIMIT_CREATES_PER_MIN, SRV_LIMIT_WAITING_PER_ADDR, SRV_LIMIT_WAITING_MAX,
       SRV_LIMIT_WAITING_EXPIRE_S, SRV_LIMIT_CONNS_PER_ADDR, SRV_LIMIT_ABANDON_S,
       SRV_LIMIT_LOOPBACK, SRV_LIMIT_REQUEST_S, SRV_LIMIT_COUNT };
/* The limit's value: its environment variable, else its default. */
long long srv_limit(int which);
/* May addr create a game now? 0, else the HTTP status (429, 503) with the
 * reason and the seconds to wait. Takes a creation from its bucket. */
int srv_limit_create(const char *addr, int64_t now, char *why, size_t n, int *retry_s);
/* May g, just made by addr, wait for players? 0, else the status (429: too
 * many of addr's; 503: too many in all) with the reason. */
int srv_limit_waiting(const srv_game *g, const char *addr, char *why, size_t n, int *retry_s);
/* g was created by addr (counts it while it waits); g leaves "waiting". */
void srv_limit_created(srv_game *g, const char *addr);
void srv_limit_unwait(srv_game *g);
/* A WebSocket connection of addr: 0, or -1 when it has too many. */
int srv_limit_connect(const char *addr);
void srv_limit_disconnect(const char *addr);
/* Periodic: waiting games expire, games nobody plays any more are abandoned. */
void srv_limits_tick(int64_t now);
/* A practice game of `owner` against bots only, ended by them as abandoned
 * (POST /api/games/ID/end): 0, or the HTTP status and *why. */
int srv_game_end_practice(srv_game *g, const char *owner, const char **why);
/* A moderator's abort: g over, stored as "aborted" (no result, no rating):
 * 0, or 409 and *why (over already; a move being stored: try again). */
int srv_game_abort(srv_game *g, const char **why);
/* Take g out of the id hash (lobby.c). */
void srv_game_unhash(srv_game *g);
/* The game with that id: in memory, else a finished game read back from the
 * database (and held again until evicted). NULL: no such game. */
srv_game *srv_game_find(const char *id);
/* The game only if it is in memory now. */
srv_game *srv_game_held(const char *id);
/* Periodic (the tick): drop from memory the finished games no client has
 * watched for the eviction delay (CHARTERED_EVICT_SECONDS, default 600). */
void srv_games_evict(int64_t now_ms);
void srv_game_add(srv_game *g);
/* The "game.created" log line of a new game (lobby.c): how it was made
 * ("lobby", "rematch", "challenge") and by whom (a name, never a token). */
void srv_game_log_created(const srv_game *g, const char *how, const char *by);
/* Invite links (lobby.c, issue 28 item 7): 1 when seat i is a reserved
 * seat nobody holds yet whose token is known (its link can be shown again). */
int srv_seat_invite_open(const srv_game *g, int i);
/* 1 when owner (a session's "u:ID"/"g:SID") created g (holds its creator seat). */
int srv_game_creator_is(const srv_game *g, const char *owner);
/* A new token for reserved seat i (the old link ends), stored with the next
 * commit; 0, else an HTTP status and why. */
int srv_seat_new_invite(srv_game *g, int i, char *why, size_t n);
/* Create a game from a POST /api/games body; the creator (a session, or
 * NULL/none: nobody is seated) sits at once. NULL with the reason in why. */
srv_game *srv_game_create(json_t *req, const srv_ident *creator, char *why, size_t n);
/* The seat of g bound to owner, or -1. */
int srv_seat_of(const srv_game *g, const char *owner);
/* Bind seat s to the session id (its first claim), or check it is bound to
 * it: SEAT_BOUND, else the refusal (with why). */
enum { SEAT_BOUND = 0, SEAT_NO_SESSION, SEAT_TAKEN };
int srv_seat_bind(srv_game *g, int s, const srv_ident *id, char *why, size_t n);
/* The summary of a game as in GET /api/games. */
json_t *srv_game_summary(const srv_game *g);
json_t *srv_options_json(void);
/* Free a game that no client or bot job refers to. */
void srv_game_free(srv_game *g);
/* Who sits in seat i, as every listing shows it: {seat, kind, name[, bot,
 * strength]}; callers add what their answer needs (token, link, claimed). */
json_t *srv_seat_identity_json(const srv_game *g, int i);
int srv_seats_from_store(srv_game *g, json_t *seats, char *why, size_t n);
/* Setup as stored (the game-file "setup" object). */
json_t *srv_setup_json(const srv_game *g);
int srv_setup_from_json(srv_game *g, json_t *setup, char *why, size_t n);
/* Start the state from the setup (ch_new). */
int srv_game_start_state(srv_game *g, char *why, size_t n);
/* Claim seat s (POST join or first WS join): may start the game. */
void srv_seat_claim(srv_game *g, int s);
enum { MOVE_OK = 0, MOVE_NOT_STARTED, MOVE_NOT_YOUR_TURN, MOVE_ILLEGAL,
       MOVE_STALE, MOVE_NOMEM, MOVE_NO_LEASE };
/* A move refused with rc (MOVE_*): chartered_moves_refused_total by reason
 * (play.c; net/metrics.c). */
void srv_count_refused(int rc);
/* Check and apply a move of seat s made for decision `decision` (-1: any).
 * The move becomes pending (committed by the next commit). The library's
 * reason for a refused move is written in the language lang ("en", "nl",
 * "ja": the client's; chx_reason). */
int srv_play(srv_game *g, int s, const char *text, int decision, const char *lang,
             char *why, size_t n);
/* 1 when seat s must decide now. */
int srv_seat_decides(const srv_game *g, int s);
/* The state frame for client c (with LWS_PRE room), or NULL: in a buffer
 * the loop keeps, valid until the next call (written at once, not freed). */
srv_out *srv_state_frame(srv_game *g, srv_client *c);
/* After a commit or a change: every client gets a fresh state, bots move. */
void srv_game_changed(srv_game *g);
/* Bots (and stand-ins for away humans) that must decide get a job. */
void srv_game_kick_bots(srv_game *g);
/* Game is at decision n with everything committed. */
void srv_commit_schedule(srv_game *g);
/* Periodic: turn timers. */
void srv_timers_check(int64_t now);
/* Rebuild the state from a setup and a move list (resume, replay). */
int srv_replay_moves(srv_game *g, json_t *moves, int upto, char *why, size_t n);
/* The length of a day of the clocks (CHARTERED_DAY_SECONDS, default 86400 s). */
int64_t srv_day_ms(void);
/* How long a person may take for one decision: days for turn-based games,
 * the turn timer for live ones; 0: no limit. */
int64_t srv_game_clock_ms(const srv_game *g);
/* At most this many turn-based games in play per player (docs/protocol.md). */
#define SRV_TURN_GAMES_MAX 50
/* The turn-based games in play of a session's owner ("u:ID"/"g:SID"), in
 * memory and (accounts) out of it. */
int srv_turn_count(const char *owner, int64_t user_id);
/* Periodic: read back the games out of memory whose clock ran out or whose
 * bot must move. */
void srv_turn_wake(int64_t now_ms);
srv_bots *srv_bots_start(int nthreads);
void srv_bots_stop(srv_bots *b);
/* Apply the finished jobs (event-loop thread). */
void srv_bots_drain(srv_bots *b);
/* A task on the bot workers: run(arg) on a worker, then done(arg) on the
 * loop (srv_bots_drain). analysis 0: in the line of games with a person (a
 * person waits: hints); 1: after every bot, one at a time (analysis.c).
 * Tasks still queued at srv_bots_stop are dropped without done: their
 * owner frees arg. 0, or -1 (arg untouched, nothing queued). */
int srv_bots_task(srv_bots *b, int analysis, void (*run)(void *), void (*done)(void *),
                  void *arg);
/* May g, just made by addr, run? 0, else the status (429 too many of
 * addr's, 503 too many in all) with the reason and the seconds to wait. */
int srv_bots_admit(const srv_game *g, const char *addr, char *why, size_t n, int *retry_s);
/* ---- the analysis of a finished game, and hints (analysis.c; issue 33) ---- */
/* Its shares, from the environment (docs/analysis.md): CPU seconds for a
 * game (CHARTERED_ANALYSIS_CPU, 60) spread over its decisions at most
 * cpu_decision each; or playouts per decision (CHARTERED_ANALYSIS_ITERATIONS,
 * 0: the CPU budget); analyses a person may ask for a day
 * (CHARTERED_ANALYSES_PER_DAY, 5); a hint's playouts
 * (CHARTERED_HINT_ITERATIONS, 1500). */
typedef struct srv_anl_limits {
    double cpu_game, cpu_decision;
    long iterations;
    int per_day;
    long hint_iterations;
} srv_anl_limits;
void srv_analysis_limits(srv_anl_limits *l);
/* How a request is answered (on the loop, once): status, body (taken). */
typedef void (*srv_anl_answer)(void *ctx, unsigned status, json_t *body);
/* The analysis of game (by id): 200 done (with it), 202 under way (its
 * progress), 404 none (docs/protocol.md "Analysis"). */
void srv_analysis_get(const char *game, srv_anl_answer cb, void *ctx);
/* Ask for the analysis of finished game g for requester (a session's
 * owner): 200 already done, 202 queued or under way, 401/403/409/429/503
 * refused; node: the node's name, stored with the row. origin: a guest's
 * network (srv_client_network), whose guests share one share; NULL or ""
 * for an account. */
void srv_analysis_request(srv_game *g, const char *requester, const char *origin,
                          const char *node, srv_anl_answer cb, void *ctx);
/* This node's analyses: queued, running, done, their CPU seconds. */
json_t *srv_analysis_stats(void);
/* After the bot workers stopped: the requests left are freed. */
void srv_analysis_stop(void);
/* A hint: the bot's preferred move at st for seat, from seat's view only
 * (ch_review_decision against the seat's first legal move), with a fixed
 * seed and budget: the same whatever the hidden cards are. CH_OK, or an
 * error with err. */
typedef struct srv_hint {
    ch_move best, other;        /* the bot's move, the first legal one */
    double best_win, other_win; /* the seat's chance of winning after each */
    int narms;                  /* moves compared */
    int same;                   /* best is other */
} srv_hint;
int srv_hint_compute(const ch_state *st, int seat, uint64_t seed, long iterations,
                     srv_hint *out, ch_msg *err);
/* May a seat of g have a hint (unrated, with a bot, being played)? 0, else
 * the status (403, 409) and why. */
int srv_hint_allowed(const srv_game *g, const char **why);
/* A hint for the seat of g that owner holds and that decides now: 200
 * {move, text, chance, other, ...} (the seat's hints counted), else 403
 * (rated, no bot), 409 (not its turn), 503. */
void srv_hint_request(srv_game *g, const char *owner, srv_anl_answer cb, void *ctx);
srv_views *srv_views_start(int nthreads);
void srv_views_stop(srv_views *v);
/* Take finished views (event-loop thread). */
void srv_views_drain(srv_views *v);
void srv_views_release(srv_game *g);
enum { CHAT_TABLE = 0, CHAT_SPECTATORS = 1 };
/* A chat message of client c: NULL when sent, else the error code (why). */
const char *srv_chat_say(srv_client *c, const char *text, char *why, size_t n);
/* A mute (or unmute) of another seat by a player: NULL or the error code. */
const char *srv_chat_mute(srv_client *c, json_t *seat, json_t *on, char *why, size_t n);
/* The last messages c may read, as one chat frame (after a join/watch). */
void srv_chat_history(srv_client *c);
/* Every message of g that c may read (c NULL: all), oldest first. */
json_t *srv_chat_list(srv_game *g, const srv_client *c, int limit);
void srv_chat_finalize(void);



/* What the game layer asks of a connection, answered by the API's WebSocket
 * sessions (ws_session.c), which serve.c registers at the start: queue a
 * frame (j released), a state frame is due. Unregistered, both do nothing
 * (j is released). */
typedef struct srv_client_ops {
    void (*send_json)(srv_client *c, json_t *j);
    void (*want_state)(srv_client *c);
} srv_client_ops;
void srv_clients_register(const srv_client_ops *ops);
void srv_client_send_json(srv_client *c, json_t *j);
void srv_client_want_state(srv_client *c);

/* ---- commits (commit.c) ---- */
/* The commit at the end of a loop turn (commit.c). */
void srv_commit_now(lws_sorted_usec_list_t *sul);
/* After a commit: the game's first k pending moves are in the database
 * (ok 1), or nothing of it is (the game is rebuilt from the database; ok 0:
 * the database refused, clients hear "storage"; ok SRV_STORE_CONFLICT:
 * another writer stored one of those move numbers first, "conflict"). */
void srv_commit_done(srv_game *g, int k, unsigned away, int ok);
/* The writer thread's hooks for the game layer's batches (serve.c gives
 * them to srv_committer_start). */
extern const srv_commit_hooks srv_commit_hooks_game;

/* ---- the layer above: a cluster (game.h's hooks, registered by serve.c) ---- */
/* A game's lease on a cluster (srv_game.lease). */
enum { SRV_LEASE_NONE = 0, SRV_LEASE_HELD = 1, SRV_LEASE_LOST = 2 };
/* What the game layer asks of the cluster (cluster.c registers it); each may
 * be NULL: a single node. playable(g): this node may play g now (it holds
 * g's lease and it is good); evicted(g): g leaves memory; committed(g): a
 * commit of g is back; wake(id, &g): a turn-based game out of memory whose
 * clock ran out: 1 loaded (g, NULL when it cannot be read), 0 another node
 * holds it. */
typedef struct srv_table_hooks {
    int (*playable)(const srv_game *g);
    void (*evicted)(const srv_game *g);
    void (*committed)(srv_game *g);
    int (*wake)(const char *id, srv_game **gp);
} srv_table_hooks;
void srv_tables_register(const srv_table_hooks *h);
/* 1 when this node may play g now: not waiting to be rebuilt (reload_due),
 * and on a cluster its lease is held and good. */
int srv_game_playable(const srv_game *g);

/* ---- games stored and loaded (saved.c) ---- */
int srv_store_create_game(srv_store *s, srv_game *g);
/* Load every game in play (replaying moves) after checking the file
 * (PRAGMA quick_check). Each game that cannot be loaded is reported with its
 * id and reason on standard error; with any of them, or a damaged file, -1
 * (refuse to start) unless skip_damaged. Returns the count or -1. */
int srv_store_load(srv_store *s, int skip_damaged, char *why, size_t n);
/* A game read from the database (moves replayed): a finished one, or a
 * turn-based one out of memory (turnbased.c). NULL: none. */
srv_game *srv_store_load_over(srv_store *s, const char *id);
/* The same on another thread's connection db (reads.c). */
srv_game *srv_store_load_db(db_conn *db, const char *id);
/* Summaries (as GET /api/games) of the newest `limit` finished games. */
json_t *srv_store_list_over(srv_store *s, int limit);
/* The same lists from the rows only, on any thread's connection (reads.c);
 * then, on the loop, srv_list_held puts the summaries of games held in
 * memory in place of their rows (over), or drops them (in play: listed from
 * memory). */
json_t *srv_store_list_over_db(db_conn *db, int limit);
json_t *srv_store_list_idle_db(db_conn *db, int limit);
void srv_list_held(json_t *a, int over);
/* Summaries of the newest `limit` turn-based games in play that are not in
 * memory (turnbased.c: a game nobody looks at is dropped from memory). */
json_t *srv_store_list_idle(srv_store *s, int limit);

#endif

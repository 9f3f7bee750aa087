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

#define SRV_LOG_RING 64       /* log entries kept in memory per game */
#define SRV_LOG_FIRST 50      /* entries sent on a join/watch */
/* The commit runs once the current loop turn is done: the moves of one turn
 * share a transaction. (A longer window, 1 ms, measured worse: p50 3 -> 9 ms
 * and p99 up at 5,000 moves/s.) */
#define SRV_COMMIT_WINDOW_US 1
typedef struct srv_game srv_game;
typedef struct srv_bots srv_bots;
typedef struct srv_views srv_views;

/* The tables of this server (lobby.c defines it; serve.c starts the
 * workers and the loop). */
typedef struct srv_tables {
    srv_bots *bots;
    srv_views *views;           /* NULL: views are built on the loop */
    srv_game *hash[4096];
    srv_game *games;            /* every game, newest first */
    int ngames;
    srv_game *commit_list;      /* games with something to write */
    int commit_scheduled;
    lws_sorted_usec_list_t commit_sul;
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
} srv_tables;
extern srv_tables g_tables;
enum { SEAT_HUMAN = 0, SEAT_BOT = 1 };
enum { GAME_WAITING = 0, GAME_PLAYING = 1, GAME_OVER = 2 };
typedef struct srv_seat {
    int kind;                   /* SEAT_* */
    char name[32];
    char bot[16];               /* bot seats: random, greedy, ismcts */
    int strength;               /* ismcts: 1..3 */
    /* the invite token in clear, in memory only (never stored): a reserved
       seat's while it is unclaimed, so that its creator can have the link
       again (srv_seat_invite_open), else only between its making and the
       answer that hands it out */
    char token[SRV_TOKEN_HEX + 1];
    char token_hash[SRV_HASH_HEX + 1]; /* human seats: what is kept (tokens.c) */
    char owner[SRV_OWNER_MAX];  /* the session the seat is bound to: "u:ID"
                                   (an account) or "g:SID" (a guest); "" none */
    unsigned muted;             /* seats whose chat this seat does not get (chat.c) */
    int claimed;                /* bound to a session (or, in games from
                                   before sessions, its token was used) */
    int open;                   /* an open seat: anyone may take it through
                                   POST /api/games/ID/join; else reserved: only
                                   through its invite link (token) */
    int nconn;                  /* connections holding this seat now */
    int away;                   /* a bot plays for this human (turn timer) */
    ch_bot *bot_inst;           /* the bot (bot seats) or stand-in (away) */
    int job;                    /* a bot job for this seat is in flight */
} srv_seat;
/* One move as the log shows it: everyone in `party` sees `full`, everyone
 * else (spectators too) sees `masked`. */
typedef struct srv_log {
    int n;
    int player;
    unsigned party;             /* bit s: seat s sees the full entry */
    char full[96];
    char masked[48];
    /* the move in words per language (chx_describe_for): [0] what everyone
       may read, [1] what the mover reads; NULL when not made. They point
       into `words`, one block for them all (mask.c). */
    const char *text[3][2];
    char *words;
    unsigned serial;            /* new at each change (mask.c: what the last
                                   frame wrote of it is kept by this key) */
} srv_log;
/* At most this many moves of a game wait for the database at once: a move
 * taken back after a failed commit must leave the log entries a join shows
 * (SRV_LOG_FIRST of the SRV_LOG_RING kept) as they were. */
#define SRV_PENDING_MAX (SRV_LOG_RING - SRV_LOG_FIRST)
struct srv_game {
    char id[SRV_ID_HEX + 1];
    ch_setup setup;
    char arrangement[32];
    char *position;             /* starting position (docs/formats.md
                                   "Positions"), or NULL: a new game */
    char *variant;              /* the variant file's text it was set up from
                                   (docs/variants.md), or NULL: the rulebook's */
    char variant_name[CH_VARIANT_NAME_LEN]; /* its "variant NAME" line      */
    ch_state st;
    int nseats;
    srv_seat seat[CH_MAX_PLAYERS];
    int status;                 /* GAME_* */
    int turn_timer;             /* seconds, 0 = off */
    int practice;               /* an unrated practice game: its creator chose the
                                   seed, which every seat is shown (lobby.c) */
    int days;                   /* turn-based: days per move (1, 2, 3, 7); 0 live */
    int creator_seat;           /* the seat its creator took at once, -1 */
    char rematch[SRV_ID_HEX + 1]; /* over: the game proposed after it ("": none) */
    int chat_next;              /* the next chat message's number (0: not read yet) */
    int64_t created;            /* unix seconds */
    int nmoves;                 /* moves applied = the decision number */
    int ncommitted;             /* moves known to be in the database */
    srv_log log[SRV_LOG_RING];  /* entry n at log[n % SRV_LOG_RING] */
    srv_pending *pending;       /* moves waiting for the commit */
    int npending, cap_pending;
    int meta_dirty;             /* seats (claims) or status to write */
    int queued;                 /* on the server's commit list */
    srv_game *next_commit;
    int64_t decide_since_ms;    /* when the current decision began */
    int32_t scores[CH_MAX_PLAYERS];
    unsigned winners;
    srv_client *clients;        /* connections attached to this game */
    /* The latest view of each perspective ([0] spectator, [s+1] seat s) and
       its decision, kept for the next move's diff, and the JSON Patch that
       turns the view of decision vbase into it (views.c, jsondiff.c): built
       once per move and perspective, shared by the clients that see it. */
    struct srv_view *vview[CH_MAX_PLAYERS + 1];
    int vdec[CH_MAX_PLAYERS + 1];    /* valid when vview[k] is set */
    const char *vpatch[CH_MAX_PLAYERS + 1]; /* vview[k]->patch, or NULL */
    int vbase[CH_MAX_PLAYERS + 1];   /* vpatch applies to this decision's view */
    int vcache_decision;        /* set to -1 at creation (lobby.c, store.c); unused */
    char *legal_json[CH_MAX_PLAYERS]; /* a seat's "legal" items and "prices" (play.c) */
    int legal_dec[CH_MAX_PLAYERS];   /* at this decision */
    int views_job, views_again; /* a view job is in flight; ask again after */
    char *static_json;          /* the views' board and card table
                                   (CH_JSON_STATIC), sent once per client */
    uint32_t static_stamp;      /* ch_view_static_stamp of static_json */
    uint32_t stamp_now;         /* ch_view_static_stamp at decision stamp_dec
                                   (play.c; the same for every viewer); 0: none */
    int stamp_dec;
    char *common;               /* the members every state frame of this
                                   moment shares (play.c), and their key */
    uint64_t common_key;
    size_t common_len;          /* strlen(common) */
    size_t common_b0, common_b1; /* the part of `common` a delta frame sends only
                                   when it changed (seats, timer, practice) */
    uint64_t common_bkey;       /* and its key */
    int64_t idle_since_ms;      /* over with no client since (lobby.c evicts); 0: not */
    int commit_busy;            /* a commit of this game is with the writer
                                   thread (committer.c): not another one */
    unsigned away_stored;       /* seats stored as away (bit s): store.c writes the
                                   seats again when the away flags differ */
    char creator_addr[64];      /* who created it (limits.c) */
    int counted_waiting;        /* counted in its creator's waiting games */
    int abandoned;              /* over because nobody came back (limits.c) */
    int64_t alone_since_ms;     /* playing with no person connected since; 0: not */
    int lease;                  /* cluster: SRV_LEASE_* (cluster.h); a single
                                   node holds every game */
    int64_t lease_at;           /* when this node took the lease (ms) */
    /* The state as the database holds it (after move ncommitted - 1), kept
       while moves are pending: a failed commit puts it back before anything
       is sent (srv_game_rollback), so a refused move is never shown */
    ch_state durable;
    int durable_status;         /* GAME_* of that state */
    int reload_due;             /* a commit failed and the moves could not be read
                                   back (the database is away): no move until
                                   it is rebuilt from them (cluster.c) */
    int cl_sig;                 /* status and claimed seats last told to the
                                   other nodes (cluster.c) */
    srv_game *hnext;            /* hash chain */
    srv_game *lnext;            /* list of every game, newest first */
    /* loop statistics (loopstats.c; only with CHARTERED_LOOP_STATS), µs of
       CLOCK_MONOTONIC: the first move waiting for a commit was read, the
       newest move was read, the newest commit came back */
    int64_t ls_pending_us, ls_move_us, ls_commit_us;
};
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
/* 1 when addr is exempt from the per-address limits (loopback). */
int srv_addr_exempt(const char *addr);
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
/* The status as clients and the database see it: "abandoned" for an
 * abandoned game, else srv_status_name. */
const char *srv_game_status(const srv_game *g);
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
/* The seats as stored in the database (tokens included). */
json_t *srv_seats_store_json(const srv_game *g);
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
/* A failed commit: every pending move is taken back, the game is again at
 * its last stored state (g->durable), its views and legal moves dropped. */
void srv_game_rollback(srv_game *g);
/* k pending moves were stored: the stored state moves forward by them. */
void srv_game_durable_forward(srv_game *g, int k);
/* Rebuild the state from a setup and a move list (resume, replay). */
int srv_replay_moves(srv_game *g, json_t *moves, int upto, char *why, size_t n);
/* The length of a day of the clocks (CHARTERED_DAY_SECONDS, default 86400 s). */
int64_t srv_day_ms(void);
/* How long a person may take for one decision: days for turn-based games,
 * the turn timer for live ones; 0: no limit. */
int64_t srv_game_clock_ms(const srv_game *g);
/* The turn_clock part of a commit (on the loop), and its write (writer). */
void srv_turn_batch(srv_batch_item *it, const srv_game *g);
int srv_turn_write(db_conn *db, const srv_batch_item *it);
/* A turn-based game read back: its clock from turn_clock. */
int srv_turn_loaded(db_conn *db, srv_game *g);
/* At most this many turn-based games in play per player (docs/protocol.md). */
#define SRV_TURN_GAMES_MAX 50
/* The turn-based games in play of a session's owner ("u:ID"/"g:SID"), in
 * memory and (accounts) out of it. */
int srv_turn_count(const char *owner, int64_t user_id);
/* Periodic: read back the games out of memory whose clock ran out or whose
 * bot must move. */
void srv_turn_wake(int64_t now_ms);
/* The result of a finished game (malloc'd), on the loop. */
srv_result *srv_result_make(const srv_game *g);
/* On the writer: store the result once and, for a rated game, the new
 * ratings; inside the commit's transaction. */
int srv_result_write(db_conn *db, const char *game, const srv_result *r);
/* The accounts of the seats (0: none), and their rows in game_players. */
void srv_players_of(const srv_game *g, int64_t *user);
int srv_players_write(db_conn *db, const char *game, const int64_t *user, int n);
/* A finished game read back: its rematch link. */
int srv_results_loaded(db_conn *db, srv_game *g);
srv_bots *srv_bots_start(int nthreads);
void srv_bots_stop(srv_bots *b);
/* Apply the finished jobs (event-loop thread). */
void srv_bots_drain(srv_bots *b);
/* Create the bot instance of a seat ("greedy" stand-in for away humans). */
int srv_seat_make_bot(srv_game *g, int s, char *why, size_t n);
/* May g, just made by addr, run? 0, else the status (429 too many of
 * addr's, 503 too many in all) with the reason and the seconds to wait. */
int srv_bots_admit(const srv_game *g, const char *addr, char *why, size_t n, int *retry_s);
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


/* A WebSocket connection that watches or plays a table. The game layer
 * reads and writes its table part (game, seat, lang, what it was sent); the
 * rest is the API's session (ws_session.c: its identity, frames received,
 * reads) and the net layer's transport state (send queue, rate bucket,
 * sender job), kept here by value so that a connection is one block. */
struct srv_client {
    struct lws *wsi;
    srv_ident ident;            /* the session of the upgrade's cookie */
    srv_game *game;
    int seat;                   /* -1 spectator */
    char lang[8];
    int log_next;               /* first log entry not yet sent */
    int state_dirty;            /* a state frame is due */
    int sent_decision;          /* decision of the last state frame sent */
    uint32_t static_stamp;      /* of the board and cards it has; 0: none */
    int full_frames;            /* asked for whole views ("frames":"full") */
    int view_dec;               /* decision of the view it holds; -1 none */
    unsigned seq;               /* state frames sent since its join/watch */
    uint64_t bkey_sent;         /* common_bkey of the seats/timer it has; 0 none */
    char *rx;                   /* frame being assembled */
    size_t rxlen;
    int rx_too_big;
    srv_out *qhead, *qtail;
    int qlen;
    srv_bucket bucket;          /* rate limiting (ratelimit.c) */
    srv_out *rl_out;            /* the queued, unsent "rate_limited" error */
    int rl_count;               /* frames it reports refused */
    int closing;                /* close with close_why once writable */
    const char *close_why;
    int close_code;             /* 0: 1008 (policy violation) */
    char addr[64];              /* the peer's address (limits.c) */
    int counted;                /* counted in the connections of addr */
    srv_client *gnext, *gprev;  /* in game->clients */
    void *read;                 /* the API's read (reads.c, srv_read) its frames
                                   wait for; opaque below the API */      /* a database read its frames wait for (reads.c) */
    struct srv_backlog *bl_head, *bl_tail; /* frames received meanwhile, in order */
    int bl_n;
    char absent[SRV_ID_HEX + 1]; /* the game just read is not in the database */
    int alive_ok;               /* its session was just found still there (reads.c) */
    int kicked;                 /* on the list of clients to write before the loop
                                   waits (ws_session.c, srv_ws_flush) */
    srv_client *knext, *kprev;
    int peer_closed;            /* the peer closed, or a write failed: nothing more is
                                   written at once */
    int raw_ok;                 /* its frames may go through the sender (not TLS) */
    struct srv_sjob *sjob;      /* its job for the sender (sender.c); busy: out */
    srv_client *anext, *aprev;  /* every WebSocket client (ws_session.c: the stop) */
};

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
extern srv_table_hooks srv_table_up; /* the hooks registered (lobby.c) */
/* 1 when this node may play g now: not waiting to be rebuilt (reload_due),
 * and on a cluster its lease is held and good. */
int srv_game_playable(const srv_game *g);

/* ---- games stored and loaded (saved.c) ---- */
int srv_store_create_game(srv_store *s, srv_game *g);
int srv_store_update_meta(srv_store *s, srv_game *g);
/* One transaction: every pending move and meta change of the listed games. */
int srv_store_commit(srv_store *s, srv_game *list);
/* A game's share of a commit, copied from it on the loop (store.h). */
int srv_batch_fill(srv_batch_item *it, srv_game *g);
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

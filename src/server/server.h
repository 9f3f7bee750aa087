/* server.h: the types and functions shared by the files of `chartered serve`
 * (src/server): the server, its games, seats and connected clients. The
 * server decodes requests, asks libchartered, and encodes answers; no game
 * rule lives here. The wire protocol is documented in docs/protocol.md.
 *
 * Threading: everything here is owned by the one libwebsockets event-loop
 * thread, except the bot workers (bots.c), which only see copies of states
 * handed to them through a locked queue.
 */
#ifndef CHARTERED_SERVER_H
#define CHARTERED_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <libwebsockets.h>

#include "chartered.h"
#include "db.h"
#include "text.h"

#define SRV_FRAME_MAX 16384   /* largest client frame (WebSocket and HTTP body) */
#define SRV_URL_MAX 2048      /* longest request URL (414 beyond) */
/* The request line and headers together, in bytes and in lines, and the
 * query arguments of a URL: beyond them 431 (414) is answered by rawguard.c
 * before libwebsockets sees the request (its header buffer is made larger
 * than this, serve.c, so it cannot overflow first). */
#define SRV_HEADER_MAX 16384
#define SRV_HEADER_LINES 50
#define SRV_QUERY_ARGS 32
#define SRV_STR_(x) #x
#define SRV_STR(x) SRV_STR_(x)
#define SRV_LOG_RING 64       /* log entries kept in memory per game */
#define SRV_LOG_FIRST 50      /* entries sent on a join/watch */
#define SRV_QUEUE_MAX 64      /* queued answers; more are dropped */
#define SRV_TOKEN_HEX 32      /* 128-bit seat tokens */
#define SRV_ID_HEX 16         /* 64-bit game ids */
#define SRV_HASH_HEX 64       /* BLAKE2b-256 of a token, as stored */
#define SRV_SESSION_HEX 64    /* 256-bit session tokens (the cookie) */
#define SRV_OWNER_MAX 40      /* "u:ID" or "g:SID" */
/* The commit runs once the current loop turn is done: the moves of one turn
 * share a transaction. (A longer window, 1 ms, measured worse: p50 3 -> 9 ms
 * and p99 up at 5,000 moves/s.) */
#define SRV_COMMIT_WINDOW_US 1

typedef struct srv_game srv_game;
typedef struct srv_client srv_client;
typedef struct srv_store srv_store;
typedef struct srv_bots srv_bots;
typedef struct srv_views srv_views;
typedef struct srv_committer srv_committer;

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

/* A move applied in memory but not yet committed to the database. */
typedef struct srv_pending {
    int n, player;
    char move[96];
    ch_move m;                  /* the move itself (to bring `durable` forward) */
} srv_pending;
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

/* How a state frame carries its view: compact, without the board and the
 * card table, which go in a frame's "static" member only when the client
 * does not have them yet (docs/protocol.md). */
#define SRV_VIEW_FLAGS (CH_JSON_COMPACT | CH_JSON_DYNAMIC)

/* An outgoing frame (LWS_PRE bytes of room before the text). */
typedef struct srv_out {
    struct srv_out *next;
    size_t len;
    unsigned char buf[];
} srv_out;

/* Who sends a request: the session of its cookie (session.c). */
typedef struct srv_ident {
    char owner[SRV_OWNER_MAX];  /* "u:ID" account, "g:SID" guest; "" no session */
    char name[32];              /* the account's or the guest's name */
    int64_t user_id;            /* 0 for a guest */
    char hash[SRV_HASH_HEX + 1]; /* the session's stored hash */
} srv_ident;

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
    double bucket;              /* rate limiting (ratelimit.c) */
    int64_t bucket_ms;
    srv_out *rl_out;            /* the queued, unsent "rate_limited" error */
    int rl_count;               /* frames it reports refused */
    int closing;                /* close with close_why once writable */
    const char *close_why;
    int close_code;             /* 0: 1008 (policy violation) */
    char addr[64];              /* the peer's address (limits.c) */
    int counted;                /* counted in the connections of addr */
    srv_client *gnext, *gprev;  /* in game->clients */
    struct srv_read *read;      /* a database read its frames wait for (reads.c) */
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

/* ---- time (serve.c) ------------------------------------------------------ */
int64_t srv_now_ms(void);

/* ---- loop statistics (loopstats.c): CHARTERED_LOOP_STATS=FILE ------------ */
/* the stages of a move, and the loop's busy time per iteration (histograms) */
enum { SRV_LS_ITER, SRV_LS_READ_SUBMIT, SRV_LS_COMMIT, SRV_LS_WRITE, SRV_LS_COMMIT_FRAME,
       SRV_LS_MOVE_FRAME, SRV_LS_SENDER, SRV_LS_NHIST };
/* the sections of the loop's time */
enum { SRV_LS_RECV, SRV_LS_DRAIN, SRV_LS_FLUSH, SRV_LS_COMMITNOW, SRV_LS_WRITABLE,
       SRV_LS_TIMERS, SRV_LS_EVICT, SRV_LS_TURN, SRV_LS_STORAGE, SRV_LS_CLUSTER,
       SRV_LS_LIMITS, SRV_LS_HTTP, SRV_LS_NSEC };
extern int srv_ls_on;           /* CHARTERED_LOOP_STATS is set */
int64_t srv_ls_now(void);       /* µs, CLOCK_MONOTONIC */
#define SRV_LS_T0() (srv_ls_on ? srv_ls_now() : 0)
void srv_ls_start(void);        /* reads CHARTERED_LOOP_STATS */
void srv_ls_add(int hist, int64_t us);
void srv_ls_moves(int k);       /* k moves stored (counted in their second) */
void srv_ls_sec_end(int sec, int64_t t0); /* a section that began at t0 ended */
void srv_ls_iter_begin(void);   /* epoll returned */
void srv_ls_iter_end(void);     /* the loop waits again */
void srv_ls_report(void);       /* at the stop: the report to the file */

/* ---- tokens (tokens.c) ---------------------------------------------------- */
/* nhex hex digits from the OS random source into out (nhex+1 bytes). 0 or -1. */
int srv_random_hex(char *out, int nhex);
uint64_t srv_random_u64(void);
/* Constant-time comparison of two NUL-terminated tokens. */
int srv_token_equal(const char *a, const char *b);
/* The stored form of a token: BLAKE2b-256 of its text, 64 hex digits. */
void srv_token_hash(const char *token, char out[SRV_HASH_HEX + 1]);
/* 1 when token hashes to hash (compared in constant time). */
int srv_token_matches(const char *token, const char *hash);

/* ---- the listening address (listen.c) ------------------------------------- */
typedef struct srv_listen {
    int any;                    /* no --host: every interface */
    int family;                 /* AF_INET, AF_INET6; AF_UNSPEC for an interface */
    int is_iface;               /* --host names an interface (lo, eth0) */
    char iface[64];             /* what lws binds: a literal or the interface */
} srv_listen;
/* Resolve --host (NULL: every interface) into what lws must be given. */
int srv_listen_resolve(srv_listen *l, const char *host, char *why, size_t n);
/* After lws has bound: every listening socket of this process on `port` is
 * exactly the address asked for (the first one is written to bound), else -1
 * with the reason. */
int srv_listen_verify(const srv_listen *l, int port, char *bound, size_t bn, char *why,
                      size_t n);

/* ---- storage errors (backoff.c) -------------------------------------------- */
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

/* ---- limits (limits.c; docs/protocol.md "Limits") -------------------------- */
enum { SRV_LIMIT_CREATES_PER_MIN, SRV_LIMIT_WAITING_PER_ADDR, SRV_LIMIT_WAITING_MAX,
       SRV_LIMIT_WAITING_EXPIRE_S, SRV_LIMIT_CONNS_PER_ADDR, SRV_LIMIT_ABANDON_S,
       SRV_LIMIT_LOOPBACK, SRV_LIMIT_REQUEST_S, SRV_LIMIT_COUNT };
/* The limit's value: its environment variable, else its default. */
long long srv_limit(int which);
/* The peer's address as text ("" when unknown). */
void srv_peer_addr(struct lws *wsi, char *out, size_t n);
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
/* The status as clients and the database see it: "abandoned" for an
 * abandoned game, else srv_status_name. */
const char *srv_game_status(const srv_game *g);
/* Take g out of the id hash (lobby.c). */
void srv_game_unhash(srv_game *g);
/* Delete a game that never started (limits.c: an expired waiting game). */
int srv_store_delete_game(srv_store *s, const char *id);

/* ---- rate limiting (ratelimit.c) ------------------------------------------ */
/* 1 when the client may send one more frame now (and takes the token). */
int srv_rate_take(srv_client *c, int64_t now_ms);

/* ---- lobby (lobby.c) ------------------------------------------------------ */
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
const char *srv_status_name(int status);

/* ---- play (play.c) -------------------------------------------------------- */
enum { MOVE_OK = 0, MOVE_NOT_STARTED, MOVE_NOT_YOUR_TURN, MOVE_ILLEGAL,
       MOVE_STALE, MOVE_NOMEM, MOVE_NO_LEASE };
/* Check and apply a move of seat s made for decision `decision` (-1: any).
 * The move becomes pending (committed by the next commit). The library's
 * reason for a refused move is written in the language lang ("en", "nl",
 * "ja": the client's; chx_reason). */
int srv_play(srv_game *g, int s, const char *text, int decision, const char *lang,
             char *why, size_t n);
int srv_play_move(srv_game *g, int s, ch_move m, char *why, size_t n);
/* 1 when seat s must decide now. */
int srv_seat_decides(const srv_game *g, int s);
/* The state frame for client c (with LWS_PRE room), or NULL: in a buffer
 * the loop keeps, valid until the next call (written at once, not freed). */
srv_out *srv_state_frame(srv_game *g, srv_client *c);
/* A seat's "legal" items and "prices" (malloc'd; any thread), and their
 * making on the view workers (play.c): the seats a job wants, made there,
 * installed on the loop when the game is still at that state. */
char *srv_legal_json(const ch_state *st, int seat);
unsigned srv_legal_wanted(const srv_game *g, unsigned mask);
void srv_legal_make(const ch_state *st, unsigned want, char **legal);
void srv_legal_install(srv_game *g, int d, const ch_state *st, char **legal);
void srv_legal_free(char **legal);
/* After a commit or a change: every client gets a fresh state, bots move. */
void srv_game_changed(srv_game *g);
/* Bots (and stand-ins for away humans) that must decide get a job. */
void srv_game_kick_bots(srv_game *g);
/* The game has ended: fill scores. */
void srv_game_finish(srv_game *g);
/* Game is at decision n with everything committed. */
void srv_commit_schedule(srv_game *g);
/* The commit at the end of a loop turn (serve.c). */
void srv_commit_now(lws_sorted_usec_list_t *sul);
/* Periodic: turn timers. */
void srv_timers_check(int64_t now);
/* A failed commit: every pending move is taken back, the game is again at
 * its last stored state (g->durable), its views and legal moves dropped. */
void srv_game_rollback(srv_game *g);
/* k pending moves were stored: the stored state moves forward by them. */
void srv_game_durable_forward(srv_game *g, int k);
/* Rebuild the state from a setup and a move list (resume, replay). */
int srv_replay_moves(srv_game *g, json_t *moves, int upto, char *why, size_t n);

/* ---- hidden information in the log (mask.c) -------------------------------- */
/* Fill a log entry for move m of player p made in state `before`. */
void srv_mask_move(const ch_state *before, int p, ch_move m, srv_log *e);
/* Its words in the languages of langmask (bit = CHX_LANG_*). */
void srv_log_texts(srv_log *e, const ch_state *before, int p, ch_move m,
                   const ch_state *after, const char *const *names, unsigned langmask);
void srv_log_free(srv_log *e);
/* Entry e as seat `viewer` (-1 spectator) may see it, as a JSON object {n, player, move, text[,
 * hidden]} appended to b. */
void srv_log_write(chx_buf *b, const srv_log *e, int viewer, const char *lang);

/* ---- persistence (store.c) ------------------------------------------------- */
srv_store *srv_store_open(const char *path, int sync_full, char *why, size_t n);
/* The store's database connection (db.h; the event loop's: session.c). */
db_conn *srv_store_db(srv_store *s);
/* The schema version this code writes (db_schema_version). */
#define SRV_SCHEMA_VERSION 5
void srv_store_close(srv_store *s);
int srv_store_create_game(srv_store *s, srv_game *g);
int srv_store_update_meta(srv_store *s, srv_game *g);
/* One transaction: every pending move and meta change of the listed games. */
int srv_store_commit(srv_store *s, srv_game *list);
/* One game's share of a commit, copied from the game on the event loop so
 * that the writer thread (committer.c) writes it without touching the game:
 * its pending moves, and its seats and status when they changed. */
typedef struct srv_batch_item {
    char id[SRV_ID_HEX + 1];
    srv_pending *moves;
    int nmoves;
    char *seats;                /* seats JSON to store, NULL: unchanged */
    char status[12];
    unsigned away;              /* the away seats stored with it */
    int clock;                  /* turn_clock row: 0 leave, 1 set, 2 drop */
    int64_t since;              /* when the decision began, unix ms; 0: a bot
                                   must move (turnbased.c) */
    int days;
    unsigned to_move;           /* the people to move (bit s: seat s) */
    struct srv_result *result;  /* the game ended: its result (results.c) */
    int64_t users[CH_MAX_PLAYERS]; /* with seats: each seat's account, 0 none */
} srv_batch_item;
int srv_batch_fill(srv_batch_item *it, srv_game *g);
void srv_batch_free(srv_batch_item *it);
/* Write the items in one transaction; -1 (rolled back) on failure, or
 * SRV_STORE_CONFLICT when a row was there already: another writer (another
 * server on the same PostgreSQL) stored one of these move numbers first,
 * and the whole batch is refused (the moves' primary key (game, n)). */
#define SRV_STORE_CONFLICT (-2)
int srv_store_write(srv_store *s, const srv_batch_item *items, int n);
/* The reason of the connection's last failed write, and its class (db.h:
 * DB_ERR, DB_CONFLICT, DB_LOST). */
const char *srv_store_errmsg(srv_store *s);
int srv_store_errclass(srv_store *s);

/* The writer thread (committer.c): the commits run beside the event loop, on
 * a database connection of their own; a game's moves are acknowledged (its
 * clients get their frames) when its commit is back. */
srv_committer *srv_committer_start(const char *db, int sync_full, char *why, size_t n);
/* Hand the games of list (each with something to write, none in flight) to
 * the writer; -1 when out of memory (nothing handed). */
int srv_committer_submit(srv_committer *c, srv_game *list);
/* On the event loop: finish the commits that are back. */
void srv_committer_drain(srv_committer *c);
/* A write of the loop's (chat, session, account) run on the writer thread,
 * in order with the commits: run(db, arg) there, then done(arg) on the loop.
 * Without a writer thread both run at once on the loop. */
typedef void (*srv_dbjob_fn)(db_conn *db, void *arg);
typedef void (*srv_dbjob_done)(void *arg);
int srv_dbjob_submit(srv_dbjob_fn run, srv_dbjob_done done, void *arg);
/* Write what was handed, finish it, and stop the thread. */
void srv_committer_stop(srv_committer *c);
/* After a commit: the game's first k pending moves are in the database
 * (ok 1), or nothing of it is (the game is rebuilt from the database; ok 0:
 * the database refused, clients hear "storage"; ok SRV_STORE_CONFLICT:
 * another writer stored one of those move numbers first, "conflict"). */
void srv_commit_done(srv_game *g, int k, unsigned away, int ok);
/* Load every game in play (replaying moves) after checking the file
 * (PRAGMA quick_check). Each game that cannot be loaded is reported with its
 * id and reason on standard error; with any of them, or a damaged file, -1
 * (refuse to start) unless skip_damaged. Returns the count or -1. */
int srv_store_load(srv_store *s, int skip_damaged, char *why, size_t n);
/* 0 when the database can be written, else -1 with the reason. */
int srv_store_writable(srv_store *s, char *why, size_t n);
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
/* The move list of a game as [{"player","move"}...]. */
json_t *srv_store_moves(srv_store *s, const char *id);

/* ---- turn-based games (turnbased.c) ----------------------------------------- */
/* The length of a day of the clocks (CHARTERED_DAY_SECONDS, default 86400 s). */
int64_t srv_day_ms(void);
/* How long a person may take for one decision: days for turn-based games,
 * the turn timer for live ones; 0: no limit. */
int64_t srv_game_clock_ms(const srv_game *g);
/* "mode" and "days" of a POST /api/games request (after turn_timer). */
int srv_turn_read(srv_game *g, json_t *req, char *why, size_t n);
/* 1 when g is a turn-based game that may leave memory: nobody attached,
 * nothing in flight, a person to move. */
int srv_turn_idle(const srv_game *g);
/* The turn_clock part of a commit (on the loop), and its write (writer). */
void srv_turn_batch(srv_batch_item *it, const srv_game *g);
int srv_turn_write(db_conn *db, const srv_batch_item *it);
/* The table turn_clock (schema version 3: store.c's migrations). */
int srv_turn_schema(db_conn *db);
/* A turn-based game read back: its clock from turn_clock. */
int srv_turn_loaded(db_conn *db, srv_game *g);
/* At most this many turn-based games in play per player (docs/protocol.md). */
#define SRV_TURN_GAMES_MAX 50
/* The turn-based games in play of a session's owner ("u:ID"/"g:SID"), in
 * memory and (accounts) out of it. */
int srv_turn_count(const char *owner, int64_t user_id);
/* 1 (why set) when owner may not take a seat of turn-based game g: it has
 * SRV_TURN_GAMES_MAX already (and no seat in g yet). */
int srv_turn_full(const srv_game *g, const char *owner, int64_t user_id, char *why, size_t n);
/* Periodic: read back the games out of memory whose clock ran out or whose
 * bot must move. */
void srv_turn_wake(int64_t now_ms);

/* ---- results, ratings and players (results.c, profile_api.c, rematch.c) ---- */
/* A finished game's result as the writer stores it (docs/ratings.md). */
typedef struct srv_result {
    int n, edition, rated;
    int64_t finished;           /* unix seconds */
    int32_t scores[CH_MAX_PLAYERS];
    unsigned winners;
    unsigned left;              /* seats the stand-in played at the end: last */
    int64_t user[CH_MAX_PLAYERS]; /* accounts (0: none) */
    int place[CH_MAX_PLAYERS];  /* 0 first; equal: shared */
} srv_result;
/* 1 when the game counts for ratings: people with accounts only, one
 * account per seat, no practice game. */
int srv_game_rated(const srv_game *g);
/* The result of a finished game (malloc'd), on the loop. */
srv_result *srv_result_make(const srv_game *g);
/* On the writer: store the result once and, for a rated game, the new
 * ratings; inside the commit's transaction. */
int srv_result_write(db_conn *db, const char *game, const srv_result *r);
/* The accounts of the seats (0: none), and their rows in game_players. */
void srv_players_of(const srv_game *g, int64_t *user);
int srv_players_write(db_conn *db, const char *game, const int64_t *user, int n);
/* Schema version 3: results, ratings, rating_changes, game_players. */
int srv_players_schema(db_conn *db);
/* A finished game read back: its rematch link. */
int srv_results_loaded(db_conn *db, srv_game *g);
/* GET /api/players/NAME, /api/leaderboard, /api/my-games: 1 when `rest`
 * (the path after /api/) is one of them (answered, *rc set). */
struct srv_pss;
struct srv_read;
int srv_profile_route(struct lws *wsi, const char *rest, int is_post, int *rc,
                      struct srv_pss *pss);
enum { SRV_PROFILE_PLAYER = 1, SRV_PROFILE_BOARD, SRV_PROFILE_MINE, SRV_PROFILE_SESSIONS };
/* Whether GET /api/<rest> is a players' page read from the database: then
 * r is set to read it off the loop (reads.c) and 1 is returned. */
int srv_profile_want(struct lws *wsi, const char *rest, int is_post, struct srv_read *r);
/* On the writer thread: the page r asked for, into r->profile (reads.c). */
void srv_profile_read_db(db_conn *db, struct srv_read *r);
/* POST /api/games/ID/rematch. */
int srv_rematch(struct lws *wsi, srv_game *old);
/* GET /api/games/ID/position: the position as the request's session may see it (position_api.c). */
int srv_position_api(struct lws *wsi, srv_game *g);

/* ---- bots (bots.c) --------------------------------------------------------- */
srv_bots *srv_bots_start(int nthreads);
void srv_bots_stop(srv_bots *b);
/* Ask for a move of seat s (its bot_inst) in the current state. */
int srv_bots_submit(srv_bots *b, srv_game *g, int s);
/* Apply the finished jobs (event-loop thread). */
void srv_bots_drain(srv_bots *b);
/* Create the bot instance of a seat ("greedy" stand-in for away humans). */
int srv_seat_make_bot(srv_game *g, int s, char *why, size_t n);
/* 1 when every seat of g is a bot. */
int srv_game_bots_only(const srv_game *g);
/* Games of bots only running at once (bots.c; docs/protocol.md "Limits"):
 * per creating address (CHARTERED_BOTGAMES_PER_ADDRESS; loopback exempt
 * unless CHARTERED_LIMIT_LOOPBACK) and in all (CHARTERED_BOTGAMES_MAX). */
#define SRV_BOTGAMES_PER_ADDR 4
#define SRV_BOTGAMES_MAX 32
/* May g, just made by addr, run? 0, else the status (429 too many of
 * addr's, 503 too many in all) with the reason and the seconds to wait. */
int srv_bots_admit(const srv_game *g, const char *addr, char *why, size_t n, int *retry_s);
/* Those two limits in force (all 0: per address; 1: in all). */
long srv_botgames_limit(int all);

/* ---- views on worker threads (views.c) ------------------------------------- */
srv_views *srv_views_start(int nthreads);
void srv_views_stop(srv_views *v);
/* Build the views of the game's current decision for its clients' seats. */
int srv_views_request(srv_views *v, srv_game *g);
/* Take finished views (event-loop thread). */
void srv_views_drain(srv_views *v);
void srv_views_clear(srv_game *g);
void srv_views_release(srv_game *g);
/* Make the view of perspective k (0 spectator, s+1 seat s) at the game's
 * decision current on the event loop (when no worker built it), with its
 * patch from the view before. 0, or -1 when out of memory. */
int srv_view_here(srv_game *g, int k);
/* The JSON Patch (RFC 6902) that turns JSON text a into b, as a JSON array
 * text (malloc'd); NULL when out of memory (jsondiff.c). */
char *srv_json_diff(const char *a, const char *b);
/* The brackets of a JSON text ({open offset, offset past the close}, by
 * offset), made while diffing it; kept with a view for its next diff. */
typedef struct srv_jidx {
    uint32_t (*pair)[3];        /* {offset of a '{' or '[', offset past its end,
                                   the next entry not inside it} */
    size_t n, cap;
} srv_jidx;
/* srv_json_diff with a's index if known (ai NULL or empty: made here), and
 * b's: taken from *bi when it has one (ch_view_json_ix made it with the
 * text), else made here and put in *bi (when bi is not NULL and a patch is
 * returned). */
char *srv_json_diff_ix(const char *a, const srv_jidx *ai, const char *b, srv_jidx *bi);
/* srv_json_diff_ix for several perspectives of one move: the first diff
 * with an empty memo notes the operations of the root's members; the next
 * ones reuse them for members whose old and new texts are the same bytes.
 * The memo points into that first diff's two documents: keep them until the
 * memo is reset or freed. */
typedef struct srv_jmemo srv_jmemo;
srv_jmemo *srv_jmemo_new(void);
/* Empty again, its buffer kept (a view worker's, from job to job): the
 * documents the last fill pointed into may go. */
void srv_jmemo_reset(srv_jmemo *m);
void srv_jmemo_free(srv_jmemo *m);
char *srv_json_diff_memo(const char *a, const srv_jidx *ai, const char *b, srv_jidx *bi,
                         srv_jmemo *memo);
/* srv_json_diff_memo of texts whose lengths and indexes are known, the
 * patch appended to out (a buffer the caller keeps: no allocation once it
 * has grown): 0, or -1 (out as it was). */
int srv_json_diff_into(chx_buf *out, const char *a, size_t an, const srv_jidx *ai, const char *b,
                       size_t bn, const srv_jidx *bi, srv_jmemo *memo);
void srv_jidx_free(srv_jidx *x);
/* A view's text as a state frame carries it, and its brackets' index;
 * immutable once made, shared by the game and the view jobs, freed with its
 * last reference (views.c). */
typedef struct srv_view {
    _Atomic int refs;
    const char *text;
    size_t len;                 /* strlen(text) */
    srv_jidx ix;
    /* the JSON Patch to it from the view its job started from, or NULL */
    const char *patch;
    size_t patch_len;
    /* one block: the text, the index and the patch follow the struct; its
       size, for its reuse once the view is dropped (views.c) */
    size_t cap;
    struct srv_view *pool_next;
    /* the state it was written from: the next view of its perspective
       copies from it what did not change (ch_views_json_since) */
    ch_state st;
} srv_view;
srv_view *srv_view_ref(srv_view *v);
void srv_view_unref(srv_view *v);

/* ---- websocket sessions (ws_session.c) ------------------------------------- */
int srv_ws_callback(struct lws *wsi, enum lws_callback_reasons reason,
                    void *user, void *in, size_t len);
void srv_client_send_json(srv_client *c, json_t *j);
/* One whole text message of client c, as if it had come in a frame: the
 * socket-free entry point of tests/fuzz/fuzz_ws.c (c->wsi may be NULL; the
 * answers wait in c's queue). */
void srv_ws_handle_text(srv_client *c, const char *text, size_t len);
/* A move frame, {"type":"move","move":"...","decision":N} and nothing else,
 * read without jansson (move_frame.c): 1 with the move (NUL-terminated, in
 * cap bytes) and the decision; 0 for any other text, which jansson reads. */
int srv_move_frame(const char *text, size_t len, char *move, size_t cap, long long *decision);
/* Close client (a srv_client) with code 1002 and why: a protocol error seen
 * in its raw bytes (rawguard.c); nothing it sends is acted on any more. */
void srv_ws_protocol_error(void *client, const char *why);

/* ---- raw bytes of client sockets (rawguard.c) ------------------------------ */
void srv_rawguard_start(void);                 /* on the event loop's thread */
void srv_rawguard_stop(void);
void srv_rawguard_accept(int fd);              /* a connection accepted, nothing read yet */
void srv_rawguard_attach(int fd, void *client); /* its WebSocket client, or NULL */
int srv_rawguard_unmasked(int fd);             /* an unmasked frame came */
/* Requests (headers and body) still coming past their deadline get 408 and
 * are closed (every second or so, from srv_limits_tick). */
void srv_rawguard_tick(int64_t now_ms);
/* HTTP keep-alive: an idle connection is closed after SRV_HTTP_IDLE_S
 * seconds (libwebsockets' keepalive_timeout, serve.c); answers tell clients
 * SRV_HTTP_IDLE_HINT_S ("Keep-Alive: timeout=4", http_api.c), one second
 * less, so that they do not reuse a connection the server is closing. */
#define SRV_HTTP_IDLE_S 5
#define SRV_HTTP_IDLE_HINT_S 4
/* The security headers of every HTTP answer (issue 28, low): the page runs
 * only its own scripts and styles (web/ has no inline script or style
 * attribute; styles set through element.style are not inline markup), talks
 * only to its own origin (the WebSocket too: CSP 3 'self' covers ws: and
 * wss: of the same host), may not be framed (clickjacking), types are not
 * sniffed, and no address is sent to other sites as a Referer. The favicon
 * is an empty data: URL (index.html). */
#define SRV_CSP "default-src 'self'; script-src 'self'; style-src 'self'; " \
                "img-src 'self' data:; connect-src 'self'; font-src 'self'; " \
                "object-src 'none'; base-uri 'none'; form-action 'self'; " \
                "frame-ancestors 'none'"
#define SRV_SECURITY_HEADERS "Content-Security-Policy: " SRV_CSP "\r\n" \
                             "X-Content-Type-Options: nosniff\r\n" \
                             "Referrer-Policy: same-origin\r\n" \
                             "X-Frame-Options: DENY\r\n"
/* Adds SRV_SECURITY_HEADERS to an answer's headers (http_api.c); 0: done. */
int srv_http_security_headers(struct lws *wsi, unsigned char **p, unsigned char *end);
#define SRV_STR_(x) #x
#define SRV_STR(x) SRV_STR_(x)
void srv_client_want_state(srv_client *c);
/* The graceful stop (serve.c): every WebSocket client with nothing left to
 * write (or all, with force) is closed with code 1001 and a reason; returns
 * how many connections are still open. */
int srv_ws_stop_close(int force);
/* Writes what the kicked clients have to write (their answers and state
 * frames), at once while the kernel takes it; called before the event loop
 * waits (an ev_prepare watcher, or after each lws_service). With a budget
 * (µs; 0: none) it stops once that is spent and returns 1: frames are left
 * for the next turn (the loop must not sleep meanwhile). */
int srv_ws_flush(int64_t budget_us);
/* A job of the sender thread came back (sender.c): on the loop. */
void srv_ws_sent(struct srv_sjob *j);

/* sender.c: the thread that sends the WebSocket frames the loop built. A
 * client's job: its frames of one flush, framed, in order. Between
 * srv_sender_submit and srv_ws_sent, only the thread touches it (busy). */
typedef struct srv_sjob {
    struct srv_sjob *next;
    srv_client *c;              /* the loop's; NULL: its client was closed */
    int fd;                     /* the client's socket */
    int busy;                   /* with the sender (the loop's flag) */
    int dead;                   /* the client closed: not sent (under the lock) */
    int result;                 /* 0 all sent, 1 partly (sent < len), -1 failed */
    unsigned char *buf;
    size_t len, cap, sent;
    int64_t handed_us, sent_us; /* CLOCK_MONOTONIC (srv_ls_now) */
    int64_t ls_commit_us, ls_move_us; /* loop statistics of its state frame, or 0 */
} srv_sjob;
typedef struct srv_sender_counts {
    int on;
    int64_t busy_us, cpu_us;
    uint64_t batches, jobs, bytes, partial, failed;
    uint64_t forgotten;         /* jobs whose client was closed while they were out */
} srv_sender_counts;
int srv_sender_start(struct lws_context *ctx); /* 0, or -1: no thread */
int srv_sender_on(void);
int64_t srv_send_direct_us(void);     /* a flush's time on the loop before the thread's */
void srv_sender_submit(srv_sjob *head, srv_sjob *tail); /* a flush's jobs, in order */
void srv_sender_forget(srv_sjob *j);  /* its client is closed: never sent to */
void srv_sender_drain(void);          /* the jobs back: srv_ws_sent each */
void srv_sender_stop(void);           /* before the context is destroyed */
void srv_sender_stats(srv_sender_counts *out);

/* ---- http (http_api.c) ------------------------------------------------------ */
int srv_http_callback(struct lws *wsi, enum lws_callback_reasons reason,
                      void *user, void *in, size_t len);
/* Answer a request with j (released) as JSON, with a Set-Cookie header when
 * cookie is not NULL. -1: close the connection. */
int srv_http_respond(struct lws *wsi, unsigned status, json_t *j, const char *cookie);
int srv_http_error(struct lws *wsi, unsigned status, const char *why);
/* The body of the POST being answered (NULL: none), parsed; NULL with why. */
json_t *srv_http_body(char *why, size_t n);

/* ---- identity (session.c, auth_hash.c, auth_limit.c, auth_api.c) ---------- */
/* The session of a request's cookie (HTTP or the WebSocket upgrade) into id
 * (owner "" when none, expired, or the request comes from another site). */
void srv_ident_of(struct lws *wsi, srv_ident *id);
/* The session of a cookie's token into id; -1 when there is none. */
int srv_session_lookup(const char *token, srv_ident *id);
/* A sign-up from a guest session (on db, the writer's): every stored game
 * whose seat is the guest's (owner "g:SID") gets the account's owner key
 * and name, and a row in game_players. How many games, or -1. */
int srv_seats_carry_db(db_conn *db, const char *guest_owner, int64_t user_id,
                       const char *name);
/* The same on connection db (any thread). */
int srv_session_lookup_db(db_conn *db, const char *token, srv_ident *id);
/* 1 when the session of hash is still stored (not logged out), on db. */
int srv_session_alive_db(db_conn *db, const char *hash);
/* The session token of wsi's cookie (not of a cross-site request): 0 and
 * tok, else -1 (no session to look up). */
int srv_session_token(struct lws *wsi, char *tok, size_t n);
/* While pre is set (not NULL), srv_ident_of answers with it instead of
 * reading the database: the session was read already (reads.c). */
void srv_ident_use(const srv_ident *pre);

/* ---- reads a request waits for, off the loop (reads.c) ---- */
typedef struct srv_read srv_read;
struct srv_read {
    int want_ident;             /* asked: the session of token */
    char token[SRV_SESSION_HEX + 2];
    int want_alive;             /* asked: is session `hash` still there */
    char hash[SRV_HASH_HEX + 1];
    int alive;
    int want_list;              /* asked: the lobby's list from the database */
    int list_over;              /* finished games (else idle turn-based ones) */
    json_t *list;               /* NULL: the database could not list them */
    int want_game;              /* asked: game `game` */
    char game[SRV_ID_HEX + 1];
    int want_profile;           /* asked: a players' page (profile_api.c) */
    int profile_kind;           /* SRV_PROFILE_* */
    char profile_arg[80];       /* the player's name, or the edition */
    int profile_status;         /* answers: 200, or the error's status */
    const char *profile_why;    /* the error (a constant string) */
    json_t *profile;            /* the page (My games: the stored entries) */
    int ident_found;            /* answers */
    srv_ident ident;
    srv_game *g;                /* the game, in memory (NULL: none) */
    int game_absent;
    struct lws *wsi;            /* the waiter: an HTTP request (NULL: gone) */
    srv_client *c;              /* or a WebSocket client (NULL: gone) */
    char *frame;                /* the client's frame, handled again */
    size_t frame_len;
    void (*done)(srv_read *);
};
srv_read *srv_read_new(void);
/* May a replay be rebuilt now (reads.c: a token bucket for the server)?
 * 0, else -1 with the reason and the seconds to wait (answer 503). */
int srv_replay_admit(int64_t now_ms, char *why, size_t n, int *retry_s);
/* Run r's reads on the writer thread; fn(r) on the loop once they are back
 * (at once, before this returns, without a writer thread). */
int srv_read_submit(srv_read *r, void (*fn)(srv_read *));
/* A new session (user_id 0: a guest named guest_name): its token (for the
 * cookie) and identity, written at once on the loop's connection (tests). */
int srv_session_create(int64_t user_id, const char *guest_name,
                       char token[SRV_SESSION_HEX + 1], srv_ident *id);
/* A new session made on the loop (random token, its hash, the identity)
 * and written by the writer thread (srv_dbjob_submit, auth_api.c): the loop
 * never waits on the insert. name: the account's name as shown, or the
 * guest's. */
typedef struct srv_newsession {
    char token[SRV_SESSION_HEX + 1]; /* for the cookie; wiped once used */
    char sid[17];
    int guest;
    srv_ident id;
    char addr[48];              /* the client's network (srv_session_origin) */
    char agent[128];            /* its User-Agent, printable ASCII */
} srv_newsession;
/* Where a new session comes from, for the list of one's sessions: the
 * client's network (IPv4 /24, IPv6 /48) and User-Agent. */
void srv_session_origin(struct lws *wsi, srv_newsession *ns);
/* The sessions of me's account (a guest: its own one), newest first: id,
 * created, last_seen, address, agent, current. NULL on a database error. */
json_t *srv_sessions_list_db(db_conn *db, const srv_ident *me);
/* Hashes of sessions ended (for srv_ws_logout); h is malloc'ed. */
typedef struct srv_hashes {
    int n;
    char (*h)[SRV_HASH_HEX + 1];
} srv_hashes;
/* End me's account's sessions (a guest: its own): the one with public id
 * sid, or all (sid NULL), but not me's own when keep_own. The hashes
 * deleted into out; -1 on a database error. */
int srv_sessions_end_db(db_conn *db, const srv_ident *me, const char *sid, int keep_own,
                        srv_hashes *out);
/* Delete the sessions past their 30 days: how many, or -1. */
int srv_sessions_sweep_db(db_conn *db, int64_t now_s);
/* From the periodic tick: the sweep above, at start and then hourly, on the
 * writer thread. */
void srv_session_sweep(int64_t now_ms);
int srv_session_new(int64_t user_id, const char *name, int guest, srv_newsession *ns);
/* Owner key of ns from its user id (after srv_account_insert set it). */
void srv_session_owner(srv_newsession *ns);
int srv_session_write(db_conn *db, const srv_newsession *ns);
int srv_session_delete(const char *hash);
void srv_session_finalize(void);
/* 1 found (id, stored hash, name as written at sign-up), 0 none, -1 error. */
int srv_account_find(const char *name, int64_t *user_id, char *pwhash, size_t n,
                     char *shown, size_t sn);
/* On the writer thread: 0 made, 1 the name is taken, -1 error. */
int srv_account_insert(db_conn *db, const char *name, const char *pwhash, int64_t *user_id);
int srv_account_set_hash(db_conn *db, int64_t user_id, const char *pwhash);
/* 1 when an account's name looks like name (srv_name_skeleton), 0 not, -1
 * error. */
int srv_account_lookalike(db_conn *db, const char *name);
/* Schema version 5 (store.c's migration): sessions.last_seen, addr, agent;
 * accounts.name_skel, filled for the accounts there are; chat.guest. */
int srv_accounts_schema_v5(db_conn *db);
/* 1 when the request's Origin names another host than its Host. */
int srv_cross_site(struct lws *wsi);
/* 1 when the session with that hash still exists (not logged out). */
int srv_session_alive(const char *hash);
/* The client's address for every per-address limit (limits.c): with
 * --trust-proxy the right-most X-Forwarded-For entry, never the proxy's. */
void srv_client_addr(struct lws *wsi, char *out, size_t n);
/* 1 when the request came over TLS (or through a trusted proxy saying so). */
int srv_request_secure(struct lws *wsi);
/* The routes /api/signup, /api/login, /api/logout, /api/guest, /api/me:
 * 1 when `rest` (the path after /api/) is one of them (answered or under
 * way), else 0. */
int srv_auth_route(struct lws *wsi, const char *rest, int is_post, int *rc);
/* Names (names.c): NULL when name may be a guest's, else why not (its
 * characters; accounts and bots are checked apart); its skeleton (what it
 * looks like: case, lookalike letters and digits, separators folded); 1
 * when it passes for a bot's name. */
const char *srv_guest_name_problem(const char *name);
void srv_name_skeleton(const char *name, char *out, size_t n);
int srv_name_botlike(const char *name);
/* Attempt limits (auth_limit.c): 1 when one more attempt with that key may
 * be made now (and counts it), 0 when the key is over its limit; *retry_s:
 * seconds until it may. */
int srv_limit_take(const char *key, int limit, int64_t now_ms, int *retry_s);
/* A slowdown rather than a lock-out: the first `burst` attempts of a window
 * pass, then one per gap_ms (0 and *retry_s when it is too soon). */
int srv_limit_slow(const char *key, int burst, int gap_ms, int64_t now_ms, int *retry_s);
/* Remember key for 30 days (a good login from an address), and ask. */
void srv_limit_mark(const char *key, int64_t now_ms);
int srv_limit_known(const char *key, int64_t now_ms);
/* Password hashing on a worker thread (auth_hash.c). */
typedef struct srv_pwjob srv_pwjob;
typedef void (*srv_pwjob_done)(srv_pwjob *j);
struct srv_pwjob {
    int verify;                 /* 1: check password against stored; 0: hash it */
    char password[257];         /* wiped once used */
    char newpw[257];            /* verify: when set and password matched, the
                                   new password hashed into hash; wiped */
    char stored[128];           /* verify: the stored hash ("" = none: a dummy
                                   is checked, so the time is the same) */
    int ok;                     /* verify: it matched; hash: made */
    int rehash;                 /* verify: the stored hash's parameters are old */
    char hash[128];             /* hash, or the new hash when rehash */
    struct lws *wsi;            /* the request; NULL once it went away */
    srv_pwjob_done done;        /* called on the event loop */
    void *ctx;                  /* the route's own data (auth_api.c) */
    char name[32];
    int64_t user_id;
    srv_pwjob *next;
};
int srv_pw_start(void);
void srv_pw_stop(void);
/* Queue a job (-1: the queue is full: answer 503). */
int srv_pw_submit(srv_pwjob *j);
/* On the event loop: call `done` of the finished jobs (which free them). */
void srv_pw_drain(void);
/* The hashing itself (also for the unit test): argon2id, 19 MiB, 2 passes. */
int srv_pw_hash(const char *password, char out[128]);
int srv_pw_verify(const char *stored, const char *password);
int srv_pw_needs_rehash(const char *stored);
/* ---- chat (chat.c) ---------------------------------------------------------- */
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
/* Detach every connection of the session with that hash (logout). */
void srv_ws_logout(const char *hash);
/* The request in flight on this HTTP connection (auth_api.c). */
void srv_auth_request_gone(struct lws *wsi);

/* The per-connection data of the one protocol (HTTP and WebSocket). */
typedef struct srv_pss {
    srv_client *client;         /* WebSocket connections */
    char *body;                 /* HTTP: POST body being read */
    size_t body_len;
    int body_too_big;
    char url[160];
    int is_post;
    srv_pwjob *pwjob;           /* a password job for this request in flight */
    json_t *deferred;           /* its answer, written when writable */
    unsigned deferred_status;
    char deferred_cookie[200];
    srv_read *read;             /* the reads this request waits for (reads.c) */
    int read_back;              /* they are back: route when writable */
    int have_ident;             /* the session was read: ident */
    srv_ident ident;
    int game_absent;            /* the game asked for is not in the database */
    int have_list;              /* the lobby's list was read: list */
    json_t *list;
    int have_profile;           /* a players' page was read: profile */
    int profile_status;
    const char *profile_why;
    json_t *profile;
} srv_pss;

#endif

/* game/types.h: the types of the game layer (part of its API: game.h
 * includes it): the server's tables (g_tables), a game, its seats and log,
 * and a connection at a table (srv_client). */
#ifndef CHARTERED_SERVER_GAME_TYPES_H
#define CHARTERED_SERVER_GAME_TYPES_H

#include "people/people.h"

#define SRV_LOG_RING 64       /* log entries kept in memory per game */
#define SRV_LOG_FIRST 50      /* entries sent on a join/watch */
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
    int hints;                  /* hints this seat was given (analysis.c) */
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
    int unlisted;               /* a practice game kept out of the public lists
                                   (a tutorial step's: lobby.c, "listed") */
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
    int abandoned;              /* over because nobody came back (limits.c); 2:
                                   aborted by a moderator (no result either) */
    int end_logged;             /* its "game.ended" line is written (commit.c), or it
                                   was over when loaded */
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

#endif

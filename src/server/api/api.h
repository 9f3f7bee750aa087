/* api/api.h: the top layer of the server below serve.c
 * (src/server/README.md): the HTTP routes and WebSocket messages that decode
 * a request and call the layers below. The wire protocol is documented in
 * docs/protocol.md.
 */
#ifndef CHARTERED_SERVER_API_H
#define CHARTERED_SERVER_API_H

#include "cluster/cluster.h"
#include "api/paths.h"

typedef struct srv_client srv_client;
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
int srv_http_callback(struct lws *wsi, enum lws_callback_reasons reason,
                      void *user, void *in, size_t len);
/* Answer a request with j (released) as JSON, with a Set-Cookie header when
 * cookie is not NULL. -1: close the connection. */
int srv_http_respond(struct lws *wsi, unsigned status, json_t *j, const char *cookie);
int srv_http_error(struct lws *wsi, unsigned status, const char *why);
/* Adds SRV_SECURITY_HEADERS to an answer's headers (http_api.c); 0: done. */
int srv_http_security_headers(struct lws *wsi, unsigned char **p, unsigned char *end);
/* The body of the POST being answered (NULL: none), parsed; NULL with why. */
json_t *srv_http_body(char *why, size_t n);
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
/* The routes /api/signup, /api/login, /api/logout, /api/guest, /api/me:
 * 1 when `rest` (the path after /api/) is one of them (answered or under
 * way), else 0. */
int srv_auth_route(struct lws *wsi, const char *rest, int is_post, int *rc);
/* Answer the request of a finished job j with body (released) and a cookie
 * (NULL: none), once writable; nothing when the request went away. */
void srv_auth_answer_later(srv_pwjob *j, unsigned status, json_t *body, const char *cookie);
/* The e-mail routes (mail_api.c): /api/email..., /api/password/forgot and
 * reset, /api/unsubscribe/TOKEN; 1 when `rest` is one of them. */
int srv_mail_route(struct lws *wsi, const char *rest, int is_post, int *rc);
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

/* The node's members of the GET /api/health answer (health.c). */
void srv_health_node(json_t *j);

#endif

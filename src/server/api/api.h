/* api/api.h: the top layer of the server below serve.c
 * (src/server/README.md): the HTTP routes and WebSocket messages that decode
 * a request and call the layers below. The wire protocol is documented in
 * docs/protocol.md.
 */
#ifndef CHARTERED_SERVER_API_H
#define CHARTERED_SERVER_API_H

#include "cluster/cluster.h"
#include "api/paths.h"

/* GET /api/players/NAME, /api/leaderboard, /api/my-games: 1 when `rest`
 * (the path after /api/) is one of them (answered, *rc set). */
/* What the API keeps (http_api.c), set by serve.c at the start. */
typedef struct srv_api {
    const char *web;            /* --web: the web client's folder */
    const char *i18n;           /* --i18n: the catalogues' folder */
    uint64_t nclients;          /* WebSocket connections open */
} srv_api;
extern srv_api g_api;

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
/* POST /api/games/ID/rematch (rematch.c). */
int srv_rematch(struct lws *wsi, srv_game *old);
/* GET /api/rematches, POST /api/rematches/ID/accept|decline (rematch.c): 1
 * when `rest` is one of them. */
int srv_rematch_route(struct lws *wsi, const char *rest, int is_post, int *rc);
/* GET /api/games/ID/position: the position as the request's session may see it (position_api.c). */
int srv_position_api(struct lws *wsi, srv_game *g);
int srv_ws_callback(struct lws *wsi, enum lws_callback_reasons reason,
                    void *user, void *in, size_t len);
/* The connection hooks of the game layer (srv_clients_register; serve.c
 * registers these): queue a frame to c (j released); a state frame is due. */
void srv_ws_send_json(srv_client *c, json_t *j);
void srv_ws_want_state(srv_client *c);
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
/* The body of the POST being answered (NULL: none), parsed; NULL with why. */
json_t *srv_http_body(char *why, size_t n);
typedef struct srv_read srv_read;
struct srv_read {
    int want_ident;             /* asked: the session of token */
    char token[SRV_SESSION_HEX + 2];
    int want_alive;             /* asked: is session `hash` still there */
    char hash[SRV_HASH_HEX + 1];
    int alive;
    int64_t uid;                /* with want_alive: that account's mute too */
    int muted;                  /* answers: muted by a moderator (moderation.c) */
    int64_t muted_until;        /* until then (0: permanently) */
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
 * (NULL: none), once writable; nothing when the request went away or when
 * nobody waits (j NULL: a follow-up job of the server's own). */
void srv_auth_answer_later(srv_pwjob *j, unsigned status, json_t *body, const char *cookie);
/* The e-mail routes (mail_api.c): /api/email..., /api/password/forgot and
 * reset, /api/unsubscribe/TOKEN; 1 when `rest` is one of them. */
int srv_mail_route(struct lws *wsi, const char *rest, int is_post, int *rc);
/* The challenge routes (challenge_api.c): /api/challenges...; 1 when
 * `rest` is one of them. */
int srv_challenge_route(struct lws *wsi, const char *rest, int is_post, int *rc);
/* The routes /api/games/ID/analysis and /hint (analysis_api.c), verb the
 * path after the id ("/analysis"): 1 when it is one of them (answered or
 * under way, *rc set), else 0. */
int srv_analysis_route(struct lws *wsi, srv_game *g, const char *verb, int is_post, int *rc);
/* The following routes (follow_api.c): /api/following...; 1 when `rest`
 * is one of them. */
int srv_follow_route(struct lws *wsi, const char *rest, int is_post, int *rc);
/* The tutorial progress routes (tutorial_api.c): /api/tutorial...; 1 when
 * `rest` is one of them. */
int srv_tutorial_route(struct lws *wsi, const char *rest, int is_post, int *rc);
/* Moderation (moderation_api.c): POST /api/reports and /api/mod/...; 1 when
 * `rest` is one of them. */
int srv_moderation_route(struct lws *wsi, const char *rest, int is_post, int *rc);
/* From the periodic tick: the audit log's new rows read every
 * SRV_MOD_POLL_MS (other nodes' and `chartered admin`'s actions: an account's
 * connections closed, an aborted game ended in memory). */
#define SRV_MOD_POLL_MS 1000
void srv_mod_tick(int64_t now_ms);
/* Close every WebSocket connection of account uid with why (a ban, its
 * sessions ended); how many. */
int srv_ws_close_user(int64_t uid, const char *why);
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
    size_t body_declared;       /* its Content-Length, checked digit by digit */
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
/* GET /metrics on the main port, behind --metrics-token-file (metrics_api.c);
 * srv_metrics_refresh sets the loop's gauges (games by state, pending moves,
 * connections), from serve.c's tick and before each answer. */
int srv_metrics_route(struct lws *wsi, int is_post);
void srv_metrics_refresh(void);

#endif

/* people/people.h: the people layer of the server (src/server/README.md):
 * accounts, sessions and cookies, names, password hashing, attempt limits,
 * tokens, ratings (rating.h).
 */
#ifndef CHARTERED_SERVER_PEOPLE_H
#define CHARTERED_SERVER_PEOPLE_H

#include "store/store.h"
#include "people/rating.h"

#define SRV_SESSION_HEX 64    /* 256-bit session tokens (the cookie) */
#define SRV_OWNER_MAX 40      /* "u:ID" or "g:SID" */
/* Who sends a request: the session of its cookie (session.c). */
typedef struct srv_ident {
    char owner[SRV_OWNER_MAX];  /* "u:ID" account, "g:SID" guest; "" no session */
    char name[32];              /* the account's or the guest's name */
    int64_t user_id;            /* 0 for a guest */
    char hash[SRV_HASH_HEX + 1]; /* the session's stored hash */
    int role;                   /* SRV_ROLE_* of the account (moderation.c) */
} srv_ident;
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
/* The client's network alone, in the same form ("?" when unknown): also
 * what the guests' shared analysis share is counted by (game/analysis.c). */
void srv_client_network(struct lws *wsi, char *out, size_t n);
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
/* 1 when the request's Origin names another host than its Host. */
int srv_cross_site(struct lws *wsi);
/* 1 when the session with that hash still exists (not logged out). */
int srv_session_alive(const char *hash);
/* 1 when the request came over TLS (or through a trusted proxy saying so). */
int srv_request_secure(struct lws *wsi);
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

/* E-mail (mail.c; docs/protocol.md, "E-mail"): off unless --smtp is set.
 * Configured once at start (serve.c), before srv_mail_start; links in
 * messages are base + "/#/...": never the request's Host (a forged Host
 * would send a reset link to another site). */
int srv_mail_configure(const char *smtp, const char *from, const char *base, int64_t day_ms,
                       char *why, size_t n);
int srv_mail_on(void);
/* 1 when a is a plain address that can be written in a header as it is. */
int srv_mail_address_ok(const char *a);
/* The mailer thread, with its own connection to db_target. */
int srv_mail_start(const char *db_target);
void srv_mail_stop(void);
/* Wake the mailer now (a message was queued). */
void srv_mail_kick(void);
void srv_mail_counts(long long *sent, long long *failed);
/* On the writer thread (api/mail_api.c's jobs); now in ms. */
/* An account's address (unconfirmed) and its confirmation message; 0 or -1. */
int srv_mail_address_db(db_conn *db, int64_t uid, const char *name, const char *address,
                        const char *lang, int64_t now);
/* 1 confirmed, 0 the link does not stand, -1 error. */
int srv_mail_confirm_db(db_conn *db, const char *token, int64_t now);
/* A reset message to name's confirmed address: 1 queued, 0 none, -1 error. */
int srv_mail_forgot_db(db_conn *db, const char *name, int64_t now);
/* The reset token taken, the new hash set, every session ended (their
 * hashes into ended, malloc'ed), in one transaction: 1 done, 0 the link does
 * not stand, -1 error. */
int srv_mail_reset_db(db_conn *db, const char *token, const char *pwhash, int64_t now,
                      srv_hashes *ended);
/* "Your turn" messages off for the token's account: 1, 0 no such link, -1. */
int srv_mail_unsubscribe_db(db_conn *db, const char *token, int64_t now);
/* A challenge's message to the challenged account (to_uid) from `from`, of
 * edition ("amsterdam", "golden-age") and days a move (0: live), when mail
 * is on and that account has a confirmed address with game mail on: 1
 * queued (srv_mail_kick it), 0 none, -1 a database error. */
int srv_mail_challenge_db(db_conn *db, int64_t to_uid, const char *from, const char *edition,
                          int days, int64_t now);
/* {enabled, address, confirmed, turn_mail}; NULL on error. */
json_t *srv_mail_info_db(db_conn *db, int64_t uid);
/* 1 set, 0 no address, -1 error. */
int srv_mail_prefs_db(db_conn *db, int64_t uid, int turn_mail);

/* Roles and moderation (moderation.c; docs/moderation.md): database steps
 * on any connection, shared by the server's routes (api/moderation_api.c,
 * on the writer thread) and `chartered admin` (admin.c). Times in unix ms. */
enum { SRV_ROLE_PLAYER = 0, SRV_ROLE_MODERATOR = 1, SRV_ROLE_ADMIN = 2 };
/* "admin", "moderator", "player" (NULL or "": player); -1 unknown. */
int srv_role_parse(const char *s);
const char *srv_role_name(int role);
/* An account's role; -1 on a database error. */
int srv_role_of_db(db_conn *db, int64_t uid);
enum { SRV_MOD_BAN = 1, SRV_MOD_UNBAN, SRV_MOD_MUTE, SRV_MOD_UNMUTE, SRV_MOD_REVOKE,
       SRV_MOD_ABORT, SRV_MOD_GRANT, SRV_MOD_RESOLVE, SRV_MOD_DISMISS, SRV_MOD_REPORT };
const char *srv_mod_action_name(int action);
int srv_mod_action_parse(const char *s);
/* The reasons a report gives (NULL-terminated): abuse, cheating, spam,
 * name, other. */
extern const char *const srv_mod_reasons[];
int srv_mod_reason_ok(const char *r);
/* A person files at most this many reports in this window. */
#define SRV_MOD_REPORTS_MAX 5
#define SRV_MOD_REPORTS_WINDOW_MS (10LL * 60 * 1000)
/* Who acts: an account (uid, its name), or the command line (uid 0, a
 * name such as "admin (command line, user)"), which acts as an admin. */
typedef struct srv_mod_actor {
    int64_t uid;
    char name[64];
} srv_mod_actor;
typedef struct srv_mod_act {
    int action;                 /* SRV_MOD_* (not REPORT) */
    const char *target;         /* the account's name: ban, unban, mute, unmute, revoke, grant */
    const char *game;           /* abort */
    int64_t report;             /* resolve, dismiss; or the report another action answers */
    const char *reason;         /* required, kept in the audit log */
    int64_t until;              /* ban, mute: the end; 0 permanent */
    const char *role;           /* grant: admin, moderator, player */
} srv_mod_act;
typedef struct srv_mod_result {
    int status;                 /* HTTP-like: 200, 201; 400, 403, 404, 409, 429; 500 */
    char why[200];
    int64_t target_uid;         /* the account acted on (0: none) */
    char target[32];
    int64_t report;             /* a report made: its number */
    int64_t audit_id;           /* the audit log's row */
    srv_hashes ended;           /* ban, revoke: the sessions ended (h malloc'ed) */
    int reports_closed;         /* ban: the other open reports about the account closed */
} srv_mod_result;
/* One action and its audit row in one transaction; the actor's role is read
 * inside it (uid 0: the command line, an admin). out->status says how it
 * went (out->ended.h to free). */
void srv_mod_act_db(db_conn *db, const srv_mod_actor *who, const srv_mod_act *a, int64_t now,
                    srv_mod_result *out);
typedef struct srv_mod_report {
    const char *name;           /* a player reported ... */
    const char *game;           /* ... or a chat message: its game and number */
    int64_t chat_n;
    const char *reason;         /* srv_mod_reasons */
    const char *details;        /* free text, at most 1000 bytes */
} srv_mod_report;
/* A report (rate-limited per reporter), kept with the chat lines around the
 * message, and its audit row: out->status 201 and out->report, or a refusal. */
void srv_mod_report_db(db_conn *db, const srv_mod_actor *who, const srv_mod_report *rp,
                       int64_t now, srv_mod_result *out);
/* A ban or mute ("ban", "mute") of uid in force at now: 1 (its end, 0 for
 * permanent, and its reason), 0 none, -1 error. */
int srv_mod_sanction_db(db_conn *db, int64_t uid, const char *kind, int64_t now,
                        int64_t *until, char *reason, size_t n);
/* "until 2026-12-05 10:00 UTC" or "permanently". */
void srv_mod_until_text(int64_t until, char *out, size_t n);
/* Reports (status "open", "resolved", "dismissed" or NULL/"all"), newest
 * first; the audit log, newest first; the sanctions in force. NULL on error. */
json_t *srv_mod_reports_db(db_conn *db, const char *status, int limit);
json_t *srv_mod_audit_db(db_conn *db, int limit);
json_t *srv_mod_sanctions_db(db_conn *db, int64_t now);
/* The audit rows after id `after` that a running server acts on (ban,
 * revoke: the account's connections closed; abort: the game in memory
 * ended) or logs (every action of the command line), at most max into ev; *last: the newest id read.
 * The count, or -1. */
typedef struct srv_mod_event {
    int action;
    int64_t uid;
    char game[SRV_ID_HEX + 1];
    int cli;                    /* made by `chartered admin` (no account) */
    char target[32];            /* for the log: the account or the game */
    char reason[200];
    int64_t until;
} srv_mod_event;
/* The audit rows after row `after` that a server acts on, into ev (at most
 * max; *last: the newest row read). after < 0: the server's first read;
 * it starts after the rows written before from_ms (ms since the epoch: the
 * server's start less a margin), whose effect is in the database already. */
int srv_mod_since_db(db_conn *db, int64_t after, int64_t from_ms, srv_mod_event *ev, int max,
                     int64_t *last);

#endif

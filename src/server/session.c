/* session.c: accounts and sessions in the database, and who sends a request.
 *
 * A session is a random 256-bit token in the cookie `chartered_session`
 * (HttpOnly, SameSite=Lax, Secure over TLS or behind a trusted proxy that
 * says https). The database keeps only its BLAKE2b hash, so a copy of the
 * database opens no session. A session belongs to an account (user name and
 * password) or is a guest's (a name only). Seats are bound to its owner key:
 * "u:ID" for an account (every session of that account plays its seats) or
 * "g:SID" for a guest (SID: a public random id of that one session).
 *
 * A request from another site (an Origin header that is not this server's
 * Host) is treated as having no session: with SameSite=Lax browsers do not
 * send the cookie then anyway, and this covers the WebSocket upgrade, which
 * the same-origin policy does not protect.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "server.h"

/* How long a session lasts from its creation (then: log in again). */
#define SESSION_DAYS 30

static db_conn *db(void)
{
    return srv_store_db(g_srv->store);
}

void srv_session_finalize(void)
{
    /* nothing kept: the statements are the connection's (db.h) */
}

/* The value of cookie `name` in a Cookie header, into out. */
static int cookie_value(const char *hdr, const char *name, char *out, size_t n)
{
    size_t nl = strlen(name);
    for (const char *p = hdr; p && *p;) {
        while (*p == ' ' || *p == ';')
            p++;
        const char *end = strchr(p, ';');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > nl && strncmp(p, name, nl) == 0 && p[nl] == '=') {
            size_t vl = len - nl - 1;
            if (vl >= n)
                return -1;
            memcpy(out, p + nl + 1, vl);
            out[vl] = 0;
            return 0;
        }
        p = end;
    }
    return -1;
}

static int hdr(struct lws *wsi, enum lws_token_indexes t, char *out, int n)
{
    out[0] = 0;
    if (lws_hdr_total_length(wsi, t) <= 0 || lws_hdr_total_length(wsi, t) >= n)
        return -1;
    return lws_hdr_copy(wsi, out, n, t) > 0 ? 0 : -1;
}

/* An Origin header naming another host than Host: a cross-site request. */
int srv_cross_site(struct lws *wsi)
{
    char origin[256], host[256];
    if (hdr(wsi, WSI_TOKEN_ORIGIN, origin, sizeof origin) != 0)
        return lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) > 0; /* too long: refuse */
    if (hdr(wsi, WSI_TOKEN_HOST, host, sizeof host) != 0)
        return 1;
    const char *o = strstr(origin, "://");
    o = o ? o + 3 : origin;
    return strcmp(o, host) != 0;
}

int srv_session_lookup(const char *token, srv_ident *id)
{
    return srv_session_lookup_db(db(), token, id);
}

int srv_session_lookup_db(db_conn *dbc, const char *token, srv_ident *id)
{
    memset(id, 0, sizeof *id);
    if (!token || strlen(token) != SRV_SESSION_HEX)
        return -1;
    srv_token_hash(token, id->hash);
    db_rows *st = db_query(dbc, "SELECT s.sid, s.user_id, s.guest_name, s.created, a.name FROM "
                           "sessions s LEFT JOIN accounts a ON a.id = s.user_id "
                           "WHERE s.hash = $1", DB_P(DB_T(id->hash)));
    if (!st) {
        lwsl_err("database: %s\n", db_errmsg(dbc));
        id->hash[0] = 0;
        return -1;
    }
    int found = 0;
    if (db_next(st) == 1) {
        int64_t created = db_int(st, 3);
        int64_t uid = db_int(st, 1);
        const char *sid = db_text(st, 0);
        const char *gname = db_text(st, 2);
        const char *aname = db_text(st, 4);
        if ((int64_t)time(NULL) - created < (int64_t)SESSION_DAYS * 86400 && sid &&
            (uid ? aname != NULL : 1)) {
            id->user_id = uid;
            if (uid)
                snprintf(id->owner, sizeof id->owner, "u:%lld", (long long)uid);
            else
                snprintf(id->owner, sizeof id->owner, "g:%s", sid);
            snprintf(id->name, sizeof id->name, "%s", uid ? aname : (gname ? gname : "guest"));
            found = 1;
        }
    }
    db_end(st);
    if (!found)
        id->hash[0] = 0;
    return found ? 0 : -1;
}

static const srv_ident *pre_ident;

void srv_ident_use(const srv_ident *pre)
{
    pre_ident = pre;
}

int srv_session_token(struct lws *wsi, char *tok, size_t n)
{
    char cookies[2048];
    if (hdr(wsi, WSI_TOKEN_HTTP_COOKIE, cookies, sizeof cookies) != 0 ||
        cookie_value(cookies, "chartered_session", tok, n) != 0)
        return -1;
    return srv_cross_site(wsi) ? -1 : 0;
}

void srv_ident_of(struct lws *wsi, srv_ident *id)
{
    memset(id, 0, sizeof *id);
    char tok[SRV_SESSION_HEX + 2];
    if (srv_session_token(wsi, tok, sizeof tok) != 0)
        return;
    if (pre_ident) { /* read off the loop already (reads.c) */
        *id = *pre_ident;
        return;
    }
    if (srv_session_lookup(tok, id) != 0)
        memset(id, 0, sizeof *id);
}

int srv_session_alive(const char *hash)
{
    return srv_session_alive_db(db(), hash);
}

int srv_session_alive_db(db_conn *dbc, const char *hash)
{
    if (!hash || !*hash)
        return 0;
    return db_one_int(dbc, "SELECT 1 FROM sessions WHERE hash = $1", DB_P(DB_T(hash)), 0,
                      NULL) == 1;
}

int srv_session_new(int64_t user_id, const char *name, int guest, srv_newsession *ns)
{
    memset(ns, 0, sizeof *ns);
    if (srv_random_hex(ns->token, SRV_SESSION_HEX) != 0 || srv_random_hex(ns->sid, 16) != 0)
        return -1;
    srv_token_hash(ns->token, ns->id.hash);
    ns->guest = guest;
    ns->id.user_id = guest ? 0 : user_id;
    snprintf(ns->id.name, sizeof ns->id.name, "%s", name ? name : "guest");
    srv_session_owner(ns);
    return 0;
}

void srv_session_owner(srv_newsession *ns)
{
    if (ns->guest)
        snprintf(ns->id.owner, sizeof ns->id.owner, "g:%s", ns->sid);
    else
        snprintf(ns->id.owner, sizeof ns->id.owner, "u:%lld", (long long)ns->id.user_id);
}

int srv_session_write(db_conn *wdb, const srv_newsession *ns)
{
    return db_exec(wdb, "INSERT INTO sessions(hash, sid, user_id, guest_name, created) "
                   "VALUES($1,$2,$3,$4,$5)",
                   DB_P(DB_T(ns->id.hash), DB_T(ns->sid),
                        ns->guest ? DB_NULL : DB_I(ns->id.user_id),
                        DB_T(ns->guest ? ns->id.name : NULL), DB_I((int64_t)time(NULL))))
               ? -1 : 0;
}

int srv_session_create(int64_t user_id, const char *guest_name, char token[SRV_SESSION_HEX + 1],
                       srv_ident *id)
{
    srv_newsession ns;
    memset(id, 0, sizeof *id);
    if (srv_session_new(user_id, guest_name, user_id == 0, &ns) != 0)
        return -1;
    if (srv_session_write(db(), &ns) != 0) {
        lwsl_err("database: %s\n", db_errmsg(db()));
        return -1;
    }
    memcpy(token, ns.token, SRV_SESSION_HEX + 1);
    sodium_memzero(ns.token, sizeof ns.token);
    return srv_session_lookup(token, id);
}

int srv_session_delete(const char *hash)
{
    return db_exec(db(), "DELETE FROM sessions WHERE hash = $1", DB_P(DB_T(hash))) ? -1 : 0;
}

int srv_account_find(const char *name, int64_t *user_id, char *pwhash, size_t n, char *shown,
                     size_t sn)
{
    db_rows *st = db_query(db(), "SELECT id, pwhash, name FROM accounts WHERE name_key = "
                           "lower($1)", DB_P(DB_T(name)));
    if (!st)
        return -1;
    int rc = db_next(st), found = 0;
    if (rc == 1) {
        *user_id = db_int(st, 0);
        snprintf(pwhash, n, "%s", db_text(st, 1) ? db_text(st, 1) : "");
        if (shown)
            snprintf(shown, sn, "%s", db_text(st, 2) ? db_text(st, 2) : "");
        found = 1;
    }
    return db_end(st) == 0 && rc >= 0 ? found : -1;
}

int srv_account_insert(db_conn *wdb, const char *name, const char *pwhash, int64_t *user_id)
{
    /* RETURNING: the new id on both back ends (no last_insert_rowid) */
    db_rows *st = db_query(wdb, "INSERT INTO accounts(name, name_key, pwhash, created) "
                           "VALUES($1, lower($2), $3, $4) RETURNING id",
                           DB_P(DB_T(name), DB_T(name), DB_T(pwhash), DB_I((int64_t)time(NULL))));
    if (!st)
        return db_errclass(wdb) == DB_CONFLICT ? 1 : -1;
    int rc = db_next(st);
    if (rc == 1)
        *user_id = db_int(st, 0);
    db_end(st);
    if (rc == DB_CONFLICT)
        return 1; /* the name is taken */
    return rc == 1 ? 0 : -1;
}

int srv_account_set_hash(db_conn *wdb, int64_t user_id, const char *pwhash)
{
    return db_exec(wdb, "UPDATE accounts SET pwhash = $1 WHERE id = $2",
                   DB_P(DB_T(pwhash), DB_I(user_id))) ? -1 : 0;
}

int srv_request_secure(struct lws *wsi)
{
    char proto[16];
    if (lws_is_ssl(wsi))
        return 1;
    return g_srv->opt.trust_proxy &&
           lws_hdr_custom_copy(wsi, proto, (int)sizeof proto, "x-forwarded-proto:", 18) > 0 &&
           strcmp(proto, "https") == 0;
}

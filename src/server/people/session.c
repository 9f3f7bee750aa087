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

#include "people/people.h"

/* How long a session lasts from its creation (then: log in again). */
#define SESSION_DAYS 30

static db_conn *db(void)
{
    return srv_store_db(g_storage.store);
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

/* "Last seen" of a session (the list of one's sessions): written when a
 * lookup finds it SEEN_EVERY_S or more after the last time, so that an
 * active session costs one write in five minutes, not one per request
 * (the lookups run on the writer thread: reads.c). */
#define SEEN_EVERY_S 300

static void touch(db_conn *dbc, const char *hash)
{
    int64_t now = (int64_t)time(NULL);
    db_exec(dbc, "UPDATE sessions SET last_seen = $1 WHERE hash = $2 AND "
            "(last_seen IS NULL OR last_seen <= $3)",
            DB_P(DB_I(now), DB_T(hash), DB_I(now - SEEN_EVERY_S)));
}

int srv_session_lookup_db(db_conn *dbc, const char *token, srv_ident *id)
{
    memset(id, 0, sizeof *id);
    if (!token || strlen(token) != SRV_SESSION_HEX)
        return -1;
    srv_token_hash(token, id->hash);
    db_rows *st = db_query(dbc, "SELECT s.sid, s.user_id, s.guest_name, s.created, a.name, a.role FROM "
                           "sessions s LEFT JOIN accounts a ON a.id = s.user_id "
                           "WHERE s.hash = $1", DB_P(DB_T(id->hash)));
    if (!st) {
        srv_logf(SRV_LOG_ERROR, "db.error", "%s", db_errmsg(dbc));
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
            /* the role as stored now (moderation.c): read with the session
               at every request, so a role taken away counts at once */
            int role = uid ? srv_role_parse(db_text(st, 5)) : SRV_ROLE_PLAYER;
            id->role = role < 0 ? SRV_ROLE_PLAYER : role;
            found = 1;
        }
    }
    db_end(st);
    if (!found)
        id->hash[0] = 0;
    else
        touch(dbc, id->hash);
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
    int64_t now = (int64_t)time(NULL);
    return db_exec(wdb, "INSERT INTO sessions(hash, sid, user_id, guest_name, created, "
                   "last_seen, addr, agent) VALUES($1,$2,$3,$4,$5,$6,$7,$8)",
                   DB_P(DB_T(ns->id.hash), DB_T(ns->sid),
                        ns->guest ? DB_NULL : DB_I(ns->id.user_id),
                        DB_T(ns->guest ? ns->id.name : NULL), DB_I(now), DB_I(now),
                        DB_T(ns->addr), DB_T(ns->agent)))
               ? -1 : 0;
}

void srv_client_network(struct lws *wsi, char *out, size_t n)
{
    char a[64];
    srv_client_addr(wsi, a, sizeof a);
    /* the network, not the address: enough to tell "home" from "a phone
       abroad", and no more of the person than that kept */
    int o[4];
    char tail;
    if (sscanf(a, "%d.%d.%d.%d%c", &o[0], &o[1], &o[2], &o[3], &tail) == 4 && o[0] >= 0 &&
        o[0] < 256 && o[1] >= 0 && o[1] < 256 && o[2] >= 0 && o[2] < 256) {
        snprintf(out, n, "%d.%d.%d.0/24", o[0], o[1], o[2]);
    } else if (strchr(a, ':')) { /* IPv6: the first three groups, a /48 */
        size_t k = 0;
        int groups = 0;
        for (; a[k] && k < 20; k++) {
            if (a[k] == ':' && ++groups == 3)
                break;
            if (!strchr("0123456789abcdefABCDEF:", a[k]))
                break;
        }
        snprintf(out, n, "%.*s::/48", (int)k, a);
    } else {
        snprintf(out, n, "?");
    }
}

void srv_session_origin(struct lws *wsi, srv_newsession *ns)
{
    srv_client_network(wsi, ns->addr, sizeof ns->addr);
    char ua[512];
    ns->agent[0] = 0;
    if (hdr(wsi, WSI_TOKEN_HTTP_USER_AGENT, ua, sizeof ua) == 0) {
        size_t k = 0;
        for (const char *p = ua; *p && k + 1 < sizeof ns->agent; p++)
            ns->agent[k++] = (*p >= 0x20 && *p < 0x7f) ? *p : '?';
        ns->agent[k] = 0;
    }
}

/* ---- one's sessions (docs/identity.md, "Sessions") ---------------------- */

json_t *srv_sessions_list_db(db_conn *c, const srv_ident *me)
{
    if (!me->owner[0])
        return NULL;
    /* an account's sessions, or a guest's one */
    db_rows *st = me->user_id > 0
        ? db_query(c, "SELECT sid, created, last_seen, addr, agent, hash FROM sessions "
                   "WHERE user_id = $1 AND created > $2 ORDER BY created DESC",
                   DB_P(DB_I(me->user_id),
                        DB_I((int64_t)time(NULL) - (int64_t)SESSION_DAYS * 86400)))
        : db_query(c, "SELECT sid, created, last_seen, addr, agent, hash FROM sessions "
                   "WHERE hash = $1", DB_P(DB_T(me->hash)));
    if (!st)
        return NULL;
    json_t *out = json_array();
    while (db_next(st) == 1) {
        const char *h = db_text(st, 5);
        int cur = h && strlen(h) == SRV_HASH_HEX &&
                  sodium_memcmp(h, me->hash, SRV_HASH_HEX) == 0;
        json_array_append_new(
            out, json_pack("{s:s,s:I,s:I,s:s,s:s,s:b}", "id", db_text(st, 0) ? db_text(st, 0) : "",
                           "created", (json_int_t)db_int(st, 1), "last_seen",
                           (json_int_t)(db_null(st, 2) ? db_int(st, 1) : db_int(st, 2)),
                           "address", db_text(st, 3) ? db_text(st, 3) : "?",
                           "agent", db_text(st, 4) ? db_text(st, 4) : "", "current", cur));
    }
    db_end(st);
    return out;
}

int srv_sessions_end_db(db_conn *c, const srv_ident *me, const char *sid, int keep_own,
                        srv_hashes *out)
{
    out->n = 0;
    out->h = NULL;
    db_rows *st;
    /* whose sessions: the account's, or the guest's own one */
    if (me->user_id > 0 && sid)
        st = db_query(c, "SELECT hash FROM sessions WHERE user_id = $1 AND sid = $2",
                      DB_P(DB_I(me->user_id), DB_T(sid)));
    else if (me->user_id > 0)
        st = db_query(c, "SELECT hash FROM sessions WHERE user_id = $1",
                      DB_P(DB_I(me->user_id)));
    else if (sid)
        st = db_query(c, "SELECT hash FROM sessions WHERE hash = $1 AND sid = $2",
                      DB_P(DB_T(me->hash), DB_T(sid)));
    else
        st = db_query(c, "SELECT hash FROM sessions WHERE hash = $1", DB_P(DB_T(me->hash)));
    if (!st)
        return -1;
    while (db_next(st) == 1) {
        const char *h = db_text(st, 0);
        if (!h || strlen(h) != SRV_HASH_HEX)
            continue;
        if (keep_own && sodium_memcmp(h, me->hash, SRV_HASH_HEX) == 0)
            continue;
        char(*nh)[SRV_HASH_HEX + 1] = realloc(out->h, (size_t)(out->n + 1) * sizeof *nh);
        if (!nh)
            break;
        out->h = nh;
        snprintf(out->h[out->n++], SRV_HASH_HEX + 1, "%s", h);
    }
    if (db_end(st) != 0)
        return -1;
    for (int i = 0; i < out->n; i++)
        if (db_exec(c, "DELETE FROM sessions WHERE hash = $1", DB_P(DB_T(out->h[i]))) != 0)
            return -1;
    return 0;
}

int srv_sessions_sweep_db(db_conn *c, int64_t now_s)
{
    if (db_exec(c, "DELETE FROM sessions WHERE created <= $1",
                DB_P(DB_I(now_s - (int64_t)SESSION_DAYS * 86400))) != 0)
        return -1;
    return db_changes(c);
}

int srv_session_create(int64_t user_id, const char *guest_name, char token[SRV_SESSION_HEX + 1],
                       srv_ident *id)
{
    srv_newsession ns;
    memset(id, 0, sizeof *id);
    if (srv_session_new(user_id, guest_name, user_id == 0, &ns) != 0)
        return -1;
    if (srv_session_write(db(), &ns) != 0) {
        srv_logf(SRV_LOG_ERROR, "db.error", "%s", db_errmsg(db()));
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
    char skel[128];
    srv_name_skeleton(name, skel, sizeof skel);
    db_rows *st = db_query(wdb, "INSERT INTO accounts(name, name_key, pwhash, created, "
                           "name_skel) VALUES($1, lower($2), $3, $4, $5) RETURNING id",
                           DB_P(DB_T(name), DB_T(name), DB_T(pwhash), DB_I((int64_t)time(NULL)),
                                DB_T(skel)));
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

int srv_account_lookalike(db_conn *c, const char *name)
{
    char skel[128];
    srv_name_skeleton(name, skel, sizeof skel);
    if (!skel[0])
        return 0;
    int rc = 0;
    int64_t v = db_one_int(c, "SELECT 1 FROM accounts WHERE name_skel = $1", DB_P(DB_T(skel)),
                           0, &rc);
    return rc != 0 ? -1 : v == 1;
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
    return g_net.trust_proxy &&
           lws_hdr_custom_copy(wsi, proto, (int)sizeof proto, "x-forwarded-proto:", 18) > 0 &&
           strcmp(proto, "https") == 0;
}

/* ---- expired sessions deleted (issue 28) --------------------------------- */
/* A lookup refuses a session older than SESSION_DAYS already; its row is
 * deleted by the sweep, once at start and then every SWEEP_EVERY_MS, on the
 * writer thread (srv_dbjob_submit), so the loop never waits on it. */
#define SWEEP_EVERY_MS (3600LL * 1000)

static int sweeping;

static void sweep_run(db_conn *c, void *arg)
{
    int64_t *n = arg;
    *n = srv_sessions_sweep_db(c, (int64_t)time(NULL));
}

static void sweep_done(void *arg)
{
    int64_t *n = arg;
    if (*n < 0)
        srv_logf(SRV_LOG_WARN, "db.error", "expired sessions could not be deleted now: next time");
    free(n);
    sweeping = 0;
}

void srv_session_sweep(int64_t now_ms)
{
    static int64_t next_ms;
    if (!g_storage.store || sweeping || now_ms < next_ms)
        return;
    int64_t *n = calloc(1, sizeof *n);
    if (!n)
        return;
    next_ms = now_ms + SWEEP_EVERY_MS;
    sweeping = 1;
    srv_dbjob_submit(sweep_run, sweep_done, n);
}

/* ---- a guest's seats into its new account (issue 28) --------------------- */
int srv_seats_carry_db(db_conn *c, const char *guest_owner, int64_t user_id, const char *name)
{
    char like[128], owner[SRV_OWNER_MAX];
    /* a guest's owner key is "g:" and hex: nothing LIKE would read as a
       pattern, checked all the same */
    if (strncmp(guest_owner, "g:", 2) || strlen(guest_owner) > 100 ||
        strpbrk(guest_owner, "%_\\\""))
        return 0;
    snprintf(like, sizeof like, "%%\"owner\":\"%s\"%%", guest_owner);
    snprintf(owner, sizeof owner, "u:%lld", (long long)user_id);
    db_rows *r = db_query(c, "SELECT id, seats FROM games WHERE seats LIKE $1", DB_P(DB_T(like)));
    if (!r)
        return -1;
    struct upd {
        char id[SRV_ID_HEX + 1];
        char *seats;
        int seat;
    } *u = NULL;
    int n = 0, rc = 0;
    while (db_next(r) == 1) {
        json_t *seats = db_text(r, 1) ? json_loads(db_text(r, 1), 0, NULL) : NULL;
        size_t i;
        json_t *o;
        int seat = -1;
        json_array_foreach(seats, i, o) {
            const char *ow = json_string_value(json_object_get(o, "owner"));
            if (ow && !strcmp(ow, guest_owner)) {
                json_object_set_new(o, "owner", json_string(owner));
                json_object_set_new(o, "name", json_string(name));
                seat = (int)i;
            }
        }
        char *text = seat >= 0 ? json_dumps(seats, JSON_COMPACT) : NULL;
        json_decref(seats);
        struct upd *nu = text ? realloc(u, (size_t)(n + 1) * sizeof *u) : NULL;
        if (!nu) {
            free(text);
            continue;
        }
        u = nu;
        snprintf(u[n].id, sizeof u[n].id, "%s", db_text(r, 0) ? db_text(r, 0) : "");
        u[n].seats = text;
        u[n].seat = seat;
        n++;
    }
    if (db_end(r) != 0)
        rc = -1;
    for (int i = 0; i < n; i++) {
        if (rc == 0 &&
            (db_exec(c, "UPDATE games SET seats = $1 WHERE id = $2",
                     DB_P(DB_T(u[i].seats), DB_T(u[i].id))) != 0 ||
             db_exec(c, "INSERT INTO game_players(user_id, game, seat) VALUES($1,$2,$3) "
                     "ON CONFLICT DO NOTHING",
                     DB_P(DB_I(user_id), DB_T(u[i].id), DB_I(u[i].seat))) != 0))
            rc = -1;
        free(u[i].seats);
    }
    free(u);
    return rc == 0 ? n : -1;
}

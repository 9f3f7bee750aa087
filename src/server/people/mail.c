/* mail.c: e-mail to people (issue 32, "E-mail"; docs/protocol.md, "E-mail"):
 * an account's address, confirmed by a link; a password reset by e-mail; a
 * "your turn" message for turn-based games, at most one a game a day, each
 * with a one-click unsubscribe; all in the person's language (data/i18n,
 * mail.*).
 *
 * Nothing is sent from the event loop, and no mail waits on a move or a move
 * on a mail: messages are rows of the table mail_queue, written by the
 * writer thread's jobs (the srv_mail_*_db functions, called from
 * api/mail_api.c's jobs) or by the mailer thread below, which has a database
 * connection of its own and:
 *   - every few seconds hands the due rows to the relay (net/smtp.c); a row
 *     is claimed first (next_try pushed on, compared-and-set), so two nodes
 *     of a cluster never send one twice; a relay that is down leaves the row
 *     for later (a back-off of 30 s doubling up to 15 min): mail is delayed,
 *     none lost;
 *   - (a challenge by name queues its message in the challenge's own job:
 *     srv_mail_challenge_db);
 *   - every 30 s looks for people whose turn it is in a turn-based game
 *     (turn_clock, game_players, emails) for a while (10 min: someone at the
 *     table answers first) and queues their message, once a decision and at
 *     most once a game a day (turn_mails, the same compare-and-set).
 * Tokens (confirm, reset, unsubscribe) are 256-bit random, sent only in the
 * message, stored as their hash (tokens.c), single use (unsubscribe:
 * repeatable), and expire (2 days, 1 hour, 90 days).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "people/people.h"

#define CONFIRM_MS (2LL * 86400 * 1000)
#define RESET_MS (3600LL * 1000)
#define UNSUB_MS (90LL * 86400 * 1000)
#define CLAIM_MS (120LL * 1000)

static struct {
    char smtp[512];
    char from[256];
    char base[256];
    char target[1024];
    int64_t day_ms;
    int64_t turn_delay_ms;
    int64_t retry_ms;
    int64_t scan_ms;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int running, stop, kick;
    long long sent, failed;
} M = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static int64_t env_ms(const char *name, double dflt_s)
{
    const char *v = getenv(name);
    char *end;
    double d = v && *v ? strtod(v, &end) : -1;
    if (!v || !*v || *end || !(d >= 0 && d <= 1e7))
        d = dflt_s;
    return (int64_t)(d * 1000);
}

int srv_mail_configure(const char *smtp, const char *from, const char *base, int64_t day_ms,
                       char *why, size_t n)
{
    M.smtp[0] = 0;
    if (!smtp || !*smtp)
        return 0;
    if (strncmp(smtp, "smtp://", 7) && strncmp(smtp, "smtps://", 8)) {
        snprintf(why, n, "--smtp must be an smtp:// or smtps:// URL");
        return -1;
    }
    if (strlen(smtp) >= sizeof M.smtp || strlen(base) >= sizeof M.base ||
        strlen(from) >= sizeof M.from) {
        snprintf(why, n, "--smtp, --mail-from or --public-url is too long");
        return -1;
    }
    if (!srv_mail_address_ok(from)) {
        snprintf(why, n, "--mail-from must be an e-mail address, not '%.80s'", from);
        return -1;
    }
    if (strncmp(base, "http://", 7) && strncmp(base, "https://", 8)) {
        snprintf(why, n, "--public-url must be an http:// or https:// address");
        return -1;
    }
    snprintf(M.smtp, sizeof M.smtp, "%s", smtp);
    snprintf(M.from, sizeof M.from, "%s", from);
    snprintf(M.base, sizeof M.base, "%s", base);
    size_t bl = strlen(M.base);
    while (bl > 0 && M.base[bl - 1] == '/') /* links are base + "/#/..." */
        M.base[--bl] = 0;
    M.day_ms = day_ms;
    M.turn_delay_ms = env_ms("CHARTERED_TURN_MAIL_DELAY_SECONDS", 600);
    M.retry_ms = env_ms("CHARTERED_MAIL_RETRY_SECONDS", 30);
    M.scan_ms = env_ms("CHARTERED_MAIL_SCAN_SECONDS", 30);
    if (M.retry_ms < 100)
        M.retry_ms = 100;
    if (M.scan_ms < 100)
        M.scan_ms = 100;
    return 0;
}

int srv_mail_on(void) { return M.smtp[0] != 0; }

/* A plain address: one '@', a dot after it, no space, quote, angle bracket
 * or control character (nothing that could end a header line or the
 * relay's RCPT TO), at most 254 bytes. */
int srv_mail_address_ok(const char *a)
{
    size_t l = a ? strlen(a) : 0;
    if (l < 3 || l > 254)
        return 0;
    const char *at = strchr(a, '@');
    if (!at || at == a || strchr(at + 1, '@') || !strchr(at + 1, '.') || at[1] == '.' ||
        a[l - 1] == '.')
        return 0;
    for (const unsigned char *p = (const unsigned char *)a; *p; p++)
        if (*p <= ' ' || *p == 127 || strchr("<>\"(),;:[]\\", *p))
            return 0;
    return 1;
}

static int lang_of(const char *code)
{
    int l = code ? chx_lang_find(code) : -1;
    return l < 0 ? CHX_LANG_EN : l;
}

/* A new token: its text (for the link) and its stored hash. */
static int new_token(char tok[SRV_SESSION_HEX + 1], char hash[SRV_HASH_HEX + 1])
{
    if (srv_random_hex(tok, SRV_SESSION_HEX) != 0)
        return -1;
    srv_token_hash(tok, hash);
    return 0;
}

static int put_token(db_conn *db, const char *hash, int64_t uid, const char *kind,
                     const char *address, int64_t expires)
{
    return db_exec(db, "INSERT INTO mail_tokens(hash, user_id, kind, address, expires, used) "
                   "VALUES($1,$2,$3,$4,$5,0)",
                   DB_P(DB_T(hash), DB_I(uid), DB_T(kind), DB_T(address), DB_I(expires)));
}

/* One message into the queue: subject and body from the catalogue (key.subject,
 * key.body) with the pairs given (name, value, ..., NULL). */
static int queue(db_conn *db, const char *to, int lang, const char *key, const char *unsub,
                 int64_t now, ...)
{
    char k[64], subject[300], body[4096];
    va_list ap;
    snprintf(k, sizeof k, "%s.subject", key);
    va_start(ap, now);
    chx_vformat(lang, subject, sizeof subject, k, ap);
    va_end(ap);
    snprintf(k, sizeof k, "%s.body", key);
    va_start(ap, now);
    chx_vformat(lang, body, sizeof body, k, ap);
    va_end(ap);
    int rc = db_exec(db, "INSERT INTO mail_queue(to_addr, subject, body, unsub, created, "
                     "next_try, attempts) VALUES($1,$2,$3,$4,$5,$5,0)",
                     DB_P(DB_T(to), DB_T(subject), DB_T(body), unsub ? DB_T(unsub) : DB_NULL,
                          DB_I(now)));
    return rc ? -1 : 0;
}

void srv_mail_kick(void)
{
    pthread_mutex_lock(&M.mu);
    M.kick = 1;
    pthread_cond_signal(&M.cv);
    pthread_mutex_unlock(&M.mu);
}

/* ---- on the writer thread (api/mail_api.c's jobs) ------------------------ */

int srv_mail_address_db(db_conn *db, int64_t uid, const char *name, const char *address,
                        const char *lang, int64_t now)
{
    char tok[SRV_SESSION_HEX + 1], hash[SRV_HASH_HEX + 1], link[700];
    if (new_token(tok, hash) != 0)
        return -1;
    snprintf(link, sizeof link, "%s/#/email/confirm/%s", M.base, tok);
    int l = lang_of(lang);
    int rc = db_begin(db);
    if (rc == 0)
        rc = db_exec(db, "INSERT INTO emails(user_id, address, confirmed, lang, turn_mail) "
                     "VALUES($1,$2,0,$3,1) ON CONFLICT(user_id) DO UPDATE SET "
                     "address=excluded.address, confirmed=0, lang=excluded.lang",
                     DB_P(DB_I(uid), DB_T(address), DB_T(chx_lang_code(l))));
    if (rc == 0)
        rc = put_token(db, hash, uid, "confirm", address, now + CONFIRM_MS);
    if (rc == 0)
        rc = queue(db, address, l, "mail.confirm", NULL, now, "name", name, "address", address,
                   "link", link, (char *)NULL);
    if (rc == 0)
        rc = db_commit(db);
    if (rc != 0)
        db_rollback(db);
    sodium_memzero(tok, sizeof tok);
    sodium_memzero(link, sizeof link);
    return rc ? -1 : 0;
}

/* Take a token of kind: 1 and its account (and address) when it stands (not
 * expired; single-use kinds not used), marked used; 0 when it does not; -1
 * on a database error. */
static int take_token(db_conn *db, const char *token, const char *kind, int once, int64_t now,
                      int64_t *uid, char *address, size_t an)
{
    if (strlen(token) != SRV_SESSION_HEX)
        return 0;
    char hash[SRV_HASH_HEX + 1];
    srv_token_hash(token, hash);
    db_rows *r = db_query(db, once ? "UPDATE mail_tokens SET used=1 WHERE hash=$1 AND kind=$2 "
                                     "AND used=0 AND expires>$3 RETURNING user_id, address"
                                   : "UPDATE mail_tokens SET used=used+1 WHERE hash=$1 AND "
                                     "kind=$2 AND expires>$3 RETURNING user_id, address",
                          DB_P(DB_T(hash), DB_T(kind), DB_I(now)));
    if (!r)
        return -1;
    int st = db_next(r), found = 0;
    if (st == 1) {
        *uid = db_int(r, 0);
        if (address)
            snprintf(address, an, "%s", db_text(r, 1) ? db_text(r, 1) : "");
        found = 1;
    }
    return db_end(r) == 0 && st >= 0 ? found : -1;
}

int srv_mail_confirm_db(db_conn *db, const char *token, int64_t now)
{
    int64_t uid = 0;
    char address[300];
    int rc = take_token(db, token, "confirm", 1, now, &uid, address, sizeof address);
    if (rc <= 0)
        return rc;
    /* the address the link was sent to, if it is still the account's */
    if (db_exec(db, "UPDATE emails SET confirmed=1 WHERE user_id=$1 AND address=$2",
                DB_P(DB_I(uid), DB_T(address))))
        return -1;
    return db_changes(db) == 1 ? 1 : 0;
}

int srv_mail_forgot_db(db_conn *db, const char *name, int64_t now)
{
    db_rows *r = db_query(db, "SELECT a.id, a.name, e.address, e.lang FROM accounts a JOIN "
                          "emails e ON e.user_id = a.id WHERE a.name_key = lower($1) AND "
                          "e.confirmed = 1", DB_P(DB_T(name)));
    if (!r)
        return -1;
    int st = db_next(r);
    int64_t uid = 0;
    char shown[64] = "", address[300] = "", lang[8] = "en";
    if (st == 1) {
        uid = db_int(r, 0);
        snprintf(shown, sizeof shown, "%s", db_text(r, 1) ? db_text(r, 1) : "");
        snprintf(address, sizeof address, "%s", db_text(r, 2) ? db_text(r, 2) : "");
        snprintf(lang, sizeof lang, "%s", db_text(r, 3) ? db_text(r, 3) : "en");
    }
    if (db_end(r) != 0 || st < 0)
        return -1;
    if (st != 1)
        return 0; /* no such account, or no confirmed address: nothing sent */
    char tok[SRV_SESSION_HEX + 1], hash[SRV_HASH_HEX + 1], link[700];
    if (new_token(tok, hash) != 0)
        return -1;
    snprintf(link, sizeof link, "%s/#/reset/%s", M.base, tok);
    int rc = db_begin(db);
    if (rc == 0)
        rc = put_token(db, hash, uid, "reset", address, now + RESET_MS);
    if (rc == 0)
        rc = queue(db, address, lang_of(lang), "mail.reset", NULL, now, "name", shown, "link",
                   link, (char *)NULL);
    if (rc == 0)
        rc = db_commit(db);
    if (rc != 0)
        db_rollback(db);
    sodium_memzero(tok, sizeof tok);
    sodium_memzero(link, sizeof link);
    return rc ? -1 : 1;
}

int srv_mail_reset_db(db_conn *db, const char *token, const char *pwhash, int64_t now,
                      srv_hashes *ended)
{
    ended->n = 0;
    ended->h = NULL;
    if (db_begin(db) != 0) {
        db_rollback(db);
        return -1;
    }
    int64_t uid = 0;
    int rc = take_token(db, token, "reset", 1, now, &uid, NULL, 0);
    if (rc == 1) {
        srv_ident me;
        memset(&me, 0, sizeof me);
        snprintf(me.owner, sizeof me.owner, "u:%lld", (long long)uid);
        me.user_id = uid;
        /* the new password, and every session of the account ends */
        if (srv_account_set_hash(db, uid, pwhash) != 0 ||
            srv_sessions_end_db(db, &me, NULL, 0, ended) != 0)
            rc = -1;
    }
    if (rc == 1 && db_commit(db) == 0)
        return 1;
    db_rollback(db);
    free(ended->h);
    ended->n = 0;
    ended->h = NULL;
    return rc == 0 ? 0 : -1;
}

/* A challenge by name (api/challenge_api.c): its message to the challenged
 * person, queued in the challenge's own job, when mail is on and that
 * person has a confirmed address with game mail on (the switch of "your
 * turn": one unsubscribe stops both), in their language, with a one-click
 * unsubscribe like "your turn". 1 queued, 0 nobody to send it to, -1 a
 * database error. */
int srv_mail_challenge_db(db_conn *db, int64_t to_uid, const char *from, const char *edition,
                          int days, int64_t now)
{
    if (!srv_mail_on())
        return 0;
    db_rows *r = db_query(db, "SELECT e.address, e.lang, a.name FROM emails e JOIN accounts a ON "
                          "a.id = e.user_id WHERE e.user_id = $1 AND e.confirmed = 1 AND "
                          "e.turn_mail = 1", DB_P(DB_I(to_uid)));
    if (!r)
        return -1;
    char address[300] = "", lang[8] = "en", name[64] = "";
    int st = db_next(r);
    if (st == 1) {
        snprintf(address, sizeof address, "%s", db_text(r, 0) ? db_text(r, 0) : "");
        snprintf(lang, sizeof lang, "%s", db_text(r, 1) ? db_text(r, 1) : "en");
        snprintf(name, sizeof name, "%s", db_text(r, 2) ? db_text(r, 2) : "");
    }
    if (db_end(r) != 0 || st < 0)
        return -1;
    if (st == 0 || !address[0])
        return 0;
    int l = lang_of(lang);
    char tok[SRV_SESSION_HEX + 1], hash[SRV_HASH_HEX + 1], link[400], unsub[400], post[400],
        ed[80], pace[80], k[48], n[16];
    if (new_token(tok, hash) != 0)
        return -1;
    snprintf(link, sizeof link, "%s/#/", M.base);
    snprintf(unsub, sizeof unsub, "%s/#/unsubscribe/%s", M.base, tok);
    snprintf(post, sizeof post, "%s/api/unsubscribe/%s", M.base, tok);
    snprintf(k, sizeof k, "mail.edition.%s", edition && !strcmp(edition, "golden-age")
             ? "golden-age" : "amsterdam");
    chx_format(l, ed, sizeof ed, k, (char *)NULL);
    snprintf(n, sizeof n, "%d", days);
    if (days > 0) {
        char dtext[64];
        chx_format(l, dtext, sizeof dtext, "mail.days", "n", n, (char *)NULL);
        chx_format(l, pace, sizeof pace, "mail.pace_days", "days", dtext, (char *)NULL);
    } else {
        chx_format(l, pace, sizeof pace, "mail.pace_live", (char *)NULL);
    }
    int rc = put_token(db, hash, to_uid, "unsub", address, now + UNSUB_MS);
    if (rc == 0)
        rc = queue(db, address, l, "mail.challenge", post, now, "name", name, "from", from,
                   "edition", ed, "pace", pace, "link", link, "unsubscribe", unsub,
                   (char *)NULL);
    sodium_memzero(tok, sizeof tok);
    return rc == 0 ? 1 : -1;
}

int srv_mail_unsubscribe_db(db_conn *db, const char *token, int64_t now)
{
    int64_t uid = 0;
    int rc = take_token(db, token, "unsub", 0, now, &uid, NULL, 0);
    if (rc <= 0)
        return rc;
    return db_exec(db, "UPDATE emails SET turn_mail=0 WHERE user_id=$1", DB_P(DB_I(uid))) ? -1
                                                                                          : 1;
}

json_t *srv_mail_info_db(db_conn *db, int64_t uid)
{
    db_rows *r = db_query(db, "SELECT address, confirmed, turn_mail FROM emails WHERE "
                          "user_id=$1", DB_P(DB_I(uid)));
    if (!r)
        return NULL;
    int st = db_next(r);
    json_t *j = json_pack("{s:b}", "enabled", srv_mail_on());
    if (st == 1) {
        json_object_set_new(j, "address", json_string(db_text(r, 0) ? db_text(r, 0) : ""));
        json_object_set_new(j, "confirmed", json_boolean(db_int(r, 1)));
        json_object_set_new(j, "turn_mail", json_boolean(db_int(r, 2)));
    } else {
        json_object_set_new(j, "address", json_null());
    }
    if (db_end(r) != 0 || st < 0) {
        json_decref(j);
        return NULL;
    }
    return j;
}

int srv_mail_prefs_db(db_conn *db, int64_t uid, int turn_mail)
{
    if (db_exec(db, "UPDATE emails SET turn_mail=$1 WHERE user_id=$2",
                DB_P(DB_I(turn_mail ? 1 : 0), DB_I(uid))))
        return -1;
    return db_changes(db) == 1 ? 1 : 0;
}

/* ---- the mailer thread --------------------------------------------------- */

static void b64(const char *in, size_t len, char *out, size_t n)
{
    sodium_bin2base64(out, n, (const unsigned char *)in, len, sodium_base64_VARIANT_ORIGINAL);
}

/* The whole message: headers (the subject in RFC 2047 words, so any
 * language passes), then the body in base64 lines of 76. */
/* The domain of an address, for the log: who the relay delivers to, not
 * the person (an address is personal data; the log needs none). */
static const char *domain_of(const char *to)
{
    const char *at = to ? strrchr(to, '@') : NULL;
    return at && at[1] ? at + 1 : "-";
}

static char *compose(const char *to, const char *subject, const char *body, const char *unsub)
{
    size_t bl = strlen(body), sl = strlen(subject);
    size_t b64n = sodium_base64_ENCODED_LEN(bl, sodium_base64_VARIANT_ORIGINAL);
    size_t s64n = sodium_base64_ENCODED_LEN(sl, sodium_base64_VARIANT_ORIGINAL);
    char *eb = malloc(b64n), *es = malloc(s64n);
    size_t cap = b64n + b64n / 76 * 2 + s64n + 2048 + (unsub ? strlen(unsub) : 0);
    char *m = malloc(cap);
    if (!eb || !es || !m) {
        free(eb);
        free(es);
        free(m);
        return NULL;
    }
    b64(body, bl, eb, b64n);
    b64(subject, sl, es, s64n);
    char date[64], mid[33];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S +0000", &tm);
    srv_random_hex(mid, 32);
    const char *dom = strchr(M.from, '@');
    size_t k = (size_t)snprintf(m, cap,
                                "From: Chartered <%s>\r\nTo: <%s>\r\nSubject: =?UTF-8?B?%s?=\r\n"
                                "Date: %s\r\nMessage-ID: <%s%s>\r\nMIME-Version: 1.0\r\n"
                                "Content-Type: text/plain; charset=UTF-8\r\n"
                                "Content-Transfer-Encoding: base64\r\n",
                                M.from, to, es, date, mid, dom ? dom : "@chartered");
    if (unsub && k < cap)
        k += (size_t)snprintf(m + k, cap - k, "List-Unsubscribe: <%s>\r\n"
                              "List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n", unsub);
    if (k < cap)
        k += (size_t)snprintf(m + k, cap - k, "\r\n");
    for (size_t i = 0, el = strlen(eb); i < el && k + 80 < cap; i += 76)
        k += (size_t)snprintf(m + k, cap - k, "%.76s\r\n", eb + i);
    free(eb);
    free(es);
    return m;
}

/* The due messages: claimed, sent, marked. */
static void send_due(db_conn *db, int64_t now)
{
    db_rows *r = db_query(db, "SELECT id, to_addr, subject, body, unsub, attempts, next_try "
                          "FROM mail_queue WHERE sent IS NULL AND next_try <= $1 ORDER BY id "
                          "LIMIT 20", DB_P(DB_I(now)));
    if (!r)
        return;
    typedef struct { int64_t id, attempts, next; char *to, *subject, *body, *unsub; } row;
    row rows[20];
    int n = 0;
    while (n < 20 && db_next(r) == 1) {
        row *w = &rows[n++];
        w->id = db_int(r, 0);
        w->to = strdup(db_text(r, 1) ? db_text(r, 1) : "");
        w->subject = strdup(db_text(r, 2) ? db_text(r, 2) : "");
        w->body = strdup(db_text(r, 3) ? db_text(r, 3) : "");
        w->unsub = db_null(r, 4) ? NULL : strdup(db_text(r, 4));
        w->attempts = db_int(r, 5);
        w->next = db_int(r, 6);
    }
    db_end(r);
    for (int i = 0; i < n; i++) {
        row *w = &rows[i];
        /* claimed by this node for a while: another node skips it */
        int claimed = db_exec(db, "UPDATE mail_queue SET next_try=$1 WHERE id=$2 AND "
                              "next_try=$3 AND sent IS NULL",
                              DB_P(DB_I(now + CLAIM_MS), DB_I(w->id), DB_I(w->next))) == 0 &&
                      db_changes(db) == 1;
        char *msg = claimed && w->to && w->subject && w->body
                        ? compose(w->to, w->subject, w->body, w->unsub)
                        : NULL;
        char why[300];
        if (msg && srv_smtp_send(M.smtp, M.from, w->to, msg, why, sizeof why) == 0) {
            db_exec(db, "UPDATE mail_queue SET sent=$1, body='', last_error=NULL WHERE id=$2",
                    DB_P(DB_I(srv_now_ms()), DB_I(w->id)));
            __atomic_add_fetch(&M.sent, 1, __ATOMIC_RELAXED);
            srv_logf(SRV_LOG_INFO, "mail.sent", "mail=%lld to_domain=%s attempt=%lld a mail is "
                    "handed to the relay", (long long)w->id, domain_of(w->to),
                    (long long)w->attempts + 1);
            srv_metrics_inc(SRV_M_MAIL_SENT, 1);
        } else if (msg) {
            int64_t back = M.retry_ms << (w->attempts < 5 ? w->attempts : 5);
            if (back > 15 * 60 * 1000)
                back = 15 * 60 * 1000;
            db_exec(db, "UPDATE mail_queue SET attempts=attempts+1, next_try=$1, last_error=$2 "
                    "WHERE id=$3", DB_P(DB_I(srv_now_ms() + back), DB_T(why), DB_I(w->id)));
            __atomic_add_fetch(&M.failed, 1, __ATOMIC_RELAXED);
            srv_metrics_inc(SRV_M_MAIL_FAILED, 1);
            /* the relay's reason, never the message or its tokens */
            srv_logf(SRV_LOG_WARN, "mail.failed", "mail=%lld to_domain=%s attempt=%lld "
                    "next_s=%lld the mail is not sent: %s", (long long)w->id, domain_of(w->to),
                    (long long)w->attempts + 1, (long long)(back / 1000), why);
        }
        if (msg)
            sodium_memzero(msg, strlen(msg));
        free(msg);
        if (w->body)
            sodium_memzero(w->body, strlen(w->body));
        free(w->to);
        free(w->subject);
        free(w->body);
        free(w->unsub);
    }
}

/* People whose turn it has been for a while in a turn-based game: a message,
 * once a decision and at most once a game a day. */
static void scan_turns(db_conn *db, int64_t now)
{
    db_rows *r = db_query(db, "SELECT t.game, t.since, t.days, t.to_move, p.user_id, p.seat, "
                          "e.address, e.lang, a.name FROM turn_clock t JOIN game_players p ON "
                          "p.game = t.game JOIN emails e ON e.user_id = p.user_id JOIN accounts "
                          "a ON a.id = p.user_id WHERE t.since > 0 AND t.to_move <> 0 AND "
                          "e.confirmed = 1 AND e.turn_mail = 1 AND t.since <= $1",
                          DB_P(DB_I(now - M.turn_delay_ms)));
    if (!r)
        return;
    typedef struct { char game[40], address[300], lang[8], name[64]; int64_t since, days, uid; } due;
    due *d = NULL;
    int n = 0, cap = 0;
    while (db_next(r) == 1) {
        int seat = (int)db_int(r, 5);
        if (seat < 0 || seat > 31 || !((db_int(r, 3) >> seat) & 1))
            continue;
        if (n == cap) {
            due *nd = realloc(d, (size_t)(cap = cap ? cap * 2 : 16) * sizeof *d);
            if (!nd)
                break;
            d = nd;
        }
        due *x = &d[n++];
        snprintf(x->game, sizeof x->game, "%s", db_text(r, 0) ? db_text(r, 0) : "");
        x->since = db_int(r, 1);
        x->days = db_int(r, 2);
        x->uid = db_int(r, 4);
        snprintf(x->address, sizeof x->address, "%s", db_text(r, 6) ? db_text(r, 6) : "");
        snprintf(x->lang, sizeof x->lang, "%s", db_text(r, 7) ? db_text(r, 7) : "en");
        snprintf(x->name, sizeof x->name, "%s", db_text(r, 8) ? db_text(r, 8) : "");
    }
    db_end(r);
    for (int i = 0; i < n; i++) {
        due *x = &d[i];
        /* not yet for this decision, and none for this game within a day */
        int64_t cut = x->since < now - M.day_ms + 1 ? x->since : now - M.day_ms + 1;
        if (db_begin(db) != 0) {
            db_rollback(db);
            continue;
        }
        int rc = db_exec(db, "INSERT INTO turn_mails(user_id, game, at) VALUES($1,$2,$3) ON "
                         "CONFLICT(user_id, game) DO UPDATE SET at=excluded.at WHERE "
                         "turn_mails.at < $4",
                         DB_P(DB_I(x->uid), DB_T(x->game), DB_I(now), DB_I(cut)));
        if (rc == 0 && db_changes(db) == 1) {
            char tok[SRV_SESSION_HEX + 1], hash[SRV_HASH_HEX + 1], link[400], unsub[400],
                days[16];
            rc = new_token(tok, hash);
            snprintf(link, sizeof link, "%s/#/play/%s", M.base, x->game);
            snprintf(unsub, sizeof unsub, "%s/#/unsubscribe/%s", M.base, tok);
            char post[400];
            snprintf(post, sizeof post, "%s/api/unsubscribe/%s", M.base, tok);
            snprintf(days, sizeof days, "%lld", (long long)x->days);
            int l = lang_of(x->lang);
            char dtext[64];
            chx_format(l, dtext, sizeof dtext, "mail.days", "n", days, (char *)NULL);
            if (rc == 0)
                rc = put_token(db, hash, x->uid, "unsub", x->address, now + UNSUB_MS);
            if (rc == 0)
                rc = queue(db, x->address, l, "mail.turn", post, now, "name", x->name, "link",
                           link, "days", dtext,
                           "unsubscribe", unsub, (char *)NULL);
            sodium_memzero(tok, sizeof tok);
        }
        if (rc == 0 && db_commit(db) == 0)
            continue;
        db_rollback(db);
    }
    free(d);
}

static void *mailer(void *arg)
{
    (void)arg;
    db_conn *db = NULL;
    int64_t next_scan = 0;
    int warned = 0;
    pthread_mutex_lock(&M.mu);
    while (!M.stop) {
        pthread_mutex_unlock(&M.mu);
        if (!db) {
            char why[300];
            db = db_open(M.target, 0, why, sizeof why);
            if (!db && !warned++)
                srv_logf(SRV_LOG_WARN, "db.error", "the mail thread cannot open the database "
                        "(%s); trying again", why);
        }
        if (db) {
            int64_t now = srv_now_ms();
            if (now >= next_scan) {
                scan_turns(db, now);
                next_scan = now + M.scan_ms;
            }
            send_due(db, srv_now_ms());
            /* chartered_mail_queue_depth: counted here, on the mailer's own
               connection, so that a scrape never waits for the database */
            int qrc;
            int64_t unsent = db_one_int(db, "SELECT count(*) FROM mail_queue WHERE sent IS NULL",
                                        0, NULL, -1, &qrc);
            if (qrc == DB_OK && unsent >= 0)
                srv_metrics_set(SRV_G_MAIL_QUEUE, unsent);
            if (db_errclass(db) == DB_LOST) {
                db_close(db);
                db = NULL;
            }
        }
        pthread_mutex_lock(&M.mu);
        if (M.stop)
            break;
        if (!M.kick) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            int64_t wait = M.retry_ms < 2000 ? M.retry_ms : 2000;
            if (wait > M.scan_ms)
                wait = M.scan_ms;
            ts.tv_sec += wait / 1000;
            ts.tv_nsec += (long)(wait % 1000) * 1000000L;
            if (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&M.cv, &M.mu, &ts);
        }
        M.kick = 0;
    }
    pthread_mutex_unlock(&M.mu);
    db_close(db);
    return NULL;
}

int srv_mail_start(const char *db_target)
{
    if (!srv_mail_on() || M.running)
        return 0;
    if (strlen(db_target) >= sizeof M.target || srv_smtp_init() != 0)
        return -1;
    snprintf(M.target, sizeof M.target, "%s", db_target);
    M.stop = 0;
    if (pthread_create(&M.th, NULL, mailer, NULL) != 0)
        return -1;
    M.running = 1;
    return 0;
}

void srv_mail_stop(void)
{
    if (!M.running)
        return;
    pthread_mutex_lock(&M.mu);
    M.stop = 1;
    pthread_cond_signal(&M.cv);
    pthread_mutex_unlock(&M.mu);
    pthread_join(M.th, NULL);
    M.running = 0;
}

void srv_mail_counts(long long *sent, long long *failed)
{
    *sent = __atomic_load_n(&M.sent, __ATOMIC_RELAXED);
    *failed = __atomic_load_n(&M.failed, __ATOMIC_RELAXED);
}

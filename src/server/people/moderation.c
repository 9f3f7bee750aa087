/* moderation.c: roles and moderation (issue 35 item 1; docs/moderation.md),
 * as database steps on any connection, so that the server (on its writer
 * thread: api/moderation_api.c) and `chartered admin` (its own connection:
 * admin.c) do exactly the same thing:
 *   - roles: an account is a player (role NULL), a moderator or an admin;
 *   - reports: a player reports a player or a chat message (a reason from a
 *     short list and free text), stored with the chat lines around it;
 *   - sanctions: a ban (no login, every session ended) or a mute (no chat),
 *     each with a reason and an end (NULL: permanent);
 *   - actions: ban, unban, mute, unmute, revoke (every session ended), abort
 *     a game (stored as "aborted": no result, no rating), grant a role,
 *     resolve or dismiss a report;
 *   - the audit log: one row per action (who, when, what, whom, why), in the
 *     same transaction as the action itself, so no action goes unlogged.
 * A running server learns of actions it did not make itself (another node,
 * the command line) by reading the audit log's new rows (srv_mod_since_db).
 * Times are unix milliseconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "people/people.h"

const char *const srv_mod_reasons[] = {"abuse", "cheating", "spam", "name", "other", NULL};

int srv_mod_reason_ok(const char *r)
{
    for (int i = 0; r && srv_mod_reasons[i]; i++)
        if (!strcmp(r, srv_mod_reasons[i]))
            return 1;
    return 0;
}

int srv_role_parse(const char *s)
{
    if (!s)
        return SRV_ROLE_PLAYER;
    if (!strcmp(s, "admin"))
        return SRV_ROLE_ADMIN;
    if (!strcmp(s, "moderator"))
        return SRV_ROLE_MODERATOR;
    if (!strcmp(s, "player") || !*s)
        return SRV_ROLE_PLAYER;
    return -1;
}

const char *srv_role_name(int role)
{
    return role == SRV_ROLE_ADMIN ? "admin" : role == SRV_ROLE_MODERATOR ? "moderator" : "player";
}

int srv_role_of_db(db_conn *db, int64_t uid)
{
    if (uid <= 0)
        return SRV_ROLE_PLAYER;
    db_rows *r = db_query(db, "SELECT role FROM accounts WHERE id = $1", DB_P(DB_I(uid)));
    if (!r)
        return -1;
    int st = db_next(r), role = SRV_ROLE_PLAYER;
    if (st == 1)
        role = srv_role_parse(db_text(r, 0));
    if (db_end(r) != 0 || st < 0)
        return -1;
    return role < 0 ? SRV_ROLE_PLAYER : role;
}

/* An account by name (any case): 1 with its id and name as written, 0 none,
 * -1 error. */
static int account_by_name(db_conn *db, const char *name, int64_t *uid, char *shown, size_t n)
{
    db_rows *r = db_query(db, "SELECT id, name FROM accounts WHERE name_key = lower($1)",
                          DB_P(DB_T(name)));
    if (!r)
        return -1;
    int st = db_next(r);
    if (st == 1) {
        *uid = db_int(r, 0);
        snprintf(shown, n, "%s", db_text(r, 1) ? db_text(r, 1) : name);
    }
    if (db_end(r) != 0 || st < 0)
        return -1;
    return st == 1;
}

int srv_mod_sanction_db(db_conn *db, int64_t uid, const char *kind, int64_t now,
                        int64_t *until, char *reason, size_t n)
{
    if (until)
        *until = 0;
    if (reason && n)
        reason[0] = 0;
    if (uid <= 0)
        return 0;
    db_rows *r = db_query(db, "SELECT until, reason FROM mod_sanctions WHERE user_id = $1 AND "
                          "kind = $2 AND (until IS NULL OR until > $3)",
                          DB_P(DB_I(uid), DB_T(kind), DB_I(now)));
    if (!r)
        return -1;
    int st = db_next(r);
    if (st == 1) {
        if (until)
            *until = db_null(r, 0) ? 0 : db_int(r, 0);
        if (reason && n)
            snprintf(reason, n, "%s", db_text(r, 1) ? db_text(r, 1) : "");
    }
    if (db_end(r) != 0 || st < 0)
        return -1;
    return st == 1;
}

void srv_mod_until_text(int64_t until, char *out, size_t n)
{
    if (until <= 0) {
        snprintf(out, n, "permanently");
        return;
    }
    time_t t = (time_t)(until / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, n, "until %Y-%m-%d %H:%M UTC", &tm);
}

static const char *action_names[] = {
    [SRV_MOD_BAN] = "ban",         [SRV_MOD_UNBAN] = "unban",     [SRV_MOD_MUTE] = "mute",
    [SRV_MOD_UNMUTE] = "unmute",   [SRV_MOD_REVOKE] = "revoke",   [SRV_MOD_ABORT] = "abort",
    [SRV_MOD_GRANT] = "grant",     [SRV_MOD_RESOLVE] = "resolve", [SRV_MOD_DISMISS] = "dismiss",
    [SRV_MOD_REPORT] = "report",
};

const char *srv_mod_action_name(int a)
{
    return a > 0 && a < (int)(sizeof action_names / sizeof *action_names) && action_names[a]
               ? action_names[a] : "?";
}

int srv_mod_action_parse(const char *s)
{
    for (int a = 1; s && a < (int)(sizeof action_names / sizeof *action_names); a++)
        if (action_names[a] && !strcmp(action_names[a], s))
            return a;
    return -1;
}

static void refuse(srv_mod_result *out, int status, const char *why)
{
    out->status = status;
    snprintf(out->why, sizeof out->why, "%s", why);
}

static int audit(db_conn *db, const srv_mod_actor *who, int action, const srv_mod_result *out,
                 const char *game, int64_t report, const char *reason, int64_t until,
                 int64_t now, int64_t *id)
{
    db_rows *r = db_query(db, "INSERT INTO mod_audit(at, actor_uid, actor, action, target_uid, "
                          "target, game, report, reason, until) VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,"
                          "$10) RETURNING id",
                          DB_P(DB_I(now), who->uid > 0 ? DB_I(who->uid) : DB_NULL,
                               DB_T(who->name), DB_T(srv_mod_action_name(action)),
                               out->target_uid > 0 ? DB_I(out->target_uid) : DB_NULL,
                               out->target[0] ? DB_T(out->target) : DB_NULL,
                               game && *game ? DB_T(game) : DB_NULL,
                               report > 0 ? DB_I(report) : DB_NULL, DB_T(reason ? reason : ""),
                               until > 0 ? DB_I(until) : DB_NULL));
    if (!r)
        return -1;
    int st = db_next(r);
    if (st == 1 && id)
        *id = db_int(r, 0);
    return db_end(r) == 0 && st == 1 ? 0 : -1;
}

/* A report's status set (resolve, dismiss, or an action that names it):
 * 1 changed, 0 no such open report, -1 error. */
static int close_report(db_conn *db, int64_t report, const char *status, const char *by,
                        const char *resolution, int64_t now)
{
    if (db_exec(db, "UPDATE mod_reports SET status = $1, handled_by = $2, handled_at = $3, "
                "resolution = $4 WHERE id = $5 AND status = 'open'",
                DB_P(DB_T(status), DB_T(by), DB_I(now), DB_T(resolution), DB_I(report))) != 0)
        return -1;
    return db_changes(db) > 0;
}

/* The action itself, inside the transaction: 0, or -1 with out's refusal
 * (out->status 500 for a database error). */
static int act(db_conn *db, const srv_mod_actor *who, int role, const srv_mod_act *a,
               int64_t now, srv_mod_result *out)
{
    int need_target = a->action == SRV_MOD_BAN || a->action == SRV_MOD_UNBAN ||
                      a->action == SRV_MOD_MUTE || a->action == SRV_MOD_UNMUTE ||
                      a->action == SRV_MOD_REVOKE || a->action == SRV_MOD_GRANT;
    if (need_target) {
        int f = account_by_name(db, a->target ? a->target : "", &out->target_uid, out->target,
                                sizeof out->target);
        if (f < 0)
            return -1;
        if (f == 0) {
            refuse(out, 404, "no account has that name");
            return -1;
        }
        int trole = srv_role_of_db(db, out->target_uid);
        if (trole < 0)
            return -1;
        /* a moderator acts on players; only an admin on moderators and
           admins (a moderator cannot ban the admins who could undo it) */
        if (trole > SRV_ROLE_PLAYER && role < SRV_ROLE_ADMIN) {
            refuse(out, 403, "only an admin may act on a moderator's or an admin's account");
            return -1;
        }
        if (who->uid > 0 && who->uid == out->target_uid && a->action != SRV_MOD_REVOKE) {
            refuse(out, 400, "you cannot do that to your own account");
            return -1;
        }
    }
    const char *kind = a->action == SRV_MOD_BAN || a->action == SRV_MOD_UNBAN ? "ban" : "mute";
    switch (a->action) {
    case SRV_MOD_BAN:
    case SRV_MOD_MUTE:
        if (a->until > 0 && a->until <= now) {
            refuse(out, 400, "the end must be in the future");
            return -1;
        }
        if (db_exec(db, "INSERT INTO mod_sanctions(user_id, kind, since, until, reason, by_name) "
                    "VALUES($1,$2,$3,$4,$5,$6) ON CONFLICT(user_id, kind) DO UPDATE SET "
                    "since = excluded.since, until = excluded.until, reason = excluded.reason, "
                    "by_name = excluded.by_name",
                    DB_P(DB_I(out->target_uid), DB_T(kind), DB_I(now),
                         a->until > 0 ? DB_I(a->until) : DB_NULL, DB_T(a->reason),
                         DB_T(who->name))) != 0)
            return -1;
        if (a->action == SRV_MOD_MUTE)
            break;
        /* a ban ends every session of the account at once, as a revoke */
        /* fall through */
    case SRV_MOD_REVOKE: {
        srv_ident t;
        memset(&t, 0, sizeof t);
        t.user_id = out->target_uid;
        snprintf(t.owner, sizeof t.owner, "u:%lld", (long long)out->target_uid);
        if (srv_sessions_end_db(db, &t, NULL, 0, &out->ended) != 0)
            return -1;
        break;
    }
    case SRV_MOD_UNBAN:
    case SRV_MOD_UNMUTE: {
        int64_t until;
        int in = srv_mod_sanction_db(db, out->target_uid, kind, now, &until, NULL, 0);
        if (in < 0)
            return -1;
        if (in == 0) {
            refuse(out, 409, a->action == SRV_MOD_UNBAN ? "that account is not banned"
                                                         : "that account is not muted");
            return -1;
        }
        if (db_exec(db, "DELETE FROM mod_sanctions WHERE user_id = $1 AND kind = $2",
                    DB_P(DB_I(out->target_uid), DB_T(kind))) != 0)
            return -1;
        break;
    }
    case SRV_MOD_GRANT: {
        if (role < SRV_ROLE_ADMIN) {
            refuse(out, 403, "only an admin may give or take a role");
            return -1;
        }
        int nr = srv_role_parse(a->role);
        if (nr < 0 || !a->role) {
            refuse(out, 400, "the role is admin, moderator or player");
            return -1;
        }
        if (db_exec(db, "UPDATE accounts SET role = $1 WHERE id = $2",
                    DB_P(nr == SRV_ROLE_PLAYER ? DB_NULL : DB_T(srv_role_name(nr)),
                         DB_I(out->target_uid))) != 0)
            return -1;
        break;
    }
    case SRV_MOD_ABORT: {
        if (!a->game || !*a->game || strlen(a->game) > SRV_ID_HEX) {
            refuse(out, 400, "name the game to abort");
            return -1;
        }
        /* ended as "aborted": no result row, so no rating changes (the
           server's game layer loads it as over; game/saved.c) */
        if (db_exec(db, "UPDATE games SET status = 'aborted' WHERE id = $1 AND status IN "
                    "('waiting','playing')", DB_P(DB_T(a->game))) != 0)
            return -1;
        if (db_changes(db) == 0) {
            int rc = 0;
            int64_t n = db_one_int(db, "SELECT COUNT(*) FROM games WHERE id = $1",
                                   DB_P(DB_T(a->game)), -1, &rc);
            if (rc != 0 || n < 0)
                return -1;
            refuse(out, n ? 409 : 404, n ? "that game is not in play (over already)"
                                         : "no such game");
            return -1;
        }
        if (db_exec(db, "DELETE FROM turn_clock WHERE game = $1", DB_P(DB_T(a->game))) != 0)
            return -1;
        break;
    }
    case SRV_MOD_RESOLVE:
    case SRV_MOD_DISMISS:
        if (a->report <= 0) {
            refuse(out, 400, "name the report");
            return -1;
        }
        break;
    default:
        refuse(out, 400, "unknown action");
        return -1;
    }
    /* the report an action answers is closed with it */
    if (a->report > 0) {
        int c = close_report(db, a->report, a->action == SRV_MOD_DISMISS ? "dismissed"
                                                                          : "resolved",
                             who->name, a->action == SRV_MOD_RESOLVE || a->action ==
                             SRV_MOD_DISMISS ? a->reason : srv_mod_action_name(a->action), now);
        if (c < 0)
            return -1;
        if (c == 0 && (a->action == SRV_MOD_RESOLVE || a->action == SRV_MOD_DISMISS)) {
            refuse(out, 404, "no open report has that number");
            return -1;
        }
    }
    /* a ban answers every open report about the account, not only the one
       it was made from: the person can no longer play or chat, and reports
       left open would send the next moderator to a case already decided
       (docs/moderation.md). They are resolved naming the ban; the ban's
       audit row stands for them all. */
    if (a->action == SRV_MOD_BAN) {
        char res[64];
        if (a->report > 0)
            snprintf(res, sizeof res, "ban (report %lld)", (long long)a->report);
        else
            snprintf(res, sizeof res, "ban");
        if (db_exec(db, "UPDATE mod_reports SET status = 'resolved', handled_by = $1, "
                    "handled_at = $2, resolution = $3 WHERE target_uid = $4 AND "
                    "status = 'open'", DB_P(DB_T(who->name), DB_I(now), DB_T(res),
                                            DB_I(out->target_uid))) != 0)
            return -1;
        out->reports_closed = (int)db_changes(db);
    }
    /* a role given is part of what the log says */
    char given[600];
    snprintf(given, sizeof given, "%s%s%s", a->action == SRV_MOD_GRANT ? srv_role_name(
                 srv_role_parse(a->role)) : "", a->action == SRV_MOD_GRANT ? ": " : "",
             a->reason);
    return audit(db, who, a->action, out, a->game, a->report, given,
                 a->action == SRV_MOD_BAN || a->action == SRV_MOD_MUTE ? a->until : 0, now,
                 &out->audit_id);
}

void srv_mod_act_db(db_conn *db, const srv_mod_actor *who, const srv_mod_act *a, int64_t now,
                    srv_mod_result *out)
{
    memset(out, 0, sizeof *out);
    if (!a->reason || !*a->reason || strlen(a->reason) > 500) {
        refuse(out, 400, "give a reason (at most 500 bytes): it is kept in the audit log");
        return;
    }
    if (db_begin(db) != 0) {
        db_rollback(db);
        refuse(out, 500, db_errmsg(db));
        return;
    }
    /* the role is read again here, inside the action's transaction: a role
       taken away a moment ago (by another moderator, the command line)
       counts; the command line acts as an admin (it has the database) */
    int role = who->uid > 0 ? srv_role_of_db(db, who->uid) : SRV_ROLE_ADMIN;
    if (role >= 0 && role < SRV_ROLE_MODERATOR)
        refuse(out, 403, "this is for moderators and admins only");
    if (role < SRV_ROLE_MODERATOR || act(db, who, role, a, now, out) != 0 ||
        db_commit(db) != 0) {
        if (!out->status)
            refuse(out, 500, db_errmsg(db));
        db_rollback(db);
        free(out->ended.h);
        out->ended.h = NULL;
        out->ended.n = 0;
        return;
    }
    out->status = 200;
}

/* ---- reports ------------------------------------------------------------------ */

/* The chat lines around message n of a game (SRV_MOD_CONTEXT before, as
 * many after), as JSON text: kept with the report, so the moderator reads
 * what was said even if the game's chat goes. */
#define SRV_MOD_CONTEXT 6

static char *chat_context(db_conn *db, const char *game, int64_t n, char *msg, size_t mn,
                          char *name, size_t nn, int *guest, int *found)
{
    *found = 0;
    json_t *arr = json_array();
    db_rows *r = db_query(db, "SELECT n, channel, seat, name, text, at, guest FROM chat "
                          "WHERE game = $1 AND n >= $2 AND n <= $3 ORDER BY n",
                          DB_P(DB_T(game), DB_I(n - SRV_MOD_CONTEXT), DB_I(n + SRV_MOD_CONTEXT)));
    if (!r) {
        json_decref(arr);
        return NULL;
    }
    int st;
    while ((st = db_next(r)) == 1) {
        const char *nm = db_text(r, 3) ? db_text(r, 3) : "";
        const char *tx = db_text(r, 4) ? db_text(r, 4) : "";
        if (db_int(r, 0) == n) {
            *found = 1;
            snprintf(msg, mn, "%s", tx);
            snprintf(name, nn, "%s", nm);
            *guest = (int)db_int(r, 6);
        }
        json_array_append_new(arr, json_pack("{s:I,s:s,s:I,s:s,s:s,s:I,s:b}", "n",
                                             (json_int_t)db_int(r, 0), "channel",
                                             db_int(r, 1) == 0 ? "table" : "spectators", "seat",
                                             (json_int_t)db_int(r, 2), "name", nm, "text", tx,
                                             "at", (json_int_t)db_int(r, 5), "guest",
                                             (int)db_int(r, 6)));
    }
    if (db_end(r) != 0 || st < 0) {
        json_decref(arr);
        return NULL;
    }
    char *out = json_dumps(arr, JSON_COMPACT);
    json_decref(arr);
    return out;
}

void srv_mod_report_db(db_conn *db, const srv_mod_actor *who, const srv_mod_report *rp,
                       int64_t now, srv_mod_result *out)
{
    memset(out, 0, sizeof *out);
    if (!srv_mod_reason_ok(rp->reason)) {
        refuse(out, 400, "the reason is one of: abuse, cheating, spam, name, other");
        return;
    }
    if (rp->details && strlen(rp->details) > 1000) {
        refuse(out, 400, "the details may have at most 1000 bytes");
        return;
    }
    int rc = 0;
    /* a person files at most SRV_MOD_REPORTS_MAX reports in
       SRV_MOD_REPORTS_WINDOW_MS (a flood of reports buries the real ones) */
    int64_t recent = db_one_int(db, "SELECT COUNT(*) FROM mod_reports WHERE reporter_uid = $1 "
                                "AND created > $2",
                                DB_P(DB_I(who->uid), DB_I(now - SRV_MOD_REPORTS_WINDOW_MS)), -1,
                                &rc);
    if (rc != 0 || recent < 0) {
        refuse(out, 500, db_errmsg(db));
        return;
    }
    if (recent >= SRV_MOD_REPORTS_MAX) {
        refuse(out, 429, "you have sent many reports lately: the moderators will read them; "
               "try again later");
        return;
    }
    char *context = NULL, msg[512] = "", name[32] = "";
    int guest = 0;
    if (rp->game && *rp->game) {
        if (strlen(rp->game) > SRV_ID_HEX || rp->chat_n < 1) {
            refuse(out, 400, "a chat message is reported with its game and number");
            return;
        }
        int found;
        context = chat_context(db, rp->game, rp->chat_n, msg, sizeof msg, name, sizeof name,
                               &guest, &found);
        if (!context) {
            refuse(out, 500, db_errmsg(db));
            return;
        }
        if (!found) {
            free(context);
            refuse(out, 404, "no such chat message");
            return;
        }
        /* the same message reported twice by one person counts once */
        int64_t twice = db_one_int(db, "SELECT COUNT(*) FROM mod_reports WHERE reporter_uid = "
                                   "$1 AND game = $2 AND chat_n = $3",
                                   DB_P(DB_I(who->uid), DB_T(rp->game), DB_I(rp->chat_n)), -1,
                                   &rc);
        if (rc != 0 || twice != 0) {
            free(context);
            refuse(out, rc ? 500 : 409, rc ? db_errmsg(db) : "you reported this message already");
            return;
        }
        snprintf(out->target, sizeof out->target, "%s", name);
        /* a guest's message: no account to act on (its name may even be an
           account's later); the moderator reads it and can abort the game */
        if (!guest && account_by_name(db, name, &out->target_uid, out->target,
                                      sizeof out->target) < 0) {
            free(context);
            refuse(out, 500, db_errmsg(db));
            return;
        }
    } else {
        int f = account_by_name(db, rp->name ? rp->name : "", &out->target_uid, out->target,
                                sizeof out->target);
        if (f <= 0) {
            refuse(out, f < 0 ? 500 : 404, f < 0 ? db_errmsg(db) : "no account has that name");
            return;
        }
    }
    if (out->target_uid > 0 && out->target_uid == who->uid) {
        free(context);
        refuse(out, 400, "you cannot report yourself");
        return;
    }
    int ok = db_begin(db) == 0;
    db_rows *r = ok ? db_query(db, "INSERT INTO mod_reports(created, reporter_uid, reporter, "
                               "target_uid, target, game, chat_n, message, context, reason, "
                               "details, status) VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,"
                               "'open') RETURNING id",
                               DB_P(DB_I(now), DB_I(who->uid), DB_T(who->name),
                                    out->target_uid > 0 ? DB_I(out->target_uid) : DB_NULL,
                                    DB_T(out->target),
                                    rp->game && *rp->game ? DB_T(rp->game) : DB_NULL,
                                    rp->game && *rp->game ? DB_I(rp->chat_n) : DB_NULL,
                                    context ? DB_T(msg) : DB_NULL, DB_T(context),
                                    DB_T(rp->reason), DB_T(rp->details ? rp->details : "")))
                   : NULL;
    int64_t id = 0;
    if (r && db_next(r) == 1)
        id = db_int(r, 0);
    if (r && db_end(r) != 0)
        id = 0;
    free(context);
    if (id > 0 && audit(db, who, SRV_MOD_REPORT, out, rp->game, id, rp->reason, 0, now,
                        &out->audit_id) == 0 && db_commit(db) == 0) {
        out->status = 201;
        out->report = id;
        return;
    }
    refuse(out, 500, db_errmsg(db));
    db_rollback(db);
}

/* ---- lists -------------------------------------------------------------------- */

json_t *srv_mod_reports_db(db_conn *db, const char *status, int limit)
{
    int all = !status || !strcmp(status, "all");
    db_rows *r = all ? db_query(db, "SELECT id, created, reporter, target, game, chat_n, "
                                "message, context, reason, details, status, handled_by, "
                                "handled_at, resolution, target_uid FROM mod_reports ORDER BY "
                                "id DESC LIMIT $1", DB_P(DB_I(limit)))
                     : db_query(db, "SELECT id, created, reporter, target, game, chat_n, "
                                "message, context, reason, details, status, handled_by, "
                                "handled_at, resolution, target_uid FROM mod_reports WHERE "
                                "status = $1 ORDER BY id DESC LIMIT $2",
                                DB_P(DB_T(status), DB_I(limit)));
    if (!r)
        return NULL;
    json_t *out = json_array();
    int st;
    while ((st = db_next(r)) == 1) {
        json_t *o = json_pack("{s:I,s:I,s:s,s:s,s:s,s:s,s:s}", "id", (json_int_t)db_int(r, 0),
                              "created", (json_int_t)db_int(r, 1), "reporter",
                              db_text(r, 2) ? db_text(r, 2) : "", "target",
                              db_text(r, 3) ? db_text(r, 3) : "", "reason",
                              db_text(r, 8) ? db_text(r, 8) : "", "details",
                              db_text(r, 9) ? db_text(r, 9) : "", "status",
                              db_text(r, 10) ? db_text(r, 10) : "");
        json_object_set_new(o, "account", json_boolean(!db_null(r, 14)));
        if (!db_null(r, 4)) {
            json_object_set_new(o, "game", json_string(db_text(r, 4)));
            json_object_set_new(o, "chat_n", json_integer(db_int(r, 5)));
            json_object_set_new(o, "message", json_string(db_text(r, 6) ? db_text(r, 6) : ""));
            json_t *ctx = db_text(r, 7) ? json_loads(db_text(r, 7), 0, NULL) : NULL;
            json_object_set_new(o, "context", ctx ? ctx : json_array());
        }
        if (!db_null(r, 11)) {
            json_object_set_new(o, "handled_by", json_string(db_text(r, 11)));
            json_object_set_new(o, "handled_at", json_integer(db_int(r, 12)));
            json_object_set_new(o, "resolution",
                                json_string(db_text(r, 13) ? db_text(r, 13) : ""));
        }
        json_array_append_new(out, o);
    }
    if (db_end(r) != 0 || st < 0) {
        json_decref(out);
        return NULL;
    }
    return out;
}

json_t *srv_mod_audit_db(db_conn *db, int limit)
{
    db_rows *r = db_query(db, "SELECT id, at, actor, action, target, game, report, reason, "
                          "until FROM mod_audit ORDER BY id DESC LIMIT $1", DB_P(DB_I(limit)));
    if (!r)
        return NULL;
    json_t *out = json_array();
    int st;
    while ((st = db_next(r)) == 1) {
        json_t *o = json_pack("{s:I,s:I,s:s,s:s,s:s}", "id", (json_int_t)db_int(r, 0), "at",
                              (json_int_t)db_int(r, 1), "actor", db_text(r, 2) ? db_text(r, 2)
                                                                                : "",
                              "action", db_text(r, 3) ? db_text(r, 3) : "", "reason",
                              db_text(r, 7) ? db_text(r, 7) : "");
        if (!db_null(r, 4))
            json_object_set_new(o, "target", json_string(db_text(r, 4)));
        if (!db_null(r, 5))
            json_object_set_new(o, "game", json_string(db_text(r, 5)));
        if (!db_null(r, 6))
            json_object_set_new(o, "report", json_integer(db_int(r, 6)));
        if (!db_null(r, 8))
            json_object_set_new(o, "until", json_integer(db_int(r, 8)));
        json_array_append_new(out, o);
    }
    if (db_end(r) != 0 || st < 0) {
        json_decref(out);
        return NULL;
    }
    return out;
}

json_t *srv_mod_sanctions_db(db_conn *db, int64_t now)
{
    db_rows *r = db_query(db, "SELECT a.name, s.kind, s.since, s.until, s.reason, s.by_name "
                          "FROM mod_sanctions s JOIN accounts a ON a.id = s.user_id WHERE "
                          "s.until IS NULL OR s.until > $1 ORDER BY s.since DESC LIMIT 500",
                          DB_P(DB_I(now)));
    if (!r)
        return NULL;
    json_t *out = json_array();
    int st;
    while ((st = db_next(r)) == 1) {
        json_t *o = json_pack("{s:s,s:s,s:I,s:s,s:s}", "name", db_text(r, 0), "kind",
                              db_text(r, 1), "since", (json_int_t)db_int(r, 2), "reason",
                              db_text(r, 4) ? db_text(r, 4) : "", "by",
                              db_text(r, 5) ? db_text(r, 5) : "");
        json_object_set_new(o, "until", db_null(r, 3) ? json_null() : json_integer(db_int(r, 3)));
        json_array_append_new(out, o);
    }
    if (db_end(r) != 0 || st < 0) {
        json_decref(out);
        return NULL;
    }
    return out;
}

int srv_mod_since_db(db_conn *db, int64_t after, int64_t from_ms, srv_mod_event *ev, int max,
                     int64_t *last)
{
    /* the first call of a server's life starts after the rows written
       before the server started: what they did is in the database already
       (sessions gone, games stored as aborted). Not at the newest row: this
       first read waits on the writer thread, and a row written meanwhile
       (a `chartered admin revoke` right after the start) would be passed
       over (cli_server_moderation). Acting on a row twice does nothing. */
    if (after < 0) {
        int rc = 0;
        after = db_one_int(db, "SELECT coalesce(max(id), 0) FROM mod_audit WHERE at < $1",
                           DB_P(DB_I(from_ms)), 0, &rc);
        if (rc)
            return -1;
    }
    db_rows *r = db_query(db, "SELECT id, action, target_uid, game, actor_uid, target, reason, "
                          "until FROM mod_audit WHERE id > $1 ORDER BY id LIMIT $2",
                          DB_P(DB_I(after), DB_I(max)));
    if (!r)
        return -1;
    int n = 0, st;
    *last = after;
    while ((st = db_next(r)) == 1) {
        *last = db_int(r, 0);
        int a = srv_mod_action_parse(db_text(r, 1));
        int cli = db_null(r, 4);
        if (a != SRV_MOD_BAN && a != SRV_MOD_REVOKE && a != SRV_MOD_ABORT && !cli)
            continue;
        ev[n].action = a;
        ev[n].uid = db_int(r, 2);
        ev[n].cli = cli;
        snprintf(ev[n].game, sizeof ev[n].game, "%s", db_text(r, 3) ? db_text(r, 3) : "");
        snprintf(ev[n].target, sizeof ev[n].target, "%s",
                 db_text(r, 5) ? db_text(r, 5) : ev[n].game);
        snprintf(ev[n].reason, sizeof ev[n].reason, "%s", db_text(r, 6) ? db_text(r, 6) : "");
        ev[n].until = db_null(r, 7) ? 0 : db_int(r, 7);
        n++;
    }
    if (db_end(r) != 0 || st < 0)
        return -1;
    return n;
}

/* admin.c: `chartered admin` (issue 35 item 1; docs/moderation.md): the
 * moderation page's actions from the command line, on a server's database
 * (SQLite file or PostgreSQL), while the server runs or not:
 *   grant NAME ROLE, ban/mute NAME, unban/unmute NAME, revoke NAME,
 *   abort GAME, resolve/dismiss REPORT, reports, audit, sanctions.
 * Each action is the same database step the server's routes take
 * (people/moderation.c: the action and its audit row in one transaction),
 * made as "admin (command line, USER)". It is how the first admin is made:
 * whoever can write the database is trusted with it. A running server
 * learns of these actions by reading the audit log's new rows every
 * second (api/moderation_api.c): it closes a banned or revoked account's
 * WebSockets and ends an aborted game it holds; logins and chat read the
 * sanctions from the database each time, so they hold at once. */
#define _DEFAULT_SOURCE /* timegm */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "serve.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: chartered admin --db DB COMMAND ...\n"
            "\n"
            "  grant NAME ROLE                 make an account admin, moderator or player\n"
            "  ban NAME --reason TEXT [--for D | --until DATE | --permanent]\n"
            "                                  no login until the end; every session ended,\n"
            "                                  every open report about the account closed\n"
            "  unban NAME --reason TEXT\n"
            "  mute NAME --reason TEXT [--for D | --until DATE | --permanent]\n"
            "                                  no chat until the end\n"
            "  unmute NAME --reason TEXT\n"
            "  revoke NAME --reason TEXT       every session of the account ended\n"
            "  abort GAME --reason TEXT        the game ends as aborted (no result, no rating)\n"
            "  resolve REPORT --reason TEXT    close a report (dismiss: close it as unfounded)\n"
            "  dismiss REPORT --reason TEXT\n"
            "  reports [--status open|resolved|dismissed|all] [--json]\n"
            "  audit [--limit N] [--json]      the audit log, newest first\n"
            "  sanctions [--json]              bans and mutes in force\n"
            "\n"
            "  --report N    (ban, mute, revoke, abort) the report this answers: closed with it\n"
            "  D: a number and s, m, h or d (7d, 12h); DATE: YYYY-MM-DD or YYYY-MM-DDTHH:MM, UTC\n"
            "  A ban or mute without an end lasts 7 days; --permanent has none.\n"
            "DB: an SQLite file or a postgresql:// URL (the server's --db). A running server\n"
            "acts on these within a second (docs/moderation.md).\n");
}

/* "7d", "12h", "30m", "45s" in ms; -1 when unreadable. */
static int64_t duration_ms(const char *s)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (end == s || v <= 0 || v > 100000000 || end[1])
        return -1;
    switch (*end) {
    case 's':
        return v * 1000;
    case 'm':
        return v * 60000;
    case 'h':
        return v * 3600000;
    case 'd':
        return v * 86400000;
    default:
        return -1;
    }
}

/* "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM", UTC, in ms; -1 when unreadable. */
static int64_t date_ms(const char *s)
{
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    int y, mo, d, h = 0, mi = 0;
    char tail;
    int n = sscanf(s, "%4d-%2d-%2dT%2d:%2d%c", &y, &mo, &d, &h, &mi, &tail);
    if (n != 3 && n != 5)
        return -1;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59)
        return -1;
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    time_t t = timegm(&tm);
    return t == (time_t)-1 ? -1 : (int64_t)t * 1000;
}

static void when(int64_t ms, char *out, size_t n)
{
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, n, "%Y-%m-%d %H:%M:%S", &tm);
}

static void print_json(json_t *j)
{
    char *s = json_dumps(j, JSON_INDENT(2));
    if (s)
        puts(s);
    free(s);
}

static int list(db_conn *db, const char *cmd, const char *status, int limit, int as_json)
{
    int64_t now = srv_now_ms();
    json_t *j = !strcmp(cmd, "reports") ? srv_mod_reports_db(db, status, limit)
                : !strcmp(cmd, "audit") ? srv_mod_audit_db(db, limit)
                                        : srv_mod_sanctions_db(db, now);
    if (!j) {
        fprintf(stderr, "error: admin %s: %s\n", cmd, db_errmsg(db));
        return 1;
    }
    if (as_json) {
        print_json(j);
        json_decref(j);
        return 0;
    }
    size_t i;
    json_t *o;
    char t[32], u[48];
    json_array_foreach(j, i, o) {
        if (!strcmp(cmd, "reports")) {
            when(json_integer_value(json_object_get(o, "created")), t, sizeof t);
            printf("#%lld  %s  %-9s  %s reported %s (%s)", (long long)json_integer_value(
                       json_object_get(o, "id")), t,
                   json_string_value(json_object_get(o, "status")),
                   json_string_value(json_object_get(o, "reporter")),
                   json_string_value(json_object_get(o, "target")),
                   json_string_value(json_object_get(o, "reason")));
            if (json_object_get(o, "game"))
                printf("  game %s message %lld: \"%s\"",
                       json_string_value(json_object_get(o, "game")),
                       (long long)json_integer_value(json_object_get(o, "chat_n")),
                       json_string_value(json_object_get(o, "message")));
            const char *d = json_string_value(json_object_get(o, "details"));
            if (d && *d)
                printf("  \"%s\"", d);
            putchar('\n');
        } else if (!strcmp(cmd, "audit")) {
            when(json_integer_value(json_object_get(o, "at")), t, sizeof t);
            printf("%s  %s  %s", t, json_string_value(json_object_get(o, "actor")),
                   json_string_value(json_object_get(o, "action")));
            if (json_object_get(o, "target"))
                printf(" %s", json_string_value(json_object_get(o, "target")));
            if (json_object_get(o, "game"))
                printf(" game %s", json_string_value(json_object_get(o, "game")));
            if (json_object_get(o, "report"))
                printf(" report #%lld", (long long)json_integer_value(json_object_get(o,
                                                                                   "report")));
            if (json_object_get(o, "until")) {
                srv_mod_until_text(json_integer_value(json_object_get(o, "until")), u, sizeof u);
                printf(" %s", u);
            }
            printf(": %s\n", json_string_value(json_object_get(o, "reason")));
        } else {
            json_t *un = json_object_get(o, "until");
            srv_mod_until_text(json_is_integer(un) ? json_integer_value(un) : 0, u, sizeof u);
            printf("%-24s %-4s %s (by %s): %s\n", json_string_value(json_object_get(o, "name")),
                   json_string_value(json_object_get(o, "kind")), u,
                   json_string_value(json_object_get(o, "by")),
                   json_string_value(json_object_get(o, "reason")));
        }
    }
    if (json_array_size(j) == 0)
        printf("(none)\n");
    json_decref(j);
    return 0;
}

int cmd_admin(int argc, char **argv)
{
    const char *dbt = NULL, *reason = NULL, *status = "open", *pos[3] = {NULL, NULL, NULL};
    int npos = 0, as_json = 0, permanent = 0, limit = 100;
    int64_t until = 0, report = 0;
    for (int i = 0; i < argc; i++) { /* argv: the words after "admin" */
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--db") && more) {
            dbt = argv[++i];
        } else if (!strncmp(a, "--db=", 5)) {
            dbt = a + 5;
        } else if (!strcmp(a, "--reason") && more) {
            reason = argv[++i];
        } else if (!strcmp(a, "--status") && more) {
            status = argv[++i];
        } else if (!strcmp(a, "--json")) {
            as_json = 1;
        } else if (!strcmp(a, "--permanent")) {
            permanent = 1;
        } else if ((!strcmp(a, "--for") || !strcmp(a, "--until")) && more) {
            int64_t v = a[2] == 'f' ? duration_ms(argv[i + 1]) : date_ms(argv[i + 1]);
            if (v < 0) {
                fprintf(stderr, "error: admin: %s %s: write %s\n", a, argv[i + 1],
                        a[2] == 'f' ? "a number and s, m, h or d (7d)"
                                    : "YYYY-MM-DD or YYYY-MM-DDTHH:MM (UTC)");
                return 2;
            }
            until = a[2] == 'f' ? srv_now_ms() + v : v;
            i++;
        } else if ((!strcmp(a, "--report") || !strcmp(a, "--limit")) && more) {
            char *end;
            long long v = strtoll(argv[++i], &end, 10);
            if (*end || v <= 0 || v > 1000000000) {
                fprintf(stderr, "error: admin: %s %s: a positive number\n", a, argv[i]);
                return 2;
            }
            if (a[2] == 'r')
                report = v;
            else
                limit = (int)v;
        } else if (a[0] != '-' && npos < 3) {
            pos[npos++] = a;
        } else {
            fprintf(stderr, "error: admin: unexpected '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!pos[0]) {
        usage(stderr);
        return 2;
    }
    if (!dbt) {
        fprintf(stderr, "error: admin: --db DB is required (the server's database)\n");
        return 2;
    }
    const char *cmd = pos[0];
    int listing = !strcmp(cmd, "reports") || !strcmp(cmd, "audit") || !strcmp(cmd, "sanctions");
    int action = listing ? 0 : srv_mod_action_parse(cmd);
    if (!listing && (action < 0 || action == SRV_MOD_REPORT)) {
        fprintf(stderr, "error: admin: unknown command '%s'\n", cmd);
        usage(stderr);
        return 2;
    }
    int want = listing ? 1 : action == SRV_MOD_GRANT ? 3 : 2;
    if (npos != want) {
        fprintf(stderr, "error: admin %s: %s\n", cmd,
                listing ? "takes no name" : action == SRV_MOD_GRANT ? "write: grant NAME ROLE"
                : action == SRV_MOD_ABORT ? "name one game"
                : action == SRV_MOD_RESOLVE || action == SRV_MOD_DISMISS ? "name one report"
                                                                          : "name one account");
        return 2;
    }
    if (strcmp(status, "open") && strcmp(status, "all") &&
        strcmp(status, "resolved") && strcmp(status, "dismissed")) {
        fprintf(stderr, "error: admin: --status is open, resolved, dismissed or all\n");
        return 2;
    }
    int timed = action == SRV_MOD_BAN || action == SRV_MOD_MUTE;
    if ((until || permanent) && !timed) {
        fprintf(stderr, "error: admin %s: --for, --until and --permanent are for ban and mute\n",
                cmd);
        return 2;
    }
    if (until && permanent) {
        fprintf(stderr, "error: admin %s: an end or --permanent, not both\n", cmd);
        return 2;
    }
    if (timed && !until && !permanent)
        until = srv_now_ms() + 7LL * 86400000; /* the default: a week */
    if (!listing && action != SRV_MOD_GRANT && !reason) {
        fprintf(stderr, "error: admin %s: --reason TEXT is required (kept in the audit log)\n",
                cmd);
        return 2;
    }
    srv_schema_name_skeleton(srv_name_skeleton); /* a migration to version 5 needs it */
    char why[400];
    srv_store *st = srv_store_open(dbt, 0, why, sizeof why);
    if (!st) {
        fprintf(stderr, "error: admin: %s\n", why);
        return 1;
    }
    db_conn *db = srv_store_db(st);
    int rc;
    if (listing) {
        rc = list(db, cmd, status, limit, as_json);
    } else {
        srv_mod_actor who = {0};
        struct passwd *pw = getpwuid(geteuid());
        snprintf(who.name, sizeof who.name, "admin (command line, %.24s)",
                 pw && pw->pw_name ? pw->pw_name : "?");
        srv_mod_act act = {0};
        act.action = action;
        act.reason = reason ? reason : "role set on the command line";
        act.until = permanent ? 0 : until;
        act.report = report;
        if (action == SRV_MOD_ABORT)
            act.game = pos[1];
        else if (action == SRV_MOD_RESOLVE || action == SRV_MOD_DISMISS) {
            char *end;
            act.report = strtoll(pos[1], &end, 10);
            if (*end || act.report <= 0) {
                fprintf(stderr, "error: admin %s: %s is not a report number\n", cmd, pos[1]);
                srv_store_close(st);
                return 2;
            }
        } else
            act.target = pos[1];
        act.role = pos[2];
        srv_mod_result out;
        srv_mod_act_db(db, &who, &act, srv_now_ms(), &out);
        free(out.ended.h);
        if (out.status >= 300) {
            fprintf(stderr, "error: admin %s: %s\n", cmd, out.why);
            rc = out.status == 500 ? 1 : 3;
        } else {
            char u[48] = "";
            if (timed)
                srv_mod_until_text(act.until, u, sizeof u);
            printf("%s %s%s%s%s%s (audit #%lld)\n", cmd,
                   out.target[0] ? out.target : pos[1], action == SRV_MOD_GRANT ? ": " : "",
                   action == SRV_MOD_GRANT ? pos[2] : "", timed ? " " : "", u,
                   (long long)out.audit_id);
            if (out.ended.n)
                printf("%d session%s ended\n", out.ended.n, out.ended.n == 1 ? "" : "s");
            if (out.reports_closed)
                printf("%d open report%s about the account closed with the ban\n",
                       out.reports_closed, out.reports_closed == 1 ? "" : "s");
            rc = 0;
        }
    }
    srv_store_close(st);
    return rc;
}

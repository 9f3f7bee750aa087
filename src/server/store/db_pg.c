/* db_pg.c: the PostgreSQL back end of db.h, through libpq (issue 17; docs/
 * storage.md). The target is what libpq takes: a postgresql:// URL or a
 * key=value connection string. Statements go as PQexecParams with text
 * parameters and text results (one round trip each; the commit's moves of
 * many games share one transaction, as with SQLite). Errors are classed by
 * SQLSTATE: 23505 (unique violation, e.g. a second writer of move N of a
 * game) is DB_CONFLICT; a dropped link is DB_LOST, and the next call
 * connects again (PQreset), so a server restarted under us is picked up.
 *
 * The schema is written once, in the SQLite dialect (store.c and the
 * modules' migrations); db_script translates its column types here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#include "db_impl.h"
#include "net/net.h"

/* The advisory lock that serializes the migrations of several servers
 * starting at once on one database (any constant, chosen once). */
#define MIGRATION_LOCK 0x63686172 /* "char" */

typedef struct pg_conn {
    db_conn h;
    PGconn *pg;
    int64_t changes;
    int64_t reset_ms;           /* the last attempt to connect again */
    int lost;                   /* the link was lost and is not back yet (logged once) */
} pg_conn;

/* A lost link is tried again at most once a second: the event loop's
 * connection must not spend every request waiting on a server that is down
 * (each attempt is bounded anyway: connect_timeout, CONNECT_TIMEOUT_S). */
#define RESET_EVERY_MS 1000
#define CONNECT_TIMEOUT_S "5"

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

typedef struct pg_rows {
    db_rows h;
    PGresult *res;
    int row, nrows;
} pg_rows;

static pg_conn *PG(db_conn *c)
{
    return (pg_conn *)c;
}

void db_pg_notice(const char *sev, const char *message, const char *link)
{
    srv_log_level level = sev && (!strcmp(sev, "WARNING") || !strcmp(sev, "FATAL") ||
                                  !strcmp(sev, "PANIC")) ? SRV_LOG_WARN : SRV_LOG_DEBUG;
    if (!srv_log_on(level))
        return;
    char msg[600];
    snprintf(msg, sizeof msg, "%s", message ? message : "");
    srv_log_one_line(msg, sizeof msg);
    if (link)
        srv_logf(level, "db.notice", "db=postgresql link=%s %s", link, msg);
    else
        srv_logf(level, "db.notice", "db=postgresql %s", msg);
}

/* The server's notices on the store's connections (db_pg_notice). */
static void notice(void *arg, const PGresult *res)
{
    (void)arg;
    db_pg_notice(PQresultErrorField(res, PG_DIAG_SEVERITY_NONLOCALIZED), PQresultErrorMessage(res), NULL);
}

/* The link was lost (a class DB_LOST error) and is back. The server has a
 * few connections (the loop's, the writer's, the mailer's), each finding out
 * when it is next used: the log says "db.lost" when the first of them is
 * lost and "db.reconnected" when the last is back, not a line each. */
static int links_lost; /* connections lost now (atomic) */

static void lost(pg_conn *p)
{
    if (p->lost)
        return;
    p->lost = 1;
    if (__atomic_fetch_add(&links_lost, 1, __ATOMIC_ACQ_REL) == 0)
        srv_logf(SRV_LOG_WARN, "db.lost", "db=postgresql the link to the database is lost: %s",
                 p->h.err);
}

static void found(pg_conn *p)
{
    if (!p->lost)
        return;
    p->lost = 0;
    if (__atomic_sub_fetch(&links_lost, 1, __ATOMIC_ACQ_REL) == 0)
        srv_logf(SRV_LOG_INFO, "db.reconnected", "db=postgresql connected to the database again");
}

static int set_err(pg_conn *p, PGresult *res)
{
    const char *msg = res ? PQresultErrorMessage(res) : PQerrorMessage(p->pg);
    if (!msg || !*msg)
        msg = PQerrorMessage(p->pg);
    snprintf(p->h.err, sizeof p->h.err, "%s", msg && *msg ? msg : "PostgreSQL error");
    /* libpq's messages are lines ("FATAL:  ...\nDETAIL: ...", ending with a
       newline): one line, for the log and every answer that quotes it */
    srv_log_one_line(p->h.err, sizeof p->h.err);
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    if (PQstatus(p->pg) != CONNECTION_OK || (state && (!strncmp(state, "08", 2) ||
                                                       !strncmp(state, "57P", 3)))) {
        p->h.errclass = DB_LOST;
        lost(p);
    }
    else if (state && !strcmp(state, "23505"))
        p->h.errclass = DB_CONFLICT;
    else
        p->h.errclass = DB_ERR;
    srv_metrics_inc(p->h.errclass == DB_LOST ? SRV_M_DB_ERRORS_LOST
                    : p->h.errclass == DB_CONFLICT ? SRV_M_DB_ERRORS_CONFLICT
                    : SRV_M_DB_ERRORS_ERROR, 1);
    return p->h.errclass;
}

/* The session's settings, at each (re)connection: a write waits for
 * another session's lock at most DB_LOCK_WAIT (SQLite's busy timeout, the
 * same 250 ms), then fails; the moves of that commit are refused with a
 * "storage" error rather than every game stalling behind an
 * administrator's lock. */
#define DB_LOCK_WAIT "250ms"
static int session_settings(pg_conn *p)
{
    PGresult *res = PQexec(p->pg, "SET lock_timeout = '" DB_LOCK_WAIT "'");
    int ok = res && PQresultStatus(res) == PGRES_COMMAND_OK;
    if (!ok)
        set_err(p, res);
    PQclear(res);
    return ok ? DB_OK : p->h.errclass;
}

/* Connected, or connect again: 0, else DB_LOST. */
static int link_up(pg_conn *p)
{
    if (PQstatus(p->pg) == CONNECTION_OK)
        return DB_OK;
    int64_t now = mono_ms();
    if (p->reset_ms && now - p->reset_ms < RESET_EVERY_MS) {
        p->h.errclass = DB_LOST; /* the reason of the last attempt stays */
        return DB_LOST;
    }
    p->reset_ms = now;
    PQreset(p->pg);
    if (PQstatus(p->pg) == CONNECTION_OK) {
        PQsetNoticeReceiver(p->pg, notice, NULL);
        found(p);
        srv_metrics_inc(SRV_M_DB_RECONNECTS, 1);
        return session_settings(p);
    }
    snprintf(p->h.err, sizeof p->h.err, "no connection to PostgreSQL: %s",
             PQerrorMessage(p->pg));
    srv_log_one_line(p->h.err, sizeof p->h.err);
    p->h.errclass = DB_LOST;
    lost(p);
    srv_metrics_inc(SRV_M_DB_ERRORS_LOST, 1);
    return DB_LOST;
}

/* Run sql with the parameters as text; the result (NULL with the class in
 * *rc on failure). */
static PGresult *run(pg_conn *p, const char *sql, int n, const db_val *v, int *rc)
{
    *rc = link_up(p);
    if (*rc)
        return NULL;
    enum { MAXP = 64 };
    const char *vals[MAXP];
    char nums[MAXP][32];
    if (n > MAXP) {
        snprintf(p->h.err, sizeof p->h.err, "too many parameters (%d)", n);
        *rc = p->h.errclass = DB_ERR;
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        switch (v[i].type) {
        case 'i':
            snprintf(nums[i], sizeof nums[i], "%lld", (long long)v[i].i);
            vals[i] = nums[i];
            break;
        case 'd':
            snprintf(nums[i], sizeof nums[i], "%.17g", v[i].d);
            vals[i] = nums[i];
            break;
        case 't':
            vals[i] = v[i].s;
            break;
        default:
            vals[i] = NULL;
        }
    }
    PGresult *res = PQexecParams(p->pg, sql, n, NULL, vals, NULL, NULL, 0);
    ExecStatusType st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        *rc = set_err(p, res);
        PQclear(res);
        return NULL;
    }
    *rc = DB_OK;
    return res;
}

static int pq_exec(db_conn *c, const char *sql, int n, const db_val *v)
{
    int rc;
    PGresult *res = run(PG(c), sql, n, v, &rc);
    if (res) {
        const char *t = PQcmdTuples(res);
        PG(c)->changes = t && *t ? strtoll(t, NULL, 10) : 0;
        PQclear(res);
    }
    return rc;
}

static int64_t pq_changes(db_conn *c)
{
    return PG(c)->changes;
}

/* Replace the word `from` (a whole word) by `to` in s, into a new string. */
static char *replace_word(char *s, const char *from, const char *to)
{
    size_t fl = strlen(from), tl = strlen(to), cnt = 0;
    for (char *q = strstr(s, from); q; q = strstr(q + fl, from))
        cnt++;
    char *out = malloc(strlen(s) + cnt * (tl > fl ? tl - fl : 0) + 1);
    if (!out) {
        free(s);
        return NULL;
    }
    char *o = out;
    const char *r = s;
    for (const char *q = strstr(r, from); q; q = strstr(r, from)) {
        int word = (q == s || !(q[-1] == '_' || (q[-1] >= 'A' && q[-1] <= 'Z') ||
                               (q[-1] >= 'a' && q[-1] <= 'z'))) &&
                   !(q[fl] == '_' || (q[fl] >= 'A' && q[fl] <= 'Z') ||
                     (q[fl] >= 'a' && q[fl] <= 'z'));
        memcpy(o, r, (size_t)(q - r));
        o += q - r;
        if (word) {
            memcpy(o, to, tl);
            o += tl;
        } else {
            memcpy(o, q, fl);
            o += fl;
        }
        r = q + fl;
    }
    strcpy(o, r);
    free(s);
    return out;
}

/* The schema's SQLite dialect in PostgreSQL's: 64-bit integers (SQLite's
 * INTEGER is 64-bit; times in milliseconds need it), doubles, an identity
 * column for the one INTEGER PRIMARY KEY (accounts.id), no WITHOUT ROWID. */
static char *ddl(const char *sql)
{
    char *s = strdup(sql);
    if (s)
        s = replace_word(s, "INTEGER PRIMARY KEY", "BIGINT GENERATED BY DEFAULT AS IDENTITY "
                         "PRIMARY KEY");
    if (s)
        s = replace_word(s, "INTEGER", "BIGINT");
    if (s)
        s = replace_word(s, "REAL", "DOUBLE PRECISION");
    if (s)
        s = replace_word(s, "WITHOUT ROWID", "");
    return s;
}

static int pq_script(db_conn *c, const char *sql)
{
    pg_conn *p = PG(c);
    int rc = link_up(p);
    if (rc)
        return rc;
    char *t = ddl(sql);
    if (!t) {
        snprintf(c->err, sizeof c->err, "out of memory");
        return c->errclass = DB_ERR;
    }
    PGresult *res = PQexec(p->pg, t);
    free(t);
    ExecStatusType st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    rc = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK ? DB_OK : set_err(p, res);
    PQclear(res);
    return rc;
}

static db_rows *pq_query(db_conn *c, const char *sql, int n, const db_val *v)
{
    int rc;
    PGresult *res = run(PG(c), sql, n, v, &rc);
    if (!res)
        return NULL;
    pg_rows *r = calloc(1, sizeof *r);
    if (!r) {
        PQclear(res);
        snprintf(c->err, sizeof c->err, "out of memory");
        c->errclass = DB_ERR;
        return NULL;
    }
    r->h.c = c;
    r->res = res;
    r->row = -1;
    r->nrows = PQntuples(res);
    return &r->h;
}

static int pq_next(db_rows *h)
{
    pg_rows *r = (pg_rows *)h;
    if (r->row + 1 >= r->nrows) {
        r->row = r->nrows;
        return 0;
    }
    r->row++;
    return 1;
}

static int pq_end(db_rows *h)
{
    pg_rows *r = (pg_rows *)h;
    PQclear(r->res);
    free(r);
    return DB_OK;
}

static const char *pq_text(db_rows *h, int col)
{
    pg_rows *r = (pg_rows *)h;
    if (r->row < 0 || r->row >= r->nrows || col >= PQnfields(r->res) ||
        PQgetisnull(r->res, r->row, col))
        return NULL;
    return PQgetvalue(r->res, r->row, col);
}

static int pq_null(db_rows *h, int col)
{
    return pq_text(h, col) == NULL;
}

static int64_t pq_int(db_rows *h, int col)
{
    const char *s = pq_text(h, col);
    /* a boolean (t/f) reads as 1/0 */
    return !s ? 0 : *s == 't' ? 1 : strtoll(s, NULL, 10);
}

static double pq_real(db_rows *h, int col)
{
    const char *s = pq_text(h, col);
    return s ? strtod(s, NULL) : 0.0;
}

static int pq_begin(db_conn *c)
{
    return pq_exec(c, "BEGIN", 0, NULL);
}

static int pq_commit(db_conn *c)
{
    return pq_exec(c, "COMMIT", 0, NULL);
}

static int pq_rollback(db_conn *c)
{
    pg_conn *p = PG(c);
    if (PQstatus(p->pg) != CONNECTION_OK)
        return DB_OK; /* the server dropped the transaction with the link */
    /* keeps the first failure's reason: that is the one to report */
    PGresult *res = PQexec(p->pg, "ROLLBACK");
    PQclear(res);
    return DB_OK;
}

static int pq_migration_begin(db_conn *c)
{
    int rc = pq_begin(c);
    /* servers starting at once on a new database wait here while the first
       creates the tables: longer than the session's DB_LOCK_WAIT, which
       made the others fail their start ("canceling statement due to lock
       timeout", issue 35); for this transaction only */
    if (rc == DB_OK)
        rc = pq_exec(c, "SET LOCAL lock_timeout = '60s'", 0, NULL);
    if (rc == DB_OK)
        rc = pq_exec(c, "SELECT pg_advisory_xact_lock($1)", DB_P(DB_I(MIGRATION_LOCK)));
    if (rc == DB_OK)
        rc = pq_script(c, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
    return rc;
}

static int pq_schema_version(db_conn *c)
{
    int rc;
    int64_t v = db_one_int(c, "SELECT max(version) FROM schema_version", 0, NULL, 0, &rc);
    return rc == DB_OK ? (int)v : -1;
}

static int pq_set_schema_version(db_conn *c, int v)
{
    int rc = pq_exec(c, "DELETE FROM schema_version", 0, NULL);
    return rc ? rc : pq_exec(c, "INSERT INTO schema_version(version) VALUES($1)", DB_P(DB_I(v)));
}

static int pq_has_column(db_conn *c, const char *table, const char *column)
{
    return db_one_int(c, "SELECT count(*) FROM information_schema.columns WHERE "
                      "table_schema = current_schema() AND table_name = $1 AND "
                      "column_name = $2", DB_P(DB_T(table), DB_T(column)), 0, NULL) > 0;
}

/* PostgreSQL checks its own pages (checksums, WAL replay at its start):
 * nothing to read through here. */
static int pq_check(db_conn *c)
{
    (void)c;
    return 0;
}

static int pq_writable(db_conn *c, char *why, size_t n)
{
    int rc;
    db_rows *r = pq_query(c, "SHOW transaction_read_only", 0, NULL);
    const char *v = r && pq_next(r) == 1 ? pq_text(r, 0) : NULL;
    rc = v && !strcmp(v, "off") ? 0 : -1;
    if (rc)
        snprintf(why, n, "the database cannot be written: %s",
                 v ? "it is read-only (a standby, or default_transaction_read_only)" : c->err);
    if (r)
        pq_end(r);
    return rc;
}

static void pq_close(db_conn *c)
{
    if (PG(c)->lost) /* no longer counted among the lost */
        __atomic_sub_fetch(&links_lost, 1, __ATOMIC_ACQ_REL);
    PQfinish(PG(c)->pg);
    free(c);
}

static const db_ops pq_ops = {
    pq_close, pq_exec, pq_changes, pq_script, pq_query, pq_next, pq_end, pq_text, pq_null,
    pq_int, pq_real, pq_begin, pq_commit, pq_rollback, pq_migration_begin, pq_schema_version,
    pq_set_schema_version, pq_has_column, pq_check, pq_writable,
};

static int setup(pg_conn *p, char *why, size_t n)
{
    if (session_settings(p) != DB_OK) {
        snprintf(why, n, "PostgreSQL: %s", p->h.err);
        pq_close(&p->h);
        return -1;
    }
    return 0;
}

db_conn *db_pg_open(const char *conninfo, char *why, size_t n)
{
    pg_conn *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(why, n, "out of memory");
        return NULL;
    }
    p->h.ops = &pq_ops;
    p->h.kind = DB_PG;
    /* the target (URL or key=value) is expanded from "dbname"; the bound on
       connecting comes first, so that one in the target wins */
    const char *const keys[] = {"connect_timeout", "dbname", NULL};
    const char *const vals[] = {CONNECT_TIMEOUT_S, conninfo, NULL};
    p->pg = PQconnectdbParams(keys, vals, 1);
    if (!p->pg || PQstatus(p->pg) != CONNECTION_OK) {
        const char *m = p->pg ? PQerrorMessage(p->pg) : "out of memory";
        snprintf(why, n, "cannot connect to PostgreSQL: %s", m);
        srv_log_one_line(why, n); /* libpq's lines, one line */
        pq_close(&p->h);
        return NULL;
    }
    PQsetNoticeReceiver(p->pg, notice, NULL);
    return setup(p, why, n) == 0 ? &p->h : NULL;
}

/* db.c: the entry points of db.h. It picks the back end from the target's
 * form (a postgresql:// URL or a libpq key=value string is PostgreSQL,
 * anything else an SQLite file) and passes every call to the connection's
 * operations (db_impl.h); the few helpers built on those live here, once
 * for both back ends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_impl.h"

int db_is_pg_target(const char *t)
{
    return t && (!strncmp(t, "postgresql://", 13) || !strncmp(t, "postgres://", 11) ||
                 strchr(t, '=') != NULL);
}

const char *db_target_shown(const char *t, char *out, size_t n)
{
    snprintf(out, n, "%s", t ? t : "");
    if (!db_is_pg_target(out))
        return out;
    /* a URL's user:password@ */
    char *scheme = strstr(out, "://");
    char *at = scheme ? strchr(scheme + 3, '@') : NULL;
    char *colon = at ? memchr(scheme + 3, ':', (size_t)(at - scheme - 3)) : NULL;
    if (colon && (size_t)(colon - out) + 5 + strlen(at) < n) {
        memmove(colon + 4, at, strlen(at) + 1);
        memcpy(colon, ":***", 4);
    }
    /* password=... in a key=value string or a URL's query */
    for (char *p = strstr(out, "password="); p; p = strstr(p + 1, "password=")) {
        char *v = p + 9, *e = v + strcspn(v, " &");
        if (e - v > 3) {
            memmove(v + 3, e, strlen(e) + 1);
            memcpy(v, "***", 3);
        }
    }
    return out;
}

db_conn *db_open(const char *target, int sync_full, char *why, size_t n)
{
    if (db_is_pg_target(target))
        return db_pg_open(target, why, n);
    return db_sqlite_open(target, sync_full, why, n);
}

void db_close(db_conn *c)
{
    if (c)
        c->ops->close(c);
}

int db_kind(const db_conn *c)
{
    return c->kind;
}

const char *db_errmsg(const db_conn *c)
{
    return c->err;
}

int db_errclass(const db_conn *c)
{
    return c->errclass;
}

int db_exec(db_conn *c, const char *sql, int n, const db_val *p)
{
    return c->ops->exec(c, sql, n, p);
}

int64_t db_changes(db_conn *c)
{
    return c->ops->changes(c);
}

int db_script(db_conn *c, const char *sql)
{
    return c->ops->script(c, sql);
}

db_rows *db_query(db_conn *c, const char *sql, int n, const db_val *p)
{
    return c->ops->query(c, sql, n, p);
}

int db_next(db_rows *r)
{
    return r->c->ops->next(r);
}

int db_end(db_rows *r)
{
    return r ? r->c->ops->end(r) : DB_ERR;
}

const char *db_text(db_rows *r, int col)
{
    return r->c->ops->text(r, col);
}

int db_null(db_rows *r, int col)
{
    return r->c->ops->null(r, col);
}

int64_t db_int(db_rows *r, int col)
{
    return r->c->ops->int_(r, col);
}

double db_real(db_rows *r, int col)
{
    return r->c->ops->real(r, col);
}

int64_t db_one_int(db_conn *c, const char *sql, int n, const db_val *p, int64_t dflt, int *rc)
{
    db_rows *r = db_query(c, sql, n, p);
    int64_t v = dflt;
    if (r && db_next(r) == 1 && !db_null(r, 0))
        v = db_int(r, 0);
    int e = r ? db_end(r) : DB_ERR;
    if (rc)
        *rc = e;
    return v;
}

int db_begin(db_conn *c)
{
    return c->ops->begin(c);
}

int db_commit(db_conn *c)
{
    return c->ops->commit(c);
}

int db_rollback(db_conn *c)
{
    return c->ops->rollback(c);
}

int db_migration_begin(db_conn *c)
{
    return c->ops->migration_begin(c);
}

int db_schema_version(db_conn *c)
{
    return c->ops->schema_version(c);
}

int db_set_schema_version(db_conn *c, int v)
{
    return c->ops->set_schema_version(c, v);
}

int db_has_column(db_conn *c, const char *table, const char *column)
{
    return c->ops->has_column(c, table, column);
}

int db_check(db_conn *c)
{
    return c->ops->check(c);
}

int db_writable(db_conn *c, char *why, size_t n)
{
    return c->ops->writable(c, why, n);
}

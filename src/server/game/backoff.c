/* backoff.c: what the server does while its database refuses writes (a full
 * disk, a file-size limit, EFBIG, a read-only file, another process's lock).
 *
 * Without it a refused commit rebuilt the games, the bots moved again at
 * once, and the next commit failed too: about 5,000 attempts and 500 log
 * lines a second, even with --quiet (issue 19, defect 4). Now:
 *   - each failed commit doubles a pause (SRV_BACKOFF_FIRST_MS, capped at
 *     SRV_BACKOFF_MAX_MS or CHARTERED_STORAGE_BACKOFF_MAX_MS); during the
 *     pause no bot is given a move (srv_game_kick_bots asks here); when it
 *     ends (the tick) the bots are asked again: one attempt per pause. A
 *     person's move is still tried when it comes (people send few, and
 *     the per-connection rate limit bounds them), and answered "storage"
 *     when refused, so a player can retry at once after the disk is fixed.
 *     A commit that succeeds ends it all.
 *   - log lines: the first failure, then at most one line per
 *     SRV_BACKOFF_LOG_MS saying how many failed since; when writes are back, one
 *     summary line. With --quiet only the summary.
 * Everything here runs on the event-loop thread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game_impl.h"

#define SRV_BACKOFF_FIRST_MS 100
#define SRV_BACKOFF_MAX_MS 30000
#define SRV_BACKOFF_LOG_MS 10000

static struct {
    int fails;                  /* failed commits in a row (0: writes work) */
    int64_t since_ms;           /* when the first of them failed */
    int64_t retry_ms;           /* no new attempt before this */
    int64_t logged_ms;          /* the last log line */
    uint64_t unlogged;          /* failures since that line */
    int kick_due;               /* the bots are to be asked again */
    char err[200];              /* the database's last reason */
} bo;

static int64_t max_ms(void)
{
    static int64_t ms = -1;
    if (ms >= 0)
        return ms;
    ms = SRV_BACKOFF_MAX_MS;
    const char *v = getenv("CHARTERED_STORAGE_BACKOFF_MAX_MS");
    if (v && *v) {
        char *end;
        long long x = strtoll(v, &end, 10);
        if (!*end && x >= SRV_BACKOFF_FIRST_MS && x <= 3600000)
            ms = x;
        else
            srv_logf(SRV_LOG_WARN, "config.ignored", "variable=CHARTERED_STORAGE_BACKOFF_MAX_MS "
                    "value=%.40s must be %d to 3600000: using %d", v, SRV_BACKOFF_FIRST_MS,
                    SRV_BACKOFF_MAX_MS);
    }
    return ms;
}

void srv_storage_failed(const char *why)
{
    int64_t now = srv_now_ms();
    g_tables.storage_failures++;
    if (why && *why)
        snprintf(bo.err, sizeof bo.err, "%s", why);
    if (bo.fails == 0) {
        bo.since_ms = now;
        bo.logged_ms = 0;
        bo.unlogged = 0;
    }
    bo.fails++;
    int64_t d = SRV_BACKOFF_FIRST_MS;
    for (int i = 1; i < bo.fails && d < max_ms(); i++)
        d *= 2;
    if (d > max_ms())
        d = max_ms();
    bo.retry_ms = now + d;
    bo.kick_due = 1;
    bo.unlogged++;
    if (!g_net.quiet && (bo.logged_ms == 0 || now - bo.logged_ms >= SRV_BACKOFF_LOG_MS)) {
        srv_logf(SRV_LOG_WARN, "db.refused", "failed=%llu next_ms=%lld the database refuses "
                "writes (%s): failed commits since the last line", (unsigned long long)bo.unlogged,
                (long long)d, bo.err);
        bo.logged_ms = now;
        bo.unlogged = 0;
    }
}

void srv_storage_ok(void)
{
    if (bo.fails == 0)
        return;
    int64_t now = srv_now_ms();
    srv_logf(SRV_LOG_WARN, "db.writes_again", "failed=%d seconds=%.1f the database takes "
            "writes again (last reason: %s)", bo.fails, (double)(now - bo.since_ms) / 1000.0,
            bo.err);
    bo.fails = 0;
    /* kick_due stays: the bots skipped during the pause are asked at the next
       tick (else a game whose bot was to move then waits for ever) */
}

void srv_storage_stop_summary(void)
{
    if (bo.fails)
        srv_logf(SRV_LOG_ERROR, "db.refused", "failed=%d seconds=%.1f stopping while the "
                "database refuses writes (last reason: %s)", bo.fails,
                (double)(srv_now_ms() - bo.since_ms) / 1000.0, bo.err);
}

int srv_storage_failing(int64_t *since, const char **why)
{
    if (since)
        *since = bo.fails ? bo.since_ms : 0;
    if (why)
        *why = bo.err;
    return bo.fails;
}

int64_t srv_storage_wait_ms(int64_t now)
{
    return bo.fails && now < bo.retry_ms ? bo.retry_ms - now : 0;
}

void srv_storage_tick(int64_t now)
{
    if (!bo.kick_due || srv_storage_wait_ms(now) > 0)
        return;
    bo.kick_due = 0;
    for (srv_game *g = g_tables.games; g; g = g->lnext)
        srv_game_kick_bots(g);
}

/* net/log.h: the server's one log (log.c), part of the net layer's API
 * (net/net.h includes it). Apart so that a file that cannot include
 * libwebsockets' headers (store/db_sqlite.c: its own bind()) may log.
 */
#ifndef CHARTERED_SERVER_NET_LOG_H
#define CHARTERED_SERVER_NET_LOG_H

#include <stddef.h>
#include <stdint.h>

/* ---- the log (log.c): one format for every line of every layer ----
 * `--log-format text|logfmt|json` (issue 35, item 3; docs/deploy.md,
 * "Logs"). Every line: time (RFC 3339, UTC, ms), level, an event name, a
 * message and fields; written to standard error with one write(2) at once
 * (nothing is buffered: a kill -9 loses no line already logged). Safe from
 * any thread. Never give it a password, a token, a cookie or a mail's
 * text.
 *
 * fmt is printf's, checked by the compiler, read as `key=VALUE` tokens
 * (each VALUE up to the next space, conversions allowed; a value may hold
 * anything) and then, from the first token that is not `key=`, the
 * message to the end:
 *     srv_logf(SRV_LOG_INFO, "game.created", "game=%s seats=%d a game is made", id, n);
 * Event names are nouns with a dot, the thing first ("game.ended",
 * "login.failed"); docs/deploy.md lists them. */
typedef enum { SRV_LOG_DEBUG, SRV_LOG_INFO, SRV_LOG_WARN, SRV_LOG_ERROR } srv_log_level;
typedef enum { SRV_LOG_TEXT, SRV_LOG_LOGFMT, SRV_LOG_JSON } srv_log_format;
int srv_log_format_parse(const char *s, srv_log_format *out); /* 0, or -1: unknown */
/* Before any thread starts (serve.c): the format, the lowest level written
 * (--quiet: SRV_LOG_WARN), and --access-log. */
void srv_log_setup(srv_log_format format, srv_log_level min, int access);
int srv_log_on(srv_log_level level);    /* lines of this level are written */
void srv_logf(srv_log_level level, const char *event, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The start line ("listening"): on standard output too, always (even with
 * --quiet: whoever started the server waits for it there), and once only
 * when standard output is the log. */
void srv_log_announce(const char *event, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* --access-log: one "http.request" line a request (api/http_api.c), even
 * with --quiet; srv_log_access_on() says whether it is on. */
int srv_log_access_on(void);
void srv_log_access(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* MODERATION: every moderator's action (ban, mute, unban, session revoked,
 * game ended or aborted) is logged through this one function, event
 * "moderation", level warn: action ("ban", "mute", ...), who did it (an
 * account name, or "cli" for `chartered admin`), the target (an account
 * name or a game id), the reason as given, and the end of a ban or mute
 * (ms since the epoch; 0: none). */
void srv_log_moderation(const char *action, const char *moderator, const char *target,
                        const char *reason, int64_t until_ms);
/* libwebsockets' emit function (lws_set_log_level(srv_log_lws_levels(),
 * srv_log_lws)): its lines as "lws" events, its levels mapped to ours. */
void srv_log_lws(int lll, const char *line);
int srv_log_lws_levels(void);
/* A library's multi-line message (libpq's "FATAL:  ...\nDETAIL:  ...") made
 * one line in place: line breaks become "; " (s holds cap bytes). */
void srv_log_one_line(char *s, size_t cap);

#endif

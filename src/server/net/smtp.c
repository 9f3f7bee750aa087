/* smtp.c: one e-mail handed to an SMTP relay with libcurl (issue 32, "E-mail":
 * `--smtp URL`, e.g. smtp://relay.example:587 or smtps://user:pass@relay:465).
 * It knows nothing of accounts or games: people/mail.c composes the message
 * and calls this from its own thread, never from the event loop, so a slow or
 * dead relay delays mail, never a move. TLS: smtps:// always; smtp:// asks for
 * STARTTLS when the relay offers it (CURLUSESSL_TRY), so a relay on loopback
 * without TLS (the tests') still works. The URL may hold a password: it is
 * never printed (srv_smtp_shown).
 */
#include <stdio.h>
#include <string.h>

#include <curl/curl.h>

#include "net/net.h"

typedef struct {
    const char *p;
    size_t left;
} upload;

static size_t reader(char *buf, size_t size, size_t nmemb, void *arg)
{
    upload *u = arg;
    size_t room = size * nmemb, n = u->left < room ? u->left : room;
    memcpy(buf, u->p, n);
    u->p += n;
    u->left -= n;
    return n;
}

int srv_smtp_init(void)
{
    return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 0 : -1;
}

int srv_smtp_send(const char *url, const char *from, const char *to, const char *message,
                  char *why, size_t n)
{
    CURL *c = curl_easy_init();
    if (!c) {
        snprintf(why, n, "libcurl could not start");
        return -1;
    }
    char rcpt_to[320];
    snprintf(rcpt_to, sizeof rcpt_to, "<%s>", to);
    char mail_from[320];
    snprintf(mail_from, sizeof mail_from, "<%s>", from);
    struct curl_slist *rcpt = curl_slist_append(NULL, rcpt_to);
    upload u = {message, strlen(message)};
    char err[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_MAIL_FROM, mail_from);
    curl_easy_setopt(c, CURLOPT_MAIL_RCPT, rcpt);
    curl_easy_setopt(c, CURLOPT_READFUNCTION, reader);
    curl_easy_setopt(c, CURLOPT_READDATA, &u);
    curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(c, CURLOPT_USE_SSL, (long)CURLUSESSL_TRY);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, 30L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, err);
    CURLcode rc = curl_easy_perform(c);
    if (rc != CURLE_OK) {
        snprintf(why, n, "%s", err[0] ? err : curl_easy_strerror(rc));
        srv_log_one_line(why, n); /* a relay's answer may span lines: the log's is one */
    }
    curl_slist_free_all(rcpt);
    curl_easy_cleanup(c);
    return rc == CURLE_OK ? 0 : -1;
}

const char *srv_smtp_shown(const char *url, char *out, size_t n)
{
    /* scheme://user:password@host... -> scheme://user:***@host... */
    const char *at = strchr(url, '@'), *sep = strstr(url, "://");
    if (!at || !sep || at < sep) {
        snprintf(out, n, "%s", url);
        return out;
    }
    const char *colon = memchr(sep + 3, ':', (size_t)(at - sep - 3));
    if (!colon) {
        snprintf(out, n, "%s", url);
        return out;
    }
    snprintf(out, n, "%.*s:***%s", (int)(colon - url), url, at);
    return out;
}

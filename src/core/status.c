/* status.c: status codes in words, and the helper that fills a ch_msg. */
#include "internal.h"

const char *ch_strerror(int code)
{
    static const char *const names[CH_NCODES] = {
        [CH_OK] = "ok",
        [CH_EINVAL] = "invalid argument",
        [CH_ESYNTAX] = "move not understood",
        [CH_EILLEGAL] = "illegal move",
        [CH_ETURN] = "not this player's decision",
        [CH_EOVER] = "the game is over",
        [CH_EFORMAT] = "malformed board or arrangement file",
        [CH_EJSON] = "malformed or inconsistent JSON",
        [CH_ENOMEM] = "out of memory",
        [CH_EINVARIANT] = "state check failed",
    };
    if (code < 0 || code >= CH_NCODES)
        return "unknown status code";
    return names[code];
}

int fail(ch_msg *why, int code, const char *fmt, ...)
{
    if (why) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why->text, sizeof why->text, fmt, ap);
        va_end(ap);
    }
    return code;
}

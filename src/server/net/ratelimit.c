/* ratelimit.c: throttles a client that sends too fast: a token bucket per
 * connection (20 frames a second, bursts of 40). A frame beyond it is
 * refused with "rate_limited" and does nothing else, so one flooding client
 * cannot slow the event loop down for everyone else.
 */
#include "net/net.h"
#include "api/api.h"

#define RATE_PER_SEC 20.0
#define RATE_BURST 40.0

int srv_rate_take(srv_client *c, int64_t now_ms)
{
    if (c->bucket_ms == 0) {
        c->bucket = RATE_BURST;
        c->bucket_ms = now_ms;
    }
    double add = (double)(now_ms - c->bucket_ms) * (RATE_PER_SEC / 1000.0);
    c->bucket_ms = now_ms;
    c->bucket += add;
    if (c->bucket > RATE_BURST)
        c->bucket = RATE_BURST;
    if (c->bucket < 1.0)
        return 0;
    c->bucket -= 1.0;
    return 1;
}

/* ratelimit.c: throttles a client that sends too fast: a token bucket per
 * connection (20 frames a second, bursts of 40). A frame beyond it is
 * refused with "rate_limited" and does nothing else, so one flooding client
 * cannot slow the event loop down for everyone else.
 */
#include "net/net.h"

#define RATE_PER_SEC 20.0
#define RATE_BURST 40.0

int srv_rate_take(srv_bucket *b, int64_t now_ms)
{
    if (b->ms == 0) {
        b->tokens = RATE_BURST;
        b->ms = now_ms;
    }
    double add = (double)(now_ms - b->ms) * (RATE_PER_SEC / 1000.0);
    b->ms = now_ms;
    b->tokens += add;
    if (b->tokens > RATE_BURST)
        b->tokens = RATE_BURST;
    if (b->tokens < 1.0)
        return 0;
    b->tokens -= 1.0;
    return 1;
}

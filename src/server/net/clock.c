/* clock.c: the server's wall clock, and what the net layer keeps for the
 * whole server (g_net, net.h). */
#include <time.h>

#include "net/net.h"

srv_net g_net;

int64_t srv_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* sync.c: t_sync (see play.h), apart from play.c because the engine's
 * internal header and cmocka both name a "fail". */
#include "internal.h"
#include "play.h"

void t_sync(ch_state *st)
{
    board_rebuild(st); /* the board changed: keep the derived board caches */
    if (st->offer_cached)
        offer_cache_sync(st); /* hands may have changed while an offer is built */
}

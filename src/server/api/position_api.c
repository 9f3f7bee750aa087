/* position_api.c: GET /api/games/ID/position, the game's current position
 * as text (docs/formats.md "Positions") as the requesting session may see it:
 * the seat it holds in that game gets that seat's copy (ch_position_write
 * with the seat: the others' hidden cards, the deck, the level reserve and
 * the seed written as random or left out), anyone else a spectator's copy
 * (CH_POSITION_SPECTATOR: no hand shown). The browser's "Copy position"
 * button reads it; a finished game answers the same way (the replay is where
 * everything is shown). See docs/protocol.md. */
#include <stdlib.h>

#include "api/api.h"

int srv_position_api(struct lws *wsi, srv_game *g)
{
    srv_ident me;
    srv_ident_of(wsi, &me);
    int seat = me.owner[0] ? srv_seat_of(g, me.owner) : -1;
    int viewer = seat >= 0 && seat < g->st.nplayers ? seat : CH_POSITION_SPECTATOR;
    char *text = ch_position_write(&g->st, viewer);
    if (!text)
        return srv_http_error(wsi, 500, "the position could not be written");
    json_t *j = json_pack("{s:s,s:s,s:s}", "id", g->id, "viewer", viewer >= 0 ? "seat" : "spectator",
                          "position", text);
    ch_free(text);
    if (!j)
        return srv_http_error(wsi, 500, "out of memory");
    if (viewer >= 0)
        json_object_set_new(j, "seat", json_integer(viewer));
    return srv_http_respond(wsi, 200, j, NULL);
}

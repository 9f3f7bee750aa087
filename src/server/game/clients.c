/* clients.c: the connections of a table as the game layer sees them: it
 * tells a connection something through the hooks the API registers
 * (srv_client_ops, game.h), never by calling the API itself. */
#include "game/game_impl.h"

static srv_client_ops ops;

void srv_clients_register(const srv_client_ops *o)
{
    ops = *o;
}

void srv_client_send_json(srv_client *c, json_t *j)
{
    if (ops.send_json)
        ops.send_json(c, j);
    else
        json_decref(j);
}

void srv_client_want_state(srv_client *c)
{
    if (ops.want_state)
        ops.want_state(c);
}

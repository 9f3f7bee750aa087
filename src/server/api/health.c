/* health.c: what GET /api/health says about the node itself (docs/cluster.md
 * "Operations"): its name, the games it owns, and the state of its
 * database link. HAProxy's health check asks for it (packaging/
 * haproxy.cfg.in): a node that answers is up; a node whose database link
 * is lost still answers 200 (it keeps its connections and refuses moves
 * with a "storage" error until the link is back).
 */
#include <string.h>

#include "api/api.h"

#define SRV_HEALTH_IDS 200 /* game ids listed at most (the count is exact) */

void srv_health_node(json_t *j)
{
    json_object_set_new(j, "node", json_string(srv_node_name()));
    json_object_set_new(j, "cluster", json_boolean(srv_lease_on()));
    json_t *ids = json_array();
    int owned = 0;
    for (const srv_game *g = g_tables.games; g; g = g->lnext) {
        if (g->status == GAME_OVER || (srv_lease_on() && g->lease != SRV_LEASE_HELD))
            continue;
        if (owned++ < SRV_HEALTH_IDS)
            json_array_append_new(ids, json_string(g->id));
    }
    json_object_set_new(j, "games_owned", json_integer(owned));
    json_object_set_new(j, "owned", ids);
    /* this node's analyses of finished games (game/analysis.c) */
    json_object_set_new(j, "analyses", srv_analysis_stats());
    /* the link: a cluster's is the lease connection's, which the lease
       thread uses every third of a lease; a single server's is lost while
       its commits fail */
    int64_t s_since, l_since;
    const char *s_why, *l_why;
    int failing = srv_lease_on() ? 0 : srv_storage_failing(&s_since, &s_why);
    int up = srv_lease_link(&l_since, &l_why);
    json_t *db = json_object();
    if (!up || failing) {
        int64_t since = !up && (!failing || l_since < s_since) ? l_since : s_since;
        json_object_set_new(db, "link", json_string("lost"));
        json_object_set_new(db, "since", json_integer(since));
        json_object_set_new(db, "reason", json_string(!up ? l_why : s_why));
    } else {
        json_object_set_new(db, "link", json_string("ok"));
        if (srv_lease_on())
            json_object_set_new(db, "since", json_integer(l_since));
    }
    json_object_set_new(j, "database", db);
}

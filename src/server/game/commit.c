/* commit.c: moves to the database and back. The moves of a loop turn are
 * committed at its end (srv_commit_now): handed to the writer thread
 * (store/committer.c) as one batch, or written on the loop without one;
 * when the write is back (srv_commit_done) the moves count as stored and
 * the clients get their frames, or, refused, they are taken back. The
 * writer tells this layer through the hooks registered at its start
 * (srv_commit_hooks_game), never by calling up. */
#include <stdlib.h>
#include <string.h>

#include "game/game_impl.h"

/* Nothing of g's commit was written: its pending moves are taken back (moves
 * made after the failed ones go too: none of them was acknowledged). The
 * game goes back at once to its last stored state (srv_game_rollback),
 * before anything else can send it: a frame of another client, a resync, a
 * join, a bot (issue 28 item 3: before, the refused move stayed in memory
 * while the database was away and was shown). When the database can be
 * read and holds something else (another writer's move), the game is
 * rebuilt from it; when it cannot be read, no move is taken until it is
 * (reload_due, srv_cluster_tick): the write may have been made after all
 * (a link lost during COMMIT), and only the database can say. */
static void commit_failed(srv_game *g, int conflict)
{
    int had = g->npending;
    srv_metrics_inc(SRV_M_MOVES_ROLLED_BACK, (uint64_t)had);
    srv_game_rollback(g);
    json_t *moves = had ? srv_store_moves(g_storage.store, g->id) : NULL;
    char why[300];
    if (had && !moves) {
        g->reload_due = 1;
        for (srv_client *c = g->clients; c; c = c->gnext)
            if (c->seat >= 0)
                srv_client_send_json(c, json_pack("{s:s,s:s,s:s}", "type", "error", "code",
                                                  "storage", "message",
                                                  "the database cannot be reached: the last "
                                                  "moves were not made; moves wait until it "
                                                  "is back"));
        srv_game_changed(g); /* the state they are at again */
        return;
    }
    if (moves && (conflict || (int)json_array_size(moves) != g->ncommitted) &&
        srv_replay_moves(g, moves, -1, why, sizeof why) == 0) {
        unsigned mask;
        if (g->status == GAME_OVER && ch_decider(&g->st, &mask) != CH_DEC_TERMINAL)
            g->status = GAME_PLAYING;
    }
    json_decref(moves);
    for (srv_client *c = g->clients; c; c = c->gnext)
        if (c->seat >= 0)
            srv_client_send_json(c, json_pack("{s:s,s:s,s:s}", "type", "error", "code",
                                              conflict ? "conflict" : "storage", "message",
                                              conflict ? "another server stored a move of this "
                                              "game first; the last moves were not made"
                                              : "the database refused the write; the "
                                              "last moves were not made"));
    srv_game_changed(g);
}

void srv_commit_done(srv_game *g, int k, unsigned away, int ok)
{
    if (ok != 1) {
        commit_failed(g, ok == SRV_STORE_CONFLICT);
        return;
    }
    if (k > g->npending)
        k = g->npending;
    srv_game_durable_forward(g, k);
    /* metrics: each move from its receipt to this acknowledgement */
    if (k > 0) {
        int64_t now = srv_metrics_now_us();
        for (int i = 0; i < k; i++)
            srv_metrics_observe(SRV_H_COMMIT_LATENCY, now - g->pending[i].recv_us);
        srv_metrics_inc(SRV_M_MOVES_ACKNOWLEDGED, (uint64_t)k);
    }
    if (k > 0 && g->npending > k)
        memmove(g->pending, g->pending + k, (size_t)(g->npending - k) * sizeof *g->pending);
    g->npending -= k;
    g->ncommitted += k;
    g_tables.moves_total += (uint64_t)k; /* moves stored, not moves tried */
    srv_ls_moves(k);
    g->away_stored = away;
    if (k) {
        g->decide_since_ms = srv_now_ms();
        if (srv_ls_on)
            g->ls_commit_us = srv_ls_now();
    }
    /* moves made while this commit was out wait for the next one, and the
       clients for them (srv_game_changed waits while moves are pending) */
    if (g->npending || g->meta_dirty)
        srv_commit_schedule(g);
    if (g->status == GAME_OVER && !g->end_logged && !g->npending && !g->meta_dirty) {
        /* its end is stored (result, or abandoned): said once */
        g->end_logged = 1;
        char scores[96] = "", winners[48] = "";
        for (int i = 0; i < g->nseats; i++) {
            size_t l = strlen(scores);
            snprintf(scores + l, sizeof scores - l, "%s%d", i ? "," : "", (int)g->scores[i]);
            if ((g->winners >> i) & 1u) {
                l = strlen(winners);
                snprintf(winners + l, sizeof winners - l, "%s%d", winners[0] ? "," : "", i);
            }
        }
        if (g->abandoned)
            srv_logf(SRV_LOG_INFO, "game.ended", "game=%s result=abandoned moves=%d the game "
                    "ended", g->id, g->ncommitted);
        else
            srv_logf(SRV_LOG_INFO, "game.ended", "game=%s result=finished winners=%s scores=%s "
                    "rated=%s moves=%d the game ended", g->id, winners, scores,
                    srv_game_rated(g) ? "yes" : "no", g->ncommitted);
    }
    if (srv_table_up.committed) /* a cluster: the other nodes re-read a changed lobby entry */
        srv_table_up.committed(g);
    srv_game_changed(g);
}

/* The commit on the event loop itself (no writer thread, or at the stop). */
static void commit_here(srv_game *list)
{
    int rc = srv_store_commit(g_storage.store, list);
    int ok = rc == 0 ? 1 : rc == SRV_STORE_CONFLICT ? SRV_STORE_CONFLICT : 0;
    srv_metrics_inc(ok ? SRV_M_COMMITS : SRV_M_COMMIT_FAILURES, 1);
    if (ok)
        srv_storage_ok();
    else
        srv_storage_failed(srv_store_errmsg(g_storage.store));
    for (srv_game *g = list, *nx; g; g = nx) {
        nx = g->next_commit;
        g->next_commit = NULL;
        if (ok == 1)
            g->meta_dirty = 0;
        srv_commit_done(g, g->npending, g->away_stored, ok);
    }
}

/* The games of list handed to the writer thread (committer.c) as one batch:
 * what each has to write is copied on the loop (srv_batch_fill), the game is
 * its item's owner. 0, or -1 (out of memory: nothing handed). */
static int submit(srv_committer *c, srv_game *list)
{
    int n = 0;
    for (srv_game *g = list; g; g = g->next_commit)
        n++;
    srv_batch_item *items = calloc((size_t)(n ? n : 1), sizeof *items);
    void **owners = calloc((size_t)(n ? n : 1), sizeof *owners);
    if (!items || !owners) {
        free(items);
        free(owners);
        return -1;
    }
    int k = 0;
    for (srv_game *g = list; g; g = g->next_commit) {
        if (srv_batch_fill(&items[k], g) != 0) {
            for (int i = 0; i < k; i++)
                srv_batch_free(&items[i]);
            free(items);
            free(owners);
            return -1;
        }
        owners[k++] = g;
    }
    int64_t t_submit = srv_ls_on ? srv_ls_now() : 0;
    if (srv_committer_submit(c, items, owners, k, t_submit) != 0) {
        for (int i = 0; i < k; i++)
            srv_batch_free(&items[i]);
        free(items);
        free(owners);
        return -1;
    }
    for (srv_game *g = list; g; g = g->next_commit) {
        g->commit_busy = 1;
        g->meta_dirty = 0; /* in the batch; set again if it fails */
        if (t_submit) {
            if (g->ls_pending_us)
                srv_ls_add(SRV_LS_READ_SUBMIT, t_submit - g->ls_pending_us);
            g->ls_pending_us = 0;
        }
    }
    return 0;
}

/* The writer thread's answers (srv_commit_hooks, registered at
 * srv_committer_start), on the loop: once per transaction, then per game. */
static void batch_written(int ok, const char *err)
{
    /* the backoff counts commits; a conflict is the database working as
       meant (another writer was first) */
    srv_metrics_inc(ok ? SRV_M_COMMITS : SRV_M_COMMIT_FAILURES, 1);
    if (ok)
        srv_storage_ok();
    else
        srv_storage_failed(err);
}

static void item_done(void *owner, const srv_batch_item *it, int ok)
{
    srv_game *g = owner;
    g->commit_busy = 0;
    if (ok != 1 && it->seats)
        g->meta_dirty = 1;
    srv_commit_done(g, it->nmoves, it->away, ok);
}

const srv_commit_hooks srv_commit_hooks_game = {batch_written, item_done};

static void commit_now_in(void);

void srv_commit_now(lws_sorted_usec_list_t *sul)
{
    (void)sul;
    int64_t t0 = SRV_LS_T0();
    commit_now_in();
    srv_ls_sec_end(SRV_LS_COMMITNOW, t0);
}

static void commit_now_in(void)
{
    g_tables.commit_scheduled = 0;
    srv_game *list = g_tables.commit_list;
    g_tables.commit_list = NULL;
    /* off the list; a game whose commit is still out is asked again when
       it is back (srv_commit_done) */
    srv_game *ready = NULL, **tail = &ready;
    for (srv_game *g = list, *nx; g; g = nx) {
        nx = g->next_commit;
        g->next_commit = NULL;
        g->queued = 0;
        if (g->commit_busy)
            continue;
        *tail = g;
        tail = &g->next_commit;
    }
    if (!ready)
        return;
    if (g_storage.committer && submit(g_storage.committer, ready) == 0) {
        for (srv_game *g = ready, *nx; g; g = nx) {
            nx = g->next_commit;
            g->next_commit = NULL;
        }
        return;
    }
    commit_here(ready);
}


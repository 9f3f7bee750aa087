/* play_save.c: saving, resuming, replaying and undoing in `chartered play`.
 * A saved game is an ordinary game file (gamefile.c: setup, moves, state),
 * so `chartered replay FILE` checks it and every other command reads it; the
 * table (who sits where, names, bots and their strength, the language) is
 * kept in the setup object under "play". Undo replays the game from its
 * start without the undone moves, and is refused when it would take back
 * something that showed the person hidden information (docs/play.md,
 * "Undo"): the moves since the decision are replayed on copies of the
 * earlier state whose hidden parts (hands, decks, bids) are re-dealt by
 * ch_determinize; if the person's view at the end differs in any copy, or a
 * move cannot be replayed, what happened depended on something they could
 * not see then, so it was revealed to them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "play.h"

static json_t *table_json(const play_game *g)
{
    json_t *t = json_object();
    json_t *seats = json_array();
    for (int p = 0; p < g->set.nplayers; p++) {
        const play_seat *s = &g->seat[p];
        json_t *o = json_object();
        json_object_set_new(o, "kind", json_string(s->human ? "human" : s->bot));
        json_object_set_new(o, "name", json_string(s->name));
        if (!s->human && !strcmp(s->bot, "ismcts"))
            json_object_set_new(o, "strength", json_integer(s->strength));
        json_array_append_new(seats, o);
    }
    json_object_set_new(t, "seats", seats);
    json_object_set_new(t, "lang", json_string(chx_lang_code(g->lang)));
    return t;
}

int play_save(play_game *g, const char *path, char *why, size_t n)
{
    /* the usual failures said on the screen (cli_error's message on
     * standard error would be cleared with the next screen) */
    char dir[PLAY_LINE];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *(slash == dir ? slash + 1 : slash) = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    struct stat sb;
    if (access(dir, W_OK) != 0) {
        snprintf(why, n, "%s: %s", dir, strerror(errno));
        return -1;
    }
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        snprintf(why, n, "%s", strerror(EISDIR));
        return -1;
    }
    game_file gf = {0};
    gf.setup = json_deep_copy(g->setup);
    gf.moves = json_array();
    if (!gf.setup || !gf.moves) {
        snprintf(why, n, "out of memory");
        json_decref(gf.setup);
        json_decref(gf.moves);
        return -1;
    }
    json_object_set_new(gf.setup, "play", table_json(g));
    for (int i = 0; i < g->nmoves; i++) {
        json_t *o = json_object();
        json_object_set_new(o, "player", json_integer(g->moves[i].p + 1));
        json_object_set_new(o, "move", json_string(g->moves[i].text));
        json_array_append_new(gf.moves, o);
    }
    int rc = gf_save(path, &gf, &g->st);
    json_decref(gf.setup);
    json_decref(gf.moves);
    if (rc) {
        snprintf(why, n, "%s", chx_msg(g->lang, "error.see_above"));
        return -1;
    }
    return 0;
}

int play_replay(const play_game *g, int k, ch_state *st)
{
    *st = g->start;
    for (int i = 0; i < k && i < g->nmoves; i++)
        ch_apply_fast(st, g->moves[i].p, g->moves[i].m);
    return 0;
}

static int read_table(play_game *g, const char *path, json_t *t)
{
    for (int p = 0; p < g->set.nplayers; p++)
        g->seat[p].human = 1;
    if (!t)
        return 0;
    json_t *seats = json_object_get(t, "seats");
    if (!json_is_array(seats) || json_array_size(seats) != (size_t)g->set.nplayers) {
        cli_error("%s: setup.play.seats must list the %d seats", path, g->set.nplayers);
        return EXIT_FAIL;
    }
    for (int p = 0; p < g->set.nplayers; p++) {
        json_t *o = json_array_get(seats, (size_t)p);
        const char *kind = json_string_value(json_object_get(o, "kind"));
        const char *name = json_string_value(json_object_get(o, "name"));
        json_t *str = json_object_get(o, "strength");
        char spec[48], why[200];
        if (!kind) {
            cli_error("%s: setup.play.seats[%d] has no \"kind\"", path, p);
            return EXIT_FAIL;
        }
        if (json_is_integer(str))
            snprintf(spec, sizeof spec, "%.20s:%lld", kind,
                     (long long)json_integer_value(str));
        else
            snprintf(spec, sizeof spec, "%.20s", kind);
        if (play_seat_parse(spec, &g->seat[p], why, sizeof why)) {
            cli_error("%s: setup.play.seats[%d]: %s", path, p, why);
            return EXIT_FAIL;
        }
        if (name)
            snprintf(g->seat[p].name, sizeof g->seat[p].name, "%s", name);
    }
    const char *lang = json_string_value(json_object_get(t, "lang"));
    if (lang && chx_lang_find(lang) >= 0)
        g->lang = chx_lang_find(lang);
    return 0;
}

int play_load(play_game *g, const char *path)
{
    game_file gf;
    if (gf_load(path, &gf, 1))
        return EXIT_FAIL;
    int rc = EXIT_FAIL;
    g->set = gf.set;
    ch_msg why = {{0}};
    json_t *start = json_object_get(gf.setup, "position");
    if (json_is_string(start)) {
        /* a game started from a position (--position) */
        const char *t = json_string_value(start);
        if (ch_position_read(&g->start, t, strlen(t), "setup.position", &why) != CH_OK) {
            cli_error("%s: %s", path, why.text);
            goto done;
        }
        g->board = *ch_state_board(&g->start);
    } else {
        if (gf_board_from_setup(path, gf.setup, gf.set.edition, &g->board))
            goto done;
        if (ch_new(&g->start, &g->set, &g->board, &why) != CH_OK) {
            cli_error("%s: the setup does not start a game: %s", path, why.text);
            goto done;
        }
    }
    g->st = g->start;
    size_t i;
    json_t *mv;
    json_array_foreach(gf.moves, i, mv) {
        int p = (int)json_integer_value(json_object_get(mv, "player")) - 1;
        const char *text = json_string_value(json_object_get(mv, "move"));
        ch_move m;
        int r = ch_move_parse(&g->st, p, text, &m, &why);
        if (r == CH_OK) {
            ch_state before = g->st;
            r = ch_apply(&g->st, p, m, &why);
            if (r == CH_OK) {
                /* record without describing: the log is rebuilt below */
                if (g->nmoves == g->cap) {
                    int nc = g->cap ? g->cap * 2 : 256;
                    play_move *nm = realloc(g->moves, (size_t)nc * sizeof *nm);
                    if (!nm) {
                        cli_error("out of memory");
                        goto done;
                    }
                    g->moves = nm;
                    g->cap = nc;
                }
                g->moves[g->nmoves].p = p;
                g->moves[g->nmoves].m = m;
                ch_move_str(&before, m, g->moves[g->nmoves].text,
                            sizeof g->moves[g->nmoves].text);
                g->nmoves++;
            }
        }
        if (r != CH_OK) {
            cli_error("%s: move %zu '%s' (player %d): %s", path, i + 1, text, p + 1,
                      why.text);
            goto done;
        }
    }
    if (memcmp(&g->st, &gf.state, sizeof g->st) != 0) {
        cli_error("%s: the stored state differs from the replayed moves (run "
                  "'chartered replay %s')", path, path);
        goto done;
    }
    if (read_table(g, path, json_object_get(gf.setup, "play")))
        goto done;
    g->setup = json_deep_copy(gf.setup);
    json_object_del(g->setup, "play");
    rc = 0;
done:
    gf_free(&gf);
    return rc;
}

/* Was anything hidden from p at state `at` (before move k) revealed to p by
 * the moves k.. of the history? */
static int reveals(const play_game *g, int p, const ch_state *at, int k)
{
    char *now = ch_view_to_json(&g->st, p);
    ch_state *w = malloc(sizeof *w);
    if (!now || !w) {
        ch_free(now);
        free(w);
        return 1;
    }
    int revealed = 0;
    for (uint64_t seed = 1; seed <= 4 && !revealed; seed++) {
        *w = *at;
        ch_determinize(w, p, seed * 0x9E3779B97F4A7C15ull ^ g->set.seed);
        for (int i = k; i < g->nmoves && !revealed; i++) {
            ch_msg why;
            if (ch_apply(w, g->moves[i].p, g->moves[i].m, &why) != CH_OK)
                revealed = 1;
        }
        if (!revealed) {
            char *v = ch_view_to_json(w, p);
            revealed = !v || strcmp(v, now) != 0;
            ch_free(v);
        }
    }
    ch_free(now);
    free(w);
    return revealed;
}

int play_undo(play_game *g, int p, const char **why_key)
{
    for (int q = 0; q < g->set.nplayers; q++)
        if (q != p && g->seat[q].human) {
            *why_key = "undo.not_against_people";
            return -1;
        }
    int k = g->nmoves - 1;
    while (k >= 0 && g->moves[k].p != p)
        k--;
    if (k < 0) {
        *why_key = "undo.nothing";
        return -1;
    }
    ch_state *at = malloc(sizeof *at);
    if (!at) {
        *why_key = "undo.nothing";
        return -1;
    }
    play_replay(g, k, at);
    if (reveals(g, p, at, k)) {
        free(at);
        *why_key = "undo.revealed";
        return -1;
    }
    g->st = *at;
    g->nmoves = k;
    free(at);
    play_log_rebuild(g);
    snprintf(g->note, sizeof g->note, "%s", chx_msg(g->lang, "undo.done"));
    return 0;
}

void play_free(play_game *g)
{
    if (!g)
        return;
    for (int p = 0; p < CH_MAX_PLAYERS; p++)
        if (g->seat[p].b)
            ch_bot_free(g->seat[p].b);
    json_decref(g->setup);
    free(g->moves);
    free(g);
}

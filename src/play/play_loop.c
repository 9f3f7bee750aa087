/* play_loop.c: the game loop of `chartered play`: asks the library who
 * decides, lets the bots move and asks the people, records every move with
 * its description in words, and handles hot seat: when the keyboard goes
 * from one person to another the screen is cleared and a "pass the
 * keyboard" pause hides the previous player's hand (sealed bids are entered
 * one person after another the same way, so no one sees another's bid). At
 * the end of input the game is saved and the program says where.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "play.h"

static void log_add(play_game *g, const ch_state *before, int p, ch_move m)
{
    const char *names[CH_MAX_PLAYERS];
    for (int q = 0; q < CH_MAX_PLAYERS; q++)
        names[q] = q < g->set.nplayers ? play_name(g, q) : NULL;
    int slot = g->nlog % PLAY_LOG;
    chx_describe_for(g->lang, -1, names, before, p, m, &g->st, g->log[slot],
                     sizeof g->log[slot]);
    chx_describe_for(g->lang, p, names, before, p, m, &g->st, g->logown[slot],
                     sizeof g->logown[slot]);
    if (!strcmp(g->logown[slot], g->log[slot]))
        g->logown[slot][0] = '\0';
    g->logp[slot] = p;
    g->nlog++;
}

int play_apply(play_game *g, int p, ch_move m, ch_msg *why)
{
    ch_state before = g->st;
    char text[128];
    if (ch_move_str(&g->st, m, text, sizeof text) <= 0)
        snprintf(text, sizeof text, "?");
    int rc = ch_apply(&g->st, p, m, why);
    if (rc != CH_OK)
        return rc;
    if (g->nmoves == g->cap) {
        int nc = g->cap ? g->cap * 2 : 256;
        play_move *nm = realloc(g->moves, (size_t)nc * sizeof *nm);
        if (!nm) {
            g->st = before;
            snprintf(why->text, sizeof why->text, "out of memory");
            return CH_ENOMEM;
        }
        g->moves = nm;
        g->cap = nc;
    }
    g->moves[g->nmoves].p = p;
    g->moves[g->nmoves].m = m;
    snprintf(g->moves[g->nmoves].text, sizeof g->moves[g->nmoves].text, "%s", text);
    g->nmoves++;
    log_add(g, &before, p, m);
    return CH_OK;
}

void play_log_rebuild(play_game *g)
{
    g->nlog = 0;
    int from = g->nmoves > PLAY_LOG ? g->nmoves - PLAY_LOG : 0;
    ch_state *st = malloc(sizeof *st);
    if (!st)
        return;
    ch_state now = g->st;
    if (play_replay(g, from, st) != 0) {
        free(st);
        return;
    }
    for (int i = from; i < g->nmoves; i++) {
        ch_state before = *st;
        ch_apply_fast(st, g->moves[i].p, g->moves[i].m);
        g->st = *st;
        log_add(g, &before, g->moves[i].p, g->moves[i].m);
    }
    g->st = now;
    free(st);
}

int play_log_text(play_game *g, int viewer, int last, chx_buf *b)
{
    const char *names[CH_MAX_PLAYERS];
    for (int q = 0; q < CH_MAX_PLAYERS; q++)
        names[q] = q < g->set.nplayers ? play_name(g, q) : NULL;
    ch_state *st = malloc(2 * sizeof *st);
    if (!st)
        return -1;
    ch_state *before = st + 1;
    if (play_replay(g, 0, st) != 0) {
        free(st);
        return -1;
    }
    int from = last > 0 && last < g->nmoves ? g->nmoves - last : 0;
    int width = (g->width > 0 ? g->width - 1 : 79) - 6;
    for (int i = 0; i < g->nmoves; i++) {
        *before = *st;
        ch_apply_fast(st, g->moves[i].p, g->moves[i].m);
        if (i < from)
            continue;
        /* what the viewer may know of each move, numbered from the start,
         * wrapped under itself */
        char text[PLAY_LINE], num[16];
        chx_describe_for(g->lang, viewer, names, before, g->moves[i].p, g->moves[i].m, st,
                         text, sizeof text);
        chx_buf w = {0};
        chx_wrap(text, width, &w);
        snprintf(num, sizeof num, "%4d. ", i + 1);
        int first = 1;
        for (const char *s0 = w.s ? w.s : ""; *s0;) {
            const char *e = strchr(s0, '\n');
            size_t n = e ? (size_t)(e - s0) : strlen(s0);
            chx_buf_puts(b, first ? num : "      ");
            chx_buf_add(b, s0, n);
            chx_buf_puts(b, "\n");
            s0 += n + (e ? 1 : 0);
            first = 0;
        }
        free(w.s);
    }
    free(st);
    return 0;
}

static int humans(const play_game *g)
{
    int k = 0;
    for (int p = 0; p < g->set.nplayers; p++)
        k += g->seat[p].human;
    return k;
}

/* End of input or quit: keep the game in the autosave file. */
static void save_and_leave(play_game *g, const char *key)
{
    char why[256], line[PLAY_LINE];
    if (play_interrupted)
        key = "note.interrupt_saved";
    fprintf(g->out, "\n");
    if (play_save(g, g->autosave, why, sizeof why) == 0)
        fprintf(g->out, "%s\n", play_fmt(g, line, sizeof line, key, "file",
                                         g->autosave, NULL));
    else
        fprintf(g->out, "%s\n", play_fmt(g, line, sizeof line, "error.save_failed",
                                         "file", g->autosave, "reason", why, NULL));
}

static int game_over(play_game *g)
{
    play_clear(g);
    int viewer = g->last_human;
    g->reserve = 2; /* the final scores come with the screen; then a prompt */
    play_screen(g, viewer);
    g->reserve = 0;
    for (;;) {
        char line[PLAY_LINE], why[256];
        fprintf(g->out, "\n%s ", chx_msg(g->lang, "prompt.game_over"));
        if (play_readline(g, line, sizeof line) < 0 || !line[0] ||
            !strcasecmp(line, "quit"))
            return 0;
        /* the whole game, the chart, the players and the rules stay at hand */
        if (!strcasecmp(line, "rules") || !strncasecmp(line, "rules ", 6) ||
            play_show(g, viewer, line)) {
            if (!strncasecmp(line, "rules", 5))
                play_rules(g, line + 5);
            play_clear(g);
            g->reserve = 2;
            play_screen(g, viewer);
            g->reserve = 0;
            if (g->note[0]) {
                fprintf(g->out, "%s\n", g->note);
                g->note[0] = '\0';
            }
            continue;
        }
        if (!strncasecmp(line, "save ", 5)) {
            char file[PLAY_LINE];
            snprintf(file, sizeof file, "%s", line + 5 + strspn(line + 5, " "));
            if (play_save(g, file, why, sizeof why) == 0)
                fprintf(g->out, "%s\n", play_fmt(g, line, sizeof line, "note.saved",
                                                 "file", file, NULL));
            else
                fprintf(g->out, "%s\n", play_fmt(g, line, sizeof line,
                                                 "error.save_failed", "file", file,
                                                 "reason", why, NULL));
            continue;
        }
        fprintf(g->out, "%s\n", chx_msg(g->lang, "error.game_over_input"));
    }
}

int play_run(play_game *g)
{
    g->last_human = -1;
    for (;;) {
        unsigned mask = 0;
        if (ch_decider(&g->st, &mask) == CH_DEC_TERMINAL)
            return game_over(g);
        if (play_interrupted) {
            save_and_leave(g, "note.interrupt_saved");
            return 0;
        }
        int acted = 0;
        for (int p = 0; p < g->set.nplayers && !acted; p++) {
            if (!(mask & (1u << p)))
                continue;
            ch_move probe;
            if (ch_legal(&g->st, p, &probe, 1) <= 0)
                continue; /* already decided (a sealed bid that is in) */
            ch_move m;
            ch_msg why = {{0}};
            if (!g->seat[p].human) {
                if (!strcmp(g->seat[p].bot, "ismcts") && !g->plain) {
                    /* a searching bot may take seconds: say so */
                    char line[PLAY_LINE];
                    fprintf(g->out, "\r%s", play_fmt(g, line, sizeof line,
                                                     "screen.thinking", "player",
                                                     play_name(g, p), NULL));
                    fflush(g->out);
                }
                if (ch_bot_choose(g->seat[p].b, &g->st, p, &m, &why) != CH_OK)
                    m = probe; /* a bot that fails still keeps the game going */
                if (play_apply(g, p, m, &why) != CH_OK &&
                    play_apply(g, p, probe, &why) != CH_OK) {
                    cli_error("chartered play: the %s bot of seat %d cannot "
                              "move: %s", g->seat[p].bot, p + 1, why.text);
                    save_and_leave(g, "note.eof_saved");
                    return EXIT_FAIL;
                }
                acted = 1;
                continue;
            }
            if (humans(g) > 1 && g->last_human != p) {
                /* hot seat: hide the last person's screen first */
                play_clear(g);
                if (play_wait(g, "prompt.pass_keyboard", play_name(g, p)) == PLAY_EOF) {
                    save_and_leave(g, "note.eof_saved");
                    return 0;
                }
            }
            g->last_human = p;
            int r = play_ask(g, p, &m);
            if (r == PLAY_EOF) {
                save_and_leave(g, "note.eof_saved");
                return 0;
            }
            if (r == PLAY_QUIT) {
                save_and_leave(g, "note.quit_saved");
                return 0;
            }
            if (r == PLAY_UNDO_DONE) {
                acted = 1;
                continue;
            }
            if (play_apply(g, p, m, &why) != CH_OK) {
                char reason[PLAY_LINE];
                chx_reason(g->lang, &why, reason, sizeof reason);
                play_fmt(g, g->note, sizeof g->note, "error.illegal", "move", "",
                         "reason", reason, NULL);
            }
            acted = 1;
        }
        if (!acted) {
            /* nobody can move although the game is not over: never loop */
            cli_error("chartered play: no seat has a legal move");
            save_and_leave(g, "note.eof_saved");
            return EXIT_FAIL;
        }
    }
}

/* play_setup.c: `chartered play`: its flags, the interactive setup questions
 * (edition, players, seats, names, preset or arrangement, events, seed), the
 * seats' bots, and the start of a new or resumed game. The flags allow a
 * one-line start:
 *   chartered play --edition golden-age --players 3 \
 *       --seats human,greedy,ismcts:2 --names Anke --seed 7 --lang nl
 */
#include <errno.h>
#include <signal.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "play.h"

/* ISMCTS strength 1..5 as iterations per move, with playouts cut at 60
 * decisions and scored (faster, and stronger against greedy: docs/bots.md):
 * 1 answers at once, 5 takes some seconds on a slow machine. */
static const int ismcts_iterations[5] = {100, 300, 1000, 3000, 10000};

const char *play_name(const play_game *g, int p)
{
    if (p >= 0 && p < CH_MAX_PLAYERS && g->seat[p].name[0])
        return g->seat[p].name;
    return "?";
}

int play_seat_parse(const char *text, play_seat *s, char *why, size_t n)
{
    char word[32];
    snprintf(word, sizeof word, "%s", text);
    char *colon = strchr(word, ':');
    int strength = 0;
    if (colon) {
        *colon = '\0';
        char *end;
        long v = strtol(colon + 1, &end, 10);
        if (colon[1] == '\0' || *end || v < 1 || v > 5) {
            snprintf(why, n, "'%s': the strength after ':' is 1 to 5", text);
            return -1;
        }
        strength = (int)v;
    }
    memset(s->bot, 0, sizeof s->bot);
    s->strength = 0;
    if (!strcasecmp(word, "human") || !strcasecmp(word, "h") ||
        !strcasecmp(word, "person")) {
        if (colon) {
            snprintf(why, n, "'%s': a person has no strength", text);
            return -1;
        }
        s->human = 1;
        return 0;
    }
    const char *const *names = ch_bot_names();
    for (int i = 0; names[i]; i++)
        if (!strcasecmp(word, names[i])) {
            if (colon && strcmp(names[i], "ismcts") != 0) {
                snprintf(why, n, "'%s': only ismcts takes a strength", text);
                return -1;
            }
            s->human = 0;
            snprintf(s->bot, sizeof s->bot, "%s", names[i]);
            s->strength = strength ? strength : 2;
            return 0;
        }
    snprintf(why, n, "'%s' is not a seat: human, random, greedy, rollout or ismcts[:1-5]",
             text);
    return -1;
}

int play_bots_start(play_game *g)
{
    for (int p = 0; p < g->set.nplayers; p++) {
        play_seat *s = &g->seat[p];
        if (s->human || s->b)
            continue;
        char opts[64] = "";
        if (!strcmp(s->bot, "ismcts"))
            snprintf(opts, sizeof opts, "iterations=%d,depth=60",
                     ismcts_iterations[(s->strength >= 1 && s->strength <= 5
                                            ? s->strength
                                            : 2) - 1]);
        ch_msg err = {{0}};
        uint64_t seed = g->set.seed * 6364136223846793005ull + (uint64_t)p + 1;
        if (ch_bot_new(&s->b, s->bot, opts, seed, &err) != CH_OK) {
            cli_error("chartered play: cannot start the %s bot: %s", s->bot,
                      err.text);
            return EXIT_FAIL;
        }
    }
    return 0;
}

static void default_names(play_game *g)
{
    for (int p = 0; p < g->set.nplayers; p++) {
        play_seat *s = &g->seat[p];
        if (s->name[0])
            continue;
        char num[16];
        snprintf(num, sizeof num, "%d", p + 1);
        if (s->human)
            chx_format(g->lang, s->name, sizeof s->name, "player.n", "n", num,
                       NULL);
        else
            chx_format(g->lang, s->name, sizeof s->name, "seat.bot_name", "bot",
                       s->bot, "n", num, NULL);
    }
}

/* Start a new game from g->set and an arrangement: a built-in name, an
 * arrangement or board file (a path with a '/' or ending in .arr, its boards
 * looked for beside it), or NULL for the default. cv: the variant the setup
 * came from (kept in the game file), or NULL. */
static int start_new(play_game *g, const char *arrangement, const cli_variant *cv)
{
    if (g->set.edition == CH_ED_GOLDEN_AGE && !arrangement)
        arrangement = ch_ga_side(g->set.preset, g->set.nplayers);
    g->setup = json_object();
    json_object_set_new(g->setup, "edition",
                        json_string(cli_edition_name(g->set.edition)));
    json_object_set_new(g->setup, "players", json_integer(g->set.nplayers));
    json_object_set_new(g->setup, "seed", gf_seed_json(g->set.seed));
    gf_setup_options(g->setup, &g->set);
    if (cv)
        json_object_set_new(g->setup, "variant", cli_variant_json(cv));
    const char *arr_file = NULL;
    char dir[1024] = ".";
    if (arrangement && cli_arr_is_file(arrangement)) {
        arr_file = arrangement;
        arrangement = NULL;
        snprintf(dir, sizeof dir, "%s", arr_file);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
        else
            snprintf(dir, sizeof dir, ".");
    }
    if (gf_board_for_new(g->set.edition, arrangement, arr_file, arr_file ? dir : NULL, &g->board,
                         g->setup))
        return EXIT_USAGE;
    ch_msg err = {{0}};
    int rc = ch_new(&g->start, &g->set, &g->board, &err);
    if (rc != CH_OK) {
        cli_error("chartered play: cannot start the game: %s",
                  err.text[0] ? err.text : ch_strerror(rc));
        return EXIT_USAGE;
    }
    g->st = g->start;
    return 0;
}

/* ---- interactive setup ------------------------------------------------------ */

/* Ask a question with a default; the answer (or the default on an empty
 * line) into buf. -1 at end of input. */
static int ask(play_game *g, const char *prompt, const char *def, char *buf,
               size_t n)
{
    fprintf(g->out, "%s [%s]: ", prompt, def);
    fflush(g->out);
    if (play_readline(g, buf, n) < 0)
        return -1;
    if (!buf[0])
        snprintf(buf, n, "%s", def);
    return 0;
}

static int ask_int(play_game *g, const char *key, int lo, int hi, int def,
                   int *out)
{
    char prompt[256], buf[64], d[16], slo[16], shi[16];
    snprintf(slo, sizeof slo, "%d", lo);
    snprintf(shi, sizeof shi, "%d", hi);
    snprintf(d, sizeof d, "%d", def);
    for (;;) {
        play_fmt(g, prompt, sizeof prompt, key, "lo", slo, "hi", shi, NULL);
        if (ask(g, prompt, d, buf, sizeof buf) < 0)
            return -1;
        char *end;
        long v = strtol(buf, &end, 10);
        if (*buf && !*end && v >= lo && v <= hi) {
            *out = (int)v;
            return 0;
        }
        char msg[256];
        play_fmt(g, msg, sizeof msg, "setup.bad_number", "lo", slo, "hi", shi,
                 NULL);
        fprintf(g->out, "%s\n", msg);
    }
}

static int ask_choice(play_game *g, const char *key, const char *const *choices,
                      int def, int *out)
{
    char prompt[256], buf[64];
    for (;;) {
        char list[200] = "";
        for (int i = 0; choices[i]; i++) {
            strncat(list, choices[i], sizeof list - strlen(list) - 1);
            if (choices[i + 1])
                strncat(list, ", ", sizeof list - strlen(list) - 1);
        }
        play_fmt(g, prompt, sizeof prompt, key, "choices", list, NULL);
        if (ask(g, prompt, choices[def], buf, sizeof buf) < 0)
            return -1;
        for (int i = 0; choices[i]; i++) {
            char num[16];
            snprintf(num, sizeof num, "%d", i + 1);
            if (!strcasecmp(buf, choices[i]) || !strcmp(buf, num)) {
                *out = i;
                return 0;
            }
        }
        char msg[256];
        play_fmt(g, msg, sizeof msg, "setup.bad_choice", "answer", buf,
                 "choices", list, NULL);
        fprintf(g->out, "%s\n", msg);
    }
}

static int split_list(char *s, char **items, int max);

/* chartered play --position FILE: the game starts from the position (its
 * setup records it, so save, resume and undo replay from there); seats as
 * --seats says, else a human in seat 1 and greedy bots. */
static int start_from_position(play_game *g, const char *path, const char *seats_s,
                               const char *names_s)
{
    char *text = cli_read_file(path);
    if (!text)
        return EXIT_FAIL;
    ch_msg err = {{0}};
    int crc = ch_position_read(&g->start, text, strlen(text), path, &err);
    free(text);
    if (crc != CH_OK) {
        cli_error("%s", err.text[0] ? err.text : ch_strerror(crc));
        return EXIT_FAIL;
    }
    const ch_state *st = &g->start;
    ch_setup_default(&g->set, st->edition);
    g->set.edition = st->edition;
    g->set.nplayers = st->nplayers;
    g->set.seed = st->seed;
    g->set.preset = st->preset;
    g->set.events = st->events_on;
    g->board = *ch_state_board(st);
    g->st = g->start;
    g->setup = gf_setup_for_position(st);
    if (!g->setup) {
        cli_error("out of memory");
        return EXIT_FAIL;
    }
    char buf[256] = "", *items[CH_MAX_PLAYERS + 1];
    int n = 0;
    if (seats_s) {
        snprintf(buf, sizeof buf, "%s", seats_s);
        n = split_list(buf, items, CH_MAX_PLAYERS + 1);
        if (n > st->nplayers) {
            cli_error("chartered play: --seats names %d seats for the %d players "
                      "of the position", n, st->nplayers);
            return EXIT_USAGE;
        }
    }
    for (int p = 0; p < st->nplayers; p++) {
        char why[200];
        const char *item = p < n ? items[p] : p == 0 ? "human" : "greedy";
        if (play_seat_parse(item, &g->seat[p], why, sizeof why)) {
            cli_error("chartered play: --seats: %s", why);
            return EXIT_USAGE;
        }
    }
    if (names_s) {
        snprintf(buf, sizeof buf, "%s", names_s);
        n = split_list(buf, items, CH_MAX_PLAYERS + 1);
        if (n > st->nplayers) {
            cli_error("chartered play: --names gives %d names for %d players", n,
                      st->nplayers);
            return EXIT_USAGE;
        }
        for (int p = 0; p < n; p++)
            snprintf(g->seat[p].name, sizeof g->seat[p].name, "%s", items[p]);
    }
    return 0;
}

static int interactive_setup(play_game *g, const char **arrangement)
{
    static char arr_buf[32];
    fprintf(g->out, "%s\n\n", chx_msg(g->lang, "setup.welcome"));
    static const char *const editions[] = {"amsterdam", "golden-age", NULL};
    int ed;
    if (ask_choice(g, "setup.edition", editions, 0, &ed) < 0)
        return -1;
    uint64_t seed = g->set.seed;
    ch_setup_default(&g->set, ed);
    g->set.edition = ed;
    g->set.seed = seed;
    int np;
    if (ask_int(g, "setup.players", 2, ed == CH_ED_GOLDEN_AGE ? 6 : 5, 3, &np) < 0)
        return -1;
    g->set.nplayers = np;
    for (int p = 0; p < np; p++) {
        char prompt[256], buf[64], why[200], num[16];
        snprintf(num, sizeof num, "%d", p + 1);
        play_fmt(g, prompt, sizeof prompt, "setup.seat", "n", num, NULL);
        for (;;) {
            if (ask(g, prompt, p == 0 ? "human" : "greedy", buf, sizeof buf) < 0)
                return -1;
            if (play_seat_parse(buf, &g->seat[p], why, sizeof why) == 0)
                break;
            fprintf(g->out, "%s\n", why);
        }
        if (g->seat[p].human) {
            char def[32];
            chx_format(g->lang, def, sizeof def, "player.n", "n", num, NULL);
            play_fmt(g, prompt, sizeof prompt, "setup.name", "n", num, NULL);
            if (ask(g, prompt, def, g->seat[p].name, sizeof g->seat[p].name) < 0)
                return -1;
        }
    }
    if (ed == CH_ED_GOLDEN_AGE) {
        static const char *const presets[] = {"golden-age", "golden-age-first", NULL};
        static const char *const onoff[] = {"off", "on", NULL};
        int pr, ev;
        if (ask_choice(g, "setup.preset", presets, 0, &pr) < 0 ||
            ask_choice(g, "setup.events", onoff, 0, &ev) < 0)
            return -1;
        g->set.preset = pr == 0 ? CH_GA_PRINTED : CH_GA_FIRST;
        g->set.events = ev;
    } else {
        const char *const *arrs = ch_board_builtin_names(ed);
        int a;
        if (ask_choice(g, "setup.arrangement", arrs, 0, &a) < 0)
            return -1;
        snprintf(arr_buf, sizeof arr_buf, "%s", arrs[a]);
        *arrangement = arr_buf;
    }
    char buf[64], def[32];
    snprintf(def, sizeof def, "%" PRIu64, g->set.seed);
    for (;;) {
        if (ask(g, chx_msg(g->lang, "setup.seed"), def, buf, sizeof buf) < 0)
            return -1;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(buf, &end, 10);
        if (buf[0] >= '0' && buf[0] <= '9' && !*end && errno == 0) {
            g->set.seed = v;
            break;
        }
        fprintf(g->out, "%s\n", chx_msg(g->lang, "setup.bad_seed"));
    }
    return 0;
}

/* ---- the command ------------------------------------------------------------- */

static int split_list(char *s, char **items, int max)
{
    int k = 0;
    for (char *tok = strtok(s, ","); tok && k < max; tok = strtok(NULL, ","))
        items[k++] = tok;
    return k;
}

static void on_interrupt(int sig)
{
    (void)sig;
    play_interrupted = 1;
}

int cmd_play(int argc, char **argv)
{
    const char *edition_s = NULL, *preset_s = NULL, *events_s = NULL;
    const char *arrangement = NULL, *seats_s = NULL, *names_s = NULL;
    const char *lang_s = NULL, *resume = NULL, *color_s = "auto", *position = NULL;
    const char *autosave = "chartered-autosave.json", *variant = NULL;
    int players = 0, seen_players = 0, seen_seed = 0, plain = 0, width = 0;
    int print_screen = 0, as_seat = 0;
    uint64_t seed = 0;
    const opt_spec specs[] = {
        {"edition", 0, OPT_STR, &edition_s, "NAME", 0, 0,
         "amsterdam (default) or golden-age", NULL},
        {"players", 'p', OPT_INT, &players, "N", 2, CH_MAX_PLAYERS,
         "number of players (Building Amsterdam 2-5, The Golden Age 2-6; "
         "default: the number of seats, else 3)", &seen_players},
        {"seats", 0, OPT_STR, &seats_s, "LIST", 0, 0,
         "who sits where, e.g. human,greedy,ismcts:2 (human, random, greedy, "
         "ismcts[:1-5]; default: a person, then greedy bots)", NULL},
        {"names", 0, OPT_STR, &names_s, "LIST", 0, 0,
         "names of the seats in order, e.g. Anke,Bert", NULL},
        {"preset", 0, OPT_STR, &preset_s, "NAME", 0, 0,
         "Golden Age: golden-age (default) or golden-age-first", NULL},
        {"events", 0, OPT_STR, &events_s, "on|off", 0, 0,
         "Golden Age: event cards (default off)", NULL},
        {"arrangement", 'a', OPT_STR, &arrangement, "NAME", 0, 0,
         "Building Amsterdam: standard, quick-battle, crossroads, outliers; "
         "or an arrangement file (a path with a / or ending in .arr)",
         NULL},
        {"variant", 0, OPT_STR, &variant, "FILE", 0, 0,
         "a variant file (docs/variants.md)", NULL},
        {"seed", 's', OPT_U64, &seed, "S", 0, 0, "seed of the shuffles "
         "(default: from the clock)", &seen_seed},
        {"lang", 0, OPT_STR, &lang_s, "LANG", 0, 0,
         "en, nl or ja (default: from LC_ALL, LC_MESSAGES, LANG)", NULL},
        {"position", 0, OPT_STR, &position, "FILE", 0, 0,
         "start from the position in FILE (docs/formats.md \"Positions\"); "
         "it names the edition, board and players", NULL},
        {"resume", 'r', OPT_STR, &resume, "FILE", 0, 0,
         "continue a saved game", NULL},
        {"plain", 0, OPT_FLAG, &plain, NULL, 0, 0,
         "no colour and no screen clearing (for screen readers)", NULL},
        {"color", 0, OPT_STR, &color_s, "WHEN", 0, 0,
         "auto (default: a terminal without NO_COLOR), always, never", NULL},
        {"width", 0, OPT_INT, &width, "COLS", 40, 400,
         "screen width (default: the terminal's, else 80)", NULL},
        {"autosave", 0, OPT_STR, &autosave, "FILE", 0, 0,
         "where end of input saves the game (default "
         "chartered-autosave.json)", NULL},
        {"print-screen", 0, OPT_FLAG, &print_screen, NULL, 0, 0,
         "print the screen once and exit (with --as)", NULL},
        {"as", 0, OPT_INT, &as_seat, "P", 1, CH_MAX_PLAYERS,
         "with --print-screen: the seat whose screen (default: who decides)",
         NULL},
        {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL}};
    static const opt_cmd cmd = {"play",
                                "chartered play [--edition E] [--players N] [--seats LIST] "
                                "[--names LIST] [--preset P] [--events on|off] "
                                "[--arrangement A] [--variant FILE] [--seed S] [--lang L] [--plain] "
                                "| --position FILE [--seats LIST] [--names LIST] "
                                "| --resume FILE",
                                "Play a game at the terminal against bots or friends (hot "
                                "seat). Without game\nflags the game is set up by "
                                "questions. See docs/play.md.",
                                0, "saved games are given with --resume FILE"};
    char *pos[argc + 1];
    int npos, rc;
    if (!opts_start(&cmd, argc, argv, specs, pos, &npos, &rc))
        return rc;
    play_game *g = calloc(1, sizeof *g);
    if (!g) {
        cli_error("out of memory");
        return EXIT_FAIL;
    }
    g->in = stdin;
    g->out = stdout;
    g->autosave = autosave;
    g->lang = chx_lang_from_env();
    if (lang_s && (g->lang = chx_lang_find(lang_s)) < 0) {
        cli_error("chartered play: --lang expects en, nl or ja, got '%s'",
                  lang_s);
        free(g);
        return EXIT_USAGE;
    }
    int tty = isatty(STDOUT_FILENO);
    const char *nc = getenv("NO_COLOR");
    const char *term = getenv("TERM");
    if (!strcmp(color_s, "always"))
        g->color = 1;
    else if (!strcmp(color_s, "never"))
        g->color = 0;
    else if (!strcmp(color_s, "auto"))
        g->color = tty && !(nc && nc[0]) && !(term && !strcmp(term, "dumb"));
    else {
        cli_error("chartered play: --color expects auto, always or never, got "
                  "'%s'", color_s);
        free(g);
        return EXIT_USAGE;
    }
    g->plain = plain || !tty;
    if (plain)
        g->color = 0;
    g->width = width;
    g->height = 0;
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
        if (!width) {
            g->width = ws.ws_col;
            g->auto_size = 1;
        }
        g->height = ws.ws_row;
    }
    if (!g->width) {
        const char *cols = getenv("COLUMNS");
        g->width = cols && atoi(cols) >= 40 ? atoi(cols) : 80;
    }
    if (g->width < 40)
        g->width = 40;
    if (g->width > 400)
        g->width = 400;

    if (resume) {
        int game_flags = edition_s || seen_players || seats_s || names_s ||
                         preset_s || events_s || arrangement || seen_seed || position || variant;
        if (game_flags) {
            cli_error("chartered play: --resume continues a saved game; its "
                      "setup cannot be changed by other flags");
            free(g);
            return EXIT_USAGE;
        }
        rc = play_load(g, resume);
        if (rc) {
            play_free(g);
            return rc;
        }
        if (lang_s)
            g->lang = chx_lang_find(lang_s);
        default_names(g);
        play_log_rebuild(g); /* the last moves in words, in this language */
    } else if (position) {
        if (edition_s || seen_players || preset_s || events_s || arrangement ||
            seen_seed || variant) {
            cli_error("chartered play: --position names the edition, board, "
                      "players and seed itself; give only --seats and --names");
            play_free(g);
            return EXIT_USAGE;
        }
        if ((rc = start_from_position(g, position, seats_s, names_s)) != 0) {
            play_free(g);
            return rc;
        }
    } else {
        /* static: the error returns below leave its text reachable */
        static cli_variant cv;
        memset(&cv, 0, sizeof cv);
        if (variant) {
            rc = cli_variant_load(&cv, "play", variant);
            if (!rc)
                rc = cli_variant_merge(&cv, "play", &edition_s, edition_s != NULL, &players,
                                       seen_players, &preset_s, &events_s, &arrangement);
            if (rc) {
                cli_variant_free(&cv);
                play_free(g);
                return rc;
            }
            seen_players = seen_players || cv.v.nplayers;
        }
        const char *arr = arrangement;
        int flags_given = edition_s || seen_players || seats_s || names_s ||
                          preset_s || events_s || arrangement || seen_seed || variant;
        if (!seen_seed) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            seed = ((uint64_t)ts.tv_sec * 1000003ull) ^ (uint64_t)ts.tv_nsec;
            seed %= 1000000;
        }
        if (!flags_given && !print_screen) {
            g->set.seed = seed;
            if (interactive_setup(g, &arr) < 0) {
                fprintf(g->out, "\n");
                play_free(g);
                return 0;
            }
        } else {
            int ed = edition_s ? cli_edition_find(edition_s) : CH_ED_AMSTERDAM;
            if (ed < 0) {
                cli_error("chartered play: --edition expects amsterdam or "
                          "golden-age, got '%s'", edition_s);
                play_free(g);
                return EXIT_USAGE;
            }
            ch_setup_default(&g->set, ed);
            g->set.edition = ed;
            g->set.seed = seed;
            char *seat_items[CH_MAX_PLAYERS + 1];
            char seat_buf[256] = "";
            int nseats = 0;
            if (seats_s) {
                snprintf(seat_buf, sizeof seat_buf, "%s", seats_s);
                nseats = split_list(seat_buf, seat_items, CH_MAX_PLAYERS + 1);
            }
            int np = seen_players ? players : nseats ? nseats : 3;
            if (nseats > np) {
                cli_error("chartered play: --seats names %d seats for %d "
                          "players", nseats, np);
                play_free(g);
                return EXIT_USAGE;
            }
            g->set.nplayers = np;
            for (int p = 0; p < np; p++) {
                char why[200];
                const char *item = p < nseats ? seat_items[p]
                                   : p == 0   ? "human"
                                              : "greedy";
                if (play_seat_parse(item, &g->seat[p], why, sizeof why)) {
                    cli_error("chartered play: --seats: %s", why);
                    play_free(g);
                    return EXIT_USAGE;
                }
            }
            if (names_s) {
                char nbuf[256], *items[CH_MAX_PLAYERS + 1];
                snprintf(nbuf, sizeof nbuf, "%s", names_s);
                int nn = split_list(nbuf, items, CH_MAX_PLAYERS + 1);
                if (nn > np) {
                    cli_error("chartered play: --names gives %d names for %d "
                              "players", nn, np);
                    play_free(g);
                    return EXIT_USAGE;
                }
                for (int p = 0; p < nn; p++)
                    snprintf(g->seat[p].name, sizeof g->seat[p].name, "%s",
                             items[p]);
            }
            if ((preset_s || events_s) && ed != CH_ED_GOLDEN_AGE) {
                cli_error("chartered play: --preset and --events are for The "
                          "Golden Age (add --edition golden-age)");
                play_free(g);
                return EXIT_USAGE;
            }
            if (preset_s) {
                int pr = cli_preset_find(preset_s);
                if (pr < 0) {
                    cli_error("chartered play: --preset expects golden-age or "
                              "golden-age-first, got '%s'", preset_s);
                    play_free(g);
                    return EXIT_USAGE;
                }
                g->set.preset = pr;
            }
            if (events_s) {
                int ev = cli_onoff_find(events_s);
                if (ev < 0) {
                    cli_error("chartered play: --events expects on or off, got "
                              "'%s'", events_s);
                    play_free(g);
                    return EXIT_USAGE;
                }
                g->set.events = ev;
            }
            if (variant && (rc = cli_variant_apply(&cv, "play", &g->set))) {
                cli_variant_free(&cv);
                play_free(g);
                return rc;
            }
        }
        default_names(g);
        rc = start_new(g, arr, variant ? &cv : NULL);
        cli_variant_free(&cv);
        if (rc != 0) {
            play_free(g);
            return rc;
        }
    }
    default_names(g);
    if (print_screen) {
        int viewer = as_seat ? as_seat - 1 : cli_sole_decider(&g->st);
        if (viewer >= g->set.nplayers)
            viewer = -1;
        g->plain = plain || !g->color;
        play_screen(g, viewer);
        if (viewer >= 0)
            play_decision_print(g, viewer);
        play_free(g);
        return 0;
    }
    if ((rc = play_bots_start(g)) != 0) {
        play_free(g);
        return rc;
    }
    /* Ctrl-C interrupts the read (no SA_RESTART) and the game is saved */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    rc = play_run(g);
    play_free(g);
    return rc;
}

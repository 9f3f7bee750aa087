/* cmd_game.c: the subcommands that work on one game file: new, legal, apply,
 * show, view and replay. They decode the command line and the file, call
 * libchartered, and print the answers.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* ---- new ------------------------------------------------------------------ */

/* chartered new --position FILE: the game starts from the position; the
 * setup records it (as ch_position_write spells it, so the start is exact
 * and replay needs nothing else). */
static int new_from_position(const char *path, const char *out)
{
    char *text = cli_read_file(path);
    if (!text)
        return EXIT_FAIL;
    ch_state *st = calloc(1, sizeof *st);
    if (!st) {
        free(text);
        cli_error("out of memory");
        return EXIT_FAIL;
    }
    ch_msg err = {{0}};
    int crc = ch_position_read(st, text, strlen(text), path, &err);
    free(text);
    if (crc != CH_OK) {
        cli_error("%s", err.text[0] ? err.text : ch_strerror(crc));
        free(st);
        return EXIT_FAIL;
    }
    json_t *setup = gf_setup_for_position(st);
    int rc = setup ? gf_write_new(out, setup, st) : EXIT_FAIL;
    if (rc == 0 && strcmp(out, "-") != 0) {
        char who[160];
        cli_decider_text(st, who, sizeof who);
        printf("%s: new %s game from %s, %d players, board %s; %s\n", out,
               cli_edition_name(st->edition), path, st->nplayers,
               ch_state_board(st)->name, who);
    }
    json_decref(setup);
    free(st);
    return rc;
}

static int new_game(const char *edition_s, const char *arrangement, const char *arr_file,
                    const char *board_dir, const char *preset_s, const char *events_s,
                    int players, int seen_players, int seen_seed, uint64_t seed, const char *out,
                    const cli_variant *cv);

int cmd_new(int argc, char **argv)
{
    const char *edition_s = "amsterdam", *arrangement = NULL, *arr_file = NULL;
    const char *board_dir = NULL, *out = "-", *preset_s = NULL;
    const char *events_s = NULL, *position = NULL, *variant = NULL;
    int players = 4, seen_seed = 0, seen_players = 0, seen_edition = 0;
    uint64_t seed = 0;
    const opt_spec specs[] = {
        {"edition", 0, OPT_STR, &edition_s, "NAME", 0, 0,
         "amsterdam (default) or golden-age", &seen_edition},
        {"variant", 0, OPT_STR, &variant, "FILE", 0, 0,
         "a variant file (docs/variants.md): its settings, kept in the game file", NULL},
        {"players", 'p', OPT_INT, &players, "N", 2, CH_MAX_PLAYERS,
         "number of players (default 4; Building Amsterdam: 2-5, The Golden "
         "Age: 2-6)", &seen_players},
        {"preset", 0, OPT_STR, &preset_s, "NAME", 0, 0,
         "Golden Age setup: golden-age (the printed rulebook, default) or "
         "golden-age-first (the first rules)", NULL},
        {"events", 0, OPT_STR, &events_s, "on|off", 0, 0,
         "Golden Age: shuffle the event cards in (default off)", NULL},
        {"arrangement", 'a', OPT_STR, &arrangement, "NAME",
         0, 0, "built-in arrangement (default: Building Amsterdam's first; "
         "The Golden Age: the side the preset names for the player count)",
         NULL},
        {"arrangement-file", 0, OPT_STR, &arr_file, "FILE", 0, 0,
         "arrangement file to read instead of a built-in one", NULL},
        {"board-dir", 0, OPT_STR, &board_dir, "DIR", 0, 0,
         "where the arrangement file's boards are (default: built-in)", NULL},
        {"seed", 's', OPT_U64, &seed, "S", 0, 0,
         "seed of the shuffles (default: from the clock, stored in the file)",
         &seen_seed},
        {"output", 'o', OPT_STR, &out, "FILE", 0, 0,
         "game file to write (default: standard output)", NULL},
        {"position", 0, OPT_STR, &position, "FILE", 0, 0,
         "start from the position in FILE (docs/formats.md \"Positions\"); "
         "it names the edition, board and players itself", NULL},
        {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL}};
    static const opt_cmd cmd = {"new",
                                "chartered new [--edition amsterdam|golden-age] [--players N] "
                                "[--preset golden-age|golden-age-first] [--events on|off] "
                                "[--arrangement NAME | --arrangement-file FILE [--board-dir "
                                "DIR]] [--variant FILE] [--seed S] [-o FILE]\n       chartered new --position "
                                "FILE [-o FILE]",
                                "Create a game and write its game file (setup, moves, state).",
                                0, "the game file is given with -o FILE"};
    char *pos[argc + 1];
    int npos, rc;
    if (!opts_start(&cmd, argc, argv, specs, pos, &npos, &rc))
        return rc;
    if (position) {
        if (seen_players || seen_seed || preset_s || events_s || arrangement ||
            arr_file || board_dir || variant || strcmp(edition_s, "amsterdam") != 0) {
            cli_error("chartered new: --position names the edition, board, "
                      "players and seed itself; give no other setup flag");
            return EXIT_USAGE;
        }
        return new_from_position(position, out);
    }
    cli_variant cv;
    memset(&cv, 0, sizeof cv);
    if (variant) {
        if ((rc = cli_variant_load(&cv, "new", variant)))
            return rc;
        if (arr_file && cv.arr[0]) {
            cli_error("chartered new: --arrangement-file %s, but variant '%s' (%s) plays on %s",
                      arr_file, cv.v.name, cv.path, cv.v.arrangement);
            cli_variant_free(&cv);
            return EXIT_USAGE;
        }
        rc = cli_variant_merge(&cv, "new", &edition_s, seen_edition, &players, seen_players,
                               &preset_s, &events_s, &arrangement);
        if (rc) {
            cli_variant_free(&cv);
            return rc;
        }
        seen_players = 1;
        if (cv.arr[0] && cli_arr_is_file(cv.arr) && !board_dir) {
            /* the variant's arrangement file: its boards beside it */
            static char dir[1024];
            snprintf(dir, sizeof dir, "%s", cv.arr);
            char *slash = strrchr(dir, '/'); /* cli_variant_load wrote DIR/FILE */
            if (slash) {
                *slash = '\0';
                board_dir = dir;
            }
        }
    }
    rc = new_game(edition_s, arrangement, arr_file, board_dir, preset_s, events_s, players,
                  seen_players, seen_seed, seed, out, variant ? &cv : NULL);
    cli_variant_free(&cv);
    return rc;
}

/* The rest of cmd_new, once the flags and the variant are merged. */
static int new_game(const char *edition_s, const char *arrangement, const char *arr_file,
                    const char *board_dir, const char *preset_s, const char *events_s,
                    int players, int seen_players, int seen_seed, uint64_t seed, const char *out,
                    const cli_variant *cv)
{
    int rc;
    int edition = cli_edition_find(edition_s);
    if (edition < 0) {
        cli_error("chartered new: --edition expects amsterdam or golden-age, "
                  "got '%s'", edition_s);
        return EXIT_USAGE;
    }
    int preset = CH_GA_PRINTED, events = 0;
    if ((preset_s || events_s) && edition != CH_ED_GOLDEN_AGE) {
        cli_error("chartered new: --%s only applies to The Golden Age (add "
                  "--edition golden-age)", preset_s ? "preset" : "events");
        return EXIT_USAGE;
    }
    if (preset_s && (preset = cli_preset_find(preset_s)) < 0) {
        cli_error("chartered new: --preset expects golden-age or "
                  "golden-age-first, got '%s'", preset_s);
        return EXIT_USAGE;
    }
    if (events_s && (events = cli_onoff_find(events_s)) < 0) {
        cli_error("chartered new: --events expects on or off, got '%s'",
                  events_s);
        return EXIT_USAGE;
    }
    if (arrangement && arr_file) {
        cli_error("chartered new: --arrangement and --arrangement-file exclude "
                  "each other (give one of them)");
        return EXIT_USAGE;
    }
    if (arrangement && cli_arr_is_file(arrangement)) {
        /* --arrangement ./my.arr: a file, as every command reads it */
        arr_file = arrangement;
        arrangement = NULL;
    }
    if (board_dir && !arr_file) {
        cli_error("chartered new: --board-dir only goes with "
                  "--arrangement-file");
        return EXIT_USAGE;
    }
    if (!seen_seed) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = ((uint64_t)ts.tv_sec * 1000000007ull) ^ (uint64_t)ts.tv_nsec ^
               ((uint64_t)getpid() << 32);
    }

    ch_setup set;
    ch_setup_default(&set, edition);
    set.edition = edition;
    if (seen_players)
        set.nplayers = players;
    else if (set.nplayers < 1 || set.nplayers > CH_MAX_PLAYERS)
        set.nplayers = 4;
    set.seed = seed;
    if (cv && (rc = cli_variant_apply(cv, "new", &set)))
        return rc;
    if (edition == CH_ED_GOLDEN_AGE) {
        set.preset = preset;
        set.events = events;
        /* the board side follows the preset and the player count */
        if (!arrangement && !arr_file)
            arrangement = ch_ga_side(preset, set.nplayers);
    }

    json_t *setup = json_object();
    json_object_set_new(setup, "edition", json_string(cli_edition_name(edition)));
    json_object_set_new(setup, "players", json_integer(set.nplayers));
    json_object_set_new(setup, "seed", gf_seed_json(seed));
    gf_setup_options(setup, &set);
    if (cv)
        json_object_set_new(setup, "variant", cli_variant_json(cv));

    ch_board *board = calloc(1, sizeof *board);
    ch_state *st = calloc(1, sizeof *st);
    if (!board || !st) {
        cli_error("out of memory");
        free(board);
        free(st);
        json_decref(setup);
        return EXIT_FAIL;
    }
    rc = gf_board_for_new(edition, arrangement, arr_file, board_dir, board,
                          setup);
    if (rc)
        goto done;
    ch_msg err = {{0}};
    int crc = ch_new(st, &set, board, &err);
    if (crc != CH_OK) {
        cli_error("chartered new: cannot start the game: %s",
                  err.text[0] ? err.text : ch_strerror(crc));
        rc = crc == CH_EINVAL ? EXIT_USAGE : EXIT_FAIL;
        goto done;
    }
    rc = gf_write_new(out, setup, st);
    if (rc == 0 && strcmp(out, "-") != 0) {
        char who[160];
        cli_decider_text(st, who, sizeof who);
        char opts[80] = "";
        if (edition == CH_ED_GOLDEN_AGE)
            snprintf(opts, sizeof opts, ", preset %s, events %s",
                     cli_preset_name(set.preset), set.events ? "on" : "off");
        printf("%s: new %s game, %d players%s, board %s, seed %" PRIu64
               "; %s\n", out, cli_edition_name(edition), set.nplayers, opts,
               ch_state_board(st)->name, seed, who);
    }
done:
    free(board);
    free(st);
    json_decref(setup);
    return rc;
}

/* ---- legal ---------------------------------------------------------------- */

/* Length of a run of moves starting at i that differ only by n counting up. */
static int run_length(const ch_move *mv, int i, int total)
{
    int j = i + 1;
    while (j < total && mv[j].type == mv[i].type && mv[j].a == mv[i].a &&
           mv[j].b == mv[i].b && mv[j].c == mv[i].c &&
           mv[j].n == mv[j - 1].n + 1)
        j++;
    return j - i;
}

/* "bid f0" + "bid f350" -> "bid f0 .. f350". */
static void run_text(const char *first, const char *last, char *buf, size_t n)
{
    size_t common = 0, i = 0;
    while (first[i] && first[i] == last[i]) {
        if (first[i] == ' ')
            common = i + 1;
        i++;
    }
    snprintf(buf, n, "%s .. %s", first, last + common);
}

static int print_legal_player(const ch_state *st, int p, int limit)
{
    ch_move *mv = NULL;
    int total = chx_legal_alloc(st, p, &mv);
    if (total < 0) {
        cli_error("out of memory");
        return EXIT_FAIL;
    }
    printf("player %d: %d legal move%s\n", p + 1, total, total == 1 ? "" : "s");
    int lines = 0;
    for (int i = 0; i < total;) {
        if (limit > 0 && lines >= limit) {
            printf("  ... %d more (use --limit 0 to list all)\n", total - i);
            break;
        }
        int run = run_length(mv, i, total);
        char a[128], b[128], line[300];
        ch_move_str(st, mv[i], a, sizeof a);
        if (run >= 3) {
            ch_move_str(st, mv[i + run - 1], b, sizeof b);
            run_text(a, b, line, sizeof line);
            printf("  %d-%d. %s (%d moves)\n", i + 1, i + run, line, run);
            i += run;
        } else {
            printf("  %d. %s\n", i + 1, a);
            i++;
        }
        lines++;
    }
    free(mv);
    return 0;
}

static json_t *legal_json_player(const ch_state *st, int p)
{
    ch_move *mv = NULL;
    int total = chx_legal_alloc(st, p, &mv);
    if (total < 0)
        return NULL;
    json_t *arr = json_array();
    for (int i = 0; i < total; i++) {
        char a[128];
        ch_move_str(st, mv[i], a, sizeof a);
        json_array_append_new(arr, json_string(a));
    }
    free(mv);
    return json_pack("{s:i, s:i, s:o}", "player", p + 1, "count", total,
                     "moves", arr);
}

static void print_scores(const ch_state *st)
{
    int32_t scores[CH_MAX_PLAYERS] = {0};
    unsigned winners = 0;
    if (ch_scores(st, scores, &winners) != CH_OK)
        return;
    printf("final scores:");
    for (int i = 0; i < st->nplayers; i++)
        printf("%s player %d f%" PRId32 "%s", i ? "," : "", i + 1, scores[i],
               winners & (1u << i) ? " (winner)" : "");
    printf("\n");
}

/* The start shared by the commands that take one game FILE: parse the flags,
 * print the help when asked (returns OPTS_HELP), or check for exactly one
 * FILE. Returns 0 with *file set, OPTS_HELP after --help, or an exit status. */
static int file_command(const char *cmd, int argc, char **argv, const opt_spec *specs,
                        const char **file, const char *usage, const char *help)
{
    const opt_cmd c = {cmd, usage, help, 1, "one game FILE is expected"};
    char *pos[argc + 1];
    int npos, rc;
    if (!opts_start(&c, argc, argv, specs, pos, &npos, &rc))
        return rc ? rc : OPTS_HELP;
    if (npos < 1) {
        cli_error("chartered %s: missing the game FILE (see 'chartered %s "
                  "--help')", cmd, cmd);
        return EXIT_USAGE;
    }
    *file = pos[0];
    return 0;
}

static int check_player(const char *cmd, int player, const ch_state *st,
                        int allow_spectator)
{
    if (player > st->nplayers || (player < 1 && !allow_spectator)) {
        cli_error("chartered %s: --player expects a player from 1 to %d%s, "
                  "got %d", cmd, st->nplayers,
                  allow_spectator ? " (or 0 for a spectator)" : "", player);
        return EXIT_USAGE;
    }
    return 0;
}

int cmd_legal(int argc, char **argv)
{
    int player = 0, seen_player = 0, as_json = 0, limit = 50;
    const opt_spec specs[] = {
        {"player", 'p', OPT_INT, &player, "P", 1, CH_MAX_PLAYERS,
         "only this player's moves (default: everyone who decides now)",
         &seen_player},
        {"limit", 0, OPT_INT, &limit, "N", 0, 1000000,
         "print at most N lines per player (default 50; 0: all)", NULL},
        {"json", 0, OPT_FLAG, &as_json, NULL, 0, 0,
         "one JSON document with every move", NULL},
        {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL}};
    const char *file = NULL;
    int rc = file_command("legal", argc, argv, specs, &file,
                          "chartered legal FILE [--player P] [--json]",
                  "Say who decides now and list their legal moves, numbered "
                  "(a move may be\ngiven to 'apply' as its text or as #N). Runs "
                  "of bids are summarised.");
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    game_file g;
    if (gf_load(file, &g, 1))
        return EXIT_FAIL;
    const ch_state *st = &g.state;
    if (seen_player && (rc = check_player("legal", player, st, 0))) {
        gf_free(&g);
        return rc;
    }
    unsigned mask = 0;
    ch_decider_kind kind = ch_decider(st, &mask);
    char who[160];
    cli_decider_text(st, who, sizeof who);
    unsigned show = seen_player ? (1u << (player - 1)) : mask;
    if (as_json) {
        json_t *deciding = json_array();
        for (int i = 0; i < st->nplayers; i++)
            if (mask & (1u << i))
                json_array_append_new(deciding, json_integer(i + 1));
        json_t *players = json_array();
        for (int i = 0; i < st->nplayers; i++)
            if (show & (1u << i)) {
                json_t *pj = legal_json_player(st, i);
                if (!pj) {
                    cli_error("out of memory");
                    gf_free(&g);
                    return EXIT_FAIL;
                }
                json_array_append_new(players, pj);
            }
        const char *ph = ch_phase_name(st->phase);
        json_t *doc = json_pack(
            "{s:s, s:o, s:s, s:o}", "decider",
            kind == CH_DEC_TERMINAL ? "over"
            : kind == CH_DEC_SIMULTANEOUS ? "simultaneous" : "player",
            "deciding", deciding, "phase", ph ? ph : "?", "players", players);
        char *text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
        if (text)
            printf("%s\n", text);
        free(text);
        json_decref(doc);
        gf_free(&g);
        return text ? 0 : EXIT_FAIL;
    }
    printf("%s\n", who);
    if (kind == CH_DEC_TERMINAL)
        print_scores(st);
    for (int i = 0; i < st->nplayers; i++) {
        if (!(show & (1u << i)))
            continue;
        if (!(mask & (1u << i))) {
            printf("player %d has no decision to make now\n", i + 1);
            continue;
        }
        if ((rc = print_legal_player(st, i, limit))) {
            gf_free(&g);
            return rc;
        }
    }
    gf_free(&g);
    return 0;
}

/* ---- apply ---------------------------------------------------------------- */

/* Append one line of stdin per move (blank lines skipped). */
static int read_stdin_moves(char ***list, int *n, int *cap)
{
    char *line = NULL;
    size_t lcap = 0;
    ssize_t len;
    while ((len = getline(&line, &lcap, stdin)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' ||
                           line[len - 1] == ' ' || line[len - 1] == '\t'))
            line[--len] = '\0';
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0')
            continue;
        if (*n >= *cap) {
            int nc = *cap * 2 + 16;
            char **nl = realloc(*list, (size_t)nc * sizeof *nl);
            if (!nl) {
                free(line);
                return -1;
            }
            *list = nl;
            *cap = nc;
        }
        (*list)[(*n)++] = strdup(s);
    }
    free(line);
    if (ferror(stdin)) {
        cli_error("cannot read the moves from standard input: %s",
                  strerror(errno));
        return -1;
    }
    return 0;
}

int cmd_apply(int argc, char **argv)
{
    int player = 0, seen_player = 0, quiet = 0;
    const opt_spec specs[] = {
        {"player", 'p', OPT_INT, &player, "P", 1, CH_MAX_PLAYERS,
         "the moves are player P's (needed when several decide at once)",
         &seen_player},
        {"quiet", 'q', OPT_FLAG, &quiet, NULL, 0, 0,
         "print nothing on success", NULL},
        {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL}};
    static const opt_cmd cmd = {"apply", "chartered apply FILE [--player P] MOVE... | -",
                                "Apply moves in order (each for the player who decides then, "
                                "or for P) and\nappend them to the game file. A MOVE is "
                                "notation (\"take Harbour C1\") or #N,\nthe N-th move listed "
                                "by 'chartered legal'; '-' reads one move a line from\n"
                                "standard input. Either every move is applied and the file "
                                "rewritten\natomically, or nothing is written.",
                                -1, NULL};
    char *pos[argc + 1];
    int npos, rc;
    if (!opts_start(&cmd, argc, argv, specs, pos, &npos, &rc))
        return rc;
    if (npos < 1) {
        cli_error("chartered apply: missing the game FILE (see 'chartered "
                  "apply --help')");
        return EXIT_USAGE;
    }
    if (npos < 2) {
        cli_error("chartered apply: no MOVE given (give moves as arguments, "
                  "or - to read them from standard input)");
        return EXIT_USAGE;
    }
    const char *file = pos[0];
    char **moves = NULL;
    int nmoves = 0, mcap = 0, from_stdin = 0;
    rc = 0;
    for (int i = 1; i < npos && rc == 0; i++) {
        if (strcmp(pos[i], "-") == 0) {
            if (from_stdin++) {
                cli_error("chartered apply: '-' (standard input) given twice");
                rc = EXIT_USAGE;
            } else if (read_stdin_moves(&moves, &nmoves, &mcap)) {
                rc = EXIT_FAIL;
            }
            continue;
        }
        if (nmoves >= mcap) {
            mcap = mcap * 2 + 16;
            moves = realloc(moves, (size_t)mcap * sizeof *moves);
            if (!moves) {
                cli_error("out of memory");
                        return EXIT_FAIL;
            }
        }
        moves[nmoves++] = strdup(pos[i]);
    }
    game_file g;
    if (rc == 0 && nmoves == 0) {
        cli_error("chartered apply: standard input held no moves");
        rc = EXIT_USAGE;
    }
    if (rc == 0 && gf_load(file, &g, 1))
        rc = EXIT_FAIL;
    if (rc) {
        for (int i = 0; i < nmoves; i++)
            free(moves[i]);
        free(moves);
        return rc;
    }
    ch_state *st = malloc(sizeof *st);
    if (!st) {
        cli_error("out of memory");
        gf_free(&g);
        return EXIT_FAIL;
    }
    *st = g.state;
    if (seen_player && (rc = check_player("apply", player, st, 0)))
        goto done;
    char (*done_text)[128] = calloc((size_t)nmoves, sizeof *done_text);
    int *done_player = calloc((size_t)nmoves, sizeof *done_player);
    if (!done_text || !done_player) {
        cli_error("out of memory");
        free(done_text);
        free(done_player);
        rc = EXIT_FAIL;
        goto done;
    }
    for (int k = 0; k < nmoves && rc == 0; k++) {
        const char *text = moves[k];
        unsigned mask = 0;
        ch_decider_kind kind = ch_decider(st, &mask);
        int p;
        if (kind == CH_DEC_TERMINAL) {
            cli_error("move %d '%s': the game is over", k + 1, text);
            rc = EXIT_FAIL;
            break;
        }
        if (seen_player) {
            p = player - 1;
        } else if ((p = cli_sole_decider(st)) < 0) {
            char who[160];
            cli_decider_text(st, who, sizeof who);
            cli_error("move %d '%s': %s; say whose move it is with --player",
                      k + 1, text, who);
            rc = EXIT_FAIL;
            break;
        }
        ch_move m;
        ch_msg why = {{0}};
        int r = cli_move_read(st, p, text, &m, &why);
        if (r == CH_OK) {
            ch_move_str(st, m, done_text[k], sizeof done_text[k]);
            r = ch_apply(st, p, m, &why);
        }
        if (r != CH_OK) {
            cli_error("move %d '%s': %s", k + 1, text,
                      why.text[0] ? why.text : ch_strerror(r));
            rc = EXIT_FAIL;
            break;
        }
        done_player[k] = p;
    }
    if (rc == 0) {
        ch_msg why = {{0}};
        int r = ch_validate(st, &why);
        if (r != CH_OK) {
            cli_error("internal error: after these moves the state fails the "
                      "consistency check (%s); the file is left unchanged",
                      why.text[0] ? why.text : ch_strerror(r));
            rc = EXIT_FAIL;
        }
    }
    if (rc == 0) {
        for (int k = 0; k < nmoves; k++)
            json_array_append_new(g.moves,
                                  json_pack("{s:i, s:s}", "player",
                                            done_player[k] + 1, "move",
                                            done_text[k]));
        rc = gf_save(file, &g, st);
    }
    if (rc == 0 && !quiet) {
        for (int k = 0; k < nmoves; k++)
            printf("player %d: %s\n", done_player[k] + 1, done_text[k]);
        char who[160];
        cli_decider_text(st, who, sizeof who);
        printf("now %s\n", who);
        unsigned m2 = 0;
        if (ch_decider(st, &m2) == CH_DEC_TERMINAL)
            print_scores(st);
    }
    free(done_text);
    free(done_player);
done:
    for (int i = 0; i < nmoves; i++)
        free(moves[i]);
    free(moves);
    free(st);
    gf_free(&g);
    return rc;
}

/* ---- show and view ---------------------------------------------------------- */

/* Print a position (ch_position_write); viewer -1 for the full state. */
static int print_position(const ch_state *st, int viewer)
{
    char *t = ch_position_write(st, viewer);
    if (!t) {
        cli_error("cannot write the position");
        return EXIT_FAIL;
    }
    fputs(t, stdout);
    ch_free(t);
    return 0;
}

int cmd_show(int argc, char **argv)
{
    int as_json = 0, as_position = 0;
    const opt_spec specs[] = {
        {"json", 0, OPT_FLAG, &as_json, NULL, 0, 0,
         "print the state as JSON (ch_state_to_json)", NULL},
        {"position", 0, OPT_FLAG, &as_position, NULL, 0, 0,
         "print the state as a position (docs/formats.md \"Positions\")", NULL},
        {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL}};
    const char *file = NULL;
    int rc = file_command("show", argc, argv, specs, &file,
                          "chartered show FILE [--json | --position]",
                  "Print the full state of a game: players, companies, the "
                  "board, cards,\nevents and whose decision it is.");
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    game_file g;
    if (gf_load(file, &g, 0))
        return EXIT_FAIL;
    if (as_position) {
        rc = print_position(&g.state, -1);
    } else if (as_json) {
        char *t = ch_state_to_json(&g.state);
        if (!t) {
            cli_error("cannot encode the state as JSON");
            gf_free(&g);
            return EXIT_FAIL;
        }
        printf("%s\n", t);
        ch_free(t);
    } else {
        render_state(stdout, &g.state, RENDER_ALL);
    }
    gf_free(&g);
    return rc;
}

int cmd_view(int argc, char **argv)
{
    int as_json = 0, as_position = 0, player = 0, seen_player = 0;
    const opt_spec specs[] = {
        {"player", 'p', OPT_INT, &player, "P", 0, CH_MAX_PLAYERS,
         "whose view (1..players; 0 = a spectator)", &seen_player},
        {"position", 0, OPT_FLAG, &as_position, NULL, 0, 0,
         "print the player's copy of the position (hidden cards as random)", NULL},
        {"json", 0, OPT_FLAG, &as_json, NULL, 0, 0,
         "print the view as JSON (ch_view_to_json)", NULL},
        {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL}};
    const char *file = NULL;
    int rc = file_command("view", argc, argv, specs, &file,
                          "chartered view FILE --player P [--json | --position]",
                  "Print what one player may see: their own hand, other "
                  "players' known cards\nand hand sizes, never the deck order.");
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    if (!seen_player) {
        cli_error("chartered view: --player P is required (1..players, or 0 "
                  "for a spectator)");
        return EXIT_USAGE;
    }
    game_file g;
    if (gf_load(file, &g, 0))
        return EXIT_FAIL;
    if ((rc = check_player("view", player, &g.state, 1))) {
        gf_free(&g);
        return rc;
    }
    if (as_position) {
        /* --player 0: a spectator's copy (every hand hidden) */
        rc = print_position(&g.state, player < 1 ? CH_POSITION_SPECTATOR : player - 1);
        gf_free(&g);
        return rc;
    }
    if (as_json) {
        char *t = ch_view_to_json(&g.state, player - 1);
        if (!t) {
            cli_error("cannot encode the view as JSON");
            gf_free(&g);
            return EXIT_FAIL;
        }
        printf("%s\n", t);
        ch_free(t);
    } else {
        render_state(stdout, &g.state, player - 1);
    }
    gf_free(&g);
    return 0;
}

/* ---- replay ----------------------------------------------------------------- */

/* Say where two state JSON texts first differ. */
static void report_json_diff(const char *a, const char *b)
{
    size_t i = 0;
    while (a[i] && a[i] == b[i])
        i++;
    size_t from = i > 40 ? i - 40 : 0;
    fprintf(stderr, "  first difference at character %zu:\n"
                    "    replayed: ...%.80s\n    stored:   ...%.80s\n",
            i, a + from, b + from);
}

int cmd_replay(int argc, char **argv)
{
    int verbose = 0;
    const opt_spec specs[] = {
        {"verbose", 'v', OPT_FLAG, &verbose, NULL, 0, 0,
         "print every move as it is replayed", NULL},
        {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL}};
    const char *file = NULL;
    int rc = file_command("replay", argc, argv, specs, &file,
                          "chartered replay FILE [--verbose]",
                  "Replay a game from its setup and moves, checking the state "
                  "after every move,\nand compare the result with the stored "
                  "state.");
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    game_file g;
    if (gf_load(file, &g, 0))
        return EXIT_FAIL;
    ch_board *board = calloc(1, sizeof *board);
    ch_state *st = calloc(1, sizeof *st);
    char *a = NULL, *b = NULL;
    if (!board || !st) {
        cli_error("out of memory");
        rc = EXIT_FAIL;
        goto done;
    }
    ch_msg why = {{0}};
    int r;
    json_t *start = json_object_get(g.setup, "position");
    if (json_is_string(start)) {
        /* a game started from a position (chartered new --position) */
        r = ch_position_read(st, json_string_value(start),
                             strlen(json_string_value(start)), "setup.position", &why);
    } else {
        if (gf_board_from_setup(file, g.setup, g.set.edition, board)) {
            rc = EXIT_FAIL;
            goto done;
        }
        r = ch_new(st, &g.set, board, &why);
    }
    if (r != CH_OK) {
        cli_error("%s: the setup does not start a game: %s", file,
                  why.text[0] ? why.text : ch_strerror(r));
        rc = EXIT_FAIL;
        goto done;
    }
    if ((r = ch_validate(st, &why)) != CH_OK) {
        cli_error("%s: the starting state fails the consistency check: %s",
                  file, why.text[0] ? why.text : ch_strerror(r));
        rc = EXIT_FAIL;
        goto done;
    }
    if (verbose) {
        char opts[80] = "";
        if (g.set.edition == CH_ED_GOLDEN_AGE)
            snprintf(opts, sizeof opts, ", preset %s, events %s",
                     cli_preset_name(g.set.preset),
                     g.set.events ? "on" : "off");
        printf("start: %s, %d players%s, board %s, seed %" PRIu64 "\n",
               cli_edition_name(g.set.edition), g.set.nplayers, opts,
               ch_state_board(st)->name, g.set.seed);
    }
    size_t i;
    json_t *mv;
    json_array_foreach(g.moves, i, mv) {
        int p = (int)json_integer_value(json_object_get(mv, "player")) - 1;
        const char *text = json_string_value(json_object_get(mv, "move"));
        ch_move m;
        char canon[128] = "";
        const char *ph = ch_phase_name(st->phase);
        char phase[32];
        snprintf(phase, sizeof phase, "%s", ph ? ph : "?");
        r = ch_move_parse(st, p, text, &m, &why);
        if (r == CH_OK) {
            ch_move_str(st, m, canon, sizeof canon);
            r = ch_apply(st, p, m, &why);
        }
        if (r != CH_OK) {
            cli_error("%s: move %zu '%s' (player %d): %s", file, i + 1, text,
                      p + 1, why.text[0] ? why.text : ch_strerror(r));
            rc = EXIT_FAIL;
            goto done;
        }
        if (verbose)
            printf("%5zu. player %d, %s: %s\n", i + 1, p + 1, phase, canon);
        if ((r = ch_validate(st, &why)) != CH_OK) {
            cli_error("%s: after move %zu '%s' (player %d) the state fails "
                      "the consistency check: %s", file, i + 1, text, p + 1,
                      why.text[0] ? why.text : ch_strerror(r));
            rc = EXIT_FAIL;
            goto done;
        }
    }
    if (memcmp(st, &g.state, sizeof *st) != 0) {
        a = ch_state_to_json(st);
        b = ch_state_to_json(&g.state);
        cli_error("%s: the stored state differs from the replayed one (after "
                  "%zu moves)", file, json_array_size(g.moves));
        if (a && b && strcmp(a, b) != 0) {
            report_json_diff(a, b);
        } else {
            char where[96];
            cli_state_where(cli_state_diff(st, &g.state), where, sizeof where);
            fprintf(stderr, "  the JSON texts agree; the structs differ first "
                            "at %s, in bytes the JSON does not carry (such "
                            "as bytes after a name's end)\n", where);
        }
        rc = EXIT_FAIL;
        goto done;
    }
    char who[160];
    cli_decider_text(st, who, sizeof who);
    printf("%s: replayed %zu moves; the stored state matches; %s\n", file,
           json_array_size(g.moves), who);
done:
    if (a)
        ch_free(a);
    if (b)
        ch_free(b);
    free(board);
    free(st);
    gf_free(&g);
    return rc;
}

/* mix.c: which games `chartered selfplay` and `chartered bench` play: the
 * editions, player counts, Golden Age presets and event settings, and the
 * boards, decoded from the command line once and cycled game by game, so
 * that game i of a run is always the same game whatever the number of
 * threads, and a failing game can be rerun alone with the flags that select
 * exactly its configuration (cli_mix_flags).
 *
 * Game i: the edition is eds[i % neds]; with j = i / neds, the player count
 * cycles fastest (j % counts), then, for Building Amsterdam, the arrangement
 * (with --arrangement all), and for The Golden Age the preset, then the event
 * setting. A Golden Age game plays on the side ch_ga_side names for its
 * preset and player count unless an arrangement is named.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const int am_counts[] = {2, 3, 4, 5};
static const int ga_counts[] = {2, 3, 4, 5, 6};

static int has_edition(const cli_mix *mx, int ed)
{
    for (int i = 0; i < mx->neds; i++)
        if (mx->eds[i] == ed)
            return 1;
    return 0;
}

static int max_players(int ed)
{
    return ed == CH_ED_GOLDEN_AGE ? 6 : 5;
}

/* Index of the loaded board (ed, name), or -1. */
static int board_index(const cli_mix *mx, int ed, const char *name)
{
    for (int i = 0; i < mx->nboards; i++)
        if (mx->bedition[i] == ed && strcmp(mx->bname[i], name) == 0)
            return i;
    return -1;
}

int cli_arr_is_file(const char *a)
{
    size_t n = a ? strlen(a) : 0;
    return n && (strchr(a, '/') || (n > 4 && strcmp(a + n - 4, ".arr") == 0));
}

static int load_board(cli_mix *mx, const char *cmd, int ed, const char *name)
{
    if (board_index(mx, ed, name) >= 0)
        return 0;
    if (mx->nboards >= MIX_MAX_BOARDS) {
        cli_error("chartered %s: too many arrangements", cmd);
        return EXIT_FAIL;
    }
    ch_msg err = {{0}};
    int k = mx->nboards;
    if (cli_arr_is_file(name)) {
        /* a designer's arrangement (issue 36): read as `new
         * --arrangement-file` reads it, its boards looked up beside it,
         * then among the built-in ones */
        if (strlen(name) >= sizeof mx->bname[k]) {
            cli_error("chartered %s: --arrangement '%.60s...': the path is too long", cmd, name);
            return EXIT_USAGE;
        }
        char dir[256];
        snprintf(dir, sizeof dir, "%s", name);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
        else
            snprintf(dir, sizeof dir, ".");
        json_t *part = json_object();
        int rc = part ? gf_board_for_new(ed, NULL, name, dir, &mx->boards[k], part) : EXIT_FAIL;
        json_decref(part);
        if (rc)
            return rc;
        snprintf(mx->bname[k], sizeof mx->bname[k], "%s", name);
        mx->bedition[k] = ed;
        mx->nboards++;
        return 0;
    }
    int r = ch_board_builtin(&mx->boards[k], ed, name, &err);
    if (r != CH_OK) {
        cli_error("chartered %s: --arrangement '%s': %s", cmd, name,
                  err.text[0] ? err.text : ch_strerror(r));
        return EXIT_USAGE;
    }
    snprintf(mx->bname[k], sizeof mx->bname[k], "%s", name);
    mx->bedition[k] = ed;
    mx->nboards++;
    return 0;
}

/* "on"/"off"/"both" into the list; -1 when none of them. */
static int events_list(const char *s, cli_mix *mx)
{
    if (strcmp(s, "both") == 0) {
        mx->nevents = 2;
        mx->events[0] = 0;
        mx->events[1] = 1;
        return 0;
    }
    int v = cli_onoff_find(s);
    if (v < 0)
        return -1;
    mx->nevents = 1;
    mx->events[0] = v;
    return 0;
}

static int presets_list(const char *s, cli_mix *mx)
{
    if (strcmp(s, "both") == 0) {
        mx->npresets = 2;
        mx->presets[0] = CH_GA_PRINTED;
        mx->presets[1] = CH_GA_FIRST;
        return 0;
    }
    int v = cli_preset_find(s);
    if (v < 0)
        return -1;
    mx->npresets = 1;
    mx->presets[0] = v;
    return 0;
}

int cli_mix_init(cli_mix *mx, const char *cmd, const char *edition,
                 int players, const char *preset, const char *events,
                 const char *arrangement, const char *def_preset,
                 const char *def_events)
{
    memset(mx, 0, sizeof *mx);
    if (!edition || strcmp(edition, "amsterdam") == 0) {
        mx->neds = 1;
        mx->eds[0] = CH_ED_AMSTERDAM;
    } else if (strcmp(edition, "golden-age") == 0) {
        mx->neds = 1;
        mx->eds[0] = CH_ED_GOLDEN_AGE;
    } else if (strcmp(edition, "all") == 0) {
        mx->neds = 2;
        mx->eds[0] = CH_ED_AMSTERDAM;
        mx->eds[1] = CH_ED_GOLDEN_AGE;
    } else {
        cli_error("chartered %s: --edition expects amsterdam, golden-age or "
                  "all, got '%s'", cmd, edition);
        return EXIT_USAGE;
    }
    int ga = has_edition(mx, CH_ED_GOLDEN_AGE);
    if (!ga && (preset || events)) {
        cli_error("chartered %s: --%s only applies to The Golden Age (add "
                  "--edition golden-age or --edition all)", cmd,
                  preset ? "preset" : "events");
        return EXIT_USAGE;
    }
    if (presets_list(preset ? preset : def_preset, mx)) {
        cli_error("chartered %s: --preset expects golden-age, "
                  "golden-age-first or both, got '%s'", cmd, preset);
        return EXIT_USAGE;
    }
    if (events_list(events ? events : def_events, mx)) {
        cli_error("chartered %s: --events expects on, off or both, got '%s'",
                  cmd, events);
        return EXIT_USAGE;
    }
    for (int i = 0; i < mx->neds; i++) {
        int ed = mx->eds[i];
        if (players != 0 && (players < 2 || players > max_players(ed))) {
            cli_error("chartered %s: --players %d: %s is for 2 to %d players%s",
                      cmd, players,
                      ed == CH_ED_GOLDEN_AGE ? "The Golden Age"
                                             : "Building Amsterdam",
                      max_players(ed),
                      mx->neds > 1 ? " (or give 0 to cycle each edition's "
                                     "counts)" : "");
            return EXIT_USAGE;
        }
    }
    mx->players = players;
    mx->boards = calloc(MIX_MAX_BOARDS, sizeof *mx->boards);
    if (!mx->boards) {
        cli_error("out of memory");
        return EXIT_FAIL;
    }
    if (arrangement && strcmp(arrangement, "all") == 0) {
        mx->arr_all = 1;
    } else if (arrangement) {
        if (mx->neds > 1) {
            cli_error("chartered %s: --arrangement '%s' names the board of one "
                      "edition; with --edition all give all or leave it out",
                      cmd, arrangement);
            cli_mix_free(mx);
            return EXIT_USAGE;
        }
        mx->arr_name = arrangement;
    }
    for (int i = 0; i < mx->neds; i++) {
        int ed = mx->eds[i];
        const char *const *names = ch_board_builtin_names(ed);
        if (!names || !names[0]) {
            cli_error("chartered %s: the library has no built-in arrangement "
                      "of %s", cmd, cli_edition_name(ed));
            cli_mix_free(mx);
            return EXIT_FAIL;
        }
        int rc = 0;
        if (mx->arr_name) {
            rc = load_board(mx, cmd, ed, mx->arr_name);
        } else if (ed == CH_ED_AMSTERDAM && !mx->arr_all) {
            rc = load_board(mx, cmd, ed, names[0]);
        } else {
            for (int k = 0; names[k] && rc == 0; k++)
                rc = load_board(mx, cmd, ed, names[k]);
        }
        if (rc) {
            cli_mix_free(mx);
            return rc;
        }
    }
    return 0;
}

int cli_mix_set_variant(cli_mix *mx, const char *cmd, const cli_variant *cv)
{
    for (int i = 0; i < mx->neds; i++) {
        int ed = mx->eds[i];
        const int *counts = ed == CH_ED_GOLDEN_AGE ? ga_counts : am_counts;
        int ncounts = mx->players ? 1 : ed == CH_ED_GOLDEN_AGE ? 5 : 4;
        for (int k = 0; k < ncounts; k++)
            for (int p = 0; p < (ed == CH_ED_GOLDEN_AGE ? mx->npresets : 1); p++) {
                ch_setup set;
                ch_setup_default(&set, ed);
                set.nplayers = mx->players ? mx->players : counts[k];
                if (ed == CH_ED_GOLDEN_AGE)
                    set.preset = mx->presets[p];
                if (cli_variant_apply(cv, cmd, &set))
                    return EXIT_USAGE;
                if (set.edition != ed) {
                    cli_error("chartered %s: variant '%s' (%s) is for %s, and the run plays %s", cmd,
                              cv->v.name, cv->path, cli_edition_name(set.edition), cli_edition_name(ed));
                    return EXIT_USAGE;
                }
            }
    }
    mx->has_variant = 1;
    mx->variant = cv->v;
    snprintf(mx->variant_path, sizeof mx->variant_path, "%s", cv->path);
    return 0;
}

void cli_mix_game(const cli_mix *mx, uint64_t gi, uint64_t seed, cli_game *g)
{
    int ed = mx->eds[gi % (uint64_t)mx->neds];
    uint64_t j = gi / (uint64_t)mx->neds;
    const int *counts = ed == CH_ED_GOLDEN_AGE ? ga_counts : am_counts;
    int ncounts = ed == CH_ED_GOLDEN_AGE ? 5 : 4;
    int np;
    if (mx->players) {
        np = mx->players;
    } else {
        np = counts[j % (uint64_t)ncounts];
        j /= (uint64_t)ncounts;
    }
    ch_setup_default(&g->set, ed);
    g->set.edition = ed;
    g->set.nplayers = np;
    g->set.seed = seed;
    const char *arr;
    if (ed == CH_ED_GOLDEN_AGE) {
        g->set.preset = mx->presets[j % (uint64_t)mx->npresets];
        j /= (uint64_t)mx->npresets;
        g->set.events = mx->events[j % (uint64_t)mx->nevents];
        arr = mx->arr_name ? mx->arr_name : ch_ga_side(g->set.preset, np);
    } else {
        const char *const *names = ch_board_builtin_names(ed);
        int nn = 0;
        while (names[nn])
            nn++;
        arr = mx->arr_name ? mx->arr_name
              : mx->arr_all ? names[j % (uint64_t)nn]
                            : names[0];
    }
    if (mx->has_variant) {
        /* checked for this edition, count and preset by cli_mix_set_variant */
        ch_msg err;
        int rc = ch_variant_apply(&mx->variant, &g->set, &err);
        assert(rc == CH_OK);
        (void)rc;
    }
    int k = arr ? board_index(mx, ed, arr) : -1;
    g->board = k >= 0 ? &mx->boards[k] : &mx->boards[0];
    g->arr = k >= 0 ? mx->bname[k] : "?";
}

void cli_mix_flags(const cli_mix *mx, const cli_game *g, char *buf, size_t n)
{
    if (mx->has_variant) {
        char rest[600];
        cli_mix_flags(&(cli_mix){0}, g, rest, sizeof rest);
        snprintf(buf, n, "%s --variant %s", rest, mx->variant_path);
        return;
    }
    if (g->set.edition == CH_ED_GOLDEN_AGE)
        snprintf(buf, n, "--edition golden-age --players %d --preset %s "
                         "--events %s --arrangement %s",
                 g->set.nplayers, cli_preset_name(g->set.preset),
                 g->set.events ? "on" : "off", g->arr);
    else
        snprintf(buf, n, "--edition amsterdam --players %d --arrangement %s",
                 g->set.nplayers, g->arr);
}

const char *cli_mix_edition_text(const cli_mix *mx)
{
    if (mx->neds > 1)
        return "all";
    return cli_edition_name(mx->eds[0]);
}

void cli_mix_free(cli_mix *mx)
{
    free(mx->boards);
    mx->boards = NULL;
    mx->nboards = 0;
}

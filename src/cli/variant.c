/* variant.c: `--variant FILE` for every command that sets up games (new,
 * play, selfplay, bench, arena, analyze): the file read and parsed by the
 * library (ch_variant_parse, docs/variants.md), its edition, player count,
 * preset, events and arrangement merged with the command's own flags (a
 * flag the user gave that says otherwise is refused), and its arrangement
 * file found relative to the variant's folder. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_variant_load(cli_variant *cv, const char *cmd, const char *path)
{
    memset(cv, 0, sizeof *cv);
    if (strlen(path) >= sizeof cv->path) {
        cli_error("chartered %s: --variant: the path is too long", cmd);
        return EXIT_USAGE;
    }
    char *text = cli_read_file(path);
    if (!text)
        return EXIT_FAIL;
    ch_msg err = {{0}};
    int rc = ch_variant_parse(&cv->v, text, strlen(text), path, &err);
    if (rc != CH_OK) {
        cli_error("%s", err.text[0] ? err.text : ch_strerror(rc));
        free(text);
        return EXIT_FAIL;
    }
    cv->text = text;
    snprintf(cv->path, sizeof cv->path, "%s", path);
    const char *a = cv->v.arrangement;
    size_t n = strlen(a);
    int file = strchr(a, '/') || (n > 4 && strcmp(a + n - 4, ".arr") == 0) ||
               (n > 6 && strcmp(a + n - 6, ".board") == 0);
    if (file && a[0] != '/') {
        /* relative to the variant's folder, as the boards of an
           arrangement file are found beside it */
        const char *slash = strrchr(path, '/');
        int dn = slash ? (int)(slash - path) : 1;
        int w = snprintf(cv->arr, sizeof cv->arr, "%.*s/%s", dn, slash ? path : ".", a);
        if (w < 0 || (size_t)w >= sizeof cv->arr) {
            cli_error("%s:%d: the arrangement's path is too long", path, cv->v.arrangement_line);
            cli_variant_free(cv);
            return EXIT_FAIL;
        }
    } else {
        snprintf(cv->arr, sizeof cv->arr, "%s", a);
    }
    return 0;
}

void cli_variant_free(cli_variant *cv)
{
    free(cv->text);
    cv->text = NULL;
}

int cli_variant_merge(const cli_variant *cv, const char *cmd, const char **edition,
                      int edition_seen, int *players, int players_seen,
                      const char **preset, const char **events, const char **arrangement)
{
    const ch_variant *v = &cv->v;
    if (v->edition >= 0) {
        const char *name = cli_edition_name(v->edition);
        if (edition_seen && *edition && strcmp(*edition, name) != 0) {
            cli_error("chartered %s: --edition %s, but variant '%s' (%s) is for %s", cmd, *edition,
                      v->name, cv->path, name);
            return EXIT_USAGE;
        }
        *edition = name;
    }
    if (v->nplayers) {
        if (players_seen && *players != v->nplayers) {
            cli_error("chartered %s: %d players, but variant '%s' (%s) is for %d", cmd, *players,
                      v->name, cv->path, v->nplayers);
            return EXIT_USAGE;
        }
        *players = v->nplayers;
    }
    if (v->preset >= 0) {
        const char *name = cli_preset_name(v->preset);
        if (*preset && strcmp(*preset, name) != 0) {
            cli_error("chartered %s: --preset %s, but variant '%s' (%s) sets %s", cmd, *preset,
                      v->name, cv->path, name);
            return EXIT_USAGE;
        }
        *preset = name;
    }
    /* The Golden Age's events through the command's --events; Building
       Amsterdam's "events off" is a setup setting (ch_variant_apply) */
    if (v->events >= 0 && *edition && strcmp(*edition, "golden-age") == 0) {
        const char *name = v->events ? "on" : "off";
        if (*events && strcmp(*events, name) != 0) {
            cli_error("chartered %s: --events %s, but variant '%s' (%s) sets events %s", cmd,
                      *events, v->name, cv->path, name);
            return EXIT_USAGE;
        }
        *events = name;
    }
    if (cv->arr[0]) {
        if (*arrangement && strcmp(*arrangement, cv->arr) != 0 &&
            strcmp(*arrangement, v->arrangement) != 0) {
            cli_error("chartered %s: --arrangement %s, but variant '%s' (%s) plays on %s", cmd,
                      *arrangement, v->name, cv->path, v->arrangement);
            return EXIT_USAGE;
        }
        *arrangement = cv->arr;
    }
    return 0;
}

int cli_variant_apply(const cli_variant *cv, const char *cmd, ch_setup *set)
{
    ch_msg err = {{0}};
    int rc = ch_variant_apply(&cv->v, set, &err);
    if (rc != CH_OK) {
        cli_error("chartered %s: %s: %s", cmd, cv->path, err.text[0] ? err.text : ch_strerror(rc));
        return EXIT_USAGE;
    }
    return 0;
}

json_t *cli_variant_json(const cli_variant *cv)
{
    return json_pack("{s:s, s:s}", "file", cv->path, "text", cv->text);
}

int cli_mix_init_variant(cli_mix *mx, const char *cmd, const char *variant, const char *edition,
                         int edition_seen, int players, int players_seen, const char *preset,
                         const char *events, const char *arrangement, const char *def_preset,
                         const char *def_events)
{
    if (!variant)
        return cli_mix_init(mx, cmd, edition, players, preset, events, arrangement, def_preset,
                            def_events);
    cli_variant cv;
    int rc = cli_variant_load(&cv, cmd, variant);
    if (rc)
        return rc;
    rc = cli_variant_merge(&cv, cmd, &edition, edition_seen, &players, players_seen, &preset,
                           &events, &arrangement);
    if (!rc)
        rc = cli_mix_init(mx, cmd, edition, players, preset, events, arrangement, def_preset,
                          def_events);
    if (!rc) {
        snprintf(mx->variant_arr, sizeof mx->variant_arr, "%s", cv.arr);
        if (mx->arr_name == cv.arr)
            mx->arr_name = mx->variant_arr;
        rc = cli_mix_set_variant(mx, cmd, &cv);
        if (rc)
            cli_mix_free(mx);
    }
    cli_variant_free(&cv);
    return rc;
}

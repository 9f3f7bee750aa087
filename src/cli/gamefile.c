/* gamefile.c: reading and writing chartered game files, the JSON documents
 *   {"format":"chartered-game","setup":{...},"moves":[{"player":1,"move":"..."}],
 *    "state":<ch_state_to_json>}
 * and building the board a setup names (a built-in arrangement, or an
 * arrangement file stored in the setup together with the boards it uses).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"

#define FORMAT_NAME "chartered-game"

json_t *gf_seed_json(uint64_t seed)
{
    if (seed <= (uint64_t)INT64_MAX)
        return json_integer((json_int_t)seed);
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIu64, seed);
    return json_string(buf);
}

static int seed_decode(const char *path, json_t *v, uint64_t *out)
{
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        *out = (uint64_t)json_integer_value(v);
        return 0;
    }
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        char *end;
        errno = 0;
        unsigned long long x = strtoull(s, &end, 10);
        if (*s >= '0' && *s <= '9' && *end == '\0' && errno == 0) {
            *out = (uint64_t)x;
            return 0;
        }
    }
    cli_error("%s: setup.seed must be a whole number from 0 to %" PRIu64,
              path, UINT64_MAX);
    return EXIT_FAIL;
}

int gf_setup_decode(const char *path, json_t *setup, ch_setup *set)
{
    if (!json_is_object(setup)) {
        cli_error("%s: \"setup\" is missing or not an object", path);
        return EXIT_FAIL;
    }
    json_t *ed = json_object_get(setup, "edition");
    int edition = CH_ED_AMSTERDAM;
    if (ed) {
        if (!json_is_string(ed) ||
            (edition = cli_edition_find(json_string_value(ed))) < 0) {
            cli_error("%s: setup.edition must be \"amsterdam\" or "
                      "\"golden-age\"", path);
            return EXIT_FAIL;
        }
    }
    ch_setup_default(set, edition);
    set->edition = edition;
    json_t *pl = json_object_get(setup, "players");
    if (!json_is_integer(pl) || json_integer_value(pl) < 1 ||
        json_integer_value(pl) > CH_MAX_PLAYERS) {
        cli_error("%s: setup.players must be a whole number from 1 to %d",
                  path, CH_MAX_PLAYERS);
        return EXIT_FAIL;
    }
    set->nplayers = (int)json_integer_value(pl);
    json_t *seed = json_object_get(setup, "seed");
    if (!seed) {
        cli_error("%s: setup.seed is missing", path);
        return EXIT_FAIL;
    }
    if (seed_decode(path, seed, &set->seed))
        return EXIT_FAIL;
    /* preset: a name ("golden-age", "golden-age-first") or its number */
    json_t *v = json_object_get(setup, "preset");
    if (v) {
        int p = -1;
        if (json_is_string(v))
            p = cli_preset_find(json_string_value(v));
        else if (json_is_integer(v) && (json_integer_value(v) == CH_GA_PRINTED ||
                                        json_integer_value(v) == CH_GA_FIRST))
            p = (int)json_integer_value(v);
        if (p < 0) {
            cli_error("%s: setup.preset must be \"golden-age\" or "
                      "\"golden-age-first\"", path);
            return EXIT_FAIL;
        }
        set->preset = p;
    }
    /* events: 0 or 1 (true or false also read) */
    v = json_object_get(setup, "events");
    if (v) {
        if (json_is_boolean(v))
            set->events = json_is_true(v);
        else if (json_is_integer(v) && (json_integer_value(v) == 0 ||
                                        json_integer_value(v) == 1))
            set->events = (int)json_integer_value(v);
        else {
            cli_error("%s: setup.events must be 0 or 1", path);
            return EXIT_FAIL;
        }
    }
    /* a variant's game (chartered new --variant): its text, applied again */
    v = json_object_get(setup, "variant");
    if (v) {
        json_t *text = json_object_get(v, "text"), *file = json_object_get(v, "file");
        if (!json_is_object(v) || !json_is_string(text)) {
            cli_error("%s: setup.variant needs \"text\" (the variant file's text)", path);
            return EXIT_FAIL;
        }
        ch_variant var;
        ch_msg err = {{0}};
        const char *name = json_is_string(file) ? json_string_value(file) : "variant";
        int rc = ch_variant_parse(&var, json_string_value(text), json_string_length(text), name, &err);
        if (rc == CH_OK)
            rc = ch_variant_apply(&var, set, &err);
        if (rc != CH_OK) {
            cli_error("%s: stored variant: %s", path, err.text[0] ? err.text : ch_strerror(rc));
            return EXIT_FAIL;
        }
    }
    return 0;
}

void gf_setup_options(json_t *setup, const ch_setup *set)
{
    if (set->edition == CH_ED_GOLDEN_AGE) {
        json_object_set_new(setup, "preset",
                            json_string(cli_preset_name(set->preset)));
        json_object_set_new(setup, "events", json_integer(set->events ? 1 : 0));
        return;
    }
    if (set->events)
        json_object_set_new(setup, "events", json_integer(set->events));
}

/* ---- boards --------------------------------------------------------------- */

/* Resolver context: boards found so far (name -> {"file","text"}), and where
 * to look for more (directory, then the built-in texts). */
typedef struct resolve_ctx {
    json_t *boards;        /* owned by the caller                          */
    const char *board_dir; /* NULL: stored boards and built-in texts only   */
    int stored_only;       /* replaying: only the stored boards            */
    int edition;           /* whose built-in boards complete the search    */
} resolve_ctx;

static char *try_read(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return NULL;
    return cli_read_file(path);
}

/* The name a board text declares on its first directive ("board Canal
 * Ring"), quotes dropped and spaces collapsed; "" when none. */
static void declared_name(const char *text, char *out, size_t n)
{
    out[0] = '\0';
    const char *s = text;
    while (*s) {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        const char *p = s;
        while (p < s + len && (*p == ' ' || *p == '\t' || *p == '\r'))
            p++;
        if (p < s + len && *p != '#') {
            if (len - (size_t)(p - s) < 6 || strncasecmp(p, "board", 5) != 0 ||
                (p[5] != ' ' && p[5] != '\t'))
                return;
            p += 5;
            size_t k = 0;
            int space = 0;
            for (; p < s + len && *p != '#'; p++) {
                if (*p == '"' || *p == '\r')
                    continue;
                if (*p == ' ' || *p == '\t') {
                    space = k > 0;
                    continue;
                }
                if (space && k + 1 < n)
                    out[k++] = ' ';
                space = 0;
                if (k + 1 < n)
                    out[k++] = *p;
            }
            out[k] = '\0';
            return;
        }
        s = e ? e + 1 : s + len;
    }
}

/* "Canal Ring" -> "canal-ring" */
static void slug(const char *name, char *out, size_t n)
{
    size_t k = 0;
    for (; *name && k + 1 < n; name++)
        out[k++] = *name == ' ' ? '-' : (char)tolower((unsigned char)*name);
    out[k] = '\0';
}

/* Read the board called name from dir: DIR/NAME, DIR/slug.board, or any
 * DIR/ *.board file that declares that name. */
static char *find_in_dir(const char *dir, const char *name, char *path,
                         size_t pn)
{
    char sl[64];
    slug(name, sl, sizeof sl);
    const char *tries[][2] = {{"%s/%s", name}, {"%s/%s.board", name},
                              {"%s/%s.board", sl}};
    for (int i = 0; i < 3; i++) {
        snprintf(path, pn, tries[i][0], dir, tries[i][1]);
        char *text = try_read(path);
        if (text) {
            char decl[64];
            declared_name(text, decl, sizeof decl);
            if (strcasecmp(decl, name) == 0)
                return text;
            free(text);
        }
    }
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    struct dirent *de;
    char *found = NULL;
    while (!found && (de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);
        if (l < 7 || strcmp(de->d_name + l - 6, ".board") != 0)
            continue;
        snprintf(path, pn, "%s/%s", dir, de->d_name);
        char *text = try_read(path);
        if (!text)
            continue;
        char decl[64];
        declared_name(text, decl, sizeof decl);
        if (strcasecmp(decl, name) == 0)
            found = text;
        else
            free(text);
    }
    closedir(d);
    return found;
}

static const char *resolve(void *vctx, const char *name, const char **file)
{
    resolve_ctx *ctx = vctx;
    json_t *have = json_object_get(ctx->boards, name);
    if (json_is_object(have)) {
        json_t *t = json_object_get(have, "text");
        json_t *f = json_object_get(have, "file");
        if (json_is_string(t)) {
            *file = json_is_string(f) ? json_string_value(f) : name;
            return json_string_value(t);
        }
    }
    if (ctx->stored_only)
        return NULL;
    char *text = NULL;
    char path[4096];
    int builtin = 0;
    if (ctx->board_dir)
        text = find_in_dir(ctx->board_dir, name, path, sizeof path);
    if (!text && ctx->edition == CH_ED_GOLDEN_AGE) {
        /* The Golden Age's boards are the sides of its built-in
         * arrangements, boards/ga-SIDE.board ("Harbour", "City Centre"),
         * not Building Amsterdam's districts of the same names. */
        const char *const *sides = ch_board_builtin_names(CH_ED_GOLDEN_AGE);
        for (int i = 0; !text && sides && sides[i]; i++) {
            snprintf(path, sizeof path, "boards/ga-%s.board", sides[i]);
            const char *b = ch_builtin_text(path);
            char decl[64] = "";
            if (b)
                declared_name(b, decl, sizeof decl);
            if (b && strcasecmp(decl, name) == 0) {
                text = strdup(b);
                builtin = 1;
            }
        }
    } else if (!text) {
        char sl[64];
        slug(name, sl, sizeof sl);
        snprintf(path, sizeof path, "boards/%s.board", sl);
        const char *b = ch_builtin_text(path);
        char decl[64] = "";
        if (b)
            declared_name(b, decl, sizeof decl);
        if (b && strcasecmp(decl, name) == 0) {
            text = strdup(b);
            builtin = 1;
        }
    }
    if (!text)
        return NULL;
    char label[4200];
    snprintf(label, sizeof label, "%s%s", builtin ? "(built-in) " : "", path);
    json_t *entry = json_pack("{s:s, s:s}", "file", label, "text", text);
    free(text);
    if (!entry)
        return NULL; /* not UTF-8: reported as an unknown board */
    json_object_set_new(ctx->boards, name, entry);
    *file = json_string_value(json_object_get(entry, "file"));
    return json_string_value(json_object_get(entry, "text"));
}

int gf_board_for_new(int edition, const char *arrangement,
                     const char *arr_file, const char *board_dir,
                     ch_board *board, json_t *setup_part)
{
    ch_msg err = {{0}};
    if (!arr_file) {
        const char *const *names = ch_board_builtin_names(edition);
        if (!arrangement)
            arrangement = names && names[0] ? names[0] : "standard";
        int rc = ch_board_builtin(board, edition, arrangement, &err);
        if (rc != CH_OK) {
            cli_error("chartered new: --arrangement '%s': %s", arrangement,
                      err.text[0] ? err.text : ch_strerror(rc));
            return EXIT_USAGE;
        }
        json_object_set_new(setup_part, "arrangement", json_string(arrangement));
        return 0;
    }
    char *text = cli_read_file(arr_file);
    if (!text)
        return EXIT_FAIL;
    resolve_ctx ctx = {json_object(), board_dir, 0, edition};
    int rc = ch_board_parse(board, text, arr_file, resolve, &ctx, &err);
    if (rc != CH_OK) {
        cli_error("%s", err.text[0] ? err.text : ch_strerror(rc));
        free(text);
        json_decref(ctx.boards);
        return EXIT_FAIL;
    }
    json_t *af = json_pack("{s:s, s:s, s:o}", "file", arr_file, "text", text,
                           "boards", ctx.boards);
    free(text);
    if (!af) {
        cli_error("%s: the arrangement or one of its boards is not UTF-8 text",
                  arr_file);
        return EXIT_FAIL;
    }
    json_object_set_new(setup_part, "arrangement_file", af);
    return 0;
}

int gf_board_from_setup(const char *path, json_t *setup, int edition,
                        ch_board *board)
{
    ch_msg err = {{0}};
    json_t *arr = json_object_get(setup, "arrangement");
    json_t *af = json_object_get(setup, "arrangement_file");
    if (json_is_string(arr)) {
        int rc = ch_board_builtin(board, edition, json_string_value(arr), &err);
        if (rc != CH_OK) {
            cli_error("%s: setup.arrangement '%s': %s", path,
                      json_string_value(arr),
                      err.text[0] ? err.text : ch_strerror(rc));
            return EXIT_FAIL;
        }
        return 0;
    }
    if (json_is_object(af)) {
        json_t *text = json_object_get(af, "text");
        json_t *file = json_object_get(af, "file");
        json_t *boards = json_object_get(af, "boards");
        if (!json_is_string(text) || !json_is_object(boards)) {
            cli_error("%s: setup.arrangement_file needs \"text\" (string) and "
                      "\"boards\" (object)", path);
            return EXIT_FAIL;
        }
        resolve_ctx ctx = {boards, NULL, 1, edition};
        int rc = ch_board_parse(board, json_string_value(text),
                                json_is_string(file) ? json_string_value(file)
                                                     : "arrangement",
                                resolve, &ctx, &err);
        if (rc != CH_OK) {
            cli_error("%s: stored arrangement: %s", path,
                      err.text[0] ? err.text : ch_strerror(rc));
            return EXIT_FAIL;
        }
        return 0;
    }
    cli_error("%s: the setup names no board (\"arrangement\" or "
              "\"arrangement_file\")", path);
    return EXIT_FAIL;
}

/* The setup of a game started from a position: edition, players, seed and
 * options as in any game file, the arrangement by name, and "position", the
 * starting position as ch_position_write spells it (exact, so replay starts
 * from it). NULL when out of memory. */
json_t *gf_setup_for_position(const ch_state *st)
{
    char *text = ch_position_write(st, -1);
    if (!text)
        return NULL;
    ch_setup set;
    ch_setup_default(&set, st->edition);
    set.edition = st->edition;
    set.nplayers = st->nplayers;
    set.seed = st->seed;
    set.preset = st->preset;
    set.events = st->events_on;
    json_t *setup = json_object();
    json_object_set_new(setup, "edition", json_string(cli_edition_name(st->edition)));
    json_object_set_new(setup, "players", json_integer(st->nplayers));
    json_object_set_new(setup, "seed", gf_seed_json(st->seed));
    gf_setup_options(setup, &set);
    json_object_set_new(setup, "arrangement", json_string(ch_state_board(st)->name));
    json_object_set_new(setup, "position", json_string(text));
    ch_free(text);
    return setup;
}

/* ---- files ---------------------------------------------------------------- */

int gf_load(const char *path, game_file *g, int check_state)
{
    memset(g, 0, sizeof *g);
    char *text = cli_read_file(path);
    if (!text)
        return EXIT_FAIL;
    json_error_t jerr;
    g->root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    free(text);
    if (!g->root) {
        cli_error("%s: malformed JSON at line %d, column %d: %s", path,
                  jerr.line, jerr.column, jerr.text);
        return EXIT_FAIL;
    }
    json_t *fmt = json_object_get(g->root, "format");
    if (!json_is_object(g->root) || !json_is_string(fmt) ||
        strcmp(json_string_value(fmt), FORMAT_NAME) != 0) {
        cli_error("%s: not a chartered game file (expected an object with "
                  "\"format\": \"" FORMAT_NAME "\")", path);
        gf_free(g);
        return EXIT_FAIL;
    }
    g->setup = json_object_get(g->root, "setup");
    if (gf_setup_decode(path, g->setup, &g->set)) {
        gf_free(g);
        return EXIT_FAIL;
    }
    g->moves = json_object_get(g->root, "moves");
    if (!json_is_array(g->moves)) {
        cli_error("%s: \"moves\" is missing or not an array", path);
        gf_free(g);
        return EXIT_FAIL;
    }
    size_t i;
    json_t *mv;
    json_array_foreach(g->moves, i, mv) {
        json_t *p = json_object_get(mv, "player");
        json_t *t = json_object_get(mv, "move");
        if (!json_is_object(mv) || !json_is_integer(p) ||
            json_integer_value(p) < 1 ||
            json_integer_value(p) > g->set.nplayers || !json_is_string(t)) {
            cli_error("%s: moves[%zu] must be {\"player\": 1..%d, \"move\": "
                      "\"text\"}", path, i, g->set.nplayers);
            gf_free(g);
            return EXIT_FAIL;
        }
    }
    json_t *state = json_object_get(g->root, "state");
    if (!json_is_object(state)) {
        cli_error("%s: \"state\" is missing or not an object", path);
        gf_free(g);
        return EXIT_FAIL;
    }
    char *stext = json_dumps(state, JSON_COMPACT);
    if (!stext) {
        cli_error("%s: out of memory", path);
        gf_free(g);
        return EXIT_FAIL;
    }
    ch_msg why = {{0}};
    memset(&g->state, 0, sizeof g->state);
    int rc = ch_state_from_json(&g->state, stext, &why);
    free(stext);
    if (rc != CH_OK) {
        cli_error("%s: the stored state cannot be read: %s", path,
                  why.text[0] ? why.text : ch_strerror(rc));
        gf_free(g);
        return EXIT_FAIL;
    }
    if (g->state.nplayers != g->set.nplayers ||
        g->state.edition != g->set.edition) {
        cli_error("%s: the stored state (%d players, %s) does not match the "
                  "setup (%d players, %s)", path, g->state.nplayers,
                  cli_edition_name(g->state.edition), g->set.nplayers,
                  cli_edition_name(g->set.edition));
        gf_free(g);
        return EXIT_FAIL;
    }
    if (g->set.edition == CH_ED_GOLDEN_AGE &&
        (g->state.preset != g->set.preset ||
         g->state.events_on != (g->set.events != 0))) {
        cli_error("%s: the stored state (preset %s, events %s) does not match "
                  "the setup (preset %s, events %s)", path,
                  cli_preset_name(g->state.preset),
                  g->state.events_on ? "on" : "off",
                  cli_preset_name(g->set.preset), g->set.events ? "on" : "off");
        gf_free(g);
        return EXIT_FAIL;
    }
    if (check_state) {
        rc = ch_validate(&g->state, &why);
        if (rc != CH_OK) {
            cli_error("%s: the stored state fails the consistency check: %s "
                      "(run 'chartered replay %s' to rebuild it from the "
                      "moves)", path, why.text[0] ? why.text : ch_strerror(rc),
                      path);
            gf_free(g);
            return EXIT_FAIL;
        }
    }
    return 0;
}

/* Write the document laid out one move a line. */
static int write_doc(const char *path, json_t *setup, json_t *moves,
                     const char *state_text)
{
    char *st = json_dumps(setup, JSON_COMPACT);
    size_t cap = strlen(state_text) + (st ? strlen(st) : 0) + 256 +
                 json_array_size(moves) * 96;
    char *out = malloc(cap);
    if (!st || !out) {
        free(st);
        free(out);
        cli_error("writing '%s': out of memory", path);
        return -1;
    }
    size_t len = 0;
#define APPEND(s)                                                              \
    do {                                                                       \
        const char *s_ = (s);                                                  \
        size_t l_ = strlen(s_);                                                \
        if (len + l_ + 1 > cap) {                                              \
            size_t nc = (len + l_ + 1) * 2;                                    \
            char *n_ = realloc(out, nc);                                       \
            if (!n_) {                                                         \
                free(out);                                                     \
                free(st);                                                      \
                cli_error("writing '%s': out of memory", path);                \
                return -1;                                                     \
            }                                                                  \
            out = n_;                                                          \
            cap = nc;                                                          \
        }                                                                      \
        memcpy(out + len, s_, l_ + 1);                                         \
        len += l_;                                                             \
    } while (0)
    APPEND("{\"format\": \"" FORMAT_NAME "\",\n \"setup\": ");
    APPEND(st);
    APPEND(",\n \"moves\": [");
    size_t i;
    json_t *mv;
    json_array_foreach(moves, i, mv) {
        char *m = json_dumps(mv, JSON_COMPACT);
        if (!m) {
            free(out);
            free(st);
            cli_error("writing '%s': out of memory", path);
            return -1;
        }
        APPEND(i ? ",\n  " : "\n  ");
        APPEND(m);
        free(m);
    }
    APPEND(json_array_size(moves) ? "\n ],\n \"state\": " : "],\n \"state\": ");
    APPEND(state_text);
    APPEND("\n}\n");
#undef APPEND
    free(st);
    int rc = cli_write_file_atomic(path, out);
    free(out);
    return rc;
}

int gf_write_new(const char *path, json_t *setup, const ch_state *st)
{
    char *stext = ch_state_to_json(st);
    if (!stext) {
        cli_error("cannot encode the state as JSON (out of memory?)");
        return EXIT_FAIL;
    }
    json_t *moves = json_array();
    int rc = write_doc(path, setup, moves, stext);
    json_decref(moves);
    ch_free(stext);
    return rc ? EXIT_FAIL : 0;
}

int gf_save(const char *path, game_file *g, const ch_state *st)
{
    char *stext = ch_state_to_json(st);
    if (!stext) {
        cli_error("cannot encode the state as JSON (out of memory?)");
        return EXIT_FAIL;
    }
    int rc = write_doc(path, g->setup, g->moves, stext);
    ch_free(stext);
    return rc ? EXIT_FAIL : 0;
}

void gf_free(game_file *g)
{
    if (g->root)
        json_decref(g->root);
    g->root = g->setup = g->moves = NULL;
}

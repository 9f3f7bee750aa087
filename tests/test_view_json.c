/* test_view_json.c: the text of the JSON writer (src/core/json_write.c)
 * checked against an independent printer. ch_view_to_json and
 * ch_state_to_json print straight into a buffer and break long containers up
 * in place; here every document, for states all along random games of both
 * editions (every player count, both Golden Age presets, events on and off)
 * and every viewer, is parsed back with jansson and printed again by a
 * plain recursive printer of the same layout (docs/formats.md: two-space
 * indentation, a container on one line when it fits in 100 columns from
 * where it starts, otherwise a member per line, lists of scalars filled line
 * by line), with jansson's own text for every string and number. The two
 * texts must be the same bytes. Names with quotes, backslashes, control
 * characters and UTF-8 go through the same check, and their strings must
 * parse back to the bytes they were. The wire forms (compact; without and
 * with only the static members) are checked against jansson too, and the
 * static part's stamp against its text all along every game.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <jansson.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play.h"

#define WIDTH 100

/* ---- the reference printer ------------------------------------------------ */

typedef struct tbuf {
    char *p;
    size_t len, cap;
} tbuf;

static void tput(tbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->p = realloc(b->p, b->cap);
        assert_non_null(b->p);
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void tputs(tbuf *b, const char *s) { tput(b, s, strlen(s)); }

static void tindent(tbuf *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        tput(b, " ", 1);
}

/* jansson's text of a scalar, with the hex digits of \u escapes in lower
 * case (the writer's choice; jansson writes upper case). */
static char *scalar(json_t *v)
{
    char *t = json_dumps(v, JSON_ENCODE_ANY);
    assert_non_null(t);
    for (char *q = t; *q; q++)
        if (q[0] == '\\' && q[1] == 'u') {
            for (int k = 2; k < 6; k++)
                if (q[k] >= 'A' && q[k] <= 'F')
                    q[k] = (char)(q[k] - 'A' + 'a');
            q += 5;
        } else if (q[0] == '\\') {
            q++;
        }
    return t;
}

static char *key_text(const char *key)
{
    json_t *s = json_string(key);
    assert_non_null(s);
    char *t = scalar(s);
    json_decref(s);
    return t;
}

static int container(json_t *v) { return json_is_object(v) || json_is_array(v); }

/* v on one line. */
static void flat(tbuf *b, json_t *v)
{
    if (json_is_object(v)) {
        const char *k;
        json_t *e;
        int first = 1;
        tputs(b, "{");
        json_object_foreach(v, k, e) {
            if (!first)
                tputs(b, ", ");
            first = 0;
            char *kt = key_text(k);
            tputs(b, kt);
            free(kt);
            tputs(b, ": ");
            flat(b, e);
        }
        tputs(b, "}");
    } else if (json_is_array(v)) {
        size_t i;
        json_t *e;
        tputs(b, "[");
        json_array_foreach(v, i, e) {
            if (i)
                tputs(b, ", ");
            flat(b, e);
        }
        tputs(b, "]");
    } else {
        char *t = scalar(v);
        tputs(b, t);
        free(t);
    }
}

static size_t flat_len(json_t *v)
{
    tbuf t = {0};
    flat(&t, v);
    size_t n = t.len;
    free(t.p);
    return n;
}

/* v starting at column col of a line indented by ind. */
static void pretty(tbuf *b, json_t *v, size_t ind, size_t col)
{
    if (!container(v) || json_object_size(v) + json_array_size(v) == 0 ||
        flat_len(v) + col <= WIDTH) {
        flat(b, v);
        return;
    }
    int obj = json_is_object(v);
    /* members: keys (objects) and values in order */
    size_t n = obj ? json_object_size(v) : json_array_size(v);
    json_t **val = calloc(n, sizeof *val);
    char **key = calloc(n, sizeof *key);
    assert_true(val && key);
    size_t i = 0;
    if (obj) {
        const char *k;
        json_t *e;
        json_object_foreach(v, k, e) {
            key[i] = key_text(k);
            val[i++] = e;
        }
    } else {
        json_t *e;
        json_array_foreach(v, i, e) val[i] = e;
    }
    int scalars = 1;
    for (i = 0; i < n; i++)
        if (container(val[i]) || (obj && json_typeof(val[i]) != json_typeof(val[0])))
            scalars = 0;
    tputs(b, obj ? "{\n" : "[\n");
    tindent(b, ind + 2);
    size_t at = ind + 2;
    for (i = 0; i < n; i++) {
        if (i > 0) {
            size_t w = (obj ? strlen(key[i]) + 2 : 0) + flat_len(val[i]);
            if (!scalars || at + 2 + w > WIDTH) {
                tputs(b, ",\n");
                tindent(b, ind + 2);
                at = ind + 2;
            } else {
                tputs(b, ", ");
                at += 2;
            }
        }
        size_t start = b->len;
        if (obj) {
            tputs(b, key[i]);
            tputs(b, ": ");
        }
        pretty(b, val[i], ind + 2, at + (b->len - start));
        at += b->len - start;
        if (obj)
            free(key[i]);
    }
    tputs(b, "\n");
    tindent(b, ind);
    tputs(b, obj ? "}" : "]");
    free(val);
    free(key);
}

/* The document parses, and printing it again gives the same bytes. */
static void check_text(const char *text, const char *what)
{
    assert_non_null(text);
    json_error_t err;
    json_t *doc = json_loads(text, 0, &err);
    if (!doc)
        fail_msg("%s: not JSON: %s at line %d", what, err.text, err.line);
    assert_true(json_is_object(doc));
    tbuf b = {0};
    pretty(&b, doc, 0, 0);
    tputs(&b, "\n");
    if (strcmp(b.p, text) != 0) {
        size_t k = 0;
        while (b.p[k] && b.p[k] == text[k])
            k++;
        size_t from = k > 60 ? k - 60 : 0;
        fail_msg("%s: differs at byte %zu\nwriter:    %.120s\nreference: %.120s", what, k,
                 text + from, b.p + from);
    }
    free(b.p);
    json_decref(doc);
}

/* The wire forms of a view (ch_view_json): COMPACT is jansson's compact
 * text of the same document; DYNAMIC and STATIC are its two parts, which
 * together make the whole view again. */
static void check_wire(const ch_state *st, int p, const char *pretty_text, const char *what)
{
    json_t *full = json_loads(pretty_text, 0, NULL);
    assert_non_null(full);
    char *mine = ch_view_json(st, p, CH_JSON_COMPACT);
    char *ref = json_dumps(full, JSON_COMPACT | JSON_PRESERVE_ORDER);
    assert_non_null(mine);
    /* the same document, and no byte of whitespace more than jansson writes
       (its escapes are as long as ours; only hex digits' case may differ) */
    json_t *back = json_loads(mine, 0, NULL);
    if (!back || !json_equal(back, full) || strlen(mine) != strlen(ref)) {
        size_t k = 0;
        while (mine[k] && mine[k] == ref[k])
            k++;
        size_t from = k > 60 ? k - 60 : 0;
        fail_msg("%s: compact view differs at byte %zu\nwriter:    %.160s\nreference: %.160s",
                 what, k, mine + from, ref + from);
    }
    json_decref(back);
    free(ref);
    ch_free(mine);
    char *dyn = ch_view_json(st, p, CH_JSON_DYNAMIC | CH_JSON_COMPACT);
    char *sta = ch_view_json(st, p, CH_JSON_STATIC);
    json_t *d = json_loads(dyn, 0, NULL), *s = json_loads(sta, 0, NULL);
    assert_non_null(d);
    assert_non_null(s);
    assert_null(json_object_get(d, "board"));
    assert_null(json_object_get(d, "cards"));
    assert_int_equal(json_object_size(s), 2);
    json_object_update(d, s);
    if (!json_equal(d, full))
        fail_msg("%s: dynamic and static parts do not make the view", what);
    json_decref(d);
    json_decref(s);
    json_decref(full);
    ch_free(dyn);
    ch_free(sta);
}

static void check_state(const ch_state *st, const char *what)
{
    char label[160];
    char *t = ch_state_to_json(st);
    snprintf(label, sizeof label, "%s, full state", what);
    check_text(t, label);
    ch_free(t);
    static unsigned rot;
    int wire_viewer = (int)(rot++ % (unsigned)(st->nplayers + 1)) - 1;
    for (int p = -1; p < st->nplayers; p++) {
        t = ch_view_to_json(st, p);
        snprintf(label, sizeof label, "%s, view of %d", what, p);
        check_text(t, label);
        if (p == wire_viewer) /* one viewer a position, in turn: enough, and cheap */
            check_wire(st, p, t, label);
        ch_free(t);
    }
}

/* The static part's stamp changes exactly when its text does. */
static void check_stamp(const ch_state *st, char **last, uint32_t *stamp, const char *what)
{
    char *now = ch_view_json(st, 0, CH_JSON_STATIC | CH_JSON_COMPACT);
    uint32_t s = ch_view_static_stamp(st, 0);
    assert_non_null(now);
    assert_int_not_equal(s, 0);
    if (*last) {
        int same_text = strcmp(*last, now) == 0;
        if (same_text != (s == *stamp))
            fail_msg("%s: static part %s but its stamp %s", what,
                     same_text ? "unchanged" : "changed", s == *stamp ? "did not" : "did");
    }
    ch_free(*last);
    *last = now;
    *stamp = s;
}

/* ---- positions ------------------------------------------------------------ */

/* A random game from seed; every `every`-th decision, the first decision of
 * each phase (sealed bids, auctions, offers, mergers...) and the final state
 * are checked. */
static void check_game(ch_state *st, uint64_t seed, int every, const char *what)
{
    uint64_t rng = seed;
    char label[120];
    unsigned long seen = 0;
    char *stat = NULL;
    uint32_t stamp = 0;
    for (int d = 0; d < 5000; d++) {
        check_stamp(st, &stat, &stamp, what);
        if (d % every == 0 || !(seen >> st->phase & 1)) {
            snprintf(label, sizeof label, "%s seed %llu decision %d (%s)", what,
                     (unsigned long long)seed, d, ch_phase_name(st->phase));
            check_state(st, label);
        }
        seen |= 1ul << st->phase;
        if (!t_random_step(st, &rng))
            break;
    }
    ch_free(stat);
    snprintf(label, sizeof label, "%s seed %llu end", what, (unsigned long long)seed);
    check_state(st, label);
}

static void amsterdam_games(void **s)
{
    (void)s;
    const char *const *arrs = ch_board_builtin_names(CH_ED_AMSTERDAM);
    int a = 0;
    for (int np = 2; np <= 5; np++)
        for (int g = 0; g < 2; g++, a++) {
            if (!arrs[a])
                a = 0;
            ch_state st;
            uint64_t seed = 7000 + (uint64_t)(np * 10 + g);
            t_new(&st, np, arrs[a], seed);
            check_game(&st, seed, 40, arrs[a]);
        }
}

static void golden_age_games(void **s)
{
    (void)s;
    for (int np = 2; np <= 6; np++)
        for (int preset = CH_GA_PRINTED; preset <= CH_GA_FIRST; preset++)
            for (int ev = 0; ev <= 1; ev++) {
                ch_state st;
                uint64_t seed = 8000 + (uint64_t)(np * 10 + preset * 2 + ev);
                t_new_ga(&st, np, preset, ev, seed);
                check_game(&st, seed, 60, "golden age");
            }
}

/* Names that need escapes: quotes, backslashes, a slash, control characters
 * and UTF-8, in the board, district and plot labels. */
static void escaped_names(void **s)
{
    (void)s;
    static const char *const names[] = {"Q\"uote\\back", "tab\there/\x01", "Caf\xc3\xa9 \x1f\x7f",
                                        "nl\nret\r\b\f"};
    for (int ed = 0; ed < 2; ed++) {
        ch_state st;
        if (ed)
            t_new_ga(&st, 4, CH_GA_PRINTED, 1, 99);
        else
            t_new(&st, 4, "standard", 99);
        uint64_t rng = 5;
        for (int i = 0; i < 40; i++)
            t_random_step(&st, &rng);
        ch_board ob = *ch_state_board(&st); /* the same board with odd names */
        snprintf(ob.name, sizeof ob.name, "%s", names[0]);
        for (int d = 0; d < ob.ndistricts && d < CH_MAX_DISTRICTS; d++)
            snprintf(ob.district[d], sizeof ob.district[d], "%s", names[(d + 1) % 4]);
        snprintf(ob.plot_label[0], sizeof ob.plot_label[0], "\"\\");
        ch_msg m;
        assert_int_equal(ch_state_set_board(&st, &ob, &m), CH_OK);
        check_state(&st, ed ? "golden age, odd names" : "amsterdam, odd names");
        /* the strings read back are the bytes written */
        char *t = ch_view_to_json(&st, 1);
        json_t *doc = json_loads(t, 0, NULL);
        assert_non_null(doc);
        json_t *board = json_object_get(doc, "board");
        assert_string_equal(json_string_value(json_object_get(board, "name")), ob.name);
        json_t *dist = json_object_get(board, "districts");
        for (int d = 0; d < ob.ndistricts && d < CH_MAX_DISTRICTS; d++)
            assert_string_equal(json_string_value(json_array_get(dist, (size_t)d)),
                                ob.district[d]);
        json_t *plot0 = json_array_get(json_object_get(board, "plots"), 0);
        assert_string_equal(json_string_value(json_object_get(plot0, "label")), "\"\\");
        /* a slash and UTF-8 are written as they are */
        assert_non_null(strstr(t, "/\\u0001"));
        assert_null(strstr(t, "\\/"));
        json_decref(doc);
        ch_free(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(escaped_names),
        cmocka_unit_test(amsterdam_games),
        cmocka_unit_test(golden_age_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

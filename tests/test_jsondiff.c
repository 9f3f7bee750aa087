/* test_jsondiff.c: the server's view deltas (src/server/game/jsondiff.c). Each
 * patch is applied with an RFC 6902 applier written here on jansson (so the
 * diff is checked by a reader it does not share code with) and must give
 * exactly the new document: hand-made documents for each kind of change
 * (members added and removed, arrays grown and shrunk, keys with "/" and
 * "~", a changed root), and the views of every perspective along random
 * games of both editions, from one decision to the next and across gaps;
 * along the same games, the views of all perspectives written at once
 * (ch_views_json_ix) against each written alone, and written again copying
 * what did not change from each perspective's earlier view
 * (ch_views_json_since; and after any one field the writer reads is changed
 * alone, from a state with an offer's cards or look cards some viewers do
 * not see), the writer's bracket index
 * against the one read from the text, and the legal moves as the frames
 * list them (chx_legal_lines) against every move's text folded by text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "chartered.h"
#include "play.h"
#include "game/game_impl.h"
#include "text.h"

/* RFC 6901 token -> key (in place). */
static void unescape(char *t)
{
    char *w = t;
    for (char *r = t; *r; r++) {
        if (r[0] == '~' && r[1] == '1') {
            *w++ = '/';
            r++;
        } else if (r[0] == '~' && r[1] == '0') {
            *w++ = '~';
            r++;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
}

/* Apply one operation to *doc; 0 or -1. */
static int apply_op(json_t **doc, json_t *op)
{
    const char *kind = json_string_value(json_object_get(op, "op"));
    const char *path = json_string_value(json_object_get(op, "path"));
    json_t *value = json_object_get(op, "value");
    if (!kind || !path)
        return -1;
    if (!*path) {
        if (strcmp(kind, "replace") != 0 && strcmp(kind, "add") != 0)
            return -1;
        json_decref(*doc);
        *doc = json_deep_copy(value);
        return 0;
    }
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", path);
    json_t *parent = *doc;
    char *tok = buf + 1, *slash;
    while ((slash = strchr(tok, '/')) != NULL) {
        *slash = '\0';
        unescape(tok);
        parent = json_is_array(parent) ? json_array_get(parent, (size_t)atol(tok))
                                       : json_object_get(parent, tok);
        if (!parent)
            return -1;
        tok = slash + 1;
    }
    unescape(tok);
    if (json_is_object(parent)) {
        if (!strcmp(kind, "remove"))
            return json_object_del(parent, tok);
        if (!strcmp(kind, "replace") && !json_object_get(parent, tok))
            return -1;
        return json_object_set(parent, tok, value);
    }
    if (!json_is_array(parent))
        return -1;
    size_t i = !strcmp(tok, "-") ? json_array_size(parent) : (size_t)atol(tok);
    if (!strcmp(kind, "remove"))
        return json_array_remove(parent, i);
    if (!strcmp(kind, "replace"))
        return json_array_set(parent, i, value);
    if (!strcmp(kind, "add"))
        return json_array_insert(parent, i, value);
    return -1;
}

/* diff(a, b) applied to a gives b; the patch's size. ai: a's index from
 * an earlier diff (or NULL), bi: b's index for the next one (or NULL),
 * memo: shared by the perspectives of one step (or NULL). */
static size_t check_diff_memo(const char *a, const srv_jidx *ai, const char *b, srv_jidx *bi,
                              srv_jmemo *memo)
{
    char *patch = srv_json_diff_memo(a, ai, b, bi, memo);
    assert_non_null(patch);
    json_error_t err;
    json_t *ops = json_loads(patch, 0, &err);
    if (!ops)
        fail_msg("the patch is not JSON: %s: %s", err.text, patch);
    assert_true(json_is_array(ops));
    json_t *doc = json_loads(a, JSON_DECODE_ANY, NULL), *want = json_loads(b, JSON_DECODE_ANY, NULL);
    assert_non_null(doc);
    assert_non_null(want);
    size_t i;
    json_t *op;
    json_array_foreach(ops, i, op)
        if (apply_op(&doc, op) != 0)
            fail_msg("operation %zu cannot be applied: %s", i, patch);
    /* the same document, key order included (an "add" puts a member last,
       so the patch must keep the writer's order for clients to see it) */
    char *got = json_dumps(doc, JSON_COMPACT | JSON_ENCODE_ANY);
    char *exp = json_dumps(want, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!json_equal(doc, want) || strcmp(got, exp) != 0)
        fail_msg("patched %s\nwant    %s\npatch   %s", got, exp, patch);
    free(got);
    free(exp);
    if (!strcmp(a, b))
        assert_string_equal(patch, "[]");
    size_t n = strlen(patch);
    json_decref(ops);
    json_decref(doc);
    json_decref(want);
    free(patch);
    return n;
}

static size_t check_diff(const char *a, const char *b)
{
    return check_diff_memo(a, NULL, b, NULL, NULL);
}

static void test_hand_made(void **state)
{
    (void)state;
    static const char *pairs[][2] = {
        {"{\"a\":1,\"b\":[1,2,3]}", "{\"a\":1,\"b\":[1,2,3]}"},
        {"{\"a\":1,\"b\":[1,2,3]}", "{\"a\":2,\"b\":[1,2,3,4,5]}"},
        {"{\"a\":1,\"b\":[1,2,3]}", "{\"b\":[1],\"c\":{\"d\":null}}"},
        {"{\"a\":1,\"c\":3}", "{\"a\":1,\"b\":2,\"c\":3}"},
        {"{\"a\":1,\"b\":2,\"c\":3}", "{\"a\":1,\"c\":4}"},
        {"{\"a/b\":1,\"c~d\":{\"e\":[true]}}", "{\"a/b\":2,\"c~d\":{\"e\":[false]}}"},
        {"{\"x\\\"y\":\"s,}]\\\"\",\"k\":[[1,2],[3]]}", "{\"x\\\"y\":\"t\",\"k\":[[1,2,9],[]]}"},
        {"{\"a\":{\"b\":{\"c\":[1,{\"d\":2}]}}}", "{\"a\":{\"b\":{\"c\":[1,{\"d\":3,\"e\":4}]}}}"},
        {"[1,2,3]", "{\"a\":1}"},
        {"{\"a\":[{\"n\":1},{\"n\":2}]}", "{\"a\":[{\"n\":2}]}"},
        {"{\"a\":\"x\",\"b\":1}", "{\"b\":1,\"a\":\"x\"}"},
        {"{\"a\":[]}", "{\"a\":{}}"},
        {"{\"a\":-1.5e3}", "{\"a\":-1.5e4}"},
        {"{}", "{\"a\":[1,[2,[3]]]}"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        check_diff(pairs[i][0], pairs[i][1]);
        check_diff(pairs[i][1], pairs[i][0]);
    }
    /* one memo through diffs of several perspectives (as a view job makes
       them): root members and their elements whose old or new texts differ
       from the noted ones get their own operations, the same ones the
       noted operations */
    /* (padded, so that operations are shorter than the values they change) */
#define PAD "\"pad\":\"................................................................\""
#define MDOC(x, m, n, r)                                                                         \
    "{\"p\":[{\"x\":" x "," PAD "},{\"y\":2," PAD "}],\"q\":{\"m\":" m ",\"n\":" n "," PAD    \
    "},\"r\":[" r "]," PAD "}"
    static const char *ma = MDOC("1", "1", "2", "1"), *ma2 = MDOC("0", "1", "2", "1"),
                      *mb1 = MDOC("2", "1", "3", "1"), *mb2 = MDOC("3", "5", "4", "2");
#undef MDOC
#undef PAD
    srv_jmemo *memo = srv_jmemo_new();
    assert_non_null(memo);
    for (int round = 0; round < 2; round++) {
        srv_jmemo_reset(memo);
        check_diff_memo(ma, NULL, mb1, NULL, memo);
        check_diff_memo(ma, NULL, mb2, NULL, memo);
        check_diff_memo(ma2, NULL, mb1, NULL, memo);
        check_diff_memo(ma, NULL, mb1, NULL, memo);
        check_diff_memo(ma2, NULL, mb2, NULL, memo);
        check_diff_memo(mb2, NULL, ma, NULL, memo);
    }
    /* the memo's members looked up from the one after the last found:
       perspectives whose root has other members, or the same in another
       order (found by wrapping round), or a noted key with other texts */
#define PAD "\"pad\":\"................................................................\""
#define ODOC3(h, p, q) "{\"h\":[" h "],\"p\":{\"v\":" p "," PAD "},\"q\":[" q "]," PAD "}"
#define ODOC2(q, z, p) "{\"q\":[" q "],\"z\":" z ",\"p\":{\"v\":" p "," PAD "}," PAD "}"
    static const char *oa = ODOC3("1", "1", "1"), *ob = ODOC3("2", "2", "2"),
                      *oa2 = ODOC2("1", "0", "1"), *ob2 = ODOC2("2", "1", "2"),
                      *ob3 = ODOC2("3", "1", "2"), *oa4 = ODOC2("1", "0", "7");
#undef ODOC3
#undef ODOC2
#undef PAD
    for (int round = 0; round < 2; round++) {
        srv_jmemo_reset(memo);
        check_diff_memo(oa, NULL, ob, NULL, memo);
        check_diff_memo(oa2, NULL, ob2, NULL, memo);
        check_diff_memo(oa2, NULL, ob3, NULL, memo);
        check_diff_memo(oa4, NULL, ob2, NULL, memo);
        check_diff_memo(oa, NULL, ob, NULL, memo);
    }
    srv_jmemo_free(memo);
    /* a path longer than the diff writes (2 KB): no patch; the same long
       key with nothing changed under it: the empty patch */
    char key[3000], a[6100], b[6100];
    memset(key, 'k', sizeof key - 1);
    key[sizeof key - 1] = '\0';
    snprintf(a, sizeof a, "{\"%s\":{\"x\":1,\"y\":[1,2,3,4,5,6,7,8]},\"z\":1}", key);
    snprintf(b, sizeof b, "{\"%s\":{\"x\":2,\"y\":[1,2,3,4,5,6,7,8]},\"z\":1}", key);
    assert_null(srv_json_diff(a, b));
    char *p = srv_json_diff(a, a);
    assert_non_null(p);
    assert_string_equal(p, "[]");
    free(p);
    snprintf(b, sizeof b, "{\"%s\":{\"x\":1,\"y\":[1,2,3,4,5,6,7,8]},\"z\":2}", key);
    check_diff(a, b);
}

/* chx_legal_lines as it was written before it folded runs by their moves:
 * every move's text, runs of 3 or more folded by their text alone. */
static char *legal_lines_by_text(const ch_state *st, int p)
{
    ch_move mv[4096];
    int total = ch_legal(st, p, mv, 4096);
    assert_true(total <= 4096);
    chx_buf b = {0};
    chx_buf_puts(&b, "");
    static char text[4096][128];
    for (int i = 0; i < total; i++)
        if (ch_move_str(st, mv[i], text[i], sizeof text[i]) <= 0)
            snprintf(text[i], sizeof text[i], "?");
    for (int i = 0; i < total;) {
        int j = i + 1;
        long v0 = 0;
        int pl0 = 0;
        const char *sp = strrchr(text[i], ' ');
        int amount = sp && sp[1] == 'f' && sp[2] >= '0' && sp[2] <= '9';
        if (amount) {
            v0 = atol(sp + 2);
            pl0 = (int)(sp - text[i]);
            for (; j < total; j++) {
                const char *sq = strrchr(text[j], ' ');
                if (!sq || sq - text[j] != pl0 || strncmp(text[j], text[i], (size_t)pl0) != 0 ||
                    sq[1] != 'f' || atol(sq + 2) != v0 + (j - i))
                    break;
            }
        }
        if (j - i >= 3) {
            char line[200];
            snprintf(line, sizeof line, "range %.*s f%ld f%ld\n", pl0, text[i], v0,
                     v0 + (j - i - 1));
            chx_buf_puts(&b, line);
            i = j;
        } else {
            chx_buf_puts(&b, text[i]);
            chx_buf_puts(&b, "\n");
            i++;
        }
    }
    return b.s;
}

/* Fields of the state that the view writer reads: ch_views_json_since must
 * notice a change of any one of them alone (a part it copies from the
 * earlier view must be one whose fields are all the same), including
 * changes the rules never make. Each is changed by flipping the low bit of
 * its first byte (a count stays within its array: the arrays hold more). */
#define FIELD(f) {offsetof(ch_state, f), #f}
static const struct {
    size_t off;
    const char *name;
} flips[] = {
    FIELD(active), FIELD(actor), FIELD(offer.to), FIELD(offer.give_stock[1]),
    FIELD(offer.ask_stock[2]), FIELD(offer.give_money), FIELD(offer.ask_money),
    FIELD(offer.give_cards[0]), FIELD(offer.ask_cards[0]), FIELD(pl[0].cash),
    FIELD(pl[1].stock[0]), FIELD(pl[2].actions), FIELD(pl[3].roofs), FIELD(pl[0].extra_pending),
    FIELD(pl[1].extra_armed), FIELD(pl[2].hidden_levels), FIELD(pl[3].flags),
    FIELD(pl[0].reserve_took), FIELD(pl[1].hand[0]), FIELD(pl[2].known[0]), FIELD(co[0].value),
    FIELD(co[1].on_chart), FIELD(co[2].hq), FIELD(co[3].bank), FIELD(co[4].flag),
    FIELD(height[5]), FIELD(owner[6]), FIELD(pflags[7]), FIELD(ndeck), FIELD(market[0]),
    FIELD(nreserve), FIELD(ndiscard), FIELD(discard[0]), FIELD(nlook), FIELD(look[0]),
    FIELD(nev_deck), FIELD(ev_open[0]), FIELD(ev_discard[0]), FIELD(nev_discard),
    FIELD(nevent_open), FIELD(market_size), FIELD(ev_kind), FIELD(ev_slot), FIELD(ev_from_action),
    FIELD(bid_mask), FIELD(bid_in), FIELD(bid_round), FIELD(bid_revealed), FIELD(bid[1]),
    FIELD(lose_left), FIELD(offers), FIELD(au_option), FIELD(au_item), FIELD(au_high_bidder),
    FIELD(au_turn), FIELD(au_out), FIELD(au_high), FIELD(total_money), FIELD(first_player),
    FIELD(max_hand), FIELD(warehouses_total), FIELD(roofs_total), FIELD(preset),
    FIELD(events_on),
};
#define NFLIPS (int)(sizeof flips / sizeof flips[0])
enum { MUT_PHASE = NFLIPS, MUT_KNOWN, MUT_PLAYERS, MUT_PLOTS, MUT_COMPANIES, MUT_PILES, MUT_END };

static void mutate(ch_state *y, const ch_state *o, int g)
{
    if (g < NFLIPS) {
        ((unsigned char *)y)[flips[g].off] ^= 1;
        return;
    }
    switch (g) {
    case MUT_PHASE: /* who sees an offer's cards, the look cards */
        y->phase = y->phase == CH_PH_RESPOND ? CH_PH_PICK : CH_PH_RESPOND;
        break;
    case MUT_KNOWN: /* which of the offer's cards everyone knows of */
        for (int p = 0; p < CH_MAX_PLAYERS; p++)
            for (int i = 0; i < 2; i++)
                y->pl[p].known[i] ^= y->offer.give_cards[i] | y->offer.ask_cards[i];
        break;
    /* and from another state of the game */
    case MUT_PLAYERS: memcpy(y->pl, o->pl, sizeof y->pl); break;
    case MUT_PLOTS:
        memcpy(y->height, o->height, sizeof y->height);
        memcpy(y->owner, o->owner, sizeof y->owner);
        memcpy(y->pflags, o->pflags, sizeof y->pflags);
        break;
    case MUT_COMPANIES: memcpy(y->co, o->co, sizeof y->co); break;
    case MUT_PILES:
        memcpy(y->market, o->market, sizeof y->market);
        memcpy(y->discard, o->discard, sizeof y->discard);
        y->ndiscard = o->ndiscard;
        y->ndeck = o->ndeck;
        y->nreserve = o->nreserve;
        break;
    }
}

/* x, st with an offer (from offer_src, which has cards in it when the game
 * had such an offer: who sees them then depends on the phase and the active
 * player) or with look cards that only the picker sees, written; then each
 * group of fields changed: the views of the result copying from x's must be
 * the views written alone. */
static void since_mutations(const ch_state *st, const ch_state *o, const ch_state *offer_src,
                            int look, unsigned mask)
{
    const unsigned fl = CH_JSON_COMPACT | CH_JSON_DYNAMIC;
    ch_state x = *st;
    x.offer = offer_src->offer;
    if (look && st->edition == CH_ED_AMSTERDAM && st->ndeck >= 3) {
        /* Veilinge option 3: the picker looks at cards from the deck */
        x.au_option = 3;
        x.nlook = 3;
        memcpy(x.look, st->deck, 3);
        x.phase = CH_PH_PICK;
        x.actor = 0;
    }
    ch_view_buf xb[CH_MAX_PLAYERS + 1] = {{0}}, yb[CH_MAX_PLAYERS + 1] = {{0}};
    assert_int_equal(ch_views_json_buf(&x, mask, fl, xb), 0);
    ch_view_prev pv[CH_MAX_PLAYERS + 1];
    for (int k = 0; k <= CH_MAX_PLAYERS; k++)
        pv[k] = (mask >> k & 1u) ? (ch_view_prev){&x, xb[k].text, xb[k].len,
                                                  (const uint32_t(*)[3])xb[k].ix, xb[k].nix}
                                 : (ch_view_prev){0};
    for (int g = 0; g < MUT_END; g++) {
        ch_state y = x;
        mutate(&y, o, g);
        if (y.actor >= y.nplayers && y.phase != CH_PH_OVER && y.phase != CH_PH_BID)
            y.actor = x.actor; /* the writer asks who decides only of such states */
        assert_int_equal(ch_views_json_since(&y, mask, fl, yb, pv), 0);
        for (int k = 0; k <= CH_MAX_PLAYERS; k++) {
            if (!(mask >> k & 1u))
                continue;
            char *own = ch_view_json(&y, k - 1, fl);
            assert_non_null(own);
            if (strcmp(own, yb[k].text) != 0)
                fail_msg("%s changed: the view of perspective %d copied from the earlier view "
                         "differs from the view written alone",
                         g < NFLIPS ? flips[g].name : "a group of fields", k - 1);
            ch_free(own);
        }
    }
    for (int k = 0; k <= CH_MAX_PLAYERS; k++) {
        ch_free(xb[k].text);
        ch_free(xb[k].ix);
        ch_free(yb[k].text);
        ch_free(yb[k].ix);
    }
}

/* The views of every perspective along a random game: from each decision to
 * the next, and across a gap of 1 to 6 moves. */
static void game_views(ch_state *st, uint64_t seed, size_t *bytes_patch, size_t *bytes_view)
{
    uint64_t rng = seed;
    int n = st->nplayers;
    char *prev[CH_MAX_PLAYERS + 1] = {0};
    srv_jidx ix[CH_MAX_PLAYERS + 1] = {{0}}; /* prev's brackets, as the server keeps them */
    srv_jmemo *kept_memo = srv_jmemo_new();
    assert_non_null(kept_memo);
    ch_view_buf kept_vb[CH_MAX_PLAYERS + 1] = {{0}}; /* as a view worker keeps them */
    /* ch_views_json_since: each perspective's view of the last step it was
       written at, the state of that step, and its own kept buffers */
    ch_view_buf since_vb[CH_MAX_PLAYERS + 1] = {{0}};
    ch_state since_st[CH_MAX_PLAYERS + 1];
    ch_view_buf since_prev[CH_MAX_PLAYERS + 1] = {{0}};
    int since_have[CH_MAX_PLAYERS + 1] = {0};
    ch_state other;
    t_new(&other, n, "standard", seed + 1); /* another game, for the refused earlier views */
    ch_state older = *st, with_offer = *st; /* a state some steps back; the last one with
                                               an offer that has cards */
    for (int step = 0; step < 2000; step++) {
        int gap = 1 + (int)(t_rand(&rng) % 6);
        int over = 0;
        for (int k = 0; k < gap && !over; k++)
            over = !t_random_step(st, &rng);
        if (st->offer.give_cards[0] | st->offer.give_cards[1] | st->offer.ask_cards[0] |
            st->offer.ask_cards[1])
            with_offer = *st;
        if (step % 8 == 0)
            since_mutations(st, &older, &with_offer, step % 16 == 8, (2u << n) - 1);
        if (step % 5 == 0)
            older = *st;
        {
            /* the views of every perspective written at once (the shared
               parts copied, as the server's view workers write them) are
               each the view written alone, and so are their indexes */
            char *text[CH_MAX_PLAYERS + 1];
            uint32_t (*vix[CH_MAX_PLAYERS + 1])[3];
            size_t nvix[CH_MAX_PLAYERS + 1];
            unsigned mask = step % 2 ? (2u << n) - 1 : (2u << n) - 2 - (unsigned)(step % 4 == 2);
            assert_int_equal(ch_views_json_ix(st, mask, CH_JSON_COMPACT | CH_JSON_DYNAMIC, text,
                                              vix, nvix),
                             0);
            /* and into buffers kept from step to step: the same texts and
               indexes */
            assert_int_equal(ch_views_json_buf(st, mask, CH_JSON_COMPACT | CH_JSON_DYNAMIC,
                                               kept_vb),
                             0);
            /* and copying from earlier views what did not change: the same
               texts and indexes again (from each perspective's last view,
               one or more steps back; every seventh step one perspective's
               earlier view is another game's, which is not used or copied
               from only where it matches) */
            ch_view_prev pv[CH_MAX_PLAYERS + 1];
            for (int k = 0; k <= CH_MAX_PLAYERS; k++) {
                pv[k] = (ch_view_prev){0};
                if (k <= n && since_have[k])
                    pv[k] = (ch_view_prev){&since_st[k], since_prev[k].text, since_prev[k].len,
                                           (const uint32_t(*)[3])since_prev[k].ix,
                                           since_prev[k].nix};
            }
            if (step % 7 == 3 && since_have[n])
                pv[n].st = &other;
            assert_int_equal(ch_views_json_since(st, mask, CH_JSON_COMPACT | CH_JSON_DYNAMIC,
                                                 since_vb, pv),
                             0);
            for (int k = 0; k <= n; k++) {
                if (!(mask >> k & 1u))
                    continue;
                assert_int_equal(since_vb[k].len, kept_vb[k].len);
                assert_string_equal(since_vb[k].text, kept_vb[k].text);
                assert_int_equal(since_vb[k].nix, kept_vb[k].nix);
                assert_memory_equal(since_vb[k].ix, kept_vb[k].ix, kept_vb[k].nix * sizeof *kept_vb[k].ix);
                /* kept as the earlier view of the next steps, with its state
                   (a perspective not written keeps its older one) */
                ch_view_buf *pb = &since_prev[k];
                pb->text = realloc(pb->text, since_vb[k].len + 1);
                pb->ix = realloc(pb->ix, (since_vb[k].nix + 1) * sizeof *pb->ix);
                assert_non_null(pb->text);
                assert_non_null(pb->ix);
                memcpy(pb->text, since_vb[k].text, since_vb[k].len + 1);
                memcpy(pb->ix, since_vb[k].ix, since_vb[k].nix * sizeof *pb->ix);
                pb->len = since_vb[k].len;
                pb->nix = since_vb[k].nix;
                since_st[k] = *st;
                since_have[k] = 1;
            }
            for (int k = 0; k <= n; k++) {
                if (!(mask >> k & 1u)) {
                    assert_null(text[k]);
                    continue;
                }
                assert_int_equal(kept_vb[k].len, strlen(text[k]));
                assert_string_equal(kept_vb[k].text, text[k]);
                assert_int_equal(kept_vb[k].nix, nvix[k]);
                assert_memory_equal(kept_vb[k].ix, vix[k], nvix[k] * sizeof *vix[k]);
                char *own = ch_view_json(st, k - 1, CH_JSON_COMPACT | CH_JSON_DYNAMIC);
                assert_string_equal(text[k], own);
                srv_jidx read = {0};
                char *self = srv_json_diff_ix(own, NULL, own, &read);
                assert_string_equal(self, "[]");
                assert_int_equal(read.n, nvix[k]);
                assert_memory_equal(read.pair, vix[k], nvix[k] * sizeof *vix[k]);
                srv_jidx_free(&read);
                free(self);
                ch_free(own);
                ch_free(text[k]);
                ch_free(vix[k]);
            }
        }
        for (int p = 0; p < n; p++) { /* the legal moves as the frames list them */
            int nl = 0;
            char *lines = chx_legal_lines(st, p, &nl);
            char *want = legal_lines_by_text(st, p);
            assert_non_null(lines);
            assert_string_equal(lines, want);
            free(lines);
            free(want);
        }
        /* every other step the perspectives share a memo, as on the
           server's view workers: one memo, reset before each step, which
           points into the step's old and new views (kept until the step
           ends, as a view job keeps them) */
        srv_jmemo *memo = step % 2 ? kept_memo : NULL;
        srv_jmemo_reset(memo);
        char *old_text[CH_MAX_PLAYERS + 1] = {0};
        for (int p = -1; p < n; p++) {
            /* every third step the view with the writer's bracket index (as
               the server makes them), which must be the one the diff makes
               by reading the text */
            uint32_t (*wix)[3] = NULL;
            size_t nwix = 0;
            char *v = step % 3 == 2
                          ? ch_view_json_ix(st, p, CH_JSON_COMPACT | CH_JSON_DYNAMIC, &wix, &nwix)
                          : ch_view_json(st, p, CH_JSON_COMPACT | CH_JSON_DYNAMIC);
            assert_non_null(v);
            if (wix) {
                srv_jidx read = {0};
                char *self = srv_json_diff_ix(v, NULL, v, &read);
                assert_string_equal(self, "[]");
                free(self);
                assert_int_equal(read.n, nwix);
                assert_memory_equal(read.pair, wix, nwix * sizeof *wix);
                srv_jidx_free(&read);
            }
            srv_jidx next = {0};
            if (wix) {
                next.pair = wix;
                next.n = next.cap = nwix;
            }
            if (prev[p + 1] && ix[p + 1].pair && next.pair) {
                /* both indexes known: the patch appended to a buffer (as a
                   view worker makes it) is the same */
                chx_buf pb = {0};
                chx_buf_add(&pb, "x", 1);
                assert_int_equal(srv_json_diff_into(&pb, prev[p + 1], strlen(prev[p + 1]),
                                                    &ix[p + 1], v, strlen(v), &next, NULL),
                                 0);
                char *want = srv_json_diff_ix(prev[p + 1], &ix[p + 1], v, &next);
                assert_non_null(want);
                assert_string_equal(pb.s + 1, want);
                free(want);
                free(pb.s);
            }
            if (prev[p + 1]) {
                /* every other step from the index kept from the last diff */
                *bytes_patch +=
                    check_diff_memo(prev[p + 1], step % 2 ? &ix[p + 1] : NULL, v, &next, memo);
                *bytes_view += strlen(v);
            }
            srv_jidx_free(&ix[p + 1]);
            ix[p + 1] = next;
            old_text[p + 1] = prev[p + 1];
            prev[p + 1] = v;
        }
        for (int p = 0; p <= n; p++)
            ch_free(old_text[p]);
        if (over)
            break;
    }
    srv_jmemo_free(kept_memo);
    for (int k = 0; k <= CH_MAX_PLAYERS; k++) {
        ch_free(kept_vb[k].text);
        ch_free(kept_vb[k].ix);
        ch_free(since_vb[k].text);
        ch_free(since_vb[k].ix);
        free(since_prev[k].text);
        free(since_prev[k].ix);
    }
    for (int p = 0; p <= n; p++) {
        ch_free(prev[p]);
        srv_jidx_free(&ix[p]);
    }
}

static void test_game_views(void **state)
{
    (void)state;
    size_t bp = 0, bv = 0;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        ch_state st;
        t_new(&st, 4, "standard", seed);
        game_views(&st, seed * 77, &bp, &bv);
        t_new_ga(&st, 5, CH_GA_PRINTED, 1, seed);
        game_views(&st, seed * 91, &bp, &bv);
    }
    /* the point of it: patches much smaller than views */
    print_message("patches %zu bytes, views %zu bytes (%.1f%%)\n", bp, bv, 100.0 * (double)bp / (double)bv);
    assert_true(bp * 4 < bv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_made),
        cmocka_unit_test(test_game_views),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

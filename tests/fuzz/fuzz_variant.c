/* fuzz_variant.c: libFuzzer harness of the variant file parser
 * (ch_variant_parse and ch_variant_apply, src/core/variant.c; docs/variants.md).
 * Input: a variant text. Checks, beyond "no crash, no sanitizer report":
 * a refused text says why as "fuzz.variant:LINE: reason" and leaves the
 * variant unchanged; an accepted one has every setting within its bounds
 * and parses the same twice; applied to the default setup of each edition
 * and player count, a refusal says why and changes nothing, and an accepted
 * setup either starts a game that ch_validate accepts, with the settings
 * the variant asked for, or is refused by ch_new with a reason (a board
 * too small for the hands). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

static void check_bounds(const ch_variant *v, const char *text)
{
    if (!memchr(v->name, 0, sizeof v->name) || !v->name[0] ||
        !memchr(v->arrangement, 0, sizeof v->arrangement))
        fz_fail("an accepted variant has an unterminated or empty name", text);
    if (v->edition < -1 || v->edition > 1 || v->preset < -1 || v->preset > 1 || v->events < -1 ||
        v->events > 1 || v->nplayers < 0 || v->nplayers == 1 || v->nplayers > CH_MAX_PLAYERS)
        fz_fail("an accepted variant has a setting out of range", text);
    if (v->hand < 0 || v->hand >= CH_MAX_CARDS || v->hand_limit < 0 || v->hand_limit >= CH_MAX_CARDS ||
        v->open < 0 || v->open > CH_MARKET_MAX || v->warehouses < 0 || v->warehouses > 255 ||
        v->warehouses == 1)
        fz_fail("an accepted variant has a count out of range", text);
    int32_t c[2 + 2 * CH_MAX_PLAYERS] = {v->cash_all, v->cash_add_all};
    for (int p = 0; p < CH_MAX_PLAYERS; p++) {
        c[2 + p] = v->cash[p];
        c[2 + CH_MAX_PLAYERS + p] = v->cash_add[p];
    }
    for (size_t i = 0; i < sizeof c / sizeof *c; i++)
        if (c[i] < -CH_VARIANT_CASH_MAX || c[i] > CH_VARIANT_CASH_MAX ||
            ((i == 0 || (i >= 2 && i < 2 + CH_MAX_PLAYERS)) && c[i] < 0))
            fz_fail("an accepted variant has money out of range", text);
}

static void check_game(const ch_variant *v, int edition, int n, const char *text)
{
    ch_setup set;
    ch_setup_default(&set, edition);
    set.nplayers = n;
    set.seed = 7;
    ch_setup before = set;
    ch_msg why = {{0}};
    if (ch_variant_apply(v, &set, &why) != CH_OK) {
        if (!why.text[0])
            fz_fail("a refused setup has no reason", text);
        if (memcmp(&set, &before, sizeof set) != 0)
            fz_fail("a refused setup was changed", text);
        return;
    }
    const char *arr = set.edition == CH_ED_GOLDEN_AGE ? ch_ga_side(set.preset, set.nplayers) : "standard";
    static ch_board b;
    if (!arr || ch_board_builtin(&b, set.edition, arr, &why) != CH_OK)
        fz_fail("no built-in board for an applied setup", text);
    static ch_state st;
    int rc = ch_new(&st, &set, &b, &why);
    if (rc != CH_OK) {
        if (!why.text[0])
            fz_fail("ch_new refused a variant's setup without a reason", text);
        return;
    }
    if (ch_validate(&st, &why) != CH_OK)
        fz_fail("a variant's new game fails ch_validate", why.text);
    if ((v->open && st.market_size != v->open) || (v->warehouses && st.supply != v->warehouses) ||
        (v->hand_limit && st.max_hand != v->hand_limit) ||
        (set.edition == CH_ED_AMSTERDAM && v->events == 0 && (st.nev_deck || st.nevent_open)))
        fz_fail("a variant's new game is not the variant's", text);
    for (int p = 0; p < st.nplayers; p++) {
        int32_t want = v->cash[p] ? v->cash[p] : v->cash_all;
        int32_t add = v->cash_add[p] ? v->cash_add[p] : v->cash_add_all;
        if (want && st.pl[p].cash != want + add)
            fz_fail("a seat's starting money is not the variant's", text);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fz_strndup(data, size);
    static ch_variant v, again;
    memset(&v, 0xA5, sizeof v);
    ch_variant untouched = v;
    ch_msg why = {{0}};
    int rc = ch_variant_parse(&v, (const char *)data, size, "fuzz.variant", &why);
    if (rc != CH_OK) {
        if (rc != CH_EFORMAT || strncmp(why.text, "fuzz.variant:", 13) != 0)
            fz_fail("a refused variant does not say file:line: reason", why.text);
        if (memcmp(&v, &untouched, sizeof v) != 0)
            fz_fail("a refused variant changed the output", text);
        free(text);
        return 0;
    }
    check_bounds(&v, text);
    if (ch_variant_parse(&again, (const char *)data, size, "fuzz.variant", &why) != CH_OK ||
        memcmp(&v, &again, sizeof v) != 0)
        fz_fail("a variant parses differently twice", text);
    for (int ed = 0; ed < 2; ed++)
        for (int n = 2; n <= (ed ? 6 : 5); n++)
            check_game(&v, ed, n, text);
    free(text);
    return 0;
}

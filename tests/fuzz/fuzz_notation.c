/* fuzz_notation.c: libFuzzer harness of the move notation parser
 * (ch_move_parse, src/core/notation.c). Input: one byte choosing a state of
 * fuzz_common.c and a player, then the move text. Checks, beyond "no crash,
 * no sanitizer report": a move that parses prints to a text that parses back
 * to the same move; ch_check and ch_apply agree on it; an applied move
 * leaves a state that passes ch_validate; a refused one changes nothing. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const ch_state *st = fz_state(data[0] & 15);
    int p = (fz_decider(st) + (data[0] >> 4)) % (st->nplayers + 1); /* nplayers: a seat too far */
    char *text = fz_strndup(data + 1, size - 1);
    ch_move m;
    ch_msg why = {{0}};
    int rc = ch_move_parse(st, p, text, &m, &why);
    if (rc == CH_OK) {
        char canon[128];
        ch_move back;
        if (ch_move_str(st, m, canon, sizeof canon) <= 0)
            fz_fail("a parsed move has no text", text);
        if (ch_move_parse(st, p, canon, &back, &why) != CH_OK)
            fz_fail("the canonical text of a parsed move does not parse", canon);
        if (back.type != m.type || back.a != m.a || back.b != m.b || back.c != m.c ||
            back.n != m.n)
            fz_fail("the canonical text parses to another move", canon);
        ch_msg w1 = {{0}}, w2 = {{0}};
        int c1 = ch_check(st, p, m, &w1);
        ch_state copy = *st;
        int c2 = ch_apply(&copy, p, m, &w2);
        if (c1 != c2)
            fz_fail("ch_check and ch_apply disagree", canon);
        if (c2 == CH_OK) {
            if (ch_validate(&copy, &w2) != CH_OK)
                fz_fail("an applied move breaks the state", w2.text);
        } else if (memcmp(&copy, st, sizeof copy) != 0) {
            fz_fail("a refused move changed the state", canon);
        }
    } else if (!why.text[0]) {
        fz_fail("a refused move text has no reason", text);
    }
    free(text);
    return 0;
}

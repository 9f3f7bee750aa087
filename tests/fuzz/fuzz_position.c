/* fuzz_position.c: libFuzzer harness of the position parser
 * (ch_position_read, src/core/position.c; docs/formats.md "Positions").
 * Input: a position text (the bytes as they are, not NUL-terminated: the
 * parser takes a length). Checks, beyond "no crash, no sanitizer report": a
 * refused text has a "fuzz.pos:LINE: " reason and leaves the state passed in
 * unchanged; an accepted position passes ch_validate, and printing it then
 * reading the print gives the same text again (print, load, print). */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static ch_state st, before, again;
    memcpy(&st, fz_state((unsigned)size), sizeof st);
    memcpy(&before, &st, sizeof st);
    ch_msg why = {{0}};
    int rc = ch_position_read(&st, (const char *)data, size, "fuzz.pos", &why);
    if (rc != CH_OK) {
        if (strncmp(why.text, "fuzz.pos:", 9) != 0)
            fz_fail("a refused position has no file:line: reason", why.text);
        if (memcmp(&st, &before, sizeof st) != 0)
            fz_fail("a refused position changed the state", why.text);
        return 0;
    }
    if (ch_validate(&st, &why) != CH_OK)
        fz_fail("an accepted position fails ch_validate", why.text);
    char *text = ch_position_write(&st, -1);
    if (!text)
        fz_fail("an accepted position cannot be printed", "");
    if (ch_position_read(&again, text, strlen(text), "fuzz.pos", &why) != CH_OK)
        fz_fail("the print of an accepted position does not load", why.text);
    char *text2 = ch_position_write(&again, -1);
    if (!text2 || strcmp(text, text2) != 0)
        fz_fail("print, load, print changed the position", text);
    ch_free(text);
    ch_free(text2);
    return 0;
}

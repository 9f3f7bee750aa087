/* fuzz_protocol.c: libFuzzer harness of the bot protocol's line reading
 * (docs/bot-protocol.md; proto_hello_line and proto_move_line of
 * protocol.c, what the engine does with each line a bot program sends).
 * Input: byte 0 picks a state of fuzz_common.c; the rest is what the bot
 * sent, split into lines as the engine splits them (at '\n', a '\r' before
 * it dropped). Lines are read as the handshake answer until one is
 * accepted (version 2's "protocol N" and "option ..." lines read with
 * proto_protocol_line and proto_option_line, and every option's default
 * and the line's last word checked as a value), then as answers to
 * "isready" and "go" for the deciding player. Checks,
 * beyond "no crash, no sanitizer report": every refusal has a reason; a
 * move the reader accepts is legal (ch_check) and ch_apply takes it. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "protocol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const ch_state *st = fz_state(data[0]);
    int p = fz_decider(st);
    char *all = fz_strndup(data + 1, size - 1);
    size_t total = size - 1, at = 0;
    int greeted = 0;
    while (at < total) {
        char *line = all + at, *nl = memchr(line, '\n', total - at);
        size_t len = nl ? (size_t)(nl - line) : total - at;
        at += len + 1;
        line[len] = '\0';
        if (len > 0 && line[len - 1] == '\r')
            line[--len] = '\0';
        char err[512] = "", id[128];
        int rc;
        if (!greeted) {
            rc = proto_hello_line(line, len, id, sizeof id, err, sizeof err);
            greeted = rc == PROTO_OK;
            if (rc == PROTO_LINE_PROTOCOL) {
                int v = 0;
                rc = proto_protocol_line(line, len, &v, err, sizeof err);
                if (rc == PROTO_OK && v != 1 && v != 2)
                    fz_fail("protocol version out of range", line);
            } else if (rc == PROTO_LINE_OPTION) {
                proto_option o;
                rc = proto_option_line(line, len, &o, err, sizeof err);
                if (rc == PROTO_OK) {
                    char e2[512] = "";
                    /* an option's own default is one of its values */
                    if (proto_option_value(&o, o.def, e2, sizeof e2) != PROTO_OK)
                        fz_fail("an option's default is refused as its value", line);
                    const char *last = strrchr(line, ' ');
                    e2[0] = '\0';
                    if (last && proto_option_value(&o, last + 1, e2, sizeof e2) != PROTO_OK && !e2[0])
                        fz_fail("a refused option value has no reason", line);
                }
            }
        } else if (len == 7 && !memcmp(line, "readyok", 7)) {
            rc = proto_ready_line(line, len, err, sizeof err);
            if (rc != PROTO_OK)
                fz_fail("readyok refused", line);
        } else {
            ch_move m;
            rc = proto_move_line(st, p, line, len, &m, err, sizeof err);
            if (rc == PROTO_OK) {
                ch_state copy = *st;
                ch_msg why;
                if (ch_check(st, p, m, &why) != CH_OK || ch_apply(&copy, p, m, &why) != CH_OK)
                    fz_fail("the protocol accepted an illegal move", line);
            }
        }
        if (rc > 0 && !err[0])
            fz_fail("a refused line has no reason", line);
    }
    free(all);
    return 0;
}

/* fuzz_state_json.c: libFuzzer harness of the JSON state loader
 * (ch_state_from_json, src/core/json.c).
 *
 * Why not whole documents: a full state is about 32 KB of JSON (the board
 * and the card table are most of it) and jansson alone parses only a few
 * hundred of those a second, so a harness fed whole documents ran about 250
 * inputs/s and spent them re-reading the board. Here byte 0 picks one of
 * the states of fuzz_common.c (held parsed, as jansson trees), and the rest
 * is a JSON merge patch (RFC 7396: members replace, objects merge, null
 * deletes; an object patched onto an array replaces the elements whose
 * decimal index it names). The patched tree is read by the loader's own
 * code (json_state_read, what ch_state_from_json runs after parsing), with
 * the unchanged parts shared, not copied. Any input that is not a JSON
 * object goes to ch_state_from_json as text, so the text path is fuzzed
 * too.
 *
 * Checks, beyond "no crash, no sanitizer report": a refused document has a
 * reason and leaves the state untouched; an accepted one passes ch_validate,
 * and when it differs from the base state, writing it out and loading that
 * text gives the same state byte for byte. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fuzz_common.h"
#include "internal.h"

static json_t *base[FZ_NSTATES];

static void init(void)
{
    for (unsigned i = 0; i < FZ_NSTATES; i++) {
        char *text = ch_state_to_json(fz_state(i));
        json_error_t e;
        base[i] = text ? json_loads(text, JSON_REJECT_DUPLICATES, &e) : NULL;
        if (!base[i])
            fz_fail("cannot parse a written state", text);
        ch_state again;
        ch_msg why;
        if (ch_state_from_json(&again, text, &why) != CH_OK ||
            memcmp(&again, fz_state(i), sizeof again) != 0)
            fz_fail("a written base state does not load as itself", why.text);
        ch_free(text);
    }
}

/* base patched by p (new reference); unchanged subtrees are shared. */
static json_t *merge(json_t *b, json_t *p, int depth)
{
    if (json_is_object(p) && json_is_object(b) && depth < 6) {
        json_t *out = json_copy(b);
        const char *k;
        json_t *v;
        json_object_foreach(p, k, v) {
            if (json_is_null(v))
                json_object_del(out, k);
            else
                json_object_set_new(out, k, merge(json_object_get(b, k), v, depth + 1));
        }
        return out;
    }
    if (json_is_object(p) && json_is_array(b) && depth < 6) {
        json_t *out = json_copy(b);
        const char *k;
        json_t *v;
        json_object_foreach(p, k, v) {
            char *end;
            long i = strtol(k, &end, 10);
            if (*k && !*end && i >= 0 && (size_t)i < json_array_size(out))
                json_array_set_new(out, (size_t)i, merge(json_array_get(b, (size_t)i), v,
                                                         depth + 1));
        }
        return out;
    }
    return json_incref(p);
}

static void accepted(const ch_state *st, const ch_state *base_state)
{
    ch_msg why;
    if (ch_validate(st, &why) != CH_OK)
        fz_fail("an accepted state fails ch_validate", why.text);
    if (memcmp(st, base_state, sizeof *st) == 0)
        return; /* the base round trip was checked at the start */
    char *out = ch_state_to_json(st);
    static ch_state again;
    if (!out)
        fz_fail("an accepted state cannot be written", NULL);
    if (ch_state_from_json(&again, out, &why) != CH_OK)
        fz_fail("a written state does not load again", why.text);
    if (memcmp(st, &again, sizeof *st) != 0)
        fz_fail("a written state loads as another state", out);
    ch_free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!base[0])
        init();
    if (size < 1)
        return 0;
    unsigned pick = data[0] % FZ_NSTATES;
    static ch_state st, before;
    memset(&st, 0xA5, sizeof st);
    before = st;
    ch_msg why = {{0}};
    json_error_t e;
    json_t *patch = json_loadb((const char *)data + 1, size - 1, JSON_REJECT_DUPLICATES, &e);
    int rc;
    if (json_is_object(patch)) {
        json_t *doc = merge(base[pick], patch, 0);
        rc = json_state_read(&st, doc, &why);
        json_decref(doc);
    } else {
        char *text = fz_strndup(data + 1, size - 1);
        rc = ch_state_from_json(&st, text, &why);
        free(text);
    }
    json_decref(patch);
    if (rc != CH_OK) {
        if (!why.text[0])
            fz_fail("a refused state has no reason", NULL);
        if (memcmp(&st, &before, sizeof st) != 0)
            fz_fail("a refused state changed the output", why.text);
    } else {
        accepted(&st, fz_state(pick));
    }
    return 0;
}

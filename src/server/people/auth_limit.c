/* auth_limit.c: how many login, sign-up, guest and password-change attempts
 * a key (an address, a user name and address, a user name, an account) may
 * make: a count per key over a window of 10 minutes (lichess: 10 per user
 * name and 200 per address). The keys are kept in one hash table of bounded
 * size on the event loop, by a 128-bit hash of the key (so a long user name
 * or address cannot make two keys one); an expired entry is reused, and when
 * the table is full of live entries a new key is refused (so a flood of
 * addresses cannot grow memory without end, and refusing is the safe side).
 *
 * A user name as a whole is not locked (issue 28: nine sign-ups with a taken
 * name locked its owner out): past its allowance a name is slowed down, one
 * attempt per gap (srv_limit_slow), and an address that logged in to it
 * before is not slowed at all (srv_limit_mark, srv_limit_known: a table of
 * its own that forgets its oldest entry when full, so that it never
 * refuses anything).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "people/people.h"

#define LIM_WINDOW_MS (10 * 60 * 1000)
#define LIM_SLOTS 65536  /* a power of two */
#define LIM_PROBE 32
#define KNOWN_MS (30LL * 86400 * 1000) /* as long as a session lasts */
#define KNOWN_SLOTS 8192 /* a power of two */
#define KNOWN_PROBE 8

typedef struct {
    unsigned char key[16];  /* BLAKE2b-128 of the key */
    int64_t start_ms;       /* the window began; 0: free slot */
    int64_t last_ms;        /* the last attempt let through (srv_limit_slow) */
    int count;
} lim_slot;

static lim_slot *slots, *known;

static void key_hash(const char *k, unsigned char out[16])
{
    crypto_generichash(out, 16, (const unsigned char *)k, strlen(k), NULL, 0);
}

static unsigned slot_of(const unsigned char h[16])
{
    unsigned v;
    memcpy(&v, h, sizeof v);
    return v;
}

/* The live slot of key (window_ms), or a free one set up for it (count 0),
   or NULL when every slot it may use is live. */
static lim_slot *find(lim_slot *tab, unsigned mask, int probe, int64_t window_ms,
                      const char *key, int64_t now_ms, int evict)
{
    unsigned char h[16];
    key_hash(key, h);
    unsigned at = slot_of(h);
    lim_slot *free_slot = NULL, *oldest = NULL;
    for (int i = 0; i < probe; i++) {
        lim_slot *s = &tab[(at + (unsigned)i) & mask];
        int live = s->start_ms && now_ms - s->start_ms < window_ms;
        if (live && memcmp(s->key, h, sizeof h) == 0)
            return s;
        if (!live && !free_slot)
            free_slot = s;
        if (!oldest || s->start_ms < oldest->start_ms)
            oldest = s;
    }
    if (!free_slot && evict)
        free_slot = oldest;
    if (!free_slot)
        return NULL;
    memcpy(free_slot->key, h, sizeof h);
    free_slot->start_ms = now_ms;
    free_slot->last_ms = 0;
    free_slot->count = 0;
    return free_slot;
}

static int table(void)
{
    if (!slots && !(slots = calloc(LIM_SLOTS, sizeof *slots)))
        return -1;
    return 0;
}

int srv_limit_take(const char *key, int limit, int64_t now_ms, int *retry_s)
{
    if (retry_s)
        *retry_s = 0;
    if (limit <= 0) /* 0: no limit (set by the operator) */
        return 1;
    lim_slot *s = table() == 0 ? find(slots, LIM_SLOTS - 1, LIM_PROBE, LIM_WINDOW_MS, key,
                                      now_ms, 0) : NULL;
    if (!s) {
        if (retry_s)
            *retry_s = 60;
        return 0;
    }
    if (s->count >= limit) {
        if (retry_s)
            *retry_s = (int)((s->start_ms + LIM_WINDOW_MS - now_ms + 999) / 1000);
        return 0;
    }
    s->count++;
    return 1;
}

int srv_limit_slow(const char *key, int burst, int gap_ms, int64_t now_ms, int *retry_s)
{
    if (retry_s)
        *retry_s = 0;
    if (burst <= 0)
        return 1;
    lim_slot *s = table() == 0 ? find(slots, LIM_SLOTS - 1, LIM_PROBE, LIM_WINDOW_MS, key,
                                      now_ms, 0) : NULL;
    if (!s) {
        if (retry_s)
            *retry_s = 60;
        return 0;
    }
    if (s->count >= burst && now_ms - s->last_ms < gap_ms) {
        if (retry_s)
            *retry_s = (int)((s->last_ms + gap_ms - now_ms + 999) / 1000);
        return 0;
    }
    s->count++;
    s->last_ms = now_ms;
    return 1;
}

void srv_limit_mark(const char *key, int64_t now_ms)
{
    if (!known && !(known = calloc(KNOWN_SLOTS, sizeof *known)))
        return;
    lim_slot *s = find(known, KNOWN_SLOTS - 1, KNOWN_PROBE, KNOWN_MS, key, now_ms, 1);
    if (s)
        s->start_ms = now_ms; /* 30 days from the last good login */
}

int srv_limit_known(const char *key, int64_t now_ms)
{
    if (!known)
        return 0;
    unsigned char h[16];
    key_hash(key, h);
    unsigned at = slot_of(h);
    for (int i = 0; i < KNOWN_PROBE; i++) {
        const lim_slot *s = &known[(at + (unsigned)i) & (KNOWN_SLOTS - 1)];
        if (s->start_ms && now_ms - s->start_ms < KNOWN_MS && memcmp(s->key, h, sizeof h) == 0)
            return 1;
    }
    return 0;
}

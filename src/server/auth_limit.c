/* auth_limit.c: how many login, sign-up and guest attempts a user name or an
 * address may make: a count per key over a window of 10 minutes (lichess:
 * 10 per user name and 200 per address). The keys are kept in one hash
 * table of bounded size on the event loop; an expired entry is reused, and
 * when the table is full of live entries a new key is refused (so a flood of
 * addresses cannot grow memory without end, and refusing is the safe side).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server.h"

#define LIM_WINDOW_MS (10 * 60 * 1000)
#define LIM_SLOTS 65536  /* a power of two */
#define LIM_PROBE 32

typedef struct {
    char key[72];
    int64_t start_ms;   /* the window began; 0: free slot */
    int count;
} lim_slot;

static lim_slot *slots;

static unsigned hash_key(const char *k)
{
    unsigned h = 2166136261u;
    for (; *k; k++)
        h = (h ^ (unsigned char)*k) * 16777619u;
    return h;
}

int srv_limit_take(const char *key, int limit, int64_t now_ms, int *retry_s)
{
    if (retry_s)
        *retry_s = 0;
    if (limit <= 0) /* 0: no limit (set by the operator) */
        return 1;
    if (!slots && !(slots = calloc(LIM_SLOTS, sizeof *slots)))
        return 0;
    unsigned h = hash_key(key);
    lim_slot *free_slot = NULL;
    for (int i = 0; i < LIM_PROBE; i++) {
        lim_slot *s = &slots[(h + (unsigned)i) & (LIM_SLOTS - 1)];
        int live = s->start_ms && now_ms - s->start_ms < LIM_WINDOW_MS;
        if (live && strncmp(s->key, key, sizeof s->key - 1) == 0) {
            if (s->count >= limit) {
                if (retry_s)
                    *retry_s = (int)((s->start_ms + LIM_WINDOW_MS - now_ms + 999) / 1000);
                return 0;
            }
            s->count++;
            return 1;
        }
        if (!live && !free_slot)
            free_slot = s;
    }
    if (!free_slot) {
        if (retry_s)
            *retry_s = 60;
        return 0;
    }
    snprintf(free_slot->key, sizeof free_slot->key, "%s", key);
    free_slot->start_ms = now_ms;
    free_slot->count = 1;
    return 1;
}

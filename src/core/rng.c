/* rng.c: the deterministic random generator held inside ch_state (xoshiro256**,
 * seeded through splitmix64). Every shuffle of a game draws from it, so a game
 * is reproducible from its setup, seed and move list. The public
 * ch_rng_* functions give callers the same generator. */
#include "internal.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void rng_seed(uint64_t *s, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        s[i] = splitmix64(&x);
}

#if !defined(__POPCNT__) && defined(__x86_64__) && defined(__GNUC__)
int core_have_popcnt;
/* At load time: may popc64 (internal.h) use the POPCNT instruction? */
__attribute__((constructor)) static void detect_popcnt(void)
{
    __builtin_cpu_init();
    core_have_popcnt = __builtin_cpu_supports("popcnt") != 0;
}
#endif

void rng_shuffle(uint64_t *s, uint8_t *a, int n)
{
    /* the generator in locals: the byte stores to a[] may alias s, which
     * would otherwise be reloaded and stored at every step */
    uint64_t r[4] = {s[0], s[1], s[2], s[3]};
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint32_t)i + 1);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
    memcpy(s, r, sizeof r);
}

void ch_rng_seed(ch_rng *r, uint64_t seed)
{
    rng_seed(r->s, seed);
}

uint64_t ch_rng_next(ch_rng *r)
{
    return rng_next(r->s);
}

uint32_t ch_rng_below(ch_rng *r, uint32_t n)
{
    return n ? rng_below(r->s, n) : 0; /* the library never aborts on input */
}

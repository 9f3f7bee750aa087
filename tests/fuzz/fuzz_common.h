/* fuzz_common.h: what the libFuzzer harnesses of tests/fuzz share: a small
 * set of game states of both editions (new games and random games stopped
 * at several points), built once per process, and a way to turn fuzz bytes
 * into a NUL-terminated string. Nothing here is timed or depends on the
 * machine: every state comes from fixed seeds. */
#ifndef CH_FUZZ_COMMON_H
#define CH_FUZZ_COMMON_H
#include <stddef.h>
#include <stdint.h>

#include "chartered.h"

#define FZ_NSTATES 16

/* The states (built at the first call): even indices Building Amsterdam,
 * odd ones The Golden Age (with events), from the start to late games. */
const ch_state *fz_state(unsigned i);
/* The player deciding in st (the lowest of the decider mask), else 0. */
int fz_decider(const ch_state *st);
/* A malloc'd NUL-terminated copy of data[0..size) (aborts when out of
 * memory: the fuzzer's own failure, not the code's). */
char *fz_strndup(const uint8_t *data, size_t size);
/* Abort with a message: a property the harness checks does not hold. */
void fz_fail(const char *what, const char *detail);
#endif

/* abi.c: what a binding asks the library about itself (chartered.h, "the
 * library itself"): its version and the size of ch_state, so that a binding
 * that declares the public structs from its own copy of the header (the
 * Python package, python/chartered/_lib.py) can refuse a library built from
 * another header instead of corrupting memory. */
#include "internal.h"

const char *ch_version(void)
{
    return CH_VERSION;
}

size_t ch_state_size(void)
{
    return sizeof(ch_state);
}

/* bench_alloc.c: heap-allocation counting for `chartered bench`. Defines
 * malloc, calloc, realloc and free for the program, forwarding to glibc's
 * __libc_malloc & co., and counts calls only between bench_alloc_start() and
 * bench_alloc_stop() (the bench loop, which is single-threaded). Under a
 * sanitizer, which brings its own allocator, nothing is overridden and the
 * count is reported as unavailable.
 */
#include <stddef.h>

#include "cli.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CLI_NO_ALLOC_OVERRIDE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||   \
    __has_feature(memory_sanitizer)
#define CLI_NO_ALLOC_OVERRIDE 1
#endif
#endif
#if !defined(__GLIBC__) && !defined(__linux__)
#define CLI_NO_ALLOC_OVERRIDE 1
#endif

static int counting;
static unsigned long long allocations;

void bench_alloc_start(void)
{
    allocations = 0;
    counting = 1;
}

void bench_alloc_stop(void)
{
    counting = 0;
}

unsigned long long bench_alloc_count(void)
{
    return allocations;
}

#ifdef CLI_NO_ALLOC_OVERRIDE

int bench_alloc_available(void)
{
    return 0;
}

#else

int bench_alloc_available(void)
{
    return 1;
}

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);

void *malloc(size_t size)
{
    if (counting)
        allocations++;
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    if (counting)
        allocations++;
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
    if (counting)
        allocations++;
    return __libc_realloc(p, size);
}

void free(void *p)
{
    __libc_free(p);
}

#endif

/* loopstats.c: an opt-in account of the event loop's time and of each stage
 * of a move, for finding what sets the tail of the move-to-frame latency
 * (issue 14, docs/performance.md). Off unless CHARTERED_LOOP_STATS names a
 * file; then the server writes its report there when it stops:
 *
 *  - the busy time of each loop iteration (from epoll's return to the next
 *    wait, the flush of frames included): a histogram, its p50/p99/max;
 *  - the loop's time by section (reading frames, the workers' results, the
 *    flush of frames, the commit hand-over, each part of the periodic tick,
 *    and what is left: libwebsockets' own work), in every iteration and in
 *    the long ones (over 5 ms) only, and the slowest iterations with their
 *    sections and when they happened;
 *  - the stages of a move: from its frame read to its commit handed to the
 *    writer, the commit's round trip (and the writer's own time in it), from
 *    the commit back to each state frame written, and from the move read to
 *    each state frame of its decision written (the server's share of what
 *    bench/loadgen measures). With the sender thread (sender.c), a frame
 *    counts as written when the thread's send() returned, and the stage
 *    "handed to sender -> sent" is each job's wait and send there;
 *  - the sender thread's own busy and CPU time, jobs, bytes, partial and
 *    failed sends (not part of the loop's busy time).
 *
 * Everything is counted on the loop's thread (the writer's time comes back
 * in its job), so nothing here takes a lock. When off, each probe is one
 * test of a global flag.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net/net.h"

int srv_ls_on;

/* A histogram of microseconds: 10 µs steps to 100 ms, then the rest. */
#define LS_BUCKETS 10000
#define LS_STEP_US 10
typedef struct ls_hist {
    uint64_t n, sum, max;
    uint32_t b[LS_BUCKETS + 1];
} ls_hist;

static const char *const hist_name[SRV_LS_NHIST] = {
    "loop iteration (busy)",
    "move read -> commit handed over", /* per game and batch: its first move */
    "commit round trip",
    "commit: the writer's own time",
    "commit back -> state frame written",
    "move read -> state frame written",
    "handed to sender -> sent", /* per client and flush (sender.c) */
};

static const char *const sec_name[SRV_LS_NSEC] = {
    "read frames (receive)", "workers' results (drain)", "flush of frames", "commit hand-over",
    "writable callbacks", "tick: turn timers", "tick: eviction", "tick: turn-based wake",
    "tick: storage", "tick: cluster", "tick: limits", "http",
};

#define LS_LONG_US 5000 /* an iteration this long counts as long */
#define LS_SLOWEST 12

typedef struct ls_iter {
    int64_t at_us, busy, cpu;
    int64_t sec[SRV_LS_NSEC];
} ls_iter;

/* One line a second: the loop's busy and CPU time in it, its longest
 * iteration, the state frames written and how many of them came more than
 * 20 ms after their move was read, and the slowest of them. */
#define LS_SECONDS 3600
typedef struct ls_second {
    int64_t busy, cpu, longest, slowest, commit, write, cframe;
    uint32_t iters, frames, late, moves;
} ls_second;

static struct {
    char *path;
    int64_t start_us;
    ls_hist h[SRV_LS_NHIST];
    int64_t iter_start;       /* 0: not in an iteration */
    int64_t iter_cpu;         /* the loop thread's CPU time then */
    ls_second per_s[LS_SECONDS];
    int64_t cpu_all, cpu_long;
    ls_iter cur;
    int64_t sec_all[SRV_LS_NSEC], sec_long[SRV_LS_NSEC];
    uint64_t sec_max[SRV_LS_NSEC];
    int64_t busy_all, busy_long, other_all, other_long;
    uint64_t nlong;
    ls_iter slow[LS_SLOWEST];
} ls;

static int64_t thread_cpu_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static ls_second *second_of(int64_t now)
{
    int64_t i = (now - ls.start_us) / 1000000;
    return i >= 0 && i < LS_SECONDS ? &ls.per_s[i] : NULL;
}

int64_t srv_ls_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void srv_ls_start(void)
{
    const char *p = getenv("CHARTERED_LOOP_STATS");
    if (!p || !*p)
        return;
    ls.path = strdup(p);
    if (!ls.path)
        return;
    ls.start_us = srv_ls_now();
    srv_ls_on = 1;
}

void srv_ls_add(int h, int64_t us)
{
    if (!srv_ls_on || h < 0 || h >= SRV_LS_NHIST)
        return;
    if (us < 0)
        us = 0;
    ls_hist *x = &ls.h[h];
    uint64_t i = (uint64_t)us / LS_STEP_US;
    x->b[i < LS_BUCKETS ? i : LS_BUCKETS]++;
    x->n++;
    x->sum += (uint64_t)us;
    if ((uint64_t)us > x->max)
        x->max = (uint64_t)us;
    ls_second *ps = h != SRV_LS_ITER ? second_of(srv_ls_now()) : NULL;
    if (!ps)
        return;
    if (h == SRV_LS_COMMIT && us > ps->commit)
        ps->commit = us;
    else if (h == SRV_LS_WRITE && us > ps->write)
        ps->write = us;
    else if (h == SRV_LS_COMMIT_FRAME && us > ps->cframe)
        ps->cframe = us;
    else if (h == SRV_LS_MOVE_FRAME) {
        ps->frames++;
        if (us > 20000)
            ps->late++;
        if (us > ps->slowest)
            ps->slowest = us;
    }
}

void srv_ls_moves(int k)
{
    ls_second *ps = srv_ls_on ? second_of(srv_ls_now()) : NULL;
    if (ps)
        ps->moves += (uint32_t)k;
}

void srv_ls_sec_end(int sec, int64_t t0)
{
    if (!srv_ls_on || sec < 0 || sec >= SRV_LS_NSEC)
        return;
    int64_t d = srv_ls_now() - t0;
    ls.cur.sec[sec] += d;
    if ((uint64_t)d > ls.sec_max[sec])
        ls.sec_max[sec] = (uint64_t)d;
}

void srv_ls_iter_begin(void)
{
    if (!srv_ls_on)
        return;
    ls.iter_start = srv_ls_now();
    ls.iter_cpu = thread_cpu_us();
    memset(&ls.cur, 0, sizeof ls.cur);
}

void srv_ls_iter_end(void)
{
    if (!srv_ls_on || !ls.iter_start)
        return;
    int64_t now = srv_ls_now();
    int64_t busy = now - ls.iter_start;
    int64_t cpu = thread_cpu_us() - ls.iter_cpu;
    ls.iter_start = 0;
    srv_ls_add(SRV_LS_ITER, busy);
    ls.cpu_all += cpu;
    ls_second *ps = second_of(now);
    if (ps) {
        ps->busy += busy;
        ps->cpu += cpu;
        ps->iters++;
        if (busy > ps->longest)
            ps->longest = busy;
    }
    int64_t secs = 0;
    for (int s = 0; s < SRV_LS_NSEC; s++) {
        ls.sec_all[s] += ls.cur.sec[s];
        secs += ls.cur.sec[s];
    }
    ls.busy_all += busy;
    ls.other_all += busy - secs;
    if (busy >= LS_LONG_US) {
        ls.nlong++;
        ls.busy_long += busy;
        ls.cpu_long += cpu;
        ls.other_long += busy - secs;
        for (int s = 0; s < SRV_LS_NSEC; s++)
            ls.sec_long[s] += ls.cur.sec[s];
    }
    /* the slowest iterations, kept sorted, slowest first */
    if (busy > ls.slow[LS_SLOWEST - 1].busy) {
        ls.cur.busy = busy;
        ls.cur.cpu = cpu;
        ls.cur.at_us = now - ls.start_us;
        int i = LS_SLOWEST - 1;
        while (i > 0 && ls.slow[i - 1].busy < busy) {
            ls.slow[i] = ls.slow[i - 1];
            i--;
        }
        ls.slow[i] = ls.cur;
    }
}

static double pct(const ls_hist *x, double q)
{
    if (!x->n)
        return 0;
    uint64_t want = (uint64_t)((double)x->n * q), seen = 0;
    for (int i = 0; i <= LS_BUCKETS; i++) {
        seen += x->b[i];
        if (seen > want)
            return i < LS_BUCKETS ? (double)(i + 1) * LS_STEP_US / 1000.0 : (double)x->max / 1000.0;
    }
    return (double)x->max / 1000.0;
}

void srv_ls_report(uint64_t moves)
{
    if (!srv_ls_on)
        return;
    FILE *f = fopen(ls.path, "w");
    if (!f) {
        fprintf(stderr, "chartered: serve: cannot write CHARTERED_LOOP_STATS to %s\n", ls.path);
        return;
    }
    double wall = (double)(srv_ls_now() - ls.start_us) / 1e6;
    fprintf(f, "# chartered serve: loop statistics (CHARTERED_LOOP_STATS), %.1f s, %llu moves stored\n",
            wall, (unsigned long long)moves);
    fprintf(f, "# stage: count, mean, p50, p99, p99.9, max (ms; p* to the next 0.01 ms)\n");
    for (int h = 0; h < SRV_LS_NHIST; h++) {
        const ls_hist *x = &ls.h[h];
        fprintf(f, "stage %-36s n %llu mean %.2f p50 %.2f p99 %.2f p99.9 %.2f max %.2f\n",
                hist_name[h], (unsigned long long)x->n,
                x->n ? (double)x->sum / (double)x->n / 1000.0 : 0.0, pct(x, 0.5), pct(x, 0.99),
                pct(x, 0.999), (double)x->max / 1000.0);
    }
    fprintf(f, "# the loop's busy time by section: all iterations (share), long ones (>= %d ms: "
            "%llu, %.1f s busy), the longest single run\n",
            LS_LONG_US / 1000, (unsigned long long)ls.nlong, (double)ls.busy_long / 1e6);
    fprintf(f, "busy %.3f s of %.1f s (%.0f%% of the loop thread), of it CPU %.3f s; in long "
            "iterations CPU %.3f s\n", (double)ls.busy_all / 1e6,
            wall, wall > 0 ? 100.0 * (double)ls.busy_all / 1e6 / wall : 0.0,
            (double)ls.cpu_all / 1e6, (double)ls.cpu_long / 1e6);
    for (int s = 0; s < SRV_LS_NSEC; s++)
        fprintf(f, "section %-28s all %.3f s (%4.1f%%) long %.3f s max %.2f ms\n", sec_name[s],
                (double)ls.sec_all[s] / 1e6,
                ls.busy_all ? 100.0 * (double)ls.sec_all[s] / (double)ls.busy_all : 0.0,
                (double)ls.sec_long[s] / 1e6, (double)ls.sec_max[s] / 1000.0);
    fprintf(f, "section %-28s all %.3f s (%4.1f%%) long %.3f s\n", "other (libwebsockets, libev)",
            (double)ls.other_all / 1e6,
            ls.busy_all ? 100.0 * (double)ls.other_all / (double)ls.busy_all : 0.0,
            (double)ls.other_long / 1e6);
    srv_sender_counts sc;
    srv_sender_stats(&sc);
    if (sc.on)
        fprintf(f, "sender thread: busy %.3f s, CPU %.3f s, %llu batches, %llu jobs, %llu bytes, "
                "%llu partial, %llu failed, %llu closed while out\n", (double)sc.busy_us / 1e6, (double)sc.cpu_us / 1e6,
                (unsigned long long)sc.batches, (unsigned long long)sc.jobs,
                (unsigned long long)sc.bytes, (unsigned long long)sc.partial,
                (unsigned long long)sc.failed, (unsigned long long)sc.forgotten);
    else
        fprintf(f, "sender thread: off (frames written on the loop)\n");
    fprintf(f, "# the slowest iterations: when (s after the start), busy ms, then each section's ms\n");
    for (int i = 0; i < LS_SLOWEST && ls.slow[i].busy; i++) {
        const ls_iter *it = &ls.slow[i];
        fprintf(f, "slow at %.3f busy %.2f cpu %.2f:", (double)it->at_us / 1e6,
                (double)it->busy / 1000.0, (double)it->cpu / 1000.0);
        int64_t secs = 0;
        for (int s = 0; s < SRV_LS_NSEC; s++) {
            secs += it->sec[s];
            if (it->sec[s] >= 100)
                fprintf(f, " [%s %.2f]", sec_name[s], (double)it->sec[s] / 1000.0);
        }
        fprintf(f, " [other %.2f]\n", (double)(it->busy - secs) / 1000.0);
    }
    fprintf(f, "# each second: s, moves stored, iterations, loop busy ms, loop CPU "
            "ms, longest iteration ms, state frames, frames > 20 ms after their move, slowest "
            "frame ms; the slowest commit round trip, writer's time, commit back -> frame ms\n");
    int last = (int)((srv_ls_now() - ls.start_us) / 1000000);
    for (int i = 0; i <= last && i < LS_SECONDS; i++) {
        const ls_second *ps = &ls.per_s[i];
        if (!ps->iters && !ps->moves)
            continue;
        fprintf(f, "second %d moves %u iters %u busy %.1f cpu %.1f longest %.2f frames %u late %u "
                "slowest %.2f commit %.2f write %.2f cframe %.2f\n", i, ps->moves, ps->iters,
                (double)ps->busy / 1000.0, (double)ps->cpu / 1000.0, (double)ps->longest / 1000.0,
                ps->frames, ps->late, (double)ps->slowest / 1000.0, (double)ps->commit / 1000.0,
                (double)ps->write / 1000.0, (double)ps->cframe / 1000.0);
    }
    fclose(f);
}

/* bench_login.c: logins per second of a running `chartered serve`, and what
 * they cost everyone else: the event loop's latency while they run (issue 14:
 * "logins per second on one core, and the event loop's p99 while logins
 * run"). Passwords are hashed with argon2id on the server's one password
 * thread (src/server/people/auth_hash.c), so the logins per second are one core's.
 *
 *   bench_login [--host 127.0.0.1] [--port 8080] [--seconds 10] [--clients 4]
 *
 * It signs up one account, then --clients connections log in with it over
 * and over (HTTP/1.1 keep-alive) for --seconds, while a probe connection
 * sends GET /api/health every 5 ms and times each answer: an answer is
 * written by the event loop itself, so its latency is the loop's. The probe
 * also runs alone for the same time first, as the baseline. The server must
 * allow that many attempts: start it with CHARTERED_AUTH_LIMITS=0,0,0.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const char *host = "127.0.0.1";
static int port = 8080, seconds = 10, nclients = 4;
static volatile int running;
static long logins_ok, logins_bad;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static char user[32];

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int dial(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    inet_pton(AF_INET, host, &a.sin_addr);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* One request on a keep-alive connection; the status, or -1 (reconnect). */
static int request(int fd, const char *method, const char *path, const char *body)
{
    char req[1024], buf[8192];
    size_t bl = body ? strlen(body) : 0;
    int n = snprintf(req, sizeof req,
                     "%s %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"
                     "Content-Length: %zu\r\n\r\n%s", method, path, host, bl, body ? body : "");
    if (send(fd, req, (size_t)n, MSG_NOSIGNAL) != n)
        return -1;
    size_t len = 0;
    for (;;) {
        ssize_t r = recv(fd, buf + len, sizeof buf - 1 - len, 0);
        if (r <= 0)
            return -1;
        len += (size_t)r;
        buf[len] = 0;
        char *end = strstr(buf, "\r\n\r\n");
        if (!end)
            continue;
        char *cl = strcasestr(buf, "content-length:");
        size_t want = cl ? (size_t)atol(cl + 15) : 0;
        if (len >= (size_t)(end + 4 - buf) + want)
            break;
        if (len >= sizeof buf - 1)
            return -1;
    }
    return atoi(buf + 9);
}

static void *login_loop(void *arg)
{
    (void)arg;
    char body[128];
    snprintf(body, sizeof body, "{\"name\":\"%s\",\"password\":\"bench password\"}", user);
    int fd = dial();
    while (running) {
        int st = fd >= 0 ? request(fd, "POST", "/api/login", body) : -1;
        if (st < 0) {
            if (fd >= 0)
                close(fd);
            fd = dial();
            continue;
        }
        pthread_mutex_lock(&mu);
        if (st == 200 && running)
            logins_ok++;
        else if (running)
            logins_bad++;
        pthread_mutex_unlock(&mu);
    }
    if (fd >= 0)
        close(fd);
    return NULL;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Probe the loop for `secs`: GET /api/health every 5 ms; prints p50/p99/max. */
static void probe(const char *what, double secs)
{
    int fd = dial();
    size_t cap = (size_t)(secs * 250) + 16, n = 0;
    double *lat = malloc(cap * sizeof *lat);
    double end = now_s() + secs;
    while (now_s() < end && n < cap && fd >= 0) {
        double t = now_s();
        if (request(fd, "GET", "/api/health", NULL) != 200)
            break;
        lat[n++] = (now_s() - t) * 1000;
        usleep(5000);
    }
    if (fd >= 0)
        close(fd);
    qsort(lat, n, sizeof *lat, cmpd);
    if (n)
        printf("%s: loop latency (GET /api/health) p50 %.2f ms, p99 %.2f ms, max %.2f ms "
               "(%zu probes)\n", what, lat[n / 2], lat[(size_t)((double)n * 0.99)], lat[n - 1],
               n);
    else
        printf("%s: no probe answered\n", what);
    free(lat);
}

int main(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--host"))
            host = argv[i + 1];
        else if (!strcmp(argv[i], "--port"))
            port = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seconds"))
            seconds = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--clients"))
            nclients = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "usage: bench_login [--host H] [--port P] [--seconds S] "
                    "[--clients N]\n");
            return 2;
        }
    }
    if (seconds < 1 || nclients < 1 || nclients > 64) {
        fprintf(stderr, "bench_login: --seconds from 1, --clients 1 to 64\n");
        return 2;
    }
    snprintf(user, sizeof user, "bench%ld", (long)time(NULL) % 1000000);
    int fd = dial();
    char body[128];
    snprintf(body, sizeof body, "{\"name\":\"%s\",\"password\":\"bench password\"}", user);
    int st = fd >= 0 ? request(fd, "POST", "/api/signup", body) : -1;
    if (fd >= 0)
        close(fd);
    if (st != 201) {
        fprintf(stderr, "bench_login: sign-up answered %d (is the server on %s:%d, started "
                "with CHARTERED_AUTH_LIMITS=0,0,0?)\n", st, host, port);
        return 1;
    }
    probe("idle", seconds);
    running = 1;
    pthread_t th[64];
    for (int i = 0; i < nclients; i++)
        pthread_create(&th[i], NULL, login_loop, NULL);
    double t0 = now_s();
    probe("during logins", seconds);
    running = 0;
    double dt = now_s() - t0;
    for (int i = 0; i < nclients; i++)
        pthread_join(th[i], NULL);
    printf("logins: %ld in %.1f s = %.1f logins/s (%d clients; %ld refused)\n", logins_ok, dt,
           (double)logins_ok / dt, nclients, logins_bad);
    return logins_bad ? 1 : 0;
}

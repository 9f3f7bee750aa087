/* listen.c: the address `chartered serve --host` listens on, exactly.
 *
 * libwebsockets 4.1 built with IPv6 (Debian's is) opens an AF_INET6 socket
 * and, handed an IPv4 literal as the vhost's `iface`, binds it to every
 * address (its issue #2290): `--host 127.0.0.1` listened on `*:PORT`, and an
 * operator who believed the server private was exposed. So the host is
 * resolved here, before lws sees it:
 *   - an IPv4 literal (127.0.0.1) is passed with LWS_SERVER_OPTION_DISABLE_IPV6,
 *     so lws opens an AF_INET socket and binds it to that address;
 *   - an IPv6 literal (::1) is passed as it is, IPv6-only (IPV6_V6ONLY);
 *   - an interface name (lo, eth0) stands for its first IPv4 address, else
 *     its first IPv6 address that is not link-local, bound as that literal;
 *   - any other name (localhost) is resolved with getaddrinfo, and its
 *     first address is used as the literal above.
 * Then, after lws has bound, srv_listen_verify reads back the address of
 * every listening socket of this process on the port and refuses to start
 * unless each one is exactly the address asked for: whatever a future lws
 * does, the server never listens wider than the operator said.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include "net/net.h"

/* The address of interface `name` as a literal: its first IPv4 address, else
 * its first IPv6 address that is not link-local (one that needs no scope).
 * 0, or -1 when it has none. */
static int iface_addr(const char *name, char *out, size_t n, int *family)
{
    struct ifaddrs *ifs, *i;
    int got = 0;
    if (getifaddrs(&ifs) != 0)
        return -1;
    for (int pass = 0; pass < 2 && !got; pass++)
        for (i = ifs; i && !got; i = i->ifa_next) {
            if (!i->ifa_addr || strcmp(i->ifa_name, name) != 0)
                continue;
            if (pass == 0 && i->ifa_addr->sa_family == AF_INET) {
                inet_ntop(AF_INET, &((struct sockaddr_in *)i->ifa_addr)->sin_addr, out,
                          (socklen_t)n);
                *family = AF_INET;
                got = 1;
            } else if (pass == 1 && i->ifa_addr->sa_family == AF_INET6) {
                struct in6_addr *a = &((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr;
                if (IN6_IS_ADDR_LINKLOCAL(a))
                    continue;
                inet_ntop(AF_INET6, a, out, (socklen_t)n);
                *family = AF_INET6;
                got = 1;
            }
        }
    freeifaddrs(ifs);
    return got ? 0 : -1;
}

int srv_listen_resolve(srv_listen *l, const char *host, char *why, size_t n)
{
    memset(l, 0, sizeof *l);
    if (!host || !*host) { /* every interface, as documented */
        l->any = 1;
        return 0;
    }
    struct in_addr a4;
    struct in6_addr a6;
    if (inet_pton(AF_INET, host, &a4) == 1) {
        l->family = AF_INET;
    } else if (inet_pton(AF_INET6, host, &a6) == 1) {
        l->family = AF_INET6;
    } else if (if_nametoindex(host) != 0) {
        /* an interface: its address, bound as a literal (lws would bind an
           IPv4-mapped address on a dual-stack socket) */
        l->is_iface = 1;
        if (iface_addr(host, l->iface, sizeof l->iface, &l->family) != 0) {
            snprintf(why, n, "--host %s: the interface has no usable address", host);
            return -1;
        }
        return 0;
    } else {
        struct addrinfo hints, *res = NULL;
        memset(&hints, 0, sizeof hints);
        hints.ai_socktype = SOCK_STREAM;
        hints.ai_family = AF_UNSPEC;
        int rc = getaddrinfo(host, NULL, &hints, &res);
        if (rc != 0 || !res) {
            snprintf(why, n, "--host %s: neither an address nor an interface, and it does not "
                     "resolve (%s)", host, rc ? gai_strerror(rc) : "no address");
            return -1;
        }
        l->family = res->ai_family;
        if (res->ai_family == AF_INET)
            inet_ntop(AF_INET, &((struct sockaddr_in *)res->ai_addr)->sin_addr, l->iface,
                      sizeof l->iface);
        else
            inet_ntop(AF_INET6, &((struct sockaddr_in6 *)res->ai_addr)->sin6_addr, l->iface,
                      sizeof l->iface);
        freeaddrinfo(res);
        return 0;
    }
    /* the literal in its canonical text, as getsockname will give it back */
    if (l->family == AF_INET)
        inet_ntop(AF_INET, &a4, l->iface, sizeof l->iface);
    else
        inet_ntop(AF_INET6, &a6, l->iface, sizeof l->iface);
    return 0;
}

/* The address of listening socket fd as text, and its port; 0 or -1. */
static int sock_addr(int fd, char *text, size_t n, int *port)
{
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    int acc = 0;
    socklen_t al = sizeof acc;
    if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &acc, &al) != 0 || !acc)
        return -1;
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0)
        return -1;
    if (ss.ss_family == AF_INET) {
        struct sockaddr_in *s = (struct sockaddr_in *)&ss;
        inet_ntop(AF_INET, &s->sin_addr, text, (socklen_t)n);
        *port = ntohs(s->sin_port);
    } else if (ss.ss_family == AF_INET6) {
        struct sockaddr_in6 *s = (struct sockaddr_in6 *)&ss;
        inet_ntop(AF_INET6, &s->sin6_addr, text, (socklen_t)n);
        *port = ntohs(s->sin6_port);
    } else {
        return -1;
    }
    return 0;
}

int srv_listen_verify(const srv_listen *l, int port, char *bound, size_t bn, char *why,
                      size_t n)
{
    if (l->any) {
        snprintf(bound, bn, "*");
        return 0;
    }
    DIR *d = opendir("/proc/self/fd");
    if (!d) {
        snprintf(why, n, "cannot check the listening socket (/proc/self/fd)");
        return -1;
    }
    int found = 0, bad = 0;
    struct dirent *e;
    bound[0] = 0;
    while ((e = readdir(d)) != NULL) {
        char *end;
        long fd = strtol(e->d_name, &end, 10);
        char addr[INET6_ADDRSTRLEN];
        int p;
        if (*end || fd < 0 || fd == dirfd(d) || sock_addr((int)fd, addr, sizeof addr, &p) != 0 ||
            p != port)
            continue;
        if (strcmp(addr, l->iface) != 0) {
            snprintf(why, n, "asked to listen on %.64s, but a listening socket is bound to "
                     "%.64s port %d: refusing to start", l->iface, addr, port);
            bad = 1;
            break;
        }
        if (!found)
            snprintf(bound, bn, "%s", addr);
        found++;
    }
    closedir(d);
    if (bad)
        return -1;
    if (!found) {
        snprintf(why, n, "no listening socket found on port %d", port);
        return -1;
    }
    return 0;
}

/* paths.c: where `chartered serve` finds the browser client and the message
 * catalogues when no --web/--i18n flag is given (docs/install.md).
 *   - Run from its build tree (the executable sits in the build folder that
 *     CMake configured, CH_BUILD_DIR): the source tree's web/ and data/i18n/,
 *     so that an edit shows without installing.
 *   - Installed: PREFIX/share/chartered/web and .../i18n, found relative to
 *     the executable (PREFIX/bin/../share/chartered), so a package or a
 *     `cmake --install --prefix DIR` copy works wherever it lies; when that
 *     folder is missing, the prefix configured at build time (CH_SHARE_DIR).
 * The answer is worked out once and kept. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/api.h"

#ifndef CH_SRC_WEB_DIR
#define CH_SRC_WEB_DIR "web"
#endif
#ifndef CH_SRC_I18N_DIR
#define CH_SRC_I18N_DIR "data/i18n"
#endif
#ifndef CH_SHARE_DIR
#define CH_SHARE_DIR "/usr/share/chartered"
#endif

static char web_dir[PATH_MAX + 64], i18n_dir[PATH_MAX + 64];

/* The folder holding the running executable ("" when unknown). */
static void exe_dir(char *out, size_t n)
{
    char buf[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", buf, sizeof buf - 1);
    out[0] = '\0';
    if (len <= 0)
        return;
    buf[len] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash)
        return;
    *slash = '\0';
    snprintf(out, n, "%s", buf);
}

/* Are a and b the same folder (same device and inode)? */
static int same_dir(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

static void resolve(void)
{
    if (web_dir[0])
        return;
    char dir[PATH_MAX];
    exe_dir(dir, sizeof dir);
#ifdef CH_BUILD_DIR
    if (dir[0] && same_dir(CH_BUILD_DIR, dir)) {
        snprintf(web_dir, sizeof web_dir, "%s", CH_SRC_WEB_DIR);
        snprintf(i18n_dir, sizeof i18n_dir, "%s", CH_SRC_I18N_DIR);
        return;
    }
#endif
    /* PREFIX/bin/chartered -> PREFIX/share/chartered */
    char share[PATH_MAX + 32];
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    snprintf(share, sizeof share, "%s/share/chartered", dir);
    char web[PATH_MAX + 64];
    snprintf(web, sizeof web, "%s/web", share);
    const char *base = slash && access(web, R_OK) == 0 ? share : CH_SHARE_DIR;
    snprintf(web_dir, sizeof web_dir, "%s/web", base);
    snprintf(i18n_dir, sizeof i18n_dir, "%s/i18n", base);
}

const char *srv_default_web_dir(void)
{
    resolve();
    return web_dir;
}

const char *srv_default_i18n_dir(void)
{
    resolve();
    return i18n_dir;
}

/* opts.c: flag parsing for the chartered subcommands: `--flag value`,
 * `--flag=value`, short `-o value`, `--` and `--help`, with errors that name
 * the flag and say what value is expected.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const opt_spec *find_long(const opt_spec *specs, const char *name,
                                 size_t len)
{
    for (const opt_spec *s = specs; s && s->name; s++)
        if (strlen(s->name) == len && strncmp(s->name, name, len) == 0)
            return s;
    return NULL;
}

static const opt_spec *find_short(const opt_spec *specs, char c)
{
    for (const opt_spec *s = specs; s && s->name; s++)
        if (s->shortname && s->shortname == c)
            return s;
    return NULL;
}

static void flag_label(const opt_spec *s, char *buf, size_t n)
{
    snprintf(buf, n, "--%s", s->name);
}

/* Store the value text of a flag; EXIT_USAGE after a message. */
static int store(const char *cmd, const opt_spec *s, const char *val)
{
    char label[64];
    flag_label(s, label, sizeof label);
    switch (s->kind) {
    case OPT_FLAG:
        *(int *)s->dest = 1;
        break;
    case OPT_INT: {
        char *end;
        errno = 0;
        long long v = strtoll(val, &end, 10);
        if (*val == '\0' || *end != '\0' || errno == ERANGE || v < s->min ||
            v > s->max) {
            cli_error("chartered %s: %s expects a whole number from %lld to %lld, "
                      "got '%s'", cmd, label, s->min, s->max, val);
            return EXIT_USAGE;
        }
        *(int *)s->dest = (int)v;
        break;
    }
    case OPT_U64: {
        char *end;
        errno = 0;
        if (*val == '-' || *val == '\0') {
            cli_error("chartered %s: %s expects a whole number from 0 to "
                      "%" PRIu64 ", got '%s'", cmd, label, UINT64_MAX, val);
            return EXIT_USAGE;
        }
        unsigned long long v = strtoull(val, &end, 0);
        if (*end != '\0' || errno == ERANGE) {
            cli_error("chartered %s: %s expects a whole number from 0 to "
                      "%" PRIu64 ", got '%s'", cmd, label, UINT64_MAX, val);
            return EXIT_USAGE;
        }
        *(uint64_t *)s->dest = (uint64_t)v;
        break;
    }
    case OPT_DOUBLE: {
        char *end;
        errno = 0;
        double v = strtod(val, &end);
        if (*val == '\0' || *end != '\0' || errno == ERANGE || !isfinite(v) ||
            v <= 0) {
            cli_error("chartered %s: %s expects a positive number, got '%s'",
                      cmd, label, val);
            return EXIT_USAGE;
        }
        *(double *)s->dest = v;
        break;
    }
    case OPT_STR:
        if (*val == '\0') {
            cli_error("chartered %s: %s expects %s, got an empty value", cmd,
                      label, s->metavar ? s->metavar : "a value");
            return EXIT_USAGE;
        }
        *(const char **)s->dest = val;
        break;
    }
    if (s->seen)
        *s->seen = 1;
    return 0;
}

int opts_parse(const char *cmd, int argc, char **argv, const opt_spec *specs,
               char **pos, int *npos)
{
    int only_pos = 0;
    *npos = 0;
    for (int i = 0; i < argc; i++) {
        char *a = argv[i];
        if (only_pos || a[0] != '-' || a[1] == '\0') {
            pos[(*npos)++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_pos = 1;
            continue;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            return OPTS_HELP;
        const opt_spec *s;
        const char *val = NULL;
        char label[80];
        if (a[1] == '-') {
            const char *name = a + 2;
            const char *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            s = find_long(specs, name, len);
            snprintf(label, sizeof label, "--%.*s", (int)len, name);
            if (!s) {
                cli_error("chartered %s: unknown flag '%s' (see 'chartered %s "
                          "--help')", cmd, label, cmd);
                return EXIT_USAGE;
            }
            if (eq) {
                if (s->kind == OPT_FLAG) {
                    cli_error("chartered %s: %s takes no value, got '%s'", cmd,
                              label, eq + 1);
                    return EXIT_USAGE;
                }
                val = eq + 1;
            }
        } else {
            s = find_short(specs, a[1]);
            snprintf(label, sizeof label, "-%c", a[1]);
            if (!s) {
                cli_error("chartered %s: unknown flag '%s' (see 'chartered %s "
                          "--help')", cmd, a, cmd);
                return EXIT_USAGE;
            }
            if (a[2] != '\0') {
                if (s->kind == OPT_FLAG) {
                    cli_error("chartered %s: %s takes no value, got '%s'", cmd,
                              label, a + 2);
                    return EXIT_USAGE;
                }
                val = a + 2;
            }
        }
        if (s->kind != OPT_FLAG && !val) {
            if (i + 1 >= argc) {
                cli_error("chartered %s: %s expects %s after it", cmd, label,
                          s->metavar ? s->metavar : "a value");
                return EXIT_USAGE;
            }
            val = argv[++i];
        }
        int rc = store(cmd, s, val ? val : "");
        if (rc)
            return rc;
    }
    return 0;
}

void opts_help(FILE *f, const char *usage, const char *about,
               const opt_spec *specs)
{
    fprintf(f, "usage: %s\n", usage);
    if (about)
        fprintf(f, "\n%s\n", about);
    fprintf(f, "\nflags:\n");
    for (const opt_spec *s = specs; s && s->name; s++) {
        char left[64];
        if (s->shortname)
            snprintf(left, sizeof left, "-%c, --%s%s%s", s->shortname, s->name,
                     s->kind == OPT_FLAG ? "" : " ",
                     s->kind == OPT_FLAG ? "" : (s->metavar ? s->metavar : "V"));
        else
            snprintf(left, sizeof left, "    --%s%s%s", s->name,
                     s->kind == OPT_FLAG ? "" : " ",
                     s->kind == OPT_FLAG ? "" : (s->metavar ? s->metavar : "V"));
        fprintf(f, "  %-28s %s\n", left, s->help ? s->help : "");
    }
    fprintf(f, "  %-28s %s\n", "-h, --help", "show this help and exit");
}

int opts_start(const opt_cmd *cmd, int argc, char **argv, const opt_spec *specs,
               char **pos, int *npos, int *status)
{
    int rc = opts_parse(cmd->name, argc, argv, specs, pos, npos);
    if (rc == OPTS_HELP)
        opts_help(stdout, cmd->usage, cmd->about, specs);
    *status = rc == OPTS_HELP ? 0 : rc;
    if (rc)
        return 0;
    if (cmd->max_pos >= 0 && *npos > cmd->max_pos) {
        cli_error("chartered %s: unexpected argument '%s'%s%s%s", cmd->name,
                  pos[cmd->max_pos], cmd->hint ? " (" : "", cmd->hint ? cmd->hint : "",
                  cmd->hint ? ")" : "");
        *status = EXIT_USAGE;
        return 0;
    }
    return 1;
}

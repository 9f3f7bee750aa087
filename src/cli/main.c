/* main.c: entry point of the `chartered` command-line program: dispatches to
 * the subcommands (new, legal, apply, show, view, replay, selfplay, bench,
 * arena, analyze, review, play, serve)
 * and answers --version and help.
 */
#include <string.h>

#include "arena.h" /* src/arena: cmd_arena, cmd_analyze, cmd_review */
#include "cli.h"
#include "play.h"  /* src/play: cmd_play */

/* src/server: the game server (docs/protocol.md) */
int cmd_serve(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_backup(int argc, char **argv);
int cmd_restore(int argc, char **argv);
int cmd_admin(int argc, char **argv);

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"new", cmd_new, "create a game and write a game file"},
    {"legal", cmd_legal, "who decides now and their legal moves"},
    {"apply", cmd_apply, "apply moves and append them to a game file"},
    {"show", cmd_show, "the full state of a game (text or --json)"},
    {"view", cmd_view, "what one player may see (text or --json)"},
    {"replay", cmd_replay, "replay a game file from its setup and check it"},
    {"selfplay", cmd_selfplay, "play random games and check every invariant"},
    {"bench", cmd_bench, "measure random playout speed and allocations"},
    {"arena", cmd_arena, "play games between bots; win rates and ratings"},
    {"analyze", cmd_analyze, "statistics of many games, with SVG plots"},
    {"review", cmd_review, "one game's win chances and the moments that mattered"},
    {"play", cmd_play, "play a game at the terminal against bots or friends"},
    {"serve", cmd_serve, "play online: web server, lobby, games (src/server)"},
    {"config", cmd_config, "check, list or show the server's settings (config files)"},
    {"backup", cmd_backup, "copy a running server's SQLite database (mode 0600)"},
    {"restore", cmd_restore, "put a backup back as a server's database"},
    {"admin", cmd_admin, "roles, bans, mutes, reports, audit log on a server's database"},
    {NULL, NULL, NULL}};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: chartered COMMAND [FLAGS] [ARGS]\n"
            "       chartered --version | help [COMMAND]\n"
            "\n"
            "The rules engine of Chartered: Building Amsterdam and The Golden Age, for\n"
            "scripts.\n"
            "\n"
            "commands:\n");
    for (const command *c = commands; c->name; c++)
        fprintf(f, "  %-10s %s\n", c->name, c->summary);
    fprintf(f, "  %-10s %s\n", "help", "this text, or 'help COMMAND'");
    fprintf(f,
            "\n"
            "Players are numbered from 1. Run 'chartered COMMAND --help' for "
            "the flags of a\ncommand. Exit status: 0 success, 1 failure (file, "
            "JSON, illegal move,\nviolation), 2 bad command line.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        cli_error("no command given");
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        printf("chartered %s\n", CH_VERSION);
        return 0;
    }
    if (strcmp(name, "help") == 0 || strcmp(name, "--help") == 0 ||
        strcmp(name, "-h") == 0) {
        if (argc >= 3 && strcmp(name, "help") == 0) {
            for (const command *c = commands; c->name; c++)
                if (strcmp(c->name, argv[2]) == 0) {
                    char *hargv[] = {"--help", NULL};
                    return c->run(1, hargv);
                }
            cli_error("unknown command '%s' (run 'chartered help' for the "
                      "list)", argv[2]);
            return EXIT_USAGE;
        }
        usage(stdout);
        return 0;
    }
    for (const command *c = commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c->run(argc - 2, argv + 2);
    if (name[0] == '-')
        cli_error("unknown flag '%s' (the program takes --version and --help; "
                  "other flags follow a command)", name);
    else
        cli_error("unknown command '%s' (run 'chartered help' for the list)",
                  name);
    return EXIT_USAGE;
}

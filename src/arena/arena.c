/* arena.c: games between bots, shared by `chartered arena` and `chartered
 * analyze`. The line-up holds built-in bots (ch_bot_new) and protocol bots
 * (protocol.c). Game i of a run uses seed S+i and the rotation r = i mod B
 * (B bots): seat s is played by bot (s + r) mod B, so over every B
 * consecutive games each bot plays each seat once; the table settings come
 * from the mix (mix.c) at index i / B, so the B rotations of one setting are
 * played on the same kind of table. Every choice a built-in bot makes is
 * seeded from the game's seed and the seat, so a run is reproducible and its
 * results do not depend on the number of threads.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "arena.h"
#include "protocol.h"

#define MAX_DECISIONS 200000
#define MAX_ERROR_REPORTS 40

/* ---- the line-up ----------------------------------------------------------- */

static int has_bot(const char *name)
{
    const char *const *names = ch_bot_names();
    for (int i = 0; names && names[i]; i++)
        if (strcmp(names[i], name) == 0)
            return 1;
    return 0;
}

const char *arena_default_fallback(void)
{
    return has_bot("greedy") ? "greedy" : "random";
}

int arena_entry_parse(const char *spec, arena_entry *e, char *err, size_t n)
{
    memset(e, 0, sizeof *e);
    if (strlen(spec) >= ARENA_LABEL) {
        snprintf(err, n, "'%.40s...' is too long (at most %d characters)",
                 spec, ARENA_LABEL - 1);
        return -1;
    }
    snprintf(e->label, sizeof e->label, "%s", spec);
    if (strncmp(spec, "exec:", 5) == 0) {
        const char *c = spec + 5;
        while (*c == ' ')
            c++;
        if (!*c) {
            snprintf(err, n, "'exec:' must be followed by a command, like "
                     "'exec:python3 examples/bot.py'");
            return -1;
        }
        e->is_exec = 1;
        snprintf(e->cmd, sizeof e->cmd, "%s", c);
        return 0;
    }
    const char *colon = strchr(spec, ':');
    size_t nl = colon ? (size_t)(colon - spec) : strlen(spec);
    if (nl == 0 || nl >= sizeof e->name) {
        snprintf(err, n, "'%s' does not start with a bot name", spec);
        return -1;
    }
    memcpy(e->name, spec, nl);
    e->name[nl] = '\0';
    if (colon)
        snprintf(e->options, sizeof e->options, "%s", colon + 1);
    ch_bot *b = NULL;
    ch_msg msg = {{0}};
    int rc = ch_bot_new(&b, e->name, e->options, 1, &msg);
    if (rc != CH_OK) {
        const char *const *names = ch_bot_names();
        char list[200] = "";
        size_t off = 0;
        for (int i = 0; names && names[i] && off < sizeof list; i++)
            off += (size_t)snprintf(list + off, sizeof list - off, "%s, ",
                                    names[i]);
        snprintf(err, n, "'%s': %s (built-in bots: %sor exec:COMMAND for a "
                 "program speaking the bot protocol)", spec,
                 msg.text[0] ? msg.text : ch_strerror(rc), list);
        return -1;
    }
    ch_bot_free(b);
    return 0;
}

/* The --bot-option flags, by the index of the --bot they follow (a command
 * reads its flags once per process). */
static struct {
    int n;
    const char *text[ARENA_MAX_SET];
} bot_opts[ARENA_MAX_BOTS];

int arena_take_bots(const char *cmd, int argc, char **argv, const char **bots,
                    int *nbots)
{
    int out = 0;
    memset(bot_opts, 0, sizeof bot_opts);
    for (int i = 0; i < argc; i++) {
        char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            while (i < argc)
                argv[out++] = argv[i++];
            break;
        }
        const char *val = NULL;
        if (strcmp(a, "--bot-option") == 0 || strncmp(a, "--bot-option=", 13) == 0) {
            if (a[12] == '=')
                val = a + 13;
            else if (i + 1 < argc)
                val = argv[++i];
            else {
                cli_error("chartered %s: --bot-option expects NAME=VALUE after it", cmd);
                return -1;
            }
            if (*nbots == 0) {
                cli_error("chartered %s: --bot-option %s comes before any --bot: it sets "
                          "an option of the exec: bot given just before it", cmd, val);
                return -1;
            }
            if (bot_opts[*nbots - 1].n >= ARENA_MAX_SET) {
                cli_error("chartered %s: at most %d --bot-option flags per bot", cmd,
                          ARENA_MAX_SET);
                return -1;
            }
            bot_opts[*nbots - 1].text[bot_opts[*nbots - 1].n++] = val;
            continue;
        }
        if (strcmp(a, "--bot") == 0 || strcmp(a, "-b") == 0) {
            if (i + 1 >= argc) {
                cli_error("chartered %s: %s expects a bot after it (NAME, "
                          "NAME:OPTIONS or exec:COMMAND)", cmd, a);
                return -1;
            }
            val = argv[++i];
        } else if (strncmp(a, "--bot=", 6) == 0) {
            val = a + 6;
        } else if (strncmp(a, "-b", 2) == 0 && a[2] != '\0') {
            val = a + 2;
        } else {
            argv[out++] = a;
            continue;
        }
        if (*nbots >= ARENA_MAX_BOTS) {
            cli_error("chartered %s: at most %d --bot flags", cmd,
                      ARENA_MAX_BOTS);
            return -1;
        }
        bots[(*nbots)++] = val;
    }
    return out;
}

int arena_lineup(const char *cmd, arena_cfg *cfg, const char **specs, int n)
{
    cfg->nentries = 0;
    for (int i = 0; i < n; i++) {
        char err[400];
        arena_entry *e = &cfg->entries[cfg->nentries];
        if (arena_entry_parse(specs[i], e, err, sizeof err) != 0) {
            cli_error("chartered %s: --bot %s", cmd, err);
            return EXIT_USAGE;
        }
        e->nset = 0;
        for (int k = 0; i < ARENA_MAX_BOTS && k < bot_opts[i].n; k++) {
            const char *t = bot_opts[i].text[k], *eq = strchr(t, '=');
            if (!e->is_exec) {
                cli_error("chartered %s: --bot-option %s: options of a built-in bot go "
                          "in its spec (%s:NAME=VALUE,...); --bot-option is for exec: bots",
                          cmd, t, e->name);
                return EXIT_USAGE;
            }
            if (!eq || eq == t || (size_t)(eq - t) >= sizeof e->set_name[0] ||
                strlen(eq + 1) >= sizeof e->set_value[0] || memchr(t, ' ', (size_t)(eq - t)) ||
                strpbrk(t, "\n\r")) {
                cli_error("chartered %s: --bot-option '%s': expected NAME=VALUE (a name "
                          "of 1 to 63 bytes without spaces, a value of at most 255 bytes "
                          "on one line)", cmd, t);
                return EXIT_USAGE;
            }
            snprintf(e->set_name[e->nset], sizeof e->set_name[0], "%.*s", (int)(eq - t), t);
            snprintf(e->set_value[e->nset], sizeof e->set_value[0], "%s", eq + 1);
            e->nset++;
        }
        int same = 0;
        for (int k = 0; k < cfg->nentries; k++)
            if (strncmp(cfg->entries[k].label, specs[i], strlen(specs[i])) ==
                    0 &&
                (cfg->entries[k].label[strlen(specs[i])] == '\0' ||
                 cfg->entries[k].label[strlen(specs[i])] == '#'))
                same++;
        if (same) {
            size_t l = strlen(e->label);
            if (l > ARENA_LABEL - 8)
                l = ARENA_LABEL - 8;
            snprintf(e->label + l, 8, "#%d", (same + 1) % 100);
        }
        cfg->nentries++;
    }
    return 0;
}

/* ---- move names ------------------------------------------------------------ */

static const char *const move_names[CH_M_NTYPES] = {
    [CH_M_NONE] = "none",       [CH_M_DRAW] = "draw",
    [CH_M_TAKE] = "take",       [CH_M_REFRESH] = "refresh",
    [CH_M_DONE] = "done",       [CH_M_PLAY] = "play",
    [CH_M_PASS] = "pass",       [CH_M_SELL] = "sell",
    [CH_M_BUY] = "buy",         [CH_M_HQ] = "hq",
    [CH_M_LONE] = "lone",       [CH_M_FOUND] = "found",
    [CH_M_CREDIT] = "credit",   [CH_M_MERGE] = "merge",
    [CH_M_ACTION] = "action",   [CH_M_EVENT] = "event",
    [CH_M_BID] = "bid",         [CH_M_LOSE] = "lose",
    [CH_M_OFFER] = "offer",     [CH_M_GIVE] = "give",
    [CH_M_ASK] = "ask",         [CH_M_PROPOSE] = "propose",
    [CH_M_WITHDRAW] = "withdraw", [CH_M_ACCEPT] = "accept",
    [CH_M_DECLINE] = "decline", [CH_M_AUCTION] = "auction",
    [CH_M_PICK] = "pick",       [CH_M_FREE] = "free",
    [CH_M_FLAG] = "flag",
};

const char *arena_move_name(int type)
{
    if (type < 0 || type >= CH_M_NTYPES || !move_names[type])
        return "?";
    return move_names[type];
}

/* ---- playing ---------------------------------------------------------------- */

static uint64_t mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The seed of seat s's bot in the game of seed gs (salt: 0 the bot, 1 its
 * fallback). */
static uint64_t seat_seed(uint64_t gs, int s, int salt)
{
    return mix64(mix64(gs) ^ (0x632BE59BD9B4E019ull * (uint64_t)(s + 1)) ^
                 (uint64_t)salt << 56);
}

typedef struct agent {
    ch_bot *bot;       /* built-in bot (or the fallback of a failed one)  */
    proto_bot *pb;     /* protocol bot, NULL when none or failed          */
    proto_bot **slot;  /* where the worker keeps pb between games          */
    FILE *log;
} agent;

/* The protocol bots a worker thread keeps between its games: a version-2
 * program plays every game of its worker (one process per bot, worker and
 * seat of that bot within a game: a bot may hold several seats of a game);
 * a version-1 program is started for each game, as version 1 says. */
typedef struct bot_pool {
    proto_bot *pb[ARENA_MAX_BOTS][CH_MAX_PLAYERS];
} bot_pool;

typedef struct run_ctx {
    arena_cfg *cfg;
    arena_results *res;
    const char *fallback;
    pthread_mutex_t lock;
    int next, done;
    int reports;
} run_ctx;

static void report_bot_error(run_ctx *rc, const arena_game *g, int seat,
                             const char *botid, const char *what)
{
    const arena_entry *e = &rc->cfg->entries[g->entry[seat]];
    pthread_mutex_lock(&rc->lock);
    if (rc->reports < MAX_ERROR_REPORTS) {
        if (rc->cfg->progress)
            fputs("\r\033[K", stderr);
        fprintf(stderr,
                "error: game %d (seed %" PRIu64 "): bot '%s'%s%s%s at seat %d "
                "%s; seat %d plays as %s for the rest of the game\n",
                g->index + 1, g->seed, e->label, botid ? " (\"" : "",
                botid ? botid : "", botid ? "\")" : "", seat + 1, what,
                seat + 1, rc->fallback);
    } else if (rc->reports == MAX_ERROR_REPORTS) {
        fprintf(stderr, "error: (more bot errors not shown)\n");
    }
    rc->reports++;
    pthread_mutex_unlock(&rc->lock);
}

/* Replace seat s's bot by the fallback. 0, or -1 when even that fails. */
static int fall_back(run_ctx *rc, arena_game *g, agent *a, int s)
{
    if (a->pb) {
        proto_stop(a->pb, 0);
        a->pb = NULL;
        if (a->slot)
            *a->slot = NULL;
    }
    ch_bot_free(a->bot);
    a->bot = NULL;
    g->fallbacks |= 1u << s;
    ch_msg msg = {{0}};
    if (ch_bot_new(&a->bot, rc->fallback, "", seat_seed(g->seed, s, 1), &msg) !=
        CH_OK) {
        snprintf(g->error, sizeof g->error, "cannot create the fallback bot "
                 "'%s': %s", rc->fallback, msg.text);
        return -1;
    }
    return 0;
}

/* s as the inside of a JSON string: an arrangement may be a file's path,
 * which may hold quotes or backslashes. */
static void json_inner(const char *s, char *out, size_t n)
{
    size_t o = 0;
    for (; *s && o + 7 < n; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            out[o++] = '\\';
            out[o++] = (char)c;
        } else if (c < 0x20) {
            o += (size_t)snprintf(out + o, n - o, "\\u%04x", c);
        } else {
            out[o++] = (char)c;
        }
    }
    out[o] = '\0';
}

static void setup_json(const cli_game *cg, int index, char *buf, size_t n)
{
    char arr[6 * 256 + 8];
    json_inner(cg->arr, arr, sizeof arr);
    if (cg->set.edition == CH_ED_GOLDEN_AGE)
        snprintf(buf, n, "{\"edition\":\"golden-age\",\"players\":%d,"
                 "\"arrangement\":\"%s\",\"preset\":\"%s\",\"events\":%s,"
                 "\"game\":%d}", cg->set.nplayers, arr,
                 cli_preset_name(cg->set.preset),
                 cg->set.events ? "true" : "false", index + 1);
    else
        snprintf(buf, n, "{\"edition\":\"amsterdam\",\"players\":%d,"
                 "\"arrangement\":\"%s\",\"game\":%d}", cg->set.nplayers,
                 arr, index + 1);
}

static void start_agent(run_ctx *rc, bot_pool *pool, arena_game *g, agent *a,
                        int s, const char *setup, const ch_state *st)
{
    const arena_cfg *cfg = rc->cfg;
    const arena_entry *e = &cfg->entries[g->entry[s]];
    memset(a, 0, sizeof *a);
    if (!e->is_exec) {
        ch_msg msg = {{0}};
        if (ch_bot_new(&a->bot, e->name, e->options, seat_seed(g->seed, s, 0),
                       &msg) != CH_OK) {
            report_bot_error(rc, g, s, NULL, msg.text);
            fall_back(rc, g, a, s);
        }
        return;
    }
    if (cfg->log_dir) {
        char path[1024];
        snprintf(path, sizeof path, "%s/game-%04d-seat%d.log", cfg->log_dir,
                 g->index + 1, s + 1);
        a->log = fopen(path, "w");
        if (a->log)
            fprintf(a->log, "# game %d, seed %" PRIu64 ", seat %d, bot %s\n",
                    g->index + 1, g->seed, s + 1, e->label);
    }
    char tag[64];
    snprintf(tag, sizeof tag, "game %d seat %d", g->index + 1, s + 1);
    /* the k-th seat of this bot in the game */
    int k = 0;
    for (int q = 0; q < s; q++)
        k += g->entry[q] == g->entry[s];
    a->slot = &pool->pb[g->entry[s]][k];
    char err[600];
    int r = PROTO_OK;
    if (*a->slot) {
        a->pb = *a->slot;
        proto_set_log(a->pb, a->log, tag);
    } else {
        const char *names[ARENA_MAX_SET], *values[ARENA_MAX_SET];
        for (int i = 0; i < e->nset; i++) {
            names[i] = e->set_name[i];
            values[i] = e->set_value[i];
        }
        proto_opts o = {cfg->time_ms, cfg->time_ms > 10000 ? cfg->time_ms : 10000,
                        a->log, cfg->echo_info, tag, e->nset, names, values,
                        cfg->clock_ms, cfg->inc_ms};
        r = proto_start(&a->pb, e->cmd, &o, err, sizeof err);
        if (r == PROTO_OK && proto_version(a->pb) >= 2)
            *a->slot = a->pb;
    }
    if (r == PROTO_OK)
        r = proto_game(a->pb, setup, s, seat_seed(g->seed, s, 0), st, err,
                       sizeof err);
    if (r != PROTO_OK) {
        report_bot_error(rc, g, s, a->pb ? proto_bot_id(a->pb) : NULL, err);
        fall_back(rc, g, a, s);
    }
}

static void stop_agent(agent *a, const char *result)
{
    if (a->pb) {
        proto_end(a->pb, result);
        if (a->slot && *a->slot == a->pb)
            proto_set_log(a->pb, NULL, NULL); /* kept for the next game */
        else
            proto_stop(a->pb, 1);
    }
    ch_bot_free(a->bot);
    if (a->log)
        fclose(a->log);
    memset(a, 0, sizeof *a);
}

static int lowest_bit(unsigned x)
{
    for (int i = 0; i < 32; i++)
        if (x & (1u << i))
            return i;
    return -1;
}

static void play_game(run_ctx *rc, bot_pool *pool, int i, ch_state *st)
{
    arena_cfg *cfg = rc->cfg;
    arena_game *g = &rc->res->games[i];
    int ne = cfg->nentries;
    memset(g, 0, sizeof *g);
    g->index = i;
    g->seed = cfg->seed + (uint64_t)i;
    cli_game cg;
    cli_mix_game(&cfg->mix, (uint64_t)(i / ne), g->seed, &cg);
    g->edition = cg.set.edition;
    g->nplayers = cg.set.nplayers;
    g->preset = cg.set.preset;
    /* events in this game: Building Amsterdam's stock events unless a
       variant left them out, The Golden Age's event cards when shuffled in */
    g->events = cg.set.edition == CH_ED_AMSTERDAM ? !cg.set.no_stock_events : cg.set.events;
    snprintf(g->arr, sizeof g->arr, "%s", cg.arr);
    int r = i % ne;
    for (int s = 0; s < g->nplayers; s++)
        g->entry[s] = (s + r) % ne;
    ch_msg msg = {{0}};
    if (ch_new(st, &cg.set, cg.board, &msg) != CH_OK) {
        g->failed = 1;
        snprintf(g->error, sizeof g->error, "ch_new: %s", msg.text);
        return;
    }
    g->first_player = st->first_player;
    char setup[2048];
    setup_json(&cg, i, setup, sizeof setup);
    /* With --log, the game as a game file (DIR/game-G.json, from its first
     * position), and at a protocol bot's failure the game up to that
     * decision (DIR/game-G-decision-D.json): `chartered view`, `legal` and
     * `apply` then replay the decision without the arena. */
    game_file gfile = {0};
    if (cfg->log_dir) {
        gfile.setup = gf_setup_for_position(st);
        gfile.moves = json_array();
    }
    agent ag[CH_MAX_PLAYERS];
    int observers = 0; /* version-2 bots, told every move */
    for (int s = 0; s < g->nplayers; s++) {
        start_agent(rc, pool, g, &ag[s], s, setup, st);
        observers += proto_version(ag[s].pb) >= 2;
    }
    ch_state before;
    int evc[16] = {0}; /* CH_GE_KINDS and CH_EV_KINDS fit */
    int ga = st->edition == CH_ED_GOLDEN_AGE;
    for (;;) {
        unsigned mask = 0;
        if (ch_decider(st, &mask) == CH_DEC_TERMINAL)
            break;
        if ((long)st->ndecisions > MAX_DECISIONS) {
            g->failed = 1;
            snprintf(g->error, sizeof g->error, "no end after %d decisions",
                     MAX_DECISIONS);
            break;
        }
        int p = lowest_bit(mask);
        if (p < 0 || p >= g->nplayers) {
            g->failed = 1;
            snprintf(g->error, sizeof g->error, "nobody decides, yet the game "
                     "is not over");
            break;
        }
        agent *a = &ag[p];
        ch_move m;
        int was_exec = a->pb != NULL;
        double t0 = was_exec ? cli_now() : cli_cpu_now();
        if (a->pb) {
            char err[600];
            int pr = proto_choose(a->pb, st, p, &m, err, sizeof err);
            if (pr != PROTO_OK) {
                char what[700];
                if (gfile.setup && gfile.moves) {
                    char path[1024];
                    snprintf(path, sizeof path, "%s/game-%04d-decision-%" PRIu32 ".json",
                             cfg->log_dir, g->index + 1, st->ndecisions + 1);
                    gf_save(path, &gfile, st);
                }
                snprintf(what, sizeof what, "at decision %" PRIu32 " (%s): %s",
                         st->ndecisions + 1, ch_phase_name(st->phase), err);
                report_bot_error(rc, g, p, proto_bot_id(a->pb), what);
                if (fall_back(rc, g, a, p) != 0) {
                    g->failed = 1;
                    break;
                }
            }
        }
        if (!a->pb) {
            if (!a->bot || ch_bot_choose(a->bot, st, p, &m, &msg) != CH_OK) {
                g->failed = 1;
                snprintf(g->error, sizeof g->error, "bot of seat %d: %s",
                         p + 1, msg.text);
                break;
            }
        }
        if (was_exec == (a->pb != NULL)) { /* no fallback in between */
            g->think[p] += was_exec ? cli_now() - t0 : cli_cpu_now() - t0;
            g->chosen[p]++;
        }
        uint8_t chart[CH_MAX_COMPANIES];
        for (int c = 0; c < st->ncompanies; c++)
            chart[c] = st->co[c].on_chart;
        int nd = st->ndiscard;
        if (observers)
            before = *st;
        if (gfile.setup && gfile.moves) {
            char t[256];
            if (ch_move_str(st, m, t, sizeof t) > 0)
                json_array_append_new(gfile.moves, json_pack("{s:i, s:s}", "player", p + 1,
                                                             "move", t));
        }
        if (ch_apply(st, p, m, &msg) != CH_OK) {
            char t[128];
            ch_move_str(st, m, t, sizeof t);
            g->failed = 1;
            snprintf(g->error, sizeof g->error, "seat %d's move '%s' was "
                     "refused: %s", p + 1, t, msg.text);
            break;
        }
        if (observers)
            for (int s = 0; s < g->nplayers; s++)
                proto_observe(ag[s].pb, &before, p, m);
        if (m.type < CH_M_NTYPES)
            g->moves[m.type]++;
        if (m.type == CH_M_ACTION) {
            if (m.a == 0)
                g->action_roof++;
            else
                g->action_event++;
        }
        for (int c = 0; c < st->ncompanies; c++) {
            if (!chart[c] && st->co[c].on_chart)
                g->founded++;
            if (chart[c] && !st->co[c].on_chart)
                g->merged++;
        }
        if (!ga && m.type == CH_M_EVENT) {
            int k = m.a;
            if (k == CH_NONE)
                k = st->ev_kind != CH_NONE ? st->ev_kind
                    : st->nev_discard ? st->ev_discard[st->nev_discard - 1]
                                      : CH_NONE;
            if (k < CH_EV_KINDS)
                evc[k]++;
        }
        if (ga && st->ndiscard > nd)
            for (int k = nd; k < st->ndiscard; k++) {
                int c = st->discard[k];
                if (st->card_event[c] && st->card_event[c] <= CH_GE_KINDS)
                    evc[st->card_event[c] - 1]++;
            }
    }
    g->turns = st->turn_no;
    g->decisions = (long)st->ndecisions;
    char result[300] = "{}";
    if (!g->failed) {
        ch_scores(st, g->score, &g->winners);
        size_t off = (size_t)snprintf(result, sizeof result, "{\"scores\":[");
        for (int s = 0; s < g->nplayers; s++)
            off += (size_t)snprintf(result + off, sizeof result - off,
                                    "%s%" PRId32, s ? "," : "", g->score[s]);
        off += (size_t)snprintf(result + off, sizeof result - off,
                                "],\"winners\":[");
        int first = 1;
        for (int s = 0; s < g->nplayers; s++)
            if (g->winners & (1u << s)) {
                off += (size_t)snprintf(result + off, sizeof result - off,
                                        "%s%d", first ? "" : ",", s + 1);
                first = 0;
            }
        snprintf(result + off, sizeof result - off,
                 "],\"turns\":%d,\"decisions\":%ld}", g->turns, g->decisions);
    }
    for (int s = 0; s < g->nplayers; s++)
        stop_agent(&ag[s], result);
    if (gfile.setup && gfile.moves) {
        char path[1024];
        snprintf(path, sizeof path, "%s/game-%04d.json", cfg->log_dir, g->index + 1);
        gf_save(path, &gfile, st);
    }
    if (gfile.setup)
        json_decref(gfile.setup);
    if (gfile.moves)
        json_decref(gfile.moves);
    /* stock events and final company values, by name */
    size_t off = 0;
    int nk = ga ? CH_GE_KINDS : CH_EV_KINDS;
    for (int k = 0; k < nk; k++)
        if (evc[k] && off < sizeof g->events_text)
            off += (size_t)snprintf(g->events_text + off,
                                    sizeof g->events_text - off, "%s%s=%d",
                                    off ? ";" : "",
                                    ga ? ch_ga_event_name(k)
                                       : ch_event_name(k), evc[k]);
    off = 0;
    for (int c = 0; c < st->ncompanies && off < sizeof g->values_text; c++)
        off += (size_t)snprintf(g->values_text + off,
                                sizeof g->values_text - off, "%s%s=%d",
                                c ? ";" : "", ch_company_name(st, c),
                                st->co[c].on_chart ? st->co[c].value : 0);
}

void arena_print_think(FILE *f, const arena_cfg *cfg, const arena_results *res)
{
    double t[ARENA_MAX_BOTS] = {0};
    long n[ARENA_MAX_BOTS] = {0};
    for (int i = 0; i < res->ngames; i++) {
        const arena_game *g = &res->games[i];
        for (int s = 0; s < g->nplayers; s++)
            if (g->entry[s] >= 0 && g->entry[s] < cfg->nentries) {
                t[g->entry[s]] += g->think[s];
                n[g->entry[s]] += g->chosen[s];
            }
    }
    fprintf(f, "time per move (built-in bots: CPU time; protocol bots: wall-clock time):\n");
    for (int e = 0; e < cfg->nentries; e++)
        if (n[e])
            fprintf(f, "  %-30.30s %9.3f ms   %ld moves, %.1f s\n", cfg->entries[e].label,
                    1e3 * t[e] / (double)n[e], n[e], t[e]);
}

static void *worker(void *arg)
{
    run_ctx *rc = arg;
    ch_state *st = malloc(sizeof *st);
    bot_pool *pool = calloc(1, sizeof *pool);
    if (!st || !pool) {
        free(st);
        free(pool);
        return NULL;
    }
    for (;;) {
        pthread_mutex_lock(&rc->lock);
        int i = rc->next < rc->cfg->games ? rc->next++ : -1;
        pthread_mutex_unlock(&rc->lock);
        if (i < 0)
            break;
        play_game(rc, pool, i, st);
        pthread_mutex_lock(&rc->lock);
        rc->done++;
        pthread_mutex_unlock(&rc->lock);
    }
    for (int e = 0; e < ARENA_MAX_BOTS; e++)
        for (int k = 0; k < CH_MAX_PLAYERS; k++)
            proto_stop(pool->pb[e][k], 1);
    free(pool);
    free(st);
    return NULL;
}

static void draw_progress(int done, int total, double secs)
{
    int width = 30, fill = total ? done * width / total : width;
    char bar[64];
    for (int k = 0; k < width; k++)
        bar[k] = k < fill ? '#' : '.';
    bar[width] = '\0';
    double eta = done ? secs * (total - done) / done : 0;
    fprintf(stderr, "\r\033[K[%s] %d/%d games  %.1f s", bar, done, total, secs);
    if (done && done < total)
        fprintf(stderr, "  about %.0f s left", eta);
    fflush(stderr);
}

int arena_run(arena_cfg *cfg, arena_results *res)
{
    memset(res, 0, sizeof *res);
    res->nentries = cfg->nentries;
    for (int e = 0; e < cfg->nentries; e++)
        snprintf(res->label[e], sizeof res->label[e], "%s",
                 cfg->entries[e].label);
    res->ngames = cfg->games;
    res->games = calloc(cfg->games > 0 ? (size_t)cfg->games : 1,
                        sizeof *res->games);
    if (!res->games) {
        cli_error("out of memory");
        return EXIT_FAIL;
    }
    for (int e = 0; e < cfg->nentries; e++)
        if (cfg->entries[e].is_exec) {
            proto_global_init();
            break;
        }
    if (cfg->log_dir && mkdir(cfg->log_dir, 0777) != 0 && errno != EEXIST) {
        cli_error("chartered %s: cannot create '%s': %s", cfg->cmd,
                  cfg->log_dir, strerror(errno));
        return EXIT_FAIL;
    }
    run_ctx rc;
    memset(&rc, 0, sizeof rc);
    rc.cfg = cfg;
    rc.res = res;
    rc.fallback = cfg->fallback ? cfg->fallback : arena_default_fallback();
    pthread_mutex_init(&rc.lock, NULL);
    int jobs = cfg->jobs < 1 ? 1 : cfg->jobs;
    if (jobs > cfg->games)
        jobs = cfg->games > 0 ? cfg->games : 1;
    pthread_t th[256];
    if (jobs > 256)
        jobs = 256;
    double t0 = cli_now();
    int started = 0;
    for (int j = 0; j < jobs; j++) {
        if (pthread_create(&th[j], NULL, worker, &rc) != 0)
            break;
        started++;
    }
    if (started == 0)
        worker(&rc);
    if (cfg->progress) {
        for (;;) {
            pthread_mutex_lock(&rc.lock);
            int done = rc.done;
            pthread_mutex_unlock(&rc.lock);
            draw_progress(done, cfg->games, cli_now() - t0);
            if (done >= cfg->games)
                break;
            struct timespec ts = {0, 200 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    for (int j = 0; j < started; j++)
        pthread_join(th[j], NULL);
    pthread_mutex_destroy(&rc.lock);
    res->seconds = cli_now() - t0;
    for (int i = 0; i < res->ngames; i++) {
        const arena_game *g = &res->games[i];
        for (int s = 0; s < g->nplayers; s++)
            if (g->fallbacks & (1u << s))
                res->bot_errors[g->entry[s]]++;
        if (g->failed)
            cli_error("chartered %s: game %d (seed %" PRIu64 ") could not be "
                      "finished: %s", cfg->cmd, i + 1, g->seed, g->error);
    }
    return 0;
}

void arena_results_free(arena_results *res)
{
    free(res->games);
    res->games = NULL;
    res->ngames = 0;
}

/* ---- games.csv ----------------------------------------------------------------- */

static void csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n\r") == NULL && s[0] != ' ') {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void seat_list(unsigned mask, int np, char *buf, size_t n)
{
    size_t off = 0;
    buf[0] = '\0';
    for (int s = 0; s < np && off < n; s++)
        if (mask & (1u << s))
            off += (size_t)snprintf(buf + off, n - off, "%s%d", off ? " " : "",
                                    s + 1);
}

int arena_write_csv(const char *path, const arena_results *res)
{
    size_t cap = 0;
    char *text = NULL;
    FILE *f = open_memstream(&text, &cap);
    if (!f) {
        cli_error("out of memory");
        return EXIT_FAIL;
    }
    fputs("game,seed,edition,players,arrangement,preset,events,first_player,"
          "turns,decisions,winners,fallbacks,founded,merged,action_roof,"
          "action_event", f);
    for (int s = 0; s < CH_MAX_PLAYERS; s++)
        fprintf(f, ",bot%d", s + 1);
    for (int s = 0; s < CH_MAX_PLAYERS; s++)
        fprintf(f, ",score%d", s + 1);
    for (int t = 1; t < CH_M_NTYPES; t++)
        fprintf(f, ",m_%s", arena_move_name(t));
    fputs(",stock_events,company_values,error\n", f);
    for (int i = 0; i < res->ngames; i++) {
        const arena_game *g = &res->games[i];
        char win[32], fb[32];
        seat_list(g->winners, g->nplayers, win, sizeof win);
        seat_list(g->fallbacks, g->nplayers, fb, sizeof fb);
        fprintf(f, "%d,%" PRIu64 ",%s,%d,", g->index + 1, g->seed,
                cli_edition_name(g->edition), g->nplayers);
        csv_field(f, g->arr);
        fprintf(f, ",%s,%s,%d,%d,%ld,%s,%s,%d,%d,%d,%d",
                g->edition == CH_ED_GOLDEN_AGE ? cli_preset_name(g->preset) : "",
                g->events ? "on" : "off", g->first_player + 1, g->turns,
                g->decisions, win, fb, g->founded, g->merged, g->action_roof,
                g->action_event);
        for (int s = 0; s < CH_MAX_PLAYERS; s++) {
            fputc(',', f);
            if (s < g->nplayers)
                csv_field(f, res->label[g->entry[s]]);
        }
        for (int s = 0; s < CH_MAX_PLAYERS; s++) {
            fputc(',', f);
            if (s < g->nplayers && !g->failed)
                fprintf(f, "%" PRId32, g->score[s]);
        }
        for (int t = 1; t < CH_M_NTYPES; t++)
            fprintf(f, ",%" PRIu32, g->moves[t]);
        fputc(',', f);
        csv_field(f, g->events_text);
        fputc(',', f);
        csv_field(f, g->values_text);
        fputc(',', f);
        csv_field(f, g->failed ? g->error : "");
        fputc('\n', f);
    }
    if (fclose(f) != 0 || !text) {
        free(text);
        cli_error("out of memory");
        return EXIT_FAIL;
    }
    int rc = cli_write_file_atomic(path, text) == 0 ? 0 : EXIT_FAIL;
    free(text);
    return rc;
}

/* Split one CSV record starting at *p into fields (in place); *p moves past
 * it. Returns the field count. */
static int csv_record(char **p, char **fields, int max)
{
    char *s = *p, *w = s;
    int n = 0;
    if (!*s)
        return 0;
    for (;;) {
        char *start = w;
        if (*s == '"') {
            s++;
            for (;;) {
                if (*s == '\0')
                    break;
                if (*s == '"' && s[1] == '"') {
                    *w++ = '"';
                    s += 2;
                } else if (*s == '"') {
                    s++;
                    break;
                } else {
                    *w++ = *s++;
                }
            }
        }
        while (*s && *s != ',' && *s != '\n' && *s != '\r')
            *w++ = *s++;
        char end = *s;
        *w = '\0';
        if (n < max)
            fields[n++] = start;
        if (end == ',') {
            s++;
            w = s;
            continue;
        }
        if (end == '\r') {
            s++;
            end = *s;
        }
        if (end == '\n')
            s++;
        break;
    }
    *p = s;
    return n;
}

static int col(char **hdr, int nh, const char *name)
{
    for (int i = 0; i < nh; i++)
        if (strcmp(hdr[i], name) == 0)
            return i;
    return -1;
}

int arena_read_csv(const char *path, arena_results *res)
{
    memset(res, 0, sizeof *res);
    char *text = cli_read_file(path);
    if (!text)
        return EXIT_FAIL;
    char *p = text;
    char *hdr[128], *fld[128];
    int nh = csv_record(&p, hdr, 128);
    int c_seed = col(hdr, nh, "seed"), c_players = col(hdr, nh, "players"),
        c_win = col(hdr, nh, "winners"), c_bot1 = col(hdr, nh, "bot1"),
        c_score1 = col(hdr, nh, "score1");
    if (c_seed < 0 || c_players < 0 || c_win < 0 || c_bot1 < 0 ||
        c_score1 < 0) {
        cli_error("'%s' is not a games.csv written by 'chartered arena' (it "
                  "lacks the columns seed, players, winners, bot1, score1)",
                  path);
        free(text);
        return EXIT_FAIL;
    }
    int cap = 256;
    res->games = calloc((size_t)cap, sizeof *res->games);
    int line = 1;
    while (res->games && *p) {
        line++;
        int nf = csv_record(&p, fld, 128);
        if (nf == 0 || (nf == 1 && fld[0][0] == '\0'))
            continue;
        if (nf != nh) {
            cli_error("%s:%d: %d fields, the header has %d", path, line, nf,
                      nh);
            free(text);
            arena_results_free(res);
            return EXIT_FAIL;
        }
        if (res->ngames == cap) {
            arena_game *ng = realloc(res->games, sizeof *ng * (size_t)cap * 2);
            if (!ng)
                break;
            memset(ng + cap, 0, sizeof *ng * (size_t)cap);
            res->games = ng;
            cap *= 2;
        }
        arena_game *g = &res->games[res->ngames];
        g->index = res->ngames;
        g->seed = strtoull(fld[c_seed], NULL, 10);
        g->nplayers = atoi(fld[c_players]);
        if (g->nplayers < 1 || g->nplayers > CH_MAX_PLAYERS ||
            c_bot1 + g->nplayers > nh || c_score1 + g->nplayers > nh) {
            cli_error("%s:%d: bad player count '%s'", path, line,
                      fld[c_players]);
            free(text);
            arena_results_free(res);
            return EXIT_FAIL;
        }
        int c;
        if ((c = col(hdr, nh, "edition")) >= 0)
            g->edition = cli_edition_find(fld[c]) < 0 ? 0
                                                      : cli_edition_find(fld[c]);
        if ((c = col(hdr, nh, "arrangement")) >= 0)
            snprintf(g->arr, sizeof g->arr, "%s", fld[c]);
        if ((c = col(hdr, nh, "preset")) >= 0 && fld[c][0])
            g->preset = cli_preset_find(fld[c]) < 0 ? 0 : cli_preset_find(fld[c]);
        if ((c = col(hdr, nh, "events")) >= 0)
            g->events = strcmp(fld[c], "on") == 0;
        if ((c = col(hdr, nh, "first_player")) >= 0)
            g->first_player = atoi(fld[c]) - 1;
        if (g->first_player < 0 || g->first_player >= g->nplayers)
            g->first_player = 0;
        if ((c = col(hdr, nh, "turns")) >= 0)
            g->turns = atoi(fld[c]);
        if ((c = col(hdr, nh, "decisions")) >= 0)
            g->decisions = atol(fld[c]);
        if ((c = col(hdr, nh, "founded")) >= 0)
            g->founded = atoi(fld[c]);
        if ((c = col(hdr, nh, "merged")) >= 0)
            g->merged = atoi(fld[c]);
        if ((c = col(hdr, nh, "action_roof")) >= 0)
            g->action_roof = atoi(fld[c]);
        if ((c = col(hdr, nh, "action_event")) >= 0)
            g->action_event = atoi(fld[c]);
        for (char *q = fld[c_win]; *q;) {
            long s = strtol(q, &q, 10);
            if (s >= 1 && s <= g->nplayers)
                g->winners |= 1u << (s - 1);
            while (*q == ' ')
                q++;
            if (*q && (*q < '0' || *q > '9'))
                break;
        }
        if ((c = col(hdr, nh, "fallbacks")) >= 0)
            for (char *q = fld[c]; *q;) {
                long s = strtol(q, &q, 10);
                if (s >= 1 && s <= g->nplayers)
                    g->fallbacks |= 1u << (s - 1);
                while (*q == ' ')
                    q++;
                if (*q && (*q < '0' || *q > '9'))
                    break;
            }
        for (int s = 0; s < g->nplayers; s++) {
            const char *lab = fld[c_bot1 + s];
            int e = 0;
            while (e < res->nentries && strcmp(res->label[e], lab) != 0)
                e++;
            if (e == res->nentries) {
                if (res->nentries >= ARENA_MAX_BOTS) {
                    cli_error("%s:%d: more than %d different bots", path,
                              line, ARENA_MAX_BOTS);
                    free(text);
                    arena_results_free(res);
                    return EXIT_FAIL;
                }
                snprintf(res->label[e], sizeof res->label[e], "%s", lab);
                res->nentries++;
            }
            g->entry[s] = e;
            g->score[s] = (int32_t)strtol(fld[c_score1 + s], NULL, 10);
        }
        for (int t = 1; t < CH_M_NTYPES; t++) {
            char name[40];
            snprintf(name, sizeof name, "m_%s", arena_move_name(t));
            if ((c = col(hdr, nh, name)) >= 0)
                g->moves[t] = (uint32_t)strtoul(fld[c], NULL, 10);
        }
        if ((c = col(hdr, nh, "stock_events")) >= 0)
            snprintf(g->events_text, sizeof g->events_text, "%s", fld[c]);
        if ((c = col(hdr, nh, "company_values")) >= 0)
            snprintf(g->values_text, sizeof g->values_text, "%s", fld[c]);
        if ((c = col(hdr, nh, "error")) >= 0 && fld[c][0]) {
            g->failed = 1;
            snprintf(g->error, sizeof g->error, "%s", fld[c]);
        }
        res->ngames++;
    }
    free(text);
    if (!res->games) {
        cli_error("out of memory");
        return EXIT_FAIL;
    }
    for (int i = 0; i < res->ngames; i++) {
        const arena_game *g = &res->games[i];
        for (int s = 0; s < g->nplayers; s++)
            if (g->fallbacks & (1u << s))
                res->bot_errors[g->entry[s]]++;
    }
    return 0;
}

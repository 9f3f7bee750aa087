#!/usr/bin/env python3
"""research_figures.py: the research environment's figures (issue 34) for
docs/performance.md and docs/python.md, in one run so that their ratios
hold on a loaded machine. Random games, 4 players, both editions; games
per CPU second (process time) of:
  - legal+apply: State.legal_actions + apply_action;
  - +obs: the same with the decider's observation_tensor at every decision;
  - +infostate: the same with information_state_tensor instead;
  - Env: the slot environment (env.py) reset/step, its observation and mask;
  - AECEnv: last() (observation, mask, legal ids) and step of a legal id;
  - VectorEnv at N = 1, 64 and 1024, with masks only and with observations
    (random legal ids by sample_legal: N games a C call).
Then the bytes of one observation and of one mask, and the peak memory of
200 self-play games kept as (observation, mask, return) tuples, measured
in a fresh interpreter (its peak resident memory, VmHWM of /proc/self/status:
getrusage's maxrss would count the parent's memory at the fork) for two
forms:
  - dense: observations float32 (observation_tensor_size() x 4 bytes), masks
    as the legal ids (int32; a full mask is num_distinct_actions() bytes);
  - compact: each observation as its non-zero values (float32) and their
    places (uint16), the mask as the legal ids (int32).
Each line ends with the load average (`uptime`'s first figure) when it was
printed: other programs share the machine's cores.

usage: PYTHONPATH=python CHARTERED_LIB=BUILD/lib/libchartered.so \\
           /usr/bin/python3 bench/research_figures.py [GAMES]
GAMES (default 20) random games per Python path; the vector runs at least
max(GAMES*10, 1,500 steps) and the memory figure plays 200 games.
"""
import os
import random
import subprocess
import sys
import time

import numpy as np

import chartered


def load():
    return os.getloadavg()[0]


def peak_kib():
    """This process's peak resident memory in KiB (Linux)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise OSError("no VmHWM in /proc/self/status")


def legal_apply(game, seed, observe):
    s = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        p = s.deciders()[0]
        if observe == "obs":
            s.observation_tensor(p)
        elif observe == "infostate":
            s.information_state_tensor(p)
        s.apply_action(rng.choice(s.legal_actions(p)), p)


def single_env(env, seed):
    obs, info = env.reset(seed=seed)
    rng = random.Random(seed)
    done = False
    while not done:
        obs, rewards, done, trunc, info = env.step(rng.randrange(len(info["legal"])))


def aec(env, seed):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
        else:
            ids = info["legal_ids"]
            env.step(int(ids[int(rng.random() * len(ids))]))


def rate(fn, games):
    t = time.process_time()
    for g in range(games):
        fn(g)
    return games / (time.process_time() - t)


def vector(ed, n, games, observations):
    """Games per CPU second of a VectorEnv of n games: at least `games` ended
    and 1,500 steps (the games start together, so a short run would count
    only the first, shortest ones)."""
    env = chartered.VectorEnv(ed, n, players=4, observations=observations)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    done = steps = 0
    t = time.process_time()
    while done < games or steps < 1500:
        steps += 1
        _, _, term, trunc, _ = env.step(env.sample_legal(rng))
        done += int(np.count_nonzero(term) + np.count_nonzero(trunc))
    return done / (time.process_time() - t)


def memory_child(ed, form, games):
    """Run in a fresh interpreter: self-play `games` games (VectorEnv of 50,
    random legal ids), keep every decision's (observation, mask, return) in
    the given form, and print the peak RSS and the bytes kept."""
    base = peak_kib()
    env = chartered.VectorEnv(ed, 50, players=4, observations=True, legal_cap=4096)
    obs, infos = env.reset(seed=7)
    rng = np.random.default_rng(7)
    running = [[] for _ in range(50)]  # per row: (observation, legal ids, player) of its game
    kept = []                          # finished: (observation, legal ids, return)
    nbytes = decisions = 0
    after_setup = peak_kib()
    while len(kept) < games:
        for i in range(50):
            k = int(infos["num_legal"][i])
            ids = env.legal[i, :k] if k <= env.legal_cap else np.flatnonzero(env.action_mask[i])
            ids = ids.astype(np.int32)
            if form == "dense":
                o = obs[i].copy()
            else:
                where = np.flatnonzero(obs[i]).astype(np.uint16)
                o = (where, obs[i][where])
            running[i].append((o, ids, int(infos["player"][i])))
        obs, rewards, term, trunc, infos = env.step(env.sample_legal(rng))
        for i in np.flatnonzero(term | trunc):
            game = [(o, ids, float(rewards[i][p])) for o, ids, p in running[i]]
            running[i] = []
            if len(kept) < games:
                kept.append(game)
                decisions += len(game)
                for o, ids, _ in game:
                    nbytes += ids.nbytes + (o.nbytes if form == "dense" else o[0].nbytes + o[1].nbytes)
    peak = peak_kib()
    print(decisions, nbytes, base, after_setup, peak)


def memory(ed, form, games=200):
    out = subprocess.run([sys.executable, __file__, "--memory", ed, form, str(games)], check=True,
                         capture_output=True, text=True).stdout.split()
    decisions, nbytes, base, setup, peak = (int(x) for x in out)
    return decisions, nbytes, base / 1024, setup / 1024, peak / 1024


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(f"research figures, 4 players, random games; "
          f"games per CPU second; load average {load():.1f}", flush=True)
    for ed in ("amsterdam", "golden-age"):
        game = chartered.load_game(ed, players=4)
        r0 = rate(lambda g: legal_apply(game, g, None), games)
        r1 = rate(lambda g: legal_apply(game, g, "obs"), games)
        r2 = rate(lambda g: legal_apply(game, g, "infostate"), games)
        env = chartered.Env(ed, players=4)
        r3 = rate(lambda g: single_env(env, g), games)
        aenv = chartered.AECEnv(ed, players=4)
        r4 = rate(lambda g: aec(aenv, g), games)
        print(f"{ed}: legal+apply {r0:.1f}; +obs {r1:.1f}; +infostate {r2:.1f}; Env {r3:.1f}; "
              f"AECEnv {r4:.1f}; load {load():.1f}", flush=True)
        parts = []
        for n in (1, 64, 1024):
            m = vector(ed, n, games * 10, False)
            o = vector(ed, n, games * 10, True)
            parts.append(f"N={n} masks {m:.0f}, +obs {o:.0f} ({o / m:.2f})")
        print(f"{ed}: VectorEnv {'; '.join(parts)}; load {load():.1f}", flush=True)
        size = game.observation_tensor_size()
        print(f"{ed}: an observation {size} float32 = {size * 4} bytes; a mask "
              f"{game.num_distinct_actions()} bytes", flush=True)
        for form in ("dense", "compact"):
            d, nbytes, base, setup, peak = memory(ed, form)
            print(f"{ed}: 200 self-play games, {d} decisions, {form}: {nbytes / 2**20:.1f} MiB kept "
                  f"({nbytes / d:.0f} bytes a decision); peak RSS {peak:.1f} MiB (interpreter and "
                  f"library {base:.1f}, with the env {setup:.1f}); load {load():.1f}", flush=True)


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--memory":
        memory_child(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        main()

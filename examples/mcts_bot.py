#!/usr/bin/env python3
"""mcts_bot.py: a Monte Carlo tree search bot in Python, playing through the
Python package (docs/python.md). Information sets are handled the simple way
(determinized UCT, as OpenSpiel's ISMCTS does at its simplest): each
iteration samples a world the bot cannot tell from the real one with
resample_from_infostate, walks the tree of the bot's own decisions by UCB1
over the actions legal in that world, and finishes with a random playout in C
(chartered.random_playout). It plays one seat against random players and
prints the result; with --vs-self all seats are MCTS bots.

    PYTHONPATH=python python3 examples/mcts_bot.py --edition amsterdam --players 3 --iterations 200
"""
import argparse
import math
import random

import chartered
from chartered import SIMULTANEOUS


class Node:
    __slots__ = ("visits", "value", "children")

    def __init__(self):
        self.visits = 0
        self.value = 0.0
        self.children = {}  # action -> Node


class MCTSBot:
    def __init__(self, player, iterations=200, c=1.4, seed=0):
        self.player, self.iterations, self.c = player, iterations, c
        self.rng = random.Random(seed)

    def _decider(self, state):
        p = state.current_player()
        return state.deciders()[0] if p == SIMULTANEOUS else p

    def step(self, state):
        """The bot's action for its player in state (it must be deciding)."""
        root = Node()
        for it in range(self.iterations):
            world = state.resample_from_infostate(self.player, self.rng.getrandbits(63))
            node, path = root, [root]
            # selection and expansion over the bot's own decisions; the other
            # players move at random inside the world
            while not world.is_terminal():
                p = self._decider(world)
                acts = world.legal_actions(p)
                if p != self.player:
                    world.apply_action(self.rng.choice(acts), p)
                    continue
                fresh = [a for a in acts if a not in node.children]
                if fresh:
                    a = self.rng.choice(fresh)
                    node.children[a] = Node()
                    world.apply_action(a, p)
                    node = node.children[a]
                    path.append(node)
                    break
                logn = math.log(node.visits + 1)
                a = max((a for a in acts if a in node.children),
                        key=lambda a: node.children[a].value / node.children[a].visits
                        + self.c * math.sqrt(logn / node.children[a].visits))
                world.apply_action(a, p)
                node = node.children[a]
                path.append(node)
            chartered.random_playout(world, self.rng.getrandbits(63))
            reward = world.returns()[self.player]
            for n in path:
                n.visits += 1
                n.value += reward
        legal = state.legal_actions(self.player)
        best = max(legal, key=lambda a: root.children[a].visits if a in root.children else -1)
        return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--edition", default="amsterdam", choices=["amsterdam", "golden-age"])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--vs-self", action="store_true")
    a = ap.parse_args()
    game = chartered.load_game(a.edition, players=a.players)
    state = game.new_initial_state(a.seed)
    bots = {0: MCTSBot(0, a.iterations, seed=a.seed)}
    if a.vs_self:
        bots = {p: MCTSBot(p, a.iterations, seed=a.seed + p) for p in range(a.players)}
    rng = random.Random(a.seed)
    while not state.is_terminal():
        p = state.current_player()
        p = state.deciders()[0] if p == SIMULTANEOUS else p
        action = bots[p].step(state) if p in bots else rng.choice(state.legal_actions(p))
        state.apply_action(action, p)
    scores, winners = state.scores()
    print(f"{a.edition}, {a.players} players, seed {a.seed}: scores {scores}; winners "
          f"{[w + 1 for w in winners]}; MCTS seats {[p + 1 for p in sorted(bots)]}")


if __name__ == "__main__":
    main()

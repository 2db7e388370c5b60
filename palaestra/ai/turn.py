"""The turn planner: beam search over the mover's whole turn, optionally judged after the replies.

A *turn* is the run of consecutive actions of the player to move; it ends when another player is
to move, at a chance node or at the end of the game. In some games a turn is a dozen small actions
(steps of several pieces, then placements, then an action that ends the turn); where a turn is a
single action the planner is a greedy agent (with ``replies``: greedy with a reply).

* **Own turn: beam search.** From the position, every legal action of each node of the beam is
  applied to a copy. A copy where the turn is over is a *finished turn*, judged by ``evaluate()``
  for the mover (the expectation over the outcomes at a chance node, ``returns()`` at the end);
  the others are ranked by the same value, and the best ``width`` of them (positions seen twice
  kept once, exact ties broken at random with the seed) form the next beam. This goes on until
  the beam is empty (or ``depth`` actions). Where a node has more than ``cap`` actions (a piece
  moved from anywhere to anywhere: up to thousands), the best node of the beam tries them all and
  the others a random sample of ``cap``; in the replies every node tries at most ``reply_cap``.
  ``width=1`` is the greedy agent, one turn at a time.
* **Replies (max^n).** With ``replies=K`` the best ``K`` finished turns are each followed by the
  other players' turns until the mover is to move again (or a chance node, or the end): every
  other player plays the turn its own beam search (width ``reply_width``) rates best for itself,
  and the mover's turn is judged by ``evaluate()`` for the mover after those replies. Teams need
  nothing special: ``evaluate()`` gives partners the same value.
* **Playing the plan.** The plan is made at the first action of the turn; the following calls
  play its next action as long as the state is the one the plan expects (same history), else
  the agent plans again.
* **Budget.** Deterministic: ``width``, ``replies`` and ``reply_width`` fix the work (about
  ``width`` times a greedy turn, plus ``replies * reply_width`` greedy turns of each opponent).
  ``time`` (seconds per plan, default none) is only a safety net: once it is spent the beam
  narrows to its best node and no more replies are judged (if none was, the own values decide),
  which makes the play depend on the machine.
"""

from __future__ import annotations

import json
from time import perf_counter
from typing import Any

from palaestra.ai.base import Agent, register_agent
from palaestra.ai.greedy import expected_value
from palaestra.core.errors import OptionError
from palaestra.core.game import State


def position_key(state: State) -> str:
    """The position without its history, as text (two action orders reaching it are one node)."""
    doc = state.to_json()
    doc.pop("history", None)
    doc.pop("seed", None)
    return json.dumps(doc, sort_keys=True, default=str)


class TurnAgent(Agent):
    """Plans a whole turn by beam search (``width``), optionally judged after the replies.

    ``width``: beam width of the own turn (1: greedy). ``replies``: how many of the best own turns
    are judged after the other players' replies (0: none). ``reply_width``: beam width of the
    replies (1: greedy turns). ``depth``: at most this many actions planned in one turn (a node
    deeper is judged as it is). ``cap``: a node of the beam other than the best one tries at most
    this many of its actions (a random sample; none: all); ``reply_cap``: the same for every node
    of the replies. ``chance_depth``: consecutive chance
    nodes averaged over exactly. ``dedupe``: keep one of the nodes with the same position
    (``to_json`` without the history; turn it off for a game whose ``to_json`` does not hold the
    whole position).
    ``time``: seconds per plan as a safety net (none by default).
    """

    name = "turn"

    def __init__(
        self,
        seed: int | None = None,
        width: int = 4,
        replies: int = 0,
        reply_width: int = 1,
        depth: int = 64,
        chance_depth: int = 1,
        cap: int | None = 200,
        reply_cap: int | None = 200,
        dedupe: bool = True,
        time: float | None = None,
    ) -> None:
        super().__init__(seed)
        for label, value, low in (("width", width, 1), ("reply_width", reply_width, 1), ("depth", depth, 1)):
            if not isinstance(value, int) or value < low:
                raise OptionError(f"turn: {label} is a whole number of at least {low}, not {value!r}")
        if not isinstance(replies, int) or replies < 0:
            raise OptionError(f"turn: replies is a whole number of at least 0, not {replies!r}")
        for label, limit in (("cap", cap), ("reply_cap", reply_cap)):
            if limit is not None and (not isinstance(limit, int) or limit < 1):
                raise OptionError(f"turn: {label} is a whole number of at least 1 or none, not {limit!r}")
        if time is not None and (not isinstance(time, (int, float)) or time <= 0):
            raise OptionError(f"turn: time is a positive number of seconds, not {time!r}")
        self.width = width
        self.replies = replies
        self.reply_width = reply_width
        self.depth = depth
        self.chance_depth = int(chance_depth)
        self.cap = cap
        self.reply_cap = reply_cap
        self.dedupe = bool(dedupe)
        self.time = None if time is None else float(time)
        self._plan: list[int] = []
        self._expect: list[int] | None = None
        self._deadline: float | None = None
        #: statistics of the last plan: positions judged, seconds
        self.last: dict[str, Any] = {}

    def reset(self) -> None:
        super().reset()
        self._plan = []
        self._expect = None

    # --- search ------------------------------------------------------------------------------
    def _out_of_time(self) -> bool:
        return self._deadline is not None and perf_counter() > self._deadline

    def _turn_over(self, state: State, player: int, depth: int) -> bool:
        return state.current_player != player or depth >= self.depth

    def _value(self, state: State, player: int) -> float:
        return expected_value(state, player, self.chance_depth)

    def _beam(
        self, state: State, width: int, cap_all: int | None = None
    ) -> list[tuple[float, list[int], State]]:
        """The finished turns of the player to move in ``state``: (value, actions, end state),
        best first (ties in random order)."""
        player = state.current_player
        beam: list[tuple[State, list[int]]] = [(state, [])]
        finished: list[tuple[float, float, list[int], State]] = []
        depth = 0
        judged = 0
        while beam:
            depth += 1
            children: list[tuple[float, float, list[int], State]] = []
            for rank, (node, actions) in enumerate(beam):
                if rank > 0 and self._out_of_time():
                    break
                legal = node.legal_actions()
                limit = self.cap if rank > 0 else None
                if cap_all is not None:
                    limit = cap_all if limit is None else min(limit, cap_all)
                if limit is not None and len(legal) > limit:
                    legal = sorted(self.rng.sample(legal, limit))
                for action in legal:
                    child = node.clone()
                    child.apply_legal(action)
                    judged += 1
                    entry = (self._value(child, player), self.rng.random(), [*actions, action], child)
                    if self._turn_over(child, player, depth):
                        finished.append(entry)
                    else:
                        children.append(entry)
            children.sort(key=lambda e: (-e[0], e[1]))
            keep = 1 if self._out_of_time() else width
            beam = []
            seen: set[str] = set()
            for _, _, actions, child in children:
                if len(beam) >= keep:
                    break
                if keep > 1 and self.dedupe:
                    key = position_key(child)
                    if key in seen:
                        continue
                    seen.add(key)
                beam.append((child, actions))
        self.last["judged"] = self.last.get("judged", 0) + judged
        finished.sort(key=lambda e: (-e[0], e[1]))
        return [(v, actions, end) for v, _, actions, end in finished]

    def _after_replies(self, state: State, player: int) -> float:
        """The mover's value once the others have played their best turns (for themselves)."""
        current = state.clone()
        turns = 0
        while (
            not current.is_terminal()
            and not current.is_chance_node()
            and current.current_player != player
            and turns < 4 * current.game.num_players
        ):
            turns += 1
            options = self._beam(current, self.reply_width, self.reply_cap)
            if not options:
                break
            current = options[0][2]
        return self._value(current, player)

    def plan(self, state: State) -> list[tuple[float, list[int]]]:
        """Candidate turns for the mover, best first: (value for the mover, actions)."""
        start = perf_counter()
        self._deadline = None if self.time is None else start + self.time
        self.last = {"judged": 0}
        player = state.current_player
        turns = self._beam(state, self.width)
        out: list[tuple[float, list[int]]] = [(v, actions) for v, actions, _ in turns]
        if self.replies > 0 and turns:
            judged: list[tuple[float, int, list[int]]] = []
            seen: set[str] = set()
            for index, (_, actions, end) in enumerate(turns):
                if len(judged) >= self.replies or self._out_of_time():
                    break
                if self.dedupe:
                    key = position_key(end)
                    if key in seen:
                        continue
                    seen.add(key)
                judged.append((self._after_replies(end, player), index, actions))
            if judged:  # else out of time before the first reply: the own values stand
                judged.sort(key=lambda e: (-e[0], e[1]))
                out = [(v, actions) for v, _, actions in judged]
        self.last["seconds"] = perf_counter() - start
        return out

    # --- the agent protocol ------------------------------------------------------------------
    def select_action(self, state: State) -> int:
        actions = state.legal_actions()
        if (
            self._plan
            and self._expect is not None
            and state.history == self._expect
            and self._plan[0] in actions
        ):
            action = self._plan.pop(0)
            self._expect.append(action)
            return action
        self._plan, self._expect = [], None
        if len(actions) == 1:
            return actions[0]
        candidates = self.plan(state)
        if not candidates:
            return self.rng.choice(actions)
        best = candidates[0][1]  # starts with one of `actions`: the beam only applies legal ones
        self._plan = best[1:]
        self._expect = [*state.history, best[0]]
        return best[0]

    def analyse(self, state: State, top: int = 3) -> list[tuple[int, float]]:
        """The best first actions, each with the value of the best turn that starts with it."""
        actions = state.legal_actions()
        if not actions:
            return []
        best: dict[int, float] = {}
        for value, turn in self.plan(state):
            if turn and turn[0] not in best:
                best[turn[0]] = value
        out = sorted(best.items(), key=lambda av: (-av[1], av[0]))
        return out[:top]


register_agent("turn", TurnAgent)

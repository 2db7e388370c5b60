"""A game's course for newcomers ("Learn to play", ``/learn/GAME``): short lessons on the real board.

A game declares its course in its :class:`~palaestra.core.info.WebAssets` (``lessons``: a
``"module:attribute"`` naming a :class:`Course`, in a module of its own ``web/`` folder); the web
app serves it (``palaestra/server/api/learn.py``) without knowing the game.

Each :class:`Lesson` is one idea of the rulebook: a small position in the game's position format
(read by ``Game.state_from_position``), a task in plain words in each language, the moves that solve
it (in the game's notation), the goal as a test of the engine's state, and wrong tries the lesson
explains in its own words. :func:`attempt` plays a learner's moves on the engine and says how far
they got; the rules are the engine's alone, so a lesson whose position or solution the engine
refuses cannot pass its tests (``tests/core/test_lessons.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal, TypedDict

from palaestra.core.errors import PalaestraError
from palaestra.core.game import State
from palaestra.core.registry import game_info, load_game

#: the languages every lesson text is written in
LESSON_LANGUAGES = ("en", "de", "fr")


class LessonText(TypedDict):
    """One language's words of a lesson: its ``title``, the ``intro`` (the idea of the rule), the
    ``task`` (what to do, one or two sentences), a ``hint`` (shown after a try that does not reach
    the goal) and ``done`` (shown when the goal is reached)."""

    title: str
    intro: str
    task: str
    hint: str
    done: str


#: ``goal(start, now)``: whether the state ``now``, reached from the lesson's ``start``, fulfils it
Goal = Callable[[State, State], bool]


@dataclass(frozen=True, eq=False)  # compared (and cached) as itself
class Lesson:
    """One idea of the rulebook (see the module docstring).

    - ``position``: the game's position document; ``options``: the game options it is played with.
    - ``solution``: moves in the game's notation that reach the goal (the tests play them).
    - ``goal``: see :data:`Goal`; ``budget``: the most moves a try may take (default: as many as
      the solution); a try that runs out of moves, or hands the turn to another player, without
      reaching the goal has failed.
    - ``wrong``: per wrong move (notation, compared as the engine reads it) its explanation per
      language; such a move is refused with that explanation, wherever it comes in a try.
    """

    id: str
    position: Mapping[str, Any]
    text: Mapping[str, LessonText]
    solution: tuple[str, ...]
    goal: Goal
    wrong: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    options: Mapping[str, object] = field(default_factory=dict)
    budget: int | None = None

    @property
    def moves_allowed(self) -> int:
        return self.budget if self.budget is not None else len(self.solution)


class FinalText(TypedDict):
    """The course's last page: a small game against the AI."""

    title: str
    text: str


@dataclass(frozen=True)
class Course:
    """A game's lessons in order, and the small game against the AI that ends the course
    (``level``: an AI level, ``final_options``: the game options of that game)."""

    lessons: tuple[Lesson, ...]
    final: Mapping[str, FinalText]
    level: str = "beginner"
    final_options: Mapping[str, object] = field(default_factory=dict)

    def lesson(self, lesson_id: str) -> Lesson | None:
        return next((lesson for lesson in self.lessons if lesson.id == lesson_id), None)


Outcome = Literal["playing", "done", "refused", "failed"]


@dataclass
class Attempt:
    """Where a learner's moves got to: the state after the moves the lesson accepted (``moves``, in
    the engine's notation) and the ``outcome``. ``refused``: the next move was a listed wrong try
    (``explanation`` in the lesson's words) or illegal (``reason``: the engine's refusal, and the
    lesson's hint as ``explanation``); ``failed``: the moves were legal but the goal was not
    reached in the moves allowed (the hint); ``done``: the goal is reached."""

    state: State
    moves: list[str]
    outcome: Outcome
    seat: int
    explanation: str | None = None
    reason: str | None = None
    wrong: str | None = None


def course_of(game: str) -> Course | None:
    """The declared course of a registered game (None: it has none)."""
    return game_info(game).lessons()


@cache
def _start(game: str, lesson: Lesson) -> State:
    return start_state(game, lesson)


def start_state(game: str, lesson: Lesson) -> State:
    """The lesson's position on the engine (a ``PositionError`` if the engine refuses it)."""
    return load_game(game, **lesson.options).state_from_position(dict(lesson.position))


def _same(state: State, move: str, key: str) -> bool:
    """Whether ``move`` is the wrong try ``key``: the same action for the engine, or the same text."""
    try:
        return state.string_to_action(move) == state.string_to_action(key)
    except PalaestraError:
        return move.strip().lower() == key.strip().lower()


def attempt(game: str, lesson: Lesson, moves: Sequence[str], lang: str = "en") -> Attempt:
    """Play ``moves`` on the lesson's position as far as the lesson accepts them (see
    :class:`Attempt`). Moves after the goal is reached, or after a refusal, are not looked at."""
    start = _start(game, lesson).clone()  # a copy each: requests run in threads, states cache lazily
    state = start.clone()
    words = lesson.text.get(lang) or lesson.text["en"]
    seat = state.current_player
    played: list[str] = []
    on_solution = True  # every move so far is the solution's: its next move is never a wrong try
    for move in moves:
        step = len(played)
        on_solution = (
            on_solution and step < len(lesson.solution) and _same(state, move, lesson.solution[step])
        )
        key = None if on_solution else next((k for k in lesson.wrong if _same(state, move, k)), None)
        if key is not None:
            texts = lesson.wrong[key]
            return Attempt(state, played, "refused", seat, texts.get(lang) or texts["en"], wrong=key)
        try:
            action = state.string_to_action(move)
            text = state.action_to_string(action)
            state.apply_action(action)
        except PalaestraError as err:
            return Attempt(state, played, "refused", seat, words["hint"], reason=str(err))
        played.append(text)
        if lesson.goal(start, state):
            return Attempt(state, played, "done", seat, words["done"])
        if len(played) >= lesson.moves_allowed or state.current_player != seat:
            return Attempt(state, played, "failed", seat, words["hint"])
    return Attempt(state, played, "playing", seat)


def _reachable(lesson: Lesson, start: State, state: State, left: int, budget: list[int]) -> bool:
    """Whether the seat to move in ``start`` can still reach the goal from ``state`` within ``left``
    moves of its own (a bounded search: ``budget`` counts the states it may look at)."""
    if lesson.goal(start, state):
        return True
    if left <= 0 or state.current_player != start.current_player or budget[0] <= 0:
        return False
    for action in state.legal_actions():
        budget[0] -= 1
        after = state.clone()
        after.apply_action(action)
        if _reachable(lesson, start, after, left - 1, budget):
            return True
    return False


def problems(game: str, lesson: Lesson, search: int = 20000) -> list[str]:
    """What is wrong with a lesson, checked on the engine (empty when nothing is): its position
    loads; its goal is not reached yet; its solution is legal, reaches the goal and fits the moves
    allowed; every text is there in every language; every wrong try is explained in every language
    and, in the lesson's position, is illegal or cannot reach the goal in the moves left (searched
    over at most ``search`` states)."""
    found: list[str] = []
    for lang in LESSON_LANGUAGES:
        words = lesson.text.get(lang)
        missing = [k for k in LessonText.__annotations__ if not words or not str(words.get(k, "")).strip()]
        if missing:
            found.append(f"{lesson.id}: no {lang} text for {', '.join(missing)}")
        for move, texts in lesson.wrong.items():
            if not str(texts.get(lang, "")).strip():
                found.append(f"{lesson.id}: the wrong try {move!r} is not explained in {lang}")
    try:
        start = start_state(game, lesson)
    except PalaestraError as err:
        return [*found, f"{lesson.id}: the engine refuses the position: {err}"]
    if lesson.goal(start, start):
        found.append(f"{lesson.id}: the goal is reached before any move")
    if len(lesson.solution) > lesson.moves_allowed:
        found.append(f"{lesson.id}: the solution takes more moves than allowed")
    solved = attempt(game, lesson, lesson.solution)
    if solved.outcome != "done" or len(solved.moves) != len(lesson.solution):
        why = solved.reason or solved.explanation or "the goal is not reached"
        found.append(f"{lesson.id}: the solution {' '.join(lesson.solution)} fails: {why}")
    for move in lesson.wrong:
        state = start.clone()
        try:
            state.apply_action(state.string_to_action(move))
        except PalaestraError:
            continue  # illegal: the engine refuses it too
        if _reachable(lesson, start, state, lesson.moves_allowed - 1, [search]):
            found.append(f"{lesson.id}: the wrong try {move!r} can still reach the goal")
    return found

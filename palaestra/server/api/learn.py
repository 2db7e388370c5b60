"""The courses "Learn to play" (issue 30; docs/web.md, "Learn to play"): a game's lessons, a
learner's moves checked on the engine, and a member's progress.

- ``GET /api/learn/GAME``: the course in a language: each lesson's texts, the AI level and texts of
  the game that ends it. A game declares its course (``WebAssets.lessons``,
  :mod:`palaestra.core.lessons`); nothing here knows a game.
- ``POST /api/learn/GAME/LESSON``: the learner's moves so far (notation) are played on the lesson's
  position by the engine (:func:`palaestra.core.lessons.attempt`); the answer is the position reached
  as the view a game screen gets (drawn by the game's own board renderer) with the legal moves, and
  the outcome: playing on, done, a wrong try refused with its explanation, or failed. Nothing is
  stored: the moves travel with each request.
- ``GET/PUT /api/account/lessons``: a signed-in member's lessons done, per game (stored by
  ``palaestra/server/lesson_store.py``), so that the progress follows them to another browser.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from pydantic import Field

from palaestra.core.errors import OptionError
from palaestra.core.lessons import Course, Lesson, attempt, course_of
from palaestra.core.registry import game_infos
from palaestra.server.api.auth import Member
from palaestra.server.api.deps import HubDep
from palaestra.server.api.errors import errors
from palaestra.server.api.models import Strict
from palaestra.server.api.responses import Out
from palaestra.server.rules_examples import position_view
from palaestra.server.service.errors import DomainError

router = APIRouter(prefix="/api", tags=["learn"])

#: the most moves a try may send (no lesson is longer)
MAX_MOVES = 40
GameName = Annotated[str, Path(max_length=64, pattern=r"^[a-z][a-z0-9_]*$", description="a game's name")]
LessonId = Annotated[str, Path(max_length=64, pattern=r"^[a-z0-9_-]+$", description="a lesson's id")]
Language = Annotated[str, Query(pattern="^(en|de|fr)$", description="the language of the texts")]
Move = Annotated[str, Field(min_length=1, max_length=64)]
Ids = Annotated[list[Annotated[str, Field(max_length=64)]], Field(max_length=64)]


class Try(Strict):
    moves: list[Move] = Field(max_length=MAX_MOVES, description="the learner's moves so far, in notation")


class Progress(Strict):
    progress: dict[Annotated[str, Field(max_length=64)], Ids] = Field(
        max_length=32, description="per game, the ids of the lessons done"
    )


class CourseView(Out):
    game: str
    title: str
    level: str = Field(description="the AI level of the game that ends the course")
    final_options: dict[str, Any]
    final: dict[str, str] = Field(description="title and text of the course's last page")
    lessons: list[dict[str, Any]] = Field(description="id, title, intro, task, hint, done")


class AttemptView(Out):
    outcome: str = Field(description="playing, done, refused (a wrong try) or failed")
    moves: list[str] = Field(description="the moves the lesson accepted")
    explanation: str | None = Field(None, description="in the lesson's words")
    reason: str | None = Field(None, description="the engine's refusal of an illegal move (English)")
    wrong: str | None = Field(None, description="the listed wrong try the move was")
    view: dict[str, Any] = Field(description="the position reached, as a game's view")


class ProgressView(Out):
    progress: dict[str, list[str]]


def _course(game: str) -> Course:
    try:
        course = course_of(game)
    except (OptionError, ImportError, AttributeError, ValueError):
        course = None
    if course is None:
        names = ", ".join(i.name for i in game_infos() if i.web.lessons is not None)
        raise DomainError("lesson_not_found", f"{game!r} has no course (courses: {names})")
    return course


def _lesson(game: str, lesson_id: str) -> Lesson:
    found = _course(game).lesson(lesson_id)
    if found is None:
        ids = ", ".join(lesson.id for lesson in _course(game).lessons)
        raise DomainError("lesson_not_found", f"{game} has no lesson {lesson_id!r} (lessons: {ids})")
    return found


@router.get(
    "/learn/{game}",
    summary="A game's course for newcomers: its lessons' texts, the AI level of the game that ends it",
    response_model=CourseView,
    responses=errors("lesson_not_found", "invalid_request", common=False),
)
async def course(game: GameName, lang: Language = "en") -> dict[str, Any]:
    found = _course(game)
    info = next(i for i in game_infos() if i.name == game)
    return {
        "game": game,
        "title": info.title,
        "level": found.level,
        "final_options": dict(found.final_options),
        "final": dict(found.final.get(lang) or found.final["en"]),
        "lessons": [
            {"id": lesson.id, **(lesson.text.get(lang) or lesson.text["en"])} for lesson in found.lessons
        ],
    }


def _attempt_view(game: str, lesson: Lesson, moves: list[str], lang: str) -> dict[str, Any]:
    tried = attempt(game, lesson, moves, lang)
    state = tried.state
    # the learner's moves as a game's move list (all of them the learner's seat's)
    played = [{"player": tried.seat, "move": move} for move in tried.moves]
    playing = tried.outcome in ("playing", "refused")
    return {
        "outcome": tried.outcome,
        "moves": tried.moves,
        "explanation": tried.explanation,
        "reason": tried.reason,
        "wrong": tried.wrong,
        "view": position_view(state, played, f"lesson-{lesson.id}", legal=playing),
    }


@router.post(
    "/learn/{game}/{lesson_id}",
    summary="Play a learner's moves on a lesson's position: the position reached and the outcome",
    response_model=AttemptView,
    responses=errors("lesson_not_found", "invalid_request", body=True, common=False),
)
async def try_lesson(game: GameName, lesson_id: LessonId, body: Try, lang: Language = "en") -> dict[str, Any]:
    lesson = _lesson(game, lesson_id)
    # the engine's work (a few moves) in a worker thread: the event loop stays free
    return await asyncio.to_thread(_attempt_view, game, lesson, list(body.moves), lang)


@router.get(
    "/account/lessons",
    summary="Your lessons done, per game",
    response_model=ProgressView,
    responses=errors("sign_in_required"),
)
async def my_lessons(hub: HubDep, member: Member) -> dict[str, Any]:
    return {"progress": await asyncio.to_thread(hub.lessons.progress, member.account.id)}


def _checked(progress: dict[str, list[str]]) -> dict[str, list[str]]:
    """The progress with every game's lessons in course order, once each; an unknown game or lesson
    is a 400 (nothing is stored)."""
    checked: dict[str, list[str]] = {}
    for game, done in progress.items():
        try:
            known = [lesson.id for lesson in _course(game).lessons]
        except DomainError:
            raise DomainError("unknown_lesson", f"{game!r} has no course") from None
        unknown = sorted(set(done) - set(known))
        if unknown:
            raise DomainError(
                "unknown_lesson", f"{game} has no lesson {unknown[0]!r} (lessons: {', '.join(known)})"
            )
        if done:
            checked[game] = [lesson for lesson in known if lesson in done]
    return checked


@router.put(
    "/account/lessons",
    summary="Replace your lessons done (the browser sends what it knows joined with what it read)",
    response_model=ProgressView,
    responses=errors("sign_in_required", "csrf", "unknown_lesson", body=True),
)
async def save_lessons(hub: HubDep, member: Member, body: Progress) -> dict[str, Any]:
    progress = _checked(body.progress)
    await asyncio.to_thread(hub.lessons.save, member.account.id, progress)
    return {"progress": progress}

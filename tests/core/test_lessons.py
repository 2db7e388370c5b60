"""Issue 30, "Learn to play": every game's lessons checked on the engine. A lesson whose position
the engine refuses, whose solution is illegal or misses the goal, whose wrong try could still reach
the goal, or that lacks a text in English, German or French fails here."""

from __future__ import annotations

import dataclasses
import re

import pytest

from palaestra.core.lessons import LESSON_LANGUAGES, Course, Lesson, attempt, course_of, problems, start_state
from palaestra.core.registry import game_infos

COURSES = {info.name: course_of(info.name) for info in game_infos() if info.web.lessons is not None}
LESSONS = [(game, lesson) for game, course in COURSES.items() if course for lesson in course.lessons]


def test_each_game_has_a_course_with_the_rulebooks_ideas() -> None:
    ids = {game: [lesson.id for lesson in course.lessons] for game, course in COURSES.items() if course}
    assert ids == {
        "athos": ["walking", "flipping", "rubble", "stone", "placement", "end"],
        "archimedes": ["distance", "blocking", "home"],
        "agamemnon": ["strings", "control", "leaders", "weft", "warp", "oracle"],
    }
    for course in COURSES.values():
        assert isinstance(course, Course) and course.level == "beginner"
        assert set(course.final) == set(LESSON_LANGUAGES)


@pytest.mark.parametrize(("game", "lesson"), LESSONS, ids=[f"{g}-{lesson.id}" for g, lesson in LESSONS])
def test_the_engine_accepts_the_lesson(game: str, lesson: Lesson) -> None:
    assert problems(game, lesson) == []
    for lang in LESSON_LANGUAGES:  # every text in every language, and a different one in each
        assert all(lesson.text[lang][k].strip() for k in ("title", "intro", "task", "hint", "done"))
    assert lesson.text["de"]["task"] != lesson.text["en"]["task"] != lesson.text["fr"]["task"]
    # each wrong try is refused with its own words, in each language
    for move, texts in lesson.wrong.items():
        for lang in LESSON_LANGUAGES:
            tried = attempt(game, lesson, [move], lang)
            assert (tried.outcome, tried.explanation, tried.moves) == ("refused", texts[lang], [])


def test_a_lesson_the_engine_rejects_fails_the_check() -> None:
    walking = next(lesson for game, lesson in LESSONS if lesson.id == "walking")
    broken = {
        "an illegal solution": dataclasses.replace(walking, solution=("j15-k16", "k16-m16")),
        "a solution that misses the goal": dataclasses.replace(walking, solution=("j15-k14",), wrong={}),
        "an impossible position": dataclasses.replace(
            walking,
            position={**walking.position, "monks": [["j15", "j15", "B"], ["D", "D", "D"]], "points": 0},
        ),
        "a wrong try that is the way": dataclasses.replace(
            walking, wrong={"j15-i16": walking.wrong["j15-k14"]}
        ),
        "a text missing in French": dataclasses.replace(
            walking, text={k: walking.text[k] for k in ("en", "de")}
        ),
        "a goal reached already": dataclasses.replace(walking, goal=lambda start, now: True),
    }
    for what, lesson in broken.items():
        assert problems("athos", lesson), what


def test_the_distances_the_archimedes_lessons_name_are_the_engines() -> None:
    """ARC-M1: "the cube on g10 has distance 4", "your cube on f11 moves 3 cells" say what the
    engine counts in the lesson's position (a wrong number taught a wrong rule once)."""
    claims = 0
    for lesson in COURSES["archimedes"].lessons:  # type: ignore[union-attr]
        state = start_state("archimedes", lesson)
        distance = {c["cell"]: c["distance"] for side in state.score_details()["cubes"] for c in side}
        words = " ".join([*lesson.text["en"].values(), *(w["en"] for w in lesson.wrong.values())])
        for cell, n in re.findall(r"cube on (\w\d+) (?:has distance|moves|counts) (\d+)", words):
            assert distance[cell] == int(n), (lesson.id, cell)
            claims += 1
    assert claims >= 3

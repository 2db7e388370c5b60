"""One view model (issue 32): the view of a game is the Pydantic ``GameView``, made from a
``ViewInputs`` and nothing else, and those inputs are its cache key
(palaestra/server/service/view.py). A view kept must always be the view the game's inputs make
now: a field that changed the view without changing the key would fail here."""

from __future__ import annotations

import copy
import dataclasses
import json
import warnings
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from palaestra.server.service.hub import Hub
from palaestra.server.service.session import Session
from palaestra.server.service.view import GameSummary, GameView, SeatView, ViewInputs, Views, to_json
from tests.server.test_api import INVITED, create, play, wait_for

PER_MOVE_30 = {"type": "per_move", "seconds": 30}


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def made_afresh(session: Session) -> dict[str, Any]:
    """The view the session's inputs make now, with nothing kept from before, as JSON."""
    views = Views()
    views.fresh(session.view_inputs())
    out: dict[str, Any] = json.loads(views.json(session.now()))
    return out


def other(value: Any) -> Any:
    """A value of an input that is not the same: another value, or an equal copy (another object)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if value is None:
        return {}
    if isinstance(value, tuple):
        return (value[0].clone(), value[1])
    if hasattr(value, "since"):  # the clock (a value)
        return dataclasses.replace(value, since=value.since + 1)
    if hasattr(value, "isoformat"):
        return value + timedelta(seconds=1)
    if hasattr(value, "clone"):  # the state
        return value.clone()
    return copy.copy(value)


@pytest.mark.parametrize("name", [f.name for f in dataclasses.fields(ViewInputs)])
def test_each_input_of_the_view_is_part_of_its_key(client: TestClient, name: str) -> None:
    created = create(client, time_control=PER_MOVE_30)
    gid, token = created["id"], created["seats"][0]["token"]
    assert play(client, gid, token, 0, move="take 1").status_code == 200  # an undo entry, a move
    session = client.portal.call(hub_of(client).get, gid)
    inputs = session.view_inputs()
    assert session.view_inputs() == inputs  # read twice, the same key
    views = Views()
    assert views.fresh(inputs) and not views.fresh(session.view_inputs())
    kept = views.made
    value = getattr(inputs, name)
    changed = dataclasses.replace(inputs, **{name: other(value)})
    assert getattr(changed, name) is not value
    assert changed != inputs
    assert views.fresh(changed) and views.made is not kept  # made anew


def test_objects_are_compared_by_identity_and_values_by_value(client: TestClient) -> None:
    created = create(client)
    session = client.portal.call(hub_of(client).get, created["id"])
    inputs = session.view_inputs()
    # an equal state that is another object: a change replaced it
    assert dataclasses.replace(inputs, state=inputs.state.clone()) != inputs
    # an equal value (a new string object) is the same input
    assert dataclasses.replace(inputs, status="".join(["act", "ive"])) == inputs


def walk(client: TestClient, clock: dict[str, Any] | None) -> list[str]:
    """A game through every kind of change a client makes; after each, the view kept (and its JSON)
    must be the view made afresh from the game's inputs. Returns what was done."""
    created = create(client, seats=INVITED, seed=None, public=False, time_control=clock)
    gid, t0 = created["id"], created["seats"][0]["token"]
    hub = hub_of(client)
    session = client.portal.call(hub.get, gid)
    done = []

    def check(what: str) -> None:
        now, at = session.now, session.now()
        session.now = lambda: at  # the clock's times of the three reads alike
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no serializer warning: the data matches the model
            encoded = session.view_json()
            view = session.view()
        # the bytes pydantic's own serializer makes of the model, clock and all
        assert encoded == view.__pydantic_serializer__.to_json(view), what
        kept = json.loads(encoded)
        assert kept == made_afresh(session), what
        assert kept == client.get(f"/api/games/{gid}").json(), what
        GameView.model_validate(kept)  # the documented shape, extra fields forbidden
        session.now = now
        done.append(what)

    check("created")
    code = created["seats"][1]["invite"].rsplit("/", 1)[1]
    revoked = client.post(
        f"/api/games/{gid}/seats/1/invitation", headers={"X-Creator-Token": created["creator_token"]}
    )
    if revoked.status_code == 200:
        code = revoked.json()["invite"].rsplit("/", 1)[1]
        check("invitation made anew")
    joined = client.post(f"/api/games/{gid}/join", json={"code": code, "name": "Bea"})
    assert joined.status_code == 200, joined.text
    t1 = joined.json()["token"]
    check("joined")
    assert play(client, gid, t0, 0, move="take 1").status_code == 200
    check("action")
    assert play(client, gid, t1, 1, move="take 2").status_code == 200
    check("another action")
    undo = client.post(f"/api/games/{gid}/undo", json={"token": t1, "ply": 2})
    if undo.status_code == 200:
        check("undo")
    ply = session.ply
    assert play(client, gid, [t0, t1][session.state.current_player], ply, move="take 1").status_code == 200
    check("action after")
    assert client.post(f"/api/games/{gid}/resign", json={"token": t0}).status_code == 200
    check("resigned")
    assert client.post(f"/api/games/{gid}/rematch", json={"token": t0}).status_code == 200
    check("rematch offered")
    assert client.post(f"/api/games/{gid}/rematch", json={"token": t1}).status_code == 200
    check("rematch accepted")
    return done


@pytest.mark.parametrize("clock", [None, PER_MOVE_30])
def test_the_view_kept_is_the_view_made_afresh_after_every_kind_of_change(
    client: TestClient, clock: dict[str, Any] | None
) -> None:
    done = walk(client, clock)
    assert {"joined", "action", "resigned", "rematch offered", "rematch accepted"} <= set(done)


def test_a_view_with_a_clock_shares_its_bytes_but_for_the_clock(client: TestClient) -> None:
    created = create(client, time_control=PER_MOVE_30)
    session = client.portal.call(hub_of(client).get, created["id"])
    assert session.clock is not None
    start = session.clock.since  # the clock's last change: seat 0's time runs from there
    session.now = lambda: start + 5.0
    first = session.view_json()
    view = session.view()
    session.now = lambda: start + 7.0
    second = session.view_json()
    assert first != second and first.split(b',"clock":')[0] == second.split(b',"clock":')[0]
    assert json.loads(second) == session.view().model_dump(mode="json")
    assert view.clock is not None and view.clock.seats[0].left == pytest.approx(25.0)
    assert session.view().clock is not view.clock  # the clock made for each call, the rest shared
    assert session.view().moves is view.moves


def test_json_a_lone_surrogate_cannot_hold_falls_back_to_escapes() -> None:
    seat = SeatView.model_construct(
        seat=0,
        player_name="A",
        kind="human",
        name="\ud800",
        level=None,
        joined=True,
        invitation=None,
        member=None,
    )
    summary = GameSummary.model_construct(
        id="g",
        game="nim",
        title="Nim",
        options={},
        seats=[seat],
        ply=0,
        moves_played=0,
        status="active",
        to_move=None,
        result=None,
        updated="2026-11-27T00:00:00+00:00",
    )
    encoded = to_json(summary)
    assert b"\\ud800" in encoded and json.loads(encoded)["seats"][0]["name"] == "\ud800"


@pytest.mark.parametrize("game", ["archimedes", "athos", "agamemnon"])
def test_the_json_of_a_real_game_is_the_bytes_pydantic_makes(client: TestClient, game: str) -> None:
    """``to_json`` writes the models' fields with orjson: byte for byte what the models' own
    serializer writes, for the games' states, scores, moves and legal moves."""
    r = client.post("/api/games", json={"game": game, "seats": [{"kind": "human", "joined": True}] * 2})
    assert r.status_code == 201, r.text
    gid, tokens = r.json()["id"], [s["token"] for s in r.json()["seats"]]
    session = client.portal.call(hub_of(client).get, gid)
    for turn in range(6):
        view = wait_for(client, gid, lambda v: v["legal"] or v["status"] != "active")  # chance: the server
        if view["legal"]:
            action = view["legal"][turn * 7 % len(view["legal"])]["action"]
            body = {"token": tokens[view["current_player"]], "ply": view["ply"], "action": action}
            assert client.post(f"/api/games/{gid}/actions", json=body).status_code == 200
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            model = session.view()
            assert session.view_json() == model.__pydantic_serializer__.to_json(model)
    assert session.ply > 0

"""The position documents as Pydantic models (issue 32): every game's position of a random legal
state survives dump -> load -> dump; garbage, and real documents with a part replaced by garbage,
are refused with the game's own error (PositionError for positions, RecordError for saved
states), never another exception; the models give a JSON schema; a shape error is worded from
the game's hints (palaestra/core/documents.py)."""

from __future__ import annotations

import copy
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field

from palaestra.core.documents import Document, validate
from palaestra.core.errors import PositionError, RecordError
from palaestra.core.game import Game, State, random_playout
from palaestra.core.registry import load_game
from palaestra.games.agamemnon.position import AgamemnonPosition
from palaestra.games.agamemnon.saved import SavedDocument
from palaestra.games.archimedes.position import ArchimedesPosition
from palaestra.games.athos.position import AthosPosition

#: the games with a position format, with options that reach their variants
SETUPS: list[tuple[str, dict[str, Any]]] = [
    ("athos", {}),
    ("athos", {"players": 3, "bare_stone": True}),
    ("athos", {"players": 4, "teams": True}),
    ("athos", {"handicap_player": 1, "handicap_tiles": 3}),
    ("archimedes", {}),
    ("archimedes", {"players": 3, "revisit": True}),
    ("agamemnon", {}),
    ("agamemnon", {"loom": True, "oracle": True}),
    ("agamemnon", {"defying": True, "first": 1}),
]

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def played(data: st.DataObject) -> State:
    """A legal state: a random playout of a random length from the start of a random set-up."""
    name, options = data.draw(st.sampled_from(SETUPS), label="setup")
    state = load_game(name, **options).new_initial_state(seed=data.draw(st.integers(0, 2**16), label="seed"))
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="playout"))
    random_playout(state, rng, plies=data.draw(st.integers(0, 300), label="plies"))
    return state


@SETTINGS
@given(st.data())
def test_a_random_legal_position_survives_dump_load_dump(data: st.DataObject) -> None:
    state = played(data)
    doc = json.loads(json.dumps(state.to_position()))  # as a file or a request holds it
    again = state.game.state_from_position(doc)
    assert again.to_position() == doc
    assert again.is_terminal() == state.is_terminal()
    assert again.scores() == state.scores()
    saved = json.loads(json.dumps(state.to_json()))
    assert state.game.state_from_json(saved).to_json() == saved


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
#: values that are close to what a field holds, so that the checks past the shape are reached
NEAR = st.sampled_from(
    [0, 1, 2, -1, 5, 48, 99, True, None, "a2", "c6", "k8", "B", "W2", "WARP", "loom", "move", "place", [], {}]
)


def mutated(doc: Any, data: st.DataObject, depth: int = 0) -> Any:
    """``doc`` with one part (at any depth) replaced by garbage, dropped, or one field added."""
    if isinstance(doc, dict) and doc and depth < 4 and data.draw(st.integers(0, 3), label="descend"):
        key = data.draw(st.sampled_from(sorted(doc)), label="key")
        action = data.draw(st.sampled_from(["descend", "replace", "drop", "add"]), label="action")
        out = dict(doc)
        if action == "descend":
            out[key] = mutated(doc[key], data, depth + 1)
        elif action == "replace":
            out[key] = data.draw(NEAR | JSON, label="value")
        elif action == "drop":
            del out[key]
        else:
            out[data.draw(st.text(max_size=6), label="new key")] = data.draw(NEAR, label="value")
        return out
    if isinstance(doc, list) and doc and depth < 4 and data.draw(st.booleans(), label="into list"):
        i = data.draw(st.integers(0, len(doc) - 1), label="item")
        out_list = list(doc)
        if data.draw(st.booleans(), label="replace item"):
            out_list[i] = data.draw(NEAR | JSON, label="item value")
        else:
            out_list[i] = mutated(doc[i], data, depth + 1)
        return out_list
    return data.draw(NEAR | JSON, label="garbage")


def refused_or_read(game: Game, doc: Any) -> None:
    """The game reads ``doc`` as a position or refuses it with a PositionError with a message; a
    position it reads is one it writes and reads again."""
    try:
        state = game.state_from_position(doc)
    except PositionError as err:
        assert str(err)
        return
    assert game.state_from_position(state.to_position()).to_position() == state.to_position()


@pytest.mark.slow  # docs/testing.md: over 2 s on the loaded development machine
@SETTINGS
@given(st.data())
def test_garbage_positions_are_refused_with_the_games_error(data: st.DataObject) -> None:
    name, options = data.draw(st.sampled_from(SETUPS), label="setup")
    refused_or_read(load_game(name, **options), data.draw(JSON, label="document"))


@pytest.mark.slow  # docs/testing.md: over 2 s on the loaded development machine
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_real_positions_with_garbage_in_them_are_refused_with_the_games_error(data: st.DataObject) -> None:
    state = played(data)
    doc = mutated(copy.deepcopy(state.to_position()), data)
    refused_or_read(state.game, doc)


@pytest.mark.slow  # docs/testing.md: over 2 s on the loaded development machine
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_saved_states_with_garbage_in_them_are_refused_with_a_record_error(data: st.DataObject) -> None:
    state = played(data)
    saved = state.to_json()
    own = {k: v for k, v in saved.items() if k not in ("game", "options")}
    doc = mutated(own, data)  # the game and the options are the core's to check (test_core.py)
    if isinstance(doc, dict):
        doc.update(game=saved["game"], options=saved["options"])
    try:
        again = state.game.state_from_json(doc)
    except RecordError as err:
        assert str(err)
        return
    assert state.game.state_from_json(again.to_json()).to_json() == again.to_json()


# --- the models -------------------------------------------------------------------------------------
@pytest.mark.parametrize("model", [AthosPosition, ArchimedesPosition, AgamemnonPosition, SavedDocument])
def test_the_models_give_a_json_schema_of_the_document(model: type[BaseModel]) -> None:
    schema = model.model_json_schema()
    assert schema["type"] == "object"
    # no unknown fields, but a saved state leaves the core's fields to the core
    assert schema.get("additionalProperties", True) is (model is SavedDocument)
    assert set(schema["properties"]) == set(model.model_fields)


SCHEMAS = Path(__file__).resolve().parents[2] / "docs" / "schemas"
PUBLISHED = {"athos": AthosPosition, "archimedes": ArchimedesPosition, "agamemnon": AgamemnonPosition}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_the_published_schemas_are_the_models_schemas(name: str) -> None:
    """docs/schemas/GAME-position.json (docs/formats.md) is the model's schema; after a change of a
    model, ``PALAESTRA_WRITE_SCHEMAS=1 pytest tests/core/test_position_documents.py`` writes them."""
    path = SCHEMAS / f"{name}-position.json"
    schema = PUBLISHED[name].model_json_schema()
    if os.environ.get("PALAESTRA_WRITE_SCHEMAS"):
        path.write_text(json.dumps(schema, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert json.loads(path.read_text(encoding="utf-8")) == schema, f"rewrite {path} (see the docstring)"


def test_the_schema_states_the_shape_of_the_fields() -> None:
    athos = AthosPosition.model_json_schema()
    assert athos["properties"]["phase"]["enum"] == ["handicap", "move", "stone", "relocated", "place", "over"]
    assert athos["properties"]["points"]["maximum"] == 14
    agamemnon = AgamemnonPosition.model_json_schema()
    tile = agamemnon["$defs"]["AgamemnonTile"]
    assert tile["required"] == ["space", "player", "tile"] and tile["properties"]["player"]["maximum"] == 1


class Item(Document):
    n: int = 0


class Doc(Document):
    items: list[Item] = Field(default_factory=list)
    size: int = 0


HINTS = {
    "": "a doc is an object",
    "!extra": "no field {name!r}",
    "items": "'items' is a list of items",
    "items.n": "item {i}: n is a whole number, not {value!r}",
}


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([], "a doc is an object"),
        ({"colour": 1}, "no field 'colour'"),
        ({"items": 3}, "'items' is a list of items"),
        ({"items": [{}, {"n": "2"}]}, "item 2: n is a whole number, not '2'"),
        ({"items": [{"n": True}]}, "item 1: n is a whole number, not True"),  # strict: a bool is no number
        ({"items": [{"n": 1, "m": 2}]}, "'items' is a list of items"),
        ({"size": 1.0}, "size: input should be a valid integer, not 1.0"),  # no hint: pydantic's words
    ],
)
def test_a_shape_error_is_worded_from_the_hints(doc: Any, message: str) -> None:
    with pytest.raises(PositionError) as err:
        validate(Doc, doc, HINTS)
    assert str(err.value) == message


@pytest.mark.parametrize(
    "field", ["points", "stones_left", "unused", "finishers", "final_round", "handicap_left"]
)
def test_an_athos_field_left_out_takes_its_default_but_null_is_refused_as_before(field: str) -> None:
    game = load_game("athos")
    assert game.state_from_position({"game": "athos"}).to_position() == game.new_initial_state().to_position()
    with pytest.raises(PositionError, match=f"^'{field}' "):
        game.state_from_position({"game": "athos", field: None})


def test_an_unhashable_agamemnon_tile_code_is_a_position_error_not_a_type_error() -> None:
    doc = {"game": "agamemnon", "tiles": [{"space": 1, "player": 0, "tile": ["A"]}]}
    with pytest.raises(PositionError, match=r"tile 1: unknown tile \['A'\]"):
        load_game("agamemnon").state_from_position(doc)


def test_a_shape_error_is_the_error_asked_for() -> None:
    with pytest.raises(RecordError, match="a doc is an object"):
        validate(Doc, 3, HINTS, error=RecordError)

"""FastAPI dependencies shared by the routers: the service parts of the app, and the secrets a
client shows in headers."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Path
from starlette.requests import HTTPConnection

from palaestra.server.api.guards import Guards
from palaestra.server.db import Store
from palaestra.server.service.hub import Hub

#: a game id in a path (one that cannot be an id is a 404 ``game_not_found``)
GameId = Annotated[str, Path(description="the game's id")]
#: a seat number in a path
SeatNumber = Annotated[int, Path(ge=0, le=16, description="the seat, from 0")]


def get_hub(connection: HTTPConnection) -> Hub:
    hub: Hub = connection.app.state.hub
    return hub


def get_store(connection: HTTPConnection) -> Store:
    store: Store = connection.app.state.store
    return store


def get_guards(connection: HTTPConnection) -> Guards:
    guards: Guards = connection.app.state.guards
    return guards


# The dependencies are ``async`` although they never wait: FastAPI runs a plain function
# dependency in a worker thread, a hop per dependency and request (docs/benchmarks.md).


async def _hub(connection: HTTPConnection) -> Hub:
    return get_hub(connection)


async def _store(connection: HTTPConnection) -> Store:
    return get_store(connection)


async def _guards(connection: HTTPConnection) -> Guards:
    return get_guards(connection)


HubDep = Annotated[Hub, Depends(_hub)]
StoreDep = Annotated[Store, Depends(_store)]
GuardsDep = Annotated[Guards, Depends(_guards)]
#: the creator token (managing invitations); name the parameter ``x_creator_token``
CreatorToken = Annotated[str, Header(max_length=64, description="the creator token")]
#: a seat's secret token; name the parameter ``x_seat_token``
SeatToken = Annotated[str | None, Header(description="a seat's secret token")]

"""``palaestra accounts``: operators' view of the members (docs/accounts.md, "Operations")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from palaestra.i18n.help import Command, Group

if TYPE_CHECKING:
    from palaestra.server.account_store import AccountStore

accounts_app = typer.Typer(
    cls=Group,
    help="Members' accounts: list them, close one (no sign-in, its sessions end) or reopen it.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

DatabaseOpt = Annotated[
    str | None,
    typer.Option(
        metavar="URL",
        envvar="PALAESTRA_DATABASE_URL",
        help="SQLAlchemy URL of the server's database (default: the SQLite file of `palaestra serve`).",
    ),
]
NameArg = Annotated[str, typer.Argument(metavar="NAME", help="The member's username (any case).")]


def _store(database_url: str | None) -> AccountStore:
    from palaestra.server.account_store import AccountStore
    from palaestra.server.db import Store, default_database_url

    store = Store(database_url or default_database_url())
    store.migrate()
    return AccountStore(store)


@accounts_app.command("list", cls=Command)
def list_accounts(database_url: DatabaseOpt = None) -> None:
    """List every account: name, joined, last active, open or closed."""
    store = _store(database_url)
    try:
        for account in store.listing():
            state = "closed" if account.closed else "open"
            active = account.active_at.date().isoformat()
            typer.echo(f"{account.username}\t{account.joined}\t{active}\t{state}")
    finally:
        store.store.close()


def _set_closed(name: str, closed: bool, database_url: str | None) -> None:
    store = _store(database_url)
    try:
        account = store.by_name(name)
        if account is None:
            typer.echo(f"error: no member is called {name!r}", err=True)
            raise typer.Exit(1)
        store.set_closed(account.id, closed)
        typer.echo(f"{account.username}: {'closed' if closed else 'open'}")
    finally:
        store.store.close()


@accounts_app.command("close", cls=Command)
def close(name: NameArg, database_url: DatabaseOpt = None) -> None:
    """Close an account: it cannot sign in and its sessions end; its games and ratings stay."""
    _set_closed(name, True, database_url)


@accounts_app.command("reopen", cls=Command)
def reopen(name: NameArg, database_url: DatabaseOpt = None) -> None:
    """Reopen a closed account."""
    _set_closed(name, False, database_url)

"""The ``palaestra`` command. Every sub-command drives games only through the core protocol."""

from __future__ import annotations

import json
import random
import shutil
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from palaestra.cli_accounts import accounts_app
from palaestra.core.chance import CHANCE_RULE, ChanceSource
from palaestra.core.driver import check_draws
from palaestra.core.errors import PalaestraError
from palaestra.core.game import CHANCE, Game
from palaestra.core.info import GameInfo
from palaestra.core.record import Record, load_state_file
from palaestra.core.registry import game_info, game_infos, load_game
from palaestra.i18n.help import Command, Group
from palaestra.terminal import TerminalGame, outcome_line, score_line

app = typer.Typer(
    cls=Group,  # --help in the user's language (palaestra/i18n/help.py)
    help="Palaestra: board games in the terminal and the browser (`palaestra games` lists them).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # click's plain help: no `<bool>` or `<list[str]>` type columns (finding 14)
)

GameArg = Annotated[
    str, typer.Argument(help="The game (`palaestra games` lists them and their options).", metavar="GAME")
]
PlayersOpt = Annotated[int | None, typer.Option("--players", "-p", metavar="N", help="Number of players.")]
VariantOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--variant", "-v", metavar="NAME", help="Switch a variant on (repeatable); see `palaestra games`."
    ),
]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", metavar="KEY=VALUE", help="Set a game option, KEY=VALUE (repeatable)."),
]
SeedOpt = Annotated[int | None, typer.Option("--seed", metavar="N", help="Seed for chance and agents.")]
#: commands that make a game take the game's own flags too (``GameInfo.cli_flags``, e.g. a board
#: file: ``--board FILE``); `palaestra games` lists them
GAME_FLAGS = {"allow_extra_args": True, "ignore_unknown_options": True}
GAME_FLAGS_EPILOG = "The game's own flags (`palaestra games` lists them) are accepted too."


def fail(message: str, code: int = 1) -> None:
    """Print an error for a person and exit."""
    typer.secho(f"error: {message}", fg=typer.colors.RED, err=True)
    raise typer.Exit(code)


def build_game(
    name: str,
    players: int | None,
    variants: list[str] | None,
    options: list[str] | None,
    extra: list[str] | None = None,
) -> Game:
    """A game from the command line's --players, --variant and --option values and the game's own
    flags in ``extra`` (the words the command did not know)."""
    info = game_info(name)
    given: dict[str, object] = {}
    declared = {o.name: o for o in info.options()}
    for v in variants or []:
        key = v.replace("-", "_")
        if key not in declared or not declared[key].is_variant:
            known = ", ".join(o.name for o in info.options() if o.is_variant) or "none"
            raise PalaestraError(f"{name} has no variant {v!r} (variants: {known})")
        given[key] = True
    for item in options or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise PalaestraError(f"--option takes KEY=VALUE, not {item!r}")
        given[key.strip().replace("-", "_")] = value.strip()
    if players is not None:
        given.update(info.options_for_players(players))
    given.update(game_flags(info, extra or []))
    return load_game(name, **given)


def game_flags(info: GameInfo, words: list[str]) -> dict[str, object]:
    """The options set by the game's own flags (``--FLAG VALUE`` or ``--FLAG=VALUE``)."""
    flags = {f"--{f.flag}": f for f in info.cli_flags}
    known = ", ".join(flags) or "none"
    given: dict[str, object] = {}
    rest = list(words)
    while rest:
        word = rest.pop(0)
        key, sep, value = word.partition("=")
        flag = flags.get(key)
        if flag is None:
            raise PalaestraError(f"{info.name} takes no {key} (its own flags: {known})")
        if not sep:
            if not rest:
                raise PalaestraError(f"{key} needs a value ({flag.metavar})")
            value = rest.pop(0)
        given[flag.option] = str(Path(value).resolve()) if flag.path else value
    return given


def guarded(func: Callable[..., None]) -> Callable[..., None]:
    """Turn Palaestra errors into a clear message and exit status 1."""
    import functools

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        try:
            func(*args, **kwargs)
        except PalaestraError as err:
            fail(str(err))

    return wrapper


# --------------------------------------------------------------------------------------------
@app.command(cls=Command)
@guarded
def games() -> None:
    """List the games with their options, variants and own flags."""
    import textwrap

    from palaestra.i18n import plain

    width = min(80, max(40, shutil.get_terminal_size((80, 24)).columns))

    def say(text: str, indent: int) -> None:
        typer.echo(
            textwrap.fill(text, width=width, initial_indent=" " * indent, subsequent_indent=" " * indent)
        )

    # for players (issue 30, finding 16): the options in the words the web form uses (the game's
    # option texts), no ruling IDs, long choice lists cut short, every line within 80 columns
    for info in sorted(game_infos(), key=lambda i: i.name):
        try:
            declared = info.options()
        except ImportError as err:  # a game still being written must not break the others
            typer.echo(f"{info.name}: not available ({err})")
            continue
        counts = ", ".join(map(str, info.player_counts))
        typer.echo(f"{info.name} — {info.title} ({counts} players)")
        for o in declared:
            if o.kind is dict:  # a document (the board as data): for the web API only
                continue
            label, explain = info.web.option_texts.get(o.name, ("", ""))
            kind = (
                "variant"
                if o.is_variant
                else {"int": "number", "str": "text"}.get(o.kind.__name__, o.kind.__name__)
            )
            default = (
                "unset"
                if o.default is None
                else "on"
                if o.default is True
                else "off"
                if o.default is False
                else o.default
            )
            typer.echo(f"  {o.name} ({kind}, default {default})" + (f": {label}" if label else ""))
            what = explain or plain(o.help).replace("RULINGS.md", "the rules")
            choices = [str(c) for c in o.choices or []]
            if len(choices) > 6:
                what += f"; {len(choices)} choices: {', '.join(choices[:3])}, …"
            elif choices and not o.is_variant:
                what += f"; choices: {', '.join(choices)}"
            say(what, 6)
        for f in info.cli_flags:
            say(f"--{f.flag} {f.metavar} sets {f.option}: {plain(f.help)}", 2)


# --------------------------------------------------------------------------------------------
def _default_record_path(game: Game) -> Path:
    """A new record in the data directory (issue 30, finding 15: it went to the current one)."""
    from palaestra.terminal import records_dir

    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    folder = records_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{game.name}-{stamp}.json"


def _remembered_opponents(rec: Record) -> tuple[str, int] | None:
    """(agent spec, your seat) of a record started with --vs: its players read you, AGENT, AGENT..."""
    if rec.players.count("you") != 1:
        return None
    seat = rec.players.index("you")
    others = {name for i, name in enumerate(rec.players) if i != seat}
    if len(others) != 1:
        return None
    (spec,) = others
    from palaestra.ai import make_agent

    try:
        make_agent(spec, seed=0)
    except (PalaestraError, ValueError, KeyError, TypeError):
        return None
    return spec, seat


@app.command(cls=Command, context_settings=GAME_FLAGS, epilog=GAME_FLAGS_EPILOG)
@guarded
def play(
    ctx: typer.Context,
    game_name: GameArg,
    players: PlayersOpt = None,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    vs: Annotated[
        str | None,
        typer.Option(
            metavar="LEVEL",
            help="The AI's level for every seat but yours: beginner, casual, strong or expert "
            "(random plays at random); hot seat when absent.",
        ),
    ] = None,
    seat: Annotated[
        int | None, typer.Option(metavar="N", help="Your seat against agents (0 = first).")
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option(metavar="FILE", help="Write the record here (default: a new file in the data folder)."),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE", help="Continue the game of this record (a path, or a name in the data folder)."
        ),
    ] = None,
    seed: SeedOpt = None,
    lang: Annotated[
        str | None,
        typer.Option(metavar="LANG", help="en, de or fr (default: the system's language)."),
    ] = None,
) -> None:
    """Play a game in the terminal: hot seat, or against an agent with --vs.

    Moves are typed in the game's notation; at the prompt `moves` lists the legal ones and
    `help` the commands. Every screen fits the terminal. Ctrl-C, end of input or `quit` saves
    the record; --resume FILE continues it against the same opponents.
    """
    from palaestra.i18n import LANGUAGES, system_language, tr

    if lang is not None and lang not in LANGUAGES:
        raise PalaestraError(f"--lang is one of {', '.join(LANGUAGES)}, not {lang!r}")
    lang = lang or system_language()
    if resume is not None:
        from palaestra.terminal import find_record

        resume = find_record(resume)
        rec, path = Record.load(resume), record or resume
        if rec.game != game_name.lower():
            raise PalaestraError(f"{resume} is a record of {rec.game}, not {game_name}")
        remembered = _remembered_opponents(rec)
        if vs is None and remembered is not None:
            vs, seat = remembered[0], remembered[1] if seat is None else seat
        replayed = (
            "resumed {path}: 1 move replayed" if len(rec.moves) == 1 else "resumed {path}: {n} moves replayed"
        )
        resumed = tr(replayed, lang, path=resume, n=len(rec.moves))
    else:
        game = build_game(game_name, players, variant, option, ctx.args)
        names = [game.player_name(p) for p in range(game.num_players)]
        if vs is not None:
            names = [("you" if p == (seat or 0) else vs) for p in range(game.num_players)]
        seed = random.SystemRandom().randrange(2**31) if seed is None else seed
        rec, path, resumed = Record.start(game, names, seed), record or _default_record_path(game), ""
    TerminalGame(rec, path, lang, vs, seat or 0).run(resumed)


def _moves(n: int) -> str:
    return f"{n} move{'' if n == 1 else 's'}"


# --------------------------------------------------------------------------------------------
@app.command(cls=Command)
@guarded
def replay(
    record: Annotated[Path, typer.Argument(metavar="RECORD", help="A game record (JSON).")],
    labels: Annotated[bool, typer.Option(help="Show the names of the spaces.")] = False,
) -> None:
    """Re-apply every action of a record, check it, print the final position and result."""
    rec = Record.load(record)
    state = rec.replay()
    rec.check_result(state)
    typer.echo(state.render(labels=labels))
    typer.echo(f"{_moves(len(rec.moves))} replayed")
    _check_draws(record, rec, finished=state.is_terminal() or rec.outcome is not None)
    if state.is_terminal():
        typer.echo(f"result: {state.result_text()}  ({score_line(state)})")
    elif rec.outcome is not None:  # checked above: settled, resigned, out of time, aborted
        typer.echo(f"result: {outcome_line(rec, 'en')}  ({score_line(state)})")
    else:
        typer.echo(
            f"game not finished; {state.game.player_name(state.current_player)} to move"
            if state.current_player >= 0
            else "game not finished"
        )


def _check_draws(path: Path, rec: Record, finished: bool) -> None:
    """A record from the web app carries its chance commitment (and, once over, the secret): check
    that every draw follows from the committed secret (docs/web.md, "Fairness of the draws").

    A record without draws has nothing to verify and says so. A finished record with draws that
    lacks what the check needs (its ``"chance"`` secret and commitment, or the seed of the current
    chance rule) cannot be verified: that fails (status 1) instead of passing in silence."""
    from palaestra.core.record import read_json
    from palaestra.server.fairness import verify

    draws = sum(1 for m in rec.moves if m.player == CHANCE)
    if not draws:
        typer.echo("draws: not verifiable (no chance)")
        return
    chance = read_json(path).get("chance")
    if not isinstance(chance, dict):
        if rec.chance_rule == CHANCE_RULE and rec.seed is not None:
            _check_seeded_draws(rec)
        elif finished:
            _cannot_verify(
                f"the record has {draws} draw{'' if draws == 1 else 's'} but neither the chance "
                f'secret ("chance") nor a seed of {CHANCE_RULE}'
            )
        else:
            typer.echo("draws: not verifiable (no chance secret or seed in the record)")
        return
    secret, promised = chance.get("secret"), chance.get("commitment")
    if not isinstance(promised, str):
        _cannot_verify('the record\'s "chance" has no commitment')
    if secret is None and not finished:
        typer.echo("draws: committed, not revealed yet (the game goes on)")
        return
    if not isinstance(secret, str):
        _cannot_verify("the game is over but the record does not reveal the chance secret (its 'secret')")
    verdict = verify(rec, chance)
    typer.echo(f"draws {'fair' if verdict.fair else 'NOT FAIR'}: {verdict.message}")
    if not verdict.fair:
        raise typer.Exit(1)


def _cannot_verify(why: str) -> NoReturn:
    typer.echo(f"cannot verify: {why}", err=True)
    raise typer.Exit(1)


def _check_seeded_draws(rec: Record) -> None:
    """A record of the current chance rule with a seed (``palaestra play``, the arena): say whether
    its draws are the ones the rule draws from the seed (a record's draws may come from elsewhere,
    a research loop: it replays all the same)."""
    if rec.chance_rule != CHANCE_RULE or rec.seed is None:
        return
    start = rec.chance_rule_from or 0
    count, problem = check_draws(rec, ChanceSource.from_seed(rec.seed), start)
    if problem is not None:
        typer.echo(f"draws: not those of seed {rec.seed} by {CHANCE_RULE}: {problem}")
    elif count:
        since = f" from move {start + 1} on" if start else ""
        typer.echo(f"draws: all {count}{since} are those of seed {rec.seed} by {CHANCE_RULE}")


@app.command(cls=Command)
@guarded
def score(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A record or a position (JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Print the live score of a record or a position."""
    state, _ = load_state_file(file)
    if as_json:
        typer.echo(json.dumps(state.score_details()))
    else:
        typer.echo(score_line(state))


@app.command(cls=Command, context_settings=GAME_FLAGS, epilog=GAME_FLAGS_EPILOG)
@guarded
def perft(
    ctx: typer.Context,
    game_name: GameArg,
    depth: Annotated[int, typer.Option("--depth", "-d", min=0, metavar="N", help="Plies to count.")],
    players: PlayersOpt = None,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    position: Annotated[
        Path | None, typer.Option(metavar="FILE", help="Start from this position (JSON).")
    ] = None,
    divide: Annotated[bool, typer.Option(help="Print the count below each first move.")] = False,
) -> None:
    """Count the leaf nodes of the move tree to a depth (a pass counts as one move)."""
    from palaestra.core import perft as pf

    if position is not None:
        state, _ = load_state_file(position)
        if state.game.name != game_name.lower():
            raise PalaestraError(f"{position} is a position of {state.game.name}, not {game_name}")
    else:
        state = build_game(game_name, players, variant, option, ctx.args).new_initial_state()
    if divide and depth >= 1:
        total = 0
        for move, count in pf.divide(state, depth):
            typer.echo(f"{move}: {count}")
            total += count
        typer.echo(f"\ntotal: {total}")
    else:
        typer.echo(str(pf.perft(state, depth)))


@app.command(cls=Command, context_settings=GAME_FLAGS, epilog=GAME_FLAGS_EPILOG)
@guarded
def match(
    ctx: typer.Context,
    game_name: GameArg,
    agents: Annotated[
        str,
        typer.Option(
            metavar="SPECS",
            help="Comma-separated agent specs, 2 up to one per seat (e.g. random,mcts:iterations=300,c=0.5);"
            " with fewer agents than seats they share the seats in turn.",
        ),
    ],
    n: Annotated[int, typer.Option("-n", min=1, metavar="N", help="Number of games.")] = 100,
    players: PlayersOpt = None,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    workers: Annotated[int, typer.Option(min=1, metavar="N", help="Games played in parallel.")] = 1,
    seed: SeedOpt = None,
    record_dir: Annotated[
        Path | None, typer.Option(metavar="DIR", help="Save every game's record here.")
    ] = None,
    adjudicate: Annotated[
        bool,
        typer.Option(help="End a game once its result can no longer change (settled), with that result."),
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help="Play the games as Ray tasks: '--ray' alone (or 'local') on a cluster of --workers CPUs"
            " started here, '--ray HOST:PORT' (or 'auto') on a running cluster (the cluster extra).",
        ),
    ] = None,
) -> None:
    """Play N games between agents (seats rotated) and print wins, draws, scores and Elo."""
    from rich.progress import Progress

    from palaestra.ai.arena import run_match
    from palaestra.ai.base import split_specs

    specs = split_specs(agents)
    if players is None and len(specs) > 2:
        try:  # as many seats as agents
            game = build_game(game_name, len(specs), variant, option, ctx.args)
        except PalaestraError as err:
            raise PalaestraError(f"{len(specs)} agents need {len(specs)} seats: {err}") from None
    else:
        game = build_game(game_name, players, variant, option, ctx.args)
    with Progress(disable=as_json or not sys.stderr.isatty(), transient=True) as progress:
        task = progress.add_task(f"{game.name}", total=n)

        def tick(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        result = run_match(
            game,
            specs,
            n,
            workers=workers,
            seed=seed,
            record_dir=record_dir,
            progress=tick,
            adjudicate=adjudicate,
            ray=ray,
        )
    if as_json:
        typer.echo(json.dumps(result.to_json(timings=True), indent=1))
    else:
        typer.echo(result.table())


@app.command(cls=Command)
@guarded
def serve(
    host: Annotated[str, typer.Option(metavar="HOST", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(metavar="PORT", help="Port to listen on.")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            metavar="URL",
            help="SQLAlchemy URL (default: PALAESTRA_DATABASE_URL, else a SQLite file in your data "
            "directory).",
        ),
    ] = None,
    redis_url: Annotated[
        str | None,
        typer.Option(
            metavar="URL",
            envvar="PALAESTRA_REDIS_URL",
            help="Redis (redis://HOST:PORT/DB or unix:///PATH): run as one of many server processes on "
            "one database, AI and chance moves played by `palaestra worker` (docs/deploy.md).",
        ),
    ] = None,
    access_log: Annotated[
        bool,
        typer.Option(
            "--access-log/--no-access-log",
            envvar="PALAESTRA_ACCESS_LOG",
            help="Log one line per HTTP request (uvicorn's access log; off by default: it costs CPU "
            "on every request).",
        ),
    ] = False,
) -> None:
    """Start the web app: play in the browser, alone, together or online."""
    from palaestra.server import serve as run_server

    run_server(host=host, port=port, database_url=database_url, redis_url=redis_url, access_log=access_log)


@app.command()
@guarded
def worker(
    redis_url: Annotated[
        str,
        typer.Option(metavar="URL", envvar="PALAESTRA_REDIS_URL", help="Redis of the server processes."),
    ],
    database_url: Annotated[
        str | None,
        typer.Option(
            metavar="URL",
            help="SQLAlchemy URL of the server processes' database (default: PALAESTRA_DATABASE_URL).",
        ),
    ] = None,
    jobs: Annotated[int, typer.Option(min=1, max=64, help="Moves played at once by this process.")] = 2,
    job_timeout: Annotated[
        float,
        typer.Option(
            min=1.0,
            metavar="SECONDS",
            help="A move still thinking after this long is stopped (and asked for again). A job of a "
            "killed worker is run again within 6 s (its lease, renewed while it runs).",
        ),
    ] = 60.0,
    ai_delay: Annotated[
        float, typer.Option(min=0.0, metavar="SECONDS", help="Least time an AI move takes (to be seen).")
    ] = 0.4,
) -> None:
    """Play AI and chance moves for `palaestra serve --redis-url` processes (docs/deploy.md)."""
    from palaestra.server.db import default_database_url
    from palaestra.server.settings import Settings
    from palaestra.server.worker import run_worker

    url = database_url or Settings.from_env().database_url or default_database_url()
    typer.echo(f"Palaestra worker on {_safe_url(redis_url)} (database: {_safe_url(url)})")
    run_worker(url, redis_url, jobs=jobs, job_timeout=job_timeout, ai_delay=ai_delay)


app.add_typer(accounts_app, name="accounts")


def _safe_url(url: str) -> str:
    from palaestra.server import _safe

    return _safe(url)


def _bare_ray_flag(argv: list[str]) -> list[str]:
    """``match ... --ray`` with no address (at the end, or before another option) means
    ``--ray local``: Typer has no option whose value may be left out."""
    out = list(argv)
    for i, arg in enumerate(out):
        if arg == "--ray" and (i + 1 == len(out) or out[i + 1].startswith("-")):
            out[i] = "--ray=local"
    return out


def main() -> None:
    app(args=_bare_ray_flag(sys.argv[1:]))


if __name__ == "__main__":
    main()

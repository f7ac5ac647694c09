"""The ``hupai`` command line (Typer + Rich)."""

from __future__ import annotations

import contextlib
import json
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import partial
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress, ProgressColumn
from rich.table import Table

from hupai import __build__, __version__
from hupai.game.fairness import FairDealError, fingerprint
from hupai.game.match import HandResult
from hupai.game.record import MatchRecord, RecordError, load_record_json, read_record
from hupai.hand import HandSizeError, decompositions, is_win, shanten, waits
from hupai.hand.efficiency import DiscardOption, accepting_tiles, discard_options, unseen_counts
from hupai.replay import ReplayResult, verify_record
from hupai.replay import replay as replay_record
from hupai.review import DEFAULT_WORLDS as DEFAULT_REVIEW_WORLDS
from hupai.rules import RuleError, load_ruleset
from hupai.tiles import NUM_KINDS, NotationError, format_tiles, parse_counts, parse_tiles, tile_name

if TYPE_CHECKING:
    from collections.abc import Callable

    from hupai.sim import BotStats, SimConfig, SimResult

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="hupai (胡牌): Chinese regional mahjong — hand analysis and tools.",
)
console = Console(highlight=False)
errors = Console(stderr=True, highlight=False)

_USAGE_ERROR = 2
_NOT_VERIFIABLE = 3  # hupai verify: no hand failed, and none carries fair-deal data to verify


def _fail(message: str) -> NoReturn:
    """One line on stderr and exit status 2: bad input is the user's to fix, not a crash."""
    errors.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    raise typer.Exit(_USAGE_ERROR)


def shanten_label(value: int) -> str:
    """The Chinese and English name of a shanten number."""
    if value < 0:
        return "和牌 complete"
    if value == 0:
        return "听牌 ready (0)"
    return f"{value}向听 {value} away"


def _names(tiles: Sequence[int]) -> str:
    return " ".join(tile_name(tile) for tile in tiles)


def _tile_cell(tile: int) -> str:
    return f"{format_tiles([tile])} {tile_name(tile)}"


def _accepting_cell(accepting: Sequence[tuple[int, int]]) -> str:
    return " ".join(f"{format_tiles([kind])}×{copies}" for kind, copies in accepting)


def _print_hand(counts: list[int], jokers: int) -> None:
    tiles = [tile for tile, count in enumerate(counts) for _ in range(count)]
    wild = f"  + {jokers} 赖子 wildcard{'s' if jokers != 1 else ''}" if jokers else ""
    console.print(f"[bold]{format_tiles(tiles)}[/]{wild}")
    console.print(_names(tiles))


def _print_waits(counts: list[int], unseen: list[int], value: int, melds: int | None, jokers: int) -> None:
    console.print(f"向听 shanten: [bold]{shanten_label(value)}[/]")
    if value == 0:
        found = waits(counts, melds=melds, jokers=jokers)
        table = Table(title="听牌 waits", title_justify="left")
        table.add_column("tile")
        table.add_column("unseen 剩余", justify="right")
        for kind in found:
            table.add_row(_tile_cell(kind), str(unseen[kind]))
        console.print(table)
        console.print(f"{len(found)} kind(s), {sum(unseen[kind] for kind in found)} tile(s) unseen")
        return
    accepting = accepting_tiles(counts, unseen=unseen, melds=melds, jokers=jokers)
    console.print(
        f"进张 improving tiles: {_accepting_cell(accepting)}  "
        f"({len(accepting)} kind(s), {sum(copies for _, copies in accepting)} tile(s))"
    )


def _print_complete(counts: list[int], jokers: int) -> None:
    console.print("向听 shanten: [bold green]和牌 complete[/]")
    table = Table(title="读法 readings", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("form")
    table.add_column("groups")
    for number, reading in enumerate(decompositions(counts, jokers=jokers), start=1):
        form = "七对 seven pairs" if reading.pair is None else "四组一对 sets + pair"
        table.add_row(str(number), form, str(reading))
    console.print(table)


def _print_discards(options: Sequence[DiscardOption]) -> None:
    table = Table(title="打牌 discards (best first)", title_justify="left")
    table.add_column("discard 打")
    table.add_column("shanten 向听")
    table.add_column("improving tiles 进张")
    table.add_column("tiles", justify="right")
    for option in options:
        table.add_row(
            _tile_cell(option.discard),
            shanten_label(option.shanten),
            _accepting_cell(option.accepting),
            str(option.accepting_count),
        )
    console.print(table)


@app.command()
def hand(
    tiles: Annotated[
        str, typer.Argument(help='The concealed hand in mpsz notation, e.g. "1233m456p789s11z".')
    ],
    seen: Annotated[
        str, typer.Option(help="Tiles seen elsewhere (discards, melds), not counted as unseen.")
    ] = "",
    melds: Annotated[
        int | None, typer.Option(help="Sets already declared; inferred from the tile count when left out.")
    ] = None,
    jokers: Annotated[int, typer.Option(help="Wildcards (赖子) held besides the tiles.")] = 0,
) -> None:
    """Analyse a hand: shanten, waits with unseen counts, and for 14 tiles every discard."""
    try:
        counts = parse_counts(tiles)
        seen_tiles = parse_tiles(seen)
        current = shanten(counts, melds=melds, jokers=jokers)  # also checks the tile count
    except (NotationError, HandSizeError) as error:
        _fail(f"{tiles if isinstance(error, HandSizeError) else error.text!r}: {error}")
    _print_hand(counts, jokers)
    unseen = unseen_counts(counts, seen_tiles)
    if (sum(counts) + jokers) % 3 == 1:
        _print_waits(counts, unseen, current, melds, jokers)
    elif current < 0:
        _print_complete(counts, jokers)
    else:
        console.print(f"向听 shanten: [bold]{shanten_label(current)}[/]")
        _print_discards(discard_options(counts, unseen=unseen, jokers=jokers))


@app.command()
def demo(
    seed: Annotated[
        int, typer.Option(help="Seed for the shuffle; the same seed plays the same game.")
    ] = 2026,
    max_draws: Annotated[int, typer.Option(help="Stop after this many draws.")] = 60,
) -> None:
    """Solitaire demonstration: deal 13 tiles, then draw and discard by tile efficiency until it wins."""
    rng = random.Random(seed)
    wall = [kind for kind in range(NUM_KINDS) for _ in range(4)]
    rng.shuffle(wall)
    counts = [0] * NUM_KINDS
    for tile in wall[:13]:
        counts[tile] += 1
    seen: list[int] = []
    console.print(f"[bold]hupai {__version__}[/] — 牌效 demo, seed {seed}")
    _print_hand(counts, 0)
    console.print(f"向听 shanten: {shanten_label(shanten(counts))}\n")
    for draw_number, drawn in enumerate(wall[13 : 13 + max_draws], start=1):
        counts[drawn] += 1
        if is_win(counts):
            console.print(f"{draw_number:>2}. draw {_tile_cell(drawn)} → [bold green]自摸 win![/]")
            _print_complete(counts, 0)
            return
        best = discard_options(counts, unseen=unseen_counts(counts, seen))[0]
        counts[best.discard] -= 1
        seen.append(best.discard)
        console.print(
            f"{draw_number:>2}. draw {_tile_cell(drawn)}, discard {_tile_cell(best.discard)} → "
            f"{shanten_label(best.shanten)}, {best.accepting_count} improving tiles"
        )
    console.print("The wall ran out before the hand won (荒庄).")


def _parse_options(pairs: Sequence[str]) -> dict[str, object]:
    """``name=value`` pairs, the values as written: each option reads its own text (true/false, a whole
    number, a word, a comma-separated list), as at room creation (hupai.rules.options)."""
    options: dict[str, object] = {}
    for pair in pairs:
        name, separator, value = pair.partition("=")
        if not separator or not name.strip():
            _fail(f"--option takes name=value, not {pair!r}")
        options[name.strip()] = value.strip()
    return options


def _print_result(result: HandResult, seats: Sequence[str]) -> None:
    names = [f"{seat}:{name}" for seat, name in enumerate(seats)]
    title = f"第{result.index + 1}局 hand {result.index + 1} — 庄 dealer {names[result.dealer]}"
    if result.multiplier > 1:
        title += f" — 比下胡 ×{result.multiplier}"
    console.rule(title)
    if result.outcome == "draw":
        console.print("荒庄 draw: the wall ran out")
    elif result.outcome == "abandoned":
        console.print("中止 abandoned: a player left")
    for seat in result.escaped:
        console.print(f"逃跑 {names[seat]} left the game for good: the escape payments are below")
    for how, tile, discarder, sheet in result.scores:
        source = "自摸 self-drawn" if discarder is None else f"from {names[discarder]}"
        console.print(
            f"[bold]胡 {names[sheet.seat]}[/] on {_tile_cell(tile)} ({how}, {source}): {sheet.reading}"
        )
        table = Table(show_header=True)
        for column in ("item", "项目", "value", "source"):
            table.add_column(column, justify="right" if column == "value" else "left")
        for entry in sheet.items:
            shown = f"×{entry.value}" if entry.multiply else f"+{entry.value}"
            label = f"{entry.en}" + (f" ({entry.count})" if entry.count > 1 else "")
            table.add_row(label, entry.zh, shown, entry.source)
        table.add_row("one share", "每家", str(sheet.share), "")
        console.print(table)
    if result.transfers:
        payments = Table(title="付款 payments", title_justify="left")
        for column in ("from", "to", "amount", "reason"):
            payments.add_column(column, justify="right" if column == "amount" else "left")
        for transfer in result.transfers:
            payments.add_row(
                names[transfer.payer],
                names[transfer.payee],
                str(transfer.amount),
                f"{transfer.zh} {transfer.en}",
            )
        console.print(payments)
    console.print(
        "deltas 本局: " + "  ".join(f"{names[seat]} {delta:+d}" for seat, delta in enumerate(result.deltas))
    )
    if result.doubles_next:
        console.print(f"比下胡 next hand doubled ({', '.join(result.causes)}); flags 插旗 {result.flags}")


RECORD_SCHEMA = "record.schema.json"


def _check_schema(data: Any) -> bool:
    """Check a record's JSON against docs/record.schema.json (shipped in the package); False when
    the ``jsonschema`` package is not installed (the engine's own checks still run)."""
    try:
        from jsonschema import Draft202012Validator
        from jsonschema.exceptions import best_match
    except ImportError:
        return False
    schema = json.loads(files("hupai").joinpath("schemas", RECORD_SCHEMA).read_text(encoding="utf-8"))
    error = best_match(Draft202012Validator(schema).iter_errors(data))
    if error is not None:
        raise RecordError(f"{_schema_place(list(error.absolute_path))}: {error.message} ({RECORD_SCHEMA})")
    return True


def _schema_place(path: list[str | int]) -> str:
    """Where in a record a schema error is, as record errors name it: "hand 0, action 3: 'tile'"."""
    words: list[str] = []
    rest = list(path)
    if len(rest) >= 2 and rest[0] == "hands" and isinstance(rest[1], int):
        words.append(f"hand {rest[1]}")
        rest = rest[2:]
        if len(rest) >= 2 and rest[0] == "actions" and isinstance(rest[1], int):
            words.append(f"action {rest[1]}")
            rest = rest[2:]
    place = ", ".join(words)
    field = "/".join(str(part) for part in rest)
    if field:
        place = f"{place}: '{field}'" if place else f"'{field}'"
    return place or "the record"


def _check_line(record: MatchRecord, result: ReplayResult, *, schema: bool) -> str:
    """The one line of ``hupai replay --check`` for a record that holds."""
    hands = len(record.hands)
    actions = sum(len(hand.actions) for hand in record.hands)
    checked = "schema, tiles, every action and dealer" if schema else "tiles, every action and dealer"
    line = f"ok: {hands} hand{'s' if hands != 1 else ''}, {actions} actions; {checked} checked"
    if result.match.escapes:
        line += f"; ended by seat {result.match.escapes[-1][0]}'s escape (逃跑)"
    if result.match.dissolved:
        line += f"; dissolved (解散) in hand {len(result.results) - 1}"
    if not schema:
        line += " (schema not checked: pip install jsonschema)"
    return line


@app.command()
def replay(
    path: Annotated[Path, typer.Argument(help="A hupai-record/1 JSON file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the settlement as JSON.")] = False,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Only check the record (schema, tiles, every action, dealers): one line, ok or the error.",
        ),
    ] = False,
    ruleset: Annotated[
        str | None, typer.Option(help="Re-score the same play under this rule set or preset.")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option(help="name=value, repeatable: change an option for the re-scoring.")
    ] = None,
) -> None:
    """Replay a record and print each hand's settlement and the totals."""
    if check and as_json:
        _fail("--check prints one line, not the settlement: leave out --json")
    try:
        data = load_record_json(path)
        record = read_record(data)
        schema = _check_schema(data) if check else False
        card = None
        if ruleset is not None or option:
            overrides = _parse_options(option or [])
            base_options = {} if ruleset is not None else dict(record.options)
            card = load_ruleset(ruleset or record.ruleset, {**base_options, **overrides})
        result = replay_record(record, ruleset=card)
    except (RecordError, RuleError) as error:
        _fail(f"{path}: {error}")
    if check:
        console.print(escape(_check_line(record, result, schema=schema)), soft_wrap=True)
        return
    if as_json:
        print(json.dumps(result.as_dict(), ensure_ascii=False, indent=2))
        return
    for hand_result in result.results:
        _print_result(hand_result, record.seats)
    for seat, transfers in result.match.escapes:
        paid = sum(transfer.amount for transfer in transfers)
        console.print(
            f"逃跑 seat {seat} left in hand {len(result.results)}: paid {paid} (in that hand's deltas)"
        )
    if result.match.dissolved:
        console.print(f"解散 the players ended the match by agreement in hand {len(result.results)}")
    console.rule("总计 totals")
    console.print(
        "  ".join(
            f"{seat}:{name} {total:+d}"
            for seat, (name, total) in enumerate(zip(record.seats, result.match.totals, strict=True))
        )
    )


@app.command()
def review(
    path: Annotated[Path, typer.Argument(help="A hupai-record/1 JSON file.")],
    seat: Annotated[int, typer.Option(help="The seat reviewed (0-3): only what it saw is used.")],
    worlds: Annotated[
        int, typer.Option(min=2, help="Worlds a decision: every choice is played in each.")
    ] = DEFAULT_REVIEW_WORLDS,
    seed: Annotated[int, typer.Option(help="The same record, seat, seed and worlds: the same review.")] = 0,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the review as JSON (docs/review.md).")
    ] = False,
) -> None:
    """复盘: weigh every decision of one seat by search, and mark the player's choices."""
    from hupai.review import review as review_record

    try:
        record = read_record(load_record_json(path))
        if as_json:
            result = review_record(record, seat, worlds=worlds, seed=seed)
        else:
            with Progress(*_progress_columns(), console=console, transient=True) as bar:
                task = bar.add_task("复盘 review", total=len(record.hands))
                result = review_record(
                    record,
                    seat,
                    worlds=worlds,
                    seed=seed,
                    progress=lambda done, _total: bar.update(task, completed=done),
                )
    except (RecordError, RuleError, ValueError) as error:
        _fail(f"{path}: {error}")
    if as_json:
        print(json.dumps(result.as_dict(), ensure_ascii=False, indent=2))
        return
    _print_review(result, record.seats[seat])


def _print_review(result: Any, name: str) -> None:
    from hupai.review import MISTAKE, action_label

    marks = {"best": "[green]✓ best[/]", "close": "[yellow]≈ close[/]", MISTAKE: "[red]✗ mistake[/]"}
    for hand in result.hands:
        table = Table(title=f"第{hand.hand + 1}局 hand {hand.hand + 1}", title_justify="left")
        for column in ("#", "kind", "played", "verdict", "best choice", "cost"):
            table.add_column(column)
        for decision in hand.decisions:
            played = decision.choices[decision.played]
            best = decision.choices[0]
            table.add_row(
                str(decision.index),
                decision.kind,
                f"{action_label(played.action)} {played.mean:+.2f}",
                marks[decision.verdict],
                f"{action_label(best.action)} {best.mean:+.2f} [{best.low:+.1f}, {best.high:+.1f}]",
                f"{decision.cost:.2f}" if decision.verdict != "best" else "",
            )
        console.print(table)
    summary = result.summary
    agreement = summary["agreement"]
    console.print(
        f"{name}, seat {result.seat}: {summary['decisions']} decisions, "
        f"{0 if agreement is None else agreement:.0%} as the search's best, {summary['close']} close, "
        f"{summary['mistakes']} mistakes costing about {summary['cost']:.1f} points "
        f"({result.worlds} worlds a decision, seed {result.seed})"
    )


@app.command()
def verify(
    path: Annotated[Path, typer.Argument(help="A hupai-record/1 JSON file of fairly dealt hands.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdicts as JSON.")] = False,
) -> None:
    """Check a whole game (docs/fairness.md): per hand its fair deal (the secret against the commitment
    announced before the deal, the deal and wall against the secret and the players' contributions,
    the wall hash), that a hupai-fair/2 hand is this record's room's and stands at its own place, and
    every action played against the tiles the hand reveals.

    Exits 0 when no hand fails and at least one verifies, 1 when a hand fails, 2 for a file that is no
    record, and 3 when no hand fails but none carries fair-deal data (not verifiable)."""
    try:
        record = read_record(path)
        verdicts = verify_record(record)
    except (RecordError, FairDealError) as error:
        _fail(f"{path}: {error}")
    failed = any(verdict.verified is False for verdict in verdicts)
    verifiable = any(verdict.verified for verdict in verdicts)
    overall = False if failed else (True if verifiable else None)
    if as_json:
        hands = [verdict.as_dict() for verdict in verdicts]
        print(json.dumps({"verified": overall, "hands": hands}, indent=2))
    else:
        for verdict in verdicts:
            title = f"第{verdict.index + 1}局 hand {verdict.index + 1}"
            if verdict.verified is None:
                console.print(
                    f"{title}: [yellow]不可验证 not verifiable[/] — no fair-deal data (seed or set wall)"
                )
            elif verdict.verified:
                assert verdict.commitment is not None
                console.print(
                    f"{title}: [green]已验证 verified[/] ({verdict.algorithm}) — commitment "
                    f"{fingerprint(verdict.commitment)}"
                )
            else:
                console.print(f"{title}: [bold red]不符 NOT verified[/]")
            for problem in verdict.problems:
                console.print(f"  - {problem}", markup=False, soft_wrap=True)
            for caveat in verdict.caveats:
                console.print(f"  [yellow]note[/]: {escape(caveat)}", soft_wrap=True)
    if overall is None:
        raise typer.Exit(_NOT_VERIFIABLE)
    if not overall:
        raise typer.Exit(1)


def _item_names(ruleset: str) -> dict[str, str]:
    from hupai.rules.enshi.items import ITEMS as ENSHI_ITEMS
    from hupai.rules.nanjing.items import ITEMS as NANJING_ITEMS
    from hupai.rules.nanning.items import ITEMS as NANNING_ITEMS

    table = {"nanjing": NANJING_ITEMS, "enshi": ENSHI_ITEMS}.get(ruleset, NANNING_ITEMS)
    return {key: f"{zh} {en}" for key, (zh, en, _) in table.items()}


@app.command()
def simulate(
    ruleset: Annotated[str, typer.Option(help="Rule set or preset, e.g. nanjing, nanning-004.")] = "nanjing",
    hands: Annotated[int, typer.Option(min=1, help="Hands to play.")] = 1000,
    bots: Annotated[
        str, typer.Option(help="Four players, comma-separated: random, efficiency, strong, or cmd:<program>.")
    ] = "strong,efficiency,efficiency,efficiency",
    seed: Annotated[int, typer.Option(help="The same seed plays the same games.")] = 0,
    jobs: Annotated[int, typer.Option(min=1, help="Processes to spread the hands over.")] = 1,
    option: Annotated[
        list[str] | None, typer.Option(help="name=value, repeatable: change an option.")
    ] = None,
    match_hands: Annotated[int, typer.Option(min=1, help="Hands per match (dealer rotation, 比下胡).")] = 8,
    rotate: Annotated[bool, typer.Option(help="Seat every bot in every seat in turn.")] = True,
    check: Annotated[bool, typer.Option(help="Check the engine's invariants after every step.")] = True,
    records: Annotated[Path | None, typer.Option(help="Write each match's record into this folder.")] = None,
    fair: Annotated[
        bool, typer.Option(help="Deal as a room does (hupai-fair/2): the records then pass hupai verify.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
    duplicate: Annotated[
        str | None,
        typer.Option(
            help="Duplicate deals: play every deal once per rotation of the bots round the table "
            "(--duplicate) or once per order of them (--duplicate all); intervals over deals."
        ),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            help="Play on a Ray cluster (extra hupai[cluster]): auto, an address, or local; "
            "the same result as --jobs."
        ),
    ] = None,
) -> None:
    """Self-play: bots play HANDS hands and the results are counted per bot."""
    from hupai.bots import BotError, make_bot
    from hupai.sim import DUPLICATE, InvariantError, SimConfig, seatings

    if duplicate is not None and duplicate not in DUPLICATE:
        _fail(f"--duplicate is {' or '.join(DUPLICATE)}, not {duplicate!r}")
    if duplicate is not None and fair:
        _fail("--fair deals every hand afresh; --duplicate plays the same deals again: choose one")
    specs = tuple(spec.strip() for spec in bots.split(",") if spec.strip())
    if len(specs) == 1:
        specs = specs * 4
    if len(specs) != 4:
        _fail(f"--bots names four players (or one for all four), not {len(specs)}")
    try:
        card = load_ruleset(ruleset, _parse_options(option or []))
        for spec in set(specs):
            if not spec.startswith("cmd:"):
                make_bot(spec)
    except (RuleError, BotError) as error:
        _fail(str(error))
    config = SimConfig(
        ruleset=card.preset,
        options=dict(card.options_dict()),
        bots=specs,
        hands=hands,
        seed=seed,
        match_hands=match_hands,
        rotate=rotate,
        check=check,
        records=str(records) if records else None,
        duplicate=duplicate,
        fair=fair,
    )
    total = config.deals * len(seatings(duplicate)) if duplicate else hands
    try:
        with Progress(*_progress_columns(), console=errors, transient=True, disable=as_json) as bar:
            task = bar.add_task(f"{card.zh} self-play", total=total)
            result = _run_simulation(
                config, jobs=jobs, ray=ray, progress=lambda done: bar.advance(task, done)
            )
    except InvariantError as error:
        _fail(f"invariant broken: {error}")
    if as_json:
        print(
            json.dumps(
                {
                    "ruleset": card.preset,
                    "seed": seed,
                    "bots": list(specs),
                    "duplicate": duplicate,
                    **result.as_dict(),
                },
                ensure_ascii=False,
                indent=2,
            )
        )
        return
    console.print(
        _results_table(
            result, title=f"{card.zh} {card.en}: {result.hands} hands", seed=seed, duplicate=duplicate
        )
    )
    console.print(_outcome_table(result.bots))
    console.print(f"荒庄 draws: {result.draws} ({result.draws / result.hands:.1%})")
    for label, stats in result.bots.items():
        if stats.errors:
            console.print(f"{label}: {stats.errors} illegal or missing answers were played by 托管 instead")
    names = _item_names(card.name)
    items = Table(title="scoring items: wins that had each", title_justify="left")
    items.add_column("item")
    items.add_column("wins", justify="right")
    wins = sum(stats.wins for stats in result.bots.values()) or 1
    for key, count in result.items.most_common():
        items.add_row(names.get(key, key), f"{count} ({count / wins:.0%})")
    console.print(items)


def _run_simulation(
    config: SimConfig, *, jobs: int, ray: str | None, progress: Callable[[int], None]
) -> SimResult:
    """On this machine's processes (``jobs``) or on a Ray cluster (``ray``: its address)."""
    from hupai.sim import simulate as run_simulation

    if ray is None:
        return run_simulation(config, progress=progress, jobs=jobs)
    from hupai.cluster import ClusterError, simulate_on_ray

    try:
        return simulate_on_ray(config, ray, progress=progress)
    except ClusterError as error:
        _fail(str(error))


def _results_table(result: SimResult, *, title: str, seed: int, duplicate: str | None) -> Table:
    """Per bot: hands, win, self-draw and deal-in rates, the score per hand with its 95% interval
    (and, on duplicate deals, the interval over deals)."""
    from hupai.bots import make_bot
    from hupai.sim import seatings

    how = f" ({result.deals} duplicate deals × {len(seatings(duplicate))})" if duplicate else ""
    table = Table(title=f"{title}{how}, seed {seed}", title_justify="left")
    table.add_column("bot 玩家")
    columns_named = ["hands", "胡 win", "自摸", "放炮", "score/hand ±95%"]
    if duplicate:
        columns_named.append("±95% over deals")
    for column in columns_named:
        table.add_column(column, justify="right", no_wrap=True)
    for label, stats in result.bots.items():
        bot = make_bot(label) if not label.startswith("cmd:") else None
        name = f"{bot.zh} {bot.en}" if bot is not None else label.removeprefix("cmd:")
        table.add_row(
            name,
            str(stats.hands),
            f"{stats.rate(stats.wins):.1%}",
            f"{stats.rate(stats.self_drawn):.1%}",
            f"{stats.rate(stats.deal_ins):.1%}",
            f"{stats.mean:+.2f} ± {stats.interval:.2f}",
            *([f"± {stats.paired_interval:.2f}"] if duplicate else []),
        )
    return table


def _outcome_table(bots: dict[str, BotStats]) -> Table:
    """Where each bot's points came from: per outcome, its share of the score per hand and how
    often it happened (the shares add up to the score per hand)."""
    from hupai.sim import OUTCOMES

    legend = " · ".join(f"{zh} {en}" for zh, en in OUTCOMES.values())
    table = Table(
        title="得失 points per hand by outcome (how often)",
        title_justify="left",
        caption=legend,
        caption_justify="left",
    )
    table.add_column("bot 玩家", no_wrap=True)
    for zh, _ in OUTCOMES.values():
        table.add_column(zh, justify="right", no_wrap=True)
    for label, stats in bots.items():
        cells = [f"{entry['per_hand']:+.2f}\n{entry['rate']:.1%}" for entry in stats.by_outcome().values()]
        table.add_row(label.removeprefix("cmd:"), *cells)
    return table


@app.command("options-check")
def options_check(
    ruleset: Annotated[
        list[str] | None, typer.Option(help="Rule sets to check (repeatable; default: all three).")
    ] = None,
    hands: Annotated[int, typer.Option(min=1, help="Hands played on each card.")] = 32,
    combos: Annotated[int, typer.Option(min=0, help="Random combinations of options per rule set.")] = 200,
    seed: Annotated[int, typer.Option(help="The same seed plays the same cards and games.")] = 1,
    jobs: Annotated[int, typer.Option(min=1, help="Processes to spread the cards over.")] = 1,
) -> None:
    """Play every value of every house option alone, every preset, and COMBOS random combinations per
    rule set, with the engine's invariant checks on; every record is replayed to the same settlement."""
    from hupai.optionspace import RULESETS, Case, combination_cases, preset_cases, single_cases

    chosen = ruleset or list(RULESETS)
    unknown = [name for name in chosen if name not in RULESETS]
    if unknown:
        _fail(f"--ruleset is one of {', '.join(RULESETS)}, not {unknown[0]!r}")
    cases: list[Case] = [case for case in preset_cases() if load_ruleset(case.preset).name in chosen]
    for name in chosen:
        cases += single_cases(name) + combination_cases(name, combos, seed)
    failed: list[str] = []
    played = 0
    with Progress(*_progress_columns(), console=errors, transient=True) as bar:
        task = bar.add_task("options 规则选项", total=len(cases))
        for result in _checked_cases(cases, hands=hands, seed=seed, jobs=jobs):
            played += result.hands
            failed.extend(result.problems)
            bar.advance(task)
    console.print(
        f"{len(cases)} cards ({', '.join(chosen)}: every option's values alone, the presets, "
        f"{combos} combinations each), {played} hands, seed {seed}: "
        + ("no failure" if not failed else f"{len(failed)} failure(s)")
    )
    for problem in failed:
        console.print(f"  {problem}", markup=False)
    if failed:
        raise typer.Exit(1)


def _checked_cases(cases: Sequence[Any], *, hands: int, seed: int, jobs: int) -> Iterator[Any]:
    """Each case's result, on ``jobs`` processes (spawned, not forked: the progress bar's thread runs)."""
    from hupai.optionspace import check_case

    if jobs == 1:
        for case in cases:
            yield check_case(case, hands=hands, seed=seed)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        yield from pool.map(partial(check_case, hands=hands, seed=seed), cases, chunksize=4)


@app.command()
def arena(
    bots: Annotated[
        str,
        typer.Option(help="Two or more bots, comma-separated: random, efficiency, strong, cmd:<program>."),
    ] = "random,efficiency,strong",
    ruleset: Annotated[str, typer.Option(help="Rule set or preset, e.g. nanjing, nanning-004.")] = "nanjing",
    hands: Annotated[int, typer.Option(min=4, help="Hands per pairing (whole deals of four).")] = 400,
    seed: Annotated[int, typer.Option(help="The same seed plays the same deals.")] = 0,
    jobs: Annotated[int, typer.Option(min=1, help="Processes to spread each pairing over.")] = 1,
    option: Annotated[
        list[str] | None, typer.Option(help="name=value, repeatable: change an option.")
    ] = None,
    ray: Annotated[str | None, typer.Option(help="Play on a Ray cluster (hupai[cluster]).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
) -> None:
    """A ladder: every pairing of the bots plays the same duplicate deals (two seats each, A A B B in
    the four rotations); each cell is the row bot's score per hand against the column bot."""
    from hupai.arena import ArenaConfig, pairings
    from hupai.arena import arena as play_arena
    from hupai.bots import BotError, make_bot

    specs = tuple(dict.fromkeys(spec.strip() for spec in bots.split(",") if spec.strip()))
    if len(specs) < 2:
        _fail("--bots names two or more different bots")
    try:
        card = load_ruleset(ruleset, _parse_options(option or []))
        for spec in specs:
            if not spec.startswith("cmd:"):
                make_bot(spec)
    except (RuleError, BotError) as error:
        _fail(str(error))
    config = ArenaConfig(
        ruleset=card.preset, options=dict(card.options_dict()), bots=specs, hands=hands, seed=seed
    )
    with Progress(*_progress_columns(), console=errors, transient=True, disable=as_json) as bar:
        per_pair = math.ceil(hands / 4) * 4
        task = bar.add_task(f"{card.zh} arena", total=per_pair * pairings(specs))
        ladder = play_arena(
            config,
            run=lambda sim: _run_simulation(sim, jobs=jobs, ray=ray, progress=lambda n: bar.advance(task, n)),
        )
    if as_json:
        print(
            json.dumps(
                {"ruleset": card.preset, "seed": seed, **ladder.as_dict()}, ensure_ascii=False, indent=2
            )
        )
        return
    order = ladder.ranking()
    played = ladder.pairs[0].result.hands
    table = Table(
        title=f"{card.zh} {card.en} arena: {played} duplicate hands a pairing, seed {seed}",
        title_justify="left",
        caption="row bot's score per hand against the column bot, ± 95% over deals",
        caption_justify="left",
    )
    table.add_column("bot 玩家", no_wrap=True)
    for number in range(1, len(order) + 1):
        table.add_column(f"vs {number}", justify="right", no_wrap=True)
    table.add_column("overall", justify="right", no_wrap=True)
    for number, bot in enumerate(order, 1):
        cells = []
        for other in order:
            stats = ladder.against(bot, other)
            cells.append("—" if stats is None else f"{stats.mean:+.2f}±{stats.paired_interval:.2f}")
        mean, spread = ladder.overall(bot)
        table.add_row(f"{number} {_short_bot(bot)}", *cells, f"[bold]{mean:+.2f}±{spread:.2f}[/]")
    console.print(table)


def _short_bot(spec: str) -> str:
    """A bot's name for a narrow table: an external bot by its program's file name."""
    if not spec.startswith("cmd:"):
        return spec
    words = spec.removeprefix("cmd:").split()
    return Path(words[-1]).name if words else spec


def _progress_columns() -> tuple[ProgressColumn, ...]:
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

    return (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(help="SQLAlchemy URL (default: $HUPAI_DATABASE_URL, else SQLite in your data folder)."),
    ] = None,
    redis_url: Annotated[
        str | None,
        typer.Option(help="Redis shared by several server processes (default: $HUPAI_REDIS_URL; none)."),
    ] = None,
    workers: Annotated[
        int, typer.Option(min=1, max=64, help="Server processes on this machine (more than 1 needs Redis).")
    ] = 1,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The address friends open, e.g. https://mahjong.example.com (default: $HUPAI_PUBLIC_URL): "
            "invitation links and QR codes use it."
        ),
    ] = None,
    lan: Annotated[
        bool,
        typer.Option(
            "--lan",
            help="Listen on every interface and invite with this machine's address on the local network.",
        ),
    ] = False,
) -> None:
    """Start the multiplayer server: private rooms, bots in empty seats, stored games."""
    try:
        from hupai.server.app import serve as serve_forever
        from hupai.server.settings import Settings, default_allowed_hosts
    except ImportError as error:  # the server's libraries are an extra
        _fail(f"the server needs its libraries: pip install 'hupai[server]' ({error.name} is missing)")
    lan_urls: list[str] = []
    addresses: list[str] = []
    if lan:
        host = "0.0.0.0"  # asked for: friends on the local network
        addresses = _lan_addresses()
        lan_urls = [f"http://{address}:{port}" for address in addresses]
        if not lan_urls:
            _fail("--lan: this machine has no address on a local network (only loopback)")
    overrides = {
        "database_url": database_url,
        "redis_url": redis_url,
        "public_url": (public_url or "").rstrip("/") or (lan_urls[0] if lan_urls else None),
    }
    try:
        settings = Settings.from_env(**{name: value for name, value in overrides.items() if value})
    except ValueError as error:  # a limit set in the environment that is no number, a bad public URL
        _fail(str(error))
    if lan and not settings.allowed_hosts:  # friends open any of this machine's addresses
        names = default_allowed_hosts(host, settings.public_url)
        settings = replace(settings, allowed_hosts=tuple(dict.fromkeys((*names, *addresses))))
    if workers > 1 and not settings.redis_url:
        _fail("--workers above 1 needs Redis (--redis-url or HUPAI_REDIS_URL), so the processes share tables")
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host  # an address nobody can open
    console.print(f"[bold]hupai {__version__}[/] server at [bold]http://{shown_host}:{port}/[/]")
    for url in lan_urls:
        console.print(f"friends on the local network open: [bold]{url}/[/]")
    if lan:
        console.print(
            "[yellow]voice needs HTTPS on other devices (browsers allow the microphone only there): "
            'one command puts it in front, see docs/deploy.md "HTTPS on a local network"[/]'
        )
    if settings.public_url:
        console.print(f"invitations: {settings.public_url}/#/join/<room>")
        if lan:
            _print_qr(f"{settings.public_url}/")
    elif not settings.reachable_by_friends:
        console.print(
            "[yellow]listening on this machine only: friends on other devices cannot open invitations "
            "(use --lan, or --public-url behind a proxy)[/]"
        )
    console.print(f"database: {_shown_url(settings.database_url)}")
    if settings.redis_url:
        console.print(
            f"redis: {_shown_url(settings.redis_url)} ({workers} process{'es' if workers > 1 else ''})"
        )
    serve_forever(settings, host=host, port=port, workers=workers)


def _lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks, the one with the default route first (a UDP
    socket "connected" to a documentation address sends nothing but says which address it would use)."""
    import socket

    found: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))
        found.append(probe.getsockname()[0])
    with contextlib.suppress(OSError):
        for *_, address in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(address[0]))
    return [address for address in dict.fromkeys(found) if not address.startswith("127.")]


def _print_qr(url: str) -> None:
    """The address as a QR code in the terminal, for a phone's camera."""
    import segno

    segno.make_qr(url, error="m").terminal(compact=True)


@app.command("bot")
def network_bot(
    server: Annotated[str, typer.Option(help="The server's address, e.g. http://127.0.0.1:8000.")],
    room: Annotated[
        str,
        typer.Option(help="The room's invitation link (…/#/join/NNNNNN/<token>), or its number (房号)."),
    ],
    level: Annotated[str, typer.Option(help="random, efficiency, strong, or cmd:<command line>.")] = "strong",
    name: Annotated[str | None, typer.Option(help="Name at the table (default 电脑·<level>).")] = None,
    seat: Annotated[int | None, typer.Option(min=0, max=3, help="Seat 0-3 (default: any free seat).")] = None,
    seed: Annotated[int, typer.Option(help="Seed for the bot's own choices.")] = 0,
) -> None:
    """Join a room over the network as a bot, get ready, and play its whole match."""
    from hupai.bots import BotError

    try:
        from hupai.server.netbot import NetworkBotError, run
    except ImportError as error:
        _fail(f"the network bot needs the server's libraries: pip install 'hupai[server]' ({error.name})")

    def seated(place: int, details: dict[str, object]) -> None:
        number = details.get("number", room)
        console.print(f"seat {place} in room {number}; ready, waiting for the host to start")

    try:
        summary = run(server, room, level, name=name, seat=seat, seed=seed, on_seated=seated)
    except (NetworkBotError, BotError) as error:
        _fail(str(error))
    names = summary.get("names") or []
    totals = summary.get("totals") or []
    console.print(f"match {summary.get('status', 'over')}:")
    for who, total in zip(names, totals, strict=False):
        console.print(f"  {who}: {total:+d}")


def _shown_url(url: str) -> str:
    """The database URL without its password; for SQLite, the file's path."""
    if url.startswith("sqlite:///"):
        return url.removeprefix("sqlite:///")
    head, _, tail = url.rpartition("@")
    if not head:
        return url
    scheme, _, credentials = head.partition("://")
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}:***@{tail}"


@app.callback(invoke_without_command=True)
def _root(
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
) -> None:
    if version:
        console.print(f"hupai {__version__} ({__build__} core)")
        raise typer.Exit()


def with_flag_values(args: Sequence[str]) -> list[str]:
    """``--duplicate`` alone means ``--duplicate rotations`` (Typer options always take a value)."""
    out: list[str] = []
    for index, arg in enumerate(args):
        out.append(arg)
        if arg == "--duplicate" and (index + 1 == len(args) or args[index + 1].startswith("-")):
            out.append("rotations")
    return out


def main() -> None:
    """Console entry point."""
    import sys

    app(args=with_flag_values(sys.argv[1:]))

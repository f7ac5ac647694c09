"""Scoring an Enshi win: the hand's value, the players' multipliers, one payer line per loser, caps.

The **value** of a win is 底分 × 底数 — 屁胡 1 (an open hand on a discard), 小斜 3 (an open hand
self-drawn), 大斜 5 (a concealed hand), 七对 5 — doubled when 硬 (no 赖子 in the hand) and doubled for
a self-drawn 七对. Every player has a **multiplier** from what they did in the hand: ×2 per 痞子 laid,
×4 per 赖子 laid, ×2 per exposed kong, ×4 per concealed kong; the winner's also ×2 for 杠开.

The winner's **share** is value × the winner's multiplier; each loser pays the share × their own
multiplier, doubled for the discarder, then capped: 400 each (封顶), or 500 each when all three reach
400 (金顶). The rules in words, with their sources: ``docs/rules/enshi.md`` §4-§7.
"""

from __future__ import annotations

from collections.abc import Sequence

from hupai.game.contract import PayerLine, ScoreItem, ScoreSheet, WinVerdict, share_of
from hupai.game.model import SEATS, HandState, Meld, MeldKind, WinContext, WinKind, next_seat
from hupai.game.refusal import NOT_COMPLETE, Refusal
from hupai.hand import Form, Reading, decompositions, is_win, waits
from hupai.rules.enshi.items import item
from hupai.rules.enshi.options import EnshiOptions
from hupai.tiles import tile_name, tile_notation


def laid_counts(state: HandState, seat: int) -> tuple[int, int]:
    """How many 痞子 and how many 赖子 ``seat`` has laid this hand."""
    laid = state.seats[seat].laid
    pizi = sum(1 for tile in laid if tile == state.pizi)
    laizi = sum(1 for tile in laid if tile == state.laizi)
    return pizi, laizi


def multiplier_items(state: HandState, seat: int, options: EnshiOptions) -> list[ScoreItem]:
    """The factors of ``seat``'s own multiplier (lays and kongs), leaving out those that did not happen."""
    pizi, laizi = laid_counts(state, seat)
    melds = state.seats[seat].melds
    exposed = sum(1 for meld in melds if meld.kind in (MeldKind.EXPOSED_KONG, MeldKind.ADDED_KONG))
    concealed = sum(1 for meld in melds if meld.kind is MeldKind.CONCEALED_KONG)
    out: list[ScoreItem] = []
    for key, count, factor in (
        ("pizi_laid", pizi, options.pizi_factor),
        ("laizi_laid", laizi, options.laizi_factor),
        ("exposed_kong", exposed, options.exposed_kong_factor),
        ("concealed_kong", concealed, options.concealed_kong_factor),
    ):
        if count:
            out.append(item(key, factor**count, count=count, multiply=True))
    return out


def player_multiplier(state: HandState, seat: int, options: EnshiOptions) -> int:
    """M(seat) = 2^(痞子 laid) × 4^(赖子 laid) × 2^(exposed kongs) × 4^(concealed kongs) (§6); the
    winner's 杠开 is not in it (it belongs to one win, not to the player)."""
    player = state.seats[seat]
    product = 1  # the product of multiplier_items, without building them: asked for every seat of every view
    for tile in player.laid:
        if tile == state.pizi:
            product *= options.pizi_factor
        elif tile == state.laizi:
            product *= options.laizi_factor
    for meld in player.melds:
        kind = meld.kind
        if kind is MeldKind.EXPOSED_KONG or kind is MeldKind.ADDED_KONG:
            product *= options.exposed_kong_factor
        elif kind is MeldKind.CONCEALED_KONG:
            product *= options.concealed_kong_factor
    return product


def is_open(melds: Sequence[Meld]) -> bool:
    """Open (开口): a chow, pung or exposed kong was made; a concealed kong keeps 门前清 (A-7)."""
    return any(meld.kind is not MeldKind.CONCEALED_KONG for meld in melds)


def laizi_in_melds(melds: Sequence[Meld]) -> list[int]:
    """The kinds the 赖子 lying in ``melds`` stand for (a chow's, with ``laizi_in_melds``): each is a 赖子
    of the winning hand, as one in the concealed tiles is (docs/rules/enshi.md §3.3)."""
    return [meld.laizi_for for meld in melds if meld.laizi_for is not None]


def split_wild(counts: Sequence[int], laizi: int | None) -> tuple[list[int], int]:
    """The natural tiles and the number of 赖子 (wildcards) among ``counts``."""
    rest = list(counts)
    if laizi is None:
        return rest, 0
    jokers = rest[laizi]
    rest[laizi] = 0
    return rest, jokers


def complete_shape(counts: Sequence[int], laizi: int | None) -> bool:
    """Whether ``counts`` is a complete hand, the 赖子 among them standing for any tile."""
    rest, jokers = split_wild(counts, laizi)
    return is_win(rest, jokers=jokers)


def is_jianzihu(before: Sequence[int], laizi: int | None, kinds: Sequence[int]) -> bool:
    """见字胡: the hand before its winning tile waits on every kind of the tile set it does not already
    hold four of (hupai.hand's waits with jokers also name kinds outside the set: filtered here)."""
    rest, jokers = split_wild(before, laizi)
    if not jokers:
        return False  # without a wildcard no hand waits on 27 kinds
    found = set(waits(rest, jokers=jokers))
    return all(kind in found for kind in kinds if rest[kind] < 4)


def hand_kind(reading: Reading, *, open_hand: bool, self_drawn: bool, options: EnshiOptions) -> str:
    """屁胡, 小斜, 大斜 or 七对 (§5.1)."""
    if reading.form is Form.SEVEN_PAIRS:
        return "qidui"
    if open_hand:
        return "xiaoxie" if self_drawn else "pihu"
    if self_drawn or options.daxie_on_discard:
        return "daxie"
    return "pihu"


def _points(kind: str, options: EnshiOptions) -> int:
    return {
        "pihu": options.pihu_points,
        "xiaoxie": options.xiaoxie_points,
        "daxie": options.daxie_points,
        "qidui": options.qidui_points,
    }[kind]


def _is_hard(
    reading: Reading, jokers: int, laizi: int | None, options: EnshiOptions, in_melds: Sequence[int] = ()
) -> bool:
    """硬: no 赖子 in the winning hand — neither among the concealed tiles nor standing in a chow
    (``in_melds``: the kinds those stand for); with ``laizi_as_itself_hard`` every 赖子 standing for its
    own face is allowed."""
    if not jokers and not in_melds:
        return True
    return options.laizi_as_itself_hard and all(wild == laizi for wild in (*reading.wild, *in_melds))


def sheet_items(
    state: HandState, context: WinContext, kind: str, *, hard: bool, options: EnshiOptions
) -> list[ScoreItem]:
    """The winner's share: the 底数, 底分, 硬, 七对自摸, then the winner's multiplier with 杠开 / 杠上炮."""
    self_drawn = context.kind is WinKind.SELF_DRAWN
    items = [item(kind, _points(kind, options))]
    if options.difen != 1:
        items.append(item("difen", options.difen, multiply=True))
    if hard and options.hard_factor != 1:
        items.append(item("hard", options.hard_factor, multiply=True))
    if kind == "qidui" and self_drawn and options.qidui_self_drawn_factor != 1:
        items.append(item("qidui_self_drawn", options.qidui_self_drawn_factor, multiply=True))
    items += multiplier_items(state, context.seat, options)
    if self_drawn and context.replacement_chain and options.kong_bloom_factor != 1:
        items.append(item("kong_bloom", options.kong_bloom_factor, multiply=True))  # once per win (§6)
    if context.kind is WinKind.DISCARD and context.replacement_chain and options.gangshangpao_factor != 1:
        items.append(item("gangshangpao", options.gangshangpao_factor, multiply=True))
    return items


def apply_caps(raws: Sequence[int], options: EnshiOptions) -> list[tuple[int, str]]:
    """Each loser's (paid, cap) for one win (§7.3): 钻石顶 when all three reach ``gold_cap``, 金顶 when
    all three reach ``cap`` (each then pays the gold figure, even above their raw amount), else each
    line is held to ``cap``. ``cap = 0`` removes every cap."""
    cap, gold, diamond = options.cap, options.gold_cap, options.diamond_cap
    if not cap or not raws:
        return [(raw, "") for raw in raws]
    if diamond and gold and all(raw >= gold for raw in raws):
        return [(diamond, "diamond_cap") for _ in raws]
    if gold and all(raw >= cap for raw in raws):
        return [(gold, "gold_cap") for _ in raws]
    return [(cap, "cap") if raw >= cap else (raw, "") for raw in raws]  # "达到400分以上只算400分"


def losers(seat: int) -> list[int]:
    """The three other seats, in turn order after ``seat``."""
    return [next_seat(seat, offset) for offset in range(1, SEATS)]


def payer_lines(
    state: HandState, context: WinContext, share: int, *, pihu: bool, options: EnshiOptions
) -> tuple[PayerLine, ...]:
    """One line per loser: the share × the loser's own multiplier × 2 for the discarder (or the robbed
    player; with ``discarder_double = "pihu_only"`` only on a 屁胡), then the caps (§7.1, §7.3)."""
    double = context.kind is not WinKind.SELF_DRAWN and (options.discarder_double == "all_wins" or pihu)
    entries: list[tuple[int, tuple[ScoreItem, ...], int]] = []
    for loser in losers(context.seat):
        own = multiplier_items(state, loser, options)
        if double and loser == context.discarder:
            own.append(item("discarder", 2, multiply=True))
        raw = share
        for entry in own:
            raw *= entry.value
        entries.append((loser, tuple(own), raw))
    capped = apply_caps([raw for _, _, raw in entries], options)
    return tuple(
        PayerLine(seat=loser, items=own, raw=raw, paid=paid, cap=cap)
        for (loser, own, raw), (paid, cap) in zip(entries, capped, strict=True)
    )


def tile_set_kinds(options: EnshiOptions) -> range:
    return range(34 if options.honours else 27)


def _held_name(tile: int) -> str:
    return f"{tile_name(tile)} ({tile_notation(tile)})"


def pizi_refusal(seat: int, pizi: int | None) -> str:
    """有痞子不能胡 (X-ES): a held 痞子 is in no set, so the hand cannot win until it is laid."""
    held = "" if pizi is None else f" {_held_name(pizi)}"
    return Refusal(
        f"有痞子不能胡: seat {seat} holds the 痞子{held}, which is in no set; "
        "lay it first (下痞子) — a win on its replacement is 杠开",
        "pizi_held",
        tile=tile_notation(pizi) if pizi is not None else "",
    )


def refusal(state: HandState, context: WinContext, options: EnshiOptions) -> str:
    """Why this complete-or-not hand may not win, before any reading is scored ("" when nothing stops
    it): 诈胡, 有痞子不能胡, too many 赖子, 见字胡 on a discard (§4.2)."""
    counts, pizi, laizi = context.counts, state.pizi, state.laizi
    seat = context.seat
    if not complete_shape(counts, laizi):
        return NOT_COMPLETE
    if options.pizi_blocks_win and pizi is not None and counts[pizi]:
        return pizi_refusal(seat, pizi)
    held = counts[laizi] if laizi is not None else 0
    held += len(laizi_in_melds(state.seats[seat].melds))  # a 赖子 standing in a chow is in the hand too
    if options.max_laizi_in_win and held > options.max_laizi_in_win:
        return Refusal(
            f"赖子太多: a winning hand may hold at most {options.max_laizi_in_win} 赖子; "
            f"seat {seat} holds {held}",
            "too_many_laizi",
            most=options.max_laizi_in_win,
            held=held,
        )
    if options.jianzihu_self_drawn_only and context.kind is not WinKind.SELF_DRAWN:
        before = list(counts)
        before[context.tile] -= 1
        if is_jianzihu(before, laizi, tile_set_kinds(options)):
            return Refusal(
                f"见字胡必须自摸: seat {seat}'s hand wins on any tile (见字胡), so it may win only by "
                "self-draw, not on a discard or a robbed kong",
                "jianzihu_self_drawn_only",
            )
    return ""


def score(state: HandState, context: WinContext, options: EnshiOptions) -> WinVerdict:
    """Score a win on the reading that pays the winner most, or say why it may not win."""
    reason = refusal(state, context, options)
    if reason:
        return WinVerdict(False, reason=reason)
    rest, jokers = split_wild(context.counts, state.laizi)
    self_drawn = context.kind is WinKind.SELF_DRAWN
    melds = state.seats[context.seat].melds
    open_hand = is_open(melds)
    in_melds = laizi_in_melds(melds)
    anyone_laid = any(player.laid for player in state.seats)
    best: tuple[tuple[int, int], ScoreSheet] | None = None
    refused = ""
    # A reading's score depends only on its kind and on whether it is hard, and the first reading of
    # the best score is kept: later readings of a kind and hardness already scored change nothing.
    scored: set[tuple[str, bool]] = set()
    for reading in decompositions(rest, jokers=jokers):
        kind = hand_kind(reading, open_hand=open_hand, self_drawn=self_drawn, options=options)
        hard = _is_hard(reading, jokers, state.laizi, options, in_melds)
        if (kind, hard) in scored:
            continue
        scored.add((kind, hard))
        if kind == "pihu" and (jokers or in_melds) and options.chuotai_forbidden and not anyone_laid:
            refused = refused or (
                f"不能戳胎: seat {context.seat} holds a 赖子 and nobody has laid a 痞子 or 赖子 this hand, "
                "so it may not win a 屁胡 (S003b 10)"
            )
            continue
        items = sheet_items(state, context, kind, hard=hard, options=options)
        share = share_of(items)
        lines = payer_lines(state, context, share, pihu=kind == "pihu", options=options)
        raw = sum(line.raw for line in lines)
        if raw < options.min_points:
            refused = refused or f"起胡 {options.min_points}: this win is worth only {raw}"
            continue
        how = context.kind.value
        sheet = ScoreSheet(
            seat=context.seat,
            items=tuple(items),
            share=share,
            reading=str(reading),
            big_hand=False,
            notes=(kind, how, *(("hard",) if hard else ())),
            payers=lines,
        )
        rank = (sum(line.paid for line in lines), raw)
        if best is None or rank > best[0]:
            best = (rank, sheet)
    if best is None:
        return WinVerdict(False, reason=refused or NOT_COMPLETE)
    return WinVerdict(True, sheet=best[1])

"""The match around the hands: settling a hand (stored, then told), the pause between hands (继续),
the end of the match and its 大结算 summary, and ending early by 逃跑 or 解散 (when every player
agreed, or the vote's countdown ran out)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from hupai.game.engine import release_claims
from hupai.game.model import HandState
from hupai.game.record import DISSOLVE, ESCAPE, HandRecord, MatchRecord, RecordAction, write_record
from hupai.game.record import Dissolve as DissolveAct
from hupai.game.record import Escape as EscapeAct
from hupai.game.view import full_view
from hupai.server.protocol import error_message
from hupai.server.stats import how_won, kongs_made, ranks, seat_stats
from hupai.server.table import core, dealing, decisions, persist, views
from hupai.server.table.core import SEATS, TableState
from hupai.server.table.messages import Connection


async def settle(table: TableState, state: HandState, index: int, *, replaying: bool = False) -> None:
    """Settle an ended hand: store it, tell everyone, and deal the next one or end the match."""
    match = table.match
    assert match is not None
    match.finish_hand(state)
    result = keep_result(table, state, index)
    record = hand_record(table, state, index, escaped=())
    await persist.stored(table, table.store.play.finish_hand, table.room_id, index, record, result)
    last = match.over or len(match.results) >= table.room.hands
    if not replaying:
        table.next_hand_at = None if last else table.clock() + pause_seconds(table)
        table.continued = set()
        table.last_hand_end = hand_end_message(table, state, result, last=last)
        views.broadcast(table, views.with_continue(table, table.last_hand_end))
        if not last and table.deal_secret is not None:
            dealing.announce(table, set())  # the next hand's contributions come in while this one is read
    if last:
        await finish_match(table, "finished")


def keep_result(table: TableState, state: HandState, index: int) -> dict[str, Any]:
    """The hand's settlement as stored and summed up in 大结算: the match's result plus the
    kongs each seat made (an escape rewrites the last hand's result, so it replaces it)."""
    assert table.match is not None
    result = {**table.match.results[index].as_dict(), "kongs": kongs_made(state)}
    del table.hand_results[index:]
    table.hand_results.append(result)
    return result


def pause_seconds(table: TableState) -> float:
    """Seconds between hands."""
    return core.room_or_override(table.room.next_hand_seconds, table.settings.next_hand_seconds)


def hand_record(
    table: TableState, state: HandState, index: int, *, escaped: tuple[int, ...], dissolved: bool = False
) -> dict[str, Any]:
    assert table.match is not None
    actions: list[RecordAction] = list(state.actions)
    actions.extend(EscapeAct(seat) for seat in escaped)
    if dissolved:
        actions.append(DissolveAct())
    record = MatchRecord(
        ruleset=table.match.ruleset.preset,
        options=table.match.ruleset.options_dict(),
        seats=tuple(table.match.seats),
        hands=(
            HandRecord(
                dealer=state.dealer,
                actions=tuple(actions),
                deal=state.deal,
                wall=tuple(state.wall),
                fair=state.fair,  # the secret and the contributions, revealed with the hand
            ),
        ),
        seed=None,
        extra={"room": table.room.number, "hand_index": index},
    )
    return write_record(record)


def hand_end_message(
    table: TableState, state: HandState, result: dict[str, Any], *, last: bool
) -> dict[str, Any]:
    assert table.match is not None
    message = {
        "type": "hand_end",
        "hand": result["hand"],
        "result": result,
        "view": full_view(state).as_dict(),
        "totals": list(table.match.totals),
        "last": last,  # the match ends with this hand: 大结算 follows
    }
    if state.fair is not None:
        message["fair"] = state.fair.as_dict()  # the secret and every contribution, revealed
    return message


def press_continue(table: TableState, connection: Connection) -> None:
    seat = connection.seat
    if seat is None:
        connection.send(error_message("not_seated", "spectators do not deal the next hand"))
        return
    if table.next_hand_at is None:
        connection.send(error_message("not_between_hands", "继续 is only for the pause after a hand"))
        return
    table.continued.add(seat)  # a second press changes nothing
    deal_or_report(table)


def deal_or_report(table: TableState) -> None:
    """End the pause once every reader has pressed 继续 (the table then deals, once the
    contributions are in); otherwise tell everyone who has."""
    if table.continued and core.readers(table) <= table.continued and table.next_hand_at is not None:
        table.next_hand_at = min(table.next_hand_at, table.clock())
        deal_at = decisions.deal_time(table)
        if deal_at is not None and deal_at <= table.clock():
            return  # dealt by the actor's run_due straight after this message
    views.broadcast(table, {"type": "continue", **views.continue_facts(table)})


async def finish_match(table: TableState, status: str) -> None:
    match = table.match
    assert match is not None
    summary = match_summary(table, status)
    await persist.stored(table, table.store.play.finish_match, table.room_id, status, match.totals, summary)
    table.summary = summary
    table.room = await persist.stored(table, table.store.rooms.room_by_id, table.room_id)
    table.pending = {}
    table.next_hand_at = None
    table.commit = None
    table.continued = set()
    views.broadcast(table, table.summary)
    views.broadcast_room(table)
    table.match = None


def match_summary(table: TableState, status: str) -> dict[str, Any]:
    """大结算: where and what was played, totals and ranks, each player's statistics, each hand's
    winners and score changes, the biggest win."""
    match = table.match
    assert match is not None
    totals = list(match.totals)
    results = table.hand_results
    rules = table.room.rules
    return {
        "type": "match_end",
        "status": status,
        "room": table.room.number,
        "rules": {
            "preset": rules.preset,
            "ruleset": rules.ruleset,
            "zh": match.ruleset.zh,  # the rule set's name (南宁麻将); the preset's below
            "en": match.ruleset.en,
            "preset_zh": rules.zh,
            "preset_en": rules.en,
        },
        "ended_at": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "names": list(match.seats),
        "bot_levels": core.bot_levels(table),
        "totals": totals,
        "ranks": ranks(totals, results),
        "stats": [seat_stats(results, seat).as_dict() for seat in range(SEATS)],
        "hands": [hand_line(result) for result in results],
        "biggest_win": biggest_win(table),
        "escapes": [
            {"seat": seat, "hand": len(match.results) - 1, "transfers": [t.as_dict() for t in ts]}
            for seat, ts in match.escapes
        ],
    }


def biggest_win(table: TableState) -> dict[str, Any] | None:
    assert table.match is not None
    biggest: dict[str, Any] | None = None
    for result in table.match.results:
        for seat in result.winners:
            amount = result.deltas[seat] - result.escape_money(seat)  # the win, not who left after it
            if biggest is None or amount > biggest["amount"]:
                items = [item for score in result.scores for item in score[3].as_dict()["items"]]
                biggest = {"hand": result.index, "seat": seat, "amount": amount, "items": items}
    return biggest


async def escape(table: TableState, seat: int, *, stored: bool = False) -> None:
    """逃跑: the hand in play is abandoned, the ruleset's penalty paid, and the match ends. Between
    hands the escape is written after the last hand's moves, so a rebuild settles it the same way."""
    match = table.match
    state = table.state
    if match is None or state is None:
        return
    index = len(match.results) if match.current is not None else len(match.results) - 1
    decisions.step_stored(table)  # a window's decisions stored ahead of its release come first
    if not stored:
        escape = {"seat": seat, "act": ESCAPE}
        await persist.stored(
            table, table.store.play.add_move, table.room_id, index, table.moves_in_hand, escape
        )
        await persist.stored(table, table.store.rooms.mark_left, table.room_id, seat)
    if match.current is not None:
        release_claims(match.current)  # see dissolve: as the record's replay has it
    match.escape(seat)  # paid in this hand: its result now holds the escape's transfers
    result = keep_result(table, state, index)
    record = hand_record(table, state, index, escaped=(seat,))
    await persist.stored(table, table.store.play.finish_hand, table.room_id, index, record, result)
    if not stored:
        views.broadcast_update(table)
        # The hand's sheet again, with the escape's payments, before 大结算.
        table.next_hand_at = None
        table.last_hand_end = hand_end_message(table, state, result, last=True)
        views.broadcast(table, views.with_continue(table, table.last_hand_end))
    await finish_match(table, "finished")


async def dissolve(table: TableState, *, stored: bool = False) -> None:
    """解散: every player agreed to end the match now. A hand in play is abandoned where it stands
    (what was paid stands; nobody pays for the dissolve) and its record ends with
    ``{"act": "dissolve"}``, stored among its moves first, so that a rebuild ends the match the same
    way and the room's record replays. Between hands the match just ends after the hand played."""
    match = table.match
    if match is None:
        return
    state = match.current
    if state is not None:
        index = len(match.results)
        decisions.step_stored(table)  # a window's decisions stored ahead of its release come first
        if not stored:
            move = {"act": DISSOLVE}
            await persist.stored(
                table, table.store.play.add_move, table.room_id, index, table.moves_in_hand, move
            )
        # A window held open for nobody (hold_claims) closes as it would have: a record cannot say
        # that a window was held, and its replay (like a rebuild) has play moved on at once.
        release_claims(state)
        match.dissolve()
        result = keep_result(table, state, index)
        record = hand_record(table, state, index, escaped=(), dissolved=True)
        await persist.stored(table, table.store.play.finish_hand, table.room_id, index, record, result)
        if not stored:
            table.pending = {}
            views.broadcast_update(table)  # the hand as it stopped, before 大结算
    else:
        match.dissolve()
    await finish_match(table, "dissolved")


async def vote_lapsed(table: TableState) -> bool:
    """The open dissolve vote's countdown ran out: silence counts as agreement (storage.votes). True
    when the match is to end now; everyone is told how the vote ended either way."""
    vote = table.room.dissolve_vote
    assert vote is not None
    ended = await persist.stored(table, table.store.votes.lapse, table.room_id, vote.number)
    table.room = await persist.stored(table, table.store.rooms.room_by_id, table.room_id)
    views.broadcast_room(table)
    return ended


def hand_line(result: dict[str, Any]) -> dict[str, Any]:
    """One hand in 大结算: how it ended, who won how (and on whose discard), the score changes."""
    return {
        "index": result["hand"],
        "outcome": result["outcome"],
        "deltas": result["deltas"],  # escape payments included: the hands add up to the totals
        "escaped": result.get("escaped", []),
        "wins": [
            {"seat": score["seat"], "how": how_won(score), "from": score["from"]}
            for score in result["scores"]
        ],
    }

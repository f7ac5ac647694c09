"""For random matches in every rule set, with a player leaving (逃跑) at a random point or not at all:
each hand's transfers add up to its deltas, the deltas to the totals, and the record written from
the match replays to the same settlement."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from hupai.game import read_record, record_from_match, write_record
from hupai.game.match import ESCAPE_REASON
from hupai.replay import ReplayResult, replay
from hupai.rules import load_ruleset

from .record_play import Leaving, play_match
from .schema_support import schema_error

HANDS = 3
leavings = st.none() | st.builds(
    Leaving,
    seat=st.integers(0, 3),
    hand=st.integers(0, HANDS - 1),
    steps=st.integers(0, 120),  # past the hand's end: between hands
)
rule_cards = st.sampled_from(["nanjing", "nanning", "enshi"]).flatmap(
    lambda name: st.tuples(
        st.just(name),
        # Nanjing's penalty split three ways, evenly or not (17/17/16); the others have none.
        st.sampled_from([{}, {"escape_penalty": 50}, {"escape_penalty": 0}] if name == "nanjing" else [{}]),
    )
)


@given(card=rule_cards, seed=st.integers(0, 2**32), hands=st.integers(1, HANDS), leaving=leavings)
@settings(max_examples=25)
def test_transfers_add_up_to_deltas_and_deltas_to_totals(
    card: tuple[str, dict[str, int]], seed: int, hands: int, leaving: Leaving | None
) -> None:
    name, options = card
    ruleset = load_ruleset(name, options)
    match, states = play_match(ruleset, seed=seed, hands=hands, leaving=leaving)
    for result in match.results:
        paid = [0, 0, 0, 0]
        for transfer in result.transfers:
            paid[transfer.payer] -= transfer.amount
            paid[transfer.payee] += transfer.amount
        assert paid == list(result.deltas), f"hand {result.index}: transfers do not add up to deltas"
    assert [sum(column) for column in zip(*(r.deltas for r in match.results), strict=True)] == match.totals
    left = leaving is not None and leaving.hand < hands
    assert match.over is left
    if left:
        assert leaving is not None
        last = match.results[-1]
        assert last.escaped == (leaving.seat,)
        escape = [transfer for transfer in last.transfers if transfer.reason == ESCAPE_REASON]
        assert escape == list(ruleset.escape_transfers(leaving.seat))
        assert all(result.escaped == () for result in match.results[:-1])

    written = write_record(record_from_match(match, states))
    assert schema_error(written, "record") is None
    replayed = replay(read_record(json.dumps(written, ensure_ascii=False)))
    settlement = ReplayResult(match, states).as_dict()
    assert replayed.as_dict() == settlement
    assert schema_error(json.loads(json.dumps(settlement)), "settlement") is None

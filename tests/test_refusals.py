"""Refusals to win carry a code and params beside their English sentence, so that the browser says
them in the reader's language: every refusal met in self-played hands of the three rule sets has a
known code, and every code has words in both languages in web/js/i18n.js."""

from __future__ import annotations

import pickle
import re
from collections import Counter
from pathlib import Path

import pytest

from hupai.bots import make_bot
from hupai.bots.selfplay import acting_seat
from hupai.game.engine import legal_actions, step, win_refusal
from hupai.game.match import Match
from hupai.game.model import Phase
from hupai.game.record import MatchRecord, RecordError, read_record
from hupai.game.refusal import CODES, NOT_COMPLETE, Refusal
from hupai.game.view import view
from hupai.replay import replay
from hupai.rules import load_ruleset
from hupai.sim import SimConfig, simulate_matches

I18N = Path(__file__).resolve().parents[1] / "src" / "hupai" / "server" / "web" / "js" / "i18n.js"


def met_in_play(ruleset: str, hands: int, options: dict[str, object]) -> Counter[str]:
    """The codes of every refusal a seat would be shown, after every step of self-played hands."""
    bots = [make_bot("random" if seat % 2 else "strong", seat) for seat in range(4)]
    match = Match(load_ruleset(ruleset, options), seed=3, seats=("a", "b", "c", "d"))
    met: Counter[str] = Counter()
    for number in range(hands):
        if match.over:
            match = Match(load_ruleset(ruleset, options), seed=3 + number, seats=("a", "b", "c", "d"))
        state = match.start_hand()
        while state.phase is not Phase.ENDED:
            for seat in range(4):
                refusal = win_refusal(state, seat)
                if refusal is not None:
                    assert isinstance(refusal, Refusal) and refusal.code in CODES, repr(refusal)
                    met[refusal.code] += 1
            seat = acting_seat(state)
            legal = legal_actions(state, seat)
            step(state, bots[seat].choose(view(state, seat, legal=legal), legal))
        match.finish_hand(state)
    return met


@pytest.mark.parametrize(
    ("ruleset", "options"),
    [
        ("nanjing", {}),
        ("nanning", {"chicken_ron": "tsumo_only", "min_points": 9}),  # seed 004's house rules
        ("enshi", {}),
    ],
)
def test_every_refusal_met_in_play_has_a_known_code(ruleset: str, options: dict[str, object]) -> None:
    met = met_in_play(ruleset, 80, options)
    assert sum(met.values()) > 0, "no refusal met: the test plays too little"


def test_every_code_has_words_in_both_languages() -> None:
    words = I18N.read_text(encoding="utf-8")
    for code in CODES:
        found = re.search(rf'^  "refusal\.{code}": \["([^"]+)", "([^"]+)"\],$', words, re.MULTILINE)
        assert found is not None, code


def test_a_refusal_is_its_sentence_and_survives_pickling() -> None:
    refusal = Refusal("封胡: seat 2 has taken three sets from seat 0", "sealed", seat=2)
    assert refusal == "封胡: seat 2 has taken three sets from seat 0"
    assert refusal.said() == {"code": "sealed", "params": {"seat": 2}}
    again = pickle.loads(pickle.dumps(refusal))
    assert (again, again.code, again.params) == (refusal, "sealed", {"seat": 2})
    assert pickle.loads(pickle.dumps(NOT_COMPLETE)).code == "not_complete"


# --- re-scoring a record under an option that forbids a win it has -------------------------------

RECORDS = Path(__file__).parent / "data" / "records"


def rescored_refusal(record: MatchRecord, options: dict[str, object]) -> str | None:
    """Why replaying ``record`` under its own card changed by ``options`` fails (None if it does not)."""
    try:
        replay(record, ruleset=load_ruleset(record.ruleset, {**record.options, **options}))
    except RecordError as error:
        return str(error)
    return None


@pytest.mark.parametrize(
    ("stem", "options", "rule"),
    [
        # A discard win taken by the next seat, which has drawn by the time the record says 胡.
        ("nanning/n4-26", {"min_points": 100}, "起胡 100"),
        # A robbed kong: no robbing window opens, the kong stands, the robber's 胡 comes late.
        ("nanning/n4-12", {"min_points": 100}, "起胡 100"),
        # 海底炮: the hand ends in a draw before the record's 胡.
        ("nanning/n4-18", {"min_points": 100}, "起胡 100"),
        # A seat that passed a win it is no longer offered (the window opened for another seat).
        ("nanning/nn-007", {"chicken_ron": "tsumo_only"}, "鸡胡不可放炮"),
    ],
)
def test_a_record_rescored_under_a_forbidding_option_names_that_rule(
    stem: str, options: dict[str, object], rule: str
) -> None:
    record = read_record((RECORDS / f"{stem}.json").read_text(encoding="utf-8"))
    assert rescored_refusal(record, {}) is None
    refused = rescored_refusal(record, options)
    assert refused is not None and rule in refused, refused
    assert "诈胡" not in refused


@pytest.mark.parametrize(
    ("ruleset", "options", "rule"),
    [
        ("nanjing", {"small_hand_hard_flowers": 8}, "小胡需门清或8个硬花"),
        ("enshi", {"max_laizi_in_win": 1}, "赖子太多"),
    ],
)
def test_self_played_records_rescored_refuse_by_the_rule_never_as_not_complete(
    tmp_path: Path, ruleset: str, options: dict[str, object], rule: str
) -> None:
    config = SimConfig(ruleset=ruleset, hands=64, seed=7, records=str(tmp_path), bots=("efficiency",) * 4)
    simulate_matches(config, range(config.matches))
    refusals: Counter[str] = Counter()
    for path in sorted(tmp_path.glob("*.json")):
        refused = rescored_refusal(read_record(path.read_text(encoding="utf-8")), options)
        if refused is not None:
            refusals["named" if rule in refused else refused] += 1
    assert refusals["named"] >= 1
    assert set(refusals) == {"named"}, refusals

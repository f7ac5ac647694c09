"""The deterministic table: hands, claims, views, matches and records (standard library only)."""

from hupai.game.actions import Action, DeclareReady, Discard, Kong, Pass, Pong, Win
from hupai.game.engine import IllegalAction, InvalidDeal, legal_actions, new_hand, step, verify
from hupai.game.match import HandResult, Match, hand_seed
from hupai.game.model import HandState, Phase
from hupai.game.record import RecordError, read_record, record_from_match, write_record
from hupai.game.view import SeatView, events_for, full_view, view

__all__ = [
    "Action",
    "DeclareReady",
    "Discard",
    "HandResult",
    "HandState",
    "IllegalAction",
    "InvalidDeal",
    "Kong",
    "Match",
    "Pass",
    "Phase",
    "Pong",
    "RecordError",
    "SeatView",
    "Win",
    "events_for",
    "full_view",
    "hand_seed",
    "legal_actions",
    "new_hand",
    "read_record",
    "record_from_match",
    "step",
    "verify",
    "view",
    "write_record",
]

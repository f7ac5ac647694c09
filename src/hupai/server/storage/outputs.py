"""What the store hands out: rows turned into the API's schemas (a room with its rule card and seats,
a user), and the names bots are shown by."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from hupai.rules import find_preset, load_ruleset
from hupai.server.schemas import DissolveVoteOut, EscapeOut, RoomOut, RuleCardOut, SeatOut, UserOut
from hupai.server.storage.models import DissolveVote, Room, User, utcnow
from hupai.server.storage.vote_terms import asks_left, last_vote, quiet_left, voters


def user_out(user: User) -> UserOut:
    return UserOut(id=user.id, name=user.name, guest=user.is_guest, avatar=user.avatar)


def rule_card(preset_name: str, changed: dict[str, Any]) -> RuleCardOut:
    preset = find_preset(preset_name)
    ruleset = load_ruleset(preset.name, changed)
    return RuleCardOut(
        preset=preset.name,
        ruleset=preset.ruleset,
        zh=preset.zh,
        en=preset.en,
        options=dict(ruleset.options_dict()),
        changed=dict(changed),
        escape=EscapeOut(**asdict(ruleset.escape_terms())),
    )


def room_out(room: Room) -> RoomOut:
    return RoomOut(
        number=room.number,
        status=room.status,
        host_id=room.host_id,
        hands=room.hands,
        decision_seconds=room.decision_seconds,
        next_hand_seconds=room.next_hand_seconds,
        claim_seconds=room.claim_seconds,
        dissolve_seconds=room.dissolve_seconds,
        bot_level=room.bot_level,
        bot_pace=room.bot_pace,
        closed_reason=room.closed_reason,
        locked=room.locked,
        watchers=room.watchers,
        rules=rule_card(room.preset, room.options),
        seats=[
            SeatOut(
                seat=seat.seat,
                user_id=seat.user_id,
                name=seat.user.name if seat.user is not None else bot_name(seat.bot_level, seat.seat),
                avatar=seat.user.avatar if seat.user is not None else None,
                bot=seat.bot_level,
                ready=seat.ready,
                left=seat.left,
            )
            for seat in room.seats
        ],
        dissolve_vote=vote_out(room, vote) if (vote := last_vote(room)) is not None else None,
        club=room.club.number if room.club_id is not None and room.club is not None else None,
        club_rules=room.club_rules_name,
    )


def vote_out(room: Room, vote: DissolveVote) -> DissolveVoteOut:
    now = utcnow()
    left = max(0, int((vote.deadline - now).total_seconds() * 1000)) if vote.result is None else 0
    quiet = max(0, int(quiet_left(vote, now).total_seconds() * 1000))
    return DissolveVoteOut(
        number=len(room.dissolve_votes),
        asked_by=vote.asked_by,
        answers=list(vote.answers),
        voters=voters(room),
        result=vote.result,
        seconds=room.dissolve_seconds,
        ms_left=left,
        quiet_ms=quiet,
        asks_left=asks_left(room),
    )


def bot_name(level: str | None, seat: int) -> str | None:
    """A bot's name at the table: numbered by seat, so three bots are told apart (winds move with the
    dealer; seat numbers do not)."""
    if level is None:
        return None
    from hupai.bots import LEVELS

    bot = LEVELS.get(level)
    return f"电脑{seat + 1}·{bot.zh if bot is not None else level}"

"""What the HTTP API takes and returns (validated by pydantic at the edge)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from hupai.server.names import clean_name

BotLevel = Literal["random", "efficiency", "strong", "expert"]
# The avatars a player may choose (the page draws each: the flower tiles' 梅兰竹菊 and 春夏秋冬, the four
# winds); none chosen: one drawn from the name.
Avatar = Literal[
    "plum", "orchid", "bamboo", "chrysanthemum", "spring", "summer", "autumn", "winter",
    "east", "south", "west", "north",
]  # fmt: skip
# A name appears on other players' screens: normalised, visible, no markup (hupai.server.names).
PlayerName = Annotated[str, Field(min_length=1, max_length=64), AfterValidator(clean_name)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class GuestIn(Strict):
    name: PlayerName = Field(description="昵称 nickname shown at the table")
    avatar: Avatar | None = Field(default=None, description="头像; none: drawn from the name")


class AvatarIn(Strict):
    avatar: Avatar | None


class RegisterIn(Strict):
    name: PlayerName
    password: str = Field(min_length=8, max_length=200)


class LoginIn(Strict):
    name: str = Field(max_length=32)
    password: str = Field(max_length=200)


class LogoutIn(Strict):
    everywhere: bool = Field(default=False, description="end every session of this user, not only this one")


class UserOut(BaseModel):
    id: int
    name: str
    guest: bool
    avatar: str | None = None


class SessionOut(BaseModel):
    user: UserOut | None


class RoomIn(Strict):
    preset: str = Field(default="nanjing", max_length=40, description="rule set or preset, e.g. nanjing")
    options: dict[str, Any] = Field(default_factory=dict, description="house options over the preset")
    hands: Literal[4, 8, 16] = 8
    decision_seconds: int = Field(default=15, ge=5, le=120)
    next_hand_seconds: int = Field(
        default=15, ge=3, le=120, description="seconds between hands unless everyone presses 继续"
    )
    claim_seconds: float = Field(
        default=0.6,
        ge=0.2,
        le=3,
        description="the pause after every discard, whether or not anyone may claim",
    )
    bot_level: BotLevel = "strong"
    bot_pace: Literal["quick", "natural", "relaxed"] = Field(
        default="natural",
        description="how long bots seem to think: quick 0.4-1.2 s, natural 0.8-2.5, relaxed 1.5-4",
    )
    dissolve_seconds: int = Field(
        default=60,
        ge=10,
        le=300,
        description="how long a dissolve vote waits for answers; silence then counts as agreement",
    )
    watchers: Literal["invited", "anyone"] = Field(
        default="invited",
        description="who may watch the table and read its records: the invited, or anyone with the number",
    )


INVITE = Field(default=None, max_length=64, description="the token of the room's invitation link")


class SitIn(Strict):
    seat: int | None = Field(default=None, ge=0, le=3, description="a free seat, or any")
    invite: str | None = INVITE


class LockIn(Strict):
    locked: bool = Field(description="true: nobody new may sit or watch; false: open to the invited again")


class BotIn(Strict):
    seat: int | None = Field(default=None, ge=0, le=3, description="a free seat, or every free seat")
    level: BotLevel = "strong"


class SeatNumberIn(Strict):
    seat: int = Field(ge=0, le=3)


class ReadyIn(Strict):
    ready: bool = True


class VoteIn(Strict):
    agree: bool = True


class SeatOut(BaseModel):
    seat: int
    user_id: int | None
    name: str | None
    avatar: str | None = None
    bot: str | None
    ready: bool
    left: bool


class DissolveVoteOut(BaseModel):
    """A room's dissolve vote (解散): the one open now, or the last one, with how it ended."""

    number: int  # 1 for the room's first vote, and so on
    asked_by: int  # the seat that asked
    answers: list[bool | None]  # per seat: agreed, refused, or not yet (bots and empty seats: None)
    voters: list[int]  # the seats whose answer counts: the people still at the table
    result: str | None  # agreed (everyone said yes), timeout (silence counted as yes), refused; None: open
    seconds: int  # the room's countdown
    ms_left: int  # until silence counts as agreement (0 once ended)
    quiet_ms: int  # after a refusal: until anyone may ask again (0: they may)
    asks_left: list[int]  # per seat: how many more times it may ask in this match


class EscapeOut(BaseModel):
    """What leaving a started game costs (逃跑) under a rule card, for the confirmation."""

    penalty: int  # the total the leaver pays (0: no penalty)
    zh: str
    en: str


class RuleCardOut(BaseModel):
    preset: str
    ruleset: str
    zh: str
    en: str
    options: dict[str, Any]  # every option in force (the preset's with the room's changes)
    changed: dict[str, Any]  # the room's changes to the preset
    escape: EscapeOut
    labels: dict[str, Any] | None = None  # names and help per option (in /api/rulesets only)
    # Pairs of options that contradict each other (in /api/rulesets only): hupai.rules.options.Conflict
    conflicts: list[dict[str, str]] | None = None


class RoomOut(BaseModel):
    number: str
    status: str
    host_id: int
    hands: int
    decision_seconds: int
    next_hand_seconds: int
    claim_seconds: float
    bot_level: str
    bot_pace: str
    dissolve_seconds: int
    rules: RuleCardOut
    seats: list[SeatOut]
    dissolve_vote: DissolveVoteOut | None = None  # the open vote, else the last one (None: never)
    closed_reason: str | None = None  # why a room in play was closed (status "closed")
    locked: bool = False  # the host let nobody new in
    watchers: str = "invited"  # who may watch: "invited" (with the link) or "anyone" (with the number)
    invite: str | None = None  # the invitation token: only in the answer to the host who opened the room
    club: str | None = None  # a club's table: the club's number (its members come in without a link)
    club_rules: str | None = None  # ... and the name of the 玩法 it was opened from
    hands_played: int | None = None  # (a club's lobby) the hands a table in play has finished


class HistoryEntry(BaseModel):
    number: str
    status: str
    preset: str
    rules_zh: str  # the rule set's name, e.g. 南京麻将
    rules_en: str
    seat: int
    total: int | None
    rank: int | None  # None too when a match was dissolved before any points changed
    hands_played: int
    created_at: str
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    kongs: int = 0
    biggest: int | None = None  # this player's biggest gain from one win


class MeldIn(Strict):
    kind: Literal["pung", "pong", "exposed_kong", "added_kong", "concealed_kong", "chow"]
    tile: str = Field(max_length=4)
    from_: int | None = Field(default=None, alias="from", ge=0, le=3)
    # Enshi with laizi_in_melds: in a chow, the run's tile a 赖子 stands in for.
    laizi_for: str | None = Field(default=None, max_length=4)


class ScoreIn(Strict):
    """A win described for the score calculator (算分器); see :class:`hupai.calculator.WinSpec`."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, populate_by_name=True)

    preset: str = Field(default="nanjing", max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    seat: int = Field(default=0, ge=0, le=3)
    dealer: int = Field(default=0, ge=0, le=3)
    hand: str = Field(max_length=80, description="the concealed tiles without the winning tile")
    win_tile: str = Field(max_length=4)
    how: str = Field(default="self_drawn", max_length=30)
    from_: int | None = Field(default=None, alias="from", ge=0, le=3)
    melds: list[MeldIn] = Field(default_factory=list, max_length=4)
    flowers: str = Field(default="", max_length=40)
    kongs: list[int | None] = Field(default_factory=list, max_length=4)
    first_turn: bool = False
    ready: bool = False
    multiplier: int = Field(default=1, ge=1, le=1024)
    haidi: bool = False
    tiles_left: int | None = Field(default=None, ge=0, le=144)
    others_melds: dict[str, list[MeldIn]] = Field(default_factory=dict, max_length=3)
    discarded: str = Field(default="", max_length=200)
    code_tiles: str = Field(default="", max_length=40)
    horse_tiles: str = Field(default="", max_length=40)
    fish_tiles: str = Field(default="", max_length=40)
    previous_winner: int | None = Field(default=None, ge=0, le=3)
    # Enshi: the tile turned up (痞子; its successor is the wildcard 赖子), the 痞子/赖子 each seat laid
    # ({"0": "5m6m"}), and the lays made just before the win (杠开 after a lay, 杠上炮).
    pizi: str = Field(default="", max_length=4)
    laid: dict[str, Annotated[str, Field(max_length=40)]] = Field(default_factory=dict, max_length=4)
    lays_before: int = Field(default=0, ge=0, le=8)


# --- clubs (亲友圈, issue 49) ---------------------------------------------------------------------


class ClubIn(Strict):
    name: PlayerName = Field(description="the club's name, cleaned as a player's name is")


class ClubJoinIn(Strict):
    invite: str = Field(min_length=1, max_length=64, description="the token of the club's invitation link")


class ClubJoiningIn(Strict):
    open: bool = Field(description="true: a new link (the old one stops working); false: nobody may join")


class ClubRoleIn(Strict):
    role: Literal["admin", "member"]


class ClubOwnerIn(Strict):
    user_id: int = Field(ge=1, description="the member who becomes the owner")


class ClubMemberOut(BaseModel):
    user_id: int
    name: str
    avatar: str | None
    guest: bool
    role: str  # owner / admin / member
    joined_at: datetime


class ClubRulesIn(Strict):
    name: PlayerName = Field(description="the 玩法's name, e.g. 南京敞开花 16局")
    card: RoomIn


class ClubTableIn(Strict):
    rules_id: int = Field(ge=1, description="the 玩法 to open a table from")


class ClubRulesOut(BaseModel):
    id: int
    name: str
    card: dict[str, Any]  # the RoomIn a table is opened with
    rules: RuleCardOut  # the rule card, as a room's shows it


class ClubOut(BaseModel):
    number: str  # 圈号: lets nobody in by itself
    name: str
    role: str  # the asker's
    owner_id: int
    joining_open: bool
    members: list[ClubMemberOut]
    rules: list[ClubRulesOut] = []


class ClubStandingOut(BaseModel):
    user_id: int
    name: str
    matches: int
    total: int
    average: float  # a match, to one decimal
    firsts: int  # rank 1 (ties share it)
    big_wins: int  # 大赢家: the match's biggest winner, with more than 0 points


class MatchSeatOut(BaseModel):
    seat: int
    user_id: int | None  # None: a bot
    name: str
    total: int
    rank: int


class ClubMatchOut(BaseModel):
    number: str
    room_id: int  # pages the matches (``before``)
    status: str  # finished, or dissolved by a vote
    ended_at: datetime | None
    hands: int
    hands_played: int  # fewer than ``hands`` when a vote dissolved the match
    players: list[MatchSeatOut]


class ClubStandingsOut(BaseModel):
    period: str  # week, month, all
    since: datetime | None  # UTC: the period's start (a week from Monday, a month from the 1st, UTC+8)
    standings: list[ClubStandingOut]
    matches: list[ClubMatchOut]  # the newest first, a page of them

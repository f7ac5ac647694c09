"""Why a move is refused, said so that a client can put it in its own words.

Not among the compiled modules (hupai._native): a class built on ``str`` stays a plain Python class,
which the compiled engine and rule sets create and pass on as the strings they always returned."""

from __future__ import annotations

__all__ = ["CODES", "NOT_COMPLETE", "Refusal"]

# Every code a refusal to win may carry (docs/protocol.md, ``win_blocked_why``); a client words each.
CODES = (
    "not_complete",
    "tile_does_not_complete",
    "claimed_tile",
    "passed_win_until_discard",
    "passed_win_until_draw",
    "small_hand",
    "sealed",
    "chicken_on_discard",
    "below_min_points",
    "pizi_held",
    "too_many_laizi",
    "jianzihu_self_drawn_only",
    "kong_not_robbable",
    "wild_never_discarded",
)


class Refusal(str):
    """Why a move is refused: the English sentence (the string itself, as every refusal was before)
    with a ``code`` and its ``params`` for a client to say it in its own language (a seat number as
    ``seat``, a tile in notation as ``tile``). Pickles as a string with its code and params."""

    code: str
    params: dict[str, int | str]

    def __new__(cls, text: str, code: str = "", **params: int | str) -> Refusal:
        made = super().__new__(cls, text)
        made.code = code
        made.params = params
        return made

    def said(self) -> dict[str, object]:
        """The code and params as a message carries them."""
        return {"code": self.code, "params": dict(self.params)}


NOT_COMPLETE = Refusal("诈胡: the hand is not complete", "not_complete")

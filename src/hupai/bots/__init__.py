"""Computer players. Every bot sees exactly one seat's view and its legal actions, nothing more.

Levels, by name (Chinese and English names for menus):

===============  ======  ==========================================================================
name             中文     what it does
===============  ======  ==========================================================================
``random``       随机     any legal action (the reference for speed)
``efficiency``   牌效     fewest tiles to go and most tiles that help; claims only when they help
``strong``       高手     weighs what the hand is worth under the rules, how dangerous each discard
                          is, and when to claim (see :mod:`hupai.bots.strong`)
``expert``       大师     searches: plays each candidate out in worlds dealt anew from what it may
                          see, and keeps the best paid (see :mod:`hupai.bots.search`); ``expert:N``
                          sets its budget to N rollouts a decision
``trustee``      托管     plays a seat for an absent player: wins when it may, else lets go
===============  ======  ==========================================================================

``make_bot("cmd:python mybot.py")`` seats an external program speaking the JSON-lines protocol of
``docs/bot-protocol.md``.
"""

from __future__ import annotations

from hupai.bots.autoplay import TrusteeBot, ready_action, ting_action, trustee_action
from hupai.bots.base import Bot, Level
from hupai.bots.search import ExpertBot
from hupai.bots.simple import EfficiencyBot, RandomBot
from hupai.bots.strong import StrongBot

__all__ = [
    "LEVELS",
    "Bot",
    "BotError",
    "EfficiencyBot",
    "ExpertBot",
    "RandomBot",
    "StrongBot",
    "TrusteeBot",
    "make_bot",
    "ready_action",
    "ting_action",
    "trustee_action",
]

LEVELS: dict[str, Level] = {
    "random": RandomBot,
    "efficiency": EfficiencyBot,
    "strong": StrongBot,
    "expert": ExpertBot,
    "trustee": TrusteeBot,
}


class BotError(ValueError):
    """An unknown bot level or a bad external command."""


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its level name (``"strong"``, ``"高手"``) or ``"cmd:<command line>"``."""
    spec = spec.strip()
    if spec.startswith("cmd:"):
        from hupai.bots.external import ExternalBot

        command = spec[4:].strip()
        if not command:
            raise BotError("'cmd:' needs a command line, e.g. cmd:python mybot.py")
        return ExternalBot(command)
    level, budget = _with_budget(spec)
    for name, factory in LEVELS.items():
        if level.lower() not in (name, factory.zh, factory.en.lower()):
            continue
        if budget is None:
            return factory(seed)
        if factory is not ExpertBot:
            raise BotError(f"only the expert bot takes a budget ({spec!r})")
        return ExpertBot(seed, rollouts=budget)
    known = ", ".join(LEVELS)
    raise BotError(f"unknown bot {spec!r} (levels: {known}; or cmd:<command> for an external bot)")


def _with_budget(spec: str) -> tuple[str, int | None]:
    """``"expert:32"`` -> ("expert", 32): a search bot's rollouts a decision."""
    level, colon, budget = spec.partition(":")
    if not colon:
        return spec, None
    if not budget.strip().isdigit():
        raise BotError(f"a bot's budget is a whole number of rollouts, e.g. expert:32 (got {spec!r})")
    return level.strip(), int(budget)

"""Computer players. Every bot sees exactly one seat's view and its legal actions, nothing more.

Levels, by name (Chinese and English names for menus):

===============  ======  ==========================================================================
name             中文     what it does
===============  ======  ==========================================================================
``random``       随机     any legal action (the reference for speed)
``efficiency``   牌效     fewest tiles to go and most tiles that help; claims only when they help
``strong``       高手     weighs what the hand is worth under the rules, how dangerous each discard
                          is, and when to claim (see :mod:`hupai.bots.strong`)
``trustee``      托管     plays a seat for an absent player: wins when it may, else lets go
===============  ======  ==========================================================================

``make_bot("cmd:python mybot.py")`` seats an external program speaking the JSON-lines protocol of
``docs/bot-protocol.md``.
"""

from __future__ import annotations

from collections.abc import Callable

from hupai.bots.autoplay import TrusteeBot, ready_action, ting_action, trustee_action
from hupai.bots.base import Bot
from hupai.bots.simple import EfficiencyBot, RandomBot
from hupai.bots.strong import StrongBot

__all__ = [
    "LEVELS",
    "Bot",
    "BotError",
    "EfficiencyBot",
    "RandomBot",
    "StrongBot",
    "TrusteeBot",
    "make_bot",
    "ready_action",
    "ting_action",
    "trustee_action",
]

LEVELS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "efficiency": EfficiencyBot,
    "strong": StrongBot,
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
    for name, factory in LEVELS.items():
        bot = factory(seed)
        if spec.lower() in (name, bot.zh, bot.en.lower()):
            return bot
    known = ", ".join(LEVELS)
    raise BotError(f"unknown bot {spec!r} (levels: {known}; or cmd:<command> for an external bot)")

"""Names and sources of every Enshi score item and payment reason (docs/rules/enshi.md §5.3, §7.4).

Sources: S003b (seed 003, the Enshi part), X-ES (an Enshi app's rule text, where the seed is silent).
"""

from __future__ import annotations

from hupai.game.contract import ScoreItem, Transfer

# key: (中文, English, source)
ITEMS: dict[str, tuple[str, str, str]] = {
    # The hand: its 底数 (one of the four)
    "pihu": ("屁胡", "Plain win on a discard (open hand)", "S003b 2"),
    "xiaoxie": ("小斜", "Open hand, self-drawn", "S003b 3"),
    "daxie": ("大斜", "Concealed hand (门前清)", "S003b 4"),
    "qidui": ("七对", "Seven pairs (一点)", "S003b 6"),
    # The value
    "difen": ("底分", "Stake", "S003b 1"),
    "hard": ("硬", "No 赖子 in the winning hand: ×2", "S003b 5"),
    "qidui_self_drawn": ("七对自摸", "Seven pairs self-drawn: ×2", "S003b 7, 8 (四点)"),
    # Multipliers (the winner's on the sheet, each loser's on their payer line)
    "pizi_laid": ("下痞子", "Each 痞子 laid: ×2", "S003b 倍数 1"),
    "laizi_laid": ("下赖子", "Each 赖子 laid: ×4", "S003b 倍数 1"),
    "exposed_kong": ("明杠", "Each exposed kong (direct or added): ×2", "S003b 倍数 1; X-ES 点杠, 碰杠"),
    "concealed_kong": ("暗杠", "Each concealed kong: ×4", "S003b 倍数 1"),
    "kong_bloom": ("杠开", "Won on a replacement (after a lay or a kong): ×2", "S003b 杠开, 倍数 1"),
    "gangshangpao": ("杠上炮", "Won on a discard made right after the discarder's lay or kong", "X-ES"),
    # A payer line's own factor
    "discarder": ("点炮加倍", "The discarder pays double", "S003b 倍数 3, 2"),
}

REASONS: dict[str, tuple[str, str]] = {
    "win_discard": ("点炮", "Win on a discard: the discarder's line"),
    "win_discard_other": ("点炮陪付", "Win on a discard: a player who did not discard (single)"),
    "win_self_drawn": ("自摸", "Self-drawn win: each player's line"),
    "robbed_kong": ("抢杠", "Robbed kong: the robbed player's line, paid as a discarder"),
    "kong_money": ("杠钱", "Kong money, paid at once"),
}

# The names of the caps a payer line may show (PayerLine.cap).
CAPS: dict[str, tuple[str, str]] = {
    "cap": ("封顶", "Capped"),
    "gold_cap": ("金顶", "Gold cap: all three reached the cap"),
    "diamond_cap": ("钻石顶", "Diamond cap: all three reached the gold cap"),
}


def item(key: str, value: int, *, count: int = 1, multiply: bool = False) -> ScoreItem:
    zh, en, source = ITEMS[key]
    return ScoreItem(key=key, zh=zh, en=en, value=value, source=source, count=count, multiply=multiply)


def transfer(payer: int, payee: int, amount: int, reason: str) -> Transfer:
    zh, en = REASONS[reason]
    return Transfer(payer=payer, payee=payee, amount=amount, reason=reason, zh=zh, en=en)

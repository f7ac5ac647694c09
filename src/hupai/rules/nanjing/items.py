"""The names and sources of every Nanjing score item and payment reason.

Sources name the seed files (S000a = seed 000 first half, S002, S003a = seed 003 Nanjing part) and,
where the seeds are silent, the reading rules-notes recommends.
"""

from __future__ import annotations

from hupai.game.contract import ScoreItem, Transfer

# key: (中文, English, source)
ITEMS: dict[str, tuple[str, str, str]] = {
    "base": ("跑20", "Base (跑20)", "S000a, S002, S003a"),
    "hard_flowers": ("硬花", "Hard flowers ×2 (砸2)", "S000a, S002, S003a"),
    "wind_pung": ("风碰", "Wind pung: 1 soft flower ×2", "S000a, S002, S003a"),
    "wind_exposed_kong": ("风明杠", "Exposed wind kong: 2 soft flowers ×2", "S000a, S002"),
    "wind_concealed_kong": ("风暗杠", "Concealed wind kong: 3 soft flowers ×2", "S000a, S002"),
    "exposed_kong_soft": ("明杠", "Exposed kong: 1 soft flower ×2", "S002"),
    "concealed_kong_soft": ("暗杠", "Concealed kong: 2 soft flowers ×2", "S002"),
    "closed_wait": ("压档", "Closed wait: 1 soft flower ×2", "S000a, S002, S003a"),
    "edge_wait": ("边枝", "Edge wait: 1 soft flower ×2", "S000a, S002, S003a"),
    "pair_wait": ("独占", "Single wait on the pair: 1 soft flower ×2", "S000a, S002, S003a (A-4)"),
    "missing_suit": ("缺一", "One suit missing: 1 soft flower ×2", "S000a, S002, S003a (A-5)"),
    "wind_pair": ("风对", "Wind pair: 1 soft flower ×2", "X-JL (option, A-6)"),
    "menqing": ("门清", "Concealed hand", "S000a, S002, S003a"),
    "hunyise": ("混一色", "Half flush", "S000a, S002, S003a"),
    "qingyise": ("清一色", "Full flush", "S000a, S002, S003a"),
    "duiduihu": ("对对胡", "All pungs", "S000a, S002, S003a"),
    "quanqiu": ("全球独钓", "All melded, single wait", "S000a, S002, S003a"),
    "qidui": ("七对", "Seven pairs", "S000a, S002 (S003a: 40)"),
    "luxury_qidui_1": ("豪华七对", "Luxury seven pairs (one four of a kind)", "S000a"),
    "luxury_qidui_2": ("超豪华七对", "Super luxury seven pairs (two fours)", "S000a"),
    "luxury_qidui_3": ("超超豪华七对", "Triple luxury seven pairs (three fours)", "S000a"),
    "double_qidui": ("双七对", "Seven pairs won on the fourth tile", "S002, S003a"),
    "fengyise": ("风一色", "All winds", "S002"),
    "yajue": ("压绝", "Closed or edge wait on the last copy", "S000a, S002, S003a"),
    "wuhuaguo": ("无花果", "No hard flowers", "S000a, S002, S003a"),
    "tianhu": ("天胡", "Heavenly hand", "S000a, S003a (S002: 60)"),
    "dihu": ("地胡", "Earthly hand (after 报听)", "S000a, S003a (S002: 40)"),
    "small_kong_bloom": ("小杠开", "Win on a flower replacement", "S000a, S002, S003a"),
    "big_kong_bloom": ("大杠开", "Win on a kong replacement", "S000a, S003a (S002: ×2)"),
    "flower_kong_bloom": ("花杠开", "Win on the replacement after a flower kong", "S000a (S002: ×4)"),
    "haidi": ("海底捞", "Win in the last two stacks", "S002"),
    "bixiahu": ("比下胡", "Doubled hand (比下胡)", "S000a, S003a"),
}

# key: (中文, English) of payment reasons
REASONS: dict[str, tuple[str, str]] = {
    "win_discard": ("放炮", "Win on a discard: the discarder pays"),
    "win_self_drawn": ("自摸", "Self-drawn win: each player pays"),
    "robbed_kong": ("抢杠包牌", "Robbed kong: the robbed player pays three shares"),
    "kuaizhao": ("快照包牌", "快照 liability: the player who fed three melds pays"),
    "sanqing": ("三清包牌", "三清 liability: the player who fed the fourth meld pays three shares"),
    "kong_bloom_liability": ("大杠开包牌", "Kong bloom: the player whose tile was konged pays three shares"),
    "exposed_kong": ("明杠", "Exposed kong: the feeder pays"),
    "concealed_kong": ("暗杠", "Concealed kong: each player pays"),
    "flower_kong": ("花杠", "Flower kong: each player pays"),
    "penalty_follow": ("罚（四家同打）", "Penalty: four players discarded the same tile in a row"),
    "penalty_four": ("罚（一人四张）", "Penalty: one player discarded all four copies"),
    "escape": ("逃跑", "Left the game: escape penalty"),
}

LIABILITY_REASONS = frozenset({"robbed_kong", "kuaizhao", "sanqing", "kong_bloom_liability"})


def item(key: str, value: int, *, count: int = 1, multiply: bool = False) -> ScoreItem:
    zh, en, source = ITEMS[key]
    return ScoreItem(key=key, zh=zh, en=en, value=value, source=source, count=count, multiply=multiply)


def transfer(payer: int, payee: int, amount: int, reason: str) -> Transfer:
    zh, en = REASONS[reason]
    return Transfer(payer=payer, payee=payee, amount=amount, reason=reason, zh=zh, en=en)

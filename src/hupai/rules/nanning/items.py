"""Names and sources of every Nanning score item and payment reason.

Sources: S001 (seed 001, the standard tables), S000b (seed 000, second half), S004 (seed 004).
"""

from __future__ import annotations

from hupai.game.contract import ScoreItem, Transfer

# key: (中文, English, source)
ITEMS: dict[str, tuple[str, str, str]] = {
    "base_plain": ("普通牌型", "Plain hand: base 3", "S001 基数"),
    "base_menqing": ("门清", "Concealed hand: base 4", "S001 基数, S004 (暗杠算门清)"),
    "chicken_ron": ("鸡胡放炮", "Plain hand on a discard", "S001 二"),
    "chicken_ron_menqing": ("门清放炮", "Concealed plain hand on a discard", "S001 二 (S004: 3)"),
    "pengpenghu": ("碰碰胡", "All pungs", "S001 四, S004"),
    "qingyise": ("清一色", "Full flush (字一色 included)", "S001 四, S004"),
    "qixiaodui": ("七小对", "Seven pairs", "S001 五, S004"),
    "qidadui_1": ("七大对一组", "Seven pairs with one four of a kind", "S001 六, S004"),
    "qidadui_2": ("豪华大七对", "Seven pairs with two fours of a kind", "S001 六, S004"),
    "qidadui_3": ("超级豪华大七对", "Seven pairs with three fours of a kind", "S001 六, S004"),
    "quanqiuren": ("全求人", "All melded, won on a discard", "S001 十, S004"),
    "self_drawn": ("自摸", "Self-drawn: each of the three pays the unit", "S001 三"),
    "ron": ("放炮", "On a discard: the discarder pays three units halved", "S001 四-六"),
    "gangshangpao": ("杠上炮", "Discarded right after a kong: 大炮, three units", "S001 八, S004"),
    "quanqiupao": ("全求炮", "Discarded by a player with four melds: 大炮", "S001 十一"),
    "haidipao": ("海底炮", "Discarded after the last tile was drawn: 大炮", "S000b, S004"),
    "renhu": ("人胡", "On the dealer's first discard: 门清大炮", "S000b"),
    "robbed_kong": ("抢杠胡", "Robbing an added kong: 大炮", "S001 九, S004"),
    "chain": ("连杠", "Each further kong in a row doubles", "S001 七, 八, 九"),
    "kong_bloom": ("杠上花", "Win on a kong replacement: ×2 per kong", "S001 七, S004"),
    "exposed_bloom": (
        "明杠杠上花",
        "After an exposed kong the player whose tile was konged pays three units",
        "S001 七",
    ),
    "concealed_bloom_fixed": ("暗杠杠上花", "Concealed-kong bloom: a fixed amount from each", "S004"),
    "haidi": ("海底捞月", "Self-drawn on the last tile: ×2", "S000b (S004: last go-around)"),
    "haidi_add": ("海底捞月", "Self-drawn at the end of the wall", "S004"),
    "tianhu": ("天胡", "Dealer complete on the first 14: 门清自摸 ×2", "S000b"),
    "dihu": ("地胡", "Complete on one's first draw in the first go-around: 门清自摸 ×2", "S000b"),
    "tianhu_fixed": ("天胡", "Dealer complete on the first 14: a fixed amount from each", "S004"),
    "dihu_fixed": ("地胡", "Complete on one's first draw: a fixed amount from each", "S004"),
    "moma": ("摸码", "Code tiles after a self-drawn win: ×(1 + hits)", "S000b"),
    "maima": ("买马", "Horses from the back of the wall: ×(1 + hits)", "S004 (mentioned), platforms"),
    "fishing": ("钓鱼", "Fish tiles: ×(1 + hits)", "S000b, S004"),
}

REASONS: dict[str, tuple[str, str]] = {
    "win_discard": ("放炮", "Win on a discard: the discarder pays"),
    "win_self_drawn": ("自摸", "Self-drawn win: each player pays"),
    "dapao": ("大炮", "大炮: the discarder pays three units"),
    "robbed_kong": ("抢杠", "Robbed kong: the robbed player pays"),
    "kong_bloom_feeder": ("明杠杠上花", "Kong bloom after an exposed kong: the konged player pays all"),
    "fenghu": ("封胡包牌", "封胡: the sealed player pays all"),
    "fenghu_double": ("封胡放炮×2", "封胡: the sealed player dealt in and pays double"),
    "fenghu_shuangfei": ("双飞", "封胡: the sealed player pays as much as the discarder"),
    "exposed_kong": ("明杠", "Exposed kong: the feeder pays"),
    "concealed_kong": ("暗杠", "Concealed kong: each player pays"),
    "chain_kong": ("连杠杠分", "A kong in a chain after an exposed kong: the first konged player pays"),
    "quanqiupao_surcharge": ("全求炮加付", "A deal-in by a player with four melds: surcharge (seed 004)"),
}


def item(key: str, value: int, *, count: int = 1, multiply: bool = False, divisor: int = 1) -> ScoreItem:
    zh, en, source = ITEMS[key]
    return ScoreItem(
        key=key, zh=zh, en=en, value=value, source=source, count=count, multiply=multiply, divisor=divisor
    )


def transfer(payer: int, payee: int, amount: int, reason: str) -> Transfer:
    zh, en = REASONS[reason]
    return Transfer(payer=payer, payee=payee, amount=amount, reason=reason, zh=zh, en=en)

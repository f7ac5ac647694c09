"""Player-facing names of every Nanjing option and of the words its text options take.

The Chinese follows the words Nanjing players and the seeds use (跑20, 砸2, 加花, 快照, 比下胡 …) and the
score item names of :mod:`hupai.rules.nanjing.items`. What each option settles: ``docs/rules/nanjing.md`` §7.
"""

from __future__ import annotations

# option: (中文, English, short English help, 中文说明)
OPTION_LABELS: dict[str, tuple[str, str, str, str]] = {
    # Table
    "reserved_tiles": (
        "留牌张数（留8墩）",
        "Reserved tiles",
        "Tiles at the end of the wall that are never drawn; 16 = 8 stacks (留8墩).",
        "牌墙最后不摸的牌张数，16张即留8墩",
    ),
    "haidi_tiles": (
        "海底张数",
        "Last-tiles window",
        "A win with fewer live tiles left than this is 海底捞; 4 = the last 2 stacks.",
        "剩下可摸的牌少于此数时胡牌算海底捞，4张即最后2墩",
    ),
    "multi_ron": (
        "一炮多响",
        "Several winners on one discard",
        "Everyone who can win on a discard wins; off: only the first after the discarder.",
        "一张牌几家能胡都算胡；关闭则只算放炮者之后的第一家",
    ),
    "pass_win_restriction": (
        "过胡不胡",
        "No win after passing a win",
        "Pass a win and you cannot win on a discard or rob a kong until your next discard.",
        "过胡后到自己下次出牌前，不能胡别人打的牌，也不能抢杠",
    ),
    "pass_pung_restriction": (
        "过碰不碰",
        "No pung after passing a pung",
        "Pass a pung and you cannot pung that tile until your own next discard.",
        "过碰后到自己下次出牌前，不能再碰这张牌",
    ),
    # Win values
    "base": (
        "跑20（成牌底花）",
        "Base per win",
        "Flowers every win adds before bonuses (跑20); not doubled by 砸2.",
        "每次胡牌先加的底花（跑20），不参与砸2翻倍",
    ),
    "menqing": (
        "门清算法",
        "What breaks a concealed hand",
        "Which melds lose the 门清 (concealed hand) bonus.",
        "哪些碰、杠会破门清，不再加门清的花",
    ),
    "menqing_bonus": (
        "门清加花",
        "Concealed hand bonus",
        "Flowers added for a concealed hand (门清).",
        "门清加的花数",
    ),
    "hunyise_bonus": (
        "混一色加花",
        "Half flush bonus",
        "Flowers added for one suit plus winds (混一色).",
        "一门花色加风牌（混一色）加的花数",
    ),
    "qingyise_bonus": (
        "清一色加花",
        "Full flush bonus",
        "Flowers added for one suit, no winds (清一色).",
        "只有一门花色、没有风牌（清一色）加的花数",
    ),
    "duiduihu_bonus": (
        "对对胡加花",
        "All pungs bonus",
        "Flowers added when every set is a pung or kong (对对胡).",
        "四副都是碰或杠（对对胡）加的花数",
    ),
    "quanqiu_bonus": (
        "全球独钓加花",
        "All melded, single wait bonus",
        "Flowers added for four melds down and one tile in hand (全球独钓).",
        "落地四副、手里单钓一张（全球独钓）加的花数",
    ),
    "quanqiu_includes_duidui": (
        "全球独钓另计对对胡",
        "All melded also scores all pungs",
        "全球独钓 also adds the 对对胡 bonus.",
        "全球独钓另加对对胡的花",
    ),
    "qidui_bonus": (
        "七对加花",
        "Seven pairs bonus",
        "Flowers added for seven pairs (七对); seed 003 says 40.",
        "七对加的花数，种子003为40",
    ),
    "luxury_qidui": (
        "豪华七对算法",
        "Luxury seven pairs rule",
        "Whether fours held in seven pairs count, or only a win on the fourth tile (双七对).",
        "按七对里手握的四张算豪华，还是只有胡第四张才算双七对",
    ),
    "luxury_qidui_bonus": (
        "豪华七对加花",
        "Luxury seven pairs bonuses",
        "Three values: one, two, three fours held; 双七对 takes the first.",
        "三个数：手握一、二、三组四张各加的花；双七对取第一个",
    ),
    "fengyise_bonus": (
        "风一色加花",
        "All winds bonus",
        "Flowers added for a hand of winds only (风一色).",
        "全是风牌（风一色）加的花数",
    ),
    "yajue_bonus": (
        "压绝加花",
        "Last-copy wait bonus",
        "Flowers for a closed or edge wait on the last copy (压绝); replaces the soft flower.",
        "压档或边枝胡最后一张（压绝）加的花，代替那个软花",
    ),
    "yajue_source": (
        "压绝三张来源",
        "Last-copy wait: where the other three are",
        "Where the other three copies may be for 压绝; several may be chosen.",
        "算压绝时另外三张可以在哪里，可多选",
    ),
    "yajue_shapes": (
        "压绝牌型",
        "Last-copy wait shapes",
        "Which waits can be 压绝: closed only, or closed or edge.",
        "哪些听法能算压绝：只算压档，或压档、边枝都算",
    ),
    "wuhuaguo_bonus": (
        "无花果加花",
        "No flowers bonus",
        "Flowers added for a win without any hard flower (无花果).",
        "一张硬花都没有胡牌（无花果）加的花数",
    ),
    "wuhuaguo": (
        "无花果条件",
        "No flowers condition",
        "What a hand without hard flowers also needs to be 无花果.",
        "没有硬花的牌还要满足什么才算无花果",
    ),
    "tianhu": (
        "天胡算法",
        "Heavenly hand scoring",
        "天胡 adds its bonus to the share, or each payer pays it alone.",
        "天胡的花加进每家应付，或每家只付固定的天胡花数",
    ),
    "tianhu_bonus": (
        "天胡加花",
        "Heavenly hand bonus",
        "Flowers for the dealer winning on the first 14; seed 002 says 60.",
        "庄家起手14张就胡（天胡）的花数，种子002为60",
    ),
    "dihu_bonus": (
        "地胡加花",
        "Earthly hand bonus",
        "Flowers for a win after declaring ready (报听) at the start; seed 002 says 40.",
        "开局报听后胡牌（地胡）的花数，种子002为40",
    ),
    "dihu_adds_menqing": (
        "地胡另计门清",
        "Earthly hand also scores 门清",
        "地胡 also adds the 门清 bonus.",
        "地胡另加门清的花",
    ),
    "dihu_allow_kong_same_waits": (
        "报听后可杠",
        "Kong after declaring ready",
        "After 报听, allow a kong on your own turn when the waits stay the same.",
        "报听后轮到自己时，不改听口就可以开杠",
    ),
    "small_kong_bloom_bonus": (
        "小杠开加花",
        "Flower replacement win bonus",
        "Flowers added for a win on a flower replacement tile (小杠开).",
        "补花摸到的牌胡牌（小杠开）加的花数",
    ),
    "big_kong_bloom": (
        "大杠开算法",
        "Kong replacement win scoring",
        "大杠开 adds its bonus, or doubles the share.",
        "大杠开加花，或每家应付翻倍",
    ),
    "big_kong_bloom_bonus": (
        "大杠开加花",
        "Kong replacement win bonus",
        "Flowers added for a win on a kong replacement tile (大杠开), when added.",
        "杠后补牌胡（大杠开）按加花算时加的花数",
    ),
    "flower_kong_bloom": (
        "花杠开算法",
        "Flower kong replacement win scoring",
        "花杠开 adds its bonus, or multiplies the share by 4.",
        "花杠开加花，或每家应付×4",
    ),
    "flower_kong_bloom_bonus": (
        "花杠开加花",
        "Flower kong replacement win bonus",
        "Flowers added for a win on the replacement after a flower kong (花杠开), when added.",
        "花杠后补牌胡（花杠开）按加花算时加的花数",
    ),
    "haidi_bonus": (
        "海底捞加花",
        "Last-tiles win bonus",
        "Flowers added for a win in the last live tiles (海底捞).",
        "在最后几张可摸的牌里胡（海底捞）加的花数",
    ),
    "small_hand_hard_flowers": (
        "小胡硬花数",
        "Hard flowers for a small hand",
        "A small hand that is not 门清 needs at least this many hard flowers to win.",
        "不是门清的小胡至少要有这么多硬花才能胡",
    ),
    "suit_kong_soft": (
        "筒条万杠算软花",
        "Suited kongs give soft flowers",
        "Exposed suited kong 1 soft flower, concealed 2; off: none (wind kongs unchanged).",
        "筒条万明杠算1个软花、暗杠算2个；关闭则不算（风杠照旧）",
    ),
    "wind_pair_soft": (
        "风将算软花",
        "Wind pair is a soft flower",
        "A pair of one wind counts 1 soft flower.",
        "一对风牌（风对）算1个软花",
    ),
    # Money during play (现场汇)
    "exposed_kong_money": (
        "明杠付花",
        "Exposed kong money",
        "Paid at once by the player who fed the kong; seed 002 says 20.",
        "放杠的人当场付，种子002为20",
    ),
    "concealed_kong_money": (
        "暗杠付花（每家）",
        "Concealed kong money (each)",
        "Paid at once by each other player; seed 002 says 10.",
        "其他每家当场付，种子002为10",
    ),
    "flower_kong_money": (
        "花杠付花（每家）",
        "Flower kong money (each)",
        "Paid at once by each other player for a flower kong; seed 002 says 20.",
        "开花杠时其他每家当场付，种子002为20",
    ),
    "kong_money_zar2": (
        "杠钱砸2",
        "Kong money ×2",
        "Kong and flower kong money is doubled (砸2).",
        "杠钱和花杠钱翻倍（砸2）",
    ),
    "penalty_each": (
        "罚花（每家）",
        "Penalty (each)",
        "Paid to each other player for four same discards in a row or one player's four copies.",
        "四家连打同一张或一人打出同一张的四张时，付给其他每家",
    ),
    "follow_penalty_scope": (
        "跟打罚范围",
        "Same-discard penalty scope",
        "When four players discarding the same tile in a row is penalised.",
        "四家跟打同一张在什么时候要罚",
    ),
    # Liability (包牌)
    "liability_on_ron": (
        "快照放炮包牌",
        "Three-mouth liability on a discard",
        "What the 快照 feeder pays when that player wins on a claim or a discard.",
        "快照的人碰杠成胡或点炮胡时，送快照的人付多少",
    ),
    "kuaizhao_other_feeder": (
        "快照他家第四嘴",
        "Three-mouth: fourth meld from another player",
        "What a 快照 win is worth when the fourth meld comes from another player.",
        "快照第四嘴由别家送来时，这手胡牌算什么",
    ),
    "kuaizhao_ron_value": (
        "快照放炮计分",
        "Three-mouth share on a discard",
        "How the share the 快照 feeder pays on a claim or a discard is valued.",
        "快照的人碰杠成胡或点炮胡时，送快照者那份怎么计分",
    ),
    "kuaizhao_overrides_robkong": (
        "快照优先抢杠包牌",
        "Three-mouth over robbed kong",
        "A 快照 player's win by robbing a kong is paid by the 快照 feeder, not the robbed player.",
        "快照的人抢杠胡由送快照者包牌，不由被抢杠者付",
    ),
    "sanqing_trigger": (
        "三清成牌",
        "Three-of-a-suit trigger",
        "What wins at once for three melds of one suit (三清).",
        "同一门落地三副（三清）时，什么牌能直接成胡",
    ),
    # 比下胡
    "bixiahu_triggers": (
        "比下胡条件",
        "Doubled hand triggers",
        "Events that make the next hand 比下胡: doubled, and the dealer stays.",
        "哪些情况让下一把打比下胡：翻倍且庄家连庄",
    ),
    "bixiahu_mult": (
        "比下胡翻倍",
        "Doubled hand multiplier",
        "×2 every time, or doubled again on each one in a row.",
        "每次固定×2，或连着比下胡时逐把再翻倍",
    ),
    "bixiahu_keeps_dealer": (
        "比下胡连庄",
        "Dealer stays after 比下胡",
        "The dealer deals again after a 比下胡 hand.",
        "打完比下胡这一把，庄家连庄",
    ),
    # Leaving
    "escape_penalty": (
        "逃跑扣花",
        "Escape penalty",
        "Paid by a player who leaves, shared by the other three.",
        "逃跑的人扣的花，由其他三家平分",
    ),
}

# option: value: (中文, English)
VALUE_LABELS: dict[str, dict[str, tuple[str, str]]] = {
    "menqing": {
        "no_pung": ("碰过就不算门清（直杠、暗杠仍算）", "A pung breaks it; direct or concealed kongs do not"),
        "no_meld": ("碰杠都不算门清", "Any meld breaks it"),
        "pung_restored_by_bugang": ("碰后补杠仍算门清", "A pung breaks it unless added to a kong"),
    },
    "luxury_qidui": {
        "by_quads": ("按手中四张算豪华", "By fours held"),
        "win_on_fourth": ("胡第四张才算双七对", "Only a win on the fourth tile (双七对)"),
    },
    "yajue_source": {
        "own_pung": ("自己碰的", "Own pung"),
        "others_pung": ("别人碰的", "Another player's pung"),
        "three_discarded": ("打出三张", "Three discarded"),
    },
    "yajue_shapes": {
        "kanchan": ("只算压档", "Closed wait only"),
        "kanchan_or_edge": ("压档或边枝", "Closed or edge wait"),
    },
    "wuhuaguo": {
        "menqing_or_big": ("须门清或大胡", "Needs 门清 or a big hand"),
        "no_pung_only": ("没有碰牌即可", "Only no pung"),
    },
    "tianhu": {
        "add": ("加花", "Added to the share"),
        "fixed_per_payer": ("每家固定付", "Fixed amount from each"),
    },
    "big_kong_bloom": {
        "add": ("加花", "Add the bonus"),
        "double": ("翻倍（×2）", "Double the share"),
    },
    "flower_kong_bloom": {
        "add": ("加花", "Add the bonus"),
        "x4": ("翻四倍（×4）", "Share ×4"),
    },
    "follow_penalty_scope": {
        "any_time": ("任何时候", "Any four in a row"),
        "first_round_dealer_led": ("只罚头一圈（庄家先打）", "Only the first four discards, dealer first"),
    },
    "liability_on_ron": {
        "one_share": ("包一家", "One share"),
        "three_shares": ("包三家", "Three shares"),
    },
    "kuaizhao_other_feeder": {
        "duidui": ("算对对胡", "All pungs"),
        "duidui_plus_quanqiu": ("算对对胡 + 全球独钓", "All pungs + all melded"),
    },
    "kuaizhao_ron_value": {
        "actual": ("按实际牌型", "As scored"),
        "pengpeng_only": ("只算碰碰胡", "Flowers + all pungs only"),
    },
    "sanqing_trigger": {
        "claim_only": ("碰杠第四嘴", "A fourth pung or kong"),
        "any_set_incl_sequence": ("放炮成顺也算", "Also a discard completing a run"),
    },
    "bixiahu_triggers": {
        "dealer_win": ("庄家胡", "Dealer wins"),
        "big_hand": ("成大胡", "Big hand"),
        "penalty": ("有罚", "Penalty paid"),
        "draw": ("荒庄（和局）", "Exhaustive draw"),
        "haidi": ("海底捞", "Last-tiles win"),
        "flower_kong": ("花杠", "Flower kong"),
        "kong_bloom": ("杠开", "Kong bloom win"),
        "liability": ("包牌", "Liability payment"),
        "multi_ron": ("一炮多响", "Several winners on one discard"),
    },
    "bixiahu_mult": {
        "x2": ("固定×2", "Always ×2"),
        "cumulative": ("连续累翻", "Doubles again each time in a row"),
    },
}

"""Player-facing names of every Nanning option and of the words its text options take.

The Chinese follows the words Nanning players and the seeds use (鸡胡, 大炮, 卖胡, 封胡, 死双, 摸码, 买马,
钓鱼 …) and the score item names of :mod:`hupai.rules.nanning.items`. What each option settles:
``docs/rules/nanning.md`` §9.
"""

from __future__ import annotations

# option: (中文, English, short English help, 中文说明)
OPTION_LABELS: dict[str, tuple[str, str, str, str]] = {
    # Table
    "reserved_tiles": (
        "留牌张数",
        "Reserved tiles",
        "Tiles at the end of the wall never drawn; 0 = every tile is drawn (摸完所有牌).",
        "牌墙最后不摸的牌张数，0即摸完所有牌",
    ),
    "multi_ron": (
        "一炮多响",
        "Several winners on one discard",
        "Everyone who can win on a discard wins; off: only the first after the discarder.",
        "一张牌几家能胡都算胡；关闭则只算放炮者之后的第一家",
    ),
    "pass_win_restriction": (
        "卖胡（过胡不胡）",
        "No win after passing a win",
        "Pass a win and you cannot win on a discard or rob a kong until your next draw.",
        "卖胡后到自己下次摸牌前，不能胡别人打的牌，也不能抢杠",
    ),
    "pass_pung_restriction": (
        "过碰不碰",
        "No pung after passing a pung",
        "Pass a pung and you cannot pung that tile until your own next discard.",
        "过碰后到自己下次出牌前，不能再碰这张牌",
    ),
    "kong_points": (
        "杠分",
        "Kong points",
        "Paid at once per kong: by the feeder, or by each player for a concealed kong.",
        "每杠当场付的杠分：明杠由放杠者付，暗杠每家付",
    ),
    "chain_kong_fee": (
        "连杠杠分",
        "Kong points in a row of kongs",
        "What the first konged player pays for each later kong in the same row.",
        "连杠时第一个被杠的人为后面每一杠付多少杠分",
    ),
    # Hand values
    "combine": (
        "牌型计分方式",
        "Combining hand elements",
        "Whether 碰碰胡, 清一色, 七对 … double the unit or add their own values.",
        "碰碰胡、清一色、七对等是把分数翻倍，还是各加各的分",
    ),
    "chicken_ron": (
        "鸡胡放炮",
        "Plain hand on a discard",
        "Whether a plain hand (鸡胡) may win on an ordinary discard.",
        "鸡胡能不能胡普通的放炮",
    ),
    "chicken_ron_points": (
        "鸡胡放炮分",
        "Plain hand on a discard: points",
        "What the discarder pays for a plain hand (鸡胡).",
        "鸡胡放炮时放炮者付的分",
    ),
    "menqing_ron": (
        "门清放炮",
        "Concealed hand on a discard",
        "How a concealed hand (门清) counts when won on a discard.",
        "门清胡别人放炮时怎么算",
    ),
    "tianhu": (
        "天胡算法",
        "Heavenly hand scoring",
        "天胡: a concealed self-draw doubled, or a fixed amount from each player.",
        "天胡按门清自摸翻倍算，或每家付固定分",
    ),
    "tianhu_each": (
        "天胡每家付",
        "Heavenly hand: each pays",
        "What each player pays for 天胡 when it is a fixed amount.",
        "天胡按固定分算时每家付的分",
    ),
    "dihu": (
        "地胡算法",
        "Earthly hand scoring",
        "地胡: a concealed self-draw doubled, or a fixed amount from each player.",
        "地胡按门清自摸翻倍算，或每家付固定分",
    ),
    "dihu_each": (
        "地胡每家付",
        "Earthly hand: each pays",
        "What each player pays for 地胡 when it is a fixed amount.",
        "地胡按固定分算时每家付的分",
    ),
    "renhu": (
        "人胡",
        "Human hand",
        "A win on the dealer's first discard: a concealed 大炮 paid by the dealer, or ordinary.",
        "胡庄家打的第一张牌：算门清大炮由庄家付，或按普通放炮",
    ),
    "concealed_bloom": (
        "暗杠杠上花算法",
        "Concealed kong bloom scoring",
        "暗杠杠上花: the unit doubled per kong, or a fixed amount from each player.",
        "暗杠杠上花每杠翻一倍，或每家付固定分",
    ),
    "concealed_bloom_each": (
        "暗杠杠上花每家付",
        "Concealed kong bloom: each pays",
        "What each player pays for 暗杠杠上花 when fixed; ×2 per further kong.",
        "暗杠杠上花按固定分算时每家付的分，每多连一杠×2",
    ),
    "quanqiu_pao": (
        "全求炮",
        "Deal-in by an all-melded hand",
        "A discard by a player with four melds: a 大炮, or an ordinary deal-in plus a surcharge.",
        "落地四副的人放炮：算大炮，或普通放炮再加付",
    ),
    "quanqiu_pao_surcharge": (
        "全求炮加付",
        "All-melded deal-in surcharge",
        "What a player with four melds pays extra on a deal-in, with the surcharge rule.",
        "按加付算时，落地四副的人放炮要多付的分",
    ),
    "haidi_window": (
        "海底范围",
        "Last-tile window",
        "Which wins are 海底捞月 / 海底炮: the last tile only, or the last go-around.",
        "哪些胡牌算海底捞月、海底炮：只算最后一张，或最后一圈",
    ),
    "min_points": (
        "起胡分",
        "Minimum to win",
        "A win worth less than this is refused; 0 = no minimum (seed 004: 9).",
        "胡牌分数不到此数不能胡，0为不限（种子004为9）",
    ),
    # 封胡 and 死双
    "fenghu": (
        "封胡",
        "Sealed after feeding three melds",
        "Feed one player three pungs or kongs and you cannot win this hand, and pay for them.",
        "被同一家碰杠三笔后本局不能胡，他胡牌由你包付",
    ),
    "fenghu_count_bugang": (
        "封胡补杠算两笔",
        "Added kong counts twice for 封胡",
        "An added kong counts as two of the three melds that seal a player.",
        "补杠算封胡三笔里的两笔",
    ),
    "sishuang": (
        "死双",
        "Dead double",
        "The sealed player's payment (封胡) is doubled again.",
        "被封胡者的付分（封胡）再翻一倍",
    ),
    # Dealer
    "next_dealer_on_multiron": (
        "一炮多响后坐庄",
        "Dealer after several winners",
        "Who deals the next hand after several players win on one discard.",
        "一炮多响后下一局由谁坐庄",
    ),
    "next_dealer_on_draw": (
        "荒庄后坐庄",
        "Dealer after a draw",
        "Who deals the next hand after an exhaustive draw (荒庄).",
        "荒庄后下一局由谁坐庄",
    ),
    # Extras, off by default
    "moma": (
        "摸码（颗）",
        "Code tiles",
        "Tiles turned after a self-drawn win; each one on the winner adds ×1. 0 = off.",
        "自摸后翻开的码数，每中一颗加一倍，0为不摸码",
    ),
    "maima": (
        "买马（匹）",
        "Horses",
        "Tiles turned from the wall's back after any win; each one on the winner adds ×1. 0 = off.",
        "胡牌后从牌尾翻开的马数，每中一匹加一倍，0为不买马",
    ),
    "fishing": (
        "钓鱼",
        "Fishing",
        "Fish tiles that multiply the winner's share; two versions or off.",
        "钓鱼牌让胡家得分翻倍，有两种玩法或不钓",
    ),
}

# option: value: (中文, English)
VALUE_LABELS: dict[str, dict[str, tuple[str, str]]] = {
    "chain_kong_fee": {
        "one_per_kong": ("每杠1分", "1 per kong"),
        "full_fee": ("暗杠照付全额", "Full fee (a concealed kong costs 3)"),
    },
    "combine": {
        "multiply": ("翻倍", "Each element doubles the unit"),
        "add": ("累加", "Values are added"),
    },
    "chicken_ron": {
        "allow": ("可以放炮胡", "Allowed"),
        "tsumo_only": ("鸡胡不可放炮（须自摸）", "Self-drawn or 大炮 only"),
    },
    "menqing_ron": {
        "base4": ("按门清4分", "Base 4"),
        "plus1": ("门清加1分", "Plain hand 3"),
        "none": ("门清须自摸", "Not counted"),
    },
    "tianhu": {
        "double_menqing_tsumo": ("门清自摸×2", "Concealed self-draw ×2"),
        "each_fixed": ("每家固定付", "Fixed amount from each"),
    },
    "dihu": {
        "double_menqing_tsumo": ("门清自摸×2", "Concealed self-draw ×2"),
        "each_fixed": ("每家固定付", "Fixed amount from each"),
    },
    "renhu": {
        "menqing_dapao": ("门清大炮", "Concealed 大炮 from the dealer"),
        "none": ("不算人胡", "None (ordinary deal-in)"),
    },
    "concealed_bloom": {
        "doubled_unit": ("按牌型翻倍", "Unit doubled per kong"),
        "fixed_each": ("每家固定付", "Fixed amount from each"),
    },
    "quanqiu_pao": {
        "dapao": ("算大炮", "A 大炮 (three units)"),
        "surcharge": ("放炮加付", "Ordinary deal-in + surcharge"),
    },
    "haidi_window": {
        "last_tile": ("最后一张", "The last tile"),
        "last_round": ("最后一圈", "The last go-around"),
    },
    "next_dealer_on_multiron": {
        "discarder": ("放炮者坐庄", "The discarder"),
        "dealer_if_won_else_next": (
            "庄家胡则连庄，否则下家",
            "The dealer if among the winners, else the next",
        ),
    },
    "next_dealer_on_draw": {
        "last_drawer": ("摸最后一张者坐庄", "Whoever drew the last tile"),
        "same_dealer": ("原庄连庄", "The same dealer"),
    },
    "fishing": {
        "off": ("不钓鱼", "Off"),
        "s000_predraw": ("开局留鱼（每人一张）", "Fish set aside before play"),
        "s004_count": ("自摸后数鱼", "Counted from the last winner after a self-draw"),
    },
}

"""Player-facing names of every Enshi option and of the words its text options take.

The Chinese follows the words Enshi players, the seed and the app text use (痞子, 赖子, 下痞子, 养痞, 戳胎,
见字胡, 小斜, 大斜, 硬, 封顶, 金顶 …) and the score item names of :mod:`hupai.rules.enshi.items`. What each
option settles: ``docs/rules/enshi.md`` §9.
"""

from __future__ import annotations

# option: (中文, English, short English help, 中文说明)
OPTION_LABELS: dict[str, tuple[str, str, str, str]] = {
    # Tiles and the 痞子
    "honours": (
        "带字牌（136张）",
        "Honour tiles",
        "Play 136 tiles with winds and dragons; off: 108 suited tiles.",
        "带东南西北中发白共136张；关闭则只用筒条万108张",
    ),
    "honour_successor": (
        "字牌痞子的赖子",
        "赖子 after an honour 痞子",
        "Which honour is the 赖子 when the 痞子 is an honour (only with honour tiles).",
        "痞子是字牌时哪张字牌当赖子（仅带字牌时）",
    ),
    "pizi_flip": (
        "翻痞子位置",
        "Where the 痞子 is turned up",
        "The wall's last tile (尾墩) or its first; it is never drawn.",
        "从尾墩还是从牌头翻痞子，翻出的痞子不再摸",
    ),
    "reserved_tiles": (
        "留牌张数",
        "Reserved tiles",
        "Tiles at the end of the wall never drawn; 0 = every tile but the 痞子 is drawn.",
        "牌墙最后不摸的牌张数，0即除痞子外都摸完",
    ),
    # Play
    "chow": (
        "可吃牌",
        "Chow",
        "The next player may chow (吃) a discard.",
        "下家可以吃上家打的牌",
    ),
    "multi_ron": (
        "一炮多响",
        "Several winners on one discard",
        "Everyone who can win on a discard wins; off: only the first after the discarder.",
        "一张牌几家能胡都算胡；关闭则只算放炮者之后的第一家",
    ),
    "rob_kong": (
        "抢杠胡",
        "Robbing a kong",
        "An added kong may be robbed; the robbed player pays as a discarder.",
        "补杠可以被抢杠胡，被抢的人按点炮付",
    ),
    "pass_win_restriction": (
        "过水不胡",
        "No win after passing a win",
        "Pass a win and you cannot win on a discard or rob a kong until your next discard.",
        "过胡后到自己下次出牌前，不能胡别人打的牌，也不能抢杠",
    ),
    "pass_pung_restriction": (
        "过水不碰",
        "No pung after passing a pung",
        "Pass a pung and you cannot pung that tile until your own next discard.",
        "过碰后到自己下次出牌前，不能再碰这张牌",
    ),
    "pizi_blocks_win": (
        "有痞子不能胡",
        "No win holding a 痞子",
        "A hand holding a 痞子 cannot win; off: a held 痞子 is an ordinary tile.",
        "手里有痞子不能胡；关闭则手里的痞子当普通牌",
    ),
    "forbid_keeping_pizi": (
        "禁止养痞",
        "No keeping a 痞子",
        "A 痞子 in hand must be laid before anything else on your turn.",
        "手里有痞子，轮到自己时必须先下痞子",
    ),
    "laizi_in_melds": (
        "赖子可吃",
        "赖子 in chows",
        "One 赖子 may stand in for a missing tile of a chow (never a pung or kong).",
        "吃牌时可用一张赖子顶缺的那张牌（碰、杠不行）",
    ),
    # Who may win
    "max_laizi_in_win": (
        "胡牌赖子上限",
        "Most 赖子 in a win",
        "A hand holding more 赖子 than this cannot win; 0 = no limit.",
        "手里赖子多于此数不能胡，0为不限",
    ),
    "laizi_as_itself_hard": (
        "赖子归位算硬",
        "赖子 as itself counts as hard",
        "A hand whose 赖子 all stand for their own face still counts 硬 (×2).",
        "赖子都当本身用（赖子归位）仍算硬（×2）",
    ),
    "jianzihu_self_drawn_only": (
        "见字胡必须自摸",
        "Any-tile wait: self-draw only",
        "A hand that wins on any tile (见字胡) may win only by self-draw.",
        "什么牌都能胡的见字胡只能自摸",
    ),
    "chuotai_forbidden": (
        "不能戳胎",
        "No poking (戳胎)",
        "Holding a 赖子, no 屁胡 while nobody has laid a 痞子 or 赖子.",
        "手里有赖子、又没人下过痞子或赖子时不能胡屁胡",
    ),
    "daxie_on_discard": (
        "大斜可捉炮",
        "Big 斜 on a discard",
        "A concealed hand on a discard is 大斜 (5); off: it is a 屁胡 (1).",
        "门前清捉炮算大斜（5）；关闭则算屁胡（1）",
    ),
    # Values and payments
    "discarder_double": (
        "点炮加倍",
        "Discarder pays double",
        "The discarder pays double on every win on a discard, or only on a 屁胡.",
        "点炮者每次点炮都付双倍，或只有屁胡付双倍",
    ),
    "difen": (
        "底分",
        "Stake",
        "Multiplies every hand value (not the caps).",
        "每手牌的底数都乘底分（封顶不乘）",
    ),
    "pihu_points": (
        "屁胡底数",
        "Plain win points",
        "屁胡: an open hand winning on a discard.",
        "屁胡：开口后捉炮胡牌",
    ),
    "xiaoxie_points": (
        "小斜底数",
        "Small 斜 points",
        "小斜: an open hand, self-drawn.",
        "小斜：开口后自摸胡牌",
    ),
    "daxie_points": (
        "大斜底数",
        "Big 斜 points",
        "大斜: a concealed hand (门前清).",
        "大斜：门前清胡牌",
    ),
    "qidui_points": (
        "七对底数",
        "Seven pairs points",
        "七对 (一点), before the self-draw and 硬 doublings.",
        "七对（一点）的底数，未算自摸和硬的翻倍",
    ),
    "hard_factor": (
        "硬翻倍",
        "Hard factor",
        "A winning hand without 赖子 (硬) is worth this many times more.",
        "胡牌手里没有赖子（硬）时翻的倍数",
    ),
    "qidui_self_drawn_factor": (
        "七对自摸翻倍",
        "Seven pairs self-drawn factor",
        "A self-drawn 七对 is worth this many times more.",
        "七对自摸时翻的倍数",
    ),
    "pizi_factor": (
        "下痞子倍数",
        "痞子 laid factor",
        "Each 痞子 a player lays multiplies their stake by this.",
        "每下一个痞子，本人倍数乘以此数",
    ),
    "laizi_factor": (
        "下赖子倍数",
        "赖子 laid factor",
        "Each 赖子 a player lays multiplies their stake by this.",
        "每下一个赖子，本人倍数乘以此数",
    ),
    "exposed_kong_factor": (
        "明杠倍数",
        "Exposed kong factor",
        "Each exposed or added kong multiplies its maker's stake by this.",
        "每个明杠或补杠，本人倍数乘以此数",
    ),
    "concealed_kong_factor": (
        "暗杠倍数",
        "Concealed kong factor",
        "Each concealed kong multiplies its maker's stake by this.",
        "每个暗杠，本人倍数乘以此数",
    ),
    "kong_bloom_factor": (
        "杠开倍数",
        "Kong bloom factor",
        "A win on a replacement (杠开) multiplies the winner's stake.",
        "摸补牌胡牌（杠开）时胡家倍数再乘此数",
    ),
    "gangshangpao_factor": (
        "杠上炮倍数",
        "Kong deal-in factor",
        "A win on a discard made right after a lay or kong; 1 = off.",
        "下痞子、赖子或开杠后打出的牌被胡（杠上炮），1为不算",
    ),
    "cap": (
        "封顶",
        "Cap",
        "The most one loser pays for a win; 0 = no cap.",
        "一家输家一次最多付的分，0为不封顶",
    ),
    "gold_cap": (
        "金顶",
        "Gold cap",
        "What each pays when all three losers reach the cap; 0 = none.",
        "三家都输到封顶时每家付的分，0为没有金顶",
    ),
    "diamond_cap": (
        "钻石顶",
        "Diamond cap",
        "What each pays when all three losers reach the gold cap; 0 = off.",
        "三家都输到金顶时每家付的分，0为不用钻石顶",
    ),
    "kong_money": (
        "杠钱",
        "Kong money",
        "Paid at once per kong; 0 = kongs only multiply.",
        "每杠当场付的杠钱，0为杠只翻倍",
    ),
    "min_points": (
        "起胡分",
        "Minimum to win",
        "The three losers' amounts must add up to this; 0 = no minimum.",
        "三家输分合计要到此数才能胡，0为不限",
    ),
    # Dealer
    "next_dealer": (
        "胡牌后坐庄",
        "Dealer after a win",
        "Who deals the next hand after a win.",
        "胡牌后下一局由谁坐庄",
    ),
    "next_dealer_on_draw": (
        "荒庄后坐庄",
        "Dealer after a draw",
        "Who deals the next hand after an exhaustive draw (荒庄).",
        "荒庄后下一局由谁坐庄",
    ),
}

# option: value: (中文, English)
VALUE_LABELS: dict[str, dict[str, tuple[str, str]]] = {
    "honour_successor": {
        "winds_dragons": ("东南西北、中发白", "Winds in order, then 中→发→白"),
        "riichi": ("东南西北、白发中", "Winds in order, then 白→发→中"),
        "single_cycle": ("东南西北中发白一圈", "One cycle: winds, then 中发白"),
    },
    "pizi_flip": {
        "back": ("从尾墩翻", "The wall's last tile"),
        "front": ("从牌头翻", "The wall's first tile"),
    },
    "discarder_double": {
        "all_wins": ("点炮都加倍", "On every win on a discard"),
        "pihu_only": ("只有屁胡加倍", "Only on a 屁胡"),
    },
    "next_dealer": {
        "winner": ("胡牌者坐庄", "The winner"),
        "next_seat": ("轮庄（下家）", "The next seat"),
    },
    "next_dealer_on_draw": {
        "same_dealer": ("原庄连庄", "The same dealer"),
        "next_seat": ("轮庄（下家）", "The next seat"),
    },
}

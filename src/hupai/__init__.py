"""hupai (胡牌): Chinese regional mahjong — Nanjing, Nanning and Enshi rules, hand analysis and tools."""

__version__ = "0.1.0"

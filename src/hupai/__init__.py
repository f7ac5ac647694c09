"""hupai (胡牌): Chinese regional mahjong — Nanjing, Nanning and Enshi rules, hand analysis and tools."""

from hupai import _native

__version__ = "0.1.0"
__build__ = _native.choose()  # "compiled" or "pure": decided before any of the hot core is imported

"""The build backend: setuptools, asking also for mypy (whose mypyc compiles the hot core) when
``HUPAI_COMPILE=1`` — so a pure install never downloads it. See setup.py."""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403  (the whole PEP 517 interface)

MYPYC = "mypy>=1.16"


def _compile_requires() -> list[str]:
    return [MYPYC] if os.environ.get("HUPAI_COMPILE", "") not in ("", "0") else []


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*build_meta.get_requires_for_build_wheel(config_settings), *_compile_requires()]


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*build_meta.get_requires_for_build_editable(config_settings), *_compile_requires()]

"""A bot in its own process, speaking JSON lines on stdin/stdout (docs/bot-protocol.md)."""

from __future__ import annotations

import json
import shlex
import subprocess
import threading
from collections.abc import Sequence
from typing import Any, ClassVar

from hupai.bots.autoplay import trustee_action
from hupai.game.actions import Action, ActionParseError, action_from_dict, action_to_dict
from hupai.game.view import SeatView

PROTOCOL = "hupai-bot/1"


class ExternalBot:
    """Runs a command and asks it for each decision. A silent, slow or wrong answer is replaced by
    托管 play for that decision (the bot is not punished further); ``failures`` counts them."""

    name: ClassVar[str] = "external"
    zh: ClassVar[str] = "外部"
    en: ClassVar[str] = "External"

    def __init__(self, command: str, *, timeout: float = 10.0) -> None:
        self.command = command
        self.timeout = timeout
        self.failures = 0
        self._next_id = 0
        self._process = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        self._said_hello = False

    def _send(self, message: dict[str, Any]) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps(message, ensure_ascii=False) + "\n")
        self._process.stdin.flush()

    def _receive(self) -> str | None:
        assert self._process.stdout is not None
        answer: list[str] = []
        reader = threading.Thread(target=lambda: answer.append(self._process.stdout.readline()), daemon=True)  # type: ignore[union-attr]
        reader.start()
        reader.join(self.timeout)
        return answer[0] if answer else None

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        try:
            if not self._said_hello:
                self._send(
                    {
                        "type": "hello",
                        "protocol": PROTOCOL,
                        "seat": view.seat,
                        "ruleset": view.ruleset,
                        "options": dict(view.options),
                    }
                )
                self._said_hello = True
            self._next_id += 1
            self._send(
                {
                    "type": "request",
                    "id": self._next_id,
                    "view": view.as_dict(),
                    "legal": [action_to_dict(action) for action in legal],
                }
            )
            line = self._receive()
            if line:
                reply = json.loads(line)
                if isinstance(reply, dict) and reply.get("id") == self._next_id:
                    action = action_from_dict(reply.get("action"))
                    if action in legal:
                        return action
        except (OSError, ValueError, ActionParseError):
            pass
        self.failures += 1
        return trustee_action(view, legal)

    def close(self) -> None:
        try:
            self._send({"type": "bye"})
            assert self._process.stdin is not None
            self._process.stdin.close()
        except OSError:
            pass
        try:
            self._process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self._process.kill()

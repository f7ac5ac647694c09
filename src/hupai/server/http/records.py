"""Finished hands read back: settlements, records (one hand or the whole match) and replays, for
whoever may watch the room (``RoomDep``: its players, the invited, or anyone where the host allowed).
A hand still in play is never given out."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from hupai.server.http.deps import RoomDep, StoreDep, UserDep
from hupai.server.replays import replay_frames
from hupai.server.review_runs import ReviewRuns

router = APIRouter()


def _json_file(data: dict[str, Any], filename: str | None) -> Response:
    headers = {"Content-Disposition": f'attachment; filename="{filename}"'} if filename else None
    return Response(
        json.dumps(data, ensure_ascii=False, indent=1), media_type="application/json", headers=headers
    )


@router.get("/api/rooms/{number}/hands")
async def hands(number: str, found: RoomDep, store: StoreDep) -> list[dict[str, Any]]:
    """The settlement of every finished hand (scores itemised, payments with reasons)."""
    return await run_in_threadpool(store.records.played_hands, number)


@router.get("/api/rooms/{number}/hands/{index}/record")
async def hand_record(
    number: str, index: int, found: RoomDep, store: StoreDep, download: bool = False
) -> Response:
    """A finished hand as ``hupai-record/1`` with every tile open (never a hand still in play)."""
    record = await run_in_threadpool(store.records.hand_record, number, index)
    return _json_file(record, f"hupai-{number}-{index + 1}.json" if download else None)


@router.get("/api/rooms/{number}/hands/{index}/replay")
async def hand_replay(number: str, index: int, found: RoomDep, store: StoreDep) -> dict[str, Any]:
    """A finished hand, frame by frame with every hand open, for the replay viewer."""

    def build() -> dict[str, Any]:
        record = store.records.hand_record(number, index)
        results = store.records.played_hands(number)
        previous = results[index - 1]["winners"] if 0 < index <= len(results) else []
        replay = replay_frames(
            record, results[index], previous_winner=previous[0] if len(previous) == 1 else None
        )
        # Who the seats are now, where they are who played the hand (the same name): bots by level,
        # for the page to name them in its reader's language, and people's chosen 头像.
        seats = store.rooms.room(number).seats
        same = [place.name == name for place, name in zip(seats, replay["seats"], strict=True)]
        replay["bot_levels"] = [place.bot if kept else None for place, kept in zip(seats, same, strict=True)]
        replay["avatars"] = [place.avatar if kept else None for place, kept in zip(seats, same, strict=True)]
        return replay

    return await run_in_threadpool(build)


@router.get("/api/rooms/{number}/record")
async def match_record(number: str, found: RoomDep, store: StoreDep, download: bool = False) -> Response:
    record = await run_in_threadpool(store.records.match_record, number)
    return _json_file(record, f"hupai-{number}.json" if download else None)


@router.post("/api/rooms/{number}/review")
async def ask_review(number: str, found: RoomDep, request: Request, user: UserDep) -> dict[str, Any]:
    """复盘 of the asker's own seat in a finished match (its players'): made (``review``), or under
    way with its progress (``hands_done`` of ``hands``); asked again, it is answered as it stands."""
    runs: ReviewRuns = request.app.state.reviews
    return await runs.ask(number, user.id)


@router.get("/api/rooms/{number}/review")
async def review_state(number: str, found: RoomDep, request: Request, user: UserDep) -> dict[str, Any]:
    """The asker's review as it stands (``none`` before it was asked for)."""
    runs: ReviewRuns = request.app.state.reviews
    return await runs.seen(number, user.id)

"""SPEC.md is enough to follow UNO Flip: a client written from it alone watches a real host.

The host is started as a user would (`unonet host --headless --no-tls --rules flip --bots 3
--seats 3 --bot-delay 0.05`: bots that do not wait to be watched), on loopback with a free
port. A bots-only headless table deals its match once someone is at the table, so the
spectator sees the match from its manifest. The client's model
(tests/spec_client.py) is kept from the public events alone and compared with the view of every
snapshot it asks for (`resync`, SPEC 8.3), after every Flip, colour choice, reshuffle and round
end and every few events besides.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import trio

sys.path.insert(0, str(Path(__file__).parent))
from spec_client import (
    LIGHT_SIDE,
    Contradiction,
    FlipModel,
    ProtocolError,
    SpecClient,
    connect,
    decode_payload,
    encode_frame,
)

ROOT = Path(__file__).resolve().parent.parent
UNONET = Path(sys.executable).parent / "unonet"  # the installed command of this venv
READY_LINE = b"Friends join with:"
SNAPSHOT_EVENTS = {"flipped", "color_chosen", "reshuffled", "round_ended", "round_started"}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@asynccontextmanager
async def flip_host(tmp_path: Path, bots: int) -> AsyncIterator[int]:
    """A headless Flip host of `bots` bots; yields its port once it prints its join line."""
    env = {**os.environ, "UNONET_HOME": str(tmp_path / "home"), "NO_COLOR": "1"}
    for _attempt in range(3):  # another process may take the free port before the host binds
        port = _free_port()
        proc = await _open_host(env, bots, port)
        try:
            output = b""
            assert proc.stdout is not None
            with trio.fail_after(60):
                while READY_LINE not in output:
                    chunk = await proc.stdout.receive_some(4096)
                    if not chunk:
                        break
                    output += chunk
            if READY_LINE in output:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(_drain, proc.stdout)
                    try:
                        yield port
                    finally:
                        nursery.cancel_scope.cancel()
                return
        finally:
            proc.terminate()
            with trio.move_on_after(10):
                await proc.wait()
            if proc.returncode is None:
                proc.kill()
    pytest.fail("the host never printed its join line")


async def _open_host(env: dict[str, str], bots: int, port: int) -> trio.Process:
    return await trio.lowlevel.open_process(
        [str(UNONET), "host", "--headless", "--no-tls", "--rules", "flip", "--bots", str(bots),
         "--bot-delay", "0.05",
         "--seats", str(bots), "--bind", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
    )


async def _drain(stream: trio.abc.ReceiveStream) -> None:
    """Keep reading the host's stdout so that it never blocks on a full pipe."""
    while await stream.receive_some(4096):
        pass


def _want_snapshot(client: SpecClient, event: dict[str, Any]) -> bool:
    return event.get("type") in SNAPSHOT_EVENTS or client.events_applied % 5 == 0


def _assert_agrees(client: SpecClient) -> None:
    wrong = [cp for cp in client.checkpoints if cp.differences]
    assert not wrong, "\n".join(f"seq {cp.seq} ({cp.phase}, side {cp.side}): {cp.differences}"
                                for cp in wrong)


async def test_spectator_follows_flip_rounds(tmp_path: Path) -> None:
    async with flip_host(tmp_path, bots=3) as port:
        with trio.fail_after(400):
            client = await connect("127.0.0.1", port)
            await client.spectate(await client.find_table())

            def done(c: SpecClient) -> bool:
                dark_checked = any(cp.side == 1 for cp in c.checkpoints)
                return (c.rounds_followed >= 2 and c.flips_seen >= 1 and dark_checked
                        and c.waiting_resync is None)

            await client.follow(done, _want_snapshot)
            _assert_agrees(client)
            compared = [cp for cp in client.checkpoints if cp.round_no > 0]
            assert len(compared) >= 10
            assert client.checkpoints[0].round_no == 0  # saw the match from its start
            await client.conn.aclose()

            # A second spectator enters the match in progress: it rebuilds the round from
            # round_history (SPEC 7.1) and must agree with its entry snapshot, then follows on.
            late = await connect("127.0.0.1", port, name="latecomer")
            await late.spectate(await late.find_table())
            await late.follow(lambda c: len(c.checkpoints) >= 3 and c.waiting_resync is None,
                              _want_snapshot)
            _assert_agrees(late)
            await late.conn.aclose()


# ------------------------------------------------------------- the model can disagree


def _dealt_model() -> FlipModel:
    model = FlipModel(list(LIGHT_SIDE), 2)
    model.apply({"type": "round_started", "round_no": 1, "dealer": 0, "deck_size": 112})
    model.apply({"type": "cards_drawn", "seat": 1, "positions": [[0, 0]], "reason": "deal"})
    model.apply({"type": "cards_drawn", "seat": 0, "positions": [[0, 1]], "reason": "deal"})
    model.apply({"type": "top_card_turned", "card": 0, "position": [0, 2]})
    return model


def _view(model: FlipModel, **change: Any) -> dict[str, Any]:
    view: dict[str, Any] = {
        "seat": None, "round_no": 1, "phase": "turn", "hand": [], "side": model.side,
        "top_card": model.top_card, "active_color": model.active_color,
        "draw_pile": model.draw_pile, "discard_pile": model.discard_pile,
        "seats": [{"seat": s, "cards": n, "other_sides": model.other_sides[s]}
                  for s, n in enumerate(model.cards)],
        "pile_other_side": model.pile_other_side,
        "dark_faces": [[c, f] for c, f in model.dark.items()],
    }
    view.update(change)
    return view


def test_model_matches_its_own_view_and_flags_each_field() -> None:
    model = _dealt_model()
    assert model.active_color == "red" and model.cards == [1, 1] and model.draw_pile == 109
    assert model.differences(_view(model)) == []
    assert model.differences(_view(model, active_color="blue"))
    assert model.differences(_view(model, side=1))
    assert model.differences(_view(model, draw_pile=108))
    seats = [{"seat": 0, "cards": 1, "other_sides": [{"kind": "wild", "points": 40}]},
             {"seat": 1, "cards": 1, "other_sides": []}]
    assert model.differences(_view(model, seats=seats))


def test_model_refuses_impossible_events() -> None:
    model = _dealt_model()
    with pytest.raises(Contradiction):  # a light face in a row while the light side is up
        model.apply({"type": "other_sides_shown", "seat": 0, "positions": [[0, 1]],
                     "faces": [{"kind": "number", "color": "red", "number": 1, "points": 1}]})
    with pytest.raises(Contradiction):  # two rows for one card
        model.apply({"type": "other_sides_shown", "seat": 0, "positions": [[0, 1], [0, 3]],
                     "faces": [{"kind": "wild", "points": 40}] * 2})
    with pytest.raises(Contradiction):  # flipping to the side already in play
        model.apply({"type": "flipped", "seat": 0, "side": 0, "top": 0})
    with pytest.raises(Contradiction):  # a dark top that nobody was told
        model.apply({"type": "flipped", "seat": 0, "side": 1, "top": 0})


def test_frames_follow_the_spec_profile() -> None:
    frame = encode_frame({"t": "ping", "n": 3})
    assert frame.hex(" ") == "00 00 00 0b 82 a1 74 a4 70 69 6e 67 a1 6e 03"  # SPEC 8.1
    assert decode_payload(frame[4:]) == {"t": "ping", "n": 3}
    bad_payloads = (
        "dd ff ff ff ff",  # array32 of 2**32-1 items
        "82 a1 74 a1 61 a1 74 a1 62",  # duplicate key
        "81 a1 74 cb 3f f0 00 00 00 00 00 00",  # a float
        "81 01 a1 61",  # an int key
        "91 01",  # not a map
        "81 a1 74 a1 61 c0",  # trailing bytes
    )
    for bad in bad_payloads:
        with pytest.raises(ProtocolError):
            decode_payload(bytes.fromhex(bad))

"""A player who leaves in mid-round has a transcript `unonet audit` reads as the live client did.

The live client does not hold the round it left in the middle of against the host (nothing
owed it an audit yet); the transcript must say it left, or the offline audit would accuse an
honest host of abandoning that round. A real host, the real client link with its transcripts.
"""

from __future__ import annotations

import io
from pathlib import Path

import msgpack
import trio
import trio.testing
from client_net import play_until, start_host, start_link

from client.audit_cmd import run
from client.link import GameEvent, TrustStatus, Update
from client.lobby import Leave
from client.network import LinkConfig
from client.transcript import LEFT_TYPE, read_transcript, transcript_dir
from unonet import events as ev
from unonet.rules import RuleSet


def _cards_played(count: int) -> object:
    seen = 0

    def done(update: Update) -> bool:
        nonlocal seen
        if isinstance(update, GameEvent) and isinstance(update.event, ev.CardPlayed):
            seen += 1
        return seen >= count
    return done


async def test_leaving_in_mid_round_is_in_the_transcript_and_the_audit_does_not_blame_the_host(
    tmp_path: Path, autojump_clock: trio.testing.MockClock,
) -> None:
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bots=2, rules=RuleSet(target=500))
        config = LinkConfig("127.0.0.1", host.port, name="me", tls=False, table=0,
                            auto_ready=True, transcripts=tmp_path)
        harness = await start_link(nursery, config)
        await play_until(harness, _cards_played(5))  # type: ignore[arg-type]
        harness.send(Leave())
        await harness.close()
        nursery.cancel_scope.cancel()
    statuses = [u for u in harness.seen if isinstance(u, TrustStatus)]
    assert statuses and statuses[-1].violations == ()
    (path,) = transcript_dir(tmp_path).glob("*.msgpack")
    records = read_transcript(path)
    kinds = [record.get("t") for record in records]
    assert LEFT_TYPE in kinds  # (the host's answer to the leave may come after it)
    out = io.StringIO()
    assert run(path, out, io.StringIO()) == 0, out.getvalue()
    assert "its player left the table" in out.getvalue()
    # The same file without the mark is a transcript cut short (a killed client): the round
    # it stops in is not judged either, and the audit says why it cannot be.
    cut = tmp_path / "cut.msgpack"
    cut.write_bytes(b"".join(msgpack.packb(r, use_bin_type=True) for r in records
                             if r.get("t") != LEFT_TYPE))
    out = io.StringIO()
    assert run(cut, out, io.StringIO()) == 0, out.getvalue()
    assert "its client stopped recording" in out.getvalue()
    # A player who came back after leaving: a new connection's header follows the mark, and
    # the transcript no longer ends with a leave (found in tmux: "its player left the table"
    # under a player seated and playing on).
    header = next(r for r in records if r.get("t") == "transcript")
    back = tmp_path / "back.msgpack"
    back.write_bytes(b"".join(msgpack.packb(r, use_bin_type=True) for r in [*records, header]))
    out = io.StringIO()
    assert run(back, out, io.StringIO()) == 0, out.getvalue()
    assert "left the table" not in out.getvalue()
    assert "the match is still being played" in out.getvalue()

"""The match transcript a client keeps (client/transcript.py): what it records, where, and that a
full or failing disk never reaches the game."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import msgpack
import pytest

from client.transcript import (
    END_TYPE,
    TRANSCRIPTS_KEPT,
    TRANSCRIPTS_SLACK,
    TranscriptError,
    TranscriptWriter,
    parse_transcript,
    read_transcript,
)

GAME_A = bytes(range(16))
GAME_B = bytes(range(1, 17))
CERT = b"\x30\x82fake-der"


def manifest(game_id: bytes = GAME_A) -> dict[str, Any]:
    return {"t": "manifest", "game_id": game_id, "seats": 3, "signer": b"\x30\x59", "sig": b"s"}


def event(seq: int) -> dict[str, Any]:
    return {"t": "event", "seq": seq, "event": {"type": "turn_started", "seat": 1, "direction": 1}}


def taking(w: TranscriptWriter) -> bool:
    """`w.taking` read afresh: a bare re-read after `record` would stay narrowed by mypy."""
    return w.taking


def writer(tmp_path: Path, **kwargs: Any) -> tuple[TranscriptWriter, list[str]]:
    problems: list[str] = []
    return TranscriptWriter(tmp_path, "example.org:7777", on_problem=problems.append,
                            **kwargs), problems


def test_records_from_the_manifest_on_with_a_header_naming_host_seat_and_certificate(
    tmp_path: Path,
) -> None:
    w, problems = writer(tmp_path)
    w.connected(CERT)
    for message in ({"t": "welcome", "session": {"seat": None}}, {"t": "seated", "seat": 2},
                    {"t": "table_state", "you": 2, "started": False},  # a seat in the lobby
                    manifest(), event(1), {"t": "ping", "n": 1}, event(2)):
        w.record(message)
    assert w.path == tmp_path / "transcripts" / f"{GAME_A.hex()}-seat2.msgpack"
    records = read_transcript(w.path)
    assert records == [
        {"t": "transcript", "version": 1, "host": "example.org:7777", "peer_cert": CERT,
         "seat": 2, "takes_seat": False},
        manifest(), event(1), event(2),
    ]
    assert problems == []


def test_a_seat_taken_in_mid_match_is_said_in_the_header_until_its_snapshot(
    tmp_path: Path,
) -> None:
    """A seated that took back nothing, with no lobby in between, is a seat taken in a match
    in progress: what comes until its snapshot is the match as a spectator got it."""
    w, _ = writer(tmp_path)
    w.connected(CERT)
    for message in ({"t": "welcome", "session": {"seat": None}}, {"t": "seated", "seat": 2},
                    manifest(), event(1)):
        w.record(message)
    assert taking(w)
    w.record({"t": "snapshot", "seq": 2, "view": {}, "legal": []})
    assert not taking(w)
    assert w.path is not None
    assert read_transcript(w.path)[0]["takes_seat"] is True
    w.connected(CERT)  # a resume of that seat: its welcome takes it back
    for message in ({"t": "welcome", "session": {"seat": 2}}, {"t": "seated", "seat": 2},
                    manifest()):
        w.record(message)
    headers = [r for r in read_transcript(w.path) if r["t"] == "transcript"]
    assert not taking(w) and [h["takes_seat"] for h in headers] == [True, False]


def test_the_transcript_is_for_its_owner_only(tmp_path: Path) -> None:
    w, _ = writer(tmp_path / "home")
    w.record(manifest())
    assert w.path is not None
    assert stat.S_IMODE(w.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(w.path.parent.stat().st_mode) == 0o700


def test_a_reconnect_writes_a_new_header_into_the_same_file(tmp_path: Path) -> None:
    w, _ = writer(tmp_path)
    w.connected(None)
    w.record(manifest())
    w.record(event(1))
    w.connected(CERT)
    w.record({"t": "table_state", "you": 1})
    w.record(manifest())
    w.record(event(1))
    assert w.path is not None
    kinds = [(r["t"], r.get("peer_cert"), r.get("seat")) for r in read_transcript(w.path)]
    assert kinds == [("transcript", None, None), ("manifest", None, None), ("event", None, None),
                     ("transcript", CERT, 1), ("table_state", None, None),
                     ("manifest", None, None), ("event", None, None)]


def test_a_client_restarted_in_the_same_match_appends(tmp_path: Path) -> None:
    first, _ = writer(tmp_path)
    first.record(manifest())
    first.record(event(1))
    first.close()
    second, _ = writer(tmp_path)
    second.record(manifest())
    second.record(event(2))
    assert second.path is not None
    assert [r["t"] for r in read_transcript(second.path)] == [
        "transcript", "manifest", "event", "transcript", "manifest", "event"]


def test_another_game_id_is_another_match_and_another_file(tmp_path: Path) -> None:
    w, _ = writer(tmp_path)
    w.record(manifest(GAME_A))
    w.record(event(1))
    first = w.path
    w.record(manifest(GAME_B))
    w.record(event(1))
    assert first is not None and w.path is not None and w.path != first
    assert [r["t"] for r in read_transcript(first)] == ["transcript", "manifest", "event"]
    assert [r["t"] for r in read_transcript(w.path)] == ["transcript", "manifest", "event"]


def test_a_manifest_without_a_game_id_is_still_recorded(tmp_path: Path) -> None:
    w, _ = writer(tmp_path)
    w.record({"t": "manifest", "game_id": b"short"})
    assert w.path is not None and w.path.name.startswith("manifest-")
    assert read_transcript(w.path)[1] == {"t": "manifest", "game_id": b"short"}


def test_a_full_transcript_stops_says_so_once_and_stays_under_its_cap(tmp_path: Path) -> None:
    limit = 2000
    w, problems = writer(tmp_path, limit=limit)
    w.record(manifest())
    for seq in range(200):
        w.record(event(seq))
    assert w.path is not None
    assert w.path.stat().st_size <= limit
    records = read_transcript(w.path)
    assert records[-1] == {"t": END_TYPE, "reason": "capped"}
    assert sum(r["t"] == END_TYPE for r in records) == 1
    assert 5 < sum(r["t"] == "event" for r in records) < 200
    assert len(problems) == 1 and "not recorded" in problems[0]
    full = w.path
    w.close()  # the client ends; a next run of it opens the same file
    reopened, again = writer(tmp_path, limit=limit)
    reopened.record(manifest())
    reopened.record(event(999))
    assert reopened.path == full and read_transcript(full) == records  # left as it was
    assert len(again) == 1


def test_a_disk_error_is_reported_once_and_never_raised(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the data dir should be")
    w, problems = writer(blocker)
    w.record(manifest())
    for seq in range(5):
        w.record(event(seq))
    w.record(manifest(GAME_B))
    assert len(problems) == 1 and "no longer recorded" in problems[0]
    assert w.problem == problems[0]
    assert w.path is None


def test_a_message_msgpack_cannot_hold_is_reported_not_raised(tmp_path: Path) -> None:
    w, problems = writer(tmp_path)
    w.record(manifest())
    w.record({"t": "event", "odd": object()})
    assert len(problems) == 1


def _file(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "t.msgpack"
    path.write_bytes(data)
    return path


def _pack(*records: Any) -> bytes:
    return b"".join(msgpack.packb(r, use_bin_type=True) for r in records)


HEADER = {"t": "transcript", "version": 1, "host": "h", "peer_cert": None, "seat": 0}


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"", "empty"),
        (_pack(manifest()), "no transcript header"),
        (_pack({**HEADER, "version": 2}), "version 2"),
        (_pack(HEADER, manifest())[:-3], "truncated"),
        (_pack(HEADER, [1, 2]), "record 1 is not a map"),
        (_pack(HEADER, {"t": 5}), "record 1 is a map without a message type"),
        (b"\xc1" * 4, "not msgpack"),
        (b"PK\x03\x04 a zip file", "not"),
    ],
)
def test_what_is_not_a_transcript_is_one_clear_error(
    tmp_path: Path, data: bytes, says: str
) -> None:
    with pytest.raises(TranscriptError, match=says):
        read_transcript(_file(tmp_path, data))


def test_a_missing_file_is_a_transcript_error(tmp_path: Path) -> None:
    with pytest.raises(TranscriptError, match="No such file"):
        read_transcript(tmp_path / "nothing.msgpack")


def test_parse_reads_back_what_was_packed() -> None:
    assert parse_transcript(_pack(HEADER, manifest(), event(1))) == [HEADER, manifest(), event(1)]


def test_leaving_the_match_is_marked_so_the_audit_owes_nothing_for_the_round_left(
    tmp_path: Path,
) -> None:
    w, problems = writer(tmp_path)
    w.left()  # before any match: nothing to mark
    w.record(manifest())
    w.left()
    assert w.path is not None
    assert [r["t"] for r in read_transcript(w.path)] == ["transcript", "manifest",
                                                           "transcript_left"]
    assert problems == []


def test_only_the_newest_transcripts_are_kept(tmp_path: Path) -> None:
    """Found in tmux: a client watching a table of bots wrote a transcript a match (21 in
    12 minutes), and kept every one. Past TRANSCRIPTS_KEPT + TRANSCRIPTS_SLACK, a new match
    keeps the newest TRANSCRIPTS_KEPT, itself included; other files stay."""
    folder = tmp_path / "transcripts"
    folder.mkdir()
    old = TRANSCRIPTS_KEPT + TRANSCRIPTS_SLACK - 1
    for index in range(old):
        path = folder / f"{index:032x}.msgpack"
        path.write_bytes(b"")
        os.utime(path, ns=(index * 10**9, index * 10**9))  # older as the index is lower
    (folder / "notes.txt").write_text("mine")
    w, problems = writer(tmp_path)
    w.record(manifest(GAME_A))
    assert not problems and len(list(folder.glob("*.msgpack"))) == old + 1  # not yet
    w.record(manifest(GAME_B))
    left = sorted(path.name for path in folder.glob("*.msgpack"))
    assert len(left) == TRANSCRIPTS_KEPT and f"{GAME_B.hex()}-watching.msgpack" in left
    assert f"{old - 1:032x}.msgpack" in left and f"{0:032x}.msgpack" not in left
    assert (folder / "notes.txt").exists()

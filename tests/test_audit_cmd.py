"""`unonet audit FILE` (client/audit_cmd.py): an honest transcript passes, each tampered one fails.

The honest transcript is recorded from a real match on loopback: a real host, the real client
link, and between them a stream (tests/tamper.py) that hands each message the host sends to a
`TranscriptWriter` before the client reads it, so the file holds exactly what the client got.
Each tampered transcript is that file with one lie told in it, as a dishonest host (or someone
editing the evidence afterwards) would.
"""

from __future__ import annotations

import copy
import datetime
import io
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest
import trio
import trio.testing
from client_net import play_until, start_host, start_link
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from tamper import Message, TamperingStream

from client.audit_cmd import run
from client.i18n import Translator
from client.link import GameEvent, TrustStatus, Update
from client.model import ClientModel
from client.network import LinkConfig
from client.render import compose
from client.transcript import TranscriptWriter, read_transcript
from protocol.trust.messages import SIGNED_MESSAGES
from protocol.trust.signing import Signer
from unonet import events as ev
from unonet.cli import main
from unonet.rules import RuleSet

Records = list[dict[str, Any]]


def _match_over(update: Update) -> bool:
    return isinstance(update, GameEvent) and isinstance(update.event, ev.MatchEnded)


async def _record_a_match(data_dir: Path) -> tuple[Path, str]:
    """A match played to its end, recorded; and the signing key the trust panel showed."""
    paths: list[Path] = []
    writer = TranscriptWriter(data_dir, "127.0.0.1 (test)")

    def record(message: Message) -> list[Message]:
        writer.record(message)
        if writer.path is not None and writer.path not in paths:
            paths.append(writer.path)
        return [message]

    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bots=2, rules=RuleSet(target=50))
        config = LinkConfig("127.0.0.1", host.port, name="me", tls=False, table=0,
                            auto_ready=True)

        def wrap(stream: trio.abc.Stream) -> TamperingStream:
            writer.connected(None)
            return TamperingStream(stream, record)

        harness = await start_link(nursery, config, wrap)
        await play_until(harness, _match_over, timeout=600)
        await trio.sleep(5)  # the audit that follows match_ended
        await harness.close()
        nursery.cancel_scope.cancel()
    writer.close()
    assert paths, "no manifest was recorded"
    shown = [u.signing_key for u in harness.seen if isinstance(u, TrustStatus)]
    # the match played (a next match, if one started, has its own file)
    return paths[0], next(key for key in shown if key)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    data_dir = tmp_path_factory.mktemp("unonet-home")
    clock = trio.testing.MockClock(autojump_threshold=0)
    played: tuple[Path, str] = trio.run(_record_a_match, data_dir, clock=clock)
    return played


@pytest.fixture
def honest_file(recorded: tuple[Path, str]) -> Path:
    return recorded[0]


@pytest.fixture
def honest(honest_file: Path) -> Records:
    return read_transcript(honest_file)


def _write(tmp_path: Path, records: Records, name: str = "t.msgpack") -> Path:
    path = tmp_path / name
    path.write_bytes(b"".join(msgpack.packb(r, use_bin_type=True) for r in records))
    return path


def _audit(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["audit", str(path)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _events(records: Records, kind: str) -> list[int]:
    return [i for i, r in enumerate(records)
            if r.get("t") == "event" and isinstance(r.get("event"), dict)
            and r["event"].get("type") == kind]


def test_an_honest_transcript_passes_with_every_round_audited(
    honest_file: Path, honest: Records, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _audit(honest_file, capsys)
    rounds = len(_events(honest, "round_ended"))
    assert code == 0, out
    assert err == ""
    assert rounds >= 1
    for number in range(1, rounds + 1):
        assert f"round {number}: audited, every card checks out" in out
    assert "VIOLATION" not in out
    assert "everything holds" in out
    assert "host signing key (SHA-256 of its public key): " in out


def test_the_trust_panel_names_the_signing_key_the_audit_names(
    recorded: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Found in tmux: the panel of a game without TLS said "Host key: none", and `unonet
    audit` of its transcript "host signing key ZR5F-…". The panel names both keys as what
    they are: the certificate (none without TLS) and the key that signs the decks."""
    path, key = recorded
    code, out, _ = _audit(path, capsys)
    assert code == 0
    assert f"host signing key (SHA-256 of its public key): {key}\n" in out
    model = ClientModel(Translator("en"), name="me")
    model.apply(TrustStatus(signing_key=key))
    model.toggle_trust()
    text = " ".join("".join(f[1] for f in compose(model, 80, 23, True)).split())
    assert "Host certificate: none: without TLS the connection does not identify the host" \
        in text
    assert f"Signing key (it signs every deck commitment): {key}" in text


def _tampered(tmp_path: Path, records: Records, change: Callable[[Records], None]) -> Path:
    changed = copy.deepcopy(records)
    change(changed)
    assert changed != records, "the tampering changed nothing"
    return _write(tmp_path, changed)


def _change_a_played_card(records: Records) -> None:
    index = _events(records, "card_played")[0]
    event = records[index]["event"]
    event["card"] = (event["card"] + 1) % 108


def _forge_a_score(records: Records) -> None:
    index = _events(records, "round_ended")[0]
    event = records[index]["event"]
    event["points"] = [points + 50 for points in event["points"]]


def _remove_an_audit(records: Records) -> None:
    index = next(i for i, r in enumerate(records) if r.get("t") == "round_audit")
    del records[index]


def _resign_with_another_key(records: Records) -> None:
    index = next(i for i, r in enumerate(records) if r.get("t") == "deck_commits")
    records[index] = Signer.generate().sign(records[index])


@pytest.mark.parametrize(
    ("change", "kinds"),
    [
        (_change_a_played_card, ("card_mismatch", "events_digest")),
        (_forge_a_score, ("illegal", "events_digest")),
        (_remove_an_audit, ("missing_audit",)),
        (_resign_with_another_key, ("signature",)),
    ],
    ids=["a changed card", "a forged score", "a removed audit", "another key's signature"],
)
def test_a_tampered_transcript_fails(
    tmp_path: Path, honest: Records, capsys: pytest.CaptureFixture[str],
    change: Callable[[Records], None], kinds: tuple[str, ...],
) -> None:
    """Each lie is named by every check it breaks: a forged score by the referee's re-play
    (illegal), not only by the events digest it no longer matches."""
    code, out, err = _audit(_tampered(tmp_path, honest, change), capsys)
    assert code == 1, out
    assert all(f"VIOLATION {kind}:" in out for kind in kinds), out
    assert "the host broke the protocol, or this file was changed since it was recorded" in out
    assert err == ""


def test_a_transcript_resigned_wholesale_shows_another_host_key(
    tmp_path: Path, honest: Records, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without TLS nothing ties the key to the host but what people compare: a transcript
    re-signed throughout with another key holds together, but its fingerprint is not the host's."""
    other = Signer.generate()
    forged = copy.deepcopy(honest)
    for index, record in enumerate(forged):
        if record.get("t") == "manifest":
            record["signer"] = other.signer
        if record.get("t") in SIGNED_MESSAGES:
            forged[index] = other.sign(record)
    _, honest_out, _ = _audit(_write(tmp_path, honest, "honest.msgpack"), capsys)
    code, out, _ = _audit(_write(tmp_path, forged), capsys)
    key_line = [line for line in honest_out.splitlines() if line.startswith("host signing key")]
    assert code == 0
    assert key_line and key_line[0] not in out


def test_a_truncated_transcript_is_unreadable(
    tmp_path: Path, honest_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = honest_file.read_bytes()
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
    unpacker.feed(data)
    starts = []
    while unpacker.tell() < len(data) // 2:  # the record that holds the middle byte
        starts.append(unpacker.tell())
        unpacker.skip()
    path = tmp_path / "cut.msgpack"
    # One byte into that record: a cut at a record's edge would leave a shorter, whole file.
    path.write_bytes(data[: starts[-1] + 1])
    code, out, err = _audit(path, capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "truncated" in err


def test_a_transcript_that_stops_mid_round_does_not_say_everything_holds(
    tmp_path: Path, honest: Records, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing found in a round that could not be audited is not the same as everything
    checked: the summary says so, and the exit status still says no violation was found."""
    first_end = _events(honest, "round_ended")[0]
    code, out, err = _audit(_write(tmp_path, honest[:first_end]), capsys)
    assert code == 0, out
    assert err == ""
    assert "round 1: not audited (the transcript ends before its audit)" in out
    assert "everything holds" not in out
    assert out.rstrip().endswith("no violation found, but 1 round could not be audited")


@pytest.mark.parametrize(
    "data",
    [b"", b"not msgpack at all \xc1", msgpack.packb({"t": "manifest"}),
     msgpack.packb({"t": "transcript", "version": 1, "host": "h", "peer_cert": None,
                    "seat": None})],
    ids=["empty", "garbage", "no header", "no manifest"],
)
def test_what_is_not_an_auditable_transcript_exits_2_with_one_line(
    tmp_path: Path, data: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "x.msgpack"
    path.write_bytes(data)
    code, out, err = _audit(path, capsys)
    assert code == 2
    assert out == ""
    assert err.startswith("unonet audit: ") and err.count("\n") == 1


@pytest.mark.parametrize("seat", [7, -1, "x", True])
def test_a_header_naming_a_seat_the_match_has_not_is_not_audited(
    tmp_path: Path, honest: Records, capsys: pytest.CaptureFixture[str], seat: object,
) -> None:
    """Found in tmux: a header changed to seat 7 of a 4-seat match read "seen as seat 7" and
    "everything holds"; 'x' read as a spectator's view."""
    path = _write(tmp_path, [{**honest[0], "seat": seat}, *honest[1:]])
    code, out, err = _audit(path, capsys)
    assert code == 2 and out == "" and "which a match of" in err


def test_a_missing_file_exits_2(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = run(tmp_path / "absent.msgpack", out, err)
    assert code == 2 and out.getvalue() == "" and "absent.msgpack" in err.getvalue()


def test_the_command_as_a_user_runs_it_never_shows_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "garbage.msgpack"
    path.write_bytes(b"\x85\xa1t")
    result = subprocess.run([sys.executable, "-m", "unonet.cli", "audit", str(path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("unonet audit: ")


def test_a_certificate_whose_key_is_not_the_signer_fails(
    tmp_path: Path, honest: Records, capsys: pytest.CaptureFixture[str]
) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "someone else")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(1).not_valid_before(now)
            .not_valid_after(now + datetime.timedelta(days=1)).sign(key, hashes.SHA256()))
    changed = copy.deepcopy(honest)
    changed[0]["peer_cert"] = cert.public_bytes(serialization.Encoding.DER)
    code, out, _ = _audit(_write(tmp_path, changed), capsys)
    assert code == 1
    assert "VIOLATION signature:" in out and "certificate" in out
    assert "host certificate (as unonet host prints it): " in out


def test_a_transcripts_text_reaches_the_terminal_escaped(
    tmp_path: Path, honest: Records, capsys: pytest.CaptureFixture[str]
) -> None:
    """A transcript is given to others to check: what it says (its host label here) is
    printed as text, so a terminal escape in it cannot clear or rewrite the reader's screen."""
    hostile = copy.deepcopy(honest)
    assert hostile[0]["t"] == "transcript"
    hostile[0]["host"] = "\x1b[2J\x1b[Hall clear \u202eevil"
    code, out, _ = _audit(_write(tmp_path, hostile), capsys)
    assert code == 0, out
    assert "\x1b" not in out and "\u202e" not in out
    assert "on \\x1b[2J\\x1b[Hall clear \\u202eevil, " in out


@pytest.mark.parametrize(("lang", "audited", "holds"), [
    ("it", "manche 1: verificata, ogni carta torna", "tutto torna"),
    ("pt", "rodada 1: verificada, todas as cartas conferem", "tudo confere"),
])
def test_the_audit_speaks_the_readers_language(
    honest_file: Path, capsys: pytest.CaptureFixture[str], lang: str, audited: str, holds: str
) -> None:
    """Issue 46: `unonet audit` ignored --lang."""
    code = main(["audit", str(honest_file), "--lang", lang])
    out = capsys.readouterr().out
    assert code == 0 and audited in out and holds in out, out
    assert "audited" not in out and "everything holds" not in out

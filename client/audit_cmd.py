"""`unonet audit FILE`: re-check a match transcript offline, so a cheated player can show others.

The transcript (client/transcript.py) holds what the host sent; its trust messages carry the
host's signatures. The audit builds a fresh `TrustVerifier` from the transcript's manifest and
feeds it everything in order, as the client did live: each signed message's signature first
(by the manifest's signer, which must be the key of the recorded TLS certificate), then the trust
messages, every event with its map (for the events digest), every round_history, and at the end
`finish()` for the audits still owed. It prints one line per round and a summary, and the host's
key fingerprint so whoever reads the output can compare it with the host they know.

Exit status: 0 no violation found, 1 a violation, 2 a file that is not a readable transcript (one
line on stderr, never a traceback).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TextIO

from client.command_words import command_words
from client.safe_text import shown
from client.tls import format_fingerprint
from client.transcript import (
    END_TYPE,
    HEADER_TYPE,
    LEFT_TYPE,
    TranscriptError,
    read_transcript,
)
from protocol.trust.messages import MalformedTrustMessage, MatchIdentity
from protocol.trust.results import Violation
from protocol.trust.verifier import TrustVerifier
from protocol.trust_hook import VerifierObserver

EXIT_HOLDS: Final = 0
EXIT_VIOLATION: Final = 1
EXIT_UNREADABLE: Final = 2

class NotAuditable(Exception):
    """A transcript that holds nothing to audit (exit 2, like an unreadable file)."""


@dataclass
class Audit:
    """What an audit found: the verifier after the whole transcript (every violation, a
    message too malformed to read included), fed as the live client fed it."""

    identity: MatchIdentity
    seat: int | None
    host_label: str
    verifier: TrustVerifier
    observer: VerifierObserver
    certificates: list[bytes] = field(default_factory=list)
    events: int = 0
    capped: bool = False
    left: bool = False
    match_ended: bool = False
    taking: int | None = None
    """A seat taken in mid-match whose snapshot has not come yet (SPEC.md [UNO-11-53])."""

    def all_violations(self) -> list[Violation]:
        return self.verifier.violations()


def fingerprint_line(label: str, der: bytes) -> str:
    """`label: XXXX-XXXX-...`: SHA-256 of `der` as known_hosts and `unonet host` show it."""
    return f"{label}: {format_fingerprint(hashlib.sha256(der).digest())}"


def audit_records(records: list[dict[str, Any]]) -> Audit:
    """Replay a transcript's records (header first) through a fresh verifier.

    Raises NotAuditable if there is no manifest, or the first one cannot be read at all (no
    identity to check anything against). Hostile content is a violation, never an exception.
    """
    header = records[0]
    seat = header.get("seat")
    host_label = str(header.get("host", "?"))
    start = next((i for i, r in enumerate(records) if r.get("t") == "manifest"), None)
    if start is None:
        raise NotAuditable("the transcript holds no manifest: nothing to audit")
    try:
        identity = MatchIdentity.from_dict(records[start])
    except MalformedTrustMessage as exc:
        raise NotAuditable(f"its manifest cannot be read ({exc})") from None
    # The header is the client's own (unsigned): whose view the file holds. A seat the match
    # does not have is a file no client wrote (found in tmux: "seen as seat 7" of 4 seats,
    # and "everything holds"); said so rather than audited as a view it cannot be.
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)
                             or not 0 <= seat < identity.seats):
        raise NotAuditable(f"its header names seat {seat!r}, which a match of "
                           f"{identity.seats} seats does not have: not as a client wrote it")
    taking = seat if header.get("takes_seat") is True else None
    verifier = TrustVerifier(identity, None if taking is not None else seat)
    audit = Audit(identity, seat, host_label, verifier, VerifierObserver(verifier))
    audit.taking = taking
    for record in records:
        if record.get("t") == HEADER_TYPE:
            _check_certificate(audit, record)
    for record in records[start:]:
        _feed(audit, record)
    if not audit.capped:
        # A transcript that stops before the match ended, with or without its player's left
        # mark, shows nothing of what came after it: the round it stops in is not judged (its
        # client may have been killed), as the live client does not judge a round it left.
        audit.verifier.finish(left=audit.left or not audit.match_ended)
    return audit


def _check_certificate(audit: Audit, header: Mapping[str, Any]) -> None:
    """A connection's TLS certificate must carry the key that signs (checked once per cert)."""
    cert = header.get("peer_cert")
    if cert is None or cert in audit.certificates:
        return
    if not isinstance(cert, bytes):
        audit.verifier.check_peer(b"")
        return
    audit.certificates.append(cert)
    audit.verifier.check_peer(cert)


def _feed(audit: Audit, record: Mapping[str, Any]) -> None:
    """One record, as the live client handled its message (the same observer: signature
    first, then content), plus the transcript's own markers."""
    kind = record.get("t")
    if kind == END_TYPE:
        audit.capped = True
    if audit.capped:
        return
    if kind == LEFT_TYPE:
        audit.left = True
        return
    if kind == HEADER_TYPE:
        audit.left = False  # a new connection: a player who left came back (found in tmux)
        seat = record.get("seat")
        if record.get("takes_seat") is True and isinstance(seat, int) \
                and audit.verifier.seat is None:
            audit.taking = seat  # a spectator's connection sat down: as the gate follows it
        return
    if kind == "snapshot":
        audit.verifier.entered()  # what follows came live, as the client's gate marks it
        if audit.taking is not None:
            _sit(audit, audit.taking, record)
    if kind == "event":
        audit.events += 1
        event = record.get("event")
        if isinstance(event, Mapping) and event.get("type") == "match_ended":
            audit.match_ended = True
    audit.observer.observe(record)


def _sit(audit: Audit, seat: int, snapshot: Mapping[str, Any]) -> None:
    """The seat taken in mid-match, at its snapshot: checked as the live client's gate does
    (SPEC.md [UNO-11-53]), its hand there held to the public record at the round's audit."""
    audit.taking = None
    view = snapshot.get("view")
    if not isinstance(view, Mapping):
        return
    hand = view.get("hand")
    cards = [card for card in hand if isinstance(card, int)] if isinstance(hand, list) else []
    number = view.get("round_no")
    audit.verifier.sit(seat, cards, number if isinstance(number, int) else None)


def round_lines(audit: Audit, lang: str = "en") -> list[str]:
    """One line per round the verifier followed, in order."""
    lines = []
    for rnd in audit.verifier.rounds:
        absent = getattr(rnd, "absent_seeds", ())
        note = (command_words(lang, "audit.no_seed", seats=", ".join(map(str, absent)))
                if absent else "")
        if rnd.status == "violated":
            for violation in rnd.violations:
                lines.append(command_words(lang, "audit.violation", round=rnd.round_no,
                                           violation=violation))
        elif rnd.status == "audited" and rnd.abandoned:
            lines.append(command_words(lang, "audit.abandoned", round=rnd.round_no, note=note))
        elif rnd.status == "audited":
            lines.append(command_words(lang, "audit.audited", round=rnd.round_no, note=note))
        elif rnd.status == "missed":
            lines.append(command_words(lang, "audit.missed", round=rnd.round_no, note=note))
        else:
            lines.append(command_words(lang, "audit.unaudited", round=rnd.round_no))
    return lines


def say(line: str, file: TextIO) -> None:
    """Print a line for the reader's terminal, escaped: a transcript is anyone's file (it is
    given to others to check), so its host label and a violation's words may hold anything."""
    print(shown(line), file=file)


def report(audit: Audit, out: TextIO, lang: str = "en") -> int:
    """Print the audit's findings in `lang`; return the exit status."""
    def words(key: str, **values: object) -> str:
        return command_words(lang, key, **values)

    sat = audit.verifier.seat  # a spectator who took a seat in mid-match is that seat now
    seen = (words("audit.seat", seat=audit.seat) if audit.seat is not None else
            words("audit.spectator_seat", seat=sat) if sat is not None else
            words("audit.spectator"))
    say(words("audit.match", game_id=audit.identity.game_id.hex(), host=audit.host_label,
              seats=audit.identity.seats, seen=seen), file=out)
    say(fingerprint_line(words("audit.signing_key"), audit.identity.signer), file=out)
    for cert in audit.certificates:
        say(fingerprint_line(words("audit.certificate"), cert), file=out)
    for line in round_lines(audit, lang):
        say(line, file=out)
    in_rounds = {id(v) for rnd in audit.verifier.rounds for v in rnd.violations}
    for violation in audit.all_violations():
        if id(violation) not in in_rounds:
            say(words("audit.match_violation", violation=violation), file=out)
    if not audit.match_ended and not audit.capped:
        why = words("audit.left" if audit.left else "audit.stopped")
        say(words("audit.short", why=why), file=out)
    if audit.capped:
        say(words("audit.capped"), file=out)
    rounds = audit.verifier.rounds
    # A round abandoned before its deal had no card dealt: counted apart, never "audited";
    # one given up after its seeds came in is a violation (said above), not counted here, as
    # `unonet bot` counts them.
    audited = sum(r.status == "audited" and not r.abandoned for r in rounds)
    abandoned = sum(r.status == "audited" and r.abandoned for r in rounds)
    violations = audit.all_violations()
    summary = words("audit.summary", rounds=words("rounds", count=len(rounds)),
                    audited=audited, abandoned=abandoned,
                    events=words("events", count=audit.events))
    if violations:
        # An event is bound only by the signed digest of its round: an offline audit cannot
        # tell a host that sent another event from a file edited after it was recorded.
        say(words("audit.broken", summary=summary,
                  violations=words("violations", count=len(violations))), file=out)
        return EXIT_VIOLATION
    unjudged = sum(r.status not in ("audited", "violated") for r in rounds)
    if unjudged:  # nothing found is not everything checked: say what was not
        say(words("audit.unjudged", summary=summary, rounds=words("rounds", count=unjudged)),
            file=out)
    else:
        say(words("audit.holds", summary=summary), file=out)
    return EXIT_HOLDS


def run(path: Path, out: TextIO, err: TextIO, lang: str = "en") -> int:
    """`unonet audit FILE`: audit, print in `lang`, and return the exit status (0, 1 or 2)."""
    try:
        records = read_transcript(path)
        audit = audit_records(records)
    except (TranscriptError, NotAuditable) as exc:
        message = str(exc) if isinstance(exc, TranscriptError) else f"{path}: {exc}"
        say(command_words(lang, "audit.unreadable", message=message), file=err)
        return EXIT_UNREADABLE
    return report(audit, out, lang)

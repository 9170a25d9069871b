"""A refusal in the player's language. unonet's host writes its diagnostic `msg` in English;
found in tmux, an Italian player was told "Rifiutato: the host no longer knows your seat
(this token names no seat): joining as a newcomer · Rifiutato: no seat can be taken in this
match now: ...". A player who reads English still gets the host's own words (they name the
seat, the limit); another language gets ours for the code."""

from __future__ import annotations

import pytest

from client.i18n import CATALOGUES, Translator
from client.link import Refused
from client.model import ClientModel
from protocol.errors import Code

HOST_SAYS = ("no seat can be taken in this match now: one opens when its player leaves or "
             "stays away past the grace period (watch meanwhile)")

WIRE_CODES = {Code.BAD_FRAME, Code.FRAME_TOO_LARGE, Code.DUPLICATE_KEY, Code.BAD_MESSAGE,
              Code.UNKNOWN_MESSAGE, Code.UNEXPECTED_MESSAGE, Code.HANDSHAKE_FAILED,
              Code.HANDSHAKE_TIMEOUT, Code.FAIRNESS_VIOLATION, Code.COMMIT_MISMATCH}
"""What only a broken or hostile client meets (a bug to report, in the host's words), and
what the trust checks say in words of their own."""


def notice_after(lang: str, code: str, message: str) -> str:
    model = ClientModel(Translator(lang), name="Bea")
    model.apply(Refused(code, message))
    return model.notice


@pytest.mark.parametrize("lang", ["it", "pt"])
def test_a_refusal_is_in_the_players_language(lang: str) -> None:
    tr = Translator(lang)
    said = notice_after(lang, "game_in_progress", HOST_SAYS)
    assert tr("refusal.game_in_progress") in said and "grace period" not in said, said
    lost = notice_after(lang, "invalid_resume", "the host no longer knows your seat")
    assert tr("n.seat_lost") in lost and "host no longer" not in lost, lost


def test_a_refusal_in_english_keeps_the_hosts_own_words() -> None:
    assert HOST_SAYS in notice_after("en", "game_in_progress", HOST_SAYS)
    assert Translator("en")("refusal.seat_taken") in notice_after("en", "seat_taken", "")
    lost = notice_after("en", "invalid_resume", "this token names no seat")
    assert "Your seat was taken while you were away" in lost, lost


def test_every_code_a_player_can_meet_has_words_in_every_language() -> None:
    for code in set(Code) - WIRE_CODES:
        for lang, strings in CATALOGUES.items():
            assert f"err.{code}" in strings or f"refusal.{code}" in strings, (lang, code)


@pytest.mark.parametrize("lang", ["it", "pt"])
def test_a_move_refused_in_a_race_is_in_the_players_language(lang: str) -> None:
    said = notice_after(lang, "wrong_phase", "no draw is pending")
    assert Translator(lang)("refusal.move") in said and "pending" not in said, said
    assert "no draw is pending" in notice_after("en", "wrong_phase", "no draw is pending")

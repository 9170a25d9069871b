"""Names and chat lines (protocol/text.py, SPEC.md [UNO-5-12]): what is refused, the normal
form, and that no normalised output ever holds a refused character."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.limits import MAX_CHAT_CHARS, MAX_NAME_CHARS
from protocol.text import (
    REFUSED_CATEGORIES,
    TextRefused,
    first_refused,
    name_skeleton,
    normal_chat,
    normal_name,
)

HOSTILE = {
    "ESC clear screen": "\x1b[2Jada",
    "OSC window title": "ada\x1b]0;pwned\x07",
    "BEL": "ada\x07",
    "NUL": "a\x00da",
    "right-to-left override": "ada\u202egnp.exe",
    "first strong isolate": "\u2068ada",
    "zero-width space": "a\u200bda",
    "zero-width joiner": "a\u200dda",
    "soft hyphen": "a\u00adda",
    "C1 CSI": "ada\x9b2J",
    "DEL": "ada\x7f",
    "newline": "ada\nhost: hello",
    "carriage return": "ada\rhost",
    "tab": "a\tda",
    "line separator": "ada\u2028x",
    "paragraph separator": "ada\u2029x",
    "private use": "ada\ue000",
    "unassigned": "ada\U000e0fff",
    "lone surrogate": "ada\ud800",
    "language tag": "ada\U000e0041",
}


def refused_in(text: str) -> list[str]:
    return [c for c in text if unicodedata.category(c) in REFUSED_CATEGORIES]


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_name_with_a_control_or_format_character_is_refused(text: str) -> None:
    with pytest.raises(TextRefused) as refused:
        normal_name(text)
    assert refused.value.code == "invalid_name"
    assert not refused_in(refused.value.msg), "the refusal must not echo the character"
    assert "U+" in refused.value.msg


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_chat_line_with_a_control_or_format_character_is_refused(text: str) -> None:
    with pytest.raises(TextRefused) as refused:
        normal_chat(text)
    assert refused.value.code == "bad_message"
    assert not refused_in(refused.value.msg)


FULLWIDTH = "\uff48\uff4f\uff53\uff54"
MATH_BOLD = "\U0001d421\U0001d428\U0001d42c\U0001d42d"
CYRILLIC = "\u04bb\u043e\u0455\u0442"


@pytest.mark.parametrize("name", ["host", "HOST", "Host", "H o s t", "host:", "[host]", "-host-",
                                  "h.o.s.t", FULLWIDTH, MATH_BOLD, CYRILLIC, "h0st", "  host  ",
                                  "ho\u3000st"])
def test_the_host_name_is_reserved_however_it_is_spelt(name: str) -> None:
    with pytest.raises(TextRefused) as refused:
        normal_name(name)
    assert refused.value.code == "invalid_name"
    assert "reserved" in refused.value.msg


@pytest.mark.parametrize("name", ["hostile", "ghost", "host 2", "the host's cat", "hosta"])
def test_names_that_only_contain_host_are_free(name: str) -> None:
    assert normal_name(name) == name


def test_a_chat_line_may_say_host() -> None:
    assert normal_chat("host: the host is slow") == "host: the host is slow"


def test_a_name_is_nfc_with_its_spaces_collapsed() -> None:
    assert normal_name("  Zoe\u0301  \u00a0 and\u3000  Ana ") == "Zoé and Ana"


def test_a_chat_line_is_nfc_and_stripped_but_keeps_inner_spaces() -> None:
    assert normal_chat("\u00a0 e\u0301  gg  \u2003") == "é  gg"


@pytest.mark.parametrize("text", ["", "   ", "\u3000\u00a0"])
def test_an_empty_name_or_line_is_refused(text: str) -> None:
    with pytest.raises(TextRefused, match="empty"):
        normal_name(text)
    with pytest.raises(TextRefused, match="empty"):
        normal_chat(text)


def test_too_long_once_normalised_is_refused() -> None:
    assert normal_name("a" * MAX_NAME_CHARS) == "a" * MAX_NAME_CHARS
    with pytest.raises(TextRefused, match="longer"):
        normal_name("a" * (MAX_NAME_CHARS + 1))
    assert len(normal_chat("b" * MAX_CHAT_CHARS)) == MAX_CHAT_CHARS
    with pytest.raises(TextRefused, match="longer"):
        normal_chat("b" * (MAX_CHAT_CHARS + 1))


def test_text_refused_is_a_value_error_with_code_and_msg() -> None:
    error = TextRefused("invalid_name", "why")
    assert isinstance(error, ValueError)
    assert (error.code, error.msg, str(error)) == ("invalid_name", "why", "why")


def test_first_refused_finds_the_first_bad_character_past_ordinary_spaces() -> None:
    assert first_refused("a\u00a0b") is None  # a non-ASCII space is not refused
    assert first_refused("a\u00a0b\x1bc\x07") == "\x1b"
    assert first_refused("plain text") is None


def test_the_skeleton_folds_case_width_and_punctuation() -> None:
    assert name_skeleton("H.O.S.T!") == "host"
    assert name_skeleton("\uff21\uff44\uff41") == "ada"


# -- properties ---------------------------------------------------------------------------------

ANY_TEXT = st.text(alphabet=st.characters(codec=None), max_size=80)
MOSTLY_HOSTILE = st.text(
    alphabet=st.one_of(
        st.characters(categories=("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp", "Zs", "Mn")),
        st.sampled_from("hostHOST :.ada"),
    ),
    max_size=40,
)


@given(st.one_of(ANY_TEXT, MOSTLY_HOSTILE))
def test_no_normal_name_holds_a_refused_character_or_reads_as_host(text: str) -> None:
    try:
        name = normal_name(text)
    except TextRefused as refused:
        assert refused.code == "invalid_name"
        assert not refused_in(refused.msg)
        return
    assert not refused_in(name)
    assert name == name.strip() and "  " not in name
    assert all(c == " " or unicodedata.category(c) != "Zs" for c in name)
    assert unicodedata.is_normalized("NFC", name)
    assert 1 <= len(name) <= MAX_NAME_CHARS
    assert name_skeleton(name) != "host"
    assert normal_name(name) == name, "normalising twice changes nothing"


@given(st.one_of(ANY_TEXT, MOSTLY_HOSTILE))
def test_no_normal_chat_line_holds_a_refused_character(text: str) -> None:
    try:
        line = normal_chat(text)
    except TextRefused as refused:
        assert refused.code == "bad_message"
        assert not refused_in(refused.msg)
        return
    assert not refused_in(line)
    assert "\n" not in line and "\r" not in line
    assert unicodedata.is_normalized("NFC", line)
    assert 1 <= len(line) <= MAX_CHAT_CHARS
    assert normal_chat(line) == line


@given(ANY_TEXT)
def test_text_is_refused_exactly_when_it_holds_a_refused_character(text: str) -> None:
    assert (first_refused(text) is None) == (not refused_in(text))

"""Names as long as a player may choose (32 characters) on a narrow screen: a cut name ends
in "…", and our own keeps its " (you)" whole (found in tmux at 60x18: "Wolfgang Amadeus
Mozart the Grea (you" lost its bracket, and nothing said the name was cut)."""

from __future__ import annotations

from client_table import play_out_the_round, play_to_the_forgotten_uno, scenario_table
from hypothesis import given, settings
from hypothesis import strategies as st

from client.i18n import LANGUAGES, Translator
from client.model import ClientModel
from client.render import MIN_HEIGHT, MIN_WIDTH, compose

LONG = "Wolfgang Amadeus Mozart the Grea"  # 32 characters, the most a name may have
OTHER = "Johann Sebastian Bach of Leipzig"


@settings(max_examples=60, deadline=None)
@given(width=st.integers(MIN_WIDTH, 90), lang=st.sampled_from(LANGUAGES))
def test_a_long_name_is_cut_with_a_mark_and_ours_keeps_you(width: int, lang: str) -> None:
    model = ClientModel(Translator(lang), name=LONG)
    table = scenario_table(model)
    table.names[0], table.names[1] = LONG, OTHER
    table.start(model.apply)
    assert model.me == 0 and model.name(0) == LONG
    lines = "".join(f[1] for f in compose(model, width, MIN_HEIGHT, True)).split("\n")
    you = f"({model.tr('ui.you')})"
    ours = next(line for line in lines[1:5] if you in line)
    theirs = next(line for line in lines[1:5] if OTHER[:5] in line)
    for line, name in ((ours, LONG), (theirs, OTHER)):
        shown = line[2:].split("…")[0] if "…" in line else None
        assert shown is None or name.startswith(shown), line
        assert "…" in line or name in line, line
    assert f"… {you}" in ours or f"{LONG} {you}" in ours, ours


def test_the_lobby_marks_a_cut_name_too() -> None:
    model = ClientModel(Translator("en"), name=LONG)
    table = scenario_table(model, lobby_first=True)
    table.names[0] = LONG
    table.start(model.apply)
    lines = "".join(f[1] for f in compose(model, 80, 23, True)).split("\n")
    assert any(line.startswith("  1. Wolfgang Amadeus Mo… ") for line in lines), lines


def test_the_round_s_score_table_marks_a_cut_name_too() -> None:
    model = ClientModel(Translator("en"), name=LONG)
    table = scenario_table(model)
    table.names[0] = LONG
    table.start(model.apply)
    play_to_the_forgotten_uno(model, table)
    play_out_the_round(model, table)
    lines = "".join(f[1] for f in compose(model, 80, 23, True)).split("\n")
    assert any(line.startswith(" Wolfgang Amad… ") for line in lines), lines  # 14 columns


def test_our_short_name_keeps_its_letters_before_its_you() -> None:
    """Seen at 60x18 with six players in two columns: "Tess (you)" in 8 columns had become
    "T… (you)"; the name tells more than the mark, so it keeps 4 letters first."""
    from client.render import _cut_name

    assert _cut_name("Tess (you)", 8, " (you)") == "Tess (y…"
    assert _cut_name("Tess (you)", 6, " (you)") == "Tess…"
    assert _cut_name("Wolfgang Amadeus (you)", 11, " (you)") == "Wolf… (you)"
    assert _cut_name("Wolfgang Amadeus (you)", 10, " (you)") == "Wolfgang…"
    assert _cut_name("Ana", 4, "") == "Ana"

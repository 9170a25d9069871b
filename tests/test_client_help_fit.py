"""The help (`?`) at every terminal size the client draws (found at 60 columns: the lines of
longer keys were cut at the screen's edge, in every language; a game's help under rules
with every option was taller than a 17-line screen, its last keys dropped unsaid; then, in
tmux at 60x18, keys still cut with "…" and no way to read the rest): each key's line is
whole, wrapped under itself, on pages that ↓ and ↑ turn where one screen is too short."""

from __future__ import annotations

from client_table import scenario_table
from hypothesis import given, settings
from hypothesis import strategies as st

from client.i18n import LANGUAGES, Translator
from client.link import TablesListed
from client.lobby import TableInfo
from client.model import ClientModel
from client.render import MIN_HEIGHT, MIN_WIDTH, compose, help_entries, help_page_count
from unonet.rules import RuleSet

EVERY_OPTION = RuleSet(hand_size=4, buzzers=True, sequences=True, multiples=True,
                       jump_in="identical", seven_zero=True)
"""A game whose help names every key there is."""


def at(where: str, lang: str) -> ClientModel:
    model = ClientModel(Translator(lang), name="Me")
    if where == "tables":
        model.apply(TablesListed((TableInfo(0, "casa", 4, 1, False),)))
    elif where == "game":
        scenario_table(model, rules=EVERY_OPTION).start(model.apply)
    model.show_help = True
    return model


def words(text: str) -> list[str]:
    return text.split()


@settings(max_examples=200, deadline=None)
@given(where=st.sampled_from(["tables", "lobby", "game"]), lang=st.sampled_from(LANGUAGES),
       plain=st.booleans(), width=st.integers(MIN_WIDTH, 130),
       height=st.integers(MIN_HEIGHT, 45))
def test_every_key_of_the_help_is_said_whole_on_one_of_its_pages(
    where: str, lang: str, plain: bool, width: int, height: int
) -> None:
    model = at(where, lang)
    entries = help_entries(model, plain)
    pages = help_page_count(model, plain, width, height)
    said: list[str] = []  # each key as the screen says it, its wrapped parts joined
    for page in range(pages):
        model.turn_help_page(1 if page else 0, pages)
        assert model.help_page == page
        lines = "".join(f[1] for f in compose(model, width, height, plain)).split("\n")
        assert len(lines) == height
        title = lines[1].rstrip()
        paged = model.tr("help.page", page=page + 1, pages=pages)
        assert title == model.tr("help.title") + (f" {paged}" if pages > 1 else "")
        body = [line.rstrip() for line in lines[2:-1]]  # under the title bar and "Keys"
        assert all(len(line) <= width and "…" not in line for line in body), body
        for line in body:
            if line.startswith("    "):
                said[-1] += " " + line.strip()
            elif line.startswith("  "):
                said.append(line.strip())
    assert [words(text) for text in said] == [words(entry) for entry in entries]
    model.turn_help_page(1, pages)
    assert model.help_page == pages - 1  # the last page stays the last


def test_the_game_s_help_under_every_option_fits_a_24_line_terminal_whole() -> None:
    model = at("game", "en")
    entries = help_entries(model, False)
    assert len(entries) >= 14  # every rule key is in it
    lines = "".join(f[1] for f in compose(model, 80, 23, False)).split("\n")
    said = " ".join(line.strip() for line in lines[2:-1] if line.strip())
    assert words(said) == [word for entry in entries for word in words(entry)]

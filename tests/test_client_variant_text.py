"""No Mercy's words on a small screen and a large one, in every language: the Color Roulette's
question reads as one sentence, whole (its colours then the rest, one space between), and the
hand's title says the Mercy rule and the cards left out whole, never a fragment of its legend
or of a count that reads as a card ('*', '+6'). The lobby speaks the table's variant: an
option's title, value and explanation in its card names."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from client_table import LocalTable, fresh, house_table, screen
from test_rulebook_variants import deck_kinds, names_lacking

from client.i18n import LANGUAGES
from client.lobby import LobbyState, SeatInfo
from client.model import ClientModel
from client.rule_editor import editor_options
from unonet.cards import CHALLENGEABLE_KINDS, Face, Kind
from unonet.rulebook import option_meaning
from unonet.rulebook_text import OPTION_WORDS, VALUE_WORDS
from unonet.rules import RuleSet, preset

SIZES = ((60, 20), (80, 24))


def no_mercy_table(model: ClientModel, hands: list[list[str]], plans: dict[int, Sequence[str]],
                   draws: tuple[str, ...] = ()) -> LocalTable:
    """Me at seat 0; dealer 1, so seat 2 plays first, then me."""
    rules = RuleSet().with_options({"variant": "no_mercy", "hand_size": len(hands[0])})
    return house_table(model, rules, hands, "r5", plans, draws=draws, dealer=1)


def as_text(model: ClientModel, width: int, height: int) -> list[str]:
    return [line.rstrip() for line in screen(model, True, width, height).split("\n")]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_roulette_question_is_one_whole_sentence(lang: str, width: int, height: int) -> None:
    model = fresh(lang)
    no_mercy_table(model, [["g1", "g2", "g3"], ["b1", "b2", "b3"], ["WCR", "y2", "y3"]],
                   {2: ["WCR"]}, draws=("r9", "b4"))
    tr = model.tr
    question = tr("ui.roulette_you", card=tr.card(Face(Kind.WILD_COLOR_ROULETTE)), choices="\0")
    rest = question.partition("\0")[2].strip()
    said = " ".join(as_text(model, width, height))  # a fold between two lines is one space
    last_colour = tr("color.blue")
    assert f"{last_colour} {rest}" in said, said


def _title(model: ClientModel, width: int, height: int) -> str:
    heading = f"{model.tr('ui.hand')} ("
    return next(line for line in as_text(model, width, height) if line.startswith(heading))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_hand_title_says_the_mercy_rule_and_its_notes_whole(
    lang: str, width: int, height: int
) -> None:
    """Twenty cards: five from the Mercy rule, and more cards than a small screen shows."""
    hands = [[f"g{n % 10}" for n in range(20)], [f"b{n % 10}" for n in range(20)],
             ["W+6", *[f"y{n % 10}" for n in range(19)]]]
    model = fresh(lang)
    no_mercy_table(model, hands, {2: ["W+6:red"]})
    tr = model.tr
    title = _title(model, width, height)
    mercy = (tr("ui.mercy_near", limit=25, left=5), tr("ui.mercy_short", left=5))
    assert any(f"  {said}" in title for said in mercy), title
    legend = tr("ui.legend")
    assert title.endswith(legend) or "*" not in title, title
    lines = as_text(model, width, height)
    at = lines.index(title)
    shown = lines[at + 1].count("[") + lines[at + 3].count("[")  # two rows of chips
    if shown < 20:
        more = tr("ui.more", count=20 - shown)
        assert f"  {more}  " in title or title.endswith(more), title
    if width >= 80:
        assert tr("ui.mercy_near", limit=25, left=5) in title  # the whole sentence when it fits


def test_the_legend_stays_when_the_title_has_room() -> None:
    model = fresh()
    no_mercy_table(model, [["g1", "g2", "g3"], ["b1", "b2", "b3"], ["y1", "y2", "y3"]], {})
    for width, height in SIZES:
        assert _title(model, width, height).endswith(model.tr("ui.legend"))


@pytest.mark.parametrize("owner", [1, 0])  # a guest's rule list, the owner's editor
def test_the_lobby_titles_a_flip_option_with_flips_cards(owner: int) -> None:
    model = fresh()
    seats = (SeatInfo(0, "human", "Me", True, True), SeatInfo(1, "bot", "Bruno", True, True))
    rules = {**preset("flip").to_dict(), "wd4_policy": "free"}
    model.apply_lobby(LobbyState(0, "casa", owner, rules, seats, False, "flip", 0, 0))
    titles = [info.name for info in editor_options()]
    model.option_cursor = titles.index("wd4_policy")  # the editor shows the rows near it
    meaning = model.tr("ui.meaning", text="").strip()  # the editor's note on the option
    rows = [line for line in screen(model, True, 80, 24).split("\n") if meaning not in line]
    said = [row for row in rows if "Wild Draw" in row]
    assert said and all("Wild Draw Two, Wild Draw Color" in row for row in said), said


def owner_of(name: str, lang: str, owner: int = 0, **rules: object) -> ClientModel:
    """Me at seat 0 of a table of the preset `name` (and `rules` over it): its owner, whose
    lobby is the rule editor, or a guest (owner 1), whose lobby lists the rules."""
    model = fresh(lang)
    seats = (SeatInfo(0, "human", "Me", True, True), SeatInfo(1, "bot", "Bruno", True, True))
    table_rules = {**preset(name).to_dict(), **rules}
    model.apply_lobby(LobbyState(0, "casa", owner, table_rules, seats, False, name, 0, 0))
    return model


def explanation_shown(model: ClientModel, name: str) -> tuple[str, str]:
    """The editor's screen with its cursor on option `name`, and the explanation line under
    it (its two rows folded back into one)."""
    model.option_cursor = [info.name for info in editor_options()].index(name)
    rows = screen(model, True, 80, 24).split("\n")
    head = model.tr("ui.meaning", text="").strip()
    at = next(i for i, row in enumerate(rows) if row.strip().startswith(head))
    said = [rows[at]] + [row for row in rows[at + 1:at + 2] if row.startswith("   ")]
    return "\n".join(rows), " ".join(row.strip() for row in said)


_CHALLENGE_WORDS = {"en": "challeng", "it": "contest", "pt": "desafi"}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("variant", ["flip", "no_mercy"])
def test_the_editor_explains_every_option_in_the_variants_cards(variant: str, lang: str) -> None:
    """On every option the explanation is shown whole and names no card the deck lacks (the
    games' own names aside: the Game option lists them); where nothing can be challenged, the
    editor says nothing of challenges."""
    model = owner_of(variant, lang)
    present = deck_kinds(variant)
    games = [getattr(VALUE_WORDS[game], lang) for game in ("flip", "no_mercy")]
    for info in editor_options():
        shown, said = explanation_shown(model, info.name)
        whole = model.tr("ui.meaning", text=option_meaning(info.name, lang, variant))
        assert said == whole, (info.name, said)  # not cut at the editor's two rows
        for game in games:
            said = said.replace(game, "#")
        assert names_lacking(said, lang, present) == [], (info.name, said)
        if not present & CHALLENGEABLE_KINDS:
            assert _CHALLENGE_WORDS[lang] not in shown.lower(), (info.name, shown)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_classic_table_explains_every_option_in_the_classic_words(lang: str) -> None:
    model = owner_of("official", lang)
    for info in editor_options():
        _, said = explanation_shown(model, info.name)
        meaning = getattr(OPTION_WORDS[info.name].meaning, lang)
        assert said == model.tr("ui.meaning", text=meaning), said


@pytest.mark.parametrize(("lang", "challenge", "free"),
                         [("it", "si possono contestare", "liberi"),
                          ("pt", "podem ser desafiados", "livres")])
def test_flips_two_wild_draw_cards_take_a_plural_value(lang: str, challenge: str,
                                                       free: str) -> None:
    """The editor's row (the owner's) and the rule list (a guest's) agree with Flip's plural
    title; a classic table keeps the singular of its one Wild Draw Four."""
    model = owner_of("flip", lang)
    title = model.tr.card(Face(Kind.WILD_DRAW_TWO))
    shown, _ = explanation_shown(model, "wd4_policy")
    assert any(title in row and row.rstrip().endswith(challenge) for row in shown.split("\n"))
    guest = owner_of("flip", lang, owner=1, wd4_policy="free")
    assert any(title in row and row.rstrip().endswith(free)
               for row in screen(guest, True, 80, 24).split("\n"))
    classic, _ = explanation_shown(owner_of("official", lang), "wd4_policy")
    assert challenge not in classic

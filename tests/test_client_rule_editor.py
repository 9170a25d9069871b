"""The lobby offers only what the engine plays: the options its editor lists, the values the
arrows step through, the presets `p` cycles, each option's meaning beside it; a guest sees the
whole rule set."""

from __future__ import annotations

import re
from typing import Any

import pytest
from prompt_toolkit.utils import get_cwidth

from client.i18n import Translator
from client.lobby import LobbyState, SeatInfo, SetRules
from client.model import ClientModel
from client.render import compose, meaning_lines
from client.rule_editor import editor_options, plays, step_option
from client.rule_words import differences
from unonet.rulebook import option_meaning
from unonet.rules import PRESETS, RuleSet, options_over, preset


def owner_lobby(rules: dict[str, Any], seated: int = 2, lang: str = "en",
                preset_name: str = "official", you: int = 0) -> ClientModel:
    model = ClientModel(Translator(lang), name="Me")
    seats = tuple(SeatInfo(i, "human" if i == 0 else "bot", f"P{i}", True, True)
                  for i in range(seated))
    full = {**RuleSet().to_dict(), **rules}
    model.apply_lobby(LobbyState(0, "t", 0, full, seats, False, preset_name, 0, you))
    return model


def screen(model: ClientModel, width: int = 80) -> str:
    text = "".join(fragment[1] for fragment in compose(model, width, 23, True))
    assert all(get_cwidth(line) <= width for line in text.split("\n"))
    return text


def test_p_cycles_only_presets_the_engine_plays() -> None:
    model = owner_lobby({})
    seen = []
    for _ in range(10):
        command = model.next_preset()
        assert isinstance(command, SetRules) and command.preset is not None
        seen.append(command.preset)
        preset(command.preset).check_playable()  # never one the engine refuses
        model.apply_lobby(LobbyState(0, "t", 0, preset(command.preset).to_dict(),
                                     model.lobby.seats if model.lobby else (), False,
                                     command.preset, 0, 0))
    assert {"official", "seed000", "seed003", "seed004", "party", "flip", "no_mercy"} <= set(seen)


def test_the_editor_lists_the_house_rules_and_the_variants_played() -> None:
    names = [info.name for info in editor_options()]
    for house in ("stacking", "deflect", "jump_in", "sequences", "multiples", "seven_zero",
                  "buzzers", "max_hand", "scoring", "teams", "variant"):
        assert house in names, house
    variant = next(info for info in editor_options() if info.name == "variant")
    assert step_option(variant, {}, 1, 4) == "flip"
    assert step_option(variant, {"variant": "flip"}, 1, 4) == "no_mercy"
    assert step_option(variant, {"variant": "no_mercy"}, 1, 4) == "classic"
    assert step_option(variant, {"variant": "flip"}, 1, 8) == "classic"  # No Mercy: 2-6
    # A change of variant puts back what either variant sets itself (SPEC.md [UNO-8-12]):
    # six colours give way to Flip's own, and No Mercy's always-on rules to classic's.
    assert step_option(variant, {"colors": 6}, 1, 4) == "flip"
    assert step_option(variant, {"colors": 6, "buzzers": True}, 1, 4) == "flip"
    no_mercy = preset("no_mercy").to_dict()
    assert step_option(variant, no_mercy, 1, 6) == "classic"
    assert options_over(no_mercy, {"variant": "classic"})["stacking"] == "off"
    assert options_over(no_mercy, {"variant": "classic", "stacking": "same_kind"})[
        "stacking"] == "same_kind"  # unless the change gives it
    assert options_over({"target": 200}, {"uno_penalty": 4}) == {"target": 200,
                                                                  "uno_penalty": 4}


def test_arrows_offer_no_value_the_variant_would_play_otherwise() -> None:
    """Found in tmux: No Mercy played seven_zero=false as true (it took its own value for an
    option left at the classic default). An option it fixes has no value to step to, and the
    host refuses such a change by name; one it only starts with steps as anywhere."""
    by_name = {info.name: info for info in editor_options()}
    no_mercy = preset("no_mercy").to_dict()
    assert step_option(by_name["draw_when_playable"], no_mercy, 1, 4) == "forbidden"
    assert step_option(by_name["seven_zero"], no_mercy, 1, 4) is False  # seed 003's option
    # ... and stacking there is escalating or off, never same kind only (seed 003)
    assert step_option(by_name["stacking"], no_mercy, 1, 4) == "off"
    assert step_option(by_name["stacking"], {**no_mercy, "stacking": "off"}, 1, 4) == "escalating"
    assert step_option(by_name["seven_zero"], {}, 1, 4) is True  # classic: off to on


def test_a_no_mercy_table_offers_the_rules_seed_003_keeps_as_options() -> None:
    """Seed 003's No Mercy "aggiunge un nuovo mazzo" and leaves its rules options: the owner of
    a No Mercy table sees each with Mattel's value and changes it like any other."""
    names = [info.name for info in editor_options()]
    model = owner_lobby(preset("no_mercy").to_dict(), seated=3, preset_name="no_mercy")
    for name, title, shown, sent in (
            ("stacking", "Stacking draw cards", "escalating", "off"),
            ("seven_zero", "Seven swaps, zero passes", "yes", False),
            ("draw_until_playable", "Draw until playable", "yes", False),
            ("max_hand", "Out at this many cards", "25 cards", 30)):
        model.option_cursor = names.index(name)
        line = next(line for line in screen(model, 100).split("\n") if f"> {title}" in line)
        assert line.split(title)[1].strip() == shown, line
        assert model.change_option(1) == SetRules({name: sent})


def test_arrows_skip_values_the_host_would_refuse_at_this_table() -> None:
    cursor = [info.name for info in editor_options()].index("teams")
    # Teams are pairs of partners: at two seats there is no value to step to.
    model = owner_lobby({}, seated=2)
    model.option_cursor = cursor
    assert model.change_option(1) is None
    assert not plays({"teams": "pairs"}, 2)
    model = owner_lobby({}, seated=4)
    model.option_cursor = cursor
    assert model.change_option(1) == SetRules({"teams": "pairs"})  # over the rules in force
    # ... and only when rounds are scored winner_collects.
    model = owner_lobby({"scoring": "lowest_wins"}, seated=4)
    model.option_cursor = cursor
    assert model.change_option(1) is None


def test_wide_ranges_step_in_useful_amounts_and_max_hand_penalty_reaches_the_hand() -> None:
    names = [info.name for info in editor_options()]
    model = owner_lobby({})
    model.option_cursor = names.index("target")
    assert model.change_option(1) == SetRules({"target": 550})
    model = owner_lobby({"max_hand_penalty": 0})
    model.option_cursor = names.index("max_hand_penalty")
    assert model.change_option(-1) == SetRules({"max_hand_penalty": "hand"})
    model = owner_lobby({"max_hand_penalty": "hand"})
    model.option_cursor = names.index("max_hand_penalty")
    assert model.change_option(1) == SetRules({"max_hand_penalty": 0})


def test_the_option_under_the_cursor_says_what_it_does_in_the_players_language() -> None:
    names = [info.name for info in editor_options()]
    for lang, words in (("en", "What it does:"), ("pt", "O que faz:"), ("it", "Cosa fa:")):
        model = owner_lobby({}, lang=lang)
        model.option_cursor = names.index("stacking")
        text = screen(model)
        assert words in text and "> " in text
        assert "+2" in text  # the meaning of stacking names the card


def test_a_meaning_cut_for_room_ends_in_an_ellipsis() -> None:
    """Found in tmux at 60 columns in Italian: "Colori"'s meaning stopped at "ognuno con la",
    mid-sentence, as if that were all. A cut meaning now ends in "…"; a whole one does not."""
    names = [info.name for info in editor_options()]
    for lang in ("en", "it", "pt"):
        for name in names:
            model = owner_lobby({}, lang=lang)
            model.option_cursor = names.index(name)
            for width in (60, 80, 120):
                meaning = "".join(fragment[1] for line in meaning_lines(model, width)
                                  for fragment in line)
                said = " ".join(meaning.split())
                whole = " ".join(model.tr("ui.meaning", text=option_meaning(
                    name, lang, "classic")).split())
                assert said == whole or (said.endswith("…")
                                         and whole.startswith(said[:-1].rstrip())), said
                assert len(meaning_lines(model, width)) <= 2


def test_a_guest_sees_every_rule_that_differs_from_the_official_ones() -> None:
    rules = preset("seed004", seven_zero=True, buzzers=True, stacking="escalating").to_dict()
    model = owner_lobby(rules, seated=10, lang="pt", preset_name="seed004", you=1)
    text = screen(model)
    differing = RuleSet(**rules).differences()
    assert len(differing) == 11
    for piece in ("Comprar com carta jogável: proibido", "Sequências: sim",
                  "Sete troca, zero passa: sim", "Cartas Buzzer: sim",
                  "Acumular cartas de compra: crescente", "Terminar com carta especial: não"):
        assert piece in text, piece
    assert "As regras oficiais." not in text


def test_a_guest_in_a_narrow_terminal_sees_every_value_whole() -> None:
    """Found in tmux at 60 columns in Portuguese: a guest's rules in two columns were cut at
    each column's edge, "Comprar com carta jogável: " without its "proibido". A title now
    gives way with "…"; the value stays whole."""
    rules = preset("seed004", seven_zero=True).to_dict()
    for lang in ("en", "it", "pt"):
        model = owner_lobby(rules, seated=4, lang=lang, preset_name="seed004", you=1)
        for width, height in ((60, 17), (60, 18), (80, 17)):
            text = "".join(fragment[1] for fragment in compose(model, width, height, True))
            for words in differences(rules, lang):
                title, _, value = words.rpartition(": ")
                shown = [line for line in text.split("\n")
                         if f": {value}" in line and title[:4] in line]
                assert shown, (lang, width, words, text)



def test_a_guest_who_cannot_see_every_rule_is_told_how_many_more() -> None:
    """Found in tmux: sixteen differing rules in a 60x17 window ran over the lobby's last
    lines, and the ones past the bottom were gone unsaid. The last cell now counts them."""
    rules = preset("seed004", seven_zero=True, stacking="escalating", buzzers=True,
                   uno_penalty=3, target=300, max_rounds=4, jump_in="identical",
                   think_time=20, hand_size=8).to_dict()
    model = owner_lobby(rules, seated=6, preset_name="seed004", you=1)
    everything = differences(rules, "en")
    for width, height in ((60, 17), (60, 20), (80, 23)):
        text = "".join(fragment[1] for fragment in compose(model, width, height, True))
        seen = [words for words in everything if f": {words.rpartition(': ')[2]}" in text
                and words[:4] in text]
        more = re.search(r"\+(\d+) more", text)
        hidden = int(more.group(1)) if more else 0
        assert len(seen) + hidden >= len(everything), (width, height, text)
        assert "Waiting for the owner to start." in text, (width, height, text)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_an_untouched_preset_is_not_said_to_be_changed(name: str) -> None:
    """Found in tmux: a No Mercy table nobody had changed read "Rules (no_mercy: UNO Show 'Em
    No Mercy, changed)": the options its variant sets counted as changes."""
    model = owner_lobby(preset(name).to_dict(), seated=2, preset_name=name, you=1)
    assert ", changed)" not in screen(model)
    model = owner_lobby({**preset(name).to_dict(), "target": 123}, seated=2, preset_name=name,
                        you=1)
    assert ", changed)" in screen(model)

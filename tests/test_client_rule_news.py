"""A rule change by the owner is said in every other player's chat, with what changed; a
player whom it made no longer ready hears that too. Found in tmux: the host changed a rule,
the friend's "ready" went away without a word, and the start was refused waiting on him."""

from __future__ import annotations

from dataclasses import replace

import pytest

from client.i18n import Translator
from client.link import LobbyChanged
from client.lobby import LobbyState, SeatInfo
from client.model import ClientModel
from client.rule_editor import editor_options
from client.rule_words import differences, rule_changes
from unonet.rules import RuleSet, preset


def lobby(you: int, rules: dict[str, object], *, fred_ready: bool) -> LobbyState:
    seats = (SeatInfo(0, "human", "Hana", False, True),
             SeatInfo(1, "human", "Fred", fred_ready, True),
             SeatInfo(2, "bot", "Ana", True, True))
    return LobbyState(0, "unonet", 0, rules, seats, False, preset="official", you=you)


def news(model: ClientModel) -> list[str]:
    return [line.text for line in model.chat]


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Hana changed the rules: Stacking draw cards: same kind · you are no longer "
           "ready: r when you agree"),
    ("it", "Hana ha cambiato le regole: "),
    ("pt", "Hana mudou as regras: "),
])
def test_a_guest_hears_what_changed_and_that_it_is_no_longer_ready(lang: str, said: str) -> None:
    model = ClientModel(Translator(lang), name="Fred")
    model.apply(LobbyChanged(lobby(1, {}, fred_ready=True)))
    assert news(model) == []
    model.apply(LobbyChanged(lobby(1, {"stacking": "same_kind"}, fred_ready=False)))
    assert len(news(model)) == 1 and news(model)[0].startswith(said)
    assert news(model)[0].endswith(Translator(lang)("news.ready_again"))


def test_a_guest_who_was_not_ready_hears_only_the_change() -> None:
    model = ClientModel(Translator("en"), name="Fred")
    model.apply(LobbyChanged(lobby(1, {}, fred_ready=False)))
    model.apply(LobbyChanged(lobby(1, {"target": 200}, fred_ready=False)))
    assert news(model) == ["Hana changed the rules: Target points: 200 points"]


def test_the_owner_is_not_told_of_its_own_changes_nor_anyone_of_no_change() -> None:
    owner = ClientModel(Translator("en"), name="Hana")
    owner.apply(LobbyChanged(lobby(0, {}, fred_ready=True)))
    owner.apply(LobbyChanged(lobby(0, {"stacking": "same_kind"}, fred_ready=False)))
    guest = ClientModel(Translator("en"), name="Fred")
    guest.apply(LobbyChanged(lobby(1, {}, fred_ready=False)))
    guest.apply(LobbyChanged(lobby(1, {}, fred_ready=True)))  # only a seat changed
    assert news(owner) == [] and news(guest) == []


def test_a_preset_is_said_as_a_count() -> None:
    no_mercy = preset("no_mercy").to_dict()
    model = ClientModel(Translator("en"), name="Fred")
    model.apply(LobbyChanged(lobby(1, {}, fred_ready=False)))
    model.apply(LobbyChanged(replace(lobby(1, no_mercy, fred_ready=False), preset="no_mercy")))
    count = len(rule_changes({}, no_mercy, "en"))
    assert count > 3
    assert news(model) == [f"Hana changed {count} rules (the table's rules are above)"]


def test_a_new_table_is_not_a_change() -> None:
    model = ClientModel(Translator("en"), name="Fred")
    model.apply(LobbyChanged(lobby(1, {}, fred_ready=False)))
    model.apply(LobbyChanged(replace(lobby(1, {"target": 200}, fred_ready=False), table=3)))
    assert news(model) == []


def test_changes_and_differences_agree() -> None:
    """A change from the official rules is the same words as the lobby's difference."""
    rules = RuleSet(target=200, stacking="same_kind").to_dict()
    assert rule_changes({}, rules, "en") == differences(rules, "en")
    assert rule_changes(rules, rules, "en") == []


def test_the_lobby_says_when_the_rules_are_no_longer_the_preset() -> None:
    from client.render import compose

    model = ClientModel(Translator("en"), name="Fred")
    model.apply(LobbyChanged(lobby(1, {}, fred_ready=False)))

    def screen() -> list[str]:
        text = "".join(fragment[1] for fragment in compose(model, 80, 23, plain=False))
        return [line.strip() for line in text.split("\n")]

    assert "Rules (official)" in screen()
    model.apply(LobbyChanged(lobby(1, {"target": 200}, fred_ready=False)))
    assert "Rules (official, changed)" in screen()
    model.apply(LobbyChanged(lobby(1, {}, fred_ready=False)))  # changed back
    assert "Rules (official)" in screen()


def test_the_owners_arrow_keys_make_one_line_not_one_each() -> None:
    """The owner steps a rule with the arrows: each step is a table_state. With nothing said
    in between, the guest's chat keeps one line that says where the rules ended up."""
    model = ClientModel(Translator("en"), name="Fred")
    model.apply(LobbyChanged(lobby(1, {}, fred_ready=True)))
    for target in (550, 600, 650):
        model.apply(LobbyChanged(lobby(1, {"target": target}, fred_ready=False)))
    assert news(model) == ["Hana changed the rules: Target points: 650 points · you are no "
                           "longer ready: r when you agree"]
    model.apply(LobbyChanged(lobby(1, {}, fred_ready=False)))  # and back to where it was
    assert news(model) == ["Hana put the rules back as they were · you are no longer ready: "
                           "r when you agree"]
    model.apply(LobbyChanged(lobby(1, {}, fred_ready=True)))  # Fred readies: no rule change
    model.apply(LobbyChanged(lobby(1, {"stacking": "same_kind"}, fred_ready=False)))
    assert news(model) == ["Hana changed the rules: Stacking draw cards: same kind · you are no "
                           "longer ready: r when you agree"]


def test_a_line_said_between_starts_a_new_rule_line() -> None:
    from client.link import ChatReceived

    model = ClientModel(Translator("en"), name="Fred")
    model.apply(LobbyChanged(lobby(1, {}, fred_ready=False)))
    model.apply(LobbyChanged(lobby(1, {"target": 200}, fred_ready=False)))
    model.apply(ChatReceived("Hana", "how about 300?", 0))
    model.apply(LobbyChanged(lobby(1, {"target": 300}, fred_ready=False)))
    assert news(model) == ["Hana changed the rules: Target points: 200 points",
                           "how about 300?",
                           "Hana changed the rules: Target points: 300 points"]


def test_the_owner_hears_what_a_change_of_variant_changed_besides() -> None:
    """A variant puts back what it plays itself (SPEC.md [UNO-8-12]): the owner's editor shows
    the variant while the colours and the Buzzers change out of sight, so the owner's chat says
    them."""
    classic: dict[str, object] = {"colors": 6, "buzzers": True}
    owner = ClientModel(Translator("en"), name="Hana")
    owner.apply(LobbyChanged(lobby(0, classic, fred_ready=True)))
    owner.option_cursor = [info.name for info in editor_options()].index("variant")
    command = owner.change_option(1)
    assert command is not None
    after = RuleSet(colors=6, buzzers=True).with_options({"variant": "flip"}).to_dict()
    assert (after["colors"], after["buzzers"]) == (4, False)  # as the host plays it
    owner.apply(LobbyChanged(lobby(0, after, fred_ready=False)))
    (line,) = news(owner)
    assert line == "With Game: UNO Flip, also Colours: 4 colours; Buzzer cards: no"
    owner.apply(LobbyChanged(lobby(0, {**after, "target": 200}, fred_ready=False)))
    assert len(news(owner)) == 1  # a change the owner made elsewhere (a second client) is not


def test_the_owner_hears_nothing_of_a_change_that_changed_only_what_was_asked() -> None:
    owner = ClientModel(Translator("en"), name="Hana")
    owner.apply(LobbyChanged(lobby(0, {}, fred_ready=True)))
    owner.option_cursor = [info.name for info in editor_options()].index("target")
    assert owner.change_option(1) is not None
    owner.apply(LobbyChanged(lobby(0, {"target": 550}, fred_ready=False)))
    assert news(owner) == []

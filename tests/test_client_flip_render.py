"""The terminal client shows UNO Flip: the side in play, every card read on it, the other side of
every hand and of the draw pile's top as everybody sees them, the table turning over, the Wild
Draw Color's decision; at 80x24, 60x20 and with ten players, in colour and without (NO_COLOR)."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable
from dataclasses import replace

import pytest
from client_table import LocalTable, face_of
from prompt_toolkit.output.vt100 import _256ColorCache
from prompt_toolkit.utils import get_cwidth

from client.draw_log import DrawRuns
from client.i18n import Translator
from client.model import ChallengePrompt, ClientModel, shown_order
from client.render import (
    COLOR_KEYS,
    STYLE,
    Look,
    card_code,
    color_keys,
    compose,
    help_keys,
    other_side_row,
)
from unonet import events as ev
from unonet.actions import Accept, Challenge
from unonet.bots import NormalBot
from unonet.bots.base import Bot
from unonet.cards import ALL_COLORS, EXTRA_COLORS, Color, Face, Kind
from unonet.flip_deck import DARK, LIGHT, round_manifest
from unonet.match import Match
from unonet.narrate import narrate
from unonet.rules import RuleSet

FLIP_RULES = RuleSet(variant="flip")

NAMES = ["Me", "Bruno", "Chiara", "Davi", "Eva", "Fabio", "Gina", "Hugo", "Ines", "Joao"]


def flip_table(seats: int = 4, side: int = DARK, lang: str = "en") -> ClientModel:
    """A Flip match at a LocalTable (its fold checked against the engine after every batch),
    played by bots for us too until it is our turn on `side`."""
    def ours(model: ClientModel) -> bool:
        view = model.view
        assert view is not None
        return (view.side == side and model.my_turn and view.round_no >= 1
                and model.prompt is None)

    return play_until(ours, seats, lang)[0]


def play_until(done: Callable[[ClientModel], bool], seats: int = 4, lang: str = "en",
               seed: bytes = b"client-flip-render") -> tuple[ClientModel, LocalTable]:
    """A Flip match at a LocalTable, bots playing for us too, until `done(model)`."""
    match = Match(FLIP_RULES, seats, seed)
    model = ClientModel(Translator(lang), name="Me")
    bots: dict[int, Bot] = {s: NormalBot(s, match.rules, match.manifest, seed=s)
                            for s in range(1, seats)}
    table = LocalTable(match, 0, bots, NAMES[:seats], model=model)
    table.start(model.apply)
    me = NormalBot(0, match.rules, match.manifest, seed=99)
    for _ in range(20_000):
        view = model.view
        assert view is not None
        if done(model):
            assert not table.mismatches, table.mismatches
            return model, table
        if model.legal:
            table.send_intent(me.act(view, model.legal))
            continue
        command = model.ready_next_round()
        assert command is not None, "stuck"
        table.send_lobby(command)
    raise AssertionError("never came to pass")


def screen(model: ClientModel, width: int, height: int, plain: bool) -> list[str]:
    text = "".join(fragment[1] for fragment in compose(model, width, height - 1, plain))
    lines = text.split("\n")
    assert len(lines) == height - 1
    assert all(get_cwidth(line) <= width for line in lines), lines
    return lines


def styles(model: ClientModel, width: int = 80, height: int = 24) -> set[str]:
    return {fragment[0] for fragment in compose(model, width, height - 1, False)}


def row_codes(model: ClientModel, seat: int) -> str:
    """A seat's other-side row as the plain screen writes it whole."""
    view = model.view
    assert view is not None
    faces = sorted(view.seats[seat].other_sides, key=shown_order)
    return " ".join(card_code(face) for face in faces)


@pytest.mark.parametrize("side", [LIGHT, DARK])
@pytest.mark.parametrize(("width", "height"), [(80, 24), (60, 20)])
def test_each_players_other_side_and_the_piles_are_on_the_screen(
    side: int, width: int, height: int
) -> None:
    model = flip_table(side=side)
    view = model.view
    assert view is not None and view.side == side
    lines = screen(model, width, height, plain=True)
    title = lines[0]
    assert ("Dark side" if side == DARK else "Light side") in title
    table = "\n".join(lines[1:5])
    for seat in range(4):
        if seat == view.seat:  # our own cards' other side faces away from us: never shown
            assert not view.seats[seat].other_sides
            continue
        row = row_codes(model, seat)
        assert view.seats[seat].other_sides, "every other hand has an other side"
        # whole, or cut with the count of the rest
        assert row in lines[1 + seat] or "+" in lines[1 + seat].split()[-1], (row, table)
    centre = lines[5]
    assert view.top_card is not None and view.pile_other_side is not None
    assert f"[{card_code(face_of(model, view.top_card))}]" in centre
    assert f"[{card_code(view.pile_other_side)}]" in centre
    assert "next:" in centre  # who plays next is never cut
    # our hand is read on the side in play
    hand = [card_code(face_of(model, card)) for card in model.hand]
    assert all(face_of(model, card).color in (ALL_COLORS[4:] if side else ALL_COLORS[:4])
               or face_of(model, card).is_wild for card in model.hand)
    assert all(f"[{code}]" in "\n".join(lines) for code in hand[:8])


def test_at_80x24_every_row_is_whole_and_in_colour_the_dark_side_has_its_styles() -> None:
    model = flip_table(side=DARK)
    lines = screen(model, 80, 24, plain=True)
    for seat in range(4):
        assert row_codes(model, seat) in lines[1 + seat]
    used = styles(model)
    assert "class:title.dark" in used
    dark = {f"class:card.{color.value}" for color in EXTRA_COLORS}
    assert used & dark, "dark cards on their own chips"
    light = flip_table(side=LIGHT)
    assert "class:title.light" in styles(light)


def test_ten_players_at_80x24_each_have_a_line_with_their_other_side() -> None:
    model = flip_table(seats=10, side=DARK)
    lines = screen(model, 80, 24, plain=True)
    for seat in range(10):
        assert NAMES[seat] in lines[1 + seat]
        assert row_codes(model, seat) in lines[1 + seat]
    assert "Log" in "\n".join(lines)


def test_ten_players_at_60x20_fit_and_a_row_that_does_not_is_counted() -> None:
    model = flip_table(seats=10, side=DARK)
    lines = screen(model, 60, 20, plain=True)
    view = model.view
    assert view is not None
    for seat in range(10):
        cell = next(line for line in lines[1:6] if NAMES[seat][:4] in line)
        assert NAMES[seat][:4] in cell
    assert "Your hand" in "\n".join(lines)


@pytest.mark.parametrize(("width", "height"), [(60, 18), (80, 24)])
def test_ten_players_keep_their_names_and_o_shows_every_other_side(
    width: int, height: int
) -> None:
    """Found in tmux at 60x18 with ten players: the other-side rows vanished (no face fits
    beside a player in two columns) and the names were cut to four letters for the room of
    rows that were never shown. The names are whole, and `o` shows every other player's
    other side, whole, on a page of its own; never ours."""
    model = flip_table(seats=10, side=DARK)
    view = model.view
    assert view is not None
    table = "\n".join(screen(model, width, height, plain=True)[1:11])
    for seat in range(1, 10):
        assert re.search(rf"\b{NAMES[seat]}\b", table), (NAMES[seat], table)
    assert "o: the other side of every player's cards" in " ".join(help_keys_text(model))
    model.toggle_sides()
    lines = screen(model, width, height, plain=True)
    page = "\n".join(lines)
    assert "o or Esc: back to the table" in lines[-1]
    for seat in range(1, 10):
        line = next(line for line in lines if line.startswith(f"  {NAMES[seat]} "))
        faces = line.split(maxsplit=1)[1].strip()
        assert faces == row_codes(model, seat), (faces, row_codes(model, seat))
    assert "  Me " not in page  # our own cards' other side faces away from us
    model.toggle_sides()
    assert "Your hand" in "\n".join(screen(model, width, height, plain=True))


def help_keys_text(model: ClientModel) -> list[str]:
    return [model.tr(key) for key in help_keys(model, plain=True)]


def test_a_long_row_ends_in_the_count_of_the_faces_left_out() -> None:
    model = flip_table(side=DARK)
    tracker = model.tracker
    assert tracker is not None
    many = tuple(Face(Kind.NUMBER, Color.RED, n % 9 + 1, n % 9 + 1) for n in range(30))
    seats = list(tracker.view.seats)
    seats[2] = replace(seats[2], cards=30, other_sides=many)
    tracker.view = replace(tracker.view, seats=tuple(seats))
    for width, height, plain in ((80, 24, True), (60, 20, True), (80, 24, False)):
        line = screen(model, width, height, plain)[3]
        shown = sum(1 for word in line.split() if word.startswith("R") and word[1:].isdigit())
        if not plain:  # in colour the codes lose their letter: count the digits after the name
            shown = sum(1 for word in line.split()[4:] if word.isdigit())
        counted = re.search(r" (\d+) more\s*$", line)  # a word says what it counts: no "+N"
        assert counted is not None, line
        more = int(counted.group(1))
        if not plain:
            shown -= 1  # the count's own digits
        assert shown >= 1 and shown + more == 30, (line, shown, more)


def test_a_row_with_room_for_no_face_shows_no_count_alone() -> None:
    """Found at 72 columns in Italian: each of five rows ended "altre 6" beside "6 carte",
    no face shown: a count alone says what the hand's count says. Such a row is left out;
    with room for one face, the face and the count of the rest."""
    model = flip_table(seats=5, side=DARK)
    view = model.view
    assert view is not None
    for plain in (True, False):
        look = Look(plain)
        faces = len(view.seats[1].other_sides)
        assert faces > 2
        assert other_side_row(model, 1, 7, look) == []  # "6 more" would fit, no face with it
        for width in range(10, 40):
            row = "".join(fragment[1] for fragment in other_side_row(model, 1, width, look))
            assert row == "" or "more" not in row or len(row.split()) >= 3, (width, row)
        widest = "".join(f[1] for f in other_side_row(model, 1, 40, look))
        assert widest and "more" not in widest, widest



def test_a_flip_is_a_notice_and_a_log_line() -> None:
    model = flip_table(side=LIGHT)
    view = model.view
    assert view is not None and view.top_card is not None
    model.apply_event(ev.Flipped(1, DARK, view.top_card), model.legal)
    face = model.face(view.top_card, DARK)
    said = f"Bruno flipped the table: dark side up, {Translator('en').card(face)} on top."
    assert model.notice == said
    assert model.log[-1].startswith("Bruno flips the table: the dark side is in play")
    lines = screen(model, 80, 24, plain=True)
    assert said in "\n".join(lines)
    assert "Dark side" in lines[0]


def test_the_wild_draw_color_decision_says_until_which_colour() -> None:
    model = flip_table(side=DARK)
    model.apply_event(ev.DecisionPending(0, "challenge", 0, Color.PINK), [Challenge(), Accept()])
    prompt = model.prompt
    assert isinstance(prompt, ChallengePrompt) and prompt.until is Color.PINK
    text = " ".join(" ".join(screen(model, 80, 24, plain=True)).split())  # wrapped lines
    assert "Space draws until a card is pink" in text
    it = flip_table(side=DARK, lang="it")
    it.apply_event(ev.DecisionPending(0, "challenge", 0, Color.PINK), [Challenge(), Accept()])
    assert "finché non esce una carta rosa" in " ".join(" ".join(screen(it, 80, 24, True)).split())


def test_without_colour_the_eight_colours_have_eight_letters_and_help_names_them() -> None:
    for lang in ("en", "it", "pt"):
        letters = {card_code(Face(Kind.NUMBER, color, 5, 5), color_keys(lang))[0]
                   for color in ALL_COLORS}
        assert len(letters) == 8, lang
    model = flip_table(side=DARK)
    keys = help_keys(model, plain=True)
    assert {"help.codes_dark", "help.flip", "help.challenge_flip"} <= set(keys)
    assert "help.challenge" not in keys
    assert all(letter.upper() in model.tr("help.codes_dark")
               for letter in (COLOR_KEYS[color] for color in EXTRA_COLORS))


def test_the_eight_card_colours_stay_apart_in_256_colours() -> None:
    """A 256-colour terminal maps each style colour to its nearest palette entry: the four
    dark colours must not land on a light one, nor on each other (chips and words both)."""
    cache = _256ColorCache()
    for prefix, attr in (("card.", "bgcolor"), ("fg.", "color")):
        indexes = set()
        for color in ALL_COLORS:
            value = getattr(STYLE.get_attrs_for_style_str(f"class:{prefix}{color.value}"), attr)
            rgb = int(value[:2], 16), int(value[2:4], 16), int(value[4:], 16)
            indexes.add(cache[rgb])
        assert len(indexes) == 8, (prefix, indexes)


def test_a_run_of_single_draws_is_one_line() -> None:
    manifest = Match(FLIP_RULES, 2, b"draw-run").manifest  # light faces only
    paired = round_manifest(b"draw-run")  # a round's secret pairing
    names = ("Ana", "Bruno")
    log: deque[str] = deque(maxlen=50)
    runs = DrawRuns()
    told: dict[int, Face] = {}

    def say(event: ev.Event) -> str | None:
        return narrate(event, names, manifest, 1, "en", DARK, told)

    cards = [next(c.id for c in paired if c.faces[DARK].name == name)
             for name in ("orange 3", "purple 5", "pink 7")]
    for n, card in enumerate(cards):
        runs.tell(log, ev.CardsDrawn(1, ((0, n),), "wild_draw_color"), say)
        runs.tell(log, ev.TurnStarted(0, 1), say)  # silent: the run goes on
        told[card] = paired.face(card, DARK)  # DarkFacesShown to Bruno, just before
        runs.tell(log, ev.DarkFacesShown(1, (card,), (told[card],)), say)  # silent too
        runs.tell(log, ev.CardsReceived(1, ((0, n),), (card,)), say)
    assert list(log) == ["Bruno draws 3 (Wild Draw Color).",
                         "You got: orange 3, purple 5, pink 7."]
    runs.tell(log, ev.Passed(0), say)
    runs.tell(log, ev.CardsDrawn(1, ((0, 9),), "wild_draw_color"), say)
    assert list(log)[-2:] == ["Ana passes.", "Bruno draws 1 (Wild Draw Color)."]
    runs.tell(log, ev.CardsDrawn(0, ((0, 10),), "wild_draw_color"), say)  # another seat
    assert list(log)[-1] == "Ana draws 1 (Wild Draw Color)."


def test_the_look_draws_dark_wilds_in_the_dark_colours() -> None:
    from client.render import card_chip

    wild = Face(Kind.WILD_DRAW_COLOR, None, None, 60)
    dark = {f[0] for f in card_chip(wild, Look(plain=False, side=DARK), in_hand=False)}
    light = {f[0] for f in card_chip(wild, Look(plain=False, side=LIGHT), in_hand=False)}
    assert any("fg.pink" in style for style in dark)
    assert not any("fg.pink" in style for style in light)


def test_our_dark_cards_are_those_we_were_told_and_the_manifest_names_light_faces_only() -> None:
    """The manifest names each card's light face only; on the dark side our hand and the top
    card are read from the dark faces told to us this round, and they are the round's own."""
    model = flip_table(side=DARK)
    view = model.view
    assert view is not None and model.manifest is not None and model.flip
    assert all(len(card.faces) == 1 for card in model.manifest)
    told = dict(view.dark_faces)
    assert view.top_card is not None and view.top_card in told
    assert set(view.hand) <= set(told)
    for card in (*view.hand, view.top_card):
        assert model.face(card) == told[card]
        assert model.face(card, LIGHT) == model.manifest.face(card)
    lines = screen(model, 80, 24, plain=True)
    assert all(f"[{card_code(told[card])}]" in "\n".join(lines) for card in model.hand[:8])


def test_a_round_ended_on_the_dark_side_shows_every_hand_by_its_dark_faces() -> None:
    """A round ends on the dark side: every hand left is told (DarkFacesShown to everybody) and
    the scores screen shows each by those faces, which are the round's pairing; the next deal
    pairs afresh, and the screen of that round's end does not change."""
    def ended_dark(model: ClientModel) -> bool:
        return bool(model.results) and model.results[-1].side == DARK and model.reading_scores

    model, table = play_until(ended_dark)
    result = model.results[-1]
    rnd = table.match.round
    assert rnd is not None
    hands = [hand for hand in result.hands if hand]
    assert hands, "somebody held cards"
    for hand, faces in zip(result.hands, result.faces, strict=True):
        assert list(faces) == [rnd.manifest.face(card, DARK) for card in hand]
    text = "\n".join(screen(model, 80, 24, plain=True))
    codes = [card_code(face) for faces in result.faces for face in faces if face is not None]
    assert codes and all(f"[{code}]" in text for code in codes[:6]), text
    command = model.ready_next_round()
    assert command is not None
    table.send_lobby(command)  # the next round deals: its dark faces are new, not yet told
    view = model.view
    assert view is not None and view.round_no == result.round_no + 1
    assert not set(dict(view.dark_faces)) & {c for hand in result.hands for c in hand
                                               if c not in view.hand}
    assert model.results[-1].faces == result.faces  # read at the round's end, kept


def test_a_dark_card_nobody_told_us_is_a_question_mark_not_a_crash() -> None:
    """A host that plays a card on the dark side without telling its dark face (SPEC 9.2 broken;
    the trust gate names it): the top card is drawn as [?] and the log says "?"."""
    model = flip_table(side=DARK)
    view = model.view
    assert view is not None
    untold = next(card for card in range(len(model.manifest or ()))
                  if card not in dict(view.dark_faces))
    model.apply_event(ev.CardPlayed(1, untold, (0, 3), None, False), model.legal)
    assert model.face(untold) is None
    lines = screen(model, 80, 24, plain=True)
    assert "Top: [?]" in lines[5]
    assert model.log[-1] == "Bruno plays ?."
    assert any(fragment[1].strip() == "?" for fragment in compose(model, 80, 23, False))

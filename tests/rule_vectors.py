"""The runner of the rule vectors (protocol/vectors/rules_*.json, SPEC.md section 16.1).

A rule vector is a scenario written from a rule text: rules, seats, a stacked deck, the actions
taken, and the events and refusals that must follow. This runner plays one against our engine
through its public API (Match, the wire codec) exactly as SPEC.md 16.1 tells another
implementation to, and raises VectorFailed naming the vector, the step and what differed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from protocol.game_codec import decode_action, encode_action, encode_value, wire_name
from unonet.actions import HOST, Expire, Penalize, StartRound
from unonet.cards import DeckManifest, Face
from unonet.errors import EngineError, RulesError
from unonet.flip_deck import dark_faces, light_faces, pair_faces
from unonet.match import Match
from unonet.rules import RuleSet, preset

VECTORS = Path(__file__).resolve().parent.parent / "protocol" / "vectors"
SEED = b"rule-vectors"
"""The match seed: it keys the shuffles a vector does not stack (a reshuffle's new order)."""


class VectorFailed(AssertionError):
    """The engine did not do what a vector says."""


def load_all() -> list[dict[str, Any]]:
    """Every vector of every rules_*.json file, each with its file's name under `file`."""
    out = []
    for path in sorted(VECTORS.glob("rules_*.json")):
        for vector in json.loads(path.read_text("utf-8"))["vectors"]:
            out.append({**vector, "file": path.name})
    return out


# -- cards ---------------------------------------------------------------------------------------


def face_name(face: Face) -> str:
    """A face as a vector's `cards` legend writes it: `red 5`, `red skip`, `wild_draw_four`."""
    body = str(face.number) if face.number is not None else face.kind.value
    return f"{face.color.value} {body}" if face.color is not None else body


def _flip_deck(cards: Mapping[str, str]) -> DeckManifest:
    """A Flip vector's pairing: each card named in `cards` as `light / dark` has that dark face;
    every other card takes the dark faces left, in section 10's order, by ascending id."""
    by_name = {face_name(face): face for face in dark_faces()}
    chosen: dict[int, Face] = {}
    for key, name in cards.items():
        _, sep, dark = name.partition(" / ")
        if not sep:
            continue
        if dark not in by_name:
            raise VectorFailed(f"{name!r}: {dark!r} is not a dark face of UNO Flip")
        chosen[int(key)] = by_name[dark]
    left = list(dark_faces())
    for face in chosen.values():
        left.remove(face)
    pairs = []
    for card, light in enumerate(light_faces()):
        pairs.append((light, chosen[card] if card in chosen else left.pop(0)))
    return pair_faces(pairs)


def _card_name(manifest: DeckManifest, card: int, label: str) -> str:
    """The card as the legend writes it: its faces, or only its first face when the legend
    names only that (a Flip card whose dark face the vector leaves to the default pairing)."""
    faces = manifest.cards[card].faces
    return " / ".join(face_name(face) for face in faces[: 1 if " / " not in label else None])


def deal_order(deal: Mapping[str, Any], seats: int, dealer: int, size: int,
               in_match: Sequence[int], deck_size: int) -> list[int]:
    """The epoch-0 pile of one round, position order (SPEC.md 11.3, [UNO-11-7]): `deck` as
    given, or the positions the deal rule gives each hand, then `turned`, then `draws`; every
    card not named follows in ascending id order, and `bottom` ends the pile (its first card
    last: the first drawn once a Flip has turned the pile over)."""
    if "deck" in deal:
        named = list(deal["deck"])
    else:
        hands = deal["hands"]
        if len(hands) != seats:
            raise VectorFailed(f"`hands` has {len(hands)} hands for {seats} seats")
        order = sorted(in_match, key=lambda s: (s - dealer - 1) % seats)
        for seat in range(seats):
            want = size if seat in order else 0  # a seat out of the match is dealt nothing
            if len(hands[seat]) != want:
                raise VectorFailed(f"seat {seat} is dealt {len(hands[seat])} cards, not {want}")
        named = [hands[order[k % len(order)]][k // len(order)] for k in range(size * len(order))]
        named += list(deal.get("turned", ())) + list(deal.get("draws", ()))
    bottom = list(reversed(deal.get("bottom", ())))  # its first card lies at the very bottom
    every = named + bottom
    if len(set(every)) != len(every) or not all(0 <= c < deck_size for c in every):
        raise VectorFailed(f"the deal names a card twice or a card not in the deck: {every}")
    return named + [c for c in range(deck_size) if c not in set(every)] + bottom


# -- the runner ------------------------------------------------------------------------------------


def rules_of(vector: Mapping[str, Any]) -> RuleSet:
    """The preset (default `official`) with the vector's options over it."""
    return preset(vector.get("preset", "official"), **vector.get("options", {}))


def run(vector: Mapping[str, Any]) -> None:
    """Play `vector` against the engine; raise VectorFailed at the first difference."""
    name = vector["name"]
    try:
        rules = rules_of(vector)
        rules.check_table(vector["seats"])
    except RulesError as exc:
        want = vector.get("refused")
        if want is None:
            raise VectorFailed(f"{name}: the rules were refused: {exc}") from None
        if (exc.code.value, exc.option) != (want["code"], want["option"]):
            raise VectorFailed(f"{name}: refused {exc.code.value} on {exc.option!r}, the "
                               f"vector says {want['code']} on {want['option']!r}") from None
        return
    if "refused" in vector:
        raise VectorFailed(f"{name}: the rules were accepted, the vector says they are refused")
    deck = _flip_deck(vector["cards"]) if rules.variant == "flip" else None
    manifest = rules.manifest()
    for key, label in vector["cards"].items():
        shown = _card_name(deck if deck is not None else manifest, int(key), label)
        if shown != label:
            raise VectorFailed(f"{name}: card {key} is {shown!r}, the legend says {label!r}")
    match = Match(rules, vector["seats"], SEED, first_dealer=vector["dealer"], deck=deck)
    deals = list(vector["deals"])
    for number, step in enumerate(vector["steps"], 1):
        where = f"{name}, step {number}"
        if step.get("start") and deals:  # no deal left: a start the engine must refuse
            dealer = vector["dealer"] if match.dealer is None else _next_dealer(match)
            in_match = [s for s in range(match.seats) if s not in match.eliminated]
            order = deal_order(deals.pop(0), match.seats, dealer, rules.hand_size, in_match,
                               len(manifest))
            # Match takes round k's deck as stacked_decks[k - 1]: this is round_no + 1's.
            match.stacked_decks[match.round_no:] = [order]
        _step(match, step, where)


def _next_dealer(match: Match) -> int:
    """The deal passes to the next seat still in the match (RULEBOOK.md 1.1, 6.12)."""
    assert match.dealer is not None
    dealer = (match.dealer + 1) % match.seats
    while dealer in match.eliminated:
        dealer = (dealer + 1) % match.seats
    return dealer


def _step(match: Match, step: Mapping[str, Any], where: str) -> None:
    seat, action = _action(step, where)
    before = match.state()
    try:
        events = match.apply(seat, action)
    except EngineError as exc:
        if step.get("refused") != exc.code.value:
            raise VectorFailed(f"{where}: refused with {exc.code.value} ({exc.message}); the "
                               f"vector says {step.get('refused') or 'accepted'}") from None
        if match.state() != before:
            raise VectorFailed(f"{where}: a refusal changed the state") from None
        events = []
    else:
        if "refused" in step:
            raise VectorFailed(f"{where}: accepted; the vector says refused with "
                               f"{step['refused']}")
    wire = [plain_event(event) for event in events]
    _match_events(wire, step.get("events", []), where)
    for pattern in step.get("absent", []):
        pattern = {"type": pattern} if isinstance(pattern, str) else pattern
        if any(agrees(event, pattern) for event in wire):
            raise VectorFailed(f"{where}: an event {json.dumps(pattern)} came, the vector says "
                               f"none\n{_show(wire)}")
    if "view" in step:
        _check_view(match, step["view"], where)
    if "legal" in step:
        _check_legal(match, step["legal"], where)


def plain_event(event: Any) -> dict[str, Any]:
    """An event as its wire map with every field, a `?` field an older host may leave out
    given its default (SPEC.md 9.2), and the proof fields left out."""
    return {"type": wire_name(type(event)), **encode_value(event)}


def _action(step: Mapping[str, Any], where: str) -> tuple[int, Any]:
    if step.get("start"):
        return HOST, StartRound()
    if "host" in step:
        host = step["host"]
        if host == "expire":
            return HOST, Expire()
        if host == "penalize":
            return HOST, Penalize(step["target"], step.get("count", 2))
        raise VectorFailed(f"{where}: unknown host action {host!r}")
    if "seat" in step and "action" in step:
        return step["seat"], decode_action(step["action"])
    raise VectorFailed(f"{where}: a step needs `start`, `host`, or `seat` and `action`")


def agrees(actual: Any, expected: Any) -> bool:
    """A vector's value matches: a map matches a map holding at least its keys, each agreeing;
    a list a list of the same length, item by item; anything else by equality."""
    if isinstance(expected, Mapping):
        return isinstance(actual, Mapping) and all(
            key in actual and agrees(actual[key], value) for key, value in expected.items())
    if isinstance(expected, list):
        return (isinstance(actual, list) and len(actual) == len(expected)
                and all(agrees(a, e) for a, e in zip(actual, expected, strict=True)))
    return bool(actual == expected) and isinstance(actual, bool) == isinstance(expected, bool)


def _match_events(actual: list[dict[str, Any]], expected: Sequence[Mapping[str, Any]],
                  where: str) -> None:
    """Each expected event, in order, is an actual event after the one the previous matched,
    of its type, with every field it lists equal."""
    at = 0
    for index, want in enumerate(expected):
        while at < len(actual) and not agrees(actual[at], want):
            at += 1
        if at == len(actual):
            raise VectorFailed(f"{where}: expected event {index + 1} {json.dumps(want)} not "
                               f"found in order among\n{_show(actual)}")
        at += 1


def _check_view(match: Match, want: Mapping[str, Any], where: str) -> None:
    view = encode_value(match.view(want.get("seat")))  # every field, defaults included
    for key, value in want.items():
        if key == "seat":
            continue
        got = view.get(key)
        if key == "hand":  # how a hand is held is not shown: compared as a multiset
            got, value = sorted(got or []), sorted(value)
        if not agrees(got, value):
            raise VectorFailed(f"{where}: view {key} is {got!r}, the vector says {value!r}")


def _check_legal(match: Match, want: Mapping[str, Any], where: str) -> None:
    legal = [encode_action(a) for a in match.legal_actions(want["seat"])]
    for action in want.get("includes", []):
        if encode_action(decode_action(action)) not in legal:
            raise VectorFailed(f"{where}: {json.dumps(action)} is not legal for seat "
                               f"{want['seat']}:\n{_show(legal)}")
    for action in want.get("excludes", []):
        if encode_action(decode_action(action)) in legal:
            raise VectorFailed(f"{where}: {json.dumps(action)} is legal for seat "
                               f"{want['seat']}, the vector says not")


def _show(items: Sequence[Mapping[str, Any]]) -> str:
    return "\n".join("  " + json.dumps(item) for item in items) or "  (none)"

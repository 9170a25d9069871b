"""Wire maps from the host -> the client's values, and lobby commands -> request fields.

The host is untrusted (SPEC.md UNO-2-1): the catalogue has already checked each message's own
fields, but a snapshot's `view` and a manifest's faces are checked here, and anything that does
not fit raises `WireError` instead of a KeyError deep in the screen code. Unknown keys are
ignored (UNO-6-14, UNO-9-1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from client.link import SeatNews
from client.lobby import (
    AddBot,
    CreateTable,
    JoinTable,
    Kick,
    Leave,
    ListTables,
    LobbyCommand,
    LobbyState,
    Penalize,
    RemoveBot,
    SeatInfo,
    SetReady,
    SetRules,
    Spectate,
    StartMatch,
    TableInfo,
)
from protocol.errors import ProtocolError
from protocol.game_codec import decode_view
from unonet.cards import Color, DeckManifest, Face, Kind, build_manifest
from unonet.rules import OPTIONS, RulesError, RuleSet
from unonet.view import View


class WireError(ValueError):
    """A host message whose content cannot be what it claims to be."""


# -- small typed readers -----------------------------------------------------------------------


def _map(data: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise WireError(f"{what}: expected a map")
    return data


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise WireError(f"{key}: expected an int")
    return value


def _opt_int(data: Mapping[str, Any], key: str) -> int | None:
    return None if data.get(key) is None else _int(data, key)


def _bool(data: Mapping[str, Any], key: str) -> bool:
    value = data.get(key)
    if not isinstance(value, bool):
        raise WireError(f"{key}: expected a bool")
    return value


def _flag(data: Mapping[str, Any], key: str) -> bool:
    """An optional bool: absent (an older host's message) is False."""
    return key in data and _bool(data, key)


def _str(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise WireError(f"{key}: expected a str")
    return value


def _opt_str(data: Mapping[str, Any], key: str) -> str | None:
    return None if data.get(key) is None else _str(data, key)


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list | tuple):
        raise WireError(f"{key}: expected an array")
    return list(value)


def _color(value: Any) -> Color | None:
    if value is None:
        return None
    try:
        return Color(value)
    except ValueError:
        raise WireError(f"unknown colour {value!r}") from None


# -- game values -----------------------------------------------------------------------------


def view_from_wire(raw: Any) -> View:
    """The engine's View from `snapshot.view` (SPEC.md 9.1), read by the protocol's view
    catalogue (phases as Phase values, the house-rule fields included)."""
    try:
        return decode_view(raw)
    except ProtocolError as exc:
        raise WireError(str(exc)) from None


def manifest_from_wire(message: Mapping[str, Any]) -> DeckManifest:
    """The deck from a `manifest` message (faces per card id, SPEC.md 10)."""
    sides = []
    for card in _list(message, "cards"):
        if not isinstance(card, list | tuple) or not card:
            raise WireError("manifest: a card is a non-empty array of faces")
        faces = []
        for raw in card:
            face = _map(raw, "face")
            try:
                kind = Kind(_str(face, "kind"))
            except ValueError:
                raise WireError(f"unknown card kind {face.get('kind')!r}") from None
            faces.append(Face(kind, _color(face.get("color")), _opt_int(face, "number"),
                              _int(face, "points")))
        sides.append(faces)
    return build_manifest(_str(message, "name"), sides)


# -- lobby values ----------------------------------------------------------------------------


def lobby_from_wire(message: Mapping[str, Any]) -> LobbyState:
    """A `table_state` message as the screen's LobbyState."""
    seats = tuple(
        SeatInfo(_int(s, "seat"), _str(s, "kind"), _opt_str(s, "name"), _bool(s, "ready"),
                 _bool(s, "connected"), _flag(s, "taken_over"))
        for s in (_map(item, "seat") for item in _list(message, "seats"))
    )
    return LobbyState(
        table=_int(message, "table"),
        name=_str(message, "name"),
        owner=_opt_int(message, "owner"),
        rules=_rules(message.get("rules")),
        seats=seats,
        started=_bool(message, "started"),
        preset=_opt_str(message, "preset"),
        spectators=_int(message, "spectators"),
        you=_opt_int(message, "you"),
    )


def _rules(value: Any) -> dict[str, Any]:
    """A table's rule options as this engine knows them: an option it does not know (a newer
    host's) is left out, as [UNO-6-14] has unknown keys ignored; a known one whose value the
    rules refuse makes the message unusable (the screen words every value it shows, and a
    list or map there broke the words, not only the meaning)."""
    known = {name: option for name, option in _map(value, "rules").items() if name in OPTIONS}
    try:
        RuleSet(**known)
    except (RulesError, TypeError) as exc:
        raise WireError(f"rules: {exc}") from None
    return known


SEAT_NEWS = {"joined": "took_seat", "took_over": "took_over", "moved": "moved",
             "renamed": "renamed", "left": "left", "dropped": "dropped", "back": "back",
             "stand_in": "stand_in"}
"""Each `seat_news.what` of SPEC.md [UNO-8-17] -> the SeatNews the screen words ("left"
with `bot` is "left_bot")."""


def seat_news_from_wire(message: Mapping[str, Any]) -> SeatNews | None:
    """A `seat_news` message as the chat's SeatNews; None for a `what` this client does not
    know (a newer host's: ignored, SPEC.md [UNO-8-17])."""
    what = SEAT_NEWS.get(_str(message, "what"))
    if what is None:
        return None
    if what == "left" and message.get("bot") is True:
        what = "left_bot"
    return SeatNews(what, _str(message, "name"), _int(message, "seat"),
                    _opt_str(message, "was") or "")


def tables_from_wire(message: Mapping[str, Any]) -> tuple[TableInfo, ...]:
    return tuple(
        TableInfo(_int(t, "table"), _str(t, "name"), _int(t, "seats"), _int(t, "players"),
                  _bool(t, "started"), _opt_str(t, "preset"), _opt_int(t, "open"),
                  _opt_int(t, "bots"))
        for t in (_map(item, "table") for item in _list(message, "tables"))
    )


def lobby_request(command: LobbyCommand) -> tuple[str, dict[str, Any]]:
    """The request type and fields (without `id`) that carry a lobby command (SPEC.md 8.2)."""
    fields: dict[str, Any]
    match command:
        case ListTables():
            return "list_tables", {}
        case CreateTable(name=name, preset=preset, options=options):
            fields = {"name": name, "preset": preset, "options": dict(options) or None}
            return "create_table", {k: v for k, v in fields.items() if v is not None}
        case JoinTable(table=table, name=name, seat=seat):
            fields = {"table": table, "name": name}
            if seat is not None:
                fields["seat"] = seat
            return "join_table", fields
        case Spectate(table=table):
            return "spectate", {"table": table}
        case SetReady(ready=ready):
            return "ready", {"ready": ready}
        case SetRules(options=options, preset=preset):
            fields = {"options": dict(options)}
            if preset is not None:
                fields["preset"] = preset
            return "set_rules", fields
        case AddBot(seat=seat, level=level):
            fields = {"seat": seat, "level": level}
            return "add_bot", {k: v for k, v in fields.items() if v is not None}
        case RemoveBot(seat=seat):
            return "remove_bot", {"seat": seat}
        case Kick(seat=seat):
            return "kick", {"seat": seat}
        case Penalize(seat=seat, count=count):
            return "penalize", {"seat": seat, "count": count}
        case StartMatch():
            return "start", {}
        case Leave():
            return "leave", {}
    raise TypeError(f"not a lobby command: {command!r}")

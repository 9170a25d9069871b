"""The rule set: every option of RULEBOOK.md section 2 as one typed, immutable, validated value.

A rule set is the fixed description of a game (OpenSpiel's "game", as opposed to a state). It is
checked before a table opens: a value out of range, an impossible combination, or an option the
engine does not play yet is refused with a `RulesError` naming the option, never ignored.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from unonet.cards import DeckManifest, classic_manifest
from unonet.errors import ErrorCode, RulePart, RulesError, said_with
from unonet.flip_deck import light_manifest
from unonet.no_mercy_deck import (
    NO_MERCY_DEFAULTS,
    NO_MERCY_KEEPS,
    NO_MERCY_MAX_PLAYERS,
    NO_MERCY_REFUSES,
    NO_MERCY_SETS,
    no_mercy_manifest,
)
from unonet.options import DECLARED, Option

__all__ = [
    "OPTIONS",
    "PLAYED_VARIANTS",
    "PRESETS",
    "RULES_SAYS",
    "RuleSet",
    "RulesError",
    "parse_option",
    "playable_presets",
    "preset",
]

# <generated: option types>
Variant = Literal["classic", "flip", "no_mercy"]
DrawWhenPlayable = Literal["allowed", "forbidden", "penalty"]
Stacking = Literal["off", "same_kind", "escalating"]
JumpIn = Literal["off", "identical", "same_face"]
Wd4Policy = Literal["challenge", "enforce", "free"]
ChallengeBy = Literal["next_player", "anyone"]
Scoring = Literal["winner_collects", "lowest_wins", "elimination"]
Teams = Literal["off", "pairs"]
# </generated>

RULES_SAYS: dict[str, str] = {
    "not_off": "may not be off",
    "one_of": "must be one of {choices}, not {value}",
    "whole_value": "must be a whole number, not {value}",
    "at_least": "must be at least {least}, not {value}",
    "at_most": "must be at most {most}, not {value}",
    "not_implemented": "{value} is not implemented by this engine yet (it plays: {plays})",
    "not_implemented_default": "{value} is not implemented by this engine yet (it plays: only "
                               "the default)",
    "not_played": "{variant} is not played yet (issue 15)",
    "pairs_scoring": "pairs score with scoring=winner_collects, not {scoring}",
    "pairs_room": "pairs need 4 or 6 seats; max_players={most} allows fewer",
    "table_seats": "a table needs 2 to {most} seats, not {seats}",
    "pairs_seats": "pairs need 4 or 6 seats, not {seats}",
    "deck_small": "{seats} seats x {hand} cards need {needed} cards but the deck has {deck}; "
                  "lower hand_size or raise decks",
    "flip_only": "plays only with variant=flip",
    "flip_decks": "UNO Flip plays one double-sided deck of 112 cards",
    "flip_colors": "UNO Flip has its own colours: four on each side",
    "flip_buzzers": "the UNO Flip deck has no Buzzer cards",
    "no_mercy_players": "No Mercy is for 2 to {most} players",
    "no_mercy_always": "No Mercy always plays {setting}",
    "no_mercy_only": "No Mercy plays {setting} only",
    "no_mercy_refuses": "No Mercy does not play {setting}",
    "unknown_option": "unknown option",
    "unknown_option_known": "unknown option; known: {known}",
    "unknown_preset": "unknown preset {name}; known: {known}",
    "expects_choice": "expects {choices}, not {text}",
    "expects_whole": "expects a whole number, not {text}",
}
"""Why a rule set is refused, in English, by kind (RulesError.kind; the parts named in braces
are its `parts`): the message the host and the log carry. A command says it in its user's
language from the same kind and parts (unonet/cli_words.py)."""


def rules_refused(kind: str, option: str, *, code: ErrorCode = ErrorCode.INVALID_RULES,
                  **parts: RulePart) -> RulesError:
    """The RulesError of `kind` (RULES_SAYS) for `option`, its English made of `parts`."""
    return RulesError(option, said_with(RULES_SAYS[kind], parts), code=code, kind=kind,
                      parts=parts)


OptionInfo = Option
"""An option's declaration (unonet.options): its values and source, how `--set NAME=VALUE`
parses it, what it means in words."""


@dataclass(frozen=True)
class RuleSet:
    """Every option of RULEBOOK.md; the defaults are the official rules (preset `official`)."""

    # <generated: rule set fields>
    variant: Variant = "classic"
    hand_size: int = 7
    decks: int = 1
    colors: int = 4
    max_players: int = 10
    draw_when_playable: DrawWhenPlayable = "allowed"
    play_after_draw: bool = True
    draw_until_playable: bool = False
    max_draws_per_turn: int = 1
    stacking: Stacking = "off"
    stack_mix_wild: bool = True
    deflect: bool = False
    jump_in: JumpIn = "off"
    jump_in_penalty: int = 3
    wd4_policy: Wd4Policy = "challenge"
    challenge_guilty_extra: int = 0
    challenge_by: ChallengeBy = "next_player"
    uno_penalty: int = 2
    uno_auto_penalty: bool = False
    false_catch_penalty: int = 0
    sequences: bool = False
    multiples: bool = False
    multi_finish: bool | Literal["penalty"] = True
    action_finish: bool = True
    seven_zero: bool = False
    buzzers: bool = False
    max_hand: int | None = None
    max_hand_penalty: int | Literal["hand"] = 250
    think_time: int | None = None
    scoring: Scoring = "winner_collects"
    target: int = 500
    max_rounds: int | None = None
    teams: Teams = "off"
    flip_passes_hands: bool = False
    # </generated>

    def __post_init__(self) -> None:
        if self.variant == "no_mercy":
            self._take_no_mercy_rules()
        self.validate()

    def _take_no_mercy_rules(self) -> None:
        """No Mercy's fixed rules are always on (RULEBOOK.md section 4): an option it fixes
        that has the classic default takes the variant's value, so the rule set says what is
        played; any other value stays, for check_variant_options to refuse by name. The rules
        it only starts with (NO_MERCY_DEFAULTS) are taken up with the variant (options_over):
        here their classic default is a value it plays, so it stays."""
        for name, value in NO_MERCY_SETS.items():
            if getattr(self, name) == _CLASSIC_DEFAULTS[name]:
                object.__setattr__(self, name, value)

    # -- validation -------------------------------------------------------------------------

    def validate(self) -> None:
        """Check every option's range and type; raise RulesError naming the first one at fault."""
        for info in OPTIONS.values():
            value = getattr(self, info.name)
            if value is None:
                if not info.nullable:
                    raise rules_refused("not_off", info.name)
                continue
            if info.choices:
                if value not in info.choices:
                    raise rules_refused("one_of", info.name, choices=_show(info.choices),
                                        value=repr(value))
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                if value in info.also:
                    continue
                raise rules_refused("whole_value", info.name, value=repr(value))
            if info.minimum is not None and value < info.minimum:
                raise rules_refused("at_least", info.name, least=info.minimum, value=value)
            if info.maximum is not None and value > info.maximum:
                raise rules_refused("at_most", info.name, most=info.maximum, value=value)

    def check_playable(self, *, unreleased_variants: bool = False) -> None:
        """Refuse options and variants that the engine does not implement yet, by name.

        `unreleased_variants` is for the engine's own tests only: it accepts a variant the
        engine plays before the protocol, trust and client carry it (_ENGINE_PLAYS: No
        Mercy). Everything a user or the host reaches calls this without it."""
        defaults = RuleSet.__new__(RuleSet)
        for f in dataclasses.fields(RuleSet):
            object.__setattr__(defaults, f.name, f.default)
        plays = _ENGINE_PLAYS if unreleased_variants else _IMPLEMENTED
        for name, implemented in plays.items():
            value = getattr(self, name)
            if value != getattr(defaults, name) and value not in implemented:
                if not implemented:
                    raise rules_refused("not_implemented_default", name, value=repr(value),
                                        code=ErrorCode.NOT_IMPLEMENTED)
                raise rules_refused("not_implemented", name, value=repr(value),
                                    plays=_show(implemented), code=ErrorCode.NOT_IMPLEMENTED)

    def check_options(self, *, unreleased_variants: bool = False) -> None:
        """Refuse options no table could play, whatever its seats: what the engine does not
        play, an option the variant excludes, teams with another scoring or too few seats
        (`unonet rules` described such sets, exit 0, that every table refused)."""
        self.check_playable(unreleased_variants=unreleased_variants)
        self.check_variant_options()
        if self.teams == "pairs":
            if self.scoring != "winner_collects":
                raise rules_refused("pairs_scoring", "teams", scoring=self.scoring)
            if self.max_players < 4:
                raise rules_refused("pairs_room", "teams", most=self.max_players)

    def check_table(self, seats: int, *, unreleased_variants: bool = False) -> None:
        """Refuse a table these rules cannot deal: check_options, the seat count, a deck too
        small (`unreleased_variants`: see check_playable)."""
        self.check_options(unreleased_variants=unreleased_variants)
        if not 2 <= seats <= self.max_players:
            raise rules_refused("table_seats", "max_players", most=self.max_players, seats=seats)
        if self.teams == "pairs" and seats not in (4, 6):
            raise rules_refused("pairs_seats", "teams", seats=seats)
        deck = len(self.manifest())
        needed = seats * self.hand_size + 2  # the hands, the first discard, one card to draw
        if needed > deck:
            raise rules_refused("deck_small", "hand_size", seats=seats, hand=self.hand_size,
                                needed=needed, deck=deck)

    def excluded_options(self) -> tuple[str, ...]:
        """The options this rule set's variant sets itself (check_variant_options refuses any
        other value): UNO Flip's deck is its own."""
        return variant_own_options(self.variant)

    def with_options(self, options: Mapping[str, Any]) -> RuleSet:
        """These rules with `options` over them (SPEC.md `set_rules` without a preset):
        see `options_over`."""
        return played_as_given(RuleSet(**options_over(self.to_dict(), options)), options)

    def check_variant_options(self) -> None:
        """Refuse, by name, an option the variant excludes. UNO Flip has its own deck: one
        deck of 112 double-sided cards in its own eight colours, no Buzzer cards; every other
        option combines with it (RULEBOOK.md section 3). `flip_passes_hands` needs Flip.
        No Mercy plays its own deck and always its fixed rules (`NO_MERCY_SETS`, RULEBOOK.md
        section 4), stacking escalating or off (`NO_MERCY_REFUSES`), for 2 to 6 players."""
        if self.variant == "no_mercy":
            self._check_no_mercy_options()
        if self.variant != "flip":
            if self.flip_passes_hands:
                raise rules_refused("flip_only", "flip_passes_hands")
            return
        if self.decks != 1:
            raise rules_refused("flip_decks", "decks")
        if self.colors != 4:
            raise rules_refused("flip_colors", "colors")
        if self.buzzers:
            raise rules_refused("flip_buzzers", "buzzers")

    def _check_no_mercy_options(self) -> None:
        for name, value in NO_MERCY_SETS.items():
            if name == "max_players":
                if self.max_players > NO_MERCY_MAX_PLAYERS:
                    raise rules_refused("no_mercy_players", name, most=NO_MERCY_MAX_PLAYERS)
            elif getattr(self, name) != value:
                raise rules_refused("no_mercy_always", name, setting=f"{name}={_word(value)}")
        for name in NO_MERCY_KEEPS:
            if getattr(self, name) != _CLASSIC_DEFAULTS[name]:
                raise rules_refused("no_mercy_only", name,
                                    setting=f"{name}={_word(_CLASSIC_DEFAULTS[name])}")
        for name, refused in NO_MERCY_REFUSES.items():
            value = getattr(self, name)
            if value in refused:
                raise rules_refused("no_mercy_refuses", name, setting=f"{name}={_word(value)}")

    # -- derived ----------------------------------------------------------------------------

    def manifest(self, seed: bytes | None = None) -> DeckManifest:
        """The deck. A Flip deck lists each card's light face: its dark faces are paired
        afresh each round (unonet.flip_deck.round_manifest). No deck depends on `seed` today."""
        if self.variant == "flip":
            return light_manifest()
        if self.variant == "no_mercy":
            return no_mercy_manifest()
        return classic_manifest(self.decks, self.colors, self.buzzers)

    def replace(self, **changes: Any) -> RuleSet:
        try:
            return dataclasses.replace(self, **changes)
        except TypeError as exc:
            unknown = sorted(set(changes) - set(OPTIONS))
            name = unknown[0] if unknown else "rules"
            raise RulesError(name, f"unknown option ({exc})") from None

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        unknown = sorted(set(data) - set(OPTIONS))
        if unknown:
            raise rules_refused("unknown_option", unknown[0])
        return cls(**data)

    def differences(self) -> dict[str, Any]:
        """The options that differ from the official rules."""
        base = RuleSet()
        return {k: v for k, v in self.to_dict().items() if getattr(base, k) != v}


def variant_own_options(variant: str) -> tuple[str, ...]:
    """The options a variant sets itself: UNO Flip's deck, No Mercy's deck and rules."""
    if variant == "flip":
        return FLIP_OWN_OPTIONS
    if variant == "no_mercy":
        return NO_MERCY_OWN_OPTIONS
    return ()


def variant_defaults(variant: str) -> Mapping[str, Any]:
    """The values a table starts with when it takes `variant` up, each still an option (No
    Mercy's rules as Mattel plays them: `NO_MERCY_DEFAULTS`)."""
    return NO_MERCY_DEFAULTS if variant == "no_mercy" else {}


def options_over(current: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """The options of `current` with `options` over them, so that changes made one at a time
    add up. A change of variant first puts back the classic default of every option the old
    or the new variant sets itself or starts with, then takes the new variant's defaults,
    unless `options` gives them: from No Mercy to classic, the table would otherwise keep No
    Mercy's escalating stacking and six seats; to No Mercy, an earlier house rule would refuse
    the variant by name. So a variant's defaults apply only where no value is given."""
    merged = dict(current)
    old = merged.get("variant", _CLASSIC_DEFAULTS["variant"])
    new = options.get("variant", old)
    if new != old:
        for name in {*variant_own_options(old), *variant_own_options(new),
                     *variant_defaults(old), *variant_defaults(new)}:
            merged[name] = _CLASSIC_DEFAULTS[name]
        merged.update(variant_defaults(new))
    merged.update(options)
    return merged


def _word(value: Any) -> str:
    """An option's value as `--set` writes it."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _show(values: tuple[Any, ...] | frozenset[Any]) -> str:
    return ", ".join(str(v) for v in sorted(values, key=str))



OPTIONS: dict[str, Option] = {option.name: option for option in DECLARED}
"""Every option by name, in declaration order (unonet/options.py)."""

FLIP_OWN_OPTIONS = ("decks", "colors", "buzzers")
"""Options UNO Flip fixes: one deck of 112 double-sided cards, four colours a side, no Buzzer."""

NO_MERCY_OWN_OPTIONS = (*NO_MERCY_SETS, *NO_MERCY_KEEPS)
"""Options No Mercy sets itself: its rules always on, its deck, its seat limit."""

_CLASSIC_DEFAULTS: dict[str, Any] = {
    f.name: f.default for f in dataclasses.fields(RuleSet)
}

# What the engine plays today, per option; any other non-default value is refused by name.
_IMPLEMENTED: dict[str, frozenset[Any]] = {
    "variant": frozenset({"classic", "flip", "no_mercy"}),
    "flip_passes_hands": frozenset({True, False}),
}

# What the engine plays for its own tests (check_playable's `unreleased_variants`): a variant
# whose engine is built before the protocol, trust and client carry it (No Mercy, issue 15).
_ENGINE_PLAYS: dict[str, frozenset[Any]] = {
    **_IMPLEMENTED,
    "variant": _IMPLEMENTED["variant"] | {"no_mercy"},
}

PRESETS: dict[str, dict[str, Any]] = {
    "official": {},
    "seed000": {"stacking": "same_kind", "action_finish": False},
    "seed003": {
        "uno_penalty": 4,
        "challenge_guilty_extra": 2,
        "scoring": "elimination",
        "target": 500,
        "jump_in": "identical",
        "think_time": 30,
    },
    "seed004": {
        "draw_until_playable": True,
        "draw_when_playable": "forbidden",
        "multiples": True,
        "sequences": True,
        "multi_finish": False,
        "action_finish": False,
        "uno_penalty": 5,
        "uno_auto_penalty": True,
    },
    "flip": {"variant": "flip"},
    "no_mercy": {"variant": "no_mercy", "target": 1000, "max_players": 6},
    "party": {"stacking": "same_kind", "seven_zero": True, "jump_in": "identical"},
}


def playable_presets() -> tuple[str, ...]:
    """The presets this engine plays (check_playable accepts them), in PRESETS order: what
    the command line, the lobby and the rules document offer."""
    out = []
    for name, settings in PRESETS.items():
        try:
            RuleSet(**settings).check_playable()
        except RulesError:
            continue
        out.append(name)
    return tuple(out)


PLAYED_VARIANTS: tuple[str, ...] = tuple(sorted(_IMPLEMENTED["variant"]))
"""The variants this engine plays (UNO Flip and No Mercy are issues 14 and 15)."""


def variant_preset(variant: str) -> str:
    """The preset a variant's table is named after once its variant changed without a preset:
    the variant's own preset (flip, no_mercy), the official rules for classic."""
    return next((name for name, settings in PRESETS.items()
                 if settings.get("variant", "classic") == variant), "official")


def preset(name: str, **overrides: Any) -> RuleSet:
    """The rule set of a preset of RULEBOOK.md section 5, with overrides on top: a variant's
    preset starts from the variant's defaults (`options_over`), which the overrides may change."""
    if name not in PRESETS:
        raise rules_refused("unknown_preset", "preset", name=repr(name), known=", ".join(PRESETS))
    given = options_over(_CLASSIC_DEFAULTS, {**PRESETS[name], **overrides})
    return played_as_given(RuleSet(**given), overrides)


def played_as_given(rules: RuleSet, given: Mapping[str, Any]) -> RuleSet:
    """`rules`, unless an option `given` is not played as given: No Mercy takes its own value
    for an option it fixes that has the classic default (`_take_no_mercy_rules`), so a
    `draw_when_playable=allowed` given with it would be shown as set and played as forbidden
    (found in tmux with seven_zero, then fixed). Refused by name, as any other value No Mercy
    does not play is."""
    for name, value in given.items():
        played = getattr(rules, name, value)
        if played == value:
            continue
        if name == "max_players":
            raise rules_refused("no_mercy_players", name, most=NO_MERCY_MAX_PLAYERS)
        raise rules_refused("no_mercy_always", name, setting=f"{name}={_word(played)}")
    return rules


def parse_option(name: str, text: str) -> Any:
    """Parse the text of `--set NAME=VALUE` into the option's type."""
    info = OPTIONS.get(name)
    if info is None:
        raise rules_refused("unknown_option_known", name, known=", ".join(OPTIONS))
    lowered = text.strip().lower()
    if info.nullable and lowered in ("off", "none", ""):
        return None
    if True in info.choices:  # yes or no, and perhaps words beside them
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        if lowered not in info.choices:
            words = ("true", "false", *(str(c) for c in info.choices[2:]))
            raise rules_refused("expects_choice", name, choices=words, text=repr(text))
    if info.choices:
        return lowered
    if lowered in info.also:
        return lowered
    try:
        return int(lowered)
    except ValueError:
        raise rules_refused("expects_whole", name, text=repr(text)) from None


"""The mypyc-compiled engine plays exactly like its pure-Python source.

`pip install .` ships the engine compiled by mypyc (setup.py, unonet/compiled.py). Here the
session's one mypyc build of a snapshot of the source (tests/compiled_build.py, shared with
test_compiled_host.py) and the same snapshot uncompiled each run in a child process, with the
copy first on sys.path; the two play the same seeded matches
(2 to 7 seats, the official rules and other rule sets) with a seeded random bot: the pending
seat's legal actions, out-of-turn UNO calls and catches, the host's expiry and penalty, and
illegal actions, which must raise EngineError. Each prints a transcript (every event list,
every seat's and a spectator's view after every action, every error code, the state at each
round's end); the two must be identical, line for line.

This file is also the children's script: `python tests/test_compiled_engine.py ROOT` plays
with the unonet found in ROOT. Skipped without mypyc (mypy) or a C compiler.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import pytest

if TYPE_CHECKING:  # the child runs this file as a script, where tests/ is not on sys.path
    from compiled_build import SourceBuild

REPO = Path(__file__).resolve().parents[1]
TARGET = 100  # points to win a match: a few rounds each, so the test stays quick

# (seats, rule options): the official rules and other rule sets RuleSet.check_playable accepts.
CASES: tuple[tuple[int, dict[str, Any]], ...] = (
    (2, {"target": 500}),
    (3, {"draw_when_playable": "forbidden"}),
    (4, {"target": 500}),
    (7, {"max_draws_per_turn": 3}),
    (4, {"wd4_policy": "enforce", "action_finish": False}),
    (3, {"uno_auto_penalty": True, "uno_penalty": 4, "false_catch_penalty": 1}),
    (2, {"play_after_draw": False, "challenge_guilty_extra": 2, "hand_size": 5}),
    (5, {"draw_until_playable": True, "wd4_policy": "free", "scoring": "lowest_wins",
         "decks": 2}),
    (7, {"draw_when_playable": "forbidden", "max_draws_per_turn": 2, "action_finish": False,
         "uno_auto_penalty": True, "max_rounds": 2}),
    # the house rules (RULEBOOK.md section 2): the presets, then the rest in two combinations
    (4, {"stacking": "same_kind", "seven_zero": True, "jump_in": "identical"}),
    (3, {"stacking": "same_kind", "action_finish": False}),
    (3, {"draw_until_playable": True, "draw_when_playable": "forbidden", "multiples": True,
         "sequences": True, "multi_finish": False, "action_finish": False, "uno_penalty": 5,
         "uno_auto_penalty": True}),
    (5, {"uno_penalty": 4, "challenge_guilty_extra": 2, "scoring": "elimination",
         "jump_in": "identical", "jump_in_penalty": 3}),
    (4, {"stacking": "escalating", "stack_mix_wild": False, "deflect": True, "buzzers": True,
         "jump_in": "same_face", "max_hand": 15, "max_hand_penalty": "hand", "teams": "pairs"}),
    (6, {"stacking": "escalating", "deflect": True, "buzzers": True, "seven_zero": True,
         "sequences": True, "max_hand": 20, "scoring": "lowest_wins", "max_rounds": 3}),
)
PLAY_BIAS = 0.75  # how often the bot plays when it can: a uniform bot's rounds can last ages
MAX_STEPS = 20_000  # per match; a match that does not end is a failure, not a hang


# -- the child: play and print -------------------------------------------------------------------


def transcript() -> list[str]:
    """Every case played to its end, as text that depends on nothing but the engine."""
    lines: list[str] = []
    for case, (seats, options) in enumerate(CASES):
        lines += play_case(case, seats, {"target": TARGET, **options})
    return lines


def play_case(case: int, seats: int, options: dict[str, Any]) -> list[str]:
    from unonet.actions import (
        HOST,
        Accept,
        Action,
        Buzz,
        CallUno,
        Catch,
        Challenge,
        ChooseColor,
        ChooseTarget,
        Draw,
        Expire,
        Pass,
        Penalize,
        Play,
        StartRound,
    )
    from unonet.cards import ALL_COLORS
    from unonet.errors import EngineError
    from unonet.match import BETWEEN_ROUNDS, IN_ROUND, MATCH_OVER, Match
    from unonet.rules import RuleSet

    rules = RuleSet(**options)
    rules.check_playable()
    seed = f"differential case {case}".encode()
    match = Match(rules, seats, seed)
    rng = random.Random(case)
    deck = len(match.manifest)
    out = [f"== case {case}: {seats} seats, {sorted(rules.differences().items())}"]

    def act(seat: int, action: Action, illegal: bool = False) -> None:
        try:
            events = match.apply(seat, action)
        except EngineError as exc:
            out.append(f"{seat} {action!r} -> error {exc.code.value}: {exc.message}")
        else:
            if illegal:
                out.append(f"ACCEPTED ILLEGAL {seat} {action!r}")
            out.append(f"{seat} {action!r} -> {events!r}")
            if match.phase != IN_ROUND:  # the round (or the match) is over
                out.append(f"state {match.state()!r}")
        for viewer in (*range(seats), None):
            out.append(f"  view {viewer}: {match.view(viewer)!r}")

    def illegal_action(pending: int) -> tuple[int, Action, bool]:
        """An action the seat (or the host) may not take now, and whether it must be refused
        (a wrong catch under false_catch_penalty and a refused jump-in are accepted, and
        punished)."""
        while True:
            if rng.random() < 0.15:
                host_actions: list[Action] = [
                    StartRound(), Penalize(seats, 2), Penalize(0, 11), Draw(), CallUno()
                ]
                return HOST, rng.choice(host_actions), True
            seat = pending if rng.random() < 0.5 else rng.randrange(seats + 1)  # seats: no seat
            hand = match.view(seat).hand if seat < seats else ()
            card = rng.choice(hand) if hand and rng.random() < 0.7 else rng.randrange(deck + 2)
            candidates: list[Action] = [
                Play(card, rng.choice([None, *ALL_COLORS]), rng.random() < 0.2),
                Play(card, rng.choice([None, *ALL_COLORS]), rng.random() < 0.2),
                Draw(), Pass(), ChooseColor(rng.choice(ALL_COLORS)), CallUno(),
                Catch(rng.randrange(seats + 1)), Challenge(), Accept(), Buzz(),
                ChooseTarget(rng.randrange(seats)),
            ]
            action = rng.choice(candidates)
            if action not in match.legal_actions(seat):
                # A wrong catch and a refused jump-in are accepted, and cost their player.
                punished = (isinstance(action, Catch) and rules.false_catch_penalty > 0) or (
                    isinstance(action, Play) and rules.jump_in != "off"
                )
                return seat, action, not punished

    steps = 0
    while match.phase != MATCH_OVER:
        steps += 1
        if steps > MAX_STEPS:
            raise RuntimeError(f"case {case} did not end in {MAX_STEPS} steps")
        if match.phase == BETWEEN_ROUNDS:
            act(HOST, StartRound())
            continue
        pending = match.pending_seat
        assert pending is not None
        roll = rng.random()
        if roll < 0.06:
            seat, action, refused = illegal_action(pending)
            act(seat, action, illegal=refused)
        elif roll < 0.14:
            seat = rng.choice([s for s in range(seats) if s != pending])
            legal = match.legal_actions(seat)
            out.append(f"legal {seat}: {legal!r}")
            if legal:
                act(seat, rng.choice(legal))
        elif roll < 0.15:
            act(HOST, Expire())
        elif roll < 0.152:
            act(HOST, Penalize(rng.randrange(seats), rng.randint(1, 2)))
        else:
            legal = match.legal_actions(pending)
            out.append(f"legal {pending}: {legal!r}")
            plays = [action for action in legal if isinstance(action, Play)]
            if not legal:  # a buzzer race its player has pressed: the others, or the host
                act(HOST, Expire())
            else:
                act(pending, rng.choice(plays if plays and rng.random() < PLAY_BIAS else legal))
    act(0, Draw(), illegal=True)  # the match is over
    out.append(f"over: winner {match.winner}, scores {match.scores}, {steps} steps")
    replayed = Match.replay(rules, seats, seed, match.log)
    out.append(f"replay matches: {replayed.state() == match.state()}")
    return out


def child_main(root: str) -> int:
    sys.path.insert(0, root)
    import unonet
    from unonet.compiled import engine_is_compiled

    print(f"unonet from {Path(unonet.__file__ or '').parent}")
    print(f"compiled {engine_is_compiled()}")
    print("\n".join(transcript()))
    return 0


# -- the tests -----------------------------------------------------------------------------------


def test_engine_modules_are_all_that_a_match_imports() -> None:
    """A module the engine imports but setup.py does not compile would run as pure Python."""
    from unonet.compiled import ENGINE_MODULES

    code = "import sys, unonet.match; print(*(m for m in sys.modules if m[:7] == 'unonet.'))"
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    ).stdout.split()
    missing = set(loaded) - set(ENGINE_MODULES)
    assert not missing, f"add {sorted(missing)} to ENGINE_MODULES in unonet/compiled.py"


class Transcripts(NamedTuple):
    base: Path  # pure/unonet and compiled/unonet are in it
    pure: list[str]
    compiled: list[str]


@pytest.fixture(scope="module")
def transcripts(compiled_source: SourceBuild) -> Transcripts:
    """The transcripts of the pure and the compiled engine, from one snapshot of the source,
    played at the same time."""
    from compiled_build import read_child, run_child

    build = compiled_source
    pure_out, compiled_out = build.base / "engine-pure.txt", build.base / "engine-compiled.txt"
    pure_child = run_child(Path(__file__), build.pure, pure_out)
    try:
        compiled_lines = read_child(run_child(Path(__file__), build.compiled, compiled_out),
                                    compiled_out)
    finally:
        pure_lines = read_child(pure_child, pure_out)
    return Transcripts(build.base, pure_lines, compiled_lines)


def test_each_child_ran_the_engine_it_was_given(transcripts: Transcripts) -> None:
    base = transcripts.base
    assert transcripts.pure[:2] == [f"unonet from {base / 'pure' / 'unonet'}", "compiled False"]
    assert transcripts.compiled[:2] == [
        f"unonet from {base / 'compiled' / 'unonet'}",
        "compiled True",
    ]


def test_compiled_engine_plays_like_the_pure_one(transcripts: Transcripts) -> None:
    pure, compiled = transcripts.pure[2:], transcripts.compiled[2:]
    for number, (want, got) in enumerate(zip(pure, compiled, strict=False)):
        if want != got:
            case = next(line for line in reversed(pure[: number + 1]) if line.startswith("=="))
            context = "\n".join(pure[max(0, number - 3) : number])
            pytest.fail(
                f"line {number} differs ({case}); before it:\n{context}\n"
                f"pure:     {want}\ncompiled: {got}"
            )
    assert len(compiled) == len(pure)


def test_the_matches_exercise_what_they_should(transcripts: Transcripts) -> None:
    pure = transcripts.pure
    text = "\n".join(pure)
    assert sum(line.startswith("==") for line in pure) == len(CASES)
    assert [line for line in pure if line.startswith("ACCEPTED ILLEGAL")] == []
    assert pure.count("replay matches: True") == len(CASES)
    for needed in ("-> error ", "CallUno()", "Catch(", "Challenged(", "Accept()", "ChooseColor(",
                   "UnoCaught(", "RoundEnded(", "MatchEnded(", "Expired(", "DrawStacked(",
                   "DrawDeflected(", "JumpedIn(", "JumpInRefused(", "HandsMoved(",
                   "BuzzerClosed(", "KnockedOut(", "SeatEliminated("):
        assert needed in text, f"no {needed} in the transcript: the bot no longer reaches it"
    played_several = re.compile(r"^\d+ Play\(.*also=\(\d.*\) -> \[", re.MULTILINE)
    assert played_several.search(text), "no run or multiple was played"


if __name__ == "__main__":
    sys.exit(child_main(sys.argv[1]))

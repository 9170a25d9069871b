"""Sampling the cards a seat cannot see, consistently with everything it was shown.

A `Sampler` is made once per decision from the seat's memory (unonet.bots.knowledge) and its
view; each `sample(rng)` is one determinization (unonet.determinize.World): every hidden
position gets a card its pool could hold (the cards of its shuffle never seen at a position of
that shuffle), uniformly. So the other hands hold only cards this seat has not seen elsewhere,
the cards a challenge revealed or a 7 or a 0 handed over stay where they went, a reshuffled
pile holds what was reshuffled, and the counts are the view's. A player who drew in its turn
is taken to have had nothing to play (READS_DRAWS): the cards it held then are none that
matched the top card.

UNO Flip adds the faces everybody sees: the side not in play of every card in every hand and of
the pile's top card, remembered by position (a position seen on both sides is known on both),
and the dark faces this seat was told (`View.dark_faces`). Which dark face backs which light
face is secret (each round pairs them afresh), so the sample pairs the untold cards with the
untold dark faces, at random but so that every position shows the faces seen on it:
constrained positions are filled first, each with a card drawn in proportion to how likely it
is to show what was seen (a card whose dark face was told: 1 or 0; an untold one: the share of
that face among the untold dark faces), then the rest at random.

Nothing here reads a hidden card: the input is the memory and the view, and the output depends
on them and on `rng` alone (tests/test_bots_strong.py plays one decision over worlds that
differ only in what this seat cannot see).
"""

from __future__ import annotations

import random
from collections import Counter

from unonet.bots.knowledge import Knowledge
from unonet.cards import DeckManifest, Face, build_manifest
from unonet.determinize import World
from unonet.events import Position
from unonet.flip_deck import dark_faces
from unonet.matching import matches
from unonet.phase import Phase
from unonet.rules import RuleSet
from unonet.view import View

__all__ = ["Inconsistent", "Sampler"]

READS_DRAWS = True
"""Whether a draw in one's turn says the drawer had nothing to play (`Knowledge.voids`): true of
the bots, and of most players (the official rules let one draw anyway); a sample that cannot
keep it for every position keeps it where it can (`Sampler.relaxed`)."""

HONEST = 0.85
"""The share of samples in which a Wild Draw Four's player (under wd4_policy=challenge) held
no card of the colour it covered, as the rules say it may not: most players play it honestly,
and the rest is what makes a challenge worth weighing."""

FLIP_ATTEMPTS = 20
"""Tries at a Flip pairing before giving up on a decision: a greedy fill can corner itself
when many constrained positions compete for few cards, which a fresh order undoes."""


class Inconsistent(Exception):
    """The memory does not fit the view (a round joined in its middle, an event missed): the
    bot plays without search this time."""


class Sampler:
    """The hidden cards of one decision's view, ready to be sampled again and again."""

    def __init__(self, knowledge: Knowledge, view: View, rules: RuleSet,
                 manifest: DeckManifest) -> None:
        why = knowledge.consistent(view)
        if why is not None:
            raise Inconsistent(why)
        assert view.current is not None and view.dealer is not None
        self.knowledge = knowledge
        self.view = view
        self.rules = rules
        self.manifest = manifest
        self.flip = rules.variant == "flip"
        seats = len(view.seats)
        self.seats = seats
        k = knowledge
        seen = k.seen_at
        # Every position in a hand or the pile, and the cards behind those this seat knows.
        placed = [p for hand in k.hands[:seats] for p in hand] + k.pile
        self.hidden: list[Position] = [p for p in placed if p not in seen]
        by_pool: dict[int, list[Position]] = {}
        for p in self.hidden:
            by_pool.setdefault(id(k.pool_of(p[0])), []).append(p)
        seen_in_pool: dict[int, set[int]] = {}
        for p, card in seen.items():
            seen_in_pool.setdefault(id(k.pool_of(p[0])), set()).add(card)
        self.groups: list[tuple[list[Position], list[int]]] = []
        every = range(len(manifest))
        for pool in k.pools:
            positions = by_pool.get(id(pool), [])
            cards = pool.cards if pool.cards is not None else every
            taken = seen_in_pool.get(id(pool), set())
            free = sorted(c for c in cards if c not in taken)
            if len(free) != len(positions):
                raise Inconsistent(f"{len(positions)} hidden positions for {len(free)} cards")
            if positions:
                self.groups.append((positions, free))
        located = set(self.hidden)
        if len(located) != len(self.hidden):
            raise Inconsistent("a position is in two places")
        self._fixed = {p: seen[p] for p in placed if p in seen}
        self._state = self._public_state()
        self.certain, self.honest = self._voids() if READS_DRAWS else ({}, {})
        self.forbidden = self.certain  # this sample's (`sample` adds `honest` most times)
        self.relaxed = 0  # samples in which no fill kept every void (counted for the reports)
        if self.flip:
            self._flip_setup()

    def _voids(self) -> tuple[dict[Position, frozenset[int]], dict[Position, frozenset[int]]]:
        """For each hidden position in a hand, the cards it cannot hold (its holder drew with
        it in hand, so it did not match the top card then; or under wd4_policy=enforce played
        a Wild Draw Four, so it was not of the colour in play), and apart, those an honest
        Wild Draw Four says (unonet.bots.knowledge.Void)."""
        located = set(self.hidden)
        banned: dict[tuple[int | None, object], frozenset[int]] = {}
        faces = [self.manifest.face(c) for c in range(len(self.manifest))]
        certain: dict[Position, frozenset[int]] = {}
        honest: dict[Position, frozenset[int]] = {}
        for void in self.knowledge.voids:
            key = (void.top, void.color)
            found = banned.get(key)
            if found is None and void.top is not None:
                top = faces[void.top]
                found = frozenset(c for c, f in enumerate(faces) if matches(f, top, void.color))
            elif found is None:
                found = frozenset(c for c, f in enumerate(faces) if f.color == void.color)
            banned[key] = found
            out = honest if void.honest else certain
            for p in void.positions:
                if p in located:
                    out[p] = out.get(p, frozenset()) | found
        return certain, honest

    def _fill(self, positions: list[Position], cards: list[int],
              rng: random.Random) -> dict[Position, int]:
        """`cards` dealt at random to `positions`, each position with cards it cannot hold
        (`forbidden`) first taking one it can; a swap with a position filled before mends a
        dead end, and if none does, that position takes any card (`relaxed`)."""
        forbidden = self.forbidden
        constrained = [p for p in positions if p in forbidden]
        if not constrained:
            shuffled = list(cards)
            rng.shuffle(shuffled)
            return dict(zip(positions, shuffled, strict=True))
        rng.shuffle(constrained)
        constrained.sort(key=lambda p: -len(forbidden[p]))  # the narrowest first
        free = list(cards)
        placed: dict[Position, int] = {}
        relaxed = False
        for p in constrained:
            banned = forbidden[p]
            options = [c for c in free if c not in banned]
            swapped = None if options else self._swap(p, placed, free)
            if options:
                card = rng.choice(options)
            elif swapped is not None:
                card = swapped
            else:
                relaxed = True
                card = rng.choice(free)
            free.remove(card)
            placed[p] = card
        rest = [p for p in positions if p not in placed]
        rng.shuffle(free)
        placed.update(zip(rest, free, strict=True))
        self.relaxed += relaxed
        return placed

    def _swap(self, p: Position, placed: dict[Position, int], free: list[int]) -> int | None:
        """A card placed earlier at `q` that `p` may hold, replaced at `q` by a free card that
        `q` may hold; it is put back in `free` for the caller to take."""
        forbidden = self.forbidden
        banned = forbidden[p]
        for q, u in placed.items():
            if u in banned:
                continue
            q_banned = forbidden.get(q, frozenset())
            for x in free:
                if x not in q_banned:
                    free.remove(x)
                    placed[q] = x
                    free.append(u)
                    return u
        return None

    # -- the state a view does not name ------------------------------------------------------

    def _public_state(self) -> dict[str, object]:
        """Whatever a World needs beside the cards, read once from the view and the memory."""
        view, k = self.view, self.knowledge
        seats = self.seats
        out = {s.seat for s in view.seats if s.out}
        # Out of the round and not knocked out in it: eliminated from the match (a bot that
        # took a seat over in mid-match saw no SeatEliminated of earlier rounds).
        absent = frozenset(s for s in out if s not in k.knocked_out)
        pending = view.pending
        phase = view.phase
        pending_draw = pending.amount if pending is not None else 0
        finished = None
        if phase in (Phase.STACK, Phase.CHALLENGE):
            empty = [s.seat for s in view.seats if s.cards == 0 and not s.out]
            finished = empty[0] if empty else None
        own_draws = k.own_draws
        if self.rules.draw_until_playable:
            own_draws = min(own_draws, 1)
        if view.drawn_card is not None:
            own_draws = max(own_draws, 1)
        color_then = None
        if phase is Phase.CHOOSE_COLOR and k.color_from_flip is not None:
            color_then = _next_seat(view, k.color_from_flip)
        return {
            "seats": seats,
            "dealer": view.dealer,
            "round_no": view.round_no,
            "epoch": k.epoch,
            "side": view.side,
            "phase": phase,
            "current": view.current,
            "direction": view.direction,
            "active_color": view.active_color,
            "out": out,
            "absent": absent,
            "knocked_out": dict(k.knocked_out),
            "penalty_points": [k.penalty_points.get(s, 0) for s in range(seats)],
            "uno_called": {s.seat for s in view.seats if s.uno_called},
            "catchable": {s.seat for s in view.seats if s.catchable},
            "serial": k.serial + 2,
            "drawn_card": view.drawn_card,
            "draws_this_turn": own_draws if view.current == k.seat else 0,
            "top_seat": k.top_seat,
            "color_then": color_then,
            "pending_draw": pending_draw,
            "chain": list(k.chain) if phase in (Phase.STACK, Phase.CHALLENGE) else [],
            "finished": finished,
            "wd4_player": pending.target if pending is not None else None,
            "color_before": pending.color_before if pending is not None else None,
            "cannot_draw_streak": k.cannot_draw_streak,
            "buzz_waiting": pending.waiting if pending is not None else (),
        }

    # -- UNO Flip's faces --------------------------------------------------------------------

    def _flip_setup(self) -> None:
        k, view = self.knowledge, self.view
        told = dict(view.dark_faces)
        told.update(k.dark_told)
        # A card whose id this seat saw (played, revealed by a challenge) at a position whose
        # dark face it also saw (in a hand, on the light side) has that dark face.
        for position, face in k.dark_seen.items():
            card = k.seen_at.get(position)
            if card is not None:
                told.setdefault(card, face)
        self.told = told
        self.light = [self.manifest.face(c) for c in range(len(self.manifest))]
        pool: Counter[Face] = Counter(dark_faces())
        pool.subtract(Counter(told.values()))
        if any(n < 0 for n in pool.values()):
            raise Inconsistent("more dark faces told than the deck has")
        self.dark_pool = +pool
        self.untold = [c for c in range(len(self.manifest)) if c not in told]
        # What each hidden position was seen to show, on either side.
        self.constraints: dict[Position, tuple[Face | None, Face | None]] = {}
        for p in self.hidden:
            light, dark = k.light_seen.get(p), k.dark_seen.get(p)
            if light is not None or dark is not None or p in self.certain or p in self.honest:
                self.constraints[p] = (light, dark)
        self.public_dark = {c for c, _ in view.dark_faces} - {
            c for p in k.hands[k.seat] if (c := k.seen_at.get(p)) is not None}

    def _flip_assign(self, rng: random.Random) -> tuple[dict[Position, int], dict[int, Face]]:
        for attempt in range(2 * FLIP_ATTEMPTS):
            if attempt == FLIP_ATTEMPTS and self.forbidden:
                # What the draws said (the voids) may be wrong, what was seen cannot be.
                self.forbidden = {}
                self.relaxed += 1
            found = self._flip_try(rng, relax=False)
            if found is not None:
                return found
        # Every try cornered itself: a pairing that shows what was seen wherever the greedy
        # fill could (the rest at random) is better than no search at all.
        found = self._flip_try(rng, relax=True)
        assert found is not None
        return found

    def _usable(self, card: int, position: Position, pool: Counter[Face]) -> bool:
        """Whether `card` may be at `position`: show the faces seen on it (light, dark), and be
        none of the cards its holder could not have held (`forbidden`)."""
        want = self.constraints[position]
        want_light, want_dark = want
        if want_light is not None and self.light[card] != want_light:
            return False
        if card in self.forbidden.get(position, ()):
            return False
        if want_dark is None:
            return True
        told = self.told.get(card)
        return told == want_dark if told is not None else pool[want_dark] > 0

    def _flip_try(self, rng: random.Random, relax: bool
                  ) -> tuple[dict[Position, int], dict[int, Face]] | None:
        """One fill of the hidden positions and pairing of the untold dark faces. Each
        constrained position takes a card in proportion to its chance of showing what was
        seen; when none is left, a card placed earlier is swapped for one of the free cards
        (`_repair`); if that fails too, None (or, `relax`, any free card)."""
        told = self.told
        light = self.light
        constraints = self.constraints
        pool = Counter(self.dark_pool)
        untold_left = len(self.untold)
        pairing: dict[int, Face] = {}
        placed: dict[Position, int] = {}
        for positions, cards in self.groups:
            free = list(cards)
            constrained = [p for p in positions if p in constraints]
            rng.shuffle(constrained)
            done: list[Position] = []
            for p in constrained:
                want_light, want_dark = constraints[p]
                banned = self.forbidden.get(p, frozenset())
                options: list[int] = []
                weights: list[float] = []
                for card in free:
                    if want_light is not None and light[card] != want_light:
                        continue
                    if card in banned:
                        continue
                    if want_dark is None:
                        weight = 1.0
                    elif card in told:
                        weight = 1.0 if told[card] == want_dark else 0.0
                    else:
                        weight = pool[want_dark] / untold_left if untold_left else 0.0
                    if weight > 0:
                        options.append(card)
                        weights.append(weight)
                if options:
                    card = rng.choices(options, weights)[0]
                else:
                    repaired = self._repair(p, done, placed, free, pairing, pool)
                    if repaired is None and not relax:
                        return None
                    card = repaired if repaired is not None else rng.choice(free)
                free.remove(card)
                placed[p] = card
                done.append(p)
                if want_dark is not None and card not in told and pool[want_dark] > 0:
                    pairing[card] = want_dark
                    pool[want_dark] -= 1
                    untold_left -= 1
            rest = [p for p in positions if p not in placed]
            rng.shuffle(free)
            placed.update(zip(rest, free, strict=True))
        faces = list(pool.elements())
        rng.shuffle(faces)
        remaining = [c for c in self.untold if c not in pairing]
        if len(remaining) != len(faces):
            return None
        pairing.update(zip(remaining, faces, strict=True))
        return placed, pairing

    def _repair(self, p: Position, done: list[Position], placed: dict[Position, int],
                free: list[int], pairing: dict[int, Face], pool: Counter[Face]) -> int | None:
        """A card for position `p`, which no free card fits: one placed earlier at `q` that
        would fit `p`, once a free card that fits `q` takes its place (the greedy fill gave
        `q` an untold card where a told one was needed later, or the other way round). The
        free card goes to `q` here; the card returned is removed from `free` by the caller,
        so it is put back in `free` first."""
        for q in done:
            u = placed[q]
            paired = pairing.pop(u, None)
            if paired is not None:
                pool[paired] += 1
            if self._usable(u, p, pool):
                for x in free:
                    if self._usable(x, q, pool):
                        free.remove(x)
                        placed[q] = x
                        want_dark = self.constraints[q][1]
                        if want_dark is not None and x not in self.told:
                            pairing[x] = want_dark
                            pool[want_dark] -= 1
                        free.append(u)
                        return u
            if paired is not None:
                pairing[u] = paired
                pool[paired] -= 1
        return None

    # -- sampling ----------------------------------------------------------------------------

    def sample(self, rng: random.Random) -> World:
        """One determinization: every hidden card placed, drawn with `rng`."""
        k = self.knowledge
        self.forbidden = self.certain
        if self.honest and rng.random() < HONEST:
            merged = dict(self.certain)
            for p, more in self.honest.items():
                merged[p] = merged.get(p, frozenset()) | more
            self.forbidden = merged
        placed = dict(self._fixed)
        manifest = self.manifest
        if self.flip:
            assigned, pairing = self._flip_assign(rng)
            placed.update(assigned)
            darks = {**self.told, **pairing}
            manifest = build_manifest("flip", [(self.light[c], darks[c])
                                               for c in range(len(self.manifest))])
        else:
            for positions, cards in self.groups:
                placed.update(self._fill(positions, cards, rng))
        size = len(manifest)
        origin: list[Position] = [(0, 0)] * size
        hands: list[list[int]] = []
        for hand in k.hands[: self.seats]:
            cards = [placed[p] for p in hand]
            for p, c in zip(hand, cards, strict=True):
                origin[c] = p
            hands.append(cards)
        pile = [placed[p] for p in k.pile]
        for p, c in zip(k.pile, pile, strict=True):
            origin[c] = p
        for p, c in zip(k.discard_positions, k.discard, strict=True):
            origin[c] = p
        pile.reverse()  # the engine draws from the end
        state = self._state
        wd4_player = state["wd4_player"]
        wd4_hand: tuple[int, ...] = ()
        if isinstance(wd4_player, int):
            if k.wd4_positions:
                wd4_hand = tuple(placed[p] for p in k.wd4_positions if p in placed)
            else:
                wd4_hand = tuple(hands[wd4_player])
        public: set[int] = set()
        told: list[set[int]] = []
        if self.flip:
            public = set(self.public_dark) | set(k.discard)
            told = [set(hand) for hand in hands]
        return World(
            rules=self.rules,
            manifest=manifest,
            key=rng.getrandbits(256).to_bytes(32, "big"),
            hands=hands,
            draw_pile=pile,
            discard=list(k.discard),
            origin=origin,
            wd4_hand=wd4_hand,
            public=public,
            told=told,
            **state,  # type: ignore[arg-type]
        )


def _next_seat(view: View, seat: int) -> int:
    count = len(view.seats)
    for step in range(1, count + 1):
        other = view.seats[(seat + step * view.direction) % count]
        if not other.out:
            return other.seat
    return seat


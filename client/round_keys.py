"""The keys of a round: what each asks the host for. Each returns the Action to send (always
one of the legal actions) or None, with `notice` saying why when the key did nothing."""

from __future__ import annotations

from typing import Any

from client.prompts import ColorPrompt, DrawnCardPrompt, SeatPrompt, TargetPrompt
from client.screen_round import RoundScreen
from unonet.actions import (
    Accept,
    Action,
    Buzz,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    ChooseTarget,
    Draw,
    Pass,
    Play,
)
from unonet.cards import Color


class RoundKeys(RoundScreen):
    """Select, play, draw, call UNO, challenge, buzz, swap; the owner's penalty."""

    def _offer(self, action: Action, notice_key: str = "", **values: Any) -> Action | None:
        """`action` if it is legal now, else None with a notice."""
        if action in self.legal:
            self.notice = ""
            return action
        if notice_key:
            self.notice = self.tr(notice_key, **values)
        return None

    def select_next(self) -> None:
        self._move(1)

    def select_prev(self) -> None:
        self._move(-1)

    def _move(self, step: int) -> None:
        if self.hand:
            self.selected = (self.selected + step) % len(self.hand)

    def select_index(self, index: int) -> None:
        if 0 <= index < len(self.hand):
            self.selected = index

    def select_card(self, card: int) -> None:
        if card in self.hand:
            self.selected = self.hand.index(card)

    def play_selected(self) -> Action | None:
        """Enter: play the selected card. A wild opens the colour picker first; a drawn card is
        the only one that can be played after drawing, so Enter plays it whatever is selected."""
        prompt = self.prompt
        if len(self.marked) > 1 and not isinstance(prompt, DrawnCardPrompt):
            return self._play_marked()
        card = prompt.card if isinstance(prompt, DrawnCardPrompt) else self.selected_card
        if len(self.marked) == 1:
            card = self.marked[0]
        if card is None:
            return None
        plays = [a for a in self.legal if isinstance(a, Play) and a.card == card and not a.also]
        if not plays:
            if self.my_turn:
                self.notice = self.tr("n.not_playable", card=self.tr.card(self.face(card)))
            elif (rules := self.rules()) is not None and rules.jump_in != "off" and any(
                    isinstance(a, Play) for a in self.legal):  # a jump-in is open, not to it
                self.notice = self.tr(f"n.not_jump_in_{rules.jump_in}",
                                      card=self.tr.card(self.face(card)))
            else:
                self.notice = self.tr("n.not_your_turn")
            return None
        uno = self.uno_armed and any(a.uno for a in plays)
        face = self.face(card)
        if face is not None and face.is_wild and face.names_color:  # a Roulette names none
            colors = tuple(dict.fromkeys(a.color for a in plays if a.color is not None))
            self.local_prompt = ColorPrompt(card, colors, uno)
            self.notice = ""
            return None
        action = next((a for a in plays if a.uno == uno), plays[0])
        return self._played(action)

    def _play_marked(self) -> Action | None:
        """The marked cards as one Play with `also`, in the order they were marked if the
        legal list has that order, else in an order it lists for the same cards."""
        marked = tuple(self.marked)
        together = [a for a in self.legal if isinstance(a, Play) and a.also
                    and sorted((a.card, *a.also)) == sorted(marked)]
        if not together:
            self.notice = self.tr("n.not_together")
            return None
        in_order = [a for a in together if (a.card, *a.also) == marked] or together
        uno = self.uno_armed and any(a.uno for a in in_order)
        action = next((a for a in in_order if a.uno == uno), in_order[0])
        return self._played(action)

    def toggle_mark(self) -> None:
        """M: mark the selected card to be played with others (or unmark it). Offered only
        while the legal list holds a play of several cards, or cards are already marked."""
        card = self.selected_card
        if card is None:
            return
        if card in self.marked:
            self.marked.remove(card)
            self.notice = ""
            return
        if not self.multi_offered:
            self.notice = self.tr("n.no_multi")
            return
        self.marked.append(card)
        self.notice = ""

    def _played(self, action: Action | None) -> Action | None:
        if action is not None:
            self.marked = []
            self.uno_armed = False
            self.local_prompt = None
            self.notice = ""
        return action

    def choose_color(self, color: Color) -> Action | None:
        """A colour key in the colour picker: the wild's play, or the first-card colour."""
        prompt = self.prompt
        if not isinstance(prompt, ColorPrompt) or color not in prompt.colors:
            return None
        if prompt.card is None:
            return self._offer(ChooseColor(color))
        return self._played(self._offer(Play(prompt.card, color, prompt.uno)))

    def choose_color_index(self, index: int) -> Action | None:
        prompt = self.prompt
        if isinstance(prompt, ColorPrompt) and 0 <= index < len(prompt.colors):
            return self.choose_color(prompt.colors[index])
        return None

    def cancel_prompt(self) -> None:
        self.local_prompt = None
        self.show_help = False

    def space_action(self) -> Action | None:
        """What Space does now, if anything: on a +4 or a pending total, take it; else draw;
        after drawing, keep the card and pass (the key bar says which)."""
        for kind in (Accept, Draw, Pass):
            for action in self.legal:
                if isinstance(action, kind):
                    return action
        return None

    def draw(self) -> Action | None:
        """Space: `space_action`, or why there is none."""
        action = self.space_action()
        if action is not None:
            self.local_prompt = None
            return self._offer(action)
        self.notice = self.tr("n.cannot_draw" if self.my_turn else "n.not_your_turn")
        return None

    def uno(self) -> Action | None:
        """U: say UNO holding one card (safe until caught); else catch whoever forgot; else,
        holding two cards, make the next play carry the call (a second U cancels it)."""
        for action in self.legal:
            if isinstance(action, CallUno):
                return self._offer(action)
        for action in self.legal:
            if isinstance(action, Catch):
                return self._offer(action)
        if self.uno_possible:
            self.uno_armed = not self.uno_armed
            self.notice = self.tr("n.uno_armed" if self.uno_armed else "n.uno_disarmed")
            return None
        self.notice = self.tr("n.nothing_uno")
        return None

    def challenge(self) -> Action | None:
        return self._offer(Challenge(), "n.no_challenge")

    def accept(self) -> Action | None:
        return self._offer(Accept(), "n.no_challenge")

    def buzz(self) -> Action | None:
        return self._offer(Buzz(), "n.no_buzz")

    def choose_target(self, seat: int) -> Action | None:
        return self._offer(ChooseTarget(seat))

    def move_target(self, step: int) -> None:
        """An arrow key in the swap chooser: the next player to swap with."""
        prompt = self.prompt
        if isinstance(prompt, TargetPrompt):
            self.target_cursor = (prompt.cursor + step) % len(prompt.targets)

    def choose_target_at_cursor(self) -> Action | None:
        """Enter in the swap chooser: swap hands with the player under the cursor."""
        prompt = self.prompt
        if not isinstance(prompt, TargetPrompt):
            return None
        return self.choose_target(prompt.targets[prompt.cursor])

    def ask_penalty(self) -> None:
        """`p` during a round (owner): the next seat number draws the hinting penalty."""
        if self.local_prompt is not None:
            return  # a colour being chosen stays open: its card is half played
        if self._owner_only() and self.view is not None:
            self.local_prompt = SeatPrompt("penalize")

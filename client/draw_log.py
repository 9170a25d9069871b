"""One log line for a run of single-card draws, where the engine sends one event per card.

UNO Flip's Wild Draw Color is drawn one card at a time until a card of the named colour shows
(and `draw_until_playable` draws the same way): each card is its own CardsDrawn, and the drawer's
own CardsReceived. Told one by one, ten draws would push everything else out of the log; told
as a run they are one line, "Bruno draws 6 (Wild Draw Color).", and for the drawer one line of
the cards got. A run is the same seat's draws for the same reason with nothing worded in
between: the lines it wrote are still the log's last, so they are replaced by the totals.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from unonet import events as ev

Say = Callable[[ev.Event], "str | None"]


@dataclass(slots=True)
class _Run:
    seat: int
    reason: str
    positions: tuple[ev.Position, ...]
    received: tuple[ev.Position, ...] = ()
    cards: tuple[int, ...] = ()
    lines: list[str] = field(default_factory=list)


class DrawRuns:
    """Writes each event's sentence to a log, folding a run of draws into one line."""

    def __init__(self) -> None:
        self._run: _Run | None = None

    def tell(self, log: deque[str], event: ev.Event, say: Say) -> None:
        """Append `event`'s sentence (`say(event)`) to `log`, or fold it into the run of draws
        the log ends with."""
        run = self._run if self._run is not None and self._still_last(log, self._run) else None
        if isinstance(event, ev.CardsDrawn):
            if run is not None and (run.seat, run.reason) == (event.seat, event.reason):
                self._replace(log, run, run.positions + tuple(event.positions), say)
                return
            self._run = _Run(event.seat, event.reason, tuple(event.positions))
            self._write(log, self._run, say(event))
            return
        if isinstance(event, ev.CardsReceived) and run is not None and run.seat == event.seat \
                and set(event.positions) <= set(run.positions):
            run.received += tuple(event.positions)
            run.cards += tuple(event.cards)
            self._write(log, run, say(ev.CardsReceived(run.seat, run.received, run.cards)))
            return
        text = say(event)
        if text:
            log.append(text)
            self._run = None  # something else was said: the next draw starts a new line

    @staticmethod
    def _still_last(log: deque[str], run: _Run) -> bool:
        lines = run.lines
        return bool(lines) and len(log) >= len(lines) and list(log)[-len(lines):] == lines

    def _replace(self, log: deque[str], run: _Run, positions: tuple[ev.Position, ...],
                 say: Say) -> None:
        """The run's lines give way to one draw line with the total; the drawer's cards line
        comes back with the next CardsReceived, which names them all."""
        for _ in run.lines:
            log.pop()
        run.lines = []
        run.positions = positions
        self._write(log, run, say(ev.CardsDrawn(run.seat, positions, run.reason)))

    @staticmethod
    def _write(log: deque[str], run: _Run, text: str | None) -> None:
        if text:
            log.append(text)
            run.lines.append(text)

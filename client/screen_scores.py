"""The scores: each round's result, the teams' totals, who is out, and the keys that let the
next deal go or ask for a rematch."""

from __future__ import annotations

from client.lobby import LobbyCommand, SetReady
from client.model_state import ModelState, RoundResult
from unonet import events as ev


class ScoresScreen(ModelState):
    """The results (`results`, `eliminated`, `knocked`) and the keys read on the score screens."""

    def knock_out_points(self, seat: int) -> int | None:
        """The points a seat knocked out this round is charged: as the KnockedOut said, else
        (a snapshot taken since) the rules' number; None when neither says."""
        if seat in self.knocked:
            return self.knocked[seat]
        rules = self.rules()
        penalty = rules.max_hand_penalty if rules is not None else (250 if self.no_mercy else None)
        return penalty if isinstance(penalty, int) else None

    def teams(self) -> dict[int, list[int]]:
        """teams=pairs: each team's seats (partners sit opposite); empty without teams."""
        view = self.view
        out: dict[int, list[int]] = {}
        if view is not None:
            for info in view.seats:
                if info.team is not None:
                    out.setdefault(info.team, []).append(info.seat)
        return out

    def team_points(self, team: int) -> int:
        """A team's total. Partners are credited the same round points (unonet.scoring), so
        each holds the team's score, less any refused jump-in of their own; the higher one is
        what counts towards the target (a sum would count the team twice)."""
        view = self.view
        seats = self.teams().get(team, [])
        if view is None or not seats:
            return 0
        return max(view.seats[s].score for s in seats)

    def rematch(self) -> LobbyCommand | None:
        """`r` after the match: ask for a rematch with the same seats (SPEC.md [UNO-8-11]);
        it starts once every player has asked, else the table's lobby follows."""
        lobby = self.lobby
        if lobby is None or lobby.you is None or self.rematch_asked:
            return None
        self.rematch_asked = True
        return SetReady(True)

    def ready_next_round(self) -> LobbyCommand | None:
        if self.watching:  # the players deal the next round; the scores stay until then
            return None
        if self.reading_scores:
            self.reading_scores = False
            return SetReady(True)
        lobby = self.lobby
        if lobby is None or lobby.you is None or lobby.you >= len(lobby.seats):
            return SetReady(True)
        return None if lobby.seats[lobby.you].ready else SetReady(True)

    # -- the round's events that make the scores (client/model.py EVENT_HANDLERS) --------------

    def _round_ended(self, event: ev.RoundEnded) -> None:
        """The round's result, each hand read on the side it ended on. The next deal is held
        while we read the scores (SPEC.md [UNO-8-10]); Enter lets go. A spectator holds
        nothing (it was refused at every round's end, unasked)."""
        assert self.tracker is not None
        view = self.tracker.view
        faces = tuple(tuple(self.face(card) for card in hand) for hand in event.hands)
        self.results.append(RoundResult(view.round_no, event.winner, event.hands,
                                        event.points, event.scores, view.side, faces))
        self.reading_scores = True
        if not self.watching:
            self.outbox.append(SetReady(False))

    def _seat_eliminated(self, event: ev.SeatEliminated) -> None:
        self.eliminated.add(event.seat)

    def _knocked_out(self, event: ev.KnockedOut) -> None:
        self.knocked[event.seat] = event.penalty

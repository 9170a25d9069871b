"""A table's lobby: its seats and rules as the host tells them, the rule changes said in the
chat, and the keys that rename, move, ready, edit the rules, seat bots, kick and start."""

from __future__ import annotations

from client.lobby import (
    AddBot,
    JoinTable,
    Kick,
    LobbyCommand,
    LobbyState,
    Penalize,
    RemoveBot,
    SetReady,
    SetRules,
    StartMatch,
)
from client.model_state import BOT_LEVELS, ChatLine, ModelState
from client.prompts import SeatPrompt
from client.rule_editor import editor_options, preset_keeping, step_option
from client.rule_words import option_words, rule_changes
from client.safe_text import own_name, shown, typed
from protocol.text import TextRefused
from unonet.rulebook import option_title
from unonet.rules import OPTIONS, RuleSet, playable_presets

RULE_CHANGES_SAID = 3
"""A rule change of more options than this (a preset) is said as a count: the lobby lists
the table's rules anyway, and the chat keeps a few lines."""


class LobbyScreen(ModelState):
    """The lobby (`lobby`, `option_cursor`) and its keys."""

    def apply_lobby(self, lobby: LobbyState) -> None:
        before = self.lobby
        self.lobby = lobby
        if before is not None and before.table == lobby.table and not lobby.started:
            self._rules_news(before, lobby)
        self.option_cursor = min(self.option_cursor, len(editor_options()) - 1)
        if editor_options()[self.option_cursor] not in self.shown_options:
            self.option_next()  # the game changed under the cursor: the next of this one
        if self.name_pending and lobby.you is not None and not lobby.started:
            # create_table seats us under the hello name; ours was chosen later ([UNO-8-8])
            self.name_pending = False
            if lobby.you < len(lobby.seats) and lobby.seats[lobby.you].name != self.my_name:
                self.outbox.append(JoinTable(lobby.table, self.my_name))

    def _rules_news(self, before: LobbyState, lobby: LobbyState) -> None:
        """The owner changed the rules: said in the chat to everyone but the owner (who sees
        the editor), with what changed. The host makes every player ready again then: a
        player who was ready hears it, else the start waits on them without a word why."""
        if before.rules == lobby.rules:
            return
        if lobby.you is not None and lobby.you == lobby.owner:
            self._own_rules_news(before, lobby)
            return
        base, unready = before.rules, False
        said = self._rules_said
        if said is not None and self.chat and self.chat[-1] is said[0]:
            base, unready = said[1], said[2]  # the same stretch of changes: one line for it
            self.chat.pop()
            self.chat_unread = max(0, self.chat_unread - 1)
        changed = rule_changes(base, lobby.rules, self.tr.lang)
        owner = lobby.owner
        name = (lobby.seats[owner].name if owner is not None and owner < len(lobby.seats)
                else None) or "?"
        if not changed:  # changed, then changed back
            text = self.tr("news.rules_back", name=shown(name))
        elif len(changed) > RULE_CHANGES_SAID:
            text = self.tr("news.rules_many", name=shown(name), count=len(changed))
        else:
            text = self.tr("news.rules", name=shown(name), changes="; ".join(changed))
        was = next((s for s in before.seats if s.seat == before.you), None)
        now = next((s for s in lobby.seats if s.seat == lobby.you), None)
        unready = unready or (was is not None and now is not None and was.ready
                              and not now.ready)
        if unready and now is not None and not now.ready:
            text += " · " + self.tr("news.ready_again")
        line = ChatLine(self.tr("news.table"), text, None, "local")
        self._chat(line)
        self._rules_said = (line, base, unready)

    def _own_rules_news(self, before: LobbyState, lobby: LobbyState) -> None:
        """The owner's change of one option that changed others with it (a variant puts back
        what it plays itself, SPEC [UNO-8-12]): said to the owner, whose editor shows the
        option asked while the others change out of its sight."""
        asked, self._option_asked = self._option_asked, None
        if asked is None:
            return
        also = rule_changes(before.rules, lobby.rules, self.tr.lang, besides=asked)
        if also:
            text = self.tr("news.rules_also", option=option_words(asked, lobby.rules,
                                                                  self.tr.lang),
                           changes="; ".join(also))
            self._chat(ChatLine(self.tr("news.table"), text, None, "local"))

    def set_name(self, text: str) -> LobbyCommand | None:
        """The name typed after `e` (spaces folded, cut to 32). Seated in the lobby it renames
        us there at once (a join at our own table, SPEC.md [UNO-8-8]); before joining, the
        next join carries it and a new table gets it right after seating us."""
        if not typed(text).split():
            self.notice = self.tr("n.name_empty")
            return None
        try:
            name = own_name(text)
        except TextRefused:  # nothing else is left to refuse but a reserved name
            self.notice = self.tr("n.name_reserved")
            return None
        self.my_name = name
        self.say(self.tr("n.name_set", name=name), "name")
        lobby = self.lobby
        if lobby is not None and lobby.you is not None and not lobby.started:
            return JoinTable(lobby.table, name)
        self.name_pending = lobby is None
        return None

    def move_to_seat(self, index: int) -> LobbyCommand | None:
        """A seat number in the lobby: sit there if it is empty. One join at our own table
        moves us (SPEC.md [UNO-8-8]), so the owner keeps the table and the seat is never
        free for someone else in between, as it would be with leave and join. A spectator
        takes the seat (the link leaves the audience first)."""
        lobby = self.lobby
        if lobby is None or lobby.started or index == lobby.you:
            return None
        if not 0 <= index < len(lobby.seats):
            self.notice = self.tr("n.no_seat", seat=index + 1)
            return None
        if lobby.seats[index].kind != "empty":
            self.notice = self.tr("n.seat_taken", seat=index + 1)
            return None
        self.notice = ""
        return JoinTable(lobby.table, self.my_name or "player", index)

    def open_seats(self) -> list[int]:
        """The seats a spectator may take: in the lobby the empty ones; in mid-match those a
        stand-in plays because their player is gone (the host says so: `taken_over`, SPEC.md
        8.2 [UNO-8-14]); a seat whose player dropped and may still come back within its grace
        period is not offered, since the host would refuse it."""
        lobby = self.lobby
        if lobby is None:
            return []
        if not lobby.started:
            return [s.seat for s in lobby.seats if s.kind == "empty"]
        return [s.seat for s in lobby.seats if s.kind == "human" and s.taken_over]

    def take_seat(self, index: int) -> LobbyCommand | None:
        """A seat number while watching a match: sit in that seat if its player is gone."""
        lobby = self.lobby
        if lobby is None or not self.watching:
            return None
        if not lobby.started:
            return self.move_to_seat(index)
        if index not in self.open_seats():
            away = any(s.seat == index and s.kind == "human" and not s.connected
                       for s in lobby.seats)
            self.notice = self.tr("n.seat_waiting" if away else "n.seat_not_open", seat=index + 1)
            return None
        self.notice = ""
        return JoinTable(lobby.table, self.my_name or "player", index)

    def toggle_ready(self) -> LobbyCommand | None:
        lobby = self.lobby
        if lobby is None or lobby.you is None or lobby.you >= len(lobby.seats):
            return None
        return SetReady(not lobby.seats[lobby.you].ready)

    def option_next(self, step: int = 1) -> None:
        """The editor's next option of the game played (`option_cursor` indexes every option
        the editor knows; those of other games are stepped over)."""
        every, shown = editor_options(), self.shown_options
        cursor = self.option_cursor
        for _ in range(len(every)):
            cursor = (cursor + step) % len(every)
            if every[cursor] in shown:
                break
        self.option_cursor = cursor

    def change_option(self, step: int) -> LobbyCommand | None:
        """Owner: the option under the cursor, one value up or down (its choices or range),
        skipping values the engine does not play with the other options."""
        if not self._owner_only() or self.lobby is None:
            return None
        info = editor_options()[min(self.option_cursor, len(editor_options()) - 1)]
        rules = {k: v for k, v in self.lobby.rules.items() if k in OPTIONS}
        current = rules.get(info.name, getattr(RuleSet(), info.name))
        seated = sum(1 for seat in self.lobby.seats if seat.kind != "empty")
        value = step_option(info, rules, step, max(2, seated))
        if value == current:
            return None
        self._option_asked = info.name
        return SetRules({info.name: value})  # over the rules in force: the others stay

    def next_preset(self) -> LobbyCommand | None:
        """Owner, `p`: the next preset the engine plays (never flip or no_mercy)."""
        if not self._owner_only() or self.lobby is None:
            return None
        names = playable_presets()
        now = names.index(self.lobby.preset) if self.lobby.preset in names else -1
        name = names[(now + 1) % len(names)]
        seated = sum(1 for seat in self.lobby.seats if seat.kind != "empty")
        kept, reset = preset_keeping(name, self.lobby.rules, self.lobby.preset, max(2, seated))
        said = [self.tr("n.preset", preset=name)]
        if kept:
            said.append(self.tr("n.preset_kept", options="; ".join(
                option_words(key, kept, self.tr.lang) for key in kept)))
        if reset:
            said.append(self.tr("n.preset_reset", options=", ".join(
                option_title(key, self.tr.lang) for key in reset)))
        # In the chat, not the notice line: the table_state that answers would take it away.
        self._chat(ChatLine(self.tr("news.table"), " · ".join(said), None, "local"), mine=True)
        return SetRules(kept, name)

    def add_bot(self) -> LobbyCommand | None:
        """Owner, `a`: a bot of the level picked with `l` (normal until then, which the
        message leaves to the host's default)."""
        if not self._owner_only():
            return None
        return AddBot(level=None if self.bot_level == BOT_LEVELS[0] else self.bot_level)

    def next_bot_level(self) -> None:
        """Owner, `l`: the next level for the bots `a` adds (normal, hard, easy), said in
        the words players know them by (the policies strong and random)."""
        if not self._owner_only():
            return
        self.bot_level = BOT_LEVELS[(BOT_LEVELS.index(self.bot_level) + 1) % len(BOT_LEVELS)]
        self.notice = self.tr("n.bot_level", level=self.tr(f"level.{self.bot_level}"))

    def remove_bot(self) -> LobbyCommand | None:
        if not self._owner_only() or self.lobby is None:
            return None
        bots = [s.seat for s in self.lobby.seats if s.kind == "bot"]
        return RemoveBot(bots[-1]) if bots else None

    def ask_kick(self) -> None:
        """`k` in the lobby (owner): the next seat number is whom to remove."""
        if self._owner_only() and self.lobby is not None and not self.lobby.started:
            self.local_prompt = SeatPrompt("kick")

    def pick_seat(self, index: int) -> LobbyCommand | None:
        """A seat number answering the SeatPrompt: the command for that seat. Kicking a bot
        removes it (the owner's x, for that seat); our own seat or an empty one is refused
        here with a notice, the rest is the host's to judge."""
        prompt = self.local_prompt
        self.local_prompt = None
        lobby = self.lobby
        if not isinstance(prompt, SeatPrompt) or lobby is None:
            return None
        if not 0 <= index < len(lobby.seats):
            self.notice = self.tr("n.no_seat", seat=index + 1)
            return None
        seat = lobby.seats[index]
        if index == lobby.you:
            self.notice = self.tr("n.not_yourself")
            return None
        if seat.kind == "empty":
            self.notice = self.tr("n.seat_empty", seat=index + 1)
            return None
        self.notice = ""
        if prompt.kind == "penalize":
            return Penalize(index)
        return RemoveBot(index) if seat.kind == "bot" else Kick(index)

    def start_match(self) -> LobbyCommand | None:
        return StartMatch() if self._owner_only() else None

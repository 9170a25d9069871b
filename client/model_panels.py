"""What every screen has beside its own: the chat, the notice line's refusals, the help and
trust panels, the quit question, and how the host's notices and refusals are worded."""

from __future__ import annotations

import re
from dataclasses import replace

from client import link
from client.lobby import SeatInfo
from client.model_state import ENGINE_CODES, ChatLine, JoinLine, ModelState
from client.prompts import QuitPrompt
from client.safe_text import own_chat, shown, typed
from unonet.words import Words, join_sentence


class Panels(ModelState):
    """The chat, the help and trust panels, the host's words in ours."""

    def _notice_words(self, notice: link.ChatReceived) -> str | None:
        """A host notice in our player's words, if we know its code and it has what the words
        need (else the host's `text` is shown: SPEC.md [UNO-8-27])."""
        if notice.notice == "join_with":
            if notice.command is None:
                return None
            # the host's words for it, in our player's language
            return join_sentence(Words(self.tr.lang), notice.command, notice.addresses)
        key = f"notice.{notice.notice}"
        if notice.notice is None or not self.tr.has(key):
            return None
        return self.tr(key, name=notice.about or "?")

    def refusal_reason(self, code: str, message: str) -> str:
        """A refusal in the player's words: ours for the codes whose meaning is ours to say
        (a move refused, a seat given up); else the host's own words where the player reads
        English (they name the seat, the limit; unonet's host writes its diagnostic `msg` in
        English), and our words for the code in another language."""
        if self.tr.has(f"err.{code}"):
            return self.tr(f"err.{code}")
        if self.tr.lang != "en" or not message:
            if self.tr.has(f"refusal.{code}"):
                return self.tr(f"refusal.{code}")
            if code in ENGINE_CODES:  # a move the table had moved on from (a race)
                return self.tr("refusal.move")
        return message

    def _said_by_us(self, name: str, seat: int | None) -> bool:
        """Our own line coming back from the host (a spectator's has no seat: by name)."""
        if seat is not None:
            return seat == self.me
        return self.me is None and name == self.my_name

    def focus_chat(self, focused: bool) -> None:
        """The input line got (or gave back) the keys: with them, every line is read; given
        back, the chat shows its newest lines again."""
        self.chat_focused = focused
        if focused:
            self.chat_unread = 0
        else:
            self.chat_back = 0

    def scroll_chat(self, lines: int, depth: int) -> None:
        """PgUp/PgDn: the chat `lines` further back (negative: forward), never past its newest
        line nor `depth`, the wrapped lines before it on the screen (render.chat_depth)."""
        self.chat_back = min(max(0, self.chat_back + lines), max(0, depth))

    @staticmethod
    def chat_line(text: str) -> str | None:
        """The chat text to send, trimmed and cut to the protocol's limit; None if empty."""
        return own_chat(" ".join(typed(text).split()))  # own_chat cuts it to the limit

    def apply_trust(self, report: link.TrustReport) -> None:
        """A check's outcome: a violation goes into the log too (the panel keeps them all);
        a check that passed is routine, the title bar's round status says it."""
        if not report.ok:
            self.log.append(self.tr("trust.caught", what=self.violation_words(report.kind,
                                                                              report.detail)))

    def violation_words(self, kind: str, detail: str = "") -> str:
        """What the host was caught at, in the player's language (the code's own words when
        this client has none for it)."""
        key = f"trust.{kind}"
        return self.tr(key) if key in self.tr.strings else (detail or kind)

    @property
    def unseen_violation(self) -> link.Caught | None:
        """The newest violation the player has not seen on the trust panel yet."""
        violations = self.trust.violations
        return violations[-1] if len(violations) > self.trust_seen else None

    def toggle_trust(self) -> None:
        """`t`: open the trust panel (every violation on it counts as seen) or close it."""
        self.show_trust = not self.show_trust
        self.show_help = self.show_sides = False
        if self.show_trust:
            self.trust_seen = len(self.trust.violations)

    def toggle_sides(self) -> None:
        """`o` in UNO Flip: the other side of every player's cards on a page of its own, or
        back to the table. A table too small to show them beside the players (60x18 at ten
        players) keeps them within reach."""
        self.show_sides = not self.show_sides and self.flip and self.view is not None
        self.show_help = self.show_trust = False

    def request_quit(self) -> None:
        self.show_help = False
        self.show_trust = self.show_sides = False
        self.local_prompt = QuitPrompt()

    def toggle_help(self) -> None:
        self.show_help = not self.show_help
        self.show_trust = self.show_sides = False
        self.help_page = 0

    def turn_help_page(self, step: int, pages: int) -> None:
        """↓/↑ while the help is open: the next or the previous of its `pages`."""
        self.help_page = min(max(0, self.help_page + step), max(0, pages - 1))

    # -- updates every screen shows (client/model.py UPDATE_HANDLERS) --------------------------

    def _on_chat(self, update: link.ChatReceived) -> None:
        join = join_line_of(update)
        if join is not None:
            # How friends join: the lobby's own line, never wrapped in the chat (found in
            # tmux: it took 2-5 chat lines and split inside the fingerprint); `c` copies it.
            self.join_with = join
            return
        if update.host:
            text = self._notice_words(update) or update.text  # SPEC.md [UNO-8-27]
            line = ChatLine(shown(update.name), shown(text), None, "host")
            # how friends join comes with each seating, a resume too: said once
            if update.notice != "join_with" or line not in self.chat:
                self._chat(line)
        else:
            self._chat(ChatLine(shown(update.name), shown(update.text), update.seat),
                       mine=self._said_by_us(update.name, update.seat))

    def _on_seat_news(self, update: link.SeatNews) -> None:
        """What happened to a seat, as the host told it (SPEC.md [UNO-8-17])."""
        text = self.tr(f"news.{update.what}", name=shown(update.name), seat=update.seat + 1,
                       old=shown(update.old))
        self._chat(ChatLine(self.tr("news.table"), text, None, "local"))

    def _on_local_news(self, update: link.LocalNews) -> None:
        self._chat(ChatLine("unonet", self.tr(update.key, **update.values), None, "local"))

    def _on_hosting(self, update: link.Hosting) -> None:
        self.hosting = True
        self._chat(ChatLine("unonet", self.tr("news.hosting"), None, "local"), mine=True)

    def _on_host_key(self, update: link.HostKeyWarning) -> None:
        self.host_key = update
        self.local_prompt = None
        self.show_help = self.show_trust = self.show_sides = False

    def _on_trust_status(self, update: link.TrustStatus) -> None:
        self.trust = update
        if self.show_trust:
            self.trust_seen = len(update.violations)  # it is on the screen now

    def _on_connection(self, update: link.ConnectionChanged) -> None:
        self.connection = update.state
        self.connection_detail = update.detail
        self.connection_code = update.code
        self.connection_retry = update if update.attempt else None
        if update.state != "connected":
            self.legal = ()  # the host is gone: nothing can be played until it is back
            self.timer = None  # and its timers are not ours to count

    def _on_refused(self, update: link.Refused) -> None:
        code = update.code
        reason = self.refusal_reason(code, update.message)
        if code == "invalid_resume":
            # Our seat is gone (the link joins again as a newcomer): so is the table it
            # showed, and this refusal lands on whatever comes next.
            self._leave_table()
        # A fatal refusal is said by the connection's end (ConnectionChanged), not here: what
        # arrives is a refusal of something we did, the kick, or our seat being gone
        # (invalid_resume), each about the table's state.
        if code == "kicked" and self.lobby is not None:
            # The seat is no longer ours, and the host has freed it: the lobby shows it
            # empty, not ours (before the notice, which holds while the lobby stays as it is
            # then).
            lobby = self.lobby
            seats = tuple(SeatInfo(info.seat, "empty", None, False, False)
                          if info.seat == lobby.you else info for info in lobby.seats)
            self.lobby = replace(lobby, you=None, seats=seats)
        if code == "invalid_resume":  # no refusal of anything the player did: news
            self.refused(self.tr("n.seat_lost"))
            return
        self.refused(self.tr("n.refused", reason=shown(reason or code)))


JOIN_COMMAND = re.compile(
    r"unonet join (?:\[[0-9A-Fa-f:.]{2,45}\]|[0-9A-Za-z.-]{1,253}):[0-9]{1,5} "
    r"(?:--(?:pin|fingerprint) [A-Z2-7]{4}(?:-[A-Z2-7]{4}){3,12}|--no-tls)")
"""What a host's join_with command may be for the lobby to show it as the line to copy: a
command that goes into a shell, so nothing but `unonet join ADDRESS:PORT` and a pin (or
--no-tls) is ever put in the clipboard; anything else is said in the chat as text."""

OTHER_ADDRESSES = re.compile(r"[0-9A-Za-z.:, \[\]-]{1,512}")


def join_line_of(update: link.ChatReceived) -> JoinLine | None:
    """The host's join_with notice (SPEC.md [UNO-8-27]) as the line to share, if it is one."""
    if not update.host or update.notice != "join_with" or update.command is None:
        return None
    if JOIN_COMMAND.fullmatch(update.command) is None:
        return None
    others = update.addresses or ""
    return JoinLine(update.command, others if OTHER_ADDRESSES.fullmatch(others) else "")

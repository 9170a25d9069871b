"""The table list: which table is selected, and the keys that join, watch or open one."""

from __future__ import annotations

from client import link
from client.lobby import CreateTable, JoinTable, LobbyCommand, Spectate
from client.model_state import ModelState
from protocol.text import TextRefused, normal_name


class TableListScreen(ModelState):
    """The host's tables (`tables`, `table_cursor`) and what Enter, w and n ask for."""

    def table_next(self, step: int = 1) -> None:
        if self.tables:
            self.table_cursor = (self.table_cursor + step) % len(self.tables)

    def join_selected(self, seat: int | None = None) -> LobbyCommand | None:
        """Enter: the selected table, any free seat; a seat number: that seat."""
        if not self.tables:
            return None
        table = self.tables[min(self.table_cursor, len(self.tables) - 1)]
        self.name_pending = False  # the join carries the name
        return JoinTable(table.table, self.my_name or "player", seat)

    def watch_selected(self) -> LobbyCommand | None:
        """`w` on the table list: watch the selected table (a free seat can be taken later)."""
        if not self.tables:
            return None
        return Spectate(self.tables[min(self.table_cursor, len(self.tables) - 1)].table)

    def create_table(self) -> LobbyCommand:
        """A new table named for its owner in the owner's words ("Tavolo di Bea"), not the
        host's "table 3"; the host's name where ours would be too long or refused."""
        try:
            name = normal_name(self.tr("tables.new_name", name=self.my_name or "player"))
        except TextRefused:
            return CreateTable()
        return CreateTable(name)

    def _on_tables(self, update: link.TablesListed) -> None:
        if self.lobby is not None or self.tracker is not None:
            self._leave_table()  # the link lists tables only when it is at none
        self.tables = update.tables
        self.table_cursor = min(self.table_cursor, max(0, len(update.tables) - 1))

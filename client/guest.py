"""`NetworkLink`: the TableLink the app uses, with trio running as a guest of asyncio.

prompt-toolkit owns the thread's asyncio loop; `start` begins a trio run on the same thread
with `trio.lowlevel.start_guest_run(run_sync_soon_threadsafe=loop.call_soon_threadsafe)`
(DESIGN.md "The client": one thread, no locks). The trio side runs a `LinkMain`, normally
`run_link` (client/network.py), between two memory channels:

- commands go in through the trio token's `run_sync_soon`, which is safe from asyncio code;
- updates come out through a pump task that calls the app's `deliver` directly: trio's tasks
  run on the asyncio thread, so the app sees them in order, on its own thread.

A failure inside trio is not swallowed: the screen hears ConnectionChanged("lost"), and
`wait_closed()` raises it once the app is gone.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable

import outcome
import trio

from client.link import (
    CLOSE_GRACE,
    NOT_CONNECTED,
    Chat,
    CloseLink,
    Command,
    ConnectionChanged,
    Deliver,
    Refused,
    Update,
)
from client.lobby import LobbyCommand
from unonet.actions import Action

log = logging.getLogger("unonet.client.guest")

LinkMain = Callable[
    [trio.MemoryReceiveChannel[Command], trio.MemorySendChannel[Update]], Awaitable[object]
]
"""What runs inside trio: reads commands, writes updates, returns when the link is over."""

UPDATE_BUFFER = 256
"""Updates waiting for the pump; the pump runs on the same thread, so this rarely fills, and
when it does the reader waits (backpressure) instead of growing without bound."""


class NetworkLink:
    """TableLink over the network (client/link.py); `wait_closed()` after the app exits."""

    def __init__(self, main: LinkMain) -> None:
        self._main = main
        self._deliver: Deliver | None = None
        self._token: trio.lowlevel.TrioToken | None = None
        self._commands: trio.MemorySendChannel[Command] | None = None
        self._scope: trio.CancelScope | None = None
        self._early: list[Command] = []
        self._closing = False
        self._done: asyncio.Future[outcome.Outcome[object]] | None = None
        self.last_state: ConnectionChanged | None = None

    # -- the TableLink protocol --------------------------------------------------------------

    def start(self, deliver: Deliver) -> None:
        """Start trio as a guest of the running asyncio loop (call from inside that loop)."""
        if self._done is not None:
            raise RuntimeError("a NetworkLink starts once")
        loop = asyncio.get_running_loop()
        self._deliver = deliver
        self._done = loop.create_future()
        trio.lowlevel.start_guest_run(
            self._trio_main,
            run_sync_soon_threadsafe=loop.call_soon_threadsafe,
            done_callback=self._finished,
            host_uses_signal_set_wakeup_fd=True,
        )

    def send_intent(self, action: Action) -> None:
        self._send(action)

    def send_lobby(self, command: LobbyCommand) -> None:
        self._send(command)

    def send_chat(self, text: str) -> None:
        self._send(Chat(text))

    def close(self) -> None:
        """Say bye and stop delivering; the trio run ends within CLOSE_GRACE seconds."""
        if self._closing:
            return
        self._closing = True
        self._send(CloseLink())

    async def wait_closed(self) -> None:
        """Wait for the trio run to end; re-raise what ended it if it failed."""
        if self._done is None:
            return
        result = await self._done
        result.unwrap()

    # -- the asyncio side ----------------------------------------------------------------------

    def _send(self, command: Command) -> None:
        if self._token is None:
            self._early.append(command)  # trio has not run its first tick yet
            return
        try:
            self._token.run_sync_soon(self._enqueue, command)
        except trio.RunFinishedError:
            self._refuse_offline(command)

    def _finished(self, result: outcome.Outcome[object]) -> None:
        if isinstance(result, outcome.Error) and not self._closing and self._deliver:
            # a bug of ours: its traceback to the log, words to the screen (no class name)
            log.error("the network code failed", exc_info=result.error)
            cause = result.error
            while isinstance(cause, BaseExceptionGroup) and cause.exceptions:
                cause = cause.exceptions[0]  # trio's nursery wraps what failed
            self._deliver(ConnectionChanged("lost", f"the network code failed: {cause}",
                                            code="link_failed"))
        assert self._done is not None
        if not self._done.done():
            self._done.set_result(result)

    def _refuse_offline(self, command: Command) -> None:
        if not isinstance(command, CloseLink) and not self._closing and self._deliver:
            self._deliver(Refused(NOT_CONNECTED, "not connected"))

    # -- the trio side -------------------------------------------------------------------------

    async def _trio_main(self) -> None:
        commands_in, commands_out = trio.open_memory_channel[Command](math.inf)
        updates_in, updates_out = trio.open_memory_channel[Update](UPDATE_BUFFER)
        self._token = trio.lowlevel.current_trio_token()
        self._commands = commands_in
        for command in self._early:  # before any await: nothing can come in between
            self._enqueue(command)
        self._early.clear()
        async with trio.open_nursery() as nursery:
            self._scope = nursery.cancel_scope
            nursery.start_soon(self._pump, updates_out)
            async with commands_in, commands_out, updates_in:
                await self._main(commands_out, updates_in)

    def _enqueue(self, command: Command) -> None:
        """Runs in trio (via run_sync_soon): queue one command for the link."""
        assert self._commands is not None
        if isinstance(command, CloseLink) and self._scope is not None:
            self._scope.deadline = min(self._scope.deadline, trio.current_time() + CLOSE_GRACE)
        try:
            self._commands.send_nowait(command)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self._refuse_offline(command)  # the link is over (lost): say so, do not raise

    async def _pump(self, updates: trio.MemoryReceiveChannel[Update]) -> None:
        async with updates:
            async for update in updates:
                if isinstance(update, ConnectionChanged):
                    self.last_state = update
                if not self._closing and self._deliver is not None:
                    self._deliver(update)

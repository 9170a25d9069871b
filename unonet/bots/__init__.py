"""Bot policies. They decide from a seat's view, its legal actions and the events addressed to
that seat, never from the full state, so a bot in the host and a bot over the network are the
same player."""

from unonet.bots.base import Bot
from unonet.bots.normal import NormalBot
from unonet.bots.random_bot import RandomBot

POLICIES: dict[str, type[Bot]] = {"random": RandomBot, "normal": NormalBot}

__all__ = ["POLICIES", "Bot", "NormalBot", "RandomBot"]

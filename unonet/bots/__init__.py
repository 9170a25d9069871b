"""Bot policies. They decide from a seat's view, its legal actions and the events addressed to
that seat, never from the full state, so a bot in the host and a bot over the network are the
same player."""

from unonet.bot_settings import DEFAULT_BUDGET, LEVEL_NAMES, POLICY_NAMES, SearchBudget
from unonet.bots.base import Bot
from unonet.bots.normal import NormalBot
from unonet.bots.random_bot import RandomBot
from unonet.bots.strong import StrongBot
from unonet.cards import DeckManifest
from unonet.rules import RuleSet

POLICIES: dict[str, type[Bot]] = {"random": RandomBot, "normal": NormalBot, "strong": StrongBot}


def make_bot(level: str, seat: int, rules: RuleSet, manifest: DeckManifest, seed: int = 0,
             budget: SearchBudget | None = None, forget_rate: float | None = None) -> Bot:
    """A bot of policy `level` for `seat`; `budget` is the strong bot's think budget (the
    others answer at once); `forget_rate` None is the level's own. KeyError for a level that
    does not exist."""
    policy = POLICIES[level]
    if policy is StrongBot:
        return StrongBot(seat, rules, manifest, seed=seed, forget_rate=forget_rate,
                         budget=budget)
    return policy(seat, rules, manifest, seed=seed, forget_rate=forget_rate)


__all__ = [
    "DEFAULT_BUDGET",
    "LEVEL_NAMES",
    "POLICIES",
    "POLICY_NAMES",
    "Bot",
    "NormalBot",
    "RandomBot",
    "SearchBudget",
    "StrongBot",
    "make_bot",
]

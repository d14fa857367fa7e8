"""Game-agnostic computer players: the Bot protocol, a random player, and the arena."""

from parlour.bots.base import Bot, RandomBot

__all__ = ["Bot", "RandomBot"]

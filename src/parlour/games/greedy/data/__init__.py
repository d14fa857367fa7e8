"""Shipped solver tables for Greedy (see :mod:`parlour.games.greedy.tournament`)."""

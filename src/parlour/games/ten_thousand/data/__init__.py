"""Solved tables shipped with the package (see ``parlour.games.ten_thousand.optimal``)."""

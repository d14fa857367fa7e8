"""Wire models: what clients send (strict: unknown fields are refused) and what they get.

Game views are the engine's JSON observations, typed here as free-form objects; everything
around them is declared, so ``/docs`` shows the whole API.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

MAX_DEPTH = 8
"""How deeply a request body may nest arrays and objects (the deepest request, a preview's
tiles, nests 3): deeper bodies are refused before anything recurses into them."""


class Strict(BaseModel):
    """Base of request bodies: unknown fields, wrong types, text with NUL characters and
    nesting deeper than :data:`MAX_DEPTH` are refused (422)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    @model_validator(mode="before")
    @classmethod
    def _no_nul(cls, data: Any) -> Any:
        if _has_nul(data):
            raise ValueError("text may not contain NUL characters")
        return data


def _has_nul(value: Any) -> bool:
    """Whether any text in *value* (keys too) holds a NUL; raises ``ValueError`` for nesting
    deeper than :data:`MAX_DEPTH` (a body of 500 nested objects overflowed the stack: 500).
    Iterative, so no body can exhaust the recursion limit."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict | list):
            if depth >= MAX_DEPTH:
                raise ValueError(f"a request nests arrays and objects at most {MAX_DEPTH} deep")
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


class Credentials(Strict):
    """A name and password to log in with."""

    name: str = Field(min_length=1, max_length=40, examples=["ann"])
    password: str = Field(min_length=1, max_length=128, examples=["correct horse"])


NAME_PATTERN = r"^[A-Za-z0-9](?:[A-Za-z0-9 _.-]*[A-Za-z0-9])?$"
"""What an account name may be (besides its 3-20 characters)."""


class NewAccount(Strict):
    """A new account: the name (3-20 letters, digits, spaces, ``_.-``, starting and ending
    with a letter or digit; unique ignoring case; runs of spaces count as one) and a
    password of 8-128 characters."""

    name: str = Field(
        min_length=3,
        max_length=20,
        json_schema_extra={"pattern": NAME_PATTERN},
        examples=["ann"],
    )
    password: str = Field(min_length=8, max_length=128, examples=["correct horse"])

    @field_validator("name")
    @classmethod
    def _name_characters(cls, name: str) -> str:
        # the reason in words: a newcomer typing "Zoë" or "ann!" should not read a regex
        if not re.fullmatch(NAME_PATTERN, name):
            raise ValueError(
                "a name has only letters A-Z, digits, spaces and _ . - "
                "and begins and ends with a letter or digit"
            )
        return name


class AccountOut(BaseModel):
    """An account as shown to its owner."""

    id: int
    name: str


class LoginOut(BaseModel):
    """A login: the account and a bearer token (also set as the session cookie)."""

    account: AccountOut
    token: str


class OptionOut(BaseModel):
    """One game option: its kind, default, allowed values and help."""

    kind: Literal["int", "bool", "str"]
    default: Any
    minimum: int | None = None
    maximum: int | None = None
    step: int | None = None
    choices: list[str] = []
    allowed: str
    help: str
    file: bool = False
    """A string that may name a file on the server's machine (a word list): a web form
    leaves it at its default."""


class GameOut(BaseModel):
    """A game the server hosts, with what its create form needs."""

    name: str
    title: str
    summary: str
    aliases: list[str]
    min_players: int
    max_players: int
    information: str
    bot_levels: list[str]
    options: dict[str, OptionOut]
    clock_days: list[int]
    rules_doc: str
    web_renderer: str
    """The web client's module that draws the game (``static/js/games/<name>.js``); ``""``:
    the generic one (the observation as a table, the legal actions as buttons)."""
    picture: bool = False
    """Whether the game ships a picture of its own; either way ``GET /games/{name}/picture``
    answers an SVG (a generic one for a game without)."""
    start: Literal["creator", "vote"]
    """How a table starts: ``"creator"`` (the creator starts it once every seat is filled) or
    ``"vote"`` (players vote to begin; ``min_players`` applies)."""
    coach: bool = False
    """Whether the game has a coach (``GET /tables/{id}/coach`` at unrated tables, and a
    finished game's ``GET /tables/{id}/review``)."""


class NewTableIn(Strict):
    """Create a table: the game, one entry per seat, options, who may join, the clock.

    ``seats``: ``"me"`` (exactly once), ``"open"`` or ``"cpu"``/``"cpu:<level>"``.
    ``clock_days``: 1, 2, 3, 5, 7, 14 or null (unlimited); in crossword daily mode 1 or null
    (the day is the clock). ``start``: start at once when no seat is open (a game against
    computer players). ``min_players``: for games that begin on votes (the crossword), how
    many votes to begin are enough. ``time_zone``: an IANA name (default: the server's,
    UTC), where midnight is for crossword daily mode.
    """

    game: str = Field(max_length=40, examples=["ten-thousand"])
    seats: list[str] = Field(min_length=1, max_length=12, examples=[["me", "cpu:cautious"]])
    options: dict[str, int | bool | str] = Field(default_factory=dict, max_length=20)
    visibility: Literal["open", "invite"] = "open"
    clock_days: int | None = Field(default=None, examples=[3])
    max_skips: int | None = Field(default=None, ge=1, le=10)
    min_players: int | None = Field(default=None, ge=1, le=12)
    start: bool = False
    time_zone: str | None = Field(default=None, max_length=64, examples=["Europe/Paris"])
    rated: bool = True
    """Rated (the result changes the players' ratings) or casual (endings lane)."""


class JoinIn(Strict):
    """Join a table; invite-only tables need the code from the join link."""

    invite: str | None = Field(default=None, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")


class ActionIn(Strict):
    """An action in the game's notation, made against the table version the client saw."""

    action: str = Field(min_length=1, max_length=500, examples=["keep 1 5 roll"])
    version: int = Field(ge=0, le=10_000_000, examples=[3])


class SeatOut(BaseModel):
    """A seat: ``kind`` is ``person``, ``cpu`` or ``open``; ``you`` marks the viewer's."""

    seat: int
    kind: Literal["person", "cpu", "open"]
    name: str | None
    level: str | None
    skips: int
    removed: bool
    you: bool


class EventOut(BaseModel):
    """A logged event the viewer may see: number, who (seat, -1 chance, -4 host), notation."""

    seq: int
    by: int
    move: str


class PreviewIn(Strict):
    """An action to preview: ``action`` in notation, or ``tiles`` as ``[square, letter]``
    pairs for games whose plays are laid tile by tile (the crossword). Exactly one."""

    action: str | None = Field(default=None, min_length=1, max_length=500)
    tiles: list[list[str]] | None = Field(default=None, min_length=1, max_length=15)

    @model_validator(mode="after")
    def _one(self) -> PreviewIn:
        if (self.action is None) == (self.tiles is None):
            raise ValueError("give either 'action' or 'tiles'")
        if self.tiles is not None and any(
            len(pair) != 2 or len(pair[0]) > 3 or len(pair[1]) != 1 for pair in self.tiles
        ):
            raise ValueError("a tile is a square like 'H8' and one letter")
        return self


class PreviewOut(BaseModel):
    """A preview: ``ok`` with the action in notation and your observation after it, or not
    ``ok`` with the engine's ``reason``; ``version`` is the table's version it was made at."""

    ok: bool
    action: str | None
    reason: str | None
    version: int
    view: dict[str, Any] | None


class ReplayOut(BaseModel):
    """A finished game after ``step`` of its ``steps`` events: the last event applied and
    every seat's observation (seat order, as ``names``)."""

    step: int
    steps: int
    event: EventOut | None
    names: list[str]
    views: list[dict[str, Any]]


class CoachOut(BaseModel):
    """The coach's advice for your decision at ``version``: ``advice`` holds ``seat``,
    ``note`` and ``choices`` (best first, each ``{"action", "best", "figures": [{"name",
    "value", "text"}]}``), or is ``null`` where the coach has nothing to say."""

    version: int
    advice: dict[str, Any] | None


class ReviewOut(BaseModel):
    """A finished game's review: every judged ``decisions`` (``index``, ``seat``,
    ``player``, ``made``, ``value``, ``text``, ``best``, ``best_value``, ``best_text``,
    ``loss``) and per seat in ``players`` the count, the ``total_loss`` and the biggest
    ``mistakes``."""

    decisions: list[dict[str, Any]]
    players: list[dict[str, Any]]


class PasswordChange(Strict):
    """A new password (8-128 characters) and the current one it replaces."""

    current: str = Field(min_length=1, max_length=128, examples=["correct horse"])
    new: str = Field(min_length=8, max_length=128, examples=["battery staple"])


class PasswordCheck(Strict):
    """The account's password, to confirm something that cannot be undone."""

    password: str = Field(min_length=1, max_length=128, examples=["correct horse"])


class LoginSessionOut(BaseModel):
    """One login of the account: its public id (not the token), when it was made, last
    used (null: not since) and expires (ISO 8601, UTC), and whether it is this one."""

    id: str
    created_at: str
    last_used_at: str | None
    expires_at: str
    current: bool


class SessionOut(BaseModel):
    """Who this browser is logged in as: the account, or null (never an error)."""

    account: AccountOut | None


class TableSummary(BaseModel):
    """A table in a list (lobby, my games)."""

    id: int
    game: str
    title: str
    status: Literal["lobby", "active", "finished", "cancelled"]
    visibility: Literal["open", "invite"]
    options: dict[str, Any]
    clock_days: int | None
    time_zone: str = "UTC"
    max_skips: int
    creator: str
    created_at: str | None
    seats: list[SeatOut]
    you: int | None
    invite_code: str | None
    version: int
    to_move: list[int]
    your_turn: bool
    deadline: str | None
    result: dict[str, Any] | None
    votes: list[int]
    min_players: int | None
    rated: bool = True
    ended: dict[str, Any] | None = None
    """How the game ended other than by its rules: ``{"how": "resigned"|"aborted", ...}``."""
    resigned: list[int] = []
    rematch: dict[str, Any] | None = None
    """``{"accepted": [names], "table": id or null}`` once someone offered a rematch."""
    rematch_of: int | None = None


class TableOut(TableSummary):
    """A whole table for one viewer: their observation, legal actions and visible events.

    ``legal`` is null when there are too many actions to list.
    """

    view: dict[str, Any] | None
    legal: list[str] | None
    events: list[EventOut]
    can_start: bool
    start_refusal: str | None


class ActionOut(BaseModel):
    """An accepted action: the new version, the events it added (the action and any chance
    outcomes after it), and the viewer's observation and legal actions now."""

    version: int
    status: str
    to_move: list[int]
    your_turn: bool
    events: list[EventOut]
    view: dict[str, Any]
    legal: list[str] | None
    result: dict[str, Any] | None


class EventsOut(BaseModel):
    """Events since a version (for resynchronising), and the version and status now."""

    version: int
    status: str
    events: list[EventOut]


class StepOut(BaseModel):
    """What an event did, as the rules tell it: ``seat`` whose turn it concerned (``None``
    when the game names none), ``points`` it scored, ``score_changes`` by seat (``[]``:
    none), ``marks`` (the game's words for it, such as ``"farkle"`` or ``"bank"``)."""

    seq: int
    seat: int | None
    points: int
    score_changes: list[int]
    marks: list[str]


class StepsOut(BaseModel):
    """The steps of the events you may see, and the version they were told at."""

    version: int
    steps: list[StepOut]


class ErrorOut(BaseModel):
    """Every error: a readable ``detail``, a short ``code``; 409s carry ``current``."""

    detail: str
    code: str
    current: dict[str, Any] | None = None


class StandingOut(BaseModel):
    """A person's Greedy standings: tournament ``points``, ``best_margin`` in game points."""

    name: str
    games: int
    wins: int
    losses: int
    points: int
    best_margin: int | None


class RummyStatsOut(BaseModel):
    """A person's Rummy statistics (``win_rate`` 0-1; scores in points)."""

    name: str
    played: int
    won: int
    lost: int
    win_rate: float
    best_game_score: int | None
    best_round_score: int | None
    average_round_score: float | None
    rounds: int
    current_streak: int
    longest_streak: int

"""The games the server hosts, with their options and computer levels (for create forms)."""

from __future__ import annotations

from fastapi import APIRouter, Response

from parlour.engine.errors import UnknownGame
from parlour.engine.registry import find, specs
from parlour.engine.spec import GameSpec, Option
from parlour.server.errors import NotFound
from parlour.server.schemas import GameOut, OptionOut
from parlour.server.settings import CLOCK_DAYS
from parlour.web import web_root

router = APIRouter(prefix="/games", tags=["games"])


def _option(option: Option) -> OptionOut:
    kind = {int: "int", bool: "bool", str: "str"}[option.kind]
    return OptionOut(
        kind=kind,  # type: ignore[arg-type]
        default=option.default,
        minimum=option.minimum,
        maximum=option.maximum,
        step=option.step,
        choices=list(option.choices),
        allowed=option.allowed(),
        help=option.help,
        file=option.file,
    )


def game_out(spec: GameSpec) -> GameOut:
    """A spec as the API shows it."""
    return GameOut(
        name=spec.name,
        title=spec.title,
        summary=spec.summary,
        aliases=list(spec.aliases),
        min_players=spec.min_players,
        max_players=spec.max_players,
        information=spec.information.value,
        bot_levels=list(spec.bot_levels),
        options={name: _option(o) for name, o in spec.options.items()},
        clock_days=list(CLOCK_DAYS),
        rules_doc=spec.rules_doc,
        web_renderer=_renderer(spec),
        picture=spec.picture_svg() is not None,
        start=spec.platform.start.value,
        coach=bool(spec.coach),
    )


def _renderer(spec: GameSpec) -> str:
    """The spec's web renderer if the web client has it (``js/games/<name>.js``), else ``""``
    (the generic one): a game from another package cannot add a file here, and a module
    that is not there would leave its table blank in the browser."""
    name = spec.web_renderer
    if name and (web_root() / "js" / "games" / f"{name}.js").is_file():
        return name
    return ""


@router.get("", response_model=list[GameOut])
def list_games() -> list[GameOut]:
    """Every registered game."""
    return [game_out(spec) for spec in specs()]


GENERIC_PICTURE = "img/game.svg"
"""The picture, under the web client's files, of a game that has none of its own."""

PICTURE_HEADERS = {
    "Cache-Control": "public, max-age=86400",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
}
"""A game's picture changes only with the installed package: browsers keep it a day. Opened
on its own, an SVG is a document: it may run nothing and load nothing."""


@router.get(
    "/{name}/picture",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}}, 404: {"description": "no such game"}},
)
def game_picture(name: str) -> Response:
    """The game's picture for the lobby's card (SVG): its own (``GameSpec.picture``), or a
    generic one. 404 for a game the server does not host."""
    try:
        spec = find(name)
    except UnknownGame:
        raise NotFound(f"no game called {name!r}") from None
    svg = spec.picture_svg()
    if svg is None:
        svg = (web_root() / GENERIC_PICTURE).read_bytes()
    return Response(svg, media_type="image/svg+xml", headers=PICTURE_HEADERS)

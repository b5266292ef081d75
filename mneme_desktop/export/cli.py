"""``mneme-desktop export``: print-ready files for a whole campaign from the command line.

::

    mneme-desktop export CAMPAIGN.mneme --format pdf|html|json --out DIR
                         [--character NAME ...] [--pack referee [--encounter NAME ...]]
                         [--page-size A4|Letter] [--current-damage | --blank]

Without ``--character`` or ``--pack`` every player character goes into one file,
``DIR/<campaign>-characters.<ext>`` (one sheet per character). ``--character NAME``
(repeatable) writes ``DIR/<campaign>-<name>.<ext>`` per character. ``--pack referee``
writes ``DIR/<campaign>-referee-<encounter>.<ext>`` (roster and adversary cards) for each
encounter named with ``--encounter``, or else for every encounter still to be fought
(every encounter if all have ended). Existing files of those names are replaced.

Page size and blank-or-current damage default to the user's settings. Every written path
is printed on its own line. Exit status: 0 written; 2 bad input (unreadable campaign,
unknown name, bad option; a message on stderr); 1 a file could not be written.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from mneme_desktop.domain import Campaign, Character, CharacterKind, Encounter
from mneme_desktop.export.document import ExportOptions, ExportTarget
from mneme_desktop.export.errors import ExportError
from mneme_desktop.export.exporter import ExportFormat, default_file_name, write_export
from mneme_desktop.rules.box_chart import ChartStyle
from mneme_desktop.settings import PageSize, Settings

__all__ = ["build_export_parser", "run_export"]

_PROG = "mneme-desktop export"


class _BadInputError(Exception):
    """Bad input on the command line: reported on stderr, exit status 2."""


def build_export_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=_PROG,
        description="Write character sheets, or a referee pack, as PDF, HTML or JSON.",
        epilog="Without --character or --pack, all player characters go into one file, "
        "DIR/<campaign>-characters.<ext>. Exit status: 0 written, 2 bad input, 1 write failed.",
    )
    parser.add_argument("campaign", type=Path, help="the .mneme campaign file")
    parser.add_argument("--format", required=True, type=str.lower,
                        choices=[fmt.value for fmt in ExportFormat], help="file format")
    parser.add_argument("--out", required=True, type=Path, metavar="DIR",
                        help="folder to write into (created if missing)")
    parser.add_argument("--character", action="append", default=[], metavar="NAME",
                        help="one character's sheet (repeatable; the name as in the campaign)")
    parser.add_argument("--pack", choices=["referee"],
                        help="referee pack: encounter roster and adversary cards")
    parser.add_argument("--encounter", action="append", default=[], metavar="NAME",
                        help="with --pack referee: the encounter (repeatable; default: every "
                        "encounter not yet ended)")
    parser.add_argument("--page-size", type=_page_size, metavar="A4|Letter",
                        help="paper size for PDF and HTML (default: your setting)")
    damage = parser.add_mutually_exclusive_group()
    damage.add_argument("--current-damage", dest="show_damage", action="store_true",
                        default=None, help="print current damage and conditions")
    damage.add_argument("--blank", dest="show_damage", action="store_false",
                        help="print blank damage tracks for pencil")
    parser.add_argument("--box-chart", choices=[style.value for style in ChartStyle],
                        help="the box chart on sheets: rows of three or the MegaTraveller "
                        "record (default: your setting)")
    return parser


def _page_size(text: str) -> PageSize:
    for size in PageSize:
        if size.value.lower() == text.strip().lower():
            return size
    raise argparse.ArgumentTypeError(f"unknown page size {text!r}: use A4 or Letter")


def _user_settings() -> Settings:
    from mneme_desktop.paths import AppPaths
    from mneme_desktop.settings import load_settings

    return load_settings(AppPaths.default().settings_file)


def _load(path: Path) -> Campaign:
    from mneme_desktop.storage import CampaignLoadError, load_campaign

    try:
        return load_campaign(path)
    except CampaignLoadError as exc:
        raise _BadInputError(str(exc)) from None


def _names(items: Sequence[Character] | Sequence[Encounter]) -> str:
    return ", ".join(f"'{item.name}'" for item in items) or "none"


def _characters(campaign: Campaign, names: Sequence[str]) -> list[Character]:
    found: list[Character] = []
    stat_blocks = [template.stats for template in campaign.adversary_library]
    for name in names:
        wanted = name.strip().casefold()
        matches = [c for c in campaign.characters if c.name.strip().casefold() == wanted]
        matches = matches or [c for c in stat_blocks if c.name.strip().casefold() == wanted]
        if not matches:
            raise _BadInputError(f"there is no character named '{name}' in '{campaign.name}'. "
                            f"Characters: {_names(campaign.characters)}.")
        found.extend(match for match in matches if match not in found)
    return found


def _encounters(campaign: Campaign, names: Sequence[str]) -> list[Encounter]:
    if not campaign.encounters:
        raise _BadInputError(f"'{campaign.name}' has no encounters to make a referee pack for.")
    if not names:
        open_ones = [e for e in campaign.encounters if not e.ended]
        return open_ones or list(campaign.encounters)
    found: list[Encounter] = []
    for name in names:
        wanted = name.strip().casefold()
        matches = [e for e in campaign.encounters if e.name.strip().casefold() == wanted]
        if not matches:
            raise _BadInputError(f"there is no encounter named '{name}' in '{campaign.name}'. "
                            f"Encounters: {_names(campaign.encounters)}.")
        found.extend(match for match in matches if match not in found)
    return found


def _targets(campaign: Campaign, args: argparse.Namespace) -> list[ExportTarget]:
    if args.encounter and args.pack != "referee":
        raise _BadInputError("--encounter only applies to --pack referee.")
    targets = [ExportTarget.character(c.id) for c in _characters(campaign, args.character)]
    if args.pack == "referee":
        targets += [ExportTarget.referee_pack(e.id) for e in _encounters(campaign, args.encounter)]
    if not targets:
        if not any(c.kind is CharacterKind.PLAYER for c in campaign.characters):
            raise _BadInputError(f"'{campaign.name}' has no player characters; name one with "
                            "--character, or use --pack referee.")
        targets.append(ExportTarget.player_characters())
    return targets


def _unique(folder: Path, name: str, used: set[str]) -> Path:
    """Two characters of the same name must not overwrite each other's file."""
    path = folder / name
    number = 2
    while path.name.casefold() in used:
        path = folder / f"{Path(name).stem}-{number}{Path(name).suffix}"
        number += 1
    used.add(path.name.casefold())
    return path


def _out_folder(path: Path) -> Path:
    if path.exists() and not path.is_dir():
        raise _BadInputError(f"--out {path} is a file, not a folder.")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _BadInputError(f"cannot create the folder {path}: {exc.strerror or exc}.") from None
    return path


def _run(args: argparse.Namespace) -> int:
    campaign = _load(args.campaign)
    fmt = ExportFormat(args.format)
    targets = _targets(campaign, args)
    folder = _out_folder(args.out)
    asks_settings = None in (args.page_size, args.show_damage, args.box_chart)
    settings = _user_settings() if asks_settings else None
    chart = args.box_chart or (settings.print_box_chart.value if settings
                               else ChartStyle.ROWS_OF_THREE.value)
    options = ExportOptions(
        page_size=args.page_size or (settings.page_size if settings else PageSize.A4),
        show_damage=args.show_damage if args.show_damage is not None
        else bool(settings and settings.print_current_damage),
        box_chart=ChartStyle(chart),
    )
    if fmt is not ExportFormat.JSON:
        from mneme_desktop.export.fonts import ensure_gui_application

        ensure_gui_application()
    used: set[str] = set()
    for target in targets:
        path = _unique(folder, default_file_name(campaign, target, fmt), used)
        write_export(campaign, target, fmt, path, options)
        print(path)
    return 0


def run_export(argv: Sequence[str]) -> int:
    """Run the export command; returns the exit status (0, 1 or 2) instead of exiting."""
    parser = build_export_parser()
    try:
        args = parser.parse_args(list(argv))
    except SystemExit as exc:  # --help, or argparse's own message for bad options
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return _run(args)
    except _BadInputError as exc:
        print(f"{_PROG}: {exc}", file=sys.stderr)
        return 2
    except ExportError as exc:
        print(f"{_PROG}: {exc}", file=sys.stderr)
        return 1

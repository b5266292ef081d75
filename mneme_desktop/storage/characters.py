"""Characters in and out: our own export format, and CE CharacterGen's ``ce-char-1``.

A Mneme character export is ``{"format": "mneme-character", "schema_version": N,
"exported_by": ..., "character": {...}}``; the character inside has exactly the shape it
has in a campaign of that schema, so older exports are upgraded by the campaign
migrations. CE CharacterGen (the Game in the Brain generator) exports ``ce-char-1``;
every part of it the sheet has a field for is mapped to that field (characteristics,
skills, species, age, careers and terms, cash as credits, equipment and other assets);
what has no field (background, connections, each term's events, hero coins) goes into
the notes under a line that says so. Its derived block (hit points, ...) is ignored:
Mneme computes its own.
"""

from __future__ import annotations

import json
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Annotated, Any, NoReturn

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from mneme_desktop import APP_NAME, __version__
from mneme_desktop.domain.campaign import CAMPAIGN_FORMAT, SCHEMA_VERSION
from mneme_desktop.domain.catalogue import catalogue_for
from mneme_desktop.domain.character import (
    MAX_AMOUNT,
    MAX_CHARACTERISTIC,
    Career,
    Character,
    Characteristics,
    CharacterKind,
    EquipmentItem,
    Skill,
)
from mneme_desktop.storage.atomic import atomic_write, real_target
from mneme_desktop.storage.campaign_file import (
    DEFAULT_BACKUPS,
    load_campaign_file,
    read_limited,
    save_campaign,
    save_error,
)
from mneme_desktop.storage.codec import (
    CHARACTER_FORMAT,
    DocumentError,
    parse_json_document,
    validate_document,
)
from mneme_desktop.storage.diagnostics import (
    MAX_REPORTED_PROBLEMS,
    Problem,
    error_message,
    lines_of,
    locate_all,
    summarise,
    validation_problems,
)
from mneme_desktop.storage.errors import (
    CampaignLoadError,
    CampaignSaveError,
    CharacterImportError,
)
from mneme_desktop.storage.lock import CampaignLock, LockedError
from mneme_desktop.storage.migrations import MIGRATIONS, MigrationStepError
from mneme_desktop.storage.oslock import FolderLockTimeoutError, folder_lock

__all__ = [
    "CE_FORMAT",
    "CE_SKILL_NAMES",
    "MAX_CHARACTER_BYTES",
    "character_from_document",
    "character_report",
    "character_to_json",
    "export_character",
    "import_character",
    "import_into_campaign",
    "readable_name",
]

CE_FORMAT = "ce-char-1"
MAX_CHARACTER_BYTES = 16 * 1024 * 1024
"""Largest character file read (16 MiB; a portrait is at most 2 MiB)."""


# --- our format ----------------------------------------------------------------------------


def character_to_json(character: Character) -> bytes:
    """A character as a standalone, versioned JSON document."""
    document = {
        "format": CHARACTER_FORMAT,
        "schema_version": SCHEMA_VERSION,
        "exported_by": f"{APP_NAME} {__version__}",
        "character": character.model_dump(mode="json"),
    }
    return json.dumps(document, indent=2, ensure_ascii=False).encode("utf-8") + b"\n"


def export_character(character: Character, path: Path | str) -> None:
    """Write one character to ``path`` (atomically) for import into another campaign."""
    file_path = Path(path)
    try:
        atomic_write(file_path, character_to_json(character))
    except OSError as exc:
        raise save_error(file_path, exc) from exc


def _fail(path: Path | None, reason: str) -> NoReturn:
    name = f"'{path.name}'" if path is not None else "The data"
    raise CharacterImportError(f"{name} cannot be imported as a character: {reason}", path=path)


def _fail_validation(path: Path | None, exc: ValidationError, text: str | None) -> NoReturn:
    problems = validation_problems(exc, text)
    _fail(path, f"some values are not valid:\n{summarise(problems)}")


def _from_mneme(document: dict[str, Any], text: str, path: Path | None) -> Character:
    version = document.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool):
        _fail(path, "its schema_version is missing or not a whole number")
    if version > SCHEMA_VERSION:
        _fail(
            path,
            f"it was exported by a newer version of Mneme Desktop (schema {version}; this "
            f"version reads up to {SCHEMA_VERSION}). Update Mneme Desktop to import it.",
        )
    raw = document.get("character")
    if not isinstance(raw, dict):
        _fail(path, "it has no character in it")
    if version < SCHEMA_VERSION:
        wrapper = {
            "format": CAMPAIGN_FORMAT,
            "schema_version": version,
            "name": "Imported character",
            "characters": [raw],
        }
        try:
            upgraded = MIGRATIONS.migrate(wrapper, version, SCHEMA_VERSION)
            raw = upgraded["characters"][0]
        except (MigrationStepError, KeyError, IndexError, TypeError) as exc:
            _fail(path, f"it uses schema {version}, which cannot be upgraded: {exc}")
        text_for_lines = None
    else:
        text_for_lines = text
    try:
        return validate_document(Character, raw)
    except ValidationError as exc:
        problems = validation_problems(exc, text_for_lines, prefix=("character",))
        _fail(path, f"some values are not valid:\n{summarise(problems)}")


# --- CE CharacterGen ce-char-1 -------------------------------------------------------------

_SMALL_WORDS = frozenset({"a", "an", "and", "at", "by", "for", "in", "of", "on", "or", "the", "to"})


def readable_name(identifier: str) -> str:
    """"gun_combat" -> "Gun Combat", "sleight_of_hand" -> "Sleight of Hand"."""
    words = identifier.replace("-", " ").replace("_", " ").split()
    return " ".join(
        word if (word.isupper() and len(word) > 1)
        else (word.lower() if index and word.lower() in _SMALL_WORDS else word.capitalize())
        for index, word in enumerate(words)
    )


_CeValue = Annotated[int, Field(ge=0, le=MAX_CHARACTERISTIC, strict=True)]
"""Strict: lax validation read ``"str": true`` as STR 1."""


class _CeModel(BaseModel):
    model_config = ConfigDict(extra="ignore")


class _CeAbilities(_CeModel):
    strength: _CeValue = Field(alias="str")
    dexterity: _CeValue = Field(alias="dex")
    endurance: _CeValue = Field(alias="end")
    intelligence: _CeValue = Field(alias="int")
    education: _CeValue = Field(alias="edu")
    social_standing: _CeValue = Field(alias="soc")


class _CeCareer(_CeModel):
    career_id: str
    term: int | None = None
    start_age: int | None = None
    survived: bool | None = None
    mishap: str | None = None
    advanced: bool | None = None
    rank: int | None = None
    event: str | None = None
    skills_gained: list[str] = Field(default_factory=list)


class _CeAsset(_CeModel):
    type: str
    amount: int | float | None = None
    description: str | None = None


class _CeCharacter(_CeModel):
    name: str = ""
    species_id: str | None = None
    abilities: _CeAbilities
    supernatural: int | None = None
    hero_coins: int | None = None
    background_id: str | None = None
    background_skill: str | None = None
    careers: list[_CeCareer] = Field(default_factory=list)
    skills: dict[str, Any] = Field(default_factory=dict)  # checked one by one: _ce_skills
    equipment: list[Any] = Field(default_factory=list)
    assets: list[_CeAsset] = Field(default_factory=list)
    connections: list[Any] = Field(default_factory=list)
    age: int | None = None
    total_terms: int | None = None


class _CeFile(_CeModel):
    format: str
    created: str | None = None
    character: _CeCharacter


def _item_text(item: Any) -> str:
    if isinstance(item, str):
        return item
    if isinstance(item, dict):
        name = item.get("name") or item.get("type") or item.get("description")
        rest = [f"{k}: {v}" for k, v in item.items() if v not in (None, "") and v != name]
        label = readable_name(str(name)) if name else "Item"
        return f"{label} ({', '.join(rest)})" if rest else label
    return json.dumps(item, ensure_ascii=False)


def _asset_text(asset: _CeAsset) -> str:
    label = readable_name(asset.type)
    parts = []
    if asset.amount is not None:
        parts.append(f"{asset.amount:,}")
    if asset.description:
        parts.append(asset.description)
    return f"{label}: {', '.join(parts)}" if parts else label


CE_SKILL_NAMES: dict[str, str] = {
    "medicine": "Medic",
    "riding": "Animals (Riding)",
    "archery": "Gun Combat (Archery)",
}
"""CE CharacterGen skills that are another skill in Mneme CE, by the catalogue's name (Medic
is the skill the healing rules read)."""

_CONNECTION_ASSETS = frozenset({"ally", "contact", "rival", "enemy"})
"""Assets that are people: the sheet has no field for them, so they stay in the notes."""


def _created_text(created: str | None) -> str:
    if created and len(created) == 8 and created.isdigit():
        return f", created {created[:4]}-{created[4:6]}-{created[6:]}"
    return f", created {created}" if created else ""


def _ce_careers(ce: _CeCharacter) -> list[Career]:
    """Terms of one career in a row make one career; its rank is the last one reached."""
    careers: list[Career] = []
    last_id: str | None = None
    for term in ce.careers:
        name = (readable_name(term.career_id) or term.career_id)[:100]
        rank = "" if term.rank is None else f"Rank {term.rank}"
        if term.career_id == last_id and careers:
            previous = careers[-1]
            careers[-1] = Career(name=previous.name, terms=min(99, previous.terms + 1),
                                 rank=rank or previous.rank)
        else:
            careers.append(Career(name=name, terms=1, rank=rank))
        last_id = term.career_id
    return careers


def _ce_credits(ce: _CeCharacter) -> int:
    cash = sum(asset.amount or 0 for asset in ce.assets if asset.type == "cash")
    return max(-MAX_AMOUNT, min(MAX_AMOUNT, int(cash)))


def _number(value: Any) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return None
    return number if number.is_finite() and 0 <= number <= 1_000_000 else None


def _label(text: str) -> str:
    """An identifier ("healers_kit") made readable; a name already written stays as it is."""
    text = text.strip()
    return readable_name(text) if text.isidentifier() and text == text.lower() else text


def _equipment_item(item: Any) -> EquipmentItem:
    """An equipment entry: a name, or an object with name, count/quantity, mass/weight."""
    if not isinstance(item, dict):
        return EquipmentItem(name=(_label(_item_text(item)) or "Item")[:200])
    name = item.get("name") or item.get("type") or item.get("description") or "Item"
    count = item.get("count", item.get("quantity", 1))
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_AMOUNT:
        count = 1
    mass = _number(item.get("mass", item.get("weight")))
    used = {"name", "type", "count", "quantity", "mass", "weight"}
    if item.get("name"):
        used.discard("type")
    rest = [f"{k}: {v}" for k, v in item.items()
            if k not in used and v not in (None, "") and v != name]
    return EquipmentItem(name=_label(str(name))[:200] or "Item", count=count,
                         mass=None if mass is None else round(mass, 3),
                         notes="; ".join(rest))


def _ce_equipment(ce: _CeCharacter) -> list[EquipmentItem]:
    """Equipment, then the assets that are things (a healer's kit, a safehouse)."""
    items = [_equipment_item(item) for item in ce.equipment]
    for asset in ce.assets:
        if asset.type == "cash" or asset.type in _CONNECTION_ASSETS:
            continue
        items.append(EquipmentItem(name=(readable_name(asset.type) or asset.type)[:200],
                                   count=1, notes=asset.description or ""))
    return items


def _term_text(career: _CeCareer) -> str:
    head = readable_name(career.career_id)
    if career.term is not None:
        head += f", term {career.term}"
    if career.start_age is not None:
        head += f" (from age {career.start_age})"
    details = []
    if career.advanced:
        details.append("advanced")
    if career.event:
        details.append(career.event)
    if career.mishap:
        details.append(f"mishap: {career.mishap}")
    elif career.survived is False:
        details.append("did not survive the term")
    if career.skills_gained:
        details.append("skills " + ", ".join(readable_name(s) for s in career.skills_gained))
    return f"{head}: {'; '.join(details)}" if details else head


def _ce_unmapped(ce: _CeCharacter) -> list[str]:
    """What of a ce-char-1 character has no field on the sheet, in a few words each."""
    unmapped: list[str] = []
    if ce.background_id or ce.background_skill:
        unmapped.append("background")
    if ce.connections or any(a.type in _CONNECTION_ASSETS for a in ce.assets):
        unmapped.append("connections")
    if any(c.event or c.mishap or c.advanced or c.skills_gained or c.start_age is not None
           for c in ce.careers):
        unmapped.append("career history")
    if ce.hero_coins is not None:
        unmapped.append("hero coins")
    if ce.supernatural is not None:
        unmapped.append("supernatural")
    if ce.age is not None and not 0 <= ce.age <= 100_000:
        unmapped.append(f"age {ce.age} (not a possible age)")
    return unmapped


_UNMAPPED_PREFIX = "Kept here, the sheet has no field for them: "


def character_report(character: Character) -> str:
    """What an import could not put into the sheet's fields ("" when everything found a
    home), read back from the line the importer wrote at the top of the notes."""
    for line in character.notes.splitlines()[:3]:
        if line.startswith(_UNMAPPED_PREFIX):
            return line.removeprefix(_UNMAPPED_PREFIX).rstrip(".")
    return ""


def _ce_notes(ce: _CeCharacter, created: str | None, renamed: list[str]) -> str:
    """The notes: where the character came from, and only what the sheet has no field for."""
    lines = [f"Imported from CE CharacterGen (ce-char-1{_created_text(created)})."]
    unmapped = _ce_unmapped(ce)
    if unmapped:
        lines.append(_UNMAPPED_PREFIX + ", ".join(unmapped) + ".")
    if renamed:
        lines.append("Skills under their Mneme CE names: " + ", ".join(renamed) + ".")
    if ce.background_id or ce.background_skill:
        background = readable_name(ce.background_id or "") or "—"
        if ce.background_skill:
            background += f" (background skill: {readable_name(ce.background_skill)})"
        lines.append(f"Background: {background}")
    connections = [_item_text(item) for item in ce.connections]
    connections += [_asset_text(a) for a in ce.assets if a.type in _CONNECTION_ASSETS]
    if connections:
        lines.append("Connections:")
        lines.extend(f"- {text}" for text in connections)
    history = [c for c in ce.careers
               if c.event or c.mishap or c.advanced or c.skills_gained or c.start_age is not None]
    if history:
        lines.append("Career history:")
        lines.extend(f"- {_term_text(career)}" for career in ce.careers)
    extras = []
    if ce.hero_coins is not None:
        extras.append(f"hero coins {ce.hero_coins}")
    if ce.supernatural is not None:
        extras.append(f"supernatural {ce.supernatural}")
    if extras:
        lines.append("CE CharacterGen: " + ", ".join(extras))
    return "\n".join(lines)


def _ce_skill(skill_id: str, level: Any, renamed: list[str]) -> Skill:
    """One skill, under the name the catalogue spells (an alias of CE_SKILL_NAMES noted)."""
    label = CE_SKILL_NAMES.get(skill_id.strip().casefold())
    if label is not None:
        renamed.append(f"{readable_name(skill_id)} as {label}")
    else:
        label = readable_name(skill_id) or skill_id
    catalogue = catalogue_for()
    name, specialty = Skill.split_label(label)
    if catalogue.knows_skill(label):
        name, specialty = catalogue.canonical_skill(label)
    return Skill(name=name, specialty=specialty, level=level)


def _merge_skills(skills: list[Skill]) -> list[Skill]:
    """One row per skill and specialty: two CE skills that are one in Mneme keep the best."""
    merged: dict[tuple[str, str], Skill] = {}
    for skill in skills:
        key = (skill.name.casefold(), (skill.specialty or "").casefold())
        if key not in merged or skill.level > merged[key].level:
            merged[key] = skill
    return list(merged.values())


def _ce_skills(skills: dict[str, Any], text: str, path: Path | None,
               renamed: list[str] | None = None) -> list[Skill]:
    """The skills of a ce-char-1 file; refuses bad ones naming each (``skills[3] (row 4)``).

    Checked one at a time and only the first few located, so 10,000 bad skills cost
    10,000 small checks, not minutes of locating.
    """
    result: list[Skill] = []
    problems: list[Problem] = []
    count = 0
    for index, (skill_id, level) in enumerate(skills.items()):
        try:
            result.append(_ce_skill(skill_id, level, renamed if renamed is not None else []))
        except ValidationError as exc:
            count += exc.error_count()
            if len(problems) < MAX_REPORTED_PROBLEMS:
                where: tuple[str | int, ...] = ("character", "skills", skill_id)
                for error in exc.errors(include_url=False)[:MAX_REPORTED_PROBLEMS]:
                    if error["loc"] and error["loc"][0] == "level":
                        shown_path: tuple[str | int, ...] = where
                    else:  # the name: "character.skills[3] (row 4).name"
                        shown_path = (f"character.skills[{index}] (row {index + 1})", "name")
                    problems.append(Problem(shown_path, error_message(dict(error)),
                                            _line(text, where)))
    if problems:
        shown = summarise(problems[:MAX_REPORTED_PROBLEMS])  # at most 5: no "more" line
        rest = count - len(problems[:MAX_REPORTED_PROBLEMS])
        if rest > 0:
            shown += f"\n- ... and {rest} more problem{'s' if rest > 1 else ''}"
        _fail(path, f"some skills are not valid ({count} problem{'s' if count != 1 else ''}):"
                    f"\n{shown}")
    return _merge_skills(result)


def _line(text: str, path: tuple[str | int, ...]) -> int | None:
    return lines_of(text, [offset := locate_all(text, [path])[path]]).get(offset)


def _from_ce(document: dict[str, Any], text: str, path: Path | None) -> Character:
    try:
        parsed = validate_document(_CeFile, document)
    except ValidationError as exc:
        _fail_validation(path, exc, text)
    ce = parsed.character
    a = ce.abilities
    name = ce.name.strip() or (path.stem if path is not None else "") or "Imported character"
    renamed: list[str] = []
    skills = _ce_skills(ce.skills, text, path, renamed)
    age = ce.age if ce.age is not None and 0 <= ce.age <= 100_000 else None
    try:
        return Character(
            name=name[:200],
            kind=CharacterKind.PLAYER,
            characteristics=Characteristics.of(
                a.strength, a.dexterity, a.endurance, a.intelligence, a.education,
                a.social_standing,
            ),
            skills=skills,
            species=readable_name(ce.species_id or "")[:100],
            age=age,
            careers=_ce_careers(ce),
            credits=_ce_credits(ce),
            equipment=_ce_equipment(ce),
            notes=_ce_notes(ce, parsed.created, renamed),
        )
    except ValidationError as exc:
        _fail_validation(path, exc, None)


# --- detection -----------------------------------------------------------------------------


def character_from_document(data: bytes, path: Path | None = None) -> Character:
    """A character from the bytes of an export in any supported format (detected here)."""
    try:
        document = parse_json_document(data, "character")
    except DocumentError as exc:
        _fail(path, exc.reason)
    text = data.decode("utf-8").removeprefix("\ufeff")
    if not isinstance(document, dict):
        _fail(path, "it is not a JSON object, so it is neither format Mneme Desktop imports")
    file_format = document.get("format")
    try:
        if file_format == CHARACTER_FORMAT:
            return _from_mneme(document, text, path)
        if file_format == CE_FORMAT:
            return _from_ce(document, text, path)
    except CharacterImportError:
        raise
    except Exception as exc:  # a bad file never surfaces as another error
        _fail(path, f"it could not be read ({type(exc).__name__}: {str(exc)[:200]})")
    if file_format == CAMPAIGN_FORMAT:
        _fail(path, "it is a whole campaign; open it with File > Open instead")
    found = f" (its format is {json.dumps(file_format)[:60]})" if file_format is not None else ""
    _fail(
        path,
        "it is not a format Mneme Desktop knows. Supported: a Mneme Desktop character export "
        f'("format": "{CHARACTER_FORMAT}") or a CE CharacterGen export ("format": '
        f'"{CE_FORMAT}"){found}.',
    )


def import_character(path: Path | str) -> Character:
    """Read a character from a Mneme export or a CE CharacterGen ``ce-char-1`` file.

    The format is detected from the file; anything else raises CharacterImportError.
    """
    file_path = Path(path)
    try:
        data = read_limited(file_path, MAX_CHARACTER_BYTES, "character")
    except CampaignLoadError as exc:
        raise CharacterImportError(str(exc), path=file_path) from None
    return character_from_document(data, file_path)


def import_into_campaign(
    source: Path | str,
    campaign_path: Path | str,
    backups: int = DEFAULT_BACKUPS,
    *,
    lock_dir: Path | None = None,
    force: bool = False,
) -> Character:
    """Import a character file into a campaign file and save it (atomically, with backups).

    With ``lock_dir``, refuses (LockedError, naming the holder) while the campaign is open
    in the app, unless ``force``. Load, add and save happen under the campaign folder's
    write lock, so parallel imports queue instead of overwriting each other, and the file
    is read back afterwards: success is only returned for a character that is in the file.
    The character gets a new id if the campaign already has one with its id.
    """
    character = import_character(source)
    campaign_file = Path(campaign_path)
    if lock_dir is not None and not force:
        holder = CampaignLock(campaign_file, lock_dir).live_holder()
        if holder is not None:
            raise LockedError(campaign_file, holder)
    target = real_target(campaign_file)
    try:
        with folder_lock(target.parent):
            loaded = load_campaign_file(campaign_file)
            added = loaded.campaign.add_character(character)
            written = save_campaign(
                loaded.campaign, campaign_file, backups=backups,
                expected_hash=loaded.content_hash,
            )
            _verify_import(campaign_file, added, written)
    except FolderLockTimeoutError as exc:
        raise save_error(campaign_file, exc) from exc
    return added


def _verify_import(path: Path, added: Character, written: str) -> None:
    """Read the campaign back: it must hold the new character (``written`` is the hash of
    what was written, for the log)."""
    try:
        again = load_campaign_file(path)
    except CampaignLoadError as exc:
        raise CampaignSaveError(
            f"'{path.name}' was written but cannot be read back ({exc}); the character was "
            "not imported. The previous version is backup 1 beside the file.",
            path=path,
        ) from None
    if again.campaign.find_character(added.id) is None:
        raise CampaignSaveError(
            f"'{path.name}' was changed by another program while '{added.name}' was being "
            "imported, and no longer holds it. Import it again.",
            path=path,
        )

"""Table models for the rest of a complete sheet: careers and terms, and equipment.

They are :class:`~mneme_desktop.ui.models.sheet_models.CharacterItemsModel` lists like the
skills and weapons: read from the document, edited through the domain model, one undo
step per edit, a refusal said on the sheet's message line.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from mneme_desktop.domain import Character
from mneme_desktop.domain.character import MAX_AMOUNT, Career, EquipmentItem
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.models.sheet_models import (
    CharacterItemsModel,
    Column,
    parse_integer,
    parse_text,
    text_editor,
)
from mneme_desktop.ui.widgets.delegates import EditorKind, EditorSpec

_CTX = "SheetModels"

__all__ = ["CareersTableModel", "EquipmentTableModel", "format_mass", "total_mass",
           "total_terms"]


def format_mass(value: Decimal | None) -> str:
    """"1.5 kg", "" when not given: a Decimal without trailing zeros or exponent."""
    if value is None:
        return ""
    return tr(_CTX, "{0} kg").format(format(value.normalize(), "f"))


def _mass(value: object) -> Decimal | None:
    text = str(value).strip().removesuffix("kg").strip() if value is not None else ""
    if not text:
        return None
    try:
        mass = Decimal(text.replace(",", "."))
    except InvalidOperation:
        raise ValueError(
            tr(_CTX, "“{0}” is not a mass: write kilograms per item like 0.5 or 12, or leave "
                     "it empty").format(text)
        ) from None
    if not mass.is_finite():
        raise ValueError(tr(_CTX, "“{0}” is not a mass").format(text))
    return mass


def total_mass(character: Character) -> Decimal:
    """Everything in the equipment table: count x mass per item (items without a mass
    count 0)."""
    return sum((item.count * item.mass for item in character.equipment
                if item.mass is not None), Decimal(0))


def total_terms(character: Character) -> int:
    return sum(career.terms for career in character.careers)


def _item_total(item: EquipmentItem, _character: Character) -> str:
    if item.mass is None:
        return ""
    return format_mass(item.count * item.mass)


class EquipmentTableModel(CharacterItemsModel):
    """What the character carries besides weapons, armor and cover: name, count, mass
    per item (kg), the row's total and notes."""

    item_type = EquipmentItem
    list_field = "equipment"
    noun = tr_noop(_CTX, "item")
    nouns = tr_noop(_CTX, "items")
    columns = (
        Column(tr_noop(_CTX, "Name"), lambda e, _c: e.name, "name", text_editor(200),
               parse=parse_text, sort_key=lambda e: e.name.casefold()),
        Column(tr_noop(_CTX, "Count"), lambda e, _c: str(e.count), "count",
               EditorSpec(EditorKind.INTEGER, minimum=0, maximum=MAX_AMOUNT),
               parse=parse_integer, sort_key=lambda e: e.count, numeric=True),
        Column(tr_noop(_CTX, "Mass"), lambda e, _c: format_mass(e.mass), "mass",
               text_editor(12, tr_noop(_CTX, "kg per item")),
               edit_value=lambda e: "" if e.mass is None else format(e.mass.normalize(), "f"),
               parse=_mass, numeric=True,
               header_tooltip=tr_noop(_CTX, "Mass of one item in kilograms")),
        Column(tr_noop(_CTX, "Total"), _item_total, numeric=True,
               header_tooltip=tr_noop(_CTX, "Count x mass")),
        Column(tr_noop(_CTX, "Notes"), lambda e, _c: e.notes, "notes", text_editor(500),
               parse=parse_text),
    )

    def new_item(self) -> EquipmentItem:
        return EquipmentItem(name=tr(_CTX, "New item"))


class CareersTableModel(CharacterItemsModel):
    """Careers in the order served, with the terms in each and the rank reached."""

    item_type = Career
    list_field = "careers"
    noun = tr_noop(_CTX, "career")
    nouns = tr_noop(_CTX, "careers")
    columns = (
        Column(tr_noop(_CTX, "Career"), lambda c, _ch: c.name, "name", text_editor(100),
               parse=parse_text),
        Column(tr_noop(_CTX, "Terms"), lambda c, _ch: str(c.terms), "terms",
               EditorSpec(EditorKind.INTEGER, minimum=0, maximum=99), parse=parse_integer,
               numeric=True, header_tooltip=tr_noop(_CTX, "Four-year terms served")),
        Column(tr_noop(_CTX, "Rank"), lambda c, _ch: c.rank, "rank",
               text_editor(100, tr_noop(_CTX, "e.g. Lieutenant")), parse=parse_text),
    )

    def new_item(self) -> Career:
        return Career(name=tr(_CTX, "New career"), terms=1)

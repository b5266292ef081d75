"""A step that fails while it is being made leaves no trace on the campaign or the stack."""

from __future__ import annotations

import pytest

from mneme_desktop.domain import Campaign, Character, Characteristics, Encounter
from mneme_desktop.domain.edits import Patch, ReplaceSheet, SetEncounterField
from mneme_desktop.ui import commands
from mneme_desktop.ui.document import CampaignDocument, EditRefusedError


def make_document() -> CampaignDocument:
    campaign = Campaign(name="C")
    campaign.characters.append(Character(name="Mara",
                                         characteristics=Characteristics.of(7, 9, 8, 7, 8, 6)))
    campaign.encounters.append(Encounter(name="Fight"))
    return CampaignDocument(campaign)


def half_done(document: CampaignDocument) -> Patch:
    """Wounds Mara, then sets a round the model refuses: the first edit happened."""
    mara = document.campaign.characters[0]
    fight = document.campaign.encounters[0]
    return Patch("Bad step", (
        ReplaceSheet(mara, mara.model_copy(update={"damage": 3})),
        SetEncounterField(fight.id, "round", fight.round, -5),
    ))


def test_a_refused_step_is_taken_back_and_not_kept(qapp) -> None:
    document = make_document()
    commands.add_character(document, Character(
        name="Kit", characteristics=Characteristics.of(7, 7, 7, 7, 7, 7)))
    before = document.campaign.model_dump()
    with pytest.raises(EditRefusedError, match="greater than or equal to 0"):
        document.push(commands.PatchCommand(document, half_done(document)))
    assert document.campaign.model_dump() == before
    assert document.undo_stack.count() == 1
    assert document.undo_stack.canUndo()
    # The stack still works: the earlier step undoes and redoes.
    document.undo_stack.undo()
    assert [c.name for c in document.campaign.characters] == ["Mara"]
    document.undo_stack.redo()
    assert [c.name for c in document.campaign.characters] == ["Mara", "Kit"]


def test_a_fault_other_than_a_refusal_is_raised_as_it_was(qapp) -> None:
    document = make_document()

    broken = Patch("Bug", (SetEncounterField("no such fight", "round", 0, 1),))
    with pytest.raises(KeyError):
        document.push(commands.PatchCommand(document, broken))
    assert document.undo_stack.count() == 0
    assert not document.modified


def test_the_next_edit_after_a_failed_one_is_undoable(qapp) -> None:
    document = make_document()
    mara = document.campaign.characters[0]
    with pytest.raises(EditRefusedError):
        document.push(commands.PatchCommand(document, half_done(document)))
    commands.edit_character(document, document.campaign.characters[0], "Wound",
                            lambda c: setattr(c, "damage", 5))
    assert document.campaign.characters[0].damage == 5
    document.undo_stack.undo()
    assert document.campaign.characters[0].damage == 0
    assert document.campaign.characters[0].name == mara.name


def test_a_refusal_reaching_the_event_loop_is_a_message_not_a_crash(qapp, app_paths,
                                                                    monkeypatch) -> None:
    import sys

    from mneme_desktop.app import install_exception_hook
    from mneme_desktop.context import AppContext

    context = AppContext.create(app_paths)
    told: list[tuple[str, str, bool]] = []
    dialogs: list[object] = []

    class Window:
        def tell(self, title: str, text: str, *, error: bool = True) -> None:
            told.append((title, text, error))

    monkeypatch.setattr("mneme_desktop.ui.dialogs.error_dialog.show_error_dialog",
                        lambda *args: dialogs.append(args))
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    install_exception_hook(context, qapp, Window())
    try:
        raise EditRefusedError("initiative must be between -20 and 40")
    except EditRefusedError as exc:
        sys.excepthook(type(exc), exc, exc.__traceback__)
    assert told == [("Change not made",
                     "That change was not made: initiative must be between -20 and 40", False)]
    assert not dialogs and not context.errors

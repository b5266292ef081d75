"""The campaign session without a window: every question goes to an injected ``ask``, so
these tests script the referee's answers and read back what was asked."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from mneme_desktop.context import AppContext
from mneme_desktop.domain import Character, Characteristics
from mneme_desktop.storage import (
    AutosaveStore,
    build_sample_campaign,
    file_hash,
    load_campaign,
    save_campaign,
)
from mneme_desktop.ui.session import CampaignSession

Button = QMessageBox.StandardButton


class Referee:
    """Answers questions from a script and remembers what it was asked and told."""

    def __init__(self, *answers: QMessageBox.StandardButton) -> None:
        self.answers = list(answers)
        self.asked: list[tuple[str, str]] = []
        self.told: list[tuple[str, str]] = []
        self.offered: list[set[str]] = []
        self.save_as: Path | None = None

    def ask(self, title: str, text: str, buttons: QMessageBox.StandardButton,
            default: QMessageBox.StandardButton, *,
            labels: Mapping[QMessageBox.StandardButton, str] | None = None,
            ) -> QMessageBox.StandardButton:
        self.asked.append((title, text))
        self.offered.append({labels.get(b, b.name) if labels else b.name
                             for b in Button if b != Button.NoButton and buttons & b})
        assert self.answers, f"asked {title!r} with no answer scripted"
        return self.answers.pop(0)

    def tell(self, title: str, text: str, *, error: bool = True) -> None:
        self.told.append((title, text))

    def choose_save_path(self, suggested: Path) -> Path | None:
        return self.save_as


@pytest.fixture
def referee() -> Referee:
    return Referee()


@pytest.fixture
def session(qapp, app_paths, referee: Referee):
    made = CampaignSession(AppContext.create(app_paths), referee.ask, referee.tell,
                           referee.choose_save_path)
    yield made
    made.release_lock()


@pytest.fixture
def campaign_file(tmp_path: Path) -> Path:
    path = tmp_path / "campaign.mneme"
    save_campaign(build_sample_campaign(), path, backups=0)
    return path


def test_opening_with_a_recoverable_autosave_asks_with_what_changed(
    session: CampaignSession, referee: Referee, app_paths, campaign_file: Path
) -> None:
    mine = load_campaign(campaign_file)
    mine.add_character(Character(name="Ana Unsaved",
                                 characteristics=Characteristics.of(7, 7, 7, 7, 7, 7)))
    AutosaveStore(app_paths.autosave_dir).write(mine, source=campaign_file,
                                                base_hash=file_hash(campaign_file))
    referee.answers = [Button.Yes]
    replaced: list[bool] = []
    session.document_replaced.connect(lambda: replaced.append(True))

    assert session.open_path(campaign_file)

    [(title, text)] = referee.asked
    assert title == "Recover unsaved changes"
    assert "campaign.mneme" in text and "Ana Unsaved" in text  # the summary names the change
    assert replaced == [True]
    document = session.document
    assert document is not None and document.path == campaign_file
    assert any(c.name == "Ana Unsaved" for c in document.campaign.characters)
    assert document.modified  # recovered work is unsaved until the referee saves


def test_declining_the_recovery_keeps_the_file_and_deletes_the_autosave(
    session: CampaignSession, referee: Referee, app_paths, campaign_file: Path
) -> None:
    store = AutosaveStore(app_paths.autosave_dir)
    mine = load_campaign(campaign_file)
    mine.name = "Renamed in the autosave"
    store.write(mine, source=campaign_file, base_hash=file_hash(campaign_file))
    referee.answers = [Button.No]
    assert session.open_path(campaign_file)
    assert session.document is not None and not session.document.modified
    assert session.document.campaign.name != "Renamed in the autosave"
    assert store.recoverable(campaign_file) is None


def test_saving_over_an_outside_change_asks(
    session: CampaignSession, referee: Referee, campaign_file: Path
) -> None:
    assert session.open_path(campaign_file)
    assert referee.asked == []
    theirs = load_campaign(campaign_file)
    theirs.name = "Changed elsewhere"
    save_campaign(theirs, campaign_file, backups=0)
    outside = campaign_file.read_bytes()
    assert session.document is not None
    session.document.campaign.name = "Mine"

    referee.answers = [Button.Cancel]
    assert not session.save()
    assert [title for title, _ in referee.asked] == ["File changed on disk"]
    assert campaign_file.read_bytes() == outside

    referee.answers = [Button.Save]
    assert session.save()
    assert load_campaign(campaign_file).name == "Mine"
    assert len(referee.asked) == 2


def test_an_outside_change_can_be_reloaded_dropping_unsaved_work(
    session: CampaignSession, referee: Referee, app_paths, campaign_file: Path
) -> None:
    assert session.open_path(campaign_file)
    theirs = load_campaign(campaign_file)
    theirs.add_character(Character(name="Bo Outside",
                                   characteristics=Characteristics.of(7, 7, 7, 7, 7, 7)))
    save_campaign(theirs, campaign_file, backups=0)
    outside = campaign_file.read_bytes()
    document = session.document
    assert document is not None
    document.campaign.name = "Mine"
    document.mark_unsaved()
    assert session.autosave_now()
    replaced: list[bool] = []
    session.document_replaced.connect(lambda: replaced.append(True))

    referee.answers = [Button.Reset]
    assert not session.save()

    [(title, text)] = referee.asked
    assert title == "File changed on disk"
    assert referee.offered == [{"Overwrite", "Reload", "Cancel"}]
    assert "Bo Outside" in text  # the summary names what the outside version has
    assert "unsaved changes are dropped" in text
    assert campaign_file.read_bytes() == outside
    reloaded = session.document
    assert replaced == [True] and reloaded is not None and reloaded is not document
    assert reloaded.path == campaign_file and not reloaded.modified
    assert any(c.name == "Bo Outside" for c in reloaded.campaign.characters)
    assert reloaded.campaign.name != "Mine"
    assert AutosaveStore(app_paths.autosave_dir).find(source=campaign_file) is None
    reloaded.campaign.name = "Edited after reloading"
    assert session.save()  # the reloaded file is the one known: no question this time
    assert len(referee.asked) == 1
    assert load_campaign(campaign_file).name == "Edited after reloading"


def test_a_read_only_file_is_asked_about_once(
    session: CampaignSession, referee: Referee, campaign_file: Path
) -> None:
    campaign_file.chmod(0o444)
    assert session.open_path(campaign_file)
    assert session.document is not None
    session.document.campaign.name = "Changed"
    referee.answers = [Button.Yes]
    assert session.save()
    assert [title for title, _ in referee.asked] == ["File is read-only"]
    session.document.campaign.name = "Changed again"
    assert session.save()  # no answer scripted: asking again would fail the test
    assert load_campaign(campaign_file).name == "Changed again"
    assert len(referee.asked) == 1


def test_saving_an_untitled_campaign_asks_where_and_adds_the_extension(
    session: CampaignSession, referee: Referee, tmp_path: Path
) -> None:
    assert session.new_campaign()
    assert session.document is not None and session.document.modified
    referee.save_as = tmp_path / "fresh"
    assert session.save()
    assert session.document.path == tmp_path / "fresh.mneme"
    assert not session.document.modified
    assert (tmp_path / "fresh.mneme").is_file()


def test_an_unopenable_file_is_told_not_asked(
    session: CampaignSession, referee: Referee, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.mneme"
    bad.write_text("{ not json", encoding="utf-8")
    assert not session.open_path(bad)
    assert session.document is None
    assert [title for title, _ in referee.told] == ["Cannot open campaign"]
    assert referee.asked == []

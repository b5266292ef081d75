"""Shared fixtures for the storage tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from mneme_desktop.domain import Campaign
from mneme_desktop.storage import build_sample_campaign, campaign_to_json, save_campaign

FIXTURES = Path(__file__).parent / "fixtures"
CE_SAMPLES = FIXTURES / "ce-char-1"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def sample() -> Campaign:
    return build_sample_campaign()


@pytest.fixture
def saved(tmp_path: Path, sample: Campaign) -> Path:
    """The sample campaign saved to a fresh folder."""
    path = tmp_path / "campaign.mneme"
    save_campaign(sample, path)
    return path


@pytest.fixture
def sample_bytes(sample: Campaign) -> bytes:
    return campaign_to_json(sample)

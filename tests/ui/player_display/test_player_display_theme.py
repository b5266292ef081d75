"""The player display's themes read from across a room: every text colour at 7:1 on what
it is written on (WCAG AAA), the side shapes at 3:1, and the band names on their chips at
4.5:1, in light, dark and high contrast."""

from __future__ import annotations

import pytest

from mneme_desktop.domain import Side
from mneme_desktop.drawing.contrast import contrast_ratio
from mneme_desktop.rules.wounds import WoundState
from mneme_desktop.settings import DisplayTheme
from mneme_desktop.ui.player_display.display_theme import display_colors


@pytest.mark.parametrize("theme", list(DisplayTheme))
def test_text_reaches_7_to_1_and_marks_3_to_1(qapp, theme):
    colors = display_colors(theme)
    assert contrast_ratio(colors.text, colors.background) >= 7
    assert contrast_ratio(colors.muted, colors.background) >= 7
    assert contrast_ratio(colors.now_text, colors.now_background) >= 7
    for side in Side:
        assert contrast_ratio(colors.sides[side], colors.background) >= 3, side
    track = colors.track()
    for state in (WoundState.WOUNDED, WoundState.SERIOUSLY_WOUNDED,
                  WoundState.CRITICALLY_WOUNDED, WoundState.DYING):
        assert contrast_ratio(track.band_label(state), track.fill(state)) >= 4.5, state

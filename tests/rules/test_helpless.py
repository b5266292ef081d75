"""Helpless targets (Ch.6 full and extended actions, Ch.7 unconscious)."""

from __future__ import annotations

from mneme_desktop.rules.helpless import (
    HELPLESS_ADVANTAGE,
    HelplessCause,
    Helplessness,
    helpless_advantage,
)

FULL = HelplessCause.FULL_ACTION
EXTENDED = HelplessCause.EXTENDED_ACTION
OUT = HelplessCause.UNCONSCIOUS
MARKED = HelplessCause.MARKED


def test_only_full_and_extended_actions_can_be_aborted():
    assert FULL.can_abort and EXTENDED.can_abort
    assert not OUT.can_abort and not MARKED.can_abort


def test_a_target_with_no_cause_can_defend():
    state = Helplessness()
    assert not state.helpless and not state.can_abort and state.standing == ()


def test_an_extended_action_makes_a_target_helpless_until_it_aborts():
    busy = Helplessness((EXTENDED,))
    assert busy.helpless and busy.can_abort and busy.standing == (EXTENDED,)
    aborted = Helplessness((EXTENDED,), aborted=True)
    assert not aborted.helpless and aborted.standing == ()


def test_aborting_does_not_wake_the_unconscious():
    state = Helplessness((FULL, OUT), aborted=True)
    assert state.helpless and state.standing == (OUT,)
    assert not Helplessness((MARKED,)).can_abort


def test_one_advantage_when_every_target_is_helpless():
    assert HELPLESS_ADVANTAGE == 1
    assert helpless_advantage([Helplessness((FULL,))]) == 1
    assert helpless_advantage([Helplessness((OUT,)), Helplessness((EXTENDED,))]) == 1


def test_no_advantage_when_a_target_can_defend_or_there_is_none():
    assert helpless_advantage([]) == 0
    assert helpless_advantage([Helplessness((FULL,)), Helplessness()]) == 0
    assert helpless_advantage([Helplessness((FULL,), aborted=True)]) == 0

"""The turn order follows a new round with O(N) work: counted reads of the campaign's
lists, not times (a linear search per row made a 2,000-combatant round take 375 ms)."""

from __future__ import annotations

import random

from mneme_desktop.domain import Campaign, Encounter, Side
from mneme_desktop.domain import combat as fight
from mneme_desktop.ui.commands import push_patch
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.models.turn_order_model import TurnOrderModel
from tests.domain.test_lookup import CountingList, sheet


def started_fight(size: int, seed: int) -> tuple[CampaignDocument, Encounter, TurnOrderModel]:
    """``size`` campaign characters in one started fight, and a turn order model on it."""
    people = [sheet(f"NPC {n}") for n in range(size)]
    document = CampaignDocument(Campaign(name="Count", characters=people,
                                         encounters=[Encounter(name="Fight")]))
    campaign = document.campaign
    encounter = campaign.encounters[0]
    rng = random.Random(seed)
    for make in (
        lambda c, e: fight.add_characters_patch(c, e, [p.id for p in people], Side.ENEMIES),
        lambda c, e: fight.roll_initiative_patch(c, e, rng),
        fight.start_patch,
    ):
        push_patch(document, make(campaign, encounter))
    model = TurnOrderModel(document)
    model.set_encounter(encounter.id)
    return document, encounter, model


def round_reads(qapp, size: int) -> int:
    """Items read from the character and combatant lists while Next turn starts round 2
    and the turn order model shows it."""
    document, encounter, model = started_fight(size, 1)
    campaign = document.campaign
    first = campaign.characters[0].id
    last = fight.PatchBuilder(campaign, encounter)
    last.set_encounter("turn_index", len(encounter.initiative_order()) - 1)
    push_patch(document, last.build("last turn"))
    campaign.__dict__["characters"] = CountingList(campaign.characters)
    encounter.__dict__["combatants"] = CountingList(encounter.combatants)
    campaign.find_character(first)
    encounter.find_combatant(encounter.combatants[0].id)
    CountingList.visits = 0
    push_patch(document, fight.next_turn_patch(campaign, encounter, random.Random(1)))
    assert encounter.round == 2 and model.current_row() == 0
    assert model.row_of(encounter.initiative_order()[-1].id) == size - 1
    return CountingList.visits


def test_a_new_round_in_the_turn_order_reads_the_lists_linearly(qapp) -> None:
    small, large = round_reads(qapp, 50), round_reads(qapp, 200)
    assert large <= 4 * small * 1.5  # quadratic would be 16 times
    assert large <= 30 * 200

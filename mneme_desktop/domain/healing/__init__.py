"""Healing (Ch.7): plans and projections, the clock's effect on the wounded, medical events,
the infirmary, and the reversible changes they make to a campaign.

Modules: ``changes`` (the reversible change vocabulary), ``days`` (one day of healing or
therapy), ``plan`` (plans, projections, comparisons), ``clock`` (advancing time: expiring
conditions, bleeding, the day step), ``time_stops`` (where the clock must stop for a roll),
``medical`` (first aid, surgery, intensive care), ``regimes`` (whose regime an advance
sets) and ``infirmary`` (care loads against the medics' capacity). Nothing is re-exported
here: :mod:`mneme_desktop.domain.campaign` imports the infirmary, so this package must not
import the campaign back.
"""

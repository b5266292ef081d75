"""Data files shipped with Mneme Desktop (sample campaign, fonts, icons)."""

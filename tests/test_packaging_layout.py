"""The wheel must carry every package and the resources (not only an editable install)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_folder_is_listed_in_pyproject() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "mneme_desktop").rglob("__init__.py")}
    found.add("mneme_desktop.resources")
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"


def test_resources_are_importable_as_a_package() -> None:
    import importlib.resources

    root = importlib.resources.files("mneme_desktop.resources")
    assert (root / "sample_campaign.mneme").is_file()

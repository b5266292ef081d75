"""A fresh interpreter's first act is to open a campaign, as the app's is: the domain
models build their validators when first used (``defer_build``), so nothing may rely on a
model having been used before."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample_campaign.mneme"

CODE = """
import sys
from pathlib import Path
from mneme_desktop.storage.codec import campaign_from_json, campaign_to_json
from mneme_desktop.domain import Character
campaign = campaign_from_json(Path(sys.argv[1]).read_bytes())
again = campaign_from_json(campaign_to_json(campaign))
assert again == campaign
Character.model_validate(campaign.characters[0].model_dump())
print(len(campaign.characters))
"""


def test_a_fresh_interpreter_opens_a_campaign_first_thing() -> None:
    done = subprocess.run([sys.executable, "-c", CODE, str(SAMPLE)], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout.strip()) > 0

"""Foundation checks: the rules core is pure, the Qt pin holds, the package is importable."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import mneme_desktop


def run_python(code: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=timeout)


def test_rules_core_imports_no_qt() -> None:
    result = run_python("""
        import sys
        import mneme_desktop.rules
        bad = sorted(m for m in sys.modules if m.startswith(("PySide6", "shiboken6")))
        print(",".join(bad))
        """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


def test_domain_and_storage_import_no_qt() -> None:
    result = run_python("""
        import sys
        import mneme_desktop.domain, mneme_desktop.storage
        print(",".join(sorted(m for m in sys.modules if m.startswith("PySide6"))))
        """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


def test_rules_sources_mention_no_qt() -> None:
    from pathlib import Path

    rules = Path(mneme_desktop.__file__).parent / "rules"
    for source in rules.glob("*.py"):
        text = source.read_text(encoding="utf-8")
        assert "PySide" not in text and "shiboken" not in text, source


def test_void_qt_calls_do_not_abort_the_interpreter() -> None:
    """PySide6 6.12.0 on CPython 3.11 aborted with none_dealloc after ~5,000 void calls."""
    result = run_python("""
        from PySide6.QtCore import QPoint
        p = QPoint()
        for i in range(50_000):
            p.setX(i)
        print("alive", p.x())
        """, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "alive 49999"


def test_version_is_exposed() -> None:
    assert mneme_desktop.__version__.count(".") == 2


def test_python_m_help_runs() -> None:
    result = subprocess.run([sys.executable, "-m", "mneme_desktop", "--help"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert "--smoke-test" in result.stdout

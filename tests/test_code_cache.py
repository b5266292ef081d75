"""The cache of compiled dataclass methods and annotations kept between starts."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import textwrap
import typing
from pathlib import Path

import pytest

from mneme_desktop.code_cache import CodeCache


@pytest.fixture
def installed(tmp_path: Path) -> typing.Iterator[CodeCache]:
    cache = CodeCache(tmp_path / "code-cache.bin")
    cache.install()
    try:
        yield cache
    finally:
        cache.uninstall()


def _define_point() -> type:
    @dataclasses.dataclass(frozen=True)
    class Point:
        x: int
        y: int = 2
        tags: tuple[str, ...] = ()

    return Point


def test_dataclasses_made_through_the_cache_behave_as_without_it(installed):
    cached = _define_point()
    installed.uninstall()
    plain = _define_point()
    assert installed.misses >= 4  # __init__, __repr__, __eq__, __hash__, frozen setters
    for kind in (cached, plain):
        point = kind(1, tags=("a",))
        assert point == kind(1, 2, ("a",)) and point != kind(1, 3, ("a",))
        assert hash(point) == hash(kind(1, 2, ("a",)))
        with pytest.raises(dataclasses.FrozenInstanceError):
            point.x = 5  # type: ignore[attr-defined]
        with pytest.raises(TypeError, match="missing 1 required positional argument: 'x'"):
            kind()
    assert repr(cached(1, tags=("a",))) == repr(plain(1, tags=("a",)))


def test_a_second_start_compiles_nothing_the_first_one_kept(tmp_path, installed):
    _define_point()
    typing.ForwardRef("dict[str, list[int]]")
    assert installed.misses >= 4 and installed.save()
    installed.uninstall()

    again = CodeCache(installed.path)
    assert again.load() >= installed.hits + 4
    again.install()
    try:
        point = _define_point()(3)
        assert typing.ForwardRef("dict[str, list[int]]").__forward_code__ is not None
    finally:
        again.uninstall()
    assert (again.misses, point.y) == (0, 2)
    assert again.hits >= 5
    assert not again.save()  # nothing new: the file is not rewritten


def test_uninstall_leaves_the_standard_library_as_it_was(installed):
    assert "exec" in vars(dataclasses) and "compile" in vars(typing)
    installed.uninstall()
    assert "exec" not in vars(dataclasses) and "compile" not in vars(typing)


@pytest.mark.parametrize("damage", ["empty", "truncated", "flipped", "other_python", "garbage"])
def test_a_damaged_or_foreign_file_is_ignored_and_replaced(tmp_path, damage):
    first = CodeCache(tmp_path / "code-cache.bin")
    first.install()
    _define_point()
    first.uninstall()
    assert first.save()
    data = first.path.read_bytes()
    damaged = {
        "empty": b"",
        "truncated": data[: len(data) // 2],
        "flipped": data[:-10] + bytes([data[-10] ^ 0xFF]) + data[-9:],
        "other_python": data.replace(sys.implementation.cache_tag.encode(), b"cpython-299", 1),
        "garbage": os.urandom(4096),
    }[damage]
    first.path.write_bytes(damaged)

    second = CodeCache(first.path)
    assert second.load() == 0
    second.install()
    try:
        assert _define_point()(1).y == 2  # compiled as before
    finally:
        second.uninstall()
    assert second.misses > 0 and second.save()
    assert CodeCache(first.path).load() > 0


def test_a_cache_that_cannot_be_written_is_no_error(tmp_path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder should be", encoding="utf-8")
    cache = CodeCache(blocked / "code-cache.bin")
    cache.install()
    try:
        _define_point()
    finally:
        cache.uninstall()
    assert not cache.save()
    assert list(tmp_path.iterdir()) == [blocked]  # no stray temporary file


def test_a_module_that_already_shadows_the_builtin_is_left_alone(tmp_path, monkeypatch):
    def own_exec(*args: object) -> None:
        raise AssertionError("not called: the test only checks it stays in place")

    monkeypatch.setattr(dataclasses, "exec", own_exec, raising=False)
    cache = CodeCache(tmp_path / "code-cache.bin")
    cache.install()
    cache.uninstall()
    assert vars(dataclasses)["exec"] is own_exec


_START = textwrap.dedent(
    """
    import sys
    from mneme_desktop.app import main
    sys.exit(main(["--smoke-test"]))
    """
)


def test_the_app_writes_the_cache_once_and_reads_it_at_the_next_start(tmp_path):
    home = tmp_path / "home"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=str(home),
               XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"),
               XDG_STATE_HOME=str(home / "state"), XDG_CACHE_HOME=str(home / "cache"))
    runs = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", _START], env=env, capture_output=True,
                              text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        (cache,) = home.rglob("code-cache.bin")
        runs.append(cache.stat().st_mtime_ns)
    assert CodeCache(cache).load() > 300  # dataclasses of pydantic, rules, domain, storage
    assert runs[0] == runs[1]  # the second start found everything: nothing written


def test_a_cache_written_under_another_optimisation_level_is_not_used(tmp_path):
    code = textwrap.dedent(
        """
        import sys
        from pathlib import Path
        from mneme_desktop.code_cache import CodeCache
        cache = CodeCache(Path(sys.argv[1]))
        found = cache.load()
        cache.install()
        import dataclasses

        @dataclasses.dataclass(frozen=True)
        class Point:
            x: int

        cache.uninstall()
        cache.save()
        print(found, cache.hits)
        """
    )
    path = tmp_path / "code-cache.bin"

    def run(*flags: str) -> list[int]:
        done = subprocess.run([sys.executable, *flags, "-c", code, str(path)],
                              capture_output=True, text=True, timeout=60, check=True)
        return [int(word) for word in done.stdout.split()]

    assert run() == [0, 0]
    assert run()[1] > 0  # the same interpreter and level: used
    assert run("-O") == [0, 0]  # written without -O: not read under it

"""Build PySide6's enum classes through the standard library's fast enum builder.

PySide6 makes every Qt enum a Python ``enum`` class the first time its owner class is used,
through the functional API: ``IntEnum(name, [(key, value), ...], boundary=KEEP)``. That path
checks and sets up each member through ``EnumType.__new__`` and ``__set_name__``, about 5 us
a member; a start makes ~280 such classes with ~3,500 members (~38 ms, ~11 % of the time
to the sample fully shown). ``enum._simple_enum`` is the standard library's own builder for
enums it makes at import time (``re``, ``http``, ``signal``): it skips the checks a class
body needs and builds the same class in about half the time.

Only the exact call PySide6 makes takes the fast builder (one of the four Qt enum bases,
a list of ``(str, int)`` pairs with distinct plain names, ``boundary`` given, no module,
qualname or mixin type), and only on the Python versions on which
``tests/test_qt_enums.py`` compares every enum of QtCore, QtGui and QtWidgets built both
ways (members, aliases, values, masks, iteration, repr, flag operations); anything else,
or anything the fast builder refuses, goes to the standard path as before.
"""

from __future__ import annotations

import enum
import functools
import sys
from collections.abc import Callable
from typing import Any

# Python versions whose enum module the equivalence test has been run against.
VERIFIED_PYTHONS = frozenset({(3, 11)})

_STANDARD_CREATE = "_mneme_standard_create_"


def _plain_name(name: object) -> bool:
    return isinstance(name, str) and name.isidentifier() and not name.startswith("_")


@functools.cache
def _taken(base: type[enum.Enum]) -> frozenset[str]:
    """Names ``base`` already has (``name``, ``value``, methods): a member named so gets a
    redirecting descriptor on the standard path, which the fast builder does not make."""
    return frozenset(name for owner in base.__mro__ for name in vars(owner))


def fast_enum(base: type[enum.Enum], class_name: str, names: list[Any], module: str,
              boundary: Any) -> type[enum.Enum] | None:
    """``base(class_name, names, boundary=boundary)`` built by ``enum._simple_enum``, with
    ``__module__`` set to ``module``; None when ``names`` is not a list of distinct plain
    ``(name, int)`` pairs (the standard path then builds it, or refuses it, as always)."""
    body: dict[str, Any] = {}
    taken = _taken(base)
    for item in names:
        if type(item) is not tuple or len(item) != 2:
            return None
        key, value = item
        if not _plain_name(key) or type(value) is not int or key in body or key in taken:
            return None
        body[key] = value
    body["__module__"] = module
    plain = type(class_name, (), body)
    built: type[enum.Enum] = enum._simple_enum(base, boundary=boundary)(plain)  # type: ignore[attr-defined]
    # _simple_enum leaves a redirecting property per member; the standard path puts the
    # member itself in the class (no Python call on every ``Qt.AlignmentFlag.AlignLeft``).
    for key, member in built._member_map_.items():
        type.__setattr__(built, key, member)
    return built


def install() -> bool:
    """Route PySide6's enum calls through :func:`fast_enum`; True if it is now in place.

    Idempotent; does nothing on a Python version the equivalence test has not covered."""
    if sys.version_info[:2] not in VERIFIED_PYTHONS:
        return False
    meta = enum.EnumType
    if _STANDARD_CREATE in meta.__dict__:
        return True
    standard: Callable[..., Any] = meta.__dict__["_create_"]
    bases = (enum.Enum, enum.IntEnum, enum.Flag, enum.IntFlag)

    def _create_(cls: Any, class_name: str, names: Any, *, module: str | None = None,
                 qualname: str | None = None, type: Any = None, start: int = 1,
                 boundary: Any = None) -> Any:
        if (boundary is not None and module is None and qualname is None and type is None
                and cls in bases and names.__class__ is list):
            try:  # the module the standard path would name: the caller of the enum call
                caller = sys._getframe(2).f_globals["__name__"]
            except (AttributeError, ValueError, KeyError):
                caller = None
            if isinstance(caller, str):
                built = fast_enum(cls, class_name, names, caller, boundary)
                if built is not None:
                    return built
        return standard(cls, class_name, names, module=module, qualname=qualname,
                        type=type, start=start, boundary=boundary)

    _create_.__doc__ = standard.__doc__
    setattr(meta, _STANDARD_CREATE, standard)
    setattr(meta, "_create_", _create_)  # noqa: B010 - a private hook mypy does not know
    return True


def uninstall() -> None:
    """Put the standard ``_create_`` back (tests)."""
    meta = enum.EnumType
    standard = meta.__dict__.get(_STANDARD_CREATE)
    if standard is not None:
        setattr(meta, "_create_", standard)  # noqa: B010
        delattr(meta, _STANDARD_CREATE)


def installed() -> bool:
    return _STANDARD_CREATE in enum.EnumType.__dict__

"""Run in a fresh process by ``tests/test_qt_enums.py``: every enum class of QtCore, QtGui
and QtWidgets, built by PySide6 through :mod:`mneme_desktop.qt_enums`, compared with the
same enum built by the standard ``enum`` path from the same members.

Prints one JSON object: how many classes went through each path, and the differences."""

from __future__ import annotations

import enum
import itertools
import json
import os
import sys
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# Set by shiboken after creating the class, or by the class statement; not the builder's.
_AFTER = {"__module__", "__qualname__", "_missing_", "__doc__"}


def _safe(call: Any) -> str:
    try:
        return repr(call())
    except Exception as exc:  # the same refusal counts as the same behaviour
        return f"raises {type(exc).__name__}: {exc}"


def _pair_operations(a: Any, b: Any) -> tuple[str, ...]:
    return (_safe(lambda: a | b), _safe(lambda: a & b), _safe(lambda: a ^ b),
            _safe(lambda: list(a | b)), _safe(lambda: a in (a | b)), _safe(lambda: b in a))


def _single_operations(cls: Any, a: Any) -> tuple[str, ...]:
    return (_safe(lambda: ~a), _safe(lambda: list(~a)), _safe(lambda: cls(0)),
            _safe(lambda: cls(a._value_ | 1 << 40)))


def describe(cls: Any) -> dict[str, Any]:
    """Everything a caller can observe of an enum class, as comparable text."""
    members = list(cls.__members__.items())
    facts: dict[str, Any] = {
        "name": cls.__name__,
        "mro": [c.__qualname__ for c in cls.__mro__],
        "meta": type(cls).__name__,
        "members": [(n, m._name_, m._value_, m._sort_order_) for n, m in members],
        "iter": [m._name_ for m in cls],
        "len": len(cls),
        "member_names": list(cls._member_names_),
        # canonical values only: composite flags used so far are cached there too
        "value2member": sorted((v, m._name_) for v, m in cls._value2member_map_.items()
                               if m._name_ in cls._member_map_),
        "unhashable": list(cls._unhashable_values_),
        "dict": sorted((k, type(v).__name__) for k, v in vars(cls).items() if k not in _AFTER),
        "use_args": cls._use_args_,
        "member_type": cls._member_type_.__name__,
        "new_member": getattr(cls._new_member_, "__qualname__", repr(cls._new_member_)),
        "value_repr": repr(cls._value_repr_),
    }
    if issubclass(cls, enum.Flag):
        facts |= {
            "flag_mask": cls._flag_mask_, "all_bits": cls._all_bits_,
            "singles": cls._singles_mask_, "boundary": repr(cls._boundary_),
            "iter_member": cls._iter_member_.__name__,
        }
    behaviour = []
    for name, member in members:
        behaviour.append((name, repr(member), str(member), format(member), hash(member),
                          bool(member), _safe(lambda m=member: int(m)),
                          member == member._value_, _safe(lambda v=member._value_: cls(v)),
                          _safe(lambda n=name: cls[n]), type(member).__name__,
                          member.__objclass__ is cls if hasattr(member, "__objclass__") else None))
    facts["behaviour"] = behaviour
    if issubclass(cls, enum.Flag):
        singles = [m for _, m in members][:6]
        operations = []
        for a, b in itertools.product(singles, repeat=2):
            operations.append(_pair_operations(a, b))
        for a in singles:
            operations.append(_single_operations(cls, a))
        facts["operations"] = operations
    else:
        facts["unknown"] = _safe(lambda: cls(-987654))
    return facts


def enum_classes(owner: Any, seen: set[int]) -> list[Any]:
    found = []
    for name in dir(owner):
        try:
            value = getattr(owner, name)
        except Exception:
            continue
        if isinstance(value, enum.EnumType) and id(value) not in seen and \
                value.__module__.startswith("PySide6"):
            seen.add(id(value))
            found.append(value)
        elif isinstance(value, type) and id(value) not in seen and \
                getattr(value, "__module__", "").startswith("PySide6") and owner is not value:
            seen.add(id(value))
            found.extend(enum_classes(value, seen))
    return found


def main() -> int:
    from mneme_desktop import qt_enums

    active = qt_enums.install()
    calls = {"fast": 0, "standard": 0}
    fast_builder = qt_enums.fast_enum

    def counting(*args: Any, **kwargs: Any) -> Any:
        built = fast_builder(*args, **kwargs)
        calls["fast" if built is not None else "standard"] += 1
        return built

    qt_enums.fast_enum = counting  # type: ignore[assignment]
    from PySide6 import QtCore, QtGui, QtWidgets

    seen: set[int] = set()
    classes = [cls for module in (QtCore, QtGui, QtWidgets) for cls in enum_classes(module, seen)]
    standard_create = getattr(enum.EnumType, "_mneme_standard_create_", enum.EnumType._create_)
    differences = []
    for cls in classes:
        base = next(b for b in cls.__mro__[1:] if b in (enum.IntFlag, enum.Flag, enum.IntEnum,
                                                          enum.Enum))
        pairs = [(name, member._value_) for name, member in cls.__members__.items()]
        boundary = cls._boundary_ if issubclass(cls, enum.Flag) else enum.KEEP
        twin = standard_create(base, cls.__name__, pairs, module=cls.__module__,
                               boundary=boundary)
        twin.__qualname__ = cls.__qualname__  # set by shiboken after building either
        foreign = [key for key, value in vars(cls).items()  # PySide6's own operators
                   if key.startswith("__") and callable(value)
                   and getattr(value, "__module__", "enum") != "enum"]
        for key in foreign:  # (Qt.Modifier | Qt.Key): the same on both
            setattr(twin, key, vars(cls)[key])
        ours, theirs = describe(cls), describe(twin)
        if foreign:  # those return members of the real class, so mixed operations differ
            ours.pop("operations", None)
            theirs.pop("operations", None)
        if "_missing_" in vars(cls):  # shiboken's, added after building either
            ours.pop("unknown", None)
            theirs.pop("unknown", None)
        if ours != theirs:
            keys = [k for k in ours if ours[k] != theirs.get(k)]
            differences.append({"enum": f"{cls.__module__}.{cls.__qualname__}", "keys": keys,
                                "ours": {k: ours[k] for k in keys},
                                "standard": {k: theirs.get(k) for k in keys}})
    print(json.dumps({"active": active, "python": list(sys.version_info[:2]),
                      "classes": len(classes), "calls": calls,
                      "members": sum(len(c.__members__) for c in classes),
                      "differences": differences[:20], "different": len(differences)},
                     default=repr))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Build PySide6's enum classes the way the standard library builds its own, directly.

PySide6 makes every Qt enum a Python ``enum`` class the first time its owner class is used,
through the functional API: ``IntEnum(name, [(key, value), ...], boundary=KEEP)``. That path
checks and sets up each member through ``EnumType.__new__`` and ``__set_name__``, about 5 us
a member; a start makes ~280 such classes with ~3,500 members (~38 ms, ~11 % of the time
to the sample fully shown). ``enum._simple_enum`` is the standard library's builder for
enums it makes at import time (``re``, ``http``, ``signal``): it skips the checks a class
body needs. :func:`fast_enum` builds the class that builder builds, step for step, without
what only a class statement needs: the intermediate class, the sorting of its attributes
into members and methods, and the redirecting property per member that the standard path
then replaces with the member itself. All 635 enum classes of QtCore, QtGui and QtWidgets:
~80 ms through the functional API, ~40 through ``_simple_enum``, ~18 here.

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
_FIXED_METHODS = ("__repr__", "__str__", "__format__", "__reduce_ex__")
_FLAG_OPERATORS = ("__or__", "__xor__", "__and__", "__ror__", "__rxor__", "__rand__",
                   "__invert__")


@functools.cache
def _taken(base: type[enum.Enum]) -> frozenset[str]:
    """Names ``base`` already has (``name``, ``value``, methods): a member named so gets a
    redirecting descriptor on the standard path, which the fast builder does not make."""
    return frozenset(name for owner in base.__mro__ for name in vars(owner))


def _members(base: type[enum.Enum], names: list[Any]) -> dict[str, int] | None:
    """``names`` as a dict if it is a list of distinct plain ``(name, int)`` pairs (plain:
    an identifier not starting with ``_`` and not a name ``base`` already has)."""
    try:
        members = dict(names)
    except (TypeError, ValueError):
        return None
    if len(members) != len(names) or not _taken(base).isdisjoint(members):
        return None
    for key, value in members.items():
        if type(value) is not int or type(key) is not str or not key.isidentifier() \
                or key[0] == "_":
            return None
    return members


def fast_enum(base: type[enum.Enum], class_name: str, names: list[Any], module: str,
              boundary: Any) -> type[enum.Enum] | None:
    """``base(class_name, names, boundary=boundary)`` with ``__module__`` ``module``, built
    as ``enum._simple_enum(base, boundary=boundary)`` builds it (Python 3.11's
    ``convert_class``) with every name then bound to its member in the class, as the
    standard path binds it; None when ``names`` is not a list of distinct plain
    ``(name, int)`` pairs (the standard path then builds it, or refuses it, as always)."""
    members = _members(base, names)
    if members is None:
        return None
    etype: Any = base  # the enum internals below are not in typeshed
    member_type: Any = etype._member_type_
    new_member = member_type.__new__
    use_args = etype._use_args_
    member_names: list[str] = []
    member_map: dict[str, Any] = {}
    value2member_map: dict[int, Any] = {}
    body: dict[str, Any] = {
        "__module__": module, "__qualname__": class_name, "__doc__": "An enumeration.",
        "_new_member_": new_member, "_use_args_": use_args,
        "_generate_next_value_": etype._generate_next_value_,
        "_member_names_": member_names, "_member_map_": member_map,
        "_value2member_map_": value2member_map, "_unhashable_values_": [],
        "_member_type_": member_type, "_value_repr_": etype._value_repr_,
    }
    is_flag = issubclass(base, enum.Flag)
    if is_flag:
        body |= {"_boundary_": boundary or etype._boundary_, "_flag_mask_": None,
                 "_all_bits_": None, "_singles_mask_": None, "_inverted_": None}
        body |= {name: getattr(enum.Flag, name) for name in _FLAG_OPERATORS}
    built: Any = type(class_name, (base,), body, boundary=boundary, _simple=True)
    for name in _FIXED_METHODS:  # as _simple_enum: the enum's own, not the mixin's
        if name not in body and getattr(built, name) in (getattr(member_type, name),
                                                         getattr(object, name)):
            setattr(built, name, getattr(base, name))
    bind = type.__setattr__  # the member itself in the class, not a redirecting property
    single_bits = multi_bits = 0
    for name, value in members.items():
        member = value2member_map.get(value)
        if member is None:  # else an alias of the first name with this value
            member = new_member(built, value) if use_args else new_member(built)
            member._value_ = value
            member._name_ = name
            member.__objclass__ = built
            member._sort_order_ = len(member_names)
            value2member_map[value] = member
            if not is_flag:
                member_names.append(name)
            elif value and not value & (value - 1):  # one bit: a canonical flag
                member_names.append(name)
                single_bits |= value
            else:
                multi_bits |= value
        member_map[name] = member
        bind(built, name, member)
    if is_flag:
        built._flag_mask_ = single_bits | multi_bits
        built._singles_mask_ = single_bits
        built._all_bits_ = 2 ** ((single_bits | multi_bits).bit_length()) - 1
        values = [member._value_ for member in built]
        if values != sorted(values):
            built._iter_member_ = built._iter_member_by_def_
    built.__new__ = enum.Enum.__new__
    result: type[enum.Enum] = built
    return result


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

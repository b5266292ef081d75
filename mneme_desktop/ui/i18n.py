"""Translation helpers: every user-visible string of the UI goes through Qt's translator.

English is the only language shipped today; the source texts are the English texts, so
with no translator installed every string comes back unchanged.

Convention: each UI module names one fixed translation context, ``_CTX = "EncounterView"``
(the module's name in CamelCase), and wraps its texts as ``tr(_CTX, "Round {0}")``, even
inside QObject methods: ``self.tr`` would take the context from the (sub)class at run time.
Texts with values put numbered placeholders in the translatable source and fill them
afterwards, ``tr(_CTX, "{0} hits {1}").format(actor, target)``, so a translator can reorder
the words. Texts defined before a translator can be installed (module and class constants:
column headers, group names) are marked with :func:`tr_noop` and translated where shown,
with :func:`tr` and the same context.
"""

from __future__ import annotations

import importlib.resources
import logging
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

__all__ = ["TRANSLATION_PREFIX", "install_translator", "tr", "tr_noop", "translations_dirs"]

log = logging.getLogger(__name__)

TRANSLATION_PREFIX = "mneme_"
"""Translation files are named ``mneme_<locale>.qm`` (``mneme_de.qm``, ``mneme_pt_BR.qm``)."""


def tr(context: str, text: str, disambiguation: str | None = None, n: int = -1) -> str:
    """``text`` in the user's language (``text`` itself when nothing translates it)."""
    return QCoreApplication.translate(context, text, disambiguation, n)


def tr_noop(context: str, text: str) -> str:
    """Marks ``text`` for translation in ``context`` without translating it now (Qt's
    ``QT_TRANSLATE_NOOP``): for constants, translated with :func:`tr` where shown."""
    del context
    return text


def translations_dirs() -> list[Path]:
    """Where translation files may be: ``resources/translations`` of the installed
    package (or of a source checkout), then a ``translations`` folder beside this package."""
    dirs: list[Path] = []
    try:
        resource = importlib.resources.files("mneme_desktop.resources") / "translations"
        dirs.append(Path(str(resource)))
    except (ModuleNotFoundError, TypeError):
        pass
    here = Path(__file__).resolve()
    dirs.append(here.parents[2] / "resources" / "translations")
    dirs.append(here.parents[1] / "translations")
    unique: list[Path] = []
    for folder in dirs:
        if folder not in unique:
            unique.append(folder)
    return unique


def install_translator(app: QCoreApplication, locale_name: str | None = None) -> bool:
    """Load ``mneme_<locale>.qm`` for ``locale_name`` (default: the system locale) and
    install it on ``app``. False when there is no such file (English is then shown)."""
    locale = QLocale(locale_name) if locale_name else QLocale.system()
    for folder in translations_dirs():
        if not folder.is_dir():
            continue
        translator = QTranslator(app)
        if translator.load(locale, TRANSLATION_PREFIX.rstrip("_"), "_", str(folder)) \
                and app.installTranslator(translator):
            log.info("Installed translation %s from %s", translator.filePath(), folder)
            return True
        translator.deleteLater()
    return False

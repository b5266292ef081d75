"""QPainter drawing shared by the screen (``ui/``) and paper (``export/``).

Qt GUI only (no widgets): it imports the rules core and PySide6.QtGui/QtCore, never ``ui``
or ``export``, so both can draw the damage track the same way without depending on each
other.
"""

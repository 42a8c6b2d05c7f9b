"""posenc_gui.encodings is the Qt-free library API."""

import subprocess
import sys


def test_encodings_never_import_qt():
    code = (
        "import sys, posenc_gui.encodings; "
        "bad = sorted(m for m in sys.modules if m.startswith(('PySide6', 'pyqtgraph', "
        "'superqt'))); print(bad); raise SystemExit(1 if bad else 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr

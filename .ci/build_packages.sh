#!/usr/bin/env bash
# Issue #8 proof, run by .ci/run after the tests: build the Linux bundle, .tar.gz and .deb with
# PyInstaller, then run the frozen app, and the app installed from the .deb, the way a referee
# would: open the sample campaign (--smoke-test) and export a PDF. The PDF export runs with
# no system fonts at all, so the fonts in it can only have come from inside the bundle.
# Also checks that running writes nothing next to the program (settings, autosaves, logs go to
# the platformdirs folders), and prints sizes, timings and start-up times.
set -euo pipefail
cd "$(dirname "$0")/.."

export QT_QPA_PLATFORM=offscreen
export PIP_DISABLE_PIP_VERSION_CHECK=1
SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi

# The virtualenv .ci/run made (MNEME_VENV picks another, e.g. to leave a shared tree alone).
venv="${MNEME_VENV:-.venv}"
PY="$venv/bin/python"
if [ ! -x "$PY" ]; then
  python3 -m venv "$venv"
  "$PY" -m pip install -q -e .
fi

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }
fail() { echo "build_packages: $*" >&2; exit 1; }

echo "== packaging: install PyInstaller"
t=$(now)
"$PY" -m pip install -q pyinstaller
echo "   $("$PY" -m PyInstaller --version) in $(since "$t")"

echo "== packaging: build bundle, .tar.gz and .deb"
t=$(now)
"$PY" packaging/build.py --installer --bare-window
build_time=$(since "$t")

bundle=packaging/dist/mneme-desktop
exe="$bundle/mneme-desktop"
tarball=$(ls packaging/dist/mneme-desktop-*-linux-*.tar.gz)
deb=$(ls packaging/dist/mneme-desktop_*.deb)
[ -x "$exe" ] || fail "$exe missing after the build"

work=$(mktemp -d)
installed_deb=""
cleanup() {
  rm -rf "$work"
  if [ -n "$installed_deb" ]; then $SUDO dpkg -r mneme-desktop >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT
# A fresh home and XDG folders: what the app writes must land here, nowhere else.
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share"
export XDG_STATE_HOME="$work/home/.local/state" XDG_CACHE_HOME="$work/home/.cache"
mkdir -p "$HOME"
cp resources/sample_campaign.mneme "$work/sample.mneme"
# fontconfig with no font folders: the bundled DejaVu fonts are the only fonts there are.
cat > "$work/no-system-fonts.conf" <<EOF
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><cachedir>$work/fontconfig-cache</cachedir></fontconfig>
EOF

check_app() {  # LABEL EXECUTABLE FOLDER-THAT-MUST-STAY-UNTOUCHED
  local label="$1" app="$2" install_dir="$3"
  local stamp="$work/stamp-$label" out="$work/pdf-$label"
  touch "$stamp"
  sleep 1
  echo "-- $label: $("$app" --version)"
  "$app" --smoke-test "$work/sample.mneme" || fail "$label: --smoke-test exited with $?"
  echo "   --smoke-test on the sample campaign: exit 0"
  FONTCONFIG_FILE="$work/no-system-fonts.conf" \
    "$app" export "$work/sample.mneme" --format pdf --out "$out" \
    || fail "$label: export --format pdf exited with $?"
  local pdfs
  pdfs=$(find "$out" -name '*.pdf' | sort)
  [ -n "$pdfs" ] || fail "$label: export wrote no PDF into $out"
  for pdf in $pdfs; do
    head -c 5 "$pdf" | grep -q '%PDF-' || fail "$label: $pdf is not a PDF"
    if command -v pdffonts >/dev/null; then
      pdffonts "$pdf" | grep -q 'DejaVuSans' || fail "$label: $pdf has no bundled DejaVu font"
    fi
    echo "   export --format pdf: $(basename "$pdf") $(stat -c %s "$pdf") bytes, fonts:" \
      "$(pdffonts "$pdf" 2>/dev/null | awk 'NR > 2 { print $1 }' | sort -u | tr '\n' ' ')"
  done
  local touched
  touched=$(find "$install_dir" -newer "$stamp" 2>/dev/null | head -5)
  [ -z "$touched" ] || fail "$label: the app wrote next to the program: $touched"
  echo "   nothing written under $install_dir"
}

echo "== packaging: run the frozen bundle"
check_app bundle "$exe" "$bundle"
[ -d "$XDG_STATE_HOME/mneme-desktop" ] || [ -d "$XDG_DATA_HOME/mneme-desktop" ] \
  || fail "the frozen app wrote nothing to the platformdirs folders"
echo "   user folders written: $(cd "$HOME" && find . -type f | sort | tr '\n' ' ')"

echo "== packaging: install the .deb and run the installed app"
t=$(now)
installed_deb=yes
# apt-get pulls in missing dependencies (dpkg -i alone would stop at them); --reinstall
# because an earlier run may have left the same version installed.
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --reinstall --no-install-recommends \
  "./$deb" >/dev/null 2>"$work/apt.err" \
  || { cat "$work/apt.err" >&2; $SUDO dpkg -i "$deb"; }
echo "   installed in $(since "$t"): $(dpkg-query -W -f='${Package} ${Version} ${Installed-Size} KiB' mneme-desktop)"
[ "$(readlink -f /usr/bin/mneme-desktop)" = /opt/mneme-desktop/mneme-desktop ] \
  || fail "/usr/bin/mneme-desktop does not lead to /opt/mneme-desktop/mneme-desktop"
check_app deb /usr/bin/mneme-desktop /opt/mneme-desktop
if [ -f /usr/share/mime/globs2 ]; then
  grep -q 'application/x-mneme:\*\.mneme' /usr/share/mime/globs2 \
    || fail ".mneme is not registered in the MIME database after install"
  echo "   MIME: *.mneme -> application/x-mneme"
fi
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate /usr/share/applications/mneme-desktop.desktop
  echo "   desktop entry valid"
fi
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net /usr/share/metainfo/*.metainfo.xml >/dev/null \
    || appstreamcli validate --no-net /usr/share/metainfo/*.metainfo.xml
  echo "   AppStream metainfo valid"
fi

echo "== packaging: start-up time, frozen vs installed vs from source, against a frozen bare window"
"$PY" -m compileall -q mneme_desktop  # from source as installed: bytecode present
"$PY" packaging/measure_startup.py --campaign "$work/sample.mneme" --runs 7 \
  frozen="$exe" installed=/usr/bin/mneme-desktop source="$PY -m mneme_desktop" \
  bare=packaging/dist/bare-window/bare-window
echo "== packaging: start-up to first paint and to fully shown, frozen against frozen bare"
"$PY" benchmarks/bench_startup.py --frozen --runs 5 --instructions \
  || echo "   (not measured: benchmarks/bench_startup.py failed; a measurement, not a test)"

$SUDO dpkg -r mneme-desktop >/dev/null 2>&1
installed_deb=""
[ ! -e /opt/mneme-desktop ] || fail "dpkg -r left /opt/mneme-desktop behind"
echo "   dpkg -r removed it cleanly"

echo "== packaging: sizes and timings"
echo "   build (bundle + .tar.gz + .deb): $build_time"
echo "   bundle on disk: $(du -s --block-size=1 "$bundle" | cut -f1 | awk '{ printf "%.1f MB", $1 / 1e6 }')" \
  "($(find "$bundle" -type f | wc -l) files)"
echo "   $(basename "$tarball"): $(stat -c %s "$tarball" | awk '{ printf "%.1f MB", $1 / 1e6 }')"
echo "   $(basename "$deb"): $(stat -c %s "$deb" | awk '{ printf "%.1f MB", $1 / 1e6 }')"

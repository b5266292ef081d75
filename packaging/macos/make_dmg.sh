#!/usr/bin/env bash
# Wrap the PyInstaller app bundle in a compressed disk image with an Applications link, so a
# referee opens the .dmg and drags "Mneme Desktop" onto Applications.
#
#   packaging/macos/make_dmg.sh "packaging/dist/Mneme Desktop.app" packaging/dist/mneme-desktop-0.1.0-macos-arm64.dmg
#
# packaging/build.py --installer calls this on macOS. Needs hdiutil (part of macOS).
set -euo pipefail

if [ "$#" -ne 2 ]; then
  echo "usage: $0 APP_BUNDLE OUT.dmg" >&2
  exit 2
fi
app="$1"
out="$2"
volume="Mneme Desktop"

if [ ! -d "$app/Contents/MacOS" ]; then
  echo "$0: $app is not an app bundle (build it first: python packaging/build.py)" >&2
  exit 1
fi
command -v hdiutil >/dev/null || { echo "$0: hdiutil not found (macOS only)" >&2; exit 1; }

staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
# ditto keeps the bundle's symlinks, extended attributes and code signature intact.
ditto "$app" "$staging/$(basename "$app")"
ln -s /Applications "$staging/Applications"

rm -f "$out"
hdiutil create -volname "$volume" -srcfolder "$staging" -fs HFS+ -format UDZO \
  -imagekey zlib-level=9 -ov "$out"
hdiutil verify "$out"
echo "$out"

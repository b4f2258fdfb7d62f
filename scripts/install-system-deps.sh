#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Loket's tests and tools need (README "System packages").
#   scripts/install-system-deps.sh          install what is missing (needs root or sudo)
#   scripts/install-system-deps.sh --check  list what is missing; exit 1 if anything is
set -euo pipefail

PACKAGES=(
  chromium          # the browser Playwright drives (its own browser download is unreachable here)
  python3 make g++  # node-gyp builds better-sqlite3 from source
  # The OS keychain: keytar builds against libsecret; its tests run a private session bus (dbus-daemon,
  # dbus-send) with gnome-keyring and check entries with secret-tool (test/node/helpers/private-keyring.ts).
  libsecret-1-dev
  gnome-keyring dbus-daemon dbus-bin dbus-x11 libsecret-tools
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ "${1:-}" = "--check" ]; then
  [ ${#missing[@]} -eq 0 ] && exit 0
  printf '%s\n' "${missing[@]}"
  exit 1
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "system packages: all present"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

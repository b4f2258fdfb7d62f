#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Loket needs (README "System packages"), by group:
#   build     what `npm ci` builds better-sqlite3 with (from source: its prebuilt download may be unreachable);
#             Loket cannot run without it
#   keychain  what `npm ci` builds keytar, the OS keychain module, against; optional: without it npm leaves
#             keytar out and Loket runs in training mode only
#   tests     what the tests need besides: the browser Playwright drives, a real keyring on a private session bus,
#             PostgreSQL (the store book's tests run throwaway clusters)
#
#   scripts/install-system-deps.sh [GROUP...]          install what is missing (every group when none is named)
#   scripts/install-system-deps.sh --check [GROUP...]  list what is missing, one a line; exit 1 if anything is
# Exit 3: not a Debian/Ubuntu system (no dpkg-query or apt-get): nothing was checked or installed.
# scripts/ensure-deps.mjs runs this before `npm ci` for npm start, npm run serve, npm run cli and npm test.
set -euo pipefail

group_packages() {
  case "$1" in
    build) echo python3 make g++ ;;
    keychain) echo libsecret-1-dev ;;
    # chromium: the browser Playwright drives (its own browser download is unreachable here). The keychain's tests
    # run a private session bus (dbus-daemon, dbus-send) with gnome-keyring and check entries with secret-tool
    # (test/node/helpers/private-keyring.ts). postgresql: the store book's tests start a throwaway PostgreSQL cluster
    # of their own (test/node/helpers/pg-cluster.ts); the Debian package's default cluster is not used by them.
    tests) echo chromium gnome-keyring dbus-daemon dbus-bin dbus-x11 libsecret-tools postgresql ;;
    *)
      echo "install-system-deps.sh: unknown group \"$1\" (build, keychain or tests)" >&2
      exit 2
      ;;
  esac
}

check=false
groups=()
for arg in "$@"; do
  if [ "$arg" = "--check" ]; then check=true; else groups+=("$arg"); fi
done
[ ${#groups[@]} -gt 0 ] || groups=(build keychain tests)

PACKAGES=()
for g in "${groups[@]}"; do
  list="$(group_packages "$g")" || exit 2
  read -r -a names <<<"$list"
  PACKAGES+=("${names[@]}")
done

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-system-deps.sh: not a Debian/Ubuntu system (no dpkg-query or apt-get); install the equivalents of: ${PACKAGES[*]}" >&2
  exit 3
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ "$check" = true ]; then
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

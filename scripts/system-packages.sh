#!/bin/sh
# Debian packages the project needs beyond Python. `run` (what `make run` needs): pango (WeasyPrint renders the
# printed PDFs) and fonts with Cyrillic (DejaVu). `test` (what `make test` adds, the default): nginx with its Brotli
# module, the reverse proxy of deploy/nginx/, which tests/deploy/ runs (those tests are skipped without it); Debian's
# headless Java, which runs the Nu HTML validator (node_modules/vnu-jar, tests/e2e/test_checkers.py), and npm where
# no Node.js is installed (it installs the checkers from package-lock.json). Installs the missing ones when run as
# root; otherwise says which to install. Called by `make` before the Python packages; idempotent.
set -e
PACKAGES="libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b libfontconfig1 fonts-dejavu-core"
if [ "${1:-test}" != "run" ]; then
  PACKAGES="$PACKAGES nginx-light libnginx-mod-http-brotli-filter"
  # a JRE of any vendor will do; npm only where there is none (a Node.js from elsewhere ships its own npm)
  command -v java >/dev/null 2>&1 || PACKAGES="$PACKAGES default-jre-headless"
  command -v npm >/dev/null 2>&1 || PACKAGES="$PACKAGES npm"
fi
missing=""
for p in $PACKAGES; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  # RUNLEVEL=1: invoke-rc.d does not start the package's own nginx (the test runs its own on a free port).
  apt-get update -qq && RUNLEVEL=1 DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
else
  # Not root: everything but the PDF downloads (and the proxy's and the checkers' tests) works without them, so warn
  # and go on.
  echo "PDF downloads and the proxy's and the checkers' tests need these Debian packages: sudo apt-get install$missing" >&2
fi

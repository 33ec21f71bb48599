#!/bin/sh
# Installs the Debian packages benchlog needs when they are missing (hdparm and sysbench
# only remake fixtures: fixtures/hdparm, fixtures/sysbench; bonnie++ for bon_csv2html).
# As root it runs apt-get itself; otherwise it prints the exact command and fails.
#   sh scripts/deps.sh          what building and `make demo` need
#   sh scripts/deps.sh --test   also what the tests need
set -u
BUILD_PKGS="gcc make pkg-config libc6-dev libpcre2-dev libcairo2-dev libpango1.0-dev
 libxlsxwriter-dev libaio-dev libsqlite3-dev libjansson-dev fonts-noto-cjk fonts-dejavu-core"
TEST_PKGS="libcmocka-dev fio valgrind strace unzip clang libclang-rt-14-dev libreoffice-calc-nogui
 hdparm sysbench bonnie++"

want=$BUILD_PKGS
[ "${1:-}" = "--test" ] && want="$want $TEST_PKGS"

missing=""
for p in $want; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
    echo "benchlog needs these Debian packages:$missing" >&2
    echo "install them with: sudo apt-get install -y$missing" >&2
    exit 1
fi
echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2 || true
apt-get install -y -qq --no-install-recommends $missing >&2

#!/bin/sh
# Installs the Debian packages benchlog needs when they are missing (postgresql: the tests
# start their own server, tests/support/pgserver.h; hdparm and sysbench
# only remake fixtures: fixtures/hdparm, fixtures/sysbench; bonnie++ for bon_csv2html).
# As root it runs apt-get itself; otherwise it prints the exact command and fails.
#   sh scripts/deps.sh [build]   what building needs
#   sh scripts/deps.sh demo      also what `make demo` needs
#   sh scripts/deps.sh test      also what the tests need (--test is the old spelling)
# The Makefile keeps one stamp per set (build/.deps-SET), so a later target that needs a
# bigger set checks again whatever ran first.
set -u
BUILD_PKGS="gcc make pkg-config libc6-dev libpcre2-dev libcairo2-dev libpango1.0-dev
 libxlsxwriter-dev libaio-dev liburing-dev libxxhash-dev libisal-dev libsqlite3-dev
 libjansson-dev libpq-dev nettle-dev libminizip-dev zlib1g-dev fonts-noto-cjk
 fonts-dejavu-core"
# The demo runs the built program only: its set is the build set, kept apart so that it can
# grow without touching the others.
DEMO_PKGS=""
TEST_PKGS="libcmocka-dev fio valgrind strace unzip clang libclang-rt-14-dev libreoffice-calc-nogui
 hdparm sysbench bonnie++ poppler-utils libxml2-utils libxml2-dev chromium cmark-gfm zsh postgresql"

case "${1:-build}" in
build) want=$BUILD_PKGS ;;
demo) want="$BUILD_PKGS $DEMO_PKGS" ;;
test | --test) want="$BUILD_PKGS $TEST_PKGS" ;;
*)
    echo "deps.sh: unknown package set '$1' (build, demo or test)" >&2
    exit 2
    ;;
esac

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

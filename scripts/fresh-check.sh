#!/bin/bash
# The README's set-up, run as a new user would, on a minimal Debian 12 root:
#   apt-get install make; make demo; make test
# each in a debootstrap (--variant=minbase bookworm) root that has nothing else, so that a
# missing install step fails here and not on a user's machine. Prints each step's time.
#   bash scripts/fresh-check.sh        (as root; the CI runs it after the usual steps)
# The root is built once and kept as a tarball in $BENCHLOG_FRESH_CACHE (default
# /var/cache/benchlog-fresh), with the .deb files apt fetched, so later runs download
# nothing that did not change. The repository goes in as a clean clone of its HEAD, ../shared
# beside it as the README assumes. Everything mounted is unmounted on every exit path.
# `make test` there must pass with no test skipped: the root has an /etc/hosts, as every
# installed Debian has, so nothing that needs name resolution has a reason to skip.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
SHARED=$(cd .. && pwd)/shared
CACHE=${BENCHLOG_FRESH_CACHE:-/var/cache/benchlog-fresh}
MIRROR=${BENCHLOG_FRESH_MIRROR:-http://deb.debian.org/debian}
TARBALL=$CACHE/bookworm-minbase.tar
DEBS=$CACHE/debs

if [ "$(id -u)" != 0 ]; then
    echo "fresh-check: needs root (debootstrap, chroot, mounts)" >&2
    exit 2
fi

ROOT=""
MOUNTS=()
STEPS=()

# Processes left in the root (a fio server a test started) would keep its mounts busy.
kill_root_processes() {
    local pid link
    for pid in /proc/[0-9]*; do
        link=$(readlink "$pid/root" 2>/dev/null) || continue
        [ "$link" = "$ROOT" ] && kill -9 "${pid#/proc/}" 2>/dev/null || true
    done
}

cleanup() {
    local rc=$? i
    set +e
    if [ -n "$ROOT" ]; then
        kill_root_processes
        for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
            umount "${MOUNTS[$i]}" 2>/dev/null || umount -l "${MOUNTS[$i]}"
        done
        # Only once nothing is mounted below it: rm must never reach the host's /dev or cache.
        if ! grep -q " $ROOT/" /proc/mounts; then
            rm -rf "$ROOT"
        else
            echo "fresh-check: $ROOT still has mounts; left in place" >&2
        fi
    fi
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

add_mount() { # add_mount TARGET MOUNT-ARGS...
    local target=$1
    shift
    mkdir -p "$target"
    mount "$@" "$target"
    MOUNTS+=("$target")
}

# step NAME COMMAND...: runs and times one step; a failure ends the check with its name.
step() {
    local name=$1 t0 t1 rc
    shift
    echo "== fresh-check: $name"
    t0=$(date +%s)
    set +e
    "$@"
    rc=$?
    set -e
    t1=$(date +%s)
    STEPS+=("$(printf '%-34s %5d s  %s' "$name" $((t1 - t0)) "$([ $rc = 0 ] && echo ok || echo "FAILED ($rc)")")")
    if [ $rc != 0 ]; then
        summary
        echo "fresh-check: '$name' failed" >&2
        exit 1
    fi
}

summary() {
    echo "== fresh-check: times"
    printf '%s\n' "${STEPS[@]}"
}

build_tarball() {
    if ! command -v debootstrap >/dev/null; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
    fi
    local tmp
    tmp=$(mktemp -d "$CACHE/debootstrap.XXXXXX")
    debootstrap --variant=minbase bookworm "$tmp" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1 || {
        tail -20 "$CACHE/debootstrap.log" >&2
        rm -rf "$tmp"
        return 1
    }
    tar -C "$tmp" -cf "$TARBALL.part" . && mv "$TARBALL.part" "$TARBALL"
    rm -rf "$tmp"
}

in_root() { # in_root COMMAND-LINE: runs it in the root with a login-like environment
    chroot "$ROOT" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "$1"
}

# The root's own tests count skips: none is allowed here.
make_test_without_skips() {
    local log=$ROOT/work/make-test.log
    in_root 'cd /work/main && make test' 2>&1 | tee "$log" | tail -40
    [ "${PIPESTATUS[0]}" = 0 ] || return 1
    local closing
    closing=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    case "$closing" in
    *", 0 failed, 0 skipped") return 0 ;;
    *)
        echo "fresh-check: make test closed with '$closing': a test skipped or failed" >&2
        return 1
        ;;
    esac
}

mkdir -p "$CACHE" "$DEBS/partial"
[ -s "$TARBALL" ] || step "debootstrap minbase bookworm" build_tarball

ROOT=$(mktemp -d /var/tmp/benchlog-fresh.XXXXXX)
step "unpack the root" tar -C "$ROOT" -xf "$TARBALL"
# mktemp's 0700 would keep `nobody` out of the root's /, and so would the tarball's own "./"
# entry (0700 where it was made from a mktemp folder), which tar restores: after the unpack.
chmod 755 "$ROOT"

add_mount "$ROOT/proc" -t proc proc
add_mount "$ROOT/sys" -t sysfs sysfs
add_mount "$ROOT/dev" --bind /dev
add_mount "$ROOT/dev/pts" -t devpts devpts -o newinstance,ptmxmode=0666,mode=0620,gid=5
add_mount "$ROOT/dev/shm" -t tmpfs shm -o mode=1777,nosuid,nodev
add_mount "$ROOT/var/cache/apt/archives" --bind "$DEBS"

# What every installed Debian has and debootstrap leaves out; and no daemon may start from a
# package's postinst inside the root.
printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >"$ROOT/etc/hosts"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
chmod 755 "$ROOT/usr/sbin/policy-rc.d"

mkdir -p "$ROOT/work"
step "clean clone of HEAD" git clone -q "$REPO" "$ROOT/work/main"
if [ -d "$SHARED" ]; then
    cp -a "$SHARED" "$ROOT/work/shared"
else
    echo "fresh-check: no $SHARED: the corpus tests will skip, and that fails the check" >&2
fi

step "apt-get install make" in_root 'apt-get update -qq && apt-get install -y -qq make >/dev/null'
step "make demo" in_root 'cd /work/main && make demo'
step "make test (no test may skip)" make_test_without_skips
step "make demo again (after make test)" in_root 'cd /work/main && make demo >/dev/null'
summary
echo "fresh-check: passed"

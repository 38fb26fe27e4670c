#!/usr/bin/env bash
# Makes a clean Debian 12 root in ROOT for Tests/package/run.sh: debootstrap's minbase from
# Debian's mirror (nothing cached in the repository), with man-db, so `man geoqr-serve` can be
# read inside it. scripts/test starts it in the background at its beginning: it waits on the
# network, not the CPU. Needs debootstrap and root.
#
#   Tests/package/prepare-root.sh ROOT     ROOT must not exist yet, or be empty
set -euo pipefail
root=${1:?usage: Tests/package/prepare-root.sh ROOT}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
started=$SECONDS
debootstrap --variant=minbase --include=man-db bookworm "$root" "$mirror"
# The root's / is 0755 as on any Debian system: ROOT may be a `mktemp -d` (0700), and then
# no user but root could reach a file in it (the geoqr user, man-db's `man`).
chmod 0755 "$root"
# Nothing installed in the root may start a service: the root shares this machine's network.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 0755 "$root/usr/sbin/policy-rc.d"
echo "prepare-root: Debian 12 minbase in $root in $((SECONDS - started)) s"

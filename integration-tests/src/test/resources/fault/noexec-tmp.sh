#!/bin/sh
# Run by FaultInjectionIT under `unshare --mount --propagation private`: in this private mount
# namespace only, /tmp becomes a fresh noexec tmpfs, then the command runs. The directories that
# were in /tmp are bound back at their paths (with their own mount's flags), since the checkout
# and its build may live under /tmp; only files created at /tmp's top level, where zstd-jni puts
# its library by default, land on the noexec tmpfs.
set -e
mount -t tmpfs -o size=1m offlink-keep /mnt
mkdir /mnt/old
mount --bind /tmp /mnt/old
mount -t tmpfs -o noexec,size=64m offlink-noexec /tmp
for d in /mnt/old/* /mnt/old/.[!.]*; do
  [ -d "$d" ] && [ ! -L "$d" ] || continue
  mkdir "/tmp/${d#/mnt/old/}"
  mount --bind "$d" "/tmp/${d#/mnt/old/}"
done
exec "$@"

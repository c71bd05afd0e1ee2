#!/bin/sh
# Run by FaultInjectionIT under `unshare --mount --propagation private`: in this private mount
# namespace only, /tmp becomes a fresh noexec tmpfs, then the command runs.
set -e
mount -t tmpfs -o noexec,size=64m offlink-noexec /tmp
exec "$@"

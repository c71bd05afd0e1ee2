#!/usr/bin/env bash
# A Docker-API container engine on a Debian bookworm machine without Docker, so that the
# Testcontainers tests (DockerImageIT, DebPackageIT) run for real: rootful podman with runc, the
# vfs storage driver and the host's network, serving the Docker API on a unix socket.
#
# Nothing can be pulled from a registry here, so the base image docker.io/library/debian:bookworm
# is built locally with debootstrap (from the Debian mirror apt uses) and imported. The
# debootstrapped root is cached in $OFFLINK_CACHE (default /var/cache/offlink) and reused.
#
# Idempotent: does nothing when an engine already answers at $DOCKER_HOST (or the default socket);
# each step is skipped when its result is there. Needs root. Prints, as its last line on stdout,
#   DOCKER_HOST=unix:///run/podman/podman.sock
# for the caller to export (scripts/test.sh does).
set -euo pipefail

cache=${OFFLINK_CACHE:-/var/cache/offlink}
socket=/run/podman/podman.sock
mkdir -p "$cache"
base_image=docker.io/library/debian:bookworm
log() { echo "setup-container-engine: $*" >&2; }

answers() { # SOCKET: does a Docker API answer there?
  [[ -S "$1" ]] && curl -fsS --max-time 5 --unix-socket "$1" http://d/_ping >/dev/null 2>&1
}

# A podman service this script started earlier from a folder that has since been deleted (a CI
# checkout) still answers, but its conmon cannot start a container ("Failed to get working
# directory"): it is stopped here and started again below, from /.
for pid in $(pgrep -f "podman system service .*unix://$socket" || true); do
  if [[ $(readlink "/proc/$pid/cwd" 2>/dev/null) == *" (deleted)" ]]; then
    log "stopping podman system service $pid: the folder it was started from is gone"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    rm -f "$socket"
  fi
done

if [[ -n "${DOCKER_HOST:-}" && "$DOCKER_HOST" == unix://* ]] && answers "${DOCKER_HOST#unix://}"; then
  log "an engine answers at $DOCKER_HOST"
  echo "DOCKER_HOST=$DOCKER_HOST"
  exit 0
fi
if [[ -z "${DOCKER_HOST:-}" ]] && answers /var/run/docker.sock; then
  log "an engine answers at /var/run/docker.sock"
  echo "DOCKER_HOST=unix:///var/run/docker.sock"
  exit 0
fi
if [[ $(id -u) -ne 0 ]]; then
  log "error: no container engine answers and setting up podman needs root"
  exit 1
fi

packages=(podman runc debootstrap curl)
missing=()
for p in "${packages[@]}"; do
  [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" == "install ok installed" ]] \
    || missing+=("$p")
done
if ((${#missing[@]})); then
  log "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# The settings podman needs on this kind of machine (no systemd, no cgroup delegation, no overlay
# on the root file system): runc, cgroupfs, the host's network and cgroup namespaces, vfs.
mkdir -p /etc/containers
write_if_changed() { # FILE: stdin becomes FILE unless it already holds exactly that
  local tmp
  tmp=$(mktemp)
  cat > "$tmp"
  if cmp -s "$tmp" "$1"; then rm -f "$tmp"; else mv "$tmp" "$1"; chmod 644 "$1"; log "wrote $1"; fi
}
write_if_changed /etc/containers/containers.conf <<'EOF'
# Written by offlink's scripts/setup-container-engine.sh.
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]
netns = "host"
cgroupns = "host"

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
write_if_changed /etc/containers/storage.conf <<'EOF'
# Written by offlink's scripts/setup-container-engine.sh.
[storage]
driver = "vfs"
runroot = "/run/containers/storage"
graphroot = "/var/lib/containers/storage"
EOF

if ! podman image exists "$base_image"; then
  # The mirror apt uses (deb822 sources first, then the one-line format).
  mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null \
    | grep -v security | head -1 || true)
  if [[ -z "$mirror" ]]; then
    mirror=$(sed -n 's/^deb  *\(\[[^]]*\] *\)\?\([^ ]*\) *bookworm .*/\2/p' \
      /etc/apt/sources.list 2>/dev/null | head -1 || true)
  fi
  mirror=${mirror:-http://deb.debian.org/debian}
  root=$cache/bookworm-minbase
  if [[ ! -f "$root/.offlink-complete" ]]; then
    log "debootstrap bookworm from $mirror into $root (a few minutes, once)"
    rm -rf "$root"
    mkdir -p "$cache"
    debootstrap --variant=minbase bookworm "$root" "$mirror" > "$cache/debootstrap.log" 2>&1 || {
      log "error: debootstrap failed; see $cache/debootstrap.log"; exit 1; }
    rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*_Packages
    # The host's Debian sources (updates and security too), so that images get the package
    # versions the host has, and apt in a container can reuse the host's downloaded ones.
    if compgen -G '/etc/apt/sources.list.d/*.sources' >/dev/null; then
      rm -f "$root/etc/apt/sources.list"
      cp /etc/apt/sources.list.d/*.sources "$root/etc/apt/sources.list.d/"
    fi
    touch "$root/.offlink-complete"
  fi
  log "importing $root as $base_image"
  tar -C "$root" --exclude=./.offlink-complete -c . \
    | podman import --change 'CMD ["bash"]' - "$base_image" >/dev/null
fi

if ! answers "$socket"; then
  log "starting podman system service on unix://$socket"
  mkdir -p "${socket%/*}"
  (cd / && exec nohup podman system service --time=0 "unix://$socket" > "$cache/podman-service.log" 2>&1) &
  for _ in $(seq 50); do answers "$socket" && break; sleep 0.2; done
  answers "$socket" || { log "error: podman system service did not answer; see $cache/podman-service.log"; exit 1; }
fi
log "engine ready (podman $(podman version --format '{{.Client.Version}}'))"
echo "DOCKER_HOST=unix://$socket"

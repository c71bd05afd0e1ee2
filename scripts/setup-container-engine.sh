#!/usr/bin/env bash
# A Docker-API container engine on a Debian machine (12 bookworm or 13 trixie) without Docker, so
# that the Testcontainers tests (DockerImageIT, DebPackageIT, FreshMachineIT) run for real: rootful
# podman with runc, the vfs storage driver and the host's network, serving the Docker API on a unix
# socket.
#
#   scripts/setup-container-engine.sh [SUITE...]    SUITEs: the base images docker.io/library/debian:SUITE
#                                                   to provide (default: bookworm trixie sid, what the
#                                                   tests use)
#
# Nothing can be pulled from a registry here, so each base image is built locally with debootstrap
# (minbase, from the Debian mirror apt uses) and imported, with apt sources for its own suite (and
# for bookworm and trixie their -updates and -security suites, as Debian's images have) and this
# machine's apt Acquire settings (proxy, validity checks). The debootstrapped roots are cached in $OFFLINK_CACHE (default /var/cache/offlink) and reused.
#
# Idempotent: each step is skipped when its result is there; an engine that already answers at
# $DOCKER_HOST (or the default socket) is used as it is, and only given the missing base images
# when it is this machine's podman. Needs root. Prints, as its last line on stdout,
#   DOCKER_HOST=unix:///run/podman/podman.sock
# for the caller to export (scripts/test.sh does).
set -euo pipefail

cache=${OFFLINK_CACHE:-/var/cache/offlink}
socket=/run/podman/podman.sock
suites=("$@")
((${#suites[@]})) || suites=(bookworm trixie sid)
log() { echo "setup-container-engine: $*" >&2; }
for suite in "${suites[@]}"; do
  case $suite in
    bookworm | trixie | sid) ;;
    *) log "error: unknown suite '$suite' (expected bookworm, trixie or sid)"; exit 1 ;;
  esac
done

answers() { # SOCKET: does a Docker API answer there?
  [[ -S "$1" ]] && curl -fsS --max-time 5 --unix-socket "$1" http://d/_ping >/dev/null 2>&1
}

# The Debian mirror apt uses here (deb822 sources first, then the one-line format), and its
# security mirror.
host_mirror() { # debian | debian-security
  local m
  m=$(sed -n 's/^URIs: *\([^ ]*\/'"$1"'\)\/\{0,1\} *$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1 || true)
  if [[ -z "$m" ]]; then
    m=$(awk -v d="$1" '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ "/" d "/?$") { print $i; exit } }' \
      /etc/apt/sources.list 2>/dev/null || true)
  fi
  echo "${m%/}"
}

# The cached debootstrapped root of SUITE, made once.
minbase_root() { # SUITE -> prints the root's path
  local suite=$1 root=$cache/$1-minbase mirror security
  if [[ ! -f "$root/.offlink-complete" ]]; then
    mirror=$(host_mirror debian)
    mirror=${mirror:-http://deb.debian.org/debian}
    security=$(host_mirror debian-security)
    security=${security:-http://deb.debian.org/debian-security}
    log "debootstrap $suite from $mirror into $root (a few minutes, once)"
    rm -rf --one-file-system "$root"
    debootstrap --variant=minbase "$suite" "$root" "$mirror" > "$cache/debootstrap-$suite.log" 2>&1 || {
      log "error: debootstrap failed; see $cache/debootstrap-$suite.log"; exit 1; }
    rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*_Packages
    # The suite's own sources, as Debian's images have them (updates and security for a release).
    rm -f "$root/etc/apt/sources.list"
    {
      printf 'Types: deb\nURIs: %s\n' "$mirror"
      if [[ $suite == sid ]]; then printf 'Suites: sid\n'; else printf 'Suites: %s %s-updates\n' "$suite" "$suite"; fi
      printf 'Components: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
      if [[ $suite != sid ]]; then
        printf '\nTypes: deb\nURIs: %s\nSuites: %s-security\nComponents: main\n' "$security" "$suite"
        printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
      fi
    } > "$root/etc/apt/sources.list.d/debian.sources"
    # And this machine's apt settings for reaching that mirror (a proxy, or no Valid-Until check
    # for a mirror snapshot older than the clock), as its CA certificates reach Maven Central.
    for conf in /etc/apt/apt.conf.d/*; do
      if grep -Eq '^[[:space:]]*Acquire::(Check-Valid-Until|Check-Date|https?::)' "$conf" 2>/dev/null; then cp "$conf" "$root/etc/apt/apt.conf.d/"; fi
    done
    touch "$root/.offlink-complete"
  fi
  echo "$root"
}

# Imports every missing base image, with CLI (podman, or docker for a Docker engine).
base_images() { # CLI...
  local suite image root
  for suite in "${suites[@]}"; do
    image=docker.io/library/debian:$suite
    if "$@" image inspect "$image" >/dev/null 2>&1; then continue; fi
    root=$(minbase_root "$suite")
    log "importing $root as $image"
    tar -C "$root" --exclude=./.offlink-complete -c . | "$@" import --change 'CMD ["bash"]' - "$image" >/dev/null
  done
}

# A podman service this script started earlier from a folder that has since been deleted (a CI
# checkout) still answers, but its conmon cannot start a container ("Failed to get working
# directory"): it is stopped here and started again below, from /.
# (Found through /proc: pgrep is procps's, which a fresh machine may not have yet.)
for cmdline in /proc/[0-9]*/cmdline; do
  pid=${cmdline#/proc/} pid=${pid%/cmdline}
  args=$(tr '\0' ' ' 2>/dev/null <"$cmdline") || continue
  [[ $args == *"podman system service "*"unix://$socket"* ]] || continue
  if [[ $(readlink "/proc/$pid/cwd" 2>/dev/null) == *" (deleted)" ]]; then
    log "stopping podman system service $pid: the folder it was started from is gone"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    rm -f "$socket"
  fi
done

found=
if [[ -n "${DOCKER_HOST:-}" && "$DOCKER_HOST" == unix://* ]] && answers "${DOCKER_HOST#unix://}"; then
  found=$DOCKER_HOST
elif [[ -z "${DOCKER_HOST:-}" ]] && answers /var/run/docker.sock; then
  found=unix:///var/run/docker.sock
fi
if [[ -n "$found" ]]; then
  log "an engine answers at $found"
  if [[ "$found" == "unix://$socket" && $(id -u) -eq 0 ]] && command -v podman >/dev/null; then
    mkdir -p "$cache"
    base_images podman
  elif command -v docker >/dev/null && DOCKER_HOST=$found docker version >/dev/null 2>&1; then
    mkdir -p "$cache"
    base_images env DOCKER_HOST="$found" docker
  else
    log "cannot check its base images (no podman or docker command for it here)"
  fi
  echo "DOCKER_HOST=$found"
  exit 0
fi
if [[ $(id -u) -ne 0 ]]; then
  log "error: no container engine answers and setting up podman needs root"
  exit 1
fi
mkdir -p "$cache"

packages=(podman runc debootstrap curl catatonit) # catatonit: podman run --init (fresh-check.sh)
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

base_images podman

if ! answers "$socket"; then
  log "starting podman system service on unix://$socket"
  mkdir -p "${socket%/*}"
  (cd / && exec nohup podman system service --time=0 "unix://$socket" > "$cache/podman-service.log" 2>&1) &
  for _ in $(seq 50); do answers "$socket" && break; sleep 0.2; done
  answers "$socket" || { log "error: podman system service did not answer; see $cache/podman-service.log"; exit 1; }
fi
log "engine ready (podman $(podman version --format '{{.Client.Version}}'))"
echo "DOCKER_HOST=unix://$socket"

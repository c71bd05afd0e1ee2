#!/usr/bin/env bash
# The test command: installs what the tests use if missing, then runs every unit and integration
# test (which replays every fuzz seed and crash input), then a short fuzz run (about a minute).
#
# On Debian 12 (bookworm) it runs on the machine: the GCC 12 offload toolchain and the packaging
# tools are installed (scripts/setup-toolchain.sh --packaging). Elsewhere (Debian 13 trixie, ...)
# the suite, whose main toolchain is Debian 12's GCC 12.2, runs in a bookworm root
# (scripts/setup-toolchain.sh --gcc 12, with its JDK and Maven), this checkout, ~/.m2, the roots and
# the container engine's socket mounted at their own paths, as the GCC 13-16 tests run in theirs.
#
# Other arguments go to mvn verify: -Dofflink.it.everyDistribution=true makes DockerImageIT
# and FreshMachineIT check bookworm's image and fresh machine as well as trixie's (~8 min more).
#
# The Testcontainers tests (DockerImageIT, DebPackageIT, FreshMachineIT) get a container engine:
# the one that answers, else rootful podman set up by scripts/setup-container-engine.sh (needs
# root); without one they are skipped, and say so. The remote-cache tests get nginx with the WebDAV
# module (scripts/setup-nginx.sh, needs root to install); without it they are skipped, and say so.
#
# The GCC versions tested besides GCC 12: OFFLINK_TEST_GCC_VERSIONS (default 13,14,15,16). Each
# listed version's Debian root is built first if missing (scripts/setup-toolchain.sh --gcc V into
# /var/cache/offlink/roots; ~1.5 min and 1-2 GB each the first time, reused afterwards) and the
# multi-version tests (GccVersionsNvptxIT, StockGccVersionsIT, ...) then require it: a missing root
# fails them instead of skipping. --gcc12-only (or OFFLINK_TEST_GCC_VERSIONS=12) skips them all,
# for quick local runs.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
if [[ "${1:-}" == --gcc12-only ]]; then
  shift
  OFFLINK_TEST_GCC_VERSIONS=12
fi
export OFFLINK_TEST_GCC_VERSIONS=${OFFLINK_TEST_GCC_VERSIONS:-13,14,15,16}
log() { echo "test.sh: $*" >&2; }

container_engine() { # exports DOCKER_HOST (and the Testcontainers settings) when an engine answers
  local engine
  if engine=$(scripts/setup-container-engine.sh | tail -n 1) && [[ $engine == DOCKER_HOST=* ]]; then
    export "${engine?}"
    # No registry can be reached: no Ryuk reaper image, no start-up check containers.
    export TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_CHECKS_DISABLE=true
  else
    log "no container engine: DockerImageIT, DebPackageIT and FreshMachineIT will be skipped"
  fi
}

# Image builds of earlier runs (DockerImageIT's, FreshMachineIT's) leave layers that no tag leads to
# any more, and with podman's vfs storage each layer is a whole copy of its file system: a few GB a
# run, until the disk is full; a killed build also leaves its working container. They are removed
# here: such containers more than an hour old, then untagged images more than an hour old that no
# image and no container is made from, again until none is left; only on the engine
# scripts/setup-container-engine.sh sets up, never on another Docker engine.
prune_images() {
  [[ ${DOCKER_HOST:-} == unix:///run/podman/podman.sock ]] && command -v podman >/dev/null || return 0
  local orphans removed=0 id state created now
  now=$(date +%s)
  # A build's working container (storage only) lives while its build runs; an older one is left by a
  # build that was killed, and holds a copy of its image.
  while IFS='|' read -r id state created; do
    if [[ $state == Storage ]] && ((now - created > 3600)); then
      podman rm -f "$id" >/dev/null 2>&1 && removed=$((removed + 1))
    fi
  done < <(podman ps -a --external --format '{{.ID}}|{{.State}}|{{.Created.Unix}}')
  ((removed == 0)) || log "removed $removed containers of killed image builds"
  removed=0
  while orphans=$(orphan_images) && [[ -n $orphans ]]; do
    # shellcheck disable=SC2086 # one ID per word
    podman rmi $orphans >/dev/null 2>&1 || break
    removed=$((removed + $(wc -w <<<"$orphans")))
  done
  ((removed == 0)) || log "removed $removed image layers of earlier runs' builds"
}

orphan_images() { # prints the IDs prune_images removes next
  local now ids id parent tags created rows
  now=$(date +%s)
  ids=$(podman images -a -q --no-trunc | sort -u)
  [[ -n $ids ]] || return 0
  local -A parents=() used=()
  # shellcheck disable=SC2086 # one ID per word
  rows=$(podman image inspect --format '{{.Id}}|{{.Parent}}|{{len .RepoTags}}|{{.Created.Unix}}' $ids)
  while IFS='|' read -r id parent tags created; do
    if [[ -n $parent ]]; then parents[${parent#sha256:}]=1; fi
  done <<<"$rows"
  while read -r id; do
    if [[ -n $id ]]; then used[${id#sha256:}]=1; fi
  done < <(podman ps -a --external --no-trunc --format '{{.ImageID}}')
  while IFS='|' read -r id parent tags created; do
    id=${id#sha256:}
    if [[ $tags == 0 && -z ${parents[$id]:-} && -z ${used[$id]:-} ]] && ((now - created > 3600)); then
      echo "$id"
    fi
  done <<<"$rows"
}

gcc_roots() { # builds the Debian root of every listed GCC version but 12, when missing
  local versions v start
  IFS=',' read -r -a versions <<<"$OFFLINK_TEST_GCC_VERSIONS"
  for v in "${versions[@]}"; do
    if [[ -n "$v" && "$v" != 12 ]]; then
      start=$SECONDS
      scripts/setup-toolchain.sh --gcc "$v" >/dev/null
      log "GCC $v root ready ($((SECONDS - start)) s)"
    fi
  done
}

# Runs this script with the same arguments in the GCC 12 (bookworm) root ROOT; what the suite
# reads or writes outside the root is mounted at its own path, privately (no mount propagates
# back), and unmounted on exit.
in_bookworm_root() { # ROOT ARGS...
  local root=$1 mounts=() var
  shift
  bind() { # HOST-DIR: the same path inside the root
    mkdir -p "$root$1"
    mount --bind "$1" "$root$1"
    mount --make-private "$root$1"
    mounts=("$root$1" "${mounts[@]}")
  }
  trap 'for m in "${mounts[@]}"; do umount -l "$m" || true; done' EXIT
  # The root bound onto itself, so that its / is a mount point as a machine's is: unshare --mount
  # (FaultInjectionIT, ReplaceGccIT, LauncherRelocationIT) makes / private, which fails with
  # "cannot change root filesystem propagation: Invalid argument" in a chroot that is not one.
  # Bound first, the other mounts go on top of it; unmounted last.
  if ! mountpoint -q "$root"; then
    mount --bind "$root" "$root"
    mount --make-private "$root"
    mounts=("$root")
  fi
  mountpoint -q "$root/proc" || { mount -t proc proc "$root/proc"; mounts=("$root/proc" "${mounts[@]}"); }
  mountpoint -q "$root/dev" || bind /dev
  bind "$repo"
  bind "${OFFLINK_ROOTS_DIR:-/var/cache/offlink/roots}"
  mkdir -p /var/cache/offlink/apt
  bind /var/cache/offlink/apt # the containers' apt downloads, bound by path into them
  mkdir -p "$HOME/.m2"
  mkdir -p "$root/root/.m2"
  mount --bind "$HOME/.m2" "$root/root/.m2"
  mount --make-private "$root/root/.m2"
  mounts=("$root/root/.m2" "${mounts[@]}")
  if [[ ${DOCKER_HOST:-} == unix://* ]]; then bind "$(dirname "${DOCKER_HOST#unix://}")"; fi
  local env=(PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8)
  while IFS= read -r var; do
    env+=("$var=${!var}")
  done < <(compgen -e | grep -E '^(OFFLINK_|DOCKER_HOST$|TESTCONTAINERS_|MAVEN_OPTS$|https?_proxy$|no_proxy$)' || true)
  log "running the suite in the bookworm root $root"
  chroot "$root" /usr/bin/env -i "${env[@]}" /bin/bash -c 'cd "$1" && shift && exec scripts/test.sh "$@"' \
    test.sh "$repo" "$@"
}

codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
if [[ "$codename" != bookworm ]]; then
  [[ $(id -u) -eq 0 ]] || { log "error: on $codename the suite runs in a bookworm root, which needs root"; exit 1; }
  container_engine
  prune_images
  gcc_roots
  root=$(scripts/setup-toolchain.sh --gcc 12 --packaging)
  in_bookworm_root "$root" "$@"
  exit $?
fi

scripts/setup-toolchain.sh --packaging
scripts/setup-nginx.sh || log "no nginx with WebDAV: the remote-cache tests will be skipped"
container_engine
prune_images
gcc_roots
mvn -B verify "$@"
# Two targets at a time, one per core: 8 s each, 10 targets, about 80 s instead of 160.
scripts/fuzz.sh --jobs 2

#!/usr/bin/env bash
# Checks the README's two commands on fresh Debian machines: for each distribution, a clean clone
# of this repository's HEAD (committed work only, as a newcomer gets it) goes into a new container
# of debian:<suite> that has only what the README assumes (a JDK, Maven and git), and each command
# of the README's "Two commands" block runs there exactly as written, as root, in a container of
# its own. One line per distribution on stdout:
#
#   bookworm: scripts/demo.sh PASS (3m41s), scripts/test.sh PASS (58m02s)
#
#   scripts/fresh-check.sh                  both commands on bookworm and trixie
#   scripts/fresh-check.sh --demo-only      only the first command (the demo), as FreshMachineIT does
#   scripts/fresh-check.sh --suite trixie   one distribution (repeatable)
#   --out DIR                               the commands' logs (default target/fresh-check)
#   --keep                                  keep the containers (named offlink-fresh-<suite>-<n>)
#
# The machine's extra CA certificates (/usr/local/share/ca-certificates, a TLS-inspecting proxy's)
# go into the images, as they would be on a machine behind that proxy. Nothing else is cached:
# apt downloads every package and Maven's repository starts empty.
# The test command needs what a test machine has: chroot and mounts for the GCC roots and a nested
# container engine, so its container is privileged; the demo's is not.
#
# Needs root and podman (sudo scripts/setup-container-engine.sh sets it up and builds the base
# images). Exit status 0 when every command passed.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
out=$repo/target/fresh-check
suites=()
demo_only=0
keep=0
while (($#)); do
  case $1 in
    --demo-only) demo_only=1; shift ;;
    --suite) suites+=("${2:?--suite needs a name}"); shift 2 ;;
    --out) out=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h | --help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "fresh-check: error: unknown argument '$1' (see --help)" >&2; exit 1 ;;
  esac
done
((${#suites[@]})) || suites=(bookworm trixie)
log() { echo "fresh-check: $*" >&2; }
[[ $(id -u) -eq 0 ]] || { log "error: needs root (podman, privileged containers)"; exit 1; }

# The README's commands: the lines of the fenced block under "## Two commands", each up to its
# comment; continuation lines (indented comments) are not commands.
mapfile -t commands < <(awk '
  /^## Two commands/ { section = 1; next }
  section && /^```/ { if (inblock) exit; inblock = 1; next }
  inblock && /^[^ #]/ { sub(/[ ]+#.*/, ""); print }' README.md)
((${#commands[@]} == 2)) || { log "error: expected two commands in README.md's \"Two commands\" block, found ${#commands[@]}: ${commands[*]}"; exit 1; }
((demo_only)) && commands=("${commands[0]}")

engine=$(scripts/setup-container-engine.sh "${suites[@]}" | tail -n 1)
export "${engine?}"
# podman run --init's init (an engine set up before setup-container-engine.sh installed it lacks it).
if [[ ! -x /usr/libexec/podman/catatonit ]]; then
  log "installing catatonit (podman run --init)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends catatonit >&2
fi
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/offlink-fresh.XXXXXX")
containers=()
cleanup() {
  if ((!keep)); then
    for c in "${containers[@]}"; do podman rm -f -t 0 "$c" >/dev/null 2>&1 || true; done
  fi
  rm -rf "$work"
}
trap cleanup EXIT

git clone --quiet --no-hardlinks "$repo" "$work/offlink"
log "checking $(git -C "$work/offlink" log -1 --format='%h %s')"

# The image of a fresh machine of SUITE: Debian's own JDK, Maven and git, nothing else.
fresh_image() { # SUITE -> image name
  local suite=$1 image=localhost/offlink-fresh:$1 ctx
  if ! podman image exists "$image"; then
    ctx=$work/image-$suite
    mkdir -p "$ctx/cas"
    cp /usr/local/share/ca-certificates/*.crt "$ctx/cas/" 2>/dev/null || true
    cat > "$ctx/Containerfile" <<EOF
FROM docker.io/library/debian:$suite
COPY cas/ /usr/local/share/ca-certificates/
RUN apt-get update -qq \\
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \\
      default-jdk-headless maven git >/dev/null \\
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb
WORKDIR /root/offlink
EOF
    log "building $image (Debian $suite with default-jdk-headless, maven and git)"
    podman build -q -t "$image" "$ctx" >/dev/null
  fi
  echo "$image"
}

human() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

status=0
n=0
for suite in "${suites[@]}"; do
  image=$(fresh_image "$suite")
  line="$suite:"
  for cmd in "${commands[@]}"; do
    n=$((n + 1))
    name=offlink-fresh-$suite-$n
    # --init: a machine's PID 1 (systemd) reaps orphans, and so must the container's. With `sleep`
    # as PID 1, a link server that exits stays a zombie, and the tests that wait for one to end
    # (ServerStartTest, LinkServerIT) time out.
    opts=(--name "$name" --init --env OFFLINK_FRESH_CHECK=1)
    if [[ $cmd != "${commands[0]}" ]]; then opts+=(--privileged); fi
    podman rm -f -t 0 "$name" >/dev/null 2>&1 || true
    podman create "${opts[@]}" "$image" sleep infinity >/dev/null
    containers+=("$name")
    podman cp "$work/offlink/." "$name:/root/offlink"
    podman start "$name" >/dev/null
    program=${cmd%% *}
    logfile=$out/$suite-${program##*/}.log
    log "$suite: running '$cmd' (log: $logfile)"
    start=$SECONDS
    if podman exec "$name" bash -c "$cmd" > "$logfile" 2>&1; then result=PASS; else result="FAIL (exit $?)"; status=1; fi
    line+=" $cmd $result ($(human $((SECONDS - start)))),"
    ((keep)) || podman rm -f -t 0 "$name" >/dev/null
  done
  echo "${line%,}"
done
exit $status

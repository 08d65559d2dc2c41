#!/usr/bin/env bash
# Builds the tilecrush image (docker/Dockerfile) with docker where a Docker
# engine answers, with podman otherwise, and says which it did.
#   scripts/image.sh                      the full build: the Dockerfile's build
#                                         stage compiles the server in the container
#   scripts/image.sh --prebuilt BUILD_DIR only the runtime stage, from an existing
#                                         release build of this checkout (Debian
#                                         bookworm, like the image): install.sh
#                                         --reuse stages it and replaces the build
#                                         stage (--build-context build=...)
#   --tag NAME                            the image's name (default tilecrush:latest)
# The base images (debian:bookworm, debian:bookworm-slim) are used when the
# engine has them, pulled when it can; otherwise they are made from Debian's
# packages with debootstrap (as root), the slim one trimmed like the official
# one (no apt caches or lists, docs, man pages or locales), and kept as
# tarballs in TILECRUSH_IMAGE_CACHE (default /var/cache/tilecrush-image), so
# a later run imports them instead of bootstrapping again.
# Environment:
#   TILECRUSH_ENGINE   docker or podman: skip the detection
#   TILECRUSH_PODMAN   the podman command (default: the flags that work on
#                      these machines, docker/README.md: vfs storage, runc,
#                      cgroupfs)
# Prints the image's size and how much it adds to its base.
set -euo pipefail
cd "$(dirname "$0")/.."

tag="tilecrush:latest"
prebuilt=""
while (($#)); do
  case "$1" in
    --prebuilt) prebuilt="${2:?--prebuilt needs a build directory}"; shift 2 ;;
    --tag) tag="${2:?--tag needs a name}"; shift 2 ;;
    *) echo "usage: scripts/image.sh [--prebuilt BUILD_DIR] [--tag NAME]" >&2; exit 2 ;;
  esac
done

cache="${TILECRUSH_IMAGE_CACHE:-/var/cache/tilecrush-image}"
say() { echo "image: $*"; }
now() { echo "$EPOCHREALTIME"; }
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f s", b - a }'; }

# --- the engine
engine="${TILECRUSH_ENGINE:-}"
if [[ -z "$engine" ]]; then
  if command -v docker >/dev/null && docker info >/dev/null 2>&1; then
    engine=docker
  elif command -v podman >/dev/null; then
    engine=podman
  else
    echo "image: neither a Docker engine nor podman (scripts/setup.sh --test installs podman)" >&2
    exit 1
  fi
fi
build_flags=()
if [[ "$engine" == docker ]]; then
  E=(docker)
  say "building with docker (a Docker engine answers)"
else
  # vfs: no overlay mounts needed; runc: crun fails on some cgroup layouts;
  # cgroupfs: no systemd needed. Override with TILECRUSH_PODMAN.
  read -ra E <<<"${TILECRUSH_PODMAN:-podman --storage-driver=vfs --runtime runc --cgroup-manager=cgroupfs}"
  # --format docker keeps HEALTHCHECK and SHELL (the OCI format drops them);
  # the host's network gives the build's apt-get Debian's mirrors; the
  # default ulimits may exceed the machine's hard limits.
  build_flags=(--pull=never --format docker --network=host
               --ulimit nofile=20000:20000 --ulimit nproc=4096:4096
               --ignorefile docker/Dockerfile.dockerignore)
  say "building with podman (no Docker engine answers): ${E[*]}"
fi

image_exists() {
  if [[ "$engine" == docker ]]; then docker image inspect "$1" >/dev/null 2>&1
  else "${E[@]}" image exists "$1"; fi
}
image_size() { "${E[@]}" image inspect --format '{{.Size}}' "$1"; }

# Makes both base tarballs from Debian's packages (about two minutes).
bootstrap_bases() {
  command -v debootstrap >/dev/null ||
    { echo "image: debootstrap missing (scripts/setup.sh --test installs it)" >&2; exit 1; }
  [[ "$(id -u)" -eq 0 ]] || { echo "image: debootstrap needs root" >&2; exit 1; }
  mkdir -p "$cache"
  local rootfs
  rootfs="$(mktemp -d "$cache/rootfs.XXXXXX")"
  chmod 755 "$rootfs" # the image's / (mktemp made it 0700)
  # shellcheck disable=SC2064  # the path is fixed now
  trap "rm -rf '$rootfs'" EXIT
  local t0
  t0="$(now)"
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >"$cache/debootstrap.log" 2>&1 ||
    { tail -n 20 "$cache/debootstrap.log" >&2; exit 1; }
  # The official images' sources: the release, its updates and security.
  cat >"$rootfs/etc/apt/sources.list" <<'EOF'
deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/lib/apt/lists/*
  tar -C "$rootfs" -cf "$cache/bookworm.tar.tmp" . && mv "$cache/bookworm.tar.tmp" "$cache/bookworm.tar"
  # The slim base: what the official slim image leaves out, now and for
  # every later apt-get install in an image built on it.
  rm -rf "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/groff/* \
    "$rootfs"/usr/share/lintian/* "$rootfs"/usr/share/linda/*
  find "$rootfs/usr/share/doc" -mindepth 1 ! -type d ! -name copyright -delete
  find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
  find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
  cat >"$rootfs/etc/dpkg/dpkg.cfg.d/tilecrush-slim" <<'EOF'
# Made by scripts/image.sh: packages installed later leave out their
# documentation (but their copyright), manuals and translations.
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
EOF
  cat >"$rootfs/etc/apt/apt.conf.d/tilecrush-slim" <<'EOF'
// Made by scripts/image.sh: apt keeps no package caches in the image.
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
EOF
  tar -C "$rootfs" -cf "$cache/bookworm-slim.tar.tmp" . && mv "$cache/bookworm-slim.tar.tmp" "$cache/bookworm-slim.tar"
  rm -rf "$rootfs"
  trap - EXIT
  say "made the base tarballs with debootstrap in $(since "$t0") ($cache)"
}

# debian:bookworm or debian:bookworm-slim: present, pulled, or made here.
ensure_base() {
  local name="$1" file="$cache/${1#debian:}.tar" t0
  if image_exists "$name"; then
    say "base $name: present"
    return
  fi
  t0="$(now)"
  if timeout 120 "${E[@]}" pull "docker.io/library/$name" >/dev/null 2>&1; then
    say "base $name: pulled in $(since "$t0")"
    return
  fi
  if [[ -f "$file" ]]; then
    say "base $name: cannot be pulled; made from Debian's packages by an earlier debootstrap ($file)"
  else
    say "base $name: cannot be pulled; making it from Debian's packages with debootstrap"
    bootstrap_bases
  fi
  t0="$(now)"
  "${E[@]}" import "$file" "$name" >"$cache/import.log" 2>&1 || { cat "$cache/import.log" >&2; exit 1; }
  say "base $name: imported $file in $(since "$t0")"
}

[[ -z "$prebuilt" ]] && ensure_base debian:bookworm
ensure_base debian:bookworm-slim

t0="$(now)"
if [[ -n "$prebuilt" ]]; then
  staging="$(mktemp -d "${TMPDIR:-/tmp}/tilecrush-image.XXXXXX")"
  # shellcheck disable=SC2064
  trap "rm -rf '$staging'" EXIT
  DESTDIR="$staging/staging" scripts/install.sh --reuse "$prebuilt" /usr/local
  # The stage named build is replaced by the staged install: only the
  # runtime stage runs.
  "${E[@]}" build "${build_flags[@]}" --build-context "build=$staging" --target runtime \
    -f docker/Dockerfile -t "$tag" . >"$staging/build.log" 2>&1 ||
    { cat "$staging/build.log" >&2; exit 1; }
  say "built $tag from $prebuilt (runtime stage only) in $(since "$t0")"
else
  "${E[@]}" build "${build_flags[@]}" -f docker/Dockerfile -t "$tag" .
  say "built $tag (full build in the container) in $(since "$t0")"
fi

size="$(image_size "$tag")"
base_size="$(image_size debian:bookworm-slim)"
mb() { echo "$((($1 + 500000) / 1000000)) MB"; }
say "$tag is $(mb "$size"), $(mb $((size - base_size))) over its base debian:bookworm-slim ($(mb "$base_size"))"

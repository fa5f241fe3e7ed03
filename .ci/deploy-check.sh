#!/usr/bin/env bash
# Deployment as an operator does it, after a build (issue 28, acceptance 1):
#  1. the packed tarballs installed with `npm install -g` into an empty prefix: the installed
#     `benchwright serve` (the CLI's hand-off to benchwright-server), started from an empty folder
#     with no configuration of its own, answers, serves /ui/ and runs one execution that
#     `benchwright run` asks for on its built-in `local` configuration;
#  2. deploy/Containerfile built with podman from those same tarballs, on base images this script
#     makes itself (no container registry is reachable here: Debian bookworm by mmdebstrap, and
#     the same with the host's Node copied in), and a PostgreSQL image on the Debian one; the
#     image holds no npm and only the lockfile's versions; deploy/compose.yaml's services started
#     (podman-compose), one execution run by a worker through the containerised server, all
#     stopped and removed. BENCHWRIGHT_IMAGE_FROM_SOURCE=1 builds the image as a user does,
#     without the tarballs (its first stage builds and packs them).
# Installs what it needs (podman, mmdebstrap, podman-compose) when missing. Prints its time.
# `.ci/deploy-check.sh install` or `... containers` runs one part alone (containers needs the
# installed CLI too, so it installs it anyway). BENCHWRIGHT_PACKS=<dir> installs the tarballs
# packed there instead of packing them (CI runs this check beside the tests: its waits allow
# for a machine busy with them).
set -euo pipefail
# All in one function, read whole before it runs: editing this file cannot derail a running check.
main() {
PART=${1:-all}
cd "$(dirname "$0")/.."
ROOT=$PWD
started=$SECONDS
export DEBIAN_FRONTEND=noninteractive
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi; }
say() { echo "deploy-check [$((SECONDS - started))s]: $*"; }

WORK=$(mktemp -d /tmp/bw-deploy.XXXXXX)
SERVER_PID=
BUILD_PID=
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
  # The build's podman first (a child of the backgrounded function), then the function itself.
  if [ -n "$BUILD_PID" ]; then pkill -P "$BUILD_PID" 2>/dev/null; kill "$BUILD_PID" 2>/dev/null; wait "$BUILD_PID" 2>/dev/null; fi || true
  if [ -n "${COMPOSE_UP:-}" ]; then
    (cd "$WORK/compose" && compose -p bwci down -v -t 5 >/dev/null 2>&1) || true
    podman network rm bwci_default >/dev/null 2>&1 || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# A free TCP port on loopback (5000 is left to developers' servers).
free_port() { node -e 'const s=require("node:net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
wait_for() { # url, seconds: until it answers 2xx
  node -e 'const [url, s] = process.argv.slice(1); const end = Date.now() + s * 1000;
    (async () => { for (;;) { try { if ((await fetch(url)).ok) return; } catch {} if (Date.now() > end) { console.error(`no answer from ${url} within ${s} s`); process.exit(1); } await new Promise((r) => setTimeout(r, 200)); } })()' "$1" "$2"
}

# ---------------------------------------------------------------------------------------------
# 1. npm pack + npm install -g into an empty prefix
env_clean() { env $(env | grep -o '^npm_[^=]*' | sed 's/^/-u /') "$@"; }
# In image/packs/: the image is built from these same tarballs (--build-context packs=...).
PACKS=$WORK/image/packs
mkdir -p "$PACKS"
if [ -n "${BENCHWRIGHT_PACKS:-}" ]; then
  # Packed before (CI: `node .ci/check-packages.mjs --pack-to`, so that this check can run beside
  # the tests, whose tree the prepacks would change under them).
  say "using the tarballs packed in $BENCHWRIGHT_PACKS"
  cp "$BENCHWRIGHT_PACKS"/*.tgz "$PACKS/"
else
  say "packing the server, its engine, catalogue and contract, and the CLI"
  for ws in packages/contract packages/catalog packages/engine packages/sdk packages/cli apps/server; do
    (cd "$ws" && env_clean npm pack --silent --pack-destination "$PACKS" >/dev/null 2>"$WORK/pack.log") || {
      cat "$WORK/pack.log"
      exit 1
    }
  done
fi
# ---------------------------------------------------------------------------------------------
# 2a. The container image, on a base made here: its tools and bases first (kept between runs),
#     then its build, started in the background: it needs only the tarballs, and runs beside
#     part 1's install and server, whose time is mostly waiting on npm and the server.
start_image_build() {
  missing=()
  command -v podman >/dev/null || missing+=(podman)
  command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
  command -v podman-compose >/dev/null || missing+=(podman-compose)
  [ "$(id -u)" -ne 0 ] || command -v runc >/dev/null || missing+=(runc)
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    as_root apt-get update -qq
    as_root apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  # As root these machines lack CAP_SYS_RESOURCE: crun cannot start a container there, and neither
  # runtime may raise the limits a container inherits. A containers.conf of this run's own says so
  # for every podman call, podman-compose's included (which has no flag for either).
  if [ "$(id -u)" -eq 0 ]; then
    printf '[containers]\ndefault_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]\n[engine]\nruntime = "runc"\n' >"$WORK/containers.conf"
    export CONTAINERS_CONF=$WORK/containers.conf
  fi
  compose() { podman-compose "$@"; }

  # Two bases, made from Debian's mirror alone and kept between runs on one machine:
  # - DEBIAN, bookworm minbase without documentation, like debian:bookworm-slim: the runtime's
  #   base (RUNTIME_BASE) and PostgreSQL's;
  # - NODE, DEBIAN with the host's Node and npm under /usr/local, like node:20-bookworm-slim: the
  #   build stages' base (BASE).
  # The host's extra certificate authorities go in too: where a TLS proxy stands between this
  # machine and the npm registry (as here), the image's npm must trust what the host's trusts.
  RECIPE=3 # one more at each change of what goes into them
  DEBIAN=localhost/benchwright-ci-debian:bookworm-$RECIPE
  NODE=localhost/benchwright-ci-node:bookworm-$RECIPE
  PG_IMAGE=localhost/benchwright-ci-postgres:15-$RECIPE
  if ! podman image exists "$DEBIAN"; then
    say "building the base image $DEBIAN with mmdebstrap"
    mmdebstrap --variant=minbase --include=ca-certificates --components=main --quiet \
      --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
      --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
      --dpkgopt='path-exclude=/usr/share/locale/*' \
      --customize-hook='cp -a /usr/local/share/ca-certificates/. "$1/usr/local/share/ca-certificates/" && chroot "$1" update-ca-certificates >/dev/null' \
      --customize-hook='chroot "$1" apt-get clean && rm -rf "$1"/var/lib/apt/lists/*' \
      bookworm "$WORK/base.tar" >/dev/null
    podman import --quiet --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' --change 'CMD ["bash"]' "$WORK/base.tar" "$DEBIAN" >/dev/null
    rm -f "$WORK/base.tar"
  fi
  if ! podman image exists "$NODE"; then
    say "building the base image $NODE: $DEBIAN with the host's Node $(node --version)"
    NODE_BIN=$(readlink -f "$(command -v node)")
    NPM_DIR=$(dirname "$(dirname "$NODE_BIN")")/lib/node_modules/npm
    mkdir -p "$WORK/node-base"
    cp "$NODE_BIN" "$WORK/node-base/node"
    cp -a "$NPM_DIR" "$WORK/node-base/npm"
    printf '%s\n' "FROM $DEBIAN" 'COPY node /usr/local/bin/node' 'COPY npm /usr/local/lib/node_modules/npm' \
      'RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx' \
      'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' 'CMD ["node"]' >"$WORK/node-base/Containerfile"
    podman build --quiet --format docker -t "$NODE" "$WORK/node-base" >/dev/null
    rm -rf "$WORK/node-base"
  fi
  # CI's tarballs (packed above) stand in for the Containerfile's first stage, which would build
  # them again from the sources: BENCHWRIGHT_IMAGE_FROM_SOURCE=1 checks that path instead.
  from=(--build-context "packs=$WORK/image")
  [ "${BENCHWRIGHT_IMAGE_FROM_SOURCE:-}" = 1 ] && from=()
  say "building deploy/Containerfile on $NODE and $DEBIAN ($([ ${#from[@]} -gt 0 ] && echo "with this run's tarballs" || echo "from the sources")), beside part 1"
  # Its output is shown if it fails (when part 2 waits for it).
  build_images() {
    podman build --quiet --format docker --build-arg BASE="$NODE" --build-arg RUNTIME_BASE="$DEBIAN" "${from[@]}" \
      -f "$ROOT/deploy/Containerfile" -t localhost/benchwright:ci "$ROOT" >/dev/null
    if ! podman image exists "$PG_IMAGE"; then
      echo "building $PG_IMAGE (Debian's postgresql on $DEBIAN)"
      podman build --quiet --format docker --build-arg BASE="$DEBIAN" -f "$ROOT/deploy/postgres.Containerfile" -t "$PG_IMAGE" "$ROOT/deploy" >/dev/null
    fi
  }
  build_images >"$WORK/build.log" 2>&1 &
  BUILD_PID=$!
}
[ "$PART" = install ] || start_image_build

PREFIX=$WORK/prefix
mkdir "$PREFIX"
say "installing $(ls "$PACKS"/*.tgz | wc -l) tarballs into the empty prefix $PREFIX"
# --prefer-offline: the registry metadata cached by earlier installs is used as it is (24 s here
# instead of 39 s); an empty cache still fetches it.
env_clean npm install -g --prefix "$PREFIX" --ignore-scripts --no-audit --no-fund --prefer-offline --loglevel=error "$PACKS"/*.tgz >/dev/null
[ -x "$PREFIX/bin/benchwright-server" ] && [ -x "$PREFIX/bin/benchwright" ]

# From here on, from another folder, with nothing of the repository on PATH or NODE_PATH. The
# installed server is started from an empty folder, with no configuration folder of its own
# (issue 38 point 4): the built-in `local` configuration is what it runs on.
mkdir "$WORK/empty"
cd "$WORK/empty"
as_user() { env -i PATH="$PREFIX/bin:/usr/bin:/bin" HOME="$WORK" "$@"; }
if [ "$PART" != containers ]; then
  PORT=$(free_port)
  URL=http://127.0.0.1:$PORT
  # exec: $! is then the server's own pid (a backgrounded function's would be its subshell's,
  # and killing that left the server running after the check).
  (exec env -i PATH="$PREFIX/bin:/usr/bin:/bin" HOME="$WORK" PORT="$PORT" BENCHWRIGHT_DATA_DIR="$WORK/data" \
    BENCHWRIGHT_LOG_FORMAT=json benchwright serve) >"$WORK/serve.log" 2>&1 &
  SERVER_PID=$!
  wait_for "$URL/readyz" 180 || { cat "$WORK/serve.log"; exit 1; }
  node -e 'fetch(process.argv[1]).then(async (r) => { if (!r.ok || !/<html/i.test(await r.text())) throw new Error(`${r.status}`) }).catch((e) => { console.error("the installed server does not serve /ui/:", e.message); process.exit(1) })' "$URL/ui/"
  grep -q 'provider configurations: local (built in)' "$WORK/serve.log" ||
    { cat "$WORK/serve.log"; echo "the installed server did not say it loaded the built-in local configuration" >&2; exit 1; }
  [ -z "$(ls -A "$WORK/empty")" ] || { echo "the server wrote into the folder it was started from: $(ls -A "$WORK/empty")" >&2; exit 1; }
  say "the installed server answers on $URL (/healthz, /readyz, /ui/) with the built-in local; running idle/idle5 on it"
  as_user benchwright --url "$URL" run idle/idle5 --provider local --param seconds=1
  kill "$SERVER_PID"
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=
  # The CLI's hand-off of `tokens`, on the data dir the stopped server left (the token is not printed).
  on_data() { as_user env BENCHWRIGHT_DATA_DIR="$WORK/data" "$@"; }
  on_data benchwright tokens create --principal ci-check --role viewer >/dev/null
  on_data benchwright tokens list | grep -q '"principal": "ci-check"'
  say "installed server: done"
fi
[ "$PART" = install ] && return 0

# ---------------------------------------------------------------------------------------------
# 2b. The image (once its build ends) and the compose file's services
say "waiting for the image build"
wait "$BUILD_PID" || { cat "$WORK/build.log"; echo "the image build failed" >&2; exit 1; }
BUILD_PID=

say "the image: $(podman image inspect --format '{{.Size}}' localhost/benchwright:ci | awk '{printf "%d MB", $1 / 1e6}')"
# What it runs: no npm; every dependency at a version the lockfile names (none resolved anew).
# (Without systemd, podman run complains that it cannot time the image's health check.)
in_image() { podman run --rm --health-cmd=none --entrypoint "$@" 2> >(grep -v 'unable to get systemd connection' >&2); }
in_image sh localhost/benchwright:ci -c '! command -v npm >/dev/null' ||
  { echo "npm is in the runtime image" >&2; exit 1; }
in_image node localhost/benchwright:ci -e '
  const fs = require("node:fs"), path = require("node:path"), out = [];
  (function walk(dir) {
    for (const e of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      const pkgs = e.startsWith("@") ? fs.readdirSync(path.join(dir, e)).map((n) => path.join(e, n)) : e.startsWith(".") ? [] : [e];
      for (const p of pkgs) {
        const { name, version } = JSON.parse(fs.readFileSync(path.join(dir, p, "package.json"), "utf8"));
        out.push(`${name}@${version}`);
        walk(path.join(dir, p, "node_modules"));
      }
    }
  })("/opt/benchwright/node_modules");
  console.log(out.join("\n"));' >"$WORK/image-packages.txt"
node -e '
  const fs = require("node:fs");
  const [lockFile, listFile] = process.argv.slice(1);
  const lock = JSON.parse(fs.readFileSync(lockFile, "utf8")).packages;
  const locked = new Set(Object.entries(lock).filter(([k, v]) => k.includes("node_modules/") && !v.link)
    .map(([k, v]) => `${v.name ?? k.slice(k.lastIndexOf("node_modules/") + 13)}@${v.version}`));
  const ours = new Set(Object.entries(lock).filter(([k, v]) => !k.includes("node_modules/") && v.name).map(([, v]) => `${v.name}@${v.version}`));
  const listed = fs.readFileSync(listFile, "utf8").split("\n").filter(Boolean);
  const strays = [...new Set(listed.filter((p) => !locked.has(p) && !ours.has(p)))];
  if (listed.length < 100 || strays.length) { console.error(`${listed.length} packages in the image; not in package-lock.json: ${strays.join(", ") || "-"}`); process.exit(1); }
  console.log(`deploy-check: the image has ${listed.length} packages, each at the version package-lock.json names`);' \
  "$ROOT/package-lock.json" "$WORK/image-packages.txt"

# The compose file as a user runs it, with this run's images, port and secrets.
mkdir -p "$WORK/compose/secrets"
cp "$ROOT/deploy/compose.yaml" "$WORK/compose/"
# Readable by the containers' own users (the directory stays private to this run).
umask 022
head -c 32 /dev/urandom | base64 >"$WORK/compose/secrets/secret_key"
TOKEN=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
printf '%s' "$TOKEN" >"$WORK/compose/secrets/api_token"
head -c 18 /dev/urandom | base64 | tr -d '/+=' >"$WORK/compose/secrets/postgres_password"
CPORT=$(free_port)
cat >"$WORK/compose/.env" <<EOF
BENCHWRIGHT_IMAGE=localhost/benchwright:ci
POSTGRES_IMAGE=$PG_IMAGE
BENCHWRIGHT_PORT=$CPORT
EOF
say "starting the compose file's services (PostgreSQL, a server, two workers)"
COMPOSE_UP=1
(cd "$WORK/compose" && compose -p bwci up -d >"$WORK/compose.log" 2>&1) || { cat "$WORK/compose.log"; exit 1; }
# podman-compose's own exit code stays 0 when a container fails to start: each must be running.
for service in postgres server worker1 worker2; do
  [ "$(podman inspect --format '{{.State.Status}}' "bwci_${service}_1" 2>/dev/null)" = running ] ||
    { grep -i error "$WORK/compose.log" >&2; echo "bwci_${service}_1 is not running" >&2; exit 1; }
done
wait_for "http://127.0.0.1:$CPORT/healthz" 240 || { (cd "$WORK/compose" && compose -p bwci logs) ; exit 1; }
say "running idle/idle5 through the containerised server"
(as_user BENCHWRIGHT_API_TOKEN="$TOKEN" benchwright --url "http://127.0.0.1:$CPORT" run idle/idle5 --provider local --param seconds=1 --keep --json >"$WORK/run.json") ||
  { (cd "$WORK/compose" && compose -p bwci logs); exit 1; }
node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); if (r.execution?.state !== "completed") { console.error(JSON.stringify(r)); process.exit(1) }' "$WORK/run.json"
# The steps must have been a worker's: the server runs none (BENCHWRIGHT_WORKER=false), and the
# `local` provider's work folder for the session is in the container that ran them.
SESSION_ID=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).session.id' "$WORK/run.json")
ran_in=()
for service in server worker1 worker2; do
  if podman exec "bwci_${service}_1" test -d "/var/lib/benchwright/work/$SESSION_ID"; then ran_in+=("$service"); fi
done
# (Its prepare and run may be two workers' steps: each leaves the folder where it ran.)
case " ${ran_in[*]} " in
  *" server "* | "  ") echo "session $SESSION_ID's steps ran in: ${ran_in[*]:-none}, not only in workers" >&2; exit 1 ;;
esac
say "execution $(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).execution.id' "$WORK/run.json") completed, its steps run by ${ran_in[*]}"
# The image's HEALTHCHECK (/healthz and /readyz), as the engine would run it.
podman healthcheck run bwci_server_1 || { echo "the server container's health check failed" >&2; exit 1; }
say "stopping the services"
(cd "$WORK/compose" && compose -p bwci down -v -t 10 >/dev/null 2>&1)
# podman-compose 1.0 leaves its network behind.
podman network rm bwci_default >/dev/null
COMPOSE_UP=
say "done in $((SECONDS - started)) s"
}
main "$@"

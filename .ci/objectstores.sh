#!/usr/bin/env bash
# Start real object-store servers on loopback for the lanceio conformance
# suite (no Docker), or stop them.
#
#   .ci/objectstores.sh start   # install (cached) + start + print exports
#   eval "$(.ci/objectstores.sh env)"
#   go test ./io/...
#   .ci/objectstores.sh stop
#
# Installs pinned binaries into $REPO/.ci/bin (GOBIN) and skips the install
# when the binary exists and reports/records the pinned version. State (PIDs,
# data dirs, logs, env file) lives in $LANCE_CI_STATE (default
# ${TMPDIR:-/tmp}/lancego-objectstores, outside the repo). Azurite (Azure) is started only with LANCE_CI_AZURITE=1
# because its npm install takes minutes (see notes/object-store-servers.md).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="$REPO/.ci/bin"
STATE="${LANCE_CI_STATE:-${TMPDIR:-/tmp}/lancego-objectstores}"
ENVFILE="$STATE/env"

VERSITYGW_VERSION=v1.8.0
FAKEGCS_VERSION=v1.56.1
AZURITE_VERSION=3.37.0
S3_PORT=7070
GCS_PORT=4443
AZ_PORT=10000
BUCKET=lance-test
S3_KEY=testkey
S3_SECRET=testsecret123

log() { echo "objectstores: $*" >&2; }

# install NAME MODULE@VERSION: go install into $BIN unless the recorded
# version matches.
install_tool() {
  local name=$1 pkg=$2 version=$3
  local stamp="$BIN/.$name.version"
  if [[ -x "$BIN/$name" && -f "$stamp" && "$(cat "$stamp")" == "$version" ]]; then
    log "$name $version already installed"
    return
  fi
  log "installing $name $version ..."
  local t0=$SECONDS
  mkdir -p "$BIN"
  GOBIN="$BIN" go install "$pkg@$version"
  echo "$version" > "$stamp"
  log "installed $name in $((SECONDS - t0)) s"
}

# wait_for URL TRIES: poll until curl succeeds.
wait_for() {
  local url=$1 tries=${2:-200} i
  for ((i = 0; i < tries; i++)); do
    if curl -s -o /dev/null "$url"; then return 0; fi
    sleep 0.05
  done
  log "timed out waiting for $url"
  return 1
}

start_versitygw() {
  local root="$STATE/s3"
  mkdir -p "$root/$BUCKET"
  ROOT_ACCESS_KEY=$S3_KEY ROOT_SECRET_KEY=$S3_SECRET \
    nohup "$BIN/versitygw" --port "127.0.0.1:$S3_PORT" --health /health --keep-alive --quiet \
    posix "$root" > "$STATE/versitygw.log" 2>&1 &
  echo $! > "$STATE/versitygw.pid"
  wait_for "http://127.0.0.1:$S3_PORT/health"
  cat >> "$ENVFILE" <<ENV
export LANCE_TEST_S3_ENDPOINT=http://127.0.0.1:$S3_PORT
export LANCE_TEST_S3_BUCKET=$BUCKET
export LANCE_TEST_S3_SERVER_PID=$(cat "$STATE/versitygw.pid")
export AWS_ACCESS_KEY_ID=$S3_KEY
export AWS_SECRET_ACCESS_KEY=$S3_SECRET
export AWS_REGION=us-east-1
export AWS_EC2_METADATA_DISABLED=true
ENV
}

start_fakegcs() {
  mkdir -p "$STATE/gcs"
  nohup "$BIN/fake-gcs-server" -scheme http -host 127.0.0.1 -port "$GCS_PORT" -backend memory \
    -data "$STATE/gcs" -public-host "127.0.0.1:$GCS_PORT" -external-url "http://127.0.0.1:$GCS_PORT" \
    -log-level warn > "$STATE/fake-gcs-server.log" 2>&1 &
  echo $! > "$STATE/fake-gcs-server.pid"
  wait_for "http://127.0.0.1:$GCS_PORT/storage/v1/b"
  curl -sf -o /dev/null -X POST -H 'Content-Type: application/json' -d "{\"name\":\"$BUCKET\"}" \
    "http://127.0.0.1:$GCS_PORT/storage/v1/b?project=test"
  cat >> "$ENVFILE" <<ENV
export STORAGE_EMULATOR_HOST=127.0.0.1:$GCS_PORT
export LANCE_TEST_GCS_BUCKET=$BUCKET
ENV
}

start_azurite() {
  local dir="$BIN/azurite"   # under the gitignored .ci/bin
  if [[ ! -x "$dir/node_modules/.bin/azurite-blob" ]]; then
    log "installing azurite $AZURITE_VERSION (npm, minutes) ..."
    mkdir -p "$dir" && (cd "$dir" && npm i --no-fund --no-audit "azurite@$AZURITE_VERSION" >&2) || return 1
  fi
  nohup "$dir/node_modules/.bin/azurite-blob" --blobHost 127.0.0.1 --blobPort "$AZ_PORT" \
    --location "$STATE/azurite" --silent --skipApiVersionCheck --disableTelemetry --loose \
    > "$STATE/azurite.log" 2>&1 &
  echo $! > "$STATE/azurite.pid"
  wait_for "http://127.0.0.1:$AZ_PORT/" 400
  cat >> "$ENVFILE" <<ENV
export LANCE_TEST_AZURE_ENDPOINT=127.0.0.1:$AZ_PORT
export AZURE_STORAGE_ACCOUNT=devstoreaccount1
export AZURE_STORAGE_KEY=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==
ENV
}

stop() {
  local name pid
  for name in versitygw fake-gcs-server azurite; do
    [[ -f "$STATE/$name.pid" ]] || continue
    pid=$(cat "$STATE/$name.pid")
    if kill "$pid" 2>/dev/null; then log "stopped $name ($pid)"; fi
    rm -f "$STATE/$name.pid"
  done
  rm -rf "$STATE/s3" "$STATE/gcs" "$STATE/azurite" "$ENVFILE"
}

start() {
  local t0=$SECONDS
  install_tool versitygw github.com/versity/versitygw/cmd/versitygw "$VERSITYGW_VERSION"
  install_tool fake-gcs-server github.com/fsouza/fake-gcs-server "$FAKEGCS_VERSION"
  log "install phase: $((SECONDS - t0)) s"
  stop
  mkdir -p "$STATE"
  : > "$ENVFILE"
  local t1=$SECONDS
  start_versitygw
  start_fakegcs
  if [[ "${LANCE_CI_AZURITE:-0}" == 1 ]]; then
    start_azurite || log "azurite did not start: the Azure tests will skip"
  fi
  log "servers ready in $((SECONDS - t1)) s; env in $ENVFILE"
  cat "$ENVFILE"
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  env) cat "$ENVFILE" ;;
  *) echo "usage: $0 start|stop|env" >&2; exit 2 ;;
esac

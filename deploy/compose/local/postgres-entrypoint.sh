#!/bin/sh
# The part of the official postgres image's entrypoint the compose file uses: on the first start, a cluster in
# $PGDATA whose superuser is POSTGRES_USER with POSTGRES_PASSWORD (scram over TCP) and a database POSTGRES_DB.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pw=$(mktemp)
  printf '%s' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}" >"$pw"
  initdb -D "$PGDATA" -U "${POSTGRES_USER:-postgres}" --pwfile="$pw" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pw"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  if [ -n "${POSTGRES_DB:-}" ] && [ "$POSTGRES_DB" != postgres ]; then
    echo "CREATE DATABASE \"$POSTGRES_DB\" OWNER \"${POSTGRES_USER:-postgres}\";" | postgres --single -D "$PGDATA" postgres >/dev/null
  fi
fi
exec "$@"

#!/bin/sh
# First start: a cluster whose one user (POSTGRES_USER) has the password read from
# POSTGRES_PASSWORD_FILE and owns POSTGRES_DB; connections from the network need that password.
set -eu
: "${POSTGRES_USER:=postgres}" "${POSTGRES_DB:=$POSTGRES_USER}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  [ -r "${POSTGRES_PASSWORD_FILE:-}" ] || { echo "postgres: POSTGRES_PASSWORD_FILE must name a readable file" >&2; exit 1; }
  pwfile=$(mktemp)
  cat "$POSTGRES_PASSWORD_FILE" >"$pwfile"
  initdb --username="$POSTGRES_USER" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  if [ "$POSTGRES_DB" != "postgres" ]; then
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    createdb --username="$POSTGRES_USER" --owner="$POSTGRES_USER" "$POSTGRES_DB"
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
fi
exec postgres -D "$PGDATA" -c listen_addresses='*'

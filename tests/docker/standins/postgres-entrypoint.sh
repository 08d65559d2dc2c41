#!/usr/bin/env bash
# The stand-in postgres image's entrypoint (postgres.Dockerfile): on an empty
# data folder, a cluster whose superuser is POSTGRES_USER with
# POSTGRES_PASSWORD, the database POSTGRES_DB, and password logins from the
# network; then PostgreSQL as the postgres user.
set -euo pipefail
# setpriv execs (runuser would stay as PID 1 and turn SIGINT into SIGTERM).
as_postgres=(setpriv --reuid=postgres --regid=postgres --init-groups --)
if [[ "${1:-}" != postgres ]]; then exec "$@"; fi

: "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"
mkdir -p "$PGDATA" /var/run/postgresql
chown postgres:postgres "$PGDATA" /var/run/postgresql
chmod 700 "$PGDATA"
if [[ ! -s "$PGDATA/PG_VERSION" ]]; then
  pwfile="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  chown postgres "$pwfile"
  "${as_postgres[@]}" initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  if [[ "$db" != postgres ]]; then
    echo "CREATE DATABASE \"$db\" OWNER \"$user\"" |
      "${as_postgres[@]}" postgres --single -D "$PGDATA" postgres >/dev/null
  fi
  echo "postgres stand-in: made the cluster in $PGDATA (user $user, database $db)"
fi
exec "${as_postgres[@]}" "$@"

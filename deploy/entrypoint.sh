#!/bin/sh
# Secrets as files (compose and Kubernetes secrets, systemd credentials): each VAR_FILE names a
# file whose content becomes VAR (BENCHWRIGHT_API_TOKEN_FILE, BENCHWRIGHT_SECRET_KEY_FILE,
# PGPASSWORD_FILE...), so that no secret sits in the image or in the container's declared
# environment. Then benchwright-server with the command's arguments (serve, worker, sweep).
set -eu
for var in $(env | sed -n 's/^\([A-Z_][A-Z0-9_]*\)_FILE=.*/\1/p'); do
  file=$(printenv "${var}_FILE")
  [ -r "$file" ] || { echo "benchwright: ${var}_FILE names $file, which cannot be read" >&2; exit 1; }
  value=$(cat "$file")
  export "$var=$value"
  unset "${var}_FILE"
done
exec benchwright-server "$@"

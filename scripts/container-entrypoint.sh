#!/bin/sh
# The container image's entrypoint (under tini; Dockerfile): puts the heap limits for the database the server
# runs on in NODE_OPTIONS, then runs the command (the server, or `node dist/cli.js …`). V8 fixes its heap
# limits when a process starts, so they are chosen here, from DATABASE_URL, by the server's own rule
# (src/bootstrap/heap-flags.ts: a 4 MB young generation on the embedded database, for its memory budget;
# 16 MB on PostgreSQL, where it costs a detail read about a fifth less CPU). An operator's own NODE_OPTIONS
# (`docker run -e NODE_OPTIONS=…`, even an empty one) is kept as it is.
set -eu
if [ -z "${NODE_OPTIONS+set}" ]; then
  NODE_OPTIONS=$(node "$(dirname "$0")/../dist/bootstrap/print-heap-flags.js")
  export NODE_OPTIONS
fi
exec "$@"

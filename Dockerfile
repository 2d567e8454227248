# syntax=docker/dockerfile:1
# Glossa server image.
#   docker build -t glossa .
#   docker run -p 8000:8000 -v glossa-data:/data -e SITE_URL=http://localhost:8000 glossa   # embedded database in /data
#   docker run -p 8000:8000 -e SITE_URL=https://glossa.example.org -e DATABASE_URL=postgres://user:pass@db:5432/glossa glossa
#   docker compose up                                     # PostgreSQL + two replicas (docker-compose.yml)
# The image runs with NODE_ENV=production: SITE_URL is required and insecure settings are refused (README
# "Configuration"). Migrations run when the server starts; to run them as a one-shot step instead:
#   docker run --rm -e DATABASE_URL=... -e SITE_URL=... glossa node dist/cli.js migrate
# The admin CLI is `node dist/cli.js <command>` (README "Admin CLI"). .ci/runtime-stage-check.mjs rebuilds
# the runtime stage's layout without Docker and checks that it starts and passes the HEALTHCHECK.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: full install (TypeScript and the rest of the dev tools), compile src/ to dist/ ----------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: compiling needs no install scripts, and it skips swagger-ui's analytics postinstall.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build-if-changed.mjs ./scripts/
COPY src ./src
RUN npm run build

# ---- prod-deps: runtime dependencies only -----------------------------------------------------------
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts \
 && npm cache clean --force

# ---- runtime ------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# git: components are real git repositories (clone, commit, push through the git binary).
# ca-certificates and openssh-client: https:// and ssh:// repository URLs. tini: PID 1 that forwards
# signals to node and reaps the git processes it spawns. gettext: msgmerge, which a `source` upload runs over
# every PO file of the component, as Weblate does (src/sync/po-msgmerge.ts).
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends git ca-certificates openssh-client tini gettext \
 && rm -rf /var/lib/apt/lists/*

# Memory (README "Memory", docs/performance.md "Memory of the embedded default"): glibc's allocator told to give
# freed memory back: without it the WebAssembly compiler's scratch memory (PGlite's PostgreSQL is optimised in
# background threads) stays resident, 30-60 MB on the embedded database. The heap limits depend on the database
# (DATABASE_URL), so the entrypoint puts them in NODE_OPTIONS (scripts/container-entrypoint.sh); `-e NODE_OPTIONS=...`
# replaces them.
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=8000 \
    MALLOC_ARENA_MAX=2 \
    MALLOC_TRIM_THRESHOLD_=131072 \
    MALLOC_MMAP_THRESHOLD_=131072

WORKDIR /app
# Application files stay owned by root (read-only for the server); only /data is writable.
COPY package.json ./
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Read at runtime relative to the package root (the directory holding package.json named "glossa"):
# the language table and the demo repository's files.
COPY src/modules/languages/data ./src/modules/languages/data
COPY demo ./demo
COPY scripts/container-entrypoint.sh ./scripts/container-entrypoint.sh

RUN mkdir -p /data && chown node:node /data
VOLUME /data

USER node
EXPOSE 8000

# Liveness (/healthz: the process answers HTTP). Readiness for load balancers is /readyz (database and job queue).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8000) + '/healthz').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]

# tini runs the entrypoint script, which sets the heap limits and execs the command (CMD, or the one given to
# `docker run`), so node ends up as tini's child and gets the signals tini forwards.
ENTRYPOINT ["/usr/bin/tini", "--", "/app/scripts/container-entrypoint.sh"]
# --no-concurrent-recompilation: V8 then optimizes on each isolate's own thread. Node 20 aborts the whole
# process (NodePlatform::ForIsolate) when a background compile job outlives a parse-worker isolate that was
# just disposed, e.g. a worker ended by its memory limit while reading a hostile upload (README "Limits").
CMD ["node", "--no-concurrent-recompilation", "dist/main.js"]

# syntax=docker/dockerfile:1
# leadstream as one image for every role: `docker run IMAGE start|api|worker|projector|migrate`.
# The build stage installs from the lock file and runs `npm run build` (tools/build.mjs: dist/ with
# the CLI, the worker-thread entries and the console); the runtime stage has dist/ and the
# production node_modules only, and runs as the unprivileged user `node` (uid 1000).
#   docker build -t leadstream .
#   docker compose up -d            # Kafka, MongoDB, ClickHouse and every role (docker-compose.yml)

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
# better-sqlite3 compiles its addon when no prebuilt binary can be downloaded. Debian's current
# toolchain of the pinned base image, not pinned again here (a point release would break the pin).
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
# `prepare` builds the console during npm ci; `npm run build` bundles the service into dist/.
RUN npm ci --no-audit --no-fund \
 && npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/@leadstream

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown 1000:1000 /data
# The image's `node` user.
USER 1000:1000
VOLUME ["/data"]
# 3000: the API and the console (api, start); 9090: /healthz, /readyz and /metrics of worker and
# projector processes when OPS_PORT=9090 (docker-compose.yml sets it).
EXPOSE 3000 9090
# The health of whatever serves here: OPS_PORT when set (worker, projector), else PORT.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "const port = Number(process.env.OPS_PORT) || Number(process.env.PORT) || 3000; fetch('http://127.0.0.1:' + port + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "dist/leadstream.js"]
CMD ["start"]

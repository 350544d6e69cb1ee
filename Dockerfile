# syntax=docker/dockerfile:1
# The image runs what `npm start` runs: plain node on the esbuild build (dist/), no TypeScript loader,
# as the unprivileged user `node`, with a HEALTHCHECK on /health/ready. See docs/operations.md.
#
# The command-line tools are in the image too, compiled (run them with `docker run --rm IMAGE ...`
# or `docker compose exec evsim ...`; each prints its options with --help):
#   node dist/cli/token.js --org ID [--sub SUBJECT] [--expires 30d]      a bearer token (npm run token)
#   node dist/tools/scenario/main.js scenarios/ocpp16/boot.yaml [--ws-url URL] [--junit FILE]
#                                                                         a scenario (npm run scenario)
#   node --expose-gc dist/tools/loadtest/main.js --chargers 1000 --duration 60 [--csms URL]
#                                                                         a load test (npm run loadtest)
# The ready scenarios (scenarios/) are beside dist/: the console's list of ready scenarios and the
# scenario CLI read them there.

# Stage 1: build. The product code (engine, api, actors, protocols, cli, tools) is type-checked, so
# the image builds only when that passes, then transpiled by esbuild, with the catalog JSON and the
# SQL migrations copied next to the modules.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY protocols ./protocols
COPY actors ./actors
COPY engine ./engine
COPY api ./api
COPY cli ./cli
COPY tools ./tools
RUN npx tsc -p tsconfig.build.json --noEmit
RUN node --import tsx scripts/build.ts --force

# Stage 2: production dependencies only (no tsx, no typescript).
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# Stage 3: the runtime image.
FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY scenarios ./scenarios
COPY package.json ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
# Ready = database and MQTT broker reachable. The first start on the embedded database creates it
# (~15 s), hence the start period.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "dist/cli/start.js"]

# syntax=docker/dockerfile:1
# Stage 1: production dependencies only.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# Stage 2: the type check must pass for the image to build.
FROM node:20-bookworm-slim AS check
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run typecheck && touch /checked

# Stage 3: the runtime image. TypeScript runs through tsx (a production dependency).
FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
COPY --from=check /checked /tmp/checked
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY protocols ./protocols
COPY actors ./actors
COPY engine ./engine
COPY api ./api
COPY cli ./cli
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
STOPSIGNAL SIGTERM
CMD ["node", "--import", "tsx", "cli/start.ts"]

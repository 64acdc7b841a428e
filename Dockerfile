# syntax=docker/dockerfile:1
# Profile Service: the production build on Node.js 24, run as a non-root user, its data in
# the /data volume. Build:  docker build -t profile-service .
# Run:    docker run -p 8000:8000 -v profile-data:/data -e PUBLIC_URL=https://profiles.example.com profile-service
# Every setting is an environment variable (docs/configuration.md); docs/production.md has the rest.

# An exact release, the one package.json's "node" devDependency pins: a rebuild gets the same
# Node.js and Debian, not whatever the moving "24" tag names that day. Raise both together.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# 1. Production dependencies only: what the bundle leaves in node_modules (native addons,
#    packages with files of their own). better-sqlite3 and @node-rs/argon2 ship prebuilt binaries.
FROM ${NODE_IMAGE} AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
COPY web/package.json web/
# npm links the web client's workspace into node_modules (profile-service-web -> ../web); the
# image has no web/ (the client is built into dist/), so the link would dangle: removed.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force && rm -f node_modules/profile-service-web

# 2. The build: every dependency (esbuild, Vite, TypeScript), then the bundle and the web client.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY web/package.json web/
RUN npm ci --no-audit --no-fund
COPY . .
# dist is a symbolic link to the build (scripts/build.ts); -L copies what it points to.
RUN npm run build && cp -rL dist /app/release

# 3. What runs: Node.js, the production dependencies, the build. Nothing else.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    LOG_FORMAT=json \
    DATABASE_URL=sqlite:/data/profile-service.db \
    MEDIA_STORAGE=fs:/data/media \
    MAIL_DIR=/data/mail
WORKDIR /app
COPY --chown=root:root package.json package-lock.json ./
COPY --chown=root:root --from=dependencies /app/node_modules ./node_modules
COPY --chown=root:root --from=build /app/release ./dist
# The image's own files stay root's and read-only to the service; only /data is its to write.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) ends requests under way and closes the database cleanly (src/serve.ts).
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=8", "dist/main.js"]

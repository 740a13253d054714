# One image for every service; SERVICES chooses what a container runs.
#
# One Node in the image, the one package.json pins: the `node` package installs that
# version into node_modules (node_modules/.bin/node), and every install, test and
# start of the project runs on it. So the final stage is Debian without Node and runs
# that binary. A node:24 base there would ship a second Node beside it, of whatever
# 24.x the tag points at; pruning the package instead would run production on that
# unpinned one.
FROM node:24-bookworm-slim AS build
# --strict-allow-scripts needs npm 11.16 or later, newer than some node:24 tags ship.
ARG NPM_VERSION=11.19.1
RUN npm install --global --no-audit --no-fund npm@${NPM_VERSION}
WORKDIR /app
# npm ci runs the project's prepare script, which compiles the platform, so the sources
# come first; the cache mount keeps a rebuild from downloading the packages again.
COPY . .
# Only the install scripts package.json's allowScripts approves run (the `node` package's,
# which fetches the pinned Node); an install script nobody reviewed fails the build.
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund --strict-allow-scripts \
	&& npm prune --omit=dev

FROM debian:bookworm-slim
ENV NODE_ENV=production PATH=/app/node_modules/.bin:$PATH
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Fails the build unless the one Node in the image is the pinned one. The data volume
# mounts at /data; it must belong to the user the platform runs as.
RUN test "$(find / -xdev -type f -name node -perm -u+x)" = /app/node_modules/node/bin/node \
	&& test "$(node --version)" = "v$(node -p 'require("./package.json").dependencies.node')" \
	&& useradd --system --user-group --uid 1000 --no-create-home node \
	&& mkdir -p /data && chown node:node /data
# As harness/processes.ts PLATFORM_NODE_ARGS and PLATFORM_PROCESS_ENV (docs/benchmarks.md, memory).
ENV NODE_OPTIONS="--max-semi-space-size=8" MALLOC_MMAP_THRESHOLD_=1048576 MALLOC_ARENA_MAX=2
USER node
EXPOSE 8500
# The gateway's /health/ready, or a node's metrics without the gateway (lib/healthcheck.ts).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 CMD ["node", "/app/dist/lib/healthcheck.js"]
CMD ["node", "dist/index.js"]

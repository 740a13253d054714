# One image for every service; SERVICES chooses what a container runs.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# The data volume mounts here; it must belong to the user the platform runs as.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8500
CMD ["node", "dist/index.js"]

# syntax=docker/dockerfile:1
# Build stage: install everything, compile the gateway, drop dev dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 (the collector's spool) compiles its addon where its
# prebuilt one cannot be fetched (a build without access to GitHub).
RUN command -v g++ >/dev/null || (apt-get update \
    && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*)
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json .swcrc ./
COPY tools/build ./tools/build
COPY apps/gateway ./apps/gateway
COPY libs ./libs
ARG GIT_COMMIT=unknown
RUN GIT_COMMIT=$GIT_COMMIT node tools/build/build-gateway.js && npm prune --omit=dev --no-audit --no-fund

# Runtime stage: compiled JavaScript and production dependencies, non-root.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "dist/apps/gateway/src/main.js"]

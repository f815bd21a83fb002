# The platform service's image (docs/deploy.md). Build: docker build -t game-platform .
# BASE_IMAGE is any Debian-based image with Node.js 24 and npm on the PATH: the official node:24-bookworm-slim by
# default; the deploy test builds on one it makes itself (deploy/test/run.sh), as no registry is reachable there.
# No "# syntax" line on purpose: the Dockerfile frontend built into dockerd 20.10 is used, nothing is pulled.
ARG BASE_IMAGE=node:24-bookworm-slim

# ---- deps: every dependency (dev ones too) from the lockfile; rebuilt only when a package file changes ----
FROM ${BASE_IMAGE} AS deps
WORKDIR /src
COPY package.json package-lock.json ./
COPY packages/sdk/package.json packages/sdk/
COPY packages/sdk/cjs/package.json packages/sdk/cjs/
COPY packages/server/package.json packages/server/
COPY examples/game-server/package.json examples/game-server/
# A registry reached through a TLS-inspecting proxy: hand its CA bundle as a build secret
# (docker build --secret id=npm_ca,src=/etc/ssl/certs/ca-certificates.crt); it is used here and never stored.
# The npm cache survives between builds (BuildKit cache mount), so a rebuild downloads nothing it has.
RUN --mount=type=secret,id=npm_ca --mount=type=cache,target=/root/.npm,sharing=locked \
    if [ -s /run/secrets/npm_ca ]; then export NPM_CONFIG_CAFILE=/run/secrets/npm_ca; fi; \
    npm ci --no-audit --no-fund --ignore-scripts

# ---- prod-deps: the same without the dev dependencies (offline: npm prune removes, fetches nothing) ----
FROM deps AS prod-deps
RUN npm prune --omit=dev --no-audit --no-fund --ignore-scripts \
 && rm -f node_modules/@game-platform/example-game-server

# ---- build: compile the SDK and the service (tests are not in the build context, so none is compiled) ----
FROM deps AS build
COPY tsconfig.base.json ./
COPY packages/sdk packages/sdk
COPY packages/server packages/server
# tsc's incremental state and outputs are kept in a cache mount between builds, so a change recompiles what it
# touches, not everything (which files changed, tsc tells by their content's hash: every source is touched, so no
# timestamp can make it skip one); an output whose source is gone is removed.
RUN --mount=type=cache,target=/tsc-cache,sharing=locked \
    if [ -f /tsc-cache/out.tar ]; then tar -xf /tsc-cache/out.tar; fi \
 && find packages/sdk/src packages/server/src -type f -exec touch {} + \
 && npx tsc -b packages/sdk packages/server \
 && tar -cf /tsc-cache/out.tar packages/sdk/dist packages/sdk/cjs packages/server/dist packages/*/*.tsbuildinfo \
 && find packages/sdk/dist packages/sdk/cjs packages/server/dist -name '*.js' | while read -r f; do \
      src=$(echo "$f" | sed -E 's#/(dist|cjs)/#/src/#; s#[.]js$#.ts#'); \
      [ -f "$src" ] || rm -f "$f" "$f.map" "${f%.js}.d.ts" "${f%.js}.d.ts.map"; \
    done

# ---- runtime: the compiled service and its production dependencies, on the base's own Node.js ----
FROM ${BASE_IMAGE}
# A user of its own, no login, no home; /data (the embedded default's DATA_DIR) is the one writable place.
RUN groupadd --system --gid 10001 gp \
 && useradd --system --uid 10001 --gid gp --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin gp \
 && mkdir -p /data && chown gp:gp /data && chmod 0700 /data
WORKDIR /app
COPY --from=build /src/package.json ./
COPY --from=prod-deps /src/node_modules node_modules
COPY --from=build /src/packages/sdk/package.json packages/sdk/
COPY --from=build /src/packages/sdk/dist packages/sdk/dist
COPY --from=build /src/packages/sdk/cjs packages/sdk/cjs
COPY --from=build /src/packages/server/package.json packages/server/
COPY --from=build /src/packages/server/dist packages/server/dist
COPY --from=build /src/packages/server/console packages/server/console
COPY --from=build /src/packages/server/portal packages/server/portal
COPY --from=build /src/packages/server/web-pay packages/server/web-pay
COPY --from=build /src/packages/server/certs packages/server/certs
# Configuration is the environment only (docs/operations.md). NODE_OPTIONS are `npm start`'s flags
# (package.json config.serviceNodeFlags; the deploy test keeps them in step): override them with the environment.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    NODE_OPTIONS="--max-old-space-size=192 --max-semi-space-size=8 --enable-source-maps"
VOLUME ["/data"]
EXPOSE 8080
USER 10001:10001
# Node is PID 1 and gets SIGTERM itself: the service stops accepting, lets in-flight requests and sends finish and
# closes the database, in 10 s at most (boot.ts), as under `npm start`. Give it more than that before a SIGKILL.
STOPSIGNAL SIGTERM
# No curl in the image: Node asks /healthz (process up) itself.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "packages/server/dist/cli.js"]
CMD ["serve"]
# Last, so a new revision or date rebuilds no layer.
ARG VERSION=0.1.0
ARG REVISION=unknown
ARG CREATED=unknown
LABEL org.opencontainers.image.title="game-platform" \
      org.opencontainers.image.description="Game-platform backend: reporting, accounts, orders and signed game callbacks" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.documentation="docs/deploy.md" \
      org.opencontainers.image.licenses="UNLICENSED"

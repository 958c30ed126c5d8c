# The runtime-sdk image used by deploy/: `runtime-sdk controller` and `runtime-sdk serve`.
FROM node:20.20.2-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY hooks hooks
COPY openapi openapi
COPY src src
COPY tools/postbuild.mjs tools/
RUN npm run build && npm prune --omit=dev --ignore-scripts

FROM node:20.20.2-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# A young generation of 2 MB per semi-space instead of Node 20's 16 MB: a burst of large bodies no longer leaves ~30 MB
# behind, and 5-64 KB hook calls are as fast; 1 MB bodies are slower (README, Benchmarks). V8 sizes it at start only,
# so it is set here rather than by the CLI. The controller's Deployment sets 1 MB.
ENV NODE_OPTIONS=--max-semi-space-size=2
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules node_modules
COPY --from=build /src/dist dist
USER 65532:65532
ENTRYPOINT ["node", "/app/dist/src/cli/main.js"]

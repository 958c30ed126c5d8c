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
# Read when Node starts, so set here rather than by the CLI (README, Benchmarks):
# - A young generation of 2 MB per semi-space instead of Node 20's 16 MB: a burst of large bodies no longer leaves
#   ~30 MB behind, and 5-64 KB hook calls are as fast; 1 MB bodies are slower. The controller's Deployment sets 1 MB.
# - One V8 worker thread instead of four: JavaScript runs on one core; each thread that compiles or collects keeps
#   its own malloc arena. ~2 MB less at rest, the same speed.
ENV NODE_OPTIONS="--max-semi-space-size=2 --v8-pool-size=1"
# What V8's compilers free, glibc's malloc keeps in its arenas; blocks of 32 KB and more are mapped on their own and
# returned when freed: ~3 MB less at rest and after a burst, the same speed; start-up takes ~20 ms longer.
ENV GLIBC_TUNABLES=glibc.malloc.mmap_threshold=32768
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules node_modules
COPY --from=build /src/dist dist
USER 65532:65532
ENTRYPOINT ["node", "/app/dist/src/cli/main.js"]

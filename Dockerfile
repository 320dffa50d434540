# One image recipe, one target per process:
#   docker build --target gateway -t firewatch/gateway .
# Targets: gateway, auth, incident-config, communications, on-call, webhooks, webhook-dispatcher, provision.
FROM node:24-bookworm-slim AS build
WORKDIR /app
RUN npm install -g pnpm@10.34.8
COPY . .
RUN pnpm install --frozen-lockfile \
 && pnpm build \
 && CI=true pnpm install --prod --frozen-lockfile

FROM node:24-bookworm-slim AS runtime
# Two glibc malloc arenas instead of one per thread that mallocs (V8's workers): each
# arena keeps its freed pages, 2-7 MB more resident per process (scripts/dev-env.mjs
# SERVICE_ENV, docs/operations.md "Memory").
ENV NODE_ENV=production MALLOC_ARENA_MAX=2
WORKDIR /app
# Owned by root and read-only to the process: it cannot rewrite its own code (Kubernetes
# also mounts the root filesystem read-only, deploy/kubernetes).
COPY --from=build /app /app
# The image's `node` user by number: Kubernetes' runAsNonRoot can only verify a numeric
# user (deploy/kubernetes runs as 1000:1000 too).
USER 1000:1000
HEALTHCHECK --interval=10s --timeout=3s --retries=5 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"

# Services run with --max-semi-space-size=8 --max-old-space-size=256 --liftoff-only, as
# scripts/dev-env.mjs SERVICE_NODE_ARGS: with the two arenas above, 105-170 MB resident
# under load (docs/operations.md "Memory"). Override the command to change them.
FROM runtime AS gateway
ENV PORT=8080
EXPOSE 8080
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=256", "--liftoff-only", "gateway/dist/main.js"]

FROM runtime AS auth
ENV PORT=8081
EXPOSE 8081
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=256", "--liftoff-only", "services/auth/dist/src/main.js"]

FROM runtime AS incident-config
ENV PORT=8082
EXPOSE 8082
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=256", "--liftoff-only", "services/incident-config/dist/src/main.js"]

FROM runtime AS communications
ENV PORT=8083
EXPOSE 8083
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=256", "--liftoff-only", "services/communications/dist/src/main.js"]

FROM runtime AS on-call
ENV PORT=8084
EXPOSE 8084
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=256", "--liftoff-only", "services/on-call/dist/src/main.js"]

FROM runtime AS webhooks
ENV PORT=8085
EXPOSE 8085
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=256", "--liftoff-only", "services/webhooks/dist/src/main.js"]

FROM runtime AS webhook-dispatcher
ENV PORT=8086
EXPOSE 8086
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=256", "--liftoff-only", "services/webhook-dispatcher/dist/src/main.js"]

# One-shot: each service's database role and database (scripts/provision-databases.mjs);
# with another command, the broker's users (scripts/provision-broker.mjs) or every
# service's migrations (scripts/migrate.mjs).
FROM runtime AS provision
HEALTHCHECK NONE
CMD ["node", "scripts/provision-databases.mjs"]

import type { Knex } from 'knex';
import type { Logger } from '@firewatch/logger';
import { createApiKeysRepository } from './data/api-keys.repository.js';
import { createEventOutbox } from './data/event-outbox.js';
import { createGroupsRepository } from './data/groups.repository.js';
import { createOAuthApplicationsRepository } from './data/oauth-applications.repository.js';
import { createOAuthClientTeamsRepository } from './data/oauth-client-teams.repository.js';
import { createOAuthClientsStore } from './data/oauth-clients.store.js';
import { createOidcAdapterFactory, findLiveAccessToken } from './data/oidc-payloads.adapter.js';
import { createTeamsRepository } from './data/teams.repository.js';
import { createUnitOfWork } from './data/transaction.js';
import { createUserCredentialsRepository } from './data/user-credentials.repository.js';
import { createUsersRepository } from './data/users.repository.js';
import { createApiKeyResolver } from './domain/api-key.resolver.js';
import { createApiKeyService } from './domain/api-key.service.js';
import { createBootstrapService } from './domain/bootstrap.service.js';
import { protectClientPayload } from './domain/client-secret.js';
import { createCredentialResolver } from './domain/credential.resolver.js';
import { createIdentityService } from './domain/identity.service.js';
import { createOAuthAccounts } from './domain/oauth-accounts.js';
import { createOAuthApplicationService } from './domain/oauth-application.service.js';
import { createOAuthLoginService } from './domain/oauth-login.service.js';
import type { OAuthTokenResolver } from './domain/credential.types.js';
import { createOAuthTokens } from './domain/oauth-token.resolver.js';
import { createUsersService } from './domain/users.service.js';
import type { AuthResourceDeps } from './domain/auth.deps.js';
import { registry } from './domain/registry.js';
import { createGroupMemberships } from './domain/groups/group-memberships.js';

export interface ServicesOptions {
  knex: Knex;
  logger: Logger;
  /** Overrides the OAuth token lookup (tests); defaults to the provider's token store. */
  resolveOAuthToken?: OAuthTokenResolver;
  /** Seconds a rotated refresh token keeps working (docs/oauth.md); default 10. */
  refreshGraceSeconds?: number;
  /** Live API keys and OAuth applications one team may hold (defaults 100 and 25). */
  limits?: { apiKeysPerTeam?: number; applicationsPerTeam?: number };
  now?: () => Date;
}

export type AuthServices = ReturnType<typeof createServices>;

/** Wires repositories into the domain services; shared by the HTTP process and the CLI. */
export function createServices({ knex, logger, now, ...options }: ServicesOptions) {
  const uow = createUnitOfWork(knex);
  const apiKeysRepo = createApiKeysRepository(knex);
  const users = createUsersRepository(knex);
  const teams = createTeamsRepository(knex);
  const clientTeams = createOAuthClientTeamsRepository(knex);
  const applications = createOAuthApplicationsRepository(knex);
  const outbox = createEventOutbox();
  const groups = createGroupsRepository(knex);
  const apiKeys = createApiKeyService({
    apiKeys: apiKeysRepo,
    users,
    groups,
    uow,
    outbox,
    maxLivePerTeam: options.limits?.apiKeysPerTeam,
    now,
  });
  const memberships = createGroupMemberships({ store: groups, uow, outbox });
  const resourceDeps: AuthResourceDeps = { groupMembers: groups, groupKeys: { dropGroup: apiKeys.dropGroup } };
  const identity = createIdentityService({ teams, users, uow, outbox });
  const usersService = createUsersService({
    users,
    credentials: createUserCredentialsRepository(),
    memberships,
    uow,
    outbox,
    now,
  });
  const oauthTokens = createOAuthTokens({ findLiveAccessToken: (t) => findLiveAccessToken(knex, t), users, clientTeams, applications });
  const resolveCredential = createCredentialResolver({
    resolveApiKey: createApiKeyResolver({
      apiKeys: apiKeysRepo,
      now,
      onTouchError: (err) => logger.warn('could not record api key use', { error: (err as Error).message }),
    }),
    resolveOAuthToken: options.resolveOAuthToken ?? oauthTokens.resolve,
  });
  return {
    apiKeys,
    identity,
    /** The users directory (`/v1/users`) and a user's deletion. */
    users: usersService,
    /** The kit's declarations (groups, served at `/v1/teams`) and what their hooks are handed. */
    resources: { registry, deps: resourceDeps },
    /** Groups' side of a user's deletion, and their backfill (`groups announce`). */
    groups: memberships,
    bootstrap: createBootstrapService({ uow, identity, apiKeys }),
    resolveCredential,
    oauth: {
      tokens: oauthTokens,
      accounts: createOAuthAccounts(users),
      login: createOAuthLoginService({ users, teams, clientTeams, applications }),
      applications: createOAuthApplicationService({
        applications,
        users,
        clients: createOAuthClientsStore(knex),
        uow,
        outbox,
        maxLivePerTeam: options.limits?.applicationsPerTeam,
        now,
      }),
      teamOfClient: (clientId: string) => clientTeams.teamOf(clientId),
      /** node-oidc-provider's storage (PostgreSQL), with the refresh-token grace period. */
      adapter: createOidcAdapterFactory(knex, {
        refreshGraceSeconds: options.refreshGraceSeconds ?? 10,
        protectClient: protectClientPayload,
      }),
    },
    /** Readiness: the database answers. */
    async ping(): Promise<void> {
      await knex.raw('select 1');
    },
  };
}

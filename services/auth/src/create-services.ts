import type { Knex } from 'knex';
import type { Logger } from '@firewatch/logger';
import { createApiKeysRepository } from './data/api-keys.repository.js';
import { createEventOutbox } from './data/event-outbox.js';
import { createTeamsRepository } from './data/teams.repository.js';
import { createUnitOfWork } from './data/transaction.js';
import { createUsersRepository } from './data/users.repository.js';
import { createApiKeyResolver } from './domain/api-key.resolver.js';
import { createApiKeyService } from './domain/api-key.service.js';
import { createBootstrapService } from './domain/bootstrap.service.js';
import { createCredentialResolver } from './domain/credential.resolver.js';
import { createIdentityService } from './domain/identity.service.js';
import { resolveOAuthToken, type OAuthTokenResolver } from './domain/oauth-token.resolver.js';

export interface ServicesOptions {
  knex: Knex;
  logger: Logger;
  /** Replaced by the OAuth server once it exists; defaults to "no OAuth tokens". */
  resolveOAuthToken?: OAuthTokenResolver;
  now?: () => Date;
}

export type AuthServices = ReturnType<typeof createServices>;

/** Wires repositories into the domain services; shared by the HTTP process and the CLI. */
export function createServices({ knex, logger, now, ...options }: ServicesOptions) {
  const uow = createUnitOfWork(knex);
  const apiKeysRepo = createApiKeysRepository(knex);
  const users = createUsersRepository(knex);
  const teams = createTeamsRepository(knex);
  const apiKeys = createApiKeyService({ apiKeys: apiKeysRepo, users, uow, outbox: createEventOutbox(), now });
  const identity = createIdentityService({ teams, users, uow });
  const resolveCredential = createCredentialResolver({
    resolveApiKey: createApiKeyResolver({
      apiKeys: apiKeysRepo,
      now,
      onTouchError: (err) => logger.warn('could not record api key use', { error: (err as Error).message }),
    }),
    resolveOAuthToken: options.resolveOAuthToken ?? resolveOAuthToken,
  });
  return {
    apiKeys,
    identity,
    bootstrap: createBootstrapService({ uow, identity, apiKeys }),
    resolveCredential,
    /** Readiness: the database answers. */
    async ping(): Promise<void> {
      await knex.raw('select 1');
    },
  };
}

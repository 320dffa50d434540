import { randomBytes, randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError } from '@firewatch/errors';
import { assertIfMatch, type EntityTagCondition, type Page } from '@firewatch/jsonapi';
import type { EventOutbox } from './event-outbox.js';
import type { OAuthApplicationsRepository } from './oauth-application.store.js';
import type { OAuthClientsStore } from './oauth-clients.store.js';
import type { Tx, UnitOfWork } from './unit-of-work.js';
import type { UsersRepository } from './users.store.js';
import { APPLICATION_ID_PROPERTY } from './client-registration.rules.js';
import { newClientSecret, protectClientPayload } from './client-secret.js';
import { assertApplicationWithin, type Actor } from './credential-bounds.rules.js';
import { toOAuthApplicationResource, type IssuedOAuthApplication, type OAuthApplicationResource } from './oauth-application.presenter.js';
import type { CreateOAuthApplicationInput, UpdateOAuthApplicationInput } from './oauth-application.schemas.js';
import { serviceUserRoles } from './oauth-scopes.js';
import { userEvent } from './user-events.js';

export interface OAuthApplicationServiceDeps {
  applications: OAuthApplicationsRepository;
  users: UsersRepository;
  clients: OAuthClientsStore;
  uow: UnitOfWork;
  /** Records `user.created` for each application's service user. */
  outbox: EventOutbox;
  /** Live applications one team may hold: each is its own rate-limit budget. Default 25. */
  maxLivePerTeam?: number;
  now?: () => Date;
}

export type OAuthApplicationService = ReturnType<typeof createOAuthApplicationService>;

/** Client-credentials applications, shared by `/v1/oauth_applications` and the CLI. */
export function createOAuthApplicationService({
  applications,
  users,
  clients,
  uow,
  outbox,
  maxLivePerTeam = 25,
  now = () => new Date(),
}: OAuthApplicationServiceDeps) {
  /** The live application, locked until `tx` ends, once `ifMatch` (a request's If-Match) matches it as a GET answers it: else 412. */
  async function lockedLive(tx: Tx, teamId: number, id: string, ifMatch: EntityTagCondition | undefined): Promise<void> {
    const row = await applications.findLive(teamId, id, tx, true);
    if (!row) throw new NotFoundError();
    assertIfMatch(ifMatch, { data: toOAuthApplicationResource(row) });
  }

  return {
    /**
     * Creates the application, its service user in the team and its confidential
     * client, in one transaction. The secret is returned this once.
     */
    async create(actor: Actor, input: CreateOAuthApplicationInput): Promise<IssuedOAuthApplication> {
      assertApplicationWithin(actor, input.scopes);
      const id = randomUUID();
      const clientId = `fwapp_${randomBytes(12).toString('base64url')}`;
      const secret = newClientSecret();
      const row = await uow.run(async (tx) => {
        if ((await applications.countLiveLocked(actor.team_id, tx)) >= maxLivePerTeam) {
          throw new ValidationError([
            {
              pointer: '/data',
              code: 'limit_reached',
              detail: `A team may hold at most ${maxLivePerTeam} live OAuth applications; revoke one first.`,
            },
          ]);
        }
        const serviceUser = await users.insert(
          {
            team_id: actor.team_id,
            email: `oauth-app-${id}@service.firewatch.invalid`,
            name: `${input.name} (OAuth application)`,
            ...serviceUserRoles(input.scopes),
            password_hash: null,
            is_service_account: true,
          },
          tx,
        );
        await outbox.write(tx, userEvent('created', serviceUser));
        await clients.put(
          clientId,
          protectClientPayload({
            client_id: clientId,
            client_secret: secret,
            client_name: input.name,
            client_id_issued_at: Math.floor(now().getTime() / 1000),
            grant_types: ['client_credentials'],
            response_types: [],
            redirect_uris: [],
            token_endpoint_auth_method: 'client_secret_basic',
            scope: input.scopes.join(' '),
            [APPLICATION_ID_PROPERTY]: id,
          }),
          tx,
        );
        return applications.insert(
          {
            id,
            team_id: actor.team_id,
            client_id: clientId,
            name: input.name,
            description: input.description ?? null,
            scopes: input.scopes,
            service_user_id: serviceUser.id,
            created_by_user_id: actor.user_id,
          },
          tx,
        );
      });
      return { resource: toOAuthApplicationResource(row), client_secret: secret };
    },

    async list(teamId: number, page: Page) {
      const { rows, ...found } = await applications.list(teamId, page);
      return { resources: rows.map(toOAuthApplicationResource), found };
    },

    async get(teamId: number, id: string): Promise<OAuthApplicationResource> {
      const row = await applications.findLive(teamId, id);
      if (!row) throw new NotFoundError();
      return toOAuthApplicationResource(row);
    },

    /** Operator look-up across teams (CLI). */
    async getAnyTeam(id: string): Promise<OAuthApplicationResource & { team_id: number }> {
      const row = await applications.findLiveAnyTeam(id);
      if (!row) throw new NotFoundError(`No live OAuth application ${id}.`);
      return { ...toOAuthApplicationResource(row), team_id: row.team_id };
    },

    async update(
      teamId: number,
      id: string,
      input: UpdateOAuthApplicationInput,
      ifMatch?: EntityTagCondition,
    ): Promise<OAuthApplicationResource> {
      return uow.run(async (tx) => {
        await lockedLive(tx, teamId, id, ifMatch);
        const row = await applications.update(teamId, id, input, tx);
        if (!row) throw new NotFoundError();
        return toOAuthApplicationResource(row);
      });
    },

    /** Deletes the client and its tokens at once; the gateway refuses them on its next resolve. */
    async revoke(teamId: number, id: string, ifMatch?: EntityTagCondition): Promise<OAuthApplicationResource> {
      return uow.run(async (tx) => {
        await lockedLive(tx, teamId, id, ifMatch);
        const row = await applications.update(teamId, id, { revoked_at: now() }, tx);
        if (!row) throw new NotFoundError();
        await clients.remove(row.client_id, tx);
        return toOAuthApplicationResource(row);
      });
    },
  };
}

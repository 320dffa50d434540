import type { UnitOfWork } from './unit-of-work.js';
import type { ApiKeyService } from './api-key.service.js';
import type { IdentityService } from './identity.service.js';

export interface BootstrapInput {
  team_name: string;
  email: string;
  name: string;
  password?: string;
}

/**
 * First start: a team, its admin and a global admin key, in one transaction, so a
 * failure leaves nothing half made. Running it again creates another team.
 */
export function createBootstrapService(deps: { uow: UnitOfWork; identity: IdentityService; apiKeys: ApiKeyService }) {
  return {
    async bootstrap(input: BootstrapInput) {
      return deps.uow.run(async (tx) => {
        const team = await deps.identity.createTeam({ name: input.team_name }, tx);
        const user = await deps.identity.createUser(
          { team_id: team.id, email: input.email, name: input.name, role: 'admin', on_call_role: 'admin', password: input.password },
          tx,
        );
        const key = await deps.apiKeys.create(
          { team_id: team.id, user_id: Number(user.id), principal: null },
          {
            name: 'Bootstrap admin key',
            description: 'Created by firewatch bootstrap',
            kind: 'global',
            role: 'admin',
            on_call_role: 'admin',
          },
          tx,
        );
        return { team, user, api_key: key };
      });
    },
  };
}

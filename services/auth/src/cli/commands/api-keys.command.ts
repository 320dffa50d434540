import { createApiKeySchema, rateLimitsSchema } from '../../domain/api-key.schemas.js';
import { validateInput } from '../../domain/input-validation.js';
import { int, limit, list, parse, required, requiredInt, str, UsageError } from '../cli-args.js';
import { flatten, type Command } from './command.js';
import { operator } from '../../domain/credential-bounds.rules.js';

export const apiKeysCreateCommand: Command = {
  usage:
    'api-keys create --team-id N --name NAME [--kind global|group|personal|record] [--description D] [--user-id N]\n' +
    '      [--role R] [--on-call-role R] [--capabilities read,create,update,delete] [--expires-at ISO]\n' +
    '      [--group-ids a,b] [--record-ids a,b] [--rate-limit-read N] [--rate-limit-write N]',
  summary: 'Create an API key and print its token (shown this once only).',
  async run(args, { services }) {
    const s = { type: 'string' } as const;
    const p = parse(args, {
      'team-id': s,
      name: s,
      kind: s,
      description: s,
      'user-id': s,
      role: s,
      'on-call-role': s,
      capabilities: s,
      'expires-at': s,
      'group-ids': s,
      'record-ids': s,
      'rate-limit-read': s,
      'rate-limit-write': s,
    });
    const teamId = requiredInt(p, 'team-id');
    const input = validateInput(createApiKeySchema, {
      name: required(p, 'name'),
      kind: str(p, 'kind') ?? 'global',
      description: str(p, 'description'),
      user_id: int(p, 'user-id'),
      role: str(p, 'role'),
      on_call_role: str(p, 'on-call-role'),
      capabilities: list(p, 'capabilities'),
      expires_at: str(p, 'expires-at'),
      group_ids: list(p, 'group-ids'),
      record_ids: list(p, 'record-ids'),
      rate_limit_read: int(p, 'rate-limit-read'),
      rate_limit_write: int(p, 'rate-limit-write'),
    });
    await services.identity.getTeam(teamId);
    const { resource, token } = await services.apiKeys.create(operator(teamId), input);
    return flatten(resource, { token });
  },
};

export const apiKeysListCommand: Command = {
  usage: 'api-keys list --team-id N',
  summary: "List a team's live API keys (never their tokens).",
  async run(args, { services }) {
    const p = parse(args, { 'team-id': { type: 'string' } });
    return (await services.apiKeys.listAll(requiredInt(p, 'team-id'))).map((r) => flatten(r));
  },
};

export const apiKeysRevokeCommand: Command = {
  usage: 'api-keys revoke ID',
  summary: 'Revoke an API key at once.',
  async run(args, { services }) {
    const p = parse(args, {}, 1);
    const key = await services.apiKeys.getAnyTeam(p.positionals[0]);
    return flatten(await services.apiKeys.revoke(key.team_id, key.id), { team_id: key.team_id });
  },
};

export const apiKeysSetLimitsCommand: Command = {
  usage: 'api-keys set-limits ID [--read N|default] [--write N|default]',
  summary: "Set a key's per-minute rate limits (the account manager's arrangement); default clears.",
  async run(args, { services }) {
    const p = parse(args, { read: { type: 'string' }, write: { type: 'string' } }, 1);
    const limits = validateInput(rateLimitsSchema, { rate_limit_read: limit(p, 'read'), rate_limit_write: limit(p, 'write') });
    if (limits.rate_limit_read === undefined && limits.rate_limit_write === undefined) {
      throw new UsageError('Give --read, --write or both.');
    }
    const key = await services.apiKeys.getAnyTeam(p.positionals[0]);
    return flatten(await services.apiKeys.setRateLimits(key.team_id, key.id, limits), { team_id: key.team_id });
  },
};

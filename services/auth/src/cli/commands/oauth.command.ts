import { appendKey, generateSigningKey } from '../../domain/oidc-keys.js';
import { createOAuthApplicationSchema } from '../../domain/oauth-application.schemas.js';
import { validateInput } from '../../domain/input-validation.js';
import { list, parse, required, requiredInt, str } from '../cli-args.js';
import { flatten, type Command } from './command.js';
import { operator } from '../../domain/credential-bounds.rules.js';

export const appsCreateCommand: Command = {
  usage: 'apps create --team-id N --name NAME --scopes s1,s2 [--description D]',
  summary: 'Create a client-credentials OAuth application (and its service user); prints the client secret once.',
  async run(args, { services }) {
    const s = { type: 'string' } as const;
    const p = parse(args, { 'team-id': s, name: s, scopes: s, description: s });
    const teamId = requiredInt(p, 'team-id');
    required(p, 'scopes');
    const input = validateInput(createOAuthApplicationSchema, {
      name: required(p, 'name'),
      description: str(p, 'description'),
      scopes: list(p, 'scopes'),
    });
    await services.identity.getTeam(teamId);
    const { resource, client_secret } = await services.oauth.applications.create(operator(teamId), input);
    return flatten(resource, { team_id: teamId, client_secret });
  },
};

export const appsListCommand: Command = {
  usage: 'apps list --team-id N',
  summary: "List a team's OAuth applications (never their secrets).",
  async run(args, { services }) {
    const p = parse(args, { 'team-id': { type: 'string' } });
    const { resources } = await services.oauth.applications.list(requiredInt(p, 'team-id'), { number: 1, size: 1000 });
    return resources.map((r) => flatten(r));
  },
};

export const appsRevokeCommand: Command = {
  usage: 'apps revoke ID',
  summary: 'Revoke an OAuth application: its client and every token it holds stop working.',
  async run(args, { services }) {
    const p = parse(args, {}, 1);
    const app = await services.oauth.applications.getAnyTeam(p.positionals[0]);
    return flatten(await services.oauth.applications.revoke(app.team_id, app.id), { team_id: app.team_id });
  },
};

export const keysGenerateCommand: Command = {
  usage: 'keys generate [--append-to JWKS_JSON]',
  summary:
    'Generate an RS256 signing key and a cookie key. Prints OIDC_JWKS (with --append-to: the given set plus the new key, ' +
    'published but not yet signing) and OIDC_COOKIE_KEYS values. Needs no database.',
  needsDatabase: false,
  async run(args) {
    const p = parse(args, { 'append-to': { type: 'string' } });
    const { jwk, cookieKey } = generateSigningKey();
    const jwks = appendKey(str(p, 'append-to'), jwk);
    return {
      kid: jwk.kid,
      OIDC_JWKS: JSON.stringify(jwks),
      OIDC_COOKIE_KEYS: cookieKey,
      rotation:
        'New install: set both values. Rotation: deploy with the key appended (published), then move it first ' +
        '(it signs), then drop the old key once its tokens have expired (1 h). Prepend new cookie keys.',
    };
  },
};

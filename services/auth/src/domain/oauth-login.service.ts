import type { OAuthApplicationsRepository } from './oauth-application.store.js';
import type { OAuthClientTeamsRepository } from './oauth-clients.store.js';
import type { TeamsRepository } from './teams.store.js';
import type { UserRow, UsersRepository } from './users.store.js';
import { hashPassword, verifyPassword } from './password-hasher.js';

export type LoginOutcome =
  | { ok: true; user: UserRow }
  | { ok: false; reason: 'invalid_credentials' | 'other_team'; message: string }
  | { ok: false; reason: 'choose_team'; message: string; teams: { id: number; name: string }[] };

export type BindOutcome = { ok: true; teamId: number } | { ok: false; reason: 'other_team' | 'team_full'; message: string };

export interface OAuthLoginDeps {
  users: UsersRepository;
  teams: TeamsRepository;
  clientTeams: OAuthClientTeamsRepository;
  applications: OAuthApplicationsRepository;
}

/** The answer to a wrong email or password (and, with 429, to a locked account). */
export const WRONG_CREDENTIALS = 'Wrong email or password.';
const OTHER_TEAM = 'This application works with another team. Sign in with an account of the team that authorized it.';
// Verified when no account matches, so a missing account costs as long as a wrong password.
let dummyHash: Promise<string> | undefined;
const timingHash = () => (dummyHash ??= hashPassword('firewatch-timing-equaliser'));

/** Sign-in and team binding for the login and consent pages. */
export function createOAuthLoginService({ users, teams, clientTeams, applications }: OAuthLoginDeps) {
  async function boundTeam(clientId: string): Promise<number | undefined> {
    return (await clientTeams.teamOf(clientId)) ?? (await applications.findLiveByClientId(clientId))?.team_id;
  }

  async function teamName(id: number): Promise<string> {
    return (await teams.findById(id))?.name ?? `team ${id}`;
  }

  return {
    boundTeam,
    teamName,

    /**
     * Checks email and password. Emails are unique per team only, so the same address
     * may sign in to several teams: the client's team decides, else the user chooses.
     */
    async authenticate(input: { email: string; password: string; clientId: string; teamId?: number }): Promise<LoginOutcome> {
      const candidates = input.email ? await users.findLoginCandidates(input.email) : [];
      if (candidates.length === 0) await verifyPassword(input.password, await timingHash());
      const matches: UserRow[] = [];
      for (const user of candidates) if (await verifyPassword(input.password, user.password_hash)) matches.push(user);
      if (matches.length === 0) return { ok: false, reason: 'invalid_credentials', message: WRONG_CREDENTIALS };

      const bound = await boundTeam(input.clientId);
      if (bound !== undefined) {
        const user = matches.find((u) => u.team_id === bound);
        if (user) return { ok: true, user };
        // Not the team's name: an account elsewhere does not entitle one to learn it.
        return { ok: false, reason: 'other_team', message: OTHER_TEAM };
      }
      const chosen = input.teamId === undefined ? matches : matches.filter((u) => u.team_id === input.teamId);
      if (chosen.length === 1) return { ok: true, user: chosen[0] };
      return {
        ok: false,
        reason: 'choose_team',
        message: 'This email belongs to several teams. Choose the team this application should work with.',
        teams: await Promise.all(matches.map(async (u) => ({ id: u.team_id, name: await teamName(u.team_id) }))),
      };
    },

    /**
     * The first approval binds the client to the user's team (docs/api-contract.md §3.4);
     * others are refused. A team holds at most `maxClientsPerTeam` bound clients
     * (docs/oauth.md, "Dynamic client registration").
     */
    async bindOnConsent(clientId: string, user: UserRow, maxClientsPerTeam?: number): Promise<BindOutcome> {
      const app = await applications.findLiveByClientId(clientId);
      const bound = app ? { teamId: app.team_id } : await clientTeams.bind(clientId, user.team_id, user.id, maxClientsPerTeam);
      if ('teamFull' in bound) {
        return {
          ok: false,
          reason: 'team_full',
          message: `Your team already uses ${maxClientsPerTeam} applications, the most it may authorize. Ask an administrator to remove unused ones, then start again.`,
        };
      }
      if (bound.teamId === user.team_id) return { ok: true, teamId: bound.teamId };
      return { ok: false, reason: 'other_team', message: OTHER_TEAM };
    },
  };
}

export type OAuthLoginService = ReturnType<typeof createOAuthLoginService>;

import type { ResourceObject } from '@firewatch/jsonapi';
import type { TeamRow } from './teams.store.js';
import type { UserRow } from './users.store.js';

export interface UserAttributes extends Record<string, unknown> {
  email: string;
  first_name: string | null;
  last_name: string | null;
  full_name: string;
  /** The reference's: the full name and the team (tenant) the user belongs to, "Jane Doe (Acme)". */
  full_name_with_team: string;
  /** The full name again, under the name userinfo's claim and the first clients knew. */
  name: string;
  time_zone: string;
  role: UserRow['role'];
  on_call_role: UserRow['on_call_role'];
  team_id: number;
  is_service_account: boolean;
  created_at: string;
  updated_at: string;
}

/** A user as the API, its events and the CLI show it; the password hash never leaves the data layer. */
export function toUserResource(row: UserRow): ResourceObject<UserAttributes> {
  return {
    id: String(row.id),
    type: 'users',
    attributes: {
      email: row.email,
      first_name: row.first_name,
      last_name: row.last_name,
      full_name: row.name,
      full_name_with_team: row.team_name ? `${row.name} (${row.team_name})` : row.name,
      name: row.name,
      time_zone: row.time_zone,
      role: row.role,
      on_call_role: row.on_call_role,
      team_id: row.team_id,
      is_service_account: row.is_service_account,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    },
  };
}

export interface TeamView {
  id: number;
  name: string;
  created_at: string;
  updated_at: string;
}

export function toTeamView(row: TeamRow): TeamView {
  return { id: row.id, name: row.name, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}

import type { Knex } from 'knex';

export interface SeedPath {
  name?: string;
  is_default?: boolean;
  position?: number;
  match_mode?: string;
  notification_type?: 'audible' | 'quiet';
  path_type?: string;
  rules?: unknown[];
  time_restriction_time_zone?: string | null;
  time_restrictions?: unknown[];
  repeat?: boolean;
  repeat_count?: number;
  initial_delay?: number;
  levels?: SeedLevel[];
}

export interface SeedLevel {
  position?: number;
  delay?: number;
  strategy?: string;
  schedule_strategy?: string;
  targets: { id: string; type: string; team_members?: string | null }[];
}

/**
 * Writes an escalation policy with its paths and levels straight into the tables (as the
 * escalation CRUD stores them), so that plans and GET /v1/oncalls are tested on their own.
 * The policy's id, and its paths' and levels' ids in the order given.
 */
export async function seedPolicy(
  knex: Knex,
  policy: {
    team_id?: number;
    name: string;
    group_ids?: string[];
    service_ids?: string[];
    business_hours?: unknown;
    repeat_count?: number;
    created_at?: Date;
  },
  paths: SeedPath[],
): Promise<{ id: string; paths: string[]; levels: string[][] }> {
  const teamId = policy.team_id ?? 1;
  const [row] = await knex('escalation_policies')
    .insert({
      team_id: teamId,
      name: policy.name,
      group_ids: policy.group_ids ?? [],
      service_ids: policy.service_ids ?? [],
      business_hours: policy.business_hours ? JSON.stringify(policy.business_hours) : null,
      repeat_count: policy.repeat_count ?? 0,
      ...(policy.created_at ? { created_at: policy.created_at } : {}),
    })
    .returning('id');
  const out = { id: row.id as string, paths: [] as string[], levels: [] as string[][] };
  for (const [i, p] of paths.entries()) {
    const [path] = await knex('escalation_paths')
      .insert({
        team_id: teamId,
        escalation_policy_id: out.id,
        name: p.name ?? `Path ${i}`,
        is_default: p.is_default ?? false,
        position: p.position ?? i,
        match_mode: p.match_mode ?? 'match-all-rules',
        notification_type: p.notification_type ?? 'audible',
        path_type: p.path_type ?? 'escalation',
        rules: JSON.stringify(p.rules ?? []),
        time_restriction_time_zone: p.time_restriction_time_zone ?? null,
        time_restrictions: JSON.stringify(p.time_restrictions ?? []),
        repeat: p.repeat ?? false,
        repeat_count: p.repeat_count ?? 0,
        initial_delay: p.initial_delay ?? 0,
      })
      .returning('id');
    out.paths.push(path.id);
    const levels: string[] = [];
    for (const [j, l] of (p.levels ?? []).entries()) {
      const [level] = await knex('escalation_levels')
        .insert({
          team_id: teamId,
          escalation_policy_id: out.id,
          escalation_policy_path_id: path.id,
          position: l.position ?? j + 1,
          delay: l.delay ?? 5,
          paging_strategy_configuration_strategy: l.strategy ?? 'default',
          paging_strategy_configuration_schedule_strategy: l.schedule_strategy ?? 'on_call_only',
          notification_target_params: JSON.stringify(l.targets),
        })
        .returning('id');
      levels.push(level.id);
    }
    out.levels.push(levels);
  }
  return out;
}

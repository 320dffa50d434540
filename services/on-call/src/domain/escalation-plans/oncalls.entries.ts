import { createHash } from 'node:crypto';
import type { Principal } from '@firewatch/auth';
import { BadRequestError } from '@firewatch/errors';
import type { Page } from '@firewatch/jsonapi';
import type { Row } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { schedulesShifts } from '../schedules/shifts.source.js';
import type { Shift } from '../shifts/index.js';
import { levelPlan } from './escalation-plans.js';
import type { OncallPolicy } from './oncalls.deps.js';
import type { OncallParams } from './oncalls.params.js';

/** One answer entry before it is serialised: a person on call through a policy's path and level, for a time. */
export interface Entry {
  policy: OncallPolicy;
  path: OncallPolicy['paths'][number];
  level: number;
  schedule_id: string | null;
  user_id: number;
  starts_at: number;
  ends_at: number;
}

/**
 * What one request reads and answers at most. A team at the escalation limits (500
 * policies, 20 paths of 20 levels of 50 targets each) holds 200,000 levels; reading them
 * all, and a team's thousand members for each, is no request's work. Beyond: a 400
 * asking for fewer policies.
 */
export const ONCALL_BOUNDS = { paths: 2_000, levels: 2_000, entries: 20_000 };

const tooMany = (what: string, limit: number) =>
  new BadRequestError(
    `the escalation policies asked for hold more than ${limit.toLocaleString('en-US')} ${what}, more than one request answers; name fewer with filter[escalation_policy_ids] (or filter[schedule_ids], filter[user_ids], a shorter window).`,
    { source: { parameter: 'filter[escalation_policy_ids]' }, code: 'selection_too_large' },
  );

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Ctx = { principal: Principal; deps: OnCallResourceDeps; params: Row; page: Page };

/** What makes an entry itself: policy, path, level, schedule, user and times. */
const entryKey = (e: Entry) => [e.policy.id, e.path.id, e.level, e.schedule_id ?? '', e.user_id, e.starts_at, e.ends_at].join('|');

/** The stable id of an entry: the same person through the same level for the same time keeps it across requests. */
export function entryId(e: Entry): string {
  const h = createHash('sha256').update(entryKey(e)).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/**
 * Who is on call through the team's escalation policies in since..until (an instant when
 * they are equal): for each policy, path (deferral paths left out) and level, each target's
 * people — a user for the whole window; a schedule's final shifts overlapping it (as
 * GET /v1/shifts computes them, overrides included), or every member for `everyone`; a
 * team's members or admins for the whole window. Escalating teams, services and chat
 * channels name no one directly. A caller sees the policies (a record-scoped key: those
 * it names) and, through them, the schedules it may read as GET /v1/shifts narrows them.
 */
export async function entries(ctx: Ctx, p: OncallParams, from: number, to: number): Promise<Entry[]> {
  const { principal, deps } = ctx;
  const teamId = principal.team_id;
  const named = principal.record_ids;
  // A record-scoped key may name records whose ids are no UUIDs (a user's integer id): they name no policy.
  const namedPolicies = named?.filter((id) => UUID.test(id)).map((id) => id.toLowerCase());
  const policyIds = namedPolicies
    ? (p['filter[escalation_policy_ids]'] ?? namedPolicies).filter((id) => namedPolicies.includes(id))
    : p['filter[escalation_policy_ids]'];
  const read = await deps.oncalls.policies(
    teamId,
    {
      policyIds,
      serviceIds: p['filter[service_ids]'],
      groupIds: p['filter[group_ids]'],
      notificationTypes: p['filter[notification_types]'],
    },
    Math.max(ONCALL_BOUNDS.paths, ONCALL_BOUNDS.levels),
  );
  if (read.paths > ONCALL_BOUNDS.paths) throw tooMany('escalation paths', ONCALL_BOUNDS.paths);
  if (read.levels > ONCALL_BOUNDS.levels) throw tooMany('escalation levels', ONCALL_BOUNDS.levels);
  const { policies } = read;
  const levels = policies.flatMap((policy) =>
    policy.paths.flatMap((path) => path.levels.map((stored) => ({ policy, path, level: levelPlan(stored) }))),
  );
  const targets = levels.flatMap((l) => l.level.targets);
  const idsOf = (type: string) => [...new Set(targets.filter((t) => t.type === type).map((t) => t.id.toLowerCase()))];
  const wantedSchedules = idsOf('schedule').filter((id) => !p['filter[schedule_ids]'] || p['filter[schedule_ids]'].includes(id));
  const visible = wantedSchedules.length
    ? await deps.shifts.scheduleIds({ teamId, scheduleIds: wantedSchedules, groupIds: principal.group_ids, recordIds: named })
    : [];
  const onCallOnly = new Set(
    levels.flatMap((l) => (l.level.schedule_strategy === 'on_call_only' ? l.level.targets : [])).map((t) => t.id.toLowerCase()),
  );
  const shifts = await schedulesShifts(
    deps,
    teamId,
    visible.filter((id) => onCallOnly.has(id)),
    from,
    Math.max(to, from + 1),
  );
  const bySchedule = new Map<string, Shift[]>();
  for (const s of shifts) {
    const list = bySchedule.get(s.schedule_id);
    if (list) list.push(s);
    else bySchedule.set(s.schedule_id, [s]);
  }
  const members = await deps.oncalls.scheduleMembers(teamId, visible, new Date(from));
  const teams = await deps.oncalls.teams(teamId, idsOf('team'));
  const users = await deps.oncalls.liveUsers(teamId, [
    ...new Set([
      ...targets
        .filter((t) => t.type === 'user')
        .map((t) => Number(t.id))
        .filter(Number.isSafeInteger),
      ...[...teams.values()].flatMap((t) => t.member_ids),
      ...[...members.values()].flat(),
    ]),
  ]);
  const visibleSet = new Set(visible);
  const onlyUsers = p['filter[user_ids]'] && new Set(p['filter[user_ids]']);
  const wanted = (id: number) => !onlyUsers || onlyUsers.has(id);
  // Each team's and schedule's people judged once per request, not once per level naming them.
  const people = (ids: readonly number[]) => ids.filter((id) => users.has(id) && wanted(id));
  const teamPeople = new Map([...teams].map(([id, t]) => [id, { all: people(t.member_ids), admins: people(t.admin_ids) }]));
  const everyone = new Map([...members].map(([id, list]) => [id, people(list)]));
  // One entry per person, level and time, however many targets of the level name them:
  // a repeated target is skipped, and a person met again costs a lookup, not a hash.
  const out = new Map<string, Entry>();
  const add = (entry: Entry) => {
    const key = entryKey(entry);
    if (out.has(key)) return;
    if (out.size >= ONCALL_BOUNDS.entries) throw tooMany('on-call entries in this window', ONCALL_BOUNDS.entries);
    out.set(key, entry);
  };
  for (const { policy, path, level } of levels) {
    const at = { policy, path, level: level.position };
    const whole = (user_id: number, schedule_id: string | null = null) =>
      add({ ...at, schedule_id, user_id, starts_at: from, ends_at: to });
    const seenTargets = new Set<string>();
    for (const target of level.targets) {
      const id = target.id.toLowerCase();
      const key = `${target.type}|${id}|${target.team_members ?? ''}`;
      if (seenTargets.has(key)) continue;
      seenTargets.add(key);
      if (target.type === 'user' && !p['filter[schedule_ids]']) {
        const user = Number(target.id);
        if (users.has(user) && wanted(user)) whole(user);
      } else if (target.type === 'schedule' && visibleSet.has(id)) {
        if (level.schedule_strategy === 'everyone') for (const user of everyone.get(id) ?? []) whole(user, id);
        else
          for (const s of bySchedule.get(id) ?? [])
            if (wanted(s.user_id)) add({ ...at, schedule_id: id, user_id: s.user_id, starts_at: s.starts_at, ends_at: s.ends_at });
      } else if (target.type === 'team' && target.team_members !== 'escalate' && !p['filter[schedule_ids]']) {
        for (const user of teamPeople.get(id)?.[target.team_members === 'admins' ? 'admins' : 'all'] ?? []) whole(user);
      }
    }
  }
  return [...out.values()];
}

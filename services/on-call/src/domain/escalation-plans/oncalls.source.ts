import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';
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
interface Entry {
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

type Ctx = { principal: Principal; deps: OnCallResourceDeps; params: Row; page: Page };

/** What makes an entry itself: policy, path, level, schedule, user and times. */
const entryKey = (e: Entry) => [e.policy.id, e.path.id, e.level, e.schedule_id ?? '', e.user_id, e.starts_at, e.ends_at].join('|');

/** The stable id of an entry: the same person through the same level for the same time keeps it across requests. */
function entryId(e: Entry): string {
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
async function entries(ctx: Ctx, p: OncallParams, from: number, to: number): Promise<Entry[]> {
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

/** GET /v1/oncalls' page of entries and the `meta` shifts' lists have. */
export async function listOncalls(ctx: Ctx) {
  const p = ctx.params as OncallParams;
  const from = p.since ?? Date.now();
  // An until judged against now at validation may be a few milliseconds before this now.
  const to = Math.max(p.until ?? from, from);
  let found = await entries(ctx, p, from, to);
  const audibleFirst = p['filter[notification_types]'] !== undefined;
  const levelKey = (e: Entry) => `${e.policy.id}|${e.path.id}|${e.level}`;
  // Policies by name, their paths by position, levels in order (as generated), then each level's entries by start.
  const levelRank = new Map<string, number>();
  for (const e of found) if (!levelRank.has(levelKey(e))) levelRank.set(levelKey(e), levelRank.size);
  const quiet = (e: Entry) => (audibleFirst && e.path.notification_type === 'quiet' ? 1 : 0);
  found = found
    .map((e, i) => ({ e, i }))
    .sort(
      (a, b) =>
        quiet(a.e) - quiet(b.e) ||
        levelRank.get(levelKey(a.e))! - levelRank.get(levelKey(b.e))! ||
        a.e.starts_at - b.e.starts_at ||
        a.i - b.i,
    )
    .map(({ e }) => e);
  if (p.earliest) {
    const first = new Map<string, Entry>();
    for (const e of found) {
      const held = first.get(levelKey(e));
      if (!held || e.starts_at < held.starts_at) first.set(levelKey(e), e);
    }
    found = found.filter((e) => first.get(levelKey(e)) === e);
  }
  const zone = p.time_zone;
  const time = (ms: number) => (zone ? DateTime.fromMillis(ms, { zone }).toISO()! : new Date(ms).toISOString());
  const names = await ctx.deps.oncalls.scheduleNames(ctx.principal.team_id, [
    ...new Set(found.flatMap((e) => (e.schedule_id ? [e.schedule_id] : []))),
  ]);
  const { number, size } = ctx.page;
  const total = found.length;
  const totalPages = Math.max(1, Math.ceil(total / size));
  return {
    rows: found.slice((number - 1) * size, number * size).map((e) => ({
      id: entryId(e),
      escalation_policy_id: e.policy.id,
      escalation_policy_name: e.policy.name,
      escalation_policy_path_id: e.path.id,
      escalation_policy_path_name: e.path.name,
      notification_type: e.path.notification_type,
      is_default_path: e.path.is_default,
      escalation_level: e.level,
      schedule_id: e.schedule_id,
      schedule_name: e.schedule_id ? (names.get(e.schedule_id) ?? null) : null,
      user_id: e.user_id,
      starts_at: time(e.starts_at),
      ends_at: time(e.ends_at),
    })),
    meta: {
      current_page: number,
      next_page: number < totalPages ? number + 1 : null,
      prev_page: number > 1 ? Math.min(number - 1, totalPages) : null,
      total_count: total,
      total_pages: totalPages,
    },
  };
}

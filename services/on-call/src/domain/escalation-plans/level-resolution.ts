import { BadRequestError } from '@firewatch/errors';
import type { Row, Transaction } from '@firewatch/resource-kit';
import type { EscalationLevelPlan, LevelTarget, TargetResolution } from '../paging/paging.ports.js';
import type { EscalationPlansStore } from './escalation-plans.store.js';
import { pickPeople } from './paging-strategy.js';

/**
 * Who holds a schedule at an instant: its final shifts covering it (overrides included),
 * read in `tx`: the paging transaction holds a connection, and a read on another could
 * wait for the pool forever when every connection is such a transaction.
 */
export type OnCallAt = (
  tx: Transaction,
  teamId: number,
  scheduleId: string,
  at: Date,
) => Promise<{ user_id: number; is_override: boolean }[]>;

export interface LevelResolutionDeps {
  store: EscalationPlansStore;
  onCallAt: OnCallAt;
  /** A random index below n (tests fix it); default crypto's randomInt. */
  random?: (n: number) => number;
}

/** One target's people before the users read model and the paging strategy judge them. */
interface Candidates {
  target: LevelTarget;
  user_ids: number[];
  /** Users on a schedule by an override, to say so. */
  overrides?: Set<number>;
  policies: { id: string; name: string }[];
  said: string;
}

const CHANNELS: Record<string, string> = { slack_channel: 'Slack channel', microsoft_teams_channel: 'Microsoft Teams channel' };

async function candidatesOf(
  deps: LevelResolutionDeps,
  tx: Transaction,
  teamId: number,
  level: EscalationLevelPlan,
  target: LevelTarget,
  at: Date,
): Promise<Candidates> {
  const none = (said: string): Candidates => ({ target, user_ids: [], policies: [], said });
  const { store } = deps;
  switch (target.type) {
    case 'user': {
      const id = Number(target.id);
      if (!Number.isSafeInteger(id) || id < 1) return none(`user "${target.id}" is no user id: nobody`);
      return { target, user_ids: [id], policies: [], said: 'user' };
    }
    case 'schedule': {
      const schedule = await store.schedule(tx, teamId, target.id);
      if (!schedule) return none(`schedule ${target.id} not found: nobody`);
      if (level.schedule_strategy === 'everyone') {
        const members = await store.scheduleMembers(tx, teamId, schedule.id, at);
        return { target, user_ids: members, policies: [], said: `schedule ${schedule.name}: everyone in its rotations` };
      }
      let shifts;
      try {
        shifts = await deps.onCallAt(tx, teamId, schedule.id, at);
      } catch (err) {
        // A schedule past one request's read bounds or work budget (as GET /v1/shifts refuses it) pages nobody, said so.
        if (!(err instanceof BadRequestError)) throw err;
        return none(`schedule ${schedule.name}: too large to compute who is on call (${err.message}): nobody`);
      }
      const overrides = new Set(shifts.filter((s) => s.is_override).map((s) => s.user_id));
      const said = shifts.length ? `schedule ${schedule.name}: on call now` : `schedule ${schedule.name}: nobody on call now`;
      return { target, user_ids: [...new Set(shifts.map((s) => s.user_id))], overrides, policies: [], said };
    }
    case 'team': {
      const team = await store.team(tx, teamId, target.id);
      if (!team) return none(`team ${target.id} not found or deleted: nobody`);
      const name = team.name ?? target.id;
      if (target.team_members === 'escalate') {
        const policy = await store.policyNaming(tx, teamId, 'group_ids', target.id);
        return policy
          ? { target, user_ids: [], policies: [policy], said: `team ${name}: escalates to its policy ${policy.name}` }
          : none(`team ${name}: escalates, but no escalation policy names the team: nobody`);
      }
      const admins = target.team_members === 'admins';
      const people = admins ? team.admin_ids : team.member_ids;
      // A team known before on-call kept members has none until its next event (docs/paging.md): say so.
      if (!people.length) return none(`team ${name}: no ${admins ? 'admins' : 'members'} known: nobody`);
      return { target, user_ids: people, policies: [], said: `team ${name}: ${admins ? 'admins' : 'members'}` };
    }
    case 'service': {
      const policy = await store.policyNaming(tx, teamId, 'service_ids', target.id);
      return policy
        ? { target, user_ids: [], policies: [policy], said: `service ${target.id}: its policy ${policy.name}` }
        : none(`service ${target.id}: no escalation policy names the service: nobody`);
    }
    default:
      return none(`${CHANNELS[target.type] ?? target.type} ${target.id}: channels are not paged (no chat integration): nobody`);
  }
}

/**
 * Who each target of the level pages at `at`, in target order: a target's people are
 * the live users of the read model (deleted or unknown ones skipped, said so), each
 * user once in the level (a later target naming one already paged says so), then the
 * level's paging strategy picks among all of them (`cycle` moves the level's counter in
 * `tx`). Teams escalating and services name a policy instead of people.
 */
export async function resolveLevel(
  deps: LevelResolutionDeps,
  tx: Transaction,
  teamId: number,
  level: EscalationLevelPlan,
  alert: Row,
  at: Date,
): Promise<TargetResolution[]> {
  const candidates: Candidates[] = [];
  for (const target of level.targets) candidates.push(await candidatesOf(deps, tx, teamId, level, target, at));
  const users = await deps.store.users(tx, teamId, [...new Set(candidates.flatMap((c) => c.user_ids))]);
  const seen = new Set<number>();
  const kept = candidates.map((c) => {
    const notes: string[] = [];
    const ids: number[] = [];
    for (const id of c.user_ids) {
      const user = users.get(id);
      if (!user || user.deleted) notes.push(`user ${id} ${user ? 'deleted' : 'unknown'}: skipped`);
      else if (seen.has(id)) notes.push(`${user.name} already paged by this level`);
      else {
        seen.add(id);
        ids.push(id);
      }
    }
    return { c, ids, notes };
  });
  const people = kept.flatMap((k) => k.ids);
  const turn = level.paging_strategy === 'cycle' && people.length ? await deps.store.nextTurn(tx, teamId, level.id) : undefined;
  const picked = new Set(pickPeople(level.paging_strategy, people, { alertId: String(alert.id), turn, random: deps.random }));
  return kept.map(({ c, ids, notes }) => {
    const paged = ids.filter((id) => picked.has(id));
    const named = paged.map((id) => `${users.get(id)!.name}${c.overrides?.has(id) ? ' (override)' : ''}`);
    const left = ids.length - paged.length;
    // A user target skipped is said by its note alone ("user 12 deleted: skipped").
    const head = named.length ? [`${c.said} ${named.join(', ')}`] : c.target.type === 'user' && notes.length ? [] : [c.said];
    const parts = [...head, ...notes, ...(left ? [`${left} not picked by the ${level.paging_strategy} strategy`] : [])];
    return { target: c.target, user_ids: paged, policies: c.policies, explanation: parts.join('; ') };
  });
}

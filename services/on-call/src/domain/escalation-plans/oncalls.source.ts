import { pageOfList } from '@firewatch/jsonapi';
import { DateTime } from 'luxon';
import { type Ctx, type Entry, entries, entryId } from './oncalls.entries.js';
import type { OncallParams } from './oncalls.params.js';

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
  return pageOfList(found, ctx.page, (e) => ({
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
  }));
}

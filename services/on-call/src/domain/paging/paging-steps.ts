import type { EscalationLevelPlan, EscalationPathPlan } from './paging.ports.js';

const MINUTE = 60_000;

/** Where a paging is on its path: the level it pages next (`levels.length`: the end) in which round (0: the first run). */
export interface PagingPosition {
  level_index: number;
  round: number;
}

/** The parts of a path the steps follow. */
export type StepPlan = Pick<EscalationPathPlan, 'levels' | 'repeat_count' | 'initial_delay'>;

/** What a due step does: page a level and wait for the next step, or end the paging unanswered. */
export type StepAction =
  | { kind: 'page'; level: EscalationLevelPlan; level_number: number; round: number; next: PagingPosition; next_at: Date }
  | { kind: 'end'; rounds: number };

/** A new paging: level 1 of round 0, due after the path's initial delay. */
export function startPosition(plan: StepPlan, at: Date): { position: PagingPosition; due_at: Date } {
  return { position: { level_index: 0, round: 0 }, due_at: new Date(at.getTime() + Math.max(0, plan.initial_delay) * MINUTE) };
}

/**
 * The step due at `position`, fired at `now`: the level pages and the next step is due that
 * level's `delay` minutes later (from when it paged, so a step fired late after downtime
 * still leaves people the whole delay to answer). After the last level the path runs again
 * while rounds remain (`repeat_count` more runs); then the next step is the end. A path
 * without levels ends at once.
 */
export function stepAt(plan: StepPlan, position: PagingPosition, now: Date): StepAction {
  const levels = plan.levels;
  if (position.level_index >= levels.length || levels.length === 0) return { kind: 'end', rounds: position.round + 1 };
  const level = levels[position.level_index]!;
  const last = position.level_index === levels.length - 1;
  const next: PagingPosition = !last
    ? { level_index: position.level_index + 1, round: position.round }
    : position.round < Math.max(0, plan.repeat_count)
      ? { level_index: 0, round: position.round + 1 }
      : { level_index: levels.length, round: position.round };
  return {
    kind: 'page',
    level,
    level_number: position.level_index + 1,
    round: position.round,
    next,
    next_at: new Date(now.getTime() + Math.max(0, level.delay) * MINUTE),
  };
}

/** Whether a step due at `dueAt` and fired at `now` is late (fired after downtime rather than by the running job). */
export function isLate(dueAt: Date, now: Date, lateAfterMs: number): boolean {
  return now.getTime() - dueAt.getTime() > lateAfterMs;
}

/**
 * Where `POST /v1/alerts/{id}/escalate` pages: the level asked for (1-based), else the one
 * the paging would page next (after the last: level 1 of the next round). Null when the
 * level asked for is not on the path.
 */
export function escalationPosition(plan: StepPlan, position: PagingPosition, level?: number): PagingPosition | null {
  if (level !== undefined) return level >= 1 && level <= plan.levels.length ? { level_index: level - 1, round: position.round } : null;
  if (plan.levels.length === 0) return null;
  if (position.level_index >= plan.levels.length) return { level_index: 0, round: position.round + 1 };
  return position;
}

/** The notification attempts a user's rules give for one page (a rule per delay and channel), or the account email. */
export interface UserRule {
  id: string;
  delay: number;
  position: number;
  notification_type: 'audible' | 'quiet';
  enabled_contact_types: string[];
  email: string | null;
  email_id: string | null;
  sms: string | null;
  sms_id: string | null;
  call: string | null;
  call_id: string | null;
}

export interface PlannedNotification {
  channel: 'email' | 'sms' | 'voice';
  address: string;
  contact_method_id: string | null;
  due_at: Date;
}

/**
 * A user's notifications for a page of `type` at `at`: each of their rules of that type
 * (audible or quiet, as the path's) reaches each contact type it enables that has an
 * address, `delay` minutes on; a contact type no channel serves (device, slack) is left
 * out. A user with no such rule, or whose rules reach nothing, gets one email at once to
 * the account's address, so a page never reaches nobody for want of configuration.
 */
export function plannedNotifications(rules: UserRule[], type: 'audible' | 'quiet', accountEmail: string, at: Date): PlannedNotification[] {
  const planned: PlannedNotification[] = [];
  const seen = new Set<string>();
  for (const rule of [...rules].sort((a, b) => a.position - b.position)) {
    if (rule.notification_type !== type) continue;
    const due_at = new Date(at.getTime() + Math.max(0, rule.delay) * MINUTE);
    const channels: [string, PlannedNotification['channel'], string | null, string | null][] = [
      ['email', 'email', rule.email, rule.email_id],
      ['sms', 'sms', rule.sms, rule.sms_id],
      ['call', 'voice', rule.call, rule.call_id],
    ];
    for (const [contactType, channel, address, id] of channels) {
      if (!rule.enabled_contact_types.includes(contactType) || !address) continue;
      const key = `${channel}:${address}:${due_at.getTime()}`;
      if (seen.has(key)) continue;
      seen.add(key);
      planned.push({ channel, address, contact_method_id: id, due_at });
    }
  }
  return planned.length ? planned : [{ channel: 'email', address: accountEmail, contact_method_id: null, due_at: at }];
}

import {
  escalationPosition,
  isLate,
  plannedNotifications,
  startPosition,
  stepAt,
  type StepPlan,
  type UserRule,
} from '../../src/domain/paging/paging-steps.js';
import type { EscalationLevelPlan } from '../../src/domain/paging/paging.ports.js';

const at = new Date('2026-11-26T10:00:00Z');
const minutes = (n: number) => new Date(at.getTime() + n * 60_000);
const level = (position: number, delay: number): EscalationLevelPlan => ({
  id: `level-${position}`,
  position,
  delay,
  paging_strategy: 'default',
  schedule_strategy: 'on_call_only',
  targets: [{ type: 'user', id: String(position) }],
});
const plan = (repeat_count: number, initial_delay = 0): StepPlan => ({ levels: [level(1, 5), level(2, 10)], repeat_count, initial_delay });

describe('paging steps', () => {
  it('starts at level 1 after the initial delay', () => {
    expect(startPosition(plan(0), at)).toEqual({ position: { level_index: 0, round: 0 }, due_at: at });
    expect(startPosition(plan(0, 3), at).due_at).toEqual(minutes(3));
  });

  it('pages each level, the next due after its delay from when it paged, then ends', () => {
    const first = stepAt(plan(0), { level_index: 0, round: 0 }, at);
    expect(first).toMatchObject({ kind: 'page', level_number: 1, next: { level_index: 1, round: 0 }, next_at: minutes(5) });
    const second = stepAt(plan(0), { level_index: 1, round: 0 }, minutes(5));
    expect(second).toMatchObject({ kind: 'page', level_number: 2, next: { level_index: 2, round: 0 }, next_at: minutes(15) });
    expect(stepAt(plan(0), { level_index: 2, round: 0 }, minutes(15))).toEqual({ kind: 'end', rounds: 1 });
  });

  it('repeats the path repeat_count more times after its last level', () => {
    expect(stepAt(plan(2), { level_index: 1, round: 0 }, at)).toMatchObject({ kind: 'page', next: { level_index: 0, round: 1 } });
    expect(stepAt(plan(2), { level_index: 1, round: 1 }, at)).toMatchObject({ kind: 'page', next: { level_index: 0, round: 2 } });
    expect(stepAt(plan(2), { level_index: 1, round: 2 }, at)).toMatchObject({ kind: 'page', next: { level_index: 2, round: 2 } });
    expect(stepAt(plan(2), { level_index: 2, round: 2 }, at)).toEqual({ kind: 'end', rounds: 3 });
  });

  it('ends a path without levels at once', () => {
    expect(stepAt({ levels: [], repeat_count: 3, initial_delay: 0 }, { level_index: 0, round: 0 }, at)).toEqual({ kind: 'end', rounds: 1 });
  });

  it('times a late step from when it fired, not when it was due', () => {
    const fired = stepAt(plan(0), { level_index: 0, round: 0 }, minutes(600));
    expect(fired).toMatchObject({ next_at: minutes(605) });
    expect(isLate(at, minutes(600), 60_000)).toBe(true);
    expect(isLate(at, new Date(at.getTime() + 59_000), 60_000)).toBe(false);
  });

  it('escalates to the level asked for, else the next one; a level past the path is refused', () => {
    expect(escalationPosition(plan(0), { level_index: 1, round: 0 })).toEqual({ level_index: 1, round: 0 });
    expect(escalationPosition(plan(0), { level_index: 2, round: 0 })).toEqual({ level_index: 0, round: 1 });
    expect(escalationPosition(plan(0), { level_index: 0, round: 0 }, 2)).toEqual({ level_index: 1, round: 0 });
    expect(escalationPosition(plan(0), { level_index: 0, round: 0 }, 3)).toBeNull();
    expect(escalationPosition(plan(0), { level_index: 0, round: 0 }, 0)).toBeNull();
  });
});

const rule = (overrides: Partial<UserRule>): UserRule => ({
  id: 'r',
  delay: 0,
  position: 1,
  notification_type: 'audible',
  enabled_contact_types: ['email'],
  email: 'ada@example.com',
  email_id: 'e1',
  sms: null,
  sms_id: null,
  call: null,
  call_id: null,
  ...overrides,
});

describe('planned notifications', () => {
  it('follows the rules of the page type: each enabled channel with an address, at its delay', () => {
    const rules = [
      rule({
        id: 'a',
        position: 2,
        delay: 5,
        enabled_contact_types: ['sms', 'call', 'slack'],
        sms: '+15550001',
        sms_id: 'p1',
        call: '+15550001',
        call_id: 'p1',
      }),
      rule({ id: 'b', position: 1 }),
      rule({ id: 'c', notification_type: 'quiet', email: 'quiet@example.com' }),
    ];
    expect(plannedNotifications(rules, 'audible', 'account@example.com', at)).toEqual([
      { channel: 'email', address: 'ada@example.com', contact_method_id: 'e1', due_at: at },
      { channel: 'sms', address: '+15550001', contact_method_id: 'p1', due_at: minutes(5) },
      { channel: 'voice', address: '+15550001', contact_method_id: 'p1', due_at: minutes(5) },
    ]);
    expect(plannedNotifications(rules, 'quiet', 'account@example.com', at)).toEqual([
      { channel: 'email', address: 'quiet@example.com', contact_method_id: 'e1', due_at: at },
    ]);
  });

  it('falls back to the account email at once without a rule that reaches anything', () => {
    const fallback = [{ channel: 'email', address: 'account@example.com', contact_method_id: null, due_at: at }];
    expect(plannedNotifications([], 'audible', 'account@example.com', at)).toEqual(fallback);
    expect(plannedNotifications([rule({ enabled_contact_types: ['sms'] })], 'audible', 'account@example.com', at)).toEqual(fallback);
  });
});

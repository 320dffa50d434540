import { randomUUID } from 'node:crypto';
import { retriggerTimer } from '../src/domain/alerts-in/alert-retrigger.js';

const urgency = randomUUID();
const at = new Date('2026-11-25T10:00:00Z');
const rule = (position: number, timeout: number | null, conditions: Record<string, unknown>[] = []) => ({
  id: randomUUID(),
  position,
  created_at: new Date('2026-01-01T00:00:00Z'),
  match_mode: 'match-all-rules',
  timeout_minutes: timeout,
  conditions: conditions.map((c) => ({ id: randomUUID(), record_ids: [], values: [], property_field_name: null, ...c })),
});
const forUrgency = { kind: 'urgency', operator: 'is_one_of', record_ids: [urgency] };

describe('retriggerTimer', () => {
  it('takes the first matching rule in position order: its timeout after the acknowledgment', () => {
    const high = rule(2, 30, [forUrgency]);
    const later = rule(5, 10);
    expect(retriggerTimer([later, high], { alert_urgency_id: urgency }, at)).toEqual({
      at: new Date('2026-11-25T10:30:00Z'),
      rule_id: high.id,
    });
    expect(retriggerTimer([later, high], { alert_urgency_id: null }, at)).toEqual({
      at: new Date('2026-11-25T10:10:00Z'),
      rule_id: later.id,
    });
  });

  it('sets none without a matching rule or when the deciding rule says never', () => {
    expect(retriggerTimer([rule(1, 30, [forUrgency])], { alert_urgency_id: null }, at)).toBeNull();
    expect(retriggerTimer([rule(1, null, [forUrgency]), rule(2, 30)], { alert_urgency_id: urgency }, at)).toBeNull();
    expect(retriggerTimer([], {}, at)).toBeNull();
  });
});

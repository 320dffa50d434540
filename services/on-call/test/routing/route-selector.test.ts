import fc from 'fast-check';
import { evaluationBudget, type AlertInput } from '../../src/domain/matching/index.js';
import type { AlertDestination } from '../../src/domain/paging/paging.ports.js';
import type { RouteCondition } from '../../src/domain/routing/routing.conditions.js';
import {
  decideRoute,
  type AlertRouteRecord,
  type LegacyRuleRecord,
  type RouteRuleRecord,
} from '../../src/domain/routing/route-selector.js';

const SOURCE = '6f1c2a3b-0000-4000-8000-000000000001';
const OTHER = '6f1c2a3b-0000-4000-8000-000000000002';
const HIGH = '6f1c2a3b-0000-4000-8000-0000000000aa';

const to = (n: number): AlertDestination => ({
  target_type: 'Service',
  target_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
});

let ids = 0;
const cond = (over: Partial<RouteCondition> = {}): RouteCondition => ({
  id: `c${ids++}`,
  property_field_type: 'attribute',
  property_field_condition_type: 'contains',
  property_field_name: 'summary',
  property_field_value: null,
  property_field_values: [],
  alert_urgency_ids: null,
  conditionable_type: null,
  conditionable_id: null,
  ...over,
});
const contains = (text: string) => cond({ property_field_values: [text] });

const rule = (
  name: string,
  position: number,
  groups: RouteCondition[][],
  destination = to(position),
  fallback = false,
): RouteRuleRecord => ({
  id: `r-${name}`,
  name,
  position,
  fallback_rule: fallback,
  destinations: [destination],
  condition_groups: groups.map((conditions) => ({ conditions })),
});

const route = (name: string, rules: RouteRuleRecord[], over: Partial<AlertRouteRecord> = {}): AlertRouteRecord => ({
  id: `route-${name}`,
  name,
  enabled: true,
  alerts_source_ids: [SOURCE],
  created_at: '2026-11-01T00:00:00.000Z',
  rules,
  ...over,
});

const legacy = (name: string, position: number, over: Partial<LegacyRuleRecord> = {}): LegacyRuleRecord => ({
  id: `legacy-${name}`,
  name,
  enabled: true,
  alerts_source_id: SOURCE,
  position,
  created_at: '2026-11-01T00:00:00.000Z',
  condition_type: 'all',
  conditions: [],
  destination: to(100 + position),
  ...over,
});

const alert = (over: AlertInput = {}): AlertInput => ({ source_id: SOURCE, summary: 'disk full on db-1', ...over });

describe('decideRoute', () => {
  it('takes the first rule by position whose condition groups hold, and names route and rule', () => {
    const r = route('db', [
      rule('late', 5, [[contains('disk')]]),
      rule('early', 2, [[contains('nope')], [contains('db-1'), contains('full')]]),
    ]);
    expect(decideRoute(alert(), [r], [])).toEqual({
      destinations: [to(2)],
      route: { id: 'route-db', name: 'db', kind: 'alert_route' },
      rule: { name: 'early', position: 2, fallback: false },
    });
  });

  it('needs every condition of one group, any group of a rule', () => {
    const r = route('db', [rule('both', 1, [[contains('disk'), contains('cpu')]])]);
    expect(decideRoute(alert(), [r], []).route).toBeNull();
    const either = route('db', [rule('either', 1, [[contains('cpu')], [contains('disk')]])]);
    expect(decideRoute(alert(), [either], []).rule?.name).toBe('either');
  });

  it("falls back to the route's fallback rule, then to the next route, then to the legacy rules", () => {
    const withFallback = route('a', [rule('cpu', 1, [[contains('cpu')]]), rule('rest', 0, [], to(9), true)]);
    expect(decideRoute(alert(), [withFallback], [])).toMatchObject({ destinations: [to(9)], rule: { name: 'rest', fallback: true } });
    const without = route('b', [rule('cpu', 1, [[contains('cpu')]])], { created_at: '2026-10-01T00:00:00.000Z' });
    // The older route without a fallback is tried first and passes the alert on.
    expect(decideRoute(alert(), [withFallback, without], []).route?.name).toBe('a');
    expect(decideRoute(alert(), [without], [legacy('x', 1, { conditions: [] })])).toMatchObject({
      destinations: [to(101)],
      route: { id: 'legacy-x', kind: 'alert_routing_rule' },
      rule: { name: 'x', position: 1, fallback: false },
    });
  });

  it('orders routes by creation, skipping disabled ones and those of other sources', () => {
    const older = route('older', [rule('any', 1, [])], { created_at: '2026-10-01T00:00:00.000Z' });
    const newer = route('newer', [rule('any', 1, [])]);
    expect(decideRoute(alert(), [newer, older], []).route?.name).toBe('older');
    expect(decideRoute(alert(), [newer, { ...older, enabled: false }], []).route?.name).toBe('newer');
    expect(decideRoute(alert(), [newer, { ...older, alerts_source_ids: [OTHER] }], []).route?.name).toBe('newer');
    expect(decideRoute(alert({ source_id: OTHER }), [newer, older], [])).toEqual({ destinations: [], route: null, rule: null });
    expect(decideRoute(alert({ source_id: null }), [newer], [legacy('x', 0)]).route).toBeNull();
  });

  it('tries legacy rules by position with all/any, of the source only and enabled', () => {
    const conditions = [
      {
        property_field_type: 'attribute',
        property_field_name: 'summary',
        property_field_condition_type: 'contains',
        property_field_value: 'disk',
        property_field_values: [],
      },
      {
        property_field_type: 'payload',
        property_field_name: '$.labels.severity',
        property_field_condition_type: 'is_one_of',
        property_field_value: null,
        property_field_values: ['critical'],
      },
    ] as LegacyRuleRecord['conditions'];
    const all = legacy('all', 1, { conditions });
    const any = legacy('any', 2, { conditions, condition_type: 'any' });
    expect(decideRoute(alert(), [], [any, all]).rule?.name).toBe('any');
    expect(decideRoute(alert({ payload: { labels: { severity: 'critical' } } }), [], [any, all]).rule?.name).toBe('all');
    expect(decideRoute(alert(), [], [{ ...any, enabled: false }, all]).route).toBeNull();
    expect(decideRoute(alert(), [], [{ ...any, alerts_source_id: OTHER }]).route).toBeNull();
  });

  it('matches urgencies by id and payload paths, with the alert_urgency attribute and is_empty', () => {
    const urgent = cond({ property_field_name: 'alert_urgency', property_field_condition_type: 'is_one_of', alert_urgency_ids: [HIGH] });
    const noRunbook = cond({ property_field_type: 'payload', property_field_name: '$.runbook', property_field_condition_type: 'is_empty' });
    const r = route('u', [rule('urgent', 1, [[urgent]]), rule('no runbook', 2, [[noRunbook]])]);
    expect(decideRoute(alert({ urgency_id: HIGH.toUpperCase() }), [r], []).rule?.name).toBe('urgent');
    expect(decideRoute(alert({ payload: {} }), [r], []).rule?.name).toBe('no runbook');
    expect(decideRoute(alert({ payload: { runbook: 'https://x' } }), [r], []).route).toBeNull();
  });

  it('sends an alert too costly to judge to the fallback rule instead of throwing', () => {
    const regex = cond({ property_field_condition_type: 'matches_regex', property_field_values: ['x'] });
    const r = route('costly', [rule('regex', 1, [[regex]]), rule('rest', 0, [], to(7), true)]);
    const spent = evaluationBudget(1);
    expect(decideRoute(alert({ summary: 'y'.repeat(10_000) }), [r], [legacy('never', 0)], spent)).toMatchObject({
      rule: { name: 'rest', fallback: true },
    });
  });

  it('property: a rule holds exactly when every condition of one of its groups holds', () => {
    const arbGroups = fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 5 }), { maxLength: 3 }), { maxLength: 3 });
    fc.assert(
      fc.property(arbGroups, fc.uniqueArray(fc.integer({ min: 0, max: 5 }), { maxLength: 6 }), (groups, present) => {
        const r = route('p', [
          rule(
            'only',
            1,
            groups.map((keys) => keys.map((k) => contains(`[k${k}]`))),
          ),
        ]);
        const summary = present.map((k) => `[k${k}]`).join(' ');
        // No groups: every alert; a group without conditions always holds.
        const expected = groups.length === 0 || groups.some((keys) => keys.every((k) => present.includes(k)));
        expect(decideRoute(alert({ summary }), [r], []).route !== null).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('property: the decision is the first of the candidates, in order, whose rule holds', () => {
    // Each route has rules matching "k<n>" in its summary; the expected winner is computed independently.
    const arbRoute = fc.record({
      created: fc.integer({ min: 0, max: 50 }),
      enabled: fc.boolean(),
      mine: fc.boolean(),
      keys: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { maxLength: 3 }),
      fallback: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(arbRoute, { maxLength: 6 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { maxLength: 4 }),
        (specs, present) => {
          const summary = present.map((k) => `[k${k}]`).join(' ');
          const routes = specs.map((s, i) =>
            route(
              `r${i}`,
              [
                ...s.keys.map((k, j) => rule(`k${k}`, j, [[contains(`[k${k}]`)]], to(k))),
                ...(s.fallback ? [rule('fallback', 99, [], to(1000 + i), true)] : []),
              ],
              {
                id: `route-${String(i).padStart(2, '0')}`,
                enabled: s.enabled,
                alerts_source_ids: s.mine ? [SOURCE] : [OTHER],
                created_at: `2026-11-01T00:00:${String(s.created).padStart(2, '0')}.000Z`,
              },
            ),
          );
          const order = specs
            .map((s, i) => ({ s, i }))
            .filter(({ s }) => s.enabled && s.mine)
            .sort((a, b) => a.s.created - b.s.created || a.i - b.i);
          let expected: string | null = null;
          for (const { s, i } of order) {
            const hit = s.keys.find((k) => present.includes(k));
            if (hit !== undefined) expected = `r${i}/k${hit}`;
            else if (s.fallback) expected = `r${i}/fallback`;
            if (expected) break;
          }
          const decision = decideRoute(alert({ summary }), routes, []);
          expect(decision.route ? `${decision.route.name}/${decision.rule?.name}` : null).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

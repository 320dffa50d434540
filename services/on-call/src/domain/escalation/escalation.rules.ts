import type { ValidationIssue } from '@firewatch/errors';
import type { HookContext, Row } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import type { LevelTarget } from '../paging/paging.ports.js';
import { jsonPathIssue, regexIssue } from '../matching/index.js';
import type { TargetType } from '../targets/targets.deps.js';
import { escalationCycle, type EscalationGraph } from './escalation-cycles.js';
import type { PathRule } from './escalation.fields.js';

type Ctx = HookContext<OnCallResourceDeps>;

/** Ids the read models key by UUID: anything else names nothing there (and would not fit the column). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const invalidReference = (pointer: string, detail: string): ValidationIssue => ({ pointer, code: 'invalid_reference', detail });

/**
 * A 422 for each id that is no live team (`Group`) or service of the caller's team in the
 * targets read model (auth's and incident-config's events). `pointer(i)` is where entry i sits.
 */
export async function knownTargetIssues(
  ctx: Ctx,
  entries: readonly { id: string; pointer: string }[],
  type: Extract<TargetType, 'Group' | 'Service'>,
): Promise<ValidationIssue[]> {
  if (!entries.length) return [];
  const known = await ctx.deps.targets.typesOf(
    ctx.tx,
    ctx.principal.team_id,
    entries.map((e) => e.id).filter((id) => UUID.test(id)),
  );
  const noun = type === 'Group' ? 'team' : 'service';
  return entries
    .filter((e) => !known.get(e.id)?.includes(type))
    .map((e) => invalidReference(e.pointer, `No ${noun} with id "${e.id}" is known in this team.`));
}

/**
 * A 422 at `/data/attributes/notification_target_params/<i>/id` for each target that is
 * no user, schedule, team or service of the caller's team. Targets among `kept` (the
 * level's own, on an update) are not judged again: one deleted since stays, and pages
 * nobody, as a policy's teams do. Chat channels are stored as sent: no chat integration
 * pages them (docs/paging.md).
 */
export async function levelTargetIssues(
  ctx: Ctx,
  targets: readonly LevelTarget[],
  kept: readonly LevelTarget[] = [],
): Promise<ValidationIssue[]> {
  const at = (i: number) => `/data/attributes/notification_target_params/${i}/id`;
  const indexed = targets.map((t, i) => ({ ...t, pointer: at(i) })).filter((t) => !kept.some((k) => k.type === t.type && k.id === t.id));
  const of = (type: LevelTarget['type']) => indexed.filter((t) => t.type === type);
  const issues: ValidationIssue[] = [];
  const users = of('user');
  const numeric = users.filter((u) => /^[1-9]\d{0,9}$/.test(u.id));
  const live = await ctx.deps.users.existing(ctx.tx, ctx.principal.team_id, [...new Set(numeric.map((u) => Number(u.id)))]);
  for (const u of users) if (!live.has(Number(u.id))) issues.push(invalidReference(u.pointer, `${u.id} is not a user of this team.`));
  const schedules = of('schedule');
  const uuidShaped = schedules.filter((s) => UUID.test(s.id)).map((s) => s.id);
  const visible = uuidShaped.length ? await ctx.visibleIds('schedules', uuidShaped) : new Set<string>();
  for (const s of schedules)
    if (!visible.has(s.id)) issues.push(invalidReference(s.pointer, `No schedule with id "${s.id}" in this team.`));
  issues.push(...(await knownTargetIssues(ctx, of('team'), 'Group')), ...(await knownTargetIssues(ctx, of('service'), 'Service')));
  return issues.sort((a, b) => a.pointer.localeCompare(b.pointer, 'en', { numeric: true }));
}

/** How the merged record's deferral settings fit together (the reference: deferral paths say what follows them). */
export async function deferralIssues(merged: Row, ctx: Ctx): Promise<ValidationIssue[]> {
  const issues: ValidationIssue[] = [];
  const at = (attribute: string, detail: string) => issues.push({ pointer: `/data/attributes/${attribute}`, code: 'invalid', detail });
  if (merged.path_type === 'deferral' && !merged.after_deferral_behavior)
    at('after_deferral_behavior', 'A deferral path says what follows it: re_evaluate or execute_path.');
  if (merged.after_deferral_behavior === 'execute_path' && !merged.after_deferral_path_id)
    at('after_deferral_path_id', 'execute_path needs the path to execute after this deferral path.');
  if (merged.is_default && merged.path_type === 'deferral') at('path_type', 'The default path cannot be a deferral path.');
  const next = merged.after_deferral_path_id as string | null | undefined;
  if (next) {
    if (next === merged.id) at('after_deferral_path_id', 'A deferral path cannot execute itself.');
    else if (!(await ctx.deps.escalation.pathsOf(ctx.tx, ctx.principal.team_id, String(merged.escalation_policy_id), [next])).has(next))
      at('after_deferral_path_id', `No path with id "${next}" in this escalation policy.`);
  }
  return issues;
}

const PATTERN_OPERATORS = new Set(['matches', 'does_not_match']);

/** What a path's rules name must exist in the team, and their paths and patterns must be safe to evaluate. */
export async function pathRuleIssues(ctx: Ctx, rules: readonly PathRule[]): Promise<ValidationIssue[]> {
  const issues: ValidationIssue[] = [];
  const at = (i: number, field: string) => `/data/attributes/rules/${i}/${field}`;
  const services: { id: string; pointer: string }[] = [];
  for (const [i, rule] of rules.entries()) {
    if (rule.rule_type === 'alert_urgency') {
      const known = await ctx.deps.urgencies.existingIds(ctx.tx, ctx.principal.team_id, rule.urgency_ids);
      for (const [j, id] of rule.urgency_ids.entries())
        if (!known.has(id)) issues.push(invalidReference(at(i, `urgency_ids/${j}`), `No alert urgency with id "${id}" in this team.`));
    } else if (rule.rule_type === 'service') {
      services.push(...rule.service_ids.map((id, j) => ({ id, pointer: at(i, `service_ids/${j}`) })));
    } else if (rule.rule_type === 'json_path') {
      const problem = jsonPathIssue(rule.json_path);
      if (problem) issues.push({ pointer: at(i, 'json_path'), code: 'invalid', detail: `json_path ${problem}.` });
    }
    if ('operator' in rule && PATTERN_OPERATORS.has(rule.operator)) {
      const listed = 'values' in rule ? (rule.values ?? []) : [];
      const patterns = rule.rule_type === 'json_path' && rule.value ? [rule.value, ...listed] : listed;
      for (const pattern of patterns) {
        const problem = regexIssue(pattern);
        if (problem) issues.push({ pointer: at(i, 'values'), code: 'invalid', detail: `${pattern.slice(0, 100)}: ${problem}` });
      }
    }
  }
  return [...issues, ...(await knownTargetIssues(ctx, services, 'Service'))];
}

/** A 422 at `pointer` when the graph, as the write would leave it, pages `policyId` again through escalating teams or services. */
export function cycleIssues(graph: EscalationGraph, policyId: string, pointer: string): ValidationIssue[] {
  const cycle = escalationCycle(graph, policyId);
  if (!cycle) return [];
  return [
    {
      pointer,
      code: 'escalation_cycle',
      detail: `This would make escalation policy ${policyId} page itself through escalating team or service targets: ${cycle.join(' → ')}.`,
    },
  ];
}

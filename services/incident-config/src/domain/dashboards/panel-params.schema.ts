import { z } from 'zod';

/** The reference's panel enums (the reference's `dashboard_panel.params`). */
export const PANEL_DISPLAYS = [
  'line_chart',
  'line_stepped_chart',
  'column_chart',
  'stacked_column_chart',
  'monitoring_chart',
  'pie_chart',
  'table',
  'aggregate_value',
] as const;
export const PANEL_COLLECTIONS = ['alerts', 'incidents', 'incident_post_mortems', 'incident_action_items', 'users'] as const;
const CONDITIONS = ['=', '!=', '>=', '<=', 'exists', 'not_exists', 'contains', 'not_contains', 'assigned', 'unassigned'] as const;

const text = z.string().max(1_000);
const andOr = z.enum(['and', 'or']);

const rule = z.strictObject({ operation: andOr, condition: z.enum(CONDITIONS), key: text, value: text }).partial();
const filter = z.strictObject({ operation: andOr, rules: z.array(rule).max(50) }).partial();

const dataset = z
  .strictObject({
    name: text.nullable(),
    collection: z.enum(PANEL_COLLECTIONS),
    filter: z.array(filter).max(20),
    group_by: z.union([text, z.strictObject({ key: z.enum(['custom_field', 'incident_role', 'alert_field']), value: text })]).nullable(),
    aggregate: z
      .strictObject({ operation: z.enum(['count', 'sum', 'average']), key: text.nullable(), cumulative: z.boolean().nullable() })
      .partial()
      .nullable(),
  })
  .partial();

/** What a panel shows and from which records; every member optional, as in the reference. */
export const panelParams = z
  .strictObject({
    display: z.enum(PANEL_DISPLAYS),
    description: z.string().max(10_000),
    table_fields: z.array(text).max(100),
    legend: z.strictObject({ groups: z.enum(['all', 'charted']) }).partial(),
    datalabels: z.strictObject({ enabled: z.boolean() }).partial(),
    datasets: z.array(dataset).max(20),
  })
  .partial();

/** Where the panel sits on its dashboard's grid. */
export const panelPosition = z
  .strictObject({
    x: z.number().min(0).max(10_000),
    y: z.number().min(0).max(10_000),
    w: z.number().min(0).max(10_000),
    h: z.number().min(0).max(10_000),
  })
  .nullable();

import { z } from 'zod';
import { defineAction, defineResource, type Row } from '@firewatch/resource-kit';
import type { DashboardsDeps } from './dashboard-stores.js';
import { panelParams, panelPosition } from './panel-params.schema.js';

const writable = { name: z.string().max(255).nullable(), params: panelParams, position: panelPosition };

/** `POST /v1/dashboard_panels/{id}/duplicate`: a copy on the same dashboard, for those who may change it. */
const duplicatePanel = defineAction<DashboardsDeps>({
  name: 'duplicate',
  on: 'item',
  // Not `read`: writing a panel asks the dashboard's update visibility (the kit's parent check).
  capabilities: ['create'],
  response: { status: 201, description: 'The copy' },
  summary: 'Duplicate a dashboard panel',
  async run({ record, resource }) {
    const { name, params, position, dashboard_id } = record as Row;
    const copy = await resource.create({ name: typeof name === 'string' ? `${name} (copy)` : null, params, position, dashboard_id });
    return { status: 201, document: { data: copy } };
  },
});

/**
 * Dashboard panels (docs/api-contract.md §1): listed and created under their dashboard, read and
 * changed at `/v1/dashboard_panels/{id}`. They follow their dashboard through the kit's
 * parent checks: hidden with it (404), and changed, added or removed only by those who
 * may update it (403 `not_granted` otherwise).
 * `data` (the computed series) is not computed by this service and is always empty.
 */
export const dashboardPanels = defineResource<DashboardsDeps>({
  type: 'dashboard_panels',
  path: '/v1/dashboard_panels',
  collections: [{ path: '/v1/dashboards/{dashboard_id}/panels' }],
  parent: { resource: 'dashboards', param: 'dashboard_id', column: 'dashboard_id' },
  table: 'dashboard_panels',
  limit: { max: 100, per: 'dashboard_id', detail: 'A dashboard holds at most {max} panels.' },
  event: 'dashboard_panel',
  permission: { scope: null, side: 'ir' },
  summary: { singular: 'dashboard panel', plural: 'dashboard panels' },
  create: z.strictObject(writable).partial().required({ params: true }),
  update: z.strictObject(writable).partial(),
  attributes: ['dashboard_id', 'name', 'params', 'position', 'data'],
  // The reference's panels answer no timestamps; the table keeps them for the panels' order.
  timestamps: false,
  jsonColumns: ['params', 'position'],
  computed: { data: () => [] },
  attributeSchemas: {
    dashboard_id: { type: 'string', description: 'The panel dashboard' },
    data: { type: 'array', items: { type: 'object' }, description: 'Always empty: panel data is not computed by this service.' },
  },
  updateMethods: ['put'],
  actions: [duplicatePanel],
});

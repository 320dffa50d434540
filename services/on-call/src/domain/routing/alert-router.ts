import type { Row, Transaction } from '@firewatch/resource-kit';
import { alertInputOf } from '../alerts-in/alert-input.js';
import type { AlertRouter, DestinationType } from '../paging/paging.ports.js';
import { decideRoute, type AlertRouteRecord, type LegacyRuleRecord } from './route-selector.js';

/** What routing reads (data/alert-routing.repository.ts). */
export interface RoutingStore {
  /**
   * The team's enabled alert routes listing the source, each with its rules, and its
   * enabled legacy alert routing rules of the source, each with its conditions in position order.
   */
  routing(tx: Transaction, teamId: number, sourceId: string): Promise<{ routes: AlertRouteRecord[]; legacy: LegacyRuleRecord[] }>;
}

/**
 * The `AlertRouter` the paging engine asks where an alert goes (docs/paging.md, "Alert
 * routing"): the team's routes and legacy rules of the alert's source, read in the
 * caller's transaction and judged by the pure engine (route-selector.ts). An alert that
 * names its own notification target goes there, unrouted; one without a source goes nowhere.
 */
export function createAlertRouter(store: RoutingStore): AlertRouter {
  // Read once per transaction, team and source: a payload of many alerts would otherwise read them once per alert.
  const read = new WeakMap<Transaction, Map<string, ReturnType<RoutingStore['routing']>>>();
  function routingOf(tx: Transaction, teamId: number, sourceId: string) {
    const bySource = read.get(tx) ?? new Map<string, ReturnType<RoutingStore['routing']>>();
    read.set(tx, bySource);
    const key = `${teamId}:${sourceId.toLowerCase()}`;
    const routing = bySource.get(key) ?? store.routing(tx, teamId, sourceId);
    bySource.set(key, routing);
    return routing;
  }

  return {
    async route(tx: Transaction, teamId: number, alert: Row) {
      const type = alert.notification_target_type as DestinationType | null | undefined;
      const target = alert.notification_target_id as string | null | undefined;
      if (type && target) return { destinations: [{ target_type: type, target_id: target }], route: null, rule: null };
      const source = alert.alert_source_id as string | null | undefined;
      if (!source) return { destinations: [], route: null, rule: null };
      const { routes, legacy } = await routingOf(tx, teamId, source);
      return decideRoute(alertInputOf(alert), routes, legacy);
    },
  };
}

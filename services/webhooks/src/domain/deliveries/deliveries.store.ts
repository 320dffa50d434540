import type { ListPage } from '@firewatch/db';
import type { Page } from '@firewatch/jsonapi';

export type DeliveryRow = Record<string, unknown> & { id: string; endpoint_id: string; team_id: number };
export type AttemptRow = Record<string, unknown> & { id: string; delivery_id: string };

export interface DeliveryListQuery {
  page: Page;
  status?: string[];
  direction: 'asc' | 'desc';
}

/** The API's reads and writes of deliveries; every query is bound to a team. */
export interface DeliveriesRepository {
  listByEndpoint(teamId: number, endpointId: string, query: DeliveryListQuery): Promise<ListPage<DeliveryRow>>;
  find(teamId: number, id: string): Promise<DeliveryRow | undefined>;
  /** A page of one delivery's attempts, in attempt order. */
  attempts(deliveryId: string, page: Page): Promise<ListPage<AttemptRow>>;
  /** At most the `perDelivery` latest attempts of each delivery, oldest first within each. */
  latestAttempts(deliveryIds: string[], perDelivery: number): Promise<AttemptRow[]>;
  /**
   * Makes the delivery due now on a fresh retry ladder, marked as a manual attempt.
   * `precondition` sees the row locked first and may throw to change nothing.
   */
  scheduleNow(teamId: number, id: string, precondition?: (current: DeliveryRow) => void): Promise<DeliveryRow | undefined>;
  endpointEnabled(teamId: number, endpointId: string): Promise<boolean>;
}

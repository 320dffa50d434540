import type { Row, Transaction } from '@firewatch/resource-kit';
import type { DashboardAccessDeps } from './dashboard-access.js';

/** Panel reads and copies the dashboards declaration and its actions need; the data layer implements it. */
export interface DashboardPanelsStore {
  /** Copies every panel of one dashboard of the team onto another, in their order. */
  copy(tx: Transaction, teamId: number, fromDashboardId: string, toDashboardId: string): Promise<void>;
  /** The panels of these dashboards of the team, oldest first (for `include=panels`). */
  of(teamId: number, dashboardIds: readonly string[]): Promise<Row[]>;
}

/** Each user's default dashboard; the data layer implements it. */
export interface DashboardDefaultsStore {
  /** Makes the dashboard this user's default in the team, replacing any other. */
  set(tx: Transaction, teamId: number, userId: number, dashboardId: string): Promise<void>;
}

/** What the dashboards, panels and authorizations declarations need in their `deps`. */
export interface DashboardsDeps extends DashboardAccessDeps {
  dashboardPanels: DashboardPanelsStore;
  dashboardDefaults: DashboardDefaultsStore;
}

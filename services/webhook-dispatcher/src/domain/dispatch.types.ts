import type { StoredCustomHeader } from '@firewatch/webhooks/shared';

/** A delivery leased for sending, with what its endpoint needs. */
export interface ClaimedDelivery {
  id: string;
  seq: number;
  team_id: number;
  endpoint_id: string;
  payload: string;
  attempt_count: number;
  failures: number;
  next_trigger: 'scheduled' | 'manual';
  lease_token: string;
  url: string;
  secret_ciphertext: string;
  /** Values sealed (or, before start-up conversion, plain); opened only to send. */
  custom_headers: StoredCustomHeader[];
}

export interface AttemptInsert {
  delivery_id: string;
  attempt_number: number;
  trigger: string;
  url: string;
  status_code: number | null;
  duration_ms: number;
  response_body: string | null;
  error: string | null;
}

export interface DeliveryUpdate {
  id: string;
  lease_token: string;
  status: string;
  next_attempt_at: string | null;
  delivered_at: string | null;
  failures: number;
  last_status_code: number | null;
  last_error: string | null;
}

/** What one endpoint's job did, written atomically (one statement, or a transaction after a failure). */
export interface JobOutcome {
  attempts: AttemptInsert[];
  updates: DeliveryUpdate[];
  /** Claimed but not attempted (after a failure or near the lease end): free again, untouched. */
  released: { id: string; lease_token: string }[];
  endpoint: { id: string; lastSucceeded: boolean | null; gone: boolean; firstFailureAt: string | null };
}

export interface DispatchRepository {
  /** Leases up to `limit` due deliveries for `leaseMs`, in `seq` order. */
  claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]>;
  record(outcome: JobOutcome): Promise<void>;
}

/** Events stored as deliveries by the queue consumer. */
export interface IntakeEvent {
  id: string;
  type: string;
  occurred_at: string;
  team_id: number;
  data: unknown;
}

/** What one intake batch stored. */
export interface StoredDeliveries {
  /** How many deliveries were new. */
  count: number;
  /** The endpoints of those deliveries, each once. */
  endpointIds: string[];
}

export interface IntakeRepository {
  /** Stores one delivery per matching enabled endpoint of each event's team, skipping ones that exist. */
  store(events: IntakeEvent[]): Promise<StoredDeliveries>;
}

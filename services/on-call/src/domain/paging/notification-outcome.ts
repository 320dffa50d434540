import type { Transaction } from '@firewatch/resource-kit';
import type { AlertEventInput } from '../alerts-in/alerts-in.deps.js';
import type { ClaimedAttempt, NotificationAttemptStore } from './paging.deps.js';
import type { NotificationOutcome } from './paging.ports.js';

/** Tries of one attempt, and the wait before each retry (an SMTP or Twilio outage). */
export const MAX_TRIES = 4;
const BACKOFF_MS = [30_000, 120_000, 600_000];

/** When a failed attempt (its `tries`-th) is tried again; null when its tries are spent. */
export function retryAt(tries: number, at: Date): Date | null {
  if (tries >= MAX_TRIES) return null;
  return new Date(at.getTime() + BACKOFF_MS[Math.min(tries - 1, BACKOFF_MS.length - 1)]!);
}

/**
 * The outcome with the address taken out of its reason: a provider's refusal may quote it
 * (an SMTP server's `550 <ada@example.com>: Recipient address rejected`, Twilio's `The 'To'
 * number +14155550100 is not a valid phone number`), and the reason is shown to the team.
 */
export function withoutAddress(outcome: NotificationOutcome, address: string): NotificationOutcome {
  if (!outcome.reason || !address) return outcome;
  const digits = address.replace(/^\+/, '');
  const forms = [address, ...(/^\+?\d{6,}$/.test(address) ? [digits] : [])].map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return { ...outcome, reason: outcome.reason.replace(new RegExp(forms.join('|'), 'gi'), 'the address') };
}

const ACTION: Record<ClaimedAttempt['channel'], AlertEventInput['action']> = { email: 'emailed', sms: 'texted', voice: 'called' };
const NOUN: Record<ClaimedAttempt['channel'], string> = { email: 'Email', sms: 'SMS', voice: 'Call' };

/** One send's result as the job hands it over to be recorded. */
export interface FinishedSend {
  attempt: ClaimedAttempt;
  outcome: NotificationOutcome;
  /** When a failure is tried again (retryAt); null for any other outcome and for a failure out of tries. */
  retry: Date | null;
  at: Date;
}

/**
 * Records the outcomes of `sends` in `tx`: each attempt finished (notification-attempts
 * repository), and for each one finished here its outcome on the alert's timeline (the user
 * paged is the event's user) and as `alert.notification` through the outbox, naming the
 * user, channel and outcome, so a webhook can carry the page to any other channel. Neither
 * shows the address: contact methods are personal data (event-catalog.ts keeps their own
 * events internal). With `skipLocked`, the sends whose rows another transaction holds are
 * left unrecorded and returned, for the caller to record on their own.
 */
export async function recordOutcomes(
  store: NotificationAttemptStore,
  tx: Transaction,
  sends: FinishedSend[],
  options: { skipLocked: boolean },
): Promise<FinishedSend[]> {
  const { finished, busy } = await store.finishAttempts(
    tx,
    sends.map((s) => ({ id: s.attempt.id, outcome: s.outcome, retryAt: s.retry, at: s.at })),
    {
      ...options,
      timeline: (done) => sends.filter((s) => done.has(s.attempt.id)).map((s) => timelineEvent(s, done.get(s.attempt.id)!.retryAt)),
    },
  );
  const recorded = sends.filter((s) => finished.has(s.attempt.id));
  await store.writeEvents(
    tx,
    recorded.map((s) => notificationEvent(s, finished.get(s.attempt.id)!.retryAt)),
  );
  const waiting = new Set(busy);
  return sends.filter((s) => waiting.has(s.attempt.id));
}

function timelineEvent({ attempt, outcome }: FinishedSend, retry: Date | null): AlertEventInput {
  // Contact addresses are personal (only the user and on-call admins read them): the timeline and the event name the method, not the address.
  const via = attempt.contact_method_id ? `contact method ${attempt.contact_method_id}` : 'the account email';
  const to = `${NOUN[attempt.channel]} to ${attempt.user.name} (${via}, try ${attempt.tries})`;
  const result =
    outcome.status === 'sent'
      ? `sent${outcome.provider_id ? ` (${outcome.provider_id})` : ''}`
      : `${outcome.status}${outcome.reason ? `: ${outcome.reason}` : ''}${retry ? `; retrying at ${retry.toISOString()}` : ''}`;
  return {
    team_id: attempt.team_id,
    alert_id: attempt.alert_id,
    kind: 'notification',
    action: outcome.status === 'skipped' ? 'skipped' : ACTION[attempt.channel],
    source: 'paging',
    user_id: attempt.user_id,
    details: `${to}: ${result}.`,
  };
}

function notificationEvent({ attempt, outcome, at }: FinishedSend, retry: Date | null) {
  return {
    type: 'alert.notification',
    team_id: attempt.team_id,
    occurred_at: at,
    data: {
      id: attempt.id,
      type: 'alert_notifications',
      attributes: {
        alert_id: attempt.alert_id,
        alert_short_id: attempt.alert.short_id ?? null,
        alert_summary: attempt.alert.summary ?? null,
        user_id: attempt.user_id,
        user_name: attempt.user.name,
        channel: attempt.channel,
        contact_method_id: attempt.contact_method_id,
        notification_type: attempt.notification_type,
        level_position: attempt.level_position,
        status: outcome.status,
        reason: outcome.reason ?? null,
        provider_id: outcome.provider_id ?? null,
        try: attempt.tries,
        retry_at: retry?.toISOString() ?? null,
      },
    },
  };
}

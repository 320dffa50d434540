import { backoffDelay, cancellableSleep, type BackoffOptions } from './backoff.js';

/** Retries `tryOnce` with back-off until it reports success; see {@link createReconnectLoop}. */
export interface ReconnectLoop {
  /** Starts retrying unless a loop already runs; `delayFirst` waits one back-off step first. */
  schedule(delayFirst: boolean): void;
  /** Ends the loop (cancelling its sleep) and waits for an attempt in progress. */
  stop(): Promise<void>;
}

/**
 * The reconnect policy shared by the broker connection and the LISTEN client.
 * `tryOnce` resolves true when connected and false (never throws) when it should retry.
 * A loss reported while an attempt is finishing is not dropped: the loop runs again.
 */
export function createReconnectLoop(tryOnce: () => Promise<boolean>, backoff?: BackoffOptions): ReconnectLoop {
  let wanted = false;
  let stopped = false;
  let running: Promise<void> | null = null;
  let sleep: ReturnType<typeof cancellableSleep> | null = null;

  async function run(delayFirst: boolean): Promise<void> {
    for (let n = delayFirst ? 1 : 0; wanted && !stopped; n++) {
      if (n > 0) {
        sleep = cancellableSleep(backoffDelay(n, backoff));
        await sleep.done;
        sleep = null;
        if (stopped) return;
      }
      wanted = false;
      if (!(await tryOnce())) wanted = true;
    }
  }

  function schedule(delayFirst: boolean): void {
    if (stopped) return;
    wanted = true;
    if (running) return;
    running = run(delayFirst).finally(() => {
      running = null;
      if (wanted && !stopped) schedule(true);
    });
  }

  return {
    schedule,
    async stop() {
      stopped = true;
      sleep?.cancel();
      await running;
    },
  };
}

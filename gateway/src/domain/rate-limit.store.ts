/** The outcome of counting one request against a sliding-window log. */
export interface RateLimitHit {
  /** This log had room; with several logs the request is counted only when all had. */
  allowed: boolean;
  /** Requests counted in the window, this one included when allowed. */
  used: number;
  /** When the oldest counted request was made (epoch ms); null when the window is empty. */
  oldestMs: number | null;
  /** The store's clock at the time of the hit (epoch ms); Redis's clock for the Redis store. */
  nowMs: number;
}

export interface RateLimitLog {
  key: string;
  limit: number;
}

/**
 * A sliding-window log shared by every replica that uses the same store. `hit` counts the
 * request only when fewer than `limit` requests were accepted in the last `windowMs`, so
 * refused requests never lengthen a client's wait.
 */
export interface RateLimitStore {
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitHit>;
  /**
   * Counts one request against several logs at once (a key's, its user's, its team's):
   * in all of them when every one has room, else in none. One result per log, in order.
   */
  hitAll(logs: readonly RateLimitLog[], windowMs: number): Promise<RateLimitHit[]>;
  /** Rejects when the store cannot serve (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

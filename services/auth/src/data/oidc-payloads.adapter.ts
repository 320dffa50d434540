import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { LiveToken } from '../domain/oauth-token.resolver.js';

const TABLE = 'oidc_payloads';

/**
 * Models whose id is a bearer secret (the token or code itself). Their rows are keyed by
 * SHA-256 of the id and their payload keeps no `jti`, so a reader of the database or a
 * backup finds no usable token (docs/oauth.md, "Tokens at rest"). Sessions and interactions
 * keep their ids: those travel in signed cookies and are useless without the cookie keys;
 * grant and client ids are not secrets.
 */
export const HASHED_MODELS: ReadonlySet<string> = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'ClientCredentials',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PushedAuthorizationRequest',
  'RegistrationAccessToken',
  'InitialAccessToken',
]);

/** The row id under which `id` of `model` is stored. */
export function storedId(model: string, id: string): string {
  return HASHED_MODELS.has(model) ? createHash('sha256').update(id).digest('hex') : id;
}

export interface OidcAdapterOptions {
  /**
   * Seconds a rotated refresh token keeps working after its first use. Inside the
   * window `find` hides `consumed`, so a retried refresh rotates again; after it the
   * provider sees the token consumed, treats the reuse as theft and revokes the grant.
   */
  refreshGraceSeconds: number;
  /** Applied to Client payloads before they are written (hashes the client secret). */
  protectClient?: (payload: AdapterPayload) => AdapterPayload;
}

interface PayloadRow {
  payload: AdapterPayload;
  consumed_age: string | number | null;
}

/**
 * node-oidc-provider's storage contract on PostgreSQL: one instance per model
 * (AccessToken, RefreshToken, Grant, Session, Client, ...), rows keyed by (model, id).
 * Expired rows are invisible at once and deleted later by {@link pruneExpiredPayloads}.
 */
class PgOidcAdapter implements Adapter {
  constructor(
    private readonly knex: Knex,
    private readonly model: string,
    private readonly options: OidcAdapterOptions,
  ) {}

  private get hashed(): boolean {
    return HASHED_MODELS.has(this.model);
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    let stored = this.model === 'Client' && this.options.protectClient ? this.options.protectClient(payload) : payload;
    if (this.hashed) {
      // `find` puts the id back: the caller holds the value it looks up.
      const { jti: _jti, ...rest } = stored;
      stored = rest;
    }
    const row = {
      model: this.model,
      id: storedId(this.model, id),
      payload: JSON.stringify(stored),
      grant_id: payload.grantId ?? null,
      uid: payload.uid ?? null,
      user_code: payload.userCode ?? null,
      expires_at: expiresIn ? this.knex.raw(`now() + make_interval(secs => ?)`, [expiresIn]) : null,
    };
    await this.knex(TABLE).insert(row).onConflict(['model', 'id']).merge(['payload', 'grant_id', 'uid', 'user_code', 'expires_at']);
  }

  private async findWhere(where: Record<string, string>): Promise<AdapterPayload | undefined> {
    const row = await this.knex(TABLE)
      .select<PayloadRow[]>('payload', this.knex.raw('extract(epoch from now() - consumed_at) AS consumed_age'))
      .where({ model: this.model, ...where })
      .andWhere((q) => q.whereNull('expires_at').orWhereRaw('expires_at > now()'))
      .first();
    if (!row) return undefined;
    if (row.consumed_age === null) return row.payload;
    const age = Number(row.consumed_age);
    if (this.model === 'RefreshToken' && age < this.options.refreshGraceSeconds) return row.payload;
    return { ...row.payload, consumed: Math.floor(Date.now() / 1000 - age) };
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const payload = await this.findWhere({ id: storedId(this.model, id) });
    return payload && this.hashed ? { ...payload, jti: id } : payload;
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findWhere({ uid });
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findWhere({ user_code: userCode });
  }

  async consume(id: string): Promise<void> {
    // The first use anchors the grace window; later replays do not extend it.
    await this.knex(TABLE)
      .where({ model: this.model, id: storedId(this.model, id) })
      .update({ consumed_at: this.knex.raw('coalesce(consumed_at, now())') });
  }

  async destroy(id: string): Promise<void> {
    await this.knex(TABLE)
      .where({ model: this.model, id: storedId(this.model, id) })
      .delete();
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.knex(TABLE).where({ model: this.model, grant_id: grantId }).delete();
  }
}

/** The `adapter` option of the provider: a factory called once per model name. */
export function createOidcAdapterFactory(knex: Knex, options: OidcAdapterOptions): (model: string) => Adapter {
  return (model) => new PgOidcAdapter(knex, model, options);
}

/**
 * Gives clients the provider registers (dynamic registration; admin-created applications
 * are written elsewhere) a lifetime of `seconds`, so clients nobody ever authorizes
 * disappear (docs/oauth.md, "Dynamic client registration"). Binding a client to a team at
 * its first authorization clears the expiry (oauth-client-teams.repository.ts).
 */
export function expireUnusedClients(factory: (model: string) => Adapter, seconds: number): (model: string) => Adapter {
  return (model) => {
    const adapter = factory(model);
    if (model !== 'Client' || seconds <= 0) return adapter;
    return {
      upsert: (id, payload, expiresIn) => adapter.upsert(id, payload, expiresIn || seconds),
      find: (id) => adapter.find(id),
      findByUid: (uid) => adapter.findByUid(uid),
      findByUserCode: (code) => adapter.findByUserCode(code),
      consume: (id) => adapter.consume(id),
      destroy: (id) => adapter.destroy(id),
      revokeByGrantId: (grantId) => adapter.revokeByGrantId(grantId),
    };
  };
}

/** Deletes rows that expired more than `graceSeconds` ago, in bounded batches. */
export async function pruneExpiredPayloads(knex: Knex, graceSeconds = 3600, batch = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await knex.raw(
      `DELETE FROM ${TABLE} WHERE ctid IN (
         SELECT ctid FROM ${TABLE} WHERE expires_at < now() - make_interval(secs => ?) LIMIT ?)`,
      [graceSeconds, batch],
    );
    total += deleted.rowCount ?? 0;
    if ((deleted.rowCount ?? 0) < batch) return total;
  }
}

/** The access token (either kind) whose value is `token`, unless expired or revoked. */
export async function findLiveAccessToken(knex: Knex, token: string): Promise<LiveToken | undefined> {
  // Both models hash their ids the same way, so one indexed lookup serves both.
  const row = await knex(TABLE)
    .select<LiveToken[]>('model', 'payload')
    .where({ id: storedId('AccessToken', token) })
    .whereIn('model', ['AccessToken', 'ClientCredentials'])
    .andWhere((q) => q.whereNull('expires_at').orWhereRaw('expires_at > now()'))
    .first();
  return row;
}

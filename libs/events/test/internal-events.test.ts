import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { EVENT_TYPES, INTERNAL_EVENT_TYPES, isEventType, isInternalEventType, outboxMigration, writeEvent } from '../src/index.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase('fw_events_internal');
  await outboxMigration.up(db.knex);
});
afterAll(async () => {
  await db?.drop();
});

describe('internal event types', () => {
  it("are the user events and users' contact methods, kept out of the public catalog", () => {
    const crud = (r: string) => ['created', 'updated', 'deleted'].map((a) => `${r}.${a}`);
    expect(INTERNAL_EVENT_TYPES).toEqual(['user', 'user_email_address', 'user_phone_number', 'user_notification_rule'].flatMap(crud));
    for (const type of INTERNAL_EVENT_TYPES) {
      expect(EVENT_TYPES).not.toContain(type);
      expect(isEventType(type)).toBe(false);
      expect(isInternalEventType(type)).toBe(true);
    }
    expect(isInternalEventType('environment.created')).toBe(false);
    expect(Object.isFrozen(INTERNAL_EVENT_TYPES)).toBe(true);
  });

  it('go through the outbox like public ones; unknown types still throw', async () => {
    const env = await db.knex.transaction((trx) => writeEvent(trx, { type: 'user.deleted', team_id: 3, data: { id: '9', type: 'users' } }));
    expect((await db.knex('outbox').where({ id: env.id }).first()).type).toBe('user.deleted');
    await expect(db.knex.transaction((trx) => writeEvent(trx, { type: 'user.renamed', team_id: 3, data: null }))).rejects.toThrow(
      /Unknown event type/,
    );
  });
});

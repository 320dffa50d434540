import type { Knex } from 'knex';
import { createPrincipalVerifier, PRINCIPAL_HEADER } from '@firewatch/auth';
import { createLogger } from '@firewatch/logger';
import { createServiceApp } from '@firewatch/http';
import {
  createTestDatabase,
  listen,
  signAsGateway,
  TEST_PRINCIPAL_KEYS,
  testPrincipal,
  type Listening,
  type TestDatabase,
} from '@firewatch/testing';
import { createResourceModules, createResourceRegistry, mountResources, type EventWriter } from '../../src/index.js';
import { boards, cards, notes, rules, tags, tallies, templates, type FixtureDeps } from './fixture.resources.js';

export interface KitHarness {
  db: TestDatabase;
  call(
    method: string,
    path: string,
    body?: unknown,
    principal?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; text: string; headers: Headers }>;
  events(): Promise<{ type: string; data: any }[]>;
  /** What the fixtures were handed (`parentLoads` records each loaded parent's lookup). */
  deps: FixtureDeps;
  close(): Promise<void>;
}

async function createTables(knex: Knex): Promise<void> {
  const base = (t: Knex.CreateTableBuilder) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.timestamps(true, true);
  };
  await knex.schema.createTable('boards', (t) => {
    base(t);
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('slug').notNullable();
    t.boolean('is_private').notNullable();
    t.integer('owner_user_id');
    t.jsonb('owner_group_ids').notNullable();
    t.unique(['team_id', 'slug'], { indexName: 'boards_team_id_slug_unique' });
  });
  await knex.schema.createTable('board_grants', (t) => {
    t.uuid('board_id').notNullable().references('boards.id').onDelete('CASCADE');
    t.integer('user_id').notNullable();
    t.boolean('can_edit').notNullable().defaultTo(false);
  });
  await knex.schema.createTable('cards', (t) => {
    base(t);
    t.integer('team_id').notNullable();
    t.uuid('board_id').notNullable().references('boards.id').onDelete('CASCADE');
    t.text('title').notNullable();
  });
  for (const [table, child, key] of [
    ['rules', 'rule_conditions', 'rule_id'],
    ['templates', 'template_stages', 'template_id'],
  ] as const) {
    await knex.schema.createTable(table, (t) => {
      base(t);
      t.integer('team_id').notNullable();
      t.text('name').notNullable();
    });
    await knex.schema.createTable(child, (t) => {
      base(t);
      t.uuid(key).notNullable().references(`${table}.id`).onDelete('CASCADE');
      for (const c of ['field', 'operator', 'name', 'body']) t.text(c);
      t.jsonb('values');
      t.integer('position').notNullable();
      if (child === 'template_stages') t.unique([key, 'name'], { indexName: 'template_stages_template_id_name_unique' });
    });
  }
  await knex.schema.createTable('tags', (t) => {
    base(t);
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('color').notNullable();
  });
  await knex.schema.createTable('notes', (t) => {
    base(t);
    t.integer('team_id').notNullable();
    t.integer('person_id').notNullable();
    t.text('body').notNullable();
  });
  await knex.schema.createTable('test_events', (t) => {
    t.increments('seq');
    t.text('type');
    t.jsonb('data');
  });
}

/** A service over the fixture declarations, on a fresh database; events go to a table inside each transaction. */
export async function startKitHarness(name: string): Promise<KitHarness> {
  const db = await createTestDatabase(name);
  const knex = db.knex as Knex;
  await createTables(knex);
  const writeEvent: EventWriter = async (tx, e) => {
    await tx('test_events').insert({ type: e.type, data: JSON.stringify(e.data) });
  };
  const registry = createResourceRegistry<FixtureDeps>([boards, cards, rules, templates, tags, tallies, notes]);
  const deps: FixtureDeps = { maxPerBoard: 50, label: 'Template', people: [7, 8], parentLoads: [] };
  const modules = createResourceModules(registry, { knex, writeEvent, deps });
  const server: Listening = await listen(
    createServiceApp({
      logger: createLogger({ service: 'kit-test', level: 'silent' }),
      principals: createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience: 'kit-test' }),
      routers: [mountResources(modules)],
    }),
  );
  return {
    db,
    async call(method, path, body, principal = {}, headers = {}) {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          [PRINCIPAL_HEADER]: await signAsGateway(testPrincipal(principal), 'kit-test', method, path),
          ...(body === undefined ? {} : { 'content-type': 'application/vnd.api+json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, text, body: text ? JSON.parse(text) : undefined, headers: res.headers };
    },
    events: async () => (await knex('test_events').orderBy('seq')) as { type: string; data: any }[],
    deps,
    async close() {
      await server.close();
      await db.drop();
    },
  };
}

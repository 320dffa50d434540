import { z } from 'zod';
import { createResourceRegistry, defineResource, type AnyResourceDefinition } from '../src/index.js';
import { boards, cards, tallies } from './support/fixture.resources.js';

const plain = (over: Partial<AnyResourceDefinition>): AnyResourceDefinition =>
  defineResource({
    type: 'plain',
    path: '/v1/plain',
    table: 'plain',
    event: 'plain',
    permission: { scope: null, side: 'ir' },
    create: z.strictObject({ name: z.string() }),
    update: z.strictObject({ name: z.string() }).partial(),
    attributes: ['name'],
    ...over,
  });

describe('a registry of declarations by name', () => {
  it('finds each declaration by its name, the type unless it has one', () => {
    const registry = createResourceRegistry<never>([boards, cards, tallies]);
    expect(registry.get('boards')).toBe(boards);
    expect(registry.get('board_tallies')).toBe(tallies);
    expect(() => registry.get('tallies')).toThrow('no declaration named tallies');
  });

  it('refuses at start-up a parent, a relationship or a cascade naming nothing it holds', () => {
    expect(() => createResourceRegistry<never>([cards])).toThrow('cards: parent names boards, which this service does not declare');
    expect(() =>
      createResourceRegistry([plain({ relationships: { owner: { type: 'owners', column: 'owner_id', resource: 'owners' } } })]),
    ).toThrow('plain: relationships.owner names owners');
    expect(() => createResourceRegistry([plain({ cascades: [{ resource: 'leaves', column: 'plain_id' }] })])).toThrow(
      'plain: cascades names leaves',
    );
  });

  it('refuses two declarations of one name, and a cascade onto a computed resource', () => {
    expect(() => createResourceRegistry([plain({}), plain({})])).toThrow('two declarations are named plain');
    expect(() =>
      createResourceRegistry<never>([
        boards,
        cards,
        tallies,
        plain({ type: 'x', cascades: [{ resource: 'board_tallies', column: 'x_id' }] }),
      ]),
    ).toThrow('x: cascades names board_tallies, which stores nothing');
  });

  it('refuses parents or cascades that go round in a loop, which wiring would follow forever', () => {
    const a = plain({ type: 'a', parent: { resource: 'b', param: 'b_id', column: 'b_id' }, collections: [{ path: '/v1/b/{b_id}/a' }] });
    const b = plain({ type: 'b', parent: { resource: 'a', param: 'a_id', column: 'a_id' }, collections: [{ path: '/v1/a/{a_id}/b' }] });
    expect(() => createResourceRegistry([a, b])).toThrow('parent go round in a loop: a -> b -> a');
    const c = plain({ type: 'c', cascades: [{ resource: 'c', column: 'c_id' }] });
    expect(() => createResourceRegistry([c])).toThrow('cascades go round in a loop: c -> c');
  });
});

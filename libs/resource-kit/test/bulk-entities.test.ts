import { ConflictError, type ValidationError } from '@firewatch/errors';
import { asEntityError, changedAttributes, entityErrors } from '../src/index.js';

describe('bulk entities', () => {
  it('keeps only the attributes that differ, jsonb key order and a missing column as null being no change', () => {
    const row = { name: 'SRE', channel: { name: 'ops', id: 'C1' }, color: null };
    expect(changedAttributes(row, { name: 'SRE', channel: { id: 'C1', name: 'ops' }, color: null, description: null })).toEqual({});
    expect(changedAttributes(row, { name: 'Ops', channel: { id: 'C2', name: 'ops' }, description: '' })).toEqual({
      name: 'Ops',
      channel: { id: 'C2', name: 'ops' },
      description: '',
    });
  });

  it('names each failed entity by index and external_id, and makes a write refusal the entity failure', () => {
    const err = entityErrors([{ index: 2, external_id: 'sre', errors: ['a', 'b'] }]);
    expect(err.issues).toEqual([
      {
        pointer: '/entities/2',
        code: 'invalid_entity',
        detail: 'Entity 2 (sre): a; b',
        members: { index: 2, external_id: 'sre', errors: ['a', 'b'] },
      },
    ]);
    const conflict = asEntityError(new ConflictError('A team with this name already exists.'), 1, 'dba');
    expect((conflict as ValidationError).issues[0].members).toEqual({
      index: 1,
      external_id: 'dba',
      errors: ['A team with this name already exists.'],
    });
    const other = new Error('database down');
    expect(asEntityError(other, 0, 'x')).toBe(other);
  });
});

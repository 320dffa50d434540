import { z } from 'zod';
import { BadRequestError, ConflictError, ValidationError } from '@firewatch/errors';
import { parseRequestDocument } from '../src/index.js';

const attributes = z.strictObject({ name: z.string().min(1), position: z.number().int().optional() });

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('parseRequestDocument', () => {
  it('returns validated attributes', () => {
    expect(
      parseRequestDocument({ data: { type: 'environments', attributes: { name: 'prod' } } }, { type: 'environments', attributes }),
    ).toEqual({ name: 'prod' });
  });

  it('refuses unknown attributes with a pointer to each', () => {
    const err = thrown(() =>
      parseRequestDocument(
        { data: { type: 'environments', attributes: { name: 'p', colour: 'x' } } },
        { type: 'environments', attributes },
      ),
    ) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.toErrorObjects()[0].source).toEqual({ pointer: '/data/attributes/colour' });
  });

  it('points at wrong attribute types', () => {
    const err = thrown(() =>
      parseRequestDocument(
        { data: { type: 'environments', attributes: { name: 'p', position: 'one' } } },
        { type: 'environments', attributes },
      ),
    ) as ValidationError;
    expect(err.issues.map((i) => i.pointer)).toEqual(['/data/attributes/position']);
  });

  it('answers 409 for a type or id mismatch and 400 for a non-document', () => {
    expect(
      thrown(() => parseRequestDocument({ data: { type: 'services', attributes: {} } }, { type: 'environments', attributes })),
    ).toBeInstanceOf(ConflictError);
    expect(
      thrown(() =>
        parseRequestDocument(
          { data: { type: 'environments', id: 'b', attributes: { name: 'x' } } },
          { type: 'environments', attributes, ids: ['a'] },
        ),
      ),
    ).toBeInstanceOf(ConflictError);
    expect(thrown(() => parseRequestDocument([1], { type: 'environments', attributes }))).toBeInstanceOf(BadRequestError);
    expect(thrown(() => parseRequestDocument({ data: 'x' }, { type: 'environments', attributes }))).toBeInstanceOf(ValidationError);
  });
});

describe('text the database cannot store', () => {
  it('refuses NUL characters with a pointer', () => {
    const err = thrown(() =>
      parseRequestDocument({ data: { type: 'environments', attributes: { name: 'a\u0000b' } } }, { type: 'environments', attributes }),
    ) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.issues[0].pointer).toBe('/data/attributes/name');
  });
});

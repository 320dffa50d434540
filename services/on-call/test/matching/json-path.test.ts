import { query, type JsonValue } from 'jsonpath-rfc9535';
import { selectNodes } from '../../src/domain/matching/json-path.js';

describe('JSON Path selection', () => {
  const payload = {
    a: { b: [10, { c: null }, 'x'], 'd e': 1, constructor: 'own' },
    list: [[1, 2], { 0: 'not an index' }],
    n: 0,
  };
  const paths = [
    '$',
    '$.a',
    '$.a.b[0]',
    '$.a.b[-1]',
    '$.a.b[-3]',
    '$.a.b[-4]',
    '$.a.b[3]',
    '$.a.b[1].c',
    "$.a['d e']",
    "$['a']['b'][1]",
    '$.a.constructor',
    '$.n.constructor',
    '$.a.b.length',
    '$.list[0][1]',
    '$.list[1][0]',
    "$.list[1]['0']",
    '$.list.0',
    '$.missing.x',
    '$.a.b[*]',
    '$..c',
  ];

  it.each(paths)('selects what the RFC 9535 library selects: %s', (path) => {
    let expected: unknown[];
    try {
      expected = query(payload as JsonValue, path);
    } catch {
      expect(() => selectNodes(payload, path)).toThrow();
      return;
    }
    expect(selectNodes(payload, path)).toEqual(expected);
  });
});

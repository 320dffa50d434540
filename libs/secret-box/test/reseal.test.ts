import { randomBytes } from 'node:crypto';
import { createSecretBox, resealStale, type SealedValues } from '../src/index.js';

const key = () => randomBytes(32).toString('base64');

/** Values in a Map, with a hook to change one between its read and its replace. */
function memory(
  initial: Record<string, string>,
  onRead?: (id: string, store: Map<string, string>) => void,
): SealedValues & { store: Map<string, string> } {
  const store = new Map(Object.entries(initial));
  return {
    store,
    async notSealedWith(keyId, afterId, limit) {
      const page = [...store]
        .sort(([a], [b]) => a.localeCompare(b))
        .filter(([id, sealed]) => (afterId === null || id > afterId) && sealed.split(':')[1] !== keyId)
        .slice(0, limit)
        .map(([id, sealed]) => ({ id, sealed }));
      for (const { id } of page) onRead?.(id, store);
      return page;
    },
    async replace(id, from, to) {
      if (store.get(id) !== from) return false;
      store.set(id, to);
      return true;
    },
  };
}

describe('resealStale', () => {
  const [oldKey, newKey, lostKey] = [key(), key(), key()];
  const old = createSecretBox({ keys: [oldKey] });
  const rotated = createSecretBox({ keys: [newKey, oldKey] });

  it('re-seals every value of another key with the sealing key, across pages, and reports the unreadable ones', async () => {
    const lost = createSecretBox({ keys: [lostKey] }).seal('gone');
    const values = memory({
      ...Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`id-${i}`, old.seal(`value ${i}`)])),
      'id-current': rotated.seal('current'),
      'id-lost': lost,
    });
    const current = values.store.get('id-current');
    const report = await resealStale(rotated, values, 3);
    expect(report).toEqual({ resealed: 7, unreadable: [{ id: 'id-lost', keyId: rotated.keyIdOf(lost) }] });
    const newOnly = createSecretBox({ keys: [newKey] });
    for (let i = 0; i < 7; i++) expect(newOnly.open(values.store.get(`id-${i}`)!)).toBe(`value ${i}`);
    expect(values.store.get('id-current')).toBe(current);
    expect(values.store.get('id-lost')).toBe(lost);
    expect(await resealStale(rotated, values, 3)).toEqual({ resealed: 0, unreadable: [{ id: 'id-lost', keyId: rotated.keyIdOf(lost) }] });
  });

  it('never undoes a write that lands between its read and its replace', async () => {
    const written = rotated.seal('written meanwhile');
    const values = memory({ a: old.seal('before') }, (id, store) => store.set(id, written));
    expect(await resealStale(rotated, values)).toEqual({ resealed: 0, unreadable: [] });
    expect(values.store.get('a')).toBe(written);
  });
});

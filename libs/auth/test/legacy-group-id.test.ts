import { describe, expect, it } from '@jest/globals';
import { legacyGroupId } from '../src/legacy-group-id.js';

describe('legacyGroupId', () => {
  it('is the same id for the same team and name, wherever it is computed', () => {
    expect(legacyGroupId(1, 'sre')).toBe('7674f11e-ffe7-5239-ae56-66e8577647a3');
    expect(legacyGroupId(1, 'sre')).toBe(legacyGroupId(1, 'sre'));
  });

  it('differs between teams and between names', () => {
    expect(legacyGroupId(2, 'sre')).not.toBe(legacyGroupId(1, 'sre'));
    expect(legacyGroupId(1, 'SRE')).not.toBe(legacyGroupId(1, 'sre'));
  });

  it('keeps a value that is already a UUID, lower-cased', () => {
    expect(legacyGroupId(1, '5B0B7D53-3C8E-4D0F-9A51-2F1D6C1E9B7A')).toBe('5b0b7d53-3c8e-4d0f-9a51-2f1d6c1e9b7a');
  });
});

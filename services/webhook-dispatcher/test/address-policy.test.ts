import { createAddressPolicy } from '../src/domain/address-policy.js';

describe('address policy', () => {
  const strict = createAddressPolicy([]);
  it('allows public unicast addresses', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) expect(strict.refusal(a)).toBeNull();
  });
  it('refuses loopback, private, link-local, CGNAT, unique-local, multicast and mapped forms', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fc00::1',
      'fe80::1',
      '224.0.0.1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ]) {
      expect([a, strict.refusal(a)]).toEqual([a, expect.stringContaining('refused')]);
    }
  });
  it('lets configured networks through, and only those', () => {
    const tests = createAddressPolicy(['127.0.0.0/8', '::1/128']);
    expect(tests.refusal('127.0.0.1')).toBeNull();
    expect(tests.refusal('::1')).toBeNull();
    expect(tests.refusal('::ffff:127.0.0.1')).toBeNull();
    expect(tests.refusal('10.0.0.1')).toMatch(/private/);
  });
  it('rejects malformed configuration', () => {
    expect(() => createAddressPolicy(['10.0.0.0'])).toThrow(/CIDR/);
  });
});

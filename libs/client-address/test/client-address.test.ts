import { addressBucket } from '../src/index.js';

describe('addressBucket', () => {
  it.each([
    ['203.0.113.5', '203.0.113.5'],
    ['::ffff:203.0.113.5', '203.0.113.5'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002::', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::ffff:1.2.3.4', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['unknown', 'unknown'],
    [undefined, 'unknown'],
  ])('%s → %s', (address, bucket) => {
    expect(addressBucket(address)).toBe(bucket);
  });
});

import { randomFillSync } from 'node:crypto';

// Random bytes for this many ids at a time, as Node's randomUUID keeps them.
const BATCH = 128;
const random = Buffer.allocUnsafeSlow(16 * BATCH);
let used = BATCH;
// The id's text is written here, then read as one string.
const text = Buffer.allocUnsafeSlow(36);
const HEX = Buffer.from('0123456789abcdef', 'latin1');
// Where each of the 16 bytes' two hex digits go, around the dashes of 8-4-4-4-12.
const AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
// The dashes stay; every other character is written for each id.
text.fill('-');

/**
 * A random (version 4) UUID, as `crypto.randomUUID()` makes one: the same source of random
 * bytes, kept for 128 ids at a time. `randomUUID` joins the text from twenty pieces (~600
 * bytes of string a call, flattened again when the header is written); this writes its 36
 * characters into a buffer and reads them as one string (~60 bytes).
 */
export function randomRequestId(): string {
  if (used === BATCH) {
    randomFillSync(random);
    used = 0;
  }
  const at = 16 * used++;
  for (let i = 0; i < 16; i++) {
    let byte = random[at + i];
    // Version 4 in the 7th byte's high nibble, variant 10 in the 9th's top two bits (RFC 9562).
    if (i === 6) byte = (byte & 0x0f) | 0x40;
    else if (i === 8) byte = (byte & 0x3f) | 0x80;
    text[AT[i]] = HEX[byte >> 4];
    text[AT[i] + 1] = HEX[byte & 0x0f];
  }
  return text.toString('latin1', 0, 36);
}

/**
 * How many SMS messages a text takes (3GPP TS 23.038 / 23.040). A text written only in
 * the GSM 03.38 default alphabet is sent as GSM-7: 160 septets in one message, 153 per
 * part once concatenated (a 6-octet user data header takes 7 septets); its extension
 * characters take two septets (an escape and the character) and are never split between
 * parts. Any other character makes the whole text UCS-2: 70 UTF-16 units in one message,
 * 67 per part, a surrogate pair never split.
 */
export interface SmsSegments {
  encoding: 'GSM-7' | 'UCS-2';
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) of the text. */
  units: number;
  segments: number;
}

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '\f^{}\\[~]|€';
const BASIC = new Set(GSM_BASIC);
const EXTENSION = new Set(GSM_EXTENSION);

const SINGLE = { 'GSM-7': 160, 'UCS-2': 70 } as const;
const PART = { 'GSM-7': 153, 'UCS-2': 67 } as const;

/** The width of each character that cannot be split, in the text's encoding. */
function widths(text: string): { encoding: SmsSegments['encoding']; units: number[] } {
  const chars = [...text];
  if (chars.every((c) => BASIC.has(c) || EXTENSION.has(c))) {
    return { encoding: 'GSM-7', units: chars.map((c) => (EXTENSION.has(c) ? 2 : 1)) };
  }
  return { encoding: 'UCS-2', units: chars.map((c) => c.length) };
}

/** The encoding, length and number of messages of an SMS text; an empty text sends none. */
export function smsSegments(text: string): SmsSegments {
  const { encoding, units } = widths(text);
  const total = units.reduce((a, b) => a + b, 0);
  if (total === 0) return { encoding, units: 0, segments: 0 };
  if (total <= SINGLE[encoding]) return { encoding, units: total, segments: 1 };
  // Concatenated: fill each part greedily, starting a new one where a character would straddle.
  let segments = 1;
  let used = 0;
  for (const w of units) {
    if (used + w > PART[encoding]) {
      segments += 1;
      used = 0;
    }
    used += w;
  }
  return { encoding, units: total, segments };
}

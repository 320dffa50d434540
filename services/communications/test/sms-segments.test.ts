import { smsSegments } from '../src/domain/liquid/sms-segments.js';

describe('smsSegments', () => {
  it('sends nothing for an empty text', () => {
    expect(smsSegments('')).toEqual({ encoding: 'GSM-7', units: 0, segments: 0 });
  });

  it('fits 160 GSM-7 septets in one message and 153 per part beyond', () => {
    expect(smsSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsSegments('a'.repeat(161))).toEqual({ encoding: 'GSM-7', units: 161, segments: 2 });
    expect(smsSegments('a'.repeat(306))).toEqual({ encoding: 'GSM-7', units: 306, segments: 2 });
    expect(smsSegments('a'.repeat(307))).toEqual({ encoding: 'GSM-7', units: 307, segments: 3 });
  });

  it('counts extension characters as two septets and never splits one between parts', () => {
    expect(smsSegments('€'.repeat(80))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsSegments('€'.repeat(81))).toEqual({ encoding: 'GSM-7', units: 162, segments: 2 });
    expect(smsSegments('{}[]~^|\\').units).toBe(16);
    // 152 septets then an escape pair: the pair would straddle 153, so it opens part two.
    expect(smsSegments(`${'a'.repeat(152)}€${'a'.repeat(152)}`)).toEqual({ encoding: 'GSM-7', units: 306, segments: 3 });
    expect(smsSegments(`${'a'.repeat(151)}€${'a'.repeat(153)}`)).toEqual({ encoding: 'GSM-7', units: 306, segments: 2 });
  });

  it('keeps the GSM-7 accented letters and Greek capitals of the default alphabet in GSM-7', () => {
    expect(smsSegments('Ça va? Øre ÄÖÑÜ§¿ äöñüà ΔΦΓΛΩΠΨΣΘΞ @£$¥èéùìò\n').encoding).toBe('GSM-7');
  });

  it('switches the whole text to UCS-2 for any other character: 70 units, then 67 per part', () => {
    expect(smsSegments('ç')).toEqual({ encoding: 'UCS-2', units: 1, segments: 1 });
    expect(smsSegments(`${'a'.repeat(69)}á`)).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(smsSegments(`${'a'.repeat(70)}á`)).toEqual({ encoding: 'UCS-2', units: 71, segments: 2 });
    expect(smsSegments('á'.repeat(134))).toEqual({ encoding: 'UCS-2', units: 134, segments: 2 });
    expect(smsSegments('á'.repeat(135))).toEqual({ encoding: 'UCS-2', units: 135, segments: 3 });
  });

  it('counts a character outside the BMP as two UTF-16 units and never splits its surrogate pair', () => {
    expect(smsSegments('🔥'.repeat(35))).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(smsSegments('🔥'.repeat(36))).toEqual({ encoding: 'UCS-2', units: 72, segments: 2 });
    // 66 units then a pair: it would straddle 67, so it opens part two.
    expect(smsSegments(`${'á'.repeat(66)}🔥${'á'.repeat(66)}`)).toEqual({ encoding: 'UCS-2', units: 134, segments: 3 });
  });

  it('never counts fewer parts than the units need, nor more than one extra per part for unsplittable pairs', () => {
    for (let n = 0; n < 400; n += 7) {
      for (const unit of ['a', '€', 'á', '🔥']) {
        const { encoding, units, segments } = smsSegments(unit.repeat(n));
        const single = encoding === 'GSM-7' ? 160 : 70;
        const part = encoding === 'GSM-7' ? 153 : 67;
        const lower = units === 0 ? 0 : units <= single ? 1 : Math.ceil(units / part);
        expect(segments).toBeGreaterThanOrEqual(lower);
        expect(segments).toBeLessThanOrEqual(units <= single ? lower : Math.ceil(units / (part - 1)));
      }
    }
  });
});

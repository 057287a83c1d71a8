// Segment counting for outbound messages (contract §4, spec "Message" and "Limits").

/** GSM 03.38 basic character table (ESC, 0x1B, is deliberately absent: it is not a character). */
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅå' +
  'Δ_ΦΓΛΩΠΨΣΘΞÆæßÉ' +
  ' !"#¤%&\'()*+,-./' +
  '0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§' +
  '¿abcdefghijklmnopqrstuvwxyzäöñüà';

/** GSM 03.38 extension table: each is sent as ESC + code, so it costs two septets. */
const GSM7_EXTENSION = '\f^{}\\[~]|€';

const BASIC = new Set(GSM7_BASIC);
const EXTENSION = new Set(GSM7_EXTENSION);

// contract §4: a flat 160 (GSM-7) or 70 (UCS-2) per segment. No reduction to 153/67 for the
// multipart (UDH) header: the contract fixes ceil(len/160) and ceil(len/70), so we follow it exactly.
export const GSM7_SEGMENT_UNITS = 160;
export const UCS2_SEGMENT_UNITS = 70;

export type SegmentEncoding = 'GSM-7' | 'UCS-2';

export interface SegmentCount {
  encoding: SegmentEncoding;
  /** GSM-7 septets (extension characters count 2) or UTF-16 code units for UCS-2. */
  units: number;
  segments: number;
}

export function countSegments(body: string): SegmentCount {
  let septets = 0;
  // Every GSM character is a single BMP code unit, so iterating code units is exact: a surrogate
  // half is never in either table and switches the body to UCS-2.
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (BASIC.has(ch)) {
      septets += 1;
    } else if (EXTENSION.has(ch)) {
      septets += 2;
    } else {
      // UCS-2 counted in UTF-16 code units: an astral character (emoji) counts 2.
      const units = body.length;
      return { encoding: 'UCS-2', units, segments: Math.ceil(units / UCS2_SEGMENT_UNITS) };
    }
  }
  return { encoding: 'GSM-7', units: septets, segments: Math.ceil(septets / GSM7_SEGMENT_UNITS) };
}

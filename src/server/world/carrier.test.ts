import { describe, expect, it } from 'vitest';
import { SimulatedCarrier, checkEmergencyAddress, courseFor, destinationOutcome, reviewTollfree, stateForZip, testStubCourse } from './carrier.js';
import { mediaFromUrls } from '../domain/messages.js';
import { ZIP_PREFIX_CITIES } from './zip-cities.js';

describe('destinations', () => {
  it('fails +15005550001, leaves +15005550004 undelivered, delivers the rest', () => {
    expect(destinationOutcome('+15005550001')).toEqual({ status: 'failed', reason: 'invalid destination' });
    expect(destinationOutcome('+15005550004')).toEqual({ status: 'undelivered', reason: 'blocked by carrier' });
    expect(destinationOutcome('+14155550100')).toEqual({ status: 'delivered', reason: null });
  });

  it('plans sending, sent, then the outcome; the test stub at once', async () => {
    expect(courseFor('+15005550004', [1, 2, 3])).toEqual([
      { afterMs: 1, status: 'sending', reason: null },
      { afterMs: 2, status: 'sent', reason: null },
      { afterMs: 3, status: 'undelivered', reason: 'blocked by carrier' },
    ]);
    expect(testStubCourse('+14155550100').every((s) => s.afterMs === 0)).toBe(true);
    const accepted = await new SimulatedCarrier().submit({ messageId: 'msg_x', accountId: 'acct', from: '+1', to: '+14155550100', body: '', mediaUrls: [] });
    expect(accepted.providerMessageId).toMatch(/^SM[0-9A-Za-z]{30}$/);
    // Delivered within about a second.
    expect(accepted.course.reduce((t, s) => t + s.afterMs, 0)).toBeLessThanOrEqual(1000);
  });
});

describe('emergency addresses', () => {
  const a = { street: '1 Main St', city: 'Austin', state: 'TX', zip: '78701' };
  it('maps ZIP prefixes to states', () => {
    expect(stateForZip('78701')).toBe('TX');
    expect(stateForZip('94105-1234')).toBe('CA');
    expect(stateForZip('10001')).toBe('NY');
    expect(stateForZip('02108')).toBe('MA');
    expect(stateForZip('20500')).toBe('DC');
    expect(stateForZip('99501')).toBe('AK');
    expect(stateForZip('00001')).toBeUndefined();
  });
  it('accepts a fitting address (state upper-cased) and suggests the state that fits', () => {
    expect(checkEmergencyAddress({ ...a, state: 'tx' })).toEqual({ ok: true, address: a });
    const r = checkEmergencyAddress({ ...a, state: 'OK' });
    expect(r).toMatchObject({ ok: false, kind: 'suggestion', suggested: a });
    expect(checkEmergencyAddress({ ...a, zip: '00000' })).toMatchObject({ ok: false, kind: 'unknown_zip' });
  });

  it('suggests only coherent addresses: the city and state of the ZIP, or the typed city in the ZIP state', () => {
    const sf = { street: '1 Market St', city: 'San Francisco', state: 'CA', zip: '10001' };
    // A San Francisco street with a Manhattan ZIP: the ZIP's own city and state, never "San Francisco, NY".
    expect(checkEmergencyAddress(sf)).toMatchObject({ ok: false, kind: 'suggestion', suggested: { ...sf, city: 'New York', state: 'NY' } });
    // The ZIP's city is the typed one: only the state changes.
    expect(checkEmergencyAddress({ ...sf, zip: '94105', state: 'NY' })).toMatchObject({ kind: 'suggestion', suggested: { ...sf, zip: '94105', state: 'CA' } });
    // The ZIP's city is not known (946: Oakland), but the typed city is one of the ZIP state's cities.
    expect(checkEmergencyAddress({ ...sf, city: 'Oakland', zip: '94607', state: 'NV' })).toMatchObject({ kind: 'suggestion', suggested: { city: 'Oakland', state: 'CA', zip: '94607' } });
    // Neither: a mismatch to correct, no guess.
    expect(checkEmergencyAddress({ ...sf, city: 'Springfield', zip: '94607', state: 'NV' })).toMatchObject({ ok: false, kind: 'mismatch' });
  });

  it('every city of the ZIP table sits in the state its prefix belongs to', () => {
    expect(ZIP_PREFIX_CITIES.size).toBeGreaterThan(40);
    for (const [prefix, place] of ZIP_PREFIX_CITIES) expect({ prefix, state: stateForZip(`${prefix}00`) }).toEqual({ prefix, state: place.state });
  });
});

describe('toll-free review', () => {
  const s = { businessName: 'Acme', website: 'https://acme.example', useCase: 'x', useCaseSummary: 'x', sampleMessage: 'Hi. Reply STOP to opt out', optInWorkflow: 'x', monthlyVolume: 10 };
  it('verifies a complete submission and names every problem otherwise', () => {
    expect(reviewTollfree(s)).toEqual({ status: 'verified' });
    for (const sample of ['Text unsubscribe any time', 'opt-out: reply QUIT', 'Reply CANCEL', 'To opt out, call us']) {
      expect(reviewTollfree({ ...s, sampleMessage: sample }).status).toBe('verified');
    }
    expect(reviewTollfree({ ...s, sampleMessage: 'Unstoppable deals!' })).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/opt-out/) });
    const both = reviewTollfree({ ...s, website: null, sampleMessage: 'Hello' });
    expect(both).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/website.*opt-out/) });
  });
});

describe('mediaFromUrls', () => {
  it('derives the content type from the extension and the filename from the path', () => {
    expect(mediaFromUrls(['https://x.test/a/b/Photo.JPEG', 'https://x.test/v.mp4#t=1', 'https://x.test/card.vcf', 'https://x.test/noext', 'https://x.test/%E2%82%AC.png'])).toEqual([
      { url: 'https://x.test/a/b/Photo.JPEG', contentType: 'image/jpeg', filename: 'Photo.JPEG' },
      { url: 'https://x.test/v.mp4#t=1', contentType: 'video/mp4', filename: 'v.mp4' },
      { url: 'https://x.test/card.vcf', contentType: 'text/vcard', filename: 'card.vcf' },
      { url: 'https://x.test/noext', contentType: 'application/octet-stream', filename: 'noext' },
      { url: 'https://x.test/%E2%82%AC.png', contentType: 'image/png', filename: '€.png' },
    ]);
  });
});

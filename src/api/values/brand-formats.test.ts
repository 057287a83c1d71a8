import { describe, expect, it } from 'vitest';
import { isWebUrl, usAddressProblems } from './brand-formats.js';
import { ISO_3166_ALPHA2, isCountryCode } from './countries.js';

// contract §7: the brand field formats the schemas, the prediction and the domain share.

describe('isWebUrl: an http(s) URL with a host that has a dot', () => {
  it.each(['https://acme.example', 'http://www.acme.co.uk/sms?x=1#top', 'https://acme.example:8443/privacy', 'https://xn--bcher-kva.example', 'HTTPS://Acme.Example'])('takes %j', (v) => {
    expect(isWebUrl(v)).toBe(true);
  });
  it.each([
    'not a url',
    'acme.example',
    'www.acme.example',
    'ftp://acme.example',
    'javascript:alert(1)',
    'https://localhost',
    'https://acme.',
    'https://10.0.0.1',
    'https://-acme.example',
    'https://acme .example',
    ' https://acme.example',
    'http:acme.example',
  ])('refuses %j', (v) => {
    expect(isWebUrl(v)).toBe(false);
  });
});

describe('usAddressProblems: state and postalCode when country is US', () => {
  it('names each bad field at once; the accepted forms; free text elsewhere or without a country', () => {
    expect(usAddressProblems({ country: 'US', state: 'California', postalCode: '941' }).map((p) => p.field)).toEqual(['state', 'postalCode']);
    expect(usAddressProblems({ country: 'US', state: 'ca', postalCode: '94105-12' }).map((p) => p.field)).toEqual(['state', 'postalCode']);
    expect(usAddressProblems({ country: 'US', state: 'CA', postalCode: '94105' })).toEqual([]);
    expect(usAddressProblems({ country: 'US', state: 'NY', postalCode: '10001-1234' })).toEqual([]);
    expect(usAddressProblems({ country: 'US', state: null })).toEqual([]);
    expect(usAddressProblems({ country: 'CA', state: 'Ontario', postalCode: 'M5V 2T6' })).toEqual([]);
    expect(usAddressProblems({ state: 'California', postalCode: 'n/a' })).toEqual([]);
  });
});

describe('ISO 3166-1 alpha-2', () => {
  it('holds the 249 assigned codes, upper case, each once', () => {
    expect(ISO_3166_ALPHA2).toHaveLength(249);
    expect(new Set(ISO_3166_ALPHA2).size).toBe(249);
    for (const c of ISO_3166_ALPHA2) expect(c).toMatch(/^[A-Z]{2}$/);
    for (const c of ['US', 'CA', 'GB', 'DE', 'AX', 'SS', 'BQ']) expect(isCountryCode(c)).toBe(true);
    // user-assigned or reserved, lower case, alpha-3
    for (const c of ['XK', 'EU', 'UK', 'us', 'USA', '']) expect(isCountryCode(c)).toBe(false);
  });
});

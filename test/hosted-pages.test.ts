import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { FORM_HEADERS, brandId as newBrand, formBody } from './hosted-pages-fixtures.js';
import { LEAD_FORM_RATE, SAFE_ACCENT_COLOR } from '../src/api/values/hosted-pages.js';
import { leadsOf, setBrandPageConfig } from './helpers/inspect.js';

// contract §7: the hosted opt-in, privacy and terms pages over HTTP (no browser): escaping, the
// security headers, 404 pages, validation re-render, Post/Redirect/Get and lead.captured once.

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

const get = (path: string) => svc.call('GET', path, { key: null });
const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = FORM_HEADERS) =>
  svc.call('POST', path, { key: null, headers, rawBody: formBody(fields) });

const leadEvents = async (headers: Record<string, string> = {}) => {
  const res = await svc.call('GET', '/v1/events?types=lead.captured&limit=100', { headers });
  expect(res.status).toBe(200);
  return res.body.data as any[];
};

const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
/** The text of the consent label as a browser shows it (tags dropped, entities decoded). */
const consentLabelText = (html: string) => unescape(/<label for="consent"[^>]*>([\s\S]*?)<\/label>/.exec(html)![1]!.replace(/<[^>]+>/g, ''));

const VALID = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '(415) 555-0123', consent: 'yes' };

describe('GET /p/{brandId}/opt-in', () => {
  it('is public, accessible HTML: lang, main, one h1, every input labelled, the consent box unchecked with the disclosures', async () => {
    const id = await newBrand(svc, { pageConfig: { messageFrequency: 'Up to 4 msgs/month', messagePurpose: 'order updates' } });
    const res = await get(`/p/${id}/opt-in`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = res.text;
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html.match(/<main[ >]/g)).toHaveLength(1);
    expect(html.match(/<h1>/g)).toHaveLength(1);
    const inputs = [...html.matchAll(/<input [^>]*id="([^"]+)"[^>]*>/g)];
    expect(inputs.map((m) => m[1])).toEqual(['firstName', 'lastName', 'email', 'phone', 'consent']);
    for (const [, inputId] of inputs) expect(html).toContain(`<label for="${inputId}"`);
    const box = inputs.find((m) => m[1] === 'consent')![0];
    expect(box).toContain('type="checkbox"');
    expect(box).not.toContain('checked');
    const consent = consentLabelText(html);
    expect(consent).toContain('Acme Bikes');
    expect(consent).toContain('about order updates');
    expect(consent).toContain('Up to 4 msgs/month.');
    expect(consent).toContain('Msg & data rates may apply.');
    expect(consent).toContain('Reply STOP to opt out, HELP for help.');
    expect(consent).toContain('Consent is not a condition of purchase.');
    expect(html).toContain(`<a href="/p/${id}/privacy">Privacy Policy</a>`);
    expect(html).toContain(`<a href="/p/${id}/terms">Messaging Terms</a>`);
    expect(html).not.toMatch(/<script|<link |@import|url\(|https?:\/\/(?!acmebikes)/i);
  });

  it('sends a strict CSP (no script, the one style block by hash), Referrer-Policy, nosniff and no-store', async () => {
    const id = await newBrand(svc);
    const res = await get(`/p/${id}/opt-in`);
    const csp = String(res.headers['content-security-policy']);
    const directives = Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
    expect(directives['default-src']).toBe("'none'");
    expect(directives['script-src']).toBeUndefined(); // falls back to default-src 'none'
    expect(csp).not.toContain('unsafe-inline');
    const style = /<style>([\s\S]*?)<\/style>/.exec(res.text)![1]!;
    expect(directives['style-src']).toBe(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(directives['img-src']).toBe("'none'");
    expect(directives['form-action']).toBe("'self'");
    expect(directives['frame-ancestors']).toBe("'none'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('escapes every brand value: <script> in legalName and pageConfig never reaches the page as markup', async () => {
    const evil = '<script>alert("x")</script>';
    const id = await newBrand(svc, {
      legalName: `Evil ${evil} Inc`,
      fields: {},
      pageConfig: { headline: `Hi ${evil}`, body: `<img src=x onerror=alert(1)>`, buttonText: '"><b>go', messageFrequency: evil, messagePurpose: "it's & <i>" },
    });
    for (const path of ['opt-in', 'privacy', 'terms']) {
      const res = await get(`/p/${id}/${path}`);
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('<script');
      expect(res.text).not.toContain('<img src=x');
      expect(res.text).not.toContain('<i>');
      expect(res.text).toContain('Evil &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Inc');
    }
    const optIn = (await get(`/p/${id}/opt-in`)).text;
    expect(optIn).toContain('<h1>Hi &lt;script&gt;');
    expect(optIn).toContain('&quot;&gt;&lt;b&gt;go</button>');
    expect(consentLabelText(optIn)).toContain(`from Evil ${evil} Inc about it's & <i>`);
  });

  it('keeps an accent with AA contrast and replaces a too-light one by the safe colour', async () => {
    const dark = await newBrand(svc, { pageConfig: { accentColor: '#0B3D91' } });
    const light = await newBrand(svc, { pageConfig: { accentColor: '#FFEB3B' } });
    const darkCss = /<style>([\s\S]*?)<\/style>/.exec((await get(`/p/${dark}/opt-in`)).text)![1]!;
    const lightCss = /<style>([\s\S]*?)<\/style>/.exec((await get(`/p/${light}/opt-in`)).text)![1]!;
    expect(darkCss).toContain('background:#0b3d91');
    expect(lightCss).not.toMatch(/ffeb3b/i);
    expect(lightCss).toContain(`background:${SAFE_ACCENT_COLOR}`);
  });

  it('renders an https logo, allowing only its origin for images; any other logo URL is refused when saved and left out when rendered', async () => {
    const https = await newBrand(svc, { pageConfig: { logoUrl: 'https://cdn.acmebikes.example/logo.png' } });
    const res = await get(`/p/${https}/opt-in`);
    expect(res.text).toContain('<img src="https://cdn.acmebikes.example/logo.png" alt="Acme Bikes">');
    expect(res.headers['content-security-policy']).toContain('img-src https://cdn.acmebikes.example;');
    const bad = [
      'http://cdn.example/logo.png',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'https://cdn.example/logo.png\r\nX-Injected: 1',
      'https://cdn.example/lo\ngo.png',
      'https://cdn.example/logo.png" onerror="alert(1)',
      "https://cdn.example/logo.png'",
      'https://user:pass@cdn.example/logo.png',
      '//cdn.example/logo.png',
    ];
    for (const logoUrl of bad) {
      // Refused when saved, the field named; nothing changes.
      const id = await newBrand(svc);
      const patched = await svc.call('PATCH', `/v1/brands/${id}`, { body: { pageConfig: { headline: 'kept?', logoUrl } } });
      expect(patched.status, logoUrl).toBe(400);
      expect(patched.body.error.code).toBe('validation_error');
      expect(patched.body.error.details.map((d: { path: string[] }) => d.path.join('.'))).toEqual(['body.pageConfig.logoUrl']);
      expect((await svc.call('GET', `/v1/brands/${id}`)).body.pageConfig).toBeNull();
      // The render-time check is kept: a value stored before the save-time check is still left out.
      await setBrandPageConfig(svc, id, { logoUrl });
      const page = await get(`/p/${id}/opt-in`);
      expect(page.text).not.toContain('<img');
      expect(page.headers['content-security-policy']).toContain("img-src 'none'");
    }
  });

  it('is served for a brand in every status (reviewers must reach a page under review)', async () => {
    for (const status of ['draft', 'submitted', 'approved', 'rejected']) {
      const res = await get(`/p/${await newBrand(svc, { status: status as 'draft' })}/opt-in`);
      expect(res.status).toBe(200);
    }
  });

  it('answers an unknown brand with an HTML 404 page, not the JSON envelope', async () => {
    for (const path of ['/p/00000000-0000-4000-8000-000000000000/opt-in', '/p/not-a-uuid/privacy', '/p/00000000-0000-4000-8000-000000000000/terms', '/p/x/opt-in/confirmed']) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toBeUndefined(); // not JSON
      expect(res.text).toContain('<h1>Page not found</h1>');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    }
    const posted = await post('/p/00000000-0000-4000-8000-000000000000/opt-in', VALID);
    expect(posted.status).toBe(404);
    expect(posted.text).toContain('<h1>Page not found</h1>');
  });
});

describe('privacy and terms pages', () => {
  it("show the brands module's default texts naming the brand when compliancePages is null", async () => {
    const id = await newBrand(svc);
    const privacy = await get(`/p/${id}/privacy`);
    expect(privacy.status).toBe(200);
    expect(privacy.text).toContain('<h1>Acme Bikes Privacy Policy</h1>');
    expect(privacy.text).toContain('Acme Bikes LLC collects');
    expect(privacy.text).toContain('Mobile information will not be shared with third parties');
    const terms = await get(`/p/${id}/terms`);
    expect(terms.text).toContain('<h1>Acme Bikes Messaging Terms</h1>');
    expect(terms.text).toContain('Reply HELP for help.');
    expect(terms.text).toContain(`<a href="/p/${id}/terms" aria-current="page">`);
  });

  it("show the brand's own texts, blank lines as paragraphs", async () => {
    const id = await newBrand(svc, { compliancePages: { optIn: 'Join our club.', privacy: 'We keep it safe.\n\nWe never sell it.', messagingTerms: 'Terms & more.' } });
    expect((await get(`/p/${id}/privacy`)).text).toContain('<p>We keep it safe.</p>\n<p>We never sell it.</p>');
    expect((await get(`/p/${id}/terms`)).text).toContain('<p>Terms &amp; more.</p>');
    expect((await get(`/p/${id}/opt-in`)).text).toContain('<p>Join our club.</p>');
  });
});

describe('POST /p/{brandId}/opt-in', () => {
  it('re-renders the form with a 400, values kept and each error beside its field; nothing stored or emitted', async () => {
    const id = await newBrand(svc);
    const before = (await leadEvents()).length;
    const res = await post(`/p/${id}/opt-in`, { firstName: '', lastName: '<b>Lovelace</b>', email: 'not-an-email', phone: '12345', consent: 'yes' });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = res.text;
    expect(html).toContain('role="alert"');
    for (const field of ['firstName', 'email', 'phone']) {
      expect(html).toMatch(new RegExp(`<input [^>]*id="${field}"[^>]*aria-invalid="true"[^>]*aria-describedby="[^"]*${field}-error`));
      expect(html).toMatch(new RegExp(`<p class="field-error" id="${field}-error">`));
      expect(html).toContain(`<a href="#${field}">`);
    }
    expect(html).not.toMatch(/<input [^>]*id="lastName"[^>]*aria-invalid/);
    expect(html).toContain('value="&lt;b&gt;Lovelace&lt;/b&gt;"');
    expect(html).toContain('value="not-an-email"');
    expect(html).toContain('value="12345"');
    expect(html).toMatch(/<input type="checkbox" id="consent"[^>]* checked>/); // the visitor's own tick, kept
    expect(html).toMatch(/<title>Error: /);
    expect(await leadsOf(svc, id)).toEqual([]);
    expect((await leadEvents()).length).toBe(before);
  });

  it('stores the lead, emits lead.captured once with the exact consent text, and redirects (303) to the confirmation', async () => {
    const id = await newBrand(svc, { pageConfig: { messageFrequency: 'Up to 2 msgs/week' } });
    const page = await get(`/p/${id}/opt-in`);
    const shown = consentLabelText(page.text);
    const res = await post(`/p/${id}/opt-in`, VALID);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/p/${id}/opt-in/confirmed`);
    const confirmed = await get(String(res.headers.location));
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain('<h1>Thank you</h1>');
    expect(confirmed.text).not.toContain('Lovelace'); // no personal data on a GET-able page
    // A refresh of the confirmation submits nothing.
    await get(String(res.headers.location));

    const leads = await leadsOf(svc, id);
    expect(leads).toHaveLength(1);
    const events = (await leadEvents()).filter((e) => e.brandId === id);
    expect(events).toHaveLength(1);
    const e = events[0];
    expect(e).toMatchObject({
      type: 'lead.captured',
      leadId: leads[0]!.id,
      brandId: id,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+14155550123',
      consent: true,
      consentText: shown,
      capturedAt: new Date(svc.now()).toISOString(),
    });
    expect(e.consentText).toContain('Up to 2 msgs/week.');
  });

  it('emits one event per submission: the same form posted twice is two leads', async () => {
    const id = await newBrand(svc);
    expect((await post(`/p/${id}/opt-in`, VALID)).status).toBe(303);
    expect((await post(`/p/${id}/opt-in`, VALID)).status).toBe(303);
    const events = (await leadEvents()).filter((e) => e.brandId === id);
    expect(events).toHaveLength(2);
    expect(new Set(events.map((e) => e.leadId)).size).toBe(2);
  });

  it('takes a lead without SMS consent (consent: false), email omitted as null, E.164 kept as given', async () => {
    const id = await newBrand(svc);
    const res = await post(`/p/${id}/opt-in`, { firstName: 'Grace', lastName: 'Hopper', email: '', phone: '+44 20 7946 0958' });
    expect(res.status).toBe(303);
    const [e] = (await leadEvents()).filter((x) => x.brandId === id);
    expect(e).toMatchObject({ consent: false, email: null, phone: '+442079460958', firstName: 'Grace' });
  });

  it("emits to the brand's own account: a sub-account's brand lands in its feed, not the parent's", async () => {
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Lead Co' } });
    expect(sub.status).toBe(201);
    const id = await newBrand(svc, { subaccountId: sub.body.id, legalName: 'Sub Brand Ltd', fields: {} });
    expect((await post(`/p/${id}/opt-in`, VALID)).status).toBe(303);
    const subEvents = (await leadEvents({ 'Service-Subaccount': sub.body.id })).filter((e) => e.brandId === id);
    expect(subEvents).toHaveLength(1);
    expect(subEvents[0].consentText).toContain('from Sub Brand Ltd');
    expect((await leadEvents()).filter((e) => e.brandId === id)).toEqual([]);
  });

  it('refuses another body type and a body over 16 KB with an HTML 400, storing nothing', async () => {
    const id = await newBrand(svc);
    const json = await svc.call('POST', `/p/${id}/opt-in`, { key: null, body: VALID });
    expect(json.status).toBe(400);
    expect(json.headers['content-type']).toBe('text/html; charset=utf-8');
    const big = await post(`/p/${id}/opt-in`, { ...VALID, lastName: 'x'.repeat(17 * 1024) });
    expect(big.status).toBe(400);
    expect(big.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(await leadsOf(svc, id)).toEqual([]);
  });

  it('normalises US numbers and refuses numbers that are not phone numbers', async () => {
    const id = await newBrand(svc);
    const cases: Array<[string, string | null]> = [
      ['415-555-0123', '+14155550123'],
      ['1 (415) 555 0123', '+14155550123'],
      ['+1 415 555 0123', '+14155550123'],
      ['4155550123', '+14155550123'],
      ['0155550123', null], // area codes never start with 0 or 1
      ['555-0123', null],
      ['+0123', null],
      ['phone', null],
    ];
    for (const [phone, expected] of cases) {
      const res = await post(`/p/${id}/opt-in`, { ...VALID, phone });
      expect(res.status, phone).toBe(expected ? 303 : 400);
    }
    const phones = (await leadsOf(svc, id)).map((l) => l.phone);
    expect(phones).toEqual(cases.filter(([, e]) => e).map(([, e]) => e));
  });
});

describe('the public form rate limit', () => {
  it('answers an HTML 429 with Retry-After once a client address has used its burst', async () => {
    const own = await startTestService();
    try {
      const id = await newBrand(own);
      const statuses: number[] = [];
      let limited: Awaited<ReturnType<TestService['call']>> | undefined;
      for (let i = 0; i < LEAD_FORM_RATE.burst + 10 && !limited; i++) {
        const res = await own.call('POST', `/p/${id}/opt-in`, { key: null, headers: FORM_HEADERS, rawBody: formBody({ firstName: '' }) });
        statuses.push(res.status);
        if (res.status === 429) limited = res;
      }
      expect(statuses.length).toBeGreaterThanOrEqual(LEAD_FORM_RATE.burst);
      expect(statuses.slice(0, LEAD_FORM_RATE.burst).every((s) => s === 400)).toBe(true);
      expect(limited?.status).toBe(429);
      expect(limited?.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(Number(limited?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // Pages are read freely: only submissions are counted.
      expect((await own.call('GET', `/p/${id}/opt-in`, { key: null })).status).toBe(200);
    } finally {
      await own.stop();
    }
  });
});

import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CreateCampaignBody } from '../../../api/schemas/campaigns.js';
import { PredictBody } from '../../../api/schemas/registrations.js';
import { ServiceError } from '../../errors.js';
import { listDomains } from '../../domain/email/domains.js';
import { getEmail, listEmails } from '../../domain/email/send.js';
import { emailTimeline } from '../../domain/email/email-events.js';
import { listBrands } from '../../domain/registration/brands.js';
import { getCampaign, listCampaigns } from '../../domain/registration/campaigns.js';
import { predictForActor } from '../../domain/registration/prediction-request.js';
import { requestOrigin } from '../../http/origin.js';
import { domainView } from '../../views/domains.js';
import { emailView } from '../../views/emails.js';
import { emailEventsView } from '../../views/email-events.js';
import { brandView } from '../../views/brands.js';
import { campaignSummaryView, campaignView } from '../../views/campaigns.js';
import { mailboxMessageView } from '../../views/mailbox.js';
import { campaignMain, emailDetailMain, emailMain, registrationMain } from '../../views/console/email-registration.js';
import { EMAIL_FRAME_HEADERS, emailFrameDocument, mailboxMain } from '../../views/console/mailbox.js';
import { shellWord } from '../../views/console/html.js';
import { parseWith } from './gate.js';
import { IdParam, PAGE_LIMIT, gated, type ConsoleKit } from './kit.js';

// Sending domains and emails (the per-recipient timeline), the mail sandbox (local service
// only, like its API), and 10DLC registration with the approval prediction of a stored campaign.

/** Two lists on one page, each paged by its own cursor (the API's, for its list). */
const EmailQuery = z.object({ cursor: z.string().min(1).max(500).optional(), domains: z.string().min(1).max(500).optional() });
const RegistrationQuery = z.object({ brands: z.string().min(1).max(500).optional(), campaigns: z.string().min(1).max(500).optional() });
const InboxQuery = z.object({ after: z.string().min(1).max(200).optional(), show: z.string().min(1).max(200).optional() });

export function consoleEmailAndRegistrationPages({ c, deps, page, mailbox }: ConsoleKit): void {
  c.get('/email', gated, async (req, reply) => {
    const q = parseWith(EmailQuery, 'query', req.query);
    const { actor } = req.console;
    const { domains, emails } = await deps.uow.read(async (tx) => ({
      domains: await listDomains(tx, actor, {}, PAGE_LIMIT, q.domains),
      emails: await listEmails(tx, actor, PAGE_LIMIT, q.cursor),
    }));
    const pages = { domains: q.domains, cursor: q.cursor, nextDomains: domains.hasMore ? domains.nextCursor : null, nextEmails: emails.hasMore ? emails.nextCursor : null };
    return page(req, reply, { title: 'Email', section: 'email', command: 'svc emails list', main: emailMain(domains.data.map(domainView), emails.data.map(emailView), pages, deps.options.sandbox) });
  });
  c.get('/email/emails/:id', gated, async (req, reply) => {
    const { id } = parseWith(IdParam, 'params', req.params);
    const { actor } = req.console;
    const { email, timeline } = await deps.uow.read(async (tx) => ({ email: emailView(await getEmail(tx, actor, id)), timeline: emailEventsView(await emailTimeline(tx, actor, id)) }));
    return page(req, reply, { title: `Email ${email.subject ?? email.id}`, section: 'email', command: `svc emails get ${shellWord(email.id)}`, main: emailDetailMain(email, timeline) });
  });

  c.get('/registration', gated, async (req, reply) => {
    const q = parseWith(RegistrationQuery, 'query', req.query);
    const { actor } = req.console;
    const origin = requestOrigin(req);
    const { brands, campaigns } = await deps.uow.read(async (tx) => ({
      brands: await listBrands(tx, actor, {}, PAGE_LIMIT, q.brands),
      campaigns: await listCampaigns(tx, actor, {}, PAGE_LIMIT, q.campaigns),
    }));
    const pages = { brands: q.brands, campaigns: q.campaigns, nextBrands: brands.hasMore ? brands.nextCursor : null, nextCampaigns: campaigns.hasMore ? campaigns.nextCursor : null };
    return page(req, reply, { title: 'Registration', section: 'registration', command: 'svc brands list', main: registrationMain(brands.data.map((b) => brandView(b, origin)), campaigns.data.map(campaignSummaryView), pages) });
  });
  c.get('/registration/campaigns/:id', gated, async (req, reply) => {
    const { id } = parseWith(IdParam, 'params', req.params);
    const { actor } = req.console;
    const campaign = campaignView(await deps.uow.read((tx) => getCampaign(tx, actor, id)));
    // The prediction of the campaign as stored: its fields that a draft takes (contract §7).
    const fields = Object.fromEntries(Object.keys(CreateCampaignBody.shape).flatMap((k) => { const v = (campaign as Record<string, unknown>)[k]; return v === null || v === undefined ? [] : [[k, v]]; }));
    const draft = PredictBody.safeParse({ campaign: fields });
    const prediction = draft.success ? await deps.uow.read((tx) => predictForActor(tx, actor, draft.data)) : null;
    return page(req, reply, { title: `Campaign ${campaign.name ?? campaign.id}`, section: 'registration', command: `svc campaigns get ${shellWord(campaign.id)}`, main: campaignMain(campaign, prediction) });
  });


  // The mail sandbox (local service only, like its API): oldest first, paged forward by cursor.
  if (deps.options.sandbox) {
    /** The inbox's page after `after`, and the message `show` names on it. */
    const inboxPage = async (req: FastifyRequest) => {
      const { after, show } = parseWith(InboxQuery, 'query', req.query);
      const p = await mailbox.read(req.console.actor, { after, limit: PAGE_LIMIT, wait: 0 });
      const messages = p.messages.map(mailboxMessageView);
      const selected = show === undefined ? undefined : messages.find((m) => m.id === show);
      if (show !== undefined && !selected) throw new ServiceError('not_found', 'mail sandbox message not found on this page');
      return { after, p, messages, selected };
    };
    c.get('/email/inbox', gated, async (req, reply) => {
      const { after, p, messages, selected } = await inboxPage(req);
      return page(req, reply, {
        title: 'Mail sandbox',
        section: 'email',
        command: 'svc emails wait --to <address>',
        main: mailboxMain(messages, selected, messages.length === PAGE_LIMIT ? p.cursor : null, after),
      });
    });
    // The message's HTML as a document of its own, for the page's sandboxed frame (its CSP: mailbox.ts).
    c.get('/email/inbox/frame', gated, async (req, reply) => {
      const { selected } = await inboxPage(req);
      if (!selected || selected.html === null) throw new ServiceError('not_found', 'this mail sandbox message has no HTML');
      return reply.code(200).headers(EMAIL_FRAME_HEADERS).send(emailFrameDocument(selected.html));
    });
  }

}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CONSOLE_PATH } from '../../../api/values/console.js';
import { ListQuerySchema } from '../../../api/schemas/page.js';
import { ThreadParams } from '../../../api/schemas/conversations.js';
import { InboundMessageBody, SendMessageBody } from '../../../api/schemas/messages.js';
import { CreateKeyBody } from '../../../api/schemas/keys.js';
import type { ServiceDeps } from '../../deps.js';
import { endConsoleSession, exchangeConsoleLink, previewConsoleLink, switchConsoleContext } from '../../domain/console/sessions.js';
import { conversationThread, listConversations } from '../../domain/conversations.js';
import { receiveInbound, sendMessage } from '../../domain/messages.js';
import { assertMayActServiceWide } from '../../domain/test-keys.js';
import { advanceClock } from '../../domain/sandbox-clock.js';
import { clockView } from '../../views/sandbox-clock.js';
import { sandboxMain } from '../../views/console/sandbox.js';
import { AdvanceClockBody } from '../../../api/schemas/sandbox.js';
import { EventsFeed } from '../../domain/events/feed.js';
import { MailboxFeed } from '../../domain/email/mailbox.js';
import { ServiceError } from '../../errors.js';
import { getBilling } from '../../domain/billing/billing.js';
import { getUsage } from '../../domain/billing/usage.js';
import { listSubaccounts } from '../../domain/accounts.js';
import { createKey, listKeys, revokeKey } from '../../domain/keys.js';
import { listNumbers } from '../../domain/numbers.js';
import { billingView } from '../../views/billing.js';
import { conversationView } from '../../views/conversations.js';
import { messageView } from '../../views/messages.js';
import { subaccountView } from '../../views/subaccounts.js';
import { createdKeyView, keyView } from '../../views/keys.js';
import { CONSOLE_CSS, CONSOLE_JS } from '../../views/console/assets.js';
import { consolePage, type ConsoleFrame, type SectionId } from '../../views/console/layout.js';
import { loginConfirmMain } from '../../views/console/login.js';
import { html, shellWord } from '../../views/console/html.js';
import { billingMain, conversationsMain, eventsMain, keysMain, numbersMain, overviewMain, threadMain } from '../../views/console/pages.js';
import { renderNumbers } from '../numbers.js';
import { assertSameOrigin, installConsoleGate, parseWith, sendPage, sessionCookie, clearedCookie } from './gate.js';
import { consoleStreamRoute } from './stream.js';
import { CursorQuery, IdParam, PAGE_LIMIT, form, gated, open, openForm, type ConsoleKit } from './kit.js';
import { consoleVoicePages } from './voice.js';
import { consoleEmailAndRegistrationPages } from './email-registration.js';
import { consoleWebhookPages } from './webhooks.js';

// The console, served by the service under /console. Every page reads through the same
// domain functions as the API routes, with the session's key as the caller (never HTTP to itself),
// so a session sees exactly what its key may see; another account's id is a 404 page.

type Req = FastifyRequest;
const USAGE_DAYS = 14;
const DAY_MS = 86_400_000;
const OVERVIEW_EVENTS = 10;

const EventsQuery = z.object({ cursor: z.string().min(1).max(500).optional(), types: z.string().max(2000).optional() });
const LoginQuery = z.object({ token: z.string().max(200).optional() });
const ContextForm = z.object({ subaccount: z.string().max(200).optional() });
const FlashQuery = z.object({ sent: z.string().max(200).optional() });

export function consoleRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  app.register(
    async (c) => {
      installConsoleGate(c, deps);
      const feed = new EventsFeed(deps);
      const mailbox = new MailboxFeed(deps);
      c.addHook('preClose', async () => {
        feed.close();
        mailbox.close();
      });

      /** A page in the console's frame, with who the session acts as. */
      const page = (req: Req, reply: FastifyReply, f: Omit<ConsoleFrame, 'who' | 'csrf'> & { section: SectionId }, status = 200) => {
        const { standing } = req.console;
        return sendPage(
          reply,
          consolePage({ ...f, sandbox: deps.options.sandbox, csrf: standing.session.csrf, who: { accountName: standing.account.name, accountId: standing.account.id, mode: standing.key.mode, viaSubaccount: standing.session.subaccountId !== null } }),
          status,
        );
      };
      const back = (reply: FastifyReply, to: string) => reply.code(303).header('Location', to).header('Cache-Control', 'no-store').send();
      const kit: ConsoleKit = { c, deps, page, mailbox };

      c.get('/assets/console.css', open, async (_req, reply) => reply.type('text/css; charset=utf-8').header('Cache-Control', 'no-cache').header('X-Content-Type-Options', 'nosniff').send(CONSOLE_CSS));
      c.get('/assets/console.js', open, async (_req, reply) => reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'no-cache').header('X-Content-Type-Options', 'nosniff').send(CONSOLE_JS));

      // The one-time link (login CSRF: domain/console/sessions.ts). Opening it only asks: the page
      // names the account and key; its button's POST, from this origin only, exchanges the token for
      // the session cookie, then redirects to a URL without the token.
      c.get('/login', open, async (req, reply) => {
        const { token } = parseWith(LoginQuery, 'query', req.query);
        const standing = await deps.uow.read((tx) => previewConsoleLink(tx, token ?? ''));
        // Referrer-Policy stays same-origin (CONSOLE_HEADERS): under no-referrer the button's POST would
        // carry `Origin: null` and be refused; the token goes to no other origin either way.
        return sendPage(reply, consolePage({ title: 'Sign in to the console?', main: loginConfirmMain(standing, token ?? '') }));
      });
      c.post('/login', openForm, async (req, reply) => {
        assertSameOrigin(req);
        const { token } = parseWith(LoginQuery, 'body', { token: (req.body as Record<string, string>).token });
        const { secret } = await deps.uow.write((tx) => exchangeConsoleLink(tx, token ?? ''));
        return reply.code(303).header('Set-Cookie', sessionCookie(req, secret)).header('Location', `${CONSOLE_PATH}/`).header('Cache-Control', 'no-store').send();
      });

      c.post('/logout', form, async (req, reply) => {
        await deps.uow.write((tx) => endConsoleSession(tx, req.console.standing));
        return reply.code(303).header('Set-Cookie', clearedCookie(req)).header('Location', `${CONSOLE_PATH}/signed-out`).send();
      });
      c.get('/signed-out', open, async (_req, reply) => sendPage(reply, consolePage({ title: 'Signed out', main: html`<p>The console session has ended. Run <code>svc console</code> to open a new one.</p>` })));

      c.post('/context', form, async (req, reply) => {
        const { subaccount } = parseWith(ContextForm, 'body', { subaccount: (req.body as Record<string, string>).subaccount });
        await deps.uow.write((tx) => switchConsoleContext(tx, req.console.standing, subaccount ? subaccount : null));
        return back(reply, `${CONSOLE_PATH}/`);
      });

      c.get('/', gated, async (req, reply) => {
        const { actor, standing } = req.console;
        const data = await deps.uow.read(async (tx) => ({
          billing: billingView(await getBilling(tx, actor)),
          subaccounts: standing.caller.isAgency ? (await listSubaccounts(tx, { account: standing.caller, mode: actor.mode }, 100)).data.map(subaccountView) : [],
        }));
        const events = await feed.read(actor, { order: 'desc', limit: OVERVIEW_EVENTS, wait: 0 });
        return page(req, reply, {
          title: 'Overview',
          section: 'overview',
          command: 'svc billing show',
          main: overviewMain({ account: standing.account, caller: standing.caller, mode: standing.key.mode, billing: data.billing, events: events.events, eventsLimit: OVERVIEW_EVENTS, subaccounts: data.subaccounts, actingOnSubaccount: standing.session.subaccountId !== null, csrf: standing.session.csrf }),
        });
      });

      c.get('/messages', gated, async (req, reply) => {
        const { cursor } = parseWith(CursorQuery, 'query', req.query);
        const p = await deps.uow.read((tx) => listConversations(tx, req.console.actor, PAGE_LIMIT, cursor));
        const rows = p.data.map((c) => ({ summary: conversationView(c), lastStatus: c.last.status }));
        return page(req, reply, { title: 'Messages', section: 'messages', command: 'svc conversations list', main: conversationsMain(rows, p.hasMore ? p.nextCursor : null, cursor !== undefined) });
      });

      c.get('/messages/:counterparty', gated, async (req, reply) => {
        const { counterparty } = parseWith(ThreadParams, 'params', req.params);
        const { sent } = parseWith(FlashQuery, 'query', req.query);
        const { actor, standing } = req.console;
        const { thread, numbers } = await deps.uow.read(async (tx) => ({
          thread: (await conversationThread(tx, actor, counterparty as string, 50)).map(messageView),
          numbers: (await listNumbers(tx, actor, {}, 100)).data.filter((n) => n.status !== 'released').map((n) => n.phoneNumber),
        }));
        return page(req, reply, {
          title: `Conversation with ${counterparty as string}`,
          section: 'messages',
          command: `svc conversations show ${shellWord(counterparty as string)}`,
          main: threadMain(counterparty as string, thread, numbers, standing.session.csrf, sent ? `Message ${sent} sent.` : undefined),
        });
      });

      c.post('/messages/:counterparty', form, async (req, reply) => {
        const { counterparty } = parseWith(ThreadParams, 'params', req.params);
        const fields = req.body as Record<string, string>;
        const body = parseWith(SendMessageBody, 'body', { to: counterparty, from: fields.from ?? '', body: fields.body ?? '' });
        const sent = await deps.uow.write((tx) => sendMessage(tx, req.console.actor, body));
        return back(reply, `${CONSOLE_PATH}/messages/${encodeURIComponent(counterparty as string)}?sent=${encodeURIComponent(sent.id)}`);
      });

      c.get('/events', gated, async (req, reply) => {
        const { cursor, types } = parseWith(EventsQuery, 'query', req.query);
        const p = await feed.read(req.console.actor, { order: 'desc', limit: PAGE_LIMIT, wait: 0, before: cursor, types: types || undefined });
        return page(req, reply, {
          title: 'Events',
          section: 'events',
          command: types ? `svc events follow --types ${shellWord(types)}` : 'svc events follow',
          main: eventsMain(p.events, types, p.hasMore ? p.cursor : null, PAGE_LIMIT, cursor !== undefined),
        });
      });
      consoleStreamRoute(c, deps, feed);

      const keysPage = async (req: Req, reply: FastifyReply, cursor: string | undefined, created?: Parameters<typeof keysMain>[4], status = 200) => {
        const { actor, standing } = req.console;
        const p = await deps.uow.read((tx) => listKeys(tx, actor, PAGE_LIMIT, cursor));
        return page(req, reply, { title: 'API keys', section: 'keys', command: 'svc keys list', main: keysMain(p.data.map(keyView), p.hasMore ? p.nextCursor : null, standing.session.csrf, standing.key.id, created) }, status);
      };
      c.get('/keys', gated, async (req, reply) => keysPage(req, reply, parseWith(CursorQuery, 'query', req.query).cursor));
      // The new key is shown in this answer only (it is never stored): no redirect.
      c.post('/keys', form, async (req, reply) => {
        const fields = req.body as Record<string, string>;
        const body = parseWith(CreateKeyBody, 'body', { name: fields.name ?? '', mode: fields.mode ?? 'test' });
        const minted = await deps.uow.write((tx) => createKey(tx, req.console.actor, body.name, body.mode));
        return keysPage(req, reply, undefined, createdKeyView(minted.record, minted.key), 201);
      });
      c.post('/keys/:id/revoke', form, async (req, reply) => {
        const { id } = parseWith(IdParam, 'params', req.params);
        await deps.uow.write((tx) => revokeKey(tx, req.console.actor, id));
        return back(reply, `${CONSOLE_PATH}/keys`);
      });

      c.get('/numbers', gated, async (req, reply) => {
        const { cursor } = parseWith(ListQuerySchema.pick({ cursor: true }), 'query', req.query);
        const p = await deps.uow.read((tx) => listNumbers(tx, req.console.actor, {}, PAGE_LIMIT, cursor));
        const rows = await renderNumbers(deps, p.data);
        return page(req, reply, { title: 'Numbers', section: 'numbers', command: 'svc numbers list', main: numbersMain(rows, p.hasMore ? p.nextCursor : null) });
      });

      c.get('/billing', gated, async (req, reply) => {
        const { actor } = req.console;
        const now = deps.clock.nowMs();
        const today = Math.floor(now / DAY_MS) * DAY_MS;
        const { billing, days, month } = await deps.uow.read(async (tx) => {
          const days = [];
          for (let i = USAGE_DAYS - 1; i >= 0; i--) {
            const from = today - i * DAY_MS;
            const to = Math.min(from + DAY_MS, now);
            const r = to > from ? await getUsage(tx, actor, { from: new Date(from).toISOString(), to: new Date(to).toISOString() }) : { totalCents: 0 };
            days.push({ day: new Date(from).toISOString().slice(0, 10), cents: r.totalCents });
          }
          return { billing: billingView(await getBilling(tx, actor)), days, month: await getUsage(tx, actor, {}) };
        });
        return page(req, reply, { title: 'Billing and usage', section: 'billing', command: 'svc billing show', main: billingMain(billing, days, month.lines) });
      });

      consoleWebhookPages(kit);
      consoleVoicePages(kit);
      consoleEmailAndRegistrationPages(kit);

      if (deps.options.sandbox) {
        // The sandbox page: the clock (service-wide: the root account's live key only, as the API's
        // advance) and a consumer's text.
        const mayAdvance = (req: Req): string | null => {
          try {
            const { standing } = req.console;
            assertMayActServiceWide(standing.caller, standing.key.mode, standing.session.subaccountId !== null);
            return null;
          } catch (err) {
            return err instanceof ServiceError ? err.message : 'the clock cannot be moved from this session';
          }
        };
        const sandboxPage = async (req: Req, reply: FastifyReply, ran?: Awaited<ReturnType<typeof advanceClock>>, flash?: string) => {
          const numbers = (await deps.uow.read((tx) => listNumbers(tx, req.console.actor, {}, 100))).data.filter((n) => n.status !== 'released').map((n) => n.phoneNumber);
          return page(req, reply, { title: 'Sandbox', section: 'sandbox', command: 'svc clock show', main: sandboxMain(clockView(deps.clock), numbers, req.console.standing.session.csrf, mayAdvance(req), ran, flash) });
        };
        c.get('/sandbox', gated, async (req, reply) => sandboxPage(req, reply));
        c.post('/sandbox/advance', form, async (req, reply) => {
          const { standing } = req.console;
          assertMayActServiceWide(standing.caller, standing.key.mode, standing.session.subaccountId !== null);
          const { seconds } = parseWith(AdvanceClockBody, 'body', { seconds: Number((req.body as Record<string, string>).seconds) });
          return sandboxPage(req, reply, await advanceClock(deps, seconds), `Advanced ${seconds} s.`);
        });
        c.post('/sandbox/inbound', form, async (req, reply) => {
          const fields = req.body as Record<string, string>;
          const body = parseWith(InboundMessageBody, 'body', { from: fields.from ?? '', to: fields.to ?? '', body: fields.body ?? '' });
          const received = await deps.uow.write((tx) => receiveInbound(tx, req.console.actor, body));
          return back(reply, `${CONSOLE_PATH}/messages/${encodeURIComponent(received.from)}`);
        });
      }

      // Anything else under /console: the console's own 404 page (not the API's 401 for a missing key).
      c.get('/*', open, async (_req, reply) => sendPage(reply, consolePage({ title: 'Not found', main: html`<p>There is no console page at this address.</p>` }), 404));
    },
    { prefix: CONSOLE_PATH },
  );
}

import type { FastifyInstance } from 'fastify';

/**
 * A closing service answers what it still has under way and closes those connections
 * after the answer. Fastify's close (`server.close()`) closes only the keep-alive connections that
 * are idle at that moment; a request still being worked on then (a held read released by the close
 * but still reading the database, as on PostgreSQL where each read waits on the server) is answered
 * on a connection that stays open, idle, until the keep-alive timeout (15 s) ends it, and the close
 * waits all that time. So from the start of the close every answer says `Connection: close`, and
 * Node closes its connection once the answer is written. New requests arriving meanwhile are
 * Fastify's (503, `Connection: close`); responses written by hand (the console's stream) end in
 * their own `preClose` hooks.
 */
export function closeConnectionsAfterAnswers(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  // A callback hook, not an async one: it runs on every answer and costs no promise.
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing && !reply.raw.headersSent) reply.header('connection', 'close');
    done(null, payload);
  });
}

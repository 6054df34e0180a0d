/**
 * @module The generic CRM sink: POSTs the lead as JSON to a URL, signed with HMAC-SHA256 so the receiver
 * can check it came from us and is fresh. Header `Kartage-Signature: t=<unix seconds>,v1=<hex>` where the
 * MAC is over `<t>.<body>` with the shared secret (the scheme Stripe and others use); a receiver should
 * reject a `t` older than five minutes. Any 2xx counts as accepted.
 */
import { createHmac } from 'node:crypto';
import type { LeadSink } from '../core/ports.ts';
import { postWithin } from './fetch-timeout.ts';

export interface WebhookSinkOptions {
  url: string;
  secret: string;
  /** @default 5000 */
  timeoutMs?: number;
  now?: () => number;
  fetch?: typeof fetch;
}

/** The signature header value for `body` sent at `unixSeconds`. */
export function signWebhook(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

export function createWebhookSink(opts: WebhookSinkOptions): LeadSink {
  return {
    name: `webhook ${new URL(opts.url).host}`,
    async deliver(record) {
      const body = JSON.stringify({
        type: 'lead.created',
        id: record.id,
        receivedAt: record.receivedAt,
        source: record.source,
        lead: record.lead,
      });
      const t = Math.floor((opts.now ?? Date.now)() / 1000);
      await postWithin(opts.url, {
        headers: {
          'Content-Type': 'application/json',
          'Kartage-Signature': signWebhook(opts.secret, body, t),
          'Kartage-Delivery': record.id,
        },
        body,
        timeoutMs: opts.timeoutMs ?? 5000,
        what: 'The lead webhook',
        fetch: opts.fetch,
      });
    },
  };
}

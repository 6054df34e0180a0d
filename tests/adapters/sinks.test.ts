/**
 * What the lead sinks send, read off the request each hands to `fetch` (tests/server/leads.test.ts delivers
 * to fake HubSpot and webhook servers over a socket): HubSpot's secure form submission with the contact's
 * fields, and the signed webhook. A non-2xx answer rejects with the status. Written with the mutants
 * `npm run mutate` found surviving (bench/mutation.md). Last, over real HTTP to the fake services: an answer
 * of 5 MB, or one that never ends, is read up to 64 KB and the rest discarded.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_MAX_BYTES, HttpError, postWithin, textUpTo } from '../../src/adapters/fetch-timeout.ts';
import { createHubSpotSink, hubSpotFields, splitName } from '../../src/adapters/hubspot-sink.ts';
import { createSlackNotifier } from '../../src/adapters/notifiers.ts';
import { createWebhookSink, signWebhook } from '../../src/adapters/webhook-sink.ts';
import type { LeadRecord } from '../../src/core/ports.ts';
import { startFakeHubSpot, startFakeSlack, startFakeWebhook } from '../helpers/fake-crm.ts';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

/** A `fetch` that records each request and answers `status`. */
function recorder(status = 200, answer = '{}') {
  const sent: Sent[] = [];
  const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    sent.push({
      url: String(url),
      method: init?.method ?? 'GET',
      headers: init?.headers as Record<string, string>,
      body: String(init?.body),
    });
    return new Response(answer, { status });
  }) as typeof globalThis.fetch;
  return { sent, fetch };
}

const record: LeadRecord = {
  id: 'lead-123',
  receivedAt: '2026-11-23T10:00:00.000Z',
  source: 'https://kartage.com.au/demo',
  lead: {
    name: 'Mary Jane  Watson',
    email: 'mj@harbourline.com.au',
    dialcode: '+61',
    phone: '400 000 000',
    company: 'Harbourline',
    country: 'Australia',
    message: 'Hello',
    intent: 'demo',
    segment: 'International',
    warehouses: '2-5',
    moves: '500-2,000',
  },
};

describe('HubSpot: the contact as HubSpot form fields', () => {
  it('splits a name into first names and the last name; one word is a first name only', () => {
    expect(splitName('  Mary Jane  Watson ')).toEqual({ firstname: 'Mary Jane', lastname: 'Watson' });
    expect(splitName('Cher')).toEqual({ firstname: 'Cher' });
  });

  it('sends every field the lead has, the phone with its dial code, and leaves out the ones it has not', () => {
    expect(hubSpotFields(record).map((f) => [f.name, f.value])).toEqual([
      ['email', 'mj@harbourline.com.au'],
      ['firstname', 'Mary Jane'],
      ['lastname', 'Watson'],
      ['company', 'Harbourline'],
      ['phone', '+61 400 000 000'],
      ['country', 'Australia'],
      ['message', 'Hello'],
      ['kartage_intent', 'demo'],
      ['kartage_segment', 'International'],
      ['kartage_warehouses', '2-5'],
      ['kartage_moves', '500-2,000'],
      ['kartage_lead_id', 'lead-123'],
    ]);
    const bare = hubSpotFields({
      ...record,
      lead: { name: 'Cher', email: 'c@h.au', dialcode: '+61', intent: 'enquiry' },
    });
    expect(bare.map((f) => f.name)).toEqual(['email', 'firstname', 'kartage_intent', 'kartage_lead_id']);
    expect(new Set(bare.map((f) => f.objectTypeId))).toEqual(new Set(['0-1']));
  });

  it("posts to the portal's form with the token, the submission time and the page it came from", async () => {
    const { sent, fetch } = recorder();
    const sink = createHubSpotSink({
      token: 'tok',
      portalId: '12 34',
      formId: 'f/1',
      baseUrl: 'http://127.0.0.1:9/',
      fetch,
    });
    expect(sink.name).toBe('hubspot');
    await sink.deliver(record);
    expect(sent).toHaveLength(1);
    const [req] = sent;
    expect(req?.url).toBe('http://127.0.0.1:9/submissions/v3/integration/secure/submit/12%2034/f%2F1');
    expect(req?.method).toBe('POST');
    expect(req?.headers).toEqual({
      Authorization: 'Bearer tok',
      'Content-Type': 'application/json',
      Accept: 'application/json',
    });
    const body = JSON.parse(req?.body ?? '{}');
    expect(body.submittedAt).toBe(String(Date.parse(record.receivedAt)));
    expect(body.context).toEqual({ pageUri: 'https://kartage.com.au/demo', pageName: 'Book a demo' });
    expect(body.fields).toEqual(hubSpotFields(record));
  });

  it('an enquiry with no page is named Contact, with no page URI; the default host is HubSpot', async () => {
    const { sent, fetch } = recorder();
    const lead = { ...record.lead, intent: 'enquiry' as const };
    await createHubSpotSink({ token: 't', portalId: 'p', formId: 'f', fetch }).deliver({
      ...record,
      lead,
      source: undefined,
    });
    expect(sent[0]?.url).toBe('https://api.hsforms.com/submissions/v3/integration/secure/submit/p/f');
    expect(JSON.parse(sent[0]?.body ?? '{}').context).toEqual({ pageName: 'Contact' });
  });

  it('a refusal rejects with HubSpot and the status named', async () => {
    const { fetch } = recorder(400, '{"status":"error"}');
    await expect(createHubSpotSink({ token: 't', portalId: 'p', formId: 'f', fetch }).deliver(record)).rejects.toThrow(
      'HubSpot answered 400: {"status":"error"}',
    );
  });
});

describe('the signed webhook', () => {
  it('signs the timestamp and body with HMAC-SHA256, Stripe-style', () => {
    const mac = createHmac('sha256', 's3cret').update('1700000000.{"a":1}').digest('hex');
    expect(signWebhook('s3cret', '{"a":1}', 1700000000)).toBe(`t=1700000000,v1=${mac}`);
  });

  it('posts lead.created with the id, time, source and lead, signed at the current second', async () => {
    const { sent, fetch } = recorder();
    const sink = createWebhookSink({
      url: 'https://hooks.example.com/leads',
      secret: 'k',
      now: () => 1_700_000_000_999,
      fetch,
    });
    expect(sink.name).toBe('webhook hooks.example.com');
    await sink.deliver(record);
    const [req] = sent;
    expect(req?.url).toBe('https://hooks.example.com/leads');
    expect(JSON.parse(req?.body ?? '{}')).toEqual({
      type: 'lead.created',
      id: 'lead-123',
      receivedAt: record.receivedAt,
      source: record.source,
      lead: record.lead,
    });
    expect(req?.headers).toEqual({
      'Content-Type': 'application/json',
      'Kartage-Signature': signWebhook('k', req?.body ?? '', 1_700_000_000),
      'Kartage-Delivery': 'lead-123',
    });
  });

  it('a failing receiver rejects with the status named', async () => {
    const { fetch } = recorder(503, 'down');
    const sink = createWebhookSink({ url: 'https://hooks.example.com/leads', secret: 'k', fetch });
    await expect(sink.deliver(record)).rejects.toThrow('The lead webhook answered 503: down');
  });
});

describe('an answer of any size costs at most 64 KB', () => {
  const auth = { token: 'pat-na1-test', portalId: '123456', formId: 'f-1' };
  const FIVE_MB = 5 * 1024 * 1024;
  let hubspot: Awaited<ReturnType<typeof startFakeHubSpot>>;
  let webhook: Awaited<ReturnType<typeof startFakeWebhook>>;
  let slack: Awaited<ReturnType<typeof startFakeSlack>>;
  beforeAll(async () => {
    [hubspot, webhook, slack] = await Promise.all([startFakeHubSpot(auth), startFakeWebhook('k'), startFakeSlack()]);
  });
  afterAll(async () => {
    await Promise.all([hubspot?.stop(), webhook?.stop(), slack?.stop()]);
  });

  /** The rejection of `work`, which must reject. */
  const rejection = async (work: Promise<unknown>) => {
    const err = await work.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(HttpError);
    return err as HttpError;
  };

  it('the CRM refusing with a 5 MB body: the error keeps its first 64 KB, the rest is not read', async () => {
    hubspot.setMode({ status: 400, bytes: FIVE_MB });
    const sink = createHubSpotSink({ ...auth, baseUrl: hubspot.url });
    const err = await rejection(sink.deliver(record));
    expect(err.status).toBe(400);
    expect(err.body).toBe('x'.repeat(ANSWER_MAX_BYTES));
  });

  it('a 5 MB answer to a good delivery is taken as accepted, its text cut at 64 KB', async () => {
    hubspot.setMode({ status: 200, bytes: FIVE_MB });
    const url = `${hubspot.url}/submissions/v3/integration/secure/submit/${auth.portalId}/${auth.formId}`;
    const text = await postWithin(url, { headers: {}, body: '{}', timeoutMs: 10_000, what: 'HubSpot' });
    expect(text).toBe('x'.repeat(ANSWER_MAX_BYTES));
  });

  it('a lead webhook and a sales webhook whose answer never ends: answered at the cap, not held', async () => {
    webhook.setMode({ status: 500, bytes: Number.POSITIVE_INFINITY });
    const sink = createWebhookSink({ url: webhook.url, secret: 'k', timeoutMs: 10_000 });
    const err = await rejection(sink.deliver(record));
    expect(err.status).toBe(500);
    expect(err.body).toHaveLength(ANSWER_MAX_BYTES);
    slack.setMode({ status: 200, bytes: Number.POSITIVE_INFINITY });
    await createSlackNotifier({ url: slack.url, origin: 'https://kartage.com.au', timeoutMs: 10_000 }).notify(record);
  });

  it('a character cut at the cap becomes U+FFFD; a short answer is read whole', async () => {
    const answer = (body: string) => new Response(body);
    expect(await textUpTo(answer('aé'), 2)).toBe('a\uFFFD');
    expect(await textUpTo(answer('aé'), 3)).toBe('aé');
    expect(await textUpTo(answer(''), 3)).toBe('');
    expect(await textUpTo(new Response(null), 3)).toBe('');
  });
});

describe("HubSpot's first and last name", () => {
  it('a name of two words is a first name and a last name', () => {
    expect(splitName('Sam Taylor')).toEqual({ firstname: 'Sam', lastname: 'Taylor' });
    expect(splitName('  Sam   Taylor ')).toEqual({ firstname: 'Sam', lastname: 'Taylor' });
  });

  it('the form fields of a two-word name carry both', () => {
    const fields = hubSpotFields({
      id: 'l1',
      receivedAt: 't',
      lead: { name: 'Sam Taylor', email: 's@x.example', dialcode: '+61', intent: 'enquiry' },
    });
    expect(fields.filter((f) => f.name === 'firstname' || f.name === 'lastname').map((f) => f.value)).toEqual([
      'Sam',
      'Taylor',
    ]);
  });
});

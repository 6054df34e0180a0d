/**
 * Local stand-ins for the third-party services a lead reaches, over real HTTP on loopback: HubSpot's form
 * submission API (answers shaped like the real one: 200 `{inlineMessage}`, 400 `{status:'error', errors}`,
 * 401, 404, and 400 for a field missing from the form definition once told which fields the form has), a
 * signed-webhook receiver and a Slack-compatible incoming webhook. Each can be told to fail (4xx, 5xx, any
 * status), to be slow (a long delay is a CRM that hangs), or to be down.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';

/** `{status, bytes}`: an answer of that status with a body of that many bytes (`Infinity`: one that never ends). */
export type Mode = 'ok' | '4xx' | '5xx' | 'down' | { delayMs: number } | { status: number; bytes?: number };

export interface FakeService<T> {
  url: string;
  received: T[];
  setMode(mode: Mode): void;
  stop(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function serve<T>(
  handle: (req: IncomingMessage, body: string) => { status: number; body: unknown; record?: T },
): Promise<FakeService<T>> {
  let mode: Mode = 'ok';
  const received: T[] = [];
  const server: Server = createServer(async (req, res) => {
    if (mode === 'down') return void req.socket.destroy();
    const body = await bodyOf(req);
    const current = mode;
    if (typeof current === 'object' && 'delayMs' in current) await new Promise((r) => setTimeout(r, current.delayMs));
    if (res.destroyed) return;
    if (typeof current === 'object' && 'status' in current && current.bytes !== undefined) {
      res.writeHead(current.status, { 'Content-Type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      // Written as the client reads (one chunk per drain), until the body is whole or the client hangs up.
      for (let sent = 0; sent < current.bytes && !res.destroyed; sent += chunk.length) {
        const part = chunk.subarray(0, Math.min(chunk.length, current.bytes - sent));
        if (!res.write(part))
          await new Promise<void>((ok) => {
            const go = () => {
              res.off('drain', go).off('close', go);
              ok();
            };
            res.on('drain', go).on('close', go);
          });
      }
      return void res.end();
    }
    if (typeof current === 'object' && 'status' in current) {
      res
        .writeHead(current.status, { 'Content-Type': 'application/json' })
        .end(
          JSON.stringify({ status: 'error', message: `Answering ${current.status} (test)`, correlationId: 'c-any' }),
        );
      return;
    }
    if (mode === '5xx') {
      res
        .writeHead(503, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ status: 'error', message: 'Service Unavailable', correlationId: 'c-503' }));
      return;
    }
    const answer =
      mode === '4xx'
        ? {
            status: 400,
            body: {
              status: 'error',
              message: 'The request is not valid',
              correlationId: 'c-400',
              errors: [{ message: "Error in 'fields.email'. Email address is blocked", errorType: 'BLOCKED_EMAIL' }],
            },
          }
        : handle(req, body);
    if (answer.status < 300 && 'record' in answer && answer.record !== undefined) received.push(answer.record);
    res
      .writeHead(answer.status, { 'Content-Type': 'application/json' })
      .end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    setMode: (m) => void (mode = m),
    stop: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

export interface HubSpotSubmission {
  portalId: string;
  formId: string;
  fields: Record<string, string>;
  context: Record<string, string>;
  submittedAt: string;
}

/**
 * HubSpot's `POST /submissions/v3/integration/secure/submit/{portalId}/{formGuid}`. `setFormFields` gives the
 * form's definition: a submission with any other field is refused with 400, as HubSpot does after a form edit
 * removed a field we send (undefined: every field is accepted).
 */
export async function startFakeHubSpot(opts: { token: string; portalId: string; formId: string }) {
  let formFields: Set<string> | undefined;
  const service = await serve<HubSpotSubmission>((req, raw) => {
    const m = /^\/submissions\/v3\/integration\/secure\/submit\/([^/]+)\/([^/?]+)$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !m) return { status: 404, body: { status: 'error', message: 'Not found' } };
    if (req.headers.authorization !== `Bearer ${opts.token}`) {
      return {
        status: 401,
        body: { status: 'error', message: 'Authentication credentials not found.', category: 'INVALID_AUTHENTICATION' },
      };
    }
    if (m[1] !== opts.portalId || m[2] !== opts.formId)
      return {
        status: 404,
        body: { status: 'error', message: 'Form not found', errors: [{ errorType: 'FORM_NOT_FOUND' }] },
      };
    let body: {
      fields?: { name: string; value: string; objectTypeId?: string }[];
      context?: Record<string, string>;
      submittedAt?: string;
    };
    try {
      body = JSON.parse(raw);
    } catch {
      return {
        status: 400,
        body: { status: 'error', message: 'Invalid input JSON', errors: [{ errorType: 'INVALID_JSON' }] },
      };
    }
    const fields = Object.fromEntries((body.fields ?? []).map((f) => [f.name, f.value]));
    const unknown = Object.keys(fields).filter((name) => formFields && !formFields.has(name));
    if (unknown.length)
      return {
        status: 400,
        body: {
          status: 'error',
          message: 'The request is not valid',
          correlationId: 'c-form',
          errors: unknown.map((name) => ({
            message: `Error in 'fields.${name}'. Field '${name}' is not in the form definition`,
            errorType: 'FIELD_NOT_IN_FORM_DEFINITION',
          })),
        },
      };
    if (!fields.email || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(fields.email)) {
      return {
        status: 400,
        body: {
          status: 'error',
          message: 'The request is not valid',
          errors: [{ message: "Error in 'fields.email'. Invalid email address", errorType: 'INVALID_EMAIL' }],
        },
      };
    }
    return {
      status: 200,
      body: { inlineMessage: 'Thanks for submitting the form.' },
      record: {
        portalId: m[1]!,
        formId: m[2]!,
        fields,
        context: body.context ?? {},
        submittedAt: body.submittedAt ?? '',
      },
    };
  });
  return Object.assign(service, {
    setFormFields: (names: string[] | undefined) => void (formFields = names && new Set(names)),
  });
}

/** A receiver of signed lead webhooks that checks `Kartage-Signature` like a careful receiver would. */
export function startFakeWebhook(secret: string) {
  return serve<{ body: any; delivery: string }>((req, raw) => {
    const sig = String(req.headers['kartage-signature'] ?? '');
    const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(sig);
    if (!m) return { status: 400, body: { error: 'missing signature' } };
    const expected = createHmac('sha256', secret).update(`${m[1]}.${raw}`).digest();
    const fresh = Math.abs(Date.now() / 1000 - Number(m[1])) < 300;
    if (!fresh || !timingSafeEqual(expected, Buffer.from(m[2]!, 'hex')))
      return { status: 400, body: { error: 'bad signature' } };
    return {
      status: 202,
      body: { accepted: true },
      record: { body: JSON.parse(raw), delivery: String(req.headers['kartage-delivery']) },
    };
  });
}

/** A Slack-compatible incoming webhook: 200 `ok`, keeps the payloads. */
export function startFakeSlack() {
  return serve<any>((_req, raw) => ({ status: 200, body: 'ok', record: JSON.parse(raw) }));
}

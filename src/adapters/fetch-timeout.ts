/** @module `fetch` with a time bound and a readable error for non-2xx answers (sinks and notifiers). */

export class HttpError extends Error {
  readonly status: number;
  readonly body: string;
  constructor(status: number, body: string, what: string) {
    super(`${what} answered ${status}: ${body.slice(0, 300)}`);
    this.status = status;
    this.body = body;
  }
}

/** POSTs `body` and resolves with the response text on 2xx; rejects on non-2xx, network error or timeout. */
export async function postWithin(
  url: string,
  init: { headers: Record<string, string>; body: string; timeoutMs: number; what: string; fetch?: typeof fetch },
): Promise<string> {
  const res = await (init.fetch ?? fetch)(url, {
    method: 'POST',
    headers: init.headers,
    body: init.body,
    signal: AbortSignal.timeout(init.timeoutMs),
    redirect: 'error',
  });
  const text = await res.text();
  if (!res.ok) throw new HttpError(res.status, text, init.what);
  return text;
}

/** @module `fetch` with a time bound and a readable error for non-2xx answers (sinks and notifiers). */

/** The most of an answer's body that is read (bytes); the rest is discarded unread. */
export const ANSWER_MAX_BYTES = 64 * 1024;

export class HttpError extends Error {
  readonly status: number;
  readonly body: string;
  constructor(status: number, body: string, what: string) {
    super(`${what} answered ${status}: ${body.slice(0, 300)}`);
    this.status = status;
    this.body = body;
  }
}

/**
 * The first `max` bytes of the body as text: the stream is read up to the cap and then cancelled, so an
 * answer of any size (or one that never ends) costs at most `max` bytes. A character cut at the cap
 * becomes U+FFFD.
 */
export async function textUpTo(res: Response, max = ANSWER_MAX_BYTES): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let left = max;
  let done = false;
  try {
    while (left > 0 && !done) {
      const next = await reader.read();
      done = next.done;
      const part = next.value?.subarray(0, left) ?? new Uint8Array();
      left -= part.length;
      text += decoder.decode(part, { stream: !done && left > 0 });
    }
  } finally {
    if (!done) await reader.cancel().catch(() => {});
  }
  return text;
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
  const text = await textUpTo(res);
  if (!res.ok) throw new HttpError(res.status, text, init.what);
  return text;
}

/**
 * @module The one bounded body reader: its failures typed, so each caller answers them its own way (the
 * Error body, or the lead form's HTML page). Web-standard only.
 */

/** Why a body was not read: larger than the limit, or broken off before its end (client gone, bad chunking). */
export type BodyFailure = 'too-large' | 'unreadable';

/** The bytes of a body, or why they were not read. */
export type BodyRead = { ok: true; bytes: Buffer<ArrayBuffer> } | { ok: false; failure: BodyFailure };

/** Reads a body of at most `maxBytes` bytes; one that breaks off is the client's failure, not a throw. */
export async function readBytes(request: Request, maxBytes: number): Promise<BodyRead> {
  // The size is counted while streaming too: a lying or absent Content-Length cannot exhaust memory.
  if (Number(request.headers.get('content-length') ?? '0') > maxBytes) return { ok: false, failure: 'too-large' };
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        return { ok: false, failure: 'unreadable' };
      }
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return { ok: false, failure: 'too-large' };
      }
      chunks.push(chunk.value);
    }
  }
  return { ok: true, bytes: Buffer.concat(chunks) };
}

/** The Error text of a body that was not read (413 when too large, else 400). */
export const bodyFailureText = (failure: BodyFailure, maxBytes: number): string =>
  failure === 'too-large'
    ? `Request body is larger than ${maxBytes} bytes`
    : 'Request body could not be read to its end';

/** The status of a body that was not read. */
export const bodyFailureStatus = (failure: BodyFailure): 400 | 413 => (failure === 'too-large' ? 413 : 400);

/** Why a JSON body was refused, and with what: 413 when too large, else 400. */
export interface JsonFailure {
  failure: BodyFailure | 'empty' | 'not-json';
  status: 400 | 413;
  error: string;
}

/** A JSON body's value, or why it was refused. */
export type ReadJsonResult = { ok: true; value: unknown } | ({ ok: false } & JsonFailure);

/** Reads a JSON body of at most `maxBytes` bytes. */
export async function readJson(request: Request, maxBytes: number): Promise<ReadJsonResult> {
  const read = await readBytes(request, maxBytes);
  if (!read.ok) {
    const { failure } = read;
    return { ok: false, failure, status: bodyFailureStatus(failure), error: bodyFailureText(failure, maxBytes) };
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(read.bytes);
  if (!text.trim())
    return { ok: false, failure: 'empty', status: 400, error: 'Request body is empty: send a JSON object' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, failure: 'not-json', status: 400, error: 'Request body is not valid JSON' };
  }
}

/**
 * @module Header values as the characters the client sent. Node's HTTP parser (and so the fetch
 * `Headers` a function gets) reads header bytes as Latin-1, one character per byte: a UTF-8 emoji arrives
 * as four characters. A value that is valid UTF-8 read that way is decoded back; anything else is kept as
 * it came (a Latin-1 value stays Latin-1).
 */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A header value as the characters the client sent: valid UTF-8 read as Latin-1 decoded back, else as it came. */
export function headerText(value: string | null): string | null {
  if (value === null || !/[\u0080-\u00ff]/.test(value) || /[^\u0000-\u00ff]/.test(value)) return value;
  try {
    return utf8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}

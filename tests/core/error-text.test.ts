/**
 * What a caught value says (src/core/error-text.ts): an Error's message or stack, anything else as text. The
 * module is loaded afresh (vi.resetModules()) so its two functions are the ones this load defines.
 */
import { describe, expect, it, vi } from 'vitest';

const load = async () => {
  vi.resetModules();
  return import('../../src/core/error-text.ts');
};

describe('errorText', () => {
  it("an Error's message; anything with a message, that message as text; anything else, itself as text", async () => {
    const { errorText } = await load();
    expect(errorText(new Error('store down'))).toBe('store down');
    expect(errorText({ message: 42 })).toBe('42');
    expect(errorText('timeout')).toBe('timeout');
    expect(errorText(7)).toBe('7');
    expect(errorText(null)).toBe('null');
    expect(errorText(undefined)).toBe('undefined');
  });
});

describe('errorStack', () => {
  it("an Error's stack; anything else, itself as text", async () => {
    const { errorStack } = await load();
    const e = new Error('store down');
    expect(errorStack(e)).toBe(e.stack);
    expect(errorStack(e)).toMatch(/^Error: store down\n/);
    expect(errorStack('timeout')).toBe('timeout');
    expect(errorStack(null)).toBe('null');
    expect(errorStack(undefined)).toBe('undefined');
  });
});

describe('what a caught value says', () => {
  it("an error's message or stack, anything else as text, null included", async () => {
    const { errorStack, errorText } = await load();
    const e = new Error('boom');
    expect(errorText(e)).toBe('boom');
    expect(errorStack(e)).toBe(e.stack);
    expect(errorStack({ stack: 'at here' })).toBe('at here');
    expect(errorStack({ stack: '' })).toBe('');
    expect(errorStack(null)).toBe('null');
    expect(errorStack('plain')).toBe('plain');
    expect(errorText(null)).toBe('null');
    expect(errorText({ message: '' })).toBe('');
  });
});

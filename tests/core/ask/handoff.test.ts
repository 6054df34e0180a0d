// What the chat says when it offers a person: the label fits the hour, the link goes to the right form.
import { describe, expect, it } from 'vitest';
import { handoffFor } from '../../../src/core/ask/handoff.ts';
import { supportHours } from '../../../src/core/support-hours.ts';

describe('handoff', () => {
  it('knows the support hours: 7am to 7pm AEST (UTC+10), Monday to Saturday', () => {
    // Wednesday 25 November 2026, 12:00 AEST.
    expect(supportHours(Date.parse('2026-11-25T02:00:00Z'))).toEqual({ open: true, opens: '7am AEST tomorrow' });
    // 6:59am AEST Wednesday: closed, opens today.
    expect(supportHours(Date.parse('2026-11-24T20:59:00Z'))).toEqual({ open: false, opens: '7am AEST today' });
    // 7pm AEST Saturday: closed until Monday.
    expect(supportHours(Date.parse('2026-11-28T09:00:00Z'))).toEqual({ open: false, opens: '7am AEST Monday' });
    // Sunday noon AEST.
    expect(supportHours(Date.parse('2026-11-29T02:00:00Z')).open).toBe(false);
  });

  it('offers the phone now within hours, and says when a person replies outside them', () => {
    const open = handoffFor('contact', Date.parse('2026-11-25T02:00:00Z'), 'https://k.example');
    expect(open.label).toContain('call 1300 527 824 now');
    const closed = handoffFor('callback', Date.parse('2026-11-28T10:00:00Z'), 'https://k.example');
    expect(closed.label).toContain('7am AEST Monday');
    expect(closed.label).not.toContain('now');
    expect(handoffFor('demo', 0, 'https://k.example').url).toBe('https://k.example/demo');
  });

  it('sends an existing customer with a problem to support, and a message to the contact form', () => {
    const support = handoffFor('support', Date.parse('2026-11-25T02:00:00Z'), 'https://k.example');
    expect(support.url).toBe('https://k.example/contact#who-to-contact');
    expect(support.label).toContain('support');
    expect(handoffFor('message', 0, 'https://k.example')).toMatchObject({
      intent: 'message',
      url: 'https://k.example/contact',
    });
  });
});

/**
 * @module The CRM sink: HubSpot's form submission API (`POST /submissions/v3/integration/secure/submit/
 * {portalId}/{formGuid}`, bearer token of a private app with the `forms` scope). One request creates or
 * updates the contact (HubSpot de-duplicates by email) and records the submission with every field, which
 * also starts HubSpot's own notifications and workflows. Field mapping: docs/leads-and-limits.md.
 */
import type { LeadRecord, LeadSink } from '../core/ports.ts';
import { postWithin } from './fetch-timeout.ts';

export interface HubSpotSinkOptions {
  token: string;
  portalId: string;
  formId: string;
  /** @default 'https://api.hsforms.com' */
  baseUrl?: string;
  /** @default 5000 */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** HubSpot's contact object type id (form fields are contact properties). */
const CONTACT = '0-1';

/** Splits a full name into HubSpot's first and last name: the last word is the last name. */
export function splitName(full: string): { firstname: string; lastname?: string } {
  const words = full.trim().split(/\s+/);
  return words.length < 2
    ? { firstname: words[0] ?? '' }
    : { firstname: words.slice(0, -1).join(' '), lastname: words.at(-1)! };
}

/** The form fields HubSpot receives for a lead. */
export function hubSpotFields(record: LeadRecord): { objectTypeId: string; name: string; value: string }[] {
  const { lead } = record;
  const { firstname, lastname } = splitName(lead.name);
  const fields: [string, string | undefined][] = [
    ['email', lead.email],
    ['firstname', firstname],
    ['lastname', lastname],
    ['company', lead.company],
    ['phone', lead.phone ? `${lead.dialcode} ${lead.phone}` : undefined],
    ['country', lead.country],
    ['message', lead.message],
    ['kartage_intent', lead.intent],
    ['kartage_segment', lead.segment],
    ['kartage_warehouses', lead.warehouses],
    ['kartage_moves', lead.moves],
    ['kartage_lead_id', record.id],
  ];
  return fields
    .filter((f): f is [string, string] => !!f[1])
    .map(([name, value]) => ({ objectTypeId: CONTACT, name, value }));
}

export function createHubSpotSink(opts: HubSpotSinkOptions): LeadSink {
  const base = (opts.baseUrl ?? 'https://api.hsforms.com').replace(/\/$/, '');
  const url = `${base}/submissions/v3/integration/secure/submit/${encodeURIComponent(opts.portalId)}/${encodeURIComponent(opts.formId)}`;
  return {
    name: 'hubspot',
    async deliver(record) {
      const body = {
        fields: hubSpotFields(record),
        submittedAt: String(Date.parse(record.receivedAt)),
        context: {
          ...(record.source ? { pageUri: record.source } : {}),
          pageName: record.lead.intent === 'demo' ? 'Book a demo' : 'Contact',
        },
      };
      await postWithin(url, {
        headers: {
          Authorization: `Bearer ${opts.token}`,
          'Content-Type': 'application/json',
          Accept: 'application/json',
        },
        body: JSON.stringify(body),
        timeoutMs: opts.timeoutMs ?? 5000,
        what: 'HubSpot',
        fetch: opts.fetch,
      });
    },
  };
}

/** @module The company's published contact details (content/pages/contact.md says the same), in one place. */
export const COMPANY = {
  name: 'Kartage',
  phone: '1300 527 824',
  salesEmail: 'sales@kartage.com.au',
  supportEmail: 'support@kartage.com.au',
  supportHours: '7am to 7pm AEST, Monday to Saturday',
} as const;

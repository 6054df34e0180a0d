/** Navigation data shared by the header, the mobile menu and the footer. */

export interface NavLink {
  href: string;
  label: string;
  /** One-line description for the dropdown panels. */
  blurb?: string;
}

export const PRODUCT_LINKS: NavLink[] = [
  {
    href: '/product/quoting',
    label: 'Quoting and estimates',
    blurb: 'Surveys, m³ or weight estimates, binding quotes',
  },
  { href: '/product/crm', label: 'CRM', blurb: 'Leads, follow-ups and web forms' },
  { href: '/product/scheduling', label: 'Scheduling and dispatch', blurb: 'Calendar, crews, trucks, dispatch board' },
  { href: '/product/crew-app', label: 'Crew app', blurb: 'Inventory, photos, signatures, payments' },
  { href: '/product/storage', label: 'Storage', blurb: 'Locations, vaults, storage billing runs' },
  { href: '/product/international', label: 'International', blurb: 'Customs, containers, groupage, agents' },
  { href: '/product/invoicing', label: 'Invoicing', blurb: 'Deposits, invoices, Xero and MYOB sync' },
  { href: '/product/customer-portal', label: 'Customer portal', blurb: 'Quotes, payments and move tracking' },
  { href: '/product/reporting', label: 'Reporting', blurb: 'Conversion, margin, truck use, occupancy' },
  { href: '/product/integrations', label: 'Integrations', blurb: 'Accounting, payments, phones and more' },
  { href: '/product/api', label: 'Tenant API', blurb: 'Connect Kartage to your own systems' },
];

export const SOLUTION_LINKS: NavLink[] = [
  { href: '/solutions/local-interstate', label: 'Local and interstate', blurb: 'Removalists, backloads and linehaul' },
  { href: '/solutions/international', label: 'International', blurb: 'Household goods forwarding and agents' },
  { href: '/solutions/military-government', label: 'Military and government', blurb: 'Defence and panel relocations' },
  { href: '/solutions/self-storage', label: 'Self-storage and warehousing', blurb: 'Units, vaults and billing runs' },
  { href: '/solutions/mixed', label: 'Mixed operators', blurb: 'Several kinds of work, several branches' },
];

export const MAIN_LINKS: NavLink[] = [
  { href: '/pricing', label: 'Pricing' },
  { href: '/customers', label: 'Customers' },
  { href: '/blog', label: 'Blog' },
  { href: '/developers', label: 'Developers' },
];

export const FOOTER_COLUMNS: { title: string; links: NavLink[] }[] = [
  { title: 'Product', links: PRODUCT_LINKS },
  {
    title: 'Solutions',
    links: [
      ...SOLUTION_LINKS,
      { href: '/customers', label: 'Customer stories' },
      { href: '/pricing', label: 'Pricing' },
    ],
  },
  {
    title: 'Company',
    links: [
      { href: '/about', label: 'About' },
      { href: '/careers', label: 'Careers' },
      { href: '/partners', label: 'Partners' },
      { href: '/blog', label: 'Blog' },
      { href: '/contact', label: 'Contact' },
      { href: '/demo', label: 'Book a demo' },
    ],
  },
  {
    title: 'Resources',
    links: [
      { href: '/security', label: 'Security' },
      { href: '/faq', label: 'FAQ' },
      { href: '/changelog', label: 'Changelog' },
      { href: '/search', label: 'Search' },
      { href: '/privacy', label: 'Privacy' },
      { href: '/terms', label: 'Terms' },
    ],
  },
  {
    title: 'Developers',
    links: [
      { href: '/developers', label: 'Developer docs' },
      { href: '/product/api', label: 'Tenant API' },
      { href: '/openapi.json', label: 'openapi.json' },
      { href: '/llms.txt', label: 'llms.txt' },
      { href: '/sitemap.xml', label: 'sitemap.xml' },
    ],
  },
];

/** True when `href` is the current page or a section that contains it. */
export function isCurrent(href: string, path: string): boolean {
  return path === href || path.startsWith(`${href}/`);
}

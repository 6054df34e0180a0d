/**
 * @module A synthetic, deterministic content corpus for the benchmarks: N pages (default 10,000) of
 * markdown with the project's front matter (content/pages and content/blog), on the moving, relocation and
 * storage domain, with varied lengths (about 120 to 2,500 words), headings, lists, tables and links, and a
 * Zipf-like vocabulary so that searches hit both common and rare words. Same seed, same bytes.
 *
 *   node bench/corpus.ts <dir> [pages] [seed]   # writes <dir>/content/{pages,blog,data}
 *
 * It also exports the fixed list of search queries the search benchmark runs (drawn from this vocabulary).
 */
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');

/** mulberry32: small, fast, deterministic. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CITIES = [
  'Melbourne',
  'Sydney',
  'Brisbane',
  'Perth',
  'Adelaide',
  'Hobart',
  'Darwin',
  'Canberra',
  'Geelong',
  'Newcastle',
  'Wollongong',
  'Townsville',
  'Cairns',
  'Toowoomba',
  'Ballarat',
  'Bendigo',
  'Launceston',
  'Mackay',
  'Rockhampton',
  'Bunbury',
  'Albury',
  'Wodonga',
  'Mildura',
  'Shepparton',
  'Auckland',
  'Wellington',
  'Christchurch',
  'Singapore',
  'Dubai',
  'London',
];
const COMPANIES = [
  'Harbourline Removals',
  'Keystone Self Storage',
  'Tasman Movers',
  'Southern Cross Relocations',
  'Ironbark Defence Moves',
  'Bluegum Transport',
  'Coastal Carriers',
  'Redgum Relocations',
  'Wattle Storage',
  'Kookaburra Moving',
  'Outback Freight',
  'Pelican Removals',
  'Banksia Logistics',
  'Jacaranda Movers',
  'Saltbush Storage',
  'Yarra Valley Removals',
  'Brumby Relocations',
  'Coral Coast Moving',
];
const PEOPLE = [
  'Daniel Osei, Head of Product',
  'Mel Nguyen, Head of Customer Success',
  'Priya Raman, Solutions Engineer',
  'Tom Fitzgerald, Founder',
  'Aisha Karimi, Product Designer',
  'Jack Morrison, Operations Lead',
  'Sofia Rossi, Support Engineer',
  'Liam Chen, Engineering Manager',
];
const TAGS = [
  'quoting',
  'surveys',
  'scheduling',
  'storage',
  'billing',
  'crew',
  'compliance',
  'international',
  'interstate',
  'releases',
  'integrations',
  'safety',
  'customers',
  'pricing',
  'operations',
  'insurance',
];

/** Domain topics: a title pattern and the words that belong to it. */
const TOPICS: { name: string; words: string[] }[] = [
  {
    name: 'storage billing',
    words: [
      'storage',
      'billing',
      'vault',
      'vaults',
      'invoice',
      'arrears',
      'pro-rata',
      'anniversary',
      'calendar',
      'rate',
      'account',
      'direct debit',
      'handling fee',
      'insurance value',
      'self-storage',
      'unit',
    ],
  },
  {
    name: 'quoting',
    words: [
      'quote',
      'quotes',
      'cubic metre',
      'm³',
      'estimate',
      'binding quote',
      'variation',
      'deposit',
      'surcharge',
      'access',
      'stairs',
      'long carry',
      'piano',
      'inventory',
      'volume',
      'weight',
    ],
  },
  {
    name: 'video surveys',
    words: [
      'video survey',
      'surveyor',
      'walk-through',
      'room',
      'inventory',
      'cupboard',
      'garage',
      'live call',
      'recorded',
      'photos',
      'accuracy',
      'in-home visit',
    ],
  },
  {
    name: 'scheduling',
    words: [
      'dispatch',
      'dispatch board',
      'truck',
      'crew',
      'roster',
      'job',
      'route',
      'backloading',
      'interstate',
      'linehaul',
      'depot',
      'capacity',
      'overtime',
      'peak season',
    ],
  },
  {
    name: 'crew app',
    words: [
      'crew app',
      'offline',
      'signature',
      'damage',
      'photos',
      'checklist',
      'timesheet',
      'iOS',
      'Android',
      'barcode',
      'scan',
      'pickup',
      'delivery',
      'handover',
    ],
  },
  {
    name: 'international moves',
    words: [
      'international',
      'customs',
      'groupage',
      'container',
      'sea freight',
      'air freight',
      'consolidation',
      'unaccompanied',
      'personal effects',
      'quarantine',
      'biosecurity',
      'destination agent',
      'FIDI',
      'bill of lading',
    ],
  },
  {
    name: 'defence relocations',
    words: [
      'defence',
      'military',
      'government',
      'compliance',
      'audit',
      'tender',
      'panel',
      'posting',
      'entitlement',
      'security clearance',
      'reporting',
      'service level',
    ],
  },
  {
    name: 'chain of responsibility',
    words: [
      'chain of responsibility',
      'fatigue',
      'load restraint',
      'mass',
      'heavy vehicle',
      'NHVR',
      'driver',
      'logbook',
      'safety',
      'incident',
      'training',
      'pre-start',
    ],
  },
  {
    name: 'accounting integrations',
    words: [
      'Xero',
      'MYOB',
      'sync',
      'integration',
      'invoice',
      'payment',
      'GST',
      'reconciliation',
      'ledger',
      'tax code',
      'export',
      'API',
    ],
  },
  {
    name: 'customer portal',
    words: [
      'portal',
      'customer',
      'booking',
      'self-service',
      'tracking',
      'notification',
      'SMS',
      'email',
      'payment link',
      'documents',
      'feedback',
      'review',
    ],
  },
  {
    name: 'warehouse management',
    words: [
      'warehouse',
      'pallet',
      'racking',
      'forklift',
      'location',
      'bay',
      'aisle',
      'lot number',
      'put away',
      'withdrawal',
      'stocktake',
      'barcode label',
    ],
  },
  {
    name: 'crew productivity',
    words: [
      'productivity',
      'crew',
      'hours',
      'kilometres',
      'damage claims',
      'bonus',
      'fairness',
      'metrics',
      'report',
      'benchmark',
      'utilisation',
      'idle time',
    ],
  },
];

const ADJ = [
  'accurate',
  'busy',
  'careful',
  'clear',
  'common',
  'complex',
  'consistent',
  'fragile',
  'heavy',
  'late',
  'local',
  'manual',
  'monthly',
  'new',
  'overdue',
  'quick',
  'regional',
  'reliable',
  'simple',
  'small',
  'steady',
  'typical',
  'urgent',
  'weekly',
];
const VERBS = [
  'books',
  'checks',
  'plans',
  'quotes',
  'schedules',
  'tracks',
  'bills',
  'loads',
  'records',
  'reviews',
  'confirms',
  'assigns',
  'scans',
  'invoices',
  'reconciles',
  'moves',
  'stores',
  'packs',
];
const ROLES = [
  'the office',
  'the dispatcher',
  'the surveyor',
  'the crew leader',
  'the warehouse manager',
  'the accounts team',
  'the sales team',
  'the driver',
  'the move coordinator',
  'the operations manager',
];
const FILLER = [
  'every',
  'week',
  'month',
  'day',
  'before',
  'after',
  'during',
  'without',
  'with',
  'for',
  'from',
  'into',
  'each',
  'most',
  'many',
  'few',
  'one',
  'two',
  'three',
  'same',
  'other',
  'first',
  'last',
  'next',
  'business',
  'customer',
  'customers',
  'team',
  'system',
  'spreadsheet',
  'process',
  'problem',
  'time',
  'money',
  'cost',
  'price',
  'work',
  'job',
  'jobs',
  'move',
  'moves',
  'house',
  'office',
  'apartment',
  'family',
  'company',
  'record',
  'schedule',
  'change',
  'rule',
  'step',
  'result',
  'number',
  'list',
  'phone',
  'call',
  'note',
  'detail',
  'question',
  'answer',
  'mistake',
  'reason',
];
const RARE = [
  'piano',
  'pool table',
  'grandfather clock',
  'wine collection',
  'aquarium',
  'motorbike',
  'artwork',
  'antique',
  'marble',
  'chandelier',
  'treadmill',
  'safe',
  'bonsai',
  'harp',
  'kayak',
  'trampoline',
  'glass cabinet',
  'billiard',
  'telescope',
  'sculpture',
];

/** The search benchmark's queries: 1-3 words from the corpus vocabulary, common and rare. */
export const QUERIES = [
  'storage',
  'storage billing',
  'crew app',
  'quote',
  'cubic metre',
  'video survey',
  'interstate',
  'backloading melbourne',
  'vault',
  'pro-rata',
  'dispatch board',
  'customs',
  'groupage consolidation',
  'sea freight',
  'xero',
  'myob sync',
  'gst',
  'damage claims',
  'chain of responsibility',
  'fatigue',
  'load restraint',
  'forklift',
  'pallet racking',
  'barcode',
  'offline',
  'signature',
  'piano',
  'pool table',
  'grandfather clock',
  'aquarium',
  'defence',
  'security clearance',
  'tender',
  'portal',
  'payment link',
  'sms',
  'peak season',
  'overtime',
  'perth',
  'hobart',
  'darwin',
  'brisbane storage',
  'harbourline',
  'keystone',
  'insurance value',
  'arrears',
  'direct debit',
  'stocktake',
  'productivity',
  'binding quote',
  'destination agent',
  'biosecurity',
];

interface Gen {
  r: () => number;
  pick<T>(a: readonly T[]): T;
  int(lo: number, hi: number): number;
}

function gen(seed: number): Gen {
  const r = rng(seed);
  return {
    r,
    pick: (a) => a[Math.floor(r() * a.length)]!,
    int: (lo, hi) => lo + Math.floor(r() * (hi - lo + 1)),
  };
}

/** A Zipf-like pick: low indexes far more often (exponent about 1). */
function zipf<T>(g: Gen, a: readonly T[]): T {
  const i = Math.floor(Math.exp(g.r() * Math.log(a.length + 1))) - 1;
  return a[Math.min(a.length - 1, Math.max(0, i))]!;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function sentence(g: Gen, topic: (typeof TOPICS)[number], related: (typeof TOPICS)[number]): string {
  const w = () => (g.r() < 0.7 ? zipf(g, topic.words) : g.r() < 0.7 ? zipf(g, related.words) : zipf(g, FILLER));
  const shapes = [
    () => `${cap(g.pick(ROLES))} ${g.pick(VERBS)} the ${w()} ${g.pick(FILLER)} ${g.pick(FILLER)} ${w()}.`,
    () => `A ${g.pick(ADJ)} ${w()} means fewer ${w()} problems and a ${g.pick(ADJ)} ${w()} for the ${zipf(g, FILLER)}.`,
    () =>
      `In ${g.pick(CITIES)}, ${g.pick(COMPANIES)} ${g.pick(VERBS)} about ${g.int(2, 900)} ${w()} jobs a ${g.pick(['week', 'month', 'year'])}.`,
    () => `When the ${w()} changes, ${g.pick(ROLES)} ${g.pick(VERBS)} the ${w()} and the ${w()} in one record.`,
    () => `Most ${zipf(g, FILLER)} ${w()} issues start with a ${g.pick(ADJ)} ${w()}, not with the ${w()}.`,
    () => `Keep the ${w()} ${g.pick(['next to', 'with', 'on'])} the ${w()}, so nobody types it twice.`,
    () =>
      `${cap(w())} takes ${g.int(5, 90)} minutes when the ${w()} is ${g.pick(ADJ)}, and ${g.int(2, 8)} hours when it is not.`,
    () => `Customers moving a ${zipf(g, RARE)} expect a ${g.pick(ADJ)} ${w()} and a ${w()} they can trust.`,
  ];
  return g.pick(shapes)();
}

function paragraph(g: Gen, topic: (typeof TOPICS)[number], related: (typeof TOPICS)[number]): string {
  const n = g.int(2, 6);
  return Array.from({ length: n }, () => sentence(g, topic, related)).join(' ');
}

function body(g: Gen, topic: (typeof TOPICS)[number], words: number, links: string[]): string {
  const related = g.pick(TOPICS);
  const out: string[] = [];
  let count = 0;
  let section = 0;
  while (count < words) {
    const roll = g.r();
    let block: string;
    if (count === 0 || roll < 0.55) block = paragraph(g, topic, related);
    else if (roll < 0.7) {
      section++;
      block = `## ${cap(zipf(g, topic.words))} ${g.pick(['in practice', 'step by step', 'and what it costs', 'for small teams', 'at scale', 'checklist', 'mistakes to avoid'])}`;
    } else if (roll < 0.82) {
      const n = g.int(3, 6);
      block = Array.from(
        { length: n },
        () => `- **${cap(zipf(g, topic.words))}.** ${sentence(g, topic, related)}`,
      ).join('\n');
    } else if (roll < 0.9) {
      const n = g.int(3, 5);
      block = Array.from({ length: n }, (_, i) => `${i + 1}. ${sentence(g, topic, related)}`).join('\n');
    } else if (roll < 0.95) {
      const rows = g.int(2, 5);
      block = [
        '| Item | Volume | Price |',
        '|---|---|---|',
        ...Array.from(
          { length: rows },
          () => `| ${cap(zipf(g, topic.words))} | ${g.int(1, 60)} m³ | $${g.int(40, 4000)} |`,
        ),
      ].join('\n');
    } else {
      block = `See [${zipf(g, topic.words)}](/${g.pick(links)}) and ${sentence(g, topic, related).toLowerCase()}`;
    }
    out.push(block);
    count += block.split(/\s+/).length;
    if (section > 12) section = 0;
  }
  return `${out.join('\n\n')}\n`;
}

/** Words per page: mostly 300-900, a long tail up to about 2,500, a few short pages. */
function length(g: Gen): number {
  const u = g.r();
  if (u < 0.1) return g.int(120, 250);
  if (u < 0.85) return g.int(300, 900);
  return g.int(900, 2500);
}

const yaml = (s: string) => JSON.stringify(s);
const slugify = (s: string) =>
  s
    .toLowerCase()
    .replace(/m³/g, 'm3')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function clampDescription(g: Gen, s: string): string {
  let d = s;
  while (d.length < 60) d += ` ${cap(g.pick(FILLER))} ${g.pick(FILLER)} explained for moving and storage companies.`;
  return d.length > 190 ? `${d.slice(0, d.lastIndexOf(' ', 186))}.` : d;
}

function date(g: Gen, fromYear: number): string {
  const y = g.int(fromYear, 2026);
  return `${y}-${String(g.int(1, 12)).padStart(2, '0')}-${String(g.int(1, 28)).padStart(2, '0')}`;
}

export interface CorpusStats {
  pages: number;
  posts: number;
  words: number;
  bytes: number;
}

/**
 * Writes `count` pages under `<dir>/content/`: the home, pricing and blog index pages (their front matter's
 * `kind` gives them their layouts, as on the real site), about a quarter blog posts, and the rest help, guide
 * and location pages. Replaces `<dir>/content` when it exists.
 */
export async function writeCorpus(dir: string, count = 10_000, seed = 1): Promise<CorpusStats> {
  const content = join(dir, 'content');
  await rm(content, { recursive: true, force: true });
  await mkdir(join(content, 'data'), { recursive: true });
  await copyFile(join(ROOT, 'content/data/pricing.json'), join(content, 'data/pricing.json'));
  const g = gen(seed);
  const files = new Map<string, string>();
  const links: string[] = ['pricing', 'blog', ''];

  const fixed: [string, string][] = [
    [
      'pages/index.md',
      `---\ntitle: Run every move from one system\ndescription: Operating software for removalists, international movers and storage operators, from first quote to final invoice.\nupdated: 2026-11-02\neyebrow: Software for movers\nlead: Quoting, scheduling, crew app, storage billing and invoicing in one system.\nkind: home\n---\n\n`,
    ],
    [
      'pages/pricing.md',
      `---\ntitle: Pricing\ndescription: Plans for moving and storage companies, priced monthly in AUD excluding GST, with a 30-day trial on Starter and Growth.\nupdated: 2026-10-01\neyebrow: Pricing\nkind: pricing\n---\n\n`,
    ],
    [
      'pages/blog.md',
      `---\ntitle: The blog\ndescription: Practical articles for removalists, international movers and storage operators on quoting, scheduling, compliance and storage billing.\nupdated: 2026-10-20\neyebrow: Blog\nkind: listing\n---\n\n`,
    ],
  ];
  const posts = Math.max(0, Math.round((count - fixed.length) / 4));
  const seen = new Set<string>();
  const unique = (base: string) => {
    let s = base;
    for (let n = 2; seen.has(s); n++) s = `${base}-${n}`;
    seen.add(s);
    return s;
  };
  let words = 0;
  for (const [path, head] of fixed.slice(0, count)) {
    const topic = g.pick(TOPICS);
    const n = length(g);
    words += n;
    files.set(path, head + body(g, topic, n, links));
  }
  for (let i = 0; files.size < count; i++) {
    const topic = g.pick(TOPICS);
    const n = length(g);
    words += n;
    const isPost = i < posts;
    const kw = zipf(g, topic.words);
    const city = g.pick(CITIES);
    if (isPost) {
      const title = g.pick([
        `${cap(kw)}: what ${g.int(3, 40)} movers taught us`,
        `How ${g.pick(COMPANIES)} handles ${kw}`,
        `${cap(topic.name)} without the headaches`,
        `Five mistakes with ${kw} in ${city}`,
        `A practical guide to ${kw} for ${g.pick(['removalists', 'storage operators', 'international movers'])}`,
      ]);
      const slug = unique(`blog/${slugify(title)}`);
      links.push(slug);
      const description = clampDescription(
        g,
        `${sentence(g, topic, topic)} ${cap(topic.name)} for ${g.pick(['removalists', 'storage operators', 'movers'])}.`,
      );
      const tags = [...new Set([g.pick(TAGS), g.pick(TAGS), g.pick(TAGS)])].slice(0, g.int(1, 3));
      const published = date(g, 2019);
      files.set(
        `${slug}.md`,
        `---\ntitle: ${yaml(title)}\ndescription: ${yaml(description)}\npublished: ${published}\nauthor: ${yaml(g.pick(PEOPLE))}\ntags: [${tags.join(', ')}]\n---\n\n${body(g, topic, n, links)}`,
      );
    } else {
      const section = g.pick(['help', 'help', 'guides', 'locations']);
      const title =
        section === 'locations'
          ? `Removalist software in ${city}: ${kw}`
          : section === 'guides'
            ? `Guide: ${kw} for ${g.pick(['small teams', 'growing fleets', 'storage operators', 'international movers'])}`
            : `${cap(g.pick(['how to', 'set up', 'fix', 'understand', 'change']))} ${kw} in ${g.pick(['the dispatch board', 'the crew app', 'storage billing', 'the customer portal', 'quotes', 'invoices'])}`;
      const slug = unique(`${section}/${slugify(title).slice(0, 70).replace(/-$/, '')}`);
      links.push(slug);
      const description = clampDescription(g, `${sentence(g, topic, topic)} ${cap(topic.name)} in ${city}.`);
      const eyebrow = g.r() < 0.5 ? `\neyebrow: ${yaml(cap(section))}` : '';
      files.set(
        `pages/${slug}.md`,
        `---\ntitle: ${yaml(title.slice(0, 80))}\ndescription: ${yaml(description)}\nupdated: ${date(g, 2023)}${eyebrow}\n---\n\n${body(g, topic, n, links)}`,
      );
    }
  }
  let bytes = 0;
  for (const [path, text] of files) {
    const file = join(content, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
    bytes += Buffer.byteLength(text);
  }
  return { pages: files.size, posts, words, bytes };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, pages, seed] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: node bench/corpus.ts <dir> [pages] [seed]');
    process.exit(2);
  }
  const stats = await writeCorpus(resolve(dir), Number(pages) || 10_000, Number(seed) || 1);
  console.log(JSON.stringify(stats));
}

// Preloaded (node --import) into a tool that fetches a site by its canonical origin: requests to
// ORIGIN_MAP's first URL go to its second, as a hosts-file entry would send them. The build writes the
// canonical origin (SITE_URL) into every link, and the test server listens on a free port instead.
const [from, to] = (process.env.ORIGIN_MAP ?? '').split('=');
if (from && to) {
  const original = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return original(url.startsWith(from) ? to + url.slice(from.length) : input, init);
  };
}

// RANDOM_SEED: Math.random from a fixed seed (mulberry32), so a tool that samples pages at random samples the
// same ones every run. The agent-readability audit shuffles the sitemap and checks `${first}.md`; drawing the
// home page first made it ask for `http://host.md` about one run in sixty.
const seed = Number(process.env.RANDOM_SEED);
if (Number.isInteger(seed)) {
  let a = seed >>> 0;
  Math.random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

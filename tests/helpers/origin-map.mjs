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

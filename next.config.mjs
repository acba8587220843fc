/** @type {import('next').NextConfig} */
const nextConfig = {
  // NEXT_DIST_DIR lets a benchmark or a second checkout build beside the main build without clobbering it.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // A build is checked against a configuration naming its own folder (scripts/prepare.mjs buildTsconfig), so
  // next build never rewrites tsconfig.json.
  typescript: { tsconfigPath: process.env.NEXT_TSCONFIG_PATH || "tsconfig.json" },
  // The API answers JSON envelopes only; the `x-powered-by` banner tells attackers nothing useful to us.
  poweredByHeader: false,
  // better-sqlite3 and pg are on Next's built-in server-external list already; named here so that is explicit.
  // The rate-limit library and the Redis client are loaded from node_modules too, as Node would load them;
  // prom-client must be: server.mjs and the app count into the one registry (lib/core/metrics.ts).
  serverExternalPackages: ["better-sqlite3", "pg", "rate-limiter-flexible", "ioredis", "prom-client"],
  // Metadata (the page's <title>, translated on the hosted pages) is rendered in the <head> for every client,
  // as Next does for the user agents this names, instead of streamed in after the body: a page is never
  // without its title, for a screen reader or an accessibility check, at any moment of its load.
  htmlLimitedBots: /./,
};

export default nextConfig;

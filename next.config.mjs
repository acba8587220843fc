/** @type {import('next').NextConfig} */
const nextConfig = {
  // NEXT_DIST_DIR lets a benchmark or a second checkout build beside the main build without clobbering it.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // The API answers JSON envelopes only; the `x-powered-by` banner tells attackers nothing useful to us.
  poweredByHeader: false,
  // better-sqlite3 and pg are on Next's built-in server-external list already; named here so that is explicit.
  // The rate-limit library and the Redis client are loaded from node_modules too, as Node would load them.
  serverExternalPackages: ["better-sqlite3", "pg", "rate-limiter-flexible", "ioredis"],
};

export default nextConfig;

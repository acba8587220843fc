/** @type {import('next').NextConfig} */
const nextConfig = {
  // NEXT_DIST_DIR lets a benchmark or a second checkout build beside the main build without clobbering it.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // The API answers JSON envelopes only; the `x-powered-by` banner tells attackers nothing useful to us.
  poweredByHeader: false,
  // better-sqlite3 and pg are on Next's built-in server-external list already; named here so that is explicit.
  serverExternalPackages: ["better-sqlite3", "pg"],
};

export default nextConfig;

// The reference page of `npm run bench:page`: what the same Next and React versions cost at their floor, a
// server-rendered page with one client component. The bench builds it (.next here) and runs Lighthouse on it
// interleaved with the checkout, so the checkout's budgets are relative to this floor on the same machine.
/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Built into a folder of its own and then linked as .next (scripts/prepare.mjs), as the app is.
  distDir: process.env.NEXT_DIST_DIR || ".next",
};

export default nextConfig;

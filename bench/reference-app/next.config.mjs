// The reference page of `npm run bench:page`: what the same Next and React versions cost at their floor, a
// server-rendered page with one client component. The bench builds it (.next here) and runs Lighthouse on it
// interleaved with the checkout, so the checkout's budgets are relative to this floor on the same machine.
/** @type {import('next').NextConfig} */
const nextConfig = { poweredByHeader: false };

export default nextConfig;

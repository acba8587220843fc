// The hosted pages' stylesheet, announced in the response's headers (`Link: <…>; rel=preload; as=style`), so a
// browser starts fetching it when the headers arrive instead of after it has parsed the <head>. The page
// cannot paint before its stylesheet is in; on a phone that is the difference between painting the amount
// before the JavaScript has downloaded and painting it after (docs/benchmarks.md, bench:page).
//
// The app has one stylesheet (app/globals.css, Tailwind, imported by the root layout); its hashed name is
// read from the build once, on the first page request.
import { readdirSync } from "node:fs";
import { join } from "node:path";

let cached: string | undefined;

/** The `Link` header value preloading the build's stylesheets, or "" when the build has none. */
export function stylesheetPreloadHeader(): string {
  if (cached !== undefined) return cached;
  const dir = join(process.cwd(), process.env.NEXT_DIST_DIR || ".next", "static", "chunks");
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith(".css"));
  } catch {
    // No build output to read (a test calling the proxy directly): nothing to announce.
  }
  cached = files
    .sort()
    .map((name) => `</_next/static/chunks/${encodeURIComponent(name)}>; rel=preload; as=style`)
    .join(", ");
  return cached;
}

// The app's one stylesheet (app/globals.css, Tailwind), compiled and minified outside Next's CSS pipeline and
// written to `<distDir>/app.css`. Every page carries it in a <style> element in its <head>
// (components/app-styles.tsx), so the first paint needs no second round trip for a stylesheet; Next links no
// stylesheet at all, since nothing in the app imports a .css file. Decision record:
// docs/decisions/009-first-tap.md.
//
//   node scripts/build-css.mjs   (npm run build, npm start and npm test run it after next build: scripts/prepare.mjs)
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The compiled stylesheet's text (Tailwind scans the project for the classes it uses). */
export async function compileAppCss({ minify = true } = {}) {
  const [{ default: postcss }, { default: tailwind }] = await Promise.all([
    import("postcss"),
    import("@tailwindcss/postcss"),
  ]);
  const from = join(root, "app/globals.css");
  const result = await postcss([
    tailwind({ base: root, optimize: minify ? { minify: true } : false }),
  ]).process(readFileSync(from, "utf8"), { from });
  return result.css;
}

/** Compile into `<distDir>/app.css` (written whole, then renamed into place). */
export async function buildAppCss({ distDir = process.env.NEXT_DIST_DIR || ".next" } = {}) {
  const css = await compileAppCss();
  const dir = join(root, distDir);
  mkdirSync(dir, { recursive: true });
  const target = join(dir, "app.css");
  writeFileSync(`${target}.tmp`, css);
  renameSync(`${target}.tmp`, target);
  return { path: target, bytes: Buffer.byteLength(css) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { path, bytes } = await buildAppCss();
  console.log(`Stylesheet: ${path} (${(bytes / 1024).toFixed(1)} kB)`);
}

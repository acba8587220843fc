import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The app's stylesheet as the pages inline it (components/app-styles.tsx): the build's `app.css`
 * (scripts/build-css.mjs), read once per process. Under `next dev` it is compiled again on every page, so an
 * edited class shows up on reload. Empty when the build has none (a page still renders, unstyled).
 */
let built: string | undefined;

export async function appStylesheet(): Promise<string> {
  if (process.env.NODE_ENV !== "production") {
    // Not bundled: the compiler (Tailwind, PostCSS) is a development dependency, loaded by Node itself.
    const script = join(process.cwd(), "scripts/build-css.mjs");
    const { compileAppCss } = (await import(
      /* turbopackIgnore: true */ /* webpackIgnore: true */ script
    )) as {
      compileAppCss: (options?: { minify?: boolean }) => Promise<string>;
    };
    return compileAppCss({ minify: false });
  }
  if (built === undefined) {
    try {
      built = readFileSync(join(process.cwd(), process.env.NEXT_DIST_DIR || ".next", "app.css"), "utf8");
    } catch {
      built = "";
    }
  }
  return built;
}

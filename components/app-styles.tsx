"use client";

import { useServerInsertedHTML } from "next/navigation";
import { useRef } from "react";

/**
 * The app's stylesheet, inlined into the <head> of the server's HTML with the page's CSP nonce: a page paints
 * from its first response, with no stylesheet round trip first (docs/decisions/009-first-tap.md).
 *
 * `useServerInsertedHTML` is Next's way for styles to reach the HTML stream (as CSS-in-JS libraries use it):
 * what it inserts goes into the HTML only, not into the RSC payload, so the text is sent once. The text itself
 * never passes through props (props are serialised into that payload): the root layout leaves it on
 * `globalThis` under `paygate.appStylesheet` (lib/http/app-stylesheet.ts) for this component's server render,
 * in the same process. In the browser this renders nothing, and the <style> stays in the document across
 * client-side navigations.
 */
export function AppStyles({ nonce }: { nonce: string | undefined }) {
  const inserted = useRef(false);
  useServerInsertedHTML(() => {
    if (inserted.current) return null;
    inserted.current = true;
    const css = (globalThis as Record<symbol, string | undefined>)[Symbol.for("paygate.appStylesheet")];
    if (!css) return null;
    // The build's own stylesheet (never input): as text, React would escape its `>` combinators.
    // biome-ignore lint/security/noDangerouslySetInnerHtml: the app's compiled CSS, not user content
    return <style nonce={nonce} data-app-styles="" dangerouslySetInnerHTML={{ __html: css }} />;
  });
  return null;
}

"use client";

import { useEffect } from "react";

/**
 * Sets `data-hydrated` on `<html>` once React has attached the page's code, so that a browser test knows when a
 * click is answered. The hosted pages paint from the server's HTML first and load their code after the first
 * paint (lib/http/paint-first.mjs), so the browser's load event can come before it: wait for
 * `html[data-hydrated]` instead (docs/testing.md; the QA kit and the e2e fixtures do).
 */
export function HydratedMark() {
  useEffect(() => {
    document.documentElement.setAttribute("data-hydrated", "");
  }, []);
  return null;
}

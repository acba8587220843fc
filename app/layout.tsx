import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import { AppStyles } from "@/components/app-styles";
import { requestLocale } from "@/lib/checkout/request-locale";
import { appStylesheet } from "@/lib/http/app-stylesheet";

export const metadata: Metadata = {
  title: { default: "Paygate", template: "%s · Paygate" },
  description: "Hosted checkout and payment collection API.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#0f766e" };

/** `<html lang>` is the page's language: English, or on the hosted pages the customer's (docs/checkout.md). */
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const [lang, css, requestHeaders] = await Promise.all([requestLocale(), appStylesheet(), headers()]);
  // Read by AppStyles while this request's HTML is rendered (components/app-styles.tsx says why not a prop).
  (globalThis as Record<symbol, string>)[Symbol.for("paygate.appStylesheet")] = css;
  return (
    <html lang={lang}>
      <body className="min-h-dvh bg-slate-50 text-slate-900 antialiased">
        <AppStyles nonce={requestHeaders.get("x-nonce") ?? undefined} />
        {children}
      </body>
    </html>
  );
}

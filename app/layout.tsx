import type { Metadata, Viewport } from "next";
import { HydratedMark } from "@/components/hydrated-mark";
import { requestLocale } from "@/lib/i18n/request-locale";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Paygate", template: "%s · Paygate" },
  description: "Hosted checkout and payment collection API.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#0f766e" };

/** `<html lang>` is the page's language: English, or on the hosted pages the customer's (docs/checkout.md). */
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const lang = await requestLocale();
  return (
    <html lang={lang}>
      <body className="min-h-dvh bg-slate-50 text-slate-900 antialiased">
        {children}
        <HydratedMark />
      </body>
    </html>
  );
}

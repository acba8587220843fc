import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { LanguageMenu } from "@/components/ui/language-menu";
import { DEMO_PRODUCTS, demoKey } from "@/lib/checkout/demo-store";
import { requestLocale } from "@/lib/checkout/request-locale";
import { env } from "@/lib/env";
import { formatMoney } from "@/lib/i18n/format";
import { messagesFor } from "@/lib/i18n/messages";
import { DemoForm } from "./demo-form";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = messagesFor(await requestLocale());
  return { title: { absolute: t.demo.title }, robots: { index: false } };
}

/**
 * A demo merchant's shop (test mode only): pick a product, pay on the hosted checkout, come back to
 * /demo/return, which verifies the payment server-side before "fulfilling".
 */
export default async function DemoStorePage() {
  const key = await demoKey();
  if (!key.ok && key.reason === "live_mode") notFound();
  // Where the server keeps the demo key (DEMO_MERCHANT_FILE): named so a moved file is found.
  const file = env().DEMO_MERCHANT_FILE;
  const locale = await requestLocale();
  const t = messagesFor(locale);
  const d = t.demo;

  return (
    <main className="mx-auto w-full max-w-xl px-4 py-8 sm:py-12">
      <LanguageMenu locale={locale} label={t.page.language} />
      <p className="mt-3 text-sm font-semibold tracking-wide text-teal-800 uppercase">{d.eyebrow}</p>
      <h1 className="mt-1 text-3xl font-semibold tracking-tight text-slate-900">{d.title}</h1>
      <p className="mt-2 text-slate-700">{d.intro}</p>

      {!key.ok ? (
        <section className="mt-8 rounded-xl bg-white p-5 ring-1 ring-slate-200" aria-labelledby="setup">
          <h2 id="setup" className="text-lg font-semibold text-slate-900">
            {d.notSetUp}
          </h2>
          <p className="mt-2 text-slate-700">
            {key.reason === "missing" ? `There is no ${file} on this server.` : `${file} could not be read.`}{" "}
            The server writes it when it starts on an empty staging database with SEED_DEMO=1 (the default):
          </p>
          <pre className="mt-3 overflow-x-auto rounded-lg bg-slate-900 p-3 text-sm text-slate-100">
            {`rm -rf data/          # or point DATABASE_URL at a new file\nnpm start             # creates Demo Store and ${file}`}
          </pre>
          <p className="mt-2 text-sm text-slate-700">
            The file holds the demo merchant&apos;s test secret key; it stays on the server and never reaches
            the browser.
          </p>
        </section>
      ) : (
        <DemoForm
          lang={locale !== "en" ? locale : null}
          products={DEMO_PRODUCTS.map((p) => ({
            id: p.id,
            name: d.products[p.id],
            price: formatMoney(p.amount, "NGN", locale),
          }))}
          words={{
            chooseProduct: d.chooseProduct,
            email: d.email,
            fullName: d.fullName,
            optional: d.optional,
            continue: d.continue,
            payInPopup: d.payInPopup,
            errors: d.errors,
          }}
        />
      )}
    </main>
  );
}
